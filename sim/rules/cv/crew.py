"""Unrest and mutiny (CV-UNR, CV-MUT, RES-CV-17), hit points (RES-CV-23, SC-CV-10), wagons, travelers
and cargo (SC-CV-05/06/09, SC-CV-03)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.config import CvConfig
from sim.dice import Dice
from sim.events import Ledger
from sim.rules.cv.stats import (
    CALMING_DC,
    PROVISIONS_PER_STORES,
    TOUGHNESS_HP,
    UNREST_DC_BASE,
    VILLAGE_BONUS,
    WAGON_TYPES,
    bonuses_of,
    cargo_capacity,
    cargo_used,
    emit,
    roll_check,
    stat_mods,
    traveler_capacity,
    wagon_hp,
    wagon_type,
)
from sim.state.cv import Convoy, Traveler, Wagon
from sim.world import World

__all__ = [
    "add_wagon",
    "calming_check",
    "damage",
    "destroy",
    "heal",
    "kill_traveler",
    "left_behind",
    "lose_wagon",
    "set_unrest",
    "unrest_check",
]


# ---- Unrest, mutiny -----------------------------------------------------------------------


def update_mutiny(c: Convoy, ledger: Ledger) -> None:
    """RES-CV-17: in mutiny exactly while Unrest > Morale."""
    now_in = c.unrest > c.morale
    if now_in and not c.in_mutiny:
        c.in_mutiny = True
        emit(ledger, "MutinyBegan", c, ("CV-MUT-01", "RES-CV-17", "CV-MUT-02"), outcome="mutiny",
              unrest=c.unrest, morale=c.morale, margin=c.unrest - c.morale)
    elif not now_in and c.in_mutiny:
        c.in_mutiny = False
        emit(ledger, "MutinyEnded", c, ("CV-MUT-01", "RES-CV-17"), outcome="calm", unrest=c.unrest, morale=c.morale)


def set_unrest(c: Convoy, new: int, ledger: Ledger, clauses: Sequence[str], why: str, *, cause: str = "", ref: str = "") -> None:
    """Change Unrest (CV-UNR-02: never negative, no maximum) and announce it. ``cause`` is one of
    check, calming, hazard, event, gift, level (for the chronicle), ``ref`` the trigger, hazard or
    action concerned."""
    # implements: CV-UNR-01
    new = max(0, new)
    old = c.unrest
    if new == old:
        return
    c.unrest = new
    c.unrest_peak = max(c.unrest_peak, new)
    kind = "UnrestRose" if new > old else "UnrestFell"
    emit(ledger, kind, c, (*clauses, "CV-UNR-02"), total=new, outcome=why, before=old, after=new, cause=cause, ref=ref)
    update_mutiny(c, ledger)


def unrest_check(world: World, c: Convoy, dice: Dice, ledger: Ledger, trigger: str, clauses: Sequence[str] = ()) -> bool:
    """CV-UNR-04: Resolve check against 20 + Unrest or Unrest +1. ``trigger`` is (a)…(d).
    RES-CV-14: a destroyed convoy makes no further checks."""
    if c.status == "destroyed":
        return True
    cfg = world.config.cv
    dc = UNREST_DC_BASE + c.unrest
    mods = stat_mods(c, "resolve", cfg, world.now, bonuses_of(world.cv_state()))
    nat, total, ok = roll_check(dice, dc, mods)
    emit(ledger, "UnrestCheckRolled", c, ("CV-UNR-04", "RES-CV-14", *clauses), dc=dc, mods=mods, dice=[(20, nat)],
          total=total, outcome="success" if ok else "failure", trigger=trigger)
    if not ok:
        set_unrest(c, c.unrest + 1, ledger, ("CV-UNR-04",), f"failed Resolve check ({trigger})", cause="check", ref=trigger[:3])
    return ok


def calming_check(world: World, c: Convoy, dice: Dice, ledger: Ledger, action: str, village: bool) -> bool:
    """CV-UNR-06/RES-CV-15: Resolve DC 20 − Unrest (+5 in a village); success lowers Unrest."""
    cfg = world.config.cv
    mods = stat_mods(c, "resolve", cfg, world.now, bonuses_of(world.cv_state()))
    mods.append(("Unrest", -c.unrest))
    if village:
        mods.append(("village", VILLAGE_BONUS))
    nat, total, ok = roll_check(dice, CALMING_DC, mods)
    emit(ledger, "CalmingCheckRolled", c, ("CV-UNR-06", "RES-CV-15"), dc=CALMING_DC, mods=mods, dice=[(20, nat)],
          total=total, outcome="success" if ok else "failure", action=action, village=village)
    if ok:
        set_unrest(c, c.unrest - cfg.unrest_reduction, ledger, ("CV-UNR-06", "RES-CV-15"), f"calmed ({action})",
                   cause="calming", ref=action)
    return ok


# ---- hit points ----------------------------------------------------------------------------


def _quarter_line(world: World, c: Convoy, dice: Dice, ledger: Ledger) -> None:
    """RES-CV-14 (c): crossing from above 25% of max HP to at or below it triggers one check."""
    below = 4 * c.hp <= c.max_hp
    if below and not c.below_quarter:
        c.below_quarter = True
        if c.status != "destroyed":
            unrest_check(world, c, dice, ledger, "(c) hit points at 25% or less", ("RES-CV-23",))
    elif not below:
        c.below_quarter = False


def destroy(c: Convoy, ledger: Ledger, cause: str, cfg: CvConfig, clauses: Sequence[str]) -> None:
    c.status = "destroyed"
    c.hp = 0
    emit(ledger, "ConvoyDestroyed", c, clauses, outcome="destroyed", cause=cause,
          characters_survive=cfg.characters_survive, travelers=len(c.travelers))


def damage(world: World, c: Convoy, amount: int, source: str, dice: Dice, ledger: Ledger, clauses: Sequence[str],
           dice_drawn: Sequence[tuple[int, int]] = ()) -> None:
    """Damage off the HP pool (RES-CV-23). At 0 HP starvation destroys the caravan (CV-REST-04,
    RES-CV-10, no Unrest check); other damage leaves it unable to move until repaired (SC-CV-10).
    Damage rolled to nothing (``1d4-4`` showing 4) is still an event: its dice are recorded (GEN-01)."""
    if c.status == "destroyed" or (amount <= 0 and not dice_drawn):
        return
    cfg = world.config.cv
    before = c.hp
    c.hp = max(0, c.hp - max(0, amount))
    taken = before - c.hp
    if source == "starvation":
        c.starvation_damage += taken
    elif source == "combat":
        c.combat_damage += taken
        c.hazard_damage += taken
    else:
        c.hazard_damage += taken
    kind = "StarvationDamageTaken" if source == "starvation" else "DamageTaken"
    emit(ledger, kind, c, clauses, dice=list(dice_drawn), total=amount, outcome=source, before=before, after=c.hp,
          max_hp=c.max_hp)
    if amount <= 0:
        return
    if c.hp == 0:
        if source == "starvation":
            destroy(c, ledger, "starvation", cfg, ("CV-REST-04", "RES-CV-10"))
            return
        emit(ledger, "ConvoyImmobilized", c, ("SC-CV-10", "RES-CV-23"), outcome="0 hp", cause=source)
    _quarter_line(world, c, dice, ledger)


def heal(c: Convoy, amount: int) -> int:
    before = c.hp
    c.hp = min(c.max_hp, c.hp + amount)
    if 4 * c.hp > c.max_hp:
        c.below_quarter = False
    return c.hp - before


# ---- wagons, travelers, cargo -----------------------------------------------------------------


def add_wagon(c: Convoy, kind: str, cfg: CvConfig, *, axles: bool = False) -> Wagon:
    """SC-CV-05: adds its HP (to max and current), capacities and consumption. A Caravan
    Toughness lost with a wagon of this type comes back with it (SC-CV-12)."""
    w = Wagon(id=c.next_wagon_id, kind=kind, axles=axles)
    c.next_wagon_id += 1
    c.wagons.append(w)
    hp = wagon_type(kind, cfg).hp
    # resolution: ENG-CV-18
    pending = f"caravan_toughness_lost:{kind}"
    if pending in c.feats:
        c.feats.remove(pending)
        w.toughness += 1
        hp += TOUGHNESS_HP
    c.max_hp += hp
    c.hp += hp
    if 4 * c.hp > c.max_hp:
        c.below_quarter = False
    return w


def lose_wagon(world: World, c: Convoy, w: Wagon, dice: Dice, ledger: Ledger, why: str, clauses: Sequence[str]) -> None:
    """RES-CV-23: subtracts its HP and tied Toughness HP from max and current HP; CV-UNR-04 (a);
    then the 25% line against the new maximum; cargo and travelers over the new capacities are
    left behind (SC-CV-09)."""
    cfg = world.config.cv
    c.wagons.remove(w)
    c.wagons_lost += 1
    hp = wagon_hp(w, cfg)
    for _ in range(w.toughness):
        c.feats.append(f"caravan_toughness_lost:{w.kind}")
    c.max_hp -= hp
    before = c.hp
    c.hp = max(0, c.hp - hp)
    emit(ledger, "WagonLost", c, (*clauses, "RES-CV-23", "SC-CV-05"), outcome=why, wagon=w.id, wagon_kind=w.kind,
          hp_before=before, hp_after=c.hp, max_hp=c.max_hp)
    # resolution: ENG-CV-09
    if not c.wagons:
        destroy(c, ledger, "no wagon left", cfg, ("RES-CV-23",))
        return
    unrest_check(world, c, dice, ledger, "(a) wagon lost")
    if c.status == "destroyed":
        return
    if c.hp == 0:
        emit(ledger, "ConvoyImmobilized", c, ("SC-CV-10", "RES-CV-23"), outcome="0 hp", cause="wagon lost")
    _quarter_line(world, c, dice, ledger)
    enforce_capacity(world, c, ledger)


def left_behind(c: Convoy, kind: str, cfg: CvConfig) -> tuple[int, int, int]:
    """What losing the last wagon of ``kind`` would leave behind (SC-CV-09, as :func:`enforce_capacity`
    does it): ``(cargo units, provisions, travelers)``. Reads the convoy, changes nothing (what a
    policy weighs before it abandons a wagon)."""
    if not any(x.kind == kind for x in c.wagons):
        return 0, 0, 0
    spec = WAGON_TYPES[kind]
    cargo, food = _overflow(c, cargo_capacity(c, cfg) - spec.cargo)
    people_lost = max(0, len(c.travelers) - (traveler_capacity(c, cfg) - spec.travelers))
    return sum(n for _, n in cargo), food, people_lost


def _overflow(c: Convoy, cap: int) -> tuple[list[tuple[str, int]], int]:
    """SC-CV-09 at cargo capacity ``cap``: the cargo left behind by kind (other, trade goods, repair
    materials, treasure, in that order), then the provisions over what the room left holds."""
    over = cargo_used(c) - cap
    cargo: list[tuple[str, int]] = []
    for kind in ("other", "trade_goods", "repair", "treasure"):
        if over <= 0:
            break
        n = min(over, c.cargo.get(kind, 0))
        if n:
            cargo.append((kind, n))
            over -= n
    if over <= 0:
        return cargo, 0
    keep = max(0, (cap - (sum(c.cargo.values()) - sum(n for _, n in cargo))) * PROVISIONS_PER_STORES)
    return cargo, max(0, c.provisions - keep)


# resolution: ENG-CV-10
def enforce_capacity(world: World, c: Convoy, ledger: Ledger) -> None:
    """SC-CV-09: cargo and travelers never exceed capacity; what no longer fits is left behind
    (cargo: other, trade goods, repair materials, treasure, then stores; travelers: passengers
    first, then other non-drivers, player characters last among them, then drivers, the last
    listed first — leaving is not a death)."""
    cfg = world.config.cv
    cap = cargo_capacity(c, cfg)
    cargo, lost = _overflow(c, cap)
    for kind, n in cargo:
        c.cargo[kind] -= n
        emit(ledger, "CargoLeftBehind", c, ("SC-CV-09",), total=n, outcome=kind, capacity=cap)
    if lost > 0:
        c.provisions -= lost
        emit(ledger, "CargoLeftBehind", c, ("SC-CV-09",), total=lost, outcome="provisions", capacity=cap)
    tcap = traveler_capacity(c, cfg)
    while len(c.travelers) > tcap:
        # passengers first, then other non-drivers (player characters last), then drivers
        order = sorted(range(len(c.travelers)), key=lambda i: (
            c.travelers[i].job == "driver", c.travelers[i].pc, c.travelers[i].job != "passenger", -i))
        t = c.travelers[order[0]]
        c.travelers.remove(t)
        emit(ledger, "TravelerLeft", c, ("SC-CV-09",), outcome="no room", traveler=t.id, job=t.job, capacity=tcap)


def kill_traveler(world: World, c: Convoy, t: Traveler, dice: Dice, ledger: Ledger, why: str) -> None:
    c.travelers.remove(t)
    c.travelers_lost += 1
    emit(ledger, "TravelerKilled", c, ("CV-HAZ-03", "RES-CV-06"), outcome=why, traveler=t.id, job=t.job, pc=t.pc)
    unrest_check(world, c, dice, ledger, "(b) traveler killed")


# resolution: ENG-CV-11
def pick(dice: Dice, n: int) -> tuple[int, list[tuple[int, int]]]:
    """A GM choice among n candidates, modelled as 1dn (GEN-06); no roll when n == 1."""
    if n == 1:
        return 0, []
    face = dice.roll(n)[0]
    return face - 1, [(n, face)]
