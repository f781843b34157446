"""Reports people would rather look at than read.

``realmsim report RUN_OR_BATCH --out DIR``:

* a run — a ledger written by ``realmsim run --ledger FILE`` (msgpack stream or ``.jsonl``) or a save
  file — gives ``seasons.csv``/``seasons.parquet`` (one row per season and faction, one column per
  metric, drawn from the ledger's ``SeasonSummarized`` and ``CampaignEnded`` events), the plots
  ``treasury.png``, ``unrest.png``, ``territory.png``, ``armies.png``, ``treaties.png`` and
  ``convoy_unrest.png`` (a line per faction over time, for the systems the run has), and one PNG per
  metric under ``metrics/``;
* a batch — the ``.csv``/``.parquet`` written by ``realmsim batch`` — gives ``distribution.csv``
  (count, mean, quantiles of each metric across seeds) and one histogram PNG per metric.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.calendar import HOURS_PER_SEASON
from sim.errors import RealmsimError
from sim.events import Event, decode_events


class ReportError(RealmsimError):
    """An input the report command cannot read."""


def _read_events(path: Path) -> list[Event]:
    raw = path.read_bytes()
    if path.suffix == ".jsonl":
        import msgspec

        try:
            return [msgspec.json.decode(line, type=Event) for line in raw.splitlines() if line.strip()]
        except msgspec.ValidationError as e:
            raise ReportError(f"{path}: not a realmsim JSON-lines ledger ({e})") from None
    try:
        import msgpack

        head = msgpack.unpackb(raw, raw=False) if raw[:1] in (b"\x85", b"\x86", b"\x87") else None
    except Exception:
        head = None
    if isinstance(head, dict) and head.get("format") == "realmsim-save":
        from agents.savefile import load

        return decode_events(load(path)["ledger"])
    try:
        return decode_events(raw)
    except Exception as e:
        raise ReportError(f"{path}: not a realmsim ledger, save file or batch table ({type(e).__name__})") from None


def season_table(events: list[Event]) -> Any:
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for ev in events:
        if ev.kind == "SeasonSummarized":
            season = ev.data["season"]
        elif ev.kind == "CampaignEnded":
            season = ev.t / HOURS_PER_SEASON
        else:
            continue
        for faction, metrics in ev.data.get("factions", {}).items():
            rows.append({"season": season, "hour": ev.t, "faction": faction, **metrics})
    if not rows:
        raise ReportError("the ledger has no SeasonSummarized events (was it written by realmsim run --ledger?)")
    df = pd.DataFrame(rows)
    return df.sort_values(["season", "faction"], kind="stable").reset_index(drop=True)


# The plots people ask for first, drawn from whichever systems a run has: (metric, {faction kind:
# unit}) pairs; a faction's kind is the prefix of its key (kingdom:brevoy, nation:rome, guild:griffon).
STANDARD: dict[str, list[tuple[str, dict[str, str]]]] = {
    "treasury": [("treasury", {"kingdom": "BP", "nation": "PO"}), ("solars", {"guild": "solars"})],
    "unrest": [("unrest", {"kingdom": "kingdom Unrest"})],
    "territory": [("size", {"kingdom": "hexes"}), ("provinces", {"nation": "provinces"}), ("domains", {"guild": "domains"})],
    "armies": [("armies", {"guild": "armies"}), ("gw_armies", {"nation": "armies"})],
    "treaties": [("treaties", {"kingdom": "treaties", "nation": "treaties"}), ("embassies", {"nation": "embassies"})],
    "convoy_unrest": [("unrest", {"convoy": "caravan Unrest"})],
}


def _kind(faction: str) -> str:
    return faction.partition(":")[0]


def _panels(df: Any, parts: list[tuple[str, dict[str, str]]]) -> list[tuple[str, str, list[tuple[str, Any]]]]:
    """One panel per (metric, faction kind) that has data: (metric, unit, [(faction, rows)])."""
    import pandas as pd

    panels = []
    for metric, kinds in parts:
        if metric not in df.columns:
            continue
        for kind, unit in kinds.items():
            lines = []
            for faction, g in df[df["faction"].map(_kind) == kind].groupby("faction", sort=True):
                values = pd.to_numeric(g[metric], errors="coerce")
                if values.notna().any():
                    lines.append((str(faction), g.assign(**{metric: values})))
            if lines:
                panels.append((metric, unit or f"{kind} {metric}", lines))
    return panels


def _plot(panels: list[tuple[str, str, list[tuple[str, Any]]]], out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 2.2 + 2.6 * len(panels)), dpi=100, sharex=True, squeeze=False)
    for ax, (metric, unit, lines) in zip(axes[:, 0], panels):
        for faction, g in lines:
            ax.plot(g["season"], g[metric], label=faction.partition(":")[2] or faction, marker="." if len(g) < 60 else None)
        ax.set_ylabel(unit)
        ax.grid(alpha=0.3)
        if len(lines) <= 16:
            ax.legend(fontsize=7, loc="upper left", ncol=2 if len(lines) > 6 else 1)
    axes[-1, 0].set_xlabel("season")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def report_run(path: Path, out: Path) -> list[Path]:
    events = _read_events(path)
    df = season_table(events)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "seasons.csv", out / "seasons.parquet"]
    df.to_csv(written[0], index=False)
    df.to_parquet(written[1], index=False)
    for name, parts in STANDARD.items():
        panels = _panels(df, parts)
        if panels:
            p = out / f"{name}.png"
            _plot(panels, p, f"{name.replace('_', ' ')} per faction over time")
            written.append(p)
    per_metric = out / "metrics"
    kinds = {k: "" for k in sorted({_kind(str(f)) for f in df["faction"]})}
    for m in [c for c in df.columns if c not in ("season", "hour", "faction")]:
        panels = _panels(df, [(m, kinds)])
        if panels:
            per_metric.mkdir(exist_ok=True)
            p = per_metric / f"{m.replace('.', '_')}.png"
            _plot(panels, p, f"{m} per faction over time")
            written.append(p)
    return written


def report_batch(path: Path, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    if "seed" not in df.columns:
        raise ReportError(f"{path}: not a realmsim batch table (no 'seed' column)")
    out.mkdir(parents=True, exist_ok=True)
    numeric = [c for c in df.columns if c != "seed" and pd.api.types.is_numeric_dtype(df[c])]
    dist = df[numeric].describe(percentiles=[0.05, 0.25, 0.5, 0.75, 0.95]).T
    written = [out / "distribution.csv"]
    dist.to_csv(written[0])
    for m in numeric:
        fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
        ax.hist(df[m].dropna(), bins=min(30, max(5, df[m].nunique())))
        ax.set_title(f"{m} across {len(df)} seeds")
        ax.set_xlabel(m)
        ax.set_ylabel("seeds")
        fig.tight_layout()
        p = out / f"dist_{m.replace('.', '_')}.png"
        fig.savefig(p)
        plt.close(fig)
        written.append(p)
    return written


def report(path: Path, out: Path) -> list[Path]:
    if not path.exists():
        raise ReportError(f"{path}: no such file")
    if path.suffix in (".csv", ".parquet"):
        return report_batch(path, out)
    return report_run(path, out)
