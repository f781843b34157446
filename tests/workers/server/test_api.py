"""The API against a real server (uvicorn in a subprocess, local pool): scenarios, campaigns, the
ledger paged and streamed, season tables and plots, forks, batches, cancelling, bad requests."""

from __future__ import annotations

import csv
import io
import json
import re
import time

import pyarrow.parquet as pq
import pytest

from agents.campaign import run_campaign
from sim.calendar import HOURS_PER_SEASON
from workers.job import make_job, run_job_dict

from .conftest import Server, problem_paths

pytestmark = pytest.mark.slow

BAD_TOML = """
[scenario]
name = "broken"
systems = ["cv", "xx"]
duration = { days = "two" }

[map]
rows = ["PPP"]
"""


@pytest.fixture(scope="module")
def finished(server: Server) -> dict:
    """mare-nostrum seed 3, run to its end on the server."""
    r = server.post("/v1/campaigns", {"scenario": "mare-nostrum", "seed": 3})
    assert r.status_code == 201, r.text
    return server.wait("campaigns", r.json()["id"])


# ---- scenarios -------------------------------------------------------------------------------------
def test_the_built_in_scenarios_are_listed_with_their_systems(server: Server) -> None:
    r = server.get("/v1/scenarios/")
    assert r.status_code == 200
    by_name = {s["name"]: s for s in r.json()}
    assert set(by_name) == {"caravan-crossing", "guild-war", "mare-nostrum", "realm", "stolen-lands"}
    assert by_name["realm"]["systems"] == ["km", "mn", "gw", "cv"]
    assert by_name["stolen-lands"]["seasons"] == 40
    assert "convoy:amber" in by_name["caravan-crossing"]["factions"]


def test_validate_reports_every_problem_as_the_command_line_does(server: Server, tmp_path, capsys) -> None:
    from workers.cli import main

    r = server.post("/v1/scenarios/validate", {"text": BAD_TOML})
    assert r.status_code == 200
    body = r.json()
    assert body["valid"] is False
    got = {(p["path"], p["expected"], p["found"]) for p in body["problems"]}
    assert ("duration.days", "an integer >= 1", '"two" (a string)') in got or any(p[0].endswith("days") for p in got)
    assert any(p[0] == "scenario.systems[1]" for p in got), got
    # the same problems, word for word, as `realmsim validate FILE`
    f = tmp_path / "broken.toml"
    f.write_text(BAD_TOML, encoding="utf-8")
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    for path, expected, found in got:
        assert f"{path}: expected {expected}, found {found}" in err


def test_validate_accepts_a_good_scenario_and_names_it(server: Server) -> None:
    r = server.post("/v1/scenarios/validate", {"scenario": "guild-war"})
    assert r.status_code == 200
    assert r.json()["valid"] is True and r.json()["scenario"]["systems"] == ["gw"]


def test_scenario_text_from_the_network_may_not_import_code_or_read_files(server: Server) -> None:
    from scenarios.loader import builtin_path

    text = builtin_path("stolen-lands").read_text(encoding="utf-8")
    evil = text.replace('policy = "heuristic"', 'policy = "os:system"', 1)
    assert evil != text
    r = server.post("/v1/scenarios/validate", {"text": evil})
    assert r.json()["valid"] is False
    (p,) = [p for p in r.json()["problems"] if p["path"].endswith(".policy")]
    assert p["found"] == '"os:system"' and "registered policy" in p["expected"]
    r = server.post("/v1/campaigns", {"text": evil})
    assert r.status_code == 422 and any(path.endswith(".policy") for path in problem_paths(r))
    # an orders file would be read from the server's disk: refused before the loader sees it
    with_file = text.replace('[[kingdoms]]', '[[kingdoms]]\norders_file = "/etc/passwd"', 1)
    r = server.post("/v1/campaigns", {"text": with_file})
    assert r.status_code == 422
    assert problem_paths(r) == ["kingdoms[0].orders_file"]
    assert "a file of the server's disk" in r.json()["problems"][0]["expected"]
    # a name is never a path
    r = server.post("/v1/campaigns", {"scenario": "/etc/passwd"})
    assert r.status_code == 422 and problem_paths(r) == ["(scenario)"]


# ---- a campaign, its ledger, its tables ------------------------------------------------------------
def test_a_campaign_gives_the_same_ledger_as_the_command_line(server: Server, finished: dict) -> None:
    assert finished["status"] == "finished", finished
    direct = run_campaign("mare-nostrum", 3, keep_ledger=False, collect=False)
    assert finished["ledger_sha256"] == direct.ledger_sha256
    assert finished["progress"]["events"] == direct.events
    assert finished["progress"]["fraction"] == 1.0 and finished["progress"]["season"] == 40
    assert finished["summary"]["mn.missions"] == direct.summary["mn.missions"]
    factions = {f["faction"]: f for f in finished["factions"]}
    assert set(factions) == {"nation:athens", "nation:carthage", "nation:egypt", "nation:macedon", "nation:rome"}
    assert factions["nation:rome"]["kind"] == "nation"
    assert factions["nation:rome"]["metrics"] == direct.model.season_metrics()["nation:rome"]


def test_events_page_through_the_whole_ledger_without_gaps(server: Server, finished: dict) -> None:
    cid, total = finished["id"], finished["progress"]["events"]
    seqs: list[int] = []
    after = -1
    while True:
        page = server.get(f"/v1/campaigns/{cid}/events", after=after, limit=1000).json()
        seqs += [e["seq"] for e in page["events"]]
        if page["next_after"] is None:
            break
        after = page["next_after"]
    assert seqs == list(range(total))


def test_events_are_filtered_by_kind_actor_season_and_faction(server: Server, finished: dict) -> None:
    cid = finished["id"]
    seasons = server.get(f"/v1/campaigns/{cid}/events", kind="SeasonSummarized", limit=1000).json()["events"]
    assert [e["data"]["season"] for e in seasons] == list(range(40))
    rome = server.get(f"/v1/campaigns/{cid}/events", actor="nation:rome", limit=1000).json()["events"]
    assert rome and all(e["actor"] == "nation:rome" for e in rome)
    s5 = server.get(f"/v1/campaigns/{cid}/events", season=5, limit=1000).json()["events"]
    assert s5 and all(5 * HOURS_PER_SEASON <= e["t"] < 6 * HOURS_PER_SEASON for e in s5)
    # a faction's events include its ambassadors', which the actor filter alone would miss
    fac = server.get(f"/v1/campaigns/{cid}/events", faction="nation:rome", limit=1000).json()["events"]
    assert {e["actor"].partition(":")[0] for e in fac} >= {"nation", "ambassador"}
    assert all("nation:rome" in e["factions"] for e in fac)
    lines = server.get(f"/v1/campaigns/{cid}/events", chronicle="true", limit=50).json()["events"]
    assert all(e["chronicle"] or e["kind"] in ("SeasonSummarized", "CampaignEnded") for e in lines)
    assert re.match(r"Y\d+ \w+ M\d+ D\d+ \d\dh  ", next(e["chronicle"] for e in lines if e["chronicle"]))


def test_a_stream_read_late_has_every_event_from_the_start_then_the_end(server: Server, finished: dict) -> None:
    events = server.sse(f"/v1/campaigns/{finished['id']}/stream")
    ledger = [d for ev, _, d in events if ev == "ledger"]
    assert [d["seq"] for d in ledger] == list(range(finished["progress"]["events"]))
    assert [e for e, _, _ in events][-1] == "end"
    assert events[-1][2]["status"] == "finished" and events[-1][2]["ledger_sha256"] == finished["ledger_sha256"]
    # Last-Event-ID: a client that reconnects gets what follows
    again = server.sse(f"/v1/campaigns/{finished['id']}/stream", headers={"Last-Event-ID": "99"})
    assert again[0][1] == "100" and again[0][2]["seq"] == 100


def test_a_stream_followed_live_gets_every_event_then_the_end(server: Server) -> None:
    r = server.post("/v1/campaigns", {"scenario": "realm", "seed": 2, "until": 2})
    cid = r.json()["id"]
    events = server.sse(f"/v1/campaigns/{cid}/stream")  # connects while the campaign is queued or running
    rec = server.wait("campaigns", cid)
    assert rec["status"] == "stopped" and rec["progress"]["hour"] == 2 * HOURS_PER_SEASON
    assert [d["seq"] for ev, _, d in events if ev == "ledger"] == list(range(rec["progress"]["events"]))
    assert events[-1][0] == "end" and events[-1][2]["status"] == "stopped"
    direct = run_campaign("realm", 2, until=2 * HOURS_PER_SEASON, keep_ledger=False, collect=False)
    assert rec["ledger_sha256"] == direct.ledger_sha256


def test_the_season_table_as_csv_and_parquet(server: Server, finished: dict) -> None:
    cid = finished["id"]
    r = server.get(f"/v1/campaigns/{cid}/seasons.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert rows[0].keys() >= {"season", "hour", "faction"}
    # (workers/report.py names the metric columns: "treasury", or "mn.treasury" since its rewrite)
    treasury = next(c for c in rows[0] if c.rpartition(".")[2] == "treasury")
    assert len(rows) == 41 * 5  # 40 season summaries and the end, 5 nations
    assert {r["faction"] for r in rows} == {"nation:athens", "nation:carthage", "nation:egypt", "nation:macedon", "nation:rome"}
    assert float(rows[0]["season"]) == 0 and rows[0][treasury] == "50"  # 50 PO: a nation's treasury when the scenario names none (sim/state/mn.py)
    table = pq.read_table(io.BytesIO(server.get(f"/v1/campaigns/{cid}/seasons.parquet").content)).to_pylist()
    assert [(t["faction"], t[treasury]) for t in table] == [(r["faction"], int(r[treasury])) for r in rows]


def test_the_plots_are_pngs(server: Server) -> None:
    r = server.post("/v1/campaigns", {"scenario": "caravan-crossing", "seed": 1})
    cid = server.wait("campaigns", r.json()["id"])["id"]
    names = [u.rsplit("/", 1)[1] for u in server.get(f"/v1/campaigns/{cid}/plots").json()["plots"]]
    # the standard plots and the per-metric ones (metrics/ in `realmsim report`), as workers/report.py names them
    assert any(n.startswith("metric-") for n in names) and any(not n.startswith("metric-") for n in names), names
    assert any("provisions" in n for n in names), names
    for name in names[:3]:
        png = server.get(f"/v1/campaigns/{cid}/plots/{name}")
        assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert server.get(f"/v1/campaigns/{cid}/plots/..%2F..%2Fetc%2Fpasswd").status_code == 404


def test_the_plots_of_a_caravan_campaign_stopped_before_any_convoy_arrived(server: Server) -> None:
    # issue 30: the journeys plot raised "boolean value of NA is ambiguous" (a 500) when no convoy had an end
    r = server.post("/v1/campaigns", {"scenario": "caravan-crossing", "seed": 7, "until": "2d"})
    assert r.status_code == 201, r.text
    cid = server.wait("campaigns", r.json()["id"])["id"]
    listing = server.get(f"/v1/campaigns/{cid}/plots")
    assert listing.status_code == 200, listing.text
    names = [u.rsplit("/", 1)[1] for u in listing.json()["plots"]]
    assert "journeys.png" in names and "caravans.png" in names, names
    png = server.get(f"/v1/campaigns/{cid}/plots/journeys.png")
    assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_map_has_the_terrain_and_the_factions(server: Server, finished: dict) -> None:
    body = server.get(f"/v1/campaigns/{finished['id']}/map").json()
    m, st = body["map"], body["state"]
    assert len(m["terrain"]) == m["width"] * m["height"] == 22 * 12
    assert st["season"] == 40 and {n["key"] for n in st["nations"]} >= {"nation:rome"}
    assert st["cities"] and st["embassies"]
    early = server.get(f"/v1/campaigns/{finished['id']}/map", season=2).json()["state"]
    assert early["hour"] == 2 * HOURS_PER_SEASON


# ---- forks -------------------------------------------------------------------------------------------
def test_a_fork_that_changes_nothing_ends_exactly_as_its_parent(server: Server, finished: dict) -> None:
    r = server.post(f"/v1/campaigns/{finished['id']}/fork", {"season": 7})
    assert r.status_code == 201, r.text
    fork = server.wait("campaigns", r.json()["id"])
    assert fork["status"] == "finished"
    assert fork["fork_of"] == {"id": finished["id"], "season": 7, "hour": 7 * HOURS_PER_SEASON}
    assert fork["ledger_sha256"] == finished["ledger_sha256"]


def test_a_fork_at_a_day_inside_a_season_that_changes_nothing_ends_exactly_as_its_parent(
        server: Server, finished: dict) -> None:
    r = server.post(f"/v1/campaigns/{finished['id']}/fork", {"season": 7, "day": 17})
    assert r.status_code == 201, r.text
    fork = server.wait("campaigns", r.json()["id"])
    assert fork["status"] == "finished"
    assert fork["fork_of"] == {"id": finished["id"], "season": 7, "hour": 7 * HOURS_PER_SEASON + 17 * 24}
    assert fork["ledger_sha256"] == finished["ledger_sha256"]


def test_a_fork_with_another_policy_shares_the_past_and_then_differs(server: Server, finished: dict) -> None:
    r = server.post(f"/v1/campaigns/{finished['id']}/fork", {"season": 10, "faction": "nation:rome", "policy": "random"})
    fork = server.wait("campaigns", r.json()["id"])
    assert fork["status"] == "finished", fork
    assert fork["ledger_sha256"] != finished["ledger_sha256"]
    cut = 10 * HOURS_PER_SEASON
    mine = server.get(f"/v1/campaigns/{fork['id']}/events", limit=1000).json()["events"]
    theirs = server.get(f"/v1/campaigns/{finished['id']}/events", limit=1000).json()["events"]
    before = [e for e in theirs if e["t"] < cut]
    assert before and mine[:len(before)] == before
    # from the fork on, Rome decides at random: its decisions say so
    decided = [e for e in mine if e["t"] >= cut and e["actor"] == "nation:rome" and e["kind"] == "DecisionMade"]
    assert decided and all(e["data"].get("policy", "random") == "random" for e in decided)


# ---- batches -----------------------------------------------------------------------------------------
def test_a_batch_runs_every_seed_and_gives_its_results(server: Server) -> None:
    r = server.post("/v1/batches", {"scenario": "caravan-crossing", "seeds": "1..3", "overrides": {"cv.fatigued_penalty": 3}})
    assert r.status_code == 201, r.text
    bid = r.json()["id"]
    progress = server.sse(f"/v1/batches/{bid}/stream")
    assert progress[-1][0] == "end" and progress[-1][2]["done"] == 3
    rec = server.wait("batches", bid)
    assert (rec["status"], rec["done"], rec["dead"], rec["total"]) == ("finished", 3, 0, 3)
    rows = list(csv.DictReader(io.StringIO(server.get(f"/v1/batches/{bid}/results.csv").text)))
    assert [int(r["seed"]) for r in rows] == [1, 2, 3]
    job = run_job_dict(make_job({"name": "caravan-crossing"}, 3, overrides={"cv.fatigued_penalty": 3}))
    assert rows[2]["ledger_sha256"] == job["ledger_sha256"]
    table = pq.read_table(io.BytesIO(server.get(f"/v1/batches/{bid}/results.parquet").content)).to_pylist()
    assert [t["ledger_sha256"] for t in table] == [r["ledger_sha256"] for r in rows]


def test_a_cancelled_batch_stops_and_keeps_what_it_had(server: Server) -> None:
    r = server.post("/v1/batches", {"scenario": "realm", "seeds": "1..40"})
    bid = r.json()["id"]
    time.sleep(1.0)
    r = server.client().post(f"/v1/batches/{bid}/cancel")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "cancelled"
    done = r.json()["done"]
    assert done < 40
    time.sleep(2.0)
    assert server.get(f"/v1/batches/{bid}").json()["done"] == done  # nothing more arrives
    again = server.client().post(f"/v1/batches/{bid}/cancel")
    assert again.status_code == 409 and again.json()["error"] == "conflict"
    gone = server.client().delete(f"/v1/batches/{bid}")
    assert gone.status_code == 204
    for path in (f"/v1/batches/{bid}", f"/v1/batches/{bid}/results.csv"):
        assert server.get(path).status_code == 404, path
    assert bid not in [b["id"] for b in server.get("/v1/batches").json()["batches"]]


def test_a_cancelled_campaign_stops(server: Server) -> None:
    cid = server.post("/v1/campaigns", {"scenario": "realm", "seed": 9}).json()["id"]
    server.wait("campaigns", cid, until=("running",))
    r = server.client().post(f"/v1/campaigns/{cid}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    events = server.sse(f"/v1/campaigns/{cid}/stream")
    assert events[-1][0] == "end" and events[-1][2]["status"] == "cancelled"
    assert server.get(f"/v1/campaigns/{cid}").json()["status"] == "cancelled"  # cancelled, not deleted
    assert server.get(f"/v1/campaigns/{cid}/events").status_code == 200


def test_a_deleted_campaign_is_gone_with_its_ledger_even_while_it_ran(server: Server) -> None:
    cid = server.post("/v1/campaigns", {"scenario": "realm", "seed": 10}).json()["id"]
    server.wait("campaigns", cid, until=("running",))
    with server.client() as c:
        r = c.delete(f"/v1/campaigns/{cid}")
        assert r.status_code == 204, r.text
        for path in ("", "/events", "/map", "/stream", "/plots", "/seasons.csv"):
            assert c.get(f"/v1/campaigns/{cid}{path}").status_code == 404, path
        assert c.delete(f"/v1/campaigns/{cid}").status_code == 404
        assert cid not in [x["id"] for x in c.get("/v1/campaigns").json()["campaigns"]]


# ---- bad requests: 4xx, JSON, with the problem's path ---------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "body", "status", "where"),
    [
        ("post", "/v1/campaigns", {"scenario": "no-such"}, 422, "(scenario)"),
        ("post", "/v1/campaigns", {"scenario": "realm", "seed": -1}, 400, "seed"),
        ("post", "/v1/campaigns", {"scenario": "realm", "sede": 3}, 400, "sede"),
        ("post", "/v1/campaigns", {}, 422, "scenario"),
        ("post", "/v1/campaigns", {"scenario": "realm", "text": "x"}, 422, "scenario"),
        ("post", "/v1/campaigns", {"scenario": "realm", "until": 400}, 422, "until"),
        ("post", "/v1/campaigns", {"scenario": "realm", "until": "3 weeks"}, 422, "until"),
        ("post", "/v1/campaigns", {"scenario": "realm", "overrides": {"cv.nope": 1}}, 422, "overrides"),
        ("post", "/v1/campaigns", {"text": "[scenario\n"}, 422, "(file)"),
        ("post", "/v1/batches", {"scenario": "realm", "seeds": "10..1"}, 422, "seeds"),
        ("post", "/v1/batches", {"scenario": "realm", "seeds": [1, -2]}, 400, "seeds"),
        ("get", "/v1/campaigns/nope", None, 404, "campaign_id"),
        ("get", "/v1/batches/nope/results.csv", None, 404, "batch_id"),
        ("get", "/v1/campaigns/nope/events?limit=5000", None, 400, "limit"),
    ],
)
def test_bad_requests_get_a_4xx_json_error_naming_the_problem(server: Server, method: str, path: str, body: object,
                                                              status: int, where: str) -> None:
    with server.client() as c:
        r = c.request(method, path, json=body) if body is not None else c.request(method, path)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert any(p == where or p.startswith(where + ".") for p in problem_paths(r)), r.json()


def test_bad_fork_requests(server: Server, finished: dict) -> None:
    base = f"/v1/campaigns/{finished['id']}/fork"
    r = server.post(base, {"season": -1})
    assert r.status_code == 400 and problem_paths(r) == ["season"]
    r = server.post(base, {"season": 3, "day": 90})
    assert r.status_code == 400 and problem_paths(r) == ["day"]
    r = server.post(base, {"season": 40})
    assert r.status_code == 422 and problem_paths(r) == ["season"]
    r = server.post(base, {"season": 39, "day": 89})  # the campaign's last day: a fork point
    assert r.status_code == 201, r.text
    given = [{"decision": "buy", "order": "pass"}]
    r = server.post(base, {"season": 3, "orders": given})
    assert r.status_code == 422 and problem_paths(r) == ["faction"]
    r = server.post(base, {"season": 3, "faction": "nation:rome", "orders": given, "orders_hour": 10})
    assert r.status_code == 422 and problem_paths(r) == ["orders_hour"]
    r = server.post(base, {"season": 3, "faction": "nation:rome", "orders_hour": 7000})
    assert r.status_code == 422 and problem_paths(r) == ["orders_hour"]
    r = server.post(base, {"season": 3, "faction": "nation:rome", "orders": [{"decision": "buy", "order": ""}]})
    assert r.status_code == 400 and problem_paths(r) == ["orders[0].order"]
    r = server.post(base, {"season": 3, "faction": "nation:sparta", "policy": "random"})
    assert r.status_code == 422 and problem_paths(r) == ["faction"]
    r = server.post(base, {"season": 3, "faction": "nation:rome", "policy": "evil.module:Policy"})
    assert r.status_code == 422 and problem_paths(r) == ["policy"]
    assert "registered nation policy" in r.json()["problems"][0]["expected"]
    r = server.post(base, {"season": 3, "faction": "nation:rome"})
    assert r.status_code == 422 and problem_paths(r) == ["policy"]


def test_malformed_and_oversized_bodies(server: Server) -> None:
    with server.client() as c:
        r = c.post("/v1/campaigns", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"] == "bad_request"
        r = c.post("/v1/scenarios/validate", content=json.dumps({"text": "#" * 3_000_000}).encode(),
                   headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "too_large"


def test_the_openapi_schema_and_reference(server: Server) -> None:
    schema = server.get("/docs/openapi.json").json()
    assert {"/v1/campaigns", "/v1/campaigns/{campaign_id}/fork", "/v1/batches/{batch_id}/stream"} <= set(schema["paths"])
    assert "CampaignRequest" in schema["components"]["schemas"]
    page = server.get("/docs")
    assert page.status_code == 200 and "/v1/campaigns/{campaign_id}/events" in page.text


# ---- explained decisions (issue 26) --------------------------------------------------------------
def test_a_campaign_created_to_explain_records_explained_decisions_and_so_do_its_forks(
        server: Server, finished: dict) -> None:
    r = server.post("/v1/campaigns", {"scenario": "mare-nostrum", "seed": 3, "until": 4, "explain": True})
    assert r.status_code == 201, r.text
    loud = server.wait("campaigns", r.json()["id"])
    assert loud["status"] in ("stopped", "finished"), loud

    def rome(cid: str) -> list[dict]:
        evs = server.get(f"/v1/campaigns/{cid}/events", actor="nation:rome", kind="DecisionMade", limit=1000).json()["events"]
        return [e for e in evs if e["t"] < 4 * HOURS_PER_SEASON]

    explained, compact = rome(loud["id"]), rome(finished["id"])
    assert explained and all("scored" in e["data"] and "score" not in e["data"] for e in explained)
    assert any(e["data"].get("alternatives") for e in explained)
    # the default campaign of the same seed: compact records of the same decisions
    assert [e["outcome"] for e in compact] == [e["outcome"] for e in explained]
    assert all("score" in e["data"] and "alternatives" not in e["data"] for e in compact)
    # a fork that changes nothing explains as its parent did: the same ledger
    r = server.post(f"/v1/campaigns/{loud['id']}/fork", {"season": 2, "until": 4})
    assert r.status_code == 201, r.text
    fork = server.wait("campaigns", r.json()["id"])
    assert fork["ledger_sha256"] == loud["ledger_sha256"]
