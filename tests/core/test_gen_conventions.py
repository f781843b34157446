"""Global conventions (GEN) checked through the rules that rely on them."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.rules import mn as dip
from tests.mn.common import buy, make_world


@pytest.mark.rule("GEN-04", "RES-MN-08")
def test_mn_percentages_are_points_added_and_subtracted_never_multiplied() -> None:
    # RF(Latium, greeks) = +5 and a 30 PO gift: 35 points off a d100 of 50 → score 15 (not 50 × 0.65).
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial", 30), led, cfg)
    mn.turn += 1
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=50"]), led, cfg)
    assert r.score == 15
    assert r.band == "very_warm"  # 60 - 15 = 45 >= 20 points below the threshold
