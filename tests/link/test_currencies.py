"""LINK-02: one conversion, through gp, rounding down, wherever value crosses systems."""

from __future__ import annotations

import pytest

from sim.config import LinkConfig
from sim.rules.links import convert

pytestmark = pytest.mark.rule("LINK-02", "GEN-02")


def test_default_rates_go_through_gold_pieces() -> None:
    cfg = LinkConfig()  # 4,000 gp per BP (the SC-KM-18 deposit rate), 1 gp per PO, 10 gp per solar
    assert convert(8000, "gp", "bp", cfg) == 2
    assert convert(2, "bp", "po", cfg) == 8000
    assert convert(12, "solar", "po", cfg) == 120
    assert convert(5, "bp", "solar", cfg) == 2000
    assert convert(35, "solar", "gp", cfg) == 350


def test_rounding_is_down_and_small_amounts_vanish() -> None:
    cfg = LinkConfig()
    assert convert(7999, "gp", "bp", cfg) == 1
    assert convert(3999, "po", "bp", cfg) == 0  # a Mare Nostrum mission fee is worth no BP at these rates
    assert convert(399, "solar", "bp", cfg) == 0  # 3,990 gp
    assert convert(400, "solar", "bp", cfg) == 1
    assert convert(9, "po", "solar", cfg) == 0


def test_scenario_rates() -> None:
    cfg = LinkConfig(gp_per_bp=100, gp_per_po=10, gp_per_solar=4)
    assert convert(35, "po", "bp", cfg) == 3  # 350 gp
    assert convert(64, "solar", "bp", cfg) == 2  # 256 gp
    assert convert(64, "solar", "po", cfg) == 25  # 256 gp
    assert convert(3, "bp", "po", cfg) == 30


def test_unknown_currency() -> None:
    with pytest.raises(ValueError, match="unknown currency 'ducats': expected one of bp, po, solar, gp"):
        convert(1, "ducats", "bp", LinkConfig())


def test_overridden_rates_reach_the_world() -> None:
    from tests.link.helpers import world

    w = world(overrides={"link.gp_per_bp": 100, "link.gp_per_po": 10, "link.gp_per_solar": 4})
    assert (w.config.link.gp_per_bp, w.config.link.gp_per_po, w.config.link.gp_per_solar) == (100, 10, 4)
    assert w.mn is not None and w.mn.nations["alpha"].treasury == 300  # 30 BP × 100 gp / 10 gp per PO
