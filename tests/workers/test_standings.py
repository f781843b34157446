"""``realmsim run``'s text summary ends with the standings: a table per faction kind, each faction
with its score, the terms that weigh most in it and its policy (issue 27, item 6)."""

from __future__ import annotations

import json
import re

import pytest

import workers.standings as standings
from workers.cli import main

# each single-system scenario, run a little: (scenario, --until, the kind's heading, its factions)
RUNS = [
    ("caravan-crossing", "10d", "Convoys (points)", 6),
    ("stolen-lands", "1", "Kingdoms (BP)", 4),
    ("guild-war", "1", "Guilds (solars)", 5),
    ("mare-nostrum", "1", "Nations (PO)", 5),
]
ROW = re.compile(r"^ {4}(?P<rank>[ \d]\d)\. (?P<name>.+?) +(?P<score>-?[\d.,]+)  (?P<policy>\S+) +(?P<terms>.+)$")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["run", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("scenario", "until", "heading", "count"), RUNS)
@pytest.mark.slow  # a campaign run twice: up to a few seconds under load
def test_the_text_summary_ends_with_a_standings_table_per_kind(capsys: pytest.CaptureFixture[str], scenario: str, until: str,
                                                               heading: str, count: int) -> None:
    out = _run(capsys, scenario, "--seed", "3", "--until", until)
    tail = out[out.rindex("\nStandings (score: "):].strip().splitlines()
    assert tail[1] == f"  {heading}"
    rows = [ROW.match(x) for x in tail[2:]]
    assert all(rows) and len(rows) == count, tail
    factions = json.loads(_run(capsys, scenario, "--seed", "3", "--until", until, "--json"))["factions"]
    # the same figures as run --json, best first, each faction by its name and with its policy
    want = sorted(factions.values(), key=lambda f: -f["score"])
    assert [float(m["score"]) for m in rows if m] == [round(f["score"], 1) for f in want]
    assert [m["policy"] for m in rows if m] == [f["policy"] for f in want]
    assert [int(m["rank"]) for m in rows if m] == list(range(1, count + 1))
    assert not [m for m in rows if m and ":" in m["name"]], "names, not actor keys"
    for m in rows:
        assert m is not None and 1 <= len(m["terms"].split(", ")) <= standings.MAIN_TERMS


@pytest.mark.slow  # over 0.5 s
def test_the_main_terms_are_those_that_weigh_most(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "caravan-crossing", "--seed", "3", "--until", "10d")
    factions = json.loads(_run(capsys, "caravan-crossing", "--seed", "3", "--until", "10d", "--json"))["factions"]
    ember = factions["convoy:ember"]
    top = sorted((v for v in ember["terms"].values() if v), key=abs, reverse=True)[:3]
    line = next(x for x in out.splitlines() if "Ember Procession" in x and re.match(r"^ {4}[ \d]\d\. ", x))
    shown = [float(v.replace("−", "-")) for v in re.findall(r"[+−][\d.]+", line.split("heuristic", 1)[1])]
    assert shown == [round(v, 1) for v in top]


@pytest.mark.slow  # over 0.5 s
def test_the_standings_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "caravan-crossing", "--seed", "3", "--until", "10d", "--lang", "fr")
    tail = out[out.rindex("\nClassement (score : "):].strip().splitlines()
    assert tail[1] == "  Convois (points)"
    assert {ROW.match(x)["policy"] for x in tail[2:]} == {"heuristique", "aléatoire"}  # type: ignore[index]
    assert any("Trajet accompli +" in x for x in tail) and not any("Journey" in x for x in tail)
    assert all("," in ROW.match(x)["score"] for x in tail[2:])  # type: ignore[index]  # 97,0: a decimal comma


def test_a_kind_with_many_factions_shows_its_best_and_how_many_more(capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(standings, "MAX_ROWS", 2)
    out = _run(capsys, "caravan-crossing", "--seed", "3", "--until", "10d")
    tail = out[out.rindex("\nStandings (score: "):].strip().splitlines()
    assert len([x for x in tail if ROW.match(x)]) == 2 and tail[-1] == "        … and 4 more"


def test_json_output_has_no_standings_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "caravan-crossing", "--seed", "3", "--until", "2d", "--json")
    assert "Standings" not in out and json.loads(out)["factions"]
