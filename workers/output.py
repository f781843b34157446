"""Write a batch's results, ``.csv`` or ``.parquet``: the tidy tables of :mod:`workers.tidy` (a row per
campaign in the file named, a row per campaign and faction beside it, …).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from workers.batch import UsageError

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


def write_results(path: str | Path, results: Iterable[dict[str, Any]], *, detail: bool = False,
                  extra: Iterable[dict[str, Any]] | None = None) -> int:
    """Write a batch's tidy tables (:mod:`workers.tidy`): the campaign table at ``path`` and its
    companions beside it (``.factions``, ``.seasons``, ``.metrics``, ``.decisions``; ``.convoys`` with
    ``detail``), each atomically; returns the campaign count. ``results`` may be a generator: the
    results are turned into compact tables as they come."""
    from workers.tidy import write_tidy

    return write_tidy(path, results, detail=detail, extra=extra)


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """Read a table written by :func:`write_results` back as rows (for tests and tools)."""
    p = Path(path)
    if p.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(p).to_pylist()
    with p.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
