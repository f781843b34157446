"""The report of a batch: a bounded set of files whatever the number of campaigns, factions or convoys.

The tidy tables of :mod:`workers.tidy` are opened in DuckDB (an embedded analytic engine: it reads
Parquet or CSV by columns and aggregates with exact quantiles, within a fixed memory limit) and
queried with group-bys; nothing loads every row of the faction or season table into pandas. What is
drawn is what the queries return: quantiles per faction, per season, per metric.

Files (docs/reports.md, "A batch"): ``index.html`` (the overview: the commands, the figures, the
findings), ``distribution.csv`` (every summary metric across the campaigns), ``factions.csv`` (each
faction's end values across the campaigns), ``overview_<system>.png`` (one per system),
``factions_<kind>.png`` (one per faction kind: a box per faction, the top and bottom named),
``series_<kind>.png`` (quantile bands over the seasons), ``findings.md``/``.json``, and for a sweep or
a comparison its table and one figure (:mod:`workers.sweep`).
"""

from __future__ import annotations

import html
import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from workers.report.data import MEMORY_LIMIT as MEMORY_LIMIT
from workers.report.data import BatchData as BatchData
from workers.report.data import is_number, quoted
from workers.report.draw import Margins, integer_ticks, legend_outside, new_figure, png_bytes
from workers.report.names import (
    SYSTEMS,
    axis_label,
    kind_label,
    lookup,
    metric_name,
    system_of,
    text,
)

# the end values drawn per faction kind (score first), and the series drawn over the seasons
FACTION_METRICS: dict[str, list[str]] = {
    "kingdom": ["score", "treasury", "economy", "stability", "loyalty", "size", "unrest"],
    "nation": ["score", "treasury", "provinces", "embassies", "treaties", "ambassadors"],
    "guild": ["score", "solars", "domains", "notoriety", "armies", "victuals"],
    "convoy": ["score", "hp", "days_on_road", "unrest", "miles", "provisions"],
}
SERIES_METRICS: dict[str, list[str]] = {
    "kingdom": ["treasury", "economy", "stability", "loyalty", "size", "unrest"],
    "nation": ["treasury", "provinces", "embassies", "treaties"],
    "guild": ["solars", "domains", "armies", "notoriety"],
}
KIND_SYSTEM = {"kingdom": "km", "nation": "mn", "guild": "gw", "convoy": "cv"}
COUNTS = {"size", "unrest", "provinces", "embassies", "treaties", "ambassadors", "domains", "notoriety", "armies"}
NAMED = 7  # beyond 2 × NAMED factions, the NAMED top and NAMED bottom (by median) are drawn, the rest counted
# the series' panels (inches): a y label and tick labels up to "240 000" on the left, the legend on the
# right, a title above each panel, the season axis below the last one (the panels share it)
SERIES_MARGINS = Margins(left=1.05, right=2.1, top=0.95, bottom=0.6, hgap=0.45)


# ---- tables -------------------------------------------------------------------------------------------
def distribution_table(data: BatchData, lang: str = "en") -> Any:
    """Every summary metric across the campaigns: count, mean, std, min, 5/25/50/75/95th percentiles, max,
    with its system, readable name and unit (one group-by over the metrics table)."""
    d = data.df("""SELECT metric, count(value) AS count, avg(value) AS mean, stddev_samp(value) AS std,
                          min(value) AS min, quantile_cont(value, [0.05, 0.25, 0.5, 0.75, 0.95]) AS q,
                          max(value) AS max
                   FROM metrics GROUP BY metric ORDER BY metric""")
    qs = pd.DataFrame(d.pop("q").tolist(), columns=["5%", "25%", "50%", "75%", "95%"], index=d.index) if len(d) else \
        pd.DataFrame(columns=["5%", "25%", "50%", "75%", "95%"])
    out = pd.concat([d[["metric", "count", "mean", "std", "min"]], qs, d[["max"]]], axis=1)
    out["system"] = [system_of(m) for m in out["metric"]]
    out["name"] = [metric_name(m, lang) for m in out["metric"]]
    out["unit"] = [lookup(m).unit(lang) for m in out["metric"]]
    return out.set_index("metric")


def faction_kinds(data: BatchData) -> list[str]:
    if "factions" not in data.parts:
        return []
    present = {r[0] for r in data.con.execute("SELECT DISTINCT kind FROM factions").fetchall()}
    return [k for k in FACTION_METRICS if k in present]


def faction_stats(data: BatchData, kind: str, metric: str) -> Any:
    """One row per faction of a kind: count, mean and 5/25/50/75/95th percentiles of an end value across
    the campaigns, sorted by median."""
    col = quoted(metric)
    return data.df(f"""SELECT faction, any_value(policy) AS policy, count({col}) AS count, avg({col}) AS mean,
                              quantile_cont({col}, [0.05, 0.25, 0.5, 0.75, 0.95]) AS q
                       FROM factions WHERE kind = ? AND {col} IS NOT NULL GROUP BY faction
                       ORDER BY q[3], faction""", [kind])


def factions_table(data: BatchData) -> Any:
    """Each faction's end values across the campaigns (the metrics of :data:`FACTION_METRICS`)."""
    rows = []
    cols = data.types("factions") if "factions" in data.parts else {}
    for kind in faction_kinds(data):
        for m in FACTION_METRICS[kind]:
            if m not in cols or not is_number(cols[m]):
                continue
            for _, r in faction_stats(data, kind, m).iterrows():
                q = list(r["q"])
                rows.append({"kind": kind, "faction": r["faction"], "metric": m, "count": int(r["count"]),
                             "mean": r["mean"], "5%": q[0], "25%": q[1], "50%": q[2], "75%": q[3], "95%": q[4]})
    return pd.DataFrame(rows, columns=["kind", "faction", "metric", "count", "mean", "5%", "25%", "50%", "75%", "95%"])


# ---- figures ----------------------------------------------------------------------------------------
def _faction_metric_label(kind: str, metric: str, lang: str) -> str:
    if metric == "score":
        return "Score" if lang == "en" else "Score"
    return axis_label(f"{KIND_SYSTEM[kind]}.{metric}", lang)


def factions_figure(data: BatchData, kind: str, *, lang: str = "en", title: str = "") -> Figure | None:
    """End values per faction of one kind across the campaigns: one panel per metric, a box per faction
    (5–25–50–75–95th percentiles, the mean as a dot), sorted by median; beyond ``2 × NAMED`` factions
    the top and bottom ``NAMED`` are drawn and named, the others counted under the panel."""
    cols = data.types("factions")
    metrics = [m for m in FACTION_METRICS.get(kind, []) if m in cols and is_number(cols[m])]
    stats = [(m, faction_stats(data, kind, m)) for m in metrics]
    stats = [(m, s) for m, s in stats if len(s)]
    if not stats:
        return None
    n_shown = min(len(stats[0][1]), 2 * NAMED)
    names = [str(f).partition(":")[2] for _, st in stats for f in st["faction"]]
    # the faction names on the left (10 pt: about 0.07 in a character), a title above each panel, its
    # tick labels and axis label below
    margins = Margins(left=0.35 + 0.07 * max(map(len, names), default=8), right=0.3, top=0.85, bottom=0.6,
                      hgap=0.95)
    fig, axes = new_figure(len(stats), panel_height=0.15 + 0.3 * n_shown, width=9.5, sharex=False, margins=margins)
    for ax, (m, s) in zip(axes, stats):
        hidden = 0
        if len(s) > 2 * NAMED:
            hidden = len(s) - 2 * NAMED
            s = pd.concat([s.iloc[:NAMED], s.iloc[-NAMED:]])
        boxes = []
        for _, r in s.iterrows():
            q = list(r["q"])
            boxes.append({"whislo": q[0], "q1": q[1], "med": q[2], "q3": q[3], "whishi": q[4], "mean": r["mean"],
                          "fliers": [], "label": str(r["faction"]).partition(":")[2]})
        ax.bxp(boxes, orientation="horizontal", showmeans=True, widths=0.6, showfliers=False,
               meanprops={"marker": "o", "markerfacecolor": "white", "markeredgecolor": "black", "markersize": 4},
               medianprops={"color": "black", "lw": 1.5}, patch_artist=True,
               boxprops={"facecolor": "#dde6f3", "edgecolor": "#4c72b0"})
        ax.set_title(f"{kind_label(kind, lang)} — {_faction_metric_label(kind, m, lang)}", loc="left", fontsize=11)
        ax.set_xlabel(_faction_metric_label(kind, m, lang))
        ax.grid(axis="x", alpha=0.3)
        if m in COUNTS:
            integer_ticks(ax, x=True)
        if hidden:
            ax.text(0.99, 0.5, f"… {hidden} more in between" if lang == "en" else f"… {hidden} autres entre les deux",
                    transform=ax.transAxes, ha="right", va="center", fontsize=8, color="#555555")
    n = data.count
    fig.suptitle(title or f"{kind_label(kind, lang)} — end values across {n} campaigns"
                 f" (box 25–75%, whiskers 5–95%, ○ mean)", fontsize=12, fontweight="bold", y=margins.title_y(fig),
                 va="top")
    return fig


def series_figure(data: BatchData, kind: str, *, lang: str = "en") -> Figure | None:
    """Quantile bands over the seasons for one faction kind: per metric, the median and 10–90% band of
    every faction of the kind in every campaign, and the median and 10–90% band of the leader (the
    faction with the highest value in its campaign at that season)."""
    if "seasons" not in data.parts:
        return None
    cols = data.types("seasons")
    metrics = [m for m in SERIES_METRICS.get(kind, []) if m in cols and is_number(cols[m])]
    if not metrics or not data.one("SELECT count(*) FROM seasons WHERE kind = ?", [kind]):
        return None
    fig, axes = new_figure(len(metrics), panel_height=1.9, width=10.0, margins=SERIES_MARGINS)
    c_all, c_lead = "#4c72b0", "#c44e52"
    for ax, m in zip(axes, metrics):
        col = quoted(m)
        every = data.df(f"""SELECT season, quantile_cont({col}, [0.1, 0.5, 0.9]) AS q FROM seasons
                            WHERE kind = ? AND {col} IS NOT NULL GROUP BY season ORDER BY season""", [kind])
        lead = data.df(f"""WITH lead AS (SELECT campaign, season, max({col}) AS v FROM seasons
                                         WHERE kind = ? AND {col} IS NOT NULL GROUP BY campaign, season)
                           SELECT season, quantile_cont(v, [0.1, 0.5, 0.9]) AS q FROM lead GROUP BY season
                           ORDER BY season""", [kind])
        for frame, colour, label in ((every, c_all, "every " + kind if lang == "en" else "tous"),
                                     (lead, c_lead, "the leader" if lang == "en" else "le premier")):
            if not len(frame):
                continue
            x = frame["season"].astype(float).to_numpy()
            q = np.array(frame["q"].tolist(), dtype=float)
            ax.fill_between(x, q[:, 0], q[:, 2], color=colour, alpha=0.18, lw=0, label=f"{label}: 10–90%")
            ax.plot(x, q[:, 1], color=colour, lw=1.8, label=f"{label}: median")
        ax.set_title(f"{kind_label(kind, lang)} — {metric_name(f'{KIND_SYSTEM[kind]}.{m}', lang)}", loc="left",
                     fontsize=11)
        ax.set_ylabel(axis_label(f"{KIND_SYSTEM[kind]}.{m}", lang))
        ax.grid(alpha=0.3)
    legend_outside(axes[0])  # the same key for every panel: once, at the top
    axes[-1].set_xlabel(text("season", lang))
    integer_ticks(axes[-1], x=True)
    fig.suptitle(f"{kind_label(kind, lang)} — over the seasons, across {data.count} campaigns", fontsize=12,
                 fontweight="bold", y=SERIES_MARGINS.title_y(fig), va="top")
    return fig


def overview_frame(data: BatchData, system: str) -> Any:
    """The headline summary metrics of one system (:data:`workers.metrics.HEADLINE`: the others are in
    ``distribution.csv``), a row per campaign (a pivot of the metrics table)."""
    from workers.metrics import HEADLINE, METRICS

    long = data.df("SELECT campaign, metric, value FROM metrics WHERE metric LIKE ?", [f"{system}.%"])
    long = long[[m in HEADLINE or m not in METRICS for m in long["metric"]]]
    if not len(long):
        return None
    wide = long.pivot_table(index="campaign", columns="metric", values="value", aggfunc="first")
    from workers.report.tables import whole_numbers

    wide.columns = [str(c) for c in wide.columns]
    return whole_numbers(wide.reset_index(drop=True))


def batch_figures(data: BatchData, lang: str = "en") -> dict[str, Figure]:
    """Every figure of the batch's report by file name (without ``.png``): at most one per system and two
    per faction kind."""
    from workers.report.figures import overview_figure

    out: dict[str, Figure] = {}
    scenario = data.scenario()
    for system in SYSTEMS:
        wide = overview_frame(data, system)
        if wide is None:
            continue
        wide = wide.assign(scenario=scenario)
        fig = overview_figure(wide.assign(seed=range(len(wide))), system, lang=lang)
        if fig is not None:
            out[f"overview_{system}"] = fig
    for kind in faction_kinds(data):
        fig = factions_figure(data, kind, lang=lang)
        if fig is not None:
            out[f"factions_{kind}"] = fig
    for kind in SERIES_METRICS:
        fig = series_figure(data, kind, lang=lang)
        if fig is not None:
            out[f"series_{kind}"] = fig
    return out


# ---- the overview page ------------------------------------------------------------------------------
def batch_command(data: BatchData) -> str:
    """The ``realmsim batch`` command that makes a table like this one (its seeds and ``--set`` values)."""
    seeds = data.seeds()
    text_seeds = f"{seeds[0]}..{seeds[-1]}" if seeds and seeds == list(range(seeds[0], seeds[-1] + 1)) else \
        ",".join(map(str, seeds[:20])) + ("…" if len(seeds) > 20 else "")
    parts = ["realmsim", "batch" if not data.set_columns() else "sweep", data.scenario() or "SCENARIO", "--seeds", text_seeds]
    for c in data.set_columns():
        key = c[4:-1]
        vals = [r[0] for r in data.con.execute(f"SELECT DISTINCT {quoted(c)} FROM campaigns ORDER BY 1").fetchall()]
        parts += ["--set", f"{key}={','.join(_fmt_value(v) for v in vals)}"]
    parts += ["--out", data.path.name]
    return " ".join(shlex.quote(p) for p in parts)


def _fmt_value(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


CAPTIONS = {
    "overview": "Each summary metric of {system} across the campaigns (solid: median, dashed: mean).",
    "factions": "{kind}: each faction's end values across the campaigns — box 25–75%, whiskers 5–95%, ○ mean.",
    "series": "{kind} over the seasons: the median and 10–90% band of every faction, and of the leader.",
}


def index_html(data: BatchData, figures: list[str], findings_md: str, *, command: str, tables: list[str],
               lang: str = "en") -> str:
    """The overview page: the commands, the figures, the findings, the tables."""
    from workers.report.names import SYSTEMS as SYS

    e = html.escape
    n = data.count
    seeds = data.seeds()
    head = (f"<h1>{e(data.scenario())}: {n:,} campaign{'s' if n != 1 else ''}</h1>"
            f"<p class=sub>seeds {e(str(seeds[0]) if seeds else '')}…{e(str(seeds[-1]) if seeds else '')}"
            f" · {len(data.set_columns())} swept key(s)</p>")
    cmds = (f"<h2>Commands</h2><pre><code>{e(batch_command(data))}\n{e(command)}</code></pre>")
    figs = []
    for name in figures:
        kind_or_sys = name.partition("_")[2]
        group = name.partition("_")[0]
        cap = CAPTIONS.get(group, "").format(system=SYS.get(kind_or_sys, (kind_or_sys,))[0],
                                             kind=kind_label(kind_or_sys, lang) if group != "overview" else "")
        figs.append(f'<figure id="{e(name)}"><img src="{e(name)}.png" alt="{e(name)}" loading="lazy">'
                    f"<figcaption>{e(cap)}</figcaption></figure>")
    links = " · ".join(f'<a href="{e(t)}">{e(t)}</a>' for t in tables)
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(data.scenario())} — batch report</title>
<style>
body{{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222}}
h1{{margin-bottom:.2rem}} .sub{{color:#666;margin-top:0}} pre{{background:#f4f4f4;padding:.6rem;overflow:auto}}
figure{{margin:1.5rem 0}} figure img{{max-width:100%;border:1px solid #ddd}} figcaption{{color:#555;font-size:.9rem}}
.findings li{{margin:.4rem 0}} code{{font-size:.85rem}}
</style></head><body>
{head}
{cmds}
<h2>Findings</h2>
<div class="findings">{markdown_html(findings_md)}</div>
<h2>Figures</h2>
{''.join(figs) or '<p>No figure: the table has no metric to draw.</p>'}
<h2>Tables</h2>
<p>{links}</p>
</body></html>
"""


def markdown_html(md: str) -> str:
    """The little Markdown of findings.md as HTML (headings, list items, bold, code)."""
    import re

    out: list[str] = []
    in_list = False
    for line in md.splitlines():
        s = html.escape(line)
        s = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s)
        s = re.sub(r"`(.+?)`", r"<code>\1</code>", s)
        if line.startswith("- "):
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{s[2:]}</li>")
            continue
        if in_list:
            out.append("</ul>")
            in_list = False
        if line.startswith("### "):
            out.append(f"<h3>{s[4:]}</h3>")
        elif line.startswith("## "):
            continue  # the page has its own heading
        elif line.strip():
            out.append(f"<p>{s}</p>")
    if in_list:
        out.append("</ul>")
    return "\n".join(out)


def report_batch(path: Path, out: Path, lang: str = "en", *, command: str = "") -> list[Path]:
    """Write the report of a batch table (and its companion tables) under ``out``; returns the files."""
    from workers.findings import findings_of, write_findings
    from workers.sweep import swept_keys_of, write_sweep_report

    data = BatchData(path)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    dist = out / "distribution.csv"
    distribution_table(data, lang).to_csv(dist)
    written.append(dist)
    if "factions" in data.parts:
        p = out / "factions.csv"
        factions_table(data).to_csv(p, index=False)
        written.append(p)
    figures = batch_figures(data, lang)
    for name, fig in figures.items():
        p = out / f"{name}.png"
        p.write_bytes(png_bytes(fig))
        written.append(p)
    names = list(figures)
    if swept_keys_of(data):
        sw = write_sweep_report(data, out, lang=lang)
        written += sw
        names += [p.stem for p in sw if p.suffix == ".png"]
    replay: Any = None
    if "rotation" in data.columns("campaigns"):  # a tournament's results: replay the rotation's scenario file
        here = path.parent / "scenarios"

        def replay(row: Any) -> str:
            return (f"realmsim run {shlex.quote(str(here / f'rotation-{int(row['rotation'])}.toml'))} "
                    f"--seed {int(row['seed'])}")

    f = findings_of(data, source=str(path), replay=replay)
    written += write_findings(f, out)
    page = out / "index.html"
    page.write_text(index_html(data, names, f.markdown(), command=command or f"realmsim report {path} --out {out}",
                               tables=[p.name for p in written if p.suffix in (".csv", ".md", ".json")], lang=lang),
                    encoding="utf-8")
    written.append(page)
    return written


__all__ = ["BatchData", "batch_figures", "distribution_table", "factions_figure", "factions_table", "index_html",
           "report_batch", "series_figure"]

