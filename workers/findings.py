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
    kind: str  # anarchy | hoarding | idle | dominant | invariant | lopsided
    title: str
    detail: str
    seeds: list[int]  # the seeds of the campaigns that show it
    replay: str
    count: int = 0  # campaigns (rows) that show it
    total: int = 0  # campaigns looked at (a tournament has one per rotation and seed)
    subject: str = ""  # the faction, policy or metric it is about

    def markdown(self) -> str:
        shown = ", ".join(str(s) for s in self.seeds[:10]) + (" …" if len(self.seeds) > 10 else "")
        return (f"- **{self.title}** — {self.detail} In {self.count} of {self.total} campaigns; seeds: {shown}. "
                f"Replay: `{self.replay}`")


@dataclass
class Findings:
    items: list[Finding] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)
    source: str = ""

    def __add__(self, other: Findings) -> Findings:  # the findings of two tables, one after the other
        return Findings(self.items + other.items, self.not_checked + other.not_checked,
                        ", ".join(s for s in (self.source, other.source) if s))

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "findings": [asdict(f) for f in self.items], "not_checked": self.not_checked}

    def markdown(self) -> str:
        lines = ["## Findings", ""]
        if self.source:
            lines.append(f"From {self.source}.")
        if not self.items:
            lines.append("")
            lines.append("Nothing to report: no faction stuck in anarchy, hoarding or idle, no dominant order, no "
                         "invariant violation, no lopsided effect.")
        titles = {"invariant": "Invariant violations", "anarchy": "Stuck in anarchy", "hoarding": "Resources piling up",
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


def findings(table: Any, *, source: str = "", replay: Replay | None = None, stuck_months: float = 12,
             idle_months: float = 12, min_share: float = 0.25, dominant_share: float = 0.9, min_decisions: int = 20,
             lopsided_d: float = 0.8, lopsided_ratio: float = 3.0) -> Findings:
    """Every detector on a results table (a DataFrame as :func:`workers.report.read_batch` reads it)."""
    rp: Replay = replay or replay_command
    out = Findings(source=source)
    cols = [str(c) for c in table.columns]
    n = len(table)
    if n == 0:
        out.not_checked.append("the table has no rows")
        return out

    def seeds_where(mask: Any) -> list[int]:
        return sorted({int(s) for s in table.loc[mask.fillna(False).astype(bool), "seed"]})

    def first_row(mask: Any) -> Any:
        rows = table.loc[mask.fillna(False).astype(bool)].sort_values("seed", kind="stable")
        return rows.iloc[0]

    def by_policy(key: str, mask: Any) -> list[tuple[str, Any, int]]:
        """(policy, mask of its rows that show it, its rows) for each policy that played ``key``: a
        tournament's rotations give one faction several policies."""
        c = f"policy[{key}]"
        if c not in table.columns:
            return [("its policy", mask.fillna(False).astype(bool), n)]
        pol = table[c].astype("string")
        return [(str(p), mask.fillna(False).astype(bool) & (pol == p).fillna(False), int((pol == p).sum()))
                for p in sorted(pol.dropna().unique())]

    def per_faction(kind: str, key: str, mask: Any, title: str, detail: str, *, share: float) -> None:
        for pol, m, rows in by_policy(key, mask):
            k = int(m.sum())
            if k and k >= share * rows:
                out.items.append(Finding(kind, title.format(who=f"{key} ({pol})"), detail.format(policy=pol),
                                         seeds_where(m), rp(first_row(m)), k, rows, f"{key} ({pol})"))

    # invariants
    if "invariants" in cols:
        mask = table["invariants"].astype("Float64") > 0
        if mask.fillna(False).any():
            row = first_row(mask)
            out.items.append(Finding("invariant", "The engine broke its own invariants",
                                     f"First violation: {row.get('invariant_first', '')}.", seeds_where(mask), rp(row),
                                     int(mask.fillna(False).sum()), n, "invariants"))
    else:
        out.not_checked.append("invariants (no 'invariants' column: a table made before the tallies)")

    signal_cols: dict[str, list[tuple[str, str]]] = {}
    for c in cols:
        m = FACTION_COL.match(c)
        if m:
            signal_cols.setdefault(m.group(1), []).append((m.group(2), c))

    # anarchy
    if "anarchy_stuck_months" in signal_cols:
        for key, c in signal_cols["anarchy_stuck_months"]:
            months = table[c].astype("Float64")
            per_faction("anarchy", key, months >= stuck_months, "{who} is stuck in anarchy",
                        f"Still in anarchy at the end, {stuck_months:g} months or more after it began (up to "
                        f"{float(months.max()):g} months).", share=0)
    elif any(c.startswith("policy[kingdom:") for c in cols):
        out.not_checked.append("anarchy (no 'anarchy_stuck_months[KEY]' columns)")

    # hoarding
    if "money_rise_seasons" in signal_cols:
        seasons = (table["hours"].astype("Float64") / HOURS_PER_SEASON) if "hours" in cols else None
        for key, c in signal_cols["money_rise_seasons"]:
            half = (seasons / 2).clip(lower=4) if seasons is not None else 4
            money = {"kingdom": "Treasury (BP)", "nation": "Treasury (PO)", "guild": "solars"}.get(key.split(":")[0], "money")
            per_faction("hoarding", key, table[c].astype("Float64") >= half, "{who} piles up its " + money,
                        f"Its {money} rose at every season snapshot of the last half of the campaign or more, to the "
                        f"end.", share=min_share)
    elif any(c.startswith(("policy[kingdom:", "policy[nation:", "policy[guild:")) for c in cols):
        out.not_checked.append("hoarding (no 'money_rise_seasons[KEY]' columns)")

    # idle
    if "idle_months" in signal_cols:
        for key, c in signal_cols["idle_months"]:
            limit = CONVOY_IDLE_MONTHS if key.startswith("convoy:") else idle_months
            months = table[c].astype("Float64")
            what = "10 days" if key.startswith("convoy:") else f"{idle_months:g} months"
            per_faction("idle", key, months >= limit, "{who} sits idle",
                        f"No act for {what} or more in a row (up to {float(months.max()):g} months).", share=min_share)
    elif any(c.startswith("policy[") for c in cols):
        out.not_checked.append("idle factions (no 'idle_months[KEY]' columns)")

    # dominant orders
    dec = [(DECISION_COL.match(c), c) for c in cols]
    dec_cols = [(m.groups(), c) for m, c in dec if m]
    if dec_cols:
        by_q: dict[tuple[str, str, str], dict[str, str]] = {}
        kinds_of_q: dict[tuple[str, str], set[str]] = {}
        for (kind, pol, q, order), c in dec_cols:
            by_q.setdefault((kind, pol, q), {})[order] = c
            kinds_of_q.setdefault((kind, q), set()).add(order)
        for (kind, pol, q), orders in sorted(by_q.items()):
            if len(kinds_of_q[(kind, q)]) < 2:
                continue
            counts = {o: table[c].astype("Float64").fillna(0) for o, c in orders.items()}
            total_s = sum(counts.values())
            total = float(total_s.sum())
            if total < min_decisions:
                continue
            best = max(counts, key=lambda o: (float(counts[o].sum()), o))
            share = float(counts[best].sum()) / total
            if share > dominant_share:
                mask = (counts[best] / total_s.where(total_s > 0)) > dominant_share
                seeds = seeds_where(mask)
                others = ", ".join(sorted(o for o in kinds_of_q[(kind, q)] if o != best))
                out.items.append(Finding("dominant", f"{kind} ({pol}) nearly always orders “{best}”",
                                         f"{share:.0%} of {total:.0f} decisions on the question of {q} (other orders "
                                         f"seen: {others}).", seeds, rp(first_row(mask)) if seeds else "",
                                         int(mask.fillna(False).sum()), n, f"{kind}/{pol}|{q}|{best}"))
    else:
        out.not_checked.append("dominant orders (no 'decisions[…]' columns)")

    # lopsided effects of a sweep
    sweep_cols = [c for c in cols if SET_COL.match(c) and table[c].astype("string").nunique(dropna=False) > 1]
    if sweep_cols:
        out.items += _lopsided(table, sweep_cols, rp, lopsided_d, lopsided_ratio)
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


__all__ = ["Finding", "Findings", "findings", "replay_command", "write_findings"]
