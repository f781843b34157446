"""bench/mutation.py's figures (issue 29): the 95% Wilson interval, killed / equivalent / open per
system, the checks of the equivalents list and of a verdict file read back with ``--report``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))
import mutate  # noqa: E402
import mutation  # noqa: E402

sys.path.pop(0)
sys.path.pop(0)


def _m(mid: str, line: int = 1) -> mutate.Mutant:
    return mutate.Mutant(mid, "sim/rules/x.py", line, line, f"+ → - (line {line})", 0, 1, "-")


def test_the_wilson_interval_of_a_proportion() -> None:
    # 180 of 200 (p = 0.9, z = 1.96, z² = 3.8416): centre (0.9 + 3.8416/400) / (1 + 3.8416/200) = 0.90960 / 1.01921
    # = 0.89246; half-width 1.96 × √(0.9 × 0.1 / 200 + 3.8416 / 160000) / 1.01921 = 0.04187
    lo, hi = mutation.wilson(180, 200)
    assert lo == pytest.approx(0.89246 - 0.04187, abs=1e-4) and hi == pytest.approx(0.89246 + 0.04187, abs=1e-4)
    # 200 of 200: not the empty [1, 1] of p ± z·√(p(1−p)/n): centre 1.00960 / 1.01921 = 0.99058, half 0.00942
    lo, hi = mutation.wilson(200, 200)
    assert lo == pytest.approx(0.99058 - 0.00942, abs=1e-4) and hi == 1.0
    assert mutation.wilson(0, 0) == (0.0, 1.0)


def test_figures_count_killed_equivalent_and_open_and_check_the_list() -> None:
    ms = [_m("aaaa0001", 1), _m("aaaa0002", 2), _m("aaaa0003", 3), _m("aaaa0004", 4), _m("aaaa0005", 5)]
    verdicts = [
        mutate.Verdict(ms[0], "killed", 3, 0.5, "t::x"),
        mutate.Verdict(ms[1], "timeout", 3, 9.0),
        mutate.Verdict(ms[2], "survived", 3, 0.5),
        mutate.Verdict(ms[3], "uncovered", 0, 0.0),
        mutate.Verdict(ms[4], "survived", 2, 0.5),
    ]
    eq = {("cv", "aaaa0003"): "changes nothing", ("cv", "aaaa0001"): "said to change nothing",
          ("cv", "gone0000"): "a mutant whose statement changed", ("gw", "aaaa0005"): "another system's"}
    pool = {m.id for m in ms}
    f, survivors, problems = mutation.figures("cv", verdicts, eq, 10.0, pool)
    # killed: 1 killed + 1 timeout; equivalent: aaaa0003 (listed, survived); open: aaaa0004, aaaa0005
    assert (f.mutants, f.killed, f.equivalent, f.open, f.uncovered) == (5, 2, 1, 2, 1)
    assert f.score == pytest.approx(2 / 5) and f.score_eq == pytest.approx(2 / 4)
    assert [s.split()[1] for s in survivors] == ["aaaa0003", "aaaa0004", "aaaa0005"]
    assert survivors[0].endswith("equivalent: changes nothing") and survivors[2].endswith("OPEN")
    assert problems == [
        "cv aaaa0001: listed as equivalent, but the tests kill it",
        "cv gone0000: listed as equivalent, but no mutant of the current source has this id "
        "(its statement changed since: judge it again or drop the line)",
    ]


def test_a_verdict_file_is_read_back_in_the_samples_order_and_checked_against_it(tmp_path: Path) -> None:
    ms = [_m("bbbb0001", 1), _m("bbbb0002", 2), _m("bbbb0003", 3)]
    out = tmp_path / "cv.jsonl"
    stray = mutate.Verdict(_m("cccc0009", 9), "killed", 1, 0.1)
    out.write_text(mutate.verdict_line(mutate.Verdict(ms[2], "survived", 4, 1.5))
                   + mutate.verdict_line(mutate.Verdict(ms[0], "killed", 2, 0.5, "t::y"))
                   + mutate.verdict_line(stray), encoding="utf-8")
    got, problems = mutation.read_verdicts(out, ms)
    assert [(v.mutant.id, v.status, v.tests) for v in got] == [("bbbb0001", "killed", 2), ("bbbb0003", "survived", 4)]
    assert problems == [f"{out}: cccc0009 is not a mutant of this sample",
                        f"{out}: 1 mutant(s) of the sample have no verdict: bbbb0002"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"mutant": {"id": "bbbb0001"}, "status": "maybe", "tests": 1, "seconds": 0}) + "\n",
                   encoding="utf-8")
    with pytest.raises(SystemExit, match="bad.jsonl:1: status 'maybe': expected killed, timeout, survived or uncovered"):
        mutation.read_verdicts(bad, ms)
