"""Driver of Mare Nostrum diplomacy (MN): the generic periodic driver (``agents.systems.PeriodicDriver``)
with the ambassadors' agents.

One SimPy process wakes at hour 0 of every MN turn (``model.at(hour, Phase.MN, 0)``; a turn is
``1 / mn.turns_per_year`` of a year, a season when MN runs with other systems, LINK-01) and plays it
with :func:`sim.rules.mn.play` — the phases of SC-MN-03, nations in ascending id — passing the agents'
decider (each nation question goes to its ``NationAgent``'s policy) and the links' hooks
(``sim.rules.links.mn_hooks``: one treasury for a kingdom that is also a nation, LINK-03; armies
raised become GW armies, LINK-06), built once. Ambassadors bought in a turn get their agent after it.

The process keeps nothing between wake-ups: the next turn is ``world.mn.turn + 1``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.ambassador import ensure_agent
from agents.systems import PeriodicDriver
from sim.rules import mn as M

if TYPE_CHECKING:
    from agents.model import RealmModel


def ensure_agents(model: RealmModel) -> None:
    """An agent for every ambassador (bought in the turn just played, or when a run resumes), in the
    order they were bought."""
    for amb_id in model.world.mn_state().ambassadors:
        ensure_agent(model, amb_id)


class _Driver(PeriodicDriver):
    def add_agents(self, model: RealmModel) -> None:
        super().add_agents(model)  # the nations
        ensure_agents(model)

    def after_turn(self, model: RealmModel) -> None:
        ensure_agents(model)


DRIVER = _Driver(M.SYSTEM)
