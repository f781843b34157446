"""The world round-trips through msgpack; config overrides apply (GEN-05)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenarios.build import build_world
from scenarios.loader import apply_overrides, load_scenario
from sim.config import Config
from sim.errors import ScenarioError
from sim.world import copy_world, decode_world, encode_world

TINY = str(Path(__file__).resolve().parents[1] / "data" / "tiny.toml")


def test_world_round_trips_exactly() -> None:
    w = build_world(load_scenario(TINY).scenario, 5)
    assert decode_world(encode_world(w)) == w
    c = copy_world(w)
    c.map.hexes[0].terrain = "water"
    assert w.map.hexes[0].terrain == "plains"


@pytest.mark.rule("GEN-05")
def test_config_defaults_are_the_section_6_values_and_can_be_overridden() -> None:
    c = Config()
    assert (c.cv.fatigued_penalty, c.cv.supply_wagon_hp, c.gw.annex_compensation_solars, c.link.gp_per_bp) == (2, 20, 500, 4000)
    assert (c.mn.ambassador_cost, c.km.days_per_turn, c.link.expedition_max_days) == (50, 30, 120)
    c2 = apply_overrides(c, {"cv.fatigued_penalty": 3, "gw.annex_compensation_solars": 400})
    assert c2.cv.fatigued_penalty == 3 and c2.gw.annex_compensation_solars == 400
    assert c.cv.fatigued_penalty == 2


def test_bad_overrides_are_clear_errors() -> None:
    with pytest.raises(ScenarioError, match=r"config.cv.fatigued_penalty: expected an integer, found \"x\""):
        apply_overrides(Config(), {"cv.fatigued_penalty": "x"})
    with pytest.raises(ScenarioError, match=r"nope: expected a config key <system>.<name>"):
        apply_overrides(Config(), {"nope": 1})
