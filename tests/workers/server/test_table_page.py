"""The game master's table in a real headless Chromium (Debian's ``chromium``, driven by Playwright):

- a running ``realm`` campaign: zoom, click a hex (an army's token) and read its details, scrub back two
  seasons, ask advice for a kingdom there and give its orders in a fork, which then runs;
- ``caravan-crossing``: the convoys move between two days (the scrubber), and day by day (the player).

Each step leaves a screenshot under ``out/server-page/table/`` (printed at the end), to be looked at.
Without chromium (or Playwright) the tests are skipped with the reason, except under REQUIRE_BROWSER=1
or REQUIRE_REDIS=1 (CI), where they fail.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON

from .conftest import Server
from .test_page import ARTIFACTS, CHROMIUM_ARGS, _chromium

pytestmark = pytest.mark.slow

SHOTS = ARTIFACTS / "table"


def _open(p: Any, exe: str, errors: list[str]) -> tuple[Any, Any]:
    browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    page.on("pageerror", lambda e: errors.append(str(e)))
    return browser, page


def _until(fn: Any, timeout: float = 120, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = fn()
        if v:
            return v
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _view_width(page: Any) -> float:
    return float(page.locator("#map svg.hexmap").get_attribute("viewBox").split()[2])


def _click_a_visible(page: Any, selector: str) -> str:
    """Click the middle of the first element of ``selector`` inside the map's frame; its token id. (The
    live map is redrawn as the campaign runs: where it is is read in one go, in the page.)"""
    found = page.evaluate("""(sel) => {
        const frame = document.querySelector("#map svg.hexmap").getBoundingClientRect();
        for (const g of document.querySelectorAll(sel)) {
            const b = g.querySelector("path, circle").getBoundingClientRect();
            if (b.left > frame.left + 8 && b.right < frame.right - 8 && b.top > frame.top + 8 && b.bottom < frame.bottom - 8)
                return {token: g.dataset.token, x: b.left + b.width / 2, y: b.top + b.height * 0.65};
        }
        return null;
    }""", selector)
    assert found, f"no {selector} inside the map's frame"
    page.mouse.click(found["x"], found["y"])
    return str(found["token"])


def test_a_game_master_zooms_reads_a_hex_goes_back_two_seasons_and_gives_advised_orders_in_a_fork(make_server) -> None:
    exe = _chromium()
    from playwright.sync_api import sync_playwright

    s: Server = make_server().start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    r = s.post("/v1/campaigns", {"scenario": "realm", "seed": 2, "until": 10})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    _until(lambda: s.get(f"/v1/campaigns/{cid}").json()["progress"]["season"] >= 1, what="the campaign to start")
    errors: list[str] = []
    with sync_playwright() as p:
        browser, page = _open(p, exe, errors)
        try:
            page.goto(f"{s.url}/campaigns/{cid}")
            assert page.locator("#status").get_attribute("data-status") == "running"  # a running campaign
            page.wait_for_selector("#map svg.hexmap g.armies g.token")
            page.screenshot(path=str(SHOTS / "1-realm-running.png"))

            # zoom: twice in, the view a little over a third of the map's width
            whole = _view_width(page)
            page.click("#zoom-in")
            page.click("#zoom-in")
            assert _view_width(page) == pytest.approx(whole / 2.25, rel=0.02)
            page.check("#show-coords")
            assert "show-coords" in (page.locator("#map svg.hexmap").get_attribute("class") or "")

            # a click on an army's token: its hex's details in the side panel, the army first
            for _ in range(5):  # the live map is redrawn as the campaign runs: try again if it was
                token = _click_a_visible(page, "#map svg.hexmap g.token.army")
                try:
                    page.wait_for_selector(f'#details section.picked[data-token="{token}"]', timeout=3000)
                    break
                except Exception:  # noqa: BLE001 - redrawn under the click
                    continue
            panel = page.locator("#details").inner_text()
            coords = re.search(r"\[(\d+),(\d+)\]", panel)
            assert coords, panel
            picked = page.locator("#details section.picked").inner_text()
            assert token.removeprefix("army:") in picked
            assert "Strength" in picked and "Units" in picked and "Capacity" in picked
            assert re.search(r"Units\s+\d+: \d+ \w+", picked), picked
            page.screenshot(path=str(SHOTS / "2-realm-zoomed-hex-details.png"))

            # the campaign goes on to its stop; the page follows it live
            _until(lambda: page.locator("#status").get_attribute("data-status") == "stopped", timeout=300,
                   what="the campaign to stop at season 10")
            _until(lambda: page.evaluate("window.realmsim.present()") == 10 * HOURS_PER_SEASON, what="the present")

            # pan: a drag moves the zoomed view with the pointer
            x0, y0 = (float(v) for v in page.locator("#map svg.hexmap").get_attribute("viewBox").split()[:2])
            frame = page.locator("#map svg.hexmap").bounding_box()
            cx, cy = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
            page.mouse.move(cx, cy)
            page.mouse.down()
            page.mouse.move(cx - 120, cy - 60, steps=6)
            page.mouse.up()
            x1, y1, w1, _ = (float(v) for v in page.locator("#map svg.hexmap").get_attribute("viewBox").split())
            scale = w1 / frame["width"]  # map units per screen pixel
            assert (x1 - x0, y1 - y0) == (pytest.approx(120 * scale, rel=0.05), pytest.approx(60 * scale, rel=0.05))

            # back two seasons: the map, the chronicle and the standings of the start of season 8
            page.click("#back-season")
            page.click("#back-season")
            _until(lambda: page.locator("#map svg.hexmap").get_attribute("data-season") == "8", what="season 8 on the map")
            assert page.evaluate("window.realmsim.shown()") == 8 * HOURS_PER_SEASON
            assert page.locator(".mapdate b").inner_text() == "Y3 spring M1 D1 00h"
            assert not page.locator("#live").evaluate("b => b.classList.contains('on')")
            _until(lambda: "At Y3 spring M1 D1 00h" in page.locator("#standings").inner_text(), what="the standings then")
            assert "up to the moment shown" in page.locator("#lines-count").inner_text()
            assert page.locator("#advise input[name=season]").input_value() == "8"
            page.screenshot(path=str(SHOTS / "3-realm-two-seasons-back.png"), full_page=True)

            # advice for a kingdom at that season
            page.select_option("#advise select[name=faction]", "kingdom:avalon")
            page.click("#advise button[type=submit]")
            page.wait_for_selector("#advice-out table.advice-orders", timeout=60_000)
            advised = page.locator("#advice-out table.advice-orders tbody tr").count()
            assert advised >= 1
            assert "The kingdom" in page.locator("#advice-out .summary").inner_text()
            page.locator(".advice").screenshot(path=str(SHOTS / "4-realm-advice-avalon.png"))

            # its orders given in a fork, which runs
            page.fill("#apply input[name=until]", "10")
            page.click("#apply button[type=submit]")
            page.wait_for_url(lambda url: "/campaigns/c" in url and not url.endswith(cid), timeout=30_000)
            fid = page.url.rsplit("/", 1)[1]
            page.screenshot(path=str(SHOTS / "5-realm-fork-starts.png"))
            fork = s.wait("campaigns", fid, timeout=300)
            assert fork["status"] == "stopped" and fork["fork_of"] == {"id": cid, "season": 8, "hour": 8 * HOURS_PER_SEASON}
            m = re.search(r"the game master's orders for kingdom:avalon at .*?: (\d+) of (\d+) given", fork["note"] or "")
            assert m and int(m.group(2)) == advised, fork["note"]
            made = s.get(f"/v1/campaigns/{fid}/events", actor="kingdom:avalon", kind="DecisionMade", season=8,
                         limit=1000).json()["events"]
            assert sum(e["data"].get("policy") == "game master" for e in made) == int(m.group(1)) > 0
            _until(lambda: page.locator("#status").get_attribute("data-status") == "stopped", what="the fork's page")
            assert "game master's orders" in page.locator("#head-status").inner_text()
            page.screenshot(path=str(SHOTS / "6-realm-fork-with-the-orders.png"))
        finally:
            browser.close()
    assert not errors, errors
    print(f"\nscreenshots: {SHOTS}")


def _convoys(page: Any) -> dict[str, str]:
    return page.evaluate("() => Object.fromEntries([...document.querySelectorAll('#map svg.hexmap g.token.convoy')]"
                         ".map(g => [g.dataset.token, g.dataset.h]))")


def test_caravans_move_between_two_days_and_day_by_day(make_server) -> None:
    exe = _chromium()
    from playwright.sync_api import sync_playwright

    s: Server = make_server().start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    r = s.post("/v1/campaigns", {"scenario": "caravan-crossing", "seed": 1})
    cid = r.json()["id"]
    rec = s.wait("campaigns", cid)
    assert rec["status"] == "finished"
    errors: list[str] = []
    with sync_playwright() as p:
        browser, page = _open(p, exe, errors)
        try:
            page.goto(f"{s.url}/campaigns/{cid}")
            seen = {}
            for day in (8, 12):
                page.fill("#scrub", str(day))
                page.dispatch_event("#scrub", "input")
                _until(lambda day=day: page.locator("#map svg.hexmap").get_attribute("data-hour") == str(day * HOURS_PER_DAY),
                       what=f"day {day} on the map")
                seen[day] = _convoys(page)
                assert seen[day], f"no convoy on its way on day {day}"
                page.locator(".mapcard").screenshot(path=str(SHOTS / f"7-caravans-day-{day}.png"))
            moved = [k for k in seen[8] if k in seen[12] and seen[8][k] != seen[12][k]]
            assert moved, seen
            # the details of a convoy: cargo and crew
            token = _click_a_visible(page, "#map svg.hexmap g.token.convoy")
            page.wait_for_selector(f'#details section.picked[data-token="{token}"]')
            picked = page.locator("#details section.picked").inner_text()
            assert "Cargo" in picked and "Crew" in picked and "driver" in picked
            page.locator(".table").screenshot(path=str(SHOTS / "8-caravans-convoy-details.png"))

            # the player: a day at a time from day 0
            page.fill("#scrub", "0")
            page.dispatch_event("#scrub", "input")
            _until(lambda: page.locator("#map svg.hexmap").get_attribute("data-hour") == "0", what="day 0")
            page.click("#play")
            frames: list[tuple[int, dict[str, str]]] = []
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and len({h for h, _ in frames}) < 8:
                hour = int(page.locator("#map svg.hexmap").get_attribute("data-hour") or 0)
                if not frames or frames[-1][0] != hour:
                    frames.append((hour, _convoys(page)))
                time.sleep(0.05)
            page.click("#play")  # pause
            hours = [h for h, _ in frames]
            assert hours == sorted(hours) and len(hours) >= 8, hours
            assert all(b - a == HOURS_PER_DAY for a, b in zip(hours, hours[1:])), hours  # day by day
            assert sum(a != b for (_, a), (_, b) in zip(frames, frames[1:])) >= 3, frames
            page.locator(".mapcard").screenshot(path=str(SHOTS / "9-caravans-playing.png"))
        finally:
            browser.close()
    assert not errors, errors
    print(f"\nscreenshots: {SHOTS}")
