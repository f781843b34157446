"""A hex map with terrain, roads/highways, rivers, coasts and settlements.

Hexes are stored row by row in "odd-r" offset layout (odd rows shifted half a hex right); a hex is
named by its index ``row * width + col`` in the engine and by ``[col, row]`` in scenario files.
Distances and directions use axial coordinates. Least-cost paths are Dijkstra with ties broken by
hex index, so the same map and cost function always give the same path; the rules ask for theirs
through ``sim.paths``, which keeps the answers.

The map is plain data (a msgspec Struct) and round-trips through msgpack; neighbour tables depend
only on the map's width and height and are cached per size. Terrain, rivers and coasts are fixed once
a map is built; roads change only through ``HexMap.set_road`` (kept paths depend on them).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from functools import lru_cache

import msgspec

from sim import paths

TERRAINS = ("plains", "hills", "forest", "mountains", "desert", "marsh", "jungle", "moor", "tundra", "water", "cavern")
TERRAIN_LETTERS = {
    "P": "plains",
    "H": "hills",
    "F": "forest",
    "M": "mountains",
    "D": "desert",
    "S": "marsh",  # swamp (CV) = marsh (KM)
    "J": "jungle",
    "O": "moor",
    "T": "tundra",
    "W": "water",
    "C": "cavern",
}
ROADS = ("none", "trail", "road", "highway")
ROAD_LEVEL = {name: i for i, name in enumerate(ROADS)}

# axial directions, index 0..5: E, NE, NW, W, SW, SE
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")


class Hex(msgspec.Struct, omit_defaults=True):
    """One hex. ``river_to`` is the index of the neighbour the river flows into (-1: none/mouth)."""

    terrain: str
    road: str = "none"
    river: bool = False
    river_to: int = -1
    coast: bool = False
    settlement: str | None = None
    settlement_kind: str | None = None
    province: str | None = None
    region: str | None = None
    tags: list[str] = []

    @property
    def is_water(self) -> bool:
        return self.terrain == "water"

    @property
    def road_level(self) -> int:
        return ROAD_LEVEL[self.road]


class HexMap(msgspec.Struct, weakref=True):
    width: int
    height: int
    hexes: list[Hex]
    hex_miles: int = 12  # a kingdom-building hex is 12 miles across

    # ---- coordinates -------------------------------------------------------------------------
    def index(self, col: int, row: int) -> int:
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise IndexError(f"hex [{col}, {row}] is outside the {self.width}×{self.height} map")
        return row * self.width + col

    def coords(self, i: int) -> tuple[int, int]:
        row, col = divmod(i, self.width)
        return col, row

    def label(self, i: int) -> str:
        col, row = self.coords(i)
        h = self.hexes[i]
        return h.settlement or f"[{col},{row}]"

    def place(self, i: int) -> str:
        """A hex named as a game master would, in any language: ``Westwatch [4,6]`` where it holds a
        settlement, else its region or province when the map has one (``Greenbelt [4,6]``), else ``[4,6]``
        (the ``[col,row]`` of the events)."""
        col, row = self.coords(i)
        h = self.hexes[i]
        name = h.settlement or h.region or h.province
        return f"{name} [{col},{row}]" if name else f"[{col},{row}]"

    def contains(self, col: int, row: int) -> bool:
        return 0 <= col < self.width and 0 <= row < self.height

    def __len__(self) -> int:
        return len(self.hexes)

    # ---- geometry ----------------------------------------------------------------------------
    def neighbors(self, i: int) -> tuple[int, ...]:
        return _geometry(self.width, self.height)[0][i]

    def neighbor_table(self) -> tuple[tuple[int, ...], ...]:
        """Every hex's neighbours (ascending index), by hex index."""
        return _geometry(self.width, self.height)[0]

    def neighbor(self, i: int, direction: int) -> int | None:
        """The neighbour in ``direction`` (0..5: E, NE, NW, W, SW, SE), or None off the map."""
        n = _geometry(self.width, self.height)[1][i][direction]
        return None if n < 0 else n

    def direction(self, a: int, b: int) -> int | None:
        """The direction index from ``a`` to its neighbour ``b``."""
        dirs = _geometry(self.width, self.height)[1][a]
        return dirs.index(b) if b in dirs else None

    def distance(self, a: int, b: int) -> int:
        qa, ra = _axial(a, self.width)
        qb, rb = _axial(b, self.width)
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def set_road(self, i: int, road: str) -> None:
        """Give hex ``i`` a road of kind ``road`` (``none``, ``trail``, ``road``, ``highway``). The one
        way a map changes during a campaign: the kept paths that depend on roads are dropped."""
        if road not in ROAD_LEVEL:
            raise ValueError(f"road kind {road!r}: expected one of {', '.join(ROADS)}")
        self.hexes[i].road = road
        paths.roads_changed(self, i)

    def settlements(self) -> dict[str, int]:
        return {h.settlement: i for i, h in enumerate(self.hexes) if h.settlement}

    # ---- paths -------------------------------------------------------------------------------
    def least_cost_path(
        self, start: int, goal: int, cost: Callable[[int, int], float | None]
    ) -> tuple[list[int], float] | None:
        """Cheapest path from ``start`` to ``goal``; ``cost(a, b)`` is the price of stepping from hex
        ``a`` into its neighbour ``b`` (None: impassable). Returns (hexes including both ends, total
        cost) or None when the goal cannot be reached. Ties go to the lower hex index.

        The reference search: the rules use ``sim.paths.cheapest_path``, which gives the same answers
        for costs that depend only on the hex entered, and keeps them."""
        if start == goal:
            return [start], 0.0
        nbrs = _geometry(self.width, self.height)[0]
        best: dict[int, float] = {start: 0.0}
        prev: dict[int, int] = {}
        heap: list[tuple[float, int]] = [(0.0, start)]
        done: set[int] = set()
        while heap:
            c, a = heapq.heappop(heap)
            if a in done:
                continue
            if a == goal:
                path = [a]
                while a != start:
                    a = prev[a]
                    path.append(a)
                path.reverse()
                return path, c
            done.add(a)
            for b in nbrs[a]:
                if b in done:
                    continue
                step = cost(a, b)
                if step is None:
                    continue
                nc = c + step
                old = best.get(b)
                if old is None or nc < old or (nc == old and a < prev[b]):
                    best[b] = nc
                    prev[b] = a
                    heapq.heappush(heap, (nc, b))
        return None

    def path_is_connected(self, path: list[int]) -> bool:
        return all(b in self.neighbors(a) for a, b in zip(path, path[1:]))


def _axial(i: int, width: int) -> tuple[int, int]:
    row, col = divmod(i, width)
    return col - (row - (row & 1)) // 2, row


@lru_cache(maxsize=64)
def _geometry(width: int, height: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per hex: its neighbours (ascending index) and its neighbour in each direction (-1: none)."""
    nbrs: list[tuple[int, ...]] = []
    dirs: list[tuple[int, ...]] = []
    for i in range(width * height):
        q, r = _axial(i, width)
        by_dir = []
        for dq, dr in DIRECTIONS:
            nq, nr = q + dq, r + dr
            col = nq + (nr - (nr & 1)) // 2
            if 0 <= nr < height and 0 <= col < width:
                by_dir.append(nr * width + col)
            else:
                by_dir.append(-1)
        dirs.append(tuple(by_dir))
        nbrs.append(tuple(sorted(n for n in by_dir if n >= 0)))
    return tuple(nbrs), tuple(dirs)


def mark_coasts(hexes: list[Hex], width: int, height: int) -> None:
    """A land hex next to a water hex is coastal (a coastline hex)."""
    nbrs = _geometry(width, height)[0]
    for i, h in enumerate(hexes):
        if h.terrain != "water" and any(hexes[n].terrain == "water" for n in nbrs[i]):
            h.coast = True
