"""The caravan day (RES-CV-24) as one turn function, and convoys created during a campaign (LINK-04).

A convoy's day is :func:`resolve_day`, the whole of it: the scenario's events of the day, wages,
unpaid NPCs leaving, replanning, the route choice in a settlement, the day's plan, then the four
phases (the start of the travel slot, its 12 hours, the extra hours of a forced march, the rest).
Every choice is a question to the :class:`sim.orders.Decider` it is given, asked of the convoy's
ledger key (``convoy:<id>``) with its legal alternatives:

* ``"day"`` — the day's plan, one of :func:`~sim.rules.cv.legality.legal_orders` (any plan that
  :func:`~sim.rules.cv.legality.check` accepts may be answered);
* ``"route"`` — in a settlement (or on the first day) when the fast and the safe route differ, one of
  :func:`~sim.rules.cv.routes.route_options`;
* ``"target"`` — in a combat with two or more standing enemies, the id of the enemy to attack
  (SC-CV-14; the context's ``enemies`` describes them).

The day spans hours: its phases wake at the start of the travel slot, at its end, and at the start
of a rest that a forced march delayed. ``resolve_day(..., stages=True)`` is the day as a generator
that yields each hour at which it must go on (the campaign's SimPy process waits for that hour on the
one clock, other systems and convoys acting in between); it keeps nothing of its own between stages:
it reads where the day stands from ``convoy.today.stage``, so a day resumed from a saved world (a new
generator) carries on exactly. Without ``stages`` the day runs to its end on a plain clock that it
advances itself (tests, worked examples, a game master's table).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal, overload

from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH
from sim.config import CvConfig
from sim.dice import Dice, DiceSource
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.orders import Decider, ScriptedDecider
from sim.rules.cv.crew import add_wagon
from sim.rules.cv.legality import legal_orders
from sim.rules.cv.orders import resolve_scheduled, resolve_wages, unpaid_leave
from sim.rules.cv.rest import resolve_rest
from sim.rules.cv.routes import (
    RouteCache,
    plan_path,
    replan,
    resolve_route,
    route_options,
    shared_route_cache,
)
from sim.rules.cv.stats import (
    REST_HOURS_NEEDED,
    SLOT_HOURS,
    SYS,
    consumption,
    emit,
    in_settlement,
    speed_mpd,
)
from sim.rules.cv.travel import (
    extra_hours_due,
    new_day,
    resolve_extra_hours,
    resolve_slot_start,
    resolve_travel_slot,
)
from sim.state.cv import Convoy, DayPlan, RouteChoice, Traveler
from sim.world import World

__all__ = [
    "WAGE_PERIOD_HOURS",
    "add_convoy",
    "day_of",
    "given",
    "next_slot_start",
    "plan_label",
    "play",
    "resolve_day",
    "standard_convoy",
]

WAGE_PERIOD_HOURS = HOURS_PER_MONTH  # SC-CV-03: hired NPCs are paid at hiring, then every month (30 days)


def plan_label(plan: DayPlan) -> str:
    """How a day's plan is printed in its ``DecisionMade`` event."""
    return plan.label()


# the context of each question (``clauses``: the clauses behind it; ``label``: how an answer is printed)
_DAY_CONTEXT: Mapping[str, Any] = {"clauses": ("RES-CV-24",), "label": plan_label}
_ROUTE_CONTEXT: Mapping[str, Any] = {"clauses": ("RES-CV-02", "RES-CV-24")}
_TARGET_CLAUSES = ("SC-CV-14",)


def day_of(world: World, hour: int) -> int:
    """The day (0-based) whose travel slot starts at ``hour`` or next after it."""
    start_h = world.config.cv.travel_start_hour
    return max(0, -(-(hour - start_h) // HOURS_PER_DAY))


def next_slot_start(world: World, hour: int) -> int:
    """The hour of the first travel slot that starts at ``hour`` or after it (a day's first stage)."""
    return day_of(world, hour) * HOURS_PER_DAY + world.config.cv.travel_start_hour


@overload
def resolve_day(world: World, cid: str, decider: Decider, dice: Dice, ledger: Ledger, *,
                cache: RouteCache | None = ..., policy: str | None = ..., stages: Literal[False] = ...) -> None: ...
@overload
def resolve_day(world: World, cid: str, decider: Decider, dice: Dice, ledger: Ledger, *,
                cache: RouteCache | None = ..., policy: str | None = ..., stages: Literal[True]) -> Iterator[int]: ...
def resolve_day(world: World, cid: str, decider: Decider, dice: Dice, ledger: Ledger, *,
                cache: RouteCache | None = None, policy: str | None = None,
                stages: bool = False) -> Iterator[int] | None:
    """One day of convoy ``cid`` (RES-CV-24), from the stage it is at (``convoy.today.stage``); a new
    day starts at ``world.now``, the start of its travel slot.

    ``decider`` answers the day's questions (see the module's docstring); ``dice`` is the convoy's
    stream; ``cache`` a :class:`RouteCache` (it only saves time); ``policy`` the name the ledger gives
    the convoy's player when it sets out (``ConvoySetOut``; default the convoy's own ``policy``).
    An answer the rules refuse raises :class:`IllegalOrderError` (or :class:`InvalidOrderError`). A
    convoy that no longer travels (arrived, destroyed) has no day: nothing happens, nothing is asked.

    With ``stages=True`` the day is a generator of the hours at which it goes on (the caller moves
    the clock there, then resumes it); otherwise the day is run at once, ``world.now`` and
    ``ledger.now`` advanced as its phases go, and left at the next day's slot start."""
    day = _day(world, cid, decider, dice, ledger, cache, policy)
    if stages:
        return day
    c = world.cv_state().convoy(cid)
    if c.status != "travelling":
        return None
    for hour in day:
        _set_now(world, ledger, hour)
    _set_now(world, ledger, c.today.slot_start + HOURS_PER_DAY)
    return None


def _day(world: World, cid: str, decider: Decider, dice: Dice, ledger: Ledger, cache: RouteCache | None,
         policy: str | None) -> Iterator[int]:
    """The day's stages from ``convoy.today.stage`` (0: the travel slot's start, 1: its end, 2: the
    rest), yielding the hour each later stage waits for; the convoy is read from the world afresh at
    every stage."""
    cv = world.cv_state()
    c = cv.convoy(cid)
    if c.status != "travelling":
        return
    if c.today.stage == 0:
        _start_of_day(world, c, decider, dice, ledger, cache, policy)
    if c.status == "travelling" and c.today.stage == 1:
        yield c.today.slot_start + SLOT_HOURS
        c = cv.convoy(cid)
        _end_of_slot(world, c, dice, ledger)
    if c.status == "travelling" and c.today.stage == 2:
        yield c.today.stop_hour
        c = cv.convoy(cid)
        _rest(world, c, dice, ledger)


def _start_of_day(world: World, c: Convoy, decider: Decider, dice: Dice, ledger: Ledger,
                  cache: RouteCache | None, policy: str | None) -> None:
    """The start of the travel slot: the day's events, wages, leave, route, plan, (a) and (b)."""
    cv = world.cv
    assert cv is not None
    now = world.now
    day = day_of(world, now)
    first = c.today.day < 0
    new_day(c, day, now)
    for ev in cv.events:
        if ev.day == day and ev.convoy == c.id:
            resolve_scheduled(world, c, ev, dice, ledger)
        elif ev.day > day:
            break
    if first:  # the first day of its journey (day 0, or the day a convoy was added)
        _set_out(world, c, ledger, c.policy if policy is None else policy)
        c.hired_at = now
        resolve_wages(world, c, ledger, "hiring")
    elif now - c.hired_at >= WAGE_PERIOD_HOURS:  # SC-CV-03: monthly wages
        c.hired_at += WAGE_PERIOD_HOURS
        resolve_wages(world, c, ledger, "monthly")
    unpaid_leave(world, c, ledger)
    if c.next_hex is None and c.stops:
        replan(world, c, ledger, cache)
    if (in_settlement(world.map, c) or first) and c.route_checked != c.hex:
        c.route_checked = c.hex
        _choose_route(world, c, decider, ledger, cache)
    plan: DayPlan = decider.decide(c.key, "day", legal_orders(world, c.id), _DAY_CONTEXT)
    resolve_slot_start(world, c.id, plan, dice, ledger)
    if c.status != "travelling":
        return
    resolve_travel_slot(world, c.id, dice, ledger, choose_target=_target_chooser(c, decider), cache=cache)
    if c.status == "travelling":
        c.today.stage = 1


def _end_of_slot(world: World, c: Convoy, dice: Dice, ledger: Ledger) -> None:
    """The end of the travel slot: (c) the extra hours of a forced march, then the rest unless the
    forced march moved it later (stage 2)."""
    if extra_hours_due(c):
        resolve_extra_hours(world, c.id, dice, ledger)
        if c.status != "travelling":
            return
        if c.today.stop_hour > world.now:
            c.today.stage = 2
            return
    c.today.stop_hour = max(c.today.stop_hour, world.now)
    _rest(world, c, dice, ledger)


def _rest(world: World, c: Convoy, dice: Dice, ledger: Ledger) -> None:
    """(d) the rest; the next stage is the next day's travel slot."""
    resolve_rest(world, c.id, dice, ledger)
    c.today.stage = 0


def _choose_route(world: World, c: Convoy, decider: Decider, ledger: Ledger, cache: RouteCache | None) -> None:
    """RES-CV-02: the route from here, asked when the fast and the safe route differ."""
    opts = route_options(world, c.id, cache)
    if not opts:
        return
    current = tuple(c.path[c.path_pos:])
    if len(opts) == 1:
        if opts[0].path != current:
            resolve_route(world, c.id, opts[0], ledger)
        return
    choice: RouteChoice = decider.decide(c.key, "route", opts, _ROUTE_CONTEXT)
    if choice.path != current or choice.kind != c.route_kind:
        resolve_route(world, c.id, choice, ledger)


def _target_chooser(c: Convoy, decider: Decider) -> Callable[[list[dict[str, Any]]], str]:
    """SC-CV-14: the enemy a combat round's attack goes to, asked when two or more stand."""

    def choose(enemies: list[dict[str, Any]]) -> str:
        ids = [e["id"] for e in enemies]
        if len(ids) == 1:
            return str(ids[0])
        return str(decider.decide(c.key, "target", ids, {"clauses": _TARGET_CLAUSES, "enemies": enemies}))

    return choose


def _set_out(world: World, c: Convoy, ledger: Ledger, policy: str) -> None:
    cfg = world.config.cv
    emit(ledger, "ConvoySetOut", c, ("RES-CV-24",), outcome=policy,
          origin=world.map.label(c.origin), destination=world.map.label(c.destination), wagons=[x.kind for x in c.wagons],
          travelers=len(c.travelers), hp=c.hp, provisions=c.provisions, gp=c.gp,
          speed=speed_mpd(c, cfg), consumption=consumption(c, world.now, cfg))  # fmt: skip


def _set_now(world: World, ledger: Ledger, hour: int) -> None:
    world.now = hour
    ledger.now = hour


def play(world: World, decider: Decider, dice: DiceSource, ledger: Ledger, hooks: None = None) -> None:
    """The caravans' turn in the signature every system shares (``sim.system.RuleSystem.play``): one
    day of every travelling convoy (RES-CV-24), their stages interleaved hour by hour and, at one
    hour, in ascending convoy id — as a campaign's convoy processes run them on the clock. A new day
    starts at the next travel slot (the clock moves there first); a day under way carries on from its
    stage. Each convoy rolls on its own stream, ``dice.stream("cv", "convoy:<id>")``. The world is
    left at the next day's slot start. CV needs no hooks."""
    cv = world.cv_state()
    cache = shared_route_cache(world)
    going = [c for c in cv.convoys if c.status == "travelling"]
    if not going:
        return
    if all(c.today.stage == 0 for c in going):
        _set_now(world, ledger, next_slot_start(world, world.now))
    start = world.now
    waiting: list[tuple[int, int, Iterator[int]]] = []
    for rank, c in enumerate(cv.convoys):
        if c.status == "travelling":
            heapq.heappush(waiting, (world.now, rank, _day(world, c.id, decider, dice.stream(SYS, c.key), ledger, cache, None)))
    while waiting:
        hour, rank, day = heapq.heappop(waiting)
        _set_now(world, ledger, max(world.now, hour))
        nxt = next(day, None)
        if nxt is not None:
            heapq.heappush(waiting, (nxt, rank, day))
    _set_now(world, ledger, max(world.now, next_slot_start(world, start + 1)))


def given(cid: str, *plans: DayPlan) -> ScriptedDecider:
    """A decider that gives convoy ``cid`` the day plans ``plans``, one a day in order, and answers a
    route or target question with its first alternative (the fast route; the lowest-id enemy): the
    days of a test, a worked example or a game master's table."""
    return ScriptedDecider({(f"convoy:{cid}", "day"): plans}, default="first")


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
    if any(x.id == c.id for x in world.cv_state().convoys):
        raise InvalidOrderError(f"a convoy {c.id!r} already exists")
    c.moved_until = world.now - REST_HOURS_NEEDED
    got = plan_path(world, c, c.route_kind, cache)
    if got is None:
        raise IllegalOrderError("RES-CV-02", f"no land route from {world.map.label(c.hex)} to {world.map.label(c.destination)}",
                                actor=c.key)
    c.path = got[0]
    world.cv_state().convoys.append(c)
    world.cv_state().convoys.sort(key=lambda x: x.id)
    return [x.id for x in world.cv_state().convoys].index(c.id)
