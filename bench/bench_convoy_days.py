"""Convoy-days per second on caravan-crossing, in one process, and where the time goes.

    .venv/bin/python bench/bench_convoy_days.py [--seeds N] [--profile]

A convoy-day is one day of one convoy that is still travelling at the start of the day (arrived
and destroyed convoys cost nothing). The run uses the job settings (no kept ledger, no data
collection); ``--collect`` turns the daily DataCollector on. With ``--profile`` it also runs the
campaigns under cProfile and prints the share of time spent inside the rules (``sim/rules/cv/``) and
in the rest of the engine (ledger, dice), against Mesa/SimPy/agents.
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


def convoy_days(res) -> int:  # type: ignore[no-untyped-def]
    cv = res.world.cv
    end_day = res.world.end // 24
    n = 0
    for c in cv.convoys:
        if c.status == "arrived":
            n += c.arrived_at // 24 + 1
        elif c.status == "destroyed":
            n += c.today.day + 1
        else:
            n += end_day
    return n


def run(seeds: range, collect: bool) -> tuple[int, float, int]:
    loaded = load_scenario("caravan-crossing")
    days = events = 0
    t0 = time.perf_counter()
    for s in seeds:
        res = run_campaign(loaded, s, keep_ledger=False, collect=collect)
        days += convoy_days(res)
        events += res.events
    return days, time.perf_counter() - t0, events


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--collect", action="store_true", help="collect the daily DataCollector tables too")
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    run(range(1000, 1002), a.collect)  # warm-up (imports, caches)
    days, dt, events = run(range(a.seeds), a.collect)
    print(f"caravan-crossing: {a.seeds} campaigns, {days} convoy-days, {events} events in {dt:.2f} s")
    print(f"  {days / dt:,.0f} convoy-days/s   {a.seeds / dt:.1f} campaigns/s   {events / dt:,.0f} events/s"
          f"   (collect={'on' if a.collect else 'off'})")
    if a.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(range(a.seeds), a.collect)
        prof.disable()
        report(pstats.Stats(prof))


RULE_ENTRY_POINTS = {"new_day", "resolve_slot_start", "resolve_travel_slot", "resolve_extra_hours", "resolve_rest",
                     "resolve_scheduled", "resolve_wages", "unpaid_leave", "legal_orders", "route_options", "resolve_route"}


def report(st: pstats.Stats) -> None:
    stats = st.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())

    def cum(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[3] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    def own(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(v[2] for (f, _, fn), v in stats.items() if pred(f.replace("\\", "/"), fn))

    rules = cum(lambda f, fn: "/sim/rules/cv/" in f and fn in RULE_ENTRY_POINTS)
    ledger = ledger_in_rules = 0.0
    for (f, _, fn), v in stats.items():
        if f.replace("\\", "/").endswith("sim/events.py") and fn == "emit":
            for (cf, _, _caller), cv in v[4].items():  # time of emit, split by caller
                ledger += cv[3]
                if "/sim/rules/cv/" in cf.replace("\\", "/"):
                    ledger_in_rules += cv[3]
    policy = cum(lambda f, fn: "/agents/policies/" in f and fn == "decide")
    observe = cum(lambda f, fn: f.endswith("agents/convoy.py") and fn in ("observe", "_status", "_day_view"))
    build = cum(lambda f, fn: f.endswith("scenarios/build.py") and fn == "build_world")
    framework = own(lambda f, fn: "/simpy/" in f or "/mesa/" in f or f.endswith(("agents/model.py", "agents/clock.py"))
                    or (f.endswith("agents/convoy.py") and fn in ("run", "rank", "convoy", "routes")))
    print("  where the time goes (cProfile, share of the whole run):")
    print(f"    rule resolution (sim.rules.cv, the day's phases)     {100 * rules / total:5.1f} %"
          f"   of which ledger events {100 * ledger_in_rules / total:4.1f} %")
    print(f"    policies (decide) + observations                      {100 * (policy + observe) / total:5.1f} %")
    print(f"    scenario build (world from the scenario, per seed)    {100 * build / total:5.1f} %")
    print(f"    outside the rules: SimPy, Mesa, process plumbing      {100 * framework / total:5.1f} %")
    print(f"    outside the rules: ledger (decisions)                  {100 * (ledger - ledger_in_rules) / total:5.1f} %"
          f"   (+{100 * ledger_in_rules / total:.1f} % for the events the rules emit)")


if __name__ == "__main__":
    main()
