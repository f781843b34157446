"""Mare Nostrum (MN): what a nation may do now (RES-MN-17), and the invariants of the state."""

from __future__ import annotations

from sim.config import MnConfig
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.rules.mn.lookups import (
    at_war,
    ckey,
    embassy_of,
    get_embassy,
    get_mission,
    get_treaty,
    in_contact,
    is_acclamation_turn,
    nkey,
    pact_of,
    pact_pending,
    party_exists,
    party_of_city,
    relations_cut,
    treaty_involves,
)
from sim.rules.mn.missions import launch_problem
from sim.rules.mn.negotiation import sign_problem
from sim.rules.mn.orders import (
    GIFT_MENU,
    MISSION_FEE_PO,
    RANSOM_MENU,
    BreakTreaty,
    BuyAmbassador,
    Consent,
    DeclareWar,
    HonourPact,
    HostChoice,
    Interfere,
    InterferenceSign,
    LaunchMission,
    Order,
    Pass,
    PayRansom,
    RaiseArmy,
    Recall,
    RenewTreaty,
    SignTreaty,
)
from sim.state.mn import TREATY_KINDS, Ambassador, Mission, MnWorld, Obligation
from sim.world import World

__all__ = [
    "legal_orders",
    "check",
]


# ---- what a nation may do now --------------------------------------------------------------------
def legal_orders(world: World, nation: str, *, slot: str | None = None, subject: object = None) -> list[Order]:
    """The orders open to ``nation`` (its id in ``world.mn``) in one decision slot of the turn (RES-MN-17).

    Slots: ``buy`` (1); ``ambassador`` (2, ``subject`` an Ambassador); ``host`` (3, a Mission);
    ``propose`` (3, a partner nation id); ``consent`` (3, to a proposal); ``interfere`` and
    ``interference_sign`` (3, during a diplomacy test, RES-MN-16); ``military`` (4); ``obligation`` (4,
    an Obligation); ``ransom`` (5, an Ambassador). The first order of each list is the do-nothing choice
    where there is one (``host`` starts with accept, ``interference_sign`` with +).
    Gifts and ransoms are offered from ``GIFT_MENU``/``RANSOM_MENU``; the resolvers take any amount.

    ``slot=None``: every order the nation may give now, over the slots of its own orders and each of
    their subjects (``buy``, ``ambassador`` for each ambassador at home or at a post, ``propose`` for
    each nation in contact, ``obligation`` for each open one, ``military``, ``ransom`` for each
    imprisoned ambassador): the form of the one legality API of every system
    (``sim.system.RuleSystem.legal_orders``), where an order alone says what it is. The answers asked
    in the middle of a turn (``host``, ``consent``, ``interfere``, ``interference_sign``) are not in it.
    """
    if slot is None:
        return _every_order(world, nation)
    if slot == "consent":
        return [Consent(False), Consent(True)]
    if slot == "interfere":
        return [Interfere(False), Interfere(True)]
    if slot == "interference_sign":
        return [InterferenceSign(1), InterferenceSign(-1)]
    return _slot_orders(world.mn_state(), world.config.mn, nation, slot, subject)


def _every_order(world: World, nation: str) -> list[Order]:
    mn = world.mn_state()
    out: list[Order] = list(legal_orders(world, nation, slot="buy"))
    for amb in sorted((a for a in mn.ambassadors.values() if a.nation == nation), key=lambda a: a.id):
        if amb.state in ("home", "at_post"):
            out += legal_orders(world, nation, slot="ambassador", subject=amb)
        elif amb.state == "imprisoned":
            out += legal_orders(world, nation, slot="ransom", subject=amb)
    for partner in sorted(mn.nations):
        if partner != nation and in_contact(mn, nation, partner):
            out += legal_orders(world, nation, slot="propose", subject=partner)
    for ob in sorted((o for o in mn.obligations if o.nation == nation and o.status == "open"), key=lambda o: o.id):
        out += legal_orders(world, nation, slot="obligation", subject=ob)
    out += legal_orders(world, nation, slot="military")
    return list(dict.fromkeys(out))  # one Pass of each slot once


def _slot_orders(mn: MnWorld, cfg: MnConfig, nation: str, slot: str, subject: object) -> list[Order]:
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
            out.extend(_launchable(mn, nation, amb.id))
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


def _launchable(mn: MnWorld, nation: str, amb_id: str) -> list[Order]:
    """The missions ``LaunchMission(amb_id, city, kind, gift)`` over the cities (ascending id), treaty
    kinds and ``GIFT_MENU`` for which :func:`launch_problem` finds nothing, in that order: its
    conditions, each checked once for what it depends on (the ambassador, the city, the kind, the gift)."""
    out: list[Order] = []
    amb = mn.ambassadors.get(amb_id)
    if amb is None or amb.nation != nation or amb.state != "home":
        return out
    treasury = mn.nations[nation].treasury
    gifts = [g for g in GIFT_MENU if g >= 0 and treasury >= MISSION_FEE_PO + g]
    if not gifts:
        return out
    me = nkey(nation)
    no_pact: bool | None = None  # a pact held or under negotiation (MN-TRE-06), found once if needed
    for cid in sorted(mn.cities):
        city = mn.cities[cid]
        if city.controller == nation:
            continue
        if relations_cut(mn, me, party_of_city(mn, cid)) is not None:
            continue
        for kind in TREATY_KINDS:
            if kind == "alliance" and city.controller is not None:
                continue
            if kind == "pact":
                if no_pact is None:
                    no_pact = pact_of(mn, nation) is not None or pact_pending(mn, nation)
                if no_pact:
                    continue
            for gift in gifts:
                out.append(LaunchMission(amb_id, cid, kind, gift))
    return out


def check(world: World, nation: str, order: Order) -> None:
    """Raise :class:`IllegalOrderError` (clause, reason) when ``nation`` may not give ``order`` now
    (RES-MN-17); the answers to the rules' questions (``Pass``, ``Consent``, ``Interfere``,
    ``InterferenceSign``) are always legal. Gifts and ransoms may be any amount >= 0."""
    why = _problem(world.mn_state(), world.config.mn, nation, order)
    if why is not None:
        raise IllegalOrderError(why[0], why[1], order=order, actor=nkey(nation))


def _problem(mn: MnWorld, cfg: MnConfig, nation: str, order: Order) -> tuple[str, str] | None:
    """Why ``nation`` may not give ``order`` now, as (clause, reason), or None: the conditions the
    resolvers enforce, checked without resolving."""
    n = mn.nations.get(nation)
    if n is None:
        return "RES-MN-17", f"unknown nation {nation!r}"
    me = nkey(nation)
    if isinstance(order, (Pass, Consent, Interfere, InterferenceSign)):
        return None
    if isinstance(order, BuyAmbassador):
        province = order.province or mn.cities[n.capital].province
        if province not in n.provinces:
            return "RES-MN-01", f"{province!r} is not a province of {nation}"
        if n.treasury < cfg.ambassador_cost:
            return "RES-MN-01", f"an ambassador costs {cfg.ambassador_cost} PO; the treasury holds {n.treasury} PO"
        return None
    if isinstance(order, LaunchMission):
        return launch_problem(mn, cfg, nation, order)
    if isinstance(order, RenewTreaty):
        e = get_embassy(mn, order.embassy)
        if e is None or e.nation != nation:
            return "RES-MN-13", f"no embassy #{order.embassy} of {nation}"
        if e.last_turn is None:
            return "RES-MN-13", "a permanent embassy needs no renewal"
        if e.last_turn != mn.turn:
            return "RES-MN-13", f"embassy #{e.id} expires in turn {e.last_turn}, not this turn ({mn.turn})"
        if not any(t.embassy == e.id for t in mn.treaties):
            return "RES-MN-13", f"embassy #{e.id} holds no treaty to renew"
        if any(m.renewal_of == e.id for m in mn.missions):
            return "RES-MN-13", f"embassy #{e.id} is already being renewed"
        cut = relations_cut(mn, me, party_of_city(mn, e.city))
        if cut is not None:
            return "RES-MN-07", f"relations are cut through turn {cut.through_turn}"
        if order.gift < 0:
            return "MN-MOD-07", "a negative gift"
        if n.treasury < MISSION_FEE_PO + order.gift:
            return "MN-MIS-02", f"the renewal costs {MISSION_FEE_PO} PO + gift {order.gift} PO; the treasury holds {n.treasury} PO"
        return None
    if isinstance(order, Recall):
        amb = mn.ambassadors.get(order.ambassador)
        if amb is None or amb.nation != nation or amb.state != "at_post":
            return "RES-MN-17", f"{order.ambassador!r} is not an at_post ambassador of {nation}"
        if amb.mission is not None:
            return "RES-MN-01", f"{amb.id} carries a renewal mission this turn"
        return None
    if isinstance(order, HostChoice):
        m = get_mission(mn, order.mission)
        if m is None or m.arrival_turn > mn.turn:
            return "RES-MN-04", f"no mission #{order.mission} arriving this turn"
        if mn.cities[m.city].controller != nation or m.renewal_of is not None:
            return "MN-HOST-01", f"{nation} does not control {m.city}"
        if order.choice == "imprison" and order.ransom < 0:
            return "MN-HOST-01", "a negative ransom"
        return None
    if isinstance(order, SignTreaty):
        return sign_problem(mn, nation, order.partner, order.kind)
    if isinstance(order, BreakTreaty):
        t = get_treaty(mn, order.treaty)
        if t is None or not treaty_involves(t, me):
            return "RES-MN-17", f"{nation} is party to no treaty #{order.treaty}"
        return None
    if isinstance(order, DeclareWar):
        if not party_exists(mn, order.target):
            return "SC-MN-05", f"no party {order.target!r}"
        if order.target == me:
            return "SC-MN-05", "a party cannot declare war on itself"
        if at_war(mn, me, order.target):
            return "SC-MN-05", f"{me} and {order.target} are already at war"
        return None
    if isinstance(order, RaiseArmy):
        t = get_treaty(mn, order.treaty)
        if t is None or t.kind != "alliance" or t.nation != nation:
            return "MN-TRE-03", f"{nation} has no military alliance #{order.treaty}"
        return None
    if isinstance(order, HonourPact):
        ob = next((o for o in mn.obligations if o.id == order.obligation), None)
        if ob is None or ob.nation != nation or ob.status != "open":
            return "RES-MN-06", f"{nation} has no open obligation #{order.obligation}"
        return None
    if isinstance(order, PayRansom):
        amb = mn.ambassadors.get(order.ambassador)
        if amb is None or amb.nation != nation or amb.state != "imprisoned":
            return "RES-MN-14", f"{order.ambassador!r} is not an imprisoned ambassador of {nation}"
        if not is_acclamation_turn(mn, cfg):
            return "RES-MN-14", f"a ransom is paid in the Acclamation phase (turn {mn.turn} has none)"
        if n.treasury < amb.ransom:
            return "RES-MN-14", f"the ransom costs {amb.ransom} PO; the treasury holds {n.treasury} PO"
        return None
    return "RES-MN-17", f"not an order of Mare Nostrum: {order!r}"
