"""Queue overhead per job: no-op jobs, end to end (submit → every result collected), one worker.

Target: <= 0.2 ms per job. Beside it, RQ's SimpleWorker (no fork per job) on the same private Redis,
running the same job function on the same payloads.

    .venv/bin/python bench/bench_queue.py [--jobs 10000] [--repeat 3] [--rq-jobs 1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis_helper import command_line, redis_server, start_worker, stop  # noqa: E402

from workers.batch import BatchPlan  # noqa: E402
from workers.queue import RedisQueue, wait_batch  # noqa: E402


def realmsim_run(url: str, jobs: int, rep: int) -> tuple[float, float]:
    q = RedisQueue(url, prefix="bench")
    # a fresh job key per repetition (noop jobs ignore their overrides), so nothing is found done
    plan = BatchPlan.make({"name": "noop"}, list(range(jobs)), kind="noop", overrides={"rep": rep})
    t0 = time.perf_counter()
    q.submit(plan)
    t1 = time.perf_counter()
    st = wait_batch(q, plan, poll=0.005)
    t2 = time.perf_counter()
    assert st.complete, "the batch did not complete"
    return t1 - t0, t2 - t0


def rq_run(url: str, jobs: int) -> float | None:
    try:
        import redis
        from rq import Queue, SimpleWorker
    except ImportError:
        return None
    r = redis.Redis.from_url(url)
    q = Queue("bench", connection=r)
    from workers.job import encode, make_job, run_job

    payloads = [encode(make_job({"name": "noop"}, s, kind="noop")) for s in range(jobs)]
    t0 = time.perf_counter()
    with r.pipeline() as pipe:
        q.enqueue_many([Queue.prepare_data(run_job, (p,), result_ttl=600) for p in payloads], pipeline=pipe)
        pipe.execute()
    SimpleWorker([q], connection=r).work(burst=True, logging_level="WARNING")
    t1 = time.perf_counter()
    return t1 - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rq-jobs", type=int, default=1000, help="0 to skip the RQ comparison")
    args = ap.parse_args()
    print(f"$ {command_line()}")
    with redis_server() as url:
        q = RedisQueue(url, prefix="bench")
        q.ensure_group()
        w = start_worker(url)
        try:
            realmsim_run(url, 500, -1)  # warm-up: returns once the worker is up and has run jobs
            totals = []
            for rep in range(args.repeat):
                sub, total = realmsim_run(url, args.jobs, rep)
                totals.append(total)
                print(f"realmsim  run {rep + 1}: {args.jobs} no-op jobs, 1 worker: submit {sub:.3f} s, "
                      f"all collected {total:.3f} s -> {total / args.jobs * 1000:.4f} ms/job")
        finally:
            stop([w])
        best, med = min(totals), statistics.median(totals)
        print(f"realmsim  queue overhead: {med / args.jobs * 1000:.4f} ms/job median, "
              f"{best / args.jobs * 1000:.4f} ms/job best (target <= 0.2 ms/job)")
        if args.rq_jobs:
            t = rq_run(url, args.rq_jobs)
            if t is None:
                print("rq        not installed; comparison skipped")
            else:
                print(f"rq        SimpleWorker, {args.rq_jobs} no-op jobs, enqueue_many + burst work: {t:.3f} s "
                      f"-> {t / args.rq_jobs * 1000:.4f} ms/job")


if __name__ == "__main__":
    main()
