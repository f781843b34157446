"""bench/fuzz_ledgers.py in small (issue 30): damaged ledgers and saves give a clear error, a report or a
resume, never a traceback or a hang. The benchmark runs a thousand of each kind; this runs a few, with
a fixed seed, so that every run of the suite tries the same ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import fuzz_ledgers as fz  # noqa: E402


@pytest.mark.slow  # a few dozen reports and resumes in child processes
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")  # forked as the bench does
def test_damaged_ledgers_and_saves_give_clear_errors_never_a_traceback_or_a_hang() -> None:
    lines: list[str] = []
    res = fz.fuzz(cases=8, seed=3, jobs=2, timeout=120, bases=("cc-day2", "gw-s3"), say=lines.append)
    assert (res["tracebacks"], res["hangs"]) == (0, 0), "\n".join(lines)
    counts = res["counts"]
    for kind in fz.KINDS:  # the damage is not all caught at the door: some cases still report
        assert counts[(kind, "report", "clear")] > 0 and counts[(kind, "report", "ok")] > 0, "\n".join(lines)
    assert counts[("save", "resume", "clear")] > 0 and counts[("save", "resume", "ok")] > 0, "\n".join(lines)
    assert counts[("special", "report", "clear")] == 6 and counts[("special", "resume", "clear")] == 6


def test_a_damage_changes_the_file_and_says_what_it_did() -> None:
    import random

    events = [{"seq": 0, "t": 0, "system": "link", "kind": "CampaignStarted", "actor": "world", "clauses": ["LINK-01"],
               "data": {"end": 48, "factions": {"convoy:a": {"hp": 3}}}}]
    seen = set()
    for seed in range(40):
        evs, done = fz.damage_events(events, random.Random(seed))
        assert done, seed
        seen.add(fz.encode_msgpack(evs))
        fz.encode_jsonl(evs)  # every damage can be written in both formats
    assert len(seen) > 20
