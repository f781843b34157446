"""MN scenario tables: building the world (SC-MN-01/02/08), the built-in mare-nostrum, and every
kind of mistake in the MN tables reported with its path, what was expected and what was found."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenarios.build import build_world
from scenarios.loader import load_scenario, load_scenario_text
from sim.errors import ScenarioError
from sim.world import decode_world, encode_world

SMALL = """
[scenario]
name = "mn-small"
systems = ["mn"]
duration = { years = 1 }

[map]
rows = ["PPWPP", "PWWWP", "PPWPP"]
province_rows = ["aa.bb", "a...b", "cc.dd"]
provinces = [
  { name = "Latium", region = "North", key = "a" },
  { name = "Achaea", region = "North", key = "b" },
  { name = "Gallia", region = "South", key = "c" },
  { name = "Africa", region = "South", key = "d" },
]
settlements = [
  { name = "Roma", at = [0, 0] },
  { name = "Corinthus", at = [4, 0] },
  { name = "Massalia", at = [0, 2] },
  { name = "Carthago", at = [4, 2] },
]

[diplomacy]
hexes_per_turn = 2

[[peoples]]
id = "latins"
[[peoples]]
id = "achaeans"
[[peoples]]
id = "greeks"
[[peoples]]
id = "punics"

[[mn_provinces]]
name = "Latium"
people = "latins"
resources = ["wine", "grain"]
[[mn_provinces]]
name = "Achaea"
people = "achaeans"
resources = ["oil"]
[[mn_provinces]]
name = "Gallia"
people = "greeks"
resources = ["salt"]
[[mn_provinces]]
name = "Africa"
people = "punics"
resources = ["purple"]
[[mn_provinces]]
name = "Numidia"
people = "punics"
resources = ["horses"]

[[cities]]
id = "roma"
province = "Latium"
settlement = "Roma"
[[cities]]
id = "corinthus"
province = "Achaea"
settlement = "Corinthus"
[[cities]]
id = "massalia"
province = "Gallia"
settlement = "Massalia"
[[cities]]
id = "carthago"
province = "Africa"
settlement = "Carthago"

[[nations]]
id = "p1"
capital = "roma"
treasury = 200
ambassadors = 1
[[nations]]
id = "p2"
capital = "corinthus"

[[racial_factors]]
province = "Latium"
people = "greeks"
value = 5

[[mn_travel]]
a = "Latium"
b = "Africa"
turns = 3

[[mn_treaties]]
nation = "p2"
partner = "massalia"
kind = "commercial"
last_turn = 3

[[mn_events]]
turn = 2
kind = "war"
by = "p1"
on = "carthago"
[[mn_events]]
turn = 3
kind = "invasion"
attacker = "Latium"
defender = "Africa"
repelled = true
"""


@pytest.mark.rule("SC-MN-01", "SC-MN-02", "SC-MN-08", "RES-MN-02", "RES-MN-09", "SC-MN-07")
def test_the_scenario_builds_the_mn_world() -> None:
    w = build_world(load_scenario_text(SMALL, "small").scenario, 3)
    mn = w.mn
    assert mn is not None
    assert sorted(mn.provinces) == ["Achaea", "Africa", "Gallia", "Latium", "Numidia"]
    assert (mn.provinces["Gallia"].people, mn.provinces["Gallia"].resources, mn.provinces["Gallia"].city) == ("greeks", ["salt"], "massalia")
    assert mn.provinces["Numidia"].seat == -1 and mn.provinces["Numidia"].city is None  # a province without hexes
    assert mn.provinces["Latium"].region == "North"
    assert [c.controller for c in mn.cities.values()] == [None, "p2", None, "p1"]  # carthago, corinthus, massalia, roma
    assert mn.nations["p1"].treasury == 200 and mn.nations["p2"].treasury == 50  # SC-MN-08 default
    assert mn.nations["p1"].provinces == ["Latium"]
    assert mn.rf == {"Latium": {"greeks": 5}}
    # travel from the map: hex distance / 2, at least 1; the explicit entry wins
    assert mn.travel["Latium"]["Achaea"] == 2 and mn.travel["Latium"]["Gallia"] == 1
    assert mn.travel["Latium"]["Africa"] == mn.travel["Africa"]["Latium"] == 3
    assert "Numidia" not in mn.travel
    assert mn.turn_hours == 2160 and w.end == 4 * 2160
    [amb1, amb2] = mn.ambassadors.values()
    assert (amb1.id, amb1.state) == ("p1-1", "home")
    assert (amb2.id, amb2.state, amb2.city) == ("p2-1", "at_post", "massalia")
    [t] = mn.treaties
    assert (t.kind, t.partner, t.last_turn, t.via) == ("commercial", "city:massalia", 3, "p2-1")
    assert {i.resource for i in mn.nations["p2"].imports} == {"salt"}
    assert [(e.turn, e.kind, e.by, e.on) for e in mn.script][0] == (2, "war", "nation:p1", "city:carthago")
    assert decode_world(encode_world(w)) == w


def _problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(text, "bad.toml")
    assert ei.value.file == "bad.toml"
    return [f"{p.path}: expected {p.expected}, found {p.found}" for p in ei.value.problems]


MISTAKES = [
    ('people = "achaeans"\nresources = ["oil"]', 'people = "romans"\nresources = ["oil"]',
     'mn_provinces[1].people: expected a people of [[peoples]] ("achaeans", "greeks", "latins", "punics"), found "romans"'),
    ('[[cities]]\nid = "carthago"\nprovince = "Africa"', '[[cities]]\nid = "carthago"\nprovince = "Afrika"',
     'cities[3].province: expected a province of [[mn_provinces]] ("Achaea", "Africa", "Gallia", "Latium", "Numidia"), found "Afrika"'),
    ('[[cities]]\nid = "carthago"\nprovince = "Africa"', '[[cities]]\nid = "carthago"\nprovince = "Gallia"',
     'cities[3].province: expected a province without another city (SC-MN-01: at most one city), found "Gallia", already the province of "massalia"'),
    ('[[cities]]\nid = "carthago"', '[[cities]]\nid = "p2"',
     'cities[3].id: expected an id that no nation uses (parties are named by bare ids), found "p2", a nation id'),
    ('settlement = "Carthago"', 'settlement = "Karthago"', 'cities[3].settlement: expected a settlement of map.settlements'),
    ('settlement = "Carthago"', 'settlement = "Carthago"\ncontroller = "p9"', 'cities[3].controller: expected a nation id ("p1", "p2"), found "p9"'),
    ('capital = "corinthus"', 'capital = "athenae"', 'nations[1].capital: expected a city id of [[cities]]'),
    ('capital = "corinthus"', 'capital = "roma"', 'nations[1].capital: expected a city that is no other nation\'s capital, found "roma", the capital of "p1"'),
    ('capital = "corinthus"', 'capital = "corinthus"\nprovinces = ["Latium"]',
     'nations[1].provinces: expected provinces no other nation controls, found "Latium", controlled by "p1"'),
    ('capital = "corinthus"', 'capital = "corinthus"\npolicy = "clever"', 'nations[1].policy: expected a built-in nation policy (heuristic, lookahead, random), an installed one, or a module allowed by --allow-policies, found "clever"'),
    ('capital = "corinthus"', 'capital = "corinthus"\ntreasury = -5', 'nations[1].treasury: expected an integer >= 0, found -5 (an integer)'),
    ('capital = "corinthus"', 'capital = "corinthus"\nprovinces = ["Thule"]', 'nations[1].provinces[0]: expected a province of [[mn_provinces]]'),
    ('people = "greeks"\nvalue = 5', 'people = "gauls"\nvalue = 5', 'racial_factors[0].people: expected a people of [[peoples]]'),
    ('province = "Latium"\npeople = "greeks"\nvalue = 5', 'province = "Latium"\npeople = "greeks"\nvalue = 5\n[[racial_factors]]\nprovince = "Latium"\npeople = "greeks"\nvalue = 7',
     'racial_factors[1]: expected one value per (province, people), found ("Latium", "greeks") again'),
    ('b = "Africa"\nturns = 3', 'b = "Latium"\nturns = 3', 'mn_travel[0].b: expected a province other than a (travel inside a province takes 0 turns), found "Latium"'),
    ('b = "Africa"\nturns = 3', 'b = "Africa"\nturns = 3\n[[mn_travel]]\na = "Africa"\nb = "Latium"\nturns = 1',
     'mn_travel[1]: expected one entry per pair of provinces (it holds both ways), found "Africa"–"Latium" again'),
    ('turns = 3', 'turns = -1', 'mn_travel[0].turns: expected an integer >= 0, found -1'),
    ('turn = 2\nkind = "war"', 'turn = 5\nkind = "war"', 'mn_events[0].turn: expected a turn of the campaign, 1..4, found 5'),
    ('on = "carthago"', 'on = ""', 'mn_events[0].on: expected a nation or city id (war needs by and on)'),
    ('on = "carthago"', 'on = "p1"', 'mn_events[0].on: expected a party other than by, found "p1"'),
    ('defender = "Africa"', 'defender = "Atlantis"', 'mn_events[1].defender: expected a province of [[mn_provinces]] (an invasion needs attacker and defender)'),
    ('kind = "invasion"', 'kind = "raid"', 'mn_events[1].kind: expected one of "invasion", "peace", "war", found "raid"'),
    ('partner = "massalia"\nkind = "commercial"\nlast_turn = 3', 'partner = "p1"\nkind = "alliance"',
     'mn_treaties[0].kind: expected commercial or pact (MN-TRE-03: a military alliance only with an uncontrolled city), found "alliance"'),
    ('partner = "massalia"\nkind = "commercial"\nlast_turn = 3', 'partner = "massalia"\nkind = "pact"\n[[mn_treaties]]\nnation = "p2"\npartner = "carthago"\nkind = "pact"',
     'mn_treaties[1]: expected at most one eternal friendship pact per nation (MN-TRE-06); p2 has one, found a second (see mn_treaties[0])'),
    ('partner = "massalia"\nkind = "commercial"\nlast_turn = 3', 'partner = "corinthus"\nkind = "commercial"',
     'mn_treaties[0].partner: expected a party other than p2 itself, found "corinthus", a city of p2'),
    ('hexes_per_turn = 2', 'hexes_per_turn = 2\nfirst_turn_in_year = 6', 'diplomacy.first_turn_in_year: expected a turn of the year, 1..4, found 6'),
    ('hexes_per_turn = 2', 'hexes_per_turn = 0', 'diplomacy.hexes_per_turn: expected an integer >= 1, found 0'),
    ('[diplomacy]', '[config.mn]\nturns_per_year = 7\n\n[diplomacy]',
     'config.mn.turns_per_year: expected a divisor of the 8640 hours of a year (4: seasons), found 7'),
    ('[diplomacy]', '[config.mn]\nambassador_cost = "cheap"\n\n[diplomacy]', 'config.mn.ambassador_cost: expected an integer, found "cheap"'),
]


@pytest.mark.parametrize(("old", "new", "expected"), MISTAKES, ids=[m[2].split(":")[0] for m in MISTAKES])
def test_each_mn_mistake_has_a_clear_message(old: str, new: str, expected: str) -> None:
    assert old in SMALL
    found = _problems(SMALL.replace(old, new, 1))
    assert any(f.startswith(expected) for f in found), found


def test_no_nations_and_seasonal_turns_with_other_systems() -> None:
    text = SMALL.replace('systems = ["mn"]', 'systems = ["mn", "cv"]').replace("[diplomacy]", "[config.mn]\nturns_per_year = 2\n\n[diplomacy]")
    found = _problems(text)
    assert any(f.startswith("config.mn.turns_per_year: expected 4 (LINK-01: seasonal turns when MN runs with cv), found 2") for f in found)
    start = SMALL.index("[[nations]]")
    end = SMALL.index("[[racial_factors]]")
    found = _problems(SMALL[:start] + SMALL[end:].replace("nation = \"p2\"", "nation = \"p2\"", 1))
    assert "nations: expected at least one nation (MN is enabled), found none" in found


@pytest.mark.rule("SC-MN-08", "SC-MN-01", "SC-MN-07")
def test_the_builtin_mare_nostrum_scenario() -> None:
    loaded = load_scenario("mare-nostrum")
    w = build_world(loaded.scenario, 1)
    mn = w.mn
    assert mn is not None
    assert len(mn.nations) == 5
    free = [c for c in mn.cities.values() if c.controller is None]
    assert len(free) == 12
    assert len({mn.provinces[c.province].people for c in free}) >= 8
    assert w.end == 10 * 8640 and w.config.mn.turns_per_year == 4
    hm = w.map
    assert hm.hexes[hm.index(hm.width // 2, hm.height // 2)].is_water  # a sea in the middle
    assert all(hm.hexes[p.seat].coast for p in mn.provinces.values())  # every city on the coast
    assert {e.kind for e in mn.script} == {"war", "peace", "invasion"}
    pacts = [t for t in mn.treaties if t.kind == "pact"]
    assert len(pacts) == 3
    assert all(1 <= v <= 4 for row in mn.travel.values() for v in row.values())
    assert Path(loaded.label.split(" ")[0]).name == "mare-nostrum"


def test_a_turn_length_override_that_does_not_divide_the_year_is_refused() -> None:
    from agents.campaign import prepare_campaign

    with pytest.raises(ScenarioError, match=r"mn.turns_per_year: expected a divisor of the 8640 hours of a year, found 7"):
        prepare_campaign(load_scenario_text(SMALL, "small"), 1, overrides={"mn.turns_per_year": 7})
    model = prepare_campaign(load_scenario_text(SMALL, "small"), 1, overrides={"mn.turns_per_year": 2})
    assert model.world.mn is not None and model.world.mn.turn_hours == 4320  # CFG mn.turns_per_year (GEN-07)
    model.run()
    assert model.world.mn.turn == 2  # one year of two turns
