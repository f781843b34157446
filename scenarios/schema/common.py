"""Scenario file parts shared by every system: the header, the duration, the map."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from sim.calendar import hours
from sim.errors import Problem
from sim.hexmap import HexMap

Coord = tuple[int, int]  # [col, row] in the file
NonNeg = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
SystemName = Literal["km", "mn", "gw", "cv"]


class Spec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Base of every scenario table: unknown keys are errors."""


class PolicyOptions(Spec):
    """``policy_options = { … }`` of a faction played by ``lookahead`` (agents/policies/lookahead.py):
    how much one decision may look ahead. A field left out takes its kind's default:

    | kind | candidates | rollouts | decisions per hour | horizon | gap |
    | --- | --- | --- | --- | --- | --- |
    | kingdom | 2 | 2 | 1 (claims, buildings, taxes, special edicts) | 3 months | 3 |
    | nation | 3 | 2 | 1 | a year of MN turns | 20 |
    | guild | 3 | 2 | 1 | a year of GW seasons | 5 |
    | convoy | 3 (kinds of day) | 4 | 1 (day plans, routes) | 10 days | 8 |

    For a given budget, the same scenario and seed give the same campaign, except with ``max_ms``
    set: a decision whose rollouts run past it stops after the round under way (the ledger's
    ``rollouts.cut``), so it may play differently on a slower machine. Leave it unset (0) for
    reproducible runs."""

    candidates: Annotated[int, msgspec.Meta(ge=1, le=8)] | None = None  # the heuristic's best K orders played forward
    rollouts: Annotated[int, msgspec.Meta(ge=1, le=64)] | None = None  # plays of each candidate (the same dice for each)
    decisions: Annotated[int, msgspec.Meta(ge=1, le=64)] | None = None  # decisions looked ahead per hour of the campaign
    horizon_days: Annotated[int, msgspec.Meta(ge=1, le=720)] | None = None  # how far each play goes
    max_ms: Annotated[int, msgspec.Meta(ge=0, le=600_000)] | None = None  # a time guard per decision; 0: none (reproducible)
    gap: Annotated[float, msgspec.Meta(ge=0)] | None = None  # only when the K best are within this many heuristic score points


LOOKAHEAD = "lookahead"


def policy_options_problems(path: str, policy: str, options: PolicyOptions | None) -> list[Problem]:
    """``policy_options`` only mean something to the ``lookahead`` policy."""
    if options is not None and policy != LOOKAHEAD:
        return [Problem(f"{path}.policy_options", f'no policy_options unless policy = "{LOOKAHEAD}"', f'policy = "{policy}"')]
    return []


class Duration(Spec):
    years: NonNeg = 0
    seasons: NonNeg = 0
    months: NonNeg = 0
    days: NonNeg = 0


class Header(Spec):
    name: str
    systems: list[SystemName]
    duration: Duration
    title: str = ""
    title_fr: str = ""
    description: str = ""
    seed: int = 1
    lang: Literal["en", "fr"] = "en"


class RoadSpec(Spec):
    path: list[Coord]
    kind: Literal["trail", "road", "highway"] = "road"


class RiverSpec(Spec):
    path: list[Coord]  # from source to mouth: the river flows from each hex into the next
    name: str = ""


class SettlementSpec(Spec):
    name: str
    at: Coord
    kind: Literal["village", "town", "city", "capital"] = "village"


class ProvinceSpec(Spec):
    name: str
    region: str
    key: str = ""  # its letter in map.province_rows
    hexes: list[Coord] = []


class MapSpec(Spec):
    rows: list[str]  # one letter per hex: P plains, H hills, F forest, M mountains, D desert, S marsh, J jungle, O moor, T tundra, W water, C cavern
    hex_miles: Positive = 12
    roads: list[RoadSpec] = []
    rivers: list[RiverSpec] = []
    settlements: list[SettlementSpec] = []
    provinces: list[ProvinceSpec] = []
    province_rows: list[str] = []


class MapIndex:
    """The built map plus helpers for checking references to it."""

    def __init__(self, hexmap: HexMap) -> None:
        self.map = hexmap
        self.settlements = hexmap.settlements()

    def coord(self, c: Coord, path: str, out: list[Problem]) -> int | None:
        col, row = c
        if not self.map.contains(col, row):
            out.append(
                Problem(path, f"a hex [col, row] inside the {self.map.width}×{self.map.height} map", f"[{col}, {row}]")
            )
            return None
        return self.map.index(col, row)

    def path(self, coords: list[Coord], path: str, out: list[Problem]) -> list[int] | None:
        idx: list[int] = []
        ok = True
        for i, c in enumerate(coords):
            h = self.coord(c, f"{path}[{i}]", out)
            if h is None:
                ok = False
            idx.append(-1 if h is None else h)
        if not ok:
            return None
        for i, (a, b) in enumerate(zip(idx, idx[1:])):
            if b not in self.map.neighbors(a):
                out.append(
                    Problem(f"{path}[{i + 1}]", f"a neighbour of the previous hex {list(coords[i])}", f"{list(coords[i + 1])}")
                )
                return None
        return idx


def duration_hours(d: Duration) -> int:
    """A campaign's duration in hours (``[scenario] duration``)."""
    return hours(years=d.years, seasons=d.seasons, months=d.months, days=d.days)
