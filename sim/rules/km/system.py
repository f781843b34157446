"""The kingdoms, described once for the rest of realmsim (:class:`sim.system.RuleSystem`)."""

from __future__ import annotations

from typing import Any

from sim.calendar import HOURS_PER_MONTH, Phase
from sim.config import KmConfig
from sim.rules.km.invariants import broken_invariants
from sim.rules.km.legality import check, legal_orders
from sim.rules.km.report import metrics, summary
from sim.rules.km.scoring import TERM_LABELS, UNIT, score_kingdom
from sim.rules.km.turn import given, play
from sim.state.km import (
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    ExplorationEdict,
    ImprovementOrder,
    KmWorld,
    RelationOrder,
    SlotChoice,
    TradeEdict,
    VassalageEdict,
)
from sim.system import RuleSystem
from sim.world import World

__all__ = ["SYSTEM", "TURN_INDEX"]

# a month's rank among the kingdom events of its first hour: after every envoy arriving then (their
# index is their kingdom's rank), so that an envoy arriving at a month's first hour is present for its edicts
TURN_INDEX = 100_000


def _legal_orders(world: World, kid: str) -> list[Any]:
    return legal_orders(world, kid, slot=None)


def _factions(world: World) -> list[str]:
    return world.km_state().ids()


def _next_turn(world: World) -> int:
    """Hour 0 of the next month (SC-KM-08): the month after ``km.turn``."""
    return world.start + (world.km_state().turn + 1) * HOURS_PER_MONTH


def _policy(world: World, kid: str) -> str:
    return world.km_state().kingdoms[kid].policy


SYSTEM = RuleSystem(
    name="km",
    title="kingdoms",
    phase=Phase.KM,
    faction_kind="kingdom",
    faction_table="kingdoms",
    state_type=KmWorld,
    config_type=KmConfig,
    order_types=(DiplomaticEdict, ExplorationEdict, TradeEdict, VassalageEdict, RelationOrder, ImprovementOrder,
                 BuildOrder, EmbassyBuildingOrder, SlotChoice),
    factions=_factions,
    policy=_policy,
    legal_orders=_legal_orders,
    check=check,
    play=play,
    given=given,
    broken_invariants=broken_invariants,
    score=score_kingdom,
    score_unit=UNIT,
    score_terms=TERM_LABELS,
    summary=summary,
    metrics=metrics,
    next_turn=_next_turn,
    turn_index=TURN_INDEX,
    schema="scenarios.schema.km",
    chronicle="agents.chronicle_tables.km",
    driver="agents.systems.km",
    agent="agents.kingdom:KingdomAgent",
    example="stolen-lands",
    links=("LINK-04", "LINK-05", "LINK-08"),
)
