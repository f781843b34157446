"""Scenario file parts shared by every system: the header, the duration, the map."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from sim.errors import Problem

Coord = tuple[int, int]  # [col, row] in the file
NonNeg = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
SystemName = Literal["km", "mn", "gw", "cv"]


class Spec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Base of every scenario table: unknown keys are errors."""


class PolicyOptions(Spec):
    """``policy_options = { … }`` of a faction played by ``lookahead`` (docs/scenario-format.md):
    how much a decision may look ahead. Every field is bounded so that one decision cannot run away."""

    candidates: Annotated[int, msgspec.Meta(ge=1, le=8)] = 3  # the heuristic's best K alternatives tried
    rollouts: Annotated[int, msgspec.Meta(ge=1, le=64)] = 2  # plays of each candidate (common dice by index)
    decisions: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1  # decisions looked ahead per hour of the campaign
    horizon_days: Annotated[int, msgspec.Meta(ge=0, le=720)] = 0  # how far each play goes; 0: the kind's default
    max_ms: Annotated[int, msgspec.Meta(ge=0, le=600_000)] = 0  # a guard per decision (0: none); see docs
    # look ahead only when the heuristic's K best are within this many score points of its best
    # (a clear choice is not worth the rollouts); unset: the kind's default, docs/scenario-format.md
    gap: Annotated[float, msgspec.Meta(ge=0)] | None = None


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
    rows: list[str]  # one letter per hex: P plains, H hills, F forest, M mountains, D desert, S marsh,
    # J jungle, O moor, T tundra, W water, C cavern
    hex_miles: Positive = 12
    roads: list[RoadSpec] = []
    rivers: list[RiverSpec] = []
    settlements: list[SettlementSpec] = []
    provinces: list[ProvinceSpec] = []
    province_rows: list[str] = []
