"""Exact odds by enumerating dice."""

from __future__ import annotations

from fractions import Fraction

from sim.odds import exact_distribution


def test_two_d6_sum() -> None:
    dist = exact_distribution(lambda d: sum(d.roll(6, 2)))
    assert dist[7] == Fraction(6, 36)
    assert dist[2] == Fraction(1, 36)
    assert dist[12] == Fraction(1, 36)
    assert sum(dist.values()) == 1


def test_branches_that_draw_more_dice_are_weighted_correctly() -> None:
    # roll a d4; on a 4 roll a d6 more. P(total=4+6) = 1/4 * 1/6
    def fn(d):  # type: ignore[no-untyped-def]
        a = d.roll(4)[0]
        return a + (d.roll(6)[0] if a == 4 else 0)

    dist = exact_distribution(fn)
    assert dist[1] == Fraction(1, 4)
    assert dist[10] == Fraction(1, 24)
    assert dist[5] == Fraction(1, 24)
    assert sum(dist.values()) == 1
