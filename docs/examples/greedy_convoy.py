"""A complete convoy policy (*convoi*): greedy, one day at a time — and the same policy as an outside
agent of the PettingZoo environment (docs/agents.md).

Two ways to use it:

1. **Plugged into a scenario.** A scenario's convoy says ``policy = "greedy_convoy:GreedyConvoyPolicy"``
   (this folder on ``sys.path``, and ``--allow-policies greedy_convoy`` on the command line: an outside
   policy is imported only from a module the person allows; it subclasses ``agents.policies.Policy``). Importing the module
   also registers it as ``greedy`` for ``agents.policies.make_policy("convoy", "greedy")``.
2. **As an outside agent.** :func:`play_episode` drives the convoys of ``caravan-crossing`` through
   ``agents.env``: at each question it asks :meth:`RealmEnv.decision_context` for the observation the
   scenario policy would see and answers with the index of the order this policy chooses.

The policy never draws a random number (its ties go to the first best order), so both ways give the
same campaign.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from agents.policies import Decision, Policy, register
from sim.state.cv import DayPlan, RouteChoice


@register("convoy", "greedy")
class GreedyConvoyPolicy(Policy):
    """Go as far as the crew bears each day; rest when exhausted, repair when battered, buy food
    (*vivres*) when it would not last to the next village, calm the crew (*équipage*) before a mutiny."""

    name = "greedy"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not legal:
            raise ValueError("greedy convoy policy: no legal order to choose from")
        decision = obs.get("decision")
        if decision == "route":  # the fewest days, counting each point of risk as a day
            scored = [(r, -(r.days + r.risk)) for r in legal if isinstance(r, RouteChoice)]
        elif decision == "target":  # the weakest enemy first
            hp = {e["id"]: float(e["hp"]) for e in obs.get("enemies", [])}
            scored = [(i, -hp.get(i, 1e9)) for i in legal]
        else:
            scored = [(p, self.day_score(obs, p)) for p in legal]
        best = max(s for _, s in scored)
        chosen = next(o for o, s in scored if s == best)  # the first best: no draw
        top = sorted(scored, key=lambda x: -x[1])[:3]
        return Decision(chosen, [(_label(o), round(s, 2)) for o, s in top], f"greedy {decision}")

    @staticmethod
    def day_score(obs: dict[str, Any], plan: DayPlan) -> float:
        """The day's plan: progress, minus what the crew and the wagons would pay for it."""
        tired = obs.get("condition", "none")
        short_of_food = obs.get("provisions", 0) < obs.get("consumption", 0) * (obs.get("next_village_days", 0) + 2)
        battered = obs.get("hp", 0) < obs.get("max_hp", 1) / 2
        near_mutiny = obs.get("margin", 99) <= 1
        s = 0.0
        if plan.move == "travel":
            s += 12 + plan.extra - (1 if plan.night else 0)
            if tired != "none":
                s -= 3 * plan.extra  # a forced march on a fatigued crew (CV-TRAV-05…07)
            if tired == "exhausted":
                s -= 20
        elif plan.move == "repair":
            s += 15 if battered and obs.get("repair", 0) > 0 else -5
        else:  # rest
            s += 20 if tired == "exhausted" else 0
        if short_of_food and any(b.startswith("stores") for b in plan.purchases):
            s += 10
        if short_of_food and plan.forage:
            s += 3
        if near_mutiny and (plan.double or plan.gift):
            s += 8
        elif plan.double or plan.gift:
            s -= 2
        if plan.abandon:
            s -= 5
        return s


def _label(o: Any) -> str:
    return o.label() if callable(getattr(o, "label", None)) else str(o)


def play_episode(seed: int = 1, scenario: str = "caravan-crossing", **kwargs: Any) -> tuple[dict[str, float], Any]:
    """One episode of ``agents.env`` with every convoy played by this policy as an outside agent;
    returns each convoy's total reward (its score's change from the first question to the end) and
    the campaign's ledger."""
    from agents.env import env

    policy = GreedyConvoyPolicy()
    e = env(scenario=scenario, seed=seed, **kwargs)
    e.reset()
    totals: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)
            continue
        ctx = e.unwrapped.decision_context(agent)
        assert ctx is not None
        _, policy_obs, legal = ctx
        chosen = policy.decide(policy_obs, legal, random.Random(0)).chosen
        e.step(next(i for i, o in enumerate(legal) if o is chosen))
    ledger = e.unwrapped.model.ledger
    e.close()
    return totals, ledger


if __name__ == "__main__":
    for key, total in sorted(play_episode()[0].items()):
        print(f"{key}: {total:+.2f} points")
