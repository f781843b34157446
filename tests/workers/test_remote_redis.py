"""Redis for more than one host: a server that asks for a password (an ACL user), one that speaks only
TLS with certificates the test makes (``openssl``), and clear messages when either is wrong."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from workers.batch import BatchPlan, ServiceError
from workers.queue import RedisQueue, connect, wait_batch

from ..conftest import RedisServer
from .conftest import Procs, seeds_in, wait_for

pytestmark = pytest.mark.redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(RedisServer):
    """A redis-server with options of its own (a password, TLS only) on a free port."""

    def __init__(self, tmp: Path, *args: str, port: int | None = None) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            if os.environ.get("REQUIRE_REDIS") == "1":
                pytest.fail("REQUIRE_REDIS=1 but redis-server is not installed")
            pytest.skip("redis-server is not installed")
        super().__init__(tmp)
        self.port = port or free_port()
        self.proc = subprocess.Popen(
            [exe, *args, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp),
             "--logfile", str(tmp / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:  # (a TLS port does not answer a plain PING: wait for it to accept)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    log = (tmp / "redis.log").read_text(errors="replace") if (tmp / "redis.log").exists() else ""
                    raise RuntimeError(f"redis-server did not start: {log[-2000:]}") from None
                time.sleep(0.05)


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_ca(d: Path, name: str) -> None:
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
            "-keyout", f"{name}.key", "-out", f"{name}.pem", cwd=d)


@pytest.fixture
def acl_server(tmp_path: Path) -> Iterator[Server]:
    port = free_port()
    srv = Server(tmp_path, "--port", str(port), "--requirepass", "admin-pw", port=port)
    admin = connect(f"redis://:admin-pw@127.0.0.1:{port}/0")
    # a worker's user: every key and command it needs, none of the admin commands (CLIENT UNBLOCK included)
    admin.execute_command("ACL", "SETUSER", "realm", "on", ">realm-pw", "~*", "&*", "+@all", "-@admin", "-@dangerous")
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    if shutil.which("openssl") is None:
        pytest.fail("openssl is not installed (Debian package openssl): the TLS tests make their certificates with it")
    certs = tmp_path / "certs"
    certs.mkdir()
    make_ca(certs, "ca")
    make_ca(certs, "other-ca")
    (certs / "san.cnf").write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n", encoding="utf-8")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
            "-out", "server.csr", cwd=certs)
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-days", "2", "-extfile", "san.cnf", "-out", "server.pem", cwd=certs)
    port = free_port()
    srv = Server(tmp_path, "--port", "0", "--tls-port", str(port), "--tls-cert-file", str(certs / "server.pem"),
                 "--tls-key-file", str(certs / "server.key"), "--tls-ca-cert-file", str(certs / "ca.pem"),
                 "--tls-auth-clients", "no", port=port)
    try:
        yield srv, certs
    finally:
        srv.stop()


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_submit_worker_collect_with_an_acl_user_and_password(procs: Procs, acl_server: Server, tmp_path: Path) -> None:
    url = f"redis://realm:realm-pw@127.0.0.1:{acl_server.port}/0"
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..3", "--redis", url)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    w = procs.worker(url, "w1", "--block", "0.5", prefix="realmsim")
    wait_for(lambda: "may not run CLIENT UNBLOCK; reading in 50 ms blocks" in procs.log("w1"), timeout=60,
             what="the worker to find it may not unblock itself")
    out = tmp_path / "r.csv"
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "90")
    assert res.returncode == 0, res.stderr
    assert seeds_in(out) == ["1", "2", "3"]
    w.terminate()
    assert w.wait(30) == 0
    assert "realm-pw" not in procs.log("w1") + sub.stderr + res.stderr
    assert f"redis redis://realm:***@127.0.0.1:{acl_server.port}/0" in procs.log("w1")


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize(("userinfo", "message"), [
    ("realm:wrong-pw@", "refused our credentials"),
    ("nobody:realm-pw@", "refused our credentials"),
    ("", "requires a password"),
])
def test_wrong_credentials_are_a_clear_message_and_exit_3(procs: Procs, acl_server: Server, tmp_path: Path,
                                                          userinfo: str, message: str) -> None:
    url = f"redis://{userinfo}127.0.0.1:{acl_server.port}/0"
    for argv in (["submit", "data/tiny.toml", "--seeds", "1", "--redis", url],
                 ["worker", "--redis", url],
                 ["collect", "b1", "--redis", url, "--out", str(tmp_path / "r.csv")],
                 ["batch", "data/tiny.toml", "--seeds", "1", "--redis", url, "--out", str(tmp_path / "r.csv")]):
        res = procs.cli(*argv, timeout=60)
        assert res.returncode == 3, (argv[0], res.stderr)
        assert f"realmsim {argv[0]}: Redis at redis://" in res.stderr and message in res.stderr, res.stderr
        assert "Traceback" not in res.stderr and "wrong-pw" not in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_batch_over_tls_with_the_ca_file(procs: Procs, tls_server: tuple[Server, Path], tmp_path: Path) -> None:
    srv, certs = tls_server
    url = f"rediss://127.0.0.1:{srv.port}/0"
    out = tmp_path / "r.csv"
    res = procs.cli("batch", "data/tiny.toml", "--seeds", "1..3", "--redis", url, "--redis-ca",
                    str(certs / "ca.pem"), "--workers", "1", "--out", str(out), "--timeout", "120")
    assert res.returncode == 0, res.stderr
    assert seeds_in(out) == ["1", "2", "3"]
    # and step by step: submit, a worker, collect
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "4..5", "--redis", url, "--redis-ca", str(certs / "ca.pem"))
    assert sub.returncode == 0, sub.stderr
    w = procs.cli("worker", "--redis", url, "--redis-ca", str(certs / "ca.pem"), "--burst", "--block", "0.2")
    assert w.returncode == 0, w.stderr
    q = RedisQueue(url, ca=str(certs / "ca.pem"))
    plan = q.load_plan(sub.stdout.strip())
    assert plan is not None and wait_batch(q, plan, timeout=30).complete


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_tls_failures_are_a_clear_message_and_exit_3(procs: Procs, tls_server: tuple[Server, Path],
                                                     tmp_path: Path) -> None:
    srv, certs = tls_server
    tls_url, plain_url = f"rediss://127.0.0.1:{srv.port}/0", f"redis://127.0.0.1:{srv.port}/0"
    for url, ca, message in [
        (tls_url, certs / "other-ca.pem", "TLS handshake failed"),  # a CA that did not sign the server's certificate
        (tls_url, None, "TLS handshake failed"),  # the system's CAs do not know the test's
        (plain_url, None, "the server hung up: does it expect TLS? then use rediss://"),
    ]:
        extra = ["--redis-ca", str(ca)] if ca else []
        for argv in (["submit", "data/tiny.toml", "--seeds", "1", "--redis", url, *extra],
                     ["worker", "--redis", url, *extra],
                     ["collect", "b1", "--redis", url, "--out", str(tmp_path / "r.csv"), *extra]):
            res = procs.cli(*argv, timeout=60)
            assert res.returncode == 3, (argv, res.stderr)
            assert f"realmsim {argv[0]}: cannot reach Redis at {url}: " in res.stderr, res.stderr
            assert message in res.stderr, res.stderr
            assert "Traceback" not in res.stderr
    res = procs.cli("worker", "--redis", plain_url, "--redis-ca", str(certs / "ca.pem"))
    assert res.returncode == 2 and "--redis-ca" in res.stderr and "only for a TLS URL (rediss://…)" in res.stderr


def test_connect_names_a_missing_ca_file(tmp_path: Path) -> None:
    from workers.batch import UsageError

    with pytest.raises(UsageError, match=r"--redis-ca .*nope\.pem: no such file \(expected a CA certificate in PEM\)"):
        connect("rediss://127.0.0.1:1/0", ca=str(tmp_path / "nope.pem"))
    with pytest.raises(ServiceError, match=r"cannot reach Redis at rediss://127\.0\.0\.1:1/0"):
        connect("rediss://127.0.0.1:1/0")


def test_a_batch_plan_travels_through_an_acl_user(acl_server: Server) -> None:
    q = RedisQueue(f"redis://realm:realm-pw@127.0.0.1:{acl_server.port}/0", prefix="t")
    plan = BatchPlan.make({"name": "noop"}, [1, 2], kind="noop")
    assert q.submit(plan) == 2
    assert q.load_plan(plan.id) is not None


@pytest.mark.slow  # over 0.5 s (a TLS handshake times out): left out of make test-fast
def test_rediss_to_a_plain_port_says_the_tls_handshake_failed_and_suggests_redis(
        capsys: pytest.CaptureFixture[str], redis_server, tmp_path: Path) -> None:
    """Issue 30: ``rediss://`` to a Redis without TLS said only "Timeout"."""
    from workers.cli import main

    url = f"rediss://127.0.0.1:{redis_server.port}/0"
    code = main(["collect", "b1", "--redis", url, "--out", str(tmp_path / "r.csv")])
    err = capsys.readouterr().err
    assert code == 3
    assert err.startswith(f"realmsim collect: cannot reach Redis at {url}: TLS handshake failed (")
    assert "the server at this port speaks plain Redis, not TLS; use redis://… for it" in err
    assert err.count("\n") == 1 and "Traceback" not in err
