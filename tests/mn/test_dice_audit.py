"""The ledger of a Mare Nostrum campaign against what happened: GEN-01 die by die — every die the MN rules
draw is in the ledger with its number of faces and the face it showed (tests/test_ledger_audit.py counts
them; this compares them) — the campaign's counts (the summary's ``mn.*`` figures) equal to the events of
the ledger they count, and the MN invariants whole at the end (RES-MN-17: no treasury below 0; MN-TRE-06:
one pact at a time; an ambassador at post holds an embassy and only he does).

The ledger does not keep the order of the draws (the d100 of a test is drawn before the interfering d20s,
which are recorded first), so dice are compared as multisets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import msgspec
import pytest

from agents.campaign import CampaignResult, run_campaign
from agents.variants import variant
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_DAY
from sim.rules import mn as dip
from tests.dice_record import rules_dice_drawn

pytestmark = pytest.mark.slow  # two campaigns of four years: `make test-fast` leaves them out


@pytest.fixture(scope="module", params=["scenario", "random"])
def campaign(request: pytest.FixtureRequest) -> Iterator[tuple[CampaignResult, list[tuple[int, int]]]]:
    """The mare-nostrum scenario for four years (seed 3), with its own policies or random ones, and the
    rules' dice as they were drawn."""
    with rules_dice_drawn() as drawn:
        sc = variant(load_scenario("mare-nostrum"), duration_hours=4 * 360 * HOURS_PER_DAY,
                     **({} if request.param == "scenario" else {"policy": "random"}))
        yield run_campaign(sc, 3, collect=False), drawn


@pytest.mark.rule("GEN-01", "RES-MN-17", "MN-TRE-06", "MN-TEST-02", "MN-INT-01", "RES-MN-07")
def test_every_die_of_a_mare_nostrum_campaign_is_recorded_with_its_faces(campaign) -> None:  # noqa: ANN001
    res, drawn = campaign
    in_ledger = [(s, f) for e in res.ledger.events if e.system == "mn" for s, f in e.dice]
    # the d100 of the diplomacy tests (MN-TEST-02), the d20 of interference (MN-INT-01), the 1d4 years of a
    # broken pact (RES-MN-07): each die a face of its own die
    assert {s for s, _ in drawn} == {100, 20, 4}
    assert all(1 <= f <= s for s, f in drawn)
    assert Counter(in_ledger) == Counter(drawn)
    assert dip.invariant_problems(res.model.world.mn_state()) == []


@pytest.mark.rule("GEN-01", "RES-MN-01", "MN-MIS-02", "RES-MN-13", "MN-TEST-02", "RES-MN-15", "MN-HOST-01", "MN-INT-01",
                  "MN-INT-02", "MN-TRE-01", "MN-EMB-01", "SC-MN-04", "RES-MN-14", "SC-MN-10", "MN-TRE-07", "MN-TRE-08",
                  "SC-MN-05", "SC-MN-07", "SC-MN-06")
def test_the_counts_of_a_mare_nostrum_campaign_are_those_of_its_ledger(campaign) -> None:  # noqa: ANN001
    """Each count of the campaign's summary is the number of ledger events of what it counts (income: their
    sum): ambassadors bought, missions, renewals, tests by band, host choices, interference, plots, treaties
    signed and ended (broken, expired, otherwise), embassies, ransoms, armies, pacts honoured and broken,
    wars, invasions and repulses."""
    res, _ = campaign
    ev = [e for e in res.ledger.events if e.system == "mn"]
    k = Counter(e.kind for e in ev)
    o = Counter((e.kind, e.outcome) for e in ev)
    want = {
        "ambassadors_bought": k["AmbassadorBought"], "missions": k["MissionLaunched"], "renewals": k["RenewalLaunched"],
        "tests": k["DiplomacyTestRolled"], "very_warm": o["DiplomacyTestRolled", "very_warm"],
        "limited": o["DiplomacyTestRolled", "limited"], "failures": o["DiplomacyTestRolled", "failure"],
        "blunders": o["DiplomacyTestRolled", "blunder"], "disasters": o["DiplomacyTestRolled", "disaster"],
        "host_accept": o["HostChose", "accept"], "host_dismiss": o["HostChose", "dismiss"],
        "host_execute": o["HostChose", "execute"], "host_imprison": o["HostChose", "imprison"],
        "interferences": k["InterferenceRolled"], "plots_discovered": k["AmbassadorExpelled"],
        "treaties_signed": k["TreatySigned"], "treaties_broken": o["TreatyEnded", "broken"],
        "treaties_expired": o["TreatyEnded", "expired"],
        "treaties_ended": k["TreatyEnded"] - o["TreatyEnded", "broken"] - o["TreatyEnded", "expired"],
        "embassies_installed": k["EmbassyInstalled"], "embassies_closed": k["EmbassyClosed"], "ransoms_paid": k["RansomPaid"],
        "armies_raised": k["ArmyRaised"], "pacts_honoured": k["PactHonoured"], "pacts_broken_war": o["PactBroken", "wartime"],
        "pacts_broken_peace": o["PactBroken", "peacetime"], "wars_declared": k["WarDeclared"],
        "invasions": k["InvasionRecorded"], "repulses": k["RepulseRecorded"],
        "income_po": sum(e.total or 0 for e in ev if e.kind == "IncomeCollected"),
    }
    got = msgspec.structs.asdict(res.model.world.mn_state().stats)
    assert got == want
    assert sum(1 for v in got.values() if v) >= 18  # the campaign exercises most of what is counted
