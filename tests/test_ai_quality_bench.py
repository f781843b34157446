"""bench/ai_quality.py end to end on a few short campaigns: every figure printed, and the lookahead
comparison runs as soon as a policy named ``lookahead`` is registered (here the heuristic under that
name: every pair is a tie)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from agents import policies
from agents.policies.convoy import HeuristicConvoyPolicy

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201 - the module
    spec = importlib.util.spec_from_file_location("ai_quality", ROOT / "bench" / "ai_quality.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "ai_quality", mod)  # its pool finds its job function by name
    spec.loader.exec_module(mod)
    return mod


def test_without_a_lookahead_policy_it_says_not_available_yet(bench, tmp_path: Path,  # noqa: ANN001
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.policies.lookahead  # noqa: F401  (registered once; then taken out for this test)

    monkeypatch.delitem(policies._REGISTRY, ("convoy", "lookahead"))
    out = tmp_path / "f.json"
    assert bench.main(["--seeds", "1", "--realm-seeds", "0", "--kinds", "convoy", "--workers", "1", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "(a) heuristic beats random" in text and "convoy   caravan-crossing     6 pairs" in text
    assert "(b) realm" in text and "not run (--realm-seeds 0)" in text
    assert "(d) median longest idle stretch" in text and "convoy   single    6 factions" in text
    assert "not available yet: no policy named 'lookahead' is registered for convoy" in text
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["a"]["convoy"]["pairs"] == 6 and figures["e"] == {}


def test_a_registered_lookahead_is_paired_against_the_heuristic(bench, monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(policies._REGISTRY, ("convoy", "lookahead"), HeuristicConvoyPolicy)
    assert bench.main(["--seeds", "1", "--realm-seeds", "0", "--kinds", "convoy", "--workers", "2"]) == 0
    text = capsys.readouterr().out
    assert "(e) lookahead beats heuristic" in text
    line = next(x for x in text.splitlines() if x.startswith("  convoy") and "x the all-heuristic campaign" in x)
    assert "6 pairs  share 0.50" in line  # the same play under another name: six ties


def test_no_lookahead_skips_figure_e_and_its_campaigns(bench, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    assert bench.main(["--seeds", "1", "--realm-seeds", "0", "--kinds", "convoy", "--workers", "1", "--no-lookahead"]) == 0
    captured = capsys.readouterr()
    e = captured.out.split("(e)")[1].split("\n", 1)[1]  # below its heading
    assert "not run (--no-lookahead)" in e and "pairs" not in e
    # one all-heuristic campaign and 6 seats x 1 random seat-swap: no look-ahead campaign was planned
    assert "7 campaigns" in captured.err


def test_only_lookahead_runs_figure_e_alone_and_explain_reaches_the_pool(bench, tmp_path: Path,  # noqa: ANN001
                                                                           monkeypatch: pytest.MonkeyPatch,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    import agents.policies.lookahead  # noqa: F401

    out = tmp_path / "f.json"
    args = ["--seeds", "1", "--kinds", "convoy", "--workers", "1", "--only-lookahead", "--explain", "--json", str(out)]
    assert bench.main(args) == 0
    captured = capsys.readouterr()
    # the all-heuristic base, its timing run and 6 seats x 1 lookahead seat-swap: no random pairs, no realm
    assert "8 campaigns" in captured.err and "0 realm seeds" in captured.err
    assert "(a) heuristic beats random" not in captured.out and "decisions explained" in captured.out
    line = next(x for x in captured.out.splitlines() if x.startswith("  convoy") and "x the all-heuristic campaign" in x)
    assert "6 pairs" in line and "(CPU " in line
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["explain"] is True and "a" not in figures and figures["e"]["convoy"]["cpu_ratio"] > 0
    assert bench.main(["--seeds", "1", "--kinds", "convoy", "--only-lookahead", "--no-lookahead"]) == 2


def test_the_job_function_explains_the_decisions_when_asked(bench) -> None:  # noqa: ANN001
    from workers.job import decode, encode, make_job

    label, text = bench.variant_text("caravan-crossing", "heuristic")
    job = encode(make_job({"label": label, "text": text}, 1, want_ledger=True))
    off = decode(bench.run_one(job))
    on = decode(bench.run_one(job, explain=True))
    assert on["cpu_seconds"] > 0 and off["cpu_seconds"] > 0
    assert {k: f["score"] for k, f in on["factions"].items()} == {k: f["score"] for k, f in off["factions"].items()}
    assert on["ledger_sha256"] != off["ledger_sha256"]  # the decisions' records carry their explanations
    # an explained job's ledger is the explained campaign's, byte for byte
    from agents.campaign import run_campaign
    from scenarios.loader import load_scenario_text

    assert on["ledger_sha256"] == run_campaign(load_scenario_text(text, label), 1, collect=False, explain=True).ledger_sha256
