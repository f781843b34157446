"""GEN-01 for Mare Nostrum, die by die: every die the MN rules draw in a campaign is in the ledger with its
number of faces and the face it showed (tests/test_ledger_audit.py counts them; this compares them), and
the campaign ends with the MN invariants whole (RES-MN-17: no treasury below 0; MN-TRE-06: one pact at a
time; an ambassador at post holds an embassy and only he does).

The ledger does not keep the order of the draws (the d100 of a test is drawn before the interfering d20s,
which are recorded first), so the two are compared as multisets.
"""

from __future__ import annotations

from collections import Counter

import pytest

from agents.campaign import run_campaign
from agents.variants import variant
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_DAY
from sim.dice import SeededDice
from sim.rules import mn as dip

pytestmark = pytest.mark.slow  # a campaign of four years: `make test-fast` leaves it out


@pytest.mark.rule("GEN-01", "RES-MN-17", "MN-TRE-06", "MN-TEST-02", "MN-INT-01", "RES-MN-07")
@pytest.mark.parametrize("policy", ["scenario", "random"])
def test_every_die_of_a_mare_nostrum_campaign_is_recorded_with_its_faces(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, int]] = []
    roll = SeededDice.roll

    def recorded(self: SeededDice, sides: int, count: int = 1) -> list[int]:
        faces = roll(self, sides, count)
        if not self.name.startswith("policy/"):
            drawn.extend((sides, f) for f in faces)
        return faces

    monkeypatch.setattr(SeededDice, "roll", recorded)
    sc = load_scenario("mare-nostrum")
    sc = variant(sc, duration_hours=4 * 360 * HOURS_PER_DAY, **({} if policy == "scenario" else {"policy": "random"}))
    res = run_campaign(sc, 3, collect=False)
    in_ledger = [(s, f) for e in res.ledger.events if e.system == "mn" for s, f in e.dice]
    # the d100 of the diplomacy tests (MN-TEST-02), the d20 of interference (MN-INT-01), the 1d4 years of a
    # broken pact (RES-MN-07): each die a face of its own die
    assert {s for s, _ in drawn} == {100, 20, 4}
    assert all(1 <= f <= s for s, f in drawn)
    assert Counter(in_ledger) == Counter(drawn)
    assert dip.invariant_problems(res.model.world.mn_state()) == []
