"""Turn a validated ``Scenario`` into the initial ``World``.

The map is built first (its problems are reported with their paths); then each enabled system
checks its own tables against the map and fills its part of the world.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import msgspec

from scenarios.files import Carried, carrying
from scenarios.limits import MAX_YEARS
from scenarios.overrides import apply_overrides
from scenarios.schema import Scenario, link
from scenarios.schema.common import MapIndex, ProvinceSpec, duration_hours, policy_options_problems
from sim.calendar import HOURS_PER_SEASON, hours
from sim.config import Config
from sim.errors import Problem, ScenarioError
from sim.hexmap import TERRAIN_LETTERS, Hex, HexMap, mark_coasts
from sim.registry import systems as rule_systems
from sim.system import RuleSystem
from sim.world import World


def scenario_systems() -> list[RuleSystem]:
    """The systems a scenario file can enable (those with scenario tables, a ``schema``), in LINK-01
    order (``sim.registry``)."""
    return [s for s in rule_systems() if s.schema]


def schema_of(system: RuleSystem) -> ModuleType:
    """A system's scenario tables: the module its descriptor names (``check(sc, mapindex)``,
    ``build(sc, world)``)."""
    return importlib.import_module(system.schema)


# the maps built in this process, by their spec (kept alive, so its id is not reused): a worker
# builds each job's world from the one parsed scenario (issue 12), and a fresh copy of a built map is
# a msgpack decode, not a build
_BUILT: dict[int, tuple[Any, bytes]] = {}
_MAP_DECODER = msgspec.msgpack.Decoder(HexMap)
MAX_BUILT = 16


def build_map(sc: Scenario, out: list[Problem]) -> HexMap:
    """The scenario's map as a new object (the campaign changes its roads), with the problems of its
    spec added to ``out``."""
    spec = sc.map
    kept = _BUILT.get(id(spec))
    if kept is not None and kept[0] is spec:
        return _MAP_DECODER.decode(kept[1])
    mine: list[Problem] = []
    hm = _build_map(sc, mine)
    out.extend(mine)
    if not mine:  # a spec with problems is not built twice
        if len(_BUILT) >= MAX_BUILT:
            _BUILT.clear()
        _BUILT[id(spec)] = (spec, msgspec.msgpack.encode(hm))
    return hm


def _build_map(sc: Scenario, out: list[Problem]) -> HexMap:
    spec = sc.map
    width = max((len(r) for r in spec.rows), default=0)
    hexes: list[Hex] = []
    if not spec.rows:
        out.append(Problem("map.rows", "at least one row of terrain letters", "an empty list"))
    for r, row in enumerate(spec.rows):
        if len(row) != width:
            out.append(Problem(f"map.rows[{r}]", f"{width} terrain letters (as long as the longest row)", f"{len(row)}"))
        for c, ch in enumerate(row.ljust(width, "P")):
            t = TERRAIN_LETTERS.get(ch.upper())
            if t is None:
                letters = ", ".join(f"{k}={v}" for k, v in TERRAIN_LETTERS.items())
                out.append(Problem(f"map.rows[{r}][{c}]", f"a terrain letter ({letters})", f'"{ch}"'))
                t = "plains"
            hexes.append(Hex(terrain=t))
    height = len(spec.rows)
    hm = HexMap(width=width, height=height, hexes=hexes, hex_miles=spec.hex_miles)
    if not hexes:
        return hm
    mark_coasts(hexes, width, height)
    mi = MapIndex(hm)
    for k, road in enumerate(spec.roads):
        p = mi.path(road.path, f"map.roads[{k}].path", out)
        for i in p or []:
            if hexes[i].is_water:
                out.append(Problem(f"map.roads[{k}].path", "land hexes only", f"water at {list(hm.coords(i))}"))
                break
            if hm.hexes[i].road_level < {"trail": 1, "road": 2, "highway": 3}[road.kind]:
                hexes[i].road = road.kind
    for k, river in enumerate(spec.rivers):
        p = mi.path(river.path, f"map.rivers[{k}].path", out)
        if p:
            for a, b in zip(p, [*p[1:], -1]):
                hexes[a].river = True
                if hexes[a].river_to < 0:
                    hexes[a].river_to = b
    names: set[str] = set()
    for k, s in enumerate(spec.settlements):
        at = mi.coord(s.at, f"map.settlements[{k}].at", out)
        if s.name in names:
            out.append(Problem(f"map.settlements[{k}].name", "a settlement name used once", f'"{s.name}" again'))
        names.add(s.name)
        if at is not None:
            if hexes[at].is_water:
                out.append(Problem(f"map.settlements[{k}].at", "a land hex", f"water at {list(s.at)}"))
            elif hexes[at].settlement:
                out.append(Problem(f"map.settlements[{k}].at", "a hex without a settlement", f'"{hexes[at].settlement}" already there'))
            else:
                hexes[at].settlement = s.name
                hexes[at].settlement_kind = s.kind
    _build_provinces(sc, hm, mi, out)
    return hm


def _build_provinces(sc: Scenario, hm: HexMap, mi: MapIndex, out: list[Problem]) -> None:
    spec = sc.map
    by_key: dict[str, ProvinceSpec] = {}
    for k, p in enumerate(spec.provinces):
        if p.key:
            if p.key in by_key:
                out.append(Problem(f"map.provinces[{k}].key", "a key used by one province", f'"{p.key}" again'))
            by_key[p.key] = p
        for j, xy in enumerate(p.hexes):
            i = mi.coord(xy, f"map.provinces[{k}].hexes[{j}]", out)
            if i is not None:
                hm.hexes[i].province = p.name
                hm.hexes[i].region = p.region
    if spec.province_rows:
        if len(spec.province_rows) != hm.height:
            out.append(Problem("map.province_rows", f"{hm.height} rows (as many as map.rows)", f"{len(spec.province_rows)}"))
            return
        for r, row in enumerate(spec.province_rows):
            if len(row) != hm.width:
                out.append(Problem(f"map.province_rows[{r}]", f"{hm.width} letters", f"{len(row)}"))
                continue
            for c, ch in enumerate(row):
                if ch in ".-":
                    continue
                prov = by_key.get(ch)
                if prov is None:
                    out.append(Problem(f"map.province_rows[{r}][{c}]", "the key of a [[map.provinces]] entry or '.'", f'"{ch}"'))
                    continue
                h = hm.hexes[hm.index(c, r)]
                h.province = prov.name
                h.region = prov.region


def semantic_problems(sc: Scenario) -> list[Problem]:
    out: list[Problem] = []
    if duration_hours(sc.scenario.duration) <= 0:
        out.append(Problem("scenario.duration", "a positive duration (years, seasons, months or days)", "zero"))
    elif duration_hours(sc.scenario.duration) > hours(years=MAX_YEARS):
        out.append(Problem("scenario.duration", f"a campaign of at most {MAX_YEARS} years (the limit of this field)",
                           f"{duration_hours(sc.scenario.duration) // hours(days=1)} days"))
    seen: set[str] = set()
    for i, s in enumerate(sc.scenario.systems):
        if s in seen:
            out.append(Problem(f"scenario.systems[{i}]", "each system once", f'"{s}" again'))
        seen.add(s)
    hm = build_map(sc, out)
    if not hm.hexes:
        return out
    mi = MapIndex(hm)
    systems = scenario_systems()
    for system in systems:
        if system.name in sc.scenario.systems:
            out.extend(schema_of(system).check(sc, mi))
    out.extend(link.check(sc, mi))  # LINK (§5.5): factions, affiliations, seasonal turns
    for system in systems:  # options of the lookahead policy
        table = system.faction_table
        for i, row in enumerate(getattr(sc, table)):
            out.extend(policy_options_problems(f"{table}[{i}]", row.policy, row.policy_options))
    return out


def build_world(sc: Scenario, seed: int, *, overrides: dict[str, Any] | None = None, label: str = "scenario",
                files: Mapping[str, Carried] | None = None) -> World:
    """The initial world; ``files``: the other files the scenario carries (its orders files)."""
    with carrying(files):
        return _build_world(sc, seed, overrides=overrides, label=label)


def _build_world(sc: Scenario, seed: int, *, overrides: dict[str, Any] | None = None, label: str = "scenario") -> World:
    out: list[Problem] = []
    hm = build_map(sc, out)
    if out:
        raise ScenarioError(label, out)
    config = msgspec.convert(sc.config, Config)
    config = apply_overrides(config, overrides, label)
    enabled = [s for s in scenario_systems() if s.name in sc.scenario.systems]
    systems: list[str] = [s.name for s in enabled]
    end = duration_hours(sc.scenario.duration)
    start = state_start(sc, end, label)
    world = World(
        scenario=sc.scenario.name,
        seed=int(seed),
        start=start,
        end=end,
        now=start,
        systems=systems,
        config=config,
        map=hm,
    )
    for system in enabled:
        schema_of(system).build(sc, world)
    link.build(sc, world)  # LINK (§5.5): joins the enabled systems
    for system in scenario_systems():
        for row in getattr(sc, system.faction_table):  # the lookahead policy's budgets, by actor key
            if row.policy_options is not None:
                world.policy_options[system.actor(row.id)] = msgspec.to_builtins(row.policy_options)
    world.policy_options = dict(sorted(world.policy_options.items()))
    return world


def state_start(sc: Scenario, end: int, label: str) -> int:
    """The hour a state file stands at (``[state] season``; 0 for a scenario), before the end."""
    if sc.state is None or sc.state.season == 0:
        return 0
    start = sc.state.season * HOURS_PER_SEASON
    if start >= end:
        raise ScenarioError(label, [Problem("state.season", f"a season before the campaign's end (season {-(-end // HOURS_PER_SEASON)}, "
                                                            "from scenario.duration)", str(sc.state.season))])
    return start
