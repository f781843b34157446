#!/usr/bin/env python3
"""What ``realmsim advise STATE --faction ID`` costs a game master: wall and CPU time of the whole
command (the process's start-up and imports included), for each example state of docs/examples/.

    .venv/bin/python bench/bench_advise.py                 # 7 runs of each, medians
    .venv/bin/python bench/bench_advise.py --runs 15 --lang fr --json

Each run is a fresh process, as a game master's command is: wall time from its start to its end,
CPU time (user + system) from the operating system's account of the child. Target (issue 27): at
most 1 s wall for each faction kind on the development machine. The figures depend on the machine
and on what else it runs: the CPU time is the steadier of the two on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [  # (faction kind, example state, faction)
    ("kingdom", "docs/examples/kingdom-restov.state.toml", "restov"),
    ("guild", "docs/examples/guild-griffon.state.toml", "griffon"),
    ("nation", "docs/examples/nation-rome.state.toml", "rome"),
    ("convoy", "docs/examples/convoy-amber.state.toml", "amber"),
]


def one_run(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv`` (a fresh process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_advise: {' '.join(argv)} exited with {done.returncode}: {done.stderr.decode()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7, help="runs of each command (default 7)")
    ap.add_argument("--lang", choices=["en", "fr"], default="en")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = ap.parse_args()
    exe = str(Path(sys.executable).with_name("realmsim"))
    if not os.path.exists(exe):
        exe_argv = [sys.executable, "-m", "workers.cli"]
    else:
        exe_argv = [exe]
    rows = []
    for kind, state, faction in CASES:
        argv = [*exe_argv, "advise", state, "--faction", faction, "--lang", args.lang]
        one_run(argv)  # a first run warms the file cache (the byte-compiled modules)
        walls, cpus = zip(*(one_run(argv) for _ in range(args.runs)), strict=True)
        rows.append({"kind": kind, "command": "realmsim " + " ".join(argv[len(exe_argv):]), "runs": args.runs,
                     "wall_median_s": round(statistics.median(walls), 3), "wall_max_s": round(max(walls), 3),
                     "cpu_median_s": round(statistics.median(cpus), 3)})
    if args.json:
        print(json.dumps({"cpus": os.cpu_count(), "load": os.getloadavg()[0], "rows": rows}, indent=2))
        return 0
    print(f"realmsim advise: {args.runs} runs each, a fresh process each ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})")
    print(f"{'kind':<8} {'wall median':>11} {'wall max':>9} {'CPU median':>11}  command")
    for r in rows:
        print(f"{r['kind']:<8} {r['wall_median_s']:>10.3f}s {r['wall_max_s']:>8.3f}s {r['cpu_median_s']:>10.3f}s  {r['command']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
