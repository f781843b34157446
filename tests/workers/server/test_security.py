"""The server as an attacker meets it (issue 30): a web page the user visits may not drive the local
server (cross-site posts, DNS rebinding), one token may not see another's records, and what a body
holds is measured before anything parses it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import httpx
import pytest

from workers.server.limits import MAX_BODY_DEPTH, MAX_BODY_ITEMS, MAX_TEXT_CHARS, MAX_TEXT_ITEMS

from .conftest import Server, problem_paths

pytestmark = pytest.mark.slow

POSTS = ["/v1/campaigns", "/v1/batches", "/v1/scenarios/validate", "/v1/advise"]


def _deep(depth: int) -> bytes:
    return b'{"scenario": "realm", "seeds": "1", "faction": "x", "overrides": ' + b"[" * depth + b"]" * depth + b"}"


# ---- what a body may hold ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", POSTS)
def test_json_nested_2000_deep_is_a_400_naming_the_limit_on_every_post(server: Server, path: str) -> None:
    with server.client() as c:
        r = c.post(path, content=_deep(2000), headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "bad_request" and problem_paths(r) == ["(body)"]
    assert f"nested at most {MAX_BODY_DEPTH} deep" in body["message"] and "nested 2,001 deep" in body["message"]


def test_a_body_of_more_items_than_the_limit_is_refused_before_it_is_parsed(server: Server) -> None:
    seeds = list(range(MAX_BODY_ITEMS + 10))
    r = server.post("/v1/batches", {"scenario": "realm", "seeds": seeds})
    assert r.status_code == 400, r.text
    assert f"at most {MAX_BODY_ITEMS:,} items" in r.json()["problems"][0]["expected"]


def test_a_scenario_text_of_248k_values_is_refused_before_toml_parses_it(server: Server) -> None:
    text = "x = [" + "1," * 248_000 + "]\n"
    r = server.post("/v1/scenarios/validate", {"text": text})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["valid"] is False
    assert [p["path"] for p in body["problems"]] == ["(file)"]
    assert f"at most {MAX_TEXT_ITEMS:,} values" in body["problems"][0]["expected"]
    assert "248,00" in body["problems"][0]["found"]
    r = server.post("/v1/campaigns", {"text": text})
    assert r.status_code == 422 and problem_paths(r) == ["(file)"]


def test_scenario_text_over_its_cap_is_a_400_naming_the_cap(server: Server) -> None:
    r = server.post("/v1/scenarios/validate", {"text": "#" * (MAX_TEXT_CHARS + 1)})
    assert r.status_code == 400, r.text
    assert problem_paths(r) == ["text"] and f"{MAX_TEXT_CHARS}" in r.json()["problems"][0]["expected"]


def test_a_body_is_decoded_as_the_schema_says_not_loosely(server: Server) -> None:
    r = server.post("/v1/campaigns", {"scenario": "guild-war", "seed": "3", "until": 1})
    assert r.status_code == 400 and problem_paths(r) == ["seed"], r.text
    assert "an integer" in r.json()["problems"][0]["expected"]
    r = server.post("/v1/batches", {"scenario": "guild-war", "seeds": ["1"]})
    assert r.status_code == 400, r.text
    # an integer written with a zero fraction is an integer (JSON Schema's rule), decoded as one
    r = server.post("/v1/campaigns", {"scenario": "guild-war", "seed": 3.0, "until": 1})
    assert r.status_code == 201, r.text
    assert server.get(f"/v1/campaigns/{r.json()['id']}").json()["seed"] == 3


# ---- a local server no other page can drive -----------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/campaigns", "/v1/batches"])
def test_a_cross_site_text_plain_post_starts_nothing(server: Server, path: str) -> None:
    before = server.get("/v1/campaigns").json()["campaigns"] + server.get("/v1/batches").json()["batches"]
    body = json.dumps({"scenario": "caravan-crossing", "until": "1d", "seeds": "1"})
    with server.client() as c:
        r = c.post(path, content=body, headers={"content-type": "text/plain", "origin": "http://evil.example"})
        assert r.status_code == 403, r.text
        assert problem_paths(r) == ["Origin"] and r.json()["problems"][0]["found"] == "http://evil.example"
        r = c.post(path, content=body, headers={"content-type": "text/plain", "sec-fetch-site": "cross-site"})
        assert r.status_code == 403 and problem_paths(r) == ["Sec-Fetch-Site"], r.text
        # without any browser header (a program), text/plain is still not JSON: 415
        r = c.post(path, content=body, headers={"content-type": "text/plain"})
        assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type", r.text
        r = c.post(path, content="scenario=realm&seeds=1",
                   headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 415 and problem_paths(r) == ["Content-Type"], r.text
    after = server.get("/v1/campaigns").json()["campaigns"] + server.get("/v1/batches").json()["batches"]
    assert after == before


def test_a_cross_site_page_cannot_cancel_or_delete(server: Server) -> None:
    cid = server.post("/v1/campaigns", {"scenario": "guild-war", "seed": 1, "until": 1}).json()["id"]
    with server.client() as c:
        r = c.delete(f"/v1/campaigns/{cid}", headers={"origin": "http://evil.example"})
        assert r.status_code == 403, r.text
        r = c.post(f"/v1/campaigns/{cid}/cancel", headers={"referer": "http://evil.example/page.html"})
        assert r.status_code == 403 and problem_paths(r) == ["Referer"], r.text
    assert server.get(f"/v1/campaigns/{cid}").status_code == 200


def test_the_servers_own_page_may_post(server: Server) -> None:
    with server.client() as c:
        for headers in ({"origin": server.url}, {"sec-fetch-site": "same-origin", "origin": server.url},
                        {"referer": server.url + "/"}):
            r = c.post("/v1/scenarios/validate", json={"scenario": "realm"}, headers=headers)
            assert r.status_code == 200 and r.json()["valid"] is True, (headers, r.text)


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "127.0.0.1.nip.io", "evil.localhost"])
def test_a_host_the_server_does_not_answer_to_is_refused(server: Server, host: str) -> None:
    with server.client() as c:
        for method, path in (("GET", "/v1/campaigns"), ("GET", "/"), ("GET", "/docs/openapi.json")):
            r = c.request(method, path, headers={"host": host})
            assert r.status_code == 403, (path, r.text)
            assert problem_paths(r) == ["Host"] and "--allow-host" in r.json()["message"]
        r = c.post("/v1/campaigns", json={"scenario": "realm"}, headers={"host": host})
        assert r.status_code == 403, r.text


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_the_loopback_names_are_answered(server: Server, host: str) -> None:
    r = httpx.get(f"{server.url}/v1/campaigns", headers={"host": f"{host}:{server.port}"})
    assert r.status_code == 200, r.text


def test_allow_host_adds_a_name(make_server) -> None:
    s: Server = make_server("--allow-host", "realmsim.lan", "--allow-host", "10.1.2.3").start()
    for host in ("realmsim.lan", f"Realmsim.LAN:{s.port}", "10.1.2.3", f"localhost:{s.port}"):
        assert httpx.get(f"{s.url}/v1/campaigns", headers={"host": host}).status_code == 200, host
    assert httpx.get(f"{s.url}/v1/campaigns", headers={"host": "other.lan"}).status_code == 403


# ---- tokens: whose records are whose ----------------------------------------------------------------------
def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def test_a_token_sees_only_its_own_records_and_those_of_its_group(make_server, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{_digest('alice')}  alice\n{_digest('bob')}  bob\n"
                      f"{_digest('carol')}  carol  group=table\n{_digest('dave')} dave group=table  # same table\n")
    s: Server = make_server("--tokens", str(tokens)).start()

    def as_(token: str) -> httpx.Client:
        return httpx.Client(base_url=s.url, timeout=60, headers={"Authorization": f"Bearer {token}"})

    with as_("alice") as alice, as_("bob") as bob, as_("carol") as carol, as_("dave") as dave:
        cid = alice.post("/v1/campaigns", json={"scenario": "guild-war", "seed": 2, "until": 2}).json()["id"]
        bid = alice.post("/v1/batches", json={"scenario": "caravan-crossing", "seeds": "1"}).json()["id"]
        shared = carol.post("/v1/campaigns", json={"scenario": "guild-war", "seed": 3, "until": 1}).json()["id"]
        s.headers = {"Authorization": "Bearer alice"}
        s.wait("campaigns", cid)
        s.wait("batches", bid)

        reads = [f"/v1/campaigns/{cid}", f"/v1/campaigns/{cid}/events", f"/v1/campaigns/{cid}/stream",
                 f"/v1/campaigns/{cid}/map", f"/v1/campaigns/{cid}/plots", f"/v1/campaigns/{cid}/seasons.csv",
                 f"/v1/campaigns/{cid}/seasons.parquet", f"/v1/batches/{bid}", f"/v1/batches/{bid}/stream",
                 f"/v1/batches/{bid}/results.csv", f"/v1/batches/{bid}/results.parquet", f"/v1/batches/{bid}/report",
                 f"/v1/batches/{bid}/report/overview_cv.png", f"/campaigns/{cid}",
                 f"/ui/campaigns/{cid}/map", f"/ui/campaigns/{cid}/status", f"/batches/{bid}", f"/ui/batches/{bid}"]
        for path in reads:
            assert alice.get(path).status_code == 200, path
            assert bob.get(path).status_code == 404, path
        r = bob.get(f"/v1/campaigns/{cid}")
        assert problem_paths(r) == ["campaign_id"] and r.json()["message"] == f"no campaign {cid!r}"
        assert bob.post(f"/v1/campaigns/{cid}/fork", json={"season": 1}).status_code == 404
        assert bob.post(f"/v1/campaigns/{cid}/cancel").status_code == 404
        assert bob.delete(f"/v1/campaigns/{cid}").status_code == 404
        assert bob.post(f"/v1/batches/{bid}/cancel").status_code == 404
        assert bob.delete(f"/v1/batches/{bid}").status_code == 404
        assert bob.get("/v1/campaigns").json()["campaigns"] == []
        assert bob.get("/v1/batches").json()["batches"] == []
        assert cid not in bob.get("/ui/home").text and cid in alice.get("/ui/home").text

        # tokens of one group share their records, and only theirs
        assert dave.get(f"/v1/campaigns/{shared}").status_code == 200
        assert [c["id"] for c in dave.get("/v1/campaigns").json()["campaigns"]] == [shared]
        assert dave.get(f"/v1/campaigns/{cid}").status_code == 404
        assert alice.get(f"/v1/campaigns/{shared}").status_code == 404
        fork = dave.post(f"/v1/campaigns/{shared}/fork", json={"season": 1})
        assert fork.status_code == 201, fork.text
        assert carol.get(f"/v1/campaigns/{fork.json()['id']}").status_code == 200
        assert {c["id"] for c in alice.get("/v1/campaigns").json()["campaigns"]} == {cid}
        assert bob.delete(f"/v1/campaigns/{cid}").status_code == 404 and alice.get(f"/v1/campaigns/{cid}").status_code == 200


@pytest.mark.parametrize(("line", "match"), [
    ("{d} alice group=a b", None),
    ("{d} alice group=", "expected group=NAME"),
    ("{d} share=all", "expected group=NAME"),
])
def test_the_tokens_file_takes_a_name_and_a_group(tmp_path: Path, line: str, match: str | None) -> None:
    from workers.batch import UsageError
    from workers.server.auth import load_tokens

    path = tmp_path / "tokens"
    path.write_text(line.format(d=_digest("alice")) + "\n")
    if match is None:
        tokens = load_tokens(path)
        assert tokens[_digest("alice")] == "a" and tokens.sees(_digest("alice")) == (_digest("alice"),)
    else:
        with pytest.raises(UsageError, match=rf"--tokens '.*' line 1: {match}"):
            load_tokens(path)
