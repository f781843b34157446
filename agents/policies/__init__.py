"""AI policies, chosen by name in scenario files.

A policy sees an observation and the list of legal orders, draws from its own random stream (never
the rules' dice) and returns a :class:`Decision`: the chosen order(s) and the alternatives it scored,
which the agent records in the ledger.

Built-in names per agent kind: ``random`` (uniform over legal orders) and ``heuristic``. A scenario may
also name ``package.module:Class`` to plug in an outside policy; the class is built with no argument
and must have ``decide(obs, legal, rng) -> Decision``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Term:
    """One named part of an alternative's score, in the faction's own units.

    ``value`` is what it adds to the score; ``en``/``fr`` say it in words for a game master
    ("+12 BP income over a year" / "+12 PC de revenu sur un an")."""

    name: str
    value: float
    unit: str = ""
    en: str = ""
    fr: str = ""


@dataclass
class Alternative:
    """An order a policy considered: its label, its score and the terms that make the score."""

    order: str
    score: float
    terms: list[Term] = field(default_factory=list)


@dataclass
class Decision:
    chosen: Any
    scored: list[tuple[str, float]] = field(default_factory=list)  # (alternative, score), best first
    reason: str = ""
    # the explanation (optional; a policy that fills it gets it recorded in the ledger):
    alternatives: list[Alternative] = field(default_factory=list)  # chosen first, then the best others
    tie: str = ""  # how a tie for the best score was broken ("3 plans tied at 4.2; drawn by the policy's stream")
    rollouts: dict[str, Any] | None = None  # a look-ahead policy's figures (candidates, wins, mean scores)


class Policy(Protocol):
    name: str

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision: ...


_REGISTRY: dict[tuple[str, str], Callable[[], Policy]] = {}


def register(kind: str, name: str) -> Callable[[type], type]:
    """Class decorator: ``@register("convoy", "heuristic")``."""

    def deco(cls: type) -> type:
        _REGISTRY[(kind, name)] = cls
        return cls

    return deco


class RandomPolicy:
    """Uniform over the legal orders (every kind of agent)."""

    name = "random"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not legal:
            raise ValueError("random policy: no legal order to choose from")
        return Decision(legal[rng.randrange(len(legal))], [], "uniform over legal orders")


def known_policies(kind: str) -> list[str]:
    _load_builtin(kind)
    return sorted({"random", *(n for k, n in _REGISTRY if k == kind)})


def _load_builtin(kind: str) -> None:
    for name in (f"agents.policies.{kind}", "agents.policies.lookahead"):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise


def make_policy(kind: str, spec: str) -> Policy:
    """Build the policy named ``spec`` for an agent of ``kind``; ValueError with the choices if unknown."""
    _load_builtin(kind)
    if (kind, spec) in _REGISTRY:
        p = _REGISTRY[(kind, spec)]()
        p.name = spec
        return p
    if spec == "random":
        return RandomPolicy()
    if ":" in spec:
        mod, _, attr = spec.partition(":")
        try:
            obj = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"policy {spec!r} cannot be imported: {e}") from None
        p = obj()
        if not hasattr(p, "name"):
            p.name = spec
        return p
    raise ValueError(f"unknown {kind} policy {spec!r}; known: {', '.join(known_policies(kind))} or package.module:Class")
