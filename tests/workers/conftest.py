"""Helpers for the worker-service tests.

Processes the tests start (workers, the CLI) run from a *snapshot* of the source tree taken once per
session: a job carries the code version of the process that made it, and a worker refuses a job of
another version, so a test must not see the sources change under it between submitting and working
(several engineers edit this checkout at once). The snapshot is the tree as it was when the session
started; with ``REALMSIM_SNAPSHOT=HEAD`` the engine packages (``sim``, ``scenarios``, ``agents``)
come from the last commit instead (``workers`` always from the working tree), for working beside
half-written engine code.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tiny.toml"
PACKAGES = ("sim", "scenarios", "agents", "workers")


@pytest.fixture(scope="session")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dst = tmp_path_factory.mktemp("src")
    from_head = os.environ.get("REALMSIM_SNAPSHOT") == "HEAD"
    for pkg in PACKAGES:
        if from_head and pkg != "workers":
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", pkg], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", str(dst)], input=archive.stdout, check=True)
        else:
            shutil.copytree(ROOT / pkg, dst / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(ROOT / "tests" / "data", dst / "data")
    return dst


class Procs:
    """Start processes from the snapshot; kill whatever is left at the end of the test."""

    def __init__(self, src: Path, tmp: Path) -> None:
        self.src = src
        self.tmp = tmp
        self.started: list[subprocess.Popen[bytes]] = []
        self.logs: dict[str, Path] = {}

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.src)
        env.setdefault("REALMSIM_STATE_DIR", str(self.tmp / "state"))
        env.update(extra)
        return env

    def cli(self, *args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
        """Run ``realmsim ARGS`` (as ``python -m workers.cli``) to completion."""
        return subprocess.run(
            [sys.executable, "-m", "workers.cli", *args],
            cwd=self.src, env=self.env(**env), capture_output=True, text=True, timeout=timeout,
        )

    def worker(self, url: str, name: str, *args: str, prefix: str = "t", env: dict[str, str] | None = None
               ) -> subprocess.Popen[bytes]:
        """Start ``python -m workers.worker`` (log to a file named after the worker; ``env``: more variables)."""
        log = self.tmp / f"{name}.log"
        self.logs[name] = log
        p = subprocess.Popen(
            [sys.executable, "-m", "workers.worker", "--redis", url, "--queue", prefix, "--name", name,
             "--log-level", "info", *args],
            cwd=self.src, env=self.env(**(env or {})), stdout=subprocess.DEVNULL, stderr=log.open("wb"),
        )
        self.started.append(p)
        return p

    def log(self, name: str) -> str:
        return self.logs[name].read_text(encoding="utf-8", errors="replace")

    def cleanup(self) -> None:
        for p in self.started:
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()


@pytest.fixture
def procs(snapshot: Path, tmp_path: Path) -> Iterator[Procs]:
    pr = Procs(snapshot, tmp_path)
    try:
        yield pr
    finally:
        pr.cleanup()


def wait_for(cond: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def seeds_in(table: Path) -> list[str]:
    """The ``seed`` column of a campaign table written as CSV (workers/tidy.py), in row order."""
    import csv

    with table.open(encoding="utf-8", newline="") as f:
        return [row["seed"] for row in csv.DictReader(f)]
