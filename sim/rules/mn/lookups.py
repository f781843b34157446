"""Mare Nostrum (MN): parties, calendar and lookups of the MN state (RES-MN-02/03/07/09)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sim.config import MnConfig
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules.mn.orders import SYS
from sim.state.mn import City, Cut, Embassy, Mission, MnWorld, Nation, Treaty

__all__ = [
    "nkey",
    "ckey",
    "split_party",
    "party_of_city",
    "party_of_province",
    "party_cities",
    "party_provinces",
    "party_peoples",
    "party_home_province",
    "party_exists",
    "party_name",
    "is_acclamation_turn",
    "travel_turns",
    "rf",
    "change_rf",
    "at_war",
    "enemies_of",
    "relations_cut",
    "in_contact",
    "treaty_sides",
    "treaty_between",
    "treaty_involves",
    "other_side",
    "pact_of",
    "pact_pending",
    "nearest_province",
    "embassy_of",
    "get_embassy",
    "get_treaty",
    "get_mission",
    "posted_nations",
]


# ---- parties, calendar, lookups -----------------------------------------------------------------
def nkey(nation: str) -> str:
    return f"nation:{nation}"


def ckey(city: str) -> str:
    return f"city:{city}"


def split_party(party: str) -> tuple[str, str]:
    kind, _, ident = party.partition(":")
    return kind, ident


def party_of_city(mn: MnWorld, city: str) -> str:
    c = mn.cities[city]
    return nkey(c.controller) if c.controller else ckey(city)


def party_of_province(mn: MnWorld, province: str) -> str | None:
    """The party that controls a province: its nation, else its uncontrolled city, else None."""
    for n in mn.nations.values():
        if province in n.provinces:
            return nkey(n.id)
    p = mn.provinces.get(province)
    if p is not None and p.city is not None:
        return party_of_city(mn, p.city)
    return None


def party_cities(mn: MnWorld, party: str) -> list[str]:
    kind, ident = split_party(party)
    if kind == "city":
        return [ident]
    return sorted(c.id for c in mn.cities.values() if c.controller == ident)


def party_provinces(mn: MnWorld, party: str) -> list[str]:
    kind, ident = split_party(party)
    if kind == "city":
        return [mn.cities[ident].province]
    return list(mn.nations[ident].provinces)


def party_peoples(mn: MnWorld, party: str) -> set[str]:
    return {mn.provinces[p].people for p in party_provinces(mn, party)}


def party_home_province(mn: MnWorld, party: str) -> str:
    """A city's province, or a nation's capital province (RES-MN-09 for a player ally)."""
    kind, ident = split_party(party)
    if kind == "city":
        return mn.cities[ident].province
    return mn.cities[mn.nations[ident].capital].province


def party_exists(mn: MnWorld, party: str) -> bool:
    kind, ident = split_party(party)
    return (kind == "nation" and ident in mn.nations) or (kind == "city" and ident in mn.cities)


def party_name(mn: MnWorld, party: str, lang: str = "en") -> str:
    kind, ident = split_party(party)
    obj: Nation | City | None = mn.nations.get(ident) if kind == "nation" else mn.cities.get(ident)
    if obj is None:
        return party
    return (obj.name_fr if lang == "fr" and obj.name_fr else obj.name) or ident


def is_acclamation_turn(mn: MnWorld, cfg: MnConfig, turn: int | None = None) -> bool:
    """The Acclamation phase falls in the last turn of each year (SC-MN-09, SC-MN-03)."""
    t = mn.turn if turn is None else turn
    return (t + mn.first_turn_in_year - 1) % cfg.turns_per_year == 0


def travel_turns(mn: MnWorld, cfg: MnConfig, a: str, b: str) -> int:
    """RES-MN-02: turns of travel between two provinces (0 inside one province)."""
    if a == b:
        return 0
    return mn.travel.get(a, {}).get(b, cfg.default_travel_turns)


def rf(mn: MnWorld, province: str, people: str) -> int:
    """RF(province, people), default 0 (RES-MN-09)."""
    return mn.rf.get(province, {}).get(people, 0)


def change_rf(mn: MnWorld, province: str, people: str, delta: int) -> tuple[int, int]:
    before = rf(mn, province, people)
    mn.rf.setdefault(province, {})[people] = before + delta
    return before, before + delta


def at_war(mn: MnWorld, a: str, b: str) -> bool:
    lo, hi = (a, b) if a <= b else (b, a)
    for w in mn.wars:
        if w.a == lo and w.b == hi:
            return True
    return False


def enemies_of(mn: MnWorld, party: str) -> list[str]:
    out = [w.b if w.a == party else w.a for w in mn.wars if party in (w.a, w.b)]
    return sorted(out)


def relations_cut(mn: MnWorld, a: str, b: str, turn: int | None = None) -> Cut | None:
    """The cut in force between two parties in ``turn`` (RES-MN-07), if any."""
    t = mn.turn if turn is None else turn
    pair = {a, b}
    for c in mn.cuts:
        if {c.a, c.b} == pair and c.from_turn <= t <= c.through_turn:
            return c
    return None


def in_contact(mn: MnWorld, n1: str, n2: str) -> bool:
    """RES-MN-03: an ambassador of one is ``at_post`` in a city of the other."""
    for amb in mn.ambassadors.values():
        if amb.state != "at_post" or amb.city is None:
            continue
        host = mn.cities[amb.city].controller
        if (amb.nation == n1 and host == n2) or (amb.nation == n2 and host == n1):
            return True
    return False


def treaty_sides(t: Treaty) -> tuple[str, str]:
    return nkey(t.nation), t.partner


def treaty_between(t: Treaty, a: str, b: str) -> bool:
    return {nkey(t.nation), t.partner} == {a, b}


def treaty_involves(t: Treaty, party: str) -> bool:
    return party == t.partner or party == nkey(t.nation)


def other_side(t: Treaty, party: str) -> str:
    me, partner = treaty_sides(t)
    return partner if party == me else me


def pact_of(mn: MnWorld, nation: str) -> Treaty | None:
    """A nation's eternal friendship pact in force (MN-TRE-06: at most one)."""
    k = nkey(nation)
    for t in mn.treaties:
        if t.kind == "pact" and treaty_involves(t, k):
            return t
    return None


def pact_pending(mn: MnWorld, nation: str) -> bool:
    """A pact mission of this nation is under way (it would make a second pact, MN-TRE-06)."""
    return any(m.nation == nation and m.treaty == "pact" and m.renewal_of is None for m in mn.missions)


def nearest_province(mn: MnWorld, cfg: MnConfig, nation: str, ally: str) -> str:
    """RES-MN-06: the nation's province with the fewest travel turns to the ally's city (ties: lowest id)."""
    target = party_home_province(mn, ally)
    return min(mn.nations[nation].provinces, key=lambda p: (travel_turns(mn, cfg, p, target), p))


def embassy_of(mn: MnWorld, ambassador: str) -> Embassy | None:
    for e in mn.embassies:
        if e.ambassador == ambassador:
            return e
    return None


def _by_id[T: (Embassy, Treaty, Mission)](items: list[T], ident: int) -> T | None:
    return next((x for x in items if x.id == ident), None)


def get_embassy(mn: MnWorld, eid: int) -> Embassy | None:
    return _by_id(mn.embassies, eid)


def get_treaty(mn: MnWorld, tid: int) -> Treaty | None:
    return _by_id(mn.treaties, tid)


def get_mission(mn: MnWorld, mid: int) -> Mission | None:
    return _by_id(mn.missions, mid)


def posted_nations(mn: MnWorld, city: str) -> list[str]:
    """Nations with an ``at_post`` ambassador in a city, ascending id."""
    return sorted({a.nation for a in mn.ambassadors.values() if a.state == "at_post" and a.city == city})


def get_nation(mn: MnWorld, nation: str) -> Nation:
    n = mn.nations.get(nation)
    if n is None:
        raise InvalidOrderError(f"unknown nation {nation!r}")
    return n


def emit(ledger: Ledger, kind: str, actor: str, clauses: Iterable[str], **kw: Any) -> None:
    ledger.emit(SYS, kind, actor, clauses, **kw)


def pay(mn: MnWorld, nation: str, amount: int, clause: str, what: str, order: object = None) -> None:
    n = mn.nations[nation]
    if amount < 0:
        raise InvalidOrderError(f"{what}: a negative amount ({amount} PO)")
    if n.treasury < amount:
        raise IllegalOrderError(
            clause, f"{what} costs {amount} PO but the treasury holds {n.treasury} PO (RES-MN-17: never below 0)",
            order=order, actor=nkey(nation),
        )
    n.treasury -= amount
