"""Driver of the kingdoms (KM): the generic periodic driver (``agents.systems.PeriodicDriver``) with
the envoys of LINK-05.

One SimPy process wakes at hour 0 of every month (``model.at(hour, Phase.KM, TURN_INDEX)``) and plays
the month, ``sim.rules.km.play`` (Upkeep, Edict, Income, Event in SC-KM-08 order, each phase for
every kingdom in ascending id, RES-KM-39), with the campaign's ``AgentDecider`` and the hooks the other
systems add (``sim.rules.links.km_hooks``, built once). After each kingdom's Edict phase the model
gives the factions it brought (a new vassal, an envoy, a trade caravan) their agents
(``RealmModel.add_agents``). Envoys (LINK-05) wake once, at their arrival hour, with the same phase and
a lower index, so an envoy arriving at a month's first hour is present for that month's edicts.
Kingdom turns come first at any hour shared with other systems (LINK-01: KM, MN, GW, then convoys).

The process keeps nothing between wake-ups: the next turn is ``world.km.turn + 1``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.envoy import ensure_envoys
from agents.systems import PeriodicDriver
from sim.rules import km as K

if TYPE_CHECKING:
    from agents.model import RealmModel

TURN_INDEX = K.TURN_INDEX


class _Driver(PeriodicDriver):
    def add_agents(self, model: RealmModel) -> None:
        super().add_agents(model)  # the kingdoms
        ensure_envoys(model)  # LINK-05: the envoys on their way


DRIVER = _Driver(K.SYSTEM)
