"""An ended batch's overview on a real server: ``GET /v1/batches/{id}/report`` (the figures and findings of
``realmsim report``), its figures as PNG (``/report/NAME.png``), the batch page that shows them, and
what the OpenAPI schema says of both routes (issue 25 item 5)."""

from __future__ import annotations

import struct
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from .conftest import Server, problem_paths

pytestmark = pytest.mark.slow  # a server and batches

SEEDS = [1, 2, 3]


def _png_size(body: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR", body[:16]
    w, h = struct.unpack(">II", body[16:24])
    return int(w), int(h)


@pytest.fixture(scope="module")
def ended(server: Server) -> dict[str, Any]:
    """A finished guild-war batch of three seeds whose report nobody has asked for yet."""
    r = server.post("/v1/batches", {"scenario": "guild-war", "seeds": "1..3"})
    assert r.status_code == 201, r.text
    rec = server.wait("batches", r.json()["id"], timeout=300)
    assert (rec["status"], rec["done"]) == ("finished", 3), rec
    return rec


def test_the_report_of_an_ended_batch_is_made_once_for_requests_that_come_together(server: Server) -> None:
    """Four first requests at once (a page, its figures, another client) each get the report: before,
    each made it in the same temporary folder and three of the four failed with a 500."""
    bid = server.post("/v1/batches", {"scenario": "caravan-crossing", "seeds": "1..2"}).json()["id"]
    assert server.wait("batches", bid, timeout=300)["status"] == "finished"
    path = f"/v1/batches/{bid}/report"

    def ask(_: int) -> httpx.Response:
        with server.client() as c:
            return c.get(path, timeout=300)

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(ask, range(4)))
    assert [a.status_code for a in answers] == [200] * 4, [a.text[:300] for a in answers]
    assert len({a.text for a in answers}) == 1
    assert "Traceback" not in server.log()


def test_the_report_has_the_figures_and_findings_of_the_batch(server: Server, ended: dict[str, Any]) -> None:
    bid = ended["id"]
    r = server.get(f"/v1/batches/{bid}/report")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    rep = r.json()
    assert rep["id"] == bid and rep["campaigns"] == 3
    assert bid in rep["command"] and rep["command"].startswith("realmsim report ")
    # docs/reports.md: one overview per system, and per faction kind its end values and its seasons
    assert sorted(rep["figures"]) == ["factions_guild", "overview_gw", "series_guild"]
    assert rep["links"] == {n: f"/v1/batches/{bid}/report/{n}.png" for n in rep["figures"]}
    assert server.get(f"/v1/batches/{bid}").json()["links"]["report"] == f"/v1/batches/{bid}/report"
    for link in rep["links"].values():
        png = server.get(link)
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        w, h = _png_size(png.content)
        assert w >= 600 and h >= 300, (link, w, h)
    assert rep["findings"], "five guilds over five years: at least one finding (idle, dominant order…)"
    for f in rep["findings"]:
        assert f["total"] == 3 and 1 <= f["count"] <= 3 and set(f["seeds"]) <= set(SEEDS), f
        assert f["share"] == pytest.approx(f["count"] / 3, abs=1e-4)
        assert f["replay"].startswith("realmsim run guild-war --seed "), f


def test_the_batch_page_shows_the_overview(server: Server, ended: dict[str, Any]) -> None:
    bid = ended["id"]
    page = server.get(f"/batches/{bid}")
    assert page.status_code == 200
    rep = server.get(f"/v1/batches/{bid}/report").json()
    for name in rep["figures"]:
        assert f'<img src="/v1/batches/{bid}/report/{name}.png"' in page.text
    assert "<h3>Findings</h3>" in page.text and rep["findings"][0]["title"].split(" (")[0] in page.text
    assert f"realmsim report {bid}.parquet" in page.text


def test_a_running_batch_has_no_report_yet_and_a_cancelled_one_has_what_it_ran(server: Server) -> None:
    bid = server.post("/v1/batches", {"scenario": "realm", "seeds": "1..40"}).json()["id"]
    r = server.get(f"/v1/batches/{bid}/report")
    assert r.status_code == 409 and r.json()["error"] == "not_yet", r.text
    assert "report is made when it ends" in r.json()["message"]
    assert server.get(f"/v1/batches/{bid}/report/overview_km.png").status_code == 409
    cancelled = server.post(f"/v1/batches/{bid}/cancel", {}).json()
    time.sleep(0.5)
    done = server.get(f"/v1/batches/{bid}").json()["done"]
    r = server.get(f"/v1/batches/{bid}/report")
    if done == 0:
        assert r.status_code == 409 and "has no result" in r.json()["message"], r.text
    else:
        assert r.status_code == 200 and r.json()["campaigns"] == done, r.text
    assert cancelled["status"] == "cancelled"


@pytest.mark.parametrize("name", ["nope.png", "overview_gw", "overview_km.png", "OVERVIEW_GW.png", "report.json",
                                  "overview_gw.png.png", "..%2Freport.json"])
def test_a_figure_not_in_the_report_is_a_404_naming_it(server: Server, ended: dict[str, Any], name: str) -> None:
    r = server.get(f"/v1/batches/{ended['id']}/report/{name}")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/json"), r.text
    assert r.json()["error"] == "not_found"
    if "/" not in name and "%2F" not in name:  # a slash, even encoded, matches no route: the router's 404
        assert problem_paths(r) == ["name"]


def test_an_unknown_batch_has_no_report(server: Server) -> None:
    for path in ("/v1/batches/nope/report", "/v1/batches/nope/report/overview_gw.png"):
        r = server.get(path)
        assert r.status_code == 404 and problem_paths(r) == ["batch_id"], r.text


def test_the_openapi_schema_describes_the_report_and_its_errors(server: Server) -> None:
    schema = server.get("/docs/openapi.json").json()
    report = schema["paths"]["/v1/batches/{batch_id}/report"]["get"]["responses"]
    figure = schema["paths"]["/v1/batches/{batch_id}/report/{name}"]["get"]["responses"]
    assert report["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/BatchReport"}
    assert "image/png" in figure["200"]["content"]
    for responses in (report, figure):
        for code in ("404", "409"):
            assert responses[code]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
    comps = schema["components"]["schemas"]
    assert set(comps["BatchReport"]["required"]) == {"id", "campaigns", "command", "figures", "links", "findings",
                                                     "not_checked"}
    assert {"kind", "title", "seeds", "replay", "count", "total", "share"} <= set(comps["BatchFinding"]["required"])
    assert set(comps["ErrorBody"]["required"]) == {"error", "message", "problems"}
