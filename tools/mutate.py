"""Mutation testing of the rules (issue 10): do the tests notice when the rules are wrong?

``python tools/mutate.py SYSTEM [--mutants N] [--seed S] [--out FILE]`` applies a seeded sample of N
mutants to the rule modules of SYSTEM (cv, gw, km, mn, link), one at a time, and runs the tests of
that system that execute the mutated statement. A mutant is *killed* when one of them fails (or the
run times out), *survives* when they all pass, and is *uncovered* when no test executes it (counted as
survived: nothing would notice).

Mutation operators (each applied to one place of the source, chosen by the seeded sample):

- comparison: ``<`` ↔ ``<=``, ``>`` ↔ ``>=``, ``==`` ↔ ``!=``, ``in`` ↔ ``not in``;
- arithmetic: ``+`` ↔ ``-``, ``*`` → ``//``, ``//`` → ``*``, ``%`` → ``//``;
- boolean: ``and`` ↔ ``or``; ``not x`` → ``x``;
- constant: an integer ``n`` → ``n + 1`` (and ``0`` → ``1``, ``1`` → ``0``); ``True`` ↔ ``False``;
- dropped statement: an assignment, augmented assignment or call statement becomes ``pass``.

How tests are chosen: the system's test directory is run once with ``sys.monitoring`` recording the
lines each test executes (in its own process), then each mutant runs only the tests that executed a
line of the mutated statement (a statement outside any function — a constant, a class attribute — runs
at import, before any test, so all of the system's tests judge it), in a fresh interpreter on a private copy of the tree (the working tree
is never touched). Determinism: the sample depends only on ``--seed`` and the source.

``bench/mutation.py`` runs it for every system and prints the score per system.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SYSTEMS: dict[str, tuple[list[str], list[str]]] = {
    # system: (rule modules, test paths)
    "cv": (["sim/rules/caravan.py"], ["tests/cv"]),
    "gw": (["sim/rules/warfare.py"], ["tests/gw"]),
    "km": (["sim/rules/kingdom.py", "sim/rules/edicts.py"], ["tests/km"]),
    "mn": (["sim/rules/diplomacy.py"], ["tests/mn"]),
    "link": (["sim/rules/links.py"], ["tests/link"]),
}

_CMP_SWAP = {ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">", ast.Eq: "!=", ast.NotEq: "==",
             ast.In: "not in", ast.NotIn: "in"}
_CMP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
             ast.In: "in", ast.NotIn: "not in"}
_BIN_SWAP = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "//"), ast.FloorDiv: ("//", "*"),
             ast.Mod: ("%", "//")}


@dataclass(frozen=True)
class Mutant:
    id: str
    path: str  # relative to ROOT
    line: int  # first line of the mutated statement
    end_line: int
    op: str  # what was changed, in words
    start: int  # byte offsets in the source text: [start, end) is replaced by ``new``
    end: int
    new: str
    at_import: bool = False  # a module- or class-level statement: it runs at import, before any test


def _offsets(text: str) -> list[int]:
    out, pos = [0], 0
    for line in text.splitlines(keepends=True):
        pos += len(line)
        out.append(pos)
    return out


def _docstring_ids(tree: ast.AST) -> set[int]:
    return {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def candidates(rel: str) -> list[Mutant]:
    """Every mutant of one file, in source order."""
    text = (ROOT / rel).read_text(encoding="utf-8")
    tree = ast.parse(text)
    offs = _offsets(text)

    def at(line: int, col: int) -> int:
        # ast columns are UTF-8 byte offsets; the rule modules hold non-ASCII text (French names)
        row = text[offs[line - 1]:offs[line]]
        return offs[line - 1] + len(row.encode("utf-8")[:col].decode("utf-8", errors="ignore"))

    # the innermost statement of each node (a mutant's tests are the tests that run that statement),
    # and the statements outside any function: they run at import, so no test's line record shows them
    owner: dict[int, ast.stmt] = {}
    at_import: set[int] = set()

    def visit(node: ast.AST, stmt: ast.stmt | None, in_function: bool) -> None:
        if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stmt = node
            if not in_function:
                at_import.add(id(node))
        if stmt is not None:
            owner[id(node)] = stmt
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for ch in ast.iter_child_nodes(node):
            visit(ch, stmt, inner)

    visit(tree, None, False)
    docs = _docstring_ids(tree)
    out: list[Mutant] = []
    n = 0

    def add(node: ast.AST, op: str, start: int, end: int, new: str) -> None:
        nonlocal n
        st = owner.get(id(node))
        if st is None:  # a decorator or a default outside any statement
            return
        n += 1
        out.append(Mutant(f"{Path(rel).stem}-{n}", rel, st.lineno, st.end_lineno or st.lineno, op, start, end, new,
                          id(st) in at_import))

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            left = node.left
            for i, (cop, right) in enumerate(zip(node.ops, node.comparators, strict=True)):
                t = type(cop)
                if t not in _CMP_SWAP:
                    continue
                a = at(left.end_lineno or left.lineno, left.end_col_offset or 0)
                b = at(right.lineno, right.col_offset)
                seg = text[a:b]
                word = _CMP_TEXT[t]
                k = seg.find(" " + word + " ") if word.isalpha() or " " in word else seg.find(word)
                if k < 0:
                    k = seg.find(word)
                if k >= 0:
                    s = a + k + (1 if seg[k] == " " else 0)
                    add(node, f"{word} → {_CMP_SWAP[t]} (line {node.lineno})", s, s + len(word), _CMP_SWAP[t])
                left = right
                del i
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIN_SWAP:
            old, new = _BIN_SWAP[type(node.op)]
            a = at(node.left.end_lineno or node.left.lineno, node.left.end_col_offset or 0)
            b = at(node.right.lineno, node.right.col_offset)
            seg = text[a:b]
            k = seg.find(old)
            if old == "*" and seg[k:k + 2] == "**":
                continue
            if k >= 0:
                add(node, f"{old} → {new} (line {node.lineno})", a + k, a + k + len(old), new)
        elif isinstance(node, ast.BoolOp):
            word, other = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            first, second = node.values[0], node.values[1]
            a = at(first.end_lineno or first.lineno, first.end_col_offset or 0)
            b = at(second.lineno, second.col_offset)
            seg = text[a:b]
            k = seg.find(word)
            if k >= 0:
                add(node, f"{word} → {other} (line {node.lineno})", a + k, a + k + len(word), other)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            a = at(node.lineno, node.col_offset)  # the keyword alone ("not (x)" keeps its parentheses)
            add(node, f"not x → x (line {node.lineno})", a, a + 3, "")
        elif isinstance(node, ast.Constant) and id(node) not in docs:
            v = node.value
            a = at(node.lineno, node.col_offset)
            b = at(node.end_lineno or node.lineno, node.end_col_offset or 0)
            if isinstance(v, bool):
                add(node, f"{v} → {not v} (line {node.lineno})", a, b, str(not v))
            elif isinstance(v, int) and text[a:b].isdigit():
                new_v = {0: 1, 1: 0}.get(v, v + 1)
                add(node, f"{v} → {new_v} (line {node.lineno})", a, b, str(new_v))
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr)) and node in owner.values() \
                and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            a = at(node.lineno, node.col_offset)
            b = at(node.end_lineno or node.lineno, node.end_col_offset or 0)
            # keep the line count: the dropped statement's extra lines become blank
            add(node, f"statement dropped (line {node.lineno})", a, b, "pass" + "\n" * text[a:b].count("\n"))
    out.sort(key=lambda m: (m.start, m.op))
    return out


def sample(system: str, n: int, seed: int) -> list[Mutant]:
    files, _ = SYSTEMS[system]
    pool = [m for f in files for m in candidates(f)]
    rng = random.Random(f"{system}:{seed}")
    return sorted(rng.sample(pool, min(n, len(pool))), key=lambda m: (m.path, m.start))


# ---- which tests execute which lines ---------------------------------------------------------------

_PLUGIN = '''
import json, os, sys
import pytest
_TOOL = 4
_FILES = set(json.loads(os.environ["MUTATE_FILES"]))
_hits = set()
_map = {}
def _on_line(code, line):
    if code.co_filename in _FILES:
        _hits.add((code.co_filename, line))
    return sys.monitoring.DISABLE
def pytest_configure(config):
    m = sys.monitoring
    m.use_tool_id(_TOOL, "mutate")
    m.register_callback(_TOOL, m.events.LINE, _on_line)
    m.set_events(_TOOL, m.events.LINE)
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _hits.clear()
    sys.monitoring.restart_events()
    t = __import__("time").perf_counter()
    yield
    _map[item.nodeid] = {"lines": sorted(f"{f}:{n}" for f, n in _hits), "s": __import__("time").perf_counter() - t}
def pytest_sessionfinish(session, exitstatus):
    with open(os.environ["MUTATE_MAP"], "w") as fh:
        json.dump(_map, fh)
'''


def test_map(system: str, tree: Path, python: str) -> dict[str, dict[str, object]]:
    """{test node id: {"lines": ["path:line", …], "s": seconds}} for the system's tests, run in ``tree``."""
    files, tests = SYSTEMS[system]
    plug = tree / "_mutate_plugin.py"
    plug.write_text(_PLUGIN, encoding="utf-8")
    out = tree / "_mutate_map.json"
    env = dict(os.environ, MUTATE_FILES=json.dumps([str(tree / f) for f in files]), MUTATE_MAP=str(out),
               PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "_mutate_plugin", *tests],
                       cwd=tree, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"the {system} tests fail before any mutant:\n{r.stdout[-3000:]}\n{r.stderr[-2000:]}")
    data: dict[str, dict[str, object]] = json.loads(out.read_text(encoding="utf-8"))
    prefix = str(tree) + os.sep
    for v in data.values():
        v["lines"] = [str(x).removeprefix(prefix) for x in v["lines"]]  # type: ignore[attr-defined]
    return data


def copy_tree(dst: Path) -> None:
    for name in ("sim", "agents", "scenarios", "workers", "tests", "docs", "tools", "pyproject.toml"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dst / name)


@dataclass
class Verdict:
    mutant: Mutant
    status: str  # killed, survived, uncovered, timeout
    tests: int
    seconds: float
    killer: str = ""


def run_mutants(system: str, mutants: list[Mutant], *, python: str = sys.executable,
                progress: bool = True, tests: list[str] | None = None) -> Iterator[Verdict]:
    """Judge each mutant; ``tests`` (paths or node ids) replaces the mapped tests (a quick check of new tests)."""
    with tempfile.TemporaryDirectory(prefix=f"mutate-{system}-") as tmp:
        tree = Path(tmp)
        copy_tree(tree)
        t0 = time.perf_counter()
        tmap = test_map(system, tree, python) if tests is None else {t: {"lines": [], "s": 10.0} for t in tests}
        if progress:
            print(f"{system}: {len(tmap)} tests mapped in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        by_line: dict[str, list[str]] = {}
        for node, v in tmap.items():
            for ln in v["lines"]:  # type: ignore[attr-defined]
                by_line.setdefault(ln, []).append(node)
        originals = {f: (tree / f).read_text(encoding="utf-8") for f in {m.path for m in mutants}}
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
        for i, m in enumerate(mutants, 1):
            if tests is not None:
                chosen = list(tests)
            elif m.at_import:  # run at import by every test of the system: all of them judge it
                chosen = sorted(tmap)
            else:
                chosen = sorted({t for ln in range(m.line, m.end_line + 1) for t in by_line.get(f"{m.path}:{ln}", [])})
            if not chosen:
                v = Verdict(m, "uncovered", 0, 0.0)
            else:
                src = originals[m.path]
                (tree / m.path).write_text(src[:m.start] + m.new + src[m.end:], encoding="utf-8")
                budget = 30 + 5 * sum(float(tmap[t]["s"]) for t in chosen)  # type: ignore[arg-type]
                t = time.perf_counter()
                try:
                    r = subprocess.run([python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                                        "--timeout", str(int(budget)), *chosen],
                                       cwd=tree, env=env, capture_output=True, text=True, timeout=budget + 30)
                    if r.returncode == 0:
                        v = Verdict(m, "survived", len(chosen), time.perf_counter() - t)
                    elif r.returncode not in (1, 2):  # 1: a test failed; 2: collection failed (an import broke)
                        raise SystemExit(f"pytest could not judge {m.id} (exit {r.returncode}: a wrong test path?):\n"
                                         f"{r.stdout[-2000:]}\n{r.stderr[-1000:]}")
                    else:
                        failed = next((ln.split(" ")[1] for ln in r.stdout.splitlines() if ln.startswith("FAILED ")), "")
                        v = Verdict(m, "killed", len(chosen), time.perf_counter() - t, failed)
                except subprocess.TimeoutExpired:
                    v = Verdict(m, "timeout", len(chosen), time.perf_counter() - t)
                finally:
                    (tree / m.path).write_text(src, encoding="utf-8")
            if progress:
                print(f"{system} {i}/{len(mutants)} {v.status:9} {m.path}:{m.line} {m.op}", file=sys.stderr, flush=True)
            yield v


def score(verdicts: list[Verdict]) -> float:
    killed = sum(v.status in ("killed", "timeout") for v in verdicts)
    return killed / len(verdicts) if verdicts else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("system", choices=sorted(SYSTEMS))
    ap.add_argument("--mutants", type=int, default=200, help="how many mutants to sample (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--out", default=None, help="write every verdict as JSON lines to this file")
    ap.add_argument("--list", action="store_true", help="print the sampled mutants and stop")
    ap.add_argument("--ids", default="", metavar="ID,ID,…",
                    help="judge only these mutants of the sample (e.g. the survivors of an earlier run, after new tests)")
    ap.add_argument("--tests", nargs="+", default=None, metavar="TEST",
                    help="run these test paths or node ids against each mutant instead of the mapped ones")
    a = ap.parse_args(argv)
    ms = sample(a.system, a.mutants, a.seed)
    if a.ids:
        wanted = [x.strip() for x in a.ids.split(",") if x.strip()]
        known = {m.id for m in ms}
        missing = [x for x in wanted if x not in known]
        if missing:
            ap.error(f"--ids: not in the sample of {a.system} (--mutants {a.mutants} --seed {a.seed}): {', '.join(missing)}")
        ms = [m for m in ms if m.id in set(wanted)]
    if a.list:
        for m in ms:
            print(f"{m.id}\t{m.path}:{m.line}\t{m.op}")
        return 0
    verdicts = []
    fh = open(a.out, "w", encoding="utf-8") if a.out else None  # noqa: SIM115
    try:
        for v in run_mutants(a.system, ms, tests=a.tests):
            verdicts.append(v)
            if fh:
                fh.write(json.dumps({**asdict(v), "mutant": asdict(v.mutant)}) + "\n")
                fh.flush()
    finally:
        if fh:
            fh.close()
    counts = {s: sum(v.status == s for v in verdicts) for s in ("killed", "timeout", "survived", "uncovered")}
    print(f"{a.system}: {score(verdicts):.1%} killed of {len(verdicts)} mutants ({counts})")
    for v in verdicts:
        if v.status in ("survived", "uncovered"):
            print(f"  {v.status}: {v.mutant.path}:{v.mutant.line} {v.mutant.op}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
