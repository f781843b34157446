"""Mare Nostrum, described once for the rest of realmsim (:class:`sim.system.RuleSystem`)."""

from __future__ import annotations

from sim.calendar import Phase
from sim.config import MnConfig
from sim.rules.mn.invariants import broken_invariants
from sim.rules.mn.legality import check, legal_orders
from sim.rules.mn.orders import ORDER_TYPES, Order
from sim.rules.mn.report import metrics, summary
from sim.rules.mn.scoring import TERM_LABELS, UNIT, score_nation
from sim.rules.mn.turn import given, play
from sim.state.mn import MnWorld
from sim.system import RuleSystem
from sim.world import World

__all__ = ["SYSTEM"]


def _legal_orders(world: World, nation: str) -> list[Order]:
    return legal_orders(world, nation, slot=None)


def _factions(world: World) -> list[str]:
    return sorted(world.mn_state().nations)


def _next_turn(world: World) -> int:
    """Hour 0 of the next turn (SC-MN-03): turn ``mn.turn + 1`` starts ``mn.turn`` turns after the start."""
    mn = world.mn_state()
    return world.start + mn.turn * mn.turn_hours


def _policy(world: World, kid: str) -> str:
    return world.mn_state().nations[kid].policy


SYSTEM = RuleSystem(
    name="mn",
    title="Mare Nostrum",
    phase=Phase.MN,
    faction_kind="nation",
    faction_table="nations",
    state_type=MnWorld,
    config_type=MnConfig,
    order_types=ORDER_TYPES,
    factions=_factions,
    policy=_policy,
    legal_orders=_legal_orders,
    check=check,
    play=play,
    given=given,
    broken_invariants=broken_invariants,
    score=score_nation,
    score_unit=UNIT,
    score_terms=TERM_LABELS,
    summary=summary,
    metrics=metrics,
    next_turn=_next_turn,
    schema="scenarios.schema.mn",
    chronicle="agents.chronicle_tables.mn",
    driver="agents.systems.mn",
    agent="agents.nation:NationAgent",
    example="mare-nostrum",
    links=("LINK-03", "LINK-06"),
)
