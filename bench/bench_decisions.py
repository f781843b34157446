"""CPU per campaign job of the two kingdom-heavy built-in scenarios, ``realm`` and ``stolen-lands``,
against the targets of issue 26 (a third of the CPU measured before it), and how much of a job its
decisions take.

    .venv/bin/python bench/bench_decisions.py [--seeds 3] [--scenarios realm,stolen-lands] [--profile] [--valgrind]

Each job is a batch job run by the job function itself (``workers.job.run_job_dict``: no kept
ledger, no data collection), one after another in this process, as ``bench/bench_realm.py`` runs
them; the first job of a scenario pays its parse and validation. CPU time (``time.process_time``),
not wall time: the machine may be shared. The process's start-up (imports) is not counted here: it
is measured by the start-up benchmark of issue 26 and adds to every figure below.

``--profile`` then profiles seed 1 of each scenario (cProfile) and prints the share of the job spent
in the agents' decisions (``RealmAgent.decide``, cumulative: the policy, its explanation and the
``DecisionMade`` event).

``--valgrind`` (valgrind must be installed; a few minutes) counts the instructions of a short
campaign (seed 1: ``realm`` one year, ``stolen-lands`` two years, ``VALGRIND_HOURS``) in a fresh
process under ``valgrind --tool=cachegrind --cache-sim=no``, less the same process with a campaign
one day long (imports, scenario, world), as a batch job records it (compact decisions since issue
26 item 2) and explained (``run --explain``: the alternatives, their terms and reasons). ``--root
DIR`` counts another source tree (a worktree of the code before a change; there, before compact
records, "compact" means ``Policy.explain`` off: the same choices). Exact and repeatable where CPU
time on a shared machine is not.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workers.job import make_job, run_job_dict  # noqa: E402

# CPU seconds per job at the start of issue 26 (main at da5de2e, seeds 1..3): realm by
# bench/bench_realm.py on the quiet machine (07:20); stolen-lands by this script on main's code, the
# best of three rounds per seed interleaved with the branch's (load average 1.5–4.5). The targets are
# a third of them.
BASELINE = {"realm": 5.52, "stolen-lands": 1.75}
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


VALGRIND_HOURS = {"realm": 8640, "stolen-lands": 17280}
_CHILD = """
import inspect, sys
sys.path.insert(0, {root!r})
import agents.policies
from agents.campaign import run_campaign
from agents.variants import variant
from scenarios.loader import load_scenario
kw = {{}}
if "explain" in inspect.signature(run_campaign).parameters:  # since issue 26 item 2: compact unless asked
    kw["explain"] = {loud!r}
elif not {loud!r}:  # the code before it: every campaign explained; Policy.explain off gives the same choices
    agents.policies.Policy.explain = False
run_campaign(variant(load_scenario({name!r}), duration_hours={hours!r}), 1, keep_ledger=False, collect=False, **kw)
"""


def instructions(name: str, hours: int, loud: bool, root: Path = ROOT) -> int:
    """Instructions (valgrind's I refs) of a fresh process that plays ``name`` for ``hours``."""
    code = _CHILD.format(root=str(root), name=name, hours=hours, loud=loud)
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True, check=True).stderr
    found = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if found is None:
        raise RuntimeError(f"valgrind printed no instruction count: {out[-300:]}")
    return int(found.group(1).replace(",", ""))


def valgrind_figures(names: list[str], root: Path = ROOT) -> None:
    if shutil.which("valgrind") is None:
        print("--valgrind: valgrind is not installed; no instruction counts")
        return
    for name in names:
        hours = VALGRIND_HOURS.get(name, 8640)
        setup = instructions(name, 24, False, root)
        quiet = instructions(name, hours, False, root) - setup
        loud = instructions(name, hours, True, root) - setup
        print(f"{name} seed 1, {hours} h ({root}): {quiet / 1e6:,.0f} M instructions of campaign as a batch job records "
              f"it (setup {setup / 1e6:,.0f} M); explained (run --explain) {loud / 1e6:,.0f} M "
              f"({100 * (loud - quiet) / loud:.0f} % more than compact)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--scenarios", default="realm,stolen-lands")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--valgrind", action="store_true", help="instruction counts (see above)")
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="with --valgrind: the source tree to count (a worktree of older code, to compare)")
    args = ap.parse_args()
    names = [n for n in args.scenarios.split(",") if n]
    for name in names:
        cpus = []
        for seed in range(1, args.seeds + 1):
            res, cpu = job_cpu(name, seed)
            cpus.append(cpu)
            print(f"{name} seed {seed}: {cpu:.2f} s CPU, {res['events']} events")
        if not cpus:  # --seeds 0: only --profile or --valgrind
            continue
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
    if args.valgrind:
        valgrind_figures(names, args.root)


if __name__ == "__main__":
    main()
