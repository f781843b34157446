#!/usr/bin/env python3
"""Record or check the ledger digest of every built-in scenario for a range of seeds.

    .venv/bin/python tools/digests.py --out before.json            # record seeds 1..20
    .venv/bin/python tools/digests.py --check before.json          # same digests now? (exit 1 if not)
    .venv/bin/python tools/digests.py --seeds 1..5 realm --out r.json
    .venv/bin/python tools/digests.py --policy random --out random.json   # every faction random

``--policy NAME`` plays every faction of every scenario with policy NAME (``random``, ``heuristic``,
``lookahead``); ``--policy scripted`` plays every kingdom ``scripted`` (with no orders: it is asked
nothing) and every other faction ``random`` (no other kind has a scripted policy). The default is each scenario as
shipped. ``--explain`` records every decision with its alternatives and reasons, as ``run --explain``
and ``advise`` do (issue 26: a campaign otherwise records each decision compactly — the order, its
score and the runner-up; the decisions and every other event are the same either way, so the
explained digests of today are those of every ledger written before compact records). A ledger format
change that touches only scored decisions leaves the random and scripted digests as they were.

A change meant to keep behaviour (a refactor, a speed-up) must leave every digest as it was; a rules
change shows here first, then in the golden transcripts (tools/golden.py), which say what changed.
Campaigns run on a local process pool (--jobs, default: every core).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


POLICIES = ("random", "scripted", "heuristic", "lookahead")


def scenario_for(name: str, policy: str | None) -> Any:
    """The built-in scenario ``name``, as shipped (``policy`` None) or with every faction played by
    ``policy`` (``scripted``: every kingdom scripted, every other faction random)."""
    if policy is None:
        return name
    from agents.variants import variant
    from scenarios.loader import load_scenario

    loaded = variant(load_scenario(name), policy="random" if policy == "scripted" else policy)
    if policy == "scripted":
        kingdoms = [str(k.id) for k in loaded.scenario.kingdoms]
        loaded = variant(loaded, seats={f"kingdom:{k}": "scripted" for k in kingdoms})
    return loaded


def _one(arg: tuple[str, int, str | None, bool]) -> tuple[str, int, str, int]:
    from agents.campaign import run_campaign

    name, seed, policy, explain = arg
    res = run_campaign(scenario_for(name, policy), seed, keep_ledger=False, collect=False, explain=explain)
    return name, seed, res.ledger_sha256, res.events


def parse_seeds(text: str) -> list[int]:
    if ".." in text:
        a, b = text.split("..", 1)
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",") if x]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="built-in scenarios (default: all)")
    ap.add_argument("--seeds", default="1..20")
    ap.add_argument("--out", help="write the digests to this JSON file")
    ap.add_argument("--check", help="compare with the digests of this JSON file")
    ap.add_argument("--policy", choices=POLICIES, help="play every faction with this policy (see above)")
    ap.add_argument("--explain", action="store_true",
                    help="record every decision explained (as run --explain does) instead of compactly")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    from scenarios.loader import builtin_names

    # the engine imported once here, and each pool process a fork of this one (not an import of its own)
    from workers.forkserver import one_thread_env

    one_thread_env(os.environ)  # (before NumPy's import: one thread at the fork)
    from workers.job import preload

    preload()
    names = args.names or builtin_names()
    todo = [(n, s, args.policy, args.explain) for n in names for s in parse_seeds(args.seeds)]
    got: dict[str, dict[str, list[object]]] = {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), mp_context=multiprocessing.get_context("fork")) as ex:
        for i, (name, seed, sha, events) in enumerate(ex.map(_one, todo), 1):
            got.setdefault(name, {})[str(seed)] = [sha, events]
            print(f"\r{i}/{len(todo)} campaigns", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if args.out:
        Path(args.out).write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(todo)} digests to {args.out}")
    if args.check:
        want = json.loads(Path(args.check).read_text())
        bad = [
            f"{n} seed {s}: {want[n][s][0][:12]}… ({want[n][s][1]} events) became {got[n][s][0][:12]}… ({got[n][s][1]} events)"
            for n in sorted(got) for s in sorted(got[n], key=int)
            if n in want and s in want[n] and want[n][s] != got[n][s]
        ]
        for line in bad:
            print(line)
        print(f"{len(todo) - len(bad)} of {len(todo)} digests unchanged")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
