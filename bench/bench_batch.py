"""Batch throughput on one CPU-bound batch: local pool (1 and N processes), Redis with 1 worker, with 2;
then the fixed cost of ``batch --redis`` over the local pool, and how fast a waiting worker stops.

Targets (issue 12): 2 workers >= 1.9x one, on the local pool and on Redis; the Redis path >= 0.95x the
local pool of the same size; ``batch --redis --workers N`` adds <= 0.3 s of fixed cost over
``batch --workers N`` (both commands timed end to end on a few seeds, interleaved); a worker waiting
for jobs exits within 0.1 s of SIGTERM.

The workload is a campaign: ``--scenario NAME|PATH`` (default: the built-in ``caravan-crossing`` when it
exists). Without a scenario that runs, it falls back to ``spin`` jobs (chained SHA-256, CPU-bound, about
``--job-ms`` each), and says so. Workers are started and warmed up before the clock starts; each
figure is submit → every result collected, the best and the median of ``--repeat`` runs. The local
pool's figures include its start-up (each process a fresh interpreter importing the engine); that
start-up is also timed alone (a no-op job per process) and the ratios after it printed apart.

    .venv/bin/python bench/bench_batch.py [--scenario caravan-crossing] [--jobs 200] [--repeat 3] [--cli-seeds 1..4]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis_helper import ROOT, command_line, redis_server, start_worker, stop  # noqa: E402

from workers.batch import BatchPlan  # noqa: E402
from workers.job import run_job_dict  # noqa: E402
from workers.local import run_local  # noqa: E402
from workers.queue import RedisQueue, wait_batch  # noqa: E402


def workload(args: argparse.Namespace) -> tuple[BatchPlan, str]:
    seeds = list(range(1, args.jobs + 1))
    name = args.scenario
    if name is None:
        try:
            from scenarios.loader import builtin_names

            name = "caravan-crossing" if "caravan-crossing" in builtin_names() else None
        except Exception as e:  # noqa: BLE001 - the engine does not import: say so, fall back
            print(f"note: the scenarios do not load here ({type(e).__name__}: {str(e)[:200]})")
    if name is not None:
        from workers.batch import scenario_ref

        try:
            ref, sc_name = scenario_ref(name)  # (this imports no engine: the pool can still fork)
            plan = BatchPlan.make(ref, seeds, name=sc_name)
            return plan, f"campaign {sc_name!r}, {len(seeds)} seeds"
        except Exception as e:  # noqa: BLE001 - say why and fall back
            print(f"note: scenario {name!r} cannot run here ({type(e).__name__}: {str(e)[:200]}); using spin jobs")
    else:
        print("note: the built-in caravan-crossing does not exist yet; using spin jobs")
    rounds = 100_000
    t0 = time.perf_counter()
    run_job_dict(BatchPlan.make({"name": "spin"}, [0], kind="spin", overrides={"rounds": rounds}).job(0))
    per_round = (time.perf_counter() - t0) / rounds
    rounds = max(1, int(args.job_ms / 1000 / per_round))
    plan = BatchPlan.make({"name": "spin"}, seeds, kind="spin", overrides={"rounds": rounds})
    return plan, f"spin, {len(seeds)} jobs of {rounds:,} SHA-256 rounds (~{args.job_ms:.0f} ms each)"


FAILED: dict[str, dict[int, str]] = {}  # seed -> error of the jobs that failed, per configuration


def time_local(plan: BatchPlan, n: int) -> float:
    t0 = time.perf_counter()
    outs = list(run_local(plan, n))
    t = time.perf_counter() - t0
    assert len(outs) == len(plan)
    FAILED.setdefault(f"local pool x{n}", {}).update((o.seed, o.error) for o in outs if o.result is None)
    return t


def time_redis(url: str, plan: BatchPlan, n: int, rep: int) -> float:
    prefix = f"bench{n}r{rep}"  # its own results: nothing found done from an earlier run
    q = RedisQueue(url, prefix=prefix)
    q.ensure_group()
    # a failing job runs once, as on the local pool
    procs = [start_worker(url, "--min-idle", "600", "--max-deliveries", "1", prefix=prefix) for _ in range(n)]
    try:
        warm = BatchPlan.make({"name": "noop"}, list(range(4 * n)), kind="noop", overrides={"warm": prefix})
        q.submit(warm)
        wait_batch(q, warm, timeout=120)
        p2 = BatchPlan(plan.template, plan.seeds, name=plan.name)  # a fresh batch id, same jobs
        t0 = time.perf_counter()
        q.submit(p2)
        st = wait_batch(q, p2, timeout=3600, poll=0.01)
        t = time.perf_counter() - t0
        assert len(st.results) + len(st.dead_seeds()) == len(p2), f"{len(st.results)} of {len(p2)} results"
        FAILED.setdefault(f"redis {n} worker{'s' if n > 1 else ''}", {}).update(st.dead_seeds())
        return t
    finally:
        stop(procs)


def time_cli(url: str | None, scenario: str, seeds: str, workers: int) -> float:
    """``realmsim batch`` end to end (a fresh interpreter, as a person runs it)."""
    with tempfile.TemporaryDirectory(prefix="realmsim-bench-") as tmp:
        cmd = [sys.executable, "-m", "workers.cli", "batch", scenario, "--seeds", seeds, "--workers", str(workers),
               "--out", os.path.join(tmp, "r.csv")]
        if url:
            cmd += ["--redis", url, "--queue", f"cli{time.monotonic_ns()}"]  # nothing found done from a previous run
        t0 = time.perf_counter()
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        t = time.perf_counter() - t0
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr[-2000:]}")
        return t


def stop_latency(url: str, n: int = 10) -> list[float]:
    """Seconds from SIGTERM to exit of a worker that waits for jobs (blocked in a 5 s XREADGROUP)."""
    import redis

    r = redis.Redis.from_url(url)
    out = []
    for _ in range(n):
        w = start_worker(url, "--block", "5")
        deadline = time.monotonic() + 120
        while not any(c.get("cmd") == "xreadgroup" and "b" in c.get("flags", "") for c in r.client_list()):
            if time.monotonic() > deadline:
                raise SystemExit("the worker never blocked in XREADGROUP")
            time.sleep(0.01)
        time.sleep(0.05)
        t0 = time.perf_counter()
        w.send_signal(signal.SIGTERM)
        w.wait(30)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default=None, help="built-in name or path (default caravan-crossing if it exists)")
    ap.add_argument("--jobs", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--job-ms", type=float, default=100.0, help="length of a spin job (fallback workload)")
    ap.add_argument("--pool", type=int, default=2, help="local pool size and the larger worker count (default 2)")
    ap.add_argument("--cli-seeds", default="1..4", help="seeds of the end-to-end CLI comparison ('' to skip)")
    args = ap.parse_args()
    print(f"$ {command_line()}")
    plan, what = workload(args)
    print(f"workload: {what}; cpus {os.cpu_count()}, load average before {os.getloadavg()[0]:.2f}; "
          "local pool: child processes fed msgpack over pipes")
    figures: dict[str, list[float]] = {}
    startup: dict[int, list[float]] = {}  # pool size -> seconds from the pool's start to its processes ready
    cli: dict[str, list[float]] = {}
    with redis_server() as url:
        if args.cli_seeds:
            scen = args.scenario or ("caravan-crossing" if plan.template.get("kind") == "campaign" else "")
            for _ in range(args.repeat):
                if not scen:
                    break
                cli.setdefault("local", []).append(time_cli(None, scen, args.cli_seeds, args.pool))
                cli.setdefault("redis", []).append(time_cli(url, scen, args.cli_seeds, args.pool))
            latency = stop_latency(url)
        for rep in range(args.repeat):
            figures.setdefault("local pool x1", []).append(time_local(plan, 1))
            figures.setdefault(f"local pool x{args.pool}", []).append(time_local(plan, args.pool))
            for k in (1, args.pool):  # the pool's start-up alone: one no-op job per process
                noop = BatchPlan.make({"name": "noop"}, list(range(k)), kind="noop", overrides={"startup": rep})
                startup.setdefault(k, []).append(time_local(noop, k))
            figures.setdefault("redis 1 worker", []).append(time_redis(url, plan, 1, rep))
            figures.setdefault(f"redis {args.pool} workers", []).append(time_redis(url, plan, args.pool, rep))
    print(f"load average after {os.getloadavg()[0]:.2f}")
    n = len(plan)
    print("local pool: from the pool's start (its processes import the engine) to the last result; "
          "redis: workers started and warmed up beforehand, from submit to the last result collected")
    for label, ts in figures.items():
        best, med = min(ts), statistics.median(ts)
        print(f"{label:<18} best {best:7.3f} s ({n / best:6.2f} jobs/s)   median {med:7.3f} s ({n / med:6.2f} jobs/s)")
    for label, failed in FAILED.items():
        if failed:
            seed = min(failed)
            print(f"WARNING: {label}: {len(failed)} job(s) failed, the figures are not comparable; "
                  f"seed {seed}: {failed[seed][:300]}")
    best = {k: min(v) for k, v in figures.items()}
    r1, rn, ln = best["redis 1 worker"], best[f"redis {args.pool} workers"], best[f"local pool x{args.pool}"]
    print(f"redis {args.pool} workers vs 1: {r1 / rn:.2f}x (target >= 1.9x on 2 workers)")
    print(f"redis {args.pool} workers vs local pool x{args.pool}: {ln / rn:.2f}x (target >= 0.95x)")
    print(f"redis 1 worker vs local pool x1: {best['local pool x1'] / r1:.2f}x")
    lx1, lxn = best["local pool x1"], best[f"local pool x{args.pool}"]
    print(f"local pool x{args.pool} vs x1: {lx1 / lxn:.2f}x (target >= 1.9x on 2)")
    # the pool's start-up (a fresh interpreter per process importing the engine, Mesa's pandas and
    # SciPy included, in parallel) is paid once per batch whatever its size: on a short batch it
    # weighs on the ratio above; the work after it is what the pool's size divides
    s1, sn = statistics.median(startup[1]), statistics.median(startup[args.pool])
    print(f"local pool start-up (a no-op job per process): x1 {s1:.3f} s, x{args.pool} {sn:.3f} s; after it, "
          f"x{args.pool} vs x1: {(lx1 - s1) / max(1e-9, lxn - sn):.2f}x, redis {args.pool} workers vs local pool "
          f"x{args.pool}: {(lxn - sn) / rn:.2f}x")
    if cli:
        lm, rm = statistics.median(cli["local"]), statistics.median(cli["redis"])
        print(f"realmsim batch --seeds {args.cli_seeds} --workers {args.pool}, end to end, median of {len(cli['local'])}: "
              f"local pool {lm:.3f} s ({min(cli['local']):.3f}–{max(cli['local']):.3f}), --redis {rm:.3f} s "
              f"({min(cli['redis']):.3f}–{max(cli['redis']):.3f}): fixed cost of --redis {rm - lm:+.3f} s "
              f"(target <= 0.3 s)")
    if args.cli_seeds:
        print(f"a waiting worker, SIGTERM to exit: median {statistics.median(latency) * 1000:.0f} ms "
              f"({min(latency) * 1000:.0f}–{max(latency) * 1000:.0f}) over {len(latency)} (target <= 100 ms)")


if __name__ == "__main__":
    main()
