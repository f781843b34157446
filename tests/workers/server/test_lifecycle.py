"""The server's life: records that survive a restart, SIGTERM that drains, the checks made before it
listens, bearer tokens."""

from __future__ import annotations

import hashlib
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from agents.campaign import run_campaign
from sim.calendar import HOURS_PER_SEASON

from .conftest import problem_paths

pytestmark = pytest.mark.slow


def test_records_survive_a_restart_and_sigterm_stops_cleanly(make_server) -> None:
    s = make_server().start()
    done = s.wait("campaigns", s.post("/v1/campaigns", {"scenario": "guild-war", "seed": 4, "until": 3}).json()["id"])
    bid = s.post("/v1/batches", {"scenario": "caravan-crossing", "seeds": "5..6"}).json()["id"]
    batch = s.wait("batches", bid)
    events = s.get(f"/v1/campaigns/{done['id']}/events", limit=1000).json()["events"]
    csv_before = s.get(f"/v1/batches/{bid}/results.csv").text
    assert s.stop(signal.SIGTERM) == 0
    assert "stopped cleanly" in s.log()

    s.start()  # the same data directory
    assert s.get(f"/v1/campaigns/{done['id']}").json() == done
    assert s.get(f"/v1/campaigns/{done['id']}/events", limit=1000).json()["events"] == events
    assert s.get(f"/v1/batches/{bid}").json() == batch
    assert s.get(f"/v1/batches/{bid}/results.csv").text == csv_before
    listed = [c["id"] for c in s.get("/v1/campaigns/").json()["campaigns"]]
    assert done["id"] in listed


def test_a_campaign_cut_short_by_sigterm_runs_again_at_the_next_start(make_server) -> None:
    s = make_server("--drain-timeout", "0").start()
    cid = s.post("/v1/campaigns", {"scenario": "stolen-lands", "seed": 2, "until": 8}).json()["id"]
    s.wait("campaigns", cid, until=("running",))
    assert s.stop(signal.SIGTERM) == 0
    s.start()
    rec = s.wait("campaigns", cid)
    assert rec["status"] == "stopped", rec
    assert "ran again from the start" in (rec["note"] or "")
    direct = run_campaign("stolen-lands", 2, until=8 * HOURS_PER_SEASON, keep_ledger=False, collect=False)
    assert rec["ledger_sha256"] == direct.ledger_sha256
    assert rec["progress"]["events"] == direct.events


def test_sigterm_ends_the_event_streams(make_server) -> None:
    s = make_server("--drain-timeout", "0").start()
    cid = s.post("/v1/campaigns", {"scenario": "realm", "seed": 5}).json()["id"]
    s.wait("campaigns", cid, until=("running",))
    with s.client() as c, c.stream("GET", f"/v1/campaigns/{cid}/stream") as r:
        lines = r.iter_lines()
        assert next(lines).startswith("id: 0")
        s.proc.send_signal(signal.SIGTERM)
        tail = list(lines)
    assert "event: shutdown" in tail or "event: end" in tail
    assert s.proc.wait(60) == 0


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["--host", "0.0.0.0"], 2, "--host 0.0.0.0: without --tokens the server listens on loopback only"),
        (["--tokens", "{tmp}/bad-tokens"], 2, "line 1: expected the SHA-256 hex digest of a token"),
        (["--tokens", "{tmp}/missing"], 2, "expected a tokens file, found no such file"),
        (["--redis", "redis://127.0.0.1:1/0"], 3, "cannot reach Redis at redis://127.0.0.1:1/0"),
        (["--redis", "http://nope"], 2, "--redis 'http://nope'"),
        (["--max-campaigns", "0"], 2, "--max-campaigns 0: expected an integer >= 1"),
        (["--port", "70000"], 2, "--port 70000: expected 0..65535"),
        (["--allow-host", "*"], 2, "--allow-host '*': any Host only with --tokens"),
        (["--allow-host", "http://x.lan:80"], 2, "--allow-host 'http://x.lan:80': expected a host name"),
    ],
)
def test_bad_serve_options_are_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                            code: int, message: str) -> None:
    from workers.cli import main

    (tmp_path / "bad-tokens").write_text("not-a-digest\n")
    assert main(["serve", "--data-dir", str(tmp_path / "data"), *[a.format(tmp=tmp_path) for a in argv]]) == code
    err = capsys.readouterr().err
    assert err.startswith("realmsim serve: ") and message in err, err
    assert "Traceback" not in err and err.count("\n") == 1


def test_a_second_server_on_the_same_data_directory_is_refused(make_server, capsys: pytest.CaptureFixture[str]) -> None:
    from workers.cli import main

    s = make_server().start()
    assert main(["serve", "--data-dir", str(s.data_dir), "--port", "0"]) == 2
    assert "is in use by another realmsim server" in capsys.readouterr().err


def test_hash_token_prints_the_digest_the_tokens_file_takes(snapshot: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "workers.cli", "serve", "--hash-token"], cwd=snapshot, input="s3cret\n",
                       capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(snapshot)})
    assert r.returncode == 0
    assert r.stdout.strip() == hashlib.sha256(b"s3cret").hexdigest()


def test_tokens_are_required_when_configured(make_server, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"# the game masters' token\n{hashlib.sha256(b'gm-token').hexdigest()}  gm\n")
    s = make_server("--tokens", str(tokens), "--host", "127.0.0.1").start()
    r = httpx.get(f"{s.url}/v1/campaigns/")
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
    assert problem_paths(r) == ["Authorization"] and r.json()["problems"][0]["found"] == "no token"
    r = httpx.get(f"{s.url}/v1/campaigns/", headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401 and r.json()["problems"][0]["found"] == "a token the server does not know"
    r = httpx.post(f"{s.url}/v1/campaigns", json={"scenario": "realm"})
    assert r.status_code == 401
    assert httpx.get(f"{s.url}/docs/openapi.json").status_code == 401
    ok = httpx.get(f"{s.url}/v1/campaigns/", headers={"Authorization": "Bearer gm-token"})
    assert ok.status_code == 200
    # the page: unauthenticated browsers are sent to the sign-in form; the cookie it sets works for GETs,
    # and for changes only from the server's own page
    r = httpx.get(f"{s.url}/", headers={"Accept": "text/html"})
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/"
    with httpx.Client(base_url=s.url) as c:
        bad = c.post("/login", data={"token": "nope", "next": "/"})
        assert bad.status_code == 401 and "realmsim_token" not in c.cookies
        r = c.post("/login", data={"token": "gm-token", "next": "//evil.example/"})
        assert r.status_code == 303 and r.headers["location"] == "/"
        assert c.get("/").status_code == 200
        assert c.post("/v1/campaigns", json={"scenario": "no-such"}).status_code == 403
        same = c.post("/v1/campaigns", json={"scenario": "no-such"}, headers={"Origin": s.url})
        assert same.status_code == 422
