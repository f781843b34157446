"""The Mare Nostrum nation agent (*nation*, a player of MN): it holds identity and a policy; its
treasury, provinces, ambassadors and treaties live in ``world.mn``.

Each decision of a turn is one *slot* (RES-MN-17): buy an ambassador (1), one per ambassador (2),
host choices, interference and treaty proposals (3), pact obligations and the military choice (4),
ransoms (5). For each slot the agent lists the legal orders (``sim.rules.diplomacy.legal_orders``),
asks its policy, and records the decision with the alternatives scored (``RealmAgent.decide``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.config import MnConfig
from sim.rules.diplomacy import Order, legal_orders, order_label
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

    def choose(self, slot: str, *, subject: Any = None, legal: Sequence[Order] | None = None,
               clauses: Sequence[str] = (), **extra: Any) -> Order:
        """One decision: the legal orders of ``slot`` (or ``legal``), the policy's choice, recorded."""
        w = self.realm.world
        mn = w.mn
        assert mn is not None
        if legal is None:
            legal = legal_orders(mn, self.nation, slot, w.config.mn, subject=subject)
        if len(legal) == 1:
            return legal[0]
        obs = NationObs(mn, w.config.mn, self.nation, slot, subject, dict(extra))
        return self.decide(obs, legal, clauses=clauses, label=order_label).chosen  # type: ignore[no-any-return]
