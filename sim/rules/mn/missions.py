"""Mare Nostrum (MN): buying and sending ambassadors, phases (1) and (2) (RES-MN-01/02/12/13, MN-MIS-02)."""

from __future__ import annotations

from sim.config import MnConfig
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules.mn.embassies import close_embassy, send_home
from sim.rules.mn.lookups import (
    embassy_of,
    emit,
    get_embassy,
    get_nation,
    nkey,
    pact_of,
    pact_pending,
    party_of_city,
    pay,
    relations_cut,
    travel_turns,
)
from sim.rules.mn.orders import MISSION_FEE_PO, BuyAmbassador, LaunchMission, Recall, RenewTreaty
from sim.state.mn import TREATY_KINDS, Ambassador, Mission, MnWorld

__all__ = [
    "resolve_buy",
    "resolve_launch",
    "resolve_renew",
    "resolve_recall",
]


# ---- buying and sending ambassadors ---------------------------------------------------------------
def resolve_buy(mn: MnWorld, nation: str, order: BuyAmbassador, ledger: Ledger, cfg: MnConfig) -> Ambassador:
    """Phase (1): buy an ambassador (RES-MN-01) for ``cfg.ambassador_cost`` PO."""
    n = get_nation(mn, nation)
    province = order.province or mn.cities[n.capital].province
    if province not in n.provinces:
        raise IllegalOrderError("RES-MN-01", f"{province!r} is not a province of {nation}", order=order, actor=nkey(nation))
    pay(mn, nation, cfg.ambassador_cost, "RES-MN-01", "an ambassador", order)
    n.bought += 1
    amb = Ambassador(f"{nation}-{n.bought}", nation, province, n.bought, since=mn.turn)
    mn.ambassadors[amb.id] = amb
    mn.stats.ambassadors_bought += 1
    emit(ledger, "AmbassadorBought", nkey(nation), ("RES-MN-01", "MN-MIS-02", "SC-MN-03"), outcome=amb.id,
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
    get_nation(mn, nation)
    why = launch_problem(mn, cfg, nation, order)
    if why:
        raise IllegalOrderError(why[0], why[1], order=order, actor=nkey(nation))
    amb = mn.ambassadors[order.ambassador]
    city = mn.cities[order.city]
    pay(mn, nation, MISSION_FEE_PO + order.gift, "MN-MIS-02", "the mission", order)
    turns = travel_turns(mn, cfg, amb.home_province, city.province)
    m = Mission(mn.new_id(), amb.id, nation, amb.home_province, city.id, order.treaty, order.gift, mn.turn, mn.turn + turns)
    mn.missions.append(m)
    amb.state = "travelling"
    amb.mission = m.id
    amb.city = city.id
    amb.since = mn.turn
    mn.stats.missions += 1
    emit(ledger, "MissionLaunched", f"ambassador:{amb.id}", ("MN-MIS-02", "RES-MN-02", "RES-MN-12", "RES-MN-17"),
          outcome=order.treaty, total=MISSION_FEE_PO + order.gift, mission=m.id, nation=nation, city=city.id,
          treaty=order.treaty, fee=MISSION_FEE_PO, gift=order.gift, arrival_turn=m.arrival_turn, travel_turns=turns,
          treasury=mn.nations[nation].treasury)
    return m


def resolve_renew(mn: MnWorld, nation: str, order: RenewTreaty, ledger: Ledger, cfg: MnConfig) -> Mission:
    """Phase (2): a renewal mission in the expiry turn of a limited embassy (RES-MN-13): fee and gift,
    no travel; it is tested in this turn's diplomacy phase."""
    get_nation(mn, nation)
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
    pay(mn, nation, MISSION_FEE_PO + order.gift, "MN-MIS-02", "the renewal mission", order)
    amb = mn.ambassadors[e.ambassador]
    m = Mission(mn.new_id(), amb.id, nation, amb.home_province, e.city, treaty.kind, order.gift, mn.turn, mn.turn, renewal_of=e.id)
    mn.missions.append(m)
    amb.mission = m.id
    mn.stats.renewals += 1
    emit(ledger, "RenewalLaunched", f"ambassador:{amb.id}", ("RES-MN-13", "MN-MIS-02", "RES-MN-12"), outcome=treaty.kind,
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
    emit(ledger, "AmbassadorRecalled", f"ambassador:{amb.id}", ("RES-MN-17", "MN-EMB-01"), outcome="recalled", city=amb.city)
    if e is not None:
        close_embassy(mn, cfg, ledger, e, "recalled", ("RES-MN-17",))
    else:  # pragma: no cover - at_post always has an embassy (an invariant)
        send_home(mn, cfg, ledger, amb, mn.cities[amb.city or ""].province, ("RES-MN-17",), "recalled")
