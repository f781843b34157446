"""Run several batch plans (a sweep's cells, a tournament's seat rotations) on the local pool or on
Redis workers, with the batch machinery as it is (:mod:`workers.local`, :mod:`workers.queue`).

Locally the plans run one after the other on one pool size; on Redis every plan is submitted first,
so that the workers see all of the jobs at once, then each is collected.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workers.batch import BatchPlan, ServiceError, UsageError, check_seconds, stop_workers


@dataclass
class MultiOptions:
    """How to run: ``workers`` (local pool size; with ``redis``, local workers to start), the Redis
    URL, queue prefix and CA file, a timeout for the whole run (Redis) and one per job (local)."""

    workers: int | None = None
    redis: str | None = None
    queue: str = "realmsim"
    redis_ca: str | None = None
    timeout: float | None = None
    job_timeout: float | None = None

    @classmethod
    def from_args(cls, args: Any) -> MultiOptions:
        if args.workers is not None and args.workers < (0 if args.redis else 1):
            raise UsageError(f"--workers {args.workers}: expected an integer >= {0 if args.redis else 1}")
        if getattr(args, "job_timeout", None) is not None:
            check_seconds("--job-timeout", args.job_timeout)
        if getattr(args, "timeout", None) is not None:
            check_seconds("--timeout", args.timeout)
        if args.redis:
            from workers.queue import check_url

            check_url(args.redis)  # before the plans are made: a malformed URL is one line and exit 2
        return cls(workers=args.workers, redis=args.redis, queue=getattr(args, "queue", "realmsim"),
                   redis_ca=getattr(args, "redis_ca", None), timeout=getattr(args, "timeout", None),
                   job_timeout=getattr(args, "job_timeout", None))


def add_run_arguments(p: Any) -> None:
    """``--workers``, ``--redis`` (and its CA), ``--queue``, ``--timeout``, ``--job-timeout``."""
    from workers.options import DEFAULT_PREFIX, add_redis_arguments

    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="local pool size (default: the CPU count); with --redis, local workers to start (default 0)")
    add_redis_arguments(p, required=False)
    p.add_argument("--queue", default=DEFAULT_PREFIX, metavar="PREFIX", help=f"Redis key prefix (default {DEFAULT_PREFIX})")
    p.add_argument("--timeout", type=float, default=None, metavar="S", help="with --redis: give up after S seconds")
    from workers.child import JOB_TIMEOUT_HELP

    p.add_argument("--job-timeout", type=float, default=None, metavar="S", help=JOB_TIMEOUT_HELP)


def run_plans(plans: list[BatchPlan], opts: MultiOptions, *, say: Callable[[str], None] | None = None,
              label: str = "") -> list[list[dict[str, Any]]]:
    """The results of every plan (in seed order each); :class:`ServiceError` when any job failed."""
    from workers.progress import Progress

    total = sum(len(p) for p in plans)
    progress = Progress(total, label=label or "jobs")
    done_before = 0

    def on_progress(done: int, dead: int) -> None:
        progress.update(done_before + done, dead)

    out: list[list[dict[str, Any]]] = []
    failed: list[str] = []
    try:
        if opts.redis:
            out = _run_redis(plans, opts, on_progress=lambda d, x: progress.update(d, x), say=say, failed=failed)
        else:
            from workers.child import DEFAULT_JOB_TIMEOUT
            from workers.local import default_workers, run_local

            n = opts.workers or default_workers()
            for plan in plans:
                results: list[dict[str, Any]] = []
                for o in run_local(plan, n, on_progress=on_progress, job_timeout=opts.job_timeout or DEFAULT_JOB_TIMEOUT):
                    if o.result is not None:
                        results.append(o.result)
                    else:
                        failed.append(f"{plan.name} seed {o.seed}: {o.error}")
                results.sort(key=lambda r: r["seed"])
                out.append(results)
                done_before += len(plan)
    finally:
        progress.close()
    if failed:
        raise ServiceError(f"{len(failed)} of {total} job(s) failed:\n  " + "\n  ".join(sorted(failed)[:5]))
    return out


def _run_redis(plans: list[BatchPlan], opts: MultiOptions, *, on_progress: Callable[[int, int], None],
               say: Callable[[str], None] | None, failed: list[str]) -> list[list[dict[str, Any]]]:
    from workers.queue import URL_ENV, RedisQueue, incomplete_message, wait_batch

    assert opts.redis
    q = RedisQueue(opts.redis, prefix=opts.queue, ca=opts.redis_ca)
    for plan in plans:
        q.check_size(plan)
    env = dict(os.environ)
    env[URL_ENV] = opts.redis
    cmd = [sys.executable, "-m", "workers.worker", "--queue", opts.queue, "--log-level", "warning"]
    if opts.redis_ca:
        cmd += ["--redis-ca", opts.redis_ca]
    if opts.job_timeout:
        cmd += ["--job-timeout", str(opts.job_timeout)]
    procs: list[subprocess.Popen[bytes]] = []
    out: list[list[dict[str, Any]]] = []
    try:
        for i in range(opts.workers or 0):
            procs.append(subprocess.Popen([*cmd, "--name", f"{plans[0].id}-w{i}"], stdin=subprocess.DEVNULL, env=env))
        for plan in plans:
            q.submit(plan)
        done = 0
        for plan in plans:
            def progress(d: int, x: int, base: int = done) -> None:
                on_progress(base + d, x)

            st = wait_batch(q, plan, timeout=opts.timeout, on_progress=progress, say=say or (lambda _m: None))
            if not st.complete:
                failed.append(incomplete_message(st, timeout=opts.timeout))
            out.append(sorted(st.results.values(), key=lambda r: r["seed"]))
            done += len(plan)
    finally:
        stop_workers(procs)
    return out


__all__ = ["MultiOptions", "add_run_arguments", "run_plans"]
