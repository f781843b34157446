"""Guild warfare, described once for the rest of realmsim (:class:`sim.system.RuleSystem`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, get_args

from sim.calendar import Phase
from sim.config import GwConfig
from sim.orders import ScriptedDecider
from sim.rules.gw.core import season_hours
from sim.rules.gw.invariants import broken_invariants
from sim.rules.gw.legality import check
from sim.rules.gw.orders import legal_orders
from sim.rules.gw.report import metrics, summary
from sim.rules.gw.scoring import TERM_LABELS, UNIT, score_guild
from sim.rules.gw.season import play
from sim.state.gw import AnyOrder, GwWorld
from sim.system import RuleSystem
from sim.world import World

__all__ = ["SYSTEM"]


def _given(script: Mapping[str, Sequence[Any]]) -> ScriptedDecider:
    """Each guild's orders by actor key (``guild:<id>``), then ``END``; a guild not in the script ends
    at once (``sim.rules.gw.given`` takes the orders alone, each naming its guild)."""
    return ScriptedDecider(script, default="end")


def _factions(world: World) -> list[str]:
    return sorted(world.gw_state().guilds)


def _next_turn(world: World) -> int:
    """Hour 0 of the next season (SC-GW-01): at or after the world's hour, after the season played last."""
    gw = world.gw_state()
    length = season_hours(world.config.gw)
    return max(-(-world.now // length), gw.season + 1) * length


def _policy(world: World, kid: str) -> str:
    return world.gw_state().guilds[kid].policy


SYSTEM = RuleSystem(
    name="gw",
    title="guild warfare",
    phase=Phase.GW,
    faction_kind="guild",
    faction_table="guilds",
    state_type=GwWorld,
    config_type=GwConfig,
    order_types=get_args(AnyOrder),
    factions=_factions,
    policy=_policy,
    legal_orders=legal_orders,
    check=check,
    play=play,
    given=_given,
    broken_invariants=broken_invariants,
    score=score_guild,
    score_unit=UNIT,
    score_terms=TERM_LABELS,
    summary=summary,
    metrics=metrics,
    next_turn=_next_turn,
    schema="scenarios.schema.gw",
    chronicle="agents.chronicle_tables.gw",
    agent="agents.guild:GuildAgent",
    example="guild-war",
    links=("LINK-06", "LINK-07", "LINK-08"),
)
