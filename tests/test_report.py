"""realmsim report: per-season tables and plots of a run, distributions of a batch; the tables the
plots are drawn from (one column per system, whole numbers kept whole, caravans day by day)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from agents.campaign import run_campaign
from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON
from workers.report import convoy_days, convoy_journeys, season_table
from workers.report.names import SEASON, SUMMARY, axis_label, metric_name

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`

PNG = b"\x89PNG\r\n\x1a\n"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workers.cli", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def realm() -> Any:
    """Six seasons of realm (every system, kingdoms' trade caravans), with the model's daily tables."""
    return run_campaign("realm", 1, until=6 * HOURS_PER_SEASON, collect=True)


@pytest.fixture(scope="module")
def crossing() -> Any:
    return run_campaign("caravan-crossing", 1, collect=True)


# ---- the command --------------------------------------------------------------------------------------
@pytest.mark.parametrize("ledger", ["run.jsonl", "run.msgpack"])
def test_report_of_a_run_has_a_row_per_season_and_faction_and_plots(tmp_path: Path, ledger: str) -> None:
    assert _cli("run", "guild-war", "--seed", "2", "--json", "--ledger", ledger, cwd=tmp_path).returncode == 0
    p = _cli("report", ledger, "--out", "rep", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    df = pd.read_csv(tmp_path / "rep" / "seasons.csv")
    # guild-war: 5 guilds, 5 years = 20 seasons: snapshots at seasons 0..19 and the final state
    assert sorted(df["faction"].unique()) == ["guild:corbeau", "guild:griffon", "guild:hippocampe", "guild:licorne", "guild:salamandre"]
    assert len(df) == 5 * 21
    assert sorted(df["season"].unique()) == list(range(21))
    assert {"gw.domains", "gw.armies", "gw.solars"} <= set(df.columns)
    parquet = pd.read_parquet(tmp_path / "rep" / "seasons.parquet")
    assert str(parquet["gw.armies"].dtype) == "Int64" and str(parquet["season"].dtype) == "Int64"
    assert parquet["gw.solars"].tolist() == df["gw.solars"].tolist()
    # the standard plots a guild-only run can draw, and one per metric
    for name in ("treasury.png", "territory.png", "armies.png", "metrics/gw_domains.png", "metrics/gw_solars.png"):
        assert (tmp_path / "rep" / name).read_bytes()[:8] == PNG
    # no kingdoms, nations or convoys: no Unrest, treaties or caravan plots, no convoy tables
    for name in ("unrest.png", "treaties.png", "caravans.png", "journeys.png", "convoy_days.csv"):
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
    assert dist.loc["gw.battles", "name"] == "Battles" and dist.loc["gw.battles", "system"] == "gw"
    assert dist.loc["gw.loot_solars", "unit"] == "solars"
    for name in ("overview_gw.png", "factions_guild.png", "series_guild.png"):
        assert (tmp_path / "rep" / name).read_bytes()[:8] == PNG, name
    fac = pd.read_csv(tmp_path / "rep" / "factions.csv")
    guilds = set(pd.read_csv(tmp_path / "b.factions.csv")["faction"])
    assert len(guilds) == 5 and set(fac[fac["metric"] == "solars"]["faction"]) == guilds


@pytest.mark.parametrize(("content", "message"), [(b"garbage", "not a realmsim ledger"), (None, "no such file")])
def test_report_of_something_else_is_a_clear_error(tmp_path: Path, content: bytes | None, message: str) -> None:
    if content is not None:
        (tmp_path / "x.bin").write_bytes(content)
    p = _cli("report", "x.bin", "--out", "rep", cwd=tmp_path)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


def test_report_of_a_batch_file_that_is_not_one_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    p = _cli("report", "x.csv", "--out", "rep", cwd=tmp_path)
    assert p.returncode == 2 and "not a realmsim batch table (no 'seed' column)" in p.stderr


def test_report_language_must_be_en_or_fr(tmp_path: Path) -> None:
    p = _cli("report", "x.bin", "--out", "rep", "--lang", "de", cwd=tmp_path)
    assert p.returncode == 2 and "invalid choice: 'de'" in p.stderr


def test_report_of_realm_in_french_draws_every_standard_plot(tmp_path: Path) -> None:
    assert _cli("run", "realm", "--until", "6", "--ledger", "r.msgpack", "--json", cwd=tmp_path).returncode == 0
    p = _cli("report", "r.msgpack", "--out", "rep", "--lang", "fr", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    for name in ("treasury", "unrest", "territory", "armies", "treaties", "caravans", "journeys"):
        assert (tmp_path / "rep" / f"{name}.png").read_bytes()[:8] == PNG, name
    df = pd.read_csv(tmp_path / "rep" / "seasons.csv")
    assert {"kingdom", "nation", "guild", "convoy"} == set(df["kind"])
    days = pd.read_parquet(tmp_path / "rep" / "convoy_days.parquet")
    assert str(days["cv.hp"].dtype) == "Int64" and days["journey_day"].min() == 0
    assert (tmp_path / "rep" / "journeys.csv").exists()


def test_run_and_validate_import_neither_matplotlib_nor_the_report(tmp_path: Path) -> None:
    code = (
        "import io, sys, contextlib\n"
        "from workers.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['validate', 'caravan-crossing'])\n"
        "    after_validate = sorted(m for m in ('pandas', 'matplotlib', 'workers.report') if m in sys.modules)\n"
        "    main(['run', 'caravan-crossing', '--json'])\n"
        "print(after_validate, sorted(m for m in ('matplotlib', 'workers.report') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    # (run imports pandas through Mesa's DataCollector; matplotlib and the report code it never loads)
    assert out.strip().splitlines()[-1] == "[] []"


# ---- the season table -----------------------------------------------------------------------------------
def test_season_table_has_one_column_per_system_for_shared_names(realm: Any) -> None:
    events = list(realm.ledger.events)
    df = season_table(events)
    # kingdoms and caravans both have "unrest", kingdoms and nations both have "treasury" and "treaties"
    assert {"km.unrest", "cv.unrest", "km.treasury", "mn.treasury", "km.treaties", "mn.treaties"} <= set(df.columns)
    assert "unrest" not in df.columns and "treasury" not in df.columns
    kingdoms, convoys = df[df["kind"] == "kingdom"], df[df["kind"] == "convoy"]
    assert kingdoms["cv.unrest"].isna().all() and convoys["km.unrest"].isna().all()
    assert kingdoms["km.unrest"].notna().all() and convoys["cv.unrest"].notna().all()
    # each cell is the ledger's own number for that faction at that snapshot
    snap = next(e for e in events if e.kind == "SeasonSummarized" and e.data["season"] == 3)
    for faction, metrics in snap.data["factions"].items():
        row = df[(df["faction"] == faction) & (df["season"] == 3)]
        assert len(row) == 1
        column = {"kingdom": "km", "nation": "mn", "guild": "gw", "convoy": "cv"}[faction.partition(":")[0]]
        for metric, value in metrics.items():
            assert row[f"{column}.{metric}"].iloc[0] == value, (faction, metric)


def test_season_table_keeps_whole_numbers_whole(realm: Any, tmp_path: Path) -> None:
    df = season_table(list(realm.ledger.events))
    for c in ("season", "km.unrest", "km.treasury", "mn.treasury", "gw.armies", "cv.hp", "cv.unrest", "cv.provisions"):
        assert str(df[c].dtype) == "Int64", c
    assert str(df["cv.miles"].dtype) == "float64" and str(df["cv.status"].dtype) == "string"
    df.to_parquet(tmp_path / "s.parquet", index=False)
    back = pd.read_parquet(tmp_path / "s.parquet")
    assert str(back["gw.armies"].dtype) == "Int64" and back["gw.armies"].tolist() == df["gw.armies"].tolist()
    df.to_csv(tmp_path / "s.csv", index=False)
    first = next(csv.DictReader((tmp_path / "s.csv").open()))
    assert first["faction"].startswith("convoy:") and first["cv.hp"].isdigit() and first["cv.unrest"].isdigit(), first
    assert first["km.unrest"] == "" and first["cv.miles"] == "0.0"  # empty for a caravan; miles are decimals


def test_season_of_a_campaign_that_ends_inside_a_season_is_a_fraction(crossing: Any) -> None:
    df = season_table(list(crossing.ledger.events))
    # caravan-crossing: 60 days, a snapshot at season 0 and the end at 1440 h = 2/3 of a season
    assert sorted(df["season"].unique()) == [0.0, 0.67] and sorted(df["hour"].unique()) == [0, 1440]


# ---- caravans day by day --------------------------------------------------------------------------------
def _collected_days(result: Any) -> Any:
    a = result.model.frames()["cv.agents"].reset_index()
    return pd.DataFrame({
        "convoy": "convoy:" + a["convoy"].astype(str), "day": (a["Step"] // HOURS_PER_DAY).astype(int),
        "hp": a["hp"], "max_hp": a["max_hp"], "unrest": a["unrest"], "provisions": a["provisions"],
        "miles": a["miles"].round(2), "status": a["status"].astype(str),
    }).sort_values(["convoy", "day"]).reset_index(drop=True)


@pytest.mark.parametrize("which", ["crossing", "realm"])
def test_convoy_days_from_the_ledger_are_the_days_the_model_collected(which: str, request: Any) -> None:
    """The report rebuilds each caravan's day from the ledger's events alone; the model's own daily
    table (the DataCollector, not in the ledger) must agree on every convoy, day and value."""
    result = request.getfixturevalue(which)
    days = convoy_days(list(result.ledger.events))
    want = _collected_days(result)
    got = pd.DataFrame({
        "convoy": days["convoy"].astype(str), "day": days["day"].astype(int), "hp": days["cv.hp"].astype(int),
        "max_hp": days["cv.max_hp"].astype(int), "unrest": days["cv.unrest"].astype(int),
        "provisions": days["cv.provisions"].astype(int), "miles": days["cv.miles"].round(2),
        "status": days["cv.status"].astype(str),
    }).sort_values(["convoy", "day"]).reset_index(drop=True)
    assert len(got) == len(want) > 50
    pd.testing.assert_frame_equal(got, want, check_dtype=False, atol=0.011)


def test_convoy_journeys_say_when_and_how_each_caravan_ended(crossing: Any) -> None:
    events = list(crossing.ledger.events)
    j = convoy_journeys(events).set_index("convoy")
    ended = {e.actor: e for e in events if e.kind in ("ConvoyArrived", "ConvoyDestroyed")}
    set_out = {e.actor: e.t for e in events if e.kind == "ConvoySetOut"}
    assert set(j.index) == set(set_out) and len(j) == 6
    for convoy, ev in ended.items():
        row = j.loc[convoy]
        assert row["outcome"] == ("arrived" if ev.kind == "ConvoyArrived" else "destroyed")
        end = ev.data["hour"] if ev.kind == "ConvoyArrived" else ev.t
        assert row["end_hour"] == end and row["set_out_hour"] == set_out[convoy]
        assert row["days"] == round((end - set_out[convoy]) / HOURS_PER_DAY, 2)


# ---- names ----------------------------------------------------------------------------------------------
def test_metric_names_are_readable_with_units() -> None:
    assert axis_label("km.treasury") == "Treasury (BP)" and axis_label("km.treasury", "fr") == "Trésorerie (PC)"
    assert axis_label("km.unrest", "fr") == "Insatisfaction (points)"
    assert axis_label("cv.unrest", "fr") == "Niveau de Troubles (points)"
    assert axis_label("gw.armies") == "Armies" and axis_label("gw.solars") == "Solars"  # no "Solars (solars)"
    assert metric_name("gw.solars.griffon") == "Solars at the end — griffon"
    assert metric_name("cv.brand_new_count") == "Brand new count"  # a key no table knows yet


def test_every_metric_of_every_system_has_a_name(realm: Any) -> None:
    """A metric added to a system without a name here would reach a plot as a raw key."""
    columns = [c for c in season_table(list(realm.ledger.events)).columns if "." in c]
    missing = [c for c in columns if c not in SEASON]
    summary_keys = [*realm.summary, *run_campaign("caravan-crossing", 1, until=HOURS_PER_DAY, collect=False).summary]
    missing += [k for k in summary_keys if k not in SUMMARY and not k.startswith(("gw.solars.", "gw.domains.",
                                                                                  "gw.notoriety."))]
    assert not missing, f"add these metrics to workers/report/names.py: {missing}"
