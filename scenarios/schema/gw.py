"""Scenario tables of the guild warfare (GW) system — guerre des guildes.

```toml
alliances = [["hippocampe", "licorne"]]          # RES-GW-06 (one front against one target)

[[guilds]]
id = "hippocampe"
name = "Guilde de l'Hippocampe"
leader = "Dame Ysolde"
policy = "heuristic"
solars = 900
victuals = 60
notoriety = 5
pool = { infantry = 20, siege_engine = 2 }
seals = [
  { id = "hip-m1", kind = "military", province = "Vaux" },   # region: the province's
  { id = "hip-p1", kind = "political", province = "Vaux" },
]
lends_to = ["licorne"]          # guilds it agrees to lend its military seals to (GW-DEP-04)

[[domains]]
id = "fort-vaux"
name = "Fort de Vaux"
at = [3, 2]
owner = "hippocampe"            # a guild id: its leader owns the domain
fortification = 2               # 0 none, 1 palisade, 2 keep (donjon), 3 castle, 4 citadel
garrison = { militia = 6, infantry = 6 }
buildings = [{ name = "Grenier", sp = 12 }]
consents_to = ["licorne"]       # guilds its owner hands a proxy (procuration) to
works = ["chapel under construction"]
places = ["parish"]

[[armies]]
id = "hip-host"
owner = "hippocampe"
at = [4, 2]
seals = ["hip-m1"]
units = { infantry = 8 }

[[unit_bonuses]]
source = "sépium"
value = 1
guild = "hippocampe"
kind = "infantry"
```
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from scenarios.schema.common import Coord, MapIndex, NonNeg, PolicyOptions, Positive, Spec
from scenarios.validate import check_policy
from sim.config import Config, GwConfig
from sim.errors import Problem
from sim.rules import gw as wf
from sim.state.gw import Army, BonusRule, Building, Domain, Guild, GwWorld, Province, Seal

if TYPE_CHECKING:
    from sim.world import World


class SealSpec(Spec):
    id: str
    province: str
    kind: Literal["military", "political"] = "military"
    region: str = ""  # default: the province's region


class GuildSpec(Spec):
    id: str
    name: str = ""
    leader: str = ""  # default: "chef <id>"
    policy: str = "heuristic"  # heuristic, random, an installed policy, or pkg.mod:Class allowed by --allow-policies
    policy_options: PolicyOptions | None = None  # only for policy = "lookahead"
    solars: NonNeg = 0
    victuals: NonNeg = 0
    notoriety: int = 0
    pool: dict[str, NonNeg] = {}
    seals: list[SealSpec] = []
    affiliation: str = ""  # a kingdom or nation id (LINK-03); empty: independent
    capacity_bonus: int = 0  # RES-GW-03 capacity modifier
    lends_to: list[str] = []  # guilds it agrees to lend its military seals to (GW-DEP-04)


class BuildingSpec(Spec):
    name: str
    sp: Positive


class DomainSpec(Spec):
    id: str
    at: Coord = (0, 0)
    owner: str = ""
    name: str = ""
    fortification: int = 0
    garrison: dict[str, NonNeg] = {}
    buildings: list[BuildingSpec] = []
    consents_to: list[str] = []
    works: list[str] = []
    places: list[Literal["parish", "arcane_place", "great_arcane_place"]] = []


class ArmySpec(Spec):
    id: str
    owner: str
    at: Coord
    seals: list[str]
    units: dict[str, NonNeg] = {}
    support_seals: list[str] = []


class BonusSpec(Spec):
    source: str
    value: int
    guild: str = ""
    kind: str = ""
    army: str = ""
    domain: str = ""


def _gw_config(sc: Any) -> tuple[GwConfig, bool]:
    try:
        return msgspec.convert(sc.config, Config).gw, True
    except (msgspec.ValidationError, TypeError):
        return GwConfig(), False


def _known(name: str, choices: list[str], what: str) -> tuple[str, str]:
    close = difflib.get_close_matches(name, choices, n=1)
    hint = f' (did you mean "{close[0]}"?)' if close else ""
    shown = ", ".join(choices[:12]) + (", …" if len(choices) > 12 else "")
    return f"{what} ({shown})" if choices else f"{what} (none is defined)", f'"{name}"{hint}'


def check(sc: Any, m: MapIndex) -> list[Problem]:
    """Semantic checks of the GW tables: every reference, range and cross-field rule."""
    out: list[Problem] = []
    cfg, ok = _gw_config(sc)
    units = sorted(cfg.units)
    if ok:
        for i, name in enumerate(cfg.phase_order):
            if name not in ("deploy", "move", "siege", "army_combats", "domain_attacks", "annexations", "end_of_season"):
                out.append(Problem(f"config.gw.phase_order[{i}]", "a phase of RES-GW-10 (deploy, move, siege, army_combats, domain_attacks, annexations, end_of_season)", f'"{name}"'))
        if sorted(cfg.phase_order) != sorted(set(cfg.phase_order)) or len(cfg.phase_order) != 7:
            out.append(Problem("config.gw.phase_order", "each of the 7 phases of RES-GW-10 exactly once", f"{len(cfg.phase_order)} entries"))
        if cfg.desertion_rounding not in ("ceil", "floor"):
            out.append(Problem("config.gw.desertion_rounding", '"ceil" or "floor"', f'"{cfg.desertion_rounding}"'))
        for k in sorted(cfg.unit_cost_solars):
            if k not in cfg.units:
                exp, found = _known(k, units, "a unit type of config.gw.units")
                out.append(Problem(f"config.gw.unit_cost_solars.{k}", exp, found))
        if not 0 <= cfg.keep_level < len(cfg.fortifications):
            out.append(Problem("config.gw.keep_level", f"a fortification level 0..{len(cfg.fortifications) - 1}", str(cfg.keep_level)))
        if cfg.seasons_per_year < 1:
            out.append(Problem("config.gw.seasons_per_year", "an integer >= 1", str(cfg.seasons_per_year)))
    provinces: dict[str, str] = {}
    for cell in m.map.hexes:
        if cell.province and cell.region:
            provinces.setdefault(cell.province, cell.region)
    regions = sorted(set(provinces.values()))
    guild_ids: list[str] = []
    leaders: dict[str, str] = {}
    seals: dict[str, tuple[str, str, str]] = {}  # id → (guild, kind, region)

    def unit_table(table: dict[str, int], path: str) -> None:
        for k in table:
            if k not in cfg.units:
                exp, found = _known(k, units, "a unit type of the catalogue")
                out.append(Problem(f"{path}.{k}", exp, found))

    def guild_ref(name: str, path: str) -> None:
        if name not in guild_ids:
            exp, found = _known(name, guild_ids, "the id of a guild in [[guilds]]")
            out.append(Problem(path, exp, found))

    for i, g in enumerate(sc.guilds):
        p = f"guilds[{i}]"

        check_policy("guild", g.policy, f"{p}.policy", out)
        if g.id in guild_ids:
            out.append(Problem(f"{p}.id", "a guild id used once", f'"{g.id}" again'))
        guild_ids.append(g.id)
        leader = g.leader or f"chef {g.id}"
        if leader in leaders:
            out.append(Problem(f"{p}.leader", "a leader who leads one guild", f'"{leader}", who already leads {leaders[leader]}'))
        leaders[leader] = g.id
        unit_table(g.pool, f"{p}.pool")
        for j, s in enumerate(g.seals):
            sp = f"{p}.seals[{j}]"
            if s.id in seals:
                out.append(Problem(f"{sp}.id", "a seal id used once", f'"{s.id}" again'))
            region = s.region
            if s.province not in provinces:
                exp, found = _known(s.province, sorted(provinces), "a province of the map (map.provinces)")
                out.append(Problem(f"{sp}.province", exp, found))
            else:
                if not region:
                    region = provinces[s.province]
                elif region not in regions:
                    exp, found = _known(region, regions, "a region of the map")
                    out.append(Problem(f"{sp}.region", exp, found))
                elif region != provinces[s.province]:
                    out.append(Problem(f"{sp}.region", f'the region of province {s.province} ("{provinces[s.province]}")', f'"{region}"'))
            seals[s.id] = (g.id, s.kind, region)
    for i, g in enumerate(sc.guilds):
        for j, x in enumerate(g.lends_to):
            if x == g.id:
                out.append(Problem(f"guilds[{i}].lends_to[{j}]", "another guild's id (a guild engages its own seals)", f'"{x}"'))
            else:
                guild_ref(x, f"guilds[{i}].lends_to[{j}]")
    domain_ids: list[str] = []
    on_hex: dict[int, str] = {}
    for i, d in enumerate(sc.domains):
        p = f"domains[{i}]"
        if d.id in domain_ids:
            out.append(Problem(f"{p}.id", "a domain id used once", f'"{d.id}" again'))
        domain_ids.append(d.id)
        guild_ref(d.owner, f"{p}.owner")
        h = m.coord(d.at, f"{p}.at", out)
        if h is not None:
            hx = m.map.hexes[h]
            if hx.is_water:
                out.append(Problem(f"{p}.at", "a land hex", f"water at {list(d.at)}"))
            elif not hx.province:
                out.append(Problem(f"{p}.at", "a hex inside a province (map.provinces)", f"{list(d.at)}, which is in no province"))
            if h in on_hex:
                out.append(Problem(f"{p}.at", "a hex without another domain", f"{list(d.at)}, where {on_hex[h]} lies"))
            on_hex[h] = d.id
        n_levels = len(cfg.fortifications)
        if not 0 <= d.fortification < n_levels:
            names = ", ".join(f"{k} {n}" for k, n in enumerate(cfg.fortification_names[:n_levels]))
            out.append(Problem(f"{p}.fortification", f"a fortification level 0..{n_levels - 1} ({names})", f"{d.fortification}"))
        unit_table(d.garrison, f"{p}.garrison")
        for j, c in enumerate(d.consents_to):
            guild_ref(c, f"{p}.consents_to[{j}]")
    army_ids: list[str] = []
    engaged: dict[str, str] = {}
    for i, a in enumerate(sc.armies):
        p = f"armies[{i}]"
        if a.id in army_ids:
            out.append(Problem(f"{p}.id", "an army id used once", f'"{a.id}" again'))
        army_ids.append(a.id)
        guild_ref(a.owner, f"{p}.owner")
        h = m.coord(a.at, f"{p}.at", out)
        if h is not None and m.map.hexes[h].is_water:
            out.append(Problem(f"{p}.at", "a land hex", f"water at {list(a.at)}"))
        unit_table(a.units, f"{p}.units")
        if not a.seals:
            out.append(Problem(f"{p}.seals", "at least one military seal (GW-DEP-01)", "an empty list"))
        own = 0
        for j, s in enumerate([*a.seals, *a.support_seals]):
            sp = f"{p}.seals[{j}]" if j < len(a.seals) else f"{p}.support_seals[{j - len(a.seals)}]"
            if s not in seals:
                exp, found = _known(s, sorted(seals), "the id of a seal of a guild")
                out.append(Problem(sp, exp, found))
                continue
            if seals[s][1] != "military":
                out.append(Problem(sp, "a military seal (GW-DEP-01)", f'"{s}", a political seal'))
            if s in engaged:
                out.append(Problem(sp, "a seal engaged in one army (SC-GW-03)", f'"{s}", already engaged in {engaged[s]}'))
            engaged[s] = a.id
            if seals[s][0] == a.owner:
                own += 1
        engaged_n = len(a.seals) + len(a.support_seals)  # support seals are engaged seals (GW-DEP-04/05)
        if a.seals and own * 2 < engaged_n:
            out.append(Problem(f"{p}.seals", "at least 50% seals of the owner guild (GW-DEP-04)", f"{own} of {engaged_n}"))
        n = sum(a.units.values())
        bonus = next((g.capacity_bonus for g in sc.guilds if g.id == a.owner), 0)
        cap = cfg.units_per_seal * engaged_n + bonus
        if n > cap:
            out.append(Problem(f"{p}.units", f"at most {cap} units ({engaged_n} seals × {cfg.units_per_seal}, RES-GW-03)", f"{n}"))
    for i, pair in enumerate(sc.alliances):
        if len(pair) != 2 or pair[0] == pair[1]:
            out.append(Problem(f"alliances[{i}]", "two different guild ids", f"{pair}"))
            continue
        for j, gid in enumerate(pair):
            guild_ref(gid, f"alliances[{i}][{j}]")
    for i, b in enumerate(sc.unit_bonuses):
        p = f"unit_bonuses[{i}]"
        if b.guild:
            guild_ref(b.guild, f"{p}.guild")
        if b.kind and b.kind not in cfg.units:
            exp, found = _known(b.kind, units, "a unit type of the catalogue")
            out.append(Problem(f"{p}.kind", exp, found))
        if b.army and b.army not in army_ids:
            exp, found = _known(b.army, army_ids, "the id of an army in [[armies]]")
            out.append(Problem(f"{p}.army", exp, found))
        if b.domain and b.domain not in domain_ids:
            exp, found = _known(b.domain, domain_ids, "the id of a domain in [[domains]]")
            out.append(Problem(f"{p}.domain", exp, found))
    return out


def build(sc: Any, world: World) -> None:
    """Fill the GW part of the initial world (the scenario has passed ``check``)."""
    gw = GwWorld()
    world.gw = gw
    hm = world.map
    # implements: SC-GW-04
    for i, cell in enumerate(hm.hexes):
        if cell.province and cell.region:
            prov = gw.provinces.get(cell.province)
            if prov is None:
                prov = gw.provinces[cell.province] = Province(cell.province, cell.region, [])
            prov.hexes.append(i)
    for name in sorted(gw.provinces):
        gw.regions.setdefault(gw.provinces[name].region, []).append(name)
    gw.land_component = wf.land_components(world)
    gw.alliances = sorted(sorted(p) for p in sc.alliances)
    gw.bonus_rules = [
        BonusRule(b.source, b.value, b.guild or None, b.kind or None, b.army or None, b.domain or None) for b in sc.unit_bonuses
    ]
    # implements: SC-GW-02
    for g in sc.guilds:
        guild = Guild(
            id=g.id,
            name=g.name or g.id,
            leader=g.leader or f"chef {g.id}",
            solars=g.solars,
            victuals=g.victuals,
            notoriety=g.notoriety,
            pool={k: n for k, n in sorted(g.pool.items()) if n > 0},
            seals=sorted(s.id for s in g.seals),
            affiliation=g.affiliation or None,
            capacity_bonus=g.capacity_bonus,
            policy=g.policy,
            lends_to=sorted(set(g.lends_to)),
        )
        gw.guilds[g.id] = guild
        for s in g.seals:
            region = s.region or gw.provinces[s.province].region
            gw.seals[s.id] = Seal(s.id, s.kind, g.id, s.province, region)
    # implements: SC-GW-05
    for d in sc.domains:
        h = hm.index(*d.at)
        owner = gw.guilds[d.owner]
        dom = Domain(
            id=d.id,
            name=d.name or d.id,
            hex=h,
            province=hm.hexes[h].province or "",
            region=hm.hexes[h].region or "",
            owner_guild=owner.id,
            owner=owner.leader,
            title_holder=owner.leader,
            fortification=d.fortification,
            consents_to=sorted(d.consents_to),
            works=list(d.works),
            places=sorted(d.places),
        )
        for b in d.buildings:
            dom.buildings.append(Building(gw.next_building, b.name, b.sp))
            gw.next_building += 1
        gw.domains[d.id] = dom
        for k, n in sorted(d.garrison.items()):
            dom.garrison.extend(wf.new_units(world, owner.id, k, n, domain=d.id))
    for a in sc.armies:
        own = [s for s in a.seals if gw.seals[s].guild == a.owner]
        other = [s for s in a.seals if gw.seals[s].guild != a.owner]
        cap = world.config.gw.units_per_seal * (len(a.seals) + len(a.support_seals)) + gw.guilds[a.owner].capacity_bonus
        army = Army(
            id=a.id,
            owner=a.owner,
            hex=hm.index(*a.at),
            capacity=cap,
            own_seals=own,
            other_seals=other,
            support_seals=list(a.support_seals),
        )
        for s in (*a.seals, *a.support_seals):
            gw.seals[s].army = a.id
        for k, n in sorted(a.units.items()):
            army.units.extend(wf.new_units(world, a.owner, k, n, army=a.id))
        gw.armies[a.id] = army
    gw.next_army = len(gw.armies) + 1
    wf.refresh_statuses(world)
