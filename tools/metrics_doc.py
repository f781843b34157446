"""Write docs/metrics.md from the one table of summary metrics (workers/metrics.py) and their names and
units (workers/report/names.py): ``python tools/metrics_doc.py`` (``--check``: exit 1 if the page differs)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workers.metrics import METRICS  # noqa: E402
from workers.report.names import SYSTEMS, lookup  # noqa: E402

PAGE = Path(__file__).resolve().parents[1] / "docs" / "metrics.md"
HEAD = """# Summary metrics

Every summary metric of a campaign (`realmsim run --json`'s `summary`, a batch's `metrics` table and, for
the headline ones, its campaign table), defined once: `workers/metrics.py` says what each counts, the
system drivers (`agents/systems/*.py`) compute it, `workers/report/names.py` names it.
Every metric is recounted from the ledgers of small campaigns, independently of the driver
(`tests/workers/ledger_recount.py`, run by `tests/workers/test_metrics.py`, which fails for a metric
without a recount): counters from the events that make them, what exists at the end from the scenario's
start and the events that create and end each thing, a faction's end values from the faction record
the ledger ends with (`CampaignEnded`). This page is written by `python tools/metrics_doc.py` (a test
checks it is up to date).

*Campaign table*: ✓ for a headline metric (a column of the batch's campaign table, `b.parquet`); every
metric is in the long metrics table (`b.metrics.parquet`). Per-guild metrics (`gw.solars.<guild>`…) are
the guild's row of the faction table.
"""


def page() -> str:
    lines = [HEAD]
    for system, (label, _fr) in SYSTEMS.items():
        mine = [k for k in METRICS if k.startswith(f"{system}.")]
        if not mine:
            continue
        lines += [f"\n## {label} ({system.upper()})\n", "| metric | name | unit | what it counts | campaign table |",
                  "| --- | --- | --- | --- | :---: |"]
        for k in mine:
            m, n = METRICS[k], lookup(k)
            lines.append(f"| `{k}` | {n.name('en')} | {n.unit('en') or 'count'} | {m.counts} | {'✓' if m.headline else ''} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = page()
    if "--check" in sys.argv:
        sys.exit(0 if PAGE.read_text(encoding="utf-8") == text else 1)
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
