"""What a tournament reads from ledgers (workers.quality): acts and idle stretches, why a kingdom ends
in anarchy, and the confidence intervals. Ledgers are written by hand, event by event."""

from __future__ import annotations

import pytest

from sim.calendar import HOURS_PER_MONTH as M
from sim.events import Event, Ledger
from workers.quality import activity, anarchy_endings, bootstrap_median, median, paired_wins, wilson


def ledger(*rows: tuple[int, str, str, str, dict[str, object]]) -> list[Event]:
    """(hour, actor, kind, outcome, data) rows → events."""
    led = Ledger()
    for t, actor, kind, outcome, data in rows:
        led.now = t
        led.emit("km", kind, actor, (), outcome=outcome, **data)
    return led.events


def test_the_longest_idle_stretch_runs_between_acts_and_to_the_end() -> None:
    evs = ledger(
        (0, "kingdom:a", "KingdomTurnBegan", "", {}),
        (0, "kingdom:a", "EdictsSet", "changed", {}),
        (M, "kingdom:a", "EdictsSet", "unchanged", {}),  # the same edicts again: not an act
        (3 * M, "kingdom:a", "HexClaimed", "", {}),
        (12 * M, "world", "CampaignEnded", "", {}),
    )
    a = activity(evs)["kingdom:a"]
    assert (a.start, a.acts, a.end) == (0, [0, 3 * M], 12 * M)
    assert a.longest_idle == 9 * M


def test_a_faction_that_never_acts_is_idle_all_along() -> None:
    evs = ledger((0, "guild:g", "DecisionMade", "end of orders", {}), (8 * M, "world", "CampaignEnded", "", {}))
    assert activity(evs)["guild:g"].longest_idle == 8 * M


def test_a_convoy_is_idle_only_between_setting_out_and_arriving_and_only_when_it_covers_no_ground() -> None:
    evs = ledger(
        (100, "convoy:c", "ConvoySetOut", "", {}),
        (130, "convoy:c", "ConvoyTravelled", "slot travelled", {"miles": "12"}),
        (154, "convoy:c", "ConvoyTravelled", "blocked", {"miles": "0"}),
        (400, "convoy:c", "ConvoyArrived", "", {}),
        (5000, "world", "CampaignEnded", "", {}),
    )
    a = activity(evs)["convoy:c"]
    assert (a.start, a.acts, a.end, a.longest_idle) == (100, [130], 400, 270)


def test_a_nation_acts_through_its_ambassadors_and_not_through_scenario_wars() -> None:
    evs = ledger(
        (0, "nation:n", "AmbassadorBought", "n-1", {}),
        (2 * M, "ambassador:n-1", "MissionLaunched", "commercial", {"nation": "n"}),
        (4 * M, "ambassador:n-1", "AmbassadorRecalled", "recalled", {}),
        (5 * M, "nation:n", "WarDeclared", "war", {"source": "scenario"}),
        (12 * M, "world", "CampaignEnded", "", {}),
    )
    a = activity(evs)["nation:n"]
    assert a.acts == [0, 2 * M, 4 * M]
    assert a.longest_idle == 8 * M
    assert "ambassador:n-1" not in activity(evs)


def test_anarchy_endings_are_classified_by_what_came_before() -> None:
    evs = ledger(
        (30 * M, "kingdom:own", "AnarchyBegan", "anarchy", {}),
        (2 * M, "kingdom:hex", "HexLostToGuild", "hex lost", {"guild": "g"}),  # any time before: lasting
        (40 * M, "kingdom:hex", "AnarchyBegan", "anarchy", {}),
        (10 * M, "kingdom:event", "ScenarioUnrest", "Unrest 9", {}),
        (15 * M, "kingdom:event", "AnarchyBegan", "anarchy", {}),
        (1 * M, "kingdom:old", "ScenarioUnrest", "Unrest 3", {}),  # outside the 12-month window
        (30 * M, "kingdom:old", "AnarchyBegan", "anarchy", {}),
        (5 * M, "kingdom:over", "AnarchyBegan", "anarchy", {}),
        (8 * M, "kingdom:over", "AnarchyEnded", "order restored", {}),  # not in anarchy at the end
        (20 * M, "kingdom:occ", "OccupationUnrest", "+1 Unrest", {}),
        (25 * M, "kingdom:occ", "AnarchyBegan", "anarchy", {}),
        (3 * M, "kingdom:x", "KingdomAttacked", "war", {"target": "war"}),  # the target is at war
        (4 * M, "kingdom:war", "AnarchyBegan", "anarchy", {}),
    )
    got = {e.kingdom: (e.onset, e.cause) for e in anarchy_endings(evs)}
    assert got == {
        "kingdom:own": (30 * M, "own play"),
        "kingdom:hex": (40 * M, "guilds"),
        "kingdom:event": (15 * M, "war or event"),
        "kingdom:old": (30 * M, "own play"),
        "kingdom:occ": (25 * M, "guilds"),
        "kingdom:war": (4 * M, "war or event"),
    }


def test_wilson_interval_matches_the_published_values() -> None:
    # 9 of 10 at 95%: [0.5958, 0.9821] (Wilson 1927; Newcombe 1998, table I)
    lo, hi = wilson(9, 10)
    assert (lo, hi) == (pytest.approx(0.5958, abs=1e-4), pytest.approx(0.9821, abs=1e-4))
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_paired_wins_count_ties_as_halves() -> None:
    assert paired_wins([3, 1, 2, 5], [1, 1, 4, 2]) == 2.5


def test_median_and_its_bootstrap_interval() -> None:
    assert median([5, 1, 3]) == 3
    assert median([4, 1, 3, 2]) == 2.5
    assert median([1, float("inf"), float("inf")]) == float("inf")
    xs = [float(x) for x in range(1, 42)]
    lo, hi = bootstrap_median(xs)
    assert lo < 21 < hi and (lo, hi) == bootstrap_median(xs)  # the same figures every run
    assert bootstrap_median([7.0] * 5) == (7.0, 7.0)
