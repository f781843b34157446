"""Scenario file parts shared by every system: the header, the duration, the map."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Coord = tuple[int, int]  # [col, row] in the file
NonNeg = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
SystemName = Literal["km", "mn", "gw", "cv"]


class Spec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Base of every scenario table: unknown keys are errors."""


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
