"""The caravan rules (CV, seed 003 — Pathfinder *Jade Regent* caravans; RULES.md §4 and §5.4).

Pure functions of (world, convoy, order, dice, ledger): no clock, no I/O, no agents, no global
random. The day of a convoy (RES-CV-24) is resolved in four calls, one per phase, so a convoy's
SimPy process wakes about twice a day:

1. :func:`resolve_slot_start` — at the start of the 12-hour travel slot: the day's orders
   (job change, purchase in a settlement, gift), then the fatigue check of RES-CV-08, the
   starvation 1d6 of RES-CV-10 and the mutiny Resolve check of RES-CV-18 (with its 1d2 and 1d6).
2. :func:`resolve_travel_slot` — the 12 slot hours: the hazard table's d100 (and d12 for the hour),
   then hour by hour the hazard met at its hour (RES-CV-06) and the distance covered (RES-CV-02/03).
3. :func:`resolve_extra_hours` — forced-march hours, each with its Security check (RES-CV-04).
4. :func:`resolve_rest` — the rest: foraged and spell-created units, consumption (RES-CV-09,
   CV-REST-03), recovery (CV-TRAV-07), repairs (RES-CV-23), then the CV-UNR-06 calming checks in
   the order wagon added, wagon upgraded, full rest day, double consumption.

Choices this module makes where RULES.md leaves room (each is an ENG-CV entry of
docs/resolutions.md, and a resolution comment names it where it is coded; the main ones):

* Distances are integer ticks of 1/192 mile (exact, see :mod:`sim.state.cv`). The terrain and the
  path type of a stretch are those of the hex being entered; a stretch is travelled hour by hour
  at the rate of the hex being entered at the start of the hour, and the miles left over when a
  hex is reached carry on toward the next hex ("hour by hour", RES-CV-02).
* Hours of rest are counted from the hour the convoy last stopped moving (``moved_until``):
  RES-CV-04's DC reset and RES-CV-08's "12 consecutive hours" read it at the start of the travel
  slot; CV-TRAV-07's recovery is granted at the start of the rest when the rest that begins then
  will reach 12 consecutive hours by the next travel slot, and the rest is fed (RES-CV-05/09). A
  forced march of k hours leaves 12 − k hours of rest: no recovery that night, and the next travel
  slot starts fatigued (RES-CV-08). One recovery step per day (one fed rest per day).
* The hazard table is rolled once per travel day, at the start of the slot, for the stretch being
  travelled (d100, then d12 for the hour unless the band fixes it); the scripted hazards of the
  scenario for that day replace the table, each met at its hour (RES-CV-24 (b)). A hazard whose
  hour comes after the convoy stopped moving (arrived, halted in a settlement, blocked) does not
  happen.
* The mutiny check (RES-CV-18) and the fatigue check (RES-CV-08) are made only on a day the convoy
  sets out to travel; the starvation 1d6 (RES-CV-10) every day.
* A wandering mutiny (RES-CV-18 outcome 2) drops the partial progress toward the route's next hex,
  goes hex by hex in the rolled direction (stopping at water, caverns or the map's edge), and the
  route is planned again from where the convoy ends the day.
* Water and cavern hexes (no row in SC-CV-11) are impassable for caravans.
* A convoy that loses its last wagon is destroyed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import msgspec

from sim.config import CvConfig
from sim.dice import Dice, DiceExpr
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger, check
from sim.hexmap import DIRECTION_NAMES, HexMap
from sim.paths import cheapest_path, hex_values, search_once
from sim.state.cv import (
    SUSPENDED_FOREVER,
    TICKS_PER_MILE,
    Convoy,
    CvWorld,
    DayPlan,
    DayState,
    Effect,
    EnemySpec,
    Hazard,
    HazardTable,
    RouteChoice,
    ScheduledEvent,
    Traveler,
    Wagon,
    miles_str,
)
from sim.world import World

SYSTEM = "cv"
UNREST_DC_BASE = 20  # CV-UNR-04
CALMING_DC = 20  # CV-UNR-06
VILLAGE_BONUS = 5  # CV-UNR-06
EXTRA_HOUR_DC = 15  # CV-TRAV-05
SLOT_HOURS = 12  # CV-TRAV-04
REST_HOURS_NEEDED = 12  # CV-TRAV-07, CV-REST-01
PROVISIONS_PER_STORES = 10  # CV-PROV-01
FORAGE_PER_SCOUT = 2  # CV-PROV-02
COOK_REDUCTION = 2  # RES-CV-22
EFFICIENT_CONSUMPTION = 2  # SC-CV-12
TOUGHNESS_HP = 20  # SC-CV-12
TERRAIN_MASTERY = 2  # SC-CV-12
HORSE_TRAIN_MPD = 4  # SC-CV-06
# CV-TRAV-05 sets no cap on a forced march: the rising DC and exhaustion end it. The day does: its
# extra hours come between the 12 travel hours and the rest (RES-CV-24 (c)), so at most 24 − 12 of
# them fit before the next day's travel slot.
# resolution: ENG-CV-03
DAY_HOURS = 24
MAX_EXTRA_HOURS = DAY_HOURS - 12
# the forced-march lengths legal_orders offers the policies (check_plan accepts any 0..MAX_EXTRA_HOURS)
EXTRA_HOURS_MENU = (0, 1, 2, 3, 4, 6, 9, 12)
STARVATION_DIE = 6  # CV-REST-03/04
SPELL_UNITS = {"goodberry": 1, "create_food_and_water": 3}  # CV-PROV-03; heroes_feast: caster level

# ---- SC-CV-06: wagon types ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WagonType:
    cost: int
    hp: int
    travelers: int
    cargo: int
    limit: int  # 0: none
    consumption: int
    french: str


WAGON_TYPES: dict[str, WagonType] = {
    "armored": WagonType(5000, 60, 6, 4, 2, 2, "chariot blindé"),
    "covered": WagonType(500, 20, 6, 4, 0, 2, "chariot couvert"),
    "fortune_teller": WagonType(500, 30, 2, 4, 1, 1, "roulotte de diseuse de bonne aventure"),
    "horse_train": WagonType(1200, 10, 6, 1, 3, 6, "attelage à 6"),
    "prisoner": WagonType(4000, 40, 6, 2, 2, 2, "chariot à prisonniers"),
    "royal_carriage": WagonType(2500, 30, 4, 2, 1, 2, "carrosse royal"),
    "supply": WagonType(300, 20, 2, 10, 0, 1, "chariot de ravitaillement"),  # RES-CV-21 (cost/HP from cfg)
}
WAGON_NAMES = {
    "armored": "armored wagon",
    "covered": "covered wagon",
    "fortune_teller": "fortune-teller's wagon",
    "horse_train": "horse train",
    "prisoner": "prisoner wagon",
    "royal_carriage": "royal carriage",
    "supply": "supply wagon",
}
FEATS = ("fast_caravan", "efficient_consumption", "caravan_toughness", "terrain_mastery", "extra_wagons", "expert_travelers")
JOBS = (
    "cook", "scout", "wainwright", "driver", "entertainer", "guard", "guide", "hero", "passenger",
    "fortune_teller", "caster", "trader",
)  # fmt: skip
STATS = ("attack", "ac", "security", "resolve")
PRIMARY_OF = {"attack": "Offense", "ac": "Defense", "security": "Mobility", "resolve": "Morale"}
STAT_NAME = {"attack": "Attack", "ac": "AC", "security": "Security", "resolve": "Resolve"}
DEFAULT_JOB_BONUSES: dict[str, dict[str, int]] = {"scout": {"security": 1}}  # SC-CV-13


def wagon_type(kind: str, cfg: CvConfig) -> WagonType:
    # implements: RES-CV-21
    wt = WAGON_TYPES[kind]
    if kind == "supply":  # RES-CV-21
        return WagonType(cfg.supply_wagon_cost_gp, cfg.supply_wagon_hp, wt.travelers, wt.cargo, wt.limit, wt.consumption, wt.french)
    return wt


# ---- SC-CV-11: terrain multipliers, in quarters: (highway, road, trackless) -----------------
MULT4: dict[str, tuple[int, int, int]] = {
    "desert": (4, 2, 2),
    "forest": (4, 4, 2),
    "hills": (4, 3, 2),
    "jungle": (4, 3, 1),
    "moor": (4, 4, 3),
    "mountains": (3, 3, 2),
    "plains": (4, 4, 3),
    "marsh": (4, 3, 2),
    "tundra": (4, 3, 3),
}
_PATH_COLUMN = {"highway": 0, "road": 1, "trail": 2, "none": 2}  # a trail counts as trackless (RES-CV-02)


def terrain_mult4(terrain: str, road: str) -> int | None:
    """The SC-CV-11 multiplier ×4 for a stretch (None: impassable for a caravan)."""
    row = MULT4.get(terrain)
    if row is None:
        return None
    return row[_PATH_COLUMN[road]]


def terrain_multiplier(terrain: str, road: str) -> Fraction | None:
    m = terrain_mult4(terrain, road)
    return None if m is None else Fraction(m, 4)


# resolution: ENG-CV-08
def passable(hm: HexMap, i: int) -> bool:
    return hm.hexes[i].terrain in MULT4


# ---- statistics -------------------------------------------------------------------------------


def count_kind(c: Convoy, kind: str) -> int:
    return sum(1 for w in c.wagons if w.kind == kind)


def counted(c: Convoy, kind: str) -> int:
    """Wagons of ``kind`` that give their special benefit: up to the type's limit (SC-CV-05)."""
    n = count_kind(c, kind)
    lim = WAGON_TYPES[kind].limit
    return min(n, lim) if lim else n


def feat_count(c: Convoy, feat: str) -> int:
    return sum(1 for f in c.feats if f == feat or f.startswith(feat + ":"))


def speed_mpd(c: Convoy, cfg: CvConfig) -> int:
    """RES-CV-01: base + horse trains up to their limit + Fast Caravan + axles on every wagon."""
    # implements: CV-TRAV-01, CV-TRAV-02
    s = cfg.base_speed_mpd + HORSE_TRAIN_MPD * counted(c, "horse_train")
    if feat_count(c, "fast_caravan"):
        s += cfg.fast_caravan_mpd
    if c.wagons and all(w.axles for w in c.wagons):
        s += cfg.axles_mpd
    return s


def daily_miles(c: Convoy, terrain: str, road: str, cfg: CvConfig, *, night: bool = False, half: bool = False) -> Fraction:
    """RES-CV-02/03: a full 12-hour slot on one stretch."""
    return Fraction(hourly_ticks(speed_mpd(c, cfg), terrain, road, night, half) * SLOT_HOURS, TICKS_PER_MILE)


def hourly_ticks(speed: int, terrain: str, road: str, night: bool, half: bool) -> int:
    """Ticks covered in one hour: speed × (q/4) × (½ at night) × (½ on a half-speed day) / 12."""
    m = terrain_mult4(terrain, road)
    if m is None:
        return 0
    return speed * m * (1 if night else 2) * (1 if half else 2)


def max_wagons(c: Convoy, cfg: CvConfig) -> int:
    # resolution: ENG-CV-22
    return cfg.max_wagons + cfg.extra_wagons_per_feat * feat_count(c, "extra_wagons")


def traveler_capacity(c: Convoy, cfg: CvConfig) -> int:
    return sum(wagon_type(w.kind, cfg).travelers for w in c.wagons)


def cargo_capacity(c: Convoy, cfg: CvConfig) -> int:
    return sum(wagon_type(w.kind, cfg).cargo for w in c.wagons)


def stores_units(provisions: int) -> int:
    """SC-CV-09: stores occupy ceil(provisions / 10) cargo units."""
    return -(-provisions // PROVISIONS_PER_STORES)


def cargo_used(c: Convoy) -> int:
    return stores_units(c.provisions) + sum(c.cargo.values())


def max_hp_of(c: Convoy, cfg: CvConfig) -> int:
    """RES-CV-23: Σ wagon HP + Caravan Toughness HP."""
    return sum(wagon_type(w.kind, cfg).hp + TOUGHNESS_HP * w.toughness for w in c.wagons)


def active(c: Convoy, job: str, now: int) -> list[Traveler]:
    return [t for t in c.travelers if t.job == job and t.suspended_until <= now]


def drivers(c: Convoy, now: int) -> int:
    return sum(1 for t in c.travelers if t.job == "driver" and t.suspended_until <= now)


def consumption(c: Convoy, now: int, cfg: CvConfig | None = None) -> int:
    """RES-CV-22 with SC-CV-12: Σ wagon consumption + travelers − 2 per cook (while stores are
    carried) − 2 per Efficient Consumption (not below the number of wagons), minimum 0."""
    # implements: SC-CV-08
    base = sum(WAGON_TYPES[w.kind].consumption for w in c.wagons) + len(c.travelers)
    if c.provisions > 0:
        base -= COOK_REDUCTION * len(active(c, "cook", now))
    ec = feat_count(c, "efficient_consumption")
    if ec:
        base = max(base - EFFICIENT_CONSUMPTION * ec, min(base, len(c.wagons)))
    return max(0, base)


def mutiny_margin(c: Convoy) -> int:
    """CV-MUT-01/02, RES-CV-17: Unrest − Morale while in mutiny, else 0."""
    return c.unrest - c.morale if c.unrest > c.morale else 0


def job_bonus(c: Convoy, stat: str, now: int, bonuses: dict[str, dict[str, int]], cap: int, *, scouting: bool = True) -> int:
    """Circumstance bonuses of the travelers' jobs to ``stat`` (SC-CV-03/13), capped at +5 unless
    the caravan has Expert Travelers. A foraging scout gives no Security (RES-CV-12); a
    fortune-teller needs a fortune-teller's wagon."""
    total = 0
    has_ft_wagon = None
    for t in c.travelers:
        if t.suspended_until > now or t.unpaid:
            continue
        b = bonuses.get(t.job)
        if not b:
            continue
        v = b.get(stat, 0)
        if not v:
            continue
        if t.job == "scout" and not scouting:
            continue
        if t.job == "fortune_teller":
            if has_ft_wagon is None:
                has_ft_wagon = count_kind(c, "fortune_teller") > 0
            if not has_ft_wagon:
                continue
        total += v
    if not feat_count(c, "expert_travelers"):
        total = min(total, cap)
    return total


def stat_mods(
    c: Convoy,
    stat: str,
    cfg: CvConfig,
    now: int,
    bonuses: dict[str, dict[str, int]],
    *,
    terrain: str = "",
    scouting: bool = True,
) -> list[tuple[str, int]]:
    """The named modifiers of a caravan check or of its AC (SC-CV-02, RES-CV-19): the primary
    statistic, capped job bonuses, wagon and feat bonuses, then condition and mutiny penalties."""
    prim = {"attack": c.offense, "ac": c.defense, "security": c.mobility, "resolve": c.morale}[stat]
    mods: list[tuple[str, int]] = []
    if stat == "ac":
        mods.append(("base", 10))
    mods.append((PRIMARY_OF[stat], prim))
    jb = job_bonus(c, stat, now, bonuses, cfg.job_bonus_cap, scouting=scouting)
    if jb:
        mods.append(("job bonuses", jb))
    if stat == "ac":
        n = counted(c, "armored")
        if n:
            mods.append(("armored wagons", 3 * n))
    elif stat == "security":
        n = counted(c, "prisoner")
        if n:
            mods.append(("prisoner wagons", 2 * n))
        if terrain and f"terrain_mastery:{terrain}" in c.feats:
            mods.append(("Terrain Mastery", TERRAIN_MASTERY))
    elif stat == "resolve":
        # resolution: ENG-CV-19
        if counted(c, "royal_carriage") and any(t.job in ("entertainer", "passenger") for t in c.travelers):
            mods.append(("royal carriage", 4))
    if stat == "ac":
        # resolution: ENG-CV-24
        if c.condition == "fatigued":  # RES-CV-05 (exhausted replaces fatigued: −6 on rolls, not on AC)
            mods.append(("fatigued", -cfg.fatigued_penalty))
    elif c.condition == "fatigued":
        mods.append(("fatigued", -cfg.fatigued_penalty))
    elif c.condition == "exhausted":
        mods.append(("exhausted", -cfg.exhausted_penalty))
    m = mutiny_margin(c)
    if m:
        mods.append(("mutiny", -m))
    return mods


def stat_value(c: Convoy, stat: str, cfg: CvConfig, now: int, bonuses: dict[str, dict[str, int]], **kw: Any) -> int:
    return sum(v for _, v in stat_mods(c, stat, cfg, now, bonuses, **kw))


# resolution: ENG-CV-14
def in_settlement(hm: HexMap, c: Convoy) -> bool:
    """Stationed in a village (RES-CV-11: any settlement of the map): the convoy's hex holds one."""
    return hm.hexes[c.hex].settlement is not None


def bonuses_of(cv: CvWorld) -> dict[str, dict[str, int]]:
    return cv.job_bonuses or DEFAULT_JOB_BONUSES


# ---- events --------------------------------------------------------------------------------


def _emit(ledger: Ledger, kind: str, c: Convoy, clauses: Sequence[str], **kw: Any) -> None:
    ledger.emit(SYSTEM, kind, c.key, clauses, **kw)


def _roll_check(dice: Dice, dc: int, mods: list[tuple[str, int]]) -> tuple[int, int, bool]:
    r = check(dice, dc, mods)  # RES-CV-19: no natural 1/20 effects
    return r.natural, r.total, r.success


# ---- Unrest, mutiny -----------------------------------------------------------------------


def _update_mutiny(c: Convoy, ledger: Ledger) -> None:
    """RES-CV-17: in mutiny exactly while Unrest > Morale."""
    now_in = c.unrest > c.morale
    if now_in and not c.in_mutiny:
        c.in_mutiny = True
        _emit(ledger, "MutinyBegan", c, ("CV-MUT-01", "RES-CV-17", "CV-MUT-02"), outcome="mutiny",
              unrest=c.unrest, morale=c.morale, margin=c.unrest - c.morale)
    elif not now_in and c.in_mutiny:
        c.in_mutiny = False
        _emit(ledger, "MutinyEnded", c, ("CV-MUT-01", "RES-CV-17"), outcome="calm", unrest=c.unrest, morale=c.morale)


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
    _emit(ledger, kind, c, (*clauses, "CV-UNR-02"), total=new, outcome=why, before=old, after=new, cause=cause, ref=ref)
    _update_mutiny(c, ledger)


def unrest_check(world: World, c: Convoy, dice: Dice, ledger: Ledger, trigger: str, clauses: Sequence[str] = ()) -> bool:
    """CV-UNR-04: Resolve check against 20 + Unrest or Unrest +1. ``trigger`` is (a)…(d).
    RES-CV-14: a destroyed convoy makes no further checks."""
    if c.status == "destroyed":
        return True
    cfg = world.config.cv
    assert world.cv is not None
    dc = UNREST_DC_BASE + c.unrest
    mods = stat_mods(c, "resolve", cfg, world.now, bonuses_of(world.cv))
    nat, total, ok = _roll_check(dice, dc, mods)
    _emit(ledger, "UnrestCheckRolled", c, ("CV-UNR-04", "RES-CV-14", *clauses), dc=dc, mods=mods, dice=[(20, nat)],
          total=total, outcome="success" if ok else "failure", trigger=trigger)
    if not ok:
        set_unrest(c, c.unrest + 1, ledger, ("CV-UNR-04",), f"failed Resolve check ({trigger})", cause="check", ref=trigger[:3])
    return ok


def calming_check(world: World, c: Convoy, dice: Dice, ledger: Ledger, action: str, village: bool) -> bool:
    """CV-UNR-06/RES-CV-15: Resolve DC 20 − Unrest (+5 in a village); success lowers Unrest."""
    cfg = world.config.cv
    assert world.cv is not None
    mods = stat_mods(c, "resolve", cfg, world.now, bonuses_of(world.cv))
    mods.append(("Unrest", -c.unrest))
    if village:
        mods.append(("village", VILLAGE_BONUS))
    nat, total, ok = _roll_check(dice, CALMING_DC, mods)
    _emit(ledger, "CalmingCheckRolled", c, ("CV-UNR-06", "RES-CV-15"), dc=CALMING_DC, mods=mods, dice=[(20, nat)],
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
    _emit(ledger, "ConvoyDestroyed", c, clauses, outcome="destroyed", cause=cause,
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
    _emit(ledger, kind, c, clauses, dice=list(dice_drawn), total=amount, outcome=source, before=before, after=c.hp,
          max_hp=c.max_hp)
    if amount <= 0:
        return
    if c.hp == 0:
        if source == "starvation":
            destroy(c, ledger, "starvation", cfg, ("CV-REST-04", "RES-CV-10"))
            return
        _emit(ledger, "ConvoyImmobilized", c, ("SC-CV-10", "RES-CV-23"), outcome="0 hp", cause=source)
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
    hp = wagon_type(w.kind, cfg).hp + TOUGHNESS_HP * w.toughness
    for _ in range(w.toughness):
        c.feats.append(f"caravan_toughness_lost:{w.kind}")
    c.max_hp -= hp
    before = c.hp
    c.hp = max(0, c.hp - hp)
    _emit(ledger, "WagonLost", c, (*clauses, "RES-CV-23", "SC-CV-05"), outcome=why, wagon=w.id, wagon_kind=w.kind,
          hp_before=before, hp_after=c.hp, max_hp=c.max_hp)
    # resolution: ENG-CV-09
    if not c.wagons:
        destroy(c, ledger, "no wagon left", cfg, ("RES-CV-23",))
        return
    unrest_check(world, c, dice, ledger, "(a) wagon lost")
    if c.status == "destroyed":
        return
    if c.hp == 0:
        _emit(ledger, "ConvoyImmobilized", c, ("SC-CV-10", "RES-CV-23"), outcome="0 hp", cause="wagon lost")
    _quarter_line(world, c, dice, ledger)
    _enforce_capacity(world, c, ledger)


# resolution: ENG-CV-10
def _enforce_capacity(world: World, c: Convoy, ledger: Ledger) -> None:
    """SC-CV-09: cargo and travelers never exceed capacity; what no longer fits is left behind
    (cargo: other, trade goods, repair materials, treasure, then stores; travelers: passengers
    first, then other non-drivers, player characters last among them, then drivers, the last
    listed first — leaving is not a death)."""
    cfg = world.config.cv
    cap = cargo_capacity(c, cfg)
    over = cargo_used(c) - cap
    for kind in ("other", "trade_goods", "repair", "treasure"):
        if over <= 0:
            break
        n = min(over, c.cargo.get(kind, 0))
        if n:
            c.cargo[kind] -= n
            over -= n
            _emit(ledger, "CargoLeftBehind", c, ("SC-CV-09",), total=n, outcome=kind, capacity=cap)
    if over > 0:
        keep = max(0, (cap - sum(c.cargo.values())) * PROVISIONS_PER_STORES)
        lost = c.provisions - keep
        if lost > 0:
            c.provisions = keep
            _emit(ledger, "CargoLeftBehind", c, ("SC-CV-09",), total=lost, outcome="provisions", capacity=cap)
    tcap = traveler_capacity(c, cfg)
    while len(c.travelers) > tcap:
        # passengers first, then other non-drivers (player characters last), then drivers
        order = sorted(range(len(c.travelers)), key=lambda i: (
            c.travelers[i].job == "driver", c.travelers[i].pc, c.travelers[i].job != "passenger", -i))
        t = c.travelers[order[0]]
        c.travelers.remove(t)
        _emit(ledger, "TravelerLeft", c, ("SC-CV-09",), outcome="no room", traveler=t.id, job=t.job, capacity=tcap)


def kill_traveler(world: World, c: Convoy, t: Traveler, dice: Dice, ledger: Ledger, why: str) -> None:
    c.travelers.remove(t)
    c.travelers_lost += 1
    _emit(ledger, "TravelerKilled", c, ("CV-HAZ-03", "RES-CV-06"), outcome=why, traveler=t.id, job=t.job, pc=t.pc)
    unrest_check(world, c, dice, ledger, "(b) traveler killed")


# resolution: ENG-CV-11
def _pick(dice: Dice, n: int) -> tuple[int, list[tuple[int, int]]]:
    """A GM choice among n candidates, modelled as 1dn (GEN-06); no roll when n == 1."""
    if n == 1:
        return 0, []
    face = dice.roll(n)[0]
    return face - 1, [(n, face)]


# ---- hazards --------------------------------------------------------------------------------


def table_for(cv: CvWorld, hm: HexMap, hex_index: int) -> HazardTable | None:
    """The first hazard table whose terrain, path type and river filters match the hex."""
    h = hm.hexes[hex_index]
    for tb in cv.tables:
        if tb.terrains and h.terrain not in tb.terrains:
            continue
        if tb.paths and h.road not in tb.paths:
            continue
        if tb.river is not None and tb.river != h.river:
            continue
        return tb
    return None


# resolution: ENG-CV-04
def roll_table(c: Convoy, tb: HazardTable, dice: Dice, ledger: Ledger, hex_index: int) -> tuple[str, int]:
    """RES-CV-06/GEN-06: the d100 of the day's table, then 1d12 for the hour unless fixed."""
    d = dice.roll(100)[0]
    drawn = [(100, d)]
    hz, hour = "", 0
    for b in tb.bands:
        if b.lo <= d <= b.hi:
            hz, hour = b.hazard, b.hour
            break
    if hz and not hour:
        hour = dice.roll(12)[0]
        drawn.append((12, hour))
    _emit(ledger, "HazardTableRolled", c, ("RES-CV-06", "GEN-06", "CV-HAZ-01"), dice=drawn, total=d,
          outcome=hz or "nothing", table=tb.id, hour=hour, hex=hex_index)
    return hz, hour


def resolve_hazard(world: World, c: Convoy, hz: Hazard, dice: Dice, ledger: Ledger, *, terrain: str = "",
                   choose_target: Callable[[list[dict[str, Any]]], str] | None = None) -> bool:
    """CV-HAZ-02/03, RES-CV-06: the hazard's check (or combat, CV-HAZ-04/SC-CV-14), then the
    effects of failure (or of success, if the hazard lists any). Returns whether it succeeded."""
    cfg = world.config.cv
    assert world.cv is not None
    c.hazards_met += 1
    if hz.check == "combat":
        ok = resolve_combat(world, c, hz, dice, ledger, choose_target=choose_target)
    else:
        stat = "security" if hz.check == "security" else "resolve"
        mods = stat_mods(c, stat, cfg, world.now, bonuses_of(world.cv), terrain=terrain,
                         scouting=not (c.today.plan and c.today.plan.forage))
        nat, total, ok = _roll_check(dice, hz.dc, mods)
        _emit(ledger, "HazardCheckRolled", c, ("CV-HAZ-02", "RES-CV-06", "SC-CV-02", "RES-CV-19"), dc=hz.dc, mods=mods,
              dice=[(20, nat)], total=total, outcome="success" if ok else "failure", hazard=hz.id, check=hz.check)
    # resolution: ENG-CV-12
    for e in hz.on_success if ok else hz.on_fail:
        if c.status == "destroyed":
            break
        apply_effect(world, c, e, dice, ledger, hz.id)
    return ok


def _amount(e: Effect, dice: Dice) -> tuple[int, list[tuple[int, int]]]:
    if e.dice:
        return DiceExpr.parse(e.dice).roll(dice)
    return e.amount, []


def apply_effect(world: World, c: Convoy, e: Effect, dice: Dice, ledger: Ledger, source: str) -> None:
    """One effect of RES-CV-06, dice drawn in the order the effect needs them (GEN-01)."""
    cfg = world.config.cv
    now = world.now
    cl = ("CV-HAZ-03", "RES-CV-06")
    if e.kind == "damage":
        n, drawn = _amount(e, dice)
        damage(world, c, n, source, dice, ledger, cl, drawn)
    elif e.kind == "lose_provisions":
        n, drawn = _amount(e, dice)
        lost = min(max(0, n), c.provisions)
        c.provisions -= lost
        _emit(ledger, "ProvisionsLost", c, cl, dice=drawn, total=lost, outcome=source, left=c.provisions)
    elif e.kind == "lose_cargo":
        n, drawn = _amount(e, dice)
        n = max(0, n)
        if e.cargo == "stores":
            lost = min(n * PROVISIONS_PER_STORES, c.provisions)
            c.provisions -= lost
            _emit(ledger, "ProvisionsLost", c, cl, dice=drawn, total=lost, outcome=source, left=c.provisions)
        else:
            lost = min(n, c.cargo.get(e.cargo, 0))
            if lost:
                c.cargo[e.cargo] -= lost
            _emit(ledger, "CargoLost", c, cl, dice=drawn, total=lost, outcome=source, cargo=e.cargo,
                  left=c.cargo.get(e.cargo, 0))
    elif e.kind == "lose_wagon":
        cands = [w for w in c.wagons if not e.wagon or w.kind == e.wagon]
        if cands:
            i, drawn = _pick(dice, len(cands))
            if drawn:
                _emit(ledger, "WagonChosen", c, ("RES-CV-06", "GEN-06"), dice=drawn, total=drawn[0][1],
                      outcome=str(cands[i].id), candidates=[w.id for w in cands])
            lose_wagon(world, c, cands[i], dice, ledger, source, cl)
    elif e.kind == "kill_traveler":
        victims = [t for t in c.travelers if not e.job or t.job == e.job]
        if victims:
            i, drawn = _pick(dice, len(victims))
            if drawn:
                _emit(ledger, "TravelerChosen", c, ("RES-CV-06", "GEN-06"), dice=drawn, total=drawn[0][1],
                      outcome=victims[i].id, candidates=[t.id for t in victims])
            kill_traveler(world, c, victims[i], dice, ledger, source)
    elif e.kind == "suspend_job":
        workers = [t for t in c.travelers if (not e.job or t.job == e.job) and t.suspended_until <= now]
        if workers:
            i, drawn = _pick(dice, len(workers))
            tr = workers[i]
            tr.suspended_until = now + 24 * e.days if e.days > 0 else SUSPENDED_FOREVER
            _emit(ledger, "JobSuspended", c, cl, dice=drawn, outcome=source, traveler=tr.id, job=tr.job,
                  days=e.days if e.days > 0 else None, permanent=e.days <= 0)
    elif e.kind == "block_travel":
        if not c.today.blocked:
            c.today.blocked = True
            _emit(ledger, "TravelBlocked", c, cl, outcome=source)
            unrest_check(world, c, dice, ledger, "(d) cannot move: adverse event")
    elif e.kind == "unrest":
        set_unrest(c, c.unrest + e.amount, ledger, ("CV-UNR-07",), source, cause="hazard", ref=source)
    else:
        raise InvalidOrderError(f"unknown hazard effect {e.kind!r} in hazard {source!r}")
    _ = cfg


def resolve_combat(world: World, c: Convoy, hz: Hazard, dice: Dice, ledger: Ledger, *,
                   choose_target: Callable[[list[dict[str, Any]]], str] | None = None) -> bool:
    """SC-CV-14 (RES-CV-07): each round the caravan attacks one enemy (its target is a policy input;
    default the lowest id), then every standing enemy attacks in ascending id. Ends when all
    enemies are at 0 HP (success), the round limit is reached, or the caravan is at 0 HP."""
    cfg = world.config.cv
    assert world.cv is not None
    bon = bonuses_of(world.cv)
    enemies: list[EnemySpec] = sorted(hz.enemies, key=lambda e: e.id)
    hp = {e.id: e.hp for e in enemies}
    dmg_expr = DiceExpr.parse(cfg.combat_damage)
    _emit(ledger, "CombatBegan", c, ("CV-HAZ-04", "RES-CV-07", "SC-CV-14"), outcome=hz.id,
          enemies=[[e.id, e.hp, e.ac] for e in enemies], rounds=hz.rounds)
    for rnd in range(1, hz.rounds + 1):
        alive = [e for e in enemies if hp[e.id] > 0]
        if not alive:
            break
        view = [{"id": e.id, "hp": hp[e.id], "ac": e.ac, "attack": e.attack, "damage": e.damage} for e in alive]
        tid = choose_target(view) if choose_target else alive[0].id
        target = next((e for e in alive if e.id == tid), alive[0])
        mods = stat_mods(c, "attack", cfg, world.now, bon)
        nat, total, hit = _roll_check(dice, target.ac, mods)
        drawn = [(20, nat)]
        dealt = 0
        if hit:
            n, faces = dmg_expr.roll(dice)
            dealt = max(0, n + c.offense)
            drawn += faces
            hp[target.id] = max(0, hp[target.id] - dealt)
        _emit(ledger, "CaravanAttackRolled", c, ("SC-CV-14",), dc=target.ac, mods=mods, dice=drawn, total=total,
              outcome="hit" if hit else "miss", round=rnd, target=target.id, damage=dealt, enemy_hp=hp[target.id])
        for e in enemies:
            if hp[e.id] <= 0 or c.hp <= 0 or c.status == "destroyed":
                continue
            ac_mods = stat_mods(c, "ac", cfg, world.now, bon)
            ac = sum(v for _, v in ac_mods)
            nat, total, hit = _roll_check(dice, ac, [("attack bonus", e.attack)])
            drawn = [(20, nat)]
            n = 0
            if hit:
                n, faces = DiceExpr.parse(e.damage).roll(dice)
                drawn += faces
            _emit(ledger, "EnemyAttackRolled", c, ("SC-CV-14",), dc=ac, mods=[("attack bonus", e.attack)], dice=drawn,
                  total=total, outcome="hit" if hit else "miss", round=rnd, enemy=e.id, damage=max(0, n),
                  ac_mods=[[k, v] for k, v in ac_mods])
            if hit:
                damage(world, c, max(0, n), "combat", dice, ledger, ("SC-CV-14", "RES-CV-23"))
        # resolution: ENG-CV-12
        if c.hp <= 0 or c.status == "destroyed":
            break
    won = all(v <= 0 for v in hp.values())
    _emit(ledger, "CombatEnded", c, ("SC-CV-14",), outcome="victory" if won else "defeat", hazard=hz.id, hp=c.hp,
          max_hp=c.max_hp,
          enemies_left=[k for k in sorted(hp) if hp[k] > 0])
    return won


# ---- routes ---------------------------------------------------------------------------------


def hazard_harm(hz: Hazard) -> float:
    """A rough expected harm of a failed hazard in HP-equivalents (for route risk and policies)."""
    got = _HARM.get(hz)
    if got is not None:
        return got
    harm = 0.0
    for e in hz.on_fail:
        if e.kind == "damage":
            harm += _mean(e.dice)
        elif e.kind in ("lose_provisions", "lose_cargo"):
            harm += (_mean(e.dice) if e.dice else e.amount) * (0.5 if e.kind == "lose_provisions" else 2.0)
        elif e.kind == "lose_wagon":
            harm += 20.0
        elif e.kind == "kill_traveler":
            harm += 12.0
        elif e.kind == "suspend_job":
            harm += 3.0
        elif e.kind == "block_travel":
            harm += 5.0
        elif e.kind == "unrest":
            harm += 6.0 * e.amount
    if hz.check == "combat":
        harm += sum(_mean(e.damage) * 0.5 * min(hz.rounds, 3) for e in hz.enemies)
    if len(_HARM) > 4096:
        _HARM.clear()
    _HARM[hz] = harm
    return harm


_HARM: dict[Hazard, float] = {}  # memo of a pure function of a frozen (hashable) hazard


def _mean(expr: str) -> float:
    if not expr:
        return 0.0
    d = DiceExpr.parse(expr)
    return d.bonus + sum((1 if n > 0 else -1) * abs(n) * (s + 1) / 2 for n, s in d.dice)


def fail_chance(hz: Hazard, security: int, resolve: int) -> float:
    if hz.check == "combat":
        return 0.5
    stat = security if hz.check == "security" else resolve
    need = hz.dc - stat  # the d20 face needed
    return min(1.0, max(0.0, (need - 1) / 20))


def table_risk(tb: HazardTable, cv: CvWorld, security: int, resolve: int, cache: RouteCache | None = None) -> float:
    """Expected harm (HP-equivalents) of one day's roll on ``tb``."""
    key = (tb.id, security, resolve)
    if cache is not None and key in cache.risks:
        return cache.risks[key]
    r = 0.0
    for b in tb.bands:
        if b.hazard and b.hazard in cv.hazards:
            hz = cv.hazards[b.hazard]
            r += (b.hi - b.lo + 1) / 100 * fail_chance(hz, security, resolve) * hazard_harm(hz)
    if cache is not None:
        cache.risks[key] = r
    return r


class RouteCache:
    """Memoised route computations (pure functions of the map, the hazard tables and the
    convoy's speed and base statistics). The driver shares one per (map, tables) content, so
    it only ever saves time: it never changes a result. What depends on the roads (a hex's table,
    a step cost) is kept per map by ``sim.paths.hex_values``, which recomputes the hexes whose road
    changed; the paths themselves are kept by ``sim.paths``."""

    def __init__(self, key: str) -> None:
        self.key = key  # the digest of the (map, hazards, tables) content it was made for (shared_route_cache)
        self.risks: dict[tuple[Any, ...], float] = {}


_ROUTE_CACHES: dict[str, RouteCache] = {}


def shared_route_cache(world: World) -> RouteCache:
    """One route cache per (map, hazards, tables) content, shared by the campaigns of a process
    (a batch of seeds of one scenario reuses every path). It memoises pure functions only."""
    cv = world.cv
    enc = msgspec.msgpack.encode
    h = hashlib.sha256(enc(world.map))
    if cv is not None:
        h.update(enc(cv.tables))
        h.update(enc(sorted(cv.hazards.items())))
    key = h.hexdigest()
    rc = _ROUTE_CACHES.get(key)
    if rc is None:
        if len(_ROUTE_CACHES) >= 8:
            _ROUTE_CACHES.pop(next(iter(_ROUTE_CACHES)))
        rc = _ROUTE_CACHES[key] = RouteCache(key)
    return rc


def hex_tables(world: World, cache: RouteCache | None) -> list[int]:
    """Per hex, the index in ``world.cv.tables`` of its hazard table (-1: none)."""
    cv = world.cv
    assert cv is not None
    idx = {tb.id: k for k, tb in enumerate(cv.tables)}

    def table_of(i: int) -> int:
        tb = table_for(cv, world.map, i)
        return -1 if tb is None else idx[tb.id]

    if cache is None:
        return [table_of(i) for i in range(len(world.map.hexes))]
    # table_for reads the hex alone, and the tables are those the cache was made for
    return hex_values(world.map, ("cv-tables", cache.key), table_of)


def route_stats(world: World, c: Convoy) -> tuple[int, int]:
    """The Security and Resolve a route's risk is judged with: the convoy's standing statistics,
    without today's condition, mutiny or scouting (so a plan does not flicker with them)."""
    cfg = world.config.cv
    assert world.cv is not None
    bon = bonuses_of(world.cv)
    sec = sum(v for k, v in stat_mods(c, "security", cfg, world.now, bon) if k not in ("fatigued", "exhausted", "mutiny"))
    res = sum(v for k, v in stat_mods(c, "resolve", cfg, world.now, bon) if k not in ("fatigued", "exhausted", "mutiny"))
    return sec, res


def step_costs(world: World, kind: str, security: int, resolve: int, speed: int, cache: RouteCache | None = None) -> list[float | None]:
    """Cost in days (plus risk for ``safe``) of entering each hex; None: impassable."""
    hm = world.map
    cv = world.cv
    assert cv is not None
    tabs = hex_tables(world, cache)
    risks: dict[int, float] = {}
    safe = kind == "safe"

    def cost(i: int) -> float | None:
        h = hm.hexes[i]
        m = terrain_mult4(h.terrain, h.road)
        if m is None:
            return None
        days = hm.hex_miles * 4 / (speed * m)
        k = tabs[i]
        if safe and k >= 0:
            if k not in risks:
                risks[k] = table_risk(cv.tables[k], cv, security, resolve, cache)
            # risk per day of travel on this stretch, weighted: 10 HP of expected harm ~ one day
            days += days * risks[k] / 10
        return days

    if cache is None:
        return [cost(i) for i in range(len(hm.hexes))]
    # a hex's cost reads that hex (terrain, road, table) and the arguments alone
    return hex_values(hm, ("cv-steps", cache.key, kind, security, resolve, speed), cost)


def least_cost(hm: HexMap, start: int, goal: int, steps: list[float | None]) -> tuple[list[int], float] | None:
    """``HexMap.least_cost_path`` with the cost of entering each hex (RES-CV-02 travel time)."""
    return search_once(hm.neighbor_table(), steps, start, goal)


def plan_path(world: World, c: Convoy, kind: str, cache: RouteCache | None = None) -> tuple[list[int], float] | None:
    """The path from the convoy's hex through its remaining stops, for a route ``kind``."""
    cfg = world.config.cv
    sec, res = route_stats(world, c) if kind == "safe" else (0, 0)
    speed = speed_mpd(c, cfg)
    steps = step_costs(world, kind, sec, res, speed, cache)
    path = [c.hex]
    total = 0.0
    at = c.hex
    for stop in c.stops:
        if cache is not None:
            # the steps read the map and the tables the cache was made for, and nothing else
            got = cheapest_path(world.map, at, stop, ("cv", cache.key, kind, sec, res, speed), lambda: steps,
                                hex_cost=steps.__getitem__)
        else:
            got = least_cost(world.map, at, stop, steps)
        if got is None:
            return None
        p, cst = got
        path.extend(p[1:])
        total += cst
        at = stop
    return path, total


def route_risk(world: World, c: Convoy, path: Sequence[int], cache: RouteCache | None = None) -> float:
    """Expected hazard harm (HP-equivalents) along ``path``: each stretch's table risk per day
    times the days spent on it."""
    assert world.cv is not None
    sec, res = route_stats(world, c)
    speed = speed_mpd(c, world.config.cv)
    tabs = hex_tables(world, cache)
    total = 0.0
    for i in path[1:]:
        k = tabs[i]
        if k < 0:
            continue
        h = world.map.hexes[i]
        m = terrain_mult4(h.terrain, h.road) or 1
        total += table_risk(world.cv.tables[k], world.cv, sec, res, cache) * world.map.hex_miles * 4 / (speed * m)
    return total


def route_days(world: World, c: Convoy, path: Sequence[int]) -> float:
    speed = speed_mpd(c, world.config.cv)
    d = 0.0
    for i in path[1:]:
        h = world.map.hexes[i]
        m = terrain_mult4(h.terrain, h.road) or 1
        d += world.map.hex_miles * 4 / (speed * m)
    return d


def route_options(world: World, cid: str, cache: RouteCache | None = None) -> list[RouteChoice]:
    """The distinct routes a convoy may take from here: ``fast`` and ``safe`` (only listed when
    they differ from each other)."""
    assert world.cv is not None
    c = world.cv.convoy(cid)
    if c.status != "travelling" or not c.stops:
        return []
    out: list[RouteChoice] = []
    seen: set[tuple[int, ...]] = set()
    for kind in ("fast", "safe"):
        got = plan_path(world, c, kind, cache)
        if got is None:
            continue
        p = tuple(got[0])
        if p in seen:
            continue
        seen.add(p)
        out.append(RouteChoice(kind, p, round(route_days(world, c, p), 2), round(route_risk(world, c, p, cache), 2)))
    return out


def resolve_route(world: World, cid: str, choice: RouteChoice, ledger: Ledger) -> None:
    """Follow ``choice`` from here. Progress toward a next hex that the new path does not start
    with is dropped."""
    assert world.cv is not None
    c = world.cv.convoy(cid)
    if not choice.path or choice.path[0] != c.hex or not world.map.path_is_connected(list(choice.path)):
        raise IllegalOrderError("RES-CV-24", "a route must start at the convoy's hex and go hex to hex",
                                order=str(choice), actor=c.key)
    if any(not passable(world.map, i) for i in choice.path):
        raise IllegalOrderError("RES-CV-02", "a caravan cannot enter water or cavern hexes", order=str(choice), actor=c.key)
    nxt = c.next_hex
    c.path = list(choice.path)
    c.path_pos = 0
    if c.progress and (len(c.path) < 2 or c.path[1] != nxt):
        c.progress = 0
    c.route_kind = choice.kind
    _emit(ledger, "RouteChosen", c, ("RES-CV-02", "RES-CV-24"), outcome=choice.kind, hexes=len(c.path) - 1,
          days=choice.days, risk=choice.risk, via=[world.map.label(i) for i in c.path if world.map.hexes[i].settlement])


def replan(world: World, c: Convoy, ledger: Ledger, cache: RouteCache | None = None) -> None:
    got = plan_path(world, c, c.route_kind, cache)
    if got is None:
        c.path = [c.hex]
        c.path_pos = 0
        _emit(ledger, "RouteLost", c, ("RES-CV-24",), outcome="no path", at=world.map.label(c.hex))
        return
    nxt = c.next_hex
    c.path = got[0]
    c.path_pos = 0
    if c.progress and (len(c.path) < 2 or c.path[1] != nxt):
        c.progress = 0


# ---- legal orders ---------------------------------------------------------------------------


def can_move(c: Convoy, now: int) -> tuple[bool, str, str]:
    """(able, clause, reason) — whether the convoy can set out at all today."""
    if c.status != "travelling":
        return False, "RES-CV-24", f"the convoy has {c.status}"
    if c.hp <= 0:
        return False, "SC-CV-10", "a caravan at 0 hit points cannot move until repaired"
    if c.condition == "exhausted":
        return False, "CV-TRAV-06", "an exhausted caravan cannot move"
    if drivers(c, now) < len(c.wagons):
        return False, "SC-CV-13", f"{len(c.wagons)} wagons need {len(c.wagons)} drivers; {drivers(c, now)} assigned"
    if c.next_hex is None:
        return False, "RES-CV-24", "no route ahead"
    return True, "", ""


def mobility(c: Convoy, now: int, plan: DayPlan | None = None, cfg: CvConfig | None = None) -> tuple[bool, str, str]:
    """:func:`can_move` once the plan's wagon abandoned, job change and wagon purchases are made."""
    bought = 0 if plan is None else sum(1 for b in plan.purchases if b.startswith("wagon:"))
    if plan is None or not (plan.assignments or plan.abandon or bought):
        return can_move(c, now)
    base = can_move_ignoring_drivers(c)
    if not base[0]:
        return base
    cfg = cfg or CvConfig()
    n_drivers = drivers(c, now)
    n_wagons = len(c.wagons)
    if plan.abandon:
        ws = [x for x in c.wagons if x.kind == plan.abandon]
        if not ws:
            return False, "RES-CV-24", f"no {plan.abandon} wagon to abandon"
        w = ws[-1]
        n_wagons -= 1
        if c.hp - wagon_type(w.kind, cfg).hp - TOUGHNESS_HP * w.toughness <= 0:
            return False, "SC-CV-10", "abandoning that wagon leaves the caravan at 0 hit points"
        overflow = len(c.travelers) - (traveler_capacity(c, cfg) - wagon_type(w.kind, cfg).travelers)
        non_drivers = sum(1 for t in c.travelers if t.job != "driver")
        n_drivers -= max(0, overflow - non_drivers)
    for assign in plan.assignments:
        tid, _, job = assign.partition(":")
        t = next((x for x in c.travelers if x.id == tid), None)
        if t is not None and t.suspended_until <= now:
            if job == "driver" and t.job != "driver":
                n_drivers += 1
            elif job != "driver" and t.job == "driver":
                n_drivers -= 1
    n_wagons += bought
    if n_drivers < n_wagons:
        return False, "SC-CV-13", f"{n_wagons} wagons need {n_wagons} drivers; {n_drivers} assigned"
    return True, "", ""


def can_move_ignoring_drivers(c: Convoy) -> tuple[bool, str, str]:
    if c.status != "travelling":
        return False, "RES-CV-24", f"the convoy has {c.status}"
    if c.hp <= 0:
        return False, "SC-CV-10", "a caravan at 0 hit points cannot move until repaired"
    if c.condition == "exhausted":
        return False, "CV-TRAV-06", "an exhausted caravan cannot move"
    if c.next_hex is None:
        return False, "RES-CV-24", "no route ahead"
    return True, "", ""


def _village_ahead(hm: HexMap, c: Convoy, reach: int = 4) -> bool:
    end = min(len(c.path), c.path_pos + 1 + reach)
    for i in c.path[c.path_pos + 1 : end]:
        if hm.hexes[i].settlement and i != c.destination:
            return True
    return False


def purchase_options(world: World, c: Convoy) -> list[str]:
    """What a convoy stationed in a settlement may buy today (RES-CV-11, SC-CV-05/06, RES-CV-01/23)."""
    cfg = world.config.cv
    out: list[str] = []
    free = cargo_capacity(c, cfg) - cargo_used(c)
    # food stores: fill the free cargo space, within the purse (ceil((p + 10n)/10) = ceil(p/10) + n)
    n = min(free, c.gp // cfg.stores_cost_gp if cfg.stores_cost_gp else free)
    if n >= 1:
        out.append(f"stores:{n}")
    wainwrights = len(active(c, "wainwright", world.now))
    if wainwrights and free >= 1 and c.gp >= cfg.repair_materials_cost_gp:
        k = min(free, 2 * wainwrights, c.gp // cfg.repair_materials_cost_gp)
        out.append(f"repair:{k}")
    if len(c.wagons) < max_wagons(c, cfg):
        for kind in sorted(WAGON_TYPES):
            if wagon_type(kind, cfg).cost <= c.gp:
                out.append(f"wagon:{kind}")
    if any(not w.axles for w in c.wagons) and c.gp >= cfg.axles_cost_gp:
        out.append("axles")
    return out


def legal_orders(world: World, cid: str) -> list[DayPlan]:
    """The whole-day plans offered to a convoy now (at the start of its travel slot, RES-CV-24).

    The list is the product of: the movement (travel 12 h by day with a forced march of 0, 1, 2, 3,
    4, 6, 9 or 12 extra hours, by day halting at the next settlement, by night; rest; a repair day),
    the scouts' task (forage or scout), one crew-care action (none, double rations, a gift of trade
    goods or treasure), one purchase when stationed in a settlement, and one job change (only offered
    when the wagons lack drivers). Purchases offer one amount (fill the cargo space). This is the
    policies' menu, not a rule: :func:`check_plan` accepts any amount and any forced march the rules
    allow, and several purchases, gifts and job changes a day, with double rations or without."""
    assert world.cv is not None
    c = world.cv.convoy(cid)
    now = world.now
    if c.status != "travelling":
        return []
    cfg = world.config.cv
    hm = world.map
    assigns = [""]
    abandons = [""]
    if drivers(c, now) < len(c.wagons):
        for t in sorted(c.travelers, key=lambda t: t.id):
            if t.can_drive and t.job != "driver" and not t.unpaid and t.suspended_until <= now and now - t.job_since >= 24:
                assigns.append(f"{t.id}:driver")
                break
        if len(c.wagons) > 1:
            abandons += sorted({w.kind for w in c.wagons})
    scouts = len(active(c, "scout", now))
    village = in_settlement(hm, c)
    buys = [""] + (purchase_options(world, c) if village else [])
    g = c.gifts + 1
    cares = ["", "double"]
    if c.cargo.get("trade_goods", 0) >= g:
        cares.append("gift:trade_goods")
    if c.cargo.get("treasure", 0) >= g:
        cares.append("gift:treasure")
    cons = consumption(c, now, cfg)
    repair_ok = (bool(active(c, "wainwright", now)) and c.hp < c.max_hp and not c.starving)
    travel_moves = [("travel", False, k, False) for k in EXTRA_HOURS_MENU]
    if _village_ahead(hm, c):
        travel_moves.append(("travel", False, 0, True))
    travel_moves.append(("travel", True, 0, False))
    out: list[DayPlan] = []
    combos = [(a, "") for a in assigns] + [("", ab) for ab in abandons if ab]
    for assign, abandon in combos:
        after = c
        if abandon:  # the wagon is abandoned before the day's purchase (ENG-CV-13): offer what is still legal
            after = msgspec.msgpack.decode(msgspec.msgpack.encode(c), type=Convoy)
            after.wagons.remove([x for x in after.wagons if x.kind == abandon][-1])
        for buy in buys:
            if buy and abandon:
                try:
                    _check_purchase(cfg, after, buy, DayPlan(buy=buy, abandon=abandon))
                except IllegalOrderError:
                    continue
            ok = mobility(c, now, DayPlan(assign=assign, buy=buy, abandon=abandon), cfg)[0]
            mv = (travel_moves if ok else []) + [("rest", False, 0, False)]
            if repair_ok and (c.cargo.get("repair", 0) > 0 or buy.startswith("repair:")):
                mv.append(("repair", False, 0, False))
            bought = int(buy.split(":")[1]) * PROVISIONS_PER_STORES if buy.startswith("stores:") else 0
            for forage in ([False, True] if scouts else [False]):
                pool = c.provisions + bought + (FORAGE_PER_SCOUT * scouts if forage else 0)
                for care in cares:
                    if care == "double" and (cons == 0 or pool < 2 * cons):
                        continue
                    gift = care.split(":")[1] if care.startswith("gift:") else ""
                    for move, night, extra, halt in mv:
                        out.append(DayPlan(move=move, night=night, extra=extra, halt=halt, forage=forage,
                                           double=care == "double", buy=buy, gift=gift, assign=assign, abandon=abandon))
    return out


def check_plan(world: World, c: Convoy, plan: DayPlan) -> None:
    """Raise IllegalOrderError (with its clause) or InvalidOrderError if ``plan`` breaks a rule."""
    cfg = world.config.cv
    now = world.now
    hm = world.map
    if plan.move not in ("travel", "rest", "repair"):
        raise InvalidOrderError(f"{c.key}: unknown move {plan.move!r} (expected travel, rest or repair)")
    if plan.extra < 0:
        raise InvalidOrderError(f"{c.key}: extra hours must be 0 or more, not {plan.extra}")
    if plan.extra > MAX_EXTRA_HOURS:
        raise IllegalOrderError("RES-CV-24", f"{plan.extra} extra hours do not fit in the day: a forced march ends before the "
                                f"next day's travel slot ({MAX_EXTRA_HOURS} extra hours at most)", order=plan.label(), actor=c.key)
    if c.status != "travelling":
        raise IllegalOrderError("RES-CV-24", f"the convoy has {c.status}", order=plan.label(), actor=c.key)
    changed: set[str] = set()
    for assign in plan.assignments:  # SC-CV-03: each traveler may change jobs once 24 hours have passed
        tid, _, job = assign.partition(":")
        t = next((x for x in c.travelers if x.id == tid), None)
        if t is None or job not in JOBS:
            raise InvalidOrderError(f"{c.key}: cannot read job change {assign!r} (traveler:job)")
        if now - t.job_since < 24 or tid in changed:
            raise IllegalOrderError("SC-CV-03", f"{tid} changed jobs less than 24 hours ago", order=plan.label(), actor=c.key)
        if job == "driver" and not t.can_drive:
            raise IllegalOrderError("SC-CV-07", f"{tid} cannot drive", order=plan.label(), actor=c.key)
        changed.add(tid)
    if plan.abandon:
        if not any(w.kind == plan.abandon for w in c.wagons):
            raise InvalidOrderError(f"{c.key}: no {plan.abandon!r} wagon to abandon")
        if len(c.wagons) == 1:
            # resolution: ENG-CV-09
            raise IllegalOrderError("RES-CV-24", "a caravan does not abandon its last wagon", order=plan.label(), actor=c.key)
    village = in_settlement(hm, c)
    purchases = plan.purchases
    if purchases:
        if not village:
            raise IllegalOrderError("RES-CV-11", "purchases are made in a settlement", order=plan.label(), actor=c.key)
        # RES-CV-15: a day may hold several purchases, made in order: each is checked on the caravan as
        # the earlier ones leave it (a copy: nothing is bought here)
        copy = len(purchases) > 1 or bool(plan.abandon)
        sim = msgspec.msgpack.decode(msgspec.msgpack.encode(c), type=Convoy) if copy else c
        if plan.abandon:
            # the abandoned wagon is gone before the day's purchases (ENG-CV-13): axles are not fitted to it
            sim.wagons.remove([x for x in sim.wagons if x.kind == plan.abandon][-1])
        scratch = Ledger(keep=False)
        for i, buy in enumerate(purchases):
            _check_purchase(cfg, sim, buy, plan)
            if i + 1 < len(purchases):
                resolve_purchase(world, sim, buy, scratch)
    # gifts (CV-UNR-08, "at any time", RES-CV-24): any number, each one more cargo unit than the last
    # (RES-CV-16), alongside double rations or anything else
    given = dict(c.cargo)
    counter = c.gifts
    for gift in plan.gifts:
        if gift not in ("trade_goods", "treasure"):
            raise InvalidOrderError(f"{c.key}: a gift is trade_goods or treasure, not {gift!r}")
        need = 1 + counter
        if given.get(gift, 0) < need:
            raise IllegalOrderError("RES-CV-16", f"the next gift costs {need} cargo units of {gift}; "
                                    f"the caravan carries {given.get(gift, 0)}", order=plan.label(), actor=c.key)
        given[gift] = given.get(gift, 0) - need
        counter += 1
    if plan.forage and not active(c, "scout", now):
        raise IllegalOrderError("CV-PROV-02", "no scout to forage", order=plan.label(), actor=c.key)
    if plan.move == "repair":
        if not active(c, "wainwright", now):
            raise IllegalOrderError("RES-CV-23", "repairs need a wainwright", order=plan.label(), actor=c.key)
        if c.starving:
            raise IllegalOrderError("CV-REST-04", "a starving caravan cannot be repaired", order=plan.label(), actor=c.key)
        if c.cargo.get("repair", 0) == 0 and not any(b.startswith("repair:") for b in purchases):
            raise IllegalOrderError("RES-CV-23", "repairs need repair materials", order=plan.label(), actor=c.key)
    if plan.move == "travel":
        ok, clause, reason = mobility(c, now, plan, cfg)
        if not ok:
            raise IllegalOrderError(clause, reason, order=plan.label(), actor=c.key)


def _check_purchase(cfg: CvConfig, c: Convoy, buy: str, plan: DayPlan) -> None:
    """One purchase of the day's plan, against the caravan as it stands (RES-CV-11, SC-CV-05/06/09,
    RES-CV-01/23)."""
    what, _, arg = buy.partition(":")
    if what == "stores":
        n = _int(arg, buy, c)
        if n * cfg.stores_cost_gp > c.gp:
            raise IllegalOrderError("RES-CV-11", f"{n} stores cost {n * cfg.stores_cost_gp} gp; the purse holds {c.gp}",
                                    order=plan.label(), actor=c.key)
        if stores_units(c.provisions + n * PROVISIONS_PER_STORES) + sum(c.cargo.values()) > cargo_capacity(c, cfg):
            raise IllegalOrderError("SC-CV-09", "the stores would exceed the cargo capacity", order=plan.label(), actor=c.key)
    elif what == "repair":
        n = _int(arg, buy, c)
        if n * cfg.repair_materials_cost_gp > c.gp:
            raise IllegalOrderError("RES-CV-23", "not enough gold for the repair materials", order=plan.label(), actor=c.key)
        if cargo_used(c) + n > cargo_capacity(c, cfg):
            raise IllegalOrderError("SC-CV-09", "the repair materials would exceed the cargo capacity",
                                    order=plan.label(), actor=c.key)
    elif what == "wagon":
        if arg not in WAGON_TYPES:
            raise InvalidOrderError(f"{c.key}: unknown wagon kind {arg!r}")
        if len(c.wagons) >= max_wagons(c, cfg):
            raise IllegalOrderError("SC-CV-05", f"a caravan holds at most {max_wagons(c, cfg)} wagons",
                                    order=plan.label(), actor=c.key)
        if wagon_type(arg, cfg).cost > c.gp:
            raise IllegalOrderError("SC-CV-05", f"not enough gold for the {WAGON_NAMES[arg]} ({wagon_type(arg, cfg).cost} gp; "
                                    f"the purse holds {c.gp})", order=plan.label(), actor=c.key)
    elif what == "axles":
        if all(w.axles for w in c.wagons):
            raise IllegalOrderError("RES-CV-01", "every wagon already has improved axles", order=plan.label(), actor=c.key)
        if cfg.axles_cost_gp > c.gp:
            raise IllegalOrderError("RES-CV-01", "not enough gold for improved axles", order=plan.label(), actor=c.key)
    else:
        raise InvalidOrderError(f"{c.key}: unknown purchase {buy!r}")


def _int(arg: str, buy: str, c: Convoy) -> int:
    try:
        n = int(arg)
    except ValueError:
        raise InvalidOrderError(f"{c.key}: purchase {buy!r} needs a whole number of units") from None
    if n < 1:
        raise InvalidOrderError(f"{c.key}: purchase {buy!r} needs at least one unit")
    return n


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
    _emit(ledger, "GiftGiven", c, ("CV-UNR-08", "RES-CV-16"), total=need, outcome=kind, counter=c.gifts,
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
        _emit(ledger, "StoresBought", c, ("CV-PROV-01", "RES-CV-11"), total=n, outcome="bought", gp=cost,
              provisions=c.provisions, purse=c.gp)
    elif what == "repair":
        n = int(arg)
        # resolution: ENG-CV-21
        cost = n * cfg.repair_materials_cost_gp
        c.gp -= cost
        c.gp_spent += cost
        c.cargo["repair"] = c.cargo.get("repair", 0) + n
        _emit(ledger, "RepairMaterialsBought", c, ("RES-CV-23",), total=n, outcome="bought", gp=cost, purse=c.gp)
    elif what == "wagon":
        wt = wagon_type(arg, cfg)
        c.gp -= wt.cost
        c.gp_spent += wt.cost
        w = add_wagon(c, arg, cfg)
        t.wagon_added = True
        t.added_in_village = True
        lim = WAGON_TYPES[arg].limit
        _emit(ledger, "WagonBought", c, ("SC-CV-05", "SC-CV-06"), total=wt.cost, outcome=arg, wagon=w.id, purse=c.gp,
              hp=c.hp, max_hp=c.max_hp, over_limit=bool(lim and count_kind(c, arg) > lim))
    elif what == "axles":
        w = next(w for w in c.wagons if not w.axles)
        w.axles = True
        c.gp -= cfg.axles_cost_gp
        c.gp_spent += cfg.axles_cost_gp
        t.wagon_upgraded = True
        t.upgraded_in_village = True
        _emit(ledger, "AxlesFitted", c, ("RES-CV-01", "CV-TRAV-02"), total=cfg.axles_cost_gp, outcome="fitted", wagon=w.id,
              all_wagons=all(x.axles for x in c.wagons), speed=speed_mpd(c, cfg), purse=c.gp)


def resolve_assign(world: World, c: Convoy, assign: str, ledger: Ledger) -> None:
    tid, _, job = assign.partition(":")
    t = next(x for x in c.travelers if x.id == tid)
    old = t.job
    t.job = job
    t.job_since = world.now
    _emit(ledger, "JobChanged", c, ("SC-CV-03", "SC-CV-13"), outcome=job, traveler=tid, before=old)


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
        _emit(ledger, "LevelGained", c, ("RES-CV-20", "SC-CV-04", "CV-UNR-03"), total=c.level, outcome=ev.feat or "level",
              morale=c.morale, note=ev.note)
        set_unrest(c, c.unrest - 1, ledger, ("CV-UNR-05",), "level gained", cause="level")
        _update_mutiny(c, ledger)
    elif ev.kind == "unrest":
        _emit(ledger, "UnrestEventHappened", c, ("CV-UNR-07",), total=ev.amount, outcome=ev.note or "campaign event")
        set_unrest(c, c.unrest + ev.amount, ledger, ("CV-UNR-07",), ev.note or "campaign event", cause="event", ref=ev.note)
    elif ev.kind == "hazard":
        # RES-CV-24 (b): every scripted hazard of the day is met at its hour, in hour order (ties: in
        # the scenario's order)
        hour = ev.hour or 1
        c.today.hazards = sorted([*c.today.hazards, (hour, ev.hazard)], key=lambda x: x[0])
        _emit(ledger, "HazardScheduled", c, ("RES-CV-06", "GEN-06", "RES-CV-24"), outcome=ev.hazard, hour=hour)


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
            _emit(ledger, "WagesUnpaid", c, ("SC-CV-03",), total=t.wage_gp, outcome="passenger", traveler=t.id, job=old,
                  purse=c.gp)
    if paid:
        _emit(ledger, "WagesPaid", c, ("SC-CV-03",), total=total, outcome=why, travelers=paid, purse=c.gp)


# resolution: ENG-CV-17
def unpaid_leave(world: World, c: Convoy, ledger: Ledger) -> None:
    if not in_settlement(world.map, c):
        return
    for t in [t for t in c.travelers if t.unpaid]:
        c.travelers.remove(t)
        _emit(ledger, "TravelerLeft", c, ("SC-CV-03",), outcome="unpaid", traveler=t.id,
              at=world.map.label(c.hex))


# ---- (a) start of the travel slot ----------------------------------------------------------------


def new_day(c: Convoy, day: int, slot_start: int) -> None:
    """Reset the per-day state at the start of a day (before scheduled events are applied)."""
    c.today = DayState(day=day, slot_start=slot_start, stop_hour=slot_start)


def resolve_slot_start(world: World, cid: str, plan: DayPlan, dice: Dice, ledger: Ledger) -> None:
    """RES-CV-24 (a): apply the day's orders, then the fatigue check (RES-CV-08), the starvation 1d6
    (RES-CV-10) and the mutiny check (RES-CV-18). Call :func:`new_day` first."""
    assert world.cv is not None
    c = world.cv.convoy(cid)
    now = world.now
    check_plan(world, c, plan)
    t = c.today
    t.plan = plan
    t.slot_start = now
    t.village_start = in_settlement(world.map, c)
    # resolution: ENG-CV-02
    rested = now - c.moved_until
    if rested >= REST_HOURS_NEEDED:  # RES-CV-04: the extra-hour DC resets after 12 consecutive hours of rest
        if c.extra_dc != EXTRA_HOUR_DC:
            _emit(ledger, "ExtraHourDCReset", c, ("RES-CV-04",), dc=EXTRA_HOUR_DC, outcome="reset", before=c.extra_dc)
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
            _emit(ledger, "GiftLapsed", c, ("RES-CV-16", "RES-CV-24"), total=need, outcome=gift, left=have)
        else:
            resolve_gift(world, c, gift, ledger)
    travel = plan.move == "travel"
    t.could_move = can_move(c, now)[0]
    if travel and not t.could_move:
        ok, clause, reason = can_move(c, now)
        raise IllegalOrderError(clause, reason, order=plan.label(), actor=c.key)
    # RES-CV-08 / CV-REST-01
    if travel and stretch >= SLOT_HOURS and rested < REST_HOURS_NEEDED and c.condition == "none":
        _set_condition(c, "fatigued", ledger, ("CV-REST-01", "RES-CV-08", "RES-CV-05"),
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


def _set_condition(c: Convoy, new: str, ledger: Ledger, clauses: Sequence[str], why: str) -> None:
    if c.condition == new:
        return
    old = c.condition
    c.condition = new
    _emit(ledger, "ConditionChanged", c, clauses, outcome=new, before=old, why=why)


def _mutiny_check(world: World, c: Convoy, dice: Dice, ledger: Ledger) -> None:
    cfg = world.config.cv
    assert world.cv is not None
    t = c.today
    dc = UNREST_DC_BASE + c.unrest
    mods = stat_mods(c, "resolve", cfg, world.now, bonuses_of(world.cv))
    nat, total, ok = _roll_check(dice, dc, mods)
    fail_by = dc - total
    outcome = "success" if ok else ("failure by 5 or more" if fail_by >= 5 else "half speed")
    _emit(ledger, "MutinyCheckRolled", c, ("CV-MUT-03", "RES-CV-18", "CV-MUT-02"), dc=dc, mods=mods, dice=[(20, nat)],
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
        _emit(ledger, "MutinyRefusedToMove", c, ("CV-MUT-03", "RES-CV-18"), dice=drawn, total=pick, outcome="refuses to move")
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
    _emit(ledger, "MutinyWandered", c, ("CV-MUT-03", "RES-CV-18"), dice=drawn + rolls, total=t.wander_dir,
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
def _step_hour(world: World, c: Convoy, hour_abs: int, speed: int) -> tuple[bool, str]:
    """Travel one hour. Returns (moved, stop) with stop '' (still going), 'arrived', 'halted' or
    'stuck' (the next hex is impassable or off the map)."""
    hm = world.map
    t = c.today
    plan = t.plan
    assert plan is not None
    night = _is_night(world.config.cv, plan, hour_abs)
    wander = t.wander_dir >= 0
    nxt = hm.neighbor(c.hex, t.wander_dir) if wander else c.next_hex
    if nxt is None or not passable(hm, nxt):
        return False, "stuck"
    h = hm.hexes[nxt]
    rate = hourly_ticks(speed, h.terrain, h.road, night, t.half_speed)
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
    _emit(ledger, "ConvoyArrived", c, ("RES-CV-24", "CV-TRAV-01"), outcome="arrived", at=world.map.label(c.hex),
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
    assert world.cv is not None
    c = world.cv.convoy(cid)
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
        tb = table_for(world.cv, hm, where)
        if tb is not None:
            hz_id, hz_hour = roll_table(c, tb, dice, ledger, where)
            if hz_id:
                t.hazards = [(hz_hour, hz_id)]
    speed = speed_mpd(c, cfg)
    from_hex = c.hex
    ticks0 = t.ticks
    stopped = ""
    for h in range(1, SLOT_HOURS + 1):
        for hour, hz_id in t.hazards:  # RES-CV-24 (b): each hazard at its hour, in hour order
            # resolution: ENG-CV-05
            if hour == h and _can_keep_moving(c, world.now):
                ahead = hm.neighbor(c.hex, t.wander_dir) if t.wander_dir >= 0 else c.next_hex
                terrain = hm.hexes[ahead if ahead is not None else c.hex].terrain
                resolve_hazard(world, c, world.cv.hazards[hz_id], dice, ledger, terrain=terrain, choose_target=choose_target)
                speed = speed_mpd(c, cfg)
        if not _can_keep_moving(c, world.now):
            stopped = "stopped"
            break
        moved, r = _step_hour(world, c, start + h - 1, speed)
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
    _emit(ledger, "ConvoyTravelled", c, ("CV-TRAV-01", "CV-TRAV-03", "CV-TRAV-04", "RES-CV-02", "RES-CV-03"),
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
    assert world.cv is not None
    c = world.cv.convoy(cid)
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
        mods = stat_mods(c, "security", cfg, hour_abs, bonuses_of(world.cv), terrain=hm.hexes[ahead].terrain,
                         scouting=not plan.forage)
        dc = c.extra_dc
        nat, total, ok = _roll_check(dice, dc, mods)
        _emit(ledger, "ExtraHourCheckRolled", c, ("CV-TRAV-05", "RES-CV-04", "SC-CV-02"), dc=dc, mods=mods, dice=[(20, nat)],
              total=total, outcome="success" if ok else "failure", extra_hour=k + 1, hour=hour_abs)
        if not ok:
            _set_condition(c, "exhausted", ledger, ("CV-TRAV-05", "CV-TRAV-06", "RES-CV-04", "RES-CV-05"),
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
    _emit(ledger, "ConvoyTravelled", c, ("CV-TRAV-05", "RES-CV-03", "RES-CV-04"), total=t.extra_done,
          outcome=stopped or "extra hours travelled", miles=miles_str(t.ticks - ticks0), at=hm.label(c.hex),
          progress=miles_str(c.progress), extra=True)
    if stopped == "arrived":
        _arrive(world, c, ledger, c.moved_until)


# ---- (d) the rest -------------------------------------------------------------------------------


def spell_units(c: Convoy, now: int) -> int:
    """CV-PROV-03: goodberry 1, create food and water 3, heroes' feast 1 per caster level."""
    n = 0
    for t in c.travelers:
        if t.suspended_until > now:
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
    assert world.cv is not None
    c = world.cv.convoy(cid)
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
        _emit(ledger, "ProvisionsForaged", c, ("CV-PROV-02", "RES-CV-12"), total=foraged, outcome="foraged", scouts=scouts)
    spells = spell_units(c, now)
    if spells:
        _emit(ledger, "ProvisionsCreated", c, ("CV-PROV-03", "CV-PROV-04"), total=spells, outcome="spells")
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
    _emit(ledger, "ProvisionsConsumed", c, ("CV-REST-02", "RES-CV-09", "RES-CV-22", "SC-CV-08"), total=eat,
          outcome="fed" if fed else "short", consumption=cons, double=double, from_spells=from_spells,
          from_forage=from_forage, from_stores=from_stores, left=c.provisions)
    discarded = spells - from_spells
    if discarded:
        _emit(ledger, "ProvisionsDiscarded", c, ("CV-PROV-04", "RES-CV-13"), total=discarded,
              outcome="spell-created units spoil")
    if stores_units(c.provisions) + sum(c.cargo.values()) > cargo_capacity(c, cfg):
        _enforce_capacity(world, c, ledger)
    if fed:
        if c.starving:
            c.starving = False
            _emit(ledger, "StarvationEnded", c, ("CV-REST-04", "RES-CV-10"), outcome="fed")
    else:
        # CV-REST-03: all units eaten, 1d6 damage, fatigued; starving (RES-CV-10)
        if not c.starving:
            c.starving = True
            _emit(ledger, "StarvationBegan", c, ("CV-REST-03", "RES-CV-10"), outcome="starving", short=need - eat)
        if c.condition == "none":
            _set_condition(c, "fatigued", ledger, ("CV-REST-03", "RES-CV-05"), "not enough provisions")
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
        _set_condition(c, new, ledger, ("CV-TRAV-07", "RES-CV-05", "CV-REST-02"), f"{rested} consecutive hours of fed rest")
    # repairs (RES-CV-23), a recovery benefit
    if plan.move == "repair" and fed:
        ww = len(active(c, "wainwright", now))
        units = min(c.cargo.get("repair", 0), ww * cfg.repair_units_per_wainwright_day)
        if units:
            c.cargo["repair"] -= units
            got = heal(c, units * cfg.repair_hp_per_unit)
            _emit(ledger, "ConvoyRepaired", c, ("RES-CV-23", "SC-CV-10"), total=got, outcome="repaired", units=units,
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


def resolve_day(world: World, cid: str, plan: DayPlan, dice: Dice, ledger: Ledger, *,
                choose_target: Callable[[list[dict[str, Any]]], str] | None = None) -> None:
    """All four phases of one day (tests and the benchmark; the agent wakes per phase).
    ``world.now`` must be the slot start; it is advanced as the phases go, to the next slot start."""
    assert world.cv is not None
    c = world.cv.convoy(cid)
    start = world.now
    new_day(c, start // 24, start)
    resolve_slot_start(world, cid, plan, dice, ledger)
    resolve_travel_slot(world, cid, dice, ledger, choose_target=choose_target)
    _set_now(world, ledger, start + SLOT_HOURS)
    resolve_extra_hours(world, cid, dice, ledger)
    _set_now(world, ledger, c.today.stop_hour)
    resolve_rest(world, cid, dice, ledger)
    _set_now(world, ledger, start + 24)


def _set_now(world: World, ledger: Ledger, hour: int) -> None:
    world.now = hour
    ledger.now = hour


# ---- convoys created during a campaign (LINK-04 trade expeditions) -------------------------------


def standard_convoy(cid: str, origin: int, destination: int, cfg: CvConfig, *, name: str = "", policy: str = "heuristic",
                    provisions: int = 0, cargo: dict[str, int] | None = None, gp: int = 0) -> Convoy:
    """The standard starting caravan of SC-CV-07: a covered wagon, a fortune-teller's wagon and a
    supply wagon, six NPC travelers of whom three drive (the other three: a scout, a cook, a guard),
    statistics 1 + 3 points (Offense 1, Defense 2, Mobility 2, Morale 2, SC-CV-01)."""
    c = Convoy(id=cid, name=name or cid, policy=policy, origin=origin, destination=destination, offense=1, defense=2,
               mobility=2, morale=2, provisions=provisions, cargo=dict(sorted((cargo or {}).items())), gp=gp, hex=origin,
               stops=[destination])
    for kind in ("covered", "fortune_teller", "supply"):
        add_wagon(c, kind, cfg)
    c.travelers = [Traveler(id=f"driver-{i}", job="driver", can_drive=True) for i in (1, 2, 3)]
    c.travelers += [Traveler(id="scout", job="scout"), Traveler(id="cook", job="cook"), Traveler(id="guard", job="guard")]
    return c


def add_convoy(world: World, c: Convoy, cache: RouteCache | None = None) -> int:
    """Put a new convoy into ``world.cv`` (in ascending id), plan its route, and return its rank.
    Its agent is then started by the CV driver (``agents.systems.cv.DRIVER.spawn``)."""
    assert world.cv is not None
    if any(x.id == c.id for x in world.cv.convoys):
        raise InvalidOrderError(f"a convoy {c.id!r} already exists")
    c.moved_until = world.now - REST_HOURS_NEEDED
    got = plan_path(world, c, c.route_kind, cache)
    if got is None:
        raise IllegalOrderError("RES-CV-02", f"no land route from {world.map.label(c.hex)} to {world.map.label(c.destination)}",
                                actor=c.key)
    c.path = got[0]
    world.cv.convoys.append(c)
    world.cv.convoys.sort(key=lambda x: x.id)
    return [x.id for x in world.cv.convoys].index(c.id)
