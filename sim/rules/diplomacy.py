"""Mare Nostrum diplomacy (MN, RULES.md §2 and §5.2): missions, hosts, the d100 test, treaties,
embassies, interference, pacts and their obligations.

Every function here is a plain rule: it takes the MN state (mutated in place), the order, a
``Dice``, the ``Ledger`` and ``MnConfig``; the current turn is ``mn.turn``. No clock, no agents.
Policies' choices that a resolution needs in the middle (interference and its sign, RES-MN-16)
come through a small chooser object.

French terms: ambassadeur (ambassador), plénipotentiaire (plenipotentiary), mission diplomatique
(diplomatic mission), test de diplomatie (diplomacy test), seuil de réussite (success threshold),
facteur racial (racial factor), accord commercial (commercial agreement), alliance militaire
(military alliance), pacte d'amitié éternel (eternal friendship pact), bévue (blunder), rançon
(ransom), Phase d'Acclamation (Acclamation phase), ingérence (interference), PO (gold pieces).

Seams for the integration with guild warfare (LINK-06/07): :func:`raise_army` is the one place
an army is raised for a nation, :func:`record_invasion` the one place an invasion or a repulse
enters the log.

Sign convention of the test (RES-MN-08): ``score = d100 − Σ favourable modifiers ± interference``.
In the ``DiplomacyTestRolled`` event the ``mods`` are the effects on the score (so that
``total = die + Σ mods`` as for every check of the ledger): a racial factor of +5 appears as
``-5``; ``data["modifiers"]`` lists them with the signs of RULES.md (favourable positive).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol

import msgspec

from sim.config import MnConfig
from sim.dice import Dice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.state.mn import (
    TREATY_KINDS,
    Ambassador,
    City,
    Cut,
    Embassy,
    Import,
    Invasion,
    Mission,
    MnWorld,
    Nation,
    Obligation,
    RaisedArmy,
    ScriptedEvent,
    Treaty,
    TreatyKind,
    War,
)

SYSTEM = "mn"

# ---- numbers of the seed (not configurable: they are the rules) ---------------------------------
MISSION_FEE_PO = 30  # MN-MIS-02
THRESHOLDS: dict[str, int] = {"commercial": 60, "alliance": 40, "pact": 20}  # MN-TEST-02
WARM_MARGIN = 20  # MN-OUT-01
BLUNDER_MARGIN = 20  # MN-OUT-04
BLUNDER_RANSOM_PO = 10  # MN-OUT-04
DISASTER_FACE = 96  # MN-OUT-05 (96–00)
DISASTER_RF = 10  # MN-OUT-05
ALLIANCE_BREAK_RF = 5  # MN-TRE-04
PACT_BREAK_WAR_RF = 20  # MN-TRE-08
PACT_BREAK_PEACE_RF = 15  # MN-TRE-08
INVADED_MOD = -10  # MN-MOD-02
REPULSE_4Y_MOD = -10  # MN-MOD-03
REPULSE_1Y_MOD = -20  # MN-MOD-04
ENEMY_REPULSE_MOD = 10  # MN-MOD-05
RENEWAL_MOD = 20  # MN-MOD-06
INTERFERENCE_DIE = 20  # MN-INT-01

Band = Literal["disaster", "blunder", "failure", "very_warm", "limited"]
BANDS: tuple[Band, ...] = ("disaster", "blunder", "failure", "very_warm", "limited")
BAND_CLAUSES: dict[str, tuple[str, ...]] = {
    "disaster": ("MN-OUT-05",),
    "blunder": ("MN-OUT-04",),
    "failure": ("MN-OUT-03",),
    "very_warm": ("MN-OUT-01",),
    "limited": ("MN-OUT-02",),
}
TREATY_NAMES = {
    "en": {"commercial": "commercial agreement", "alliance": "military alliance", "pact": "eternal friendship pact"},
    "fr": {"commercial": "accord commercial", "alliance": "alliance militaire", "pact": "pacte d'amitié éternel"},
}

# the gifts (MN-MOD-07) and ransoms (MN-HOST-01) that legal_orders offers; resolvers take any amount
GIFT_MENU = (0, 5, 10, 15, 20, 30, 40)
RANSOM_MENU = (10, 20, 40)


# ---- orders (RES-MN-17) -----------------------------------------------------------------------
class Order(msgspec.Struct, frozen=True, tag_field="order", forbid_unknown_fields=True):
    """Base of the MN orders; ``order`` names the kind in an order file."""


class Pass(Order, tag="pass", frozen=True):
    """Do nothing more in this slot."""

    slot: str = ""


class BuyAmbassador(Order, tag="buy_ambassador", frozen=True):
    """Phase (1): buy an ambassador attached to ``province`` (default: the capital's)."""

    province: str | None = None


class LaunchMission(Order, tag="launch_mission", frozen=True):
    """Phase (2): send a ``home`` ambassador to ``city`` to negotiate ``treaty``, with a gift in PO."""

    ambassador: str
    city: str
    treaty: TreatyKind
    gift: int = 0


class RenewTreaty(Order, tag="renew_treaty", frozen=True):
    """Phase (2): renewal mission of an embassy expiring this turn (RES-MN-13)."""

    embassy: int
    gift: int = 0


class Recall(Order, tag="recall", frozen=True):
    """Phase (2): recall an ``at_post`` ambassador; his embassy closes (MN-EMB-01)."""

    ambassador: str


class HostChoice(Order, tag="host_choice", frozen=True):
    """Phase (3): what the host does with an ambassador arriving at one of his cities (RES-MN-04)."""

    mission: int
    choice: Literal["accept", "dismiss", "execute", "imprison"]
    ransom: int = 0


class SignTreaty(Order, tag="sign_treaty", frozen=True):
    """Phase (3): sign a treaty with a player in contact, by mutual consent (RES-MN-04)."""

    partner: str  # nation id
    kind: Literal["commercial", "pact"]


class BreakTreaty(Order, tag="break_treaty", frozen=True):
    """Phase (4): break a treaty or pact without the co-signatory's consent."""

    treaty: int


class DeclareWar(Order, tag="declare_war", frozen=True):
    """Phase (4): declare war on a party (SC-MN-05)."""

    target: str  # party key


class RaiseArmy(Order, tag="raise_army", frozen=True):
    """Phase (4), purchase step: raise an army in the province of an allied city (MN-TRE-03)."""

    treaty: int


class HonourPact(Order, tag="honour_pact", frozen=True):
    """Phase (4): honour an eternal friendship obligation (MN-TRE-07, RES-MN-06)."""

    obligation: int


class PayRansom(Order, tag="pay_ransom", frozen=True):
    """Phase (5), Acclamation: pay an imprisoned ambassador's ransom (RES-MN-14, RES-MN-04)."""

    ambassador: str


class Interfere(Order, tag="interfere", frozen=True):
    """Phase (3), during a test: interfere (roll the d20) or not (RES-MN-16)."""

    yes: bool


class InterferenceSign(Order, tag="interference_sign", frozen=True):
    """Phase (3), after the d20: add it to (+1) or subtract it from (-1) the score (MN-INT-01)."""

    sign: Literal[1, -1]


class Consent(Order, tag="consent", frozen=True):
    """Phase (3): agree to (or refuse) a treaty a player in contact proposes."""

    agree: bool


ORDER_TYPES = (
    Pass, BuyAmbassador, LaunchMission, RenewTreaty, Recall, HostChoice, SignTreaty, BreakTreaty,
    DeclareWar, RaiseArmy, HonourPact, PayRansom, Interfere, InterferenceSign, Consent,
)


def order_label(o: object) -> str:
    """A short readable label of an order (what the ledger's decisions show)."""
    if isinstance(o, Pass):
        return "pass"
    if isinstance(o, BuyAmbassador):
        return f"buy ambassador at {o.province}" if o.province else "buy ambassador"
    if isinstance(o, LaunchMission):
        return f"mission {o.ambassador} to {o.city} ({o.treaty}, gift {o.gift})"
    if isinstance(o, RenewTreaty):
        return f"renew embassy #{o.embassy} (gift {o.gift})"
    if isinstance(o, Recall):
        return f"recall {o.ambassador}"
    if isinstance(o, HostChoice):
        return f"{o.choice} #{o.mission}" + (f" ransom {o.ransom}" if o.choice == "imprison" else "")
    if isinstance(o, SignTreaty):
        return f"propose {o.kind} to {o.partner}"
    if isinstance(o, BreakTreaty):
        return f"break treaty #{o.treaty}"
    if isinstance(o, DeclareWar):
        return f"declare war on {o.target}"
    if isinstance(o, RaiseArmy):
        return f"raise army (alliance #{o.treaty})"
    if isinstance(o, HonourPact):
        return f"honour obligation #{o.obligation}"
    if isinstance(o, PayRansom):
        return f"pay ransom of {o.ambassador}"
    if isinstance(o, Interfere):
        return "interfere" if o.yes else "abstain"
    if isinstance(o, InterferenceSign):
        return "+" if o.sign > 0 else "-"
    if isinstance(o, Consent):
        return "agree" if o.agree else "refuse"
    return str(o)


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
    lo, hi = sorted((a, b))
    return any(w.a == lo and w.b == hi for w in mn.wars)


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
    return party in (nkey(t.nation), t.partner)


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


def _nation(mn: MnWorld, nation: str) -> Nation:
    n = mn.nations.get(nation)
    if n is None:
        raise InvalidOrderError(f"unknown nation {nation!r}")
    return n


def _emit(ledger: Ledger, kind: str, actor: str, clauses: Iterable[str], **kw: Any) -> None:
    ledger.emit(SYSTEM, kind, actor, clauses, **kw)


def _pay(mn: MnWorld, nation: str, amount: int, clause: str, what: str, order: object = None) -> None:
    n = mn.nations[nation]
    if amount < 0:
        raise InvalidOrderError(f"{what}: a negative amount ({amount} PO)")
    if n.treasury < amount:
        raise IllegalOrderError(
            clause, f"{what} costs {amount} PO but the treasury holds {n.treasury} PO (RES-MN-17: never below 0)",
            order=order, actor=nkey(nation),
        )
    n.treasury -= amount


# ---- ambassadors' movements ---------------------------------------------------------------------
def send_home(mn: MnWorld, cfg: MnConfig, ledger: Ledger, amb: Ambassador, from_province: str, clauses: Sequence[str], why: str) -> None:
    """The ambassador travels back to his home province (RES-MN-02); home at once if 0 turns."""
    turns = travel_turns(mn, cfg, from_province, amb.home_province)
    amb.mission = None
    amb.city = None
    amb.since = mn.turn
    if turns == 0:
        amb.state = "home"
        amb.returns_turn = None
    else:
        amb.state = "travelling"
        amb.returns_turn = mn.turn + turns
    _emit(
        ledger, "AmbassadorSentHome", f"ambassador:{amb.id}", ("RES-MN-02", *clauses), outcome=amb.state,
        why=why, nation=amb.nation, home=amb.home_province, returns_turn=amb.returns_turn or mn.turn, travel_turns=turns,
    )


def return_if_due(mn: MnWorld, amb: Ambassador, ledger: Ledger) -> bool:
    """Phase (2): an ambassador whose return trip ends this turn is ``home`` again (RES-MN-02)."""
    if amb.state != "travelling" or amb.mission is not None or amb.returns_turn is None or amb.returns_turn > mn.turn:
        return False
    amb.state = "home"
    amb.returns_turn = None
    amb.since = mn.turn
    _emit(ledger, "AmbassadorReturned", f"ambassador:{amb.id}", ("RES-MN-02", "MN-OUT-03"), outcome="home",
          nation=amb.nation, home=amb.home_province)
    return True


def advance_travel(mn: MnWorld, ledger: Ledger) -> list[Ambassador]:
    """Phase (2) for every ambassador (RES-MN-02)."""
    return [a for a in list(mn.ambassadors.values()) if return_if_due(mn, a, ledger)]


# ---- treaties, embassies, imports ---------------------------------------------------------------
def _import_side(mn: MnWorld, t: Treaty) -> tuple[str, str]:
    """(the nation's province in the agreement, the partner's province) (RES-MN-05)."""
    mine = t.origin or party_home_province(mn, nkey(t.nation))
    return mine, party_home_province(mn, t.partner)


def refresh_imports(mn: MnWorld, ledger: Ledger, clauses: Sequence[str] = ("RES-MN-05",)) -> None:
    """Recompute every importable set from the commercial agreements in force (RES-MN-05); each change
    is an ``ImportsChanged`` event."""
    want: dict[str, list[Import]] = {nkey(n): [] for n in mn.nations}
    want.update({ckey(c): [] for c in mn.cities})
    for t in sorted(mn.treaties, key=lambda t: t.id):
        if t.kind != "commercial":
            continue
        mine, theirs = _import_side(mn, t)
        for r in mn.provinces[theirs].resources:
            want[nkey(t.nation)].append(Import(r, mine, theirs, t.id))
        for r in mn.provinces[mine].resources:
            want[t.partner].append(Import(r, theirs, mine, t.id))
    for party in sorted(want):
        kind, ident = split_party(party)
        holder: Nation | City = mn.nations[ident] if kind == "nation" else mn.cities[ident]
        new = want[party]
        if new != holder.imports:
            before = sorted({i.resource for i in holder.imports})
            after = sorted({i.resource for i in new})
            holder.imports = new
            if before != after:
                _emit(ledger, "ImportsChanged", party, clauses, outcome="changed",
                      added=[r for r in after if r not in before], removed=[r for r in before if r not in after],
                      importable=after)


def produced(mn: MnWorld, nation: str) -> set[str]:
    return {r for p in mn.nations[nation].provinces for r in mn.provinces[p].resources}


def importable(mn: MnWorld, nation: str) -> set[str]:
    return {i.resource for i in mn.nations[nation].imports}


def end_treaty(mn: MnWorld, ledger: Ledger, t: Treaty, reason: str, clauses: Sequence[str], *, refresh: bool = True) -> None:
    if t not in mn.treaties:
        return
    mn.treaties.remove(t)
    if reason == "expired":
        mn.stats.treaties_expired += 1
    elif reason == "broken":
        mn.stats.treaties_broken += 1
    else:
        mn.stats.treaties_ended += 1
    for ob in mn.obligations:
        if ob.pact == t.id and ob.status == "open":
            ob.status = "lapsed"
    _emit(ledger, "TreatyEnded", nkey(t.nation), clauses, outcome=reason, treaty=t.id, type=t.kind, partner=t.partner,
          signed_turn=t.signed_turn)
    if refresh and t.kind == "commercial":
        refresh_imports(mn, ledger, ("RES-MN-05", *clauses))


def end_treaties_between(mn: MnWorld, ledger: Ledger, a: str, b: str, reason: str, clauses: Sequence[str]) -> list[Treaty]:
    ended = [t for t in sorted(mn.treaties, key=lambda t: t.id) if treaty_between(t, a, b)]
    for t in ended:
        end_treaty(mn, ledger, t, reason, clauses, refresh=False)
    if any(t.kind == "commercial" for t in ended):
        refresh_imports(mn, ledger, ("RES-MN-05", *clauses))
    return ended


def close_embassy(mn: MnWorld, cfg: MnConfig, ledger: Ledger, e: Embassy, reason: str, clauses: Sequence[str]) -> None:
    """Close an embassy: its ambassador travels home, and (MN-EMB-01) every treaty the nation has
    with that city's party ends at once."""
    if e not in mn.embassies:
        return
    mn.embassies.remove(e)
    mn.stats.embassies_closed += 1
    for m in [m for m in mn.missions if m.renewal_of == e.id]:
        mn.missions.remove(m)
        mn.ambassadors[m.ambassador].mission = None
        _emit(ledger, "MissionAborted", f"ambassador:{m.ambassador}", clauses, outcome="embassy closed", mission=m.id, city=m.city)
    _emit(ledger, "EmbassyClosed", nkey(e.nation), ("MN-EMB-01", *clauses), outcome=reason, embassy=e.id,
          city=e.city, ambassador=e.ambassador, installed_turn=e.installed_turn)
    end_treaties_between(mn, ledger, nkey(e.nation), party_of_city(mn, e.city), "embassy closed", ("MN-EMB-01", *clauses))
    amb = mn.ambassadors[e.ambassador]
    if amb.state == "at_post":
        send_home(mn, cfg, ledger, amb, mn.cities[e.city].province, ("MN-EMB-01", *clauses), reason)


def install_embassy(mn: MnWorld, ledger: Ledger, amb: Ambassador, city: str, last_turn: int | None, clauses: Sequence[str]) -> Embassy:
    e = Embassy(mn.new_id(), amb.nation, amb.id, city, mn.turn, last_turn)
    mn.embassies.append(e)
    amb.state = "at_post"
    amb.city = city
    amb.mission = None
    amb.returns_turn = None
    amb.since = mn.turn
    mn.stats.embassies_installed += 1
    _emit(ledger, "EmbassyInstalled", f"ambassador:{amb.id}", clauses, outcome="permanent" if last_turn is None else "limited",
          embassy=e.id, nation=amb.nation, city=city, last_turn=last_turn)
    return e


def sign_treaty(
    mn: MnWorld, ledger: Ledger, kind: TreatyKind, nation: str, partner: str, last_turn: int | None,
    clauses: Sequence[str], *, via: Ambassador | None = None, embassy: Embassy | None = None,
) -> Treaty:
    t = Treaty(
        mn.new_id(), kind, nation, partner, mn.turn, last_turn,
        via=via.id if via else None, origin=via.home_province if via else None, embassy=embassy.id if embassy else None,
    )
    mn.treaties.append(t)
    mn.stats.treaties_signed += 1
    _emit(ledger, "TreatySigned", nkey(nation), ("MN-TRE-01", *clauses), outcome="permanent" if last_turn is None else "limited",
          treaty=t.id, type=kind, partner=partner, last_turn=last_turn, via=t.via)
    if kind == "commercial":
        refresh_imports(mn, ledger, ("MN-TRE-02", "RES-MN-05"))
    return t


# ---- buying and sending ambassadors ---------------------------------------------------------------
def resolve_buy(mn: MnWorld, nation: str, order: BuyAmbassador, ledger: Ledger, cfg: MnConfig) -> Ambassador:
    """Phase (1): buy an ambassador (RES-MN-01) for ``cfg.ambassador_cost`` PO."""
    n = _nation(mn, nation)
    province = order.province or mn.cities[n.capital].province
    if province not in n.provinces:
        raise IllegalOrderError("RES-MN-01", f"{province!r} is not a province of {nation}", order=order, actor=nkey(nation))
    _pay(mn, nation, cfg.ambassador_cost, "RES-MN-01", "an ambassador", order)
    n.bought += 1
    amb = Ambassador(f"{nation}-{n.bought}", nation, province, n.bought, since=mn.turn)
    mn.ambassadors[amb.id] = amb
    mn.stats.ambassadors_bought += 1
    _emit(ledger, "AmbassadorBought", nkey(nation), ("RES-MN-01", "MN-MIS-02", "SC-MN-03"), outcome=amb.id,
          total=cfg.ambassador_cost, cost=cfg.ambassador_cost, province=province, treasury=n.treasury)
    return amb


def launch_problem(mn: MnWorld, cfg: MnConfig, nation: str, order: LaunchMission) -> tuple[str, str] | None:
    """Why a mission cannot be launched, as (clause, reason), or None (RES-MN-17)."""
    n = mn.nations[nation]
    amb = mn.ambassadors.get(order.ambassador)
    if amb is None or amb.nation != nation:
        return "RES-MN-01", f"{order.ambassador!r} is not an ambassador of {nation}"
    if amb.state != "home":
        return "RES-MN-01", f"ambassador {amb.id} is {amb.state}, not home"
    city = mn.cities.get(order.city)
    if city is None:
        return "MN-MIS-01", f"no city {order.city!r}"
    if city.controller == nation:
        return "MN-MIS-01", f"{order.city} is {nation}'s own city"
    if order.treaty not in TREATY_KINDS:
        return "MN-TRE-01", f"no treaty type {order.treaty!r}"
    if city.controller is not None and order.treaty == "alliance":
        return "MN-TRE-03", "a military alliance exists only with an uncontrolled city"
    if order.gift < 0:
        return "MN-MOD-07", "a negative gift"
    cut = relations_cut(mn, nkey(nation), party_of_city(mn, order.city))
    if cut is not None:
        return "RES-MN-07", f"relations with {party_of_city(mn, order.city)} are cut through turn {cut.through_turn}"
    if order.treaty == "pact" and (pact_of(mn, nation) is not None or pact_pending(mn, nation)):
        return "MN-TRE-06", f"{nation} already has an eternal friendship pact (or one under negotiation)"
    if n.treasury < MISSION_FEE_PO + order.gift:
        return "MN-MIS-02", f"the mission costs {MISSION_FEE_PO} PO + gift {order.gift} PO; the treasury holds {n.treasury} PO"
    return None


def resolve_launch(mn: MnWorld, nation: str, order: LaunchMission, ledger: Ledger, cfg: MnConfig) -> Mission:
    """Phase (2): pay the 30 PO fee and the gift at once (MN-MIS-02, RES-MN-12) and start the trip (RES-MN-02)."""
    _nation(mn, nation)
    why = launch_problem(mn, cfg, nation, order)
    if why:
        raise IllegalOrderError(why[0], why[1], order=order, actor=nkey(nation))
    amb = mn.ambassadors[order.ambassador]
    city = mn.cities[order.city]
    _pay(mn, nation, MISSION_FEE_PO + order.gift, "MN-MIS-02", "the mission", order)
    turns = travel_turns(mn, cfg, amb.home_province, city.province)
    m = Mission(mn.new_id(), amb.id, nation, amb.home_province, city.id, order.treaty, order.gift, mn.turn, mn.turn + turns)
    mn.missions.append(m)
    amb.state = "travelling"
    amb.mission = m.id
    amb.city = city.id
    amb.since = mn.turn
    mn.stats.missions += 1
    _emit(ledger, "MissionLaunched", f"ambassador:{amb.id}", ("MN-MIS-02", "RES-MN-02", "RES-MN-12", "RES-MN-17"),
          outcome=order.treaty, total=MISSION_FEE_PO + order.gift, mission=m.id, nation=nation, city=city.id,
          treaty=order.treaty, fee=MISSION_FEE_PO, gift=order.gift, arrival_turn=m.arrival_turn, travel_turns=turns,
          treasury=mn.nations[nation].treasury)
    return m


def resolve_renew(mn: MnWorld, nation: str, order: RenewTreaty, ledger: Ledger, cfg: MnConfig) -> Mission:
    """Phase (2): a renewal mission in the expiry turn of a limited embassy (RES-MN-13): fee and gift,
    no travel; it is tested in this turn's diplomacy phase."""
    _nation(mn, nation)
    e = get_embassy(mn, order.embassy)
    if e is None or e.nation != nation:
        raise IllegalOrderError("RES-MN-13", f"no embassy #{order.embassy} of {nation}", order=order, actor=nkey(nation))
    if e.last_turn is None:
        raise IllegalOrderError("RES-MN-13", "a permanent embassy needs no renewal", order=order, actor=nkey(nation))
    if e.last_turn != mn.turn:
        raise IllegalOrderError("RES-MN-13", f"embassy #{e.id} expires in turn {e.last_turn}, not this turn ({mn.turn})",
                                order=order, actor=nkey(nation))
    treaty = next((t for t in mn.treaties if t.embassy == e.id), None)
    if treaty is None:
        raise IllegalOrderError("RES-MN-13", f"embassy #{e.id} holds no treaty to renew", order=order, actor=nkey(nation))
    if any(m.renewal_of == e.id for m in mn.missions):
        raise IllegalOrderError("RES-MN-13", f"embassy #{e.id} is already being renewed", order=order, actor=nkey(nation))
    cut = relations_cut(mn, nkey(nation), party_of_city(mn, e.city))
    if cut is not None:
        raise IllegalOrderError("RES-MN-07", f"relations are cut through turn {cut.through_turn}", order=order, actor=nkey(nation))
    _pay(mn, nation, MISSION_FEE_PO + order.gift, "MN-MIS-02", "the renewal mission", order)
    amb = mn.ambassadors[e.ambassador]
    m = Mission(mn.new_id(), amb.id, nation, amb.home_province, e.city, treaty.kind, order.gift, mn.turn, mn.turn, renewal_of=e.id)
    mn.missions.append(m)
    amb.mission = m.id
    mn.stats.renewals += 1
    _emit(ledger, "RenewalLaunched", f"ambassador:{amb.id}", ("RES-MN-13", "MN-MIS-02", "RES-MN-12"), outcome=treaty.kind,
          total=MISSION_FEE_PO + order.gift, mission=m.id, nation=nation, city=e.city, embassy=e.id, fee=MISSION_FEE_PO,
          gift=order.gift, treasury=mn.nations[nation].treasury)
    return m


def resolve_recall(mn: MnWorld, nation: str, order: Recall, ledger: Ledger, cfg: MnConfig) -> None:
    """Phase (2): recall an ``at_post`` ambassador: his embassy closes at once (MN-EMB-01) and he travels home."""
    amb = mn.ambassadors.get(order.ambassador)
    if amb is None or amb.nation != nation or amb.state != "at_post":
        raise IllegalOrderError("RES-MN-17", f"{order.ambassador!r} is not an at_post ambassador of {nation}", order=order,
                                actor=nkey(nation))
    if amb.mission is not None:
        # resolution: ENG-MN-05
        raise IllegalOrderError("RES-MN-01", f"{amb.id} carries a renewal mission this turn", order=order, actor=nkey(nation))
    e = embassy_of(mn, amb.id)
    _emit(ledger, "AmbassadorRecalled", f"ambassador:{amb.id}", ("RES-MN-17", "MN-EMB-01"), outcome="recalled", city=amb.city)
    if e is not None:
        close_embassy(mn, cfg, ledger, e, "recalled", ("RES-MN-17",))
    else:  # pragma: no cover - at_post always has an embassy (an invariant)
        send_home(mn, cfg, ledger, amb, mn.cities[amb.city or ""].province, ("RES-MN-17",), "recalled")


# ---- the diplomacy phase ------------------------------------------------------------------------
def arriving_missions(mn: MnWorld) -> list[Mission]:
    """Missions resolved this turn, in ascending player id (SC-MN-03 (3))."""
    def key(m: Mission) -> tuple[str, int, int]:
        return (m.nation, mn.ambassadors[m.ambassador].number, m.id)

    return sorted((m for m in mn.missions if m.arrival_turn <= mn.turn), key=key)


def needs_host(mn: MnWorld, m: Mission) -> str | None:
    """The host nation when the mission arrives at a player's city (MN-HOST-01), else None."""
    return mn.cities[m.city].controller if m.renewal_of is None else None


# resolution: ENG-MN-01
def abort_if_cut(mn: MnWorld, cfg: MnConfig, ledger: Ledger, m: Mission) -> bool:
    """A mission that arrives while relations with its target are cut goes home untried (RES-MN-07)."""
    cut = relations_cut(mn, nkey(m.nation), party_of_city(mn, m.city))
    if cut is None:
        return False
    mn.missions.remove(m)
    amb = mn.ambassadors[m.ambassador]
    _emit(ledger, "MissionAborted", f"ambassador:{amb.id}", ("RES-MN-07",), outcome="relations cut", mission=m.id, city=m.city,
          through_turn=cut.through_turn)
    if m.renewal_of is not None:
        e = get_embassy(mn, m.renewal_of)
        if e is not None:
            close_embassy(mn, cfg, ledger, e, "relations cut", ("RES-MN-07",))
            return True
    send_home(mn, cfg, ledger, amb, mn.cities[m.city].province, ("RES-MN-07",), "relations cut")
    return True


def resolve_host_choice(mn: MnWorld, host: str, order: HostChoice, ledger: Ledger, cfg: MnConfig) -> None:
    """Phase (3): a player's city receives a mission (MN-HOST-01/02, RES-MN-03/04)."""
    m = get_mission(mn, order.mission)
    if m is None or m.arrival_turn > mn.turn:
        raise IllegalOrderError("RES-MN-04", f"no mission #{order.mission} arriving this turn", order=order, actor=nkey(host))
    city = mn.cities[m.city]
    if city.controller != host or m.renewal_of is not None:
        raise IllegalOrderError("MN-HOST-01", f"{host} does not control {m.city}", order=order, actor=nkey(host))
    if order.choice == "imprison" and order.ransom < 0:
        raise InvalidOrderError("a negative ransom")
    amb = mn.ambassadors[m.ambassador]
    mn.missions.remove(m)
    clauses = ("MN-HOST-01", "RES-MN-04")
    _emit(ledger, "HostChose", nkey(host), ("MN-MIS-01", *clauses) + (("MN-HOST-02", "RES-MN-03") if order.choice == "accept" else ()),
          outcome=order.choice, mission=m.id, ambassador=amb.id, sender=m.nation, city=m.city, treaty=m.treaty,
          ransom=order.ransom if order.choice == "imprison" else 0)
    if order.choice == "accept":
        mn.stats.host_accept += 1
        install_embassy(mn, ledger, amb, city.id, None, ("MN-HOST-02", "RES-MN-04", "RES-MN-03"))
    elif order.choice == "dismiss":
        mn.stats.host_dismiss += 1
        send_home(mn, cfg, ledger, amb, city.province, clauses, "sent back by the host")
    elif order.choice == "execute":
        mn.stats.host_execute += 1
        amb.state = "dead"
        amb.mission = None
        amb.since = mn.turn
        _emit(ledger, "AmbassadorExecuted", f"ambassador:{amb.id}", clauses, outcome="dead", by=nkey(host), city=city.id)
    else:
        mn.stats.host_imprison += 1
        imprison(mn, ledger, amb, city.id, order.ransom, host, clauses)


def imprison(mn: MnWorld, ledger: Ledger, amb: Ambassador, city: str, ransom: int, to: str | None, clauses: Sequence[str]) -> None:
    amb.state = "imprisoned"
    amb.city = city
    amb.mission = None
    amb.ransom = ransom
    amb.ransom_to = to
    amb.since = mn.turn
    _emit(ledger, "AmbassadorImprisoned", f"ambassador:{amb.id}", clauses, outcome="imprisoned", city=city, ransom=ransom,
          ransom_to=to)


@dataclass(frozen=True)
class Modifier:
    """One modifier of the diplomacy test, with the sign of RULES.md (favourable positive)."""

    name: str
    clause: str
    value: int


def test_modifiers(mn: MnWorld, cfg: MnConfig, nation: str, home_province: str, city: str, gift: int,
                   renewal_of: int | None = None) -> list[Modifier]:
    """The listed modifiers of MN-MOD-01…07 for an ambassador of ``home_province`` visiting ``city`` now."""
    prov = mn.provinces[mn.cities[city].province]
    people = prov.people
    t = mn.turn
    tpy = cfg.turns_per_year
    year_from = t - tpy + 1  # RES-MN-10: the last turns_per_year turns including this one
    four_from = t - 4 * tpy + 1
    me = party_of_province(mn, home_province) or nkey(nation)
    mods = [Modifier(f"racial factor RF({home_province}, {people})", "MN-MOD-01", rf(mn, home_province, people))]
    if any(
        i.attacker == home_province and not i.repelled and year_from <= i.turn <= t and mn.provinces[i.defender].people == people
        for i in mn.invasions
    ):
        mods.append(Modifier(f"{people} province invaded within the year by {home_province}", "MN-MOD-02", INVADED_MOD))
    # implements: RES-MN-10
    repulses = [i.turn for i in mn.invasions if i.repelled and i.attacker == home_province and i.defender == prov.id and i.turn <= t]
    if any(x >= year_from for x in repulses):
        mods.append(Modifier(f"{prov.id} repelled {home_province} within the year", "MN-MOD-04", REPULSE_1Y_MOD))
    elif any(x >= four_from for x in repulses):
        mods.append(Modifier(f"{prov.id} repelled {home_province} within four years", "MN-MOD-03", REPULSE_4Y_MOD))
    # implements: RES-MN-11
    if any(i.repelled and i.defender == prov.id and year_from <= i.turn <= t and me in i.enemies for i in mn.invasions):
        mods.append(Modifier(f"{prov.id} just repelled an enemy of {home_province}", "MN-MOD-05", ENEMY_REPULSE_MOD))
    # implements: RES-MN-18
    if renewal_of is not None:
        e = get_embassy(mn, renewal_of)
        if e is not None and t - e.installed_turn >= 2 * tpy:
            mods.append(Modifier(f"renewal of an embassy installed in turn {e.installed_turn}", "MN-MOD-06", RENEWAL_MOD))
    if gift:
        mods.append(Modifier(f"gift of {gift} PO", "MN-MOD-07", gift))
    return mods


def outcome_band(natural: int, score: int, threshold: int) -> tuple[Band, int]:
    """RES-MN-15: the first band that matches, and the treaty's duration in turns for ``limited``."""
    # implements: MN-OUT-05
    if natural >= DISASTER_FACE:
        return "disaster", 0
    if score - threshold >= BLUNDER_MARGIN:
        return "blunder", 0
    if score >= threshold:
        return "failure", 0
    margin = threshold - score
    if margin >= WARM_MARGIN:
        return "very_warm", 0
    return "limited", -(-margin // 5)  # MN-OUT-02: rounded up


def band_probabilities(threshold: int, favourable: int) -> dict[tuple[Band, int], Fraction]:
    """Exact odds of each (band, duration) on the d100 alone, for a favourable modifier total."""
    out: dict[tuple[Band, int], Fraction] = {}
    for nat in range(1, 101):
        k = outcome_band(nat, nat - favourable, threshold)
        out[k] = out.get(k, Fraction(0)) + Fraction(1, 100)
    return out


def roll_test(dice: Dice, threshold: int, favourable: int, interference: Sequence[int | None] = ()) -> tuple[Band, int, int, list[int]]:
    """The bare test: d100, then one d20 per interfering nation (``sign`` +1/−1; None abstains),
    none on a natural 96–00 (RES-MN-16). Returns (band, duration, score, d20s)."""
    # implements: GEN-04
    nat = dice.roll(100)[0]
    score = nat - favourable
    d20s: list[int] = []
    if nat < DISASTER_FACE:
        for sign in interference:
            if sign is None:
                continue
            d = dice.roll(INTERFERENCE_DIE)[0]
            d20s.append(d)
            score += sign * d
    band, dur = outcome_band(nat, score, threshold)
    return band, dur, score, d20s


@dataclass
class InterferenceContext:
    """What an interfering nation knows when it decides (RES-MN-16)."""

    mission: Mission
    threshold: int
    natural: int
    score: int  # the score so far (earlier interference included)
    earlier: list[tuple[str, int, int]] = field(default_factory=list)  # (nation, d20, sign)


class InterferenceChooser(Protocol):
    def interfere(self, nation: str, ctx: InterferenceContext) -> bool: ...

    def sign(self, nation: str, ctx: InterferenceContext, d20: int) -> int: ...


class NoInterference:
    def interfere(self, nation: str, ctx: InterferenceContext) -> bool:
        return False

    def sign(self, nation: str, ctx: InterferenceContext, d20: int) -> int:  # pragma: no cover - never asked
        return 1


class ScriptedInterference:
    """Fixed choices, for tests and a game master's table: ``{"p2": "+"}``; absent nations abstain."""

    def __init__(self, signs: dict[str, str]) -> None:
        self.signs = signs

    def interfere(self, nation: str, ctx: InterferenceContext) -> bool:
        return nation in self.signs

    def sign(self, nation: str, ctx: InterferenceContext, d20: int) -> int:
        return 1 if self.signs[nation] == "+" else -1


@dataclass
class TestResult:
    band: Band
    duration: int
    natural: int
    score: int
    threshold: int
    modifiers: list[Modifier]
    interference: list[tuple[str, int, int]]  # (nation, d20, sign)
    treaty: Treaty | None = None


def resolve_test(mn: MnWorld, m: Mission, dice: Dice, ledger: Ledger, cfg: MnConfig,
                 chooser: InterferenceChooser | None = None) -> TestResult:
    """Phase (3): the diplomacy test of a mission to an uncontrolled city, or of a renewal
    (MN-TEST-01/02, MN-MOD-*, MN-OUT-*, MN-INT-*, RES-MN-08…18)."""
    chooser = chooser or NoInterference()
    if m not in mn.missions:
        raise InvalidOrderError(f"mission #{m.id} is not under way")
    city = mn.cities[m.city]
    if city.controller is not None and m.renewal_of is None:
        raise IllegalOrderError("MN-TEST-01", f"{city.id} is controlled by {city.controller}: the host chooses (MN-HOST-01)")
    amb = mn.ambassadors[m.ambassador]
    threshold = THRESHOLDS[m.treaty]
    mods = test_modifiers(mn, cfg, m.nation, m.home_province, m.city, m.gift, m.renewal_of)
    # implements: GEN-04
    favourable = sum(x.value for x in mods)
    nat = dice.roll(100)[0]
    score = nat - favourable
    inter: list[tuple[str, int, int]] = []
    if nat < DISASTER_FACE:
        for other in posted_nations(mn, m.city):
            if other == m.nation:
                continue
            ctx = InterferenceContext(m, threshold, nat, score, list(inter))
            if not chooser.interfere(other, ctx):
                continue
            d = dice.roll(INTERFERENCE_DIE)[0]
            sign = 1 if chooser.sign(other, ctx, d) > 0 else -1
            score += sign * d
            inter.append((other, d, sign))
            mn.stats.interferences += 1
            _emit(ledger, "InterferenceRolled", nkey(other), ("MN-INT-01", "MN-MOD-08", "RES-MN-16") + (("MN-INT-02",) if d == 20 else ()),
                  dice=[(20, d)], total=sign * d, outcome="plot discovered" if d == 20 else ("+" if sign > 0 else "-"),
                  mission=m.id, city=m.city, against=m.nation, sign="+" if sign > 0 else "-", score_after=score,
                  ambassador=meddler(mn, other, m.city).ambassador)
    band, dur = outcome_band(nat, score, threshold)
    mn.stats.tests += 1
    score_mods = [(f"{x.name} ({x.clause})", -x.value) for x in mods] + [
        (f"interference by nation:{n} ({'+' if s > 0 else '-'}d20, MN-MOD-08)", s * d) for n, d, s in inter
    ]
    clauses = ["MN-TEST-01", "MN-TEST-02", "RES-MN-08", "RES-MN-15", *sorted({x.clause for x in mods}), *BAND_CLAUSES[band]]
    if m.renewal_of is not None:
        clauses += ["RES-MN-13", "RES-MN-18"]
    _emit(ledger, "DiplomacyTestRolled", f"ambassador:{amb.id}", clauses, dc=threshold, mods=score_mods, dice=[(100, nat)],
          total=score, outcome=band, mission=m.id, nation=m.nation, city=m.city, treaty=m.treaty, natural=nat,
          modifiers=[[x.name, x.clause, x.value] for x in mods], interference=[[n, d, s] for n, d, s in inter],
          duration=dur, renewal=m.renewal_of is not None, gift=m.gift)
    result = TestResult(band, dur, nat, score, threshold, mods, inter)
    mn.missions.remove(m)
    _apply_band(mn, cfg, ledger, m, amb, result)
    for other, d, _ in inter:
        if d == 20:
            expel_meddler(mn, cfg, ledger, other, m.city)
    return result


_BAND_STAT = {"very_warm": "very_warm", "limited": "limited", "failure": "failures", "blunder": "blunders", "disaster": "disasters"}


def _apply_band(mn: MnWorld, cfg: MnConfig, ledger: Ledger, m: Mission, amb: Ambassador, r: TestResult) -> None:
    city = mn.cities[m.city]
    party = party_of_city(mn, city.id)
    clauses = BAND_CLAUSES[r.band]
    renewing = get_embassy(mn, m.renewal_of) if m.renewal_of is not None else None
    stat = _BAND_STAT[r.band]
    setattr(mn.stats, stat, getattr(mn.stats, stat) + 1)
    if r.band in ("very_warm", "limited"):
        last = None if r.band == "very_warm" else mn.turn + r.duration  # SC-MN-04
        if renewing is not None:
            renewing.last_turn = last
            t = next((t for t in mn.treaties if t.embassy == renewing.id), None)
            if t is not None:
                t.last_turn = last
                t.renewed_turn = mn.turn
                r.treaty = t
            amb.mission = None
            _emit(ledger, "TreatyRenewed", nkey(m.nation), ("RES-MN-13", *clauses), outcome="permanent" if last is None else "limited",
                  treaty=t.id if t else None, embassy=renewing.id, last_turn=last, city=city.id)
            return
        e = install_embassy(mn, ledger, amb, city.id, last, (*clauses, "RES-MN-13"))
        r.treaty = sign_treaty(mn, ledger, m.treaty, m.nation, party, last, (*clauses, "SC-MN-04"), via=amb, embassy=e)
        return
    if r.band == "failure":
        send_home(mn, cfg, ledger, amb, city.province, clauses, "dismissed")
    elif r.band == "blunder":
        imprison(mn, ledger, amb, city.id, BLUNDER_RANSOM_PO, None, (*clauses, "RES-MN-14"))
    else:
        amb.state = "dead"
        amb.mission = None
        amb.city = city.id
        amb.since = mn.turn
        people = mn.provinces[city.province].people
        before, after = change_rf(mn, amb.home_province, people, -DISASTER_RF)
        _emit(ledger, "AmbassadorExecuted", f"ambassador:{amb.id}", (*clauses, "RES-MN-09"), outcome="dead", by=ckey(city.id),
              city=city.id, rf_province=amb.home_province, people=people, rf_before=before, rf_after=after)
    if renewing is not None:  # a failed renewal: the embassy closes now (MN-EMB-01)
        close_embassy(mn, cfg, ledger, renewing, "renewal failed", ("RES-MN-13", *clauses))


def meddler(mn: MnWorld, nation: str, city: str) -> Embassy:
    """The embassy of ``nation`` in ``city`` whose ambassador interferes (RES-MN-16): its only one, or
    — when it has several there — the oldest (lowest id)."""
    # resolution: ENG-MN-03
    return min((e for e in mn.embassies if e.nation == nation and e.city == city), key=lambda e: e.id)


def expel_meddler(mn: MnWorld, cfg: MnConfig, ledger: Ledger, nation: str, city: str) -> None:
    """MN-INT-02 / RES-MN-16: the plot is discovered; the meddling ambassador is expelled and his
    embassy closes — which ends every treaty the nation has with that province (MN-EMB-01). The
    nation's other ambassadors in the city, if any, stay at their posts."""
    mn.stats.plots_discovered += 1
    e = meddler(mn, nation, city)
    _emit(ledger, "AmbassadorExpelled", nkey(nation), ("MN-INT-02", "RES-MN-16", "MN-EMB-01"), outcome="expelled", city=city,
          ambassador=e.ambassador)
    close_embassy(mn, cfg, ledger, e, "expelled", ("MN-INT-02", "RES-MN-16"))


def sign_problem(mn: MnWorld, nation: str, partner: str, kind: str) -> tuple[str, str] | None:
    """Why two players cannot sign ``kind`` now (RES-MN-03/04, MN-TRE-06, RES-MN-07), or None."""
    if partner == nation or partner not in mn.nations:
        return "RES-MN-04", f"no other player {partner!r}"
    if kind not in ("commercial", "pact"):
        return "MN-TRE-03", "between two players only a commercial agreement or an eternal friendship pact"
    if not in_contact(mn, nation, partner):
        return "MN-MIS-03", f"{nation} and {partner} are not in contact (RES-MN-03)"
    if relations_cut(mn, nkey(nation), nkey(partner)):
        return "RES-MN-07", "relations are cut"
    # resolution: ENG-MN-06
    if any(t.kind == kind and treaty_between(t, nkey(nation), nkey(partner)) for t in mn.treaties):
        return "MN-TRE-01", f"a {kind} treaty between them is already in force"
    if kind == "pact":
        for n in (nation, partner):
            if pact_of(mn, n) is not None or pact_pending(mn, n):
                return "MN-TRE-06", f"{n} already has an eternal friendship pact (or one under negotiation)"
    return None


def resolve_sign(mn: MnWorld, nation: str, order: SignTreaty, ledger: Ledger, cfg: MnConfig, *, consent: bool = True) -> Treaty | None:
    """Phase (3): two players in contact sign a treaty by mutual consent, without a test (RES-MN-04)."""
    _nation(mn, nation)
    why = sign_problem(mn, nation, order.partner, order.kind)
    if why:
        raise IllegalOrderError(why[0], why[1], order=order, actor=nkey(nation))
    _emit(ledger, "TreatyProposed", nkey(nation), ("MN-HOST-02", "RES-MN-04", "RES-MN-03"), outcome="agreed" if consent else "refused",
          partner=order.partner, type=order.kind)
    if not consent:
        return None
    clauses = ("MN-HOST-02", "RES-MN-04", "MN-TRE-02" if order.kind == "commercial" else "MN-TRE-05")
    return sign_treaty(mn, ledger, order.kind, nation, nkey(order.partner), None, clauses)


# ---- the military phase: wars, breaks, armies, pacts -------------------------------------------------
def record_invasion(mn: MnWorld, ledger: Ledger, attacker: str, defender: str, repelled: bool, *, source: str = "scenario",
                    clauses: Sequence[str] = ()) -> Invasion:
    """SEAM (SC-MN-07, LINK-07): enter an invasion (``repelled`` False) or a repulse in the log that
    MN-MOD-02…05 read. Standalone MN calls it for scenario events; the GW link calls it for attacks."""
    # implements: RES-MN-10
    for p in (attacker, defender):
        if p not in mn.provinces:
            raise InvalidOrderError(f"unknown province {p!r}")
    ap = party_of_province(mn, attacker)
    inv = Invasion(mn.turn, attacker, defender, repelled, ap, party_of_province(mn, defender), enemies_of(mn, ap) if ap else [], source)
    mn.invasions.append(inv)
    if repelled:
        mn.stats.repulses += 1
    else:
        mn.stats.invasions += 1
    _emit(ledger, "RepulseRecorded" if repelled else "InvasionRecorded", ap or "world", ("SC-MN-07", "SC-MN-02", *clauses),
          outcome="repelled" if repelled else "invaded", attacker=attacker, defender=defender, attacker_party=ap,
          enemies=list(inv.enemies), source=source)
    return inv


ArmyHook = Callable[[MnWorld, RaisedArmy], str | None]
_army_hook: ArmyHook | None = None


def set_army_hook(hook: ArmyHook | None) -> None:
    """LINK-06 seam, module-wide (shared by every model of the process): a hook that deploys a real GW
    army for each army raised here and returns its id. Campaigns do not use it: their MN driver
    passes its own hook to :func:`raise_army` (``hook=``), so two models never share one."""
    global _army_hook
    _army_hook = hook


# resolution: ENG-MN-02
def raise_army(mn: MnWorld, ledger: Ledger, nation: str, province: str, reason: Literal["alliance", "pact"], *,
               treaty: int | None = None, obligation: int | None = None, clauses: Sequence[str] = (),
               hook: ArmyHook | None = None) -> RaisedArmy:
    """SEAM (SC-MN-03 (4), SC-MN-10, LINK-06): raise an army for a nation in a province, recorded in
    the purchase step of the military phase. Army prices are not in the sources (SC-MN-10): no cost.

    ``hook`` (LINK-06, per model: the MN driver passes the one of its campaign when GW is enabled)
    is called once the army is recorded and returns the GW army it became; without it the
    module-wide hook of :func:`set_army_hook`, if any, is used."""
    army = RaisedArmy(mn.new_id(), nation, province, mn.turn, reason, treaty, obligation)
    mn.armies.append(army)
    mn.stats.armies_raised += 1
    _emit(ledger, "ArmyRaised", nkey(nation), ("SC-MN-10", "SC-MN-03", *clauses), outcome=reason, army=army.id, province=province,
          treaty=treaty, obligation=obligation)
    link = hook if hook is not None else _army_hook
    if link is not None:
        army.gw_army = link(mn, army)
    return army


def resolve_raise_army(mn: MnWorld, nation: str, order: RaiseArmy, ledger: Ledger, cfg: MnConfig, *,
                       hook: ArmyHook | None = None) -> RaisedArmy:
    """MN-TRE-03: with a military alliance in force, raise an army in the allied city's province."""
    t = get_treaty(mn, order.treaty)
    if t is None or t.kind != "alliance" or t.nation != nation:
        raise IllegalOrderError("MN-TRE-03", f"{nation} has no military alliance #{order.treaty}", order=order, actor=nkey(nation))
    province = party_home_province(mn, t.partner)
    return raise_army(mn, ledger, nation, province, "alliance", treaty=t.id, clauses=("MN-TRE-03",), hook=hook)


def _obligations_for_war(mn: MnWorld, cfg: MnConfig, ledger: Ledger, by: str, on: str) -> list[Obligation]:
    """MN-TRE-05: every player with a pact with either side of a new war must intervene."""
    out = []
    for t in sorted(mn.treaties, key=lambda t: t.id):
        if t.kind != "pact":
            continue
        for ally in treaty_sides(t):
            if ally not in (by, on):
                continue
            friend = other_side(t, ally)
            kind, fid = split_party(friend)
            if kind != "nation" or friend in (by, on):
                continue
            aggressor = on if ally == by else by
            ob = Obligation(mn.new_id(), fid, t.id, ally, aggressor, mn.turn, mn.turn + cfg.pact_response_turns)
            mn.obligations.append(ob)
            out.append(ob)
            _emit(ledger, "PactObligationArose", friend, ("MN-TRE-05", "MN-TRE-07", "RES-MN-06"), outcome="open", obligation=ob.id,
                  pact=t.id, ally=ally, aggressor=aggressor, deadline_turn=ob.deadline_turn,
                  province=nearest_province(mn, cfg, fid, ally))
    return out


def resolve_declare_war(mn: MnWorld, by: str, order: DeclareWar, ledger: Ledger, cfg: MnConfig, *, source: str = "order") -> list[Obligation]:
    """SC-MN-05: declare war. A nation's permanent embassies end (MN-OUT-01) in cities whose people is
    a people of the target; eternal friends must intervene (MN-TRE-05)."""
    on = order.target
    if not party_exists(mn, by) or not party_exists(mn, on):
        raise InvalidOrderError(f"unknown party in a war between {by!r} and {on!r}")
    if by == on:
        raise IllegalOrderError("SC-MN-05", "a party cannot declare war on itself", order=order, actor=by)
    if at_war(mn, by, on):
        raise IllegalOrderError("SC-MN-05", f"{by} and {on} are already at war", order=order, actor=by)
    lo, hi = sorted((by, on))
    mn.wars.append(War(lo, hi, mn.turn))
    mn.stats.wars_declared += 1
    _emit(ledger, "WarDeclared", by, ("SC-MN-05", "SC-MN-02"), outcome="war", target=on, source=source)
    if split_party(by)[0] == "nation":
        nation = split_party(by)[1]
        peoples = party_peoples(mn, on)
        for e in sorted(mn.embassies, key=lambda e: e.id):
            if e.nation == nation and e.last_turn is None and mn.provinces[mn.cities[e.city].province].people in peoples:
                close_embassy(mn, cfg, ledger, e, "war declared", ("MN-OUT-01", "SC-MN-05"))
    return _obligations_for_war(mn, cfg, ledger, by, on)


def make_peace(mn: MnWorld, a: str, b: str, ledger: Ledger, *, source: str = "scenario") -> None:
    """Peace between two parties (SC-MN-02); obligations arising from their war lapse."""
    lo, hi = sorted((a, b))
    before = len(mn.wars)
    mn.wars = [w for w in mn.wars if not (w.a == lo and w.b == hi)]
    if len(mn.wars) == before:
        raise IllegalOrderError("SC-MN-02", f"{a} and {b} are not at war")
    for ob in mn.obligations:
        if ob.status == "open" and {ob.ally, ob.aggressor} == {a, b}:
            ob.status = "lapsed"
    _emit(ledger, "PeaceMade", a, ("SC-MN-02",), outcome="peace", target=b, source=source)


def sever_relations(mn: MnWorld, cfg: MnConfig, ledger: Ledger, nation: str, party: str, clauses: Sequence[str]) -> None:
    """MN-TRE-07: as if directly at war: treaties end, the nation's ambassadors in the party's cities are recalled."""
    me = nkey(nation)
    end_treaties_between(mn, ledger, me, party, "relations severed", clauses)
    cities = set(party_cities(mn, party))
    for e in sorted(mn.embassies, key=lambda e: e.id):
        if e.nation == nation and e.city in cities:
            close_embassy(mn, cfg, ledger, e, "recalled", clauses)
    if not at_war(mn, me, party):
        lo, hi = sorted((me, party))
        # resolution: ENG-MN-04
        mn.wars.append(War(lo, hi, mn.turn, by_pact=True))


def resolve_honour(mn: MnWorld, nation: str, order: HonourPact, ledger: Ledger, cfg: MnConfig, *,
                   hook: ArmyHook | None = None) -> RaisedArmy:
    """MN-TRE-07 / RES-MN-06: raise an army in the province nearest the ally and break with the aggressor."""
    ob = next((o for o in mn.obligations if o.id == order.obligation), None)
    if ob is None or ob.nation != nation or ob.status != "open":
        raise IllegalOrderError("RES-MN-06", f"{nation} has no open obligation #{order.obligation}", order=order, actor=nkey(nation))
    province = nearest_province(mn, cfg, nation, ob.ally)
    army = raise_army(mn, ledger, nation, province, "pact", treaty=ob.pact, obligation=ob.id, clauses=("MN-TRE-07", "RES-MN-06"),
                      hook=hook)
    ob.status = "honoured"
    mn.stats.pacts_honoured += 1
    _emit(ledger, "PactHonoured", nkey(nation), ("MN-TRE-05", "MN-TRE-07", "RES-MN-06"), outcome="honoured", obligation=ob.id,
          ally=ob.ally, aggressor=ob.aggressor, province=province)
    sever_relations(mn, cfg, ledger, nation, ob.aggressor, ("MN-TRE-07", "RES-MN-06"))
    return army


def ally_at_war(mn: MnWorld, ally: str) -> bool:
    return any(ally in (w.a, w.b) for w in mn.wars)


def resolve_break(mn: MnWorld, nation: str, order: BreakTreaty, dice: Dice, ledger: Ledger, cfg: MnConfig, *,
                  overdue: Obligation | None = None) -> Treaty:
    """Phase (4): break a treaty without consent (MN-TRE-04, MN-TRE-08, RES-MN-07, RES-MN-09).

    ``overdue`` is an obligation not met in time (RES-MN-06): a wartime break dated now."""
    t = get_treaty(mn, order.treaty)
    me = nkey(nation)
    if t is None or not treaty_involves(t, me):
        raise IllegalOrderError("RES-MN-17", f"{nation} is party to no treaty #{order.treaty}", order=order, actor=me)
    ally = other_side(t, me)
    origin = t.origin if (t.origin and t.nation == nation) else party_home_province(mn, me)
    people = mn.provinces[party_home_province(mn, ally)].people
    if t.kind == "alliance":
        end_treaty(mn, ledger, t, "broken", ("MN-TRE-04", "RES-MN-17"))
        before, after = change_rf(mn, origin, people, -ALLIANCE_BREAK_RF)
        _emit(ledger, "TreatyBroken", me, ("MN-TRE-04", "RES-MN-09", "RES-MN-17"), outcome="alliance broken", treaty=t.id,
              partner=ally, rf_province=origin, people=people, rf_before=before, rf_after=after)
        return t
    if t.kind == "commercial":
        end_treaty(mn, ledger, t, "broken", ("RES-MN-05", "RES-MN-17"))
        _emit(ledger, "TreatyBroken", me, ("RES-MN-05", "RES-MN-17"), outcome="commercial agreement broken", treaty=t.id, partner=ally)
        return t
    wartime = overdue is not None or ally_at_war(mn, ally) or any(
        o.pact == t.id and o.nation == nation and o.status == "open" for o in mn.obligations
    )
    loss = PACT_BREAK_WAR_RF if wartime else PACT_BREAK_PEACE_RF
    for o in mn.obligations:
        if o.pact == t.id and o.status == "open":
            o.status = "broken" if o.nation == nation else "lapsed"
    end_treaty(mn, ledger, t, "broken", ("MN-TRE-08", "RES-MN-17"))
    before, after = change_rf(mn, origin, people, -loss)
    years = dice.roll(4)[0]
    n_turns = years * cfg.turns_per_year
    lo, hi = sorted((me, ally))
    cut = Cut(lo, hi, from_turn=mn.turn, through_turn=mn.turn + n_turns, years=years)
    mn.cuts.append(cut)
    if wartime:
        mn.stats.pacts_broken_war += 1
    else:
        mn.stats.pacts_broken_peace += 1
    _emit(ledger, "PactBroken", me, ("MN-TRE-08", "RES-MN-07", "RES-MN-09") + (("RES-MN-06",) if overdue else ()),
          dice=[(4, years)], total=years, outcome="wartime" if wartime else "peacetime", treaty=t.id, partner=ally,
          rf_province=origin, people=people, rf_before=before, rf_after=after, cut_through_turn=cut.through_turn,
          cut_turns=n_turns, obligation=overdue.id if overdue else None)
    for e in sorted(mn.embassies, key=lambda e: e.id):
        if (nkey(e.nation) == me and party_of_city(mn, e.city) == ally) or (nkey(e.nation) == ally and party_of_city(mn, e.city) == me):
            close_embassy(mn, cfg, ledger, e, "relations cut", ("RES-MN-07", "MN-TRE-08"))
    return t


def apply_scripted(mn: MnWorld, ev: ScriptedEvent, ledger: Ledger, cfg: MnConfig) -> None:
    """A scenario action of this turn (SC-MN-05 wars, SC-MN-07 invasions)."""
    if ev.kind == "invasion":
        assert ev.attacker and ev.defender
        record_invasion(mn, ledger, ev.attacker, ev.defender, ev.repelled, source="scenario")
    elif ev.kind == "war":
        assert ev.by and ev.on
        if not at_war(mn, ev.by, ev.on):
            resolve_declare_war(mn, ev.by, DeclareWar(ev.on), ledger, cfg, source="scenario")
    else:
        assert ev.by and ev.on
        if at_war(mn, ev.by, ev.on):
            make_peace(mn, ev.by, ev.on, ledger)


# ---- Acclamation and the end of the turn ------------------------------------------------------------
def resolve_ransom(mn: MnWorld, nation: str, order: PayRansom, ledger: Ledger, cfg: MnConfig) -> None:
    """Phase (5): pay a ransom in an Acclamation phase (MN-OUT-04, RES-MN-14, RES-MN-04); he goes home."""
    amb = mn.ambassadors.get(order.ambassador)
    if amb is None or amb.nation != nation or amb.state != "imprisoned":
        raise IllegalOrderError("RES-MN-14", f"{order.ambassador!r} is not an imprisoned ambassador of {nation}", order=order,
                                actor=nkey(nation))
    if not is_acclamation_turn(mn, cfg):
        raise IllegalOrderError("RES-MN-14", f"a ransom is paid in the Acclamation phase (turn {mn.turn} has none)", order=order,
                                actor=nkey(nation))
    _pay(mn, nation, amb.ransom, "RES-MN-14", "the ransom", order)
    if amb.ransom_to is not None:
        mn.nations[amb.ransom_to].treasury += amb.ransom
    mn.stats.ransoms_paid += 1
    city = amb.city or ""
    _emit(ledger, "RansomPaid", nkey(nation), ("MN-OUT-04", "RES-MN-14", "SC-MN-09") + (("RES-MN-04", "MN-HOST-01") if amb.ransom_to else ()),
          total=amb.ransom, outcome="freed", ambassador=amb.id, ransom=amb.ransom, to=amb.ransom_to, city=city,
          treasury=mn.nations[nation].treasury)
    amb.ransom = 0
    amb.ransom_to = None
    send_home(mn, cfg, ledger, amb, mn.cities[city].province, ("RES-MN-14",), "ransomed")


def income_of(mn: MnWorld, cfg: MnConfig, nation: str) -> tuple[int, list[str], list[str]]:
    """SC-MN-06: (income, resource types, monopolies) of a nation now."""
    n = mn.nations[nation]
    own = produced(mn, nation) | importable(mn, nation)
    others: set[str] = set()
    for o in mn.nations:
        if o != nation:
            others |= produced(mn, o) | importable(mn, o)
    mono = sorted(r for r in own if r not in others)
    total = cfg.province_income_po * len(n.provinces) + cfg.resource_income_po * (len(own) + len(mono))
    return total, sorted(own), mono


def end_of_turn(mn: MnWorld, dice_for: Callable[[str], Dice], ledger: Ledger, cfg: MnConfig) -> None:
    """Phase (6): income (SC-MN-06), then expiring treaties and embassies end (SC-MN-04, RES-MN-13),
    then pacts whose obligation ran out are broken (RES-MN-06)."""
    for nid in sorted(mn.nations):
        amount, types, mono = income_of(mn, cfg, nid)
        mn.nations[nid].treasury += amount
        mn.stats.income_po += amount
        _emit(ledger, "IncomeCollected", nkey(nid), ("SC-MN-06", "RES-MN-05"), total=amount, outcome=str(amount),
              provinces=len(mn.nations[nid].provinces), resources=types, monopolies=mono, treasury=mn.nations[nid].treasury)
    for t in sorted(mn.treaties, key=lambda t: t.id):
        if t.last_turn is not None and t.last_turn <= mn.turn and t in mn.treaties:
            end_treaty(mn, ledger, t, "expired", ("SC-MN-04", "MN-OUT-02"))
    for e in sorted(mn.embassies, key=lambda e: e.id):
        if e.last_turn is not None and e.last_turn <= mn.turn and e in mn.embassies:
            close_embassy(mn, cfg, ledger, e, "expired", ("RES-MN-13", "SC-MN-04"))
    for ob in sorted(mn.obligations, key=lambda o: o.id):
        if ob.status == "open" and ob.deadline_turn <= mn.turn:
            if get_treaty(mn, ob.pact) is None:
                ob.status = "lapsed"
                continue
            resolve_break(mn, ob.nation, BreakTreaty(ob.pact), dice_for(ob.nation), ledger, cfg, overdue=ob)
    mn.obligations = [o for o in mn.obligations if o.status == "open"]


# ---- what a nation may do now --------------------------------------------------------------------
def legal_orders(mn: MnWorld, nation: str, slot: str, cfg: MnConfig, *, subject: object = None) -> list[Order]:
    """The orders open to ``nation`` in one decision slot of the turn (RES-MN-17).

    Slots: ``buy`` (1); ``ambassador`` (2, ``subject`` an Ambassador); ``host`` (3, a Mission);
    ``propose`` (3, a partner nation id); ``military`` (4); ``obligation`` (4, an Obligation);
    ``ransom`` (5, an Ambassador). The first order of each list is the do-nothing choice.
    Gifts and ransoms are offered from ``GIFT_MENU``/``RANSOM_MENU``; the resolvers take any amount.
    """
    n = mn.nations[nation]
    out: list[Order] = []
    if slot == "buy":
        out.append(Pass("buy"))
        if n.treasury >= cfg.ambassador_cost:
            out.append(BuyAmbassador(mn.cities[n.capital].province))
        return out
    if slot == "ambassador":
        amb = subject
        assert isinstance(amb, Ambassador)
        out.append(Pass("ambassador"))
        if amb.state == "home":
            for cid in sorted(mn.cities):
                for kind in TREATY_KINDS:
                    for gift in GIFT_MENU:
                        o = LaunchMission(amb.id, cid, kind, gift)
                        if launch_problem(mn, cfg, nation, o) is None:
                            out.append(o)
        elif amb.state == "at_post" and amb.mission is None:
            e = embassy_of(mn, amb.id)
            if e is not None and e.last_turn == mn.turn and any(t.embassy == e.id for t in mn.treaties) and \
                    relations_cut(mn, nkey(nation), party_of_city(mn, e.city)) is None:
                out.extend(RenewTreaty(e.id, g) for g in GIFT_MENU if n.treasury >= MISSION_FEE_PO + g)
            out.append(Recall(amb.id))
        return out
    if slot == "host":
        m = subject
        assert isinstance(m, Mission)
        return [HostChoice(m.id, "accept"), HostChoice(m.id, "dismiss"), HostChoice(m.id, "execute"),
                *(HostChoice(m.id, "imprison", r) for r in RANSOM_MENU)]
    if slot == "propose":
        partner = subject
        assert isinstance(partner, str)
        out.append(Pass("propose"))
        for kind in ("commercial", "pact"):
            if sign_problem(mn, nation, partner, kind) is None:
                out.append(SignTreaty(partner, kind))  # type: ignore[arg-type]
        return out
    if slot == "obligation":
        ob = subject
        assert isinstance(ob, Obligation)
        return [Pass("obligation"), HonourPact(ob.id), BreakTreaty(ob.pact)]
    if slot == "military":
        out.append(Pass("military"))
        me = nkey(nation)
        for t in sorted(mn.treaties, key=lambda t: t.id):
            if treaty_involves(t, me):
                out.append(BreakTreaty(t.id))
                if t.kind == "alliance" and t.nation == nation:
                    out.append(RaiseArmy(t.id))
        for party in [nkey(x) for x in sorted(mn.nations)] + [ckey(c) for c in sorted(mn.cities) if mn.cities[c].controller is None]:
            if party != me and not at_war(mn, me, party):
                out.append(DeclareWar(party))
        return out
    if slot == "ransom":
        amb = subject
        assert isinstance(amb, Ambassador)
        out.append(Pass("ransom"))
        if amb.state == "imprisoned" and n.treasury >= amb.ransom and is_acclamation_turn(mn, cfg):
            out.append(PayRansom(amb.id))
        return out
    raise InvalidOrderError(f"unknown decision slot {slot!r}")


def invariant_problems(mn: MnWorld) -> list[str]:
    """Descriptions of every MN invariant the state breaks."""
    out = []
    for n in mn.nations.values():
        if n.treasury < 0:
            out.append(f"nation {n.id} treasury {n.treasury} < 0 (RES-MN-17)")
        pacts = [t for t in mn.treaties if t.kind == "pact" and treaty_involves(t, nkey(n.id))]
        if len(pacts) > 1:
            out.append(f"nation {n.id} has {len(pacts)} eternal friendship pacts (MN-TRE-06)")
    posted = {e.ambassador for e in mn.embassies}
    for a in mn.ambassadors.values():
        if a.state == "at_post" and a.id not in posted:
            out.append(f"ambassador {a.id} at_post without an embassy")
        if a.state != "at_post" and a.id in posted:
            out.append(f"ambassador {a.id} is {a.state} but holds an embassy")
        if a.state == "imprisoned" and a.city is None:
            out.append(f"ambassador {a.id} imprisoned nowhere")
    for t in mn.treaties:
        if t.kind == "alliance" and split_party(t.partner)[0] != "city":
            out.append(f"alliance #{t.id} with a player (MN-TRE-03)")
        cut = relations_cut(mn, nkey(t.nation), t.partner)
        if cut is not None and t.signed_turn >= cut.from_turn:
            out.append(f"treaty #{t.id} signed while relations were cut (RES-MN-07)")
    return out
