"""The caravans, described once for the rest of realmsim (:class:`sim.system.RuleSystem`).

A convoy keeps its own clock: each one's day is a process of the CV driver (``agents.systems.cv``),
which wakes it at its travel slot and at the hours its day goes on at. ``play`` runs one day of every
convoy at once, as those processes would (tests, the conformance suite, a game master's table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.calendar import Phase
from sim.config import CvConfig
from sim.orders import ScriptedDecider
from sim.rules.cv.invariants import broken_invariants
from sim.rules.cv.legality import check, legal_orders
from sim.rules.cv.report import metrics, summary
from sim.rules.cv.scoring import TERM_LABELS, UNIT, score_convoy
from sim.rules.cv.turn import next_slot_start, play
from sim.state.cv import CvWorld, DayPlan, RouteChoice
from sim.system import RuleSystem
from sim.world import World

__all__ = ["SYSTEM"]


def _given(script: Mapping[str, Sequence[Any]]) -> ScriptedDecider:
    """Each convoy's answers by actor key (``convoy:<id>``): its day plans, routes and targets in the
    order its days ask them; the first alternative to any other question (``sim.rules.cv.given`` takes
    one convoy's day plans alone)."""
    return ScriptedDecider(script, default="first")


def _factions(world: World) -> list[str]:
    return [c.id for c in world.cv_state().convoys]


def _next_turn(world: World) -> int:
    """The next day's travel slot (RES-CV-24)."""
    return next_slot_start(world, world.now)


def _policy(world: World, kid: str) -> str:
    return world.cv_state().convoy(kid).policy


SYSTEM = RuleSystem(
    name="cv",
    title="caravans",
    phase=Phase.CV,
    faction_kind="convoy",
    faction_table="convoys",
    state_type=CvWorld,
    config_type=CvConfig,
    order_types=(DayPlan, RouteChoice),
    factions=_factions,
    policy=_policy,
    legal_orders=legal_orders,
    check=check,
    play=play,
    given=_given,
    broken_invariants=broken_invariants,
    score=score_convoy,
    score_unit=UNIT,
    score_terms=TERM_LABELS,
    summary=summary,
    metrics=metrics,
    next_turn=_next_turn,
    schema="scenarios.schema.cv",
    chronicle="agents.chronicle_tables.cv",
    driver="agents.systems.cv",
    agent="agents.convoy:ConvoyAgent",
    example="caravan-crossing",
    links=("LINK-04",),
)
