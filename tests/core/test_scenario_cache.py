"""Scenarios parsed once per process (issue 12): the kept scenario is the one every job builds from,
so nothing may change it, and a kept scenario must give the same campaign as a fresh parse."""

from __future__ import annotations

import msgspec
import pytest

from agents.campaign import run_campaign
from scenarios import loader
from scenarios.loader import load_scenario, load_scenario_text, parse_scenario, read_source


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize("name", loader.builtin_names())
def test_a_whole_campaign_leaves_the_kept_scenario_as_it_was(name: str) -> None:
    loaded = load_scenario(name)
    before = msgspec.msgpack.encode(loaded.scenario)
    if name != "realm":  # realm: one year below (a whole realm campaign is slow)
        run_campaign(loaded, 2, collect=False)
    assert msgspec.msgpack.encode(loaded.scenario) == before


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_realm_first_year_leaves_the_kept_scenario_as_it_was() -> None:
    from agents.campaign import prepare_campaign
    from sim.calendar import HOURS_PER_YEAR

    loaded = load_scenario("realm")
    before = msgspec.msgpack.encode(loaded.scenario)
    model = prepare_campaign(loaded, 5)
    model.run(model.world.now + HOURS_PER_YEAR)
    assert msgspec.msgpack.encode(loaded.scenario) == before


def test_the_same_text_is_parsed_once_and_gives_the_same_campaign_as_a_fresh_parse() -> None:
    label, text = read_source("caravan-crossing")
    first = load_scenario_text(text, label)
    assert load_scenario_text(text, label) is first  # kept
    fresh = loader.LoadedScenario(parse_scenario(text, label), label, text, first.sha256)
    kept_run = run_campaign(first, 3, collect=False)
    again = run_campaign(load_scenario_text(text, label), 3, collect=False)
    fresh_run = run_campaign(fresh, 3, collect=False)
    assert kept_run.ledger_sha256 == again.ledger_sha256 == fresh_run.ledger_sha256


def test_another_label_is_another_entry_and_the_cache_is_bounded() -> None:
    label, text = read_source("caravan-crossing")
    a = load_scenario_text(text, "a.toml")
    b = load_scenario_text(text, "b.toml")
    assert a is not b and (a.label, b.label) == ("a.toml", "b.toml")
    for i in range(loader.PARSED_KEPT + 2):
        load_scenario_text(text, f"other-{i}.toml")
    assert len(loader._PARSED) == loader.PARSED_KEPT
    assert load_scenario_text(text, "a.toml") is not a  # the oldest went first


def test_a_bad_text_is_refused_every_time() -> None:
    from sim.errors import ScenarioError

    for _ in range(2):
        with pytest.raises(ScenarioError):
            load_scenario_text("[scenario]\nname = 3\n", "bad.toml")
