"""The rest (RES-CV-24 (d)): foraging and spells, consumption, recovery, repairs and the calming checks."""

from __future__ import annotations

from sim.dice import Dice
from sim.events import Ledger
from sim.rules.cv.crew import calming_check, damage, enforce_capacity, heal
from sim.rules.cv.stats import (
    FORAGE_PER_SCOUT,
    REST_HOURS_NEEDED,
    SPELL_UNITS,
    STARVATION_DIE,
    active,
    cargo_capacity,
    consumption,
    emit,
    in_settlement,
    stores_units,
)
from sim.rules.cv.travel import set_condition
from sim.state.cv import Convoy, DayPlan
from sim.world import World

__all__ = [
    "resolve_rest",
    "spell_units",
]


# ---- (d) the rest -------------------------------------------------------------------------------


def spell_units(c: Convoy, now: int) -> int:
    """CV-PROV-03: goodberry 1, create food and water 3, heroes' feast 1 per caster level."""
    n = 0
    for t in c.travelers:
        if not t.spells or t.suspended_until > now:
            continue
        for spell, casts in sorted(t.spells.items()):
            if spell == "heroes_feast":
                n += casts * t.caster_level
            else:
                n += casts * SPELL_UNITS.get(spell, 0)
    return n


def resolve_rest(world: World, cid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-CV-24 (d) at the start of the rest: foraged and spell-created units, consumption
    (RES-CV-09, CV-REST-02/03), recovery (CV-TRAV-07, RES-CV-05), repairs (RES-CV-23), then the
    CV-UNR-06 checks: wagon added, wagon upgraded, full rest day, double consumption."""
    c = world.cv_state().convoy(cid)
    if c.status != "travelling":
        return
    cfg = world.config.cv
    now = world.now
    t = c.today
    plan = t.plan or DayPlan(move="rest")
    hm = world.map
    # foraging (RES-CV-12) and spells (CV-PROV-03)
    scouts = len(active(c, "scout", now)) if plan.forage else 0
    foraged = FORAGE_PER_SCOUT * scouts
    if foraged:
        t.foraged = foraged
        emit(ledger, "ProvisionsForaged", c, ("CV-PROV-02", "RES-CV-12"), total=foraged, outcome="foraged", scouts=scouts)
    spells = spell_units(c, now)
    if spells:
        emit(ledger, "ProvisionsCreated", c, ("CV-PROV-03", "CV-PROV-04"), total=spells, outcome="spells")
    # consumption (RES-CV-09): spell-created first, then foraged, then stored
    cons = consumption(c, now, cfg)
    pool = spells + foraged + c.provisions
    # resolution: ENG-CV-16
    double = plan.double and cons > 0 and pool >= 2 * cons
    need = 2 * cons if double else cons
    fed = pool >= need
    eat = need if fed else pool
    from_spells = min(spells, eat)
    from_forage = min(foraged, eat - from_spells)
    from_stores = eat - from_spells - from_forage
    c.provisions += foraged - from_forage - from_stores
    emit(ledger, "ProvisionsConsumed", c, ("CV-REST-02", "RES-CV-09", "RES-CV-22", "SC-CV-08"), total=eat,
          outcome="fed" if fed else "short", consumption=cons, double=double, from_spells=from_spells,
          from_forage=from_forage, from_stores=from_stores, left=c.provisions)
    discarded = spells - from_spells
    if discarded:
        emit(ledger, "ProvisionsDiscarded", c, ("CV-PROV-04", "RES-CV-13"), total=discarded,
              outcome="spell-created units spoil")
    if stores_units(c.provisions) + sum(c.cargo.values()) > cargo_capacity(c, cfg):
        enforce_capacity(world, c, ledger)
    if fed:
        if c.starving:
            c.starving = False
            emit(ledger, "StarvationEnded", c, ("CV-REST-04", "RES-CV-10"), outcome="fed")
    else:
        # CV-REST-03: all units eaten, 1d6 damage, fatigued; starving (RES-CV-10)
        if not c.starving:
            c.starving = True
            emit(ledger, "StarvationBegan", c, ("CV-REST-03", "RES-CV-10"), outcome="starving", short=need - eat)
        if c.condition == "none":
            set_condition(c, "fatigued", ledger, ("CV-REST-03", "RES-CV-05"), "not enough provisions")
        face = dice.roll(STARVATION_DIE)[0]
        damage(world, c, face, "starvation", dice, ledger, ("CV-REST-03", "CV-REST-04", "RES-CV-10"),
               [(STARVATION_DIE, face)])
        if c.status == "destroyed":
            return
    # recovery (CV-TRAV-07, RES-CV-05): the rest that begins now reaches 12 consecutive hours by the
    # next travel slot, and it is fed
    # resolution: ENG-CV-02
    rested = t.slot_start + 24 - c.moved_until
    if fed and rested >= REST_HOURS_NEEDED and c.condition != "none":
        new = "fatigued" if c.condition == "exhausted" else "none"
        set_condition(c, new, ledger, ("CV-TRAV-07", "RES-CV-05", "CV-REST-02"), f"{rested} consecutive hours of fed rest")
    # repairs (RES-CV-23), a recovery benefit
    if plan.move == "repair" and fed:
        ww = len(active(c, "wainwright", now))
        units = min(c.cargo.get("repair", 0), ww * cfg.repair_units_per_wainwright_day)
        if units:
            c.cargo["repair"] -= units
            got = heal(c, units * cfg.repair_hp_per_unit)
            emit(ledger, "ConvoyRepaired", c, ("RES-CV-23", "SC-CV-10"), total=got, outcome="repaired", units=units,
                  hp=c.hp, max_hp=c.max_hp, repair_left=c.cargo["repair"])
    # CV-UNR-06 checks, in the RES-CV-24 order; at most one per kind of action per day (RES-CV-15).
    # A check at Unrest 0 could change nothing (CV-UNR-02), so it is not rolled.
    village_now = in_settlement(hm, c)
    # resolution: ENG-CV-15
    if t.wagon_added and c.unrest:
        calming_check(world, c, dice, ledger, "wagon added", t.added_in_village)
    if t.wagon_upgraded and c.unrest:
        calming_check(world, c, dice, ledger, "wagon upgraded", t.upgraded_in_village)
    if plan.move == "rest" and fed and t.could_move and c.unrest:
        calming_check(world, c, dice, ledger, "full rest day", t.village_start and village_now)
    if double and c.unrest:
        calming_check(world, c, dice, ledger, "double consumption", village_now)
