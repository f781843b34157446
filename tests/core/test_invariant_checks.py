"""Every test campaign checks the drivers' invariants (REALMSIM_CHECK_INVARIANTS=1 in conftest)."""

from __future__ import annotations

import os

import pytest

from agents.campaign import prepare_campaign
from agents.model import InvariantError


def test_tests_run_with_invariant_checks_on() -> None:
    assert os.environ.get("REALMSIM_CHECK_INVARIANTS") == "1"
    assert prepare_campaign("caravan-crossing", 1).check_invariants is True


def test_a_broken_invariant_stops_the_campaign(monkeypatch: pytest.MonkeyPatch) -> None:
    model = prepare_campaign("caravan-crossing", 1)
    drv = model.drivers[0]
    monkeypatch.setattr(drv, "invariants", lambda m: ["convoy:x: hp 99 outside 0..80"])
    with pytest.raises(InvariantError, match=r"caravan-crossing seed 1 hour 0: convoy:x: hp 99 outside 0..80"):
        model.run()


def test_invariant_checks_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REALMSIM_CHECK_INVARIANTS", "0")
    model = prepare_campaign("caravan-crossing", 1)
    monkeypatch.setattr(model.drivers[0], "invariants", lambda m: ["broken"])
    model.run(until=48)
    assert model.world.now == 48
