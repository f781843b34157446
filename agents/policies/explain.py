"""Explanations of the heuristics: scores as sums of named terms, in the faction's own units and words.

Every heuristic builds each alternative's score with a :class:`Terms` (``t.add(name, value, …)``) so
that the score *is* the sum of its terms; :func:`explained` turns the scored alternatives into a
:class:`agents.policies.Decision`: the chosen order first, then the best others, each with its terms
in English and French, and the tie for the best score (if any) named with how it was broken.

Units and their French (the seeds' words): BP = *PC* (points de construction), PO (pièces d'or),
solars, points (1 point = 1% of a convoy's journey).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from agents.policies import Alternative, Decision, ScoredRows, Term

UNITS_FR = {"BP": "PC", "PO": "PO", "solars": "solars", "points": "points", "": ""}
SHOWN = 6  # alternatives an explanation keeps: the chosen one and the five best others


def fmt_value(v: float) -> str:
    """``+12``, ``−6``, ``+2.5`` (a true minus sign, as a game master would write it)."""
    r = round(v, 1)
    if r == int(r):
        s = f"{abs(int(r))}"
    else:
        s = f"{abs(r):.1f}"
    return ("−" if r < 0 else "+") + s


def term(name: str, value: float, unit: str, en: str, fr: str) -> Term:
    """A term whose words read ``+12 BP income over a year`` / ``+12 PC de revenu sur un an``:
    ``en``/``fr`` are the words after the figure and its unit. Terms are immutable and repeat from
    one decision to the next (the same building, the same edict), so each is written once (not a
    zero: 0.0 and -0.0 are one key but two terms)."""
    v = float(value)
    return _term(name, v, unit, en, fr) if v else _term.__wrapped__(name, v, unit, en, fr)


@lru_cache(maxsize=1 << 14)
def _term(name: str, v: float, unit: str, en: str, fr: str) -> Term:
    fu = UNITS_FR.get(unit, unit)
    head_en = f"{fmt_value(v)} {unit}".rstrip()
    head_fr = f"{fmt_value(v)} {fu}".rstrip()
    return Term(name, v, unit, f"{head_en} {en}".strip(), f"{head_fr} {fr}".strip())


class Terms:
    """The terms of one alternative's score, in ``unit``; ``total`` is their sum.

    A term's words (``+12 BP income over a year``) are written only when ``items`` is read: a
    policy scores every candidate but an explanation shows only the best few."""

    __slots__ = ("unit", "_raw", "_values", "_items")

    def __init__(self, unit: str, items: list[Term] | None = None) -> None:
        self.unit = unit
        self._raw: list[tuple[str, float, str, str]] = []
        self._values: list[float] = []
        self._items: list[Term] | None = list(items) if items else None
        if items:
            self._raw = [(t.name, t.value, t.en, t.fr) for t in items]
            self._values = [t.value for t in items]

    def add(self, name: str, value: float, en: str, fr: str) -> float:
        """Add a term (skipped when it is 0); returns ``value`` so that scores read as sums."""
        if value:
            v = float(value)
            self._raw.append((name, v, en, fr))
            self._values.append(v)
            self._items = None
        return value

    def extend(self, other: Terms | Sequence[tuple[str, float, str, str]]) -> None:
        """Add the terms of ``other`` (a Terms, or terms written as ``(name, value, en, fr)`` with
        non-zero float values), in order: a policy keeps the terms candidates share."""
        if isinstance(other, Terms):
            raw, values = other._raw, other._values
        else:
            raw, values = list(other), [r[1] for r in other]
        if raw:
            self._raw.extend(raw)
            self._values.extend(values)
            self._items = None

    @property
    def raw(self) -> list[tuple[str, float, str, str]]:
        """The terms as ``(name, value, en, fr)``, in the order they were added (do not change it)."""
        return self._raw

    @property
    def values(self) -> list[float]:
        """The terms' values, in the order they were added (``total`` is their sum; do not change it)."""
        return self._values

    @property
    def items(self) -> list[Term]:
        if self._items is None:
            self._items = [term(name, v, self.unit, en, fr) for name, v, en, fr in self._raw]
        return self._items

    @property
    def total(self) -> float:
        return sum(self._values, 0.0)

    def __repr__(self) -> str:
        return f"Terms({self.unit!r}, {self.items!r})"


def tie_words(n: int, score: float, how: str) -> str:
    return f"{n} alternatives tied at {score:g}; {how}"


def explained(
    legal: Sequence[Any],
    scored: Sequence[Terms],
    pick: int,
    *,
    label: Callable[[Any], str],
    reason: str,
    tie_how: str,
    shown: int = SHOWN,
    scored_shown: int | None = None,
) -> Decision:
    """The Decision for ``legal[pick]``: ``scored`` (one Terms per legal order, same order) gives
    the alternatives, best first after the chosen one; ``tie_how`` says how a tie for the best score
    was broken (recorded only when there was one)."""
    return explained_totals(legal, [s.total for s in scored], lambda i: scored[i], pick, label=label,
                            reason=reason, tie_how=tie_how, shown=shown, scored_shown=scored_shown)


def explained_totals(
    legal: Sequence[Any],
    totals: Sequence[float],
    terms_of: Callable[[int], Terms],
    pick: int,
    *,
    label: Callable[[Any], str],
    reason: str,
    tie_how: str,
    shown: int = SHOWN,
    scored_shown: int | None = None,
) -> Decision:
    """:func:`explained` from each legal order's total score, building the named terms
    (``terms_of(i)``, whose total must equal ``totals[i]``) only for the ``shown`` alternatives an
    explanation keeps: a policy with many candidates scores them all as plain numbers."""
    best = max(totals)
    ties = [i for i, x in enumerate(totals) if x == best]
    # best first, equal scores in the order listed (a stable sort keeps it, reversed or not; nlargest
    # is that sort cut short, for a policy that records only its best few)
    n = len(legal)
    n_scored = n if scored_shown is None else scored_shown
    want = max(n_scored, shown) + 1
    order = (sorted(range(n), key=totals.__getitem__, reverse=True) if want >= n
             else heapq.nlargest(want, range(n), key=totals.__getitem__))
    top = [pick, *(i for i in order if i != pick)]
    labels = [label(legal[i]) for i in top[:max(n_scored, shown)]]
    alts = [Alternative(labels[j], totals[i], list(terms_of(i).items)) for j, i in enumerate(top[:shown])]
    tie = tie_words(len(ties), best, tie_how) if len(ties) > 1 else ""
    return Decision(
        legal[pick],
        ScoredRows([[str(labels[j]), round(float(totals[i]), 4)] for j, i in enumerate(top[:n_scored])]),
        reason,
        alternatives=alts,
        tie=tie,
    )


def compact_totals(legal: Sequence[Any], totals: Sequence[float], pick: int, *, label: Callable[[Any], str]) -> Decision:
    """The compact :class:`Decision` for ``legal[pick]`` (a policy whose ``explain`` is off): its
    score and the runner-up — the best other order, the first listed of equals, named by ``label`` —
    exactly the first two rows :func:`explained_totals` would record, without naming any term."""
    runner: tuple[str, float] | None = None
    if len(legal) > 1:
        others = list(totals)
        others[pick] = -math.inf
        j = others.index(max(others))  # the best but the chosen one, the first listed of equals
        if j == pick:  # every other order scores -inf too: the first of them
            j = 1 if pick == 0 else 0
        runner = (str(label(legal[j])), round(float(totals[j]), 4))
    return Decision(legal[pick], score=round(float(totals[pick]), 4), runner_up=runner)
