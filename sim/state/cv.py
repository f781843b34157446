"""World state of the caravans (CV) system (*convois*): everything RES-CV-24 lists.

Plain msgspec Structs, mutated in place by :mod:`sim.rules.cv`; everything round-trips through
msgpack (``decode_world(encode_world(w)) == w``).

Units and conventions
---------------------
* Distances are exact: a convoy's position is its hex plus ``progress`` toward the next hex of its
  route, counted in *ticks* of ``1/TICKS_PER_MILE`` mile. Every caravan distance of RULES.md is a
  multiple of 1/192 mile (speed in whole miles per day × a terrain multiplier in quarters (SC-CV-11)
  × night ½ × mutiny ½ ÷ 12 hours, RES-CV-02/03), so integer ticks are exact fractions; the rules
  render them as ``Fraction`` strings (``"77/2"``) in events.
* Hours are campaign hours (``sim.calendar``). A job suspended "for D days" is suspended until an
  absolute hour; ``SUSPENDED_FOREVER`` marks a permanent loss (CV-HAZ-03).
* Money is gold pieces (gp, *pièces d'or*).
"""

from __future__ import annotations

from fractions import Fraction

import msgspec

TICKS_PER_MILE = 192  # 1 tick = 1/192 mile: speed × (q/4) × (½) × (½) / 12 is always a whole number of ticks
SUSPENDED_FOREVER = 1 << 62

# travel condition (CV-TRAV-05…07, RES-CV-05): none, fatigued (fatigué), exhausted (épuisé)
CONDITIONS = ("none", "fatigued", "exhausted")
# a convoy's status
STATUSES = ("travelling", "arrived", "destroyed")
# cargo kinds of SC-CV-09 other than stores (stores are derived from provisions)
CARGO_KINDS = ("trade_goods", "treasure", "repair", "other")


def ticks_to_miles(ticks: int) -> Fraction:
    return Fraction(ticks, TICKS_PER_MILE)


def miles_str(ticks: int) -> str:
    """A distance in ticks as an exact mile count: ``"39"``, ``"77/2"``."""
    got = _MILES.get(ticks) if type(ticks) is int else None
    if got is None:
        got = str(Fraction(ticks, TICKS_PER_MILE))
        if type(ticks) is int:
            if len(_MILES) >= 8192:
                _MILES.clear()
            _MILES[ticks] = got
    return got


_MILES: dict[int, str] = {}  # miles_str's memo


class Wagon(msgspec.Struct, omit_defaults=True):
    """One wagon (*chariot*) of SC-CV-06. ``toughness``: Caravan Toughness feats tied to it (SC-CV-12)."""

    id: int
    kind: str  # armored, covered, fortune_teller, horse_train, prisoner, royal_carriage, supply
    axles: bool = False  # improved axles (essieux améliorés), RES-CV-01
    toughness: int = 0


class Traveler(msgspec.Struct, omit_defaults=True):
    """One traveler (*voyageur*) and the job (*rôle*) it fills today (SC-CV-03, SC-CV-13).

    ``wage_gp`` > 0 marks a hired NPC paid at hiring and monthly; ``unpaid`` NPCs have become
    passengers and leave at the next settlement. ``spells`` are daily castings that create
    provisions (CV-PROV-03): ``goodberry``, ``create_food_and_water``, ``heroes_feast``.
    """

    id: str
    job: str = "passenger"
    can_drive: bool = False
    pc: bool = False
    wage_gp: int = 0
    unpaid: bool = False
    job_since: int = -24  # hour of the last job change (a job may change after 24 h)
    suspended_until: int = -1  # the job gives nothing until this hour (SUSPENDED_FOREVER: for good)
    spells: dict[str, int] = {}
    caster_level: int = 0

    def active(self, now: int) -> bool:
        return self.suspended_until <= now


class DayPlan(msgspec.Struct, frozen=True, omit_defaults=True, tag="day"):
    """A whole day's orders for one convoy (RES-CV-24).

    move     ``travel`` (the 12-hour slot, by day or by ``night``, plus ``extra`` forced-march
             hours, 0–12: no cap but the day's, CV-TRAV-05; optionally halting at the first
             settlement entered), ``rest`` or ``repair``
    forage   scouts forage (2 provision units each, CV-PROV-02) instead of scouting (+1 Security)
    double   consume double rations at the rest (CV-UNR-06)
    buy      the day's purchases in a settlement, one (a string) or several (a list, made in that
             order, RES-CV-15): ``stores:<n>`` (food stores), ``repair:<n>`` (repair materials),
             ``wagon:<kind>``, ``axles`` (fit improved axles to the first wagon without them)
    gift     ``trade_goods`` or ``treasure`` given to the crew (CV-UNR-08); a list for several gifts,
             each dearer than the one before (RES-CV-16)
    assign   ``"<traveler>:<job>"`` — a job change (SC-CV-03); a list for several travelers
    abandon  a wagon kind: leave one wagon of that kind behind (the last bought), e.g. when there
             are not drivers enough for every wagon (a lost wagon, CV-UNR-04 (a))
    """

    move: str = "travel"
    night: bool = False
    extra: int = 0
    halt: bool = False
    forage: bool = False
    double: bool = False
    buy: str | tuple[str, ...] = ""
    gift: str | tuple[str, ...] = ""
    assign: str | tuple[str, ...] = ""
    abandon: str = ""

    @property
    def purchases(self) -> tuple[str, ...]:
        """The day's purchases, in the order they are made."""
        v = self.buy
        if type(v) is str:  # (_items, for the usual one order or none)
            return (v,) if v else ()
        return _items(v)

    @property
    def gifts(self) -> tuple[str, ...]:
        """The day's gifts to the crew, in the order they are given."""
        v = self.gift
        if type(v) is str:  # (_items, for the usual one order or none)
            return (v,) if v else ()
        return _items(v)

    @property
    def assignments(self) -> tuple[str, ...]:
        """The day's job changes, ``"<traveler>:<job>"`` each."""
        v = self.assign
        if type(v) is str:  # (_items, for the usual one order or none)
            return (v,) if v else ()
        return _items(v)

    def label(self) -> str:
        """How the plan is printed (``travel +3h, forage, buy stores:4``); plans recur day after day,
        so each one's label is written once."""
        if type(self.extra) is not int:
            return self._label()
        try:
            got = _LABELS.get(self)
        except TypeError:  # an unhashable order (a list where a tuple belongs)
            return self._label()
        if got is None:
            got = self._label()
            if len(_LABELS) >= 4096:
                _LABELS.clear()
            _LABELS[self] = got
        return got

    def _label(self) -> str:
        if self.move == "travel":
            parts = ["travel by night" if self.night else "travel"]
            if self.extra:
                parts[0] += f" +{self.extra}h"
            if self.halt:
                parts.append("halt at village")
        else:
            parts = [self.move]
        if self.forage:
            parts.append("forage")
        if self.double:
            parts.append("double rations")
        if self.purchases:
            parts.append("buy " + " and ".join(self.purchases))
        if self.gifts:
            parts.append("gift " + " and ".join(self.gifts))
        if self.assignments:
            parts.append("assign " + " and ".join(self.assignments))
        if self.abandon:
            parts.append(f"abandon a {self.abandon} wagon")
        return ", ".join(parts)

    def __str__(self) -> str:
        return self.label()


_LABELS: dict[DayPlan, str] = {}  # DayPlan.label's memo (equal plans, equal labels)


def _items(value: str | tuple[str, ...]) -> tuple[str, ...]:
    """One order (a string, "" for none) or several (a tuple) as a tuple."""
    if isinstance(value, str):
        return (value,) if value else ()
    return tuple(value)


class RouteChoice(msgspec.Struct, frozen=True, tag="route"):
    """Which kind of route to follow from here: ``fast`` (least travel time) or ``safe`` (travel
    time plus the risk of the scenario's hazard tables). ``days`` and ``risk`` are what a policy
    sees; ``path`` is the hex path the choice leads to."""

    kind: str
    path: tuple[int, ...]
    days: float
    risk: float

    def __str__(self) -> str:
        return f"{self.kind} route ({len(self.path) - 1} hexes, {self.days:.1f} days, risk {self.risk:.1f})"


class DayState(msgspec.Struct, omit_defaults=True):
    """What the current day's phases pass on to the next (RES-CV-24); reset each travel slot."""

    day: int = -1  # 0-based day index
    stage: int = 0  # what the convoy's process does next: 0 the next travel slot, 1 the slot's end, 2 the rest
    plan: DayPlan | None = None
    slot_start: int = 0  # campaign hour the travel slot began
    village_start: bool = False  # stationed in a settlement when the day began
    half_speed: bool = False  # mutiny (CV-MUT-03)
    wander_dir: int = -1  # mutiny random direction (RES-CV-18), -1: none
    refused: bool = False
    blocked: bool = False  # a hazard blocked travel this period (CV-UNR-04 (d))
    hours_moved: int = 0  # slot hours actually travelled
    extra_done: int = 0  # extra hours actually travelled
    stop_hour: int = 0  # campaign hour of the rest phase: slot start + 12 + extra hours travelled
    could_move: bool = False  # the convoy could have set out today (CV-UNR-06: a chosen rest day)
    ticks: int = 0  # distance covered today
    # hazards met today as (hour within the slot 1..12, hazard id), in hour order: the scenario's
    # scripted ones (RES-CV-24 (b): each at its hour), else the one the day's table gave
    hazards: list[tuple[int, str]] = []
    wagon_added: bool = False
    wagon_upgraded: bool = False
    added_in_village: bool = False
    upgraded_in_village: bool = False
    foraged: int = 0


class Convoy(msgspec.Struct, omit_defaults=True):
    """One caravan (*convoi*) and all its statistics (RES-CV-24)."""

    id: str
    name: str
    policy: str
    origin: int  # hex index
    destination: int
    offense: int = 1
    defense: int = 1
    mobility: int = 1
    morale: int = 1
    level: int = 1
    feats: list[str] = []  # fast_caravan, efficient_consumption, caravan_toughness, terrain_mastery:<t>, extra_wagons, expert_travelers
    wagons: list[Wagon] = []
    travelers: list[Traveler] = []
    next_wagon_id: int = 0
    hp: int = 0
    max_hp: int = 0
    unrest: int = 0
    provisions: int = 0
    cargo: dict[str, int] = {}
    gp: int = 0
    condition: str = "none"
    starving: bool = False
    extra_dc: int = 15
    stretch_hours: int = 0  # hours of the current (or last) continuous travel stretch
    moved_until: int = -24  # campaign hour the convoy last stopped moving (rest is counted from it)
    gifts: int = 0  # gift counter g (RES-CV-16)
    below_quarter: bool = False  # 25%-line flag (RES-CV-14)
    in_mutiny: bool = False
    # location and route
    hex: int = 0
    progress: int = 0  # ticks covered toward path[path_pos + 1]
    path: list[int] = []  # the planned hexes, path[0] the hex the plan was made in
    path_pos: int = 0
    stops: list[int] = []  # remaining waypoints, then the destination
    route_kind: str = "fast"
    route_checked: int = -1  # the hex where the route was last reconsidered
    status: str = "travelling"
    arrived_at: int = -1
    hired_at: int = 0  # hour the hired NPCs were (last) paid for a month
    today: DayState = msgspec.field(default_factory=DayState)
    # running statistics (summary metrics)
    ticks_total: int = 0
    days_travelled: int = 0
    days_rested: int = 0
    hazard_damage: int = 0
    starvation_damage: int = 0
    combat_damage: int = 0
    hazards_met: int = 0
    mutiny_days: int = 0
    stores_bought: int = 0
    gp_spent: int = 0
    gifts_units: int = 0
    unrest_peak: int = 0
    travelers_lost: int = 0
    wagons_lost: int = 0

    @property
    def key(self) -> str:
        return f"convoy:{self.id}"

    @property
    def next_hex(self) -> int | None:
        i = self.path_pos + 1
        return self.path[i] if i < len(self.path) else None


class EnemySpec(msgspec.Struct, frozen=True, omit_defaults=True):
    """One enemy of a combat hazard (SC-CV-14)."""

    id: str
    ac: int
    hp: int
    attack: int
    damage: str  # dice expression
    name: str = ""


class Effect(msgspec.Struct, frozen=True, omit_defaults=True):
    """One effect of a hazard (RES-CV-06).

    kind: ``damage`` (``dice``), ``lose_provisions`` (``amount`` or ``dice``), ``lose_cargo``
    (``cargo`` kind, ``amount``/``dice``), ``lose_wagon`` (``wagon`` kind or any), ``kill_traveler``
    (``job`` or anyone), ``suspend_job`` (``job``, ``days``; 0 days = for good), ``block_travel``,
    ``unrest`` (``amount``, a scenario event raising Unrest, CV-UNR-07).
    """

    kind: str
    dice: str = ""
    amount: int = 0
    cargo: str = ""
    wagon: str = ""
    job: str = ""
    days: int = 0


class Hazard(msgspec.Struct, frozen=True, omit_defaults=True):
    """A hazard (*danger*, RES-CV-06): a Security or Resolve check against ``dc``, or a combat
    (SC-CV-14) with ``enemies`` for at most ``rounds`` rounds (``on_fail`` applies if enemies are
    still standing at the end, ``on_success`` if all fell)."""

    id: str
    check: str  # security | resolve | combat
    dc: int = 0
    on_fail: tuple[Effect, ...] = ()
    on_success: tuple[Effect, ...] = ()
    enemies: tuple[EnemySpec, ...] = ()
    rounds: int = 5
    name: str = ""
    name_fr: str = ""


class Band(msgspec.Struct, frozen=True, omit_defaults=True):
    """``lo``–``hi`` on the d100 → ``hazard`` ('' = nothing); ``hour`` 1–12 fixes its hour in the slot
    (0: roll 1d12)."""

    lo: int
    hi: int
    hazard: str = ""
    hour: int = 0


class HazardTable(msgspec.Struct, frozen=True, omit_defaults=True):
    """A d100 table rolled once per travel day (RES-CV-06, GEN-06) for a stretch whose entered hex
    matches ``terrains`` (empty: any), ``paths`` (none/trail/road/highway; empty: any) and ``river``
    (None: either)."""

    id: str
    bands: tuple[Band, ...]
    terrains: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    river: bool | None = None


class ScheduledEvent(msgspec.Struct, frozen=True, omit_defaults=True):
    """A scenario event on a given day (0-based ``day``): ``level_up`` (RES-CV-20: ``feat``,
    ``morale`` raise), ``unrest`` (CV-UNR-07: ``amount``, may be negative) or ``hazard`` (a
    scripted hazard met at ``hour`` 1–12 of that day's travel slot)."""

    day: int
    convoy: str
    kind: str
    feat: str = ""
    morale: int = 0
    amount: int = 0
    hazard: str = ""
    hour: int = 0
    note: str = ""


class CvWorld(msgspec.Struct):
    """The caravans of one world, in ascending id, and the scenario's hazard tables and events."""

    convoys: list[Convoy] = []
    hazards: dict[str, Hazard] = {}
    tables: list[HazardTable] = []
    events: list[ScheduledEvent] = []
    # job → statistic → circumstance bonus (SC-CV-13); "scout" is the scouting bonus
    job_bonuses: dict[str, dict[str, int]] = {}

    def convoy(self, cid: str) -> Convoy:
        # convoy ids are unique (the scenario's check, ``add_convoy``): the convoy found where the one of
        # that id last stood is the one a search finds; else the list is searched
        cs = self.convoys
        i = _AT.get(cid)
        if i is not None and i < len(cs):
            c = cs[i]
            if c.id == cid:
                return c
        for i, c in enumerate(cs):
            if c.id == cid:
                if len(_AT) >= 4096:
                    _AT.clear()
                _AT[cid] = i
                return c
        raise KeyError(f"no convoy {cid!r}")


_AT: dict[str, int] = {}  # where CvWorld.convoy last found each convoy id (a hint, checked before use)
