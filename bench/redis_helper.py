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


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """Start redis-server on a free port; yield its URL; stop it."""
    exe = shutil.which("redis-server")
    if exe is None:
        sys.exit("redis-server is not installed (Debian package redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="realmsim-bench-redis-") as tmp:
        proc = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", tmp, "--logfile", os.path.join(tmp, "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                        s.sendall(b"PING\r\n")
                        if s.recv(16).startswith(b"+PONG"):
                            break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server did not start on port {port}") from None
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def start_worker(url: str, *args: str, prefix: str = "bench") -> subprocess.Popen[bytes]:
    """``python -m workers.worker`` attached to ``url`` (warnings only on stderr)."""
    return subprocess.Popen(
        [sys.executable, "-m", "workers.worker", "--redis", url, "--queue", prefix, "--log-level", "warning", *args],
        cwd=ROOT, stdin=subprocess.DEVNULL,
    )


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def command_line() -> str:
    return " ".join([os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else sys.executable,
                     *[os.path.relpath(a, ROOT) if a.startswith(str(ROOT)) else a for a in sys.argv]])
