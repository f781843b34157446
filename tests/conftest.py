"""Shared fixtures.

``redis_server`` starts a private ``redis-server`` on a free port for the tests that need one (never
the machine's own server on 6379). Without ``redis-server`` on PATH those tests are skipped with a
reason, unless ``REQUIRE_REDIS=1`` (set by ``.ci/run``), which makes them fail instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Every campaign a test runs (in this process or in a subprocess it starts) checks every driver's
# invariants at each season boundary and when it stops; a violation raises InvariantError.
os.environ["REALMSIM_CHECK_INVARIANTS"] = "1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        exe = shutil.which("redis-server")
        assert exe
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.tmp), "--logfile", str(self.tmp / "redis.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def restart(self) -> None:
        """Stop and start again on the same port (nothing is persisted: the data is lost)."""
        self.stop()
        self.start()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail("REQUIRE_REDIS=1 but redis-server is not installed (Debian package redis-server)")
        pytest.skip("redis-server is not installed (install Debian's redis-server; CI sets REQUIRE_REDIS=1)")
    srv = RedisServer(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
