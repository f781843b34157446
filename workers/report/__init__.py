"""Reports people would rather look at than read.

``realmsim report RUN_OR_BATCH --out DIR [--lang fr]``:

* a run — a ledger written by ``realmsim run --ledger FILE`` (msgpack stream or ``.jsonl``) or a save
  file — gives ``seasons.csv``/``.parquet`` (one row per season and faction, one column per system and
  metric: ``km.unrest`` and ``cv.unrest`` apart, whole numbers as integers), and when it has caravans
  ``convoy_days.csv``/``.parquet`` (one row per convoy and day of its journey) and ``journeys.csv``;
  the plots ``treasury``, ``unrest``, ``territory``, ``armies``, ``treaties`` (per season),
  ``caravans`` and ``journeys`` (per day), for the systems the run has; and one PNG per metric under
  ``metrics/``;
* a batch — the tidy tables written by ``realmsim batch`` (``.csv``/``.parquet``) — gives a bounded set
  of files (:mod:`workers.report.batch`): ``index.html``, ``distribution.csv``, ``factions.csv``, an
  overview per system, end values per faction kind, quantile bands over the seasons, the findings.

The public functions below take tables and return matplotlib Figures, apart from the ones that write
files (:func:`report`, :func:`report_run`, :func:`report_batch`): a server or a notebook uses
:func:`season_table`, :func:`convoy_days`, :func:`standard_figure` and :func:`png_bytes` (or
:func:`render_png` in one call) without touching the disk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from sim.events import Event
from workers.report.draw import palette, png_bytes
from workers.report.figures import (
    CONVOY_METRICS,
    STANDARD,
    STANDARD_PLOTS,
    batch_metrics,
    by_faction_figure,
    caravans_figure,
    convoy_metric_figure,
    distribution_figure,
    journeys_figure,
    metric_figure,
    overview_figure,
    season_figure,
    standard_figure,
)
from workers.report.names import axis_label, check_lang, metric_name
from workers.report.tables import (
    ReportError,
    campaign_info,
    convoy_days,
    convoy_journeys,
    metric_columns,
    read_batch,
    read_events,
    season_table,
    whole_numbers,
)

__all__ = [
    "CONVOY_METRICS", "STANDARD", "STANDARD_PLOTS", "ReportError", "RunTables", "axis_label", "batch_metrics",
    "by_faction_figure", "campaign_info", "caravans_figure", "convoy_days", "convoy_journeys",
    "convoy_metric_figure", "distribution_figure", "journeys_figure", "metric_figure", "metric_name",
    "overview_figure", "palette", "png_bytes", "read_batch", "read_events", "render_png", "report",
    "report_batch", "report_run", "run_figures", "run_tables", "season_figure", "season_table",
    "standard_figure", "whole_numbers",
]


class RunTables:
    """The tables of one run: ``seasons`` (always), ``days`` and ``journeys`` (empty without caravans),
    ``info`` (scenario, seed, systems, end from ``CampaignStarted``; ``last_hour``, the last event's)."""

    def __init__(self, events: list[Event]) -> None:
        self.info = campaign_info(events)
        if events:
            self.info["last_hour"] = events[-1].t  # where the ledger stops (a convoy still on the road ends there)
        self.seasons = season_table(events)
        self.days = convoy_days(events)
        self.journeys = convoy_journeys(events)


def run_tables(events: list[Event]) -> RunTables:
    return RunTables(events)


def run_figures(tables: RunTables, lang: str = "en") -> dict[str, Figure]:
    """Every figure of a run's report, by file name without ``.png`` (``treasury``,
    ``metrics/km_treasury``…)."""
    check_lang(lang)
    out: dict[str, Figure] = {}
    t = tables
    for name in STANDARD_PLOTS:
        fig = standard_figure(name, t.seasons, days=t.days, journeys=t.journeys, info=t.info, lang=lang)
        if fig is not None:
            out[name] = fig
    for c in metric_columns(t.seasons):
        if c.startswith("cv."):
            continue  # caravans are drawn by day, below
        fig = metric_figure(t.seasons, c, info=t.info, lang=lang)
        if fig is not None:
            out[f"metrics/{c.replace('.', '_')}"] = fig
    if len(t.days):
        for c in CONVOY_METRICS:
            out[f"metrics/{c.replace('.', '_')}"] = convoy_metric_figure(t.days, c, journeys=t.journeys,
                                                                          info=t.info, lang=lang)
    return out


def render_png(events: list[Event], name: str, lang: str = "en") -> bytes | None:
    """One standard plot of a run (a name of :data:`STANDARD_PLOTS`) as PNG bytes; ``None`` when the
    run has nothing to draw in it (no kingdoms for ``unrest``…)."""
    check_lang(lang)
    t = RunTables(events)
    fig = standard_figure(name, t.seasons, days=t.days, journeys=t.journeys, info=t.info, lang=lang)
    return None if fig is None else png_bytes(fig)


def _write_table(df: Any, out: Path, stem: str) -> list[Path]:
    csv, parquet = out / f"{stem}.csv", out / f"{stem}.parquet"
    df.to_csv(csv, index=False)
    df.to_parquet(parquet, index=False)
    return [csv, parquet]


def _write_figures(figures: dict[str, Figure], out: Path) -> list[Path]:
    written = []
    for name, fig in figures.items():
        p = out / f"{name}.png"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(png_bytes(fig))
        written.append(p)
    return written


def report_run(path: Path, out: Path, lang: str = "en") -> list[Path]:
    events = read_events(path)  # checked at the reading boundary (workers.report.ledger)
    try:
        t = RunTables(events)
    except ReportError as e:
        raise ReportError(f"{path}: {e}") from None
    out.mkdir(parents=True, exist_ok=True)
    written = _write_table(t.seasons, out, "seasons")
    if len(t.days):
        written += _write_table(t.days, out, "convoy_days")
        t.journeys.to_csv(out / "journeys.csv", index=False)
        written.append(out / "journeys.csv")
    return written + _write_figures(run_figures(t, lang), out)


def report_batch(path: Path, out: Path, lang: str = "en", *, command: str = "") -> list[Path]:
    """The report of a batch's tables (:mod:`workers.report.batch`): a bounded set of files."""
    from workers.report.batch import report_batch as write

    return write(path, out, lang, command=command)


def report(path: Path, out: Path, lang: str = "en", *, command: str = "") -> list[Path]:
    """Write the report of a run (ledger or save file) or of a batch (``.csv``/``.parquet``) under
    ``out``; returns the files written."""
    check_lang(lang)
    if not path.exists():
        raise ReportError(f"{path}: no such file")
    if path.suffix in (".csv", ".parquet"):
        return report_batch(path, out, lang, command=command)
    return report_run(path, out, lang)

