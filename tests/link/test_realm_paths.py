"""A realm campaign with every kept path checked against a fresh search (sim.paths.CHECK): the
roads its kingdoms build reach the kept trade, caravan and march paths through HexMap.set_road, and
the ledger is the one of the unchecked run."""

from __future__ import annotations

import pytest

from agents.campaign import run_campaign
from agents.variants import variant
from sim import paths
from sim.calendar import hours


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_realm_campaign_checked_answer_by_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A year of ``realm`` (roads are built, trade and envoy paths, marches, caravans) with every
    kept answer compared with a fresh search over a freshly built table; same ledger as unchecked."""
    loaded = variant("realm", duration_hours=hours(years=1))
    plain = run_campaign(loaded, 3, keep_ledger=True, collect=False)
    assert any(e.kind == "TerrainImprovementBuilt" and e.outcome == "road" for e in plain.ledger.events)
    paths.clear()
    monkeypatch.setattr(paths, "CHECK", True)
    checked = run_campaign(loaded, 3, keep_ledger=True, collect=False)
    assert checked.ledger_sha256 == plain.ledger_sha256
