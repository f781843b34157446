"""docs/resolutions.md lists every choice the engine makes that RULES.md does not, and stays true:
each entry names clauses RULES.md defines and configuration keys that exist; the code that makes a
choice carries a ``# resolution: ENG-…`` comment naming its entry; every entry has such a comment in
``sim/rules`` and every comment names an entry."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from sim.config import Config

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "resolutions.md"
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
KNOWN = set(re.findall(r"\*\*((?:GEN|KM|MN|GW|CV|RES|SC|LINK)-[A-Z0-9-]+)\*\* `\[", RULES))
CLAUSE = re.compile(r"\b(?:GEN|KM|MN|GW|CV|RES|SC|LINK)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
MARKER = re.compile(r"#\s*resolution:\s*(\S+)")
ENTRY_ID = re.compile(r"^ENG-(?:CV|GW|KM|MN|LINK)-\d\d$")


def rows() -> list[list[str]]:
    """Every row of the tables in the document, cells stripped (header and rule rows left out)."""
    out = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or set(line) <= {"|", "-", " "}:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("ID", "Behaviour", "What the engine did"):
            continue
        out.append(cells)
    return out


def entries() -> dict[str, list[str]]:
    got: dict[str, list[str]] = {}
    for cells in rows():
        if cells[0].startswith("ENG-"):
            assert ENTRY_ID.match(cells[0]), f"a malformed entry ID {cells[0]!r}"
            assert cells[0] not in got, f"{cells[0]} is listed twice"
            assert len(cells) == 5, f"{cells[0]}: expected 5 cells (ID, resolution, clauses, why, config key), found {len(cells)}"
            got[cells[0]] = cells
    return got


def markers() -> dict[str, list[str]]:
    """``# resolution: …`` comments in the engine's rules and state: ID → where."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "sim").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = MARKER.search(line)
            if m:
                found.setdefault(m.group(1), []).append(f"{path.relative_to(ROOT)}:{n}")
    return found


def test_the_document_lists_entries_for_every_system() -> None:
    ids = entries()
    assert {i.split("-")[1] for i in ids} == {"CV", "GW", "KM", "MN", "LINK"}
    assert len(ids) >= 40


@pytest.mark.parametrize("cells", rows(), ids=lambda c: c[0][:40])
def test_every_row_names_clauses_that_rules_md_defines(cells: list[str]) -> None:
    clause_cell = cells[2] if cells[0].startswith("ENG-") else cells[1]
    named = CLAUSE.findall(clause_cell)
    assert named, f"{cells[0]}: no clause named in {clause_cell!r}"
    unknown = [c for c in named if c not in KNOWN]
    assert not unknown, f"{cells[0]}: {unknown} are not clauses of RULES.md"


def test_every_config_key_of_an_entry_exists() -> None:
    defaults = msgspec.to_builtins(Config())
    for eid, cells in entries().items():
        for key in re.findall(r"`([a-z]+)\.([a-z_]+)`", cells[4]):
            system, name = key
            assert name in defaults.get(system, {}), f"{eid}: no configuration key {system}.{name}"
        assert cells[4] == "—" or re.findall(r"`[a-z]+\.[a-z_]+`", cells[4]), f"{eid}: config cell {cells[4]!r}"


def test_every_entry_is_marked_in_the_code_and_every_marker_has_an_entry() -> None:
    ids = set(entries())
    found = markers()
    unmarked = sorted(ids - set(found))
    assert not unmarked, f"entries with no '# resolution: ID' comment in sim/: {unmarked}"
    stray = {m: where for m, where in found.items() if m not in ids}
    assert not stray, f"'# resolution:' comments naming no entry of docs/resolutions.md: {stray}"
