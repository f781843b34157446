"""What a score is made of: the vocabulary every system's score shares (docs/scoring.md).

A faction's score (:class:`FactionScore`) is a sum of named :class:`Term`s in its system's own money
over a year, computed from the world alone. Each system scores its own factions
(``sim.rules.<sys>.scoring``, its descriptor's ``score``); ``sim.scoring`` scores every faction of a
world through the registry, with the terms where the systems meet (LINK-03) added by the links.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["FactionScore", "Term", "reserve_value", "round2", "years_of"]


@dataclass(frozen=True, slots=True)
class Term:
    """One named part of a score: its key (its system's ``TERM_LABELS``), its value in the score's unit, and
    what it was computed from (for a person: ``"Size 12 × 15 BP"``)."""

    key: str
    value: float
    basis: str = ""


@dataclass(frozen=True)
class FactionScore:
    """A faction's score: the sum of its terms, in ``unit``; ``metrics`` are the quantities a report
    or a tournament reads next to it (income over a year, treasury in years of income…)."""

    key: str  # actor key, "kingdom:restov"
    kind: str  # kingdom | nation | guild | convoy
    policy: str
    unit: str
    terms: tuple[Term, ...]
    metrics: dict[str, float | int | str | None] = field(default_factory=dict)
    # term key → (English, French): the seeds' own words, for explanations and reports (the system's
    # ``TERM_LABELS``)
    labels: Mapping[str, tuple[str, str]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def total(self) -> float:
        return round(sum(t.value for t in self.terms), 2)

    def term(self, key: str) -> float:
        """The value of one term (0 if the score has no such term)."""
        return next((t.value for t in self.terms if t.key == key), 0.0)

    def terms_dict(self) -> dict[str, float]:
        return {t.key: t.value for t in self.terms}

    def label(self, key: str, lang: str = "en") -> str:
        en, fr = self.labels[key]
        return fr if lang == "fr" else en


def round2(x: float | Fraction) -> float:
    """A score's value: a float rounded to 2 decimals (so that a sum is the same in any process)."""
    return round(float(x), 2) + 0.0  # + 0.0: never a negative zero


def reserve_value(money: int, reserve: float, share: float) -> float:
    """Money up to ``reserve`` at face value, the part above it at ``share`` of its value; debt at face
    value. Money a faction hoards beyond what it can use soon is worth less than what it builds."""
    if money <= reserve:
        return float(money)
    return reserve + (money - reserve) * share


def years_of(money: int, per_year: float) -> float | None:
    """``money`` in years of ``per_year`` (None when nothing comes in)."""
    return None if per_year <= 0 else round(money / per_year, 2)
