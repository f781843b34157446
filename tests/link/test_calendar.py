"""LINK-01: one calendar and one tie order in a combined campaign; seasonal turns for GW and MN."""

from __future__ import annotations

import pytest

from agents.campaign import run_campaign, variant
from scenarios.build import build_world
from sim.calendar import HOURS_PER_MONTH, HOURS_PER_SEASON, hours
from sim.errors import ScenarioError
from tests.link.helpers import mini

RANK = {"km": 0, "mn": 1, "gw": 2, "cv": 3}


@pytest.fixture(scope="module")
def first_year():  # noqa: ANN201
    # every convoy's 12-hour travel slot starts at hour 0 of its day, so the first hour of the campaign
    # is shared by all four systems: KM turn 0, MN turn 1, GW season 0 and the convoys' first day
    return run_campaign(variant("realm", duration_hours=hours(years=1)), overrides={"cv.travel_start_hour": 0})


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.rule("LINK-01")
def test_at_one_instant_km_then_mn_then_gw_then_the_convoys(first_year) -> None:  # noqa: ANN001
    at0 = [e for e in first_year.ledger.events if e.t == 0 and e.kind == "DecisionMade"]
    systems = [e.system for e in at0]
    assert set(systems) == {"km", "mn", "gw", "cv"}
    ranks = [RANK[s] for s in systems]
    assert ranks == sorted(ranks), "a decision of an earlier system came after a later one"
    # within a system, factions act in ascending id (their first decisions come in that order)
    for system in RANK:
        firsts: list[str] = []
        for e in at0:
            if e.system == system and e.actor not in firsts:
                firsts.append(e.actor)
        assert firsts == sorted(firsts), (system, firsts)
    kingdoms = [e.actor for e in at0 if e.system == "km"]
    assert kingdoms[0] == "kingdom:avalon" and "kingdom:sylvara" in kingdoms
    guilds = [e.actor for e in at0 if e.system == "gw"]
    assert guilds[0] == "guild:avalon"  # Avalon acting as a guild (LINK-06) has the lowest guild id


@pytest.mark.rule("LINK-01", "GEN-07")
def test_turns_begin_at_hour_0_of_their_period(first_year) -> None:  # noqa: ANN001
    evs = first_year.ledger.events
    km_turns = [(e.t, e.data["turn"]) for e in evs if e.kind == "KingdomTurnBegan" and e.actor == "kingdom:avalon"]
    assert km_turns == [(m * HOURS_PER_MONTH, m) for m in range(12)]
    mn_turns = [(e.t, e.data["turn"]) for e in evs if e.system == "mn" and e.kind == "TurnBegan"]
    assert mn_turns == [(s * HOURS_PER_SEASON, s + 1) for s in range(4)]
    gw_hours = sorted({e.t for e in evs if e.system == "gw" and e.kind == "OrderGiven"})
    assert gw_hours and all(t % HOURS_PER_SEASON == 0 for t in gw_hours)
    snapshots = [e.data["season"] for e in evs if e.kind == "SeasonSummarized"]
    assert snapshots == [0, 1, 2, 3]


@pytest.mark.rule("LINK-01", "SC-GW-01", "SC-MN-08")
def test_guild_seasons_must_be_four_a_year_when_combined() -> None:
    bad = {'duration = { years = 2 }\n': 'duration = { years = 2 }\n\n[config.gw]\nseasons_per_year = 2\n'}
    with pytest.raises(ScenarioError, match=r"config\.gw\.seasons_per_year: expected 4 \(LINK-01: seasonal turns when GW runs with km, mn\), found 2"):
        mini(bad)
    alone = mini({**bad, 'systems = ["km", "mn", "gw"]': 'systems = ["gw"]'})  # GW alone may have other seasons
    assert build_world(alone.scenario, 1).config.gw.seasons_per_year == 2


@pytest.mark.rule("LINK-01", "SC-MN-08")
def test_mare_nostrum_turns_must_be_seasons_when_combined() -> None:
    bad = {'duration = { years = 2 }\n': 'duration = { years = 2 }\n\n[config.mn]\nturns_per_year = 2\n'}
    with pytest.raises(ScenarioError, match=r"config\.mn\.turns_per_year: expected 4 \(LINK-01: seasonal turns when MN runs with km, gw\), found 2"):
        mini(bad)
    alone = mini({**bad, 'systems = ["km", "mn", "gw"]': 'systems = ["mn"]'})
    assert build_world(alone.scenario, 1).config.mn.turns_per_year == 2


@pytest.mark.rule("LINK-01")
def test_an_override_that_breaks_the_seasons_is_a_scenario_error() -> None:
    loaded = mini()
    with pytest.raises(ScenarioError, match=r"overrides: gw\.seasons_per_year: expected 4 \(LINK-01: seasonal turns when GW runs with km, mn\), found 3"):
        build_world(loaded.scenario, 1, overrides={"gw.seasons_per_year": 3})
    with pytest.raises(ScenarioError, match=r"overrides: mn\.turns_per_year: expected a divisor of the 8640 hours of a year, and 4 when MN runs"):
        build_world(loaded.scenario, 1, overrides={"mn.turns_per_year": 2})
