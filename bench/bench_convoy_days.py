"""Convoy-days per second on caravan-crossing, in one process, and where the time goes.

    .venv/bin/python bench/bench_convoy_days.py [--seeds N] [--profile]

A convoy-day is one day of one convoy that is still travelling at the start of the day (arrived
and destroyed convoys cost nothing). The run uses the job settings (no kept ledger, no data
collection); ``--collect`` turns the daily DataCollector on. With ``--profile`` it also runs the
campaigns under cProfile and prints the share of time spent inside ``sim/rules/caravan.py`` and
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
        st = pstats.Stats(prof)
        total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
        groups = {"sim/rules/caravan.py": 0.0, "sim/ (other engine: ledger, dice, state…)": 0.0,
                  "agents/ (convoy agent, policies, driver)": 0.0, "scenarios/": 0.0, "simpy": 0.0, "mesa": 0.0,
                  "other (stdlib, msgspec…)": 0.0}
        for (fname, _, _), v in st.stats.items():  # type: ignore[attr-defined]
            own = v[2]  # time spent in the function itself
            f = fname.replace("\\", "/")
            if f.endswith("sim/rules/caravan.py"):
                groups["sim/rules/caravan.py"] += own
            elif "/sim/" in f and "site-packages" not in f:
                groups["sim/ (other engine: ledger, dice, state…)"] += own
            elif "/agents/" in f and "site-packages" not in f:
                groups["agents/ (convoy agent, policies, driver)"] += own
            elif "/scenarios/" in f and "site-packages" not in f:
                groups["scenarios/"] += own
            elif "/simpy/" in f:
                groups["simpy"] += own
            elif "/mesa/" in f:
                groups["mesa"] += own
            else:
                groups["other (stdlib, msgspec…)"] += own
        print("  self time by area under cProfile (callees counted where they run):")
        for k, v in groups.items():
            print(f"    {k:<44} {100 * v / total:5.1f} %")
        # rule resolution including the stdlib/msgspec/ledger work it calls
        rules_cum = 0.0
        for (fname, _, func), v in st.stats.items():  # type: ignore[attr-defined]
            if fname.replace("\\", "/").endswith("sim/rules/caravan.py") and func.startswith("resolve_") or (
                fname.replace("\\", "/").endswith("sim/rules/caravan.py") and func in ("legal_orders", "route_options")):
                rules_cum += v[3]
        print(f"  cumulative time inside sim.rules.caravan entry points (resolve_*, legal_orders, route_options): "
              f"{100 * min(rules_cum, total) / total:.1f} % of the run")


if __name__ == "__main__":
    main()
