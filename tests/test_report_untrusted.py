"""``realmsim report`` reads a run's ledger or save file as untrusted (issue 30): every value it reads is
checked at the reading boundary (workers.report.ledger) and a bad one is a clear error naming the file,
the event, the field, what was expected and what was found; a campaign stopped early reports what it
has; a name matplotlib would take for a formula is drawn as written."""

from __future__ import annotations

import copy
import hashlib
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack
import msgspec
import pandas as pd
import pytest

from agents.campaign import prepare_campaign
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON
from sim.events import Event, encode_events
from workers.report import (
    STANDARD_PLOTS,
    ReportError,
    RunTables,
    png_bytes,
    read_events,
    report_run,
    standard_figure,
)

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workers.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def _run(scenario: str, seed: int, hours: int) -> list[Event]:
    model = prepare_campaign(load_scenario(scenario), seed)
    model.run(hours)
    return list(model.ledger.events)


@pytest.fixture(scope="module")
def day20() -> list[dict[str, Any]]:
    """caravan-crossing seed 3 stopped at day 20 (amber has arrived, others are on the road), as plain maps."""
    return [msgspec.to_builtins(e) for e in _run("caravan-crossing", 3, 20 * HOURS_PER_DAY)]


def _write(tmp_path: Path, events: list[Any], name: str = "x.msgpack") -> Path:
    p = tmp_path / name
    p.write_bytes(b"".join(msgpack.packb(e, use_bin_type=True) for e in events))
    return p


def _first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["kind"] == kind)


def _summary(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["kind"] == "SeasonSummarized")


# ---- a campaign stopped early -------------------------------------------------------------------------
@pytest.mark.slow  # two subprocesses and the figures
def test_report_of_a_caravan_run_stopped_before_any_convoy_arrived(tmp_path: Path) -> None:
    # issue 30: TypeError: boolean value of NA is ambiguous (journeys_figure)
    assert _cli("run", "caravan-crossing", "--until", "2d", "--ledger", "x.msgpack", "--json", cwd=tmp_path).returncode == 0
    r = _cli("report", "x.msgpack", "--out", "r", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "r" / "journeys.png").read_bytes()[:8] == PNG
    journeys = pd.read_csv(tmp_path / "r" / "journeys.csv")
    assert set(journeys["outcome"]) == {"travelling"} and journeys["end_hour"].isna().all()


@pytest.mark.slow  # a campaign per scenario and seven figures each
@pytest.mark.parametrize(("scenario", "hours"), [("caravan-crossing", HOURS_PER_DAY), ("guild-war", HOURS_PER_DAY),
                                                 ("mare-nostrum", HOURS_PER_DAY), ("stolen-lands", HOURS_PER_DAY),
                                                 ("realm", 2 * HOURS_PER_DAY), ("guild-war", HOURS_PER_SEASON)])
def test_a_campaign_stopped_early_draws_every_plot_it_has_something_for(tmp_path: Path, scenario: str, hours: int) -> None:
    """Nothing arrived, nothing besieged, one season summary: every standard plot is drawn or left out."""
    p = tmp_path / "x.msgpack"
    p.write_bytes(encode_events(_run(scenario, 1, hours)))
    t = RunTables(read_events(p))
    drawn = {n: standard_figure(n, t.seasons, days=t.days, journeys=t.journeys, info=t.info) for n in STANDARD_PLOTS}
    assert any(fig is not None for fig in drawn.values())
    for fig in drawn.values():
        if fig is not None:
            assert png_bytes(fig)[:8] == PNG


@pytest.mark.slow  # a campaign and its figures
def test_a_convoy_named_like_a_formula_is_drawn_as_written(tmp_path: Path) -> None:
    # a valid scenario id; matplotlib took "$\am{$" for mathtext and raised ParseFatalException
    text = (ROOT / "scenarios" / "data" / "caravan-crossing.toml").read_text(encoding="utf-8")
    (tmp_path / "s.toml").write_text(text.replace('"amber"', '"$\\\\am{$"'), encoding="utf-8")
    model = prepare_campaign(load_scenario(str(tmp_path / "s.toml")), 3)
    model.run(20 * HOURS_PER_DAY)
    (tmp_path / "x.msgpack").write_bytes(encode_events(model.ledger.events))
    written = report_run(tmp_path / "x.msgpack", tmp_path / "r")
    assert (tmp_path / "r" / "journeys.png") in written and (tmp_path / "r" / "caravans.png") in written
    assert "convoy:$\\am{$" in set(pd.read_csv(tmp_path / "r" / "journeys.csv")["convoy"])


# ---- the reading boundary -----------------------------------------------------------------------------
def test_the_report_keeps_only_what_its_tables_read_and_they_are_the_same(tmp_path: Path,
                                                                          day20: list[dict[str, Any]]) -> None:
    events = [msgspec.convert(e, Event) for e in day20]
    p = _write(tmp_path, day20)
    kept = read_events(p)
    assert len(kept) < len(events) / 2 and kept[0].kind == "CampaignStarted" and kept[-1] == events[-1]
    full, mine = RunTables(events), RunTables(kept)
    pd.testing.assert_frame_equal(full.seasons, mine.seasons)
    pd.testing.assert_frame_equal(full.days, mine.days)
    pd.testing.assert_frame_equal(full.journeys, mine.journeys)


def _set(kind: str, field: str, value: Any) -> Any:
    def change(events: list[dict[str, Any]]) -> None:
        _first(events, kind)["data"][field] = value
    return change


def _faction(name: str, metrics: dict[str, Any]) -> Any:
    def change(events: list[dict[str, Any]]) -> None:
        _summary(events)["data"]["factions"][name] = metrics
    return change


def _last(field: str, value: Any) -> Any:
    def change(events: list[dict[str, Any]]) -> None:
        events[-1][field] = value
    return change


# Each of these was a traceback of `realmsim report` before issue 30 (ValueError and TypeError of int() and
# Fraction, OverflowError of pandas, a numpy array of the size a number said, then MemoryError…).
DAMAGES = [
    ("hp a text", _set("ConvoySetOut", "hp", "sixty"),
     r"ConvoySetOut at hour \d+\): data\.hp: expected a whole number from -1 000 000 000 to 1 000 000 000, found \"sixty\""),
    ("unrest a list", _set("ProvisionsConsumed", "left", [3]),
     r"ProvisionsConsumed at hour \d+\): data\.left: expected a whole number .*, found a list of 1 item"),
    ("after missing", lambda e: _first(e, "DamageTaken")["data"].pop("after"),
     r"DamageTaken at hour \d+\): data\.after: expected a whole number .*, found nothing"),
    ("miles a map", _set("ConvoyTravelled", "miles", {"a": 1}),
     r"ConvoyTravelled at hour \d+\): data\.miles: expected a distance in miles from 0 to 1 000 000 000 \(a number, "
     r"or a fraction such as '1120/3'\), found a table \(a\)"),
    ("miles over zero", _set("ConvoyTravelled", "miles", "1/0"), r"data\.miles: expected a distance in miles .*found \"1/0\""),
    ("miles with 9000 digits", _set("ConvoyTravelled", "miles", "9" * 9000), r"data\.miles: expected a distance in miles"),
    ("a metric of 2**64-1", _faction("guild:x", {"solars": 2**64 - 1}),
     r"SeasonSummarized at hour 0\): data\.factions\['guild:x'\]\.solars: expected a number from -10\*\*15 to 10\*\*15, "
     r"a boolean or a text of at most 100 characters, found 18446744073709551615"),
    ("solars of -2**63", _faction("guild:x", {"solars": -(2**63)}), r"solars: expected a number from -10\*\*15 .*found -9223372036854775808"),
    ("a metric nan", _faction("guild:x", {"solars": float("nan")}), r"solars: expected a number .*found nan"),
    ("a convoy's miles a text", _faction("convoy:amber", {"miles": "far"}), r"\['convoy:amber'\]\.miles: expected a distance"),
    ("a faction without a kind", _faction("nobody", {"solars": 1}), r"data\.factions: expected faction names such as kingdom:brevoy"),
    ("a metric named as a path", _faction("guild:x", {"../../etc": 1}), r"expected metric names such as treasury .*found \"\.\./\.\./etc\""),
    ("the factions a list", lambda e: _summary(e)["data"].__setitem__("factions", [1]), r"data\.factions: expected a map of faction"),
    ("t of 2**31", _last("t", 2**31), r"t: expected an hour from [\d ]+ to 1 440 \(the campaign's end\), found 2147483648"),
    ("t going back", _last("t", 0), r"t: expected an hour from [\d ]+ to 1 440 \(the previous event's hour\), found 0"),
    ("the end of 2**64-1", lambda e: e[0]["data"].__setitem__("end", 2**64 - 1), r"CampaignStarted at hour 0\): data\.end: expected the campaign.s last hour, from 1 to 864 000 \(100 years\)"),
    ("the arrival hour a text", _set("ConvoyArrived", "hour", "noon"), r"ConvoyArrived at hour \d+\): data\.hour: expected an hour within the campaign"),
    ("a cause of 5000 characters", lambda e: e[-1].update(kind="ConvoyDestroyed", system="cv", actor="convoy:amber",
                                                          data={"cause": "x" * 5000}),
     r"ConvoyDestroyed at hour \d+\): data\.cause: expected a text of at most 200 characters"),
]


@pytest.mark.parametrize(("change", "message"), [d[1:] for d in DAMAGES], ids=[d[0] for d in DAMAGES])
def test_a_damaged_value_names_the_file_the_event_the_field_what_was_expected_and_found(
        tmp_path: Path, day20: list[dict[str, Any]], change: Any, message: str) -> None:
    events = copy.deepcopy(day20)
    change(events)
    p = _write(tmp_path, events)
    with pytest.raises(ReportError, match=rf"^{re.escape(str(p))}: event \d+ \(.*" + message):
        report_run(p, tmp_path / "r")


def test_the_convoy_days_a_ledger_asks_for_are_bounded(tmp_path: Path, day20: list[dict[str, Any]],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import workers.report.tables as tables

    monkeypatch.setattr(tables, "MAX_CONVOY_DAYS", 30)
    with pytest.raises(ReportError, match=r"x\.msgpack: the ledger's convoys are on the road \d+ days in all; a report "
                                          r"draws at most 30 convoy-days"):
        report_run(_write(tmp_path, day20), tmp_path / "r")


def test_the_number_of_convoys_a_ledger_names_is_bounded(tmp_path: Path, day20: list[dict[str, Any]],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import workers.report.ledger as ledger

    monkeypatch.setattr(ledger, "MAX_CONVOYS", 2)
    with pytest.raises(ReportError, match=r"event 1 \(SeasonSummarized at hour 0\): data\.factions: expected at most 2 "
                                          r"convoys in a ledger, found convoy number 3 \(convoy:\w+\)"):
        read_events(_write(tmp_path, day20))


@pytest.mark.slow  # a subprocess
def test_the_command_says_it_in_one_line_and_exits_2(tmp_path: Path, day20: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(day20)
    _first(events, "ConvoySetOut")["data"]["hp"] = "sixty"
    _write(tmp_path, events)
    r = _cli("report", "x.msgpack", "--out", "r", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("realmsim report: x.msgpack: event ") and "data.hp: expected a whole number" in r.stderr


def test_a_json_lines_ledger_is_checked_the_same_way(tmp_path: Path, day20: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(day20)
    _first(events, "UnrestRose" if any(e["kind"] == "UnrestRose" for e in events) else "ProvisionsConsumed")["data"][
        "after" if any(e["kind"] == "UnrestRose" for e in events) else "left"] = True
    p = tmp_path / "x.jsonl"
    p.write_bytes(b"".join(msgspec.json.encode(e) + b"\n" for e in events))
    with pytest.raises(ReportError, match=rf"^{p}: event \d+ \(.*expected a whole number .*found true \(a boolean\)"):
        read_events(p)


def test_a_save_whose_ledger_was_damaged_and_its_checksum_recomputed_is_a_clear_error(
        tmp_path: Path, day20: list[dict[str, Any]]) -> None:
    from agents.savefile import save

    loaded = load_scenario("caravan-crossing")
    model = prepare_campaign(loaded, 3)
    model.run(2 * HOURS_PER_DAY)
    p = tmp_path / "x.save"
    save(model, p, scenario_label=loaded.label, scenario_text=loaded.text, overrides=None)
    doc = msgpack.unpackb(p.read_bytes(), raw=False)
    body = msgpack.unpackb(doc["body"], raw=False)
    events = list(msgpack.Unpacker(__import__("io").BytesIO(body["ledger"]), raw=False))
    _first(events, "ConvoySetOut")["data"]["provisions"] = 2**64 - 1
    body["ledger"] = b"".join(msgpack.packb(e) for e in events)
    doc["body"] = msgpack.packb(body, use_bin_type=True)
    doc["sha256"] = hashlib.sha256(doc["body"]).hexdigest()
    p.write_bytes(msgpack.packb(doc, use_bin_type=True))
    with pytest.raises(ReportError, match=rf"^{p}: event \d+ \(ConvoySetOut at hour \d+\): data\.provisions: expected a "
                                          r"whole number .*found 18446744073709551615"):
        read_events(p)
