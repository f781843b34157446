"""Golden transcripts: every built-in scenario has a stored, reviewed transcript for one seed, and
replaying it gives exactly the same text (tools/golden.py writes and checks them)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import golden  # noqa: E402

from scenarios.loader import builtin_names  # noqa: E402


@pytest.mark.parametrize("name", builtin_names())
def test_every_builtin_scenario_has_a_golden_transcript(name: str) -> None:
    p = golden.path_of(name, "en")
    assert p.exists(), f"{name} has no golden transcript: run .venv/bin/python tools/golden.py --update {name} and review it"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "lang"), golden.targets([]))
def test_replaying_a_scenario_gives_its_golden_transcript(name: str, lang: str) -> None:
    p = golden.path_of(name, lang)
    if not p.exists():
        pytest.fail(f"missing {p.relative_to(ROOT)}")
    want = p.read_text(encoding="utf-8")
    got, ledger = golden.render_with_ledger(name, lang)
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), str(p), "replay", n=2))[:80])
        pytest.fail(f"{name} ({lang}) no longer replays its golden transcript:\n{diff}")
    if lang == "en":  # the ledger as lines: a rules change shows as a diff of events
        lp = golden.ledger_path_of(name)
        if not lp.exists():
            pytest.fail(f"missing {lp.relative_to(ROOT)}")
        want_l = lp.read_text(encoding="utf-8")
        if ledger != want_l:
            diff = "".join(list(difflib.unified_diff(want_l.splitlines(True), ledger.splitlines(True), str(lp), "replay",
                                                     n=1))[:80])
            pytest.fail(f"{name}: the ledger changed (one event a line):\n{diff}")
