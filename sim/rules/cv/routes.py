"""Routes (RES-CV-02, RES-CV-24): hazard risk, the route cache, step costs, the fast and safe paths,
the route choice and replanning."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec

from sim.dice import DiceExpr
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.hexmap import HexMap
from sim.paths import cheapest_path, content_key, hex_values, search_once
from sim.rules.cv.hazards import table_for
from sim.rules.cv.stats import bonuses_of, emit, passable, speed_mpd, stat_mods, terrain_mult4
from sim.state.cv import Convoy, CvWorld, Hazard, HazardTable, RouteChoice
from sim.world import World

__all__ = [
    "RouteCache",
    "fail_chance",
    "hazard_harm",
    "hex_tables",
    "least_cost",
    "plan_path",
    "replan",
    "resolve_route",
    "route_days",
    "route_options",
    "route_risk",
    "route_stats",
    "shared_route_cache",
    "step_costs",
    "table_risk",
]


# ---- routes ---------------------------------------------------------------------------------


def hazard_harm(hz: Hazard) -> float:
    """A rough expected harm of a failed hazard in HP-equivalents (for route risk and policies)."""
    got = _HARM.get(hz)
    if got is not None:
        return got
    harm = 0.0
    for e in hz.on_fail:
        if e.kind == "damage":
            harm += _mean(e.dice)
        elif e.kind in ("lose_provisions", "lose_cargo"):
            harm += (_mean(e.dice) if e.dice else e.amount) * (0.5 if e.kind == "lose_provisions" else 2.0)
        elif e.kind == "lose_wagon":
            harm += 20.0
        elif e.kind == "kill_traveler":
            harm += 12.0
        elif e.kind == "suspend_job":
            harm += 3.0
        elif e.kind == "block_travel":
            harm += 5.0
        elif e.kind == "unrest":
            harm += 6.0 * e.amount
    if hz.check == "combat":
        harm += sum(_mean(e.damage) * 0.5 * min(hz.rounds, 3) for e in hz.enemies)
    if len(_HARM) > 4096:
        _HARM.clear()
    _HARM[hz] = harm
    return harm


_HARM: dict[Hazard, float] = {}  # memo of a pure function of a frozen (hashable) hazard


def _mean(expr: str) -> float:
    if not expr:
        return 0.0
    d = DiceExpr.parse(expr)
    return d.bonus + sum((1 if n > 0 else -1) * abs(n) * (s + 1) / 2 for n, s in d.dice)


def fail_chance(hz: Hazard, security: int, resolve: int) -> float:
    if hz.check == "combat":
        return 0.5
    stat = security if hz.check == "security" else resolve
    need = hz.dc - stat  # the d20 face needed
    return min(1.0, max(0.0, (need - 1) / 20))


def table_risk(tb: HazardTable, cv: CvWorld, security: int, resolve: int, cache: RouteCache | None = None) -> float:
    """Expected harm (HP-equivalents) of one day's roll on ``tb``."""
    key = (tb.id, security, resolve)
    if cache is not None and key in cache.risks:
        return cache.risks[key]
    r = 0.0
    for b in tb.bands:
        if b.hazard and b.hazard in cv.hazards:
            hz = cv.hazards[b.hazard]
            r += (b.hi - b.lo + 1) / 100 * fail_chance(hz, security, resolve) * hazard_harm(hz)
    if cache is not None:
        cache.risks[key] = r
    return r


class RouteCache:
    """Memoised route computations (pure functions of the map, the hazard tables and the
    convoy's speed and base statistics). The driver shares one per (map, tables) content, so
    it only ever saves time: it never changes a result. What depends on the roads (a hex's table,
    a step cost) is kept per map by ``sim.paths.hex_values``, which recomputes the hexes whose road
    changed; the paths themselves are kept by ``sim.paths``."""

    def __init__(self, key: str) -> None:
        self.key = key  # the digest of the (map, hazards, tables) content it was made for (shared_route_cache)
        self.risks: dict[tuple[Any, ...], float] = {}
        # by the map's content as it stands (``sim.paths.content_key``, roads included) and the other
        # inputs: hex tables, step costs, route options (lists shared by the callers: never changed)
        self.by_content: dict[tuple[Any, ...], Any] = {}

    def kept(self, key: tuple[Any, ...]) -> Any:
        return self.by_content.get(key)

    def keep(self, key: tuple[Any, ...], value: Any) -> Any:
        if len(self.by_content) >= 512:
            self.by_content.clear()
        self.by_content[key] = value
        return value


_ROUTE_CACHES: dict[str, RouteCache] = {}


def shared_route_cache(world: World) -> RouteCache:
    """One route cache per (map, hazards, tables) content, shared by the campaigns of a process
    (a batch of seeds of one scenario reuses every path). It memoises pure functions only."""
    cv = world.cv
    enc = msgspec.msgpack.encode
    h = hashlib.sha256(enc(world.map))
    if cv is not None:
        h.update(enc(cv.tables))
        h.update(enc(sorted(cv.hazards.items())))
    key = h.hexdigest()
    rc = _ROUTE_CACHES.get(key)
    if rc is None:
        if len(_ROUTE_CACHES) >= 8:
            _ROUTE_CACHES.pop(next(iter(_ROUTE_CACHES)))
        rc = _ROUTE_CACHES[key] = RouteCache(key)
    return rc


def hex_tables(world: World, cache: RouteCache | None) -> list[int]:
    """Per hex, the index in ``world.cv.tables`` of its hazard table (-1: none)."""
    cv = world.cv
    assert cv is not None
    idx = {tb.id: k for k, tb in enumerate(cv.tables)}

    def table_of(i: int) -> int:
        tb = table_for(cv, world.map, i)
        return -1 if tb is None else idx[tb.id]

    if cache is None:
        return [table_of(i) for i in range(len(world.map.hexes))]
    # table_for reads the hex alone, and the tables are those the cache was made for
    memo = ("tables", content_key(world.map))
    got: list[int] | None = cache.kept(memo)
    if got is None:
        got = cache.keep(memo, hex_values(world.map, ("cv-tables", cache.key), table_of))
    return got


def route_stats(world: World, c: Convoy) -> tuple[int, int]:
    """The Security and Resolve a route's risk is judged with: the convoy's standing statistics,
    without today's condition, mutiny or scouting (so a plan does not flicker with them)."""
    cfg = world.config.cv
    bon = bonuses_of(world.cv_state())
    sec = sum(v for k, v in stat_mods(c, "security", cfg, world.now, bon) if k not in ("fatigued", "exhausted", "mutiny"))
    res = sum(v for k, v in stat_mods(c, "resolve", cfg, world.now, bon) if k not in ("fatigued", "exhausted", "mutiny"))
    return sec, res


def step_costs(world: World, kind: str, security: int, resolve: int, speed: int, cache: RouteCache | None = None) -> list[float | None]:
    """Cost in days (plus risk for ``safe``) of entering each hex; None: impassable."""
    hm = world.map
    cv = world.cv
    assert cv is not None
    tables: list[list[int]] = []
    risks: dict[int, float] = {}
    safe = kind == "safe"

    def cost(i: int) -> float | None:
        h = hm.hexes[i]
        m = terrain_mult4(h.terrain, h.road)
        if m is None:
            return None
        days = hm.hex_miles * 4 / (speed * m)
        if not tables:
            tables.append(hex_tables(world, cache))
        k = tables[0][i]
        if safe and k >= 0:
            if k not in risks:
                risks[k] = table_risk(cv.tables[k], cv, security, resolve, cache)
            # risk per day of travel on this stretch, weighted: 10 HP of expected harm ~ one day
            days += days * risks[k] / 10
        return days

    if cache is None:
        return [cost(i) for i in range(len(hm.hexes))]
    # a hex's cost reads that hex (terrain, road, table) and the arguments alone; the same map content
    # gives the same costs (the campaigns of a batch share them)
    memo = ("steps", content_key(hm), kind, security, resolve, speed)
    got: list[float | None] | None = cache.kept(memo)
    if got is None:
        got = cache.keep(memo, hex_values(hm, ("cv-steps", cache.key, kind, security, resolve, speed), cost))
    return got


def least_cost(hm: HexMap, start: int, goal: int, steps: list[float | None]) -> tuple[list[int], float] | None:
    """``HexMap.least_cost_path`` with the cost of entering each hex (RES-CV-02 travel time)."""
    return search_once(hm.neighbor_table(), steps, start, goal)


def plan_path(world: World, c: Convoy, kind: str, cache: RouteCache | None = None) -> tuple[list[int], float] | None:
    """The path from the convoy's hex through its remaining stops, for a route ``kind``."""
    cfg = world.config.cv
    sec, res = route_stats(world, c) if kind == "safe" else (0, 0)
    speed = speed_mpd(c, cfg)
    steps = step_costs(world, kind, sec, res, speed, cache)
    path = [c.hex]
    total = 0.0
    at = c.hex
    for stop in c.stops:
        if cache is not None:
            # the steps read the map and the tables the cache was made for, and nothing else
            got = cheapest_path(world.map, at, stop, ("cv", cache.key, kind, sec, res, speed), lambda: steps,
                                hex_cost=steps.__getitem__)
        else:
            got = least_cost(world.map, at, stop, steps)
        if got is None:
            return None
        p, cst = got
        path.extend(p[1:])
        total += cst
        at = stop
    return path, total


def route_risk(world: World, c: Convoy, path: Sequence[int], cache: RouteCache | None = None) -> float:
    """Expected hazard harm (HP-equivalents) along ``path``: each stretch's table risk per day
    times the days spent on it."""
    sec, res = route_stats(world, c)
    speed = speed_mpd(c, world.config.cv)
    tabs = hex_tables(world, cache)
    total = 0.0
    for i in path[1:]:
        k = tabs[i]
        if k < 0:
            continue
        h = world.map.hexes[i]
        m = terrain_mult4(h.terrain, h.road) or 1
        total += table_risk(world.cv_state().tables[k], world.cv_state(), sec, res, cache) * world.map.hex_miles * 4 / (speed * m)
    return total


def route_days(world: World, c: Convoy, path: Sequence[int]) -> float:
    speed = speed_mpd(c, world.config.cv)
    d = 0.0
    for i in path[1:]:
        h = world.map.hexes[i]
        m = terrain_mult4(h.terrain, h.road) or 1
        d += world.map.hex_miles * 4 / (speed * m)
    return d


def route_options(world: World, cid: str, cache: RouteCache | None = None) -> list[RouteChoice]:
    """The distinct routes a convoy may take from here: ``fast`` and ``safe`` (only listed when
    they differ from each other)."""
    c = world.cv_state().convoy(cid)
    if c.status != "travelling" or not c.stops:
        return []
    memo: tuple[Any, ...] = ()
    if cache is not None:
        # what the options read: the map as it stands, the hex, the stops, the speed and the route
        # statistics (and the tables the cache was made for)
        memo = ("options", content_key(world.map), c.hex, tuple(c.stops), speed_mpd(c, world.config.cv), route_stats(world, c))
        kept: tuple[RouteChoice, ...] | None = cache.kept(memo)
        if kept is not None:
            return list(kept)
    out: list[RouteChoice] = []
    seen: set[tuple[int, ...]] = set()
    for kind in ("fast", "safe"):
        got = plan_path(world, c, kind, cache)
        if got is None:
            continue
        p = tuple(got[0])
        if p in seen:
            continue
        seen.add(p)
        out.append(RouteChoice(kind, p, round(route_days(world, c, p), 2), round(route_risk(world, c, p, cache), 2)))
    if cache is not None:
        cache.keep(memo, tuple(out))
    return out


def resolve_route(world: World, cid: str, choice: RouteChoice, ledger: Ledger) -> None:
    """Follow ``choice`` from here. Progress toward a next hex that the new path does not start
    with is dropped."""
    c = world.cv_state().convoy(cid)
    if not choice.path or choice.path[0] != c.hex or not world.map.path_is_connected(list(choice.path)):
        raise IllegalOrderError("RES-CV-24", "a route must start at the convoy's hex and go hex to hex",
                                order=str(choice), actor=c.key)
    if any(not passable(world.map, i) for i in choice.path):
        raise IllegalOrderError("RES-CV-02", "a caravan cannot enter water or cavern hexes", order=str(choice), actor=c.key)
    nxt = c.next_hex
    c.path = list(choice.path)
    c.path_pos = 0
    if c.progress and (len(c.path) < 2 or c.path[1] != nxt):
        c.progress = 0
    c.route_kind = choice.kind
    emit(ledger, "RouteChosen", c, ("RES-CV-02", "RES-CV-24"), outcome=choice.kind, hexes=len(c.path) - 1,
          days=choice.days, risk=choice.risk, via=[world.map.label(i) for i in c.path if world.map.hexes[i].settlement])


def replan(world: World, c: Convoy, ledger: Ledger, cache: RouteCache | None = None) -> None:
    got = plan_path(world, c, c.route_kind, cache)
    if got is None:
        c.path = [c.hex]
        c.path_pos = 0
        emit(ledger, "RouteLost", c, ("RES-CV-24",), outcome="no path", at=world.map.label(c.hex))
        return
    nxt = c.next_hex
    c.path = got[0]
    c.path_pos = 0
    if c.progress and (len(c.path) < 2 or c.path[1] != nxt):
        c.progress = 0
