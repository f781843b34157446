"""Guild-seasons per second on the built-in ``guild-war`` scenario (guild warfare, GW).

A guild-season is one guild playing one season: giving its orders (policy decisions over the
legal orders) and the season's seven phases. The script also splits a campaign's time into rule
resolution (legal orders, order checks, the phases), the policies' own scoring, and everything
else (Mesa, SimPy, the ledger hashing, setup) — the last must stay under 25 %.

    .venv/bin/python bench/bench_guild_seasons.py [runs] [--policy random|heuristic]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from typing import Any

from agents.campaign import finish, prepare_campaign
from agents.policies import guild as guild_policies
from scenarios.loader import load_scenario, load_scenario_text, read_source
from sim.events import Ledger
from sim.rules import gw as wf

TIMES: dict[str, float] = defaultdict(float)


def _timed(bucket: str, fn: Any) -> Any:
    def wrapper(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            TIMES[bucket] += time.perf_counter() - t

    return wrapper


def instrument() -> None:
    """Time the rules and the policies (the driver and agents call them through these modules)."""
    # the package's modules import one another's functions by name: patch every module holding one
    gw_mods = [m for n, m in sorted(sys.modules.items()) if n == "sim.rules.gw" or n.startswith("sim.rules.gw.")]
    for name in ("legal_orders", "give_order", "begin_season", "run_phases"):
        original = getattr(wf, name)
        timed = _timed("rules", original)
        for mod in gw_mods:
            if getattr(mod, name, None) is original:
                setattr(mod, name, timed)
    for cls in (guild_policies.GuildHeuristic, guild_policies.GuildRandom):
        cls.decide = _timed("policy", cls.decide)  # type: ignore[method-assign]
    wf.resolve_season = _timed("season", wf.resolve_season)  # type: ignore[assignment]  (the driver calls it through the package)
    Ledger.emit = _timed("ledger", Ledger.emit)  # type: ignore[method-assign]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="?", type=int, default=5)
    ap.add_argument("--policy", choices=["heuristic", "random"], default="heuristic")
    args = ap.parse_args()
    if args.policy == "heuristic":
        loaded = load_scenario("guild-war")
    else:
        label, text = read_source("guild-war")
        loaded = load_scenario_text(text.replace('policy = "heuristic"', 'policy = "random"'), label + " (random)")
    instrument()
    guild_seasons = 0
    events = 0
    t0 = time.perf_counter()
    for seed in range(1, args.runs + 1):
        model = prepare_campaign(loaded, seed, keep_ledger=False, collect=False)
        model.run()
        res = finish(model)
        gw = res.world.gw
        assert gw is not None
        guild_seasons += len(gw.guilds) * res.summary["gw.seasons"]
        events += res.events
    total = time.perf_counter() - t0
    ledger = TIMES["ledger"]  # mostly called from inside the rules and the agents' decisions
    rules = TIMES["rules"]
    policy = TIMES["policy"]
    other = total - rules - policy
    outside = other + ledger
    print(f"guild-war, {args.runs} campaigns of 5 years, policy {args.policy}")
    print(f"  guild-seasons:            {guild_seasons}")
    print(f"  wall time:                {total:.2f} s")
    print(f"  guild-seasons per second: {guild_seasons / total:.1f}")
    print(f"  events per second:        {events / total:.0f}")
    print(f"  rule resolution:          {rules - ledger:.2f} s ({100 * (rules - ledger) / total:.1f} %, ledger excluded)")
    print(f"  policy scoring:           {policy:.2f} s ({100 * policy / total:.1f} %)")
    print(f"  ledger (all emits):       {ledger:.2f} s ({100 * ledger / total:.1f} %)")
    print(f"  outside rules and policies (Mesa, SimPy, ledger, setup): {outside:.2f} s ({100 * outside / total:.1f} %)")


if __name__ == "__main__":
    main()
