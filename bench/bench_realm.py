"""Ten-year runs of the built-in ``realm`` scenario (all four systems and their LINK clauses), and
where the time goes.

    .venv/bin/python bench/bench_realm.py [--seeds N] [--years Y] [--no-profile]

It prints campaign-years per second, the peak memory (resident set) of one campaign run in a fresh
process, with and without Mesa's data collection (``realmsim run`` collects; batch jobs do not),

Each run uses the job settings (no kept ledger, no data collection), as ``realmsim batch`` does. The
wall time of a run includes building the world from the scenario. Then one run is profiled
(cProfile) and its time is split by where the code lives: rule resolution and the policies (``sim/``
except the ledger, ``agents/`` except the model and the clock) against everything outside them —
SimPy, Mesa, the ledger (``Ledger.emit`` and its hashing, cumulative) and the model's plumbing — which
must stay under 25 %.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.campaign import run_campaign, variant  # noqa: E402
from scenarios.loader import load_scenario  # noqa: E402
from sim.calendar import hours  # noqa: E402


def one(loaded, seed: int):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    res = run_campaign(loaded, seed, keep_ledger=False, collect=False)
    return res, time.perf_counter() - t0


def breakdown(loaded, seed: int, collect: bool) -> None:  # type: ignore[no-untyped-def]
    prof = cProfile.Profile()
    prof.enable()
    run_campaign(loaded, seed, keep_ledger=collect, collect=collect)
    prof.disable()
    st = pstats.Stats(prof)
    stats = st.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())  # own time of every function

    def own(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[2] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    def cum(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[3] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    ledger = cum(lambda f, fn: f.endswith("sim/events.py") and fn == "emit")
    simpy = own(lambda f, fn: "/simpy/" in f)
    # Mesa: its own code, plus the whole of each daily/seasonal data collection (reporters included)
    mesa = own(lambda f, fn: "/mesa/" in f and "datacollection" not in f) + cum(
        lambda f, fn: f.endswith("agents/model.py") and fn == "collect_now")
    plumbing = own(lambda f, fn: f.endswith(("agents/model.py", "agents/clock.py")) and fn != "collect_now")
    outside = ledger + simpy + mesa + plumbing
    what = "realmsim run settings: ledger kept, Mesa data collection on" if collect else "job settings"
    print(f"  profiled run (seed {seed}, {what}): {total:.2f} s of own time under cProfile")
    print(f"    ledger (Ledger.emit, cumulative): {ledger:.2f} s ({100 * ledger / total:.1f} %)")
    print(f"    SimPy:                            {simpy:.2f} s ({100 * simpy / total:.1f} %)")
    print(f"    Mesa:                             {mesa:.2f} s ({100 * mesa / total:.1f} %)")
    print(f"    model and clock plumbing:         {plumbing:.2f} s ({100 * plumbing / total:.1f} %)")
    print(f"    outside rule resolution and policies: {outside:.2f} s ({100 * outside / total:.1f} %, must stay under 25 %)")
    policies = own(lambda f, fn: "/agents/policies/" in f or f.endswith(
        ("agents/convoy.py", "agents/kingdom.py", "agents/guild.py", "agents/nation.py", "agents/ambassador.py", "agents/envoy.py")))
    print(f"    (for information: the AI policies and agents' observations: {policies:.2f} s ({100 * policies / total:.1f} %);"
          f" rule resolution is the rest: {100 * (total - outside - policies) / total:.1f} %)")
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
    loaded = load_scenario("realm")
    if args.years != 10:
        loaded = variant(loaded, duration_hours=hours(years=args.years))
    print(f"realm, {args.years} years, seeds 1..{args.seeds} (systems km, mn, gw, cv; job settings)")
    walls = []
    for seed in range(1, args.seeds + 1):
        res, wall = one(loaded, seed)
        walls.append(wall)
        s = res.summary
        print(f"  seed {seed}: {wall:.2f} s, {res.events} events ({res.events / wall:.0f}/s); "
              f"invasions {s['link.invasions']}, repulses {s['link.repulses']}, occupations {s['link.occupations']}, "
              f"hexes lost {s['link.hexes_lost']}, conquests {s['link.conquests']}, nation armies {s['link.nation_armies']}, "
              f"trade convoys {s['link.trade_convoys']}")
    mean = statistics.mean(walls)
    print(f"  wall time per {args.years}-year campaign: mean {mean:.2f} s, max {max(walls):.2f} s")
    print(f"  campaign-years per second (one process): {args.years / mean:.2f}")
    for collect in (False, True):
        wall, rss = peak_memory(args.years, collect)
        what = "realmsim run (kept ledger, Mesa data collection)" if collect else "batch job (no ledger kept, no collection)"
        print(f"  peak memory, one campaign in a fresh process, {what}: {rss:.0f} MiB ({wall:.2f} s)")
    if not args.no_profile:
        breakdown(loaded, 1, collect=False)
        breakdown(loaded, 1, collect=True)


if __name__ == "__main__":
    main()
