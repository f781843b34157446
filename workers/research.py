"""``realmsim report`` for research tables (docs/research.md): a batch, a sweep or a tournament's
results get a findings section; two batch tables are compared seed by seed.

One input: the report of :mod:`workers.report` (a run or a batch); for a batch table, also
``findings.md``/``findings.json`` (:mod:`workers.findings`), and for a sweep (``set[KEY]`` columns
with two or more values) the sweep analysis (:mod:`workers.sweep`). Two batch tables: the
comparison (``comparison.csv``/``.md`` and plots, the first file the baseline) and the findings of each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workers.batch import UsageError
from workers.report.tables import ReportError

TABLES = (".csv", ".parquet")


def report_inputs(paths: list[Path], out: Path, *, lang: str = "en") -> list[Path]:
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
        written = report(paths[0], out, lang=lang)
        if paths[0].suffix in TABLES:
            written += table_extras(paths[0], out, lang=lang)
        return written
    a, b = paths
    bad = [str(p) for p in paths if p.suffix not in TABLES]
    if bad:
        raise UsageError(f"report: two inputs are compared as batch tables (.csv or .parquet); found {', '.join(bad)}")
    return compare_files(a, b, out, lang=lang)


def table_extras(path: Path, out: Path, *, lang: str = "en") -> list[Path]:
    """The findings of a batch table and, for a sweep, its analysis."""
    from workers.findings import findings, write_findings
    from workers.report.tables import read_batch
    from workers.sweep import swept_keys, write_sweep_report

    table = read_batch(path)
    written = []
    if swept_keys(table):
        written += write_sweep_report(table, out, lang=lang)
    replay: Any = None
    if "rotation" in table.columns:  # a tournament's results.parquet: replay the rotation's scenario file
        here = path.parent / "scenarios"

        def replay(row: Any) -> str:
            import shlex

            return f"realmsim run {shlex.quote(str(here / f'rotation-{int(row['rotation'])}.toml'))} --seed {int(row['seed'])}"

    written += write_findings(findings(table, source=str(path), replay=replay), out)
    return written


def compare_files(a: Path, b: Path, out: Path, *, lang: str = "en") -> list[Path]:
    from workers.findings import findings, write_findings
    from workers.report.tables import read_batch
    from workers.sweep import compare_tables, write_sweep_report

    ta, tb = read_batch(a), read_batch(b)
    try:
        table = compare_tables(ta, tb, a.name, b.name)
    except ValueError as e:
        raise ReportError(str(e)) from None
    written = write_sweep_report(table, out, lang=lang, stem="comparison")
    fa = findings(ta, source=str(a))
    fb = findings(tb, source=str(b))
    written += write_findings(fa + fb, out)
    return written


__all__ = ["compare_files", "report_inputs", "table_extras"]
