"""The Mesa agent every faction agent derives from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import mesa

from agents.policies import Decision, ScoredRows, compact, make_policy
from sim.system import RuleSystem

if TYPE_CHECKING:
    from agents.model import RealmModel


class RealmAgent(mesa.Agent):
    """An agent holds identity and a policy; its state lives in the world.

    ``key`` is its stable id in the ledger (``convoy:amber``); ``policy_rng`` is its policy's own
    random stream, derived from the run's seed and the key (Mesa's ``Agent.rng``, the model's numpy
    generator, is left as Mesa defines it and is not used by the rules or the policies).
    """

    kind = "agent"
    system = ""

    def __init__(self, model: RealmModel, key: str, policy: str) -> None:
        super().__init__(model)
        self.key = key
        self.policy_name = policy
        self.policy = make_policy(self.kind, policy)
        self.policy.explain = model.explain  # only what the campaign records is worked out (Policy.explain)
        self.policy_rng = model.dice.stream("policy", key)
        bind = getattr(self.policy, "bind", None)
        if bind is not None:  # a policy that needs its agent (lookahead: the model it forks)
            bind(self)

    @property
    def realm(self) -> RealmModel:
        return self.model  # type: ignore[return-value]

    def decide(self, obs: Any, legal: Sequence[Any], *, clauses: Sequence[str] = (), label: Any = str) -> Decision:
        """Ask the policy, then record the decision in the ledger: compactly (the order, its score and
        the runner-up) unless the campaign explains its decisions (``RealmModel.explain``: ``run
        --explain``, ``advise``), when the alternatives it scored, their terms and reasons go with it."""
        d = self.policy.decide(obs, legal, self.policy_rng.rng)
        realm = self.realm
        if not realm.record_decisions:
            return d
        if not realm.explain:
            d = compact(d)
        extra: dict[str, Any] = {}
        if d.score is not None:  # compact: what the choice scored and what came next
            extra["score"] = d.score
            if d.runner_up is not None:
                extra["runner_up"] = list(d.runner_up)
        else:  # a policy without scores (random, scripted), or an explained decision: as it gave them
            extra["scored"] = (d.scored if type(d.scored) is ScoredRows
                               else [[str(a), round(float(sc), 4)] for a, sc in d.scored])
            extra["reason"] = d.reason
        if d.alternatives:  # recorded only when the policy explains itself (ledgers without stay as they were)
            extra["alternatives"] = [
                {"order": a.order, "score": round(float(a.score), 4),
                 "terms": [_term_record(t.name, t.value, t.unit, t.en, t.fr) if t.value
                           else _term_record.__wrapped__(t.name, t.value, t.unit, t.en, t.fr) for t in a.terms]}
                for a in d.alternatives
            ]
        if d.tie:
            extra["tie"] = d.tie
        if d.rollouts is not None:
            extra["rollouts"] = d.rollouts
        realm.ledger.emit(
            self.system,
            "DecisionMade",
            self.key,
            clauses,
            outcome=label(d.chosen),
            policy=self.policy_name,
            legal=len(legal),
            **extra,
        )
        return d

    # ---- the decider side (sim.orders.Decider) ----------------------------------------------------
    def observe(self, decision: str, context: Mapping[str, Any]) -> Any:
        """What this agent's policy sees for one question of the rules (its own view of the world).
        Each agent kind overrides it; the default hands the policy the rules' context."""
        return {"decision": decision, **context}

    def answer(self, decision: str, legal: Sequence[Any], context: Mapping[str, Any]) -> Any:
        """Answer one question of a turn function: the policy's choice, recorded (``DecisionMade``).
        ``context["clauses"]`` names the clauses behind the question; ``context["label"]`` how to
        print an alternative."""
        d = self.decide(
            self.observe(decision, context), legal,
            clauses=context.get("clauses", ()), label=context.get("label", str),
        )
        return d.chosen


class FactionAgent(RealmAgent):
    """The agent of a faction of a system whose descriptor names no agent class of its own
    (``RuleSystem.agent``): identity and a policy; the rules' context is what its policy sees."""

    def __init__(self, model: RealmModel, system: RuleSystem, faction: str, policy: str) -> None:
        self.kind = system.faction_kind
        self.system = system.name
        self.faction = faction
        super().__init__(model, system.actor(faction), policy)
        model.register(self)


@lru_cache(maxsize=1 << 14)
def _term_record(name: str, value: float, unit: str, en: str, fr: str) -> dict[str, Any]:
    """A score term (a :class:`agents.policies.Term`'s fields) as the ledger records it. The same
    terms recur from one decision to the next, so each record is built once and shared by the events
    that carry it (events are never changed). Not for a zero value: 0.0 and -0.0 are one key but two
    records."""
    return {"name": name, "value": round(float(value), 4), "unit": unit, "en": en, "fr": fr}


class AgentDecider:
    """The campaign's :class:`sim.orders.Decider`: each question goes to the agent of its actor. It
    plays the factions that have an agent, unless the agent plays its scripted orders
    (:meth:`plays`); ``on_joined`` gives the factions a turn brought into the world their agents."""

    __slots__ = ("model", "on_joined")

    def __init__(self, model: RealmModel, on_joined: Callable[[], None] | None = None) -> None:
        self.model = model
        self.on_joined = on_joined

    def plays(self, actor: str) -> bool:
        agent = self.model.by_key.get(actor)
        return agent is not None and not getattr(agent, "scripted", False)

    def joined(self) -> None:
        if self.on_joined is not None:
            self.on_joined()

    def decide(self, actor: str, decision: str, legal: Sequence[Any], context: Mapping[str, Any]) -> Any:
        agent = self.model.by_key.get(actor)
        if agent is None:
            raise KeyError(f"no agent plays {actor!r} in this campaign (asked for a {decision!r} decision)")
        return agent.answer(decision, legal, context)
