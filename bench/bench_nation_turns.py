"""Nation-turns per second on mare-nostrum, in one process, and where the time goes.

    .venv/bin/python bench/bench_nation_turns.py [--seeds N] [--collect] [--share]

A nation-turn is one Mare Nostrum turn of one nation (5 nations x 40 turns = 200 per campaign).
The runs use the job settings (no kept ledger, no data collection unless ``--collect``).

``--share`` runs the campaigns again with timers around rule resolution (every ``sim.rules.mn``
entry point the turn, ``resolve_turn``, calls) and around the policies' decisions, and around
``Ledger.emit``; it prints the share of the run spent outside rule resolution and policies (Mesa,
SimPy, the ledger, the turn's and the agents' glue), which must stay <= 25 %.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.campaign import run_campaign  # noqa: E402
from scenarios.loader import load_scenario  # noqa: E402


def run(seeds: range, collect: bool) -> tuple[int, float, int]:
    loaded = load_scenario("mare-nostrum")
    nation_turns = events = 0
    t0 = time.perf_counter()
    for s in seeds:
        res = run_campaign(loaded, s, keep_ledger=False, collect=collect)
        mn = res.world.mn
        assert mn is not None
        nation_turns += mn.turn * len(mn.nations)
        events += res.events
    return nation_turns, time.perf_counter() - t0, events


class Timers:
    """Outermost-call timers: resolution (rules + policies) and the ledger time spent inside it."""

    def __init__(self) -> None:
        self.depth = 0
        self.resolution = 0.0
        self.emit_inside = 0.0
        self.emit_total = 0.0

    def wrap(self, fn: Any) -> Any:
        @functools.wraps(fn)
        def inner(*a: Any, **k: Any) -> Any:
            if self.depth:
                return fn(*a, **k)
            self.depth += 1
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                self.resolution += time.perf_counter() - t0
                self.depth -= 1

        return inner

    def wrap_emit(self, fn: Any) -> Any:
        @functools.wraps(fn)
        def inner(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                dt = time.perf_counter() - t0
                self.emit_total += dt
                if self.depth:
                    self.emit_inside += dt

        return inner


def share(seeds: range, collect: bool) -> None:
    import sim.rules.mn.turn as turn_mod
    from agents.policies.nation import NationHeuristic
    from sim.events import Ledger

    timers = Timers()
    # the rule entry points the MN turn (sim.rules.mn.resolve_turn) calls, patched where it looks them up
    names = [n for n in dir(turn_mod) if (n.startswith("resolve_") and n != "resolve_turn") or n in (
        "legal_orders", "check", "end_of_turn", "return_if_due", "abort_if_cut", "needs_host", "arriving_missions",
        "in_contact", "apply_scripted", "is_acclamation_turn")]
    saved: list[tuple[Any, str, Any]] = []
    for n in names:
        saved.append((turn_mod, n, getattr(turn_mod, n)))
        setattr(turn_mod, n, timers.wrap(getattr(turn_mod, n)))
    saved.append((NationHeuristic, "decide", NationHeuristic.decide))
    NationHeuristic.decide = timers.wrap(NationHeuristic.decide)  # type: ignore[method-assign]
    saved.append((Ledger, "emit", Ledger.emit))
    Ledger.emit = timers.wrap_emit(Ledger.emit)  # type: ignore[method-assign]
    try:
        _, dt, _ = run(seeds, collect)
    finally:
        for obj, n, fn in reversed(saved):
            setattr(obj, n, fn)
    net = timers.resolution - timers.emit_inside
    print(f"  instrumented run {dt:.2f} s: rule resolution and policies {100 * net / dt:.1f} % (ledger excluded), "
          f"ledger {100 * timers.emit_total / dt:.1f} %")
    print(f"  outside rule resolution (Mesa, SimPy, ledger, driver glue): {100 * (dt - net) / dt:.1f} %  (target <= 25 %)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--collect", action="store_true", help="collect the DataCollector tables too")
    ap.add_argument("--share", action="store_true", help="measure the share of time outside rule resolution")
    a = ap.parse_args()
    run(range(1000, 1002), a.collect)  # warm-up (imports, caches)
    nt, dt, events = run(range(a.seeds), a.collect)
    print(f"mare-nostrum: {a.seeds} campaigns, {nt} nation-turns, {events} events in {dt:.2f} s")
    print(f"  {nt / dt:,.0f} nation-turns/s   {a.seeds / dt:.2f} campaigns/s   {events / dt:,.0f} events/s"
          f"   (collect={'on' if a.collect else 'off'})")
    if a.share:
        share(range(a.seeds), a.collect)


if __name__ == "__main__":
    main()
