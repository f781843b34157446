"""``realmsim report`` for research tables (docs/research.md): a batch, a sweep or a tournament's
results get a findings section; two batch tables are compared seed by seed.

One input: the report of :mod:`workers.report` (a run or a batch); for a batch table, also
``findings.md``/``findings.json`` (:mod:`workers.findings`), and for a sweep (``set[KEY]`` columns
with two or more values) the sweep analysis (:mod:`workers.sweep`). Two batch tables: the
comparison (``comparison.csv``/``.md`` and plots, the first file the baseline) and the findings of each.
"""

from __future__ import annotations

from pathlib import Path

from workers.batch import UsageError
from workers.report.tables import ReportError

TABLES = (".csv", ".parquet")


def report_inputs(paths: list[Path], out: Path, *, lang: str = "en", command: str = "") -> list[Path]:
    """Write the report of one input, or the comparison of two batch tables; returns the files."""
    from workers.report import report
    from workers.report.names import check_lang

    check_lang(lang)
    if len(paths) > 2:
        raise UsageError(f"report: expected one input, or two batch tables to compare; found {len(paths)} inputs")
    for p in paths:
        if not p.exists():
            raise ReportError(f"{p}: no such file")
    if len(paths) == 1:
        return report(paths[0], out, lang=lang, command=command)
    a, b = paths
    bad = [str(p) for p in paths if p.suffix not in TABLES]
    if bad:
        raise UsageError(f"report: two inputs are compared as batch tables (.csv or .parquet); found {', '.join(bad)}")
    return compare_files(a, b, out, lang=lang)


def compare_files(a: Path, b: Path, out: Path, *, lang: str = "en") -> list[Path]:
    """The two tables as one sweep over ``set[batch]`` (the first the baseline) on the seeds they share:
    ``comparison.csv``/``.md``/``.png``, and the findings of each."""
    from workers.findings import findings_of, write_findings
    from workers.report.data import BatchData
    from workers.sweep import analysis_frame, compare_tables, write_sweep_report

    da, db = BatchData(a), BatchData(b)
    try:
        table = compare_tables(analysis_frame(da), analysis_frame(db), a.name, b.name)
    except ValueError as e:
        raise ReportError(str(e)) from None
    written = write_sweep_report(table, out, lang=lang, stem="comparison")
    written += write_findings(findings_of(da, source=str(a)) + findings_of(db, source=str(b)), out)
    return written


__all__ = ["compare_files", "report_inputs"]
