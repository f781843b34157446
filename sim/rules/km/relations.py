"""Embassy buildings, closing an embassy, renegotiating or withdrawing (KM-REL-03/06/10), and the
scripted events of a scenario (KM-REL-06/10/12, LINK-08, RES-KM-35).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules.km.diplomatic import opposed_checks
from sim.rules.km.ordinary import pay_bp
from sim.rules.km.specials import OPPOSED_SKILLS
from sim.rules.km.statistics import (
    add_unrest,
    change_fame,
    change_infamy,
    emit_check,
    kingdom_check,
    settlement,
    stats,
)
from sim.rules.km.tables import BUILDINGS, SYS, actor
from sim.state.km import EmbassyBuilding, EmbassyBuildingOrder, RelationOrder, ScriptedEvent

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "build_embassy",
    "check_relation_order",
    "resolve_event",
    "resolve_relation_order",
]


# ---- embassy building, closing, renegotiating, withdrawing (KM-REL-03/06/10) ---------------------


def build_embassy(world: World, kid: str, o: EmbassyBuildingOrder, ledger: Ledger) -> None:
    """KM-REL-03 / RES-KM-08: a Mansion or Noble Villa in a partner's settlement, not counted against
    the building limit."""
    km = world.km_state()
    k = km.kingdoms[kid]
    if o.host not in km.kingdoms or o.host == kid:
        raise InvalidOrderError(f"embassy building host {o.host!r}: expected another kingdom")
    if o.kind not in ("mansion", "noble_villa"):
        raise IllegalOrderError("KM-REL-03", f"an embassy building is a Mansion or a Noble Villa, not {o.kind!r}", actor=actor(kid))
    if km.level(kid, o.host) < 1:
        raise IllegalOrderError("KM-REL-03", f"{kid} has no embassy agreement with {o.host}", actor=actor(kid))
    if settlement(km.kingdoms[o.host], o.settlement) is None:
        raise IllegalOrderError("KM-REL-03", f"{o.host} has no settlement named {o.settlement!r}", actor=actor(kid))
    if any(e.owner == kid and e.host == o.host for e in km.embassy_buildings):
        raise IllegalOrderError("KM-REL-03", f"{kid} already has an embassy building in {o.host}", actor=actor(kid))
    pay_bp(k, BUILDINGS[o.kind].bp, km.turn, f"an embassy {o.kind} in {o.settlement}", "RES-KM-08")
    km.embassy_buildings.append(EmbassyBuilding(kid, o.host, o.settlement, o.kind))
    ledger.emit(
        SYS,
        "EmbassyBuildingBought",
        actor(kid),
        ("KM-REL-03", "RES-KM-08", "SC-KM-31"),
        total=BUILDINGS[o.kind].bp,
        outcome=o.kind,
        host=o.host,
        settlement=o.settlement,
        treasury_after=k.treasury,
    )


def check_relation_order(world: World, kid: str, o: RelationOrder) -> None:
    km = world.km_state()
    if o.target not in km.kingdoms or o.target == kid:
        raise InvalidOrderError(f"relation order target {o.target!r}: expected another kingdom")
    rel = km.peek_relation(kid, o.target)
    if o.action == "close_embassy":
        if rel is None or not rel.embassy:
            raise IllegalOrderError("KM-REL-06", f"{kid} has no embassy with {o.target} to close", actor=actor(kid))
        # resolution: ENG-KM-04
        if rel.treaty is not None or rel.alliance is not None:
            raise IllegalOrderError("KM-REL-07", f"the embassy with {o.target} carries a treaty; withdraw from it first", actor=actor(kid))
    elif o.action in ("renegotiate", "withdraw"):
        if o.which not in ("treaty", "alliance"):
            raise InvalidOrderError(f"which {o.which!r}: expected treaty or alliance")
        ag = None if rel is None else (rel.treaty if o.which == "treaty" else rel.alliance)
        if ag is None:
            raise IllegalOrderError("KM-REL-10", f"{kid} has no {o.which} with {o.target}", actor=actor(kid))
    else:
        raise InvalidOrderError(f"relation order action {o.action!r}: expected close_embassy, renegotiate or withdraw")


def resolve_relation_order(world: World, kid: str, o: RelationOrder, dice: Dice, ledger: Ledger) -> str:
    """KM-REL-06 (close an embassy) and KM-REL-10 (renegotiate / withdraw): a Loyalty check, then any
    dice it triggers (RES-KM-39)."""
    check_relation_order(world, kid, o)
    km = world.km_state()
    k = km.kingdoms[kid]
    st = stats(world, k)
    r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
    rel = km.relation(kid, o.target)
    if o.action == "close_embassy":
        if r.success:
            rel.embassy = False
            out = "embassy closed"
        else:
            out = "embassy kept"
        emit_check(ledger, "CloseEmbassyLoyaltyCheckRolled", kid, ("KM-REL-06", "SC-KM-03"), r, mods, target=o.target, result=out)
        return out
    if o.action == "withdraw":
        n = 1 if r.success else 2
        add_unrest(k, n)
        # resolution: ENG-KM-04
        if o.which == "treaty":
            rel.treaty = None
            rel.alliance = None
        else:
            rel.alliance = None
        out = f"withdrew from the {o.which}"
        emit_check(
            ledger, "WithdrawalLoyaltyCheckRolled", kid, ("KM-REL-10", "SC-KM-03"), r, mods,
            target=o.target, result=out, unrest=n, unrest_after=k.unrest,
        )
        return out
    # resolution: ENG-KM-05
    # renegotiate
    if not r.success:
        add_unrest(k, 1)
        emit_check(
            ledger, "RenegotiationLoyaltyCheckRolled", kid, ("KM-REL-10", "SC-KM-03"), r, mods,
            target=o.target, result="unchanged", unrest=1, unrest_after=k.unrest,
        )
        return "renegotiation failed"
    emit_check(ledger, "RenegotiationLoyaltyCheckRolled", kid, ("KM-REL-10", "SC-KM-03"), r, mods, target=o.target, result="new opposed checks")
    skills = OPPOSED_SKILLS if o.which == "treaty" else ("diplomacy", "diplomacy", "diplomacy")
    old = rel.treaty if o.which == "treaty" else rel.alliance
    assert old is not None
    winner = opposed_checks(world, kid, o.target, skills, o.skill, o.target_skill, dice, ledger, o.which)
    adv = kid if winner == "envoy" else o.target
    balanced = (o.balance if winner == "envoy" else o.target_balance) == "balanced"
    attr = "economy" if o.which == "treaty" else "stability"
    vals = {s: getattr(stats(world, km.kingdoms[s]), attr) for s in (kid, o.target)}
    dis = o.target if adv == kid else kid
    if balanced:
        pct = {kid: max(0, vals[o.target]) * 10 // 100, o.target: max(0, vals[kid]) * 10 // 100}
    else:
        pct = {adv: max(0, vals[dis]) * 15 // 100, dis: max(0, vals[adv]) * 5 // 100}
    old.balanced = balanced
    old.advantaged = adv
    old.bonus = {s: max(0, pct[s] - old.reduction.get(s, 0)) for s in sorted(pct)}
    if balanced:
        change_fame(km.kingdoms[adv], 1)
    else:
        change_infamy(km.kingdoms[adv], 1)
    ledger.emit(
        SYS,
        "AgreementRenegotiated",
        actor(kid),
        ("KM-REL-10", "KM-REL-09", "RES-KM-11", "RES-KM-46"),
        outcome=f"{'balanced' if balanced else 'unbalanced'} {o.which}",
        target=o.target,
        advantaged=adv,
        bonus=dict(old.bonus),
    )
    return "renegotiated"


# ---- scripted events (KM-REL-06/10/12, LINK-08, RES-KM-35) --------------------------------------


def resolve_event(world: World, ev: ScriptedEvent, dice: Dice, ledger: Ledger) -> None:
    km = world.km_state()
    if ev.kingdom not in km.kingdoms or (ev.target is not None and ev.target not in km.kingdoms):
        ledger.emit(SYS, "ScenarioEventSkipped", actor(ev.kingdom), ("RES-KM-35",), outcome="kingdom gone", event=ev.kind)
        return
    k = km.kingdoms[ev.kingdom]
    if ev.kind == "unrest":
        add_unrest(k, ev.amount)
        ledger.emit(SYS, "ScenarioUnrest", actor(k.id), ("RES-KM-35", "SC-KM-07"), total=ev.amount, outcome=f"Unrest {k.unrest}")
        return
    if ev.kind == "aid_refused":
        d = dice.roll(4)[0]
        change_infamy(k, d)
        ledger.emit(SYS, "AidRefused", actor(k.id), ("KM-REL-12",), dice=[(4, d)], total=d, outcome=f"Infamy +{d}", target=ev.target)
        return
    assert ev.target is not None
    t = km.kingdoms[ev.target]
    rel = km.relation(k.id, t.id)
    if ev.kind == "conquest":
        t.conquered_by = k.id
        ledger.emit(SYS, "KingdomConquered", actor(k.id), ("LINK-08", "KM-VAS-01"), outcome="conquered", target=t.id)
        return
    if ev.kind == "peace":
        rel.enemies = False
        ledger.emit(SYS, "PeaceMade", actor(k.id), ("KM-DIP-09",), outcome="peace", target=t.id)
        return
    if ev.kind == "station_army":
        # KM-REL-12: the host (target) pays a Loyalty check or Unrest +1d2, unless it asked for help
        if ev.requested:
            ledger.emit(SYS, "AlliedArmyStationed", actor(t.id), ("KM-REL-12",), outcome="requested: no cost", ally=k.id)
            return
        st = stats(world, t)
        r, mods = kingdom_check(dice, t, "loyalty", st.control_dc, st)
        rolled = [(20, r.natural)]
        d = 0
        if not r.success:
            d = dice.roll(2)[0]
            rolled.append((2, d))
            add_unrest(t, d)
        ledger.emit(
            SYS, "AlliedArmyStationed", actor(t.id), ("KM-REL-12", "SC-KM-03"), dc=r.dc, mods=mods, dice=rolled,
            total=r.total, outcome="success" if r.success else "failure", ally=k.id, unrest=d, unrest_after=t.unrest,
        )
        return
    if ev.kind == "attack":
        lvl = rel.level
        rel.enemies = True
        if lvl == 0:
            ledger.emit(SYS, "KingdomAttacked", actor(k.id), ("KM-DIP-09",), outcome="war", target=t.id)
            return
        st = stats(world, k)
        r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
        rolled = [(20, r.natural)]
        if lvl == 1:  # KM-REL-06
            inf, unr = 1, (0 if r.success else 1)
            clause = "KM-REL-06"
        else:
            if lvl == 2:  # KM-REL-10: success +1d2 each, failure +1d4 each
                sides = 2 if r.success else 4
                count = 1
            else:  # KM-REL-12: success +1d4 each, failure +2d4 each
                sides = 4
                count = 1 if r.success else 2
            fi = dice.roll(sides, count)
            fu = dice.roll(sides, count)
            rolled += [(sides, f) for f in fi] + [(sides, f) for f in fu]
            inf, unr = sum(fi), sum(fu)
            clause = "KM-REL-10" if lvl == 2 else "KM-REL-12"
        change_infamy(k, inf)
        add_unrest(k, unr)
        ended = False
        if ev.end_relations and lvl == 3:
            rel.alliance = None
            rel.treaty = None
            rel.embassy = False
            ended = True
        ledger.emit(
            SYS, "AttackLoyaltyCheckRolled", actor(k.id), (clause, "SC-KM-03", "RES-KM-39"), dc=r.dc, mods=mods,
            dice=rolled, total=r.total, outcome="success" if r.success else "failure", target=t.id,
            infamy=inf, unrest=unr, relations_ended=ended,
        )
        return
    raise InvalidOrderError(f"unknown scenario event kind {ev.kind!r}")


