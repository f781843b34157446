"""The game master's table through the API of a real server: the map at any day, advice at a season of
a campaign (``POST /v1/campaigns/{id}/advise``), its orders given in a fork (``…/fork`` with ``orders``),
the page's fragments (details of a hex, standings)."""

from __future__ import annotations

import re

import pytest

from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON

from .conftest import Server, problem_paths

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lands(server: Server) -> dict:
    """stolen-lands seed 3, stopped at the start of season 6."""
    r = server.post("/v1/campaigns", {"scenario": "stolen-lands", "seed": 3, "until": 6})
    assert r.status_code == 201, r.text
    return server.wait("campaigns", r.json()["id"])


def test_the_map_of_any_day_the_campaign_reached(server: Server, lands: dict) -> None:
    base = f"/v1/campaigns/{lands['id']}/map"
    day = server.get(base, season=4, day=17).json()["state"]
    assert (day["hour"], day["season"]) == (4 * HOURS_PER_SEASON + 17 * HOURS_PER_DAY, 4)
    assert day["date"] == "Y2 spring M1 D18 00h"
    if "since" in day:  # nothing changed that day: the world as it was last seen to change, before it
        assert day["since"] < day["hour"]
    start = server.get(base, season=4).json()["state"]
    assert start["hour"] == 4 * HOURS_PER_SEASON and "since" not in start
    later = server.get(base, season=30).json()["state"]  # past the present: the present
    assert later["hour"] == 6 * HOURS_PER_SEASON
    r = server.get(base, season=4, day=90)
    assert r.status_code == 400 and problem_paths(r) == ["day"]


def test_advice_at_a_season_of_the_campaign_in_the_pages_language(server: Server, lands: dict) -> None:
    base = f"/v1/campaigns/{lands['id']}/advise"
    r = server.post(base, {"faction": "pitax", "season": 4, "lang": "fr"})
    assert r.status_code == 200, r.text
    body = r.json()
    a = body["advice"]
    assert (body["season"], body["hour"], a["faction"], a["lang"]) == (4, 4 * HOURS_PER_SEASON, "kingdom:pitax", "fr")
    assert a["hour"] >= body["hour"] and a["orders"] and a["summary"].startswith("Le royaume")
    assert [o["order"] for o in body["orders"]] == [o["order"] for o in a["orders"]]
    assert {o["decision"] for o in body["orders"]} <= {"envoy", "claim", "improvement", "building", "taxation", "holiday",
                                                        "promotion", "relation", "special", "balance", "lose_hex"}
    assert body["date"].startswith("An 2")


@pytest.mark.parametrize(("body", "status", "path"), [
    ({"faction": "kingdom:nobody", "season": 4}, 422, "faction"),
    ({"faction": "pitax", "season": 4, "policy": "evil.module:Policy"}, 422, "policy"),
    ({"faction": "pitax", "season": 40}, 422, "season"),
    ({"faction": "pitax", "season": 7}, 409, "season"),  # not reached: it stopped at season 6
    ({"faction": "pitax", "season": -1}, 400, "season"),
    ({"faction": "pitax"}, 400, "season"),
])
def test_bad_advice_requests(server: Server, lands: dict, body: dict, status: int, path: str) -> None:
    r = server.post(f"/v1/campaigns/{lands['id']}/advise", body)
    assert r.status_code == status, r.text
    assert path in problem_paths(r)


def test_advice_of_a_campaign_that_does_not_exist_is_404(server: Server) -> None:
    r = server.post("/v1/campaigns/c-nope/advise", {"faction": "pitax", "season": 1})
    assert r.status_code == 404 and problem_paths(r) == ["campaign_id"]


def test_the_advised_orders_given_in_a_fork_are_the_forks_decisions(server: Server, lands: dict) -> None:
    advised = server.post(f"/v1/campaigns/{lands['id']}/advise", {"faction": "kingdom:pitax", "season": 4}).json()
    orders, hour = advised["orders"], advised["advice"]["hour"]
    r = server.post(f"/v1/campaigns/{lands['id']}/fork", {"season": 4, "faction": "kingdom:pitax", "orders": orders,
                                                          "orders_hour": hour, "until": 6})
    assert r.status_code == 201, r.text
    fork = server.wait("campaigns", r.json()["id"])
    assert fork["status"] == "stopped", fork
    m = re.search(r"the game master's orders for kingdom:pitax at [^:]+: (\d+) of (\d+) given", fork["note"] or "")
    assert m and int(m.group(2)) == len(orders), fork["note"]
    given = int(m.group(1))
    events = server.get(f"/v1/campaigns/{fork['id']}/events", actor="kingdom:pitax", kind="DecisionMade",
                        limit=1000).json()["events"]
    by_gm = [e for e in events if e["data"].get("policy") == "game master"]
    assert len(by_gm) == given > 0 and all(e["t"] == hour for e in by_gm)
    assert [e["outcome"] for e in by_gm] == [o["order"] for o in orders if o["order"] in {e["outcome"] for e in by_gm}]
    # up to the fork point, the fork's ledger is its parent's
    cut = 4 * HOURS_PER_SEASON
    mine = server.get(f"/v1/campaigns/{fork['id']}/events", limit=1000).json()["events"]
    theirs = server.get(f"/v1/campaigns/{lands['id']}/events", limit=1000).json()["events"]
    before = [e for e in theirs if e["t"] < cut]
    assert before and mine[:len(before)] == before


def test_the_page_fragments_details_of_a_hex_and_standings(server: Server, lands: dict) -> None:
    st = server.get(f"/v1/campaigns/{lands['id']}/map", season=3).json()["state"]
    k = st["kingdoms"][0]
    h = k["hexes"][0]
    with server.client() as c:
        html = c.get(f"/ui/campaigns/{lands['id']}/hex", params={"h": h, "season": 3}).text
        assert "Held by" in html and k["name"] in html and f'data-h="{h}"' in html and "Y1 winter" in html
        panels = c.get(f"/ui/campaigns/{lands['id']}/panels", params={"season": 3}).text
        assert 'id="standings"' in panels and "At Y1 winter M10 D1 00h" in panels
        assert len(re.findall(r'<tr data-faction="kingdom:', panels)) >= len(st["kingdoms"])
        page = c.get(f"/campaigns/{lands['id']}").text
        assert 'id="scrub"' in page and 'id="advise"' in page and 'id="details"' in page
