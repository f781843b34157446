"""The travel phases of a day (RES-CV-24): (a) the start of the travel slot, (b) the 12 slot hours,
(c) the extra hours of a forced march."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim.config import CvConfig
from sim.dice import Dice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.hexmap import DIRECTION_NAMES
from sim.rules.cv.crew import damage, lose_wagon, unrest_check
from sim.rules.cv.hazards import resolve_hazard, roll_table, table_for
from sim.rules.cv.legality import can_move, check_day_plan
from sim.rules.cv.orders import resolve_assign, resolve_gift, resolve_purchase
from sim.rules.cv.routes import RouteCache, replan
from sim.rules.cv.stats import (
    EXTRA_HOUR_DC,
    MULT4,
    PATH_COLUMN,
    REST_HOURS_NEEDED,
    SLOT_HOURS,
    STARVATION_DIE,
    UNREST_DC_BASE,
    bonuses_of,
    drivers,
    emit,
    in_settlement,
    passable,
    roll_check,
    speed_mpd,
    stat_mods,
)
from sim.state.cv import TICKS_PER_MILE, Convoy, DayPlan, DayState, miles_str
from sim.world import World

__all__ = [
    "extra_hours_due",
    "new_day",
    "resolve_extra_hours",
    "resolve_slot_start",
    "resolve_travel_slot",
]


# ---- (a) start of the travel slot ----------------------------------------------------------------


def new_day(c: Convoy, day: int, slot_start: int) -> None:
    """Reset the per-day state at the start of a day (before scheduled events are applied)."""
    c.today = DayState(day=day, slot_start=slot_start, stop_hour=slot_start)


def resolve_slot_start(world: World, cid: str, plan: DayPlan, dice: Dice, ledger: Ledger) -> None:
    """RES-CV-24 (a): apply the day's orders, then the fatigue check (RES-CV-08), the starvation 1d6
    (RES-CV-10) and the mutiny check (RES-CV-18). Call :func:`new_day` first."""
    c = world.cv_state().convoy(cid)
    now = world.now
    check_day_plan(world, c, plan)
    t = c.today
    t.plan = plan
    t.slot_start = now
    t.village_start = in_settlement(world.map, c)
    # resolution: ENG-CV-02
    rested = now - c.moved_until
    if rested >= REST_HOURS_NEEDED:  # RES-CV-04: the extra-hour DC resets after 12 consecutive hours of rest
        if c.extra_dc != EXTRA_HOUR_DC:
            emit(ledger, "ExtraHourDCReset", c, ("RES-CV-04",), dc=EXTRA_HOUR_DC, outcome="reset", before=c.extra_dc)
        c.extra_dc = EXTRA_HOUR_DC
        stretch = c.stretch_hours
        c.stretch_hours = 0
    else:
        stretch = c.stretch_hours
    # resolution: ENG-CV-20
    # orders made at the start of the day
    # resolution: ENG-CV-13
    if plan.abandon:
        w = [x for x in c.wagons if x.kind == plan.abandon][-1]
        lose_wagon(world, c, w, dice, ledger, "abandoned", ("CV-UNR-04",))
        if c.status != "travelling":
            return
    for assign in plan.assignments:
        resolve_assign(world, c, assign, ledger)
    for buy in plan.purchases:  # RES-CV-15: several a day, in order
        resolve_purchase(world, c, buy, ledger)
    for gift in plan.gifts:
        need, have = 1 + c.gifts, c.cargo.get(gift, 0)
        if have < need:
            # the day's earlier orders (a wagon abandoned with its load) took the goods meant for the gift
            emit(ledger, "GiftLapsed", c, ("RES-CV-16", "RES-CV-24"), total=need, outcome=gift, left=have)
        else:
            resolve_gift(world, c, gift, ledger)
    travel = plan.move == "travel"
    t.could_move = can_move(c, now)[0]
    if travel and not t.could_move:
        ok, clause, reason = can_move(c, now)
        raise IllegalOrderError(clause, reason, order=plan.label(), actor=c.key)
    # RES-CV-08 / CV-REST-01
    if travel and stretch >= SLOT_HOURS and rested < REST_HOURS_NEEDED and c.condition == "none":
        set_condition(c, "fatigued", ledger, ("CV-REST-01", "RES-CV-08", "RES-CV-05"),
                       f"set out after {rested} h of rest following {stretch} h of travel")
    # RES-CV-10: starvation damage at the start of each travel slot
    if c.starving:
        face = dice.roll(STARVATION_DIE)[0]
        damage(world, c, face, "starvation", dice, ledger, ("CV-REST-04", "RES-CV-10"), [(STARVATION_DIE, face)])
        if c.status == "destroyed":
            return
    if c.in_mutiny:
        c.mutiny_days += 1
    # CV-MUT-03 / RES-CV-18
    # resolution: ENG-CV-06
    if travel and c.unrest > c.morale:
        _mutiny_check(world, c, dice, ledger)


def set_condition(c: Convoy, new: str, ledger: Ledger, clauses: Sequence[str], why: str) -> None:
    if c.condition == new:
        return
    old = c.condition
    c.condition = new
    emit(ledger, "ConditionChanged", c, clauses, outcome=new, before=old, why=why)


def _mutiny_check(world: World, c: Convoy, dice: Dice, ledger: Ledger) -> None:
    cfg = world.config.cv
    t = c.today
    dc = UNREST_DC_BASE + c.unrest
    mods = stat_mods(c, "resolve", cfg, world.now, bonuses_of(world.cv_state()))
    nat, total, ok = roll_check(dice, dc, mods)
    fail_by = dc - total
    outcome = "success" if ok else ("failure by 5 or more" if fail_by >= 5 else "half speed")
    emit(ledger, "MutinyCheckRolled", c, ("CV-MUT-03", "RES-CV-18", "CV-MUT-02"), dc=dc, mods=mods, dice=[(20, nat)],
          total=total, outcome=outcome, margin=c.unrest - c.morale)
    if ok:
        return
    t.half_speed = True
    if fail_by < 5:
        return
    mode = cfg.mutiny_fail5_outcome
    if mode == "refuse":
        pick = 1
        drawn: list[tuple[int, int]] = []
    elif mode == "random_direction":
        pick = 2
        drawn = []
    else:
        pick = dice.roll(2)[0]
        drawn = [(2, pick)]
    if pick == 1:
        t.refused = True
        emit(ledger, "MutinyRefusedToMove", c, ("CV-MUT-03", "RES-CV-18"), dice=drawn, total=pick, outcome="refuses to move")
        unrest_check(world, c, dice, ledger, "(d) cannot move: mutiny refusal", ("CV-MUT-03",))
        return
    # resolution: ENG-CV-07
    chosen = world.map.direction(c.hex, c.next_hex) if c.next_hex is not None else None
    rolls: list[tuple[int, int]] = []
    while True:
        d = dice.roll(6)[0]
        rolls.append((6, d))
        if chosen is None or d - 1 != chosen:
            break
    t.wander_dir = rolls[-1][1] - 1
    emit(ledger, "MutinyWandered", c, ("CV-MUT-03", "RES-CV-18"), dice=drawn + rolls, total=t.wander_dir,
          outcome=f"half speed toward {DIRECTION_NAMES[t.wander_dir]}", chosen=None if chosen is None else DIRECTION_NAMES[chosen])


# ---- (b) the travel slot, (c) extra hours --------------------------------------------------------


# resolution: ENG-CV-23
def _is_night(cfg: CvConfig, plan: DayPlan, hour_abs: int) -> bool:
    """RES-CV-03: by default every travel hour is a day hour unless the plan travels by night; with
    ``travel_hours_are_day`` false, the clock hour decides too."""
    if plan.night:
        return True
    if cfg.travel_hours_are_day:
        return False
    h = hour_abs % 24
    s, e = cfg.night_starts_hour, cfg.night_ends_hour
    return (s <= h or h < e) if s > e else (s <= h < e)


# resolution: ENG-CV-01
def _step_hour(world: World, c: Convoy, hour_abs: int, speed: int, night: bool | None = None) -> tuple[bool, str]:
    """Travel one hour. Returns (moved, stop) with stop '' (still going), 'arrived', 'halted' or
    'stuck' (the next hex is impassable or off the map). ``night``: whether the hour is a night hour
    (:func:`_is_night`), when the caller knows it."""
    hm = world.map
    t = c.today
    plan = t.plan
    assert plan is not None
    if night is None:
        night = _is_night(world.config.cv, plan, hour_abs)
    wander = t.wander_dir >= 0
    if wander:
        nxt = hm.neighbor(c.hex, t.wander_dir)
    else:  # c.next_hex
        i = c.path_pos + 1
        path = c.path
        nxt = path[i] if i < len(path) else None
    if nxt is None:
        return False, "stuck"
    h = hm.hexes[nxt]
    row = MULT4.get(h.terrain)
    if row is None:  # passable()
        return False, "stuck"
    # hourly_ticks(speed, h.terrain, h.road, night, t.half_speed)
    rate = speed * row[PATH_COLUMN[h.road]] * (1 if night else 2) * (1 if t.half_speed else 2)
    c.progress += rate
    t.ticks += rate
    c.ticks_total += rate
    hex_ticks = hm.hex_miles * TICKS_PER_MILE
    while c.progress >= hex_ticks:
        c.progress -= hex_ticks
        c.hex = nxt
        if not wander:
            c.path_pos += 1
        if c.stops and nxt == c.stops[0]:
            c.stops.pop(0)
            if not c.stops:
                c.progress = 0
                return True, "arrived"
        if plan.halt and hm.hexes[nxt].settlement:
            c.progress = 0
            return True, "halted"
        nxt = hm.neighbor(c.hex, t.wander_dir) if wander else c.next_hex
        if nxt is None or not passable(hm, nxt):
            c.progress = 0
            return True, "stuck"
    return True, ""


def _arrive(world: World, c: Convoy, ledger: Ledger, hour_abs: int) -> None:
    c.status = "arrived"
    c.arrived_at = hour_abs
    emit(ledger, "ConvoyArrived", c, ("RES-CV-24", "CV-TRAV-01"), outcome="arrived", at=world.map.label(c.hex),
          hour=hour_abs, miles=miles_str(c.ticks_total), hp=c.hp, max_hp=c.max_hp, cargo=dict(sorted(c.cargo.items())),
          provisions=c.provisions, unrest=c.unrest)


def _can_keep_moving(c: Convoy, now: int) -> bool:
    t = c.today
    return (c.status == "travelling" and c.hp > 0 and c.condition != "exhausted" and not t.blocked and not t.refused
            and drivers(c, now) >= len(c.wagons))


def resolve_travel_slot(world: World, cid: str, dice: Dice, ledger: Ledger, *,
                        choose_target: Callable[[list[dict[str, Any]]], str] | None = None,
                        cache: RouteCache | None = None) -> None:
    """RES-CV-24 (b): the 12 hours of the travel slot (or the rest/repair day), hazards at their hour."""
    c = world.cv_state().convoy(cid)
    if c.status != "travelling":
        return
    t = c.today
    plan = t.plan
    if plan is None:
        raise InvalidOrderError(f"{c.key}: resolve_slot_start must come first")
    start = t.slot_start
    t.stop_hour = start + SLOT_HOURS
    if plan.move != "travel" or t.refused:
        # a rest day, a repair day or a refusal: the convoy does not move; its rest goes on
        if plan.move != "travel":
            c.days_rested += 1
        return
    cfg = world.config.cv
    hm = world.map
    # the day's hazards: the scripted ones, or the table of the stretch ahead (RES-CV-06, GEN-06)
    if not t.hazards:
        ahead = hm.neighbor(c.hex, t.wander_dir) if t.wander_dir >= 0 else c.next_hex
        where = ahead if ahead is not None else c.hex
        tb = table_for(world.cv_state(), hm, where)
        if tb is not None:
            hz_id, hz_hour = roll_table(c, tb, dice, ledger, where)
            if hz_id:
                t.hazards = [(hz_hour, hz_id)]
    speed = speed_mpd(c, cfg)
    from_hex = c.hex
    ticks0 = t.ticks
    stopped = ""
    # whether the convoy can keep moving changes only with a hazard (an hour's travel changes none of
    # what _can_keep_moving reads, and the slot's hours are resolved at one instant)
    keep = _can_keep_moving(c, world.now)
    # the slot's hours are all night or all day hours unless the clock hour decides (_is_night)
    night = True if plan.night else (False if cfg.travel_hours_are_day else None)
    for h in range(1, SLOT_HOURS + 1):
        for hour, hz_id in t.hazards:  # RES-CV-24 (b): each hazard at its hour, in hour order
            # resolution: ENG-CV-05
            if hour == h and keep:
                ahead = hm.neighbor(c.hex, t.wander_dir) if t.wander_dir >= 0 else c.next_hex
                terrain = hm.hexes[ahead if ahead is not None else c.hex].terrain
                resolve_hazard(world, c, world.cv_state().hazards[hz_id], dice, ledger, terrain=terrain, choose_target=choose_target)
                speed = speed_mpd(c, cfg)
                keep = _can_keep_moving(c, world.now)
        if not keep:
            stopped = "stopped"
            break
        moved, r = _step_hour(world, c, start + h - 1, speed, night)
        if moved:
            t.hours_moved += 1
        if r:
            stopped = r
            break
    if t.hours_moved:
        c.moved_until = start + t.hours_moved
        c.stretch_hours += t.hours_moved
        c.days_travelled += 1
    if c.status == "destroyed":
        return
    emit(ledger, "ConvoyTravelled", c, ("CV-TRAV-01", "CV-TRAV-03", "CV-TRAV-04", "RES-CV-02", "RES-CV-03"),
          total=t.hours_moved, outcome=stopped or "slot travelled", miles=miles_str(t.ticks - ticks0),
          start=hm.label(from_hex), at=hm.label(c.hex), progress=miles_str(c.progress), speed=speed,
          night=plan.night, half_speed=t.half_speed, wander=t.wander_dir >= 0)
    if stopped == "arrived":
        _arrive(world, c, ledger, c.moved_until)
    elif t.wander_dir >= 0 and c.status == "travelling":
        replan(world, c, ledger, cache)


def extra_hours_due(c: Convoy) -> int:
    """How many extra hours the day's plan still calls for (0 when the slot ended early)."""
    t = c.today
    plan = t.plan
    if c.status != "travelling" or plan is None or plan.move != "travel" or not plan.extra:
        return 0
    if t.hours_moved < SLOT_HOURS or t.blocked or t.refused:
        return 0
    return plan.extra


def resolve_extra_hours(world: World, cid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-CV-24 (c), CV-TRAV-05/RES-CV-04: each extra hour starts with a Security check against the
    extra-hour DC; success moves that hour and raises the DC by 1, failure exhausts the caravan at
    once and it does not move that hour."""
    c = world.cv_state().convoy(cid)
    t = c.today
    plan = t.plan
    if not extra_hours_due(c) or not _can_keep_moving(c, world.now):
        return
    assert plan is not None
    cfg = world.config.cv
    hm = world.map
    speed = speed_mpd(c, cfg)
    ticks0 = t.ticks
    stopped = ""
    for k in range(plan.extra):
        hour_abs = t.slot_start + SLOT_HOURS + k
        ahead = c.next_hex if c.next_hex is not None else c.hex
        mods = stat_mods(c, "security", cfg, hour_abs, bonuses_of(world.cv_state()), terrain=hm.hexes[ahead].terrain,
                         scouting=not plan.forage)
        dc = c.extra_dc
        nat, total, ok = roll_check(dice, dc, mods)
        emit(ledger, "ExtraHourCheckRolled", c, ("CV-TRAV-05", "RES-CV-04", "SC-CV-02"), dc=dc, mods=mods, dice=[(20, nat)],
              total=total, outcome="success" if ok else "failure", extra_hour=k + 1, hour=hour_abs)
        if not ok:
            set_condition(c, "exhausted", ledger, ("CV-TRAV-05", "CV-TRAV-06", "RES-CV-04", "RES-CV-05"),
                           f"failed the Security check of extra hour {k + 1}")
            stopped = "exhausted"
            break
        c.extra_dc += 1
        moved, r = _step_hour(world, c, hour_abs, speed)
        if moved:
            t.extra_done += 1
        if r:
            stopped = r
            break
    if t.extra_done:
        c.moved_until = t.slot_start + SLOT_HOURS + t.extra_done
        c.stretch_hours += t.extra_done
    t.stop_hour = t.slot_start + SLOT_HOURS + t.extra_done
    emit(ledger, "ConvoyTravelled", c, ("CV-TRAV-05", "RES-CV-03", "RES-CV-04"), total=t.extra_done,
          outcome=stopped or "extra hours travelled", miles=miles_str(t.ticks - ticks0), at=hm.label(c.hex),
          progress=miles_str(c.progress), extra=True)
    if stopped == "arrived":
        _arrive(world, c, ledger, c.moved_until)
