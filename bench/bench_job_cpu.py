"""CPU per campaign job, in one process, and how much of it lies outside the campaign itself.

    .venv/bin/python bench/bench_job_cpu.py [--jobs 50] [--repeat 3]

Each job is what a worker runs: ``workers.job.run_job`` on a msgpack payload (decode, scenario from
the per-process cache, world and model building, the campaign, the summary, encode). The first job
of a process pays the scenario's parse and validation once; the figures are over the jobs after it
(a worker or pool process keeps the parsed scenario, issue 12 item 2), and the first job is printed
on its own.

For each workload it prints the median CPU per job (min–max over ``--repeat`` rounds of ``--jobs``
seeds) and the part outside ``RealmModel.run`` (the job's setup and teardown: decode, scenario, world,
model, summary, encode), against the targets of issue 12:

- ``caravan-crossing``: at most ``TARGET_CARAVAN_MS`` ms of CPU per job;
- the smallest real job (tests/data/tiny.toml): at most ``TARGET_OVERHEAD_MS`` ms outside the campaign.

CPU time (``time.process_time``), not wall time: the machine may be shared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.model import RealmModel  # noqa: E402
from workers.job import encode, make_job, preload, run_job  # noqa: E402

TARGET_CARAVAN_MS = 15.0
TARGET_OVERHEAD_MS = 2.0

_inside = [0.0]


def _timed_run(orig):  # type: ignore[no-untyped-def]
    def run(self, until=None):  # type: ignore[no-untyped-def]
        c = time.process_time()
        try:
            return orig(self, until)
        finally:
            _inside[0] += time.process_time() - c
    return run


def round_of(payloads: list[bytes]) -> tuple[list[float], list[float]]:
    """(CPU ms per job, ms outside RealmModel.run per job)."""
    total, outside = [], []
    for p in payloads:
        _inside[0] = 0.0
        c = time.process_time()
        run_job(p)
        t = (time.process_time() - c) * 1000
        total.append(t)
        outside.append(t - _inside[0] * 1000)
    return total, outside


def workload(label: str, scenario: dict[str, str], jobs: int, repeat: int) -> tuple[float, float]:
    payloads = [encode(make_job(scenario, seed)) for seed in range(1, jobs + 2)]
    first_total, first_out = round_of(payloads[:1])
    totals, outs = [], []
    for _ in range(repeat):
        t, o = round_of(payloads[1:])
        totals.append(statistics.median(t))
        outs.append(statistics.median(o))
    med_t, med_o = statistics.median(totals), statistics.median(outs)
    print(f"{label}: first job of the process {first_total[0]:.1f} ms CPU ({first_out[0]:.1f} ms outside the campaign)")
    print(f"{label}: median CPU per job {med_t:.2f} ms (rounds {min(totals):.2f}–{max(totals):.2f}), "
          f"outside the campaign {med_o:.2f} ms (rounds {min(outs):.2f}–{max(outs):.2f}), {jobs} jobs x {repeat}")
    return med_t, med_o


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=50, help="seeds per round (default 50)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (default 3)")
    a = ap.parse_args()
    version, error = preload()
    if error:
        print(f"the engine does not import: {error}", file=sys.stderr)
        return 1
    RealmModel.run = _timed_run(RealmModel.run)  # type: ignore[method-assign]
    cc, _ = workload("caravan-crossing", {"name": "caravan-crossing"}, a.jobs, a.repeat)
    tiny = ROOT / "tests" / "data" / "tiny.toml"
    _, over = workload("smallest job (tests/data/tiny.toml)",
                       {"label": "tiny.toml", "text": tiny.read_text(encoding="utf-8")}, a.jobs, a.repeat)
    print(f"target caravan-crossing ≤ {TARGET_CARAVAN_MS:.0f} ms CPU per job: {cc:.2f} ms, "
          f"{'met' if cc <= TARGET_CARAVAN_MS else 'NOT met'}")
    print(f"target smallest job's overhead ≤ {TARGET_OVERHEAD_MS:.0f} ms: {over:.2f} ms, "
          f"{'met' if over <= TARGET_OVERHEAD_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
