"""The Mare Nostrum ambassador agent (*ambassadeur*, *plénipotentiaire*, RES-MN-01).

One Mesa agent per ambassador bought. Its state (home, travelling, at_post, imprisoned, dead) lives
in ``world.mn.ambassadors``; the agent carries it through its life: it comes home when a return
trip ends (RES-MN-02), and when its mission arrives it is received or refused by a host player
(MN-HOST-01, the host's policy choosing) or passes the diplomacy test at an uncontrolled city
(MN-TEST-01), with the interference of foreign embassies there (MN-INT-01, their policies
choosing). Its dice are its own stream, ``mn/ambassador:<id>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mesa

from sim.rules import diplomacy as dip
from sim.state.mn import Ambassador, Mission

if TYPE_CHECKING:
    from agents.model import RealmModel
    from agents.nation import NationAgent


class AmbassadorAgent(mesa.Agent):
    kind = "ambassador"
    system = "mn"

    def __init__(self, model: RealmModel, amb_id: str) -> None:
        super().__init__(model)
        self.amb_id = amb_id
        self.key = f"ambassador:{amb_id}"
        self.dice = model.dice.stream("mn", self.key)
        model.register(self)

    @property
    def realm(self) -> RealmModel:
        return self.model  # type: ignore[return-value]

    @property
    def state(self) -> Ambassador:
        mn = self.realm.world.mn
        assert mn is not None
        return mn.ambassadors[self.amb_id]

    def travel(self) -> bool:
        """Phase (2): home again if the return trip ends this turn (RES-MN-02)."""
        mn = self.realm.world.mn
        assert mn is not None
        return dip.return_if_due(mn, self.state, self.realm.ledger)

    def arrive(self, mission: Mission, chooser: dip.InterferenceChooser) -> None:
        """Phase (3): the mission reaches its city — a host's choice or the diplomacy test."""
        model = self.realm
        mn = model.world.mn
        assert mn is not None
        cfg = model.world.config.mn
        if dip.abort_if_cut(mn, cfg, model.ledger, mission):
            return
        host = dip.needs_host(mn, mission)
        if host is not None:
            agent: NationAgent = model.by_key[f"nation:{host}"]
            order = agent.choose("host", subject=mission, clauses=("MN-HOST-01", "RES-MN-04"), sender=mission.nation)
            dip.resolve_host_choice(mn, host, order, model.ledger, cfg)  # type: ignore[arg-type]
        else:
            dip.resolve_test(mn, mission, self.dice, model.ledger, cfg, chooser)


def ensure_agent(model: Any, amb_id: str) -> AmbassadorAgent:
    """The agent of an ambassador, created when he is bought (or when a run resumes)."""
    a = model.by_key.get(f"ambassador:{amb_id}")
    return a if a is not None else AmbassadorAgent(model, amb_id)
