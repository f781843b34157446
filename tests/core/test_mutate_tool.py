"""tools/mutate.py: every mutant it makes is valid Python that differs from the source in one place,
and its sample is a function of the seed alone (issue 10)."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import mutate  # noqa: E402

sys.path.pop(0)

SRC = '''
def f(a, b):
    """Doc 7."""
    x = a + 2
    if a < b and not b:
        x -= 1
    g(x)
    return x == 3 or a in (1, 2)
'''


def test_each_operator_makes_the_mutant_it_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mutate, "ROOT", tmp_path)
    (tmp_path / "m.py").write_text(SRC, encoding="utf-8")
    made = {}
    for m in mutate.candidates("m.py"):
        new = SRC[:m.start] + m.new + SRC[m.end:]
        ast.parse(new)  # valid Python
        made[m.op] = new
    assert "    x = a - 2\n" in made["+ → - (line 4)"]
    assert "if a <= b and not b:" in made["< → <= (line 5)"]
    assert "if a < b or not b:" in made["and → or (line 5)"]
    assert "if a < b and  b:" in made["not x → x (line 5)"]
    assert "    x -= 0\n" in made["1 → 0 (line 6)"]
    assert "    pass\n    return" in made["statement dropped (line 7)"]
    assert "return x != 3 or" in made["== → != (line 8)"]
    assert "a not in (1, 2)" in made["in → not in (line 8)"]
    assert not any("Doc" in op for op in made)  # docstrings are not mutated


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_the_sample_depends_on_the_seed_only() -> None:
    a = mutate.sample("mn", 20, 1)
    assert a == mutate.sample("mn", 20, 1)
    assert a != mutate.sample("mn", 20, 2)
    files, _ = mutate.SYSTEMS["mn"]
    assert len(a) == 20 and all(m.path in files for m in a)


def test_a_mutant_keeps_its_id_and_its_place_in_the_sample_when_its_code_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 11 split the rule modules into packages: ids and samples must not depend on files or lines
    monkeypatch.setattr(mutate, "ROOT", tmp_path)
    h = "\n\ndef h(n):\n    return n * 3 > 7\n"
    (tmp_path / "one.py").write_text(SRC + h, encoding="utf-8")
    (tmp_path / "a.py").write_text("X = 1\n" + h.replace("def h", "def renamed"), encoding="utf-8")
    (tmp_path / "b.py").write_text("# moved\n" + SRC, encoding="utf-8")

    def ops(files: list[str]) -> dict[str, str]:
        return {m.id: m.op.split(" (line")[0] for m in mutate.identify([m for f in files for m in mutate.candidates(f)])}

    before, after = ops(["one.py"]), ops(["a.py", "b.py"])
    assert set(before.items()) <= set(after.items()) and len(after) == len(before) + 2  # X = 1: "1 → 0", dropped
    monkeypatch.setattr(mutate, "RECORD", tmp_path / "none.txt")
    monkeypatch.setitem(mutate.SYSTEMS, "t", (["one.py"], []))
    s1 = {m.id for m in mutate.sample("t", 6, 1)}
    monkeypatch.setitem(mutate.SYSTEMS, "t", (["b.py", "a.py"], []))
    # two more mutants in the pool: the first pool's six lowest-ranked rank at most 8th in the second
    assert s1 <= {m.id for m in mutate.sample("t", 8, 1)}
    (tmp_path / "a.py").write_text("X = 1\n" + h.replace("3", "4"), encoding="utf-8")  # a changed statement
    assert not (set(ops(["a.py"])) & {i for i, op in before.items() if op in ("3 → 4", "* → //", "> → >=")})


def test_the_same_statement_in_two_places_gets_two_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mutate, "ROOT", tmp_path)
    (tmp_path / "m.py").write_text("def f(x):\n    return x + 1\n\n\ndef g(x):\n    return x + 1\n", encoding="utf-8")
    ids = [m.id for m in mutate.identify(mutate.candidates("m.py"))]
    assert len(ids) == 4 and len(set(ids)) == 4


def test_the_sample_of_record_is_the_one_issue_10_was_judged_on() -> None:
    # seed 1, 200 mutants: tools/mutants-sample.txt; every listed equivalent (of the sample of record or
    # of a fresh sample, issue 29) is a mutant of the current source: a changed statement drops its id
    sys.path.insert(0, str(ROOT / "bench"))
    import mutation

    sys.path.pop(0)
    for system in ("cv", "gw", "km", "mn"):
        rec = mutate.recorded(system)
        assert rec is not None and len(rec) == 200 and len(set(rec)) == 200
    pools = {system: {m.id for m in mutate.pool_of(system)} for system in mutate.SYSTEMS}
    for (system, mid) in mutation.equivalents():
        assert mid in pools[system], f"{system} {mid}: listed as equivalent, but no mutant of the source has this id"


def test_statements_run_at_import_are_sampled_and_marked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a constant of the rules (MISSION_FEE_PO = 30) runs at import: no test's line record can show it,
    # so it must be marked for the whole suite rather than counted as uncovered
    monkeypatch.setattr(mutate, "ROOT", tmp_path)
    (tmp_path / "m.py").write_text("FEE = 30\n\nclass C:\n    gift: int = 0\n\ndef f():\n    return 4\n", encoding="utf-8")
    got = {m.op: m.at_import for m in mutate.candidates("m.py")}
    assert got == {"30 → 31 (line 1)": True, "statement dropped (line 1)": True, "0 → 1 (line 4)": True,
                   "4 → 5 (line 7)": False}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_the_fast_judge_runs_the_mutant_through_every_reference(tmp_path: Path) -> None:
    # a module, another one holding a reference to its function (from … import), and a test of the other:
    # the forked judge must make the reference run the mutant, and leave the file as it was
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    old = "LIMIT = 3\n\n\ndef f(x):\n    return x < LIMIT\n"
    (tmp_path / "pkg" / "m.py").write_text(old, encoding="utf-8")
    (tmp_path / "pkg" / "user.py").write_text("from pkg.m import f\n\n\ndef g():\n    return f(2), f(3)\n", encoding="utf-8")
    (tmp_path / "test_user.py").write_text("from pkg.user import g\n\n\ndef test_g():\n    assert g() == (True, False)\n",
                                           encoding="utf-8")
    judge = mutate.Judge(tmp_path, ["test_user.py"], sys.executable)
    try:
        killed = judge.judge("pkg/m.py", old, old.replace("x < LIMIT", "x <= LIMIT"), ["test_user.py"], 60)
        assert killed == (1, "test_user.py::test_g")
        same = judge.judge("pkg/m.py", old, old.replace("return x < LIMIT", "return LIMIT > x"), ["test_user.py"], 60)
        assert same == (0, "")
        # a module-level change cannot be patched into the live functions: the slow way judges it
        assert judge.judge("pkg/m.py", old, old.replace("LIMIT = 3", "LIMIT = 4"), ["test_user.py"], 60)[0] == 77
    finally:
        judge.close()
    assert (tmp_path / "pkg" / "m.py").read_text(encoding="utf-8") == old


@pytest.mark.slow  # three pytest runs in a fresh interpreter: over 0.5 s
def test_a_mutant_that_breaks_the_conftest_import_is_killed_and_a_wrong_path_is_an_error(tmp_path: Path) -> None:
    # a module constant dropped (SYSTEM = "mn"): the conftest's import fails before any test (pytest exit 4)
    (tmp_path / "m.py").write_text("X = 1\nY = X + 1\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text("import m  # noqa: F401\n", encoding="utf-8")
    (tmp_path / "test_m.py").write_text("def test_y():\n    import m\n    assert m.Y == 2\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    assert mutate.slow_judge(tmp_path, sys.executable, env, ["test_m.py"], 60) == (0, "")
    (tmp_path / "m.py").write_text("pass\nY = X + 1\n", encoding="utf-8")
    assert mutate.slow_judge(tmp_path, sys.executable, env, ["test_m.py"], 60) == (2, "conftest")
    # a test chosen by node id in a module the mutant breaks (no conftest involved): exit 4 too, a kill
    (tmp_path / "conftest.py").write_text("", encoding="utf-8")
    (tmp_path / "test_m.py").write_text("import m  # noqa: F401\n\n\ndef test_y():\n    assert m.Y == 2\n", encoding="utf-8")
    assert mutate.slow_judge(tmp_path, sys.executable, env, ["test_m.py::test_y"], 60) == (2, "test_m.py")
    (tmp_path / "m.py").write_text("X = 1\nY = X + 1\n", encoding="utf-8")
    assert mutate.slow_judge(tmp_path, sys.executable, env, ["test_nothere.py"], 60)[0] == 4  # still an error


def test_the_equivalent_mutants_list_is_well_formed() -> None:
    # bench/mutation.py reads it: system<TAB>id<TAB>reason, every reason given, each mutant once
    sys.path.insert(0, str(ROOT / "bench"))
    import mutation  # noqa: PLC0415

    sys.path.pop(0)
    eq = mutation.equivalents()
    assert eq, "tools/mutants-equivalent.txt lists no mutant"
    lines = [ln for ln in mutation.EQUIVALENT.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    assert len(lines) == len(eq)  # no mutant listed twice
    for (system, mid), reason in eq.items():
        assert system in mutate.SYSTEMS and mid and len(reason) > 20, (system, mid, reason)
