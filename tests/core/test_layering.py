"""Imports flow one way: sim ← scenarios ← agents ← workers (DESIGN.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FORBIDDEN = {
    "sim": {"mesa", "redis", "agents", "workers", "scenarios", "pandas"},
    "scenarios": {"mesa", "redis", "agents", "workers"},
    "agents": {"redis", "workers"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_against_the_layers(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        hit = imported_roots(path) & FORBIDDEN[package]
        if hit:
            bad.append(f"{path.relative_to(ROOT)} imports {sorted(hit)}")
    assert not bad, bad


def test_importing_sim_rules_loads_neither_mesa_nor_redis() -> None:
    code = (
        "import importlib, pkgutil, sys, sim, sim.rules\n"
        "for m in pkgutil.walk_packages(sim.__path__, 'sim.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('mesa', 'redis', 'agents', 'workers'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"
