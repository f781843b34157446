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

The fast judge (the default): one process in the private tree imports the system's tests once; for each
mutant a forked child gives the live functions whose code the mutant changes their mutated ``__code__``
(so every reference to them runs the mutant) and runs the chosen tests in-process; the mutated file is
written too, for tests that start a subprocess. A mutant it cannot patch that way (a statement run at
import) is judged the slow way, a fresh interpreter on the mutated tree; ``--slow`` judges them all so.

Options for the work on survivors: ``--ids A,B`` judges chosen mutants of the sample, ``--tests T…``
runs given tests instead of the mapped ones (does my new test kill it?), ``--resume FILE`` keeps the
kills of an earlier ``--out`` file and judges the rest.

How tests are chosen: the system's test directory is run once with ``sys.monitoring`` recording the
lines each test executes (in its own process), then each mutant runs only the tests that executed a
line of the mutated statement (a statement outside any function — a constant, a class attribute — runs
at import, before any test, so all of the system's tests judge it), in a fresh interpreter on a private copy of the tree (the working tree
is never touched). Determinism: the sample depends only on ``--seed`` and the source: each mutant's id
is a hash of its scope (``Class.function``), its statement's text, its place in the statement and the
operator, and the sample is the ``N`` ids that hash lowest under the seed, so moving code between
files or lines keeps the sample and the ids (``tools/mutants-equivalent.txt`` stays valid).

``bench/mutation.py`` runs it for every system and prints the score per system.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

SYSTEMS: dict[str, tuple[list[str], list[str]]] = {
    # system: (rule modules, test paths)
    "cv": ([f"sim/rules/cv/{m}.py" for m in ("stats", "crew", "hazards", "routes", "legality", "orders", "travel", "rest",
                                             "turn")], ["tests/cv"]),
    "gw": ([f"sim/rules/gw/{m}.py" for m in ("core", "hooks", "legality", "orders", "deploy", "siege", "combat", "annex",
                                             "season")], ["tests/gw"]),
    "km": ([f"sim/rules/km/{m}.py" for m in ("tables", "statistics", "upkeep_phase", "ordinary", "income_event", "specials",
                                             "diplomatic", "relations", "exploration", "trade", "vassalage", "legality",
                                             "turn", "hooks")], ["tests/km"]),
    "mn": ([f"sim/rules/mn/{m}.py" for m in ("orders", "lookups", "embassies", "missions", "negotiation", "military", "turn",
                                             "legality", "hooks", "invariants")], ["tests/mn"]),
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
    key: str = ""  # what the mutant is, by content (identify)
    scope: str = ""  # the qualified name of the def or class it lies in


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
    # the qualified name of the def or class each statement lies in (the mutant's identity, below)
    where: dict[int, str] = {}

    def name_scopes(node: ast.AST, scope: str) -> None:
        for ch in ast.iter_child_nodes(node):
            inner = f"{scope}.{ch.name}" if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else scope
            if isinstance(ch, ast.stmt):
                where[id(ch)] = inner
            name_scopes(ch, inner)

    name_scopes(tree, "")
    out: list[Mutant] = []

    def add(node: ast.AST, op: str, start: int, end: int, new: str) -> None:
        st = owner.get(id(node))
        if st is None:  # a decorator or a default outside any statement
            return
        # identity by content, not by position (see identify): the statement's text, the place inside
        # it, the operator and the replacement; the scope (``Class.function``) breaks ties
        a0 = at(st.lineno, st.col_offset)
        a1 = at(st.end_lineno or st.lineno, st.end_col_offset or 0)
        key = "\x1f".join([text[a0:a1], str(start - a0), op.split(" (line ")[0], new])
        scope = where.get(id(st), "").lstrip(".") or "<module>"
        out.append(Mutant("", rel, st.lineno, st.end_lineno or st.lineno, op, start, end, new,
                          id(st) in at_import, key, scope))

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


def _h(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def identify(pool: list[Mutant]) -> list[Mutant]:
    """Give each mutant of a system's pool its id: a hash of its content (the statement's text, its
    place in the statement, the operator and the replacement), with the scope added only where two
    places share that content, and then their order. So a mutant keeps its id, and the sample its
    mutants, when code moves between files or lines or its function is renamed (the issue 11 split of
    the rule modules); only a change of the statement itself changes it."""
    by_key: dict[str, list[int]] = {}
    for i, m in enumerate(pool):
        by_key.setdefault(m.key, []).append(i)
    ids: list[str] = [""] * len(pool)
    for key, idx in by_key.items():
        if len(idx) == 1:
            ids[idx[0]] = _h(key)[:8]
            continue
        seen: dict[str, int] = {}
        for i in idx:
            k = seen[pool[i].scope] = seen.get(pool[i].scope, 0) + 1
            ids[i] = _h(f"{key}\x1f{pool[i].scope}\x1f{k}")[:8]
    return [replace(m, id=i) for m, i in zip(pool, ids, strict=True)]


def pool_of(system: str) -> list[Mutant]:
    files, _ = SYSTEMS[system]
    return identify([m for f in files for m in candidates(f)])


RECORD = ROOT / "tools" / "mutants-sample.txt"


def recorded(system: str) -> list[str] | None:
    """The sample of record of ``system`` (seed 1, 200 mutants: the sample issue 10's tests and
    equivalents were worked out on), or None when the file does not list it."""
    if not RECORD.exists():
        return None
    ids = [ln.split("\t")[1] for ln in RECORD.read_text(encoding="utf-8").splitlines()
           if ln and not ln.startswith("#") and ln.split("\t")[0] == system]
    return ids or None


def sample(system: str, n: int, seed: int, *, fresh: bool = False) -> list[Mutant]:
    """The mutants to judge. Seed 1 with 200 mutants is the sample of record
    (``tools/mutants-sample.txt``; a mutant of it whose statement has changed since is gone, and
    reported); any other seed, size, or ``fresh``, is the ``n`` mutants whose ids hash lowest under
    the seed. Either way the sample depends on the mutants' own code only, not on file names or lines."""
    pool = pool_of(system)
    rec = recorded(system) if (seed, n) == (1, 200) and not fresh else None
    if rec is not None:
        have = {m.id: m for m in pool}
        gone = [i for i in rec if i not in have]
        if gone:
            print(f"{system}: {len(gone)} mutant(s) of the sample of record changed since and are gone: "
                  f"{', '.join(gone[:8])}{' …' if len(gone) > 8 else ''}", file=sys.stderr)
        chosen = [have[i] for i in rec if i in have]
    else:
        chosen = sorted(pool, key=lambda m: _h(f"{system}:{seed}:{m.id}"))[:n]
    return sorted(chosen, key=lambda m: (m.path, m.start))


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


# ---- the fast judge: one process imports the tests once, a forked child runs each mutant ----------------
#
# A mutant inside a function changes that function's code object only. The judge (a process started in
# the private tree) imports the system's tests once (a collection run); for each mutant it writes the
# mutated file (for the tests that start a subprocess), forks, and the child compiles the mutated source
# and gives every live function whose code changed its new ``__code__`` (so every reference to it, in
# any module, runs the mutant), then runs the chosen tests with ``pytest.main``. A mutant whose changed
# code belongs to no live function (or a statement run at import) is judged the slow way: a fresh
# interpreter on the mutated tree.

_JUDGE = r'''
import json, os, sys, time, types
sys.dont_write_bytecode = True
import pytest

reply = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)  # pytest's output goes to stderr (discarded), the replies keep the old stdout
pytest.main(["-q", "--collect-only", "-p", "no:cacheprovider", "-o", "addopts=", *json.loads(os.environ["MUTATE_TESTS"])])
reply.write("ready\n")  # the tree is imported: from now on the caller may mutate its files


def codes(code, out):
    out.setdefault(code.co_qualname, []).append(code)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            codes(c, out)
    return out


def live_functions(mod):
    out, seen = [], set()

    def add(f):
        while f is not None and id(f) not in seen:
            seen.add(id(f))
            if isinstance(f, (staticmethod, classmethod)):
                f = f.__func__
                continue
            if isinstance(f, property):
                for g in (f.fget, f.fset, f.fdel):
                    add(g)
                return
            if isinstance(f, type):
                if f.__module__ == mod.__name__:
                    for v in list(vars(f).values()):
                        add(v)
                return
            if isinstance(f, types.FunctionType) and f.__module__ == mod.__name__:
                out.append(f)
            f = getattr(f, "__wrapped__", None)

    for v in list(vars(mod).values()):
        add(v)
    return out


def patch(path, old_src, new_src):
    """True when every changed code object of the mutant now runs in the live functions."""
    mod = next((m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == path), None)
    if mod is None:
        return False
    old = codes(compile(old_src, path, "exec"), {})
    new = codes(compile(new_src, path, "exec"), {})
    changed = {q for q in new if q not in old or len(old[q]) != len(new[q])
               or any(a != b for a, b in zip(old[q], new[q]))}
    # the codes whose own instructions changed (the module's and a class body's code change only
    # through the function codes they hold)
    own = {q for q in changed if q not in old or len(old[q]) != len(new[q])
           or any(own_part(a) != own_part(b) for a, b in zip(old[q], new[q]))}
    done = set()
    for f in live_functions(mod):
        q = f.__code__.co_qualname
        if q in changed and len(new[q]) == 1 and f.__code__ == old[q][0]:
            f.__code__ = new[q][0]
            done.add(q)
    # a changed nested code (a local function, a generator expression) runs through its patched outer one
    return bool(own) and all(any(q == d or q.startswith(d + ".") for d in done) for q in own)


def own_part(code):  # not the positions: a def's end column moves with a longer operator in its last line
    return (code.co_code, code.co_names,
            tuple(c for c in code.co_consts if not isinstance(c, types.CodeType)))


class Record:
    failed = ""

    def pytest_runtest_logreport(self, report):
        if report.failed and not self.failed:
            self.failed = report.nodeid


for line in sys.stdin:
    cmd = json.loads(line)
    path, old_src, new_src = cmd["path"], cmd["old"], cmd["new"]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(new_src)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        code = 70
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            if not patch(path, old_src, new_src):
                code = 77
            else:
                rec = Record()
                code = int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *cmd["tests"]],
                                       plugins=[rec]))
                os.write(w, rec.failed.encode())
        finally:
            os._exit(code)
    os.close(w)
    t0, status = time.monotonic(), None
    while status is None:
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(st)
        elif time.monotonic() - t0 > cmd["budget"]:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            status = "timeout"
        else:
            time.sleep(0.005)
    failed = os.read(r, 4096).decode(errors="replace")
    os.close(r)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(old_src)
    reply.write(json.dumps({"rc": status, "failed": failed}) + "\n")
'''


class Judge:
    """The fast judge of one private tree (see above)."""

    def __init__(self, tree: Path, tests: list[str], python: str) -> None:
        self.tree = tree
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", MUTATE_TESTS=json.dumps(tests))
        self.proc = subprocess.Popen([python, "-c", _JUDGE], cwd=tree, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout
        if self.proc.stdout.readline() != "ready\n":  # no file of the tree may change while it imports
            raise SystemExit("the mutation judge did not start (try tools/mutate.py --slow)")

    def judge(self, rel: str, old: str, new: str, tests: list[str], budget: float) -> tuple[object, str]:
        """(exit code of the tests, or "timeout", or 77: not patchable; the first failed test)."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"path": str(self.tree / rel), "old": old, "new": new, "tests": tests,
                                          "budget": budget}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("the mutation judge stopped (see tools/mutate.py --slow)")
        got = json.loads(line)
        return got["rc"], got["failed"]

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


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


def slow_judge(tree: Path, python: str, env: dict[str, str], tests: list[str], budget: float) -> tuple[object, str]:
    """Run ``tests`` in a fresh interpreter on ``tree`` (already mutated): (pytest's exit code or
    ``"timeout"``, the first failed test). A mutant that breaks an import stops pytest before any test,
    with exit 4 when the conftest's imports break ("ImportError while loading conftest") or when the
    tests chosen by node id lie in a module that no longer collects ("ERROR tests/…" then "found no
    collectors"): that is a kill (exit 2, as a collection error), not a usage error of the tool; a
    wrong path alone ("ERROR: file or directory not found") stays exit 4."""
    try:
        r = subprocess.run([python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                            "--timeout", str(int(budget)), *tests],
                           cwd=tree, env=env, capture_output=True, text=True, timeout=budget + 30)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    failed = next((ln.split(" ")[1] for ln in r.stdout.splitlines() if ln.startswith("FAILED ")), "")
    if r.returncode == 4:
        out = r.stdout + r.stderr
        if "while loading conftest" in out:
            return 2, "conftest"
        broken = next((ln.split(" ")[1] for ln in r.stdout.splitlines() if ln.startswith("ERROR ")), "")
        if broken:  # a module the mutant broke: its chosen tests cannot be found (exit 4), a collection error
            return 2, broken
    return r.returncode, failed


def run_mutants(system: str, mutants: list[Mutant], *, python: str = sys.executable,
                progress: bool = True, tests: list[str] | None = None, slow: bool = False,
                known: dict[str, Verdict] | None = None) -> Iterator[Verdict]:
    """Judge each mutant; ``tests`` (paths or node ids) replaces the mapped tests (a quick check of new
    tests); ``slow`` judges every mutant in a fresh interpreter; ``known`` verdicts are given back as they are."""
    with tempfile.TemporaryDirectory(prefix=f"mutate-{system}-") as tmp:
        tree = Path(tmp)
        copy_tree(tree)
        t0 = time.perf_counter()
        tmap = test_map(system, tree, python) if tests is None else {t: {"lines": [], "s": 10.0} for t in tests}
        if progress:
            print(f"{system}: {len(tmap)} tests mapped in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        judge = None if slow else Judge(tree, list(tests) if tests is not None else SYSTEMS[system][1], python)
        try:
            yield from _judged(system, mutants, tree, tmap, judge, python, progress, tests, known or {})
        finally:
            if judge is not None:
                judge.close()


def _judged(system: str, mutants: list[Mutant], tree: Path, tmap: dict[str, dict[str, object]], judge: Judge | None,
            python: str, progress: bool, tests: list[str] | None, known: dict[str, Verdict]) -> Iterator[Verdict]:
    by_line: dict[str, list[str]] = {}
    for node, info in tmap.items():
        for ln in info["lines"]:  # type: ignore[attr-defined]
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
        # the quickest tests first: with -x a killed mutant stops at its first failure
        chosen.sort(key=lambda n: float(tmap[n]["s"]))  # type: ignore[arg-type]
        src = originals[m.path]
        mutated = src[:m.start] + m.new + src[m.end:]
        budget = 30 + 5 * sum(float(tmap[t]["s"]) for t in chosen)  # type: ignore[arg-type]
        how = ""
        t = time.perf_counter()
        if m.id in known:
            v, how = known[m.id], " (known)"
        elif not chosen:
            v = Verdict(m, "uncovered", 0, 0.0)
        else:
            rc: object = 77
            failed = ""
            if judge is not None and not m.at_import:
                rc, failed = judge.judge(m.path, src, mutated, chosen, budget)
            if rc == 77:  # the slow way: a fresh interpreter on the mutated tree
                how = " (fresh interpreter)"
                (tree / m.path).write_text(mutated, encoding="utf-8")
                try:
                    rc, failed = slow_judge(tree, python, env, chosen, budget)
                finally:
                    (tree / m.path).write_text(src, encoding="utf-8")
            if rc == 0:
                v = Verdict(m, "survived", len(chosen), time.perf_counter() - t)
            elif rc == "timeout":
                v = Verdict(m, "timeout", len(chosen), time.perf_counter() - t)
            elif rc in (1, 2):  # 1: a test failed; 2: collection failed (an import broke)
                v = Verdict(m, "killed", len(chosen), time.perf_counter() - t, failed)
            else:
                raise SystemExit(f"pytest could not judge {m.id} (exit {rc}: a wrong test path?)")
        if progress:
            print(f"{system} {i}/{len(mutants)} {v.status:9} {m.path}:{m.line} {m.op}{how}", file=sys.stderr, flush=True)
        yield v


def verdict_line(v: Verdict) -> str:
    """One line of an ``--out`` file (what ``known_kills`` reads back)."""
    return json.dumps({**asdict(v), "mutant": asdict(v.mutant)}) + "\n"


STATUSES = ("killed", "timeout", "survived", "uncovered")
VerdictFields = tuple[str, int, float, str]  # status, tests, seconds, killer: a Verdict but its mutant


def read_verdict_lines(path: Path, option: str) -> Iterator[tuple[int, dict[str, Any], VerdictFields]]:
    """The lines of an ``--out`` file, checked: each as its line number, its mutant's record (``d["mutant"]``,
    for the caller to match with a mutant of the current source) and the verdict's other fields (status,
    tests, seconds, killer). ``option`` names the command-line option that gave the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SystemExit(f"{option} {path}: cannot read it ({e.strerror})") from None
    for n, line in enumerate(text.splitlines(), 1):
        try:
            d = json.loads(line)
            record, status = d["mutant"], d["status"]
            str(record["id"])
            fields = (status, int(d["tests"]), float(d["seconds"]), str(d.get("killer", "")))
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{path}:{n}: expected a verdict line of an --out file (mutant, status, tests, seconds), "
                             f"found {line[:80]!r} ({type(e).__name__})") from None
        if status not in STATUSES:
            raise SystemExit(f"{path}:{n}: status {status!r}: expected killed, timeout, survived or uncovered")
        yield n, record, fields


def known_kills(path: Path, mutants: list[Mutant]) -> dict[str, Verdict]:
    """The kills recorded in an earlier ``--out`` file, for the same mutants of the same source: a kill
    stays a kill (tests are only added); a survivor is judged again, by the tests written since."""
    by_id = {m.id: m for m in mutants}
    known: dict[str, Verdict] = {}
    for _, record, fields in read_verdict_lines(path, "--resume"):
        m = by_id.get(record["id"])
        if m is not None and asdict(m) == record and fields[0] in ("killed", "timeout"):
            known[m.id] = Verdict(m, *fields)
    return known


def score(verdicts: list[Verdict]) -> float:
    killed = sum(v.status in ("killed", "timeout") for v in verdicts)
    return killed / len(verdicts) if verdicts else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("system", choices=sorted(SYSTEMS))
    ap.add_argument("--mutants", type=int, default=200, help="how many mutants to sample (default 200)")
    ap.add_argument("--seed", type=int, default=1,
                    help="the sample's seed (default 1: with 200 mutants, the sample of record, tools/mutants-sample.txt)")
    ap.add_argument("--fresh", action="store_true", help="draw the sample from the seed even for seed 1 and 200 mutants")
    ap.add_argument("--out", default=None, help="write every verdict as JSON lines to this file")
    ap.add_argument("--list", action="store_true", help="print the sampled mutants and stop")
    ap.add_argument("--ids", default="", metavar="ID,ID,…",
                    help="judge only these mutants of the sample (e.g. the survivors of an earlier run, after new tests)")
    ap.add_argument("--tests", nargs="+", default=None, metavar="TEST",
                    help="run these test paths or node ids against each mutant instead of the mapped ones")
    ap.add_argument("--slow", action="store_true",
                    help="judge every mutant in a fresh interpreter (the reference the fast judge is checked against)")
    ap.add_argument("--resume", default=None, metavar="FILE",
                    help="keep the kills of an earlier --out file (same sample); its survivors and the rest are judged")
    a = ap.parse_args(argv)
    ms = sample(a.system, a.mutants, a.seed, fresh=a.fresh)
    if a.ids:
        wanted = {x.strip() for x in a.ids.split(",") if x.strip()}
        missing = sorted(wanted - {m.id for m in ms})
        if missing:
            ap.error(f"--ids: not in the sample of {a.system} (--mutants {a.mutants} --seed {a.seed}): {', '.join(missing)}")
        ms = [m for m in ms if m.id in wanted]
    if a.list:
        for m in ms:
            print(f"{m.id}\t{m.path}:{m.line}\t{m.op}")
        return 0
    known = known_kills(Path(a.resume), ms) if a.resume else {}
    verdicts = []
    fh = open(a.out, "w", encoding="utf-8") if a.out else None  # noqa: SIM115
    try:
        for v in run_mutants(a.system, ms, tests=a.tests, slow=a.slow, known=known):
            verdicts.append(v)
            if fh:
                fh.write(verdict_line(v))
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
