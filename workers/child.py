"""Jobs run in a warm child process with a time limit — the local pool and the Redis worker share this.

A job is untrusted: it may raise anything, exit, abort, fork or never return. So it runs in a child
(:mod:`workers.local_child`, a fresh interpreter fed msgpack over its stdin/stdout, no pickle) that
stays warm between jobs, and the parent only waits on a pipe: a job past its time limit is killed
with its whole process group (the child runs in a session of its own) and reported as timed out; a
child that dies takes only its current job with it. Several jobs can be handed over in one write
(the child answers each as it finishes, a run of short jobs' answers in one write held at most 0.1 s,
:data:`workers.local_child.HOLD_S`), so a short job costs a fraction of a pipe message each way, not a
round trip; the time limit of each runs from the moment the previous one was answered.

The time limit: a number of seconds given by the caller (``--job-timeout``), or by default (``None``) each
job's own, from its length (:func:`workers.job.time_limit`), which the child says as the job starts;
until it has, :data:`PREPARE_S`.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

import msgpack

from workers.forkserver import Forked, ForkServer, child_env

DEFAULT_JOB_TIMEOUT: float | None = None  # None: each job's own limit, from its length
PREPARE_S = 60.0  # the limit of a job (by default) until its process has said the job's own
JOB_TIMEOUT_HELP = ("kill a job that runs longer than S seconds (default: each job's own limit from its length, "
                    "10 s + 20 s per year of campaign; docs/workers.md)")


@dataclass
class Reply:
    """What became of one job handed to a child."""

    tag: Any
    status: str  # "ok" | "error" (the job raised) | "timeout" | "died" (its process died) | "cancelled"
    # | "started" (only with report_starts: the child has begun this job)
    value: Any = b""  # "ok": the result's msgpack bytes; otherwise the error text
    tb: str = ""
    seconds: float = 0.0  # wall time
    cpu: float = 0.0  # the job's CPU time in the child
    note: str = ""  # "timeout" by the default limit: what it was worked out from


class JobProcess:
    """One child process and the jobs handed to it (in order): forked by ``server`` (a
    :class:`workers.forkserver.ForkServer`, which has imported the engine) when one is given and can,
    else a fresh interpreter."""

    def __init__(self, server: ForkServer | None = None) -> None:
        self.proc: subprocess.Popen[bytes] | Forked
        forked = None
        if server is not None:
            try:
                forked = server.spawn()
            except OSError:
                forked = None  # (the server is gone: a fresh interpreter, as without one)
        if forked is not None:
            self.proc = forked[0]
            self.stdin: IO[bytes] = os.fdopen(forked[1], "wb")
            self.stdout: IO[bytes] = os.fdopen(forked[2], "rb")
        else:
            popen = subprocess.Popen(
                [sys.executable, "-m", "workers.local_child"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=child_env(), start_new_session=True,
            )
            assert popen.stdin is not None and popen.stdout is not None
            self.proc = popen
            self.stdin = popen.stdin
            self.stdout = popen.stdout
        os.set_blocking(self.stdout.fileno(), False)
        self.unpacker = msgpack.Unpacker(raw=False, use_list=True, max_buffer_size=1 << 30)
        self.ready = False
        self.version = ""
        self.engine_error = ""
        self.inflight: deque[Any] = deque()  # tags handed over and not answered, oldest (running) first
        self.since = 0.0  # when the oldest in-flight job started (or when the child got ready)
        self.limit: float | None = None  # the running job's own limit, once the child has said it
        self.limit_note = ""  # what that limit was worked out from
        self.eof = False
        self.report_starts = False

    def fileno(self) -> int:
        return self.stdout.fileno()

    def send(self, items: list[tuple[Any, bytes]]) -> list[Reply]:
        """Hand jobs over (one write); returns a "started" reply when the first starts at once (with
        ``report_starts``). Raises BrokenPipeError if the child is gone."""
        if not items:
            return []
        idle = not self.inflight
        if idle:
            self.since = time.monotonic()
        self.inflight.extend(tag for tag, _ in items)
        self.stdin.write(b"".join(msgpack.packb(["job", tag, payload], use_bin_type=True) for tag, payload in items))
        self.stdin.flush()
        return [Reply(items[0][0], "started")] if idle and self.ready and self.report_starts else []

    def cancel(self) -> None:
        """Ask the child to drop the jobs it has not started (it answers each with "cancelled")."""
        try:
            self.stdin.write(msgpack.packb(["cancel"]))
            self.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def read(self) -> list[Reply]:
        """What the child has answered so far (non-blocking); sets ``eof`` when it is gone."""
        out: list[Reply] = []
        while True:
            try:
                chunk = os.read(self.fileno(), 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                self.eof = True
                break
            self.unpacker.feed(chunk)
            if len(chunk) < 1 << 16:
                break
        now = time.monotonic()
        for msg in self.unpacker:
            kind = msg[0]
            if kind == "ready":
                self.ready = True
                self.version, self.engine_error = msg[2], msg[3]
                self.since = now
                if self.report_starts and self.inflight:
                    out.append(Reply(self.inflight[0], "started"))
            elif kind == "limit":
                _, tag, seconds, what = msg
                if (self.inflight and self.inflight[0] == tag and isinstance(seconds, (int, float))
                        and 0 < seconds < 10**7):
                    self.limit, self.limit_note = float(seconds), str(what)[:200]
            elif kind == "done":
                _, tag, ok, value, tb, cpu = msg
                self._answered(tag)
                out.append(Reply(tag, "ok" if ok else "error", value, tb, now - self.since, cpu))
                self.since = now
                if self.report_starts and self.inflight:
                    out.append(Reply(self.inflight[0], "started"))
            elif kind == "cancelled":
                self._answered(msg[1])
                out.append(Reply(msg[1], "cancelled"))
        return out

    def _answered(self, tag: Any) -> None:
        if self.inflight and self.inflight[0] == tag:
            self.inflight.popleft()
            self.limit, self.limit_note = None, ""
        else:
            try:
                self.inflight.remove(tag)
            except ValueError:
                pass

    def limit_of(self, timeout: float | None) -> float:
        """The running job's time limit: ``timeout`` when given, else its own (or :data:`PREPARE_S` until
        the child has said it)."""
        if timeout is not None:
            return timeout
        return self.limit if self.limit is not None else PREPARE_S

    def note_of(self, timeout: float | None) -> str:
        """For a job killed at the default limit: what the limit was worked out from, and what to do."""
        if timeout is not None:
            return ""
        what = f"for {self.limit_note}" if self.limit is not None else "before the job's own was known"
        return f"the default time limit {what}; --job-timeout S sets another"

    def overdue(self, timeout: float | None, now: float) -> bool:
        return bool(self.ready and self.inflight and now - self.since >= self.limit_of(timeout))

    def deadline(self, timeout: float | None) -> float | None:
        if not self.ready or not self.inflight:
            return None
        return self.since + self.limit_of(timeout)

    def exit_text(self) -> str:
        code = self.proc.wait()
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"

    def kill(self) -> None:
        """Kill the child and every process it started (its process group)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.kill()

    def close(self, grace: float = 0.0) -> None:
        """Close its stdin (it exits once its jobs are done); kill it after ``grace`` seconds."""
        try:
            self.stdin.close()
        except OSError:
            pass
        if grace > 0:
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        self.proc.wait()
        try:
            self.stdout.close()
        except OSError:
            pass


class JobRunner:
    """A warm child for one caller that runs its jobs in order (the Redis worker's side).

    :meth:`run` hands a list of jobs over at once and yields a :class:`Reply` for each, in order, as
    they finish; a job past its time limit (``timeout`` seconds, or by default its own) is killed (status
    ``timeout``), a child that dies takes its current job (status ``died``); either way a fresh child takes
    the jobs that were not started. Asked to stop (``should_stop``), it kills the child at once and answers
    every job not finished ``cancelled`` (the caller puts them back).
    """

    def __init__(self, timeout: float | None = DEFAULT_JOB_TIMEOUT, server: ForkServer | None = None) -> None:
        self.timeout = timeout
        self.server = server  # its job processes forked by this fork server (else fresh interpreters)
        self.proc: JobProcess | None = None
        self.starts = 0
        self.report_starts = False  # also yield a "started" Reply as each job begins (for a debug log)

    def start(self) -> JobProcess:
        if self.proc is None:
            self.proc = JobProcess(self.server)
            self.starts += 1
        self.proc.report_starts = self.report_starts
        return self.proc

    def run(self, items: list[tuple[Any, bytes]], *, wake_fd: int | None = None,
            should_stop: Callable[[], bool] = lambda: False) -> Iterator[Reply]:
        todo = deque(items)
        early_deaths = 0
        cancelled = False
        while todo:
            p = self.start()
            try:
                yield from p.send(list(todo))
            except (BrokenPipeError, ValueError):
                pass  # it died: seen below as end of file
            handed = list(todo)
            todo.clear()
            answered: set[Any] = set()
            while p.inflight and not p.eof:
                if should_stop():  # the job in hand too: killed now, put back by the caller
                    for r in p.read():  # (but the answers already written are taken)
                        if r.status != "started":
                            answered.add(r.tag)
                        yield r
                    p.kill()
                    p.close()
                    self.proc = None
                    cancelled = True
                    break
                now = time.monotonic()
                if p.overdue(self.timeout, now):
                    tag = p.inflight[0]
                    elapsed = now - p.since
                    limit, note = p.limit_of(self.timeout), p.note_of(self.timeout)
                    p.kill()
                    p.close()
                    self.proc = None
                    answered.add(tag)
                    yield Reply(tag, "timeout", f"timed out after {limit:g} s (killed)", "", elapsed, note=note)
                    break
                dl = p.deadline(self.timeout)
                wait = None if dl is None else max(0.0, dl - now)
                fds = [p.fileno()] + ([wake_fd] if wake_fd is not None else [])
                ready, _, _ = select.select(fds, [], [], wait)
                if wake_fd is not None and wake_fd in ready:
                    try:
                        os.read(wake_fd, 512)
                    except BlockingIOError:
                        pass
                if p.fileno() in ready:
                    for r in p.read():
                        if r.status != "started":
                            answered.add(r.tag)
                        yield r
            if not cancelled and self.proc is p and p.eof:
                text = p.exit_text()
                tag = p.inflight[0] if p.inflight else None
                elapsed = time.monotonic() - p.since
                was_ready = p.ready
                p.close()
                self.proc = None
                if tag is not None:
                    answered.add(tag)
                    if was_ready:
                        yield Reply(tag, "died", f"its job process died ({text}) while running it", "", elapsed)
                    else:
                        early_deaths += 1
                        if early_deaths >= 3:
                            for t in [t for t, _ in handed if t not in answered]:
                                answered.add(t)
                                yield Reply(t, "died", f"no job process could start ({text})")
            todo.extend((t, pl) for t, pl in handed if t not in answered)
            if cancelled:
                for t, _ in todo:
                    yield Reply(t, "cancelled")
                todo.clear()
            elif self.proc is None:
                self.start()  # a replacement warms up now, not when the next job comes

    def wait_ready(self, timeout: float | None = None, wake_fd: int | None = None) -> JobProcess | None:
        """Start the child if needed and wait until it has imported the engine (or died, or ``wake_fd``
        became readable, or ``timeout`` passed); returns it when ready."""
        p = self.start()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not p.ready and not p.eof:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            fds = [p.fileno()] + ([wake_fd] if wake_fd is not None else [])
            ready, _, _ = select.select(fds, [], [], wait)
            if not ready or (wake_fd is not None and wake_fd in ready):
                return None
            p.read()  # (nothing was handed over yet: only the "ready" message)
        if p.eof:
            text = p.exit_text()
            p.close()
            self.proc = None
            raise OSError(f"the job process exited while starting ({text})")
        return p

    def limit_now(self) -> float:
        """The time limit of the job running now (or the longest a job may take before it says its own)."""
        p = self.proc
        return p.limit_of(self.timeout) if p is not None else (self.timeout or PREPARE_S)

    def close(self, grace: float = 1.0) -> None:
        if self.proc is not None:
            self.proc.close(grace)
            self.proc = None
