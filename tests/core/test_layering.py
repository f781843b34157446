"""Imports flow one way: sim ← scenarios ← agents ← workers (DESIGN.md); inside ``sim.rules`` the
four systems never import one another nor the links, which sit above them (LINK-09, issue 11)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from sim import registry

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


SYSTEMS = tuple(s.name for s in registry.SYSTEMS)  # the built-in systems (a test may register more)


def rules_imports(path: Path) -> set[str]:
    """Every ``sim.rules.<name>`` a module imports, at the top or inside a function, in any form
    (``import sim.rules.x``, ``from sim.rules import x``, ``from sim.rules.x import y``, relative)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(ROOT).with_suffix("").parts  # ("sim", "rules", "gw", "core")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = list(here[:-node.level]) if here[-1] != "__init__" else list(here[: len(here) - node.level])
                base = ".".join([*pkg, *([base] if base else [])])
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            parts = n.split(".")
            if parts[:2] == ["sim", "rules"] and len(parts) > 2:
                out.add(parts[2])
    return out


def test_each_system_is_a_package() -> None:
    for sysname in SYSTEMS:
        pkg = ROOT / "sim" / "rules" / sysname
        assert (pkg / "__init__.py").is_file(), f"sim/rules/{sysname}/ is not a package"
    left = sorted(p.name for p in (ROOT / "sim" / "rules").glob("*.py") if p.stem not in ("__init__", "links"))
    assert left == [], f"rule modules outside the system packages: {left}"


@pytest.mark.parametrize("sysname", SYSTEMS)
def test_a_system_imports_neither_another_system_nor_the_links(sysname: str) -> None:
    bad = []
    for path in sorted((ROOT / "sim" / "rules" / sysname).rglob("*.py")):
        hit = rules_imports(path) - {sysname}
        if hit:
            bad.append(f"{path.relative_to(ROOT)} imports sim.rules.{sorted(hit)}")
    assert not bad, bad


def test_the_layering_check_sees_every_form_of_import(tmp_path: Path) -> None:
    """The check above would pass on an empty package: show it catches each way of importing."""
    pkg = ROOT / "sim" / "rules" / "gw"
    forms = ["from sim.rules import links", "import sim.rules.km.turn", "from sim.rules.cv import resolve_day",
             "def f():\n    from sim.rules import mn as dip\n", "from .. import links", "from ..km import x"]
    for i, form in enumerate(forms):
        probe = pkg / f"_probe_{i}.py"
        try:
            probe.write_text(form + "\n", encoding="utf-8")
            assert rules_imports(probe) - {"gw"}, form
        finally:
            probe.unlink()


@pytest.mark.parametrize("sysname", SYSTEMS)
def test_each_system_module_declares_its_public_names(sysname: str) -> None:
    missing = []
    for path in sorted((ROOT / "sim" / "rules" / sysname).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = [t for n in tree.body if isinstance(n, ast.Assign) for t in n.targets]
        targets += [n.target for n in tree.body if isinstance(n, ast.AnnAssign)]
        if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, f"modules without __all__: {missing}"


@pytest.mark.parametrize("sysname", SYSTEMS)
def test_each_system_exposes_the_one_legality_api(sysname: str) -> None:
    import importlib

    mod = importlib.import_module(f"sim.rules.{sysname}")
    for name in ("legal_orders", "check", "play", "given", "broken_invariants"):
        assert name in mod.__all__ and callable(getattr(mod, name)), f"sim.rules.{sysname} lacks {name}"
    for old in ("check_plan", "check_order", "launch_problem", "check_special", "is_legal", "legal_specials"):
        assert old not in mod.__all__, f"sim.rules.{sysname} still exports {old}"
    # its descriptor is the one the registry holds, and names the package's own functions
    system = mod.SYSTEM
    assert registry.get(sysname) is system and system.name == sysname
    assert system.play is mod.play and system.broken_invariants is mod.broken_invariants and system.check is mod.check


def test_the_registry_lists_the_systems_in_link_01_order() -> None:
    assert SYSTEMS == ("km", "mn", "gw", "cv")  # LINK-01: KM, MN, GW, then the convoys
    assert [s.phase for s in registry.systems()] == sorted(s.phase for s in registry.systems())
    assert registry.names()[:4] == SYSTEMS  # a registered system comes after them (its phase)
    assert len({s.faction_kind for s in registry.systems()}) == len(registry.systems())
