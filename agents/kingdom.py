"""The kingdom agent (*royaume*): identity and a policy; its state is ``world.km.kingdoms[id]``.

The kingdom month is the rules' (``sim.rules.km.resolve_month``): in the Edict phase it asks the
kingdom one question per slot, in SC-KM-13 order — an envoy (LINK-05), hex claims, terrain
improvements, buildings, the Taxation, Holiday and Promotion edicts (SC-KM-14…16), an optional
relation order (KM-REL-06/10), last the special edict (*édit spécial*, KM-GEN-02) — plus a treaty's
balance (KM-REL-08) and the hex lost to Unrest (SC-KM-07). Each question reaches this agent through
the campaign's ``AgentDecider``; :meth:`KingdomAgent.observe` gives its policy a :class:`KingdomObs`,
and ``RealmAgent.answer`` records the decision and the alternatives scored.

A kingdom with ``policy = "scripted"`` plays the orders of its scenario or order file instead (the
rules apply them; an order they refuse stops the run with a ``ScriptedOrderError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.rules import km as K
from sim.rules.km import ScriptedOrderError, label
from sim.state.km import Kingdom

if TYPE_CHECKING:
    from agents.model import RealmModel
    from sim.world import World

__all__ = ["KingdomAgent", "KingdomObs", "ScriptedOrderError", "label"]


@dataclass
class KingdomObs:
    """What a kingdom's policy sees for one decision: the world (read only), its id, the slot."""

    world: World
    kingdom: str
    slot: str
    extra: dict[str, Any] = field(default_factory=dict)
    sheet: K.Stats | None = None  # the kingdom's statistics as they stand, when the rules have them

    @property
    def me(self) -> Kingdom:
        km = self.world.km
        assert km is not None
        return km.kingdoms[self.kingdom]


class KingdomAgent(RealmAgent):
    kind = "kingdom"
    system = "km"

    def __init__(self, model: RealmModel, kid: str, policy: str) -> None:
        super().__init__(model, f"kingdom:{kid}", policy)
        self.kid = kid
        model.register(self)

    @property
    def state(self) -> Kingdom:
        km = self.realm.world.km
        assert km is not None
        return km.kingdoms[self.kid]

    @property
    def scripted(self) -> bool:
        """Whether the kingdom plays its scripted orders (the rules then ask it nothing)."""
        return self.policy_name == "scripted"

    def observe(self, decision: str, context: Mapping[str, Any]) -> KingdomObs:
        """The policy's view of one question of the month: the world, the kingdom, the slot, the
        question's extras (``proposer``…) and the kingdom's statistics when the rules know them."""
        extra = {k: v for k, v in context.items() if k not in K.CONTEXT_KEYS}
        return KingdomObs(self.realm.world, self.kid, decision, extra, context.get("sheet"))
