"""A worker's memory over 10,000 jobs: its resident set size (RSS) sampled every 1,000 jobs, and its job
process's (the child that runs the jobs and holds the engine).

One ``python -m workers.worker`` on a private Redis works a batch of ``--jobs`` campaign jobs
(``--scenario``, default tests/data/tiny.toml, a short campaign: the whole job path runs each time,
scenario parsing included); ``--kind spin`` or ``noop`` for the bare queue. The RSS is read from
/proc/<pid>/status when the batch's done count passes each multiple of ``--every``. Flat = no leak.

    .venv/bin/python bench/bench_worker_memory.py [--jobs 10000] [--every 1000] [--scenario PATH]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis_helper import ROOT, command_line, redis_server, start_worker, stop  # noqa: E402

from workers.batch import BatchPlan, scenario_ref  # noqa: E402
from workers.queue import RedisQueue, wait_batch  # noqa: E402


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def child_of(pid: int) -> int | None:
    """The worker's job process."""
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    return int(d.name)
            except (OSError, IndexError, ValueError):
                continue
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=10_000)
    ap.add_argument("--every", type=int, default=1000)
    ap.add_argument("--kind", choices=["campaign", "spin", "noop"], default="campaign")
    ap.add_argument("--scenario", default=str(ROOT / "tests" / "data" / "tiny.toml"))
    args = ap.parse_args()
    print(f"$ {command_line()}")
    seeds = list(range(args.jobs))
    if args.kind == "campaign":
        ref, name = scenario_ref(args.scenario)
        plan = BatchPlan.make(ref, seeds, name=name)
        what = f"campaign {name!r}"
    elif args.kind == "spin":
        plan = BatchPlan.make({"name": "spin"}, seeds, kind="spin", overrides={"rounds": 1000})
        what = "spin (1,000 rounds)"
    else:
        plan = BatchPlan.make({"name": "noop"}, seeds, kind="noop")
        what = "noop"
    with redis_server() as url:
        q = RedisQueue(url, prefix="mem")
        q.ensure_group()
        w = start_worker(url, prefix="mem")
        try:
            warm = BatchPlan.make({"name": "noop"}, [0, 1], kind="noop", overrides={"warm": 1})
            q.submit(warm)
            wait_batch(q, warm, timeout=120)
            child = child_of(w.pid)
            assert child is not None, "the worker has no job process"
            print(f"worker pid {w.pid}: RSS {rss_kib(w.pid) / 1024:.1f} MiB once started (2 no-op jobs); its job process "
                  f"{child}: {rss_kib(child) / 1024:.1f} MiB")
            t0 = time.perf_counter()
            q.submit(plan)
            samples: list[tuple[int, int]] = []
            child_samples: list[int] = []
            mark = args.every
            while mark <= args.jobs:
                done, dead = q.counts(plan.id)
                if done + dead >= mark:
                    kib = rss_kib(w.pid)
                    now_child = child_of(w.pid)
                    if now_child != child:
                        print(f"  (the job process was replaced: {child} -> {now_child})")
                        child = now_child
                    ckib = rss_kib(child) if child else 0
                    samples.append((done + dead, kib))
                    child_samples.append(ckib)
                    print(f"  {done + dead:>7} jobs done  RSS worker {kib / 1024:7.1f} MiB, job process "
                          f"{ckib / 1024:7.1f} MiB  ({time.perf_counter() - t0:6.1f} s)")
                    mark += args.every
                    continue
                if w.poll() is not None:
                    raise SystemExit(f"the worker exited with status {w.returncode}")
                time.sleep(0.005)
            dead_n = q.counts(plan.id)[1]
        finally:
            stop([w])
    first, last = samples[0][1], samples[-1][1]
    peak = max(k for _, k in samples)
    print(f"{what}: {args.jobs} jobs, {dead_n} dead; RSS at {samples[0][0]} jobs {first / 1024:.1f} MiB, "
          f"at {samples[-1][0]} jobs {last / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB, "
          f"growth {(last - first) / 1024:+.1f} MiB")
    print(f"job process: RSS at {samples[0][0]} jobs {child_samples[0] / 1024:.1f} MiB, at {samples[-1][0]} jobs "
          f"{child_samples[-1] / 1024:.1f} MiB, peak {max(child_samples) / 1024:.1f} MiB, growth "
          f"{(child_samples[-1] - child_samples[0]) / 1024:+.1f} MiB")


if __name__ == "__main__":
    main()
