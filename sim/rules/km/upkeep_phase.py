"""The start of a kingdom turn and the Upkeep phase (*phase d'entretien*, SC-KM-09…12, RES-KM-34):
Stability, Consumption, vacancies, subjugation friction, hexes lost to Unrest, anarchy (SC-KM-07).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.events import Ledger
from sim.rules.km.hooks import NO_HOOKS, KmHooks
from sim.rules.km.statistics import (
    VACANCY_UNREST,
    count_buildings,
    emit_check,
    kingdom_check,
    ruler_vacant,
    settlement,
    stats,
    vacant,
)
from sim.rules.km.tables import SYS, actor
from sim.state.km import Kingdom, KmWorld

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "capital_hex",
    "default_hex_to_lose",
    "friction_check",
    "lose_claimed_hex",
    "ruler_stand_in",
    "sheet",
    "start_turn",
    "upkeep",
]


# ---- turn start --------------------------------------------------------------------------------


def start_turn(world: World, turn: int, ledger: Ledger) -> None:
    """Turn bookkeeping before Upkeep: expire trade routes (RES-KM-23), reset per-turn counters."""
    km = world.km
    assert km is not None
    km.turn = turn
    for r in km.routes:
        if r.status == "established" and r.expiry_turn <= turn:
            r.status = "expired"
            ledger.emit(
                SYS,
                "TradeRouteExpired",
                actor(r.kingdom),
                ("KM-TRADE-13", "RES-KM-23", "RES-KM-24"),
                outcome="expired",
                route=r.id,
                type=r.type,
                partner=r.partner,
            )
    for kid in km.ids():
        k = km.kingdoms[kid]
        k.acted_for = None
        if k.budget_turn != turn:
            k.construction_budget = 0


def sheet(world: World, kid: str, ledger: Ledger) -> None:
    """One event with the kingdom's numbers at the start of its turn (for audit and reports)."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    st = stats(world, k)
    ledger.emit(
        SYS,
        "KingdomTurnBegan",
        actor(kid),
        ("SC-KM-01", "SC-KM-08"),
        turn=km.turn,
        size=st.size,
        treasury=k.treasury,
        economy=st.economy,
        loyalty=st.loyalty,
        stability=st.stability,
        unrest=k.unrest,
        control_dc=st.control_dc,
        consumption=st.consumption,
        fame=st.fame,
        infamy=st.infamy,
    )


# ---- Upkeep (SC-KM-09…12, RES-KM-34) -----------------------------------------------------------


def upkeep(
    world: World, kid: str, dice: Dice, ledger: Ledger, *, lose_hex: Any = None, hooks: KmHooks = NO_HOOKS
) -> None:
    """The Upkeep phase of one kingdom, in the order of RES-KM-34. ``lose_hex(kingdom)``: which hex
    the leaders lose to Unrest (default: :func:`default_hex_to_lose`); ``hooks``: LINK-08's Unrest."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    turn = km.turn
    if not k.hexes:
        ledger.emit(SYS, "UpkeepSkipped", actor(kid), ("SC-KM-08",), outcome="no hexes")
        return
    st = stats(world, k)
    # step 1: Stability check (SC-KM-09)
    r, mods = kingdom_check(dice, k, "stability", st.control_dc, st)
    before = k.unrest
    rolled: list[tuple[int, int]] = [(20, r.natural)]
    treasury_gain = 0
    if r.success:
        if k.unrest > 0:
            k.unrest -= 1
        else:
            k.treasury += 1
            treasury_gain = 1
    elif r.failed_by <= 4:
        k.unrest += 1
    else:
        d = dice.roll(4)[0]
        rolled.append((4, d))
        k.unrest += d
    ledger.emit(
        SYS,
        "UpkeepStabilityCheckRolled",
        actor(kid),
        ("SC-KM-09", "SC-KM-03", "SC-KM-04"),
        dc=r.dc,
        mods=mods,
        dice=rolled,
        total=r.total,
        outcome="success" if r.success else ("failure" if r.failed_by <= 4 else "failure by 5 or more"),
        unrest_before=before,
        unrest_after=k.unrest,
        treasury_gain=treasury_gain,
    )
    # step 2: Consumption (SC-KM-10, RES-KM-32, SC-KM-31 Granary)
    raw = st.raw_consumption
    cons = st.consumption
    granaries = count_buildings(k, ("granary",))
    stored = 0
    if raw < 0:
        k.surplus_turn = turn
        if granaries:
            # resolution: ENG-KM-06
            stored = min(5 * granaries - k.granary, -raw)
            stored = max(0, stored)
            k.granary += stored
    from_store = 0
    if cons > k.treasury and k.granary > 0:
        from_store = min(k.granary, cons - max(0, k.treasury))
        k.granary -= from_store
    t_before = k.treasury
    k.treasury -= cons - from_store
    debt = k.treasury < 0
    if debt:
        k.unrest += 2
    ledger.emit(
        SYS,
        "ConsumptionPaid",
        actor(kid),
        ("SC-KM-10", "SC-KM-06", "RES-KM-32", "SC-KM-05"),
        total=cons,
        outcome="in debt" if debt else "paid",
        raw_consumption=raw,
        from_granary=from_store,
        stored_in_granary=stored,
        treasury_before=t_before,
        treasury_after=k.treasury,
        unrest_after=k.unrest,
    )
    # step 3 (SC-KM-11) is not simulated (RES-KM-33)
    # step 4: negative attributes (SC-KM-12)
    st = stats(world, k)
    neg = [a for a in ("economy", "loyalty", "stability") if getattr(st, a) < 0]
    if neg:
        k.unrest += len(neg)
        ledger.emit(
            SYS,
            "UnrestFromNegativeAttributes",
            actor(kid),
            ("SC-KM-12",),
            total=len(neg),
            outcome=f"+{len(neg)} Unrest",
            attributes=neg,
            unrest_after=k.unrest,
        )
    if k.enforcer and "royal_enforcer" in k.leaders and k.unrest > 0:
        k.unrest -= 1
        r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
        if not r.success:
            k.loyalty -= 1
        emit_check(
            ledger,
            "EnforcerLoyaltyCheckRolled",
            kid,
            ("SC-KM-12", "RES-KM-34"),
            r,
            mods,
            unrest_after=k.unrest,
            loyalty_change=0 if r.success else -1,
        )
    # vacancies (SC-KM-20…23, KM-VAS-08, RES-KM-31)
    _vacancy_upkeep(world, k, dice, ledger)
    if k.occupied and hooks.occupation_unrest is not None:
        # --- LINK-08 hook: +1 Unrest per domain of its hexes occupied by unaffiliated guilds
        hooks.occupation_unrest(world, kid, ledger)
    # subjugation friction (KM-VAS-07), for the kingdoms this one subjugates
    for sid in km.ids():
        sub = km.kingdoms[sid].subjugation
        if sub is not None and sub.overlord == kid and not sub.finished and sub.since_turn < turn:
            friction_check(world, kid, sid, dice, ledger)
    # Unrest ≥ 11 and 20 (SC-KM-07)
    if k.unrest >= 11 and k.hexes:
        h = lose_hex(k) if lose_hex is not None else default_hex_to_lose(world, k)
        lose_claimed_hex(world, k, h)
        km.stats.hexes_lost_to_unrest += 1
        ledger.emit(
            SYS,
            "HexLostToUnrest",
            actor(kid),
            ("SC-KM-07", "SC-KM-12"),
            outcome="hex lost",
            hex=list(world.map.coords(h)),
            unrest=k.unrest,
            size_after=len(k.hexes),
        )
    was = k.anarchy
    k.anarchy = k.unrest >= 20
    if k.anarchy:
        km.stats.anarchy_turns += 1
    if k.anarchy != was:
        ledger.emit(
            SYS,
            "AnarchyBegan" if k.anarchy else "AnarchyEnded",
            actor(kid),
            ("SC-KM-07",),
            outcome="anarchy" if k.anarchy else "order restored",
            unrest=k.unrest,
        )


def _vacancy_upkeep(world: World, k: Kingdom, dice: Dice, ledger: Ledger) -> None:
    km = world.km
    assert km is not None
    if ruler_vacant(k):
        stand_in = ruler_stand_in(km, k)
        if stand_in is not None:
            owner, role = stand_in
            km.kingdoms[owner].acted_for = k.id
            st = stats(world, k)
            r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
            if not r.success:
                k.unrest += 1
            emit_check(
                ledger,
                "StandInRulerLoyaltyCheckRolled",
                k.id,
                ("SC-KM-22", "KM-VAS-08", "RES-KM-31"),
                r,
                mods,
                stand_in=f"{owner}:{role}",
                unrest_after=k.unrest,
            )
        else:
            k.unrest += 4
            ledger.emit(
                SYS,
                "VacancyUnrestRose",
                actor(k.id),
                ("SC-KM-20", "SC-KM-24", "KM-VAS-08") if k.overlord else ("SC-KM-20",),
                total=4,
                outcome="+4 Unrest",
                role="viceroy" if k.overlord else "ruler",
                unrest_after=k.unrest,
            )
    for role, n in VACANCY_UNREST:
        if vacant(k, role):
            k.unrest += n
            ledger.emit(
                SYS,
                "VacancyUnrestRose",
                actor(k.id),
                ("SC-KM-23",),
                total=n,
                outcome=f"+{n} Unrest",
                role=role,
                unrest_after=k.unrest,
            )


# resolution: ENG-KM-03
def ruler_stand_in(km: KmWorld, k: Kingdom) -> tuple[str, str] | None:
    """SC-KM-22 / KM-VAS-08 / RES-KM-31: a Consort or Heir who can act as Ruler for ``k`` this turn.

    A kingdom's own Consort/Heir acts for it unless serving in a vassal; an overlord's Consort/Heir
    whose ``serving_in`` names ``k`` acts for the vassal. Each may negate the penalty in one kingdom
    per turn (``acted_for``)."""
    for role in ("consort", "heir"):
        ldr = k.leaders.get(role)
        if ldr is not None and ldr.serving_in in (None, k.id) and k.acted_for is None:
            return (k.id, role)
    if k.overlord is not None and k.overlord in km.kingdoms:
        ov = km.kingdoms[k.overlord]
        for role in ("consort", "heir"):
            ldr = ov.leaders.get(role)
            if ldr is not None and ldr.serving_in == k.id and ov.acted_for is None:
                return (ov.id, role)
    return None


def friction_check(world: World, overlord: str, subject: str, dice: Dice, ledger: Ledger) -> None:
    """KM-VAS-07 / RES-KM-30: the overlord's Loyalty check at Control DC + the subject's Size / 5."""
    km = world.km
    assert km is not None
    ov = km.kingdoms[overlord]
    sub = km.kingdoms[subject].subjugation
    assert sub is not None
    st = stats(world, ov)
    dc = st.control_dc + sub.dc_increase
    r, mods = kingdom_check(dice, ov, "loyalty", dc, st)
    rolled = [(20, r.natural)]
    if r.success:
        sub.streak += 1
    else:
        sub.streak = 0
        d = dice.roll(4)[0]
        rolled.append((4, d))
        ov.unrest += d
    if sub.streak >= 3:
        sub.finished = True
        km.stats.subjugations_settled += 1
    ledger.emit(
        SYS,
        "SubjugationFrictionCheckRolled",
        actor(overlord),
        ("KM-VAS-07", "RES-KM-30", "SC-KM-03"),
        dc=dc,
        mods=mods,
        dice=rolled,
        total=r.total,
        outcome="success" if r.success else "failure",
        subject=subject,
        streak=sub.streak,
        equilibrium=sub.finished,
        unrest_after=ov.unrest,
    )


# resolution: ENG-KM-02
def default_hex_to_lose(world: World, k: Kingdom) -> int:
    """SC-KM-07 "leaders' choice": the claimed hex without a settlement farthest from the capital
    (ties: highest index); a settlement hex only when no other is left."""
    cap = capital_hex(k)
    towns = {s.hex for s in k.settlements}
    cands = [h for h in k.hexes if h not in towns] or list(k.hexes)
    if cap is None:
        return max(cands)
    return max(cands, key=lambda h: (world.map.distance(cap, h), h))


def capital_hex(k: Kingdom) -> int | None:
    if k.capital is not None:
        s = settlement(k, k.capital)
        if s is not None:
            return s.hex
    if k.settlements:
        return k.settlements[0].hex
    return k.hexes[0] if k.hexes else None


def lose_claimed_hex(world: World, k: Kingdom, h: int) -> None:
    k.hexes.remove(h)
    k.improvements.pop(h, None)
    for s in list(k.settlements):
        if s.hex == h:
            k.settlements.remove(s)
            if k.capital == s.name:
                k.capital = k.settlements[0].name if k.settlements else None


