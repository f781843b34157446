"""How well the AI policies play: every target figure of issue 13, with 95% confidence intervals.

Paired seeds: for each faction kind, its single-system scenario (convoy: caravan-crossing, kingdom:
stolen-lands, nation: mare-nostrum, guild: guild-war) is played on the same seeds twice per seat —
once with that seat played by policy A, once by policy B, every other faction by the background
policy (``--design seat``, the default: only the seat's policy differs between the two runs) — or
with every faction of the scenario played by A, then by B (``--design kind``). A pair is won by A
when the seat's score (``sim.scoring``, docs/scoring.md) is higher under A; a tie counts a half.

Figures printed, against the targets of issue 13:

  (a) heuristic beats random: share of pairs won per kind, Wilson 95% interval (target >= 0.9,
      lower bound >= 0.85);
  (b) realm: share of kingdom-campaigns ending in anarchy (target <= 10%), and how many of them
      come from the kingdom's own play (``workers.quality.anarchy_endings``; target 0);
  (c) median end-of-campaign treasury in years of the faction's income, per kind (target <= 2),
      bootstrap 95% interval;
  (d) median longest idle stretch (no act at all, ``workers.quality.activity``) per kind (target
      <= 12 months), bootstrap 95% interval;
  (e) lookahead beats heuristic (target >= 0.6, lower bound > 0.5, at <= 20x the heuristic
      campaign's time), run only when a policy named ``lookahead`` is registered for a kind.

(c) and (d) read the heuristic factions of the all-heuristic runs of (a) and of ``realm`` as shipped.
Jobs run on a local process pool (``concurrent.futures``; only msgpack bytes cross to the pool):

    .venv/bin/python bench/ai_quality.py --seeds 30 --workers 2 [--json figures.json]
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workers.batch import UsageError, parse_seeds  # noqa: E402
from workers.job import decode, encode, make_job, run_job_dict  # noqa: E402
from workers.quality import activity, anarchy_endings, bootstrap_median, median, paired_wins, wilson  # noqa: E402

SCENARIOS = {"convoy": "caravan-crossing", "kingdom": "stolen-lands", "nation": "mare-nostrum", "guild": "guild-war"}
TABLES = {"convoy": "convoys", "kingdom": "kingdoms", "nation": "nations", "guild": "guilds"}
KINDS = tuple(SCENARIOS)
REALM = "realm"
HOURS_PER_MONTH = 720


# ---- one job, in a pool process: msgpack bytes in, msgpack bytes out -----------------------------

def run_one(payload: bytes, explain: bool = False) -> bytes:
    """Run a campaign job (``workers.job``); when it kept its ledger, replace the ledger by what this
    bench reads from it (acts, anarchy endings), so that only small results come back. ``explain``:
    the campaign records every decision explained (the job's ``explain``, as ``run --explain``; by
    default compactly, as every batch job since issue 26 item 2; the choices are the same either way)."""
    from sim.events import decode_events

    job = decode(payload)
    if explain:
        job["explain"] = True
    t0, c0 = time.perf_counter(), time.process_time()
    res = run_job_dict(job)
    res["seconds"] = time.perf_counter() - t0
    res["cpu_seconds"] = time.process_time() - c0
    if "ledger" in res:
        events = decode_events(res.pop("ledger"))
        res["idle_hours"] = {k: a.longest_idle for k, a in activity(events).items()}
        res["anarchy"] = [[e.kingdom, e.onset, e.cause, e.detail] for e in anarchy_endings(events)]
    return encode(res)


# ---- the plan ------------------------------------------------------------------------------------

@dataclass
class Run:
    """One campaign to run: a scenario variant on a seed. ``tag`` says what it is for."""

    tag: tuple[Any, ...]
    label: str
    text: str
    seed: int
    ledger: bool = False
    result: dict[str, Any] = field(default_factory=dict)


@functools.cache
def seats_of(name: str, kind: str) -> list[str]:
    """The actor keys of the factions of ``kind`` a scenario file names (its seats)."""
    from scenarios.loader import load_scenario

    sc = load_scenario(name).scenario
    return [f"{kind}:{row.id}" for row in getattr(sc, TABLES[kind])]


def variant_text(name: str, background: str, seats: dict[str, str] | None = None) -> tuple[str, str]:
    from agents.variants import variant

    v = variant(name, policy=background, seats=seats or None)
    return v.label, v.text


def plan_pairs(kind: str, seeds: list[int], a: str, b: str, background: str, design: str, ledger: bool) -> list[Run]:
    """The runs of the paired comparison of policy ``a`` against ``b`` for one faction kind."""
    name = SCENARIOS[kind]
    runs: list[Run] = []
    if design == "kind":
        for pol in (a, b):
            label, text = variant_text(name, pol)
            runs += [Run(("pair", kind, "kind", pol), label, text, s, ledger and pol == background) for s in seeds]
        return runs
    base_label, base_text = variant_text(name, background)
    runs += [Run(("pair", kind, "base", background), base_label, base_text, s, ledger) for s in seeds]
    for seat in seats_of(name, kind):
        for pol in (a, b):
            if pol == background:
                continue
            label, text = variant_text(name, background, {seat: pol})
            runs += [Run(("pair", kind, seat, pol), label, text, s) for s in seeds]
    return runs


def pairs_of(runs: list[Run], kind: str, a: str, b: str, background: str, design: str) -> list[tuple[int, str, float, float]]:
    """(seed, seat, score under a, score under b) for every pair."""
    by: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in runs:
        if r.tag[0] == "pair" and r.tag[1] == kind:
            by[(*r.tag[2:], r.seed)] = r.result
    out = []
    seeds = sorted({r.seed for r in runs if r.tag[0] == "pair" and r.tag[1] == kind})
    for seat in seats_of(SCENARIOS[kind], kind):
        for s in seeds:
            if design == "kind":
                ra, rb = by.get(("kind", a, s)), by.get(("kind", b, s))
            else:
                ra = by.get(("base", background, s)) if a == background else by.get((seat, a, s))
                rb = by.get(("base", background, s)) if b == background else by.get((seat, b, s))
            if not ra or not rb:
                continue
            fa, fb = ra["factions"].get(seat), rb["factions"].get(seat)
            if fa is None or fb is None:
                continue
            out.append((s, seat, float(fa["score"]), float(fb["score"])))
    return out


# ---- running -------------------------------------------------------------------------------------

def execute(runs: list[Run], workers: int, progress: Callable[[int, int, float], None], explain: bool = False) -> list[str]:
    """Run every job on a pool of ``workers`` processes; returns the errors (one line each)."""
    job_fn = functools.partial(run_one, explain=True) if explain else run_one
    errors: list[str] = []
    t0 = time.perf_counter()
    # fork: the pool processes start with the engine imported and with any policy registered here
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        pending: dict[Future[bytes], Run] = {}
        todo = list(reversed(runs))
        done = 0

        def top_up() -> None:
            while todo and len(pending) < 2 * workers:
                r = todo.pop()
                job = make_job({"label": r.label, "text": r.text}, r.seed, want_ledger=r.ledger)
                pending[pool.submit(job_fn, encode(job))] = r

        top_up()
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                r = pending.pop(f)
                try:
                    r.result = decode(f.result())
                except Exception as e:  # noqa: BLE001 - one failed job must not lose the others
                    errors.append(f"{r.label} seed {r.seed}: {type(e).__name__}: {e}")
                done += 1
                progress(done, len(runs), time.perf_counter() - t0)
            top_up()
    return errors


# ---- figures -------------------------------------------------------------------------------------

def fmt(x: float, nd: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if math.isinf(x):
        return "inf"
    return f"{x:.{nd}f}"


def share_figures(pairs: list[tuple[int, str, float, float]]) -> dict[str, Any]:
    n = len(pairs)
    wins = paired_wins([p[2] for p in pairs], [p[3] for p in pairs])
    lo, hi = wilson(wins, n)
    seats: dict[str, list[tuple[float, float]]] = {}
    for _s, seat, x, y in pairs:
        seats.setdefault(seat, []).append((x, y))
    per_seat = {k: paired_wins([x for x, _ in v], [y for _, y in v]) / len(v) for k, v in sorted(seats.items())}
    diffs = [p[2] - p[3] for p in pairs]
    return {"pairs": n, "wins": wins, "share": wins / n if n else math.nan, "ci": [lo, hi], "per_seat": per_seat,
            "median_diff": median(diffs)}


def heuristic_rows(runs: Iterable[Run], kind: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(faction key, faction entry, run result) of every heuristic faction of ``kind`` in the runs
    that kept their ledger (the all-heuristic base runs and realm)."""
    out = []
    for r in runs:
        if not r.ledger or not r.result:
            continue
        for key, f in r.result["factions"].items():
            if f["kind"] == kind and f["policy"] == "heuristic":
                out.append((key, f, r.result))
    return out


def lookahead_policies(kinds: list[str]) -> dict[str, str]:
    """Kind → how a scenario names the policy registered as ``lookahead`` for it (by its registered
    name: the validator resolves policies through the registry, issue 9), for the kinds that have one."""
    from agents.policies import known_policies

    return {kind: "lookahead" for kind in kinds if "lookahead" in known_policies(kind)}


def seed_list(text: str) -> list[int]:
    """``N`` → seeds 1..N (0: none); otherwise a ``--seeds`` list such as ``1..30,40``."""
    if text.strip().isdigit():
        return list(range(1, int(text) + 1))
    return parse_seeds(text)


def single_or_realm() -> tuple[tuple[str, Callable[[dict[str, Any]], bool]], ...]:
    return (("single", lambda res: res["scenario"] != REALM), ("realm", lambda res: res["scenario"] == REALM))


def figure_a(runs: list[Run], kinds: list[str], background: str, design: str) -> dict[str, Any]:
    print("\n(a) heuristic beats random: share of pairs won (ties count 1/2), Wilson 95% CI; target >= 0.90, lower bound >= 0.85")
    out = {}
    for kind in kinds:
        f = share_figures(pairs_of(runs, kind, "heuristic", "random", background, design))
        out[kind] = f
        ok = f["share"] >= 0.9 and f["ci"][0] >= 0.85
        seats = ", ".join(f"{k.split(':', 1)[1]} {v:.2f}" for k, v in f["per_seat"].items())
        print(f"  {kind:8} {SCENARIOS[kind]:17} {f['pairs']:4} pairs  share {fmt(f['share'])}  CI [{fmt(f['ci'][0])}, "
              f"{fmt(f['ci'][1])}]  median score gain {fmt(f['median_diff'], 1)}  {'PASS' if ok else 'FAIL'}")
        print(f"           per seat: {seats}")
    return out


def figure_b(runs: list[Run]) -> dict[str, Any]:
    print("\n(b) realm: kingdom-campaigns ending in anarchy (SC-KM-07), Wilson 95% CI; target <= 10%, none from own play")
    realm_runs = [r for r in runs if r.tag == ("realm",) and r.result]
    if not realm_runs:
        print("  not run (--realm-seeds 0)")
        return {}
    realm_kingdoms = set(seats_of(REALM, "kingdom"))  # the scenario's kingdoms, not vassals founded on the way
    kc = [(r.seed, key) for r in realm_runs for key in r.result["factions"] if key in realm_kingdoms]
    endings = [(r.seed, *e) for r in realm_runs for e in r.result["anarchy"] if e[0] in realm_kingdoms]
    lo, hi = wilson(len(endings), len(kc))
    causes: dict[str, int] = {}
    for e in endings:
        causes[e[3]] = causes.get(e[3], 0) + 1
    onsets = [e[2] / (12 * HOURS_PER_MONTH) for e in endings]
    seeds_with = len({e[0] for e in endings})
    share = len(endings) / len(kc) if kc else math.nan
    own = causes.get("own play", 0)
    print(f"  {len(endings)} of {len(kc)} kingdom-campaigns ({fmt(share * 100, 1)}%, CI [{fmt(lo * 100, 1)}%, {fmt(hi * 100, 1)}%]) "
          f"end in anarchy; {seeds_with} of {len(realm_runs)} seeds have one or more; median onset year "
          f"{fmt(median(onsets) + 1 if onsets else math.nan, 1)}  {'PASS' if share <= 0.1 and own == 0 else 'FAIL'}")
    print("  by cause: " + (", ".join(f"{c} {n}" for c, n in sorted(causes.items())) or "none") + f"   (own play: {own}, target 0)")
    return {"kingdom_campaigns": len(kc), "anarchy": len(endings), "share": share, "ci": [lo, hi], "causes": causes,
            "seeds_with_anarchy": seeds_with, "onset_years": onsets, "endings": [list(e) for e in endings]}


def figure_c(runs: list[Run]) -> dict[str, Any]:
    print("\n(c) median end-of-campaign treasury in years of income (heuristic factions), bootstrap 95% CI; target <= 2")
    print("    (all-heuristic runs of (a) and realm; no income counts as infinite; a nation that is also a kingdom has"
          " the kingdom's treasury)")
    out: dict[str, Any] = {"convoy": None}
    for kind in ("kingdom", "nation", "guild"):
        rows = heuristic_rows(runs, kind)
        for where, sel in single_or_realm():
            mine = [f for _key, f, res in rows if sel(res) and not f["metrics"].get("treasury_of")]
            vals = [math.inf if f["metrics"].get("treasury_years") is None else float(f["metrics"]["treasury_years"]) for f in mine]
            if not vals:
                continue
            m = median(vals)
            lo, hi = bootstrap_median(vals)
            tre = median([float(f["metrics"].get("treasury", f["metrics"].get("solars", 0)) or 0) for f in mine])
            print(f"  {kind:8} {where:6} {len(vals):4} factions  median {fmt(m)} years  CI [{fmt(lo)}, {fmt(hi)}]  "
                  f"(median treasury {fmt(tre, 0)})  {'PASS' if m <= 2 else 'FAIL'}")
            out.setdefault(kind, {})[where] = {"n": len(vals), "median": m, "ci": [lo, hi], "median_treasury": tre}
    print("  convoy   n/a: a convoy has no income (its gp pays wages and stores)")
    return out


def figure_d(runs: list[Run]) -> dict[str, Any]:
    print("\n(d) median longest idle stretch (no act at all) per heuristic faction, bootstrap 95% CI; target <= 12 months")
    out: dict[str, Any] = {}
    for kind in ("kingdom", "nation", "guild", "convoy"):
        rows = heuristic_rows(runs, kind)
        for where, sel in single_or_realm():
            vals = [res["idle_hours"][key] / HOURS_PER_MONTH for key, _f, res in rows if sel(res) and key in res["idle_hours"]]
            if not vals:
                continue
            m = median(vals)
            lo, hi = bootstrap_median(vals)
            print(f"  {kind:8} {where:6} {len(vals):4} factions  median {fmt(m, 1)} months  CI [{fmt(lo, 1)}, {fmt(hi, 1)}]  "
                  f"max {fmt(max(vals), 1)}  {'PASS' if m <= 12 else 'FAIL'}")
            out.setdefault(kind, {})[where] = {"n": len(vals), "median_months": m, "ci": [lo, hi], "max": max(vals)}
    return out


def figure_e(runs: list[Run], kinds: list[str], lookahead: dict[str, str], skipped: bool = False) -> dict[str, Any]:
    print("\n(e) lookahead beats heuristic: share of pairs, Wilson 95% CI; target >= 0.60, lower bound > 0.50, <= 20x the time"
          "\n    (time: a lookahead seat's campaign over the all-heuristic campaign, mean wall seconds; CPU: the same in CPU seconds)")
    out: dict[str, Any] = {}
    if skipped:
        print("  not run (--no-lookahead)")
    elif not lookahead:
        print("  not available yet: no policy named 'lookahead' is registered for " + ", ".join(kinds)
              + " (agents.policies.known_policies)")
    for kind, spec in lookahead.items():
        f = share_figures(pairs_of(runs, kind, spec, "heuristic", "heuristic", "seat"))
        base_t = [r.result["seconds"] for r in runs if r.tag == ("time", kind) and r.result]
        look_t = [r.result["seconds"] for r in runs if r.tag[:2] == ("pair", kind) and r.tag[-1] == spec and r.result]
        ratio = (sum(look_t) / len(look_t)) / (sum(base_t) / len(base_t)) if base_t and look_t else math.nan
        base_c = [r.result["cpu_seconds"] for r in runs if r.tag == ("time", kind) and r.result]
        look_c = [r.result["cpu_seconds"] for r in runs if r.tag[:2] == ("pair", kind) and r.tag[-1] == spec and r.result]
        cpu_ratio = (sum(look_c) / len(look_c)) / (sum(base_c) / len(base_c)) if base_c and look_c else math.nan
        ok = f["share"] >= 0.6 and f["ci"][0] > 0.5 and ratio <= 20
        seats = ", ".join(f"{k.split(':', 1)[1]} {v:.2f}" for k, v in f["per_seat"].items())
        print(f"  {kind:8} {SCENARIOS[kind]:17} {f['pairs']:4} pairs  share {fmt(f['share'])}  CI [{fmt(f['ci'][0])}, "
              f"{fmt(f['ci'][1])}]  time {fmt(ratio, 1)}x the all-heuristic campaign (CPU {fmt(cpu_ratio, 1)}x)  "
              f"{'PASS' if ok else 'FAIL'}")
        print(f"           per seat: {seats}")
        out[kind] = {**f, "time_ratio": ratio, "cpu_ratio": cpu_ratio}
    return out


def plan(kinds: list[str], seeds: list[int], realm_seeds: list[int], background: str, design: str,
         lookahead: dict[str, str], only_lookahead: bool = False) -> list[Run]:
    """Every campaign of the study, each once, the longest first (``only_lookahead``: figure (e)'s alone)."""
    from agents.variants import variant

    runs: list[Run] = []
    if not only_lookahead:
        for kind in kinds:
            runs += plan_pairs(kind, seeds, "heuristic", "random", background, design, ledger=True)
        realm = variant(REALM)  # as shipped: the same text a job can carry
        runs += [Run(("realm",), realm.label, realm.text, s, ledger=True) for s in realm_seeds]
    for kind, spec in lookahead.items():
        runs += plan_pairs(kind, seeds, spec, "heuristic", "heuristic", "seat", ledger=False)
        label, text = variant_text(SCENARIOS[kind], "heuristic")  # the all-heuristic time, without a ledger to encode
        runs += [Run(("time", kind), label, text, s) for s in seeds]
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for r in runs:  # a run both studies need (the all-heuristic base) runs once, with its ledger
        if (r.tag, r.seed) not in seen:
            seen.add((r.tag, r.seed))
            unique.append(r)
    order = {REALM: 0, "kingdom": 1, "nation": 2, "guild": 3, "convoy": 4}
    unique.sort(key=lambda r: (order.get(r.tag[1] if r.tag[0] != "realm" else REALM, 5), r.seed))
    return unique


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="10", help="N (seeds 1..N) or a seed list such as 1..30,40 (default 10)")
    ap.add_argument("--realm-seeds", default=None, help="N or a seed list for realm (default: as --seeds; 0: no realm runs)")
    ap.add_argument("--workers", type=int, default=max(1, len(os.sched_getaffinity(0))), help="pool processes (default: CPUs)")
    ap.add_argument("--design", choices=("seat", "kind"), default="seat", help="swap one seat's policy (default) or a whole kind's")
    ap.add_argument("--background", default="heuristic", help="policy of the other seats in the seat design (default heuristic)")
    ap.add_argument("--kinds", default=",".join(KINDS), help="faction kinds to pair (default: all four)")
    ap.add_argument("--json", dest="json_out", default=None, help="also write every figure to this JSON file")
    ap.add_argument("--no-lookahead", action="store_true",
                    help="skip figure (e) and its look-ahead campaigns (the costly part: 10-20x a heuristic campaign each)")
    ap.add_argument("--only-lookahead", action="store_true",
                    help="figure (e) alone: skip the campaigns of figures (a) to (d) (random pairs, realm)")
    ap.add_argument("--explain", action="store_true",
                    help="every campaign records its decisions explained (as run --explain; by default compactly, as "
                         "batch jobs do since issue 26 item 2: both arms of (e))")
    args = ap.parse_args(argv)
    try:
        seeds = seed_list(args.seeds)
        realm_seeds = seeds if args.realm_seeds is None else seed_list(args.realm_seeds)
    except (UsageError, ValueError) as e:
        print(f"ai_quality: {e}", file=sys.stderr)
        return 2
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    bad = [k for k in kinds if k not in SCENARIOS]
    if bad or args.workers < 1:
        print(f"ai_quality: --kinds {args.kinds!r}: expected some of {', '.join(KINDS)}; --workers >= 1", file=sys.stderr)
        return 2

    lookahead = {} if args.no_lookahead else lookahead_policies(kinds)
    if args.only_lookahead and args.no_lookahead:
        print("ai_quality: --only-lookahead and --no-lookahead leave nothing to run", file=sys.stderr)
        return 2
    if args.only_lookahead:
        realm_seeds = []
    runs = plan(kinds, seeds, realm_seeds, args.background, args.design, lookahead, args.only_lookahead)
    print(f"ai_quality: {len(runs)} campaigns ({len(seeds)} seeds per kind, {len(realm_seeds)} realm seeds, "
          f"design {args.design}, background {args.background}) on {args.workers} processes", file=sys.stderr)
    t0 = time.perf_counter()
    from workers.progress import Progress

    progress = Progress(len(runs), label="ai_quality campaigns")
    errors = execute(runs, args.workers, lambda done, _total, _elapsed: progress.update(done), explain=args.explain)
    progress.close()
    wall = time.perf_counter() - t0
    for e in errors:
        print(f"  failed: {e}", file=sys.stderr)

    print(f"\nai_quality — {len(seeds)} seeds per kind (design {args.design}, background {args.background}"
          f"{", decisions explained" if args.explain else ""}), "
          f"{len(realm_seeds)} realm seeds; {len(runs)} campaigns in {wall:.0f} s on {args.workers} processes")
    figures: dict[str, Any] = {"seeds": seeds, "realm_seeds": realm_seeds, "design": args.design,
                               "background": args.background, "wall_seconds": round(wall, 1), "failed": errors,
                               "explain": args.explain}
    if not args.only_lookahead:
        figures["a"] = figure_a(runs, kinds, args.background, args.design)
        figures["b"] = figure_b(runs)
        figures["c"] = figure_c(runs)
        figures["d"] = figure_d(runs)
    figures["e"] = figure_e(runs, kinds, lookahead, skipped=args.no_lookahead)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(figures, indent=1, default=str) + "\n", encoding="utf-8")
        print(f"\nfigures written to {args.json_out}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
