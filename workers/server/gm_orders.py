"""The game master's orders in a fork: at one decision time, a faction gives the orders a game master
chose (advice applied from the campaign page), then its policy plays on.

A game master's order is a pair (decision, order): the question it answers (a kingdom's slot —
``claim``, ``building``, ``special``…; a guild's ``orders``; a convoy's ``day``; a nation's ``buy``,
``ambassador``…, as ``realmsim advise`` names them in English) and the order as the ledger labels it
(``DecisionMade.outcome``: ``build smithy in Southdale``, ``trade food Southdale → Khazad (kharzul), 5 BP``).

At hour ``hour`` each question the rules ask the faction takes the first of the game master's orders
for that question that is among the orders legal then; the ledger records it as the faction's decision
with the policy ``game master``. A question the game master gave no order for (or none legal then) is
answered by the faction's policy, as always. Orders are matched by their label, not replayed as
objects, because advice is computed on a state file (docs/state-format.md) whose world may differ in
a detail from the campaign's: an order that is not legal in the campaign when its question comes is
not given, and :meth:`GameMasterOrders.report` says which and why (the fork's ``note``). The rules'
dice are never touched; only the faction's choices change, so the fork is as deterministic as any.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.policies import Decision, Policy

POLICY = "game master"
DEFAULT_DECISION = {"guild": "orders", "convoy": "day"}


def decision_of(kind: str, obs: Any, clauses: Sequence[str]) -> str:
    """What a question is about, as advice names it (workers.advise: a kingdom's or nation's slot…)."""
    slot = getattr(obs, "slot", None) or (obs.get("decision") if isinstance(obs, dict) else None)
    if slot is None and "RES-CV-02" in clauses:
        slot = "route"
    return str(slot or DEFAULT_DECISION.get(kind, "decision"))


class _Given(Policy):
    """The policy that answers one question with the game master's order."""

    name = POLICY

    def __init__(self, chosen: Any, reason: str) -> None:
        self.chosen = chosen
        self.reason = reason

    def decide(self, obs: Any, legal: Sequence[Any], rng: Any) -> Decision:
        return Decision(self.chosen, [], self.reason)


@dataclass
class GameMasterOrders:
    faction: str
    hour: int
    orders: list[tuple[str, str]]
    given: list[int] = field(default_factory=list)  # indexes into orders, in the order given
    asked: set[str] = field(default_factory=set)  # the decisions the rules asked at ``hour``
    reported: bool = False

    @classmethod
    def install(cls, model: Any, faction: str, hour: int, orders: list[tuple[str, str]]) -> GameMasterOrders:
        """Wrap the faction's agent in ``model`` so that it gives ``orders`` at ``hour``."""
        gm = cls(faction, hour, orders)
        agent = model.by_key.get(faction)
        if agent is None:  # a kingdom that plays its script, a convoy that has arrived: nobody to ask
            return gm
        inner = agent.decide
        kind = faction.partition(":")[0]

        def decide(obs: Any, legal: Sequence[Any], *, clauses: Sequence[str] = (), label: Any = str) -> Decision:
            if int(model.env.now) != gm.hour:
                return inner(obs, legal, clauses=clauses, label=label)
            what = decision_of(kind, obs, clauses)
            gm.asked.add(what)
            labels = [str(label(x)) for x in legal]
            for i, (decision, order) in enumerate(gm.orders):
                if i in gm.given or decision != what or order not in labels:
                    continue
                gm.given.append(i)
                saved = agent.policy, agent.policy_name
                agent.policy = _Given(legal[labels.index(order)], f"the game master's order {i + 1} of {len(gm.orders)}")
                agent.policy_name = POLICY
                try:
                    return inner(obs, legal, clauses=clauses, label=label)
                finally:
                    agent.policy, agent.policy_name = saved
            return inner(obs, legal, clauses=clauses, label=label)

        agent.decide = decide
        return gm

    def report(self) -> dict[str, Any]:
        """What was given and what was not (and why), once ``hour`` has passed."""
        self.reported = True
        not_given = []
        for i, (decision, order) in enumerate(self.orders):
            if i in self.given:
                continue
            why = ("not among the legal orders when the question came" if decision in self.asked
                   else f"the rules asked no {decision!r} question then")
            not_given.append({"decision": decision, "order": order, "why": why})
        return {"faction": self.faction, "hour": self.hour, "orders": len(self.orders), "given": len(self.given),
                "not_given": not_given}


def note(report: dict[str, Any]) -> str:
    """The report in one sentence, for the fork's ``note``."""
    from sim.calendar import date_of

    head = (f"the game master's orders for {report['faction']} at {date_of(int(report['hour'])).format()}: "
            f"{report['given']} of {report['orders']} given")
    if not report["not_given"]:
        return head
    parts = [f"{d['decision']}: “{d['order']}” ({d['why']})" for d in report["not_given"][:10]]
    more = len(report["not_given"]) - len(parts)
    return head + "; not given: " + "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
