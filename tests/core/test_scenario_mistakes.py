"""Each kind of scenario mistake gives its expected message: file, path, expected, found."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scenarios.loader import load_scenario
from sim.errors import ScenarioError

GOOD = """
[scenario]
name = "t"
systems = ["cv"]
duration = { days = 2 }

[map]
rows = ["PPHF", "PWWF", "PPPM"]

[[map.roads]]
path = [[0, 0], [1, 0], [2, 0]]

[[map.settlements]]
name = "Amberfield"
at = [0, 0]
"""


def problems_of(tmp_path: Path, text: str) -> list[str]:
    f = tmp_path / "s.toml"
    f.write_text(text)
    with pytest.raises(ScenarioError) as ei:
        load_scenario(str(f))
    assert ei.value.file == str(f)
    return [f"{p.path}: expected {p.expected}, found {p.found}" for p in ei.value.problems]


def test_good_file_loads(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text(GOOD)
    assert load_scenario(str(f)).name == "t"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda s: s.replace('name = "t"', "name = 3"), 'scenario.name: expected a string, found 3 (an integer)'),
        (lambda s: s.replace('["cv"]', '["cv", "xx"]'), 'scenario.systems[1]: expected one of "cv", "gw", "km", "mn", found "xx"'),
        (lambda s: s.replace("days = 2", "days = -1"), "scenario.duration.days: expected an integer >= 0, found -1 (an integer)"),
        (lambda s: s.replace("days = 2", "days = 0"), "scenario.duration: expected a positive duration (years, seasons, months or days), found zero"),
        (lambda s: s.replace("days = 2", "weeks = 2"), 'scenario.duration.weeks: expected a known field (years, seasons, months, days), found unknown field "weeks"'),
        (lambda s: s.replace("duration = { days = 2 }", ""), "scenario.duration: expected a table, found nothing (the field is required)"),
        (lambda s: s.replace("[[map.roads]]", '[[map.roads]]\nkind = "hihgway"'), 'map.roads[0].kind: expected one of "highway", "road", "trail", found "hihgway" (did you mean "highway"?)'),
        (lambda s: s.replace('"PWWF"', '"PWZF"'), 'map.rows[1][2]: expected a terrain letter'),
        (lambda s: s.replace('"PWWF"', '"PWW"'), "map.rows[1]: expected 4 terrain letters (as long as the longest row), found 3"),
        (lambda s: s.replace("[2, 0]]", "[3, 2]]"), "map.roads[0].path[2]: expected a neighbour of the previous hex [1, 0], found [3, 2]"),
        (lambda s: s.replace("at = [0, 0]", "at = [9, 9]"), "map.settlements[0].at: expected a hex [col, row] inside the 4×3 map, found [9, 9]"),
        (lambda s: s.replace("at = [0, 0]", "at = [1, 1]"), "map.settlements[0].at: expected a land hex, found water at [1, 1]"),
        (lambda s: s + '\n[[map.settlements]]\nname = "Amberfield"\nat = [3, 2]\n', 'map.settlements[1].name: expected a settlement name used once, found "Amberfield" again'),
        (lambda s: s + "\n[config.cv]\nfatigued_penalty = \"two\"\n", 'config.cv.fatigued_penalty: expected an integer, found "two"'),
        (lambda s: s + "\n[config.cv]\nfatigue = 2\n", 'config.cv.fatigue: expected a known field'),
        (lambda s: s + "\n[config.xx]\na = 1\n", 'config.xx: expected a known field (km, mn, gw, cv, link), found unknown field "xx"'),
        (lambda s: s + "\n[bogus]\na = 1\n", 'bogus: expected a known field'),
        (lambda s: s.replace("[map]", "[map]\nhex_miles = 0"), "map.hex_miles: expected an integer >= 1, found 0 (an integer)"),
    ],
)
def test_each_mistake_has_its_message(tmp_path: Path, edit, expected: str) -> None:  # type: ignore[no-untyped-def]
    probs = problems_of(tmp_path, edit(GOOD))
    assert any(p.startswith(expected) for p in probs), probs


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = GOOD.replace('name = "t"', "name = 3").replace('"PWWF"', '"PWZF"').replace("days = 2", "days = -1")
    probs = problems_of(tmp_path, text)
    assert len(probs) == 3, probs
    assert probs[0].startswith("scenario.name") and probs[1].startswith("scenario.duration.days")
    assert probs[2].startswith("map.rows[1][2]")


def test_bad_toml_names_the_line(tmp_path: Path) -> None:
    probs = problems_of(tmp_path, GOOD + "\nthis is not toml\n")
    assert len(probs) == 1 and probs[0].startswith("(file): expected valid TOML, found") and "line" in probs[0]


def test_unknown_scenario_name() -> None:
    with pytest.raises(ScenarioError, match=r"expected a built-in scenario name \(.*\) or a path to a .toml file, found no such file"):
        load_scenario("no-such-scenario")


def test_directory_is_not_a_scenario(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="found a directory"):
        load_scenario(str(tmp_path))


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_cli_validate_reports_without_traceback_and_exits_2(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(GOOD.replace('name = "t"', "name = 3").replace('"PWWF"', '"PWZF"'))
    p = subprocess.run([sys.executable, "-m", "workers.cli", "validate", str(f)], capture_output=True, text=True)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert f"{f}: 2 problems" in p.stderr
    assert f"{f}: scenario.name: expected a string, found 3 (an integer)" in p.stderr
    ok = tmp_path / "ok.toml"
    ok.write_text(GOOD)
    p = subprocess.run([sys.executable, "-m", "workers.cli", "validate", str(ok)], capture_output=True, text=True)
    assert p.returncode == 0 and "ok" in p.stdout


def test_a_found_text_never_carries_the_file_s_control_characters_to_the_terminal(tmp_path: Path) -> None:
    # issue 30: a message quotes what it found; an escape sequence in a file must not reach the terminal
    probs = problems_of(tmp_path, GOOD.replace("[map]", '[map]\nhex_miles = "\\u001b[2J"', 1))
    assert any('found "\\x1b[2J"' in p for p in probs), probs
    assert not any("\x1b" in p for p in probs)
