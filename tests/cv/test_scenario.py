"""CV scenario tables: every kind of mistake is reported with its path and message, all at once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scenarios.build import build_world
from scenarios.loader import load_scenario, parse_scenario
from sim.errors import ScenarioError
from sim.rules import cv as cr

BASE = """
[scenario]
name = "t"
systems = ["cv"]
duration = { days = 10 }

[map]
rows = ["PPPPPP", "PPWWPP", "PPPPPP"]

[[map.roads]]
path = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]

[[map.settlements]]
name = "Amberfield"
at = [0, 0]

[[map.settlements]]
name = "Brookby"
at = [5, 0]

[[hazards]]
id = "storm"
check = "security"
dc = 12
on_fail = [{ kind = "damage", dice = "1d6" }]

[[hazards]]
id = "wolves"
check = "combat"
enemies = [{ id = "w1", ac = 12, hp = 5, attack = 2, damage = "1d6" }]

[[hazard_tables]]
id = "all"
bands = [{ from = 1, to = 80 }, { from = 81, to = 95, hazard = "storm" }, { from = 96, to = 100, hazard = "wolves", hour = 4 }]

[[convoys]]
id = "amber"
policy = "heuristic"
origin = "Amberfield"
destination = "Brookby"
offense = 1
defense = 2
mobility = 2
morale = 2
provisions = 50
cargo = { trade_goods = 4 }
wagons = [{ kind = "covered" }, { kind = "fortune_teller" }, { kind = "supply" }]
travelers = [{ id = "driver", job = "driver", count = 3 }, { id = "passenger", count = 3 }]
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as ei:
        parse_scenario(text, "t.toml")
    return [replace(p, line=None).render("t.toml") for p in ei.value.problems]  # lines: tests/core/test_validate_round.py


def sub(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_the_base_scenario_is_valid_and_builds() -> None:
    sc = parse_scenario(BASE, "t.toml")
    w = build_world(sc, 1)
    c = w.cv.convoys[0]
    assert (c.hex, c.destination, c.path[0], c.path[-1]) == (0, 5, 0, 5)
    assert (c.hp, c.max_hp) == (70, 70)
    assert [t.id for t in c.travelers] == ["driver-1", "driver-2", "driver-3", "passenger-1", "passenger-2", "passenger-3"]
    assert all(t.can_drive for t in c.travelers[:3])


@pytest.mark.rule("SC-CV-07", "RES-CV-21", "SC-CV-09")
def test_standard_caravan() -> None:
    # 1 covered, 1 fortune-teller's, 1 supply wagon, six NPCs of whom three can drive: 70 HP, 10 travelers, 18 cargo
    w = build_world(parse_scenario(BASE, "t.toml"), 1)
    c = w.cv.convoys[0]
    cfg = w.config.cv
    assert (c.max_hp, cr.traveler_capacity(c, cfg), cr.cargo_capacity(c, cfg)) == (70, 10, 18)
    assert sum(t.can_drive for t in c.travelers) == 3 and len(c.travelers) == 6


@pytest.mark.rule("SC-CV-06")
def test_unknown_wagon_kind() -> None:
    got = problems(sub('{ kind = "covered" }', '{ kind = "caravel" }'))
    assert len(got) == 1
    assert got[0].startswith('t.toml: convoys[0].wagons[0].kind: expected one of "armored", "covered"')
    assert got[0].endswith('found "caravel"')


@pytest.mark.rule("SC-CV-05")
def test_more_wagons_than_the_limit() -> None:
    text = sub('wagons = [{ kind = "covered" }, { kind = "fortune_teller" }, { kind = "supply" }]',
               "wagons = [" + ", ".join(['{ kind = "covered" }'] * 6) + "]")
    text = sub('{ id = "driver", job = "driver", count = 3 }, { id = "passenger", count = 3 }',
               '{ id = "driver", job = "driver", count = 6 }', text)
    assert problems(text) == ["t.toml: convoys[0].wagons: expected at most 5 wagons (SC-CV-05), found 6 wagons"]
    # the Extra Wagons feat raises the limit (level 2: two feats allowed)
    ok = sub("morale = 2\n", 'morale = 2\nlevel = 2\nfeats = ["extra_wagons"]\n', text)
    parse_scenario(ok, "t.toml")


@pytest.mark.rule("SC-CV-05")
def test_a_wagon_type_over_its_limit_is_allowed() -> None:
    text = sub('{ kind = "supply" }', '{ kind = "fortune_teller" }')
    text = sub('{ id = "passenger", count = 3 }', '{ id = "passenger", count = 1 }', text)
    sc = parse_scenario(text, "t.toml")  # no problem reported…
    c = build_world(sc, 1).cv.convoys[0]
    assert cr.count_kind(c, "fortune_teller") == 2 and cr.counted(c, "fortune_teller") == 1  # …and no extra benefit


@pytest.mark.rule("SC-CV-09")
def test_travelers_and_cargo_over_capacity() -> None:
    text = sub('{ id = "passenger", count = 3 }', '{ id = "passenger", count = 8 }')
    text = sub("provisions = 50", "provisions = 150", text)
    assert problems(text) == [
        "t.toml: convoys[0].travelers: expected at most 10 travelers (the wagons' traveler capacity, SC-CV-09), found 11 travelers",
        "t.toml: convoys[0].cargo: expected at most 18 cargo units (the wagons' cargo capacity, SC-CV-09; 150 provisions "
        "fill 15), found 19 cargo units",
    ]


@pytest.mark.rule("SC-CV-13", "SC-CV-07")
def test_not_enough_travelers_who_can_drive() -> None:
    text = sub('{ id = "driver", job = "driver", count = 3 }', '{ id = "driver", job = "driver", count = 2 }')
    assert problems(text) == ["t.toml: convoys[0].travelers: expected 3 travelers who can drive (one driver per wagon, SC-CV-13), found 2"]
    # a traveler who can drive but has another job counts
    parse_scenario(sub('{ id = "passenger", count = 3 }', '{ id = "passenger", count = 2 }, { id = "Sandru", job = "guide", can_drive = true }', text), "t.toml")


def test_unknown_village_and_hex_in_a_route() -> None:
    text = sub('origin = "Amberfield"', 'origin = "Atlantis"\nvia = [[9, 9]]')
    got = problems(text)
    assert got == [
        't.toml: convoys[0].origin: expected a settlement of the map (Amberfield, Brookby) or [col, row], found "Atlantis"',
        "t.toml: convoys[0].via[0]: expected a hex [col, row] inside the 6×3 map, found [9, 9]",
    ]


def test_a_route_that_is_not_connected() -> None:
    text = sub('destination = "Brookby"', 'destination = "Brookby"\npath = [[0, 0], [1, 0], [3, 0], [4, 0], [5, 0]]')
    assert problems(text) == ["t.toml: convoys[0].path[2]: expected a neighbour of the previous hex [1, 0], found [3, 0]"]
    # a path through water
    text = sub('destination = "Brookby"', 'destination = "Brookby"\npath = [[0, 0], [1, 0], [1, 1], [2, 1], [3, 0], [4, 0], [5, 0]]')
    assert problems(text) == ["t.toml: convoys[0].path[3]: expected a hex a caravan can enter (not water or cavern), found water at [2, 1]"]


@pytest.mark.rule("RES-CV-02")
def test_no_land_route_between_stops() -> None:
    text = sub('rows = ["PPPPPP", "PPWWPP", "PPPPPP"]', 'rows = ["PPPWPP", "PPWWPP", "PPPWPP"]')
    text = sub("[[map.roads]]\npath = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]\n", "", text)
    assert problems(text) == [
        "t.toml: convoys[0].destination: expected a place a caravan can reach by land from Amberfield, "
        "found Brookby (no land route: water or caverns in the way)"
    ]


@pytest.mark.rule("RES-CV-06", "GEN-06")
def test_hazard_table_mistakes() -> None:
    text = sub('{ from = 96, to = 100, hazard = "wolves", hour = 4 }', '{ from = 90, to = 99, hazard = "volcano", hour = 4 }')
    assert problems(text) == [
        't.toml: hazard_tables[0].bands[2].hazard: expected the id of a hazard of [[hazards]] (or "" for nothing), found "volcano"',
        "t.toml: hazard_tables[0].bands[2]: expected d100 bands that do not overlap (this one starts at 90, inside an earlier band), "
        "found from 90 to 99",
        "t.toml: hazard_tables[0].bands: expected d100 bands covering 1–100 without gaps (nothing covers 100–100), found a gap 100–100",
    ]
    gap = sub("{ from = 81, to = 95", "{ from = 83, to = 95")
    assert problems(gap) == [
        "t.toml: hazard_tables[0].bands: expected d100 bands covering 1–100 without gaps (nothing covers 81–82), found a gap 81–82"
    ]
    outside = sub("{ from = 1, to = 80 }", "{ from = 0, to = 80 }")
    assert problems(outside) == [
        "t.toml: hazard_tables[0].bands[0]: expected from <= to, both within 1–100 (a d100 band), found from 0 to 80",
        "t.toml: hazard_tables[0].bands: expected d100 bands covering 1–100 without gaps (nothing covers 1–80), found a gap 1–80",
    ]
    hour = sub("hour = 4", "hour = 13")
    assert problems(hour) == ["t.toml: hazard_tables[0].bands[2].hour: expected an integer >= 0 and <= 12, found 13 (an integer)"]


@pytest.mark.rule("RES-CV-06", "SC-CV-14")
def test_bad_dice_expressions_and_hazard_shapes() -> None:
    text = sub('on_fail = [{ kind = "damage", dice = "1d6" }]', 'on_fail = [{ kind = "damage", dice = "2x6" }, { kind = "lose_cargo" }]')
    text = sub('damage = "1d6" }]', 'damage = "d" }]', text)
    assert problems(text) == [
        't.toml: hazards[0].on_fail[0].dice: expected a dice expression such as 2d6+1, found "2x6"',
        "t.toml: hazards[0].on_fail[1].amount: expected a positive amount (or dice) of units to lose, found 0",
        "t.toml: hazards[0].on_fail[1].cargo: expected the kind of cargo lost (trade_goods, treasure, repair, other, stores), found nothing",
        't.toml: hazards[1].enemies[0].damage: expected a dice expression such as 2d6+1, found "d"',
    ]
    no_enemies = sub('enemies = [{ id = "w1", ac = 12, hp = 5, attack = 2, damage = "1d6" }]', "enemies = []")
    assert problems(no_enemies) == ["t.toml: hazards[1].enemies: expected at least one enemy for a combat hazard (SC-CV-14), found an empty list"]


def test_unknown_policy_name() -> None:
    assert problems(sub('policy = "heuristic"', 'policy = "clever"')) == [
        't.toml: convoys[0].policy: expected a built-in convoy policy (heuristic, lookahead, random), an installed one, or a '
        'module allowed by --allow-policies, found "clever"'
    ]
    # an outside class is refused at validation unless its module is allowed (issue 9; tests/test_policy_registry.py)
    assert problems(sub('policy = "heuristic"', 'policy = "my_pkg.policies:Careful"')) == [
        't.toml: convoys[0].policy: expected a built-in convoy policy (heuristic, lookahead, random), an installed one, or a '
        'module allowed by --allow-policies, found "my_pkg.policies:Careful" (module my_pkg.policies is not allowed '
        'by --allow-policies)'
    ]


def test_an_unimportable_allowed_policy_is_a_clear_error_at_load_and_in_the_agent_layer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.campaign import prepare_campaign
    from agents.convoy import ConvoyPolicyError
    from agents.systems import get_driver

    monkeypatch.setenv("REALMSIM_ALLOW_POLICIES", "no_such_pkg.*")
    assert problems(sub('policy = "heuristic"', 'policy = "no_such_pkg.mod:Careful"')) == [
        't.toml: convoys[0].policy: expected an importable package.module:Class, found "no_such_pkg.mod:Careful" '
        "(ModuleNotFoundError: No module named 'no_such_pkg')"
    ]
    model = prepare_campaign(load_scenario("caravan-crossing"), 1)
    with pytest.raises(ConvoyPolicyError, match=r"convoy 'amber': convoy policy 'no_such_pkg.mod:Careful': expected an "
                                                r"importable package.module:Class"):
        get_driver("cv").spawn(model, "amber", "no_such_pkg.mod:Careful")


@pytest.mark.rule("SC-CV-01", "SC-CV-04", "SC-CV-12")
def test_statistics_and_feats() -> None:
    text = sub("offense = 1", "offense = 11")
    assert problems(text) == ["t.toml: convoys[0].offense: expected an integer >= 1 and <= 10, found 11 (an integer)"]
    text = sub("offense = 1", "offense = 2")
    assert problems(text) == [
        "t.toml: convoys[0]: expected primary statistics summing to 7 at level 1 (each starts at 1, plus 3 points, SC-CV-01), "
        "found Offense 2 + Defense 2 + Mobility 2 + Morale 2 = 8"
    ]
    feats = sub("morale = 2\n", 'morale = 2\nfeats = ["caravan_toughness", "wagon_wings"]\n')
    assert problems(feats) == [
        "t.toml: convoys[0].feats[1]: expected a caravan feat (fast_caravan, efficient_consumption, caravan_toughness, "
        'terrain_mastery, extra_wagons, expert_travelers; terrain_mastery:<terrain>), found "wagon_wings"',
        "t.toml: convoys[0].feats: expected Defense 3 or more for Caravan Toughness (SC-CV-12), found Defense 2",
        "t.toml: convoys[0].feats: expected at most 1 feat (one per level, SC-CV-04), found 2 feats",
    ]
    tm = sub("morale = 2\n", 'morale = 2\nfeats = ["terrain_mastery:lava"]\n')
    assert problems(tm)[0].startswith('t.toml: convoys[0].feats[0]: expected terrain_mastery:<terrain> with a terrain')


@pytest.mark.rule("RES-CV-20", "CV-UNR-07")
def test_scenario_events() -> None:
    text = BASE + """
[[cv_events]]
day = 12
convoy = "umber"
kind = "unrest"
amount = 1

[[cv_events]]
day = 2
convoy = "amber"
kind = "hazard"
hazard = "meteor"
"""
    assert problems(text) == [
        't.toml: cv_events[0].convoy: expected the id of a convoy (amber), found "umber" (did you mean "amber"?)',
        "t.toml: cv_events[0].day: expected a day of the campaign (1–10), found 12",
        't.toml: cv_events[1].hazard: expected the id of a hazard of [[hazards]], found "meteor"',
    ]


def test_config_values() -> None:
    text = BASE + '\n[config.cv]\nmutiny_fail5_outcome = "flee"\ncombat_damage = "lots"\n'
    assert problems(text) == [
        't.toml: config.cv.mutiny_fail5_outcome: expected one of "1d2", "refuse", "random_direction" (RES-CV-18), found "flee"',
        't.toml: config.cv.combat_damage: expected a dice expression such as 1d6 (SC-CV-14), found "lots"',
    ]


def test_every_problem_of_a_file_at_once() -> None:
    text = sub('{ kind = "covered" }', '{ kind = "caravel" }')
    text = sub('policy = "heuristic"', 'policy = "clever"', text)
    text = sub('hazard = "wolves"', 'hazard = "wolf"', text)
    text = sub('destination = "Brookby"', 'destination = "Nowhere"', text)
    with pytest.raises(ScenarioError) as ei:
        parse_scenario(text, "t.toml")
    assert len(ei.value.problems) == 4  # the structural problem and the semantic ones, in one round (issue 10)
    text = sub('{ kind = "caravel" }', '{ kind = "covered" }', text)
    got = problems(text)
    assert len(got) == 3  # the same semantic problems once the structural one is fixed
    assert str(ScenarioError("t.toml", [])).startswith("t.toml: 0 problems")


def test_validate_command_reports_problems(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    from workers.cli import main

    f = tmp_path / "bad.toml"
    f.write_text(sub('policy = "heuristic"', 'policy = "clever"'), encoding="utf-8")
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    assert "1 problem" in err and 'convoys[0].policy: expected a built-in convoy policy' in err
    assert main(["validate", "caravan-crossing"]) == 0


def test_builtin_caravan_crossing() -> None:
    loaded = load_scenario("caravan-crossing")
    sc = loaded.scenario
    assert sc.scenario.name == "caravan-crossing" and sc.scenario.duration.days == 60
    assert 4 <= len(sc.convoys) <= 6
    assert {c.policy for c in sc.convoys} == {"random", "heuristic"}
    w = build_world(sc, 1)
    assert w.map.width * w.map.height >= 300
    roads = {h.road for h in w.map.hexes}
    assert {"highway", "road", "trail"} <= roads and any(h.river for h in w.map.hexes)
    assert sum(1 for h in w.map.hexes if h.settlement) >= 6
    assert len({h.terrain for h in w.map.hexes}) >= 7
    assert w.cv.tables and w.cv.hazards
