"""A real ``realmsim serve`` in a subprocess (uvicorn on a free port), run from the tests' source
snapshot (tests/workers/conftest.py), driven over HTTP with httpx."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import _free_port

ACTIVE = ("queued", "running")


class Server:
    def __init__(self, src: Path, data_dir: Path, log: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.src = src
        self.data_dir = data_dir
        self.log_path = log
        self.args = list(args)
        self.extra_env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.headers: dict[str, str] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.src)
        env["REALMSIM_STATE_DIR"] = str(self.data_dir.parent / "state")
        env.update(self.extra_env)
        return env

    def start(self, timeout: float = 60) -> Server:
        self.port = _free_port()
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "workers.cli", "serve", "--port", str(self.port), "--data-dir", str(self.data_dir),
             "--max-campaigns", "2", "--batch-workers", "1", *self.args],
            cwd=self.src, env=self.env(), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the server did not answer /healthz in {timeout} s:\n{self.log()}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError(f"the server did not stop within {timeout} s of signal {sig}") from None
        return self.proc.returncode

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def client(self, **kw: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60, headers=self.headers, **kw)

    # ---- helpers -------------------------------------------------------------------------------
    def post(self, path: str, body: Any) -> httpx.Response:
        with self.client() as c:
            return c.post(path, json=body)

    def get(self, path: str, **params: Any) -> httpx.Response:
        with self.client() as c:
            return c.get(path, params=params)

    def wait(self, kind: str, ident: str, timeout: float = 120, until: tuple[str, ...] = ()) -> dict[str, Any]:
        """Poll a campaign or batch until it is no longer queued or running (or its status is in ``until``)."""
        deadline = time.monotonic() + timeout
        with self.client() as c:
            while time.monotonic() < deadline:
                rec = c.get(f"/v1/{kind}/{ident}").json()
                if rec["status"] not in ACTIVE or rec["status"] in until:
                    return rec
                time.sleep(0.1)
        raise AssertionError(f"{kind} {ident} still {rec['status']} after {timeout} s:\n{self.log()[-3000:]}")

    def sse(self, path: str, headers: dict[str, str] | None = None, timeout: float = 120) -> list[tuple[str, str | None, Any]]:
        """Read a server-sent event stream to its end: [(event, id, data)]."""
        out: list[tuple[str, str | None, Any]] = []
        event, ident, data = "message", None, []
        with self.client() as c, c.stream("GET", path, headers=headers or {}, timeout=timeout) as r:
            assert r.status_code == 200, r.read()
            assert r.headers["content-type"].startswith("text/event-stream")
            for line in r.iter_lines():
                if line.startswith(":"):
                    continue
                if not line:
                    if data:
                        out.append((event, ident, json.loads("\n".join(data))))
                        if event in ("end", "shutdown"):
                            return out
                    event, ident, data = "message", None, []
                    continue
                field, _, value = line.partition(": ")
                if field == "event":
                    event = value
                elif field == "id":
                    ident = value
                elif field == "data":
                    data.append(value)
        return out


def problem_paths(r: httpx.Response) -> list[str]:
    body = r.json()
    assert set(body) >= {"error", "message", "problems"}, body
    return [p["path"] for p in body["problems"]]


@pytest.fixture
def make_server(snapshot: Path, tmp_path: Path) -> Iterator[Any]:
    started: list[Server] = []

    def make(*args: str, data_dir: Path | None = None, env: dict[str, str] | None = None) -> Server:
        s = Server(snapshot, data_dir or tmp_path / "data", tmp_path / f"server{len(started)}.log", *args, env=env)
        started.append(s)
        return s

    yield make
    for s in started:
        if s.proc is not None and s.proc.poll() is None:
            s.stop(signal.SIGTERM, timeout=30)


@pytest.fixture(scope="module")
def server(snapshot: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a module's tests (local mode, no tokens)."""
    tmp = tmp_path_factory.mktemp("server")
    s = Server(snapshot, tmp / "data", tmp / "server.log").start()
    try:
        yield s
    finally:
        code = s.stop()
        assert code == 0, s.log()[-3000:]
