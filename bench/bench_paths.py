"""Paths computed once: what a ten-year ``realm`` campaign asks of ``sim.paths`` and what keeping
the answers saves.

    .venv/bin/python bench/bench_paths.py [--seed N] [--years Y]

One campaign runs (job settings) with every ``sim.paths.cheapest_path`` call recorded: by cost
function, the calls, the distinct questions (cost table, start, goal), the tables built and the
searches started. Then every call is replayed twice, outside the campaign: with the plain Dijkstra of
``HexMap.least_cost_path`` (a cost callback per edge, nothing kept: what every call cost before) and
through fresh kept tables (what the campaign paid, cost tables aside), and both are checked to give
the same answers.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.campaign import run_campaign, variant  # noqa: E402
from scenarios.loader import load_scenario  # noqa: E402
from sim import paths  # noqa: E402
from sim.calendar import hours  # noqa: E402
from sim.hexmap import HexMap  # noqa: E402


def kind_of(key: Hashable) -> str:
    return str(key[0] if isinstance(key, tuple) else key)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--years", type=int, default=10)
    args = ap.parse_args()
    loaded = load_scenario("realm")
    if args.years != 10:
        loaded = variant(loaded, duration_hours=hours(years=args.years))

    calls: list[tuple[str, int, int, int]] = []  # (kind, table id, start, goal)
    tables: dict[int, list[float | None]] = {}
    sizes: dict[int, tuple[int, int]] = {}
    spent = [0.0]
    original = paths.cheapest_path

    def recording(hm: HexMap, start: int, goal: int, key: Hashable, entry_costs: Callable[[], Any], **kw: Any) -> Any:
        t = time.perf_counter()
        got = original(hm, start, goal, key, entry_costs, **kw)
        spent[0] += time.perf_counter() - t
        table = paths._entry(hm).terrain_tables.get(key) if kw.get("terrain_only") else paths._entry(hm).road_tables.get(key)
        assert table is not None
        tables.setdefault(id(table), table.costs)
        sizes[id(table)] = (hm.width, hm.height)
        calls.append((kind_of(key), id(table), start, goal))
        return got

    # the rules modules import cheapest_path by name: patch every module of sim.rules that holds it
    import sim.rules.links  # noqa: F401  (imports every system's package)

    mods = [m for n, m in sorted(sys.modules.items()) if n.startswith("sim.rules") and getattr(m, "cheapest_path", None) is original]
    for mod in mods:
        mod.cheapest_path = recording  # type: ignore[attr-defined]
    paths.clear()
    t0 = time.perf_counter()
    res = run_campaign(loaded, args.seed, keep_ledger=False, collect=False)
    wall = time.perf_counter() - t0
    for mod in mods:
        mod.cheapest_path = original  # type: ignore[attr-defined]

    print(f"realm, {args.years} years, seed {args.seed}: {wall:.2f} s, {res.events} events; "
          f"{len(calls)} path questions, {spent[0]:.3f} s in sim.paths.cheapest_path (cost tables included)")
    per: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for kind, tid, a, b in calls:
        per[kind].append((tid, a, b))
    print(f"  {'cost function':14s} {'calls':>6s} {'distinct':>9s} {'tables':>7s} {'starts':>7s}")
    for kind, qs in sorted(per.items()):
        print(f"  {kind:14s} {len(qs):6d} {len(set(qs)):9d} {len({t for t, _, _ in qs}):7d} {len({(t, a) for t, a, _ in qs}):7d}")

    # replay, by cost function: the plain Dijkstra for every call, and the same calls through fresh
    # kept tables (least_cost_path reads only the map's size and the cost callback)
    maps = {tid: HexMap(width=w, height=h, hexes=[]) for tid, (w, h) in sizes.items()}
    kept = {tid: paths.CostTable(costs) for tid, costs in tables.items()}
    total_plain = total_kept = 0.0
    for kind, qs in sorted(per.items()):
        t = time.perf_counter()
        plain = [maps[tid].least_cost_path(a, b, lambda x, y, c=tables[tid]: c[y]) for tid, a, b in qs]
        t_plain = time.perf_counter() - t
        t = time.perf_counter()
        answers = [kept[tid].path(maps[tid].neighbor_table(), a, b) for tid, a, b in qs]
        t_kept = time.perf_counter() - t
        assert answers == plain, f"{kind}: kept answers differ from the plain Dijkstra's"
        total_plain += t_plain
        total_kept += t_kept
        print(f"  replayed {kind}: plain Dijkstra {t_plain:.3f} s, kept searches {t_kept:.3f} s; same answers")
    print(f"  replayed, all: plain Dijkstra {total_plain:.3f} s, kept searches {total_kept:.3f} s "
          f"({total_plain / max(total_kept, 1e-9):.1f}× less)")

if __name__ == "__main__":
    main()
