"""Scenario tables of LINK — where the systems meet (RULES.md §5.5).

```toml
[[factions]]                  # LINK-03: a faction that is both a kingdom and a nation
kingdom = "avalon"            # a kingdom id of [[kingdoms]]
nation = "avalon"             # a nation id of [[nations]] (the two ids may be equal)
levy = { infantry = 6, archer = 2, cavalry = 2 }   # LINK-06: units bought for each army it raises

[[factions]]                  # a nation alone may also give its levy
nation = "tyr"
levy = { infantry = 8, knight = 2 }
```

A kingdom's ``expedition`` (``[[kingdoms]]``, ``scenarios.schema.km.ExpeditionSpec``) is the caravan its Trade edicts
send when caravans run (LINK-04): its wagon kinds, jobs and policy are checked here.

A guild's ``affiliation`` (``[[guilds]]``) names a kingdom or a nation; a guild affiliated with either
half of a faction is affiliated with the faction (LINK-03). When a scenario runs with a subset of its
systems (``agents.variants.variant``), references to a disabled system simply do not link: a guild
affiliated with a kingdom is independent when KM is off, a faction is only what its enabled halves are.

Checks (LINK-01): ``gw.seasons_per_year`` (and ``mn.turns_per_year``, checked with MN's tables) must be
4 whenever GW (MN) runs with another system.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

import msgspec

from scenarios.schema.common import MapIndex, NonNeg, Spec
from scenarios.schema.cv import Job, WagonKind
from scenarios.validate import check_policy
from sim.calendar import SEASONS_PER_YEAR
from sim.config import Config, GwConfig
from sim.errors import Problem, ScenarioError
from sim.rules import links
from sim.state.gw import Guild

if TYPE_CHECKING:
    from sim.world import World


class FactionSpec(Spec):
    kingdom: str = ""
    nation: str = ""
    name: str = ""
    levy: dict[str, NonNeg] = {}


def _gw_config(sc: Any) -> GwConfig:
    try:
        return msgspec.convert(sc.config, Config).gw
    except (msgspec.ValidationError, TypeError):
        return GwConfig()


def _one_of(what: str, options: list[str]) -> str:
    if not options:
        return f"{what} (none declared)"
    shown = ", ".join(f'"{o}"' for o in sorted(options)[:12]) + (", …" if len(options) > 12 else "")
    return f"{what} ({shown})"


def seasonal_problem(system: str, key: str, value: int, systems: list[str]) -> Problem | None:
    """LINK-01: the guild season and the Mare Nostrum turn are seasons when combined."""
    others = [s for s in systems if s != system]
    if system in systems and others and value != SEASONS_PER_YEAR:
        return Problem(key, f"{SEASONS_PER_YEAR} (LINK-01: seasonal turns when {system.upper()} runs with {', '.join(others)})", f"{value}")
    return None


def check_expedition(e: Any, p: str, out: list[Problem]) -> None:
    """LINK-04: a kingdom's caravan template (``scenarios.schema.km.ExpeditionSpec``) names wagon kinds,
    caravan jobs and a convoy policy."""
    kinds, jobs = get_args(WagonKind), get_args(Job)
    for i, wk in enumerate(e.wagons):
        if wk not in kinds:
            out.append(Problem(f"{p}.wagons[{i}]", "a wagon kind (" + ", ".join(kinds) + ")", f'"{wk}"'))
    for i, t in enumerate(e.travelers):
        if t.job not in jobs:
            out.append(Problem(f"{p}.travelers[{i}].job", "a caravan job (" + ", ".join(jobs) + ")", f'"{t.job}"'))
    check_policy("convoy", e.policy, f"{p}.policy", out, refuse=("scripted",))


def check(sc: Any, m: MapIndex) -> list[Problem]:
    """Semantic checks of the LINK tables and of the cross-system references (LINK-01, LINK-03, LINK-06)."""
    out: list[Problem] = []
    systems = list(sc.scenario.systems)
    cfg = _gw_config(sc)
    raw_gw = sc.config.get("gw", {}) if isinstance(sc.config, dict) else {}
    if isinstance(raw_gw, dict) and "seasons_per_year" in raw_gw:
        season = seasonal_problem("gw", "config.gw.seasons_per_year", cfg.seasons_per_year, systems)
        if season is not None:
            out.append(season)
    kingdoms = [k.id for k in sc.kingdoms]
    nations = [n.id for n in sc.nations]
    for i, k in enumerate(sc.kingdoms):  # LINK-04: the caravans of their Trade edicts
        if k.expedition is not None:
            check_expedition(k.expedition, f"kingdoms[{i}].expedition", out)
    in_faction: dict[str, int] = {}
    pairs: dict[str, str] = {}  # kingdom → nation of one faction
    for i, f in enumerate(sc.factions):
        p = f"factions[{i}]"
        if not f.kingdom and not f.nation:
            out.append(Problem(p, "a kingdom, a nation or both (LINK-03)", "neither"))
        if f.kingdom:
            if f.kingdom not in kingdoms:
                out.append(Problem(f"{p}.kingdom", _one_of("a kingdom id of [[kingdoms]]", kingdoms), f'"{f.kingdom}"'))
            elif f"k:{f.kingdom}" in in_faction:
                out.append(Problem(f"{p}.kingdom", "a kingdom in one faction", f'"{f.kingdom}", already in factions[{in_faction[f"k:{f.kingdom}"]}]'))
            in_faction.setdefault(f"k:{f.kingdom}", i)
        if f.nation:
            if f.nation not in nations:
                out.append(Problem(f"{p}.nation", _one_of("a nation id of [[nations]]", nations), f'"{f.nation}"'))
            elif f"n:{f.nation}" in in_faction:
                out.append(Problem(f"{p}.nation", "a nation in one faction", f'"{f.nation}", already in factions[{in_faction[f"n:{f.nation}"]}]'))
            in_faction.setdefault(f"n:{f.nation}", i)
        if f.kingdom and f.nation:
            pairs[f.kingdom] = f.nation
        if f.levy:
            if not f.nation:
                out.append(Problem(f"{p}.levy", "nothing (LINK-06: only a nation raises armies as a guild)", f"{dict(f.levy)}"))
            for kind in sorted(f.levy):
                if kind not in cfg.units:
                    out.append(Problem(f"{p}.levy.{kind}", _one_of("a unit type of the catalogue (SC-GW-06)", sorted(cfg.units)), f'"{kind}"'))
            n = sum(f.levy.values())
            if n > cfg.units_per_seal:
                out.append(Problem(f"{p}.levy", f"at most {cfg.units_per_seal} units (LINK-06: one military seal, GW-DEP-05)", f"{n}"))
            if n == 0:
                out.append(Problem(f"{p}.levy", "at least one unit", "none"))
    for i, g in enumerate(sc.guilds):
        a = g.affiliation
        if not a:
            continue
        path = f"guilds[{i}].affiliation"
        if a not in kingdoms and a not in nations:
            out.append(Problem(path, _one_of("a kingdom or nation id (LINK-03)", kingdoms + nations), f'"{a}"'))
        elif a in kingdoms and a in nations and pairs.get(a) != a:
            out.append(Problem(path, "an id that names one faction (LINK-03)",
                               f'"{a}", both a kingdom and a nation that are not one faction (add [[factions]] kingdom = "{a}", nation = "{a}")'))
    if "gw" in systems and "mn" in systems:
        for i, g in enumerate(sc.guilds):
            if g.id in nations:
                out.append(Problem(f"guilds[{i}].id", "an id no nation uses (LINK-06: a nation acts as the guild of its own id)", f'"{g.id}"'))
    return out


def build(sc: Any, world: World) -> None:
    """Join the enabled systems (after each has built its part): factions, affiliations and the
    guilds the nations act as (LINK-01, LINK-03, LINK-06)."""
    if "gw" in world.systems:
        p = seasonal_problem("gw", "gw.seasons_per_year", world.config.gw.seasons_per_year, list(world.systems))
        if p is not None:  # reachable only through overrides (the scenario's own [config.gw] is checked by check())
            raise ScenarioError("overrides", [p])
    km, mn, gw = world.km, world.mn, world.gw
    faction_of_id: dict[str, Any] = {}
    for f in sc.factions:
        if f.kingdom:
            faction_of_id.setdefault(f.kingdom, f)
        if f.nation:
            faction_of_id.setdefault(f.nation, f)
    # LINK-03: a faction that is both keeps one treasury, the kingdom's, in BP
    if km is not None and mn is not None:
        for f in sc.factions:
            if f.kingdom in km.kingdoms and f.nation in mn.nations:
                km.kingdoms[f.kingdom].nation = f.nation
                mn.nations[f.nation].kingdom = f.kingdom
                k = km.kingdoms[f.kingdom]
                mn.nations[f.nation].treasury = links.convert(max(0, k.treasury), "bp", "po", world.config.link)
    if gw is None:
        return
    # LINK-03: affiliations name what the enabled systems know; the rest does not link
    for gid in sorted(gw.guilds):
        g = gw.guilds[gid]
        a = g.affiliation
        if a is None:
            continue
        f = faction_of_id.get(a)
        kid = (f.kingdom if f is not None and f.kingdom else (a if any(k.id == a for k in sc.kingdoms) else "")) or None
        nid = (f.nation if f is not None and f.nation else (a if any(n.id == a for n in sc.nations) else "")) or None
        if km is not None and kid in km.kingdoms:
            g.affiliation = kid
        elif mn is not None and nid in mn.nations:
            g.affiliation = nid
        else:
            g.affiliation = None
    # LINK-06: each nation acts as a guild of its own id, allied with the guilds affiliated with it
    if mn is None:
        return
    leaders = {g.leader for g in gw.guilds.values()}
    for nid in sorted(mn.nations):
        n = mn.nations[nid]
        f = faction_of_id.get(nid)
        leader = f"{n.name} ({nid})"
        while leader in leaders:
            leader += "'"
        leaders.add(leader)
        gw.guilds[nid] = Guild(
            id=nid, name=n.name, leader=leader, affiliation=nid, nation=nid,
            policy=n.policy if n.policy in ("random", "heuristic") else "heuristic",
            levy=dict(sorted(f.levy.items())) if f is not None and f.nation == nid else {},
        )
    gw.guilds = dict(sorted(gw.guilds.items()))
    pairs = {tuple(p) for p in gw.alliances}
    for nid in sorted(mn.nations):
        links.refresh_nation_seals(world, nid)
        for gid in sorted(gw.guilds):
            if gid != nid and links.affiliation_of(world, gid)[1] == nid:
                pairs.add(tuple(sorted((nid, gid))))  # type: ignore[arg-type]
    gw.alliances = [list(p) for p in sorted(pairs)]
    gw.seals = dict(sorted(gw.seals.items()))
