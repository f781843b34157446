"""Write a batch's results: one row per seed, ``.csv`` or ``.parquet``.

Columns: ``seed``, ``scenario``, ``ledger_sha256``, ``events`` first (the row's identity), then every
summary metric, sorted by name, then per faction (in actor-key order) ``policy[KEY]``, ``score[KEY]``
and each of its metrics ``NAME[KEY]`` (``treasury[kingdom:restov]``), sorted by name. Rows are sorted
by seed. A metric a row lacks is left empty (null). When the results carry them, ``set[KEY]`` per
``--set`` value (a sweep's cell) come after the summary metrics, and the tallies of
:mod:`workers.signals` (``decisions[KIND/POLICY|QUESTION|ORDER]``, ``idle_months[KEY]``…,
``invariant_first``, ``invariants``), sorted by name, after the factions' columns.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from workers.batch import UsageError

FIRST = ("seed", "scenario", "ledger_sha256", "events")
FORMATS = (".csv", ".parquet")


def check_out_path(path: str | Path) -> Path:
    """The output path, checked before any work is done (suffix and folder)."""
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise UsageError(f"--out {str(path)!r}: expected a file name ending in .csv or .parquet, found {p.suffix or 'no suffix'!r}")
    if p.is_dir():
        raise UsageError(f"--out {str(path)!r}: is a directory; expected a .csv or .parquet file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"--out {str(path)!r}: folder {str(parent)!r} does not exist")
    return p


def rows_of(results: Iterable[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """(columns, rows) from job results (``workers.job`` result maps), rows sorted by seed."""
    rows: list[dict[str, Any]] = []
    metrics: set[str] = set()
    per_faction: set[tuple[str, int, str]] = set()  # (faction key, rank, column name)
    for r in results:
        summary = r.get("summary") or {}
        row = {"seed": r.get("seed"), "scenario": r.get("scenario", ""), "ledger_sha256": r.get("ledger_sha256", ""),
               "events": r.get("events", 0)}
        for k, v in summary.items():
            if k in FIRST:
                k = f"summary.{k}"
            row[k] = v
            metrics.add(k)
        for k, v in (r.get("overrides") or {}).items():  # the --set values (a sweep's cell)
            row[f"set[{k}]"] = v
            per_faction.add(("", 0, f"set[{k}]"))
        for col, v in tally_columns(r).items():
            row[col] = v
            per_faction.add(("~", 0, col))
        for key, f in (r.get("factions") or {}).items():
            cols = [(0, "policy", f.get("policy")), (1, "score", f.get("score"))]
            cols += [(2, name, v) for name, v in (f.get("metrics") or {}).items()]
            for rank, name, v in cols:
                col = f"{name}[{key}]"
                row[col] = v
                per_faction.add((key, rank, col))
        rows.append(row)
    rows.sort(key=lambda row: row["seed"])
    return [*FIRST, *sorted(metrics), *(col for _k, _r, col in sorted(per_faction))], rows


def tally_columns(r: dict[str, Any]) -> dict[str, Any]:
    """The columns of a result's tallies (:mod:`workers.signals`): ``invariants`` and
    ``invariant_first``, ``NAME[KEY]`` per faction signal, ``decisions[KIND/POLICY|QUESTION|ORDER]``."""
    out: dict[str, Any] = {}
    if "invariants" in r:
        inv = r.get("invariants") or {}
        out["invariants"] = int(inv.get("count", 0))
        out["invariant_first"] = str(inv.get("first", ""))
    for key, sig in (r.get("signals") or {}).items():
        for name, v in sig.items():
            out[f"{name}[{key}]"] = v
    for who, questions in (r.get("decisions") or {}).items():
        for q, orders in questions.items():
            for o, n in orders.items():
                out[f"decisions[{who}|{q}|{o}]"] = n
    return out


def write_results(path: str | Path, results: Iterable[dict[str, Any]]) -> int:
    """Write the file (atomically: a temporary file renamed into place); returns the row count."""
    p = Path(path)
    columns, rows = rows_of(results)
    tmp = p.with_name(f".{p.name}.tmp")
    if p.suffix.lower() == ".parquet":
        _write_parquet(tmp, columns, rows)
    else:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(columns)
            for row in rows:
                w.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
    tmp.replace(p)
    return len(rows)


def _write_parquet(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = {c: [row.get(c) for row in rows] for c in columns}
    arrays = {}
    for c, values in data.items():
        try:
            arrays[c] = pa.array(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed int/float or odd values
            arrays[c] = pa.array([None if v is None else str(v) for v in values], type=pa.string())
    table = pa.table(arrays) if columns else pa.table({})
    pq.write_table(table, path)


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """Read a file written by :func:`write_results` back as rows (for tests and tools)."""
    p = Path(path)
    if p.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(p).to_pylist()
    with p.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
