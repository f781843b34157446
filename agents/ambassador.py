"""The Mare Nostrum ambassador agent (*ambassadeur*, *plénipotentiaire*, RES-MN-01).

One Mesa agent per ambassador bought: identity only. Its state (home, travelling, at_post, imprisoned,
dead) lives in ``world.mn.ambassadors``, and the MN turn (``sim.rules.mn.resolve_turn``) carries it
through its life: home when a return trip ends (RES-MN-02); when its mission arrives, received or
refused by a host player (MN-HOST-01, the host's policy choosing) or the diplomacy test at an
uncontrolled city (MN-TEST-01), with the interference of foreign embassies there (MN-INT-01, their
policies choosing). Its dice are its own stream, ``mn/ambassador:<id>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mesa

from sim.state.mn import Ambassador

if TYPE_CHECKING:
    from agents.model import RealmModel


class AmbassadorAgent(mesa.Agent):
    kind = "ambassador"
    system = "mn"

    def __init__(self, model: RealmModel, amb_id: str) -> None:
        super().__init__(model)
        self.amb_id = amb_id
        self.key = f"ambassador:{amb_id}"
        self.dice = model.dice.stream("mn", self.key)  # its stream: the turn draws its diplomacy tests from it
        model.register(self)

    @property
    def realm(self) -> RealmModel:
        return self.model  # type: ignore[return-value]

    @property
    def state(self) -> Ambassador:
        mn = self.realm.world.mn
        assert mn is not None
        return mn.ambassadors[self.amb_id]


def ensure_agent(model: Any, amb_id: str) -> AmbassadorAgent:
    """The agent of an ambassador, created when he is bought (or when a run resumes)."""
    a = model.by_key.get(f"ambassador:{amb_id}")
    return a if a is not None else AmbassadorAgent(model, amb_id)
