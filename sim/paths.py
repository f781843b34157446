"""Least-cost paths computed once.

Every path the rules ask for is a least-cost path on the hex map where a step costs what it costs to
enter the hex stepped into: a trade route's weight (KM-TRADE-04), one per land hex for a march
(RES-GW-05) or an envoy (LINK-05), a caravan's travel days (RES-CV-02). A campaign asks the same
questions again and again (the trade planner every month, the guilds' legal moves every season, the
convoys every day), so the answers are kept:

- a cost function's table (one entry cost per hex, None: impassable) is built once per map content
  and shared by every map with that content, so the campaigns of a batch share their starting map's;
- from each start, one Dijkstra search is kept, paused where it stopped: a later question from the
  same start reads its answer if the goal is already settled, or resumes the search until it is.

Resuming settles hexes in exactly the order a fresh search would, so a kept answer is the answer of
``HexMap.least_cost_path`` with the same costs: the same path, the same cost, the same ties (the lower
hex index wins). The caches are keyed by content, never by an object alone, are not part of the world
(a saved and resumed world rebuilds them, identically) and are bounded.

A map's terrain, rivers and coasts are fixed once it is built; its roads change during a campaign
and only through ``HexMap.set_road``, which tells this module. A test runs whole campaigns with
``CHECK`` on: every kept answer is then compared with a fresh search over a freshly built table.
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from sim.hexmap import HexMap

Path = tuple[list[int], float]
EntryCosts = Sequence[float | None]

MAX_TABLES = 48  # cost tables kept in a process (a realm campaign uses about a dozen at a time)
MAX_SEARCHES = 160  # paused searches kept per table (one per start hex asked about)
MAX_KEPT_HEXES = 1_500_000  # the map sizes of all searches started since the last drop (≤ ~60 bytes each)
CHECK = False  # compare every kept answer with a fresh search (tests only: it costs a full search)

_INF = float("inf")


class _Search:
    """One Dijkstra search from ``start`` over an entry-cost table, paused after settling the goal it
    was last asked for. Its loop is ``HexMap.least_cost_path``'s, step for step."""

    __slots__ = ("start", "best", "prev", "done", "heap", "traced")

    def __init__(self, start: int, n: int) -> None:
        self.start = start
        self.best = [_INF] * n
        self.best[start] = 0.0
        self.prev = [-1] * n
        self.done = bytearray(n)
        self.heap: list[tuple[float, int]] = [(0.0, start)]
        self.traced: dict[int, tuple[int, ...]] = {}  # goal -> its path, once traced

    def settle(self, goal: int, nbrs: Sequence[tuple[int, ...]], costs: EntryCosts) -> bool:
        """Run until ``goal`` is settled (True) or nothing is left to reach (False)."""
        done = self.done
        if done[goal]:
            return True
        best, prev, heap = self.best, self.prev, self.heap
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            c, a = pop(heap)
            if done[a]:
                continue
            done[a] = 1
            for b in nbrs[a]:
                if done[b]:
                    continue
                step = costs[b]
                if step is None:
                    continue
                nc = c + step
                old = best[b]
                if nc < old or (nc == old and a < prev[b]):
                    best[b] = nc
                    prev[b] = a
                    push(heap, (nc, b))
            if a == goal:
                return True
        return False

    def path(self, goal: int) -> Path:
        """The settled goal's path (a new list: callers may keep or change it) and cost."""
        got = self.traced.get(goal)
        if got is None:
            prev, start = self.prev, self.start
            out = [goal]
            a = goal
            while a != start:
                a = prev[a]
                out.append(a)
            out.reverse()
            got = self.traced[goal] = tuple(out)
        return list(got), self.best[goal]


class CostTable:
    """The entry cost of every hex under one cost function, and the searches run over it."""

    __slots__ = ("costs", "searches")

    def __init__(self, costs: EntryCosts) -> None:
        self.costs = list(costs)
        self.searches: dict[int, _Search] = {}

    def path(self, nbrs: Sequence[tuple[int, ...]], start: int, goal: int) -> Path | None:
        if start == goal:
            return [start], 0.0
        s = self.searches.get(start)
        if s is None:
            if len(self.searches) >= MAX_SEARCHES:
                del self.searches[next(iter(self.searches))]  # the oldest start
            s = self.searches[start] = _new_search(start, len(self.costs))
        return s.path(goal) if s.settle(goal, nbrs, self.costs) else None


_started = [0]  # hexes of the searches started since the last drop


def _new_search(start: int, n: int) -> _Search:
    """A search to keep; past MAX_KEPT_HEXES every kept search is dropped first (the memory of a
    long-lived process stays bounded whatever the maps and questions)."""
    if _started[0] + n > MAX_KEPT_HEXES:
        _drop_searches()
    _started[0] += n
    return _Search(start, n)


def _drop_searches() -> None:
    for table in _TABLES.values():
        table.searches.clear()
    for st in _MAPS.values():
        for tables in (st.terrain_tables, st.road_tables):
            for table in tables.values():
                table.searches.clear()
        for table, _ in st.before.values():
            table.searches.clear()
    _started[0] = 0


def search_once(nbrs: Sequence[tuple[int, ...]], costs: EntryCosts, start: int, goal: int) -> Path | None:
    """A least-cost path over ``costs`` with nothing kept (for one-off questions)."""
    if start == goal:
        return [start], 0.0
    s = _Search(start, len(costs))
    return s.path(goal) if s.settle(goal, nbrs, costs) else None


# ---- per map: which tables it uses, and its content -------------------------------------------


class _MapPaths:
    """What this module knows of one map object: the tables it uses (by cost key), the digests of
    its content (forgotten when a road changes), and the road-dependent tables it used before the
    roads changed, with the hexes changed since (to patch rather than rebuild them)."""

    __slots__ = ("ref", "terrain_tables", "road_tables", "before", "values", "values_before", "terrain_digest", "content_digest")

    def __init__(self, ref: weakref.ref[HexMap]) -> None:
        self.ref = ref
        self.terrain_tables: dict[Hashable, CostTable] = {}
        self.road_tables: dict[Hashable, CostTable] = {}
        self.before: dict[Hashable, tuple[CostTable, set[int]]] = {}
        self.values: dict[Hashable, list[object]] = {}  # hex_values
        self.values_before: dict[Hashable, tuple[list[object], set[int]]] = {}
        self.terrain_digest: bytes | None = None
        self.content_digest: bytes | None = None


_MAPS: dict[int, _MapPaths] = {}  # id(map) -> its entry, removed when the map is freed
_TABLES: OrderedDict[tuple[bytes, Hashable], CostTable] = OrderedDict()  # (content, cost key), LRU


def _forget(key: int, ref: weakref.ref[HexMap]) -> None:
    st = _MAPS.get(key)
    if st is not None and st.ref is ref:
        del _MAPS[key]


def _entry(hm: HexMap) -> _MapPaths:
    key = id(hm)
    st = _MAPS.get(key)
    if st is None or st.ref() is not hm:
        st = _MAPS[key] = _MapPaths(weakref.ref(hm, functools.partial(_forget, key)))
    return st


def _terrain_digest(hm: HexMap) -> bytes:
    enc = msgspec.msgpack.encode((hm.width, hm.height, [h.terrain for h in hm.hexes]))
    return hashlib.sha256(enc).digest()


def _content_digest(hm: HexMap) -> bytes:
    return hashlib.sha256(msgspec.msgpack.encode(hm)).digest()


def content_key(hm: HexMap) -> bytes:
    """A digest of the map's whole content as it stands (roads included), computed once per change."""
    st = _entry(hm)
    if st.content_digest is None:
        st.content_digest = _content_digest(hm)
    return st.content_digest


def roads_changed(hm: HexMap, i: int) -> None:
    """Called by ``HexMap.set_road`` after the road of hex ``i`` changed: the road-dependent tables of
    this map no longer apply as they are."""
    st = _MAPS.get(id(hm))
    if st is not None and st.ref() is hm:
        for _, changed in st.before.values():
            changed.add(i)
        for key, table in st.road_tables.items():
            st.before[key] = (table, {i})
        st.road_tables.clear()
        for _, changed in st.values_before.values():
            changed.add(i)
        for key, values in st.values.items():
            st.values_before[key] = (values, {i})
        st.values.clear()
        st.content_digest = None


def hex_values[T](hm: HexMap, key: Hashable, value: Callable[[int], T]) -> list[T]:
    """``[value(i) for i in every hex]``, kept for this map object until a road changes, then patched:
    ``value(i)`` must read nothing of the map but hex ``i`` (and what ``key`` names), so only the
    hexes whose road changed are recomputed. The list is shared: do not change it."""
    st = _entry(hm)
    got = st.values.get(key)
    if got is None:
        old = st.values_before.pop(key, None)
        if old is None:
            got = [value(i) for i in range(len(hm.hexes))]
        else:
            got = list(old[0])
            for i in old[1]:
                got[i] = value(i)
        if len(st.values) >= MAX_TABLES:
            st.values.clear()
        st.values[key] = got
    if CHECK and got != [value(i) for i in range(len(hm.hexes))]:
        raise AssertionError(f"stale {key!r} hex values: the map changed without HexMap.set_road, or the key misses an input")
    return got  # type: ignore[return-value]


def _build(st: _MapPaths, key: Hashable, entry_costs: Callable[[], EntryCosts], hex_cost: Callable[[int], float | None] | None) -> CostTable:
    """A new table: the one used before the roads changed with its changed hexes recomputed (and
    kept whole, searches included, when none of their costs moved), or one built from scratch."""
    old = st.before.pop(key, None)
    if old is None or hex_cost is None:
        return CostTable(entry_costs())
    table, changed = old
    costs = list(table.costs)
    for i in changed:
        costs[i] = hex_cost(i)
    return table if costs == table.costs else CostTable(costs)


def _table(hm: HexMap, key: Hashable, entry_costs: Callable[[], EntryCosts], terrain_only: bool,
           hex_cost: Callable[[int], float | None] | None = None) -> CostTable:
    st = _entry(hm)
    mine = st.terrain_tables if terrain_only else st.road_tables
    table = mine.get(key)
    if table is not None:
        return table
    if terrain_only:
        if st.terrain_digest is None:
            st.terrain_digest = _terrain_digest(hm)
        digest = st.terrain_digest
    else:
        digest = content_key(hm)
    shared = (digest, key)
    table = _TABLES.get(shared)
    if table is None:
        table = _TABLES[shared] = CostTable(entry_costs()) if terrain_only else _build(st, key, entry_costs, hex_cost)
        if len(_TABLES) > MAX_TABLES:
            _TABLES.popitem(last=False)
    else:
        st.before.pop(key, None)
        _TABLES.move_to_end(shared)
    if len(mine) >= MAX_TABLES:
        mine.clear()
    mine[key] = table
    return table


def cheapest_path(
    hm: HexMap,
    start: int,
    goal: int,
    key: Hashable,
    entry_costs: Callable[[], EntryCosts],
    *,
    terrain_only: bool = False,
    hex_cost: Callable[[int], float | None] | None = None,
) -> Path | None:
    """The least-cost path from ``start`` to ``goal`` (hexes including both ends, total cost), or None.

    ``entry_costs()`` gives the cost of entering each hex (None: impassable); it is called only when
    the table is not known yet. ``key`` names the cost function and every input it reads besides
    the map (a flag, a convoy's speed…). With ``terrain_only`` the costs depend on the map's size and
    terrain alone, and the table outlives road changes. ``hex_cost(i)``, the cost of entering hex
    ``i`` alone, may be given when it reads nothing of the map but hex ``i``: after a road change
    only the changed hexes are then recomputed."""
    table = _table(hm, key, entry_costs, terrain_only, hex_cost)
    got = table.path(hm.neighbor_table(), start, goal)
    if CHECK:
        _check(hm, table, key, entry_costs, terrain_only, start, goal, got)
    return got


def _check(hm: HexMap, table: CostTable, key: Hashable, entry_costs: Callable[[], EntryCosts], terrain_only: bool,
           start: int, goal: int, got: Path | None) -> None:
    st = _entry(hm)
    fresh = list(entry_costs())
    if table.costs != fresh:
        raise AssertionError(f"stale {key!r} cost table: the map changed without HexMap.set_road, or the key misses an input")
    if terrain_only and st.terrain_digest != _terrain_digest(hm):
        raise AssertionError("the map's terrain changed after its paths were computed")
    if not terrain_only and st.content_digest != _content_digest(hm):
        raise AssertionError("the map changed without HexMap.set_road after its paths were computed")
    want = search_once(hm.neighbor_table(), fresh, start, goal)
    if got != want:
        raise AssertionError(f"kept {key!r} path {start}->{goal} {got!r} differs from a fresh search {want!r}")


def clear() -> None:
    """Forget every kept table and search (tests; a long-lived process never needs it)."""
    _drop_searches()
    _TABLES.clear()
    for st in _MAPS.values():
        st.terrain_tables.clear()
        st.road_tables.clear()
        st.before.clear()
        st.values.clear()
        st.values_before.clear()
