"""Mare Nostrum (MN): the military phase (4) — wars, breaks, armies, pacts (SC-MN-05/07/10, MN-TRE-*)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from sim.config import MnConfig
from sim.dice import Dice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules.mn.embassies import close_embassy, end_treaties_between, end_treaty
from sim.rules.mn.lookups import (
    at_war,
    change_rf,
    emit,
    enemies_of,
    get_treaty,
    nearest_province,
    nkey,
    other_side,
    party_cities,
    party_exists,
    party_home_province,
    party_of_city,
    party_of_province,
    party_peoples,
    split_party,
    treaty_involves,
    treaty_sides,
)
from sim.rules.mn.orders import (
    ALLIANCE_BREAK_RF,
    PACT_BREAK_PEACE_RF,
    PACT_BREAK_WAR_RF,
    BreakTreaty,
    DeclareWar,
    HonourPact,
    RaiseArmy,
)
from sim.state.mn import Cut, Invasion, MnWorld, Obligation, RaisedArmy, ScriptedEvent, Treaty, War

__all__ = [
    "record_invasion",
    "ArmyHook",
    "raise_army",
    "resolve_raise_army",
    "resolve_declare_war",
    "make_peace",
    "sever_relations",
    "resolve_honour",
    "ally_at_war",
    "resolve_break",
    "apply_scripted",
]


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
    emit(ledger, "RepulseRecorded" if repelled else "InvasionRecorded", ap or "world", ("SC-MN-07", "SC-MN-02", *clauses),
          outcome="repelled" if repelled else "invaded", attacker=attacker, defender=defender, attacker_party=ap,
          enemies=list(inv.enemies), source=source)
    return inv


ArmyHook = Callable[[MnWorld, RaisedArmy], str | None]
"""LINK-06 seam: deploys a real GW army for an army raised here and returns its id (or None). The MN
turn gets it from its hooks (:class:`sim.rules.mn.MnHooks`, built by ``sim.rules.links``)."""


# resolution: ENG-MN-02
def raise_army(mn: MnWorld, ledger: Ledger, nation: str, province: str, reason: Literal["alliance", "pact"], *,
               treaty: int | None = None, obligation: int | None = None, clauses: Sequence[str] = (),
               hook: ArmyHook | None = None) -> RaisedArmy:
    """SEAM (SC-MN-03 (4), SC-MN-10, LINK-06): raise an army for a nation in a province, recorded in
    the purchase step of the military phase. Army prices are not in the sources (SC-MN-10): no cost.

    ``hook`` (LINK-06, per model: the MN turn passes the one of its hooks when GW is enabled) is
    called once the army is recorded and returns the GW army it became; without it MN runs alone."""
    army = RaisedArmy(mn.new_id(), nation, province, mn.turn, reason, treaty, obligation)
    mn.armies.append(army)
    mn.stats.armies_raised += 1
    emit(ledger, "ArmyRaised", nkey(nation), ("SC-MN-10", "SC-MN-03", *clauses), outcome=reason, army=army.id, province=province,
          treaty=treaty, obligation=obligation)
    if hook is not None:
        army.gw_army = hook(mn, army)
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
            emit(ledger, "PactObligationArose", friend, ("MN-TRE-05", "MN-TRE-07", "RES-MN-06"), outcome="open", obligation=ob.id,
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
    emit(ledger, "WarDeclared", by, ("SC-MN-05", "SC-MN-02"), outcome="war", target=on, source=source)
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
    emit(ledger, "PeaceMade", a, ("SC-MN-02",), outcome="peace", target=b, source=source)


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
    emit(ledger, "PactHonoured", nkey(nation), ("MN-TRE-05", "MN-TRE-07", "RES-MN-06"), outcome="honoured", obligation=ob.id,
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
        emit(ledger, "TreatyBroken", me, ("MN-TRE-04", "RES-MN-09", "RES-MN-17"), outcome="alliance broken", treaty=t.id,
              partner=ally, rf_province=origin, people=people, rf_before=before, rf_after=after)
        return t
    if t.kind == "commercial":
        end_treaty(mn, ledger, t, "broken", ("RES-MN-05", "RES-MN-17"))
        emit(ledger, "TreatyBroken", me, ("RES-MN-05", "RES-MN-17"), outcome="commercial agreement broken", treaty=t.id, partner=ally)
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
    emit(ledger, "PactBroken", me, ("MN-TRE-08", "RES-MN-07", "RES-MN-09") + (("RES-MN-06",) if overdue else ()),
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
