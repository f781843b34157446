"""The shared route cache sees the roads built during a campaign (RES-CV-02: a stretch's speed
depends on its road): a convoy's plan with the cache is always the plan without it."""

from __future__ import annotations

import pytest

from sim import paths
from sim.hexmap import Hex, HexMap
from sim.rules import cv as cr
from tests.cv.helpers import baseline, world_of


@pytest.mark.rule("RES-CV-02", "RES-CV-24")
def test_a_road_built_after_a_plan_changes_the_next_plan() -> None:
    # two rows of forest (×1/2 trackless, ×1 on a road): from [0,0] to [4,0] the top row costs 4
    # forest hexes; once the lower row [0,1]..[3,1] has a road, going down and back up is faster
    paths.clear()
    hm = HexMap(width=5, height=2, hexes=[Hex(terrain="forest") for _ in range(10)])
    c = baseline(hm, at=0, dest=4)
    w = world_of(c, hm)
    cache = cr.shared_route_cache(w)
    before = cr.plan_path(w, c, "fast", cache)
    assert before is not None and before[0] == [0, 1, 2, 3, 4]
    for i in (5, 6, 7, 8):
        hm.set_road(i, "road")
    after = cr.plan_path(w, c, "fast", cache)
    assert after is not None and after[0] == [0, 5, 6, 7, 8, 4]
    assert after == cr.plan_path(w, c, "fast", None)
    assert after[1] < before[1]
    # the per-hex hazard tables and step costs are those of the map as it stands
    assert cr.step_costs(w, "fast", 0, 0, cr.speed_mpd(c, w.config.cv), cache) == cr.step_costs(
        w, "fast", 0, 0, cr.speed_mpd(c, w.config.cv), None)
