"""Exact odds of every outcome band of the diplomacy test, by enumerating the d100 and the
interference d20 (``sim.odds.exact_distribution``), against fractions computed by hand."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from sim.odds import exact_distribution
from sim.rules import mn as dip
from tests.mn.common import buy, make_world, post

# Hand computation, commercial agreement (threshold 60), no modifier: score = d100.
#   96-00 disaster: 5 faces; blunder: score >= 80 -> 80..95, 16 faces; failure: 60..79, 20 faces;
#   very warm: score <= 40, 40 faces; limited: 41..59 with duration ceil((60 - score) / 5):
#   55..59 -> 1, 50..54 -> 2, 45..49 -> 3, 41..44 -> 4.
COMMERCIAL_NO_MODS = {
    ("disaster", 0): F(1, 20), ("blunder", 0): F(4, 25), ("failure", 0): F(1, 5), ("very_warm", 0): F(2, 5),
    ("limited", 1): F(1, 20), ("limited", 2): F(1, 20), ("limited", 3): F(1, 20), ("limited", 4): F(1, 25),
}
# Eternal friendship (threshold 20), favourable +15 (RF +5, gift +10): score = d100 - 15.
#   disaster 5; blunder score >= 40 -> d100 55..95: 41; failure d100 35..54: 20; very warm score <= 0 ->
#   d100 1..15: 15; limited d100 16..34, margin 35 - d100: 16..19 -> 4 turns, 20..24 -> 3, 25..29 -> 2, 30..34 -> 1.
PACT_PLUS_15 = {
    ("disaster", 0): F(1, 20), ("blunder", 0): F(41, 100), ("failure", 0): F(1, 5), ("very_warm", 0): F(3, 20),
    ("limited", 4): F(1, 25), ("limited", 3): F(1, 20), ("limited", 2): F(1, 20), ("limited", 1): F(1, 20),
}
# Military alliance (threshold 40), favourable -30 (MN-MOD-04 -20, MN-MOD-02 -10): score = d100 + 30.
#   disaster 5; blunder score >= 60 -> d100 30..95: 66; failure d100 10..29: 20; very warm impossible;
#   limited d100 1..9: 1..4 -> margin 9..6 -> 2 turns, 5..9 -> margin 5..1 -> 1 turn.
ALLIANCE_MINUS_30 = {
    ("disaster", 0): F(1, 20), ("blunder", 0): F(33, 50), ("failure", 0): F(1, 5),
    ("limited", 2): F(1, 25), ("limited", 1): F(1, 20),
}


@pytest.mark.rule("MN-TEST-02", "RES-MN-08", "RES-MN-15", "MN-OUT-01", "MN-OUT-02", "MN-OUT-03", "MN-OUT-04", "MN-OUT-05")
@pytest.mark.parametrize(
    ("threshold", "favourable", "expected"),
    [(60, 0, COMMERCIAL_NO_MODS), (20, 15, PACT_PLUS_15), (40, -30, ALLIANCE_MINUS_30)],
    ids=["commercial-0", "pact+15", "alliance-30"],
)
def test_band_odds_on_the_d100(threshold: int, favourable: int, expected: dict) -> None:
    dist = exact_distribution(lambda d: dip.roll_test(d, threshold, favourable)[:2])
    assert dist == expected
    assert sum(dist.values()) == 1
    assert dip.band_probabilities(threshold, favourable) == expected  # what the heuristic policy uses


# One hostile foreign embassy always adds its d20 (MN-INT-01), threshold 60, no modifier:
# 5/100 disaster with no d20 drawn (RES-MN-16); otherwise 95 x 20 equally likely pairs (1/2000 each),
# score s = d100 + d20. For 21 <= s <= 96 every d20 face is possible (20 pairs per s):
#   limited s 41..59 = 19 x 20 = 380 (55..59: 100 -> 1 turn, 50..54: 100 -> 2, 45..49: 100 -> 3, 41..44: 80 -> 4);
#   failure s 60..79 = 400; blunder s >= 80: d100 79..95 all 20 faces (340) + d100 60..78 with d20 >= 80 - d100 (190) = 530;
#   very warm s <= 40: d100 1..20 all faces (400) + d100 21..39 with d20 <= 40 - d100 (190) = 590.
HOSTILE_D20 = {
    ("disaster", 0): F(1, 20), ("blunder", 0): F(530, 2000), ("failure", 0): F(400, 2000), ("very_warm", 0): F(590, 2000),
    ("limited", 1): F(100, 2000), ("limited", 2): F(100, 2000), ("limited", 3): F(100, 2000), ("limited", 4): F(80, 2000),
}


@pytest.mark.rule("MN-INT-01", "MN-MOD-08", "RES-MN-16")
def test_band_odds_with_a_hostile_interference_d20() -> None:
    dist = exact_distribution(lambda d: dip.roll_test(d, 60, 0, [1])[:2])
    assert dist == HOSTILE_D20


@pytest.mark.rule("MN-INT-01", "MN-INT-02", "RES-MN-16", "MN-TEST-01")
def test_full_resolution_odds_and_the_chance_a_meddler_is_exposed() -> None:
    """The real resolver, enumerated: same band odds, and the plot is discovered on a d20 of 20
    drawn only when the d100 is not 96-00: 95/100 x 1/20 = 19/400."""

    def once(d):  # noqa: ANN001, ANN202
        mn, cfg, led = make_world(turn=5)
        mn.rf = {}
        post(mn, "p2", "massalia")
        a = buy(mn, "p1")
        m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
        mn.turn = 6
        r = dip.resolve_test(mn, m, d, led, cfg, dip.ScriptedInterference({"p2": "+"}))
        return r.band, r.duration, bool(led.of_kind("AmbassadorExpelled"))

    dist = exact_distribution(once)
    bands: dict = {}
    exposed = F(0)
    for (band, dur, expelled), p in dist.items():
        bands[(band, dur)] = bands.get((band, dur), F(0)) + p
        if expelled:
            exposed += p
    assert bands == HOSTILE_D20
    assert exposed == F(19, 400)


@pytest.mark.rule("MN-OUT-05", "RES-MN-15")
def test_a_face_of_00_is_100_and_a_disaster() -> None:
    assert dip.outcome_band(100, 100 - 200, 60) == ("disaster", 0)
    assert dip.outcome_band(96, -500, 20) == ("disaster", 0)
    assert dip.outcome_band(95, 95 - 200, 20) == ("very_warm", 0)
