"""Where each RULES.md clause is implemented: the clause index of the coverage gate (issue 10).

A clause is tied to the code that implements it in one of two ways, both read from the source:

- its ID as a string in the code (``ledger.emit(..., ("KM-TRADE-09",), ...)``, an
  ``IllegalOrderError("GW-DEP-04", …)``): the innermost statement holding the string implements it;
- its ID in a function's docstring ("KM-DIP-06: per axis 0 / +5 / +15"): the function's first statement
  (the function implements it whenever it runs);
- a comment that names it (``# step 3 (SC-KM-11) is not simulated (RES-KM-33)``), or says so
  explicitly: ``# implements: SC-GW-08, GEN-02`` at the end of a line or on a line of its own (then it
  names the statement that follows): for clauses whose code names no ID (validation constraints,
  the dice contract).

``python tools/clause_index.py [CLAUSE…]`` prints the index (every clause, or those named).
``tests/clause_gate.py`` (``make clause-gate``) checks that for every clause at least one test marked
with it executes one of these statements.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "agents", "scenarios")  # where the rules live (workers only transport them)
CLAUSE_ID = re.compile(r"^(?:GEN|KM|MN|GW|CV|RES|SC|LINK)-[A-Z0-9]+(?:-[A-Z0-9]+)*$")
_IN_TEXT = re.compile(r"\b((?:GEN|KM|MN|GW|CV|RES|SC|LINK)-[A-Z]+(?:-[A-Z]+)*-\d+[a-z]?)\b")
_MARKER = re.compile(r"#\s*implements:\s*([A-Z0-9, -]+)")

Span = tuple[str, int, int]  # (path relative to ROOT, first line, last line)


def _innermost_statements(tree: ast.AST) -> dict[int, ast.stmt]:
    """For each node id: the innermost statement that holds it."""
    owner: dict[int, ast.stmt] = {}

    def visit(node: ast.AST, stmt: ast.stmt | None) -> None:
        if isinstance(node, ast.stmt):
            stmt = node
        if stmt is not None:
            owner[id(node)] = stmt
        for child in ast.iter_child_nodes(node):
            visit(child, stmt)

    visit(tree, None)
    return owner


def index_file(path: Path) -> dict[str, list[Span]]:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, str(path))
    rel = str(path.relative_to(ROOT))
    out: dict[str, list[Span]] = defaultdict(list)
    owner = _innermost_statements(tree)
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings \
                and CLAUSE_ID.match(node.value):
            st = owner.get(id(node))
            if st is not None and not isinstance(st, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                out[node.value].append((rel, st.lineno, st.end_lineno or st.lineno))
    # clause IDs in a function's docstring: the function's first statement after it
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(node.body) > 1 \
                and id(getattr(node.body[0], "value", None)) in docstrings:
            first = node.body[1]
            for cid in set(_IN_TEXT.findall(node.body[0].value.value)):  # type: ignore[attr-defined]
                out[cid].append((rel, first.lineno, first.end_lineno or first.lineno))
    # ``# implements:`` markers: the statement starting on that line, else the next one
    starts: dict[int, ast.stmt] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            starts.setdefault(node.lineno, node)
    lines = text.splitlines()
    for i, line in enumerate(lines, start=1):
        m = _MARKER.search(line)
        comment = line.split("#", 1)[1] if "#" in line else ""
        ids = [c.strip() for c in m.group(1).split(",")] if m else _IN_TEXT.findall(comment)
        if not ids or (not m and ('"' in comment or "'" in comment)):
            continue
        target = next((starts[j] for j in range(i, len(lines) + 1) if j in starts), None)
        if target is None:
            raise ValueError(f"{rel}:{i}: '# implements:' names no statement after it")
        for cid in ids:
            if cid:
                if not CLAUSE_ID.match(cid):
                    raise ValueError(f"{rel}:{i}: {cid!r} is not a clause ID")
                out[cid].append((rel, target.lineno, target.end_lineno or target.lineno))
    return out


def build_index() -> dict[str, list[Span]]:
    index: dict[str, list[Span]] = defaultdict(list)
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            for cid, spans in index_file(path).items():
                index[cid].extend(spans)
    return dict(index)


def main(argv: list[str]) -> int:
    index = build_index()
    for cid in argv or sorted(index):
        spans = index.get(cid, [])
        print(f"{cid}: " + (", ".join(f"{p}:{a}" + (f"-{b}" if b != a else "") for p, a, b in spans) or "NOT TIED TO CODE"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
