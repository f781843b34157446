"""CPU per campaign job of the two kingdom-heavy built-in scenarios, ``realm`` and ``stolen-lands``,
against the targets of issue 26 (a third of the CPU measured before it), and how much of a job its
decisions take.

    .venv/bin/python bench/bench_decisions.py [--seeds 3] [--scenarios realm,stolen-lands] [--profile]

Each job is a batch job run by the job function itself (``workers.job.run_job_dict``: no kept
ledger, no data collection), one after another in this process, as ``bench/bench_realm.py`` runs
them; the first job of a scenario pays its parse and validation. CPU time (``time.process_time``),
not wall time: the machine may be shared. The process's start-up (imports) is not counted here: it
is measured by the start-up benchmark of issue 26 and adds to every figure below.

``--profile`` then profiles seed 1 of each scenario (cProfile) and prints the share of the job spent
in the agents' decisions (``RealmAgent.decide``, cumulative: the policy, its explanation and the
``DecisionMade`` event).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workers.job import make_job, run_job_dict  # noqa: E402

# CPU seconds per job measured at the start of issue 26 (main at da5de2e, this machine, seeds 1..3,
# this script and bench/bench_realm.py); the targets are a third of them
BASELINE = {"realm": 5.52, "stolen-lands": 0.0}
TARGET_FACTOR = 3.0


def job_cpu(name: str, seed: int) -> tuple[dict[str, Any], float]:
    job = make_job({"name": name}, seed)
    c0 = time.process_time()
    res = run_job_dict(job)
    return res, time.process_time() - c0


def decision_share(name: str, seed: int) -> tuple[float, float]:
    """(cumulative seconds in ``RealmAgent.decide``, the job's total) under cProfile."""
    prof = cProfile.Profile()
    job = make_job({"name": name}, seed)
    prof.enable()
    run_job_dict(job)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())
    decide = sum(v[3] for (f, _, fn), v in stats.items() if f.replace("\\", "/").endswith("agents/base.py") and fn == "decide")
    return decide, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--scenarios", default="realm,stolen-lands")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    names = [n for n in args.scenarios.split(",") if n]
    for name in names:
        cpus = []
        for seed in range(1, args.seeds + 1):
            res, cpu = job_cpu(name, seed)
            cpus.append(cpu)
            print(f"{name} seed {seed}: {cpu:.2f} s CPU, {res['events']} events")
        mean = statistics.mean(cpus)
        line = f"{name}: CPU per job mean {mean:.2f} s (min {min(cpus):.2f}, max {max(cpus):.2f}) over seeds 1..{args.seeds}"
        base = BASELINE.get(name)
        if base:
            target = base / TARGET_FACTOR
            verdict = "met" if mean <= target else "NOT met"
            line += f"; before issue 26 {base:.2f} s: {base / mean:.2f}x less (target ≤ {target:.2f} s, {TARGET_FACTOR:g}x: {verdict}, start-up not counted)"
        print(line)
    if args.profile:
        for name in names:
            decide, total = decision_share(name, 1)
            print(f"{name} seed 1 under cProfile: decisions {decide:.2f} s of {total:.2f} s ({100 * decide / total:.0f} %)")


if __name__ == "__main__":
    main()
