"""The envoy (*ambassadeur*, *représentant officiel*) a kingdom sends to another kingdom's capital
(KM-DIP-02, LINK-05). It travels the least-cost path at ``link.envoy_hexes_per_day`` hexes a day and
is present in the target kingdom from its arrival until it is recalled (RES-KM-02).

Its state is an ``Envoy`` record in ``world.km.envoys``; the agent only wakes once, at the arrival
hour (``model.at(arrive, Phase.KM, rank)``), so a travelling envoy costs one SimPy event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.calendar import HOURS_PER_DAY, Phase
from sim.rules.links import envoy_arrived
from sim.state.km import Envoy

if TYPE_CHECKING:
    from agents.model import RealmModel


class EnvoyAgent(RealmAgent):
    kind = "envoy"
    system = "km"

    def __init__(self, model: RealmModel, envoy_id: int) -> None:
        super().__init__(model, f"envoy:{envoy_id}", "random")
        self.envoy_id = envoy_id
        model.register(self)
        if self.state.status == "travelling":
            model.process(self._travel())

    @property
    def state(self) -> Envoy:
        km = self.realm.world.km
        assert km is not None
        for e in km.envoys:
            if e.id == self.envoy_id:
                return e
        raise KeyError(f"no envoy {self.envoy_id}")

    def position(self, now: int | None = None) -> int:
        """The hex the envoy is in at hour ``now`` (on its path while travelling)."""
        e = self.state
        if e.status != "travelling":
            return e.path[-1] if e.status == "present" else e.path[0]
        t = self.realm.world.now if now is None else now
        rate = self.realm.world.config.link.envoy_hexes_per_day
        step = max(0, (t - e.depart) // HOURS_PER_DAY) * rate
        return e.path[min(len(e.path) - 1, step)]

    def _travel(self) -> Any:
        e = self.state
        km = self.realm.world.km
        assert km is not None
        rank = km.ids().index(e.kingdom) if e.kingdom in km.kingdoms else 0
        yield self.realm.at(e.arrive, Phase.KM, rank)
        e = self.state
        if e.status == "travelling":
            envoy_arrived(self.realm.world, e, self.realm.ledger)


def ensure_envoys(model: RealmModel) -> None:
    """An agent for every envoy record that has none (new ones, or all of them after a resume)."""
    km = model.world.km
    assert km is not None
    for e in km.envoys:
        if f"envoy:{e.id}" not in model.by_key and e.status == "travelling":
            EnvoyAgent(model, e.id)
