"""``realmsim sweep SCENARIO --set key=v1,v2,v3 [--set k2=…] --seeds 1..N --out FILE``: the grid of
values over the same seeds (docs/research.md).

Every cell of the grid (the product of the ``--set`` lists, the first value of each key first) is a
batch of the same seeds with those overrides: common random numbers, so that a cell differs from the
baseline (the first cell) only by its values. The results file has one row per cell and seed and a
``set[KEY]`` column per key.

:func:`sweep_analysis` reads such a table (or two batch tables, ``report a.csv b.csv``): for each
metric, each cell's mean with its 95% t interval, and the paired difference from the baseline cell
seed by seed with its 95% t interval and Cohen's d on the differences; a difference whose interval
leaves 0 out after the Benjamini–Hochberg correction over every metric and cell of the table is flagged
as a significant shift.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

from workers.batch import UsageError

SET = re.compile(r"^set\[(.+)\]$")
PER_FACTION = re.compile(r"^([A-Za-z0-9_.]+)\[([a-z]+):([^\]]+)\]$")


# ---- the command -------------------------------------------------------------------------------
def parse_grid(items: list[str]) -> list[tuple[str, list[Any]]]:
    """``["cv.fatigued_penalty=1,3,5"]`` → ``[("cv.fatigued_penalty", [1, 3, 5])]`` (each value read
    as JSON when it is JSON, else as text; values are split at commas)."""
    if not items:
        raise UsageError("sweep: expected at least one --set KEY=V1,V2,… (e.g. --set cv.fatigued_penalty=1,3,5)")
    out: list[tuple[str, list[Any]]] = []
    for item in items:
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key or not raw.strip():
            raise UsageError(f"--set {item!r}: expected KEY=V1,V2,… e.g. cv.fatigued_penalty=1,3,5")
        if any(k == key for k, _ in out):
            raise UsageError(f"--set {item!r}: {key} is set twice; give all its values in one --set")
        values: list[Any] = []
        for part in raw.split(","):
            part = part.strip()
            if not part:
                raise UsageError(f"--set {item!r}: an empty value in the list")
            try:
                values.append(json.loads(part))
            except json.JSONDecodeError:
                values.append(part)
        if len({json.dumps(v, sort_keys=True) for v in values}) != len(values):
            raise UsageError(f"--set {item!r}: a value is listed twice")
        out.append((key, values))
    return out


def cells(grid: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """Every combination, the baseline (first value of every key) first."""
    keys = [k for k, _ in grid]
    return [dict(zip(keys, combo)) for combo in itertools.product(*(v for _, v in grid))]


def cmd_sweep(args: Any) -> int:
    from workers.batch import BatchPlan, parse_seeds, scenario_ref
    from workers.multi import MultiOptions, run_plans
    from workers.output import check_out_path, write_results

    out = check_out_path(args.out)
    seeds = parse_seeds(args.seeds)
    grid = parse_grid(args.set)
    opts = MultiOptions.from_args(args)
    plans = []
    for cell in cells(grid):
        ref, name = scenario_ref(args.scenario, cell)  # a bad key or value is refused before anything runs
        plans.append(BatchPlan.make(ref, seeds, name=name, overrides=cell))
    print(f"sweep {plans[0].name}: {len(plans)} cell(s) x {len(seeds)} seed(s) = {len(plans) * len(seeds)} campaigns",
          file=sys.stderr)
    results = run_plans(plans, opts, label=f"sweep {plans[0].name}")
    rows = [r for rs in results for r in rs]
    n = write_results(out, rows)
    print(f"wrote {n} rows to {out}; read it with: realmsim report {out} --out DIR", file=sys.stderr)
    return 0


def add_arguments(p: Any) -> None:
    from workers.multi import add_run_arguments

    p.add_argument("scenario", help="built-in name or path to a .toml file")
    p.add_argument("--set", action="append", default=[], metavar="KEY=V1,V2,…", required=True,
                   help="a config key and the values to sweep (repeat for a grid); the first value is the baseline")
    p.add_argument("--seeds", required=True, metavar="SEEDS", help="A..B (inclusive), N, or a comma list: 1..100,200")
    p.add_argument("--out", required=True, metavar="FILE", help="results file, .csv or .parquet")
    add_run_arguments(p)


# ---- the analysis ------------------------------------------------------------------------------
FDR = 0.05  # the false discovery rate of the Benjamini–Hochberg correction
CORRECTION = "Benjamini–Hochberg"
MAX_PANELS = 12  # the sweep figure draws the metrics with the smallest adjusted p-values, this many at most


def swept_keys_of(data: Any) -> list[str]:
    """The ``set[KEY]`` columns of a batch's campaign table that take more than one value."""
    return [c for c in data.set_columns()
            if int(data.one(f'SELECT count(DISTINCT "{c}") + max(CASE WHEN "{c}" IS NULL THEN 1 ELSE 0 END) '
                            f"FROM campaigns") or 0) > 1]


def analysis_frame(data: Any) -> Any:
    """A row per campaign: its seed, ``set[KEY]`` and ``rotation`` columns, every summary metric (a pivot of
    the metrics table) and every faction's score as ``score[KEY]`` (a pivot of the faction table)."""
    camp = data.df("SELECT * FROM campaigns ORDER BY campaign")
    keep = [c for c in camp.columns if c in ("campaign", "seed", "scenario", "rotation") or c.startswith("set[")]
    frame = camp[keep].set_index("campaign")
    long = data.df("SELECT campaign, metric, value FROM metrics")
    if len(long):
        frame = frame.join(long.pivot_table(index="campaign", columns="metric", values="value", aggfunc="first"))
    if "factions" in data.parts:
        sc = data.df("SELECT campaign, 'score[' || faction || ']' AS col, score FROM factions WHERE score IS NOT NULL")
        if len(sc):
            frame = frame.join(sc.pivot_table(index="campaign", columns="col", values="score", aggfunc="first"))
    from workers.report.tables import whole_numbers

    frame.columns = [str(c) for c in frame.columns]
    return whole_numbers(frame.reset_index())


def swept_keys(batch: Any) -> list[str]:
    """The ``set[KEY]`` columns of a table that take more than one value."""
    return [c for c in batch.columns if SET.match(c) and batch[c].astype("string").nunique(dropna=False) > 1]


def cell_label(row: Any, keys: list[str]) -> str:
    return ", ".join(f"{SET.match(k).group(1)}={_value(row[k])}" for k in keys)  # type: ignore[union-attr]


def _value(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def analysis_metrics(batch: Any) -> list[str]:
    """The metrics a sweep or a comparison reports: the scenario's summary metrics and each
    faction's score (``score[KEY]``)."""
    from workers.report.figures import batch_metrics

    return [c for c in batch_metrics(batch) if c not in ("events", "campaign", "rotation")
            and ("[" not in c or c.startswith("score["))]


def cell_order(batch: Any, keys: list[str]) -> list[str]:
    """Cell labels in the order of the table's rows (the baseline is the first row's cell)."""
    seen: dict[str, None] = {}
    for _, row in batch[keys].iterrows():
        seen.setdefault(cell_label(row, keys), None)
    return list(seen)


def sweep_analysis(batch: Any, keys: list[str] | None = None, metrics: list[str] | None = None) -> Any:
    """One row per metric and cell: n, mean and its 95% CI; for the other cells the paired
    difference from the baseline (same seeds) with its 95% CI, Cohen's d, the paired t test's p-value
    and that p-value adjusted by Benjamini–Hochberg over every row of the table (``p_bh``): a sweep of
    many cells and metrics flags a shift (``significant``) only when ``p_bh`` < :data:`FDR`."""
    import pandas as pd

    from workers.stats import benjamini_hochberg, mean_ci, paired, paired_p

    keys = swept_keys(batch) if keys is None else keys
    if not keys:
        raise ValueError("the table sweeps no key (no set[KEY] column with two or more values)")
    metrics = analysis_metrics(batch) if metrics is None else metrics
    labels = [cell_label(r, keys) for _, r in batch[keys].iterrows()]
    b = batch.assign(_cell=labels)
    order = cell_order(batch, keys)
    base = order[0]
    rows = []
    for m in metrics:
        by = {c: dict(zip(g["seed"], g[m].astype("Float64").to_numpy(dtype="float64", na_value=math.nan)))
              for c, g in b.groupby("_cell", sort=False)}
        for c in order:
            ci = mean_ci(list(by[c].values()))
            row = {"metric": m, "cell": c, "baseline": c == base, "n": ci.n, "mean": ci.mean, "ci_lo": ci.lo, "ci_hi": ci.hi,
                   "diff": math.nan, "diff_lo": math.nan, "diff_hi": math.nan, "cohen_d": math.nan, "p": math.nan,
                   "p_bh": math.nan, "significant": False}
            if c != base:
                common = sorted(set(by[c]) & set(by[base]))
                p = paired([by[base][s] for s in common], [by[c][s] for s in common])
                row.update(diff=p.mean, diff_lo=p.lo, diff_hi=p.hi, cohen_d=p.d, p=paired_p(p))
            rows.append(row)
    adjusted = benjamini_hochberg([float(r["p"]) for r in rows])  # type: ignore[arg-type]
    for r, q in zip(rows, adjusted):
        r["p_bh"] = q
        r["significant"] = bool(not math.isnan(q) and q < FDR)
    return pd.DataFrame(rows)


def compare_tables(a: Any, b: Any, name_a: str, name_b: str) -> Any:
    """Two batch tables as one sweep over ``set[batch]`` (``a`` the baseline), on the seeds they share."""
    import pandas as pd

    seeds = sorted(set(a["seed"]) & set(b["seed"]))
    if not seeds:
        raise ValueError(f"{name_a} and {name_b} share no seed: nothing to pair")
    if name_a == name_b:
        name_a, name_b = f"{name_a} (1)", f"{name_b} (2)"
    parts = [t[t["seed"].isin(seeds)].assign(**{"set[batch]": n}) for t, n in ((a, name_a), (b, name_b))]
    return pd.concat(parts, ignore_index=True)


def markdown(analysis: Any, lang: str = "en") -> str:
    """The analysis as a Markdown table (significant shifts in bold, marked ⚑)."""
    from workers.report.names import metric_name

    lines = [f"| metric | cell | n | mean [95% CI] | Δ vs baseline [95% CI] | Cohen's d | p | p ({CORRECTION}) | |",
             "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- |"]
    for _, r in analysis.iterrows():
        mean = f"{_num(r['mean'])} [{_num(r['ci_lo'])}, {_num(r['ci_hi'])}]"
        pv, pbh = _num(r.get("p", math.nan)), _num(r.get("p_bh", math.nan))
        if r["baseline"]:
            diff, d, flag, pv, pbh = "baseline", "", "", "", ""
        else:
            diff = f"{_num(r['diff'], signed=True)} [{_num(r['diff_lo'], signed=True)}, {_num(r['diff_hi'], signed=True)}]"
            d = _num(r["cohen_d"])
            flag = "⚑ shift" if r["significant"] else ""
            if r["significant"]:
                diff = f"**{diff}**"
        lines.append(f"| {metric_name(r['metric'], lang)} (`{r['metric']}`) | {r['cell']} | {r['n']} | {mean} | {diff} | "
                     f"{d} | {pv} | {pbh} | {flag} |")
    return "\n".join(lines) + "\n"


def _num(v: Any, *, signed: bool = False) -> str:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return str(v)
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    s = f"{x:+.3g}" if signed else f"{x:.3g}"
    return s


def metric_title(column: str, lang: str = "en") -> str:
    """``Caravans (CV) — Convoys arrived``; a faction's column: ``Kingdoms (KM) — Score of restov``."""
    from workers.report.names import batch_title, kind_label, metric_name

    m = PER_FACTION.match(column)
    if m:
        name, kind, ident = m.groups()
        return f"{kind_label(kind, lang)} — {metric_name(name, lang)} ({ident})"
    return batch_title(column, lang)


def sweep_figure(analysis: Any, metric: str, *, scenario: str = "", lang: str = "en") -> Any:
    """Two panels for one metric: each cell's mean with its 95% CI, and each cell's paired difference
    from the baseline with its 95% CI (significant shifts in red); the system named in the title."""
    import numpy as np

    from workers.report.draw import legend_outside, new_figure
    from workers.report.names import axis_label, lookup

    a = analysis[analysis["metric"] == metric]
    cells_ = list(a["cell"])
    x = np.arange(len(cells_))
    fig, (top, bottom) = new_figure(2, panel_height=2.8, width=10.0)
    yerr = np.array([a["mean"] - a["ci_lo"], a["ci_hi"] - a["mean"]], dtype=float)
    top.errorbar(x, a["mean"].astype(float), yerr=np.nan_to_num(yerr), fmt="o", color="#1f77b4", capsize=4,
                 label="mean, 95% CI" if lang == "en" else "moyenne, IC 95 %")
    top.set_ylabel(axis_label(metric, lang))
    top.grid(alpha=0.3)
    legend_outside(top)
    other = a[~a["baseline"].astype(bool)]
    xo = np.array([cells_.index(c) for c in other["cell"]])
    sig = other["significant"].astype(bool).to_numpy()
    derr = np.array([other["diff"] - other["diff_lo"], other["diff_hi"] - other["diff"]], dtype=float)
    bottom.axhline(0, color="black", lw=0.8)
    for mask, colour, label in ((sig, "#d62728", "significant shift" if lang == "en" else "écart significatif"),
                                (~sig, "#7f7f7f", "no significant shift" if lang == "en" else "pas d'écart significatif")):
        if mask.any():
            bottom.errorbar(xo[mask], other["diff"].astype(float).to_numpy()[mask], yerr=np.nan_to_num(derr[:, mask]),
                            fmt="o", color=colour, capsize=4, label=label)
    unit = lookup(metric).unit(lang)
    delta = "Δ vs baseline" if lang == "en" else "Δ / référence"
    bottom.set_ylabel(f"{delta} ({unit})" if unit else delta)
    ticks = ["\n".join(c.split(", ")) + ("\n(baseline)" if i == 0 and lang == "en" else "\n(référence)" if i == 0 else "")
             for i, c in enumerate(cells_)]
    many = len(cells_) > 6
    bottom.set_xticks(x, ticks, rotation=30 if many else 0, ha="right" if many else "center", fontsize=8)
    bottom.grid(alpha=0.3)
    legend_outside(bottom)
    sub = f" — {scenario}" if scenario else ""
    fig.suptitle(f"{metric_title(metric, lang)}{sub}", fontsize=12, fontweight="bold")
    return fig


def write_sweep_report(table: Any, out: Path, *, lang: str = "en", stem: str = "sweep") -> list[Path]:
    """``sweep.csv`` (the analysis), ``sweep.md`` and one figure, ``sweep.png``: the paired differences
    of the metrics with the smallest adjusted p-values (at most :data:`MAX_PANELS`), whatever the number
    of metrics and cells. ``table``: a campaign-wide DataFrame or a batch's :class:`BatchData`."""
    import pandas as pd

    from workers.report.draw import png_bytes

    if not isinstance(table, pd.DataFrame):  # a BatchData
        table = analysis_frame(table)
    analysis = sweep_analysis(table)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    csv, md = out / f"{stem}.csv", out / f"{stem}.md"
    analysis.to_csv(csv, index=False)
    scenario = str(table["scenario"].iloc[0]) if "scenario" in table.columns and len(table) else ""
    keys = ", ".join(SET.match(k).group(1) for k in swept_keys(table))  # type: ignore[union-attr]
    n_tests = int(analysis["p"].notna().sum()) if len(analysis) else 0
    head = (f"# {'Sweep' if stem == 'sweep' else 'Comparison'} of {scenario}: {keys}\n\n"
            f"Baseline: {analysis['cell'].iloc[0] if len(analysis) else ''}. Means with 95% t intervals; Δ is the "
            f"paired difference from the baseline on the same seeds (95% t interval, Cohen's d on the differences); "
            f"p is the paired t test's, corrected for multiple comparisons by {CORRECTION} over the {n_tests} tests of "
            f"this table (false discovery rate {FDR:g}); ⚑ marks a corrected p below {FDR:g}.\n\n")
    md.write_text(head + markdown(analysis, lang), encoding="utf-8")
    written += [csv, md]
    fig = sweep_overview_figure(analysis, scenario=scenario, lang=lang)
    if fig is not None:
        p = out / f"{stem}.png"
        p.write_bytes(png_bytes(fig))
        written.append(p)
    return written


def sweep_overview_figure(analysis: Any, *, scenario: str = "", lang: str = "en") -> Any:
    """The paired differences from the baseline, one panel per metric (those with the smallest corrected
    p-values, :data:`MAX_PANELS` at most), one point per cell with its 95% interval, red when the
    corrected p is below :data:`FDR`."""
    import numpy as np

    from workers.report.draw import new_figure

    other = analysis[~analysis["baseline"].astype(bool)].dropna(subset=["diff"])
    if not len(other):
        return None
    best = (other.groupby("metric")["p_bh"].min().fillna(1.0).sort_values(kind="stable").index[:MAX_PANELS])
    fig, axes = new_figure(len(best), panel_height=1.9, width=10.0, sharex=False)
    cells_ = list(dict.fromkeys(other["cell"]))
    for ax, m in zip(axes, best):
        a = other[other["metric"] == m]
        x = np.array([cells_.index(c) for c in a["cell"]])
        sig = a["significant"].astype(bool).to_numpy()
        err = np.nan_to_num(np.array([a["diff"] - a["diff_lo"], a["diff_hi"] - a["diff"]], dtype=float))
        ax.axhline(0, color="black", lw=0.8)
        for mask, colour in ((sig, "#d62728"), (~sig, "#7f7f7f")):
            if mask.any():
                ax.errorbar(x[mask], a["diff"].astype(float).to_numpy()[mask], yerr=err[:, mask], fmt="o", color=colour,
                            capsize=3)
        ax.set_title(f"{metric_title(m, lang)} — Δ vs baseline", loc="left", fontsize=10)
        ax.set_xticks(range(len(cells_)), [c if len(cells_) <= 6 else c[:18] for c in cells_], fontsize=7,
                      rotation=30 if len(cells_) > 6 else 0)
        ax.grid(alpha=0.3)
    sub = f" — {scenario}" if scenario else ""
    fig.suptitle(f"Shifts from the baseline (red: {CORRECTION} p < {FDR:g}){sub}", fontsize=12, fontweight="bold")
    return fig


__all__ = ["CORRECTION", "FDR", "analysis_frame", "analysis_metrics", "cells", "cmd_sweep", "compare_tables", "markdown",
           "parse_grid", "sweep_analysis", "sweep_figure", "sweep_overview_figure", "swept_keys", "swept_keys_of",
           "write_sweep_report"]
