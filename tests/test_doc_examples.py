"""The documented examples are what the commands print (tools/doc_examples.py writes them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import doc_examples  # noqa: E402


@pytest.mark.slow  # it runs every documented command: a few seconds
def test_every_documented_example_is_what_its_command_prints() -> None:
    stale = [str(p.relative_to(ROOT)) for p, text in doc_examples.expected().items()
             if not p.exists() or p.read_text(encoding="utf-8") != text]
    assert stale == [], "run .venv/bin/python tools/doc_examples.py and commit: " + ", ".join(stale)


def test_a_marked_block_is_the_command_and_what_it_printed() -> None:
    text = "before\n<!-- example: realmsim scenarios | head 2 -->\nold output\n<!-- /example -->\nafter\n"
    got = doc_examples.render_markdown(text)
    lines = got.splitlines()
    assert lines[:3] == ["before", "<!-- example: realmsim scenarios | head 2 -->", "```console"]
    assert lines[3] == "$ realmsim scenarios"
    assert lines[4].startswith("caravan-crossing ") and lines[6] == "…"  # two lines, then what was left out
    assert lines[7:] == ["```", "<!-- /example -->", "after"]
    assert doc_examples.render_markdown(got) == got  # written once, it stays


def test_the_docs_have_marked_examples_for_every_faction_kind() -> None:
    marked = "".join(p.read_text(encoding="utf-8") for p in doc_examples.markdown_files())
    for state in ("kingdom-restov", "guild-griffon", "nation-rome", "convoy-amber"):
        assert f"<!-- example: realmsim advise docs/examples/{state}.state.toml" in marked, state
        assert (ROOT / "docs" / "examples" / f"{state}.advice.txt").exists()
        assert (ROOT / "docs" / "examples" / f"{state}.advice.fr.txt").exists()
