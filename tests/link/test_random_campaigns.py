"""Short random-policy campaigns of `realm` with random subsets of the systems keep every invariant
(hypothesis chooses the subset, the seed and the length; invariants are checked at every season
boundary and at the end, REALMSIM_CHECK_INVARIANTS=1 in conftest, and once more here)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.campaign import run_campaign
from agents.variants import variant
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_DAY

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`

REALM = load_scenario("realm")
SYSTEMS = ["km", "mn", "gw", "cv"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    systems=st.lists(st.sampled_from(SYSTEMS), min_size=1, max_size=4, unique=True),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    days=st.integers(min_value=1, max_value=540),
)
def test_random_policy_campaigns_of_realm_keep_every_invariant(systems: list[str], seed: int, days: int) -> None:
    sc = variant(REALM, systems=systems, policy="random", duration_hours=days * HOURS_PER_DAY)
    res = run_campaign(sc, seed, keep_ledger=False, collect=False)
    assert res.model.invariant_violations() == []
    assert res.world.now == days * HOURS_PER_DAY
    assert sorted(res.world.systems, key=SYSTEMS.index) == sorted(systems, key=SYSTEMS.index)
