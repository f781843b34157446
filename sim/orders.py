"""How a turn asks a faction for its orders.

A system's turn function (``resolve_day``, ``resolve_month``, ``resolve_turn``, ``resolve_season``)
is the whole turn, and every choice the rules leave to a faction during it — a day's plan, a route, a
combat target, a guild's next order or ``END``, an edict, which hex to lose, whether to interfere,
consent to a treaty — is one question to the :class:`Decider` it was given:

    decider.decide("guild:griffon", "order", legal, {"season": 3}) -> one of ``legal``

Campaigns pass the agents' decider (policies answer, and each answer is a ``DecisionMade`` event);
tests, worked examples and a game master's table pass a :class:`ScriptedDecider`. The rules never
know which: they ask, check the answer (``check``), then resolve it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from sim.errors import RulesError

T = TypeVar("T")


class _End:
    """The answer "no more orders this turn" (a singleton, compared with ``is``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "END"

    def __str__(self) -> str:
        return "end of orders"

    def __reduce__(self) -> str:
        return "END"


END: Any = _End()


class Decider(Protocol):
    """Answers the rules' questions for the factions of a turn.

    Two optional methods let a turn know more of its players (a campaign's decider has both; a
    :class:`ScriptedDecider` has neither, and the rules' default applies — see :func:`plays_for`):

    * ``plays(actor) -> bool`` — whether the decider answers for ``actor`` (a faction it does not play
      is asked nothing: a kingdom then plays its scenario's scripted orders);
    * ``joined() -> None`` — a turn brought new factions into the world (a vassal, an envoy, a
      caravan): the campaign gives them their players before the next question.
    """

    def decide(self, actor: str, decision: str, legal: Sequence[T], context: Mapping[str, Any]) -> T: ...


def plays_for(decider: Decider, actor: str) -> bool | None:
    """Whether ``decider`` answers for ``actor`` (its optional ``plays(actor)``); None when the decider
    does not say, and the rules' default applies."""
    fn = getattr(decider, "plays", None)
    return None if fn is None else bool(fn(actor))


def tell_joined(decider: Decider) -> None:
    """Tell ``decider`` that new factions joined the world during a turn (its optional ``joined()``)."""
    fn = getattr(decider, "joined", None)
    if fn is not None:
        fn()


class UnscriptedDecisionError(RulesError):
    """A scripted decider was asked a question its script does not answer."""


class ScriptedDecider:
    """Answers from a script: ``{(actor, decision): [answer, …]}`` or ``{actor: [answer, …]}`` (any
    decision), consumed in order. An answer may be a callable ``f(legal, context)`` for choices that
    depend on what the rules offer. A question with no scripted answer left fails loudly, naming the
    actor and the decision, unless ``default`` says what to do: ``"first"`` (the first legal
    alternative) or ``"end"`` (``END`` when it is legal, else the first)."""

    def __init__(
        self, script: Mapping[Any, Iterable[Any]] | None = None, *, default: str | None = None
    ) -> None:
        self._queues: dict[Any, deque[Any]] = {k: deque(v) for k, v in (script or {}).items()}
        if default not in (None, "first", "end"):
            raise ValueError(f"default={default!r}: expected None, 'first' or 'end'")
        self.default = default
        self.asked: list[tuple[str, str]] = []

    def add(self, actor: str, decision: str | None, *answers: Any) -> None:
        key = actor if decision is None else (actor, decision)
        self._queues.setdefault(key, deque()).extend(answers)

    def decide(self, actor: str, decision: str, legal: Sequence[T], context: Mapping[str, Any]) -> T:
        self.asked.append((actor, decision))
        for key in ((actor, decision), actor):
            q = self._queues.get(key)
            if q:
                answer = q.popleft()
                return answer(legal, context) if callable(answer) and answer is not END else answer  # type: ignore[no-any-return]
        if self.default == "end" and any(a is END for a in legal):
            return END  # type: ignore[no-any-return]
        if self.default is not None and legal:
            return legal[0]
        raise UnscriptedDecisionError(
            f"{actor}: the rules asked for a {decision!r} decision ({len(legal)} legal alternative(s)) "
            "but the script has no answer left for it"
        )

    def assert_exhausted(self) -> None:
        left = {k: list(q) for k, q in self._queues.items() if q}
        if left:
            raise UnscriptedDecisionError(f"scripted answers never asked for: {left!r}")
