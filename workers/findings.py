"""Findings, not just numbers: what a designer would want to hear about a batch, a sweep or a
tournament, read from its results table (docs/research.md).

Each detector reads columns a job's tallies put in the table (:mod:`workers.signals`,
:func:`workers.output.tally_columns`) and returns :class:`Finding` objects, each with the seeds that
show it and the command that replays one of them. A table made before those tallies existed lacks
the columns; the detector then says so in ``not_checked`` rather than finding nothing.

Detectors (thresholds are the keyword arguments of :func:`findings`):

* ``anarchy`` — a kingdom still in anarchy at the end, ``stuck_months`` (12) or more after it began;
* ``hoarding`` — a faction whose money (Treasury, PO, solars) rose at every season snapshot of the
  last half of the campaign (at least 4 snapshots), in at least ``min_share`` of the seeds;
* ``idle`` — a faction with no act for ``idle_months`` (12; a convoy: 10 days) or more, in at least
  ``min_share`` of the seeds;
* ``dominant`` — an order kind chosen in over ``dominant_share`` (90%) of a policy's decisions on
  one question, over at least ``min_decisions`` (20) decisions, on a question where the table shows
  two or more kinds of order (a question whose orders all read alike — a hex by number — says nothing);
* ``invariant`` — any invariant violation (the engine's own checks), every seed;
* ``lopsided`` — in a sweep, a metric that a swept value moves far more than the others: the largest
  |Cohen's d| of a cell is at least ``lopsided_d`` (0.8) and ``lopsided_ratio`` (3) times the next.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sim.calendar import HOURS_PER_SEASON

FACTION_COL = re.compile(r"^([a-z_]+)\[([a-z]+:[^\]]+)\]$")
DECISION_COL = re.compile(r"^decisions\[([a-z]+)/([^|]*)\|([^|]*)\|(.*)\]$")
SET_COL = re.compile(r"^set\[(.+)\]$")
CONVOY_IDLE_MONTHS = 1 / 3  # 10 days


@dataclass
class Finding:
    kind: str  # anarchy | hoarding | idle | dominant | invariant | runaway | lopsided
    title: str
    detail: str
    seeds: list[int]  # the seeds of the campaigns that show it
    replay: str
    count: int = 0  # campaigns (rows) that show it
    total: int = 0  # campaigns looked at (a tournament has one per rotation and seed)
    subject: str = ""  # the faction, policy or metric it is about

    @property
    def share(self) -> float:
        return self.count / self.total if self.total else 0.0

    def markdown(self) -> str:
        shown = ", ".join(str(s) for s in self.seeds[:10]) + (" …" if len(self.seeds) > 10 else "")
        return (f"- **{self.title}** — {self.detail} In {self.count} of {self.total} campaigns ({self.share:.0%}); "
                f"seeds: {shown}. Replay: `{self.replay}`")


@dataclass
class Findings:
    items: list[Finding] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)
    source: str = ""

    def __add__(self, other: Findings) -> Findings:  # the findings of two tables, one after the other
        return Findings(self.items + other.items, self.not_checked + other.not_checked,
                        ", ".join(s for s in (self.source, other.source) if s))

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "findings": [{**asdict(f), "share": round(f.share, 4)} for f in self.items],
                "not_checked": self.not_checked}

    def markdown(self) -> str:
        lines = ["## Findings", ""]
        if self.source:
            lines.append(f"From {self.source}.")
        if not self.items:
            lines.append("")
            lines.append("Nothing to report: no faction stuck in anarchy, hoarding or idle, no dominant order, no "
                         "invariant violation, no lopsided effect.")
        titles = {"invariant": "Invariant violations", "runaway": "Runaway growth", "anarchy": "Stuck in anarchy",
                  "hoarding": "Resources piling up",
                  "idle": "Idle for long stretches", "dominant": "Dominant orders", "lopsided": "Lopsided effects"}
        for kind, title in titles.items():
            mine = [f for f in self.items if f.kind == kind]
            if mine:
                lines += ["", f"### {title}", ""] + [f.markdown() for f in mine]
        if self.not_checked:
            lines += ["", "Not checked: " + "; ".join(self.not_checked) + "."]
        return "\n".join(lines) + "\n"


def replay_command(row: Any, scenario: str | None = None) -> str:
    """``realmsim run SCENARIO --seed S [--set KEY=VALUE …]`` for a row of a results table."""
    sc = scenario or str(row.get("scenario", "SCENARIO"))
    parts = ["realmsim", "run", sc, "--seed", str(int(row["seed"]))]
    for c in row.index:
        m = SET_COL.match(str(c))
        if m and m.group(1) != "batch":
            v = row[c]
            if v is None or str(v) in ("<NA>", "nan", "NaN"):
                continue
            v = v.item() if hasattr(v, "item") else v  # a numpy or pandas scalar
            v = int(v) if isinstance(v, float) and v.is_integer() else v
            text = json.dumps(v) if not isinstance(v, str) else v
            parts += ["--set", f"{m.group(1)}={text}"]
    return " ".join(shlex.quote(p) for p in parts)


Replay = Callable[[Any], str]


def _ints(v: Any) -> list[int]:
    """A DuckDB list as ints (an empty or missing list: [])."""
    try:
        return [int(x) for x in v]
    except TypeError:
        return []

# What the ledger shows makes a kingdom grow without bound (docs/research.md, "Runaway kingdoms"), by
# the metric that runs away: read in the ledgers of realm seeds 1..20 (BuildingConstructed, TaxesCollected).
RUNAWAY_WHY: dict[tuple[str, str], str] = {
    ("kingdom", "economy"): (
        "The loop: a cheap building adds Economy for ever (SC-KM-31: a Smithy costs 6 BP for Economy +1 and "
        "Stability +1; a Mill the same), taxes are an Economy check ÷ 3 in BP every month (SC-KM-18, RES-KM-48), "
        "so each Smithy pays for itself in about 18 months and then buys more; lots never run out, as a new "
        "district can always be added (SC-KM-28) and lot placement is not simulated (RES-KM-38); the Stability "
        "the same buildings add keeps the upkeep Stability checks passing and Unrest at 0 (SC-KM-09), so nothing brakes it. "
        "Only the per-turn building limit of SC-KM-17 bounds it (20 buildings a turn at Size 101–200, none from "
        "201)."),
}
RUNAWAY_WHY[("kingdom", "stability")] = RUNAWAY_WHY[("kingdom", "economy")]
RUNAWAY_WHY[("kingdom", "loyalty")] = (
    "Loyalty grows with the Guildhalls, Taverns and Noble Villas the same loop pays for (SC-KM-31); see Economy.")
RUNAWAY_METRICS = {"kingdom": ("economy", "stability", "loyalty", "treasury"), "nation": ("treasury",),
                   "guild": ("solars",)}


def findings_of(data: Any, *, source: str = "", replay: Replay | None = None, stuck_months: float = 12,
                idle_months: float = 12, min_share: float = 0.25, dominant_share: float = 0.9,
                min_decisions: int = 20, runaway_factor: float = 10, runaway_min: float = 100,
                lopsided_d: float = 0.8, lopsided_ratio: float = 3.0) -> Findings:
    """Every detector on a batch's tidy tables (:class:`workers.report.batch.BatchData`), with group-bys
    in DuckDB: what share of the campaigns shows each finding, their seeds, and a replay command."""
    out = Findings(source=source)
    n = data.count
    if n == 0:
        out.not_checked.append("the table has no rows")
        return out
    camp_cols = data.columns("campaigns")
    rows_by_campaign: dict[int, Any] = {}

    def row_of(campaign: int) -> Any:
        if campaign not in rows_by_campaign:
            import pandas as pd

            d = data.df("SELECT * FROM campaigns WHERE campaign = ?", [int(campaign)])
            rows_by_campaign[campaign] = d.iloc[0] if len(d) else pd.Series({"seed": 0})
        return rows_by_campaign[campaign]

    if replay is None and "rotation" in camp_cols:
        replay = None  # a tournament's caller passes its own
    rp: Replay = replay or replay_command

    def seeds_of(campaigns: list[int]) -> list[int]:
        if not campaigns:
            return []
        got = data.df("SELECT DISTINCT seed FROM campaigns WHERE campaign IN (SELECT unnest(?::BIGINT[])) ORDER BY seed",
                      [list(map(int, campaigns))])
        return [int(s) for s in got["seed"]]

    # invariants
    if "invariants" in camp_cols:
        bad = data.df("SELECT campaign, invariant_first FROM campaigns WHERE invariants > 0 ORDER BY seed, campaign")
        if len(bad):
            first = int(bad["campaign"].iloc[0])
            out.items.append(Finding("invariant", "The engine broke its own invariants",
                                     f"First violation: {bad['invariant_first'].iloc[0]}.",
                                     seeds_of(list(bad["campaign"])), rp(row_of(first)), len(bad), n, "invariants"))
    else:
        out.not_checked.append("invariants (no 'invariants' column: a table made before the tallies)")

    fcols = data.types("factions") if "factions" in data.parts else {}

    def per_faction(kind: str, cond: str, title: str, detail: str, *, share: float, extra: str = "") -> None:
        got = data.df(f"""SELECT faction, policy, count(*) AS rows,
                                 list(campaign ORDER BY seed, campaign) FILTER (WHERE {cond}) AS hit {extra}
                          FROM factions f JOIN (SELECT campaign AS c2, hours FROM campaigns) c ON f.campaign = c.c2
                          GROUP BY faction, policy ORDER BY faction, policy""")
        for _, r in got.iterrows():
            hit = _ints(r["hit"])
            if hit and len(hit) >= share * int(r["rows"]):
                who = f"{r['faction']} ({r['policy']})"
                out.items.append(Finding(kind, title.format(who=who), detail.format(**r.to_dict()), seeds_of(hit),
                                         rp(row_of(hit[0])), len(hit), int(r["rows"]), who))

    if "anarchy_stuck_months" in fcols:
        per_faction("anarchy", f"anarchy_stuck_months >= {stuck_months}", "{who} is stuck in anarchy",
                    f"Still in anarchy at the end, {stuck_months:g} months or more after it began (up to "
                    "{worst:g} months).", share=0, extra=", max(anarchy_stuck_months) AS worst")
    elif "factions" in data.parts and data.one("SELECT count(*) FROM factions WHERE kind = 'kingdom'"):
        out.not_checked.append("anarchy (no 'anarchy_stuck_months' column)")
    if "money_rise_seasons" in fcols:
        per_faction("hoarding", f"money_rise_seasons >= greatest(4, hours / {HOURS_PER_SEASON * 2})",
                    "{who} piles up its money",
                    "Its money (Treasury, PO or solars) rose at every season snapshot of the last half of the "
                    "campaign or more, to the end.", share=min_share)
    if "idle_months" in fcols:
        per_faction("idle", f"idle_months >= CASE WHEN kind = 'convoy' THEN {CONVOY_IDLE_MONTHS} ELSE {idle_months} END",
                    "{who} sits idle", "No act for a long stretch (12 months; a convoy: 10 days) or more in a row (up to "
                    "{worst:g} months).", share=min_share, extra=", max(idle_months) AS worst")
    elif "factions" in data.parts:
        out.not_checked.append("idle factions (no 'idle_months' column)")

    # dominant orders
    if "decisions" in data.parts:
        got = data.df(f"""
            WITH t AS (SELECT who, question, "order", sum("count") AS k FROM decisions GROUP BY ALL),
                 kinds AS (SELECT split_part(who, '/', 1) AS kind, question, count(DISTINCT "order") AS orders
                           FROM decisions GROUP BY ALL),
                 tot AS (SELECT who, question, sum(k) AS total, arg_max("order", k) AS best, max(k) AS top FROM t GROUP BY ALL)
            SELECT tot.*, kinds.orders FROM tot JOIN kinds ON kinds.kind = split_part(tot.who, '/', 1)
                                                  AND kinds.question = tot.question
            WHERE kinds.orders >= 2 AND total >= {min_decisions} AND top > {dominant_share} * total
            ORDER BY who, question""")
        for _, r in got.iterrows():
            per = data.df(f"""WITH c AS (SELECT campaign, sum("count") AS total,
                                                sum(CASE WHEN "order" = ? THEN "count" ELSE 0 END) AS best
                                         FROM decisions WHERE who = ? AND question = ? GROUP BY campaign)
                              SELECT campaign FROM c WHERE best > {dominant_share} * total ORDER BY campaign""",
                          [r["best"], r["who"], r["question"]])
            hit = [int(c) for c in per["campaign"]]
            others = data.df("""SELECT DISTINCT "order" FROM decisions WHERE split_part(who, '/', 1) = ? AND question = ?
                                AND "order" <> ? ORDER BY 1""", [str(r["who"]).split("/")[0], r["question"], r["best"]])
            kind, _, pol = str(r["who"]).partition("/")
            out.items.append(Finding(
                "dominant", f"{kind} ({pol}) nearly always orders “{r['best']}”",
                f"{r['top'] / r['total']:.0%} of {int(r['total'])} decisions on the question of {r['question']} (other "
                f"orders seen: {', '.join(map(str, others['order']))}).", seeds_of(hit), rp(row_of(hit[0])) if hit else "",
                len(hit), n, f"{r['who']}|{r['question']}|{r['best']}"))
    else:
        out.not_checked.append("dominant orders (no decisions table)")

    # runaway growth
    if "seasons" in data.parts:
        scols = data.types("seasons")
        for kind, metrics in RUNAWAY_METRICS.items():
            for m in metrics:
                if m not in scols:
                    continue
                col = '"' + m + '"'
                got = data.df(f"""
                    WITH s AS (SELECT campaign, faction, arg_min({col}, hour) AS first, arg_max({col}, hour) AS last
                               FROM seasons WHERE kind = ? AND {col} IS NOT NULL GROUP BY campaign, faction),
                         r AS (SELECT *, last / greatest(abs(first), 1) AS growth FROM s
                               WHERE last >= {runaway_min} AND last >= {runaway_factor} * greatest(abs(first), 1))
                    SELECT campaign, arg_max(faction, last) AS faction, max(last) AS last, max(growth) AS growth
                    FROM r GROUP BY campaign ORDER BY last DESC""", [kind])
                if not len(got):
                    continue
                hit = sorted(int(c) for c in got["campaign"])
                worst = got.iloc[0]
                leaders = got["faction"].value_counts()
                lead_text = ", ".join(f"{f} in {k}" for f, k in leaders.head(4).items())
                name = f"{m.capitalize()}"
                evidence = ""
                if kind == "kingdom" and {"buildings", "buildings_month_max", "building_most"} <= set(fcols):
                    ev = data.df("""SELECT faction, buildings, buildings_month_max, building_most, building_most_n
                                    FROM factions WHERE campaign = ? AND faction = ?""",
                                 [int(worst["campaign"]), worst["faction"]])
                    if len(ev):
                        e = ev.iloc[0]
                        evidence = (f" In the worst campaign {e['faction']} built {int(e['buildings'])} buildings, up to "
                                    f"{int(e['buildings_month_max'])} in one month, {int(e['building_most_n'])} of them "
                                    f"{e['building_most']}s.")
                    most = data.df("""SELECT building_most, count(*) AS k FROM factions WHERE kind = 'kingdom'
                                      AND building_most IS NOT NULL GROUP BY 1 ORDER BY k DESC, 1 LIMIT 1""")
                    if len(most):
                        evidence += (f" Across the batch the kind a kingdom built most is the {most['building_most'].iloc[0]} "
                                     f"for {int(most['k'].iloc[0])} kingdom-campaigns.")
                why = RUNAWAY_WHY.get((kind, m), "")
                out.items.append(Finding(
                    "runaway", f"{kind.capitalize()} {name} runs away",
                    f"A {kind}'s {name} ends {runaway_factor:g} times its first value or more (and at least "
                    f"{runaway_min:g}): up to {worst['last']:,.0f} ({worst['growth']:,.0f}×, {worst['faction']}). "
                    f"Who: {lead_text}.{evidence} {why}".rstrip(),
                    seeds_of(hit), rp(row_of(int(worst["campaign"]))), len(hit), n, f"{kind}.{m}"))
    else:
        out.not_checked.append("runaway growth (no seasons table)")

    # lopsided effects of a sweep
    from workers.sweep import analysis_frame, swept_keys

    if data.set_columns():
        table = analysis_frame(data)
        keys = swept_keys(table)
        if keys:
            out.items += _lopsided(table, keys, rp, lopsided_d, lopsided_ratio)
    return out


def _lopsided(table: Any, keys: list[str], rp: Replay, min_d: float, ratio: float) -> list[Finding]:
    from workers.sweep import cell_label, sweep_analysis

    a = sweep_analysis(table, keys)
    out: list[Finding] = []
    labels = [cell_label(r, keys) for _, r in table[keys].iterrows()]
    t = table.assign(_cell=labels)
    base = a["cell"].iloc[0]
    for cell, g in a[~a["baseline"].astype(bool)].groupby("cell", sort=False):
        d = g.assign(absd=g["cohen_d"].astype(float).abs()).dropna(subset=["absd"])
        d = d[d["absd"] != math.inf].sort_values("absd", ascending=False) if len(d) else d
        if len(d) < 2:
            continue
        top, second = d.iloc[0], d.iloc[1]
        if top["absd"] >= min_d and top["absd"] >= ratio * max(second["absd"], 1e-12):
            m = top["metric"]
            here = t[t["_cell"] == cell].set_index("seed")[m].astype("Float64")
            there = t[t["_cell"] == base].set_index("seed")[m].astype("Float64")
            diff = (here - there).dropna()
            seeds = [int(s) for s in diff.abs().sort_values(ascending=False, kind="stable").index[:5]]
            row = t[(t["_cell"] == cell) & (t["seed"] == seeds[0])].iloc[0] if seeds else None
            out.append(Finding("lopsided", f"{cell} moves {m} far more than anything else",
                               f"Cohen's d {top['cohen_d']:+.2f} against the baseline ({base}); the next metric, "
                               f"{second['metric']}, moves {second['cohen_d']:+.2f}. Seeds of the largest shifts listed.",
                               seeds, rp(row) if row is not None else "", len(seeds), int(len(diff)), m))
    return out


def write_findings(f: Findings, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / "findings.md", out / "findings.json"
    md.write_text(f.markdown(), encoding="utf-8")
    js.write_text(json.dumps(f.as_json(), indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return [md, js]


def findings(path_or_data: Any, **kw: Any) -> Findings:
    """The findings of a batch table file (or of an open :class:`workers.report.batch.BatchData`)."""
    from workers.report.data import BatchData

    data = path_or_data if isinstance(path_or_data, BatchData) else BatchData(Path(path_or_data))
    return findings_of(data, **kw)


__all__ = ["Finding", "Findings", "findings", "findings_of", "replay_command", "write_findings"]
