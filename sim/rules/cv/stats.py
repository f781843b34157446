"""Caravan constants and statistics (CV): wagon types (SC-CV-06), terrain multipliers (SC-CV-11),
the statistics of a convoy (SC-CV-01/02/09/12/13), and the event helpers every CV module uses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sim.config import CvConfig
from sim.dice import Dice
from sim.events import Ledger, check
from sim.hexmap import HexMap
from sim.state.cv import TICKS_PER_MILE, Convoy, CvWorld, Traveler, Wagon

__all__ = [
    "CALMING_DC",
    "COOK_REDUCTION",
    "DAY_HOURS",
    "DEFAULT_JOB_BONUSES",
    "EFFICIENT_CONSUMPTION",
    "EXTRA_HOURS_MENU",
    "EXTRA_HOUR_DC",
    "FEATS",
    "FORAGE_PER_SCOUT",
    "HORSE_TRAIN_MPD",
    "JOBS",
    "MAX_EXTRA_HOURS",
    "MULT4",
    "PATH_COLUMN",
    "PRIMARY_OF",
    "PROVISIONS_PER_STORES",
    "REST_HOURS_NEEDED",
    "SLOT_HOURS",
    "SPELL_UNITS",
    "STARVATION_DIE",
    "STATS",
    "STAT_NAME",
    "SYS",
    "TERRAIN_MASTERY",
    "TOUGHNESS_HP",
    "UNREST_DC_BASE",
    "VILLAGE_BONUS",
    "WAGON_NAMES",
    "WAGON_TYPES",
    "WagonType",
    "active",
    "bonuses_of",
    "cargo_capacity",
    "cargo_used",
    "consumption",
    "count_kind",
    "counted",
    "daily_miles",
    "drivers",
    "feat_count",
    "hourly_ticks",
    "in_settlement",
    "job_bonus",
    "max_hp_of",
    "max_wagons",
    "mutiny_margin",
    "passable",
    "speed_mpd",
    "stat_mods",
    "stat_value",
    "stores_units",
    "terrain_mult4",
    "terrain_multiplier",
    "traveler_capacity",
    "wagon_hp",
    "wagon_type",
]


SYS = "cv"
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
# the forced-march lengths legal_orders offers the policies (check accepts any 0..MAX_EXTRA_HOURS)
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
        key = (cfg.supply_wagon_cost_gp, cfg.supply_wagon_hp)
        got = _SUPPLY.get(key)
        if got is None:
            if len(_SUPPLY) >= 64:
                _SUPPLY.clear()
            got = _SUPPLY[key] = WagonType(key[0], key[1], wt.travelers, wt.cargo, wt.limit, wt.consumption, wt.french)
        return got
    return wt


_SUPPLY: dict[tuple[int, int], WagonType] = {}  # the supply wagon of each (cost, hp) setting (WagonType is frozen)


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
# the column of MULT4 for a hex's road (a trail counts as trackless, RES-CV-02)
PATH_COLUMN = {"highway": 0, "road": 1, "trail": 2, "none": 2}


def terrain_mult4(terrain: str, road: str) -> int | None:
    """The SC-CV-11 multiplier ×4 for a stretch (None: impassable for a caravan)."""
    row = MULT4.get(terrain)
    if row is None:
        return None
    return row[PATH_COLUMN[road]]


def terrain_multiplier(terrain: str, road: str) -> Fraction | None:
    m = terrain_mult4(terrain, road)
    return None if m is None else Fraction(m, 4)


# resolution: ENG-CV-08
def passable(hm: HexMap, i: int) -> bool:
    return hm.hexes[i].terrain in MULT4


# ---- statistics -------------------------------------------------------------------------------


def count_kind(c: Convoy, kind: str) -> int:
    return len([w for w in c.wagons if w.kind == kind])


def counted(c: Convoy, kind: str) -> int:
    """Wagons of ``kind`` that give their special benefit: up to the type's limit (SC-CV-05)."""
    n = count_kind(c, kind)
    lim = WAGON_TYPES[kind].limit
    return min(n, lim) if lim else n


def feat_count(c: Convoy, feat: str) -> int:
    if not c.feats:
        return 0
    return sum(1 for f in c.feats if f == feat or f.startswith(feat + ":"))


def speed_mpd(c: Convoy, cfg: CvConfig) -> int:
    """RES-CV-01: base + horse trains up to their limit + Fast Caravan + axles on every wagon."""
    # implements: CV-TRAV-01, CV-TRAV-02
    wagons = c.wagons
    horses = 0
    axles = True
    for w in wagons:
        if w.kind == "horse_train":
            horses += 1
        if not w.axles:
            axles = False
    lim = WAGON_TYPES["horse_train"].limit  # counted(): up to the type's limit (SC-CV-05)
    s = cfg.base_speed_mpd + HORSE_TRAIN_MPD * (min(horses, lim) if lim else horses)
    if c.feats and feat_count(c, "fast_caravan"):
        s += cfg.fast_caravan_mpd
    if wagons and axles:
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
    # wagon_type(kind, cfg).travelers: the configuration changes a supply wagon's cost and HP only
    return sum([WAGON_TYPES[w.kind].travelers for w in c.wagons])


def cargo_capacity(c: Convoy, cfg: CvConfig) -> int:
    # wagon_type(kind, cfg).cargo: the configuration changes a supply wagon's cost and HP only
    return sum([WAGON_TYPES[w.kind].cargo for w in c.wagons])


def stores_units(provisions: int) -> int:
    """SC-CV-09: stores occupy ceil(provisions / 10) cargo units."""
    return -(-provisions // PROVISIONS_PER_STORES)


def cargo_used(c: Convoy) -> int:
    return -(-c.provisions // PROVISIONS_PER_STORES) + sum(c.cargo.values())


def wagon_hp(w: Wagon, cfg: CvConfig) -> int:
    """RES-CV-23: a wagon's HP and the Caravan Toughness HP tied to it (what losing it takes away)."""
    return wagon_type(w.kind, cfg).hp + TOUGHNESS_HP * w.toughness


def max_hp_of(c: Convoy, cfg: CvConfig) -> int:
    """RES-CV-23: Σ wagon HP + Caravan Toughness HP."""
    return sum(wagon_hp(w, cfg) for w in c.wagons)


def active(c: Convoy, job: str, now: int) -> list[Traveler]:
    return [t for t in c.travelers if t.job == job and t.suspended_until <= now]


def drivers(c: Convoy, now: int) -> int:
    return len([t for t in c.travelers if t.job == "driver" and t.suspended_until <= now])


def consumption(c: Convoy, now: int, cfg: CvConfig | None = None) -> int:
    """RES-CV-22 with SC-CV-12: Σ wagon consumption + travelers − 2 per cook (while stores are
    carried) − 2 per Efficient Consumption (not below the number of wagons), minimum 0."""
    # implements: SC-CV-08
    base = sum([WAGON_TYPES[w.kind].consumption for w in c.wagons]) + len(c.travelers)
    if c.provisions > 0:
        cooks = 0  # len(active(c, "cook", now))
        for t in c.travelers:
            if t.job == "cook" and t.suspended_until <= now:
                cooks += 1
        base -= COOK_REDUCTION * cooks
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
        b = bonuses.get(t.job)  # (most jobs give nothing: asked first)
        if not b:
            continue
        v = b.get(stat, 0)
        if not v:
            continue
        if t.suspended_until > now or t.unpaid:
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
    if stat == "security":
        prim = c.mobility
    elif stat == "resolve":
        prim = c.morale
    elif stat == "ac":
        prim = c.defense
    elif stat == "attack":
        prim = c.offense
    else:
        raise KeyError(stat)
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


def emit(ledger: Ledger, kind: str, c: Convoy, clauses: Sequence[str], **kw: Any) -> None:
    ledger.emit(SYS, kind, c.key, clauses, **kw)


def roll_check(dice: Dice, dc: int, mods: list[tuple[str, int]]) -> tuple[int, int, bool]:
    r = check(dice, dc, mods)  # RES-CV-19: no natural 1/20 effects
    return r.natural, r.total, r.success
