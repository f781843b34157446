"""The embedded default: run a batch on a local process pool, no server needed.

Each pool process runs :func:`workers.job.run_job` on msgpack bytes, exactly as a Redis worker does,
so a seed gives the same ``ledger_sha256`` on either path. A job that raises does not stop the batch:
it is reported as dead with its error text and traceback.

The pool forks (on Linux) while this process still runs one thread — before the engine, which
brings numpy's and pyarrow's thread pools, is imported here — and each child imports the engine once
(:func:`workers.job.preload`) before its first job. A process that already runs threads (a test
runner, a notebook) gets a forkserver pool instead, with the engine preloaded in the server.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from workers.batch import BatchPlan
from workers.job import decode, preload, run_job


@dataclass
class Outcome:
    """What became of one job: its result map, or its error."""

    seed: int
    key: str
    result: dict[str, Any] | None = None
    error: str = ""
    traceback: str = ""


def _safe_run(item: tuple[int, str, bytes]) -> tuple[int, str, bool, bytes | str, str]:
    seed, key, payload = item
    try:
        return seed, key, True, run_job(payload), ""
    except Exception as e:  # noqa: BLE001 - a bad job must never lose the batch
        return seed, key, False, f"{type(e).__name__}: {e}", traceback.format_exc()


def _child_init() -> None:
    """Import the engine once, before the first job. Pool processes leave Ctrl-C to the parent (which
    stops the pool), instead of each printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    preload()


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))  # every OS thread (pyarrow and BLAS start their own)
    except OSError:
        return threading.active_count()


def _context() -> Any:
    """fork when it is safe (this process runs one thread); else forkserver (spawn where neither
    exists)."""
    methods = mp.get_all_start_methods()
    if "fork" in methods and _threads() == 1:
        return mp.get_context("fork")
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["workers.job", "scenarios.loader", "agents.campaign"])
        return ctx
    return mp.get_context("spawn")


def run_local(plan: BatchPlan, workers: int | None = None, *, on_progress: Callable[[int, int], None] | None = None
              ) -> Iterator[Outcome]:
    """Run every job of ``plan`` on a pool of ``workers`` processes; yields outcomes as they finish."""
    n = workers or default_workers()
    total = len(plan)
    if total == 0:
        return
    items = list(plan.jobs())
    done = dead = 0
    # One job per message keeps every process busy to the end; big batches send a few jobs per
    # message to spare the pipe.
    chunk = max(1, min(16, total // (n * 64)))
    ctx = _context()
    with ctx.Pool(processes=min(n, total), initializer=_child_init) as pool:
        for seed, key, ok, value, tb in pool.imap_unordered(_safe_run, items, chunksize=chunk):
            if ok:
                assert isinstance(value, bytes)
                out = Outcome(seed, key, result=decode(value))
                done += 1
            else:
                assert isinstance(value, str)
                out = Outcome(seed, key, error=value, traceback=tb)
                dead += 1
            if on_progress:
                on_progress(done, dead)
            yield out
