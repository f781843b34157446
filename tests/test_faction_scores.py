"""Every faction's score, policy and key metrics where people read results: ``realmsim run --json``
(the ``factions`` object), job results and batch rows; and the seat swap tournaments use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.campaign import run_campaign
from agents.variants import variant
from sim.errors import ScenarioError
from workers.job import make_job, run_job_dict
from workers.output import read_results, write_results

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`


def test_run_json_has_a_factions_object_with_policy_score_terms_and_metrics(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "workers.cli", "run", "caravan-crossing", "--seed", "3", "--json"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert {"scenario", "seed", "summary", "factions", "events", "ledger_sha256"} <= set(out)
    assert sorted(out["factions"]) == ["convoy:amber", "convoy:brass", "convoy:cobalt", "convoy:dune", "convoy:ember",
                                       "convoy:flint"]
    amber = out["factions"]["convoy:amber"]
    assert (amber["kind"], amber["policy"], amber["unit"]) == ("convoy", "heuristic", "points")
    assert out["factions"]["convoy:brass"]["policy"] == "random"
    assert amber["score"] == pytest.approx(sum(amber["terms"].values()), abs=0.05)
    assert {"journey", "arrival", "days", "hit_points", "cargo", "unrest"} <= set(amber["terms"])
    assert {"hp", "unrest", "status", "journey", "days_on_road"} <= set(amber["metrics"])


def test_a_job_result_carries_the_factions_and_a_batch_file_a_row_per_faction(tmp_path: Path) -> None:
    res = run_job_dict(make_job({"name": "guild-war"}, 2))
    same = run_campaign("guild-war", 2, keep_ledger=False, collect=False)
    assert res["factions"] == same.factions()
    assert res["summary"] == same.summary  # the summary is unchanged
    k = "guild:griffon"
    assert res["factions"][k]["kind"] == "guild" and "solars" in res["factions"][k]["metrics"]
    path = tmp_path / "b.csv"
    write_results(path, [res])
    (camp,) = read_results(path)
    assert camp["seed"] == "2" and not any("[" in c for c in camp)  # no column per faction
    rows = {r["faction"]: r for r in read_results(tmp_path / "b.factions.csv")}
    assert sorted(rows) == sorted(res["factions"])
    assert rows[k]["policy"] == "heuristic" and rows[k]["kind"] == "guild"
    assert float(rows[k]["score"]) == res["factions"][k]["score"]
    assert int(rows[k]["domains"]) == res["factions"][k]["metrics"]["domains"]


def test_a_seat_swap_changes_that_faction_s_policy_only() -> None:
    v = variant("stolen-lands", policy="heuristic", seats={"kingdom:pitax": "random"})
    assert {k.id: k.policy for k in v.scenario.kingdoms} == {
        "restov": "heuristic", "pitax": "random", "tatzlford": "heuristic", "mivon": "heuristic"}
    assert "kingdom:pitax random" in v.label
    with pytest.raises(ScenarioError, match=r'seats\["guild:nobody"\]: expected the actor key of a kingdom, nation, guild '
                                            r'or convoy of the scenario .* found "guild:nobody"'):
        variant("guild-war", seats={"guild:nobody": "random"})
