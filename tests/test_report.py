"""realmsim report: per-season tables and plots of a run, distributions of a batch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

PNG = b"\x89PNG\r\n\x1a\n"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workers.cli", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("ledger", ["run.jsonl", "run.msgpack"])
def test_report_of_a_run_has_a_row_per_season_and_faction_and_plots(tmp_path: Path, ledger: str) -> None:
    assert _cli("run", "guild-war", "--seed", "2", "--json", "--ledger", ledger, cwd=tmp_path).returncode == 0
    p = _cli("report", ledger, "--out", "rep", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    df = pd.read_csv(tmp_path / "rep" / "seasons.csv")
    # guild-war: 5 guilds, 5 years = 20 seasons: snapshots at seasons 0..19 and the final state
    assert sorted(df["faction"].unique()) == ["guild:corbeau", "guild:griffon", "guild:hippocampe", "guild:licorne", "guild:salamandre"]
    assert len(df) == 5 * 21
    assert {"domains", "armies", "solars"} <= set(df.columns)
    assert pd.read_parquet(tmp_path / "rep" / "seasons.parquet").equals(df)
    # the standard plots a guild-only run can draw, and one per metric
    for name in ("treasury.png", "territory.png", "armies.png", "metrics/domains.png", "metrics/solars.png"):
        assert (tmp_path / "rep" / name).read_bytes()[:8] == PNG
    # no kingdoms, nations or convoys: no Unrest, treaties or caravan plots
    for name in ("unrest.png", "treaties.png", "convoy_unrest.png"):
        assert not (tmp_path / "rep" / name).exists()


def test_report_of_a_save_file(tmp_path: Path) -> None:
    assert _cli("run", "mare-nostrum", "--until", "8", "--save", "m.save", "--json", cwd=tmp_path).returncode == 0
    p = _cli("report", "m.save", "--out", "rep", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    df = pd.read_csv(tmp_path / "rep" / "seasons.csv")
    assert sorted(df["season"].unique()) == list(range(8))
    assert sorted(df["faction"].unique()) == ["nation:athens", "nation:carthage", "nation:egypt", "nation:macedon", "nation:rome"]
    for name in ("treasury.png", "territory.png", "treaties.png"):
        assert (tmp_path / "rep" / name).read_bytes()[:8] == PNG


def test_report_of_a_batch_gives_distributions(tmp_path: Path) -> None:
    assert _cli("batch", "guild-war", "--seeds", "1..4", "--workers", "2", "--out", "b.csv", cwd=tmp_path).returncode == 0
    p = _cli("report", "b.csv", "--out", "rep", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    dist = pd.read_csv(tmp_path / "rep" / "distribution.csv", index_col=0)
    assert dist.loc["gw.battles", "count"] == 4
    assert (tmp_path / "rep" / "dist_gw_battles.png").read_bytes()[:8] == PNG


@pytest.mark.parametrize(("content", "message"), [(b"garbage", "not a realmsim ledger"), (None, "no such file")])
def test_report_of_something_else_is_a_clear_error(tmp_path: Path, content: bytes | None, message: str) -> None:
    if content is not None:
        (tmp_path / "x.bin").write_bytes(content)
    p = _cli("report", "x.bin", "--out", "rep", cwd=tmp_path)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


def test_report_of_realm_draws_every_standard_plot(tmp_path: Path) -> None:
    assert _cli("run", "realm", "--until", "6", "--ledger", "r.msgpack", "--json", cwd=tmp_path).returncode == 0
    p = _cli("report", "r.msgpack", "--out", "rep", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    for name in ("treasury", "unrest", "territory", "armies", "treaties", "convoy_unrest"):
        assert (tmp_path / "rep" / f"{name}.png").read_bytes()[:8] == PNG, name
    df = pd.read_csv(tmp_path / "rep" / "seasons.csv")
    assert {"kingdom", "nation", "guild", "convoy"} <= {f.partition(":")[0] for f in df["faction"]}
