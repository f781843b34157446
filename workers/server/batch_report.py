"""A finished batch's overview on the server: the same report ``realmsim report`` writes (figures and
findings, :mod:`workers.report.batch`), made once per batch and kept under the data directory
(``reports/BATCH/``), so that the page and ``/v1/batches/{id}/report`` show what the command line shows.

A batch still running has no report yet (its figures would change with every result); one that ended
(finished, incomplete or cancelled) with results gets it on first request.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

NAME = re.compile(r"^[a-z]+_[a-z]+$")  # overview_km, factions_kingdom, series_guild, sweep is not served


def report_dir(data_dir: Path, batch_id: str) -> Path:
    return data_dir / "reports" / batch_id


_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def _lock(d: Path) -> threading.Lock:
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(str(d), threading.Lock())


def make_report(data_dir: Path, batch_id: str, results: list[dict[str, Any]], scenario: str) -> dict[str, Any]:
    """The report of a batch's results (made if absent): ``{"figures": [...], "findings": {...},
    "command": str, "campaigns": n}``. Requests that come together (the page and its figures, two
    clients) wait for the one report being made rather than each make it in the same place."""
    d = report_dir(data_dir, batch_id)
    meta = d / "report.json"
    with _lock(d):
        if meta.exists():
            return dict(json.loads(meta.read_text(encoding="utf-8")))
        return _make(d, batch_id, results, scenario)


def _make(d: Path, batch_id: str, results: list[dict[str, Any]], scenario: str) -> dict[str, Any]:
    from workers.output import write_results
    from workers.report.batch import report_batch

    d.parent.mkdir(parents=True, exist_ok=True)
    if d.exists():  # no report.json: what a crash left half made
        shutil.rmtree(d)
    tmp = Path(tempfile.mkdtemp(prefix=f".{batch_id}.", dir=d.parent))  # its own, even for another process
    try:
        (tmp / "tables").mkdir()
        table = tmp / "tables" / "results.parquet"
        n = write_results(table, results)
        command = f"realmsim report {batch_id}.parquet --out {batch_id}-report/"
        written = report_batch(table, tmp, command=command)
        shutil.rmtree(tmp / "tables")
        findings = json.loads((tmp / "findings.json").read_text(encoding="utf-8"))
        findings["source"] = f"batch {batch_id} ({scenario})"
        info = {"campaigns": n, "command": command, "figures": [p.stem for p in written if p.suffix == ".png"],
                "findings": findings}
        (tmp / "report.json").write_text(json.dumps(info, sort_keys=True), encoding="utf-8")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        tmp.replace(d)
    except OSError:  # another process put the same report there first: keep that one
        shutil.rmtree(tmp, ignore_errors=True)
        return dict(json.loads((d / "report.json").read_text(encoding="utf-8")))
    return info


def figure_path(data_dir: Path, batch_id: str, name: str) -> Path | None:
    """The PNG of a figure of a batch's report (``None`` for a name that is not one of its figures)."""
    if not NAME.match(name):
        return None
    p = report_dir(data_dir, batch_id) / f"{name}.png"
    return p if p.is_file() else None


__all__ = ["figure_path", "make_report", "report_dir"]
