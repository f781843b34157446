"""The research bench on real campaigns: the sweep acceptance test (a parameter that matters moves
a metric outside its 95% interval; one that cannot matter moves nothing), and the sweep, tournament
and report commands end to end on small runs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from agents.campaign import run_campaign
from workers.cli import main
from workers.job import make_job, run_job_dict
from workers.output import write_results
from workers.report.batch import BatchData, report_batch
from workers.report.tables import read_batch
from workers.sweep import analysis_frame, sweep_analysis

from .conftest import TINY


@pytest.mark.slow
def test_sweep_ci_excludes_zero_for_a_parameter_that_matters_and_not_for_one_that_cannot(tmp_path: Path) -> None:
    """cv.fatigued_penalty 0 → 10 on caravan-crossing (RES-CV: the fatigued penalty on a caravan's
    checks): hazard damage rises on seeds 1..12 (measured: +33 HP, 95% CI [17.5, 48.6]).
    km.explorer_speed_ft cannot matter there: caravan-crossing enables only CV, so no KM rule runs."""
    results = []
    for fp in (0, 10):
        for speed in (30, 60):
            for seed in range(1, 13):
                job = make_job({"name": "caravan-crossing"}, seed, overrides={"cv.fatigued_penalty": fp,
                                                                              "km.explorer_speed_ft": speed})
                results.append(run_job_dict(job))
    path = tmp_path / "sweep.parquet"
    write_results(path, results)
    a = sweep_analysis(analysis_frame(BatchData(path)))
    assert list(dict.fromkeys(a["cell"])) == [
        "cv.fatigued_penalty=0, km.explorer_speed_ft=30", "cv.fatigued_penalty=0, km.explorer_speed_ft=60",
        "cv.fatigued_penalty=10, km.explorer_speed_ft=30", "cv.fatigued_penalty=10, km.explorer_speed_ft=60"]
    fat = a[(a["cell"] == "cv.fatigued_penalty=10, km.explorer_speed_ft=30") & (a["metric"] == "cv.hazard_damage")].iloc[0]
    assert fat["significant"] and fat["diff_lo"] > 0, fat
    assert fat["cohen_d"] > 0.8
    idle = a[a["cell"] == "cv.fatigued_penalty=0, km.explorer_speed_ft=60"]
    assert len(idle) > 20
    assert ((idle["diff_lo"] <= 0) & (idle["diff_hi"] >= 0)).all()
    assert not idle["significant"].any()


@pytest.mark.slow
def test_job_tallies_leave_the_ledger_as_it_was() -> None:
    job = make_job({"name": "caravan-crossing"}, 3)
    res = run_job_dict(job)
    assert res["ledger_sha256"] == run_campaign("caravan-crossing", 3, keep_ledger=False).ledger_sha256
    assert res["invariants"] == {"count": 0, "first": ""}
    assert set(res["signals"]) == {f"convoy:{c}" for c in ("amber", "brass", "cobalt", "dune", "ember", "flint")}
    assert {"convoy/heuristic", "convoy/random"} <= set(res["decisions"])
    assert "overrides" not in res


@pytest.mark.slow
def test_sweep_command_then_report_and_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.csv"
    assert main(["sweep", str(TINY), "--set", "cv.fatigued_penalty=2,8", "--seeds", "1..2", "--out", str(out),
                 "--workers", "1"]) == 0
    t = read_batch(out)
    assert list(t["set[cv.fatigued_penalty]"]) == [2, 2, 8, 8] and list(t["seed"]) == [1, 2, 1, 2]  # cell, then seed
    assert "invariants" in t.columns
    rep = tmp_path / "rep"
    assert main(["report", str(out), "--out", str(rep)]) == 0
    md = (rep / "sweep.md").read_text(encoding="utf-8")
    assert "cv.fatigued_penalty=8" in md and "Δ vs baseline" in md and "| baseline |" in md
    f = json.loads((rep / "findings.json").read_text(encoding="utf-8"))
    assert isinstance(f["findings"], list)
    assert not any(p.name.startswith(("dist_set", "dist_invariants")) for p in rep.iterdir())  # not metrics
    # two batch tables: compared seed by seed
    a, b = tmp_path / "a.csv", tmp_path / "b.parquet"
    t[t["set[cv.fatigued_penalty]"] == 2].to_csv(a, index=False)
    t[t["set[cv.fatigued_penalty]"] == 8].to_parquet(b, index=False)
    cmp_ = tmp_path / "cmp"
    assert main(["report", str(a), str(b), "--out", str(cmp_)]) == 0
    c = pd.read_csv(cmp_ / "comparison.csv")
    assert set(c["cell"]) == {"cv.fatigued_penalty=2, batch=a.csv", "cv.fatigued_penalty=8, batch=b.parquet"}
    assert (cmp_ / "findings.md").exists()
    capsys.readouterr()
    assert main(["report", str(a), str(tmp_path / "none.csv"), "--out", str(cmp_)]) == 2
    assert "none.csv: no such file" in capsys.readouterr().err


@pytest.mark.slow
def test_tournament_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    assert main(["tournament", "caravan-crossing", "--policies", "heuristic,random", "--seeds", "1", "--out", str(out),
                 "--workers", "1"]) == 0
    lb = pd.read_csv(out / "leaderboard.csv")
    assert sorted(lb["policy"]) == ["heuristic", "random"] and set(lb["kind"]) == {"convoy"}
    assert list(lb["rank"]) == [1, 2] and (lb["matches"] == 6).all()
    assert lb["ordinal"].is_monotonic_decreasing
    wr = pd.read_csv(out / "winrates.csv")
    row = wr[(wr["policy"] == "heuristic") & (wr["opponent"] == "random")].iloc[0]
    back = wr[(wr["policy"] == "random") & (wr["opponent"] == "heuristic")].iloc[0]
    assert row["win_share"] + back["win_share"] == pytest.approx(1.0)
    md = (out / "tournament.md").read_text(encoding="utf-8")
    assert "realmsim tournament caravan-crossing --policies heuristic,random --seeds 1" in md
    assert "| rank | policy | ordinal |" in md
    res = pd.read_parquet(out / "results.parquet")
    assert sorted(res["rotation"]) == [0, 1]
    for name in ("ratings_convoy", "winrates_convoy", "scores_convoy"):
        assert (out / f"{name}.png").stat().st_size > 1000
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    assert all("scenarios/rotation-" in f["replay"] for f in findings["findings"])
    capsys.readouterr()
    assert main(["tournament", "caravan-crossing", "--policies", "heuristic,clever", "--seeds", "1", "--out",
                 str(out)]) == 2
    err = capsys.readouterr().err
    assert "unknown convoy policy 'clever'" in err and "known: heuristic, lookahead, random" in err


@pytest.mark.slow
def test_batch_report_has_findings(tmp_path: Path) -> None:
    out = tmp_path / "b.parquet"
    assert main(["batch", "caravan-crossing", "--seeds", "1..2", "--out", str(out), "--workers", "1"]) == 0
    rep = tmp_path / "rep"
    written = report_batch(out, rep)
    assert rep / "findings.md" in written and rep / "findings.json" in written
    f = json.loads((rep / "findings.json").read_text(encoding="utf-8"))
    assert f["not_checked"] == ["runaway growth (no seasons table)"] and f["source"] == str(out)
    md = (rep / "findings.md").read_text(encoding="utf-8")
    assert md.startswith("## Findings")
    assert not (rep / "sweep.md").exists()


@pytest.mark.slow
@pytest.mark.redis
def test_sweep_on_redis_workers_gives_the_local_rows(tmp_path: Path, redis_server) -> None:  # type: ignore[no-untyped-def]
    local, remote = tmp_path / "l.csv", tmp_path / "r.csv"
    args = ["sweep", str(TINY), "--set", "cv.fatigued_penalty=2,8", "--seeds", "1..2", "--workers", "1"]
    assert main([*args, "--out", str(local)]) == 0
    assert main([*args, "--out", str(remote), "--redis", redis_server.url, "--timeout", "120"]) == 0
    assert local.read_text(encoding="utf-8") == remote.read_text(encoding="utf-8")
