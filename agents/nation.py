"""The Mare Nostrum nation agent (*nation*, a player of MN): it holds identity and a policy; its
treasury, provinces, ambassadors and treaties live in ``world.mn``.

Each decision of a turn is one *slot* (RES-MN-17): buy an ambassador (1), one per ambassador (2),
host choices, interference and treaty proposals (3), pact obligations and the military choice (4),
ransoms (5). The turn (``sim.rules.mn.resolve_turn``) lists the legal orders of the slot
(``sim.rules.mn.legal_orders``) and asks the nation through the campaign's decider; the agent hands
its policy its view (:meth:`NationAgent.observe`) and records the decision with the alternatives
scored (``RealmAgent.answer``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.config import MnConfig
from sim.state.mn import MnWorld

if TYPE_CHECKING:
    from agents.model import RealmModel


@dataclass
class NationObs:
    """What a nation's policy sees for one decision: the MN world (read only), its id, the slot and
    the slot's subject (an ambassador, a mission, a partner, an obligation…), plus slot details."""

    mn: MnWorld
    cfg: MnConfig
    nation: str
    slot: str
    subject: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


_NOT_SHOWN = frozenset({"subject", "clauses", "label"})  # what the turn's context holds for the ledger only


class NationAgent(RealmAgent):
    kind = "nation"
    system = "mn"

    def __init__(self, model: RealmModel, nation: str, policy: str) -> None:
        super().__init__(model, f"nation:{nation}", policy)
        self.nation = nation
        model.register(self)

    @property
    def state(self) -> Any:
        return self.realm.world.mn.nations[self.nation]  # type: ignore[union-attr]

    def observe(self, decision: str, context: Mapping[str, Any]) -> NationObs:
        """The policy's view of one question of the turn: the slot (``decision``), its subject and its
        details (the context less what the ledger needs: ``clauses``, ``label``)."""
        w = self.realm.world
        extra = {k: v for k, v in context.items() if k not in _NOT_SHOWN}
        return NationObs(w.mn_state(), w.config.mn, self.nation, decision, context.get("subject"), extra)
