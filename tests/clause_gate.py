"""The clause coverage gate (issue 10): a clause counts as tested only when a test marked with it
executes the code that implements it.

``make clause-gate`` runs the rule-marked tests with this plugin (``-p tests.clause_gate``). It
records, per test, the lines of ``sim``, ``agents`` and ``scenarios`` that the test executes (in
its process: setup and call), through ``sys.monitoring`` (each line reported once per test, then
disabled until the next test), and at the end checks every clause of RULES.md against the index of
``tools/clause_index.py``: some test marked with the clause must execute one of the statements tied
to it. It prints every clause that fails, with where its code is and which tests name it, and the
run fails. ``REALMSIM_CLAUSE_GATE_REPORT=FILE`` also writes the whole table as JSON.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from clause_index import PACKAGES, build_index  # noqa: E402

sys.path.pop(0)

_TOOL = 5  # a sys.monitoring tool id of our own (0-2 and 5 are free of the debugger, coverage, profiler)
_PREFIXES = tuple(str(ROOT / p) + os.sep for p in PACKAGES)

_hits: set[tuple[str, int]] = set()
_by_clause: dict[str, set[tuple[str, int]]] = defaultdict(set)
_tests_of: dict[str, list[str]] = defaultdict(list)
_ran_clauses: set[str] = set()


def _on_line(code: Any, line: int) -> Any:
    fn = code.co_filename
    if fn.startswith(_PREFIXES):
        _hits.add((fn, line))
    return sys.monitoring.DISABLE


def pytest_configure(config: pytest.Config) -> None:
    mon = sys.monitoring
    mon.use_tool_id(_TOOL, "realmsim-clause-gate")
    mon.register_callback(_TOOL, mon.events.LINE, _on_line)
    mon.set_events(_TOOL, mon.events.LINE)


def _clauses_of(item: pytest.Item) -> list[str]:
    return [c for m in item.iter_markers("rule") for c in m.args if isinstance(c, str)]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    clauses = _clauses_of(item)
    _hits.clear()
    sys.monitoring.restart_events()  # every line reports again for this test
    yield
    for c in clauses:
        _by_clause[c] |= _hits
        _tests_of[c].append(item.nodeid)
        _ran_clauses.add(c)
    _hits.clear()


def gate(index: dict[str, list[tuple[str, int, int]]], clauses: list[str]) -> list[dict[str, Any]]:
    """One row per clause: whether a test marked with it executed its code."""
    rows = []
    for c in clauses:
        spans = index.get(c, [])
        hit = _by_clause.get(c, set())
        exercised = [f"{p}:{a}" for p, a, b in spans
                     if any((str(ROOT / p), ln) in hit for ln in range(a, b + 1))]
        rows.append({"clause": c, "code": [f"{p}:{a}" for p, a, _ in spans], "tests": _tests_of.get(c, []),
                     "exercised": exercised, "ok": bool(spans) and bool(exercised)})
    return rows


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    sys.monitoring.set_events(_TOOL, 0)
    sys.monitoring.free_tool_id(_TOOL)
    from tests.test_clause_coverage import IMPLEMENTED, all_clauses, system_of

    clauses = [c for c in all_clauses() if system_of(c) in IMPLEMENTED]
    rows = gate(build_index(), clauses)
    report = os.environ.get("REALMSIM_CLAUSE_GATE_REPORT")
    if report:
        Path(report).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    bad = [r for r in rows if not r["ok"]]
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    write = tr.write_line if tr else print
    write(f"clause gate: {len(rows) - len(bad)} of {len(rows)} clauses executed by a test that names them")
    for r in bad:
        why = ("no code is tied to it (tools/clause_index.py)" if not r["code"] else
               "no test names it" if not r["tests"] else
               f"the {len(r['tests'])} test(s) naming it never execute its code at {', '.join(r['code'][:4])}")
        write(f"  {r['clause']}: {why}")
    if bad and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
