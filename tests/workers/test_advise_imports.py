"""A one-shot command imports only what it uses (issue 27, item 7; issue 26, item 3): ``realmsim advise``
and ``state export`` play the campaign to the faction's decision with the Mesa model and its Mesa agents
(Mesa brings numpy, pandas, scipy and networkx with it), but nothing else — no plotting, no Redis, no
web server; ``validate`` and ``--help`` import none of the heavy packages, not even Mesa; ``report`` reads
tables and draws (pandas, matplotlib) without the engine's Mesa; a pool or worker job process imports
the engine and nothing of the queue, the server or the report. Their speed is measured by
bench/bench_startup.py and bench/bench_advise.py, not here: this checks what a fresh process has
imported, so that a heavy import that comes back fails here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# (not pyarrow: pandas, which Mesa imports, imports it when it is installed)
HEAVY = ("mesa", "matplotlib", "duckdb", "redis", "litestar", "uvicorn", "openskill")
# every package that costs a start-up more than a few milliseconds (bench/bench_startup.py)
ALL_HEAVY = ("mesa", "numpy", "pandas", "pyarrow", "scipy", "networkx", "simpy", "matplotlib", "duckdb", "redis",
             "litestar", "uvicorn", "openskill", "hiredis")


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


def _heavy_after(code: str) -> set[str]:
    """The packages of ``ALL_HEAVY`` a fresh process has imported after running ``code``."""
    code += f"\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(ALL_HEAVY)!r}))))\n"
    out = subprocess.run([sys.executable, "-c", "import json, sys\n" + code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def _command(argv: list[str]) -> str:
    return ("import contextlib, io\n"
            "from workers.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n"
            f"        code = main({argv!r})\n"
            "    except SystemExit as e:\n"
            "        code = e.code\n"
            "assert code == 0, code\n")


@pytest.mark.slow  # a fresh process each: about half a second
@pytest.mark.parametrize("argv", [["--help"], ["validate", "caravan-crossing"], ["validate", "realm"]])
def test_help_and_validate_import_no_heavy_package(argv: list[str]) -> None:
    assert _heavy_after(_command(argv)) == set()


@pytest.mark.slow  # a campaign, then a fresh process that reports it: a few seconds
def test_a_report_imports_pandas_and_matplotlib_but_not_the_engines_mesa(tmp_path: Path) -> None:
    ledger = str(tmp_path / "c.msgpack")
    assert _heavy_after(_command(["run", "caravan-crossing", "--until", "2d", "--ledger", ledger])) >= {"mesa"}
    got = _heavy_after(_command(["report", ledger, "--out", str(tmp_path / "rep")]))
    assert {"pandas", "matplotlib"} <= got
    assert got - {"pandas", "pyarrow", "numpy", "matplotlib"} == set()


@pytest.mark.slow  # a fresh process: about a second
def test_a_job_process_imports_the_engine_and_nothing_of_the_queue_server_or_report() -> None:
    got = _heavy_after("from workers.job import preload\nassert preload()[1] == ''\nimport workers.local_child\n"
                       "import workers.forkserver\n")
    assert "mesa" in got
    assert got & {"matplotlib", "duckdb", "redis", "hiredis", "litestar", "uvicorn", "openskill"} == set()
