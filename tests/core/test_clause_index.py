"""The clause index and the gate's verdict (issue 10): a clause is tied to the statements that name
it, and passes only when a test marked with it executed one of them."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import clause_index  # noqa: E402

sys.path.pop(0)

SRC = textwrap.dedent('''
    def speed(c):
        """RES-CV-01: base plus trains (CV-TRAV-02)."""
        s = 32
        return s


    def upkeep(k):
        k.unrest += 1
        # step 3 (SC-KM-11) is not simulated
        k.treasury -= 1
        emit("Paid", ("SC-KM-10", "not-a-clause"))  # the ID in the code itself
        # implements: GEN-02, GEN-03
        return k.treasury // 2
''')


def test_the_index_reads_ids_in_code_docstrings_and_comments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clause_index, "ROOT", tmp_path)
    f = tmp_path / "m.py"
    f.write_text(SRC, encoding="utf-8")
    idx = clause_index.index_file(f)
    # the docstring ties its IDs to the function's first statement (line 4: ``s = 32``)
    assert idx["RES-CV-01"] == [("m.py", 4, 4)] and idx["CV-TRAV-02"] == [("m.py", 4, 4)]
    assert idx["SC-KM-11"] == [("m.py", 11, 11)]  # the statement after the comment
    assert idx["SC-KM-10"] == [("m.py", 12, 12)]
    assert idx["GEN-02"] == idx["GEN-03"] == [("m.py", 14, 14)]
    assert "not-a-clause" not in idx


def test_a_marker_naming_something_else_than_a_clause_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clause_index, "ROOT", tmp_path)
    f = tmp_path / "m.py"
    f.write_text("x = 1\n# implements: KM-, FOO\ny = 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a clause ID"):
        clause_index.index_file(f)


def test_the_gate_passes_a_clause_only_when_its_marked_tests_executed_its_code(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import clause_gate

    index = {"A-X-01": [("sim/a.py", 10, 12)], "B-X-01": [("sim/b.py", 5, 5)], "C-X-01": []}
    monkeypatch.setattr(clause_gate, "_by_clause", {"A-X-01": {(str(ROOT / "sim/a.py"), 11)},
                                                    "B-X-01": {(str(ROOT / "sim/b.py"), 6)}})
    monkeypatch.setattr(clause_gate, "_tests_of", {"A-X-01": ["t1"], "B-X-01": ["t2"]})
    rows = {r["clause"]: r for r in clause_gate.gate(index, ["A-X-01", "B-X-01", "C-X-01", "D-X-01"])}
    assert rows["A-X-01"]["ok"] and rows["A-X-01"]["exercised"] == ["sim/a.py:10"]
    assert not rows["B-X-01"]["ok"]  # its test ran line 6, not the statement on line 5
    assert not rows["C-X-01"]["ok"] and not rows["D-X-01"]["ok"]  # no code tied / no test
