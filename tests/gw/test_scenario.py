"""Mistakes in a scenario's GW tables get clear messages (file, path, expected, found)."""

from __future__ import annotations

import re

import pytest

from scenarios.loader import load_scenario, load_scenario_text
from sim.errors import ScenarioError
from tests.gw.helpers import BASE

DOMAIN = """
[[domains]]
id = "D1"
at = [1, 1]
owner = "a"
"""


def problems(extra: str, head: str = "") -> str:
    return problems_of(head + BASE + extra)


def problems_of(text: str) -> str:
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(text, "bad.toml")
    return str(ei.value)


@pytest.mark.rule("SC-GW-05")
def test_unknown_guild():
    msg = problems(DOMAIN.replace('owner = "a"', 'owner = "zz"'))
    assert 'bad.toml: domains[0].owner: expected the id of a guild in [[guilds]] (a, b, c, e), found "zz"' in msg


@pytest.mark.rule("RES-GW-07")
def test_unknown_domain_army_guild_and_unit_type_in_a_bonus():
    msg = problems(DOMAIN + """
[[unit_bonuses]]
source = "sépium"
value = 1
domain = "D9"
army = "nobody"
guild = "zz"
kind = "dragon"
""")
    assert 'unit_bonuses[0].domain: expected the id of a domain in [[domains]] (D1), found "D9"' in msg
    assert 'unit_bonuses[0].army: expected the id of an army in [[armies]] (none is defined), found "nobody"' in msg
    assert 'unit_bonuses[0].guild: expected the id of a guild in [[guilds]]' in msg
    assert 'unit_bonuses[0].kind: expected a unit type of the catalogue (archer, cavalry, infantry, knight, militia, siege_engine), found "dragon"' in msg


@pytest.mark.rule("SC-GW-03", "RES-GW-01")
def test_seal_of_an_unknown_province_and_a_region_that_does_not_match():
    text = BASE.replace('{ id = "c-m1", province = "Q1" }', '{ id = "c-m1", province = "Q2" }')
    text = text.replace('{ id = "c-m2", province = "Q1" }', '{ id = "c-m2", province = "Q1", region = "R" }')
    text = text.replace('{ id = "e-m1", province = "P" }', '{ id = "e-m1", province = "P", region = "Nowhere" }')
    msg = problems_of(text)
    assert 'guilds[2].seals[0].province: expected a province of the map (map.provinces) (P, P2, Q1), found "Q2"' in msg
    assert 'guilds[2].seals[1].region: expected the region of province Q1 ("Q"), found "R"' in msg
    assert 'guilds[3].seals[0].region: expected a region of the map (Q, R), found "Nowhere"' in msg


@pytest.mark.rule("SC-GW-07")
def test_fortification_level_out_of_range():
    msg = problems(DOMAIN + "fortification = 5\n")
    assert "domains[0].fortification: expected a fortification level 0..4 (0 none, 1 palisade, 2 keep, 3 castle, 4 citadel), found 5" in msg
    msg = problems(DOMAIN + "fortification = -1\n")
    assert "domains[0].fortification: expected a fortification level 0..4" in msg


@pytest.mark.rule("SC-GW-06")
def test_unknown_unit_types_everywhere():
    text = BASE.replace('id = "a"\nleader = "Alice"', 'id = "a"\nleader = "Alice"\npool = { infantry = 2, pikeman = 3 }')
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(text + DOMAIN + 'garrison = { militia = 1, dragon = 1 }\n' + """
[[armies]]
id = "x"
owner = "a"
at = [2, 2]
seals = ["a-m1"]
units = { knigth = 2 }
""", "bad.toml")
    msg = str(ei.value)
    assert 'guilds[0].pool.pikeman: expected a unit type of the catalogue' in msg
    assert 'domains[0].garrison.dragon: expected a unit type of the catalogue (archer, cavalry, infantry, knight, militia, siege_engine), found "dragon"' in msg
    assert 'armies[0].units.knigth: expected a unit type of the catalogue (archer, cavalry, infantry, knight, militia, siege_engine), found "knigth" (did you mean "knight"?)' in msg


@pytest.mark.rule("SC-GW-04", "SC-GW-05")
def test_domain_on_water_outside_the_map_or_outside_any_province_and_duplicates():
    head = ""
    text = BASE.replace('province_rows = ["pppppqqqqrrrrr"', 'province_rows = [".ppppqqqqrrrrr"')
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(head + text + """
[[domains]]
id = "W"
at = [5, 2]
owner = "a"

[[domains]]
id = "OFF"
at = [40, 1]
owner = "a"

[[domains]]
id = "NOPROV"
at = [0, 0]
owner = "a"

[[domains]]
id = "W"
at = [6, 0]
owner = "b"

[[domains]]
id = "TWIN"
at = [6, 0]
owner = "b"
""", "bad.toml")
    msg = str(ei.value)
    assert "domains[0].at: expected a land hex, found water at [5, 2]" in msg
    assert "domains[1].at: expected a hex [col, row] inside the 14×6 map, found [40, 1]" in msg
    assert "domains[2].at: expected a hex inside a province (map.provinces), found [0, 0], which is in no province" in msg
    assert 'domains[3].id: expected a domain id used once, found "W" again' in msg
    assert "domains[4].at: expected a hex without another domain, found [6, 0], where W lies" in msg


@pytest.mark.rule("GW-DEP-01", "GW-DEP-04", "RES-GW-03", "SC-GW-03")
def test_armies_seals_and_capacity():
    msg = problems("""
[[armies]]
id = "x"
owner = "a"
at = [2, 2]
seals = ["a-m1", "a-p1", "b-m1", "b-m2", "zz"]
units = { infantry = 45 }

[[armies]]
id = "y"
owner = "a"
at = [2, 2]
seals = ["a-m1"]

[[armies]]
id = "z"
owner = "a"
at = [5, 3]
seals = []
""")
    assert 'armies[0].seals[1]: expected a military seal (GW-DEP-01), found "a-p1", a political seal' in msg
    assert 'armies[0].seals[4]: expected the id of a seal of a guild' in msg
    assert "armies[0].seals: expected at least 50% seals of the owner guild (GW-DEP-04), found 2 of 5" in msg
    assert "armies[0].units: expected at most 50 units (5 seals × 10, RES-GW-03), found 45" not in msg
    assert 'armies[1].seals[0]: expected a seal engaged in one army (SC-GW-03), found "a-m1", already engaged in x' in msg
    assert "armies[2].seals: expected at least one military seal (GW-DEP-01), found an empty list" in msg
    assert "armies[2].at: expected a land hex, found water at [5, 3]" in msg
    msg2 = problems("""
[[armies]]
id = "x"
owner = "a"
at = [2, 2]
seals = ["a-m1"]
units = { infantry = 11 }
""")
    assert "armies[0].units: expected at most 10 units (1 seals × 10, RES-GW-03), found 11" in msg2


@pytest.mark.rule("GW-DEP-04")
def test_seal_lending_consent_names_other_known_guilds():
    msg = problems_of(BASE.replace('id = "b"\nleader = "Bob"', 'id = "b"\nleader = "Bob"\nlends_to = ["a", "zz", "b"]'))
    assert 'guilds[1].lends_to[1]: expected the id of a guild in [[guilds]] (a, b, c, e), found "zz"' in msg
    assert "guilds[1].lends_to[2]: expected another guild's id (a guild engages its own seals), found \"b\"" in msg
    from scenarios.build import build_world

    ok = load_scenario_text(BASE.replace('id = "b"\nleader = "Bob"', 'id = "b"\nleader = "Bob"\nlends_to = ["e", "a"]'), "ok.toml")
    w = build_world(ok.scenario, 1)
    assert w.gw.guilds["b"].lends_to == ["a", "e"] and w.gw.guilds["a"].lends_to == []


@pytest.mark.rule("RES-GW-06")
def test_alliances_name_two_known_guilds():
    msg = problems("", head='alliances = [["a", "zz"], ["b", "b"], ["c"]]\n')
    assert 'alliances[0][1]: expected the id of a guild in [[guilds]] (a, b, c, e), found "zz"' in msg
    assert "alliances[1]: expected two different guild ids, found ['b', 'b']" in msg
    assert "alliances[2]: expected two different guild ids, found ['c']" in msg


@pytest.mark.rule("SC-GW-02")
def test_chest_counts_are_non_negative():
    text = BASE.replace('id = "e"\nleader = "Eve"', 'id = "a"\nleader = "Alice"')
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(text.replace("solars = 1000\nvictuals = 100\nnotoriety = 7\nseals = [\n  { id = \"a-m1\"", "solars = -5\nvictuals = 100\nnotoriety = 7\nseals = [\n  { id = \"a-m1\"", 1), "bad.toml")
    msg = str(ei.value)
    assert "guilds[0].solars: expected an integer >= 0, found -5 (an integer)" in msg


@pytest.mark.rule("SC-GW-02")
def test_duplicate_guild_and_leader():
    text = BASE.replace('id = "e"\nleader = "Eve"', 'id = "a"\nleader = "Alice"').replace('{ id = "e-m1", province = "P" }', '{ id = "a-m1", province = "P" }')
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(text, "bad.toml")
    msg = str(ei.value)
    assert 'guilds[3].id: expected a guild id used once, found "a" again' in msg
    assert 'guilds[3].leader: expected a leader who leads one guild, found "Alice", who already leads a' in msg
    assert 'guilds[3].seals[0].id: expected a seal id used once, found "a-m1" again' in msg


@pytest.mark.rule("RES-GW-10", "RES-GW-22", "SC-GW-15")
def test_gw_config_mistakes():
    head = ""
    text = BASE.replace('duration = { years = 2 }', 'duration = { years = 2 }\n\n[config.gw]\nphase_order = ["deploy", "move", "siege", "battles", "domain_attacks", "annexations", "end_of_season"]\ndesertion_rounding = "round"\nunit_cost_solars = { militia = 5, wizard = 40 }\n')
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(head + text, "bad.toml")
    msg = str(ei.value)
    assert 'config.gw.phase_order[3]: expected a phase of RES-GW-10 (deploy, move, siege, army_combats, domain_attacks, annexations, end_of_season), found "battles"' in msg
    assert 'config.gw.desertion_rounding: expected "ceil" or "floor", found "round"' in msg
    assert 'config.gw.unit_cost_solars.wizard: expected a unit type of config.gw.units' in msg


def test_every_problem_is_reported_at_once():
    msg = problems(DOMAIN.replace('owner = "a"', 'owner = "zz"') + "fortification = 9\n")
    head = msg.splitlines()[0]
    assert re.match(r"bad\.toml: 2 problems", head)


def test_the_built_in_guild_war_scenario_is_valid():
    loaded = load_scenario("guild-war")
    sc = loaded.scenario
    assert sc.scenario.systems == ["gw"] and sc.scenario.duration.years == 5
    assert len(sc.guilds) >= 4
    regions = set()
    for d in sc.domains:
        regions.add(next(p.region for p in sc.map.provinces if p.key == sc.map.province_rows[d.at[1]][d.at[0]]))
    assert len(regions) >= 3
    forts = {d.fortification for d in sc.domains}
    assert {1, 2} <= forts
