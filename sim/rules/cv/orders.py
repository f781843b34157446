"""The orders made at the start of the day (gifts, purchases, job changes, RES-CV-11/15/16, SC-CV-03),
the scenario's scheduled events (RES-CV-20, CV-UNR-07) and wages (SC-CV-03)."""

from __future__ import annotations

from sim.dice import Dice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules.cv.crew import add_wagon, set_unrest, update_mutiny
from sim.rules.cv.stats import (
    PROVISIONS_PER_STORES,
    TOUGHNESS_HP,
    WAGON_TYPES,
    count_kind,
    emit,
    in_settlement,
    speed_mpd,
    wagon_type,
)
from sim.state.cv import Convoy, ScheduledEvent
from sim.world import World

__all__ = [
    "resolve_assign",
    "resolve_gift",
    "resolve_purchase",
    "resolve_scheduled",
    "resolve_wages",
    "unpaid_leave",
]


# ---- orders made at the start of the day -----------------------------------------------------


def resolve_gift(world: World, c: Convoy, kind: str, ledger: Ledger) -> None:
    """CV-UNR-08/RES-CV-16: the next gift costs 1 + g units; trade goods −1 Unrest, treasure −3."""
    need = 1 + c.gifts
    have = c.cargo.get(kind, 0)
    if have < need:
        raise IllegalOrderError("RES-CV-16", f"the next gift costs {need} cargo units of {kind}; the caravan carries {have}",
                                order=f"gift {kind}", actor=c.key)
    c.cargo[kind] = have - need
    c.gifts += 1
    c.gifts_units += need
    cut = 1 if kind == "trade_goods" else 3
    before = c.unrest
    emit(ledger, "GiftGiven", c, ("CV-UNR-08", "RES-CV-16"), total=need, outcome=kind, counter=c.gifts,
          unrest_before=before, reduction=cut, left=c.cargo[kind])
    set_unrest(c, c.unrest - cut, ledger, ("CV-UNR-08",), f"gift of {kind}", cause="gift", ref=kind)


def resolve_purchase(world: World, c: Convoy, buy: str, ledger: Ledger) -> None:
    cfg = world.config.cv
    what, _, arg = buy.partition(":")
    t = c.today
    if what == "stores":
        n = int(arg)
        cost = n * cfg.stores_cost_gp
        c.gp -= cost
        c.gp_spent += cost
        c.provisions += n * PROVISIONS_PER_STORES
        c.stores_bought += n
        emit(ledger, "StoresBought", c, ("CV-PROV-01", "RES-CV-11"), total=n, outcome="bought", gp=cost,
              provisions=c.provisions, purse=c.gp)
    elif what == "repair":
        n = int(arg)
        # resolution: ENG-CV-21
        cost = n * cfg.repair_materials_cost_gp
        c.gp -= cost
        c.gp_spent += cost
        c.cargo["repair"] = c.cargo.get("repair", 0) + n
        emit(ledger, "RepairMaterialsBought", c, ("RES-CV-23",), total=n, outcome="bought", gp=cost, purse=c.gp)
    elif what == "wagon":
        wt = wagon_type(arg, cfg)
        c.gp -= wt.cost
        c.gp_spent += wt.cost
        w = add_wagon(c, arg, cfg)
        t.wagon_added = True
        t.added_in_village = True
        lim = WAGON_TYPES[arg].limit
        emit(ledger, "WagonBought", c, ("SC-CV-05", "SC-CV-06"), total=wt.cost, outcome=arg, wagon=w.id, purse=c.gp,
              hp=c.hp, max_hp=c.max_hp, over_limit=bool(lim and count_kind(c, arg) > lim))
    elif what == "axles":
        w = next(w for w in c.wagons if not w.axles)
        w.axles = True
        c.gp -= cfg.axles_cost_gp
        c.gp_spent += cfg.axles_cost_gp
        t.wagon_upgraded = True
        t.upgraded_in_village = True
        emit(ledger, "AxlesFitted", c, ("RES-CV-01", "CV-TRAV-02"), total=cfg.axles_cost_gp, outcome="fitted", wagon=w.id,
              all_wagons=all(x.axles for x in c.wagons), speed=speed_mpd(c, cfg), purse=c.gp)


def resolve_assign(world: World, c: Convoy, assign: str, ledger: Ledger) -> None:
    tid, _, job = assign.partition(":")
    t = next(x for x in c.travelers if x.id == tid)
    old = t.job
    t.job = job
    t.job_since = world.now
    emit(ledger, "JobChanged", c, ("SC-CV-03", "SC-CV-13"), outcome=job, traveler=tid, before=old)


# ---- scheduled scenario events, wages ------------------------------------------------------------


def resolve_scheduled(world: World, c: Convoy, ev: ScheduledEvent, dice: Dice, ledger: Ledger) -> None:
    """Level-ups (RES-CV-20, CV-UNR-03/05, SC-CV-04/12) and Unrest events (CV-UNR-07). A scripted
    hazard is recorded for the day's travel slot."""
    cfg = world.config.cv
    if c.status != "travelling":
        return
    if ev.kind == "level_up":
        c.level += 1
        if ev.feat:
            c.feats.append(ev.feat)
            # resolution: ENG-CV-18
            if ev.feat == "caravan_toughness" and c.wagons:
                w = min(c.wagons, key=lambda w: (w.toughness, w.id))
                w.toughness += 1
                c.max_hp += TOUGHNESS_HP
                c.hp += TOUGHNESS_HP
                if 4 * c.hp > c.max_hp:
                    c.below_quarter = False
        if ev.morale:
            c.morale = min(10, c.morale + ev.morale)
        if cfg.gift_counter_resets == "level_up":
            c.gifts = 0
        emit(ledger, "LevelGained", c, ("RES-CV-20", "SC-CV-04", "CV-UNR-03"), total=c.level, outcome=ev.feat or "level",
              morale=c.morale, note=ev.note)
        set_unrest(c, c.unrest - 1, ledger, ("CV-UNR-05",), "level gained", cause="level")
        update_mutiny(c, ledger)
    elif ev.kind == "unrest":
        emit(ledger, "UnrestEventHappened", c, ("CV-UNR-07",), total=ev.amount, outcome=ev.note or "campaign event")
        set_unrest(c, c.unrest + ev.amount, ledger, ("CV-UNR-07",), ev.note or "campaign event", cause="event", ref=ev.note)
    elif ev.kind == "hazard":
        # RES-CV-24 (b): every scripted hazard of the day is met at its hour, in hour order (ties: in
        # the scenario's order)
        hour = ev.hour or 1
        c.today.hazards = sorted([*c.today.hazards, (hour, ev.hazard)], key=lambda x: x[0])
        emit(ledger, "HazardScheduled", c, ("RES-CV-06", "GEN-06", "RES-CV-24"), outcome=ev.hazard, hour=hour)


def resolve_wages(world: World, c: Convoy, ledger: Ledger, why: str) -> None:
    """SC-CV-03: hired NPCs are paid at hiring and monthly from the purse; unpaid ones become
    passengers and leave at the next settlement."""
    paid: list[str] = []
    total = 0
    for t in c.travelers:
        if t.wage_gp <= 0 or t.unpaid:
            continue
        if c.gp >= t.wage_gp:
            c.gp -= t.wage_gp
            c.gp_spent += t.wage_gp
            total += t.wage_gp
            paid.append(t.id)
        else:
            t.unpaid = True
            old = t.job
            t.job = "passenger"
            t.job_since = world.now
            emit(ledger, "WagesUnpaid", c, ("SC-CV-03",), total=t.wage_gp, outcome="passenger", traveler=t.id, job=old,
                  purse=c.gp)
    if paid:
        emit(ledger, "WagesPaid", c, ("SC-CV-03",), total=total, outcome=why, travelers=paid, purse=c.gp)


# resolution: ENG-CV-17
def unpaid_leave(world: World, c: Convoy, ledger: Ledger) -> None:
    if not in_settlement(world.map, c):
        return
    for t in [t for t in c.travelers if t.unpaid]:
        c.travelers.remove(t)
        emit(ledger, "TravelerLeft", c, ("SC-CV-03",), outcome="unpaid", traveler=t.id,
              at=world.map.label(c.hex))
