"""The report of a batch (issue 25): tidy tables in, a bounded set of files out, whatever the number of
campaigns; ``index.html`` opens in Chromium with every figure visible."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from workers.job import make_job, run_job_dict
from workers.output import write_results
from workers.report.batch import BatchData, distribution_table, report_batch

pytestmark = pytest.mark.slow  # campaigns and figures: `make test-fast` leaves them to `make test`

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "out" / "batch-report"
MAX_FILES = 60


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """guild-war (the shortest campaign with seasons and factions), seeds 1..4, with the convoy detail off."""
    d = tmp_path_factory.mktemp("batch")
    results = [run_job_dict(make_job({"name": "guild-war"}, s)) for s in (1, 2, 3, 4)]
    write_results(d / "b.parquet", results)
    return d / "b.parquet"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "bench" / "bench_report.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_tables_are_tidy(batch: Path) -> None:
    camp = pq.read_table(batch)
    assert camp.num_rows == 4 and camp.column("seed").to_pylist() == [1, 2, 3, 4]
    assert camp.column("campaign").to_pylist() == [0, 1, 2, 3]
    assert not any("[" in c and not c.startswith("set[") for c in camp.column_names)  # no column per faction
    factions = pq.read_table(batch.with_name("b.factions.parquet"))
    assert factions.num_rows == 4 * 5  # 5 guilds in guild-war
    assert {"faction", "kind", "policy", "score", "solars", "idle_months"} <= set(factions.column_names)
    seasons = pq.read_table(batch.with_name("b.seasons.parquet"))
    assert set(seasons.column("kind").to_pylist()) == {"guild"}
    assert {"campaign", "seed", "hour", "season", "faction", "solars"} <= set(seasons.column_names)


def test_the_report_of_a_batch_writes_a_bounded_set_of_files(batch: Path, tmp_path: Path) -> None:
    written = report_batch(batch, tmp_path / "rep", command="realmsim report b.parquet --out rep/")
    names = sorted(p.name for p in written)
    assert len(names) <= MAX_FILES and len(set(names)) == len(names)
    for must in ("index.html", "distribution.csv", "factions.csv", "findings.md", "findings.json",
                 "factions_guild.png", "series_guild.png", "overview_gw.png"):
        assert must in names
    page = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert "realmsim report b.parquet --out rep/" in page and "realmsim batch guild-war --seeds 1..4" in page
    assert all(f'src="{n}"' in page for n in names if n.endswith(".png"))


def test_ten_times_the_campaigns_gives_the_same_files(batch: Path, tmp_path: Path) -> None:
    small = {p.name for p in report_batch(batch, tmp_path / "small")}
    _bench().replicate(batch, tmp_path / "big.parquet", 40)
    assert BatchData(tmp_path / "big.parquet").count == 40
    big = {p.name for p in report_batch(tmp_path / "big.parquet", tmp_path / "big")}
    assert big == small


def test_the_distribution_table_counts_every_campaign(batch: Path) -> None:
    """Each metric's row: its four campaigns' values (the campaign table's column) summarised."""
    import statistics

    d = distribution_table(BatchData(batch))
    camp = pq.read_table(batch)
    for metric in ("gw.battles", "gw.loot_solars", "gw.units_destroyed"):
        values = [float(v) for v in camp.column(metric).to_pylist()]
        row = d.loc[metric]
        assert row["count"] == 4 and row["system"] == "gw"
        assert (row["min"], row["50%"], row["max"]) == (min(values), statistics.median(values), max(values))
        assert row["mean"] == pytest.approx(statistics.fmean(values))
        assert row["std"] == pytest.approx(statistics.stdev(values))
    assert d.loc["gw.battles", "name"] == "Battles" and d.loc["gw.loot_solars", "unit"] == "solars"


def test_the_overview_page_opens_in_chromium_with_every_figure_visible(batch: Path, tmp_path: Path) -> None:
    from tests.workers.server.test_page import CHROMIUM_ARGS, _chromium

    exe = _chromium()
    from playwright.sync_api import sync_playwright

    rep = tmp_path / "rep"
    report_batch(batch, rep)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto((rep / "index.html").as_uri())
        page.wait_for_load_state("load")
        imgs = page.locator("figure img")
        n = imgs.count()
        assert n >= 3
        for i in range(n):
            img = imgs.nth(i)
            img.scroll_into_view_if_needed()
            page.wait_for_function("(el) => el.complete", arg=img.element_handle())
            width = img.evaluate("el => el.naturalWidth")
            assert width > 0, f"figure {img.get_attribute('src')} did not load"
            assert img.is_visible()
            box = img.bounding_box()
            assert box is not None and box["width"] > 200 and box["height"] > 100
        assert page.locator(".findings").count() == 1
        page.screenshot(path=str(ARTIFACTS / "index.png"), full_page=True)
        browser.close()
