"""A batch's results as tidy tables: a row per campaign, a row per campaign and faction, never a column
per entity (docs/workers.md, "Results files").

``realmsim batch … --out b.parquet`` writes, side by side:

* ``b.parquet`` — the **campaign table**: one row per campaign (seed; sweep cell as ``set[KEY]``
  columns; tournament ``rotation``), with ``campaign`` (its number, the key of the other tables),
  ``scenario``, ``ledger_sha256``, ``events``, ``hours``, ``invariants``, ``invariant_first`` and the
  scenario's *headline* summary metrics (:data:`workers.metrics.HEADLINE`): tens of columns whatever
  the world's size;
* ``b.metrics.parquet`` — every summary metric of every campaign, long: ``campaign``, ``seed``,
  ``metric``, ``value`` (the headline ones again, and the counters the campaign table leaves out);
* ``b.factions.parquet`` — one row per campaign and faction the scenario declares: ``faction``,
  ``kind``, ``policy``, ``score``, ``unit``, the tallies of :mod:`workers.signals` (``idle_months``…)
  and the metrics of its kind (``treasury``, ``economy``…; empty for the other kinds);
* ``b.seasons.parquet`` — the season snapshots of kingdoms, nations and guilds: ``campaign``, ``seed``,
  ``hour``, ``season``, ``faction``, ``kind`` and their metrics (the series of a report's quantile bands);
* ``b.decisions.parquet`` — the decision tallies, long: ``campaign``, ``seed``, ``who``
  (``KIND/POLICY``), ``question``, ``order``, ``count`` (the dominant-order finding);
* with ``--detail``, ``b.convoys.parquet`` — one row per campaign and convoy, the trade caravans a
  kingdom sends (LINK-04) included.

``.csv`` instead of ``.parquet`` gives the same tables as CSV. Rows are in campaign order: by rotation
or sweep cell (in the order of the grid), then by seed. The tables are written as the results come
(:class:`ResultsWriter`): what stays in memory is one compact Arrow table per part, never the
results themselves.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.calendar import HOURS_PER_SEASON

IDENTITY = ("campaign", "seed", "scenario", "ledger_sha256", "events", "hours", "invariants", "invariant_first")
PARTS = ("metrics", "factions", "seasons", "decisions", "convoys")
FACTION_FIRST = ("campaign", "seed", "faction", "kind", "policy", "score", "unit")
SEASON_FIRST = ("campaign", "seed", "hour", "season", "faction", "kind")


def part_path(path: str | Path, part: str) -> Path:
    """``b.parquet`` → ``b.factions.parquet`` (the same suffix as the campaign table)."""
    p = Path(path)
    return p.with_name(f"{p.stem}.{part}{p.suffix}")


def _number(v: Any) -> Any:
    """A value for a numeric column: numbers as they are, anything else empty."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int | float):
        return v
    return None


def _column(values: list[Any]) -> pa.Array:
    """Whole numbers as int64, other numbers as float64, anything else as text (nulls allowed)."""
    kinds = {type(v) for v in values if v is not None}
    if kinds == {bool}:
        return pa.array(values, type=pa.bool_())
    if kinds <= {int, bool}:
        return pa.array([None if v is None else int(v) for v in values], type=pa.int64())
    if kinds <= {int, float, bool}:
        return pa.array([None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v) for v in values],
                        type=pa.float64())
    return pa.array([None if v is None else str(v) for v in values], type=pa.string())


def _table(rows: list[dict[str, Any]], first: Iterable[str] = ()) -> pa.Table:
    first = [c for c in first if any(c in r for r in rows)]
    rest = sorted({c for r in rows for c in r} - set(first))
    return pa.table({c: _column([r.get(c) for r in rows]) for c in [*first, *rest]})


def _unify(chunks: list[pa.Table]) -> pa.Table:
    """One table from tables whose columns may differ (a column missing from a chunk: nulls) and whose
    types may differ (int64 and float64: float64; anything and text: text)."""
    if not chunks:
        return pa.table({})
    order: dict[str, None] = {}
    types: dict[str, pa.DataType] = {}
    for t in chunks:
        for f in t.schema:
            order.setdefault(f.name, None)
            old = types.get(f.name)
            if old is None or old == f.type or pa.types.is_null(f.type):
                types.setdefault(f.name, f.type)
            elif pa.types.is_null(old):
                types[f.name] = f.type
            elif {old, f.type} <= {pa.int64(), pa.float64()}:
                types[f.name] = pa.float64()
            else:
                types[f.name] = pa.string()
    schema = pa.schema([(c, types[c]) for c in order])
    out = []
    for t in chunks:
        cols = []
        for f in schema:
            if f.name in t.column_names:
                col = t.column(f.name)
                cols.append(col if col.type == f.type else col.cast(f.type))
            else:
                cols.append(pa.nulls(t.num_rows, type=f.type))
        out.append(pa.table(cols, schema=schema))
    return pa.concat_tables(out)


class ResultsWriter:
    """Turn job results into the tidy tables, one result at a time; :meth:`close` writes the files
    (each atomically: a temporary file renamed into place) and returns the campaign count."""

    def __init__(self, path: str | Path, *, detail: bool = False) -> None:
        self.path = Path(path)
        self.detail = detail
        self.campaigns: list[dict[str, Any]] = []
        self.chunks: dict[str, list[pa.Table]] = {p: [] for p in PARTS}
        self.pending: dict[str, list[dict[str, Any]]] = {p: [] for p in PARTS}
        self.n = 0

    # ---- one result ----------------------------------------------------------------------------
    def add(self, r: dict[str, Any], *, extra: dict[str, Any] | None = None) -> None:
        """One job result (``workers.job``); ``extra``: columns of the campaign table that the result does
        not carry (a tournament's ``rotation``). The ``campaign`` numbers are set when written."""
        from workers.metrics import HEADLINE, definition, is_per_faction

        i = self.n  # a provisional number: the rows are put in campaign order at the end
        self.n += 1
        seed = r.get("seed")
        summary = r.get("summary") or {}
        inv = r.get("invariants") or {}
        row: dict[str, Any] = {"campaign": i, "seed": seed, "scenario": r.get("scenario", ""),
                               "ledger_sha256": r.get("ledger_sha256", ""), "events": r.get("events", 0)}
        if "hours" in summary:
            row["hours"] = summary["hours"]
        if "invariants" in r:
            row["invariants"] = int(inv.get("count", 0))
            row["invariant_first"] = str(inv.get("first", ""))
        for k, v in (extra or {}).items():
            row[k] = v
        for k, v in (r.get("overrides") or {}).items():
            row[f"set[{k}]"] = v if isinstance(v, int | float | str) and not isinstance(v, bool) else repr(v)
        metrics = self.pending["metrics"]
        for k, v in summary.items():
            if k == "hours" or is_per_faction(k):
                continue
            if k in HEADLINE or definition(k) is None:  # a metric the registry does not know yet stays in view
                row[k] = v
            n = _number(v)
            if n is not None:
                metrics.append({"campaign": i, "seed": seed, "metric": k, "value": float(n)})
        self.campaigns.append(row)
        spawned = set(r.get("spawned") or ()) if self._spawned_known(r) else set()
        signals = r.get("signals") or {}
        for key, f in (r.get("factions") or {}).items():
            kind = f.get("kind") or key.split(":", 1)[0]
            frow: dict[str, Any] = {"campaign": i, "seed": seed, "faction": key, "kind": kind, "policy": f.get("policy"),
                                    "score": _number(f.get("score")), "unit": f.get("unit", "")}
            for m, v in (f.get("metrics") or {}).items():
                frow[m] = v if isinstance(v, str) else _number(v)
            for m, v in (signals.get(key) or {}).items():
                frow[m] = v if isinstance(v, str) else _number(v)
            if kind == "convoy" and self.detail:
                self.pending["convoys"].append({**frow, "spawned": key in spawned})
            if key not in spawned or kind != "convoy":
                self.pending["factions"].append(frow)
        series = r.get("series") or {}
        hours = series.get("hour") or []
        if hours:
            cols: dict[str, Any] = {"campaign": [i] * len(hours), "seed": [seed] * len(hours), "hour": hours,
                                    "season": [h / HOURS_PER_SEASON for h in hours], "faction": series["faction"],
                                    "kind": [k.split(":", 1)[0] for k in series["faction"]]}
            for m, vs in series.items():
                if m not in ("hour", "faction"):
                    cols[m] = vs
            self.chunks["seasons"].append(pa.table({c: _column(list(v)) for c, v in cols.items()}))
        for who, questions in (r.get("decisions") or {}).items():
            for q, orders in questions.items():
                for o, n in orders.items():
                    self.pending["decisions"].append({"campaign": i, "seed": seed, "who": who, "question": q,
                                                      "order": o, "count": int(n)})
        if self.n % 50 == 0:
            self._flush()

    @staticmethod
    def _spawned_known(r: dict[str, Any]) -> bool:
        return "spawned" in r

    def _flush(self) -> None:
        firsts = {"metrics": ("campaign", "seed", "metric", "value"), "factions": FACTION_FIRST,
                  "decisions": ("campaign", "seed", "who", "question", "order", "count"), "convoys": FACTION_FIRST}
        for part, rows in self.pending.items():
            if rows:
                self.chunks[part].append(_table(rows, firsts.get(part, ())))
                self.pending[part] = []

    # ---- the files -------------------------------------------------------------------------------
    def _order(self) -> dict[int, int]:
        """Provisional number → campaign number: rotation (or cell, in grid order), then seed."""
        keys = sorted({c for r in self.campaigns for c in r if c.startswith("set[")})
        cell_rank: dict[tuple[Any, ...], int] = {}
        for r in self.campaigns:  # the grid's order is the order in which cells were first given
            cell_rank.setdefault(tuple(repr(r.get(k)) for k in keys), len(cell_rank))

        def key(r: dict[str, Any]) -> tuple[Any, ...]:
            return (r.get("rotation", 0), cell_rank[tuple(repr(r.get(k)) for k in keys)], r.get("seed") or 0, r["campaign"])

        ordered = sorted(self.campaigns, key=key)
        return {r["campaign"]: n for n, r in enumerate(ordered)}

    def close(self) -> int:
        self._flush()
        order = self._order()
        remap = pa.array([order[i] for i in range(self.n)], type=pa.int64())
        for r in self.campaigns:
            r["campaign"] = order[r["campaign"]]
        self.campaigns.sort(key=lambda r: r["campaign"])
        sets = sorted({c for r in self.campaigns for c in r if c.startswith("set[")})
        first = ["campaign", "rotation", *sets, *IDENTITY[1:]]
        campaigns = _table(self.campaigns, first) if self.campaigns else \
            pa.table({c: pa.array([], type=pa.string()) for c in IDENTITY[:5]})  # no result: the header only
        written = [(self.path, campaigns)]
        for part in PARTS:
            if part == "convoys" and not self.detail:
                continue
            t = _unify(self.chunks[part])
            if t.num_rows:
                idx = t.schema.get_field_index("campaign")
                t = t.set_column(idx, "campaign", pc.take(remap, t.column("campaign")))
                keys = {"seasons": ["hour", "faction"], "metrics": ["metric"], "factions": ["faction"],
                        "convoys": ["faction"], "decisions": ["who", "question", "order"]}[part]
                t = t.sort_by([("campaign", "ascending"), *((k, "ascending") for k in keys)])
            written.append((part_path(self.path, part), t))
        for p, t in written:
            if t.num_columns or p == self.path:
                write_table(p, t)
            elif p.exists():  # a table of an earlier batch of the same name would be read with this one
                p.unlink()
        return len(self.campaigns)


def write_table(path: Path, table: pa.Table) -> None:
    """A table as ``.parquet`` or ``.csv`` (by the suffix), atomically."""
    tmp = path.with_name(f".{path.name}.tmp")
    if path.suffix.lower() == ".parquet":
        pq.write_table(table, tmp, compression="zstd")
    else:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            if table.num_columns:
                w.writerow(table.column_names)
            for batch in table.to_batches(max_chunksize=10_000):  # a batch of rows at a time
                cols = [c.to_pylist() for c in batch.columns]
                for row in zip(*cols):
                    w.writerow([_csv_cell(v) for v in row])
    tmp.replace(path)


def _csv_cell(v: Any) -> Any:
    """A CSV cell: empty for null, whole numbers without ``.0`` (``70``, not ``70.0``)."""
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v


def write_tidy(path: str | Path, results: Iterable[dict[str, Any]], *, detail: bool = False,
               extra: Iterable[dict[str, Any]] | None = None) -> int:
    """Write every table of a batch from its results; returns the campaign count."""
    w = ResultsWriter(path, detail=detail)
    extras = iter(extra) if extra is not None else None
    for r in results:
        w.add(r, extra=next(extras) if extras is not None else None)
    return w.close()


def written_paths(path: str | Path) -> list[Path]:
    """The files of a batch's tables that exist (the campaign table first)."""
    p = Path(path)
    return [p, *(q for q in (part_path(p, part) for part in PARTS) if q.exists())]


def read_csv_rows(path: Path) -> list[dict[str, Any]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


__all__ = ["IDENTITY", "PARTS", "ResultsWriter", "part_path", "write_table", "write_tidy", "written_paths"]
