"""The embedded default: run a batch on a local process pool, no server needed.

Each pool process is a :class:`workers.child.JobProcess` (:mod:`workers.local_child`) forked by a
fork server that has imported the engine once (:mod:`workers.forkserver`; a fresh interpreter each
where none can start), and runs :func:`workers.job.run_job` on msgpack bytes, exactly as behind a Redis worker,
so a seed gives the same ``ledger_sha256`` on either path. Jobs and results travel over the children's
stdin/stdout as msgpack — no pickle, not even for the framing that :mod:`multiprocessing` would add.
A job that raises does not stop the batch: it is reported as dead with its error text and traceback;
a child that dies takes only its current job with it (reported dead) and is replaced; a job past
its time limit (``job_timeout`` seconds, or by default its own from its length: workers/child.py) is
killed with its process and reported as timed out.
"""

from __future__ import annotations

import selectors
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from workers import forkserver
from workers.batch import BatchPlan
from workers.child import DEFAULT_JOB_TIMEOUT, JobProcess
from workers.job import decode
from workers.options import default_workers


@dataclass
class Outcome:
    """What became of one job: its result map, or its error."""

    seed: int
    key: str
    result: dict[str, Any] | None = None
    error: str = ""
    traceback: str = ""


def run_local(plan: BatchPlan, workers: int | None = None, *, on_progress: Callable[[int, int], None] | None = None,
              job_timeout: float | None = DEFAULT_JOB_TIMEOUT, fork_server: bool = True) -> Iterator[Outcome]:
    """Run every job of ``plan`` on a pool of ``workers`` processes; yields outcomes as they finish.
    The processes are forks of one fork server (``fork_server=False``: each a fresh interpreter)."""
    n = workers or default_workers()
    total = len(plan)
    if total == 0:
        return
    todo: deque[tuple[int, str, bytes]] = deque(plan.jobs())
    jobs: dict[int, tuple[int, str, bytes]] = {}  # seed -> job, while a child holds it
    done = dead = 0
    sel = selectors.DefaultSelector()
    children: list[JobProcess] = []
    early_deaths = 0
    server = forkserver.start() if fork_server else None  # imports the engine once; each pool process is a fork of it

    def start() -> JobProcess:
        c = JobProcess(server)
        children.append(c)
        sel.register(c.fileno(), selectors.EVENT_READ, c)
        return c

    def feed(c: JobProcess) -> None:
        if todo:
            item = todo.popleft()
            jobs[item[0]] = item
            try:
                c.send([(item[0], item[2])])
            except (BrokenPipeError, ValueError):
                pass  # it died: seen as end of file

    def retire(c: JobProcess) -> None:
        sel.unregister(c.fileno())
        children.remove(c)
        c.close()

    try:
        if server is not None:
            server.warm(todo[0][2])  # its scenario read once, before the forks
        for _ in range(min(n, total)):
            feed(start())
        while done + dead < total:
            deadlines = [d for d in (c.deadline(job_timeout) for c in children) if d is not None]
            wait = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            events = sel.select(wait)
            now = time.monotonic()
            for c in [c for c in children if c.overdue(job_timeout, now)]:
                seed = c.inflight[0]
                _, jkey, _ = jobs.pop(seed)
                limit, note = c.limit_of(job_timeout), c.note_of(job_timeout)
                c.kill()
                retire(c)
                dead += 1
                if on_progress:
                    on_progress(done, dead)
                yield Outcome(seed, jkey, error=f"timed out after {limit:g} s (killed{'; ' + note if note else ''})")
                if todo:
                    feed(start())
            for key, _ in events:
                c = key.data
                if c not in children:
                    continue
                for r in c.read():
                    if r.status == "started":
                        continue
                    _, jkey, _ = jobs.pop(r.tag)
                    if r.status == "ok":
                        out = Outcome(r.tag, jkey, result=decode(r.value))
                        done += 1
                    else:
                        out = Outcome(r.tag, jkey, error=r.value, traceback=r.tb)
                        dead += 1
                    feed(c)
                    if on_progress:
                        on_progress(done, dead)
                    yield out
                if not c.eof:
                    continue
                # the child died: its job is lost to it, not to the batch
                text = c.exit_text()
                held = list(c.inflight)
                was_ready = c.ready
                retire(c)
                if not was_ready:
                    early_deaths += 1
                    todo.extendleft(jobs.pop(s) for s in reversed(held))  # never started: run them elsewhere
                else:
                    for seed in held:
                        _, jkey, _ = jobs.pop(seed)
                        dead += 1
                        if on_progress:
                            on_progress(done, dead)
                        yield Outcome(seed, jkey, error=f"pool process died ({text}) running this job")
                if todo and early_deaths < 3:
                    feed(start())  # a replacement: the job waits in its pipe until it is ready
                elif todo and not children:  # processes that cannot even start: fail what is left
                    while todo:
                        seed, jkey, _payload = todo.popleft()
                        dead += 1
                        yield Outcome(seed, jkey, error=f"no pool process could start ({text})")
    finally:
        for c in children:
            c.close()
        sel.close()
        if server is not None:
            server.close()
