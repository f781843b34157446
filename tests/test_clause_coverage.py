"""Every clause of an implemented system is named by at least one test.

A test names a clause with ``@pytest.mark.rule("CV-TRAV-05", ...)`` (decorator, ``pytestmark`` or
``pytest.param(..., marks=pytest.mark.rule(...))``). This reads the test sources' syntax trees, so
a clause ID in a comment or a string elsewhere does not count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"

# Systems whose every clause must be named by a test. A system joins when its issue lands.
IMPLEMENTED = {"GEN", "CV", "MN", "GW", "KM", "LINK"}

_CLAUSE = re.compile(r"\*\*((?:GEN|KM|MN|GW|CV|RES|SC|LINK)-[A-Z0-9-]+)\*\* `\[")


def system_of(clause: str) -> str:
    parts = clause.split("-")
    if parts[0] in ("RES", "SC"):
        return parts[1]
    return parts[0]


def all_clauses() -> list[str]:
    return sorted(set(_CLAUSE.findall(RULES.read_text(encoding="utf-8"))))


def named_in_tests() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "rule":
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        names.add(arg.value)
    return names


def test_rules_document_has_all_375_clauses() -> None:
    # RULES.md §10 counts 375 clauses; a parsing slip here would hide untested clauses.
    assert len(all_clauses()) == 375


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize("system", sorted(IMPLEMENTED))
def test_every_clause_of_implemented_system_is_tested(system: str) -> None:
    named = named_in_tests()
    missing = [c for c in all_clauses() if system_of(c) == system and c not in named]
    assert not missing, f"{system}: no test names {len(missing)} clause(s): {', '.join(missing)}"


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_marked_clause_ids_exist() -> None:
    known = set(all_clauses())
    unknown = sorted(c for c in named_in_tests() if c not in known)
    assert not unknown, f"tests name clause IDs that RULES.md does not define: {unknown}"
