"""A private redis-server for a benchmark: a free port, a temporary folder, nothing persisted.

(The same logic as the tests' ``redis_server`` fixture, kept apart so the benchmarks need no pytest.)
Never the machine's own server on 6379.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """redis-server on a free port in ``folder``; ``start`` again after ``stop`` (same port, same folder:
    with ``appendonly`` it comes back with its data)."""

    def __init__(self, folder: str, *, appendonly: bool = False) -> None:
        self.folder = folder
        self.port = free_port()
        self.appendonly = appendonly
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            sys.exit("redis-server is not installed (Debian package redis-server)")
        persist = ["--appendonly", "yes", "--appendfsync", "always"] if self.appendonly else ["--appendonly", "no"]
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *persist,
             "--dir", self.folder, "--logfile", os.path.join(self.folder, "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        """SHUTDOWN (SIGTERM): with appendonly, the AOF is flushed."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """Start redis-server on a free port, nothing persisted; yield its URL; stop it."""
    with tempfile.TemporaryDirectory(prefix="realmsim-bench-redis-") as tmp:
        srv = Server(tmp)
        srv.start()
        try:
            yield srv.url
        finally:
            srv.stop()


def start_worker(url: str, *args: str, prefix: str = "bench") -> subprocess.Popen[bytes]:
    """``python -m workers.worker`` attached to ``url`` (warnings only on stderr)."""
    return subprocess.Popen(
        [sys.executable, "-m", "workers.worker", "--redis", url, "--queue", prefix, "--log-level", "warning", *args],
        cwd=ROOT, stdin=subprocess.DEVNULL,
    )


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    from workers.batch import stop_workers

    stop_workers(procs)


def command_line() -> str:
    return " ".join([os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else sys.executable,
                     *[os.path.relpath(a, ROOT) if a.startswith(str(ROOT)) else a for a in sys.argv]])
