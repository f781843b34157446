"""``realmsim advise`` imports only what it needs (issue 27, item 7): the campaign it plays to the
faction's decision is the Mesa model with its Mesa agents (Mesa brings pandas, scipy and networkx with
it), but nothing the command does not use — no plotting, no Parquet, no Redis, no web server. Its speed
is measured by bench/bench_advise.py, not here: this checks what a fresh process has imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# (not pyarrow: pandas, which Mesa imports, imports it when it is installed)
HEAVY = ("mesa", "matplotlib", "duckdb", "redis", "litestar", "uvicorn", "openskill")


def _imported_after(argv: list[str]) -> list[str]:
    code = ("import contextlib, io, json, sys\n"
            "from workers.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main({argv!r})\n"
            f"print(json.dumps([code, sorted({{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r}))]))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    status, heavy = json.loads(out.splitlines()[-1])
    assert status == 0
    return list(heavy)


@pytest.mark.slow  # a fresh process per command: about a second each
@pytest.mark.parametrize("state", ["kingdom-restov", "guild-griffon", "nation-rome", "convoy-amber"])
def test_advise_imports_mesa_and_nothing_it_does_not_use(state: str) -> None:
    faction = {"kingdom-restov": "restov", "guild-griffon": "griffon", "nation-rome": "rome", "convoy-amber": "amber"}[state]
    assert _imported_after(["advise", f"docs/examples/{state}.state.toml", "--faction", faction, "--lang", "fr"]) == ["mesa"]


@pytest.mark.slow  # a fresh process: about a second
def test_a_state_export_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    assert _imported_after(["state", "export", "--scenario", "caravan-crossing", "--season", "0", "--out",
                            str(tmp_path / "s.toml")]) == ["mesa"]


@pytest.mark.slow  # a fresh process: about a second
def test_a_run_uses_mesa() -> None:
    """The Mesa model is what `run` plays (its data collectors feed the reports)."""
    assert "mesa" in _imported_after(["run", "caravan-crossing", "--until", "1d"])
