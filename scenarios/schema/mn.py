"""Scenario tables of Mare Nostrum diplomacy (MN, RULES.md §2, §5.2).

Top-level tables of a scenario file (all optional except ``nations`` when MN is enabled)::

    [diplomacy]            hexes_per_turn (travel from the map, RES-MN-02), first_turn_in_year (SC-MN-03)
    [[peoples]]            id, name, name_fr
    [[mn_provinces]]       name, people, resources — a map province (map.provinces) or one without hexes
    [[cities]]             id, name, name_fr, province, settlement (map), controller (a nation id)
    [[nations]]            id, name, name_fr, capital (a city id), treasury (PO, default 50, SC-MN-08),
                           policy, provinces (more controlled provinces), ambassadors (at home at start)
    [[racial_factors]]     province, people, value (RES-MN-09)
    [[mn_travel]]          a, b, turns (RES-MN-02; both ways)
    [[mn_treaties]]        nation, partner, kind, last_turn — in force at the start, with an ambassador at post
    [[mn_events]]          turn, kind = "war" | "peace" | "invasion", by, on, attacker, defender, repelled
    [[mn_wars]]            between = [a, b], by_pact — wars under way at the start (a state file writes them)

Parties in ``mn_events`` and ``mn_treaties`` are written as bare ids: a nation id, or a city id (a
city controlled by a nation stands for that nation). Nation and city ids must differ.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

from scenarios.schema.common import MapIndex, NonNeg, PolicyOptions, Positive, Spec, duration_hours
from scenarios.validate import check_policy
from sim.calendar import HOURS_PER_YEAR, SEASONS_PER_YEAR
from sim.errors import Problem, ScenarioError
from sim.events import Ledger
from sim.rules.mn import refresh_imports
from sim.state.mn import (
    Ambassador,
    City,
    Embassy,
    MnWorld,
    Nation,
    People,
    Province,
    ScriptedEvent,
    Treaty,
    War,
)

if TYPE_CHECKING:
    from scenarios.schema import Scenario
    from sim.world import World


class DiplomacySpec(Spec):
    hexes_per_turn: Positive | None = None  # travel turns = ceil(hex distance between seats / this), at least 1
    first_turn_in_year: Positive = 1


class PeopleSpec(Spec):
    id: str
    name: str = ""
    name_fr: str = ""


class MnProvinceSpec(Spec):
    name: str
    people: str
    resources: list[str] = []


class NationSpec(Spec):
    id: str
    capital: str
    name: str = ""
    name_fr: str = ""
    treasury: NonNeg | None = None
    policy: str = "heuristic"  # heuristic, random, an installed policy, or pkg.mod:Class allowed by --allow-policies
    policy_options: PolicyOptions | None = None  # only for policy = "lookahead"
    provinces: list[str] = []
    ambassadors: NonNeg = 0


class CitySpec(Spec):
    id: str
    province: str
    name: str = ""
    name_fr: str = ""
    settlement: str = ""
    controller: str = ""


class RacialFactorSpec(Spec):
    province: str
    people: str
    value: int


class TravelSpec(Spec):
    a: str
    b: str
    turns: NonNeg


class MnTreatySpec(Spec):
    nation: str
    partner: str
    kind: Literal["commercial", "alliance", "pact"]
    last_turn: Positive | None = None


class MnWarSpec(Spec):
    """Two parties at war at the start (SC-MN-02): a nation or a city id each; ``by_pact``: relations
    severed by an eternal friend's intervention (MN-TRE-07)."""

    between: list[str]
    by_pact: bool = False


class MnEventSpec(Spec):
    turn: Positive
    kind: Literal["war", "peace", "invasion"]
    by: str = ""
    on: str = ""
    attacker: str = ""
    defender: str = ""
    repelled: bool = False
    note: str = ""


DEFAULT_TREASURY_PO = 50  # SC-MN-08


def _mn_cfg(sc: Scenario) -> dict[str, object]:
    raw = sc.config.get("mn", {}) if isinstance(sc.config, dict) else {}
    return raw if isinstance(raw, dict) else {}


def _turns_per_year(sc: Scenario) -> int:
    v = _mn_cfg(sc).get("turns_per_year", 4)
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 4


def total_turns(sc: Scenario) -> int:

    tph = HOURS_PER_YEAR // _turns_per_year(sc)
    return max(0, -(-duration_hours(sc.scenario.duration) // tph))


def check(sc: Scenario, m: MapIndex) -> list[Problem]:
    """Semantic checks of the MN tables: every reference, every cross-field rule."""
    out: list[Problem] = []
    tpy = _turns_per_year(sc)
    if HOURS_PER_YEAR % tpy:
        out.append(Problem("config.mn.turns_per_year", f"a divisor of the {HOURS_PER_YEAR} hours of a year (4: seasons)", f"{tpy}"))
    others = [s for s in sc.scenario.systems if s != "mn"]
    if others and tpy != SEASONS_PER_YEAR:
        out.append(Problem("config.mn.turns_per_year", f"{SEASONS_PER_YEAR} (LINK-01: seasonal turns when MN runs with {', '.join(others)})",
                           f"{tpy}"))
    if sc.diplomacy.first_turn_in_year > tpy:
        out.append(Problem("diplomacy.first_turn_in_year", f"a turn of the year, 1..{tpy}", f"{sc.diplomacy.first_turn_in_year}"))

    peoples: set[str] = set()
    for i, pe in enumerate(sc.peoples):
        if pe.id in peoples:
            out.append(Problem(f"peoples[{i}].id", "a people id used once", f'"{pe.id}" again'))
        peoples.add(pe.id)

    provinces: set[str] = set()
    for i, pr in enumerate(sc.mn_provinces):
        if pr.name in provinces:
            out.append(Problem(f"mn_provinces[{i}].name", "a province declared once", f'"{pr.name}" again'))
        provinces.add(pr.name)
        if pr.people not in peoples:
            out.append(Problem(f"mn_provinces[{i}].people", _one_of("a people of [[peoples]]", peoples), f'"{pr.people}"'))

    nation_ids = [n.id for n in sc.nations]
    city_ids: set[str] = set()
    city_province: dict[str, str] = {}
    for i, c in enumerate(sc.cities):
        if c.id in city_ids:
            out.append(Problem(f"cities[{i}].id", "a city id used once", f'"{c.id}" again'))
        if c.id in nation_ids:
            out.append(Problem(f"cities[{i}].id", "an id that no nation uses (parties are named by bare ids)", f'"{c.id}", a nation id'))
        city_ids.add(c.id)
        if c.province not in provinces:
            out.append(Problem(f"cities[{i}].province", _one_of("a province of [[mn_provinces]]", provinces), f'"{c.province}"'))
        elif c.province in city_province.values():
            other = next(k for k, v in city_province.items() if v == c.province)
            out.append(Problem(f"cities[{i}].province", "a province without another city (SC-MN-01: at most one city)",
                               f'"{c.province}", already the province of "{other}"'))
        city_province[c.id] = c.province
        if c.settlement and c.settlement not in m.settlements:
            out.append(Problem(f"cities[{i}].settlement", _one_of("a settlement of map.settlements", set(m.settlements)), f'"{c.settlement}"'))
        if c.controller and c.controller not in nation_ids:
            out.append(Problem(f"cities[{i}].controller", _one_of("a nation id", set(nation_ids)), f'"{c.controller}"'))

    if not sc.nations:
        out.append(Problem("nations", "at least one nation (MN is enabled)", "none"))
    seen: set[str] = set()
    controlled: dict[str, str] = {}
    for i, n in enumerate(sc.nations):
        if n.id in seen:
            out.append(Problem(f"nations[{i}].id", "a nation id used once", f'"{n.id}" again'))
        seen.add(n.id)

        check_policy("nation", n.policy, f"nations[{i}].policy", out)
        if n.capital not in city_ids:
            out.append(Problem(f"nations[{i}].capital", _one_of("a city id of [[cities]]", city_ids), f'"{n.capital}"'))
        else:
            cs = next(c for c in sc.cities if c.id == n.capital)
            if cs.controller and cs.controller != n.id:
                out.append(Problem(f"nations[{i}].capital", f"a city {n.id} controls", f'"{n.capital}", controlled by "{cs.controller}"'))
            for prev in sc.nations[:i]:
                if prev.capital == n.capital:
                    out.append(Problem(f"nations[{i}].capital", "a city that is no other nation's capital", f'"{n.capital}", the capital of "{prev.id}"'))
                    break
        owned = [city_province[n.capital]] if n.capital in city_province else []
        owned += [city_province[c.id] for c in sc.cities if c.controller == n.id and c.id in city_province]
        for j, p in enumerate(n.provinces):
            if p not in provinces:
                out.append(Problem(f"nations[{i}].provinces[{j}]", _one_of("a province of [[mn_provinces]]", provinces), f'"{p}"'))
            else:
                owned.append(p)
        for p in sorted(set(owned)):
            if p in controlled and controlled[p] != n.id:
                out.append(Problem(f"nations[{i}].provinces", "provinces no other nation controls", f'"{p}", controlled by "{controlled[p]}"'))
            controlled[p] = n.id

    parties = set(nation_ids) | city_ids
    pairs: set[tuple[str, str]] = set()
    for i, r in enumerate(sc.racial_factors):
        if r.province not in provinces:
            out.append(Problem(f"racial_factors[{i}].province", _one_of("a province of [[mn_provinces]]", provinces), f'"{r.province}"'))
        if r.people not in peoples:
            out.append(Problem(f"racial_factors[{i}].people", _one_of("a people of [[peoples]]", peoples), f'"{r.people}"'))
        if (r.province, r.people) in pairs:
            out.append(Problem(f"racial_factors[{i}]", "one value per (province, people)", f'("{r.province}", "{r.people}") again'))
        pairs.add((r.province, r.people))

    tpairs: set[frozenset[str]] = set()
    for i, tr in enumerate(sc.mn_travel):
        for f in ("a", "b"):
            v = getattr(tr, f)
            if v not in provinces:
                out.append(Problem(f"mn_travel[{i}].{f}", _one_of("a province of [[mn_provinces]]", provinces), f'"{v}"'))
        if tr.a == tr.b:
            out.append(Problem(f"mn_travel[{i}].b", "a province other than a (travel inside a province takes 0 turns)", f'"{tr.b}"'))
        key = frozenset((tr.a, tr.b))
        if key in tpairs:
            out.append(Problem(f"mn_travel[{i}]", "one entry per pair of provinces (it holds both ways)", f'"{tr.a}"–"{tr.b}" again'))
        tpairs.add(key)

    last = total_turns(sc)
    for i, e in enumerate(sc.mn_events):
        path = f"mn_events[{i}]"
        if e.turn > last:
            out.append(Problem(f"{path}.turn", f"a turn of the campaign, 1..{last}", f"{e.turn}"))
        if e.kind in ("war", "peace"):
            for f in ("by", "on"):
                v = getattr(e, f)
                if v not in parties:
                    out.append(Problem(f"{path}.{f}", _one_of(f"a nation or city id ({e.kind} needs by and on)", parties), f'"{v}"' if v else "nothing"))
            if e.by and e.by == e.on:
                out.append(Problem(f"{path}.on", "a party other than by", f'"{e.on}"'))
            for f in ("attacker", "defender"):
                if getattr(e, f):
                    out.append(Problem(f"{path}.{f}", f"nothing (a {e.kind} names by and on)", f'"{getattr(e, f)}"'))
        else:
            for f in ("attacker", "defender"):
                v = getattr(e, f)
                if v not in provinces:
                    out.append(Problem(f"{path}.{f}", _one_of("a province of [[mn_provinces]] (an invasion needs attacker and defender)", provinces),
                                       f'"{v}"' if v else "nothing"))
            if e.attacker and e.attacker == e.defender:
                out.append(Problem(f"{path}.defender", "a province other than the attacker", f'"{e.defender}"'))
            for f in ("by", "on"):
                if getattr(e, f):
                    out.append(Problem(f"{path}.{f}", "nothing (an invasion names attacker and defender provinces)", f'"{getattr(e, f)}"'))

    seen_wars: set[frozenset[str]] = set()
    for i, w in enumerate(sc.mn_wars):
        path = f"mn_wars[{i}].between"
        if len(w.between) != 2 or w.between[0] == w.between[1]:
            out.append(Problem(path, "two different parties", f"{w.between}"))
            continue
        for v in w.between:
            if v not in parties:
                out.append(Problem(path, _one_of("nation or city ids", parties), f'"{v}"'))
        if frozenset(w.between) in seen_wars:
            out.append(Problem(path, "each war once", f"{w.between} again"))
        seen_wars.add(frozenset(w.between))

    pact_holders: dict[str, int] = {}
    capital_of = {n.id: n.capital for n in sc.nations}
    for i, t in enumerate(sc.mn_treaties):
        path = f"mn_treaties[{i}]"
        if t.nation not in nation_ids:
            out.append(Problem(f"{path}.nation", _one_of("a nation id", set(nation_ids)), f'"{t.nation}"'))
            continue
        if t.partner not in parties or t.partner == t.nation:
            out.append(Problem(f"{path}.partner", _one_of("another nation or a city id", parties - {t.nation}), f'"{t.partner}"'))
            continue
        partner_nation = t.partner if t.partner in nation_ids else _controller(sc, t.partner, capital_of)
        if partner_nation == t.nation:
            out.append(Problem(f"{path}.partner", f"a party other than {t.nation} itself", f'"{t.partner}", a city of {t.nation}'))
            continue
        if t.kind == "alliance" and partner_nation:
            out.append(Problem(f"{path}.kind", "commercial or pact (MN-TRE-03: a military alliance only with an uncontrolled city)", '"alliance"'))
        if t.kind == "pact":
            for holder in (t.nation, partner_nation):
                if holder:
                    if holder in pact_holders:
                        out.append(Problem(f"{path}", f"at most one eternal friendship pact per nation (MN-TRE-06); {holder} has one",
                                           f"a second (see mn_treaties[{pact_holders[holder]}])"))
                    pact_holders[holder] = i
        if t.last_turn is not None and partner_nation:
            out.append(Problem(f"{path}.last_turn", "nothing (a treaty between two players lasts until broken, RES-MN-04)", f"{t.last_turn}"))
    return out


def _controller(sc: Scenario, city: str, capital_of: dict[str, str]) -> str | None:
    for nid, cap in capital_of.items():
        if cap == city:
            return nid
    for c in sc.cities:
        if c.id == city and c.controller:
            return c.controller
    return None


def _one_of(what: str, options: set[str]) -> str:
    if not options:
        return what + " (none declared)"
    shown = sorted(options)
    listing = ", ".join(f'"{o}"' for o in shown[:12]) + (", …" if len(shown) > 12 else "")
    return f"{what} ({listing})"


def build(sc: Scenario, world: World) -> None:
    """Fill ``world.mn`` from the scenario (SC-MN-01, SC-MN-02, SC-MN-08)."""
    hm = world.map
    cfg = world.config.mn
    others = [s for s in world.systems if s != "mn"]
    if HOURS_PER_YEAR % cfg.turns_per_year or (others and cfg.turns_per_year != SEASONS_PER_YEAR):
        # reachable only through overrides (the scenario's own [config.mn] is checked by check())
        raise ScenarioError("overrides", [Problem(
            "mn.turns_per_year",
            f"a divisor of the {HOURS_PER_YEAR} hours of a year" + (f", and {SEASONS_PER_YEAR} when MN runs with other systems (LINK-01)" if others else ""),
            f"{cfg.turns_per_year}")])
    mn = MnWorld(turn_hours=HOURS_PER_YEAR // cfg.turns_per_year, first_turn_in_year=sc.diplomacy.first_turn_in_year)
    for p in sorted(sc.peoples, key=lambda p: p.id):
        mn.peoples[p.id] = People(p.id, p.name or p.id, p.name_fr)
    first_hex: dict[str, int] = {}
    region: dict[str, str | None] = {}
    for i, h in enumerate(hm.hexes):
        if h.province and h.province not in first_hex:
            first_hex[h.province] = i
            region[h.province] = h.region
    settlements = hm.settlements()
    city_of = {c.province: c for c in sc.cities}
    for pr in sorted(sc.mn_provinces, key=lambda p: p.name):
        c = city_of.get(pr.name)
        seat = settlements[c.settlement] if c is not None and c.settlement else first_hex.get(pr.name, -1)
        mn.provinces[pr.name] = Province(pr.name, pr.people, sorted(set(pr.resources)), region.get(pr.name), c.id if c else None, seat)
    capital_of = {n.capital: n.id for n in sc.nations}
    for c in sorted(sc.cities, key=lambda c: c.id):
        mn.cities[c.id] = City(c.id, c.name or c.id, c.province, capital_of.get(c.id) or c.controller or None, c.name_fr)
    for n in sorted(sc.nations, key=lambda n: n.id):
        owned = {mn.cities[n.capital].province, *n.provinces}
        owned |= {c.province for c in mn.cities.values() if c.controller == n.id}
        mn.nations[n.id] = Nation(n.id, n.name or n.id, n.capital, sorted(owned),
                                  DEFAULT_TREASURY_PO if n.treasury is None else n.treasury, n.policy, n.name_fr)
    for r in sc.racial_factors:
        mn.rf.setdefault(r.province, {})[r.people] = r.value
    mn.rf = {k: dict(sorted(v.items())) for k, v in sorted(mn.rf.items())}
    travel: dict[str, dict[str, int]] = {}
    hpt = sc.diplomacy.hexes_per_turn
    if hpt:
        seats = sorted((p.id, p.seat) for p in mn.provinces.values() if p.seat >= 0)
        for a, sa in seats:
            for b, sb in seats:
                if a != b:
                    travel.setdefault(a, {})[b] = max(1, math.ceil(hm.distance(sa, sb) / hpt))
    for tr in sc.mn_travel:
        travel.setdefault(tr.a, {})[tr.b] = tr.turns
        travel.setdefault(tr.b, {})[tr.a] = tr.turns
    mn.travel = {k: dict(sorted(v.items())) for k, v in sorted(travel.items())}
    mn.script = [
        ScriptedEvent(e.turn, e.kind, _party(mn, e.by), _party(mn, e.on), e.attacker or None, e.defender or None, e.repelled, e.note)
        for e in sorted(sc.mn_events, key=lambda e: e.turn)
    ]
    for n in sorted(sc.nations, key=lambda n: n.id):
        nat = mn.nations[n.id]
        for _ in range(n.ambassadors):
            _new_ambassador(mn, nat)
    for t in sc.mn_treaties:
        _initial_treaty(mn, t)
    for w in sc.mn_wars:  # under way at the start (a state file's): since its first turn
        lo, hi = sorted((_party(mn, w.between[0]) or "", _party(mn, w.between[1]) or ""))
        mn.wars.append(War(lo, hi, 0, by_pact=w.by_pact))

    refresh_imports(mn, Ledger(keep=False))
    world.mn = mn


def _party(mn: MnWorld, ident: str) -> str | None:
    if not ident:
        return None
    if ident in mn.nations:
        return f"nation:{ident}"
    c = mn.cities[ident]
    return f"nation:{c.controller}" if c.controller else f"city:{ident}"


def _new_ambassador(mn: MnWorld, nat: Nation) -> Ambassador:
    nat.bought += 1
    amb = Ambassador(f"{nat.id}-{nat.bought}", nat.id, mn.cities[nat.capital].province, nat.bought)
    mn.ambassadors[amb.id] = amb
    return amb


def _initial_treaty(mn: MnWorld, t: MnTreatySpec) -> None:
    """A treaty in force at the start, with the ambassador and embassy that hold it (installed in turn 0)."""
    nat = mn.nations[t.nation]
    partner = _party(mn, t.partner) or ""
    city = t.partner if t.partner in mn.cities else mn.nations[t.partner].capital
    amb = _new_ambassador(mn, nat)
    amb.state = "at_post"
    amb.city = city
    embassy = Embassy(mn.new_id(), nat.id, amb.id, city, 0, t.last_turn)
    mn.embassies.append(embassy)
    player = partner.startswith("nation:")
    mn.treaties.append(Treaty(
        mn.new_id(), t.kind, nat.id, partner, 0, t.last_turn,
        via=None if player else amb.id, origin=None if player else amb.home_province, embassy=None if player else embassy.id,
    ))


__all__ = [
    "CitySpec", "DiplomacySpec", "MnEventSpec", "MnProvinceSpec", "MnTreatySpec", "NationSpec", "PeopleSpec",
    "RacialFactorSpec", "TravelSpec", "build", "check",
]
