"""The embedded default: run a batch on a local process pool, no server needed.

Each pool process (:mod:`workers.local_child`, a fresh interpreter) runs :func:`workers.job.run_job`
on msgpack bytes, exactly as a Redis worker does, so a seed gives the same ``ledger_sha256`` on either
path. Jobs and results travel over the children's stdin/stdout as msgpack — no pickle, not even for
the framing that :mod:`multiprocessing` would add. A job that raises does not stop the batch: it is
reported as dead with its error text and traceback; a child that dies takes only its current job
with it (reported dead) and is replaced.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import msgpack

from workers.batch import BatchPlan
from workers.job import decode

_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Outcome:
    """What became of one job: its result map, or its error."""

    seed: int
    key: str
    result: dict[str, Any] | None = None
    error: str = ""
    traceback: str = ""


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class _Child:
    """One pool process and what it is working on."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "workers.local_child"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        os.set_blocking(self.stdout.fileno(), False)
        self.unpacker = msgpack.Unpacker(raw=False, use_list=True)
        self.ready = False
        self.job: tuple[int, str, bytes] | None = None

    def send(self, item: tuple[int, str, bytes]) -> None:
        self.job = item
        self.stdin.write(msgpack.packb(list(item), use_bin_type=True))
        self.stdin.flush()

    def close(self) -> None:
        try:
            self.stdin.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def run_local(plan: BatchPlan, workers: int | None = None, *, on_progress: Callable[[int, int], None] | None = None
              ) -> Iterator[Outcome]:
    """Run every job of ``plan`` on a pool of ``workers`` processes; yields outcomes as they finish."""
    n = workers or default_workers()
    total = len(plan)
    if total == 0:
        return
    todo: deque[tuple[int, str, bytes]] = deque(plan.jobs())
    done = dead = 0
    sel = selectors.DefaultSelector()
    children: list[_Child] = []
    early_deaths = 0

    def start() -> _Child:
        c = _Child()
        children.append(c)
        sel.register(c.stdout, selectors.EVENT_READ, c)
        return c

    def feed(c: _Child) -> None:
        if todo:
            c.send(todo.popleft())
        else:
            c.job = None

    try:
        for _ in range(min(n, total)):
            start()
        while done + dead < total:
            for key, _ in sel.select():
                c: _Child = key.data
                try:
                    chunk = os.read(c.stdout.fileno(), 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:  # the child died: its job is lost to it, not to the batch
                    sel.unregister(c.stdout)
                    children.remove(c)
                    code = c.proc.wait()
                    if c.job is not None:
                        seed, jkey, _payload = c.job
                        dead += 1
                        if on_progress:
                            on_progress(done, dead)
                        yield Outcome(seed, jkey, error=f"pool process died (exit status {code}) running this job")
                    if not c.ready:
                        early_deaths += 1
                    if todo and early_deaths < 3:
                        start()  # a replacement asks for the next job once it is ready
                    elif todo and not children:  # processes that cannot even start: fail what is left
                        while todo:
                            seed, jkey, _payload = todo.popleft()
                            dead += 1
                            yield Outcome(seed, jkey, error=f"no pool process could start (exit status {code})")
                    continue
                c.unpacker.feed(chunk)
                for msg in c.unpacker:
                    if msg == ["ready"]:
                        c.ready = True
                        feed(c)
                        continue
                    seed, jkey, ok, value, tb = msg
                    c.job = None
                    if ok:
                        out = Outcome(seed, jkey, result=decode(value))
                        done += 1
                    else:
                        out = Outcome(seed, jkey, error=value, traceback=tb)
                        dead += 1
                    feed(c)
                    if on_progress:
                        on_progress(done, dead)
                    yield out
    finally:
        for c in children:
            c.close()
        sel.close()
