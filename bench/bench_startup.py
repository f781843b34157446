#!/usr/bin/env python3
"""A fast start (issue 26, item 3): what a process costs before and around its first job, each figure
from fresh processes.

    .venv/bin/python bench/bench_startup.py                  # every figure
    .venv/bin/python bench/bench_startup.py --only ready,job  # some of them (ready, advise, job, pool)

- ``ready``: CPU (user + system, the interpreter's own start included) of a fresh process until it is
  ready for its first job — ``workers.job.preload()``, what a pool process or a worker's job process
  runs before it says "ready" — then the CPU of its first ``caravan-crossing`` job (the scenario's
  parse and validation, paid once a process). Also ``import mesa`` alone, and the CPU a pool process
  started by ``workers.local.run_local`` spends until it has answered a no-op job. Target: ready in at
  most 0.3 s of CPU.
- ``advise``: ``realmsim advise STATE --faction ID`` on each example state (bench/bench_advise.py's
  cases), wall and CPU of the whole command. Target: at most 1 s wall.
- ``job``: CPU of a ``caravan-crossing`` job inside a fresh worker process after its first job
  (bench/bench_job_cpu.py's measure: ``workers.job.run_job`` on msgpack bytes). Target: at most 10 ms.
- ``pool``: the local pool (``workers.local.run_local``) with 1 and with 2 processes on ``--jobs``
  short jobs (``caravan-crossing`` seeds), wall from the pool's start to the last result, start-up
  included. Target: 2 processes at least 1.9 times as fast as one. A wall-clock ratio: it needs two
  cores that nothing else uses — the load average is printed before and after.

CPU figures are medians (min–max) over ``--runs`` fresh processes.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

TARGET_READY_S = 0.3
TARGET_ADVISE_S = 1.0
TARGET_JOB_MS = 10.0
TARGET_POOL_RATIO = 1.9

# run in a fresh interpreter: CPU of the process so far (its start included) at ready and after a first job
_READY = """
import json, resource, sys, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
from workers.job import encode, make_job, preload, run_job
version, error = preload()
if error:
    sys.exit("the engine does not import: " + error)
ready = cpu()
run_job(encode(make_job({"name": "caravan-crossing"}, 1)))
print(json.dumps({"ready": ready, "first_job": cpu() - ready}))
"""
_MESA = """
import json, resource
import mesa
r = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"mesa": r.ru_utime + r.ru_stime}))
"""
_JOB = """
import json, statistics, sys
import bench_job_cpu as b
version, error = b.preload()
if error:
    sys.exit("the engine does not import: " + error)
payloads = [b.encode(b.make_job({"name": "caravan-crossing"}, s)) for s in range(1, %d)]
b.round_of(payloads[:1])  # the first job of the process (the scenario's parse)
rounds = [statistics.median(b.round_of(payloads[1:])[0]) for _ in range(%d)]
print(json.dumps({"job_ms": rounds}))
"""


def fresh(code: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "bench")]))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_startup: a fresh process failed: {done.stderr[-1000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def spread(xs: list[float], scale: float = 1.0, fmt: str = ".3f") -> str:
    return (f"{statistics.median(xs) * scale:{fmt}} ({min(xs) * scale:{fmt}}–{max(xs) * scale:{fmt}})")


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def bench_ready(runs: int) -> None:
    fresh(_READY)  # warm the file cache (byte-compiled modules)
    got = [fresh(_READY) for _ in range(runs)]
    mesa = [fresh(_MESA)["mesa"] for _ in range(runs)]
    ready = [g["ready"] for g in got]
    print(f"process ready (interpreter + workers.job.preload()), CPU s: {spread(ready)}; "
          f"target ≤ {TARGET_READY_S} s: {verdict(statistics.median(ready) <= TARGET_READY_S)}")
    print(f"  its first caravan-crossing job (scenario parse included), CPU s: {spread([g['first_job'] for g in got])}")
    print(f"  a process that only runs `import mesa`, CPU s: {spread(mesa)}")
    for label, fork in (("a fresh interpreter", False), ("forked by the pool's fork server", True)):
        got = [pool_ready(fork) for _ in range(runs)]
        print(f"  a pool process ({label}) to ready, CPU s: {spread([g[0] for g in got])}, wall s: "
              f"{spread([g[1] for g in got])}" + (f"; the fork server's own import, once a pool, CPU s: "
                                                 f"{spread([g[2] for g in got])}" if fork else ""))
    from workers.child import JobProcess

    if "server" not in inspect.signature(JobProcess).parameters:
        print("  (no fork server in this tree: both lines are fresh interpreters)")


def proc_cpu(pid: int) -> float:
    """CPU seconds a process has run so far (/proc/PID/schedstat: nanoseconds on a CPU)."""
    with open(f"/proc/{pid}/schedstat", encoding="ascii") as f:
        return int(f.read().split()[0]) / 1e9


def pool_ready(fork: bool) -> tuple[float, float, float]:
    """(CPU of one pool process until it says ready, wall from asking for it, CPU of its fork server)."""
    import selectors

    from workers.child import JobProcess

    server = None
    if fork and "server" in inspect.signature(JobProcess).parameters:  # (not in a tree from before it)
        from workers import forkserver

        server = forkserver.start()
    t0 = time.perf_counter()
    c = JobProcess(server) if server is not None else JobProcess()
    with selectors.DefaultSelector() as sel:
        sel.register(c.fileno(), selectors.EVENT_READ)
        while not c.ready and not c.eof:
            sel.select()
            c.read()
    wall = time.perf_counter() - t0
    cpu = proc_cpu(c.proc.pid)
    own = proc_cpu(server.proc.pid) if server is not None else 0.0
    c.close()
    if server is not None:
        server.close()
    if not c.ready:
        raise SystemExit("bench_startup: the pool process died before it was ready")
    return cpu, wall, own


def bench_advise(runs: int) -> None:
    from bench_advise import CASES, one_run

    base = [sys.executable, "-m", "workers.cli"]  # (not the `realmsim` script: run from ROOT, it runs this tree's code)
    worst = 0.0
    for kind, state, faction in CASES:
        argv = [*base, "advise", state, "--faction", faction]
        one_run(argv)
        walls, cpus = zip(*(one_run(argv) for _ in range(runs)), strict=True)
        worst = max(worst, statistics.median(walls))
        print(f"advise {kind:<8} wall s {spread(list(walls))}, CPU s {spread(list(cpus))}")
    print(f"advise: slowest median wall {worst:.3f} s; target ≤ {TARGET_ADVISE_S} s: {verdict(worst <= TARGET_ADVISE_S)}")


def bench_job(runs: int, jobs: int) -> None:
    meds = [statistics.median(fresh(_JOB % (jobs + 2, 3))["job_ms"]) for _ in range(runs)]
    print(f"caravan-crossing job in a fresh worker process, after its first, CPU ms: {spread(meds, fmt='.2f')} "
          f"({jobs} jobs x 3 rounds a process, median of each); target ≤ {TARGET_JOB_MS:.0f} ms: "
          f"{verdict(statistics.median(meds) <= TARGET_JOB_MS)}")


def bench_pool(jobs: int, repeat: int) -> None:
    from workers.batch import BatchPlan
    from workers.local import run_local

    plan = BatchPlan.make({"name": "caravan-crossing"}, list(range(1, jobs + 1)))
    load0 = os.getloadavg()
    times: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(repeat):
        for n in (1, 2):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            mine = time.process_time()
            t0 = time.perf_counter()
            outs = list(run_local(plan, n))
            times[n].append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[n].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                           + time.process_time() - mine)
            failed = [o for o in outs if o.result is None]
            if failed:
                raise SystemExit(f"bench_startup: {len(failed)} job(s) failed, e.g. seed {failed[0].seed}: {failed[0].error}")
    load1 = os.getloadavg()
    r = min(times[1]) / min(times[2])
    print(f"local pool, {jobs} caravan-crossing jobs, wall s: x1 {spread(times[1])}, x2 {spread(times[2])}; "
          f"x2 vs x1 (bests) {r:.2f}, (medians) {statistics.median(times[1]) / statistics.median(times[2]):.2f}; "
          f"target ≥ {TARGET_POOL_RATIO}: {verdict(r >= TARGET_POOL_RATIO)}")
    starts = []  # CPU of a pool of one until it has answered a no-op job: its start-up, paid before any work
    for rep in range(3):
        noop = BatchPlan.make({"name": "noop"}, [0], kind="noop", overrides={"startup": rep})
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        list(run_local(noop, 1))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        starts.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    c1, c2, s0 = statistics.median(cpus[1]), statistics.median(cpus[2]), statistics.median(starts)
    print(f"  CPU of the pool (its processes and this one): x1 {spread(cpus[1])} s, x2 {spread(cpus[2])} s; "
          f"its start-up {s0:.3f} s. On two free cores, the start-up then the rest shared by two: "
          f"x2 vs x1 ≈ {c1 / (s0 + (c2 - s0) / 2):.2f}")
    print(f"  load average before {load0[0]:.2f} {load0[1]:.2f}, after {load1[0]:.2f} {load1[1]:.2f} "
          f"({os.cpu_count()} CPUs)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per figure (default 5)")
    ap.add_argument("--jobs", type=int, default=1000, help="short jobs of the pool figure (default 1000)")
    ap.add_argument("--job-jobs", type=int, default=50, help="jobs per round of the job figure (default 50)")
    ap.add_argument("--repeat", type=int, default=2, help="repetitions of the pool figure (default 2)")
    ap.add_argument("--only", default="ready,advise,job,pool", help="comma list of: ready, advise, job, pool")
    a = ap.parse_args()
    only = {s.strip() for s in a.only.split(",") if s.strip()}
    unknown = only - {"ready", "advise", "job", "pool"}
    if unknown:
        ap.error(f"--only: unknown {', '.join(sorted(unknown))} (expected ready, advise, job, pool)")
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    if "ready" in only:
        bench_ready(a.runs)
    if "advise" in only:
        bench_advise(a.runs)
    if "job" in only:
        bench_job(a.runs, a.job_jobs)
    if "pool" in only:
        bench_pool(a.jobs, a.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
