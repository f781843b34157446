#!/usr/bin/env python3
"""Scenario fuzzer (issue 9): mutants of the built-in scenarios must give a clear error or a run.

    .venv/bin/python bench/fuzz_scenarios.py                 # 10,000 mutants
    .venv/bin/python bench/fuzz_scenarios.py --mutants 300 --seed 1

Each mutant is a built-in scenario (scenarios/data) with 1–3 mutations: a key or item deleted, a
value of the wrong type, 0, −1, 1e9, 2**63−1, −2**63, unicode, a long string, an item duplicated,
a value taken from elsewhere in the file, arrays nested 600 deep. Each runs in a child process
(forked, killed after --timeout seconds): ``validate``, then, when the file is valid, a capped run
(``--until``, default one month). Printed: clear errors, runs, tracebacks (with their kinds), runs
over the timeout, and validate's largest time and RSS for files under 1 MiB. Targets: 0
tracebacks, 0 over 20 s, validate ≤ 2 s and ≤ 500 MiB. Figures depend on the machine's load.
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing as mp
import random
import resource
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class Deep:
    """Arrays nested ``n`` deep (written as text: no TOML writer would)."""

    def __init__(self, n: int) -> None:
        self.n = n


def _str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def emit_value(v: Any) -> str:
    if isinstance(v, Deep):
        return "[" * v.n + "]" * v.n
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return _str(v)
    if isinstance(v, list):
        return "[" + ", ".join(emit_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_str(str(k))} = {emit_value(x)}" for k, x in v.items()) + " }"
    return _str(str(v))


def to_toml(doc: dict[str, Any]) -> str:
    """The document as TOML: one ``key = value`` line per top-level key (inline tables and arrays)."""
    return "".join(f"{_str(str(k))} = {emit_value(v)}\n" for k, v in doc.items())


def _nodes(v: Any, path: tuple[Any, ...], out: list[tuple[Any, ...]]) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            out.append((*path, k))
            _nodes(x, (*path, k), out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out.append((*path, i))
            _nodes(x, (*path, i), out)


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


REPLACEMENTS: list[tuple[str, Any]] = [
    ("zero", 0), ("minus one", -1), ("1e9", 10**9), ("1e9 float", 1e9), ("2**63-1", 2**63 - 1), ("-2**63", -(2**63)),
    ("string", "x"), ("empty string", ""), ("unicode", "Ωμέγα 🙂 \u200b ñ"), ("long string", "y" * 5000),
    ("empty list", []), ("empty table", {}), ("table", {"a": 1}), ("true", True), ("float", 1.5),
    ("list of ints", [1, 2, 3]),
]


def mutate(doc: dict[str, Any], rng: random.Random, n: int | None = None) -> tuple[dict[str, Any], list[str]]:
    """A mutated deep copy of ``doc`` and what was done to it."""
    doc = copy.deepcopy(doc)
    done: list[str] = []
    parent: Any
    for _ in range(n if n is not None else rng.randint(1, 3)):
        nodes: list[tuple[Any, ...]] = []
        _nodes(doc, (), nodes)
        if not nodes:
            break
        numbers = [p for p in nodes if _is_int(_at(doc, p))]
        if numbers and rng.random() < 0.5:  # a nudged number: often still valid, so the engine runs it
            path = rng.choice(numbers)
            parent = _at(doc, path[:-1])
            v = parent[path[-1]]
            parent[path[-1]] = rng.choice([0, 1, -1, 2 * v, 10 * v, v + 1, v - 1, 99, 100, 1000, 10_000])
            done.append(f"{'.'.join(str(p) for p in path)} = {parent[path[-1]]} (was {v})")
            continue
        path = rng.choice(nodes)
        parent = _at(doc, path[:-1])
        key = path[-1]
        kind = rng.choice(["delete", "replace", "replace", "replace", "duplicate", "swap", "deep", "key"])
        where = ".".join(str(p) for p in path)
        if kind == "delete":
            del parent[key]
            done.append(f"delete {where}")
        elif kind == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
            done.append(f"duplicate {where}")
        elif kind == "swap":
            other = rng.choice(nodes)
            src: Any = doc
            for k in other:
                src = src[k]
            parent[key] = copy.deepcopy(src)
            done.append(f"{where} = value of {'.'.join(str(p) for p in other)}")
        elif kind == "deep":
            parent[key] = Deep(rng.choice([50, 600]))
            done.append(f"{where} = nested arrays")
        elif kind == "key" and isinstance(parent, dict):
            parent[rng.choice(["unknown_key", "ümlaut", "", "x" * 300])] = 1
            done.append(f"new key in {'.'.join(str(p) for p in path[:-1])}")
        else:
            name, value = rng.choice(REPLACEMENTS)
            parent[key] = copy.deepcopy(value)
            done.append(f"{where} = {name}")
    return doc, done


def builtin_docs() -> dict[str, dict[str, Any]]:
    from scenarios.loader import builtin_names, builtin_path

    return {n: tomllib.loads(builtin_path(n).read_text(encoding="utf-8")) for n in builtin_names()}


def check_one(text: str, until_hours: int | None) -> dict[str, Any]:
    """What ``validate`` and a capped run make of one file: outcome, validate's seconds, detail."""
    import traceback

    from agents.campaign import run_campaign
    from scenarios.loader import load_scenario_text
    from sim.errors import RealmsimError

    t0 = time.perf_counter()
    try:
        loaded = load_scenario_text(text, "mutant.toml")
    except RealmsimError:
        return {"outcome": "clear", "validate_s": time.perf_counter() - t0, "rss_mib": _rss_mib()}
    except BaseException as e:  # noqa: BLE001 — a traceback is what the fuzzer counts
        return {"outcome": "traceback", "validate_s": time.perf_counter() - t0, "stage": "validate",
                "detail": f"{type(e).__name__}: {str(e)[:200]}", "where": traceback.format_exc(limit=-3)[-800:]}
    validate_s = time.perf_counter() - t0
    rss = _rss_mib()
    if until_hours is not None and until_hours <= 0:
        return {"outcome": "run", "validate_s": validate_s, "rss_mib": rss}
    try:
        run_campaign(loaded, keep_ledger=False, collect=False, until=until_hours)
    except RealmsimError:
        return {"outcome": "run_error", "validate_s": validate_s, "rss_mib": rss}
    except BaseException as e:  # noqa: BLE001
        return {"outcome": "traceback", "validate_s": validate_s, "stage": "run", "rss_mib": rss,
                "detail": f"{type(e).__name__}: {str(e)[:200]}", "where": traceback.format_exc(limit=-3)[-800:]}
    return {"outcome": "run", "validate_s": validate_s, "rss_mib": rss}


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(conn: Any, text: str, until_hours: int | None) -> None:
    res = check_one(text, until_hours)
    conn.send(res)
    conn.close()


def run_isolated(text: str, until_hours: int | None, timeout: float) -> dict[str, Any]:
    """:func:`check_one` in a forked child, killed after ``timeout`` seconds."""
    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(send, text, until_hours))
    t0 = time.perf_counter()
    p.start()
    send.close()
    if recv.poll(timeout):
        try:
            res: dict[str, Any] = recv.recv()
        except EOFError:
            res = {"outcome": "traceback", "detail": "the child died", "stage": "?"}
    else:
        p.kill()
        res = {"outcome": "over_timeout"}
    p.join(5)
    if p.exitcode not in (0, None) and res.get("outcome") not in ("over_timeout", "traceback"):
        res = {"outcome": "traceback", "detail": f"the child exited with {p.exitcode}", "stage": "?"}
    res["wall_s"] = time.perf_counter() - t0
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mutants", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per mutant (default 20)")
    ap.add_argument("--until", default="1m", help="the capped run's length, as realmsim run --until (default 1m)")
    ap.add_argument("--show", type=int, default=10, help="tracebacks to print (default 10)")
    args = ap.parse_args(argv)
    from workers.cli import parse_until

    until = parse_until(args.until)
    import agents.campaign  # noqa: F401 — imported once, before the children fork
    import scenarios.loader  # noqa: F401

    docs = builtin_docs()
    names = sorted(docs)
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    shown = 0
    max_val = (0.0, "")
    max_rss = (0.0, "")
    t_start = time.perf_counter()
    for i in range(args.mutants):
        name = names[i % len(names)]
        doc, done = mutate(docs[name], rng)
        text = to_toml(doc)
        res = run_isolated(text, until, args.timeout)
        counts[res["outcome"]] += 1
        label = f"{name}: {'; '.join(done)}"
        if len(text.encode()) < 1 << 20 and "validate_s" in res:
            if res["validate_s"] > max_val[0]:
                max_val = (res["validate_s"], label)
            if res.get("rss_mib", 0) > max_rss[0]:
                max_rss = (res["rss_mib"], label)
        if res["outcome"] == "traceback":
            kinds[f"{res.get('stage')}: {res.get('detail', '')[:90]}"] += 1
            if shown < args.show:
                shown += 1
                print(f"TRACEBACK {label}\n  {res.get('detail')}\n{res.get('where', '')}", flush=True)
        elif res["outcome"] == "over_timeout" and shown < args.show:
            shown += 1
            print(f"OVER {args.timeout:.0f} s: {label}", flush=True)
    total = time.perf_counter() - t_start
    print(f"\n{args.mutants} mutants of {len(names)} built-in scenarios (seed {args.seed}, run capped at {args.until}) "
          f"in {total:.0f} s")
    print(f"  clear errors (validate): {counts['clear']}")
    print(f"  clear errors (run):      {counts['run_error']}")
    print(f"  runs:                    {counts['run']}")
    print(f"  tracebacks:              {counts['traceback']}")
    print(f"  over {args.timeout:.0f} s:               {counts['over_timeout']}")
    print(f"  validate max time:       {max_val[0]:.3f} s  ({max_val[1][:120]})")
    print(f"  validate max RSS:        {max_rss[0]:.0f} MiB (the forked child's peak after validate, the parent's "
          f"imports included; {max_rss[1][:100]})")
    for k, n in kinds.most_common():
        print(f"    {n:5d}  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
