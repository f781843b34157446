"""Mesa's ``batch_run`` against ``realmsim batch`` on the same seeds (issue 11 item 7): the same
summaries (checked), and the time each takes, on one process and on N.

``realmsim batch`` is timed as its local pool runs it (``workers.local.run_local``: one job per seed,
each a campaign with collection off); ``mesa.batch_run(RealmModel, ...)`` steps each model a season
at a time with its DataCollector on (a row a season, each faction's season metrics). Prints figures;
no target.

    .venv/bin/python bench/bench_batch_run.py [--scenario caravan-crossing] [--seeds 1..8] [--processes 2] [--repeat 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    import mesa

    from agents.model import RealmModel
    from workers.batch import BatchPlan, parse_seeds, scenario_ref
    from workers.local import run_local

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="caravan-crossing")
    ap.add_argument("--seeds", default="1..8")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    seeds = parse_seeds(a.seeds)
    ref, name = scenario_ref(a.scenario)

    def realmsim(n: int) -> dict[int, dict[str, float]]:
        plan = BatchPlan.make(ref, seeds, name=name)
        out: dict[int, dict[str, float]] = {}
        for o in run_local(plan, workers=n):
            if o.result is None:
                raise SystemExit(f"seed {o.seed} failed: {o.error}")
            out[o.seed] = o.result["summary"]
        return out

    def mesa_run(n: int) -> dict[int, dict[str, float]]:
        rows = mesa.batch_run(RealmModel, parameters={"campaign": a.scenario, "seed": seeds, "collect": True},
                              number_processes=n, display_progress=False)
        out: dict[int, dict[str, float]] = {}
        for r in rows:
            out.setdefault(r["seed"], r)
        return out

    print(f"{a.scenario}, seeds {a.seeds} ({len(seeds)} campaigns), best and median of {a.repeat}")
    for n in sorted({1, a.processes}):
        for label, fn in (("realmsim batch (local pool)", realmsim), ("mesa.batch_run", mesa_run)):
            times = []
            got = {}
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                got = fn(n)
                times.append(time.perf_counter() - t0)
            print(f"  {label:<30} processes={n}: best {min(times):7.2f} s, median {statistics.median(times):7.2f} s, "
                  f"{len(seeds) / min(times):6.2f} campaigns/s")
            if label == "mesa.batch_run":
                ref_sum = realmsim(1) if n == 1 else None
                if ref_sum is not None:
                    same = all({k: got[s][k] for k in ref_sum[s]} == ref_sum[s] for s in seeds)
                    print(f"  same final summaries as realmsim batch: {'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
