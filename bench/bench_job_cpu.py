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

``--profile`` then profiles ``caravan-crossing`` jobs (cProfile) and splits their own time as
``bench/bench_realm.py`` splits a campaign's: the AI policies and the agents' observations, the
ledger, the job's setup and the rule resolution that is the rest. It prints what a job would cost
if the policies cost nothing — the floor that work on the policies alone cannot go below.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

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


POLICY_FILES = ("agents/convoy.py", "agents/kingdom.py", "agents/guild.py", "agents/nation.py",
                "agents/ambassador.py", "agents/envoy.py")  # the agents' observations (as bench_realm.py)


def _category(path: str, fn: str) -> str | None:
    """Where a function's time goes: ``policies``, ``ledger``, ``engine`` (the rest of realmsim), or
    None for code outside realmsim (the interpreter's builtins, the standard library, packages)."""
    path = path.replace("\\", "/")
    if path.endswith("sim/events.py") and fn == "emit":
        return "ledger"
    if "/agents/policies/" in path or path.endswith(POLICY_FILES):
        return "policies"
    if str(ROOT) in path and "/.venv/" not in path:
        return "engine"
    return None


def shares(stats: dict[Any, Any]) -> dict[str, float]:
    """Own time by category, the time of code outside realmsim given to its callers (in proportion
    to what each caller spent in it), up to realmsim's code: ``sum`` or ``heapq.nlargest`` called by a
    policy count for the policy. The ledger takes everything ``Ledger.emit`` calls (encoding, hashing,
    the listeners)."""
    memo: dict[Any, dict[str, float]] = {}

    def parts(func: Any, depth: int = 0) -> dict[str, float]:
        """Where one second of ``func``'s own time goes."""
        got = memo.get(func)
        if got is not None:
            return got
        cat = _category(func[0], func[2])
        callers = stats[func][4] if func in stats else {}
        if cat is not None or not callers or depth > 30:
            got = {cat or "engine": 1.0}
        else:
            got = {}
            spent = sum(c[2] for c in callers.values()) or 1.0
            for caller, c in callers.items():
                for k, v in parts(caller, depth + 1).items():
                    got[k] = got.get(k, 0.0) + v * c[2] / spent
        memo[func] = got
        return got

    out: dict[str, float] = {}
    emit = [f for f in stats if _category(f[0], f[2]) == "ledger"]
    inside_emit = sum(stats[f][3] for f in emit)  # what emit and its callees took
    for func, v in stats.items():
        for k, w in parts(func).items():
            out[k] = out.get(k, 0.0) + v[2] * w
    # the ledger's callees are realmsim's own code too (Event, the listeners): count them for the ledger
    moved = inside_emit - out.get("ledger", 0.0)
    out["ledger"] = inside_emit
    out["engine"] = out.get("engine", 0.0) - moved
    return out


def profile_split(jobs: int, cpu_ms: float) -> None:
    """cProfile over ``jobs`` caravan-crossing jobs (after a first one): own time by where the code
    lives; the policies' share gives the floor of a job with free policies."""
    payloads = [encode(make_job({"name": "caravan-crossing"}, seed)) for seed in range(1, jobs + 2)]
    run_job(payloads[0])
    prof = cProfile.Profile()
    prof.enable()
    for p in payloads[1:]:
        run_job(p)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())
    where = shares(stats)
    policies, ledger = where.get("policies", 0.0), where.get("ledger", 0.0)
    share = policies / total
    print(f"caravan-crossing profiled ({jobs} jobs, cProfile, {total:.2f} s): the AI policies and agents' "
          f"observations {100 * share:.1f} %, the ledger (Ledger.emit and what it calls) {100 * ledger / total:.1f} %, "
          f"the rest (rule resolution, the job's setup) {100 * (1 - share - ledger / total):.1f} %")
    print(f"  with policies that cost nothing a job would still take about {cpu_ms * (1 - share):.1f} ms of CPU "
          f"(target ≤ {TARGET_CARAVAN_MS:.0f} ms)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=50, help="seeds per round (default 50)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--profile", action="store_true", help="then split a caravan-crossing job's time (cProfile)")
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
    if a.profile:
        profile_split(a.jobs, cc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
