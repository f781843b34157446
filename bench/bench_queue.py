"""Queue overhead per job, realmsim beside RQ, Dramatiq and arq on the same private redis-server.

Each system runs the same job function (:func:`workers.job.run_job`) on the same no-op payloads with
one worker: from the first enqueue to the last job done, per job. The systems take turns (interleaved),
``--repeat`` times (default 5); each line gives the median and the min–max. realmsim also gets:

- the CPU its worker spends per no-op job (the worker process and its job process together, from
  /proc), which a loaded machine disturbs less than the wall clock;
- the smallest real job (``--small``, default tests/data/tiny.toml): end to end through Redis with one
  worker, against the same jobs run one after another in this process; the difference per job is what
  the queue costs a real job, the job process's pipe included.

Targets (issue 12): <= 0.2 ms per job on no-op jobs and on the smallest real job.
RQ runs a SimpleWorker (no fork per job), Dramatiq one worker thread, arq a burst worker — each in
this process; realmsim's worker is a separate process that runs each job in its own child process.
A system that is not installed is skipped with a note (``pip install -e '.[bench]'``, best in a
separate venv: arq pins redis < 6).

    .venv/bin/python bench/bench_queue.py [--jobs 5000] [--other-jobs 1000] [--repeat 5] [--small-jobs 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis_helper import ROOT, command_line, redis_server, start_worker, stop  # noqa: E402

from workers.batch import BatchPlan  # noqa: E402
from workers.job import encode, make_job, run_job  # noqa: E402
from workers.queue import RedisQueue, wait_batch  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int, children: bool = True) -> float:
    """CPU (user + system) of ``pid`` and (``children``) of its living children (the job process)."""
    total = 0.0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(d) == pid or (children and int(fields[1]) == pid):
            total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def payloads(n: int, rep: int) -> list[bytes]:
    return [encode(make_job({"name": "noop"}, s, kind="noop", overrides={"rep": rep})) for s in range(n)]


# ---- realmsim ----------------------------------------------------------------------------------
class Realmsim:
    name = "realmsim"

    def __init__(self, url: str) -> None:
        self.url = url
        self.q = RedisQueue(url, prefix="bench")
        self.q.ensure_group()
        self.w = start_worker(url)
        self.cpu: list[float] = []
        warm = BatchPlan.make({"name": "noop"}, list(range(500)), kind="noop", overrides={"rep": -1})
        self.q.submit(warm)
        wait_batch(self.q, warm, timeout=120)  # the worker and its job process are up

    def run(self, n: int, rep: int) -> float:
        # a fresh job key per repetition (noop jobs ignore their overrides), so nothing is found done
        plan = BatchPlan.make({"name": "noop"}, list(range(n)), kind="noop", overrides={"rep": rep})
        c0 = cpu_seconds(self.w.pid)
        t0 = time.perf_counter()
        self.q.submit(plan)
        st = wait_batch(self.q, plan, poll=0.005)
        t = time.perf_counter() - t0
        self.cpu.append(cpu_seconds(self.w.pid) - c0)
        assert st.complete, "the batch did not complete"
        return t

    def close(self) -> None:
        stop([self.w])


# ---- RQ ------------------------------------------------------------------------------------------
class RQ:
    name = "rq"

    def __init__(self, url: str) -> None:
        import redis
        from rq import Queue, SimpleWorker  # noqa: F401 - ImportError: not installed

        self.r = redis.Redis.from_url(url)

    def run(self, n: int, rep: int) -> float:
        from rq import Queue, SimpleWorker

        q = Queue(f"bench{rep}", connection=self.r)
        jobs = payloads(n, rep)
        t0 = time.perf_counter()
        with self.r.pipeline() as pipe:
            q.enqueue_many([Queue.prepare_data(run_job, (p,), result_ttl=600) for p in jobs], pipeline=pipe)
            pipe.execute()
        SimpleWorker([q], connection=self.r).work(burst=True, logging_level="WARNING")
        t = time.perf_counter() - t0
        assert q.finished_job_registry.count == n, f"rq finished {q.finished_job_registry.count} of {n}"
        return t

    def close(self) -> None:
        pass


# ---- Dramatiq ------------------------------------------------------------------------------------
def _dramatiq_job(payload_hex: str) -> None:
    run_job(bytes.fromhex(payload_hex))


class Dramatiq:
    name = "dramatiq"

    def __init__(self, url: str) -> None:
        import dramatiq  # noqa: F401 - ImportError: not installed
        from dramatiq.brokers.redis import RedisBroker  # noqa: F401

        self.url = url

    def run(self, n: int, rep: int) -> float:
        import dramatiq
        from dramatiq.brokers.redis import RedisBroker

        broker = RedisBroker(url=self.url, namespace=f"bench-dq{rep}")
        broker.middleware = [m for m in broker.middleware if type(m).__name__ in ("AgeLimit", "Callbacks")]
        dramatiq.set_broker(broker)
        actor = dramatiq.actor(_dramatiq_job, broker=broker, queue_name="bench", max_retries=0,
                               actor_name=f"noop{rep}")
        jobs = [p.hex() for p in payloads(n, rep)]
        worker = dramatiq.Worker(broker, worker_threads=1, worker_timeout=10)
        t0 = time.perf_counter()
        for p in jobs:
            actor.send(p)
        worker.start()
        broker.join("bench", interval=5, timeout=600_000)
        worker.join()
        t = time.perf_counter() - t0
        worker.stop()
        broker.close()
        return t

    def close(self) -> None:
        pass


# ---- arq -----------------------------------------------------------------------------------------
async def _arq_job(ctx: dict[str, object], payload: bytes) -> None:
    run_job(payload)


class Arq:
    name = "arq"

    def __init__(self, url: str) -> None:
        import arq  # noqa: F401 - ImportError: not installed

        self.url = url

    def run(self, n: int, rep: int) -> float:
        return asyncio.run(self._run(n, rep))

    async def _run(self, n: int, rep: int) -> float:
        from arq import create_pool
        from arq.connections import RedisSettings
        from arq.worker import Worker, func

        settings = RedisSettings.from_dsn(self.url)
        pool = await create_pool(settings)
        qname = f"bench-arq{rep}"
        jobs = payloads(n, rep)
        t0 = time.perf_counter()
        for p in jobs:
            await pool.enqueue_job("noop", p, _queue_name=qname)
        w = Worker(functions=[func(_arq_job, name="noop")], redis_pool=pool, burst=True, queue_name=qname,
                   max_jobs=1, keep_result=0, handle_signals=False, poll_delay=0.001)
        await w.main()
        t = time.perf_counter() - t0
        assert w.jobs_complete == n, f"arq completed {w.jobs_complete} of {n}"
        await w.close()
        await pool.aclose()
        return t

    def close(self) -> None:
        pass


# ---- the smallest real job, and ~10 ms jobs -------------------------------------------------------
def small_job_overhead(url: str, scenario: str, n: int, repeat: int) -> None:
    """CPU of the worker and its job process per job, against the CPU of the same jobs run in this
    process one after another: the difference is what the queue costs a real job (CPU is what a loaded
    machine disturbs least; the wall clock is printed too)."""
    from workers.batch import scenario_ref
    from workers.job import preload

    ref, name = scenario_ref(scenario)
    preload()
    q = RedisQueue(url, prefix="small")
    q.ensure_group()
    w = start_worker(url, prefix="small")
    try:
        warm = BatchPlan.make(ref, [10**6, 10**6 + 1], name=name)
        q.submit(warm)
        wait_batch(q, warm, timeout=120)
        wall, cpu, inproc = [], [], []
        for rep in range(repeat):
            plan = BatchPlan.make(ref, list(range(rep * n, (rep + 1) * n)), name=name)
            c0, t0 = cpu_seconds(w.pid), time.perf_counter()
            q.submit(plan)
            st = wait_batch(q, plan, timeout=3600, poll=0.005)
            wall.append((time.perf_counter() - t0) / n)
            cpu.append((cpu_seconds(w.pid) - c0) / n)
            assert st.complete, "the small batch did not complete"
            jobs = [p for _, _, p in plan.jobs()]
            c0 = time.process_time()
            for p in jobs:
                run_job(p)
            inproc.append((time.process_time() - c0) / n)
    finally:
        stop([w])
    over = [a - b for a, b in zip(cpu, inproc)]
    print(f"smallest real job ({name}, {n} jobs x {repeat}): CPU in this process {ms(inproc)} ms/job; worker + job "
          f"process {ms(cpu)} ms/job (wall {ms(wall)}); queue overhead {ms(over)} ms/job of CPU (target <= 0.2)")


def short_job_queue_cpu(url: str, n: int, repeat: int, job_ms: float = 10.0) -> None:
    """The worker process's own CPU (its job process excluded) per ~10 ms spin job: the queue's CPU."""
    rounds = 20_000
    c0 = time.process_time()
    run_job(encode(make_job({"name": "spin"}, 0, kind="spin", overrides={"rounds": rounds})))
    rounds = max(1, int(rounds * job_ms / 1000 / max(1e-6, time.process_time() - c0)))
    q = RedisQueue(url, prefix="short")
    q.ensure_group()
    w = start_worker(url, prefix="short")
    try:
        warm = BatchPlan.make({"name": "spin"}, [10**6], kind="spin", overrides={"rounds": rounds})
        q.submit(warm)
        wait_batch(q, warm, timeout=120)
        cpu = []
        for rep in range(repeat):
            plan = BatchPlan.make({"name": "spin"}, list(range(rep * n, (rep + 1) * n)), kind="spin",
                                  overrides={"rounds": rounds})
            c0 = cpu_seconds(w.pid, children=False)
            q.submit(plan)
            assert wait_batch(q, plan, timeout=3600, poll=0.01).complete
            cpu.append((cpu_seconds(w.pid, children=False) - c0) / n)
    finally:
        stop([w])
    print(f"~{job_ms:.0f} ms spin jobs ({rounds:,} rounds, {n} jobs x {repeat}): the worker's own CPU (reads, checks, "
          f"pipe, stores; its job process excluded) {ms(cpu)} ms/job (target <= 0.1)")


def ms(values: list[float]) -> str:
    v = [x * 1000 for x in values]
    return f"{statistics.median(v):.3f} ({min(v):.3f}–{max(v):.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=5000, help="no-op jobs per realmsim run")
    ap.add_argument("--other-jobs", type=int, default=1000, help="no-op jobs per RQ/Dramatiq/arq run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--small", default=str(ROOT / "tests" / "data" / "tiny.toml"), help="the smallest real job")
    ap.add_argument("--small-jobs", type=int, default=200, help="0 to skip the smallest real job")
    ap.add_argument("--short-jobs", type=int, default=1000,
                    help="~10 ms jobs per run for the worker's own CPU (CPU is read in 10 ms ticks: 1000 jobs "
                         "measure it to 0.01 ms a job; 0 to skip)")
    ap.add_argument("--only", default="", help="comma list of systems to run (realmsim,rq,dramatiq,arq)")
    args = ap.parse_args()
    print(f"$ {command_line()}")
    print(f"cpus {os.cpu_count()}, load average before {os.getloadavg()[0]:.2f}")
    wanted = set(args.only.split(",")) if args.only else {"realmsim", "rq", "dramatiq", "arq"}
    with redis_server() as url:
        systems = []
        for cls in (Realmsim, RQ, Dramatiq, Arq):
            if cls.name not in wanted:
                continue
            try:
                systems.append(cls(url))  # type: ignore[abstract]
            except ImportError as e:
                print(f"{cls.name:<9} not installed ({e.name}); skipped (pip install -e '.[bench]')")
        times: dict[str, list[float]] = {s.name: [] for s in systems}
        counts = {s.name: args.jobs if s.name == "realmsim" else args.other_jobs for s in systems}
        try:
            for rep in range(args.repeat):
                for s in systems:
                    times[s.name].append(s.run(counts[s.name], rep) / counts[s.name])
        finally:
            for s in systems:
                s.close()
        print(f"no-op jobs, 1 worker, enqueue -> all done, median (min–max) of {args.repeat} interleaved runs:")
        base = statistics.median(times["realmsim"]) if "realmsim" in times else None
        for s in systems:
            t = times[s.name]
            rel = f"  ({statistics.median(t) / base:5.1f}x realmsim)" if base and s.name != "realmsim" else ""
            print(f"  {s.name:<9} {counts[s.name]:>5} jobs  {ms(t)} ms/job{rel}")
        for s in systems:
            if isinstance(s, Realmsim):
                cpu = [c / args.jobs for c in s.cpu]
                print(f"  realmsim worker CPU (worker + its job process): {ms(cpu)} ms/job")
        if "realmsim" in times:
            print(f"  target: realmsim <= 0.2 ms/job on no-op jobs: median {statistics.median(times['realmsim']) * 1000:.3f}")
        if args.small_jobs:
            small_job_overhead(url, args.small, args.small_jobs, args.repeat)
        if args.short_jobs:
            short_job_queue_cpu(url, args.short_jobs, args.repeat)
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
