"""Chaos: a batch on 2 Redis workers while a random worker is SIGKILLed every few seconds and Redis is
restarted once (with its append-only file). Nothing may be lost, counted twice, or come out different.

The reference is the same batch on the local pool. Then a private redis-server (AOF on, fsync always)
gets the batch; two workers (``--min-idle`` short, so a killed worker's job is taken over quickly) work
it; every ``--kill-every`` seconds (randomised ±50%) one of them, chosen at random, is killed with
SIGKILL — or, for a share ``--term`` of the stops, sent SIGTERM (it kills the job in hand and puts it
back with the rest, issue 30) — and a new one started in its place; once, about a third of the way
in, Redis is shut down and started again from its AOF. At the end it prints:

- lost: jobs with neither a result nor a dead letter;
- duplicated: results stored more than once (the ``stored`` counter beyond the number of jobs);
- digest mismatches: results whose ledger_sha256 differs from the local pool's;
- healthy jobs dead-lettered;
all of which must be 0; and, for the record, the kills, the jobs run twice (their second result was
not stored), the consumers left in the group.

    .venv/bin/python bench/chaos_workers.py [--scenario caravan-crossing] [--jobs 800] [--kills 20] [--kill-every 4]
        [--term 0.5]
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis_helper import Server, command_line, start_worker, stop  # noqa: E402

from workers.batch import BatchPlan, scenario_ref  # noqa: E402
from workers.local import run_local  # noqa: E402
from workers.queue import CONNECTION_ERRORS, GROUP, RedisQueue  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="caravan-crossing")
    ap.add_argument("--jobs", type=int, default=800)
    ap.add_argument("--kills", type=int, default=20, help="at least this many kills (the batch is resubmitted "
                                                          "under new seeds if it ends first)")
    ap.add_argument("--kill-every", type=float, default=4.0, metavar="S")
    ap.add_argument("--seed", type=int, default=1, help="of the chaos (which worker, when)")
    ap.add_argument("--term", type=float, default=0.5, metavar="SHARE",
                    help="share of the stops that are SIGTERM instead of SIGKILL (default 0.5)")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the workers and Redis on the way out
    print(f"$ {command_line()}")
    rng = random.Random(args.seed)
    ref, name = scenario_ref(args.scenario)
    plan = BatchPlan.make(ref, list(range(1, args.jobs + 1)), name=name)
    t0 = time.perf_counter()
    reference = {o.seed: o.result["ledger_sha256"] for o in run_local(plan, 2) if o.result}
    print(f"reference: {len(reference)} of {len(plan)} {name} jobs on the local pool in {time.perf_counter() - t0:.1f} s")
    worker_args = ("--min-idle", "2", "--block", "0.5", "--forget-idle", "5")
    kills = terms = restarts = 0
    with tempfile.TemporaryDirectory(prefix="realmsim-chaos-") as tmp:
        srv = Server(tmp, appendonly=True)
        srv.start()
        q = RedisQueue(srv.url, prefix="chaos")
        workers = [start_worker(srv.url, *worker_args, prefix="chaos") for _ in range(2)]
        try:
            q.submit(plan)
            t0 = time.perf_counter()
            next_kill = time.monotonic() + args.kill_every
            restart_at = len(plan) // 3
            done = dead = 0
            while True:
                try:
                    done, dead = q.counts(plan.id)
                except CONNECTION_ERRORS:
                    time.sleep(0.2)
                    continue
                if done + dead >= len(plan):
                    break
                if not restarts and done >= restart_at:
                    srv.stop()
                    time.sleep(1.0)
                    srv.start()
                    restarts += 1
                    print(f"  {time.perf_counter() - t0:6.1f} s: Redis restarted from its AOF ({done} done)")
                if time.monotonic() >= next_kill:
                    i = rng.randrange(len(workers))
                    if rng.random() < args.term:
                        workers[i].terminate()  # SIGTERM: the job in hand is killed and put back
                        terms += 1
                    else:
                        workers[i].kill()
                    workers[i].wait()
                    workers[i] = start_worker(srv.url, *worker_args, prefix="chaos")
                    kills += 1
                    next_kill = time.monotonic() + args.kill_every * rng.uniform(0.5, 1.5)
                if time.perf_counter() - t0 > 3600:
                    print("gave up after an hour")
                    break
                time.sleep(0.1)
            elapsed = time.perf_counter() - t0
            st = q.state(plan)
            stats = q.stats()
            consumers = len(q.r.xinfo_consumers(q.keys.stream, GROUP))
            pending = q.r.xpending(q.keys.stream, GROUP)["pending"]
        finally:
            stop(workers)
            srv.stop()
    seeds = dict(zip(plan.keys(), plan.seeds))
    got = {seeds[k]: r["ledger_sha256"] for k, r in st.results.items()}
    lost = len(st.missing_seeds())
    mismatched = sum(1 for s, d in got.items() if reference.get(s) != d)
    duplicated = max(0, stats.get("stored", 0) - len(st.results))
    healthy_dead = sum(1 for s, _ in st.dead_seeds() if s in reference)
    print(f"{len(plan)} {name} jobs on 2 workers in {elapsed:.1f} s; {kills} workers stopped ({kills - terms} SIGKILL, "
          f"{terms} SIGTERM), Redis restarted {restarts} time(s) with AOF")
    print(f"lost {lost}, duplicated {duplicated}, digest mismatches {mismatched}, healthy jobs dead-lettered "
          f"{healthy_dead}  (all must be 0)")
    print(f"for the record: results {len(st.results)}, jobs run again whose result was kept once "
          f"{stats.get('duplicates', 0)}, refused results {len(st.refused)}, consumers left in the group {consumers}, "
          f"pending {pending}; counters {stats}")
    if kills < args.kills:
        print(f"WARNING: only {kills} kills (wanted >= {args.kills}): use more --jobs or a shorter --kill-every")
    bad = lost or duplicated or mismatched or healthy_dead or st.refused
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
