"""The report's figures, each built from a table and returned as a matplotlib Figure (writing files is
the caller's business: ``workers.report`` writes PNGs, a server sends :func:`draw.png_bytes`).

Every panel is titled with its system and faction kind ("Kingdoms (KM) — Treasury"), its axes carry
readable names with units ("Treasury (BP)", "Season"), counts get whole-number ticks, a panel with
more than eight lines shows the top six in colour and the rest in grey, and many caravans become a
median line over a 10th–90th percentile band.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from sim.calendar import HOURS_PER_SEASON
from workers.report.draw import (
    GREY,
    HEAT_ROWS,
    HEAT_SPAN,
    MANY,
    TOP,
    Margins,
    Series,
    draw_band,
    draw_heatmap,
    draw_lines,
    end_markers,
    integer_ticks,
    legend_outside,
    new_figure,
    note,
    number,
    palette,
    plain,
)
from workers.report.names import (
    KINDS,
    axis_label,
    batch_title,
    kind_label,
    kind_plural,
    lookup,
    metric_name,
    one,
    panel_title,
    plot_title,
    system_label,
    system_of,
    text,
)

# The standard plots of a run: name → the season-table columns drawn, one panel each (the column's
# system names the faction kind). ``caravans`` and ``journeys`` are drawn from the convoy tables.
STANDARD: dict[str, list[str]] = {
    "treasury": ["km.treasury", "mn.treasury", "gw.solars"],
    "unrest": ["km.unrest"],
    "territory": ["km.size", "mn.provinces", "gw.domains"],
    "armies": ["gw.armies", "mn.gw_armies"],
    "treaties": ["km.treaties", "mn.treaties", "mn.embassies"],
}
CONVOY_PLOTS = ("caravans", "journeys")
STANDARD_PLOTS = (*STANDARD, *CONVOY_PLOTS)
CONVOY_METRICS = ["cv.hp", "cv.unrest", "cv.provisions", "cv.miles"]
KIND_OF_SYSTEM = {system: kind for kind, (system, _, _) in KINDS.items()}
OUTCOME_COLOURS = {"arrived": "#2ca02c", "destroyed": "#d62728", "travelling": "#1f77b4"}
OUTCOME_MARKERS = {"arrived": "o", "destroyed": "X", "travelling": ">"}


def _is_count(s: Any) -> bool:
    return bool(pd.api.types.is_integer_dtype(s))


def _subtitle(info: dict[str, Any], lang: str) -> str:
    parts = [plain(str(info["scenario"]))] if info.get("scenario") else []
    if info.get("seed") is not None:
        parts.append(text("seed", lang, seed=info["seed"]))
    return ", ".join(parts)


def _suptitle(fig: Figure, title: str, info: dict[str, Any], lang: str, margins: Margins | None = None) -> None:
    sub = _subtitle(info, lang)
    at = {} if margins is None else {"y": margins.title_y(fig), "va": "top"}
    fig.suptitle(f"{title} — {sub}" if sub else title, fontsize=13, fontweight="bold", **at)


# ---- a run: per-season panels ------------------------------------------------------------------------
def _season_panel(ax: Axes, seasons: Any, column: str, lang: str) -> None:
    kind = KIND_OF_SYSTEM.get(column.partition(".")[0], "")
    rows = seasons[seasons["kind"] == kind]
    count = _is_count(seasons[column])
    series: list[Series] = []
    for faction, g in rows.groupby("faction", sort=True):
        y = pd.to_numeric(g[column], errors="coerce").astype("float64")
        if y.notna().any():
            series.append(Series(str(faction).partition(":")[2] or str(faction),
                                 g["season"].astype("float64").to_numpy(), y.to_numpy()))
    values = pd.to_numeric(rows[column], errors="coerce").dropna()
    ax.set_title(panel_title(kind, column, lang), loc="left", fontsize=11)
    if count and len(series) >= HEAT_ROWS and len(values) and values.max() - values.min() <= HEAT_SPAN \
            and values.nunique() > 1:
        grid = rows.pivot_table(index="faction", columns="season", values=column, aggfunc="last")
        grid = grid.astype("float64")
        draw_heatmap(ax, [str(f).partition(":")[2] or str(f) for f in grid.index],
                     grid.columns.astype("float64").to_numpy(), grid.to_numpy(), label=axis_label(column, lang))
        ax.set_ylabel(kind_label(kind, lang))
        return
    others = text("others", lang, n=max(0, len(series) - TOP), kind=kind_plural(kind, lang))
    draw_lines(ax, series, others_label=others, dodge=count, step=count)
    ax.set_ylabel(axis_label(column, lang))
    ax.grid(alpha=0.3)
    if count:
        integer_ticks(ax, y=True)
    if len(values) and values.nunique() == 1:
        note(ax, text("constant", lang, kind=one(kind, lang), v=values.iloc[0]))
    legend_outside(ax, title=kind_label(kind, lang))


def _has(seasons: Any, column: str) -> bool:
    if column not in seasons.columns:
        return False
    kind = KIND_OF_SYSTEM.get(column.partition(".")[0], "")
    return bool(pd.to_numeric(seasons.loc[seasons["kind"] == kind, column], errors="coerce").notna().any())


def season_figure(seasons: Any, columns: list[str], *, title: str, info: dict[str, Any] | None = None,
                  lang: str = "en") -> Figure | None:
    """One panel per column that has data (one line per faction over the seasons); ``None`` if none has."""
    cols = [c for c in columns if _has(seasons, c)]
    if not cols:
        return None
    fig, axes = new_figure(len(cols))
    for ax, c in zip(axes, cols):
        _season_panel(ax, seasons, c, lang)
    axes[-1].set_xlabel(text("season", lang))
    integer_ticks(axes[-1], x=True)
    _suptitle(fig, title, info or {}, lang)
    return fig


def standard_figure(name: str, seasons: Any, *, days: Any = None, journeys: Any = None,
                    info: dict[str, Any] | None = None, lang: str = "en") -> Figure | None:
    """One of :data:`STANDARD_PLOTS` (``None`` when the run has nothing to draw in it)."""
    if name in STANDARD:
        return season_figure(seasons, STANDARD[name], title=plot_title(name, lang), info=info, lang=lang)
    if name == "caravans":
        if days is None or not len(days):
            return None
        return caravans_figure(days, CONVOY_METRICS, journeys=journeys, info=info, lang=lang)
    if name == "journeys":
        return None if journeys is None or not len(journeys) else journeys_figure(journeys, info=info, lang=lang)
    raise ValueError(f"plot {name!r}: expected one of {', '.join(STANDARD_PLOTS)}")


def metric_figure(seasons: Any, column: str, *, info: dict[str, Any] | None = None, lang: str = "en") -> Figure | None:
    """One season-table column, one line per faction of its kind."""
    return season_figure(seasons, [column], title=metric_name(column, lang), info=info, lang=lang)


# ---- a run: caravans day by day ----------------------------------------------------------------------
def _convoy_panel(ax: Axes, days: Any, journeys: Any, column: str, lang: str) -> list[Any]:
    outcome = dict(zip(journeys["convoy"], journeys["outcome"])) if journeys is not None else {}
    series = []
    for convoy, g in days.groupby("convoy", sort=True):
        series.append(Series(str(convoy).partition(":")[2], g["journey_day"].astype("float64").to_numpy(),
                             g[column].astype("float64").to_numpy(), end_marker=outcome.get(convoy)))
    draw_lines(ax, series, others_label="", step=True, many=MANY, top=MANY, dodge=_is_count(days[column]))
    markers = {k: (OUTCOME_MARKERS[k], text(k, lang)) for k in OUTCOME_MARKERS}
    return end_markers(ax, series, markers)


BAND_MIN = 5  # fewer convoys on the road than this on a day: no band that day, their own grey lines only


def _convoy_band(ax: Axes, days: Any, column: str, colour: str, lang: str) -> None:
    """Every convoy as a thin grey line, and the median over the 10th–90th percentile band of the
    convoys on the road on each day of the journey where there are at least ``BAND_MIN`` of them."""
    for _, g in days.groupby("convoy", sort=True):
        ax.plot(g["journey_day"].astype("float64"), g[column].astype("float64"), color=GREY, lw=0.6, alpha=0.5,
                drawstyle="steps-post", zorder=1)
    ax.plot([], [], color=GREY, lw=0.6, label=text("each_convoy", lang))
    g = days.groupby("journey_day")[column]
    q = g.quantile([0.1, 0.5, 0.9]).astype("float64").unstack()
    n = g.count()
    q = q[n.reindex(q.index) >= BAND_MIN]
    if not len(q):
        return
    x = q.index.astype("float64").to_numpy()
    draw_band(ax, x, q[0.1].to_numpy(), q[0.5].to_numpy(), q[0.9].to_numpy(), colour=colour,
              band_label=text("band", lang), mid_label=text("median_of_road", lang, n=BAND_MIN), step=True)


def caravans_figure(days: Any, columns: list[str] | None = None, *, journeys: Any = None,
                    info: dict[str, Any] | None = None, lang: str = "en") -> Figure:
    """Caravans day by day, on the day of their journey (0 = the day each set out): a line per convoy,
    ending on a marker that says whether it arrived or was destroyed, when there are at most eight; a
    median line over the 10th–90th percentile band of the convoys still on the road otherwise, under
    a panel counting them."""
    columns = columns or CONVOY_METRICS
    n = days["convoy"].nunique()
    band = n > MANY
    panels = len(columns) + (1 if band else 0)
    fig, axes = new_figure(panels, panel_height=2.7)
    colours = palette(len(columns) + 1)
    if band:
        ax0 = axes[0]
        counts = days.groupby("journey_day")["convoy"].nunique()
        ax0.fill_between(counts.index.astype("float64"), 0, counts.to_numpy(dtype="float64"), step="post",
                         color="#999999", alpha=0.5, label=text("on_road", lang))
        ax0.set_title(f"{kind_label('convoy', lang)} — {text('on_road', lang)}", loc="left", fontsize=11)
        ax0.set_ylabel(text("on_road", lang))
        ax0.set_ylim(bottom=0)
        ax0.grid(alpha=0.3)
        integer_ticks(ax0, y=True)
        legend_outside(ax0)
        axes = axes[1:]
    for i, (ax, c) in enumerate(zip(axes, columns)):
        if band:
            _convoy_band(ax, days, c, colours[i], lang)
            extra: list[Any] = []
        else:
            extra = _convoy_panel(ax, days, journeys, c, lang)
        ax.set_title(panel_title("convoy", c, lang), loc="left", fontsize=11)
        ax.set_ylabel(axis_label(c, lang))
        ax.grid(alpha=0.3)
        if _is_count(days[c]):
            integer_ticks(ax, y=True)
        if band or i == 0:  # one colour per convoy in every panel: one legend is enough
            legend_outside(ax, extra, title=None if band else kind_label("convoy", lang))
    axes[-1].set_xlabel(text("journey_day", lang))
    integer_ticks(axes[-1], x=True)
    _suptitle(fig, plot_title("caravans", lang), info or {}, lang)
    return fig


def journeys_figure(journeys: Any, *, info: dict[str, Any] | None = None, lang: str = "en",
                    max_rows: int = 60) -> Figure:
    """Each convoy's journey: when it set out and ended (a bar on the campaign's days, coloured by how
    it ended) and how many days it took. Beyond ``max_rows`` convoys, a histogram of journey lengths
    by outcome instead."""
    j = journeys.sort_values(["set_out_hour", "convoy"], kind="stable").reset_index(drop=True)
    ends = pd.to_numeric(j["end_hour"], errors="coerce").astype("float64")  # NaN: still on the road
    set_out = j["set_out_hour"].astype("float64")
    # a convoy still on the road is drawn to where the ledger stops (a run stopped before any arrived
    # has no end at all: pandas' NA is neither true nor false, so no `or 0` on it)
    known = [float(x) for x in (ends.max(), set_out.max(), (info or {}).get("last_hour")) if x is not None and x == x]
    last_hour = max(known, default=0.0)
    start = set_out.to_numpy() / 24
    end = ends.fillna(last_hour).to_numpy() / 24
    outcome = [str(o) for o in j["outcome"]]
    legend = [Patch(color=OUTCOME_COLOURS.get(o, "#777777"), label=text(o, lang))
              for o in OUTCOME_COLOURS if o in outcome]
    if len(j) > max_rows:
        present = [o for o in OUTCOME_COLOURS if o in outcome]
        fig, axes = new_figure(2, panel_height=3.2, sharex=False)
        ax = axes[0]
        season = (start * 24 // HOURS_PER_SEASON).astype(int)
        end_season = int((info or {}).get("end", 0)) // HOURS_PER_SEASON  # the whole campaign, quiet seasons too
        seasons = np.arange(0, max(int(season.max()) + 1, end_season))
        bottom = np.zeros(len(seasons))
        outcomes = np.array(outcome, dtype=object)
        for o in present:
            counts = np.bincount(season[outcomes == o], minlength=len(seasons))[: len(seasons)]
            ax.bar(seasons, counts, bottom=bottom, color=OUTCOME_COLOURS[o], label=text(o, lang), width=0.85)
            bottom += counts
        ax.set_title(f"{kind_label('convoy', lang)} — {text('set_out_per_season', lang)}", loc="left", fontsize=11)
        ax.set_xlabel(text("season", lang))
        ax.set_ylabel(kind_plural("convoy", lang).capitalize())
        ax.grid(axis="y", alpha=0.3)
        integer_ticks(ax, x=True, y=True)
        legend_outside(ax)
        ax = axes[1]
        durations = end - start
        bins: Any = np.arange(0, math.ceil(durations.max()) + 2, 1.0) if len(durations) else 10
        stacked = [durations[[o == k for k in outcome]] for o in present]
        ax.hist(stacked, bins=bins, stacked=True, color=[OUTCOME_COLOURS[o] for o in present],
                label=[text(o, lang) for o in present], edgecolor="white", lw=0.5)
        ax.set_title(f"{kind_label('convoy', lang)} — {text('days_on_road', lang)}", loc="left", fontsize=11)
        ax.set_xlabel(text("days_on_road", lang) + (" (days)" if lang == "en" else " (jours)"))
        ax.set_ylabel(kind_plural("convoy", lang).capitalize())
        ax.grid(axis="y", alpha=0.3)
        integer_ticks(ax, x=True, y=True)
        legend_outside(ax)
    else:
        fig = Figure(figsize=(12, 1.6 + 0.22 * len(j)), dpi=110, layout="constrained")
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
        ax, ax2 = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 1.3]})
        y = np.arange(len(j))
        colours = [OUTCOME_COLOURS.get(o, "#777777") for o in outcome]
        ax.barh(y, np.maximum(end - start, 0.3), left=start, color=colours, height=0.7)
        ax.set_yticks(y, [plain(str(c).partition(":")[2]) for c in j["convoy"]], fontsize=8 if len(j) > 20 else 9)
        ax.invert_yaxis()
        ax.set_xlabel(text("day", lang))
        ax.set_ylabel(text("convoy", lang))
        ax.set_title(f"{kind_label('convoy', lang)} — {text('journeys', lang)}", loc="left", fontsize=11)
        ax.grid(axis="x", alpha=0.3)
        integer_ticks(ax, x=True)
        ax2.barh(y, end - start, color=colours, height=0.7)
        causes = [plain(str(c)) if isinstance(c, str) else "" for c in j["cause"].fillna("")]
        for yi, d, cause in zip(y, end - start, causes):
            ax2.text(d, yi, f" {d:.1f}" + (f" ({cause})" if cause else ""), va="center", fontsize=7)
        ax2.set_xlabel(text("days", lang))
        ax2.set_title(f"{kind_label('convoy', lang)} — {text('days_on_road', lang)}", loc="left", fontsize=11)
        ax2.grid(axis="x", alpha=0.3)
        ax2.set_xlim(0, max(1.0, float((end - start).max()) * 1.45))
        integer_ticks(ax2, x=True)
        ax.set_xlim(left=0)
        fig.legend(handles=legend, loc="outside lower center", ncols=len(legend), fontsize=9, frameon=False)
    _suptitle(fig, plot_title("journeys", lang), info or {}, lang)
    return fig


def convoy_metric_figure(days: Any, column: str, *, journeys: Any = None, info: dict[str, Any] | None = None,
                         lang: str = "en") -> Figure:
    """One convoy-day column (``cv.hp``…) on the day of the journey."""
    fig = caravans_figure(days, [column], journeys=journeys, info=info, lang=lang)
    _suptitle(fig, metric_name(column, lang), info or {}, lang)
    return fig


# ---- a batch ----------------------------------------------------------------------------------------
def batch_metrics(batch: Any) -> list[str]:
    """The numeric metric columns of a batch table (not the seed, the scenario or the ledger hash)."""
    from workers.signals import is_tally_column

    skip = {"seed", "scenario", "ledger_sha256"}
    return [c for c in batch.columns if c not in skip and not is_tally_column(c) and pd.api.types.is_numeric_dtype(batch[c])
            and not pd.api.types.is_bool_dtype(batch[c])]


def _hist(ax: Axes, values: Any, count: bool, lang: str, *, small: bool = False) -> None:
    v = values.dropna().astype("float64").to_numpy()
    if not len(v):
        return
    lo, hi = float(v.min()), float(v.max())
    bins: Any
    target = int(min(40, max(5, 2 * math.sqrt(len(v)))))  # 40 seeds: 12 bins; 400: 40
    if count:  # whole-number bins, centred on the values when one wide
        width = max(1, math.ceil((hi - lo + 1) / target))
        bins = np.arange(lo - 0.5, hi + width + 0.5, width)
    else:
        bins = min(target, max(5, len(np.unique(v))))
    ax.hist(v, bins=bins, color="#4c72b0", edgecolor="white", lw=0.5)
    med, mean = float(np.median(v)), float(v.mean())
    ax.axvline(med, color="black", lw=1.5, label=f"{text('median', lang)} {number(med)}")
    ax.axvline(mean, color="black", lw=1.2, ls="--", label=f"{text('mean', lang)} {number(mean)}")
    if lo == hi:
        note(ax, text("same_everywhere", lang, v=number(lo)))
    if count:
        integer_ticks(ax, x=True)
    integer_ticks(ax, y=True)
    if not small:
        ax.set_ylabel(text("seeds", lang))


def distribution_figure(batch: Any, column: str, *, info: dict[str, Any] | None = None, lang: str = "en") -> Figure:
    """A metric across the seeds of a batch: a histogram (whole-number bins for counts) with its
    median and mean."""
    fig, axes = new_figure(1, panel_height=3.6, width=8.0)
    ax = axes[0]
    _hist(ax, batch[column], _is_count(batch[column]), lang)
    ax.set_title(batch_title(column, lang), loc="left", fontsize=11)
    ax.set_xlabel(axis_label(column, lang))
    ax.grid(alpha=0.3)
    legend_outside(ax)
    _suptitle(fig, text("distributions", lang), _batch_info(batch, info, lang), lang)
    return fig


def _batch_info(batch: Any, info: dict[str, Any] | None, lang: str) -> dict[str, Any]:
    out = dict(info or {})
    if "scenario" not in out and "scenario" in batch.columns and batch["scenario"].nunique() == 1:
        out["scenario"] = str(batch["scenario"].iloc[0])
    out.pop("seed", None)
    sub = text("across", lang, n=len(batch))
    out["scenario"] = f"{out['scenario']}, {sub}" if out.get("scenario") else sub
    return out


def _per_faction(column: str) -> tuple[str, str] | None:
    """``gw.solars.griffon`` → (``gw.solars``, ``griffon``) for the per-faction batch metrics."""
    parts = column.split(".")
    if len(parts) == 3 and f"{parts[0]}.{parts[1]}.*" in _PER_FACTION_KEYS:
        return f"{parts[0]}.{parts[1]}", parts[2]
    return None


_PER_FACTION_KEYS = {"gw.domains.*", "gw.solars.*", "gw.notoriety.*"}


# the overview's small panels (inches): suptitle and a panel title above, the foot note below; between
# rows a unit, tick labels and the next title; between columns the tick labels of counts
OVERVIEW_MARGINS = Margins(left=0.6, right=0.2, top=0.8, bottom=0.75, hgap=0.78, wgap=0.5)


def overview_figure(batch: Any, system: str, *, info: dict[str, Any] | None = None, lang: str = "en",
                    cols: int = 4) -> Figure | None:
    """Small histograms of every metric of one system that varies across the seeds (the ones that do
    not are listed under the title); ``None`` if the batch has none of the system's metrics."""
    mine = [c for c in batch_metrics(batch) if system_of(c) == system and _per_faction(c) is None]
    if not mine:
        return None
    varying = [c for c in mine if batch[c].nunique(dropna=True) > 1]
    fixed = [c for c in mine if c not in varying]
    if not varying:
        varying = mine
        fixed = []
    fig, axes = new_figure(len(varying), panel_height=1.5, width=3.1 * min(cols, len(varying)), sharex=False,
                           cols=min(cols, len(varying)), margins=OVERVIEW_MARGINS)
    for ax, c in zip(axes, varying):
        _hist(ax, batch[c], _is_count(batch[c]), lang, small=True)
        ax.set_title(metric_name(c, lang), fontsize=9)
        unit = lookup(c).unit(lang)
        ax.set_xlabel(unit, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.locator_params(nbins=4)  # small panels: four ticks a side, which never run into each other
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(text("seeds", lang))
    title = f"{system_label(system, lang)} — {text('distributions', lang)}"
    _suptitle(fig, title, _batch_info(batch, info, lang), lang, OVERVIEW_MARGINS)
    foot = text("lines_key", lang)
    if fixed:
        same = "; ".join(f"{metric_name(c, lang)} {batch[c].dropna().iloc[0]}" for c in fixed
                         if batch[c].notna().any())
        foot += "   " + text("same_in_all", lang, v=same)
    fig.supxlabel(foot, fontsize=9)
    return fig


def per_faction_groups(batch: Any) -> dict[str, list[str]]:
    """``gw.solars`` → [``gw.solars.corbeau``, …] for every per-faction metric of the batch."""
    out: dict[str, list[str]] = {}
    for c in batch_metrics(batch):
        pf = _per_faction(c)
        if pf:
            out.setdefault(pf[0], []).append(c)
    return out


def by_faction_figure(batch: Any, base: str, *, info: dict[str, Any] | None = None, lang: str = "en") -> Figure:
    """A per-faction metric (``gw.solars.<guild>``) across the seeds: one box per faction, sorted by
    median, the seeds as dots."""
    columns = per_faction_groups(batch).get(base, [])
    if not columns:
        raise ValueError(f"{base!r}: the batch has no per-faction columns {base}.<id>")
    kind = KIND_OF_SYSTEM.get(system_of(base), "")
    data = [(c.rsplit(".", 1)[1], batch[c].dropna().astype("float64").to_numpy()) for c in columns]
    data.sort(key=lambda d: float(np.median(d[1])) if len(d[1]) else float("-inf"))
    fig, axes = new_figure(1, panel_height=0.5 + 0.42 * len(data), width=9.0)
    ax = axes[0]
    colour_of = dict(zip(sorted(d[0] for d in data), palette(len(data))))  # the same guild, the same colour
    colours = [colour_of[d[0]] for d in data]
    ax.boxplot([d[1] for d in data], orientation="horizontal", widths=0.6, showfliers=False,
               medianprops={"color": "black", "lw": 1.5})
    rng = np.random.default_rng(0)  # a fixed jitter: the same report twice gives the same picture
    for i, (_, v) in enumerate(data):
        ax.scatter(v, i + 1 + rng.uniform(-0.18, 0.18, len(v)), s=10, color=colours[i], alpha=0.7, zorder=3)
    ax.set_yticks(range(1, len(data) + 1), [d[0] for d in data])
    name = lookup(f"{base}.*").name(lang)
    per = text("by_faction", lang, name=name, one=one(kind, lang))
    ax.set_title(f"{kind_label(kind, lang)} — {per}", loc="left", fontsize=11)
    unit = lookup(f"{base}.*").unit(lang)
    ax.set_xlabel(f"{name} ({unit})" if unit else name)
    ax.grid(axis="x", alpha=0.3)
    if all(_is_count(batch[c]) for c in columns):
        integer_ticks(ax, x=True)
    _suptitle(fig, text("distributions", lang), _batch_info(batch, info, lang), lang)
    return fig
