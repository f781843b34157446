"""``POST /v1/advise`` on a real server (uvicorn on a free port): the same advice as the command line,
for each faction kind's example state, and bad requests answered 4xx with path / expected / found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workers.cli import main

from .conftest import Server, problem_paths

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"
CASES = [("kingdom-restov.state.toml", "restov"), ("guild-griffon.state.toml", "guild:griffon"),
         ("nation-rome.state.toml", "rome"), ("convoy-amber.state.toml", "convoy:amber")]


def state(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize(("file", "faction"), CASES)
def test_the_server_gives_the_command_lines_advice(server: Server, capsys: pytest.CaptureFixture[str], file: str,
                                                   faction: str) -> None:
    r = server.post("/v1/advise", {"faction": faction, "state": state(file)})
    assert r.status_code == 200, r.text
    got = r.json()
    assert main(["advise", str(EXAMPLES / file), "--faction", faction, "--json"]) == 0
    want = json.loads(capsys.readouterr().out)
    # the same orders, alternatives, odds and reasons; only the state's label differs (text, not a file)
    assert got["state"] == "scenario text" and want["state"] == str(EXAMPLES / file)
    got.pop("state")
    want.pop("state")
    assert got == want


def test_french_and_explained_advice_over_http(server: Server) -> None:
    r = server.post("/v1/advise", {"faction": "restov", "state": state("kingdom-restov.state.toml"), "lang": "fr",
                                   "explain": True, "seed": 3})
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["lang"] == "fr" and a["seed"] == 3
    assert a["summary"].startswith("Le royaume Restov donnerait ")
    assert all(o["reason"].startswith("« ") for o in a["orders"])
    again = server.post("/v1/advise", {"faction": "restov", "state": state("kingdom-restov.state.toml"), "lang": "fr",
                                       "explain": True, "seed": 3}).json()
    assert again == a  # same state + seed: same advice


def test_a_built_in_scenario_can_be_advised_on(server: Server) -> None:
    r = server.post("/v1/advise", {"faction": "kingdom:pitax", "scenario": "stolen-lands"})
    assert r.status_code == 200, r.text
    assert r.json()["faction"] == "kingdom:pitax" and r.json()["season"] == 0


@pytest.mark.parametrize(("body", "status", "paths"), [
    ({"faction": "nobody", "scenario": "stolen-lands"}, 422, ["faction"]),
    ({"faction": "restov", "scenario": "stolen-lands", "policy": "oracle"}, 422, ["policy"]),
    ({"faction": "restov", "scenario": "stolen-lands", "policy": "os:system"}, 422, ["policy"]),
    ({"faction": "restov"}, 422, ["state"]),
    ({"faction": "restov", "scenario": "stolen-lands", "state": "x = 1"}, 422, ["state"]),
    ({"faction": "restov", "scenario": "no-such"}, 422, ["(scenario)"]),
    ({"faction": "restov", "state": "this is [ not toml"}, 422, ["(file)"]),
    ({"faction": "restov", "state": "[scenario]\nname = 3"}, 422, ["scenario.name", "scenario.systems", "scenario.duration", "map"]),
    ({"faction": 5, "scenario": "stolen-lands"}, 400, ["faction"]),
    ({"faction": "restov", "scenario": "stolen-lands", "lang": "de"}, 400, ["lang"]),
    ({"faction": "restov", "scenario": "stolen-lands", "seed": -1}, 400, ["seed"]),
    ({"faction": "restov", "scenario": "stolen-lands", "colour": "red"}, 400, ["colour"]),
])
def test_bad_advice_requests_are_4xx_with_path_expected_found(server: Server, body: dict, status: int,
                                                             paths: list[str]) -> None:
    r = server.post("/v1/advise", body)
    assert r.status_code == status, r.text
    assert problem_paths(r) == paths
    for p in r.json()["problems"]:
        assert p["expected"] and p["found"]


def test_state_text_may_not_import_code_or_read_files(server: Server) -> None:
    text = state("kingdom-restov.state.toml").replace('id = "pitax"\n', 'id = "pitax"\npolicy = "os:system"\n')
    text = text.replace('id = "restov"\n', 'id = "restov"\norders_file = "/etc/passwd"\n')
    r = server.post("/v1/advise", {"faction": "restov", "state": text})
    assert r.status_code == 422
    assert sorted(problem_paths(r)) == ["kingdoms[0].orders_file", "kingdoms[1].policy"]


def test_a_state_past_its_end_is_a_422_naming_state_season(server: Server) -> None:
    text = state("convoy-amber.state.toml").replace("season = 0", "season = 1")
    r = server.post("/v1/advise", {"faction": "amber", "state": text})
    assert r.status_code == 422
    assert problem_paths(r) == ["state.season"]


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_advice_is_in_the_openapi_schema(server: Server) -> None:
    schema = server.get("/docs/openapi.json").json()
    op = schema["paths"]["/v1/advise"]["post"]
    assert op["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/AdviseRequest")
    names = set(schema["components"]["schemas"])
    assert {"AdviseRequest", "Advice", "OrderAdvice", "AlternativeOut", "CheckOdds", "TermOut"} <= names
