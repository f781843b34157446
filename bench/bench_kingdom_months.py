"""Kingdom-months per second on stolen-lands, in one process, and where the time goes.

    .venv/bin/python bench/bench_kingdom_months.py [--seeds N] [--profile]

A kingdom-month is one monthly turn of one kingdom (vassals and colonies count from the turn they are
founded). The run uses the job settings (no kept ledger, no data collection). With ``--profile`` it
also runs the campaigns under cProfile and prints the share of time spent in rule resolution
(``sim/rules/km/``: the month, ``resolve_month``, and an envoy's arrival, less the questions the rules
ask the agents), in the policies, and outside the rules (SimPy, Mesa, the driver's plumbing, the ledger).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.campaign import run_campaign  # noqa: E402
from scenarios.loader import load_scenario  # noqa: E402


def kingdom_months(res) -> int:  # type: ignore[no-untyped-def]
    km = res.world.km
    turns = km.turn + 1
    return sum(max(0, turns - k.founded_turn) for k in km.kingdoms.values())


def run(seeds: range) -> tuple[int, float, int]:
    loaded = load_scenario("stolen-lands")
    months = events = 0
    t0 = time.perf_counter()
    for s in seeds:
        res = run_campaign(loaded, s, keep_ledger=False, collect=False)
        months += kingdom_months(res)
        events += res.events
    return months, time.perf_counter() - t0, events


# the rule functions the driver and the agents call: the whole month, and an envoy's arrival
RULE_ENTRY_POINTS = {"resolve_month", "envoy_arrived"}


def report(st: pstats.Stats) -> None:
    stats = st.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())

    def cum(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[3] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    def own(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[2] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    def from_agents(f: str, fn: str) -> float:
        """Time of rule entry points, counted once: only calls made from outside sim/rules."""
        out = 0.0
        for (ff, _, ffn), v in stats.items():
            ff = ff.replace("\\", "/")
            if not ("/sim/rules/km/" in ff and ffn in RULE_ENTRY_POINTS):
                continue
            for (cf, _, _c), cv in v[4].items():
                if "/sim/rules/" not in cf.replace("\\", "/"):
                    out += cv[3]
        return out

    # the month asks the agents its questions (RealmAgent.answer: observing, scoring, recording): not rules
    rules = from_agents("", "") - cum(lambda f, fn: f.endswith("agents/base.py") and fn == "answer")
    scoring = cum(lambda f, fn: "/agents/policies/" in f and fn == "decide")
    ledger_all = sum(v[3] for (f, _, fn), v in stats.items() if f.replace("\\", "/").endswith("sim/events.py") and fn == "emit")
    decisions = cum(lambda f, fn: f.endswith("agents/base.py") and fn == "answer")
    build = cum(lambda f, fn: f.endswith("scenarios/build.py") and fn == "build_world")
    framework = own(lambda f, fn: "/simpy/" in f or "/mesa/" in f or f.endswith(("agents/model.py", "agents/clock.py")))
    print("  where the time goes (cProfile, share of the whole run):")
    print(f"    rule resolution (sim.rules.km, less the questions asked)   {100 * rules / total:5.1f} %")
    print(f"    policies: scoring the alternatives (decide)              {100 * scoring / total:5.1f} %")
    print(f"    decisions asked (RealmAgent.answer, incl. scoring)        {100 * decisions / total:5.1f} %")
    print(f"    scenario build (world from the scenario, per seed)       {100 * build / total:5.1f} %")
    print(f"    outside the rules: SimPy, Mesa, model plumbing           {100 * framework / total:5.1f} %")
    print(f"    ledger (every event, inside and outside the rules)       {100 * ledger_all / total:5.1f} %")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    run(range(1000, 1001))  # warm-up (imports, caches)
    months, dt, events = run(range(a.seeds))
    print(f"stolen-lands: {a.seeds} campaigns of 10 years, {months} kingdom-months, {events} events in {dt:.2f} s")
    print(f"  {months / dt:,.0f} kingdom-months/s   {a.seeds / dt:.2f} campaigns/s   {events / dt:,.0f} events/s")
    if a.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(range(a.seeds))
        prof.disable()
        report(pstats.Stats(prof))


if __name__ == "__main__":
    main()
