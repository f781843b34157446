"""Exact odds by enumerating every face of every die a resolution draws.

``exact_distribution(fn)`` calls ``fn(dice)`` once per possible sequence of faces and returns
``{result: Fraction}``. ``fn`` must be deterministic given its dice and return a hashable result; it
may draw a different number of dice on different branches (a failed check that rolls 1d4 more).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TypeVar

R = TypeVar("R", bound=Hashable)


class _Exhausted(Exception):
    pass


class _PathDice:
    """Replays a fixed prefix of faces; records the die size of each roll it is asked for."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.pos = 0
        self.sides: list[int] = []

    def roll(self, sides: int, count: int = 1) -> list[int]:
        out = []
        for _ in range(count):
            if self.pos < len(self.prefix):
                face = self.prefix[self.pos]
            else:
                face = 1
                self.prefix.append(1)
            self.sides.append(sides)
            self.pos += 1
            out.append(face)
        return out


def exact_distribution[R: Hashable](fn: Callable[[_PathDice], R], *, limit: int = 5_000_000) -> dict[R, Fraction]:
    """Exact probability of each result of ``fn`` over every die face sequence."""
    dist: dict[R, Fraction] = {}
    prefix: list[int] = []
    runs = 0
    while True:
        runs += 1
        if runs > limit:
            raise RuntimeError(f"exact_distribution: more than {limit} outcome sequences")
        d = _PathDice(list(prefix))
        result = fn(d)
        used = d.prefix[: d.pos]
        sides = d.sides
        p = Fraction(1)
        for s in sides:
            p /= s
        dist[result] = dist.get(result, Fraction(0)) + p
        # next sequence: increment the last die that can still be increased (odometer order)
        i = len(used) - 1
        while i >= 0 and used[i] == sides[i]:
            i -= 1
        if i < 0:
            break
        prefix = used[:i] + [used[i] + 1]
    return dist
