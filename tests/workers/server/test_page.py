"""The web page in a real headless Chromium (Debian's ``chromium``, driven by Playwright): it loads,
starts a campaign from its form, the map follows the seasons as they pass, the chronicle fills and
filters by faction; screenshots are kept under ``out/`` as test artifacts.

Without chromium (or Playwright) the test is skipped with the reason, except under REQUIRE_BROWSER=1
or REQUIRE_REDIS=1 (CI), where it fails.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from .conftest import Server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "out" / "server-page"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium() -> str:
    exe = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    problem = None
    if exe is None:
        problem = "Debian's chromium is not installed (apt-get install chromium; .ci/run installs it)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "the playwright package is not installed (make install installs it)"
    if problem:
        if os.environ.get("REQUIRE_BROWSER") == "1" or os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(f"the browser test is required here but {problem}")
        pytest.skip(problem)
    assert exe is not None
    return exe


def test_the_page_starts_a_campaign_and_its_map_follows_the_seasons(make_server) -> None:
    exe = _chromium()
    from playwright.sync_api import sync_playwright

    s: Server = make_server().start()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1100})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(s.url + "/")
            assert page.title() == "Campaigns and batches · realmsim"
            assert page.locator("#home-tables").inner_text().count("No campaign yet") == 1

            form = page.locator("#new-campaign")
            form.locator("select[name=scenario]").select_option("realm")
            form.locator("input[name=seed]").fill("2")
            form.locator("input[name=until]").fill("6")
            form.locator("button[type=submit]").click()
            page.wait_for_url("**/campaigns/c*")
            cid = page.url.rsplit("/", 1)[1]

            # the map's season, as the page shows it, sampled while the campaign runs
            seen: list[int] = []
            deadline = time.monotonic() + 180
            while time.monotonic() < deadline:
                season = page.evaluate("() => { const s = document.querySelector('#map svg.hexmap'); "
                                       "return s ? Number(s.dataset.season) : -1; }")
                if season >= 0 and (not seen or season != seen[-1]):
                    seen.append(season)
                if season == 6 and page.locator("#status").get_attribute("data-status") == "stopped":
                    break
                time.sleep(0.05)
            assert seen and seen[-1] == 6, seen
            assert seen == sorted(seen) and len(seen) >= 3, f"the map did not follow the seasons: {seen}"

            svg = page.locator("#map svg.hexmap")
            for layer in ("terrain", "territory", "borders", "settlements", "mn", "domains", "armies"):
                assert svg.locator(f"g.{layer}").count() == 1, layer
            assert svg.locator("g.army").count() > 0
            assert page.locator(".charts svg.chart").count() >= 6
            page.wait_for_function("() => window.realmsim && window.realmsim.lines() > 100")
            total = int(page.locator("#lines-count").inner_text().split()[0].replace(",", ""))
            page.screenshot(path=str(ARTIFACTS / "campaign.png"), full_page=True)

            page.locator("#faction").select_option("kingdom:avalon")
            filtered = int(page.locator("#lines-count").inner_text().split()[0].replace(",", ""))
            assert 0 < filtered < total
            page.screenshot(path=str(ARTIFACTS / "campaign-avalon.png"), full_page=True)

            page.goto(s.url + "/")
            row = page.locator(f'tr:has(a[href="/campaigns/{cid}"])')
            assert row.locator(".badge").inner_text() == "stopped"
            page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)
        finally:
            browser.close()
    assert not errors, errors
    print(f"\nscreenshots: {ARTIFACTS}")


def test_an_ended_batch_page_shows_its_figures_and_findings(make_server) -> None:
    """The batch page of an ended batch shows the overview of ``realmsim report``: every figure loads and
    is visible at a readable size, and the findings are listed (issue 25 item 5)."""
    exe = _chromium()
    from playwright.sync_api import sync_playwright

    s: Server = make_server().start()
    bid = s.post("/v1/batches", {"scenario": "guild-war", "seeds": "1..2"}).json()["id"]
    assert s.wait("batches", bid, timeout=300)["status"] == "finished"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1100})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{s.url}/batches/{bid}")
            page.wait_for_load_state("load")
            imgs = page.locator(".figures img")
            assert imgs.count() == 3, page.content()[:2000]  # overview_gw, factions_guild, series_guild
            for i in range(imgs.count()):
                img = imgs.nth(i)
                img.scroll_into_view_if_needed()
                page.wait_for_function("(el) => el.complete", arg=img.element_handle())
                assert img.evaluate("el => el.naturalWidth") > 0, f"{img.get_attribute('src')} did not load"
                box = img.bounding_box()
                assert img.is_visible() and box is not None and box["width"] > 400 and box["height"] > 200, box
            findings = page.locator(".findings li")
            assert findings.count() >= 1 and "realmsim run guild-war --seed" in page.locator(".findings").inner_text()
            page.screenshot(path=str(ARTIFACTS / "batch.png"), full_page=True)
        finally:
            browser.close()
    assert not errors, errors
