"""The batch commands' exit statuses and messages: 0 done, 1 incomplete, 2 bad input, 3 Redis unreachable."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from workers.cli import main
from workers.queue import redact

from .conftest import TINY, Procs


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- bad input: exit 2, before anything runs or is submitted -----------------------------------
@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        ("10..1", r"realmsim batch: --seeds '10\.\.1': range '10\.\.1' runs backwards \(10 > 1\)"),
        ("one..two", r"realmsim batch: --seeds 'one\.\.two': 'one\.\.two' is not a seed or a range"),
        ("-1..4", r"realmsim batch: --seeds '-1\.\.4': '-1\.\.4' is negative"),
        # a number too long for int() (Python's 4,300-digit limit) was a ValueError traceback
        ("1.." + "9" * 5000, r"--seeds '1\.\.9{37}…\(5003 characters\)': seed 9{12}… \(5000 digits\) is larger than"),
        ("9" * 5000, r"seed 9{12}… \(5000 digits\) is larger than 9223372036854775807"),
    ],
)
def test_bad_seeds(capsys: pytest.CaptureFixture[str], tmp_path: Path, seeds: str, message: str) -> None:
    code, _, err = run(capsys, "batch", str(TINY), f"--seeds={seeds}", "--out", str(tmp_path / "r.csv"))
    assert code == 2
    assert re.search(message, err), err
    assert not (tmp_path / "r.csv").exists()


def test_unknown_scenario(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "batch", "no-such-scenario", "--seeds", "1..3", "--out", str(tmp_path / "r.csv"))
    assert code == 2
    assert "realmsim batch: no-such-scenario: 1 problem" in err
    assert "expected a built-in scenario name" in err and "found no such file" in err
    assert "Traceback" not in err


def test_bad_out_suffix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "batch", str(TINY), "--seeds", "1", "--out", str(tmp_path / "r.xlsx"))
    assert code == 2
    assert "expected a file name ending in .csv or .parquet, found '.xlsx'" in err


def test_bad_workers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "batch", str(TINY), "--seeds", "1", "--workers", "0", "--out", str(tmp_path / "r.csv"))
    assert code == 2
    assert "realmsim batch: --workers 0: expected an integer >= 1" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["worker", "--read-window", "nan"], "realmsim worker: --read-window nan: expected a number of seconds > 0"),
        (["worker", "--block", "inf"], "realmsim worker: --block inf: expected a number of seconds > 0"),
        (["worker", "--min-idle", "nan"], "realmsim worker: --min-idle nan: expected a number of seconds > 0"),
        (["worker", "--forget-idle", "-3"], "realmsim worker: --forget-idle -3: expected a number of seconds > 0"),
        (["batch", str(TINY), "--seeds", "1", "--job-timeout", "nan"],
         "realmsim batch: --job-timeout nan: expected a number of seconds > 0"),
        (["batch", str(TINY), "--seeds", "1", "--redis", "redis://127.0.0.1:1/0", "--timeout", "inf"],
         "realmsim batch: --timeout inf: expected a number of seconds > 0"),
        (["sweep", str(TINY), "--set", "cv.fatigued_penalty=2,4", "--seeds", "1", "--redis", "redis://127.0.0.1:1/0",
          "--timeout", "nan"], "realmsim sweep: --timeout nan: expected a number of seconds > 0"),
    ],
)
def test_bad_durations(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str) -> None:
    """A duration that is not a finite number of seconds (nan and inf parse as floats) is a usage
    error before anything connects or runs, never a traceback where it becomes milliseconds."""
    if argv[0] == "worker":
        argv = [*argv, "--redis", "redis://127.0.0.1:1/0"]
    else:
        argv = [*argv, "--out", str(tmp_path / "r.csv")]
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "r.csv").exists()


REDIS_COMMANDS = {
    "submit": ["submit", str(TINY), "--seeds", "1..2", "--manifest", "{tmp}/m.msgpack"],
    "batch": ["batch", str(TINY), "--seeds", "1..2", "--out", "{tmp}/r.csv"],
    "collect": ["collect", "b1", "--out", "{tmp}/r.csv"],
    "worker": ["worker"],
    "sweep": ["sweep", str(TINY), "--set", "cv.fatigued_penalty=2,4", "--seeds", "1", "--out", "{tmp}/r.csv"],
    "serve": ["serve", "--data-dir", "{tmp}/srv"],
}


@pytest.mark.parametrize("command", sorted(REDIS_COMMANDS))
@pytest.mark.parametrize(("url", "message"), [
    ("http://127.0.0.1:1/0", "the scheme 'http' is not redis, rediss or unix"),
    # issue 30: a traceback inside redact() (ValueError), a TypeError when connecting, DB 0 in silence
    ("rediss://u:pw@localhost:notaport/0", "the port 'notaport' is not a number"),
    ("redis://127.0.0.1:1/0?ssl_cert_reqs=bogus", "option ssl_cert_reqs is only for a TLS URL (rediss://)"),
    ("rediss://127.0.0.1:1/0?ssl_cert_reqs=bogus", "option ssl_cert_reqs='bogus': expected none, optional or required"),
    ("redis://127.0.0.1:1/abc", "the database 'abc' is not a number"),
    ("redis://127.0.0.1:1/0?foo=bar", "unknown option 'foo'"),
    ("redis://127.0.0.1:99999/0", "the port is out of range (1 to 65535)"),
    ("redis://[::1/0", "Invalid IPv6 URL"),
    ("unix://", "no socket path after unix://"),
    ("127.0.0.1:1", "no scheme"),
])
def test_malformed_redis_url_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str,
                                                    url: str, message: str) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in REDIS_COMMANDS[command]] + ["--redis", url]
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"realmsim {command}: --redis {redact(url)!r}: {message}"), err
    assert "expected redis://[USER:PASSWORD@]HOST:PORT/DB, rediss://… for TLS, or unix://PATH" in err
    assert ":pw@" not in err


def test_malformed_redis_url_from_the_environment(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REALMSIM_REDIS_URL", "redis://:hunter2@127.0.0.1:1/abc")
    code, _, err = run(capsys, "worker")
    assert code == 2 and err == ("realmsim worker: --redis 'redis://:***@127.0.0.1:1/abc': the database 'abc' is "
                                 "not a number (/0, /1… after the host) (expected redis://[USER:PASSWORD@]HOST:PORT/DB, "
                                 "rediss://… for TLS, or unix://PATH)\n")


def test_redact_never_raises_and_hides_the_password() -> None:
    assert redact("rediss://u:pw@localhost:notaport/0") == "rediss://u:***@localhost:notaport/0"
    assert redact("redis://u:p@ss@[::1/0?x#y") == "redis://u:***@[::1/0?x#y"
    assert redact("redis://:pw@h:1/0") == "redis://:***@h:1/0"
    assert redact("redis://user@h:1/0") == "redis://user@h:1/0"
    assert redact("not a url") == "not a url"


@pytest.mark.parametrize("command", ["submit", "batch", "collect", "worker"])
def test_connection_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    argv = {
        "submit": ["submit", str(TINY), "--seeds", "1..2", "--redis", url, "--manifest", str(tmp_path / "m.msgpack")],
        "batch": ["batch", str(TINY), "--seeds", "1..2", "--redis", url, "--out", str(tmp_path / "r.csv")],
        "collect": ["collect", "b1", "--redis", url, "--out", str(tmp_path / "r.csv")],
        "worker": ["worker", "--redis", url],
    }[command]
    code, _, err = run(capsys, *argv)
    assert code == 3
    assert f"realmsim {command}: cannot reach Redis at {url}: " in err
    assert "refused" in err.lower()
    assert not (tmp_path / "m.msgpack").exists()


def test_redis_url_password_is_not_printed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    url = f"redis://user:s3cret@127.0.0.1:{free_port()}/0"
    code, _, err = run(capsys, "collect", "b1", "--redis", url, "--out", str(tmp_path / "r.csv"))
    assert code == 3
    assert "s3cret" not in err and "redis://user:***@127.0.0.1:" in err


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_local_batch_writes_one_row_per_seed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    code, stdout, err = run(capsys, "batch", str(TINY), "--seeds", "3,1..2", "--workers", "2", "--out", str(out))
    assert code == 0, err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",")[:5] == ["campaign", "seed", "scenario", "ledger_sha256", "events"]
    assert [line.split(",")[1] for line in lines[1:]] == ["1", "2", "3"]
    assert all(line.split(",")[2] == "tiny" for line in lines[1:])
    assert "batch tiny: 3/3 jobs in" in err  # stderr is not a terminal: only the final line
    assert f"wrote 3 rows to {out}" in err
    assert stdout == ""


# ---- with Redis ---------------------------------------------------------------------------------
@pytest.mark.redis
def test_bad_scenario_submits_nothing(capsys: pytest.CaptureFixture[str], redis_server, tmp_path: Path) -> None:
    from workers.queue import RedisQueue

    code, out, err = run(capsys, "submit", "nope.toml", "--seeds", "1..3", "--redis", redis_server.url,
                         "--manifest", str(tmp_path / "m.msgpack"))
    assert code == 2 and out == ""
    assert "realmsim submit: nope.toml: 1 problem" in err
    assert RedisQueue(redis_server.url).r.dbsize() == 0
    assert not (tmp_path / "m.msgpack").exists()


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.redis
def test_collect_timeout_names_what_is_missing(procs: Procs, redis_server, tmp_path: Path) -> None:
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..3", "--redis", redis_server.url)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    assert batch_id.startswith("b") and "\n" not in batch_id
    out = tmp_path / "r.csv"
    res = procs.cli("collect", batch_id, "--redis", redis_server.url, "--out", str(out), "--timeout", "1")
    assert res.returncode == 1
    assert (f"realmsim collect: timed out after 1 s: batch {batch_id} is incomplete: 0 of 3 results, "
            f"3 missing, 0 dead-lettered") in res.stderr
    assert "missing seeds: 1, 2, 3" in res.stderr
    assert f"{out} was not written (use --partial" in res.stderr
    assert not out.exists()
    # --partial writes what there is (nothing yet: the header) and still exits 1
    res = procs.cli("collect", batch_id, "--redis", redis_server.url, "--out", str(out), "--timeout", "0.5",
                    "--partial")
    assert res.returncode == 1
    assert out.read_text(encoding="utf-8") == "campaign,seed,scenario,ledger_sha256,events\n"


@pytest.mark.redis
def test_collect_of_an_unknown_batch(procs: Procs, redis_server, tmp_path: Path) -> None:
    res = procs.cli("collect", "b-nope", "--redis", redis_server.url, "--out", str(tmp_path / "r.csv"))
    assert res.returncode == 2
    assert "realmsim collect: batch 'b-nope' is unknown to Redis at" in res.stderr
    assert "no manifest at" in res.stderr and "pass --manifest FILE" in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.redis
def test_submit_worker_collect_end_to_end(procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..4", "--redis", url)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    w = procs.cli("worker", "--redis", url, "--burst", "--block", "0.2")
    assert w.returncode == 0, w.stderr
    assert "realmsim.worker[" in w.stderr and "queue drained (burst); exiting" in w.stderr
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(tmp_path / "r.parquet"), "--timeout", "30")
    assert res.returncode == 0, res.stderr
    from workers.output import read_results

    assert [r["seed"] for r in read_results(tmp_path / "r.parquet")] == [1, 2, 3, 4]
    # a second submit of the same jobs finds every result already there
    again = procs.cli("submit", "data/tiny.toml", "--seeds", "1..4", "--redis", url)
    assert "4 job(s) of tiny, 0 queued, 4 already had a result" in again.stderr


@pytest.mark.redis
def test_redis_failing_mid_command_is_a_message(capsys: pytest.CaptureFixture[str], redis_server, tmp_path: Path) -> None:
    from workers.queue import RedisQueue

    r = RedisQueue(redis_server.url).r
    r.config_set("maxmemory-policy", "noeviction")
    r.config_set("maxmemory", "1")
    code, out, err = run(capsys, "submit", str(TINY), "--seeds", "1..3", "--redis", redis_server.url,
                         "--manifest", str(tmp_path / "m.msgpack"))
    batch_id = out.strip()
    assert code == 3 and re.fullmatch(r"b[0-9]{8}-[0-9]{6}-[0-9a-f]{8}", batch_id), out
    assert (f"realmsim submit: submitting batch {batch_id} to {redis_server.url} failed after 0 of 3 job(s) were "
            f"queued (OutOfMemoryError: command not allowed when used memory > 'maxmemory'.)") in err
    assert "Traceback" not in err


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.redis
def test_submit_that_fails_part_of_the_way_removes_what_it_queued_and_names_the_batch(
        capsys: pytest.CaptureFixture[str], redis_server, tmp_path: Path) -> None:
    """Issue 30: Redis out of memory in the middle of a submit left thousands of entries that workers ran,
    and no batch id was printed."""
    from workers.queue import RedisQueue

    q = RedisQueue(redis_server.url)
    q.ensure_group()
    q.r.config_set("maxmemory-policy", "noeviction")
    q.r.config_set("maxmemory", str(q.r.info("memory")["used_memory"] + 600_000))  # room for some of the jobs
    manifest = tmp_path / "m.msgpack"
    code, out, err = run(capsys, "submit", str(TINY), "--seeds", "1..5000", "--redis", redis_server.url,
                         "--manifest", str(manifest))
    q.r.config_set("maxmemory", "0")
    batch_id = out.strip()
    assert code == 3, err
    assert re.fullmatch(r"b[0-9]{8}-[0-9]{6}-[0-9a-f]{8}", batch_id), out
    m = re.search(rf"realmsim submit: submitting batch {batch_id} to {re.escape(redis_server.url)} failed after "
                  rf"(\d+) of 5000 job\(s\) were queued \(OutOfMemoryError: [^)]*\); removed them and the batch "
                  rf"record again: nothing of batch {batch_id} is left in Redis", err)
    assert m and 0 < int(m.group(1)) < 5000, err
    assert q.r.xlen(q.keys.stream) == 0, "the jobs queued before Redis ran out of memory are still there"
    assert q.r.keys("realmsim:batch:*") == []
    assert not manifest.exists(), "the manifest of a batch that does not exist was left"
    assert "Traceback" not in err
