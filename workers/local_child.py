"""A job process: reads jobs from stdin, writes results to stdout, msgpack only (``python -m workers.local_child``).

Started and fed by :class:`workers.child.JobProcess` — for the local pool and for every Redis worker —
so a job never runs in the process that holds the queue: whatever it does (raise ``SystemExit``, call
``os.abort``, fork, block for ever), the worker outlives it and reports it. Not meant to be run by hand.

Messages in: ``["job", tag, payload]`` (payload: a job's msgpack bytes) and ``["cancel"]`` (drop every
job received but not started). Messages out: ``["ready", pid, code_version, engine_error]`` once, then
per job ``["limit", tag, seconds, what]`` as it starts (its default time limit from its length,
:func:`workers.job.time_limit`: the parent kills it there unless ``--job-timeout`` says otherwise) and
``["done", tag, ok, value, traceback, cpu_seconds]`` (``value``: the result's msgpack bytes, or the
error text) or ``["cancelled", tag]``. The child looks for a ``cancel`` between jobs, so a worker asked to
stop can take back what it had handed over but not started. Nothing is pickled.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
import traceback
from collections import deque
from typing import Any

import msgpack


def die_with_parent() -> None:
    """Linux: be killed when the process that started us dies (a worker killed by SIGKILL leaves no job
    running behind it)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before prctl
            os._exit(0)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


HOLD_S = 0.1  # how long a job's answer may wait for the next ones' (never while no job waits)


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    die_with_parent()
    from workers.job import decode, preload, run_job, time_limit

    version, error = preload()
    me = os.getpid()
    # the protocol keeps the real stdout to itself; anything the engine prints goes to stderr
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    fd = sys.stdin.fileno()
    unpacker = msgpack.Unpacker(raw=False, use_list=True, max_buffer_size=1 << 30)
    pending: deque[Any] = deque()
    closed = False

    held: list[bytes] = []  # answers not yet written (see ``answer``)
    held_since = [0.0]
    lock = threading.Lock()
    flusher: list[threading.Thread] = []

    def flush() -> None:
        with lock:
            if held:
                out.write(b"".join(held))
                out.flush()
                held.clear()

    def send(msg: list[Any]) -> None:
        with lock:
            held.append(msgpack.packb(msg, use_bin_type=True))
        flush()

    def keep_flushing() -> None:
        """Writes what was held ``HOLD_S`` ago while the next job runs: a long job never holds back
        the answer of the short one before it (the worker would count that one as running)."""
        while True:
            time.sleep(HOLD_S / 2)
            with lock:
                old = held and time.monotonic() - held_since[0] >= HOLD_S
            if old:
                flush()

    def answer(msg: list[Any]) -> None:
        """A job's answer: written at once when no other job waits, else held with the next ones for
        at most ``HOLD_S`` (one write and one wake-up of the worker for a run of short jobs)."""
        packed = msgpack.packb(msg, use_bin_type=True)
        with lock:
            if not held:
                held_since[0] = time.monotonic()
            held.append(packed)
        if not pending:
            flush()
            return
        if not flusher:
            flusher.append(threading.Thread(target=keep_flushing, name="realmsim-answers", daemon=True))
            flusher[0].start()

    def take(chunk: bytes) -> None:
        unpacker.feed(chunk)
        for msg in unpacker:
            if msg == ["cancel"]:
                for tag in (m[1] for m in pending):
                    send(["cancelled", tag])
                pending.clear()
            else:
                pending.append(msg)

    send(["ready", me, version, error])
    while True:
        if not pending:
            flush()  # (nothing held back while we wait)
            if closed:
                return 0
            chunk = os.read(fd, 1 << 16)  # whatever has arrived: a job is never held back for a full buffer
            if not chunk:
                return 0  # the parent closed the pipe: the work is over
            take(chunk)
            continue
        if not closed and select.select([fd], [], [], 0)[0]:  # a cancel may be waiting behind the jobs
            chunk = os.read(fd, 1 << 16)
            if chunk:
                take(chunk)
            else:
                closed = True
            continue
        _, tag, payload = pending.popleft()
        cpu = time.process_time()
        try:
            seconds, what = time_limit(decode(payload))
        except Exception:  # noqa: BLE001 - not msgpack: the job fails at once below
            seconds, what = 0.0, ""
        if seconds > 0:
            answer(["limit", tag, seconds, what])
        try:
            reply = ["done", tag, True, run_job(payload), "", 0.0]
        except BaseException as e:  # noqa: BLE001 - SystemExit, KeyboardInterrupt… from the job: reported
            if os.getpid() != me:
                os._exit(70)  # a copy the job forked: it must not answer for us
            reply = ["done", tag, False, f"{type(e).__name__}: {e}", traceback.format_exc(), 0.0]
        if os.getpid() != me:
            os._exit(0)
        reply[5] = time.process_time() - cpu
        answer(reply)


if __name__ == "__main__":
    sys.exit(main())
