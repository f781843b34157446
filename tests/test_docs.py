"""The scenario-format reference is generated from the schema and must be current."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_scenario_doc  # noqa: E402


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_scenario_format_reference_is_current() -> None:
    current = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    assert current == gen_scenario_doc.render(), "run .venv/bin/python tools/gen_scenario_doc.py and commit docs/scenario-format.md"


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_reference_names_every_top_level_table() -> None:
    from scenarios.schema import Scenario

    text = gen_scenario_doc.render()
    for name in Scenario.__struct_fields__:
        assert f"| `{name}` |" in text, name
