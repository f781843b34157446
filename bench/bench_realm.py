"""Ten-year runs of the built-in ``realm`` scenario (all four systems and their LINK clauses), and
where the time goes.

    .venv/bin/python bench/bench_realm.py [--seeds N] [--years Y] [--no-profile]

Each run is one batch job, run by the job function itself (``workers.job.run_job_dict``) with the
job settings (no kept ledger, no data collection), so its time includes what every job pays before
its campaign starts: reading, parsing and validating the scenario and building the world from it.
It prints campaign-years per second (wall and CPU time: the machine may be shared) and the peak
memory (resident set) of one campaign run in a fresh process, with and without Mesa's data
collection (``realmsim run`` collects; batch jobs do not).

Then one job is profiled (cProfile) and its time is split by where the code lives: rule resolution
and the policies (``sim/`` except the ledger, ``agents/`` except the model and the clock) against
everything outside them — the job's setup (scenario load, validation, world and model building:
everything of the job outside ``RealmModel.run``), SimPy, Mesa, the ledger (``Ledger.emit`` and its
hashing, cumulative) and the model's plumbing.

Targets (issue 12), printed next to each figure: at least ``TARGET_YEARS_PER_S`` campaign-years per
second in one process (twice the 3.08 measured before the paths were kept, on the reference
machine), and at most ``TARGET_OUTSIDE`` of a job's time outside rule resolution and the policies.
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

from agents.campaign import variant  # noqa: E402
from scenarios.loader import load_scenario  # noqa: E402
from sim.calendar import hours  # noqa: E402
from workers.job import make_job, run_job_dict  # noqa: E402

TARGET_YEARS_PER_S = 6.2
TARGET_OUTSIDE = 10.0  # % of a job's time


def realm_job(years: int, seed: int) -> dict[str, Any]:
    """The batch job of a ``years``-year realm campaign (the built-in by name; a shorter or longer
    variant by its TOML text, as ``realmsim batch`` sends a scenario file)."""
    if years == 10:
        return make_job({"name": "realm"}, seed)
    loaded = variant(load_scenario("realm"), duration_hours=hours(years=years))
    return make_job({"label": f"realm-{years}y.toml", "text": loaded.text}, seed)


def one(years: int, seed: int) -> tuple[dict[str, Any], float, float]:
    job = realm_job(years, seed)
    t0, c0 = time.perf_counter(), time.process_time()
    res = run_job_dict(job)
    return res, time.perf_counter() - t0, time.process_time() - c0


def _profiled(job: Any, collect: bool, years: int, seed: int) -> tuple[pstats.Stats, float]:
    """Profile one job: ``RealmModel.run`` (the campaign) on one profiler, the rest of the job (its
    setup: scenario load, validation, world and model building) on another, switched at ``run``'s
    entry and exit. Returns the campaign's statistics and the setup's own time. (The setup was once
    the whole job's time less ``run``'s cumulative time; cProfile's cumulative time of a function
    that drives generators, as ``run`` drives SimPy's, is not reliable, and the share came out
    negative.)"""
    from agents.model import RealmModel

    setup_prof, run_prof = cProfile.Profile(), cProfile.Profile()
    original = RealmModel.run
    depth = [0]

    def run(self: Any, *a: Any, **k: Any) -> Any:
        depth[0] += 1
        if depth[0] == 1:  # a look-ahead rollout runs a model inside the campaign: stays on run_prof
            setup_prof.disable()
            run_prof.enable()
        try:
            return original(self, *a, **k)
        finally:
            depth[0] -= 1
            if depth[0] == 0:
                run_prof.disable()
                setup_prof.enable()

    RealmModel.run = run  # type: ignore[method-assign]
    try:
        setup_prof.enable()
        if collect:  # realmsim run: the scenario loaded, the ledger kept, Mesa collecting
            from agents.campaign import run_campaign

            loaded = load_scenario("realm") if years == 10 else variant("realm", duration_hours=hours(years=years))
            run_campaign(loaded, seed, keep_ledger=True, collect=True)
        else:
            run_job_dict(job)
        setup_prof.disable()
    finally:
        RealmModel.run = original  # type: ignore[method-assign]
    setup = sum(v[2] for v in pstats.Stats(setup_prof).stats.values())  # type: ignore[attr-defined]
    return pstats.Stats(run_prof), setup


def breakdown(years: int, seed: int, collect: bool) -> None:
    st, setup = _profiled(None if collect else realm_job(years, seed), collect, years, seed)
    stats = st.stats  # type: ignore[attr-defined]
    total = setup + sum(v[2] for v in stats.values())  # own time of every function, setup and campaign

    def own(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[2] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    def cum(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[3] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    ledger = cum(lambda f, fn: f.endswith("sim/events.py") and fn == "emit")
    simpy = own(lambda f, fn: "/simpy/" in f)
    # Mesa: its own code, plus the whole of each daily/seasonal data collection (reporters included)
    mesa = own(lambda f, fn: "/mesa/" in f and "datacollection" not in f) + cum(
        lambda f, fn: f.endswith("agents/systems/cv.py") and fn == "collect_day")
    plumbing = own(lambda f, fn: f.endswith(("agents/model.py", "agents/clock.py")))
    outside = setup + ledger + simpy + mesa + plumbing
    what = "realmsim run settings: ledger kept, Mesa data collection on" if collect else "job settings, one whole job"
    print(f"  profiled run (seed {seed}, {what}): {total:.2f} s of own time under cProfile")
    if collect:
        print(f"    setup (scenario load, validation, world and model building): {setup:.2f} s ({100 * setup / total:.1f} %)")
    else:
        print(f"    job setup (scenario load, validation, world and model building): {setup:.2f} s ({100 * setup / total:.1f} %)")
    print(f"    ledger (Ledger.emit, cumulative): {ledger:.2f} s ({100 * ledger / total:.1f} %)")
    print(f"    SimPy:                            {simpy:.2f} s ({100 * simpy / total:.1f} %)")
    print(f"    Mesa:                             {mesa:.2f} s ({100 * mesa / total:.1f} %)")
    print(f"    model and clock plumbing:         {plumbing:.2f} s ({100 * plumbing / total:.1f} %)")
    share = 100 * outside / total
    if collect:
        print(f"    outside rule resolution and policies: {outside:.2f} s ({share:.1f} %; the {TARGET_OUTSIDE:.0f} % target is for jobs)")
    else:
        verdict = "met" if share <= TARGET_OUTSIDE else "NOT met"
        print(f"    outside rule resolution and policies: {outside:.2f} s ({share:.1f} %, target ≤ {TARGET_OUTSIDE:.0f} %: {verdict})")
    from bench_job_cpu import shares  # (bench/ is this script's folder)

    where = shares(stats)
    policies = where.get("policies", 0.0)
    print(f"    (for information: the AI policies and agents' observations, with the builtins and library code they call:"
          f" {policies:.2f} s ({100 * policies / total:.1f} %); rule resolution is the rest: {100 * (total - outside - policies) / total:.1f} %;"
          f" with policies that cost nothing a campaign would run at most {1 / (1 - policies / total):.2f}x as fast)")
    found = cum(lambda f, fn: f.endswith("sim/paths.py") and fn == "cheapest_path")
    print(f"    of which paths (sim.paths.cheapest_path, cumulative): {found:.3f} s ({100 * found / total:.2f} %)")
    links = cum(lambda f, fn: f.endswith("sim/rules/links.py") and fn in (
        "raise_nation_army", "fund_nation_armies", "report_attack", "domain_occupied", "domain_annexed", "occupation_unrest", "settle"))
    print(f"    of which LINK glue (sim/rules/links.py entry points, cumulative): {links:.3f} s ({100 * links / total:.2f} %)")


def peak_memory(years: int, collect: bool) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of one campaign in a fresh process (the child reports its own
    peak resident set, which includes the interpreter and the imported packages)."""
    import subprocess

    root = str(Path(__file__).resolve().parent.parent)
    code = "\n".join([
        "import resource, sys, time",
        f"sys.path.insert(0, {root!r})",
        "from agents.campaign import run_campaign, variant",
        "from scenarios.loader import load_scenario",
        "from sim.calendar import hours",
        "loaded = load_scenario('realm')",
        f"loaded = loaded if {years} == 10 else variant(loaded, duration_hours=hours(years={years}))",
        "t = time.perf_counter()",
        f"run_campaign(loaded, 1, keep_ledger={collect}, collect={collect})",
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)",
    ])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--no-profile", action="store_true")
    args = ap.parse_args()
    print(f"realm, {args.years} years, seeds 1..{args.seeds} (systems km, mn, gw, cv; one batch job each, in one process)")
    walls, cpus = [], []
    for seed in range(1, args.seeds + 1):
        res, wall, cpu = one(args.years, seed)
        walls.append(wall)
        cpus.append(cpu)
        s = res["summary"]
        print(f"  seed {seed}: {wall:.2f} s ({cpu:.2f} s CPU), {res['events']} events ({res['events'] / wall:.0f}/s); "
              f"invasions {s['link.invasions']}, repulses {s['link.repulses']}, occupations {s['link.occupations']}, "
              f"hexes lost {s['link.hexes_lost']}, conquests {s['link.conquests']}, nation armies {s['link.nation_armies']}, "
              f"trade convoys {s['link.trade_convoys']}")
    mean, best = statistics.mean(walls), min(walls)
    print(f"  wall time per {args.years}-year job: mean {mean:.2f} s, best {best:.2f} s, max {max(walls):.2f} s"
          f" (CPU: mean {statistics.mean(cpus):.2f} s, best {min(cpus):.2f} s)")
    rate = args.years / mean
    verdict = "met" if rate >= TARGET_YEARS_PER_S else "NOT met"
    print(f"  campaign-years per second (one process): {rate:.2f} (target ≥ {TARGET_YEARS_PER_S}: {verdict}); "
          f"best seed {args.years / best:.2f}; by CPU time {args.years / statistics.mean(cpus):.2f}")
    for collect in (False, True):
        wall, rss = peak_memory(args.years, collect)
        what = "realmsim run (kept ledger, Mesa data collection)" if collect else "batch job (no ledger kept, no collection)"
        print(f"  peak memory, one campaign in a fresh process, {what}: {rss:.0f} MiB ({wall:.2f} s)")
    if not args.no_profile:
        breakdown(args.years, 1, collect=False)
        breakdown(args.years, 1, collect=True)


if __name__ == "__main__":
    main()
