"""Files from outside are read with a size cap and never block or fill memory (issue 30):
scenarios.inputs, the caps of scenarios.limits.FILE_CAPS and their variables, and the commands that
read a scenario, state, save or ledger file through them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from scenarios.inputs import InputFileError, open_input, read_input
from scenarios.limits import FILE_CAPS, GIB, MIB, FileCapError, file_cap, parse_bytes, size_text
from scenarios.loader import load_scenario
from sim.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workers.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=timeout)


# ---- the caps -----------------------------------------------------------------------------------------
def test_every_input_kind_has_a_documented_cap_and_a_variable() -> None:
    assert {k: (c.default, c.env) for k, c in FILE_CAPS.items()} == {
        "scenario": (4 * MIB, "REALMSIM_MAX_SCENARIO_BYTES"),
        "orders": (1 * MIB, "REALMSIM_MAX_ORDERS_BYTES"),
        "save": (1 * GIB, "REALMSIM_MAX_SAVE_BYTES"),
        "ledger": (1 * GIB, "REALMSIM_MAX_LEDGER_BYTES"),
        "table": (1 * GIB, "REALMSIM_MAX_TABLE_BYTES"),
        "manifest": (64 * MIB, "REALMSIM_MAX_MANIFEST_BYTES"),
        "tokens": (1 * MIB, "REALMSIM_MAX_TOKENS_BYTES"),
    }
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for c in FILE_CAPS.values():
        assert f"`{c.env}`" in readme and size_text(c.default) in readme, c.env


@pytest.mark.parametrize(("text", "expected"), [("1048576", 1048576), ("64K", 64 * 1024), ("64M", 64 * MIB),
                                                ("2G", 2 * GIB), ("2GiB", 2 * GIB), (" 3m ", 3 * MIB), ("1T", 1024 * GIB)])
def test_a_cap_is_a_number_of_bytes_with_an_optional_binary_unit(text: str, expected: int) -> None:
    assert parse_bytes(text) == expected


@pytest.mark.parametrize("text", ["", "x", "0", "-1", "1.5M", "2P", "1T1", "99999999999999999", "2049G"])
def test_a_malformed_cap_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_bytes(text)


def test_a_variable_sets_the_cap_and_a_bad_one_says_which() -> None:
    assert file_cap("ledger", {"REALMSIM_MAX_LEDGER_BYTES": "2G"}) == 2 * GIB
    assert file_cap("ledger", {}) == GIB
    with pytest.raises(FileCapError, match=r"\$REALMSIM_MAX_SAVE_BYTES: expected a size in bytes from 1 to 1T "
                                           r"\(e\.g\. 1048576, 64M, 2G\), found 'lots'"):
        file_cap("save", {"REALMSIM_MAX_SAVE_BYTES": "lots"})


# ---- reading one file ---------------------------------------------------------------------------------
def test_a_directory_is_not_read(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r": expected a ledger \(a regular file\), found a directory$"):
        read_input(tmp_path, "ledger")


def test_a_device_is_not_read() -> None:
    with pytest.raises(InputFileError, match=r"/dev/zero: expected a save file \(a regular file\), found a character device"):
        read_input("/dev/zero", "save")


def test_a_fifo_nobody_writes_to_neither_blocks_nor_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(InputFileError, match=r"expected a ledger \(a regular file\), found a named pipe \(FIFO\)"):
        read_input(fifo, "ledger")
    assert time.monotonic() - t0 < 5


def test_a_file_over_its_cap_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(4 * MIB + 1)  # sparse: nothing is written
    with pytest.raises(InputFileError, match=r"expected a scenario or state file of at most 4 MiB "
                                             r"\(\$REALMSIM_MAX_SCENARIO_BYTES sets another limit\), found 4 194 305 bytes"):
        read_input(big, "scenario")
    monkeypatch.setenv("REALMSIM_MAX_SCENARIO_BYTES", "5M")
    assert len(read_input(big, "scenario")) == 4 * MIB + 1


def test_a_file_that_grows_past_its_cap_while_read_is_stopped_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "l.msgpack"
    p.write_bytes(b"x" * 100)
    monkeypatch.setenv("REALMSIM_MAX_LEDGER_BYTES", "200")
    with open_input(p, "ledger") as f:
        p.write_bytes(b"x" * 1000)  # the same inode, longer now
        with pytest.raises(InputFileError, match=r"a ledger of at most 200 bytes .*found more than"):
            f.read()


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r"nope\.save: expected a save file, found no such file"):
        read_input(tmp_path / "nope.save", "save")


# ---- the commands -------------------------------------------------------------------------------------
def test_a_scenario_over_its_cap_is_a_problem_of_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "s.toml"
    p.write_text("# " + "x" * 3000 + "\n", encoding="utf-8")
    monkeypatch.setenv("REALMSIM_MAX_SCENARIO_BYTES", "2K")
    with pytest.raises(ScenarioError, match=r"s\.toml: \(file\): expected a scenario or state file of at most 2 KiB "
                                            r"\(\$REALMSIM_MAX_SCENARIO_BYTES sets another limit\), found 3 003 bytes"):
        load_scenario(str(p))


def test_a_fifo_as_a_scenario_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "s.toml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match=r"\(file\): expected a scenario or state file \(a regular file\), found a named pipe"):
        load_scenario(str(fifo))


def test_an_orders_file_over_its_cap_is_a_problem_of_its_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scenarios.files import gather

    (tmp_path / "o.toml").write_text("x" * 300, encoding="utf-8")
    monkeypatch.setenv("REALMSIM_MAX_ORDERS_BYTES", "100")
    got = gather('[[kingdoms]]\norders_file = "o.toml"\n', tmp_path)["o.toml"]
    assert got.text is None and got.found == "300 bytes"
    assert got.expected == "an orders file of at most 100 bytes ($REALMSIM_MAX_ORDERS_BYTES sets another limit)"


@pytest.mark.slow  # subprocesses: left out of make test-fast
@pytest.mark.parametrize(("args", "message"), [
    (["validate", "{big}"], "{big}: (file): expected a scenario or state file of at most 1 KiB"),
    (["run", "{big}"], "{big}: (file): expected a scenario or state file of at most 1 KiB"),
    (["advise", "{big}", "--faction", "restov"], "{big}: (file): expected a scenario or state file of at most 1 KiB"),
    (["state", "export", "--scenario", "{big}", "--season", "1", "--out", "-"],
     "{big}: (file): expected a scenario or state file of at most 1 KiB"),
    (["resume", "{save}"], "{save}: expected a save file of at most 1 KiB ($REALMSIM_MAX_SAVE_BYTES sets another limit)"),
    (["state", "export", "{save}", "--out", "-"], "{save}: expected a save file of at most 1 KiB"),
    (["report", "{ledger}", "--out", "{tmp}/r"], "{ledger}: expected a ledger of at most 1 KiB"),
    (["report", "{table}", "--out", "{tmp}/r"], "{table}: expected a batch results table of at most 1 KiB"),
])
def test_every_command_refuses_a_file_over_its_cap(tmp_path: Path, args: list[str], message: str) -> None:
    files = {"big": tmp_path / "big.toml", "save": tmp_path / "x.save", "ledger": tmp_path / "x.msgpack",
             "table": tmp_path / "b.csv"}
    for p in files.values():
        p.write_bytes(b"#" * 2000)
    names = {k: str(v) for k, v in files.items()} | {"tmp": str(tmp_path)}
    env = {f"REALMSIM_MAX_{k}_BYTES": "1K" for k in ("SCENARIO", "SAVE", "LEDGER", "TABLE")}
    r = _cli(*[a.format(**names) for a in args], env=env)
    assert r.returncode == 2, r.stderr
    assert message.format(**names) in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow  # a subprocess
def test_a_malformed_cap_in_the_environment_is_exit_2() -> None:
    r = _cli("validate", "guild-war", env={"REALMSIM_MAX_SCENARIO_BYTES": "a lot"})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "$REALMSIM_MAX_SCENARIO_BYTES: expected a size in bytes from 1 to 1T" in r.stderr


@pytest.mark.slow  # subprocesses
@pytest.mark.parametrize("command", ["report", "resume"])
@pytest.mark.parametrize("what", ["directory", "/dev/zero", "fifo"])
def test_report_and_resume_of_a_directory_a_device_or_a_fifo_are_clear_errors(tmp_path: Path, command: str,
                                                                                what: str) -> None:
    if what == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    else:
        path = tmp_path if what == "directory" else Path(what)
    args = [command, str(path)] + (["--out", str(tmp_path / "r")] if command == "report" else [])
    r = _cli(*args, timeout=30)  # before issue 30: IsADirectoryError, MemoryError, or a hang
    assert r.returncode == 2, r.stderr[-500:]
    found = {"directory": "a directory", "/dev/zero": "a character device", "fifo": "a named pipe (FIFO)"}[what]
    assert f"(a regular file), found {found}" in r.stderr and "Traceback" not in r.stderr


def test_a_batch_table_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    from workers.report import ReportError, read_batch

    fifo = tmp_path / "b.csv"
    os.mkfifo(fifo)  # pandas would wait for a writer for ever
    with pytest.raises(ReportError, match=r"b\.csv: expected a batch results table \(a regular file\), found a named pipe"):
        read_batch(fifo)


# ---- the files the services read: a batch manifest (collect --manifest), a tokens file (serve --tokens)
@pytest.mark.parametrize("special", ["/dev/zero", "/tmp"])
@pytest.mark.redis
def test_collect_manifest_that_is_not_a_regular_file_is_one_line(redis_server: Any, tmp_path: Path, special: str) -> None:
    """/dev/zero was read whole (MemoryError) and a directory was IsADirectoryError's message only."""
    r = _cli("collect", "b-1", "--redis", redis_server.url, "--manifest", special, "--timeout", "1",
             "--out", str(tmp_path / "r.csv"))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert re.search(rf"cannot read the batch manifest {special}: expected a batch manifest", r.stderr), r.stderr


def test_serve_tokens_over_its_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "tokens"
    big.write_text("# " + "x" * (2 * MIB) + "\n")
    r = _cli("serve", "--tokens", str(big), "--port", "1")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert re.search(r"--tokens '.*tokens': expected a tokens file of at most 1 MiB .*REALMSIM_MAX_TOKENS_BYTES", r.stderr), r.stderr
