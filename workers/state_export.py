"""``realmsim state export``: the world at a season as a readable TOML state file (docs/state-format.md).

A state file is a scenario file: the scenario's own tables, in the scenario schema, with the values
they hold at the start of a season (treasuries, statistics, hexes claimed and explored, settlements,
roads, leaders, chests, pools, domains, armies in the field, wars, convoys where they stand…), plus a
``[state]`` table naming the season. Loading it as a scenario continues from there.

Each value is carried field by field: a field of a scenario table whose name (or documented
equivalent) is a field of the world's state is written with the state's value when the scenario
schema accepts it. What the schema cannot say (a convoy's progress inside a hex, the bank's
deposits, counters of past turns…) is not carried, and the file says exactly what: before writing,
the exporter builds the world its file describes and compares it with the campaign's, field by field
(:func:`not_carried`); the file's opening comment lists every field that differs.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from scenarios.loader import LoadedScenario
from sim.calendar import HOURS_PER_SEASON
from sim.errors import Problem, ScenarioError
from sim.hexmap import HexMap
from sim.world import World

SKIP = object()  # a value the state file does not carry
# tables of planned events and order files: a state describes the world, not what was scripted for it
DROPPED_TABLES = ("km_events", "mn_events", "cv_events")


def _coord(hm: HexMap, i: int) -> list[int]:
    return list(hm.coords(i))


def _plain(v: Any, typ: Any, hm: HexMap) -> Any:
    """The state's value as the scenario table writes it (hex indexes → [col, row])."""
    from scenarios.schema.common import Coord

    if v is None:
        return SKIP
    if typ == Coord and isinstance(v, int):
        return _coord(hm, v)
    if typ == list[Coord] and isinstance(v, list) and all(isinstance(x, int) for x in v):
        return [_coord(hm, x) for x in v]
    if isinstance(v, dict) and any(not isinstance(k, str) for k in v):
        return SKIP
    return msgspec.to_builtins(v)


def _fields(spec: type) -> dict[str, Any]:
    return {f.name: f.type for f in msgspec.structs.fields(spec)}


def _as_spec(obj: Any, spec: type, renames: dict[str, str] | None = None) -> dict[str, Any]:
    """``obj``'s fields that ``spec`` has (``renames``: state name → spec name), None left out."""
    names = _fields(spec)
    out: dict[str, Any] = {}
    for k, v in msgspec.to_builtins(obj).items():
        k = (renames or {}).get(k, k)
        if k in names and v is not None:
            out[k] = v
    return out


def _units(units: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return dict(sorted(out.items()))


# ---- per-table special fields: {table: {spec field: fn(state obj, map) -> value or SKIP}} ------------------
def _km_settlements(k: Any, hm: HexMap) -> Any:
    from scenarios.schema.km import KmSettlementSpec

    return [_as_spec(s, KmSettlementSpec) for s in k.settlements]


def _km_improvements(k: Any, hm: HexMap) -> Any:
    return [{"at": _coord(hm, h), "kind": kind} for h in sorted(k.improvements) for kind in k.improvements[h]]


def _km_leaders(k: Any, hm: HexMap) -> Any:
    from scenarios.schema.km import LeaderSpec

    return {role: (ld.name if not _as_spec(ld, LeaderSpec).keys() - {"name"} else _as_spec(ld, LeaderSpec))
            for role, ld in sorted(k.leaders.items())}


SPECIAL: dict[str, dict[str, Callable[[Any, HexMap], Any]]] = {
    "kingdoms": {
        "settlements": _km_settlements,
        "improvements": _km_improvements,
        "leaders": _km_leaders,
        "edicts": lambda k, hm: {"holiday": k.holiday, "promotion": k.promotion, "taxation": k.taxation},
        # a capital taken from the kingdom (its settlement gone) is not its capital any more
        "capital": lambda k, hm: k.capital if k.capital in {st.name for st in k.settlements} else "",
        "vassal_attrs": lambda k, hm: SKIP,  # the state keeps them pre-summed: the scenario's stay
    },
    "domains": {
        "at": lambda d, hm: _coord(hm, d.hex),
        "owner": lambda d, hm: d.owner_guild,
        "garrison": lambda d, hm: _units(d.garrison),
        "buildings": lambda d, hm: [{"name": b.name, "sp": b.sp} for b in d.buildings if b.sp > 0],
    },
    "armies": {
        "at": lambda a, hm: _coord(hm, a.hex),
        "seals": lambda a, hm: [*a.own_seals, *a.other_seals],
        "units": lambda a, hm: _units(a.units),
    },
    "guilds": {"seals": lambda g, hm: SKIP},  # the seals' table stays as written (ownership: see the guild's seals)
    "convoys": {
        "origin": lambda c, hm: _coord(hm, c.hex),
        "via": lambda c, hm: [_coord(hm, h) for h in c.stops[:-1]],
        "destination": lambda c, hm: _coord(hm, c.stops[-1]) if c.stops else _coord(hm, c.destination),
        "path": lambda c, hm: SKIP,  # the route is planned again from where the convoy stands
        "route": lambda c, hm: c.route_kind,
        "wagons": lambda c, hm: [{"kind": w.kind, **({"axles": True} if w.axles else {})} for w in c.wagons],
        "travelers": lambda c, hm: [_traveler(t) for t in c.travelers],
    },
}


def _traveler(t: Any) -> dict[str, Any]:
    from scenarios.schema.cv import TravelerSpec

    return _as_spec(t, TravelerSpec, {"wage_gp": "wage"})


def _rows(world: World) -> dict[str, dict[str, Any]]:
    """The world's objects behind each scenario table, by id."""
    out: dict[str, dict[str, Any]] = {}
    if world.km is not None:
        out["kingdoms"] = dict(world.km.kingdoms)
    if world.gw is not None:
        out["guilds"] = {i: g for i, g in world.gw.guilds.items() if g.nation is None}  # LINK-06 makes the others
        out["domains"] = dict(world.gw.domains)
        out["armies"] = dict(world.gw.armies)
    if world.mn is not None:
        out["nations"] = dict(world.mn.nations)
        out["cities"] = dict(world.mn.cities)
    if world.cv is not None:
        out["convoys"] = {c.id: c for c in world.cv.convoys if c.status not in ("arrived", "lost", "destroyed", "disbanded")}
    return out


def _new_row(base: dict[str, Any], spec: type, obj: Any, table: str, hm: HexMap) -> dict[str, Any]:
    special = SPECIAL.get(table, {})
    state_fields = set(getattr(type(obj), "__struct_fields__", ()))
    for name, typ in _fields(spec).items():
        if name in base:
            continue
        val = special[name](obj, hm) if name in special else _plain(getattr(obj, name), typ, hm) if name in state_fields else SKIP
        if val is not SKIP:
            base[name] = val
    return base


def _const(v: Any) -> Callable[[Any, HexMap], Any]:
    def get(obj: Any, hm: HexMap) -> Any:
        return v

    return get


def _carry_row(raw: dict[str, Any], spec: type, obj: Any, table: str, hm: HexMap, path: str,
               dropped: list[str], sheet: dict[str, Any] | None = None) -> dict[str, Any]:
    row = dict(raw)
    special = dict(SPECIAL.get(table, {}))
    for k, v in (sheet or {}).items():
        special[k] = _const(v)
    state_fields = set(getattr(type(obj), "__struct_fields__", ()))
    for name, typ in _fields(spec).items():
        if name == "id" or name == "policy":
            continue
        if name in special:
            val = special[name](obj, hm)
        elif name in state_fields:
            val = _plain(getattr(obj, name), typ, hm)
        else:
            continue
        if val is SKIP:
            continue
        trial = {**row, name: val}
        try:
            msgspec.convert(trial, spec)
        except msgspec.ValidationError:
            dropped.append(f"{path}.{name} (kept as the scenario wrote it: the state's value does not fit the scenario schema)")
            continue
        row = trial
    return row


def _km_relations(world: World, raw: dict[str, Any], dropped: list[str]) -> None:
    """Embassies, treaties, alliances and wars between kingdoms (``km_relations``), attitudes and
    representatives (``km_stances``), as they stand. A treaty's or alliance's bonus is written as it
    is now (after RES-KM-46's reductions)."""
    km = world.km
    assert km is not None
    ids = {k["id"] for k in raw.get("kingdoms", [])}
    rels: list[dict[str, Any]] = []
    for r in km.relations.values():
        if r.a not in ids or r.b not in ids or not (r.embassy or r.treaty or r.alliance or r.enemies):
            continue
        row: dict[str, Any] = {"between": [r.a, r.b]}
        level = "alliance" if r.alliance else "treaty" if r.treaty else "embassy" if r.embassy else "none"
        if level != "none":
            row["relation"] = level
        ag = r.treaty
        if ag is not None:
            row["balanced"] = ag.balanced
            if ag.advantaged:
                row["advantaged"] = ag.advantaged
            row["bonus"] = dict(ag.bonus)
        if r.alliance is not None:
            row["alliance_bonus"] = dict(r.alliance.bonus)
        if r.enemies:
            row["enemies"] = True
        rels.append(row)
    stances: list[dict[str, Any]] = []
    for key, st in km.stances.items():  # every one the world keeps (a kingdom founded since has its own)
        a, _, b = key.partition(">")
        if a in ids and b in ids:
            stances.append({"kingdom": a, "towards": b, "attitude": st.attitude,
                            **({"representative": True} if st.present else {})})
    if rels or "km_relations" in raw:
        raw["km_relations"] = rels
    if stances or "km_stances" in raw:
        raw["km_stances"] = stances


def _mn_treaties(world: World, raw: dict[str, Any], dropped: list[str]) -> None:
    """Treaties in force (``mn_treaties``, each with its ambassador at post, as a scenario's are) and
    each nation's other ambassadors (``ambassadors``, at home)."""
    mn = world.mn
    assert mn is not None
    nations = {n["id"]: n for n in raw.get("nations", [])}
    rows: list[dict[str, Any]] = []
    posted: dict[str, int] = {}
    for t in mn.treaties:
        if t.nation not in nations:
            continue
        partner = t.partner.partition(":")[2]
        row: dict[str, Any] = {"nation": t.nation, "partner": partner, "kind": t.kind}
        if t.last_turn is not None:
            left = t.last_turn - mn.turn
            if left < 1:
                continue
            row["last_turn"] = left
        rows.append(row)
        if not t.partner.startswith("nation:"):
            posted[t.nation] = posted.get(t.nation, 0) + 1
    if rows or "mn_treaties" in raw:
        raw["mn_treaties"] = rows
    # racial factors as they are now (RES-MN-09: executions and invasions move them)
    raw["racial_factors"] = [{"province": prov, "people": people, "value": v}
                             for prov, row in mn.rf.items() for people, v in row.items()]
    wars = [{"between": [w.a.partition(":")[2], w.b.partition(":")[2]], **({"by_pact": True} if w.by_pact else {})}
            for w in mn.wars]
    if wars or "mn_wars" in raw:
        raw["mn_wars"] = wars
    for nid, n in nations.items():
        mine = [a for a in mn.ambassadors.values() if a.nation == nid and a.state != "dead"]
        n["ambassadors"] = max(0, len(mine) - posted.get(nid, 0))


def _km_hexes(world: World, raw: dict[str, Any]) -> None:
    """The hexes explored (``km_explored``: every one, claimed or not), those partly explored
    (``km_progress``) and the hidden features, found or not, with the kingdom that found them
    (``km_hidden_features``)."""
    km = world.km
    assert km is not None
    hm = world.map
    explored = [_coord(hm, h) for h, st in sorted(km.hexes.items()) if st.explored]
    if explored or "km_explored" in raw:
        raw["km_explored"] = explored
    progress = [{"at": _coord(hm, h), "days": st.progress} for h, st in sorted(km.hexes.items()) if st.progress > 0]
    if progress or "km_progress" in raw:
        raw["km_progress"] = progress
    features = [{"at": _coord(hm, h), "name": f.name, "dc": f.dc, **({"found_by": f.found_by} if f.found_by else {})}
                for h, st in sorted(km.hexes.items()) for f in st.features]
    if features or "km_hidden_features" in raw:
        raw["km_hidden_features"] = features


def _roads(world: World, loaded: LoadedScenario, raw: dict[str, Any]) -> None:
    """The roads built since the start (a kingdom's Road and Highway improvements, SC-KM-32): the
    scenario's own roads stay as written, each hex whose road is now better is added."""
    from scenarios.build import build_map

    base = build_map(loaded.scenario, [])
    hm = world.map
    built = [{"path": [_coord(hm, i)], "kind": h.road} for i, (h, b) in enumerate(zip(hm.hexes, base.hexes, strict=False))
             if h.road != b.road and h.road != "none"]
    if built:
        raw.setdefault("map", {}).setdefault("roads", []).extend(built)


def _sheet(world: World, table: str, obj: Any) -> dict[str, Any] | None:
    """A kingdom's Economy, Loyalty and Stability as its sheet reads (everything included): what a
    scenario file says, and what the world keeps as base values plus what the engine adds."""
    if table != "kingdoms":
        return None
    from sim.rules.km import stats

    st = stats(world, obj)
    return {"economy": st.economy, "loyalty": st.loyalty, "stability": st.stability}


def export_world(world: World, loaded: LoadedScenario, *, seed: int) -> str:
    """The state file of ``world`` (at a season boundary), from the scenario it was built from."""
    from scenarios.schema import Scenario
    from sim.version import code_version

    if world.now % HOURS_PER_SEASON:
        raise ScenarioError(loaded.label, [Problem("season", "a season boundary", f"hour {world.now}")])
    raw: dict[str, Any] = tomllib.loads(loaded.text)
    specs = _fields(Scenario)
    dropped: list[str] = []
    rows = _rows(world)
    hm = world.map
    for table, objs in rows.items():
        spec = specs[table].__args__[0]  # list[XSpec]
        old = {r.get("id"): r for r in raw.get(table, [])}
        new_rows = []
        for ident, obj in objs.items():
            base = old.get(ident)
            if base is None:  # a row the campaign created (a deployed army, a new vassal…): every field
                base = {"id": ident}
                if "policy" in _fields(spec) and getattr(obj, "policy", None):
                    base["policy"] = obj.policy
                base = _new_row(base, spec, obj, table, hm)
            row = _carry_row(base, spec, obj, table, hm, f"{table}.{ident}", dropped, _sheet(world, table, obj))
            try:
                msgspec.convert(row, spec)
            except msgspec.ValidationError as e:
                dropped.append(f"{table}.{ident} (not written: {e})")
                continue
            new_rows.append(row)
        gone = [i for i in old if i not in objs]
        dropped += [f"{table}.{i} (no longer in play)" for i in gone]
        if new_rows or table in raw:
            raw[table] = new_rows
    if world.km is not None:
        _km_relations(world, raw, dropped)
    if world.mn is not None:
        _mn_treaties(world, raw, dropped)
    guilds = {g["id"] for g in raw.get("guilds", [])}
    for table in ("armies", "domains"):  # a nation's own (LINK-06): no scenario table holds them
        if table in raw:
            keep = [r for r in raw[table] if not r.get("owner") or r["owner"] in guilds]
            dropped += [f"{table}.{r['id']} (held by {r['owner']}, a nation acting as a guild, LINK-06: the scenario "
                        "schema has no table for it)" for r in raw[table] if r not in keep]
            raw[table] = keep
    for table, key in (("guilds", "lends_to"), ("domains", "consents_to")):  # only scenario guilds (LINK-06 adds
        for g in raw.get(table, []):  # the nations' own)
            if key in g:
                g[key] = [x for x in g[key] if x in guilds]
    # settlements the kingdoms founded: on the map too
    names = {s.get("name") for s in raw.get("map", {}).get("settlements", [])}
    if world.km is not None:
        for k in world.km.kingdoms.values():
            for s in k.settlements:
                if s.name not in names:
                    raw.setdefault("map", {}).setdefault("settlements", []).append({"name": s.name, "at": _coord(hm, s.hex)})
                    names.add(s.name)
    if world.km is not None:
        _km_hexes(world, raw)
    _roads(world, loaded, raw)
    for t in DROPPED_TABLES:
        if raw.pop(t, None):
            dropped.append(f"{t} (scripted events of the scenario are not part of a state)")
    raw["scenario"]["seed"] = seed
    raw["state"] = {"season": world.now // HOURS_PER_SEASON, "from_scenario": world.scenario, "from_seed": seed,
                    "code_version": code_version()}
    head = [f"# realmsim state: {world.scenario} at the start of season {world.now // HOURS_PER_SEASON} "
            f"(hour {world.now}), seed {seed}.",
            "# A scenario file (docs/state-format.md): edit it, `realmsim validate` it, `realmsim advise` from it,",
            "# or run it to continue the campaign from this season."]
    order = ["scenario", "state", "map", "config"]
    body = {k: raw[k] for k in order if k in raw} | {k: v for k, v in raw.items() if k not in order}
    text = readable_toml(body)
    rebuilt = _check_loads(text, loaded, world, seed)
    missed = not_carried(world, rebuilt)
    if missed:
        head.append("# Not carried: the world this file builds differs from the campaign's in these fields only")
        head.append("# (each with how many values differ; `realmsim state export` checks it when it writes the file):")
        head += [f"#   {pat} ({n}) — {why}" for pat, n, why in missed]
    if dropped:
        head.append("# Left out of the scenario's tables:")
        head += [f"#   {d}" for d in dropped]
    return "\n".join(head) + "\n" + text


def _check_loads(text: str, loaded: LoadedScenario, world: World, seed: int) -> World:
    """The world the state file builds. It must load as a scenario: an export that would not is an
    error of the exporter, said with every problem rather than written."""
    from scenarios.build import build_world
    from scenarios.loader import parse_scenario

    label = f"state of {loaded.label}"
    try:
        return build_world(parse_scenario(text, label, loaded.carried), seed, label=label, files=loaded.carried)
    except ScenarioError as e:
        raise ScenarioError(f"{loaded.label} at hour {world.now} (realmsim state export could not write a valid state: "
                            "please report it)", e.problems) from None


# ---- what a state file does not carry --------------------------------------------------------------------
# The exporter builds the world its file describes and compares it with the campaign's, field by
# field (:func:`differences`); the header lists every field that differs, as a pattern (``km.kingdoms[*].granary``)
# with how many values differ and why. Nothing else differs: tests/workers/test_state_roundtrip.py
# checks it on random campaigns of every built-in scenario.
_INDEX = re.compile(r"\[[^\]]*\]")

LINK06 = "what a nation acting as a guild has (LINK-06: its chest, pool, seals and armies; no scenario table holds it)"

# why a field is not carried, by pattern (the longest that matches a field's pattern says it)
WHY = {
    "start": "the state's world starts at its season (the campaign started at hour 0)",
    "config": "the rules' values the campaign was run with (its overrides) are not written",
    "policy_options": "a look-ahead's budgets",
    # KM
    "km.turn": "kingdom turns count again from the state's season",
    "km.next_id": "numbers of things to come (ids)",
    "km.counts": "counts of past events (the campaign's statistics)",
    "km.events": "events scheduled by the scenario (km_events)",
    "km.envoys": "envoys on their way",
    "km.expeditions": "expeditions under way (exploration, trade caravans)",
    "km.routes": "trade routes (their Economy is kept in the sheet's Economy)",
    "km.encounters": "encounters under way",
    "km.hexes[*].progress": "days of exploration already spent on a hex (RES-KM-13)",
    "km.hexes[*].features[*].found_by": "who found a hidden feature",
    "km.kingdoms[*].economy": "the base value: the file writes the sheet (everything included), the world keeps base "
                              "values and adds what is not carried (trade routes…)",
    "km.kingdoms[*].loyalty": "the base value (see economy)",
    "km.kingdoms[*].stability": "the base value (see economy)",
    "km.kingdoms[*].built": "counts of what was built (the campaign's statistics)",
    "km.kingdoms[*].expeditions_sent": "counts of expeditions sent",
    "km.kingdoms[*].milestones": "the size milestones already reached (they are not lost with hexes)",
    "km.kingdoms[*].free_house_used": "whether the first free house was built (SC-KM-31)",
    "km.kingdoms[*].subjugation": "a subjugation under way (KM-VAS-07)",
    "km.kingdoms[*].budget_turn": "the turn of the last budget",
    "km.relations[*].alliance.balanced": "an alliance's balance when it is not its treaty's",
    "km.kingdoms[*].builds_turn": "the turn of the last buildings",
    "km.kingdoms[*].edicts_turn": "the turn of the last edicts",
    "km.kingdoms[*].special_turn": "the turn of the last special edict",
    "km.kingdoms[*].surplus_turn": "the turn of the last surplus",
    "km.kingdoms[*].founded_turn": "the turn a kingdom was founded",
    "km.relations[*].treaty.signed_turn": "the turn an agreement was signed",
    "km.relations[*].alliance.signed_turn": "the turn an agreement was signed",
    "km.relations[*].treaty.reduction": "RES-KM-46's reductions so far (the bonus is written as it is now)",
    "km.relations[*].alliance.reduction": "RES-KM-46's reductions so far (the bonus is written as it is now)",
    "km.relations[*].alliance.advantaged": "an alliance's advantaged kingdom when it is not its treaty's",
    "km.stances[*].bans": "the bans on new attempts after a failed edict (RES-KM-40)",
    "km.stances": "the stances of kingdoms founded since (indifferent)",
    # MN
    "mn.turn": "Mare Nostrum turns count again from the state's season",
    "mn.next_id": "numbers of things to come (ids)",
    "mn.stats": "counts of past events (the campaign's statistics)",
    "mn.wars[*].since": "the turn a war began (turns count again from the state's season)",
    "mn.ambassadors": "ambassadors who died",
    "mn.ambassadors[*].ransom": "the ransom of a held ambassador",
    "mn.nations[*].bought": "numbers of things to come (ids)",
    "mn.nations[*].treasury": "a faction that is both a kingdom and a nation keeps one treasury, the kingdom's (LINK-03): "
                              "the nation's PO are shown from it",
    "mn.invasions": "invasions and repulses of past turns (the modifiers MN-MOD-02…05 they give)",
    "mn.cuts": "relations cut by a break or an intervention (MN-TRE-07)",
    "mn.armies": "armies raised by alliances and pacts",
    "mn.obligations": "eternal friendship obligations under way (MN-TRE-06)",
    "mn.embassies": "embassies whose post is not held by a treaty's ambassador",
    "mn.embassies[*].last_turn": "the turn an embassy closes (turns count again from the state's season)",
    "mn.treaties[*].last_turn": "the turn a treaty ends (turns count again from the state's season)",
    "mn.script": "events scheduled by the scenario (mn_events)",
    "mn.missions": "missions under way",
    "mn.ambassadors[*].state": "ambassadors on the road, posted or held are written as ambassadors at home or at post",
    "mn.ambassadors[*].city": "where an ambassador is going, posted or held",
    "mn.ambassadors[*].mission": "an ambassador's mission under way",
    "mn.ambassadors[*].returns_turn": "when an ambassador on his way back is home",
    "mn.ambassadors[*].since": "since when an ambassador has been where he is",
    "mn.embassies[*].id": "embassies, treaties and missions are numbered again",
    "mn.treaties[*].id": "embassies, treaties and missions are numbered again",
    "mn.treaties[*].embassy": "embassies, treaties and missions are numbered again",
    "mn.cities[*].imports[*].treaty": "embassies, treaties and missions are numbered again",
    "mn.nations[*].imports[*].treaty": "embassies, treaties and missions are numbered again",
    "mn.embassies[*].installed_turn": "the turn an embassy was installed",
    "mn.treaties[*].signed_turn": "the turn a treaty was signed",
    "mn.treaties[*].renewed_turn": "the turn a treaty was renewed",
    "mn.embassies[*].ambassador": "which of a nation's ambassadors holds a post",
    "mn.treaties[*].via": "which of a nation's ambassadors holds a post",
    # GW
    "gw.season": "guild seasons count again from the state's season",
    "gw.next_army": "numbers of things to come (ids)",
    "gw.next_unit": "numbers of things to come (ids)",
    "gw.next_building": "numbers of things to come (ids)",
    "gw.next_loot": "numbers of things to come (ids)",
    "gw.stats": "counts of past events (the campaign's statistics)",
    "gw.orders": "the orders of past seasons",
    "gw.bank": "the guild bank's deposits",
    "gw.loot": "loot lying on the map",
    "gw.sacked": "domains sacked, and when",
    "gw.destroyed_on": "hexes where armies were destroyed, and when",
    "gw.domains[*].garrison": "a garrison is written as units by kind: their order, ids and bonuses are not kept",
    "gw.armies[*].units": "an army is written as units by kind: their order, ids and bonuses are not kept",
    "gw.domains[*].buildings[*].id": "buildings are numbered again",
    "gw.domains[*].occupied_by": "occupations under way",
    "gw.domains[*].besieged_by": "sieges under way",
    "gw.armies[*].besieging": "sieges under way",
    "gw.guilds[*].lends_to": "seals lent to a nation's armies (LINK-06: no scenario table holds them)",
    "gw.domains[*].consents_to": "consents given to a nation's armies (LINK-06: no scenario table holds them)",
    "gw.armies[*].siege_short": "a siege that fell short, and when",
    "gw.armies[*].siege_short_season": "a siege that fell short, and when",
    # LINK-06: a nation acting as a guild (its chest, pool, seals and armies): no scenario table holds it
    "gw.guilds": LINK06,
    "gw.seals": LINK06,
    "gw.armies": LINK06 + "; and the armies destroyed since",
    "gw.armies[*].occupying": "occupations under way",
    "gw.armies[*].occupying_since": "occupations under way",
    "gw.armies[*].deployed": "the season an army was deployed",
    "gw.domains[*].annexed_from": "annexations, and the compensation owed for them",
    "gw.domains[*].annexed_season": "annexations, and the compensation owed for them",
    "gw.domains[*].frozen_until": "a domain's frozen seasons after an annexation",
    "gw.domains[*].title_holder": "who holds a domain's title deed",
    "gw.domains[*].title_return_season": "when a title deed must be returned",
    # CV
    "cv.events": "events scheduled by the scenario (cv_events)",
    "cv.convoys": "convoys that have arrived or been lost; a convoy's progress inside its hex and its day's counters",
}


def differences(a: Any, b: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every field where ``a`` and ``b`` differ, as ``(path, a's value, b's value)``: structs field by
    field, dicts key by key, lists item by item (a list of another length differs as a whole)."""
    out: list[tuple[str, Any, Any]] = []
    if type(a) is not type(b):
        out.append((path, a, b))
    elif isinstance(a, msgspec.Struct):
        for f in a.__struct_fields__:
            out += differences(getattr(a, f), getattr(b, f), f"{path}.{f}" if path else f)
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append((f"{path}[{k!r}]", a.get(k), b.get(k)))
            else:
                out += differences(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, list | tuple):
        if len(a) != len(b):
            out.append((path, a, b))
        else:
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                out += differences(x, y, f"{path}[{i}]")
    elif a != b:
        out.append((path, a, b))
    return out


def field_pattern(path: str) -> str:
    """A field's path with its keys and indexes as ``[*]``: ``km.kingdoms[*].granary``."""
    return _INDEX.sub("[*]", path)


def why_not_carried(pattern: str) -> str:
    best = max((p for p in WHY if pattern == p or pattern.startswith(p + ".") or pattern.startswith(p + "[")),
               key=len, default=None)
    return WHY[best] if best is not None else "not carried by the scenario schema"


def not_carried(world: World, rebuilt: World) -> list[tuple[str, int, str]]:
    """What the state file does not carry: ``(field pattern, how many values differ, why)``, in order."""
    counts: dict[str, int] = {}
    for path, a, b in differences(world, rebuilt):
        pat = field_pattern(path)
        n = abs(len(a) - len(b)) if isinstance(a, list | tuple) and isinstance(b, list | tuple) else 1
        counts[pat] = counts.get(pat, 0) + max(n, 1)
    return [(pat, n, why_not_carried(pat)) for pat, n in sorted(counts.items())]


def _is_table_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def readable_toml(doc: dict[str, Any]) -> str:
    """TOML as a person writes a scenario: ``[table]`` and ``[[rows]]`` with one key per line, inner
    tables and lists inline (what ``tomllib`` reads back to ``doc``)."""
    from agents.variants import toml_key, toml_value

    out: list[str] = []

    def table(name: str, t: dict[str, Any], header: str) -> None:
        out.append("")
        out.append(header)
        subs = []
        for k, v in t.items():
            if isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()) and name in ("config",):
                subs.append((k, v))
            else:
                out.append(line(k, v))
        for k, v in subs:
            table(f"{name}.{k}", v, f"[{name}.{toml_key(k)}]")

    def line(k: str, v: Any) -> str:  # a long list: one item a line
        text = f"{toml_key(k)} = {toml_value(v)}"
        if len(text) <= 110 or not isinstance(v, list):
            return text
        return f"{toml_key(k)} = [\n" + "".join(f"  {toml_value(x)},\n" for x in v) + "]"

    scalars = {k: v for k, v in doc.items() if not isinstance(v, dict) and not _is_table_list(v)}
    for k, v in scalars.items():
        out.append(line(k, v))
    for k, v in doc.items():
        if k in scalars:
            continue
        if isinstance(v, dict):
            if k == "config":
                for sys_name, sys_cfg in v.items():
                    table(f"config.{sys_name}", sys_cfg, f"[config.{toml_key(sys_name)}]")
            else:
                table(k, v, f"[{toml_key(k)}]")
        else:
            for row in v:
                table(k, row, f"[[{toml_key(k)}]]")
    return "\n".join(out).lstrip("\n") + "\n"


def export(*, save: Path | None = None, scenario: str | None = None, season: int | None = None,
           seed: int | None = None) -> str:
    """The state file of a save (at its season) or of a campaign run to the start of ``season``."""
    if save is not None:
        from agents.savefile import restore

        model, meta = restore(save, collect=False)
        return export_world(model.world, meta["scenario"], seed=int(meta["seed"]))
    from agents.campaign import prepare_campaign
    from scenarios.loader import load_scenario

    assert scenario is not None and season is not None
    loaded = load_scenario(scenario)
    seed = loaded.scenario.scenario.seed if seed is None else seed
    model = prepare_campaign(loaded, seed, collect=False)
    hour = season * HOURS_PER_SEASON
    if not model.world.start <= hour < model.world.end:
        raise ScenarioError(loaded.label, [Problem(
            "--season", f"a season from {model.world.start // HOURS_PER_SEASON} to {(model.world.end - 1) // HOURS_PER_SEASON}",
            str(season))])
    model.run(hour)
    return export_world(model.world, loaded, seed=seed)


def add_arguments(p: Any) -> None:
    sub = p.add_subparsers(dest="state_cmd", metavar="ACTION", required=True)
    e = sub.add_parser("export", help="write the world at a season as a TOML state file (docs/state-format.md)")
    e.add_argument("save", nargs="?", default=None, help="a save file (run --save): the world where it was saved")
    e.add_argument("--scenario", default=None, metavar="NAME", help="or a scenario (built-in name or path), run to --season")
    e.add_argument("--season", type=int, default=None, metavar="N", help="the season to stop at (with --scenario)")
    e.add_argument("--seed", type=int, default=None, help="the campaign's seed (with --scenario; default the scenario's)")
    e.add_argument("--out", required=True, metavar="FILE", help="the state file to write (- for standard output)")


def cmd_state(args: Any) -> int:
    import sys

    from workers.batch import UsageError

    if (args.save is None) == (args.scenario is None):
        raise UsageError("state export: give a save file or --scenario NAME --season N (one of them)")
    if args.scenario is not None and args.season is None:
        raise UsageError("state export: --scenario needs --season N")
    if args.save is not None and (args.season is not None or args.seed is not None):
        raise UsageError("state export: --season and --seed go with --scenario (a save stands at its own season)")
    text = export(save=Path(args.save) if args.save else None, scenario=args.scenario, season=args.season, seed=args.seed)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    return 0
