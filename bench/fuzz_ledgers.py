#!/usr/bin/env python3
"""Ledger and save fuzzer (issue 30): damaged ledgers and saves must give a clear error, a report or a resume.

    .venv/bin/python bench/fuzz_ledgers.py                          # 1,000 of each kind (about an hour on 2 cores)
    .venv/bin/python bench/fuzz_ledgers.py --cases 200 --seed 2 --jobs 2

Real files first: campaigns of the five built-in scenarios, stopped early (caravan-crossing at day 2,
before any convoy arrives, and at day 20; guild-war and mare-nostrum at season 3, stolen-lands at 2,
realm at 1), each written as a msgpack ledger, a JSON-lines ledger and a save file. Then ``--cases``
damaged copies of each kind, each with 1–3 damages: bytes flipped, inserted, cut or zeroed, the file
truncated or followed by garbage; an event's field or a value deep in its data replaced (0, −1, 2**31,
2**63−1, 2**64−1, −2**63, 1.5, NaN, ±inf, a text, a long text, a "$\\mathtext{$" text, true, nothing,
bytes, a list, a map, lists nested 40, 600 or 2,000 deep, a list of 100,000 items, a msgpack
extension or timestamp), a number nudged, a field deleted or added, a map key that is not a text, an
event's kind changed, events dropped, duplicated, swapped or moved back in time, a convoy with bad
values added to a season summary. Saves are damaged in their bytes (the checksum then fails), in
their outer map, or inside their body with the checksum recomputed (as a forger would): the ledger
they carry (as above), their world or dice state (a value replaced, bytes flipped), their scenario
text, seed, overrides, or a field of the wrong type or missing.

Each case runs in a forked child (killed after ``--timeout`` seconds, its address space capped at
``--memory`` MiB above the parent's so that a blow-up is a MemoryError, counted as a traceback):
``realmsim report FILE --out DIR`` for every file, and ``realmsim resume SAVE --until …
--ledger out.jsonl --json`` for a save, through ``workers.cli.main`` as the command line runs them.
A report whose tables (seasons, convoy days, journeys, campaign info) are those of an earlier
successful case is not drawn again: the figures are a function of the tables, and drawing takes
seconds. Also run: a directory, /dev/zero, a FIFO, an empty file and a sparse file over the cap.

Printed per command and kind: cases, clear errors (exit 2, one message, no traceback), successes,
tracebacks and hangs, then the distinct kinds of traceback. Targets: 0 tracebacks, 0 hangs.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import io
import json
import math
import multiprocessing as mp
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402

# (name, scenario, seed, stop: "Nd" days or "N" seasons)
BASES = [
    ("cc-day2", "caravan-crossing", 4, "2d"),
    ("cc-day20", "caravan-crossing", 3, "20d"),
    ("gw-s3", "guild-war", 1, "3"),
    ("mn-s3", "mare-nostrum", 1, "3"),
    ("sl-s2", "stolen-lands", 1, "2"),
    ("realm-s1", "realm", 1, "1"),
]
KINDS = ("msgpack", "jsonl", "save")


# ---- the real files -----------------------------------------------------------------------------------
@dataclass
class Base:
    name: str
    events: list[dict[str, Any]]  # the ledger, as plain maps
    save: bytes
    hour: int  # where the campaign stopped
    until: str  # a later --until for a resume
    files: dict[str, Path] = field(default_factory=dict)


def make_bases(folder: Path, names: tuple[str, ...] | None = None) -> list[Base]:
    import msgspec

    from agents.campaign import prepare_campaign
    from agents.savefile import save
    from scenarios.loader import load_scenario
    from workers.cli import parse_until, write_ledger

    out = []
    for name, scenario, seed, stop in BASES:
        if names is not None and name not in names:
            continue
        loaded = load_scenario(scenario)
        model = prepare_campaign(loaded, seed)
        until = parse_until(stop)
        model.run(until)
        p = folder / f"{name}.msgpack"
        write_ledger(p, model.ledger.events)
        write_ledger(folder / f"{name}.jsonl", model.ledger.events)
        save(model, folder / f"{name}.save", scenario_label=loaded.label, scenario_text=loaded.text, overrides=None,
             files=loaded.files)
        hour = model.world.now
        later = f"{hour // 24 + 3}d" if stop.endswith("d") else str(hour // 2160 + 1)
        base = Base(name, [msgspec.to_builtins(e) for e in model.ledger.events], (folder / f"{name}.save").read_bytes(),
                    hour, later, {k: folder / f"{name}.{k}" for k in KINDS})
        out.append(base)
    return out


# ---- damage -------------------------------------------------------------------------------------------
class Deep:
    """Lists nested ``n`` deep (built into the bytes: no encoder would write them)."""

    def __init__(self, n: int) -> None:
        self.n = n


class Ext:
    """A msgpack extension (``code`` -1: a timestamp)."""

    def __init__(self, code: int) -> None:
        self.code = code


BAD: list[tuple[str, Any]] = [
    ("0", 0), ("-1", -1), ("2**31", 2**31), ("2**63-1", 2**63 - 1), ("2**64-1", 2**64 - 1), ("-2**63", -(2**63)),
    ("1.5", 1.5), ("nan", math.nan), ("inf", math.inf), ("-inf", -math.inf), ("text", "x"), ("empty text", ""),
    ("long text", "y" * 10_000), ("mathtext", "$\\mathtext{$"), ("true", True), ("nothing", None), ("bytes", b"\x00\xff"),
    ("list", [1, 2, 3]), ("map", {"a": 1}), ("empty map", {}), ("nested 40", Deep(40)), ("nested 600", Deep(600)),
    ("nested 2000", Deep(2000)), ("100k items", list(range(100_000))), ("extension", Ext(5)), ("timestamp", Ext(-1)),
    ("fraction text", "1/0"), ("huge fraction", "99999999999999999999/7"), ("faction name", "kingdom:$\\x{$"),
]
SNAPSHOTS = ("SeasonSummarized", "CampaignEnded")
CV_KINDS = ("ConvoySetOut", "DamageTaken", "WagonLost", "UnrestRose", "ProvisionsConsumed", "StoresBought",
            "CargoLeftBehind", "ConvoyTravelled", "ConvoyArrived", "ConvoyDestroyed")
OTHER_KINDS = ("CampaignStarted", "SeasonSummarized", "CampaignEnded", "NoSuchKind", "", "x" * 500)


def _nodes(v: Any, path: tuple[Any, ...], out: list[tuple[Any, ...]], depth: int = 0) -> None:
    if depth > 12:
        return
    if isinstance(v, dict):
        for k, x in v.items():
            out.append((*path, k))
            _nodes(x, (*path, k), out, depth + 1)
    elif isinstance(v, list):
        for i, x in enumerate(v[:50]):
            out.append((*path, i))
            _nodes(x, (*path, i), out, depth + 1)


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def damage_value(doc: Any, rng: random.Random, where: str) -> str:
    """One damage to a node of ``doc`` (a map or list, changed in place); what was done."""
    nodes: list[tuple[Any, ...]] = []
    _nodes(doc, (), nodes)
    if not nodes:
        return "nothing to damage"
    numbers = [p for p in nodes if _is_int(_at(doc, p))]
    if numbers and rng.random() < 0.3:
        path = rng.choice(numbers)
        parent = _at(doc, path[:-1])
        v = parent[path[-1]]
        parent[path[-1]] = rng.choice([0, -1, v + 1, v - 1, -v, 10 * v, v * 1000 + 7, 2**31 + v, 2**62])
        return f"{where}{_path(path)} = {parent[path[-1]]} (was {v})"
    path = rng.choice(nodes)
    parent = _at(doc, path[:-1])
    key = path[-1]
    op = rng.choice(["replace"] * 6 + ["delete", "add", "key"])
    if op == "delete":
        del parent[key]
        return f"delete {where}{_path(path)}"
    if op == "add" and isinstance(parent, dict):
        name, value = rng.choice(BAD)
        parent[rng.choice(["unknown", "hp", "after", "t", "factions", "miles"])] = copy.deepcopy(value)
        return f"new key in {where}{_path(path[:-1])} = {name}"
    if op == "key" and isinstance(parent, dict):
        parent[rng.choice([7, 1.5, None, True, b"k"])] = 1  # type: ignore[index]
        return f"a key that is not a text in {where}{_path(path[:-1])}"
    name, value = rng.choice(BAD)
    parent[key] = copy.deepcopy(value)
    return f"{where}{_path(path)} = {name}"


def _path(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def damage_events(events: list[dict[str, Any]], rng: random.Random) -> tuple[list[dict[str, Any]], list[str]]:
    evs = copy.deepcopy(events)
    done: list[str] = []
    for _ in range(rng.randint(1, 3)):
        if not evs:
            break
        relevant = [i for i, e in enumerate(evs) if isinstance(e, dict) and (
            e.get("kind") in SNAPSHOTS or (e.get("system") == "cv" and str(e.get("actor", "")).startswith("convoy:"))
            or i == 0)]
        i = rng.choice(relevant) if relevant and rng.random() < 0.7 else rng.randrange(len(evs))
        ev = evs[i]
        op = rng.choices(["value", "kind", "drop", "duplicate", "swap", "back", "convoy", "not a map"],
                         weights=[60, 8, 6, 5, 5, 6, 7, 3])[0]
        if op == "value" and isinstance(ev, dict):
            done.append(damage_value(ev, rng, f"event {i}"))
        elif op == "kind" and isinstance(ev, dict):
            ev["kind"] = rng.choice(CV_KINDS + SNAPSHOTS + OTHER_KINDS)
            if rng.random() < 0.5:
                who = rng.choice(["amber", "x", "$\\y{$"])  # the last: a formula matplotlib cannot draw
                ev["system"], ev["actor"] = "cv", f"convoy:{who}"
            done.append(f"event {i} kind = {ev['kind'][:30]}")
        elif op == "drop":
            del evs[i]
            done.append(f"drop event {i}")
        elif op == "duplicate":
            evs.insert(i, copy.deepcopy(ev))
            done.append(f"duplicate event {i}")
        elif op == "swap":
            j = rng.randrange(len(evs))
            evs[i], evs[j] = evs[j], evs[i]
            done.append(f"swap events {i} and {j}")
        elif op == "back" and isinstance(ev, dict):
            ev["t"] = rng.choice([0, -1, max(0, int(ev.get("t", 0) or 0) - 1), 10**6, 2**31])
            done.append(f"event {i} t = {ev['t']}")
        elif op == "convoy":
            snaps = [e for e in evs if isinstance(e, dict) and e.get("kind") in SNAPSHOTS
                     and isinstance(e.get("data"), dict) and isinstance(e["data"].get("factions"), dict)]
            if snaps:
                name, value = rng.choice(BAD)
                metrics = {"hp": 10, "unrest": 0, "provisions": 5, "miles": 1.5, "status": "travelling"}
                metrics[rng.choice(list(metrics))] = copy.deepcopy(value)
                rng.choice(snaps)["data"]["factions"][rng.choice(["convoy:new", "convoy:amber", "guild:$\\g{$"])] = metrics
                done.append(f"a convoy in a summary with {name}")
        elif op == "not a map":
            evs[i] = rng.choice([7, "event", [1, 2], None])
            done.append(f"event {i} is not a map")
    return evs, done


_DEEP = "\x00deep:"
_EXT = "\x00ext:"


def _plain(v: Any, json_keys: bool = False) -> Any:
    """``v`` with Deep and Ext as marker texts (replaced in the bytes once encoded); ``json_keys``: bytes
    keys as texts (JSON has no others)."""
    if isinstance(v, Deep):
        return f"{_DEEP}{v.n}"
    if isinstance(v, Ext):
        return f"{_EXT}{v.code}"
    if isinstance(v, dict):
        return {(k.decode("latin-1") if json_keys and isinstance(k, bytes) else k): _plain(x, json_keys)
                for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x, json_keys) for x in v]
    return v


def _msgpack_marker(s: str) -> bytes:
    return msgpack.packb(s, use_bin_type=True)


def encode_msgpack(events: list[Any]) -> bytes:
    out = []
    for e in events:
        b = msgpack.packb(_plain(e), use_bin_type=True, strict_types=False)
        for n in (40, 600, 2000):
            b = b.replace(_msgpack_marker(f"{_DEEP}{n}"), b"\x91" * (n - 1) + b"\x90")
        b = b.replace(_msgpack_marker(f"{_EXT}5"), msgpack.packb(msgpack.ExtType(5, b"x")))
        b = b.replace(_msgpack_marker(f"{_EXT}-1"), b"\xd6\xff" + (12345).to_bytes(4, "big"))  # timestamp32
        out.append(b)
    return b"".join(out)


def encode_jsonl(events: list[Any]) -> bytes:
    lines = []
    for e in events:
        s = json.dumps(_plain(e, json_keys=True), default=lambda o: o.decode("latin-1") if isinstance(o, bytes) else str(o))
        for n in (40, 600, 2000):
            s = s.replace(json.dumps(f"{_DEEP}{n}"), "[" * n + "]" * n)
        lines.append(s.replace(json.dumps(f"{_EXT}5"), '"x"').replace(json.dumps(f"{_EXT}-1"), "12345"))
    return ("\n".join(lines) + "\n").encode()


def damage_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    b = bytearray(data)
    op = rng.choice(["flip", "flip", "truncate", "insert", "cut", "zero", "append", "prepend"])
    if not b:
        return bytes(rng.randbytes(10)), "random bytes"
    if op == "flip":
        n = rng.randint(1, 20)
        for _ in range(n):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b), f"{n} bytes flipped"
    if op == "truncate":
        at = rng.randrange(len(b))
        return bytes(b[:at]), f"truncated at {at} of {len(b)}"
    if op == "insert":
        at = rng.randrange(len(b))
        return bytes(b[:at] + rng.randbytes(rng.randint(1, 64)) + b[at:]), f"bytes inserted at {at}"
    if op == "cut":
        at = rng.randrange(len(b))
        return bytes(b[:at] + b[at + rng.randint(1, 200):]), f"bytes cut at {at}"
    if op == "zero":
        at = rng.randrange(len(b))
        n = rng.randint(1, 500)
        return bytes(b[:at] + bytes(n) + b[at + n:]), f"{n} bytes zeroed at {at}"
    if op == "append":
        return bytes(b + rng.choice([rng.randbytes(rng.randint(1, 100)), b"\xdd\xff\xff\xff\xff", b"\xc1"])), "garbage appended"
    return bytes(rng.randbytes(rng.randint(1, 16)) + b), "garbage prepended"


def damaged_ledger(base: Base, kind: str, rng: random.Random) -> tuple[bytes, str]:
    if rng.random() < 0.25:
        raw = base.files[kind].read_bytes()
        data, what = damage_bytes(raw, rng)
        return data, what
    events, done = damage_events(base.events, rng)
    data = encode_msgpack(events) if kind == "msgpack" else encode_jsonl(events)
    if rng.random() < 0.1:
        data, what = damage_bytes(data, rng)
        done.append(what)
    return data, "; ".join(done)


def damaged_save(base: Base, rng: random.Random) -> tuple[bytes, str]:
    r = rng.random()
    if r < 0.15:
        return damage_bytes(base.save, rng)
    doc = msgpack.unpackb(base.save, raw=False)
    if r < 0.25:
        key = rng.choice(list(doc))
        if rng.random() < 0.3:
            del doc[key]
            return msgpack.packb(doc, use_bin_type=True), f"delete {key}"
        name, value = rng.choice(BAD[:20])
        doc[key] = value
        return msgpack.packb(doc, use_bin_type=True), f"{key} = {name}"
    body = msgpack.unpackb(doc["body"], raw=False, strict_map_key=False)
    what = rng.choices(["ledger", "world", "world bytes", "dice", "text", "field"], weights=[45, 20, 8, 8, 7, 12])[0]
    if what == "ledger":
        events = list(msgpack.Unpacker(io.BytesIO(body["ledger"]), raw=False, strict_map_key=False))
        if rng.random() < 0.15:
            body["ledger"], how = damage_bytes(body["ledger"], rng)
        else:
            events, done = damage_events(events, rng)
            body["ledger"], how = encode_msgpack(events), "; ".join(done)
        desc = f"ledger: {how}"
    elif what == "world":
        world = msgpack.unpackb(body["world"], raw=False, strict_map_key=False)
        desc = "world: " + damage_value(world, rng, "world")
        body["world"] = encode_msgpack([world])
    elif what == "world bytes":
        body["world"], how = damage_bytes(body["world"], rng)
        desc = f"world: {how}"
    elif what == "dice":
        desc = "dice: " + damage_value(body["dice"], rng, "dice")
        body["dice"] = _plain(body["dice"])
    elif what == "text":
        lines = body["scenario"]["text"].splitlines()
        i = rng.randrange(len(lines))
        lines[i] = rng.choice(["", "x = ", "[broken", lines[i] * 2, "duration = { years = 1000 }"])
        body["scenario"]["text"] = "\n".join(lines)
        desc = f"scenario text line {i + 1}"
    else:
        key = rng.choice(["scenario", "seed", "overrides", "world", "dice", "ledger"])
        if rng.random() < 0.3:
            del body[key]
            desc = f"body: delete {key}"
        else:
            name, value = rng.choice(BAD[:20])
            body[key] = value
            desc = f"body.{key} = {name}"
    doc["body"] = encode_msgpack([body])  # one object: the markers expanded as in a ledger
    doc["sha256"] = hashlib.sha256(doc["body"]).hexdigest()  # a forger recomputes it
    return msgpack.packb(doc, use_bin_type=True), desc


# ---- running one case ---------------------------------------------------------------------------------
def tables_key(path: Path) -> str:
    """A digest of the tables the report of ``path`` is drawn from (its figures are a function of them)."""
    from workers.report import RunTables, read_events

    t = RunTables(read_events(path))
    h = hashlib.sha256()
    for df in (t.seasons, t.days, t.journeys):
        h.update(df.to_csv(index=False).encode())
        h.update(str(list(df.dtypes)).encode())
    h.update(repr(sorted(t.info.items(), key=lambda kv: kv[0])).encode())
    return h.hexdigest()


def run_cli(argv: list[str]) -> dict[str, Any]:
    from workers.cli import main

    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            rc = main(argv)
    except BaseException as e:  # noqa: BLE001 - a traceback is what the fuzzer counts
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno} {tb[-1].name}" if tb else "?"
        return {"outcome": "traceback", "kind": f"{type(e).__name__} at {where}", "detail": str(e)[:300],
                "where": "".join(traceback.format_exception(e, limit=-4))[-1500:]}
    text = err.getvalue()
    if rc == 0:
        return {"outcome": "ok"}
    if rc == 2 and text.startswith(f"realmsim {argv[0]}: ") and "Traceback" not in text:
        return {"outcome": "clear", "message": text.strip()[:300]}
    return {"outcome": "traceback", "kind": f"exit {rc}", "detail": text[:300]}


def check_case(command: str, path: Path, until: str, seen: set[str], work: Path) -> dict[str, Any]:
    if command == "report":
        key = None
        try:
            key = tables_key(path)
        except Exception:  # noqa: BLE001,S110 - the command itself says what it makes of it, below
            pass
        if key is not None and key in seen:
            return {"outcome": "ok", "same_tables": True}
        res = run_cli(["report", str(path), "--out", str(work / "out")])
        res["key"] = key
        return res
    return run_cli(["resume", str(path), "--json", "--until", until, "--ledger", str(work / "out.jsonl")])


def _child(conn: Any, command: str, path: str, until: str, seen: set[str], memory_mib: int) -> None:
    try:
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        limit = vm + memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError, StopIteration):
        pass
    with tempfile.TemporaryDirectory(prefix="fuzz-ledgers-") as work:
        res = check_case(command, Path(path), until, seen, Path(work))
    conn.send(res)
    conn.close()


@dataclass
class Case:
    kind: str  # msgpack, jsonl, save, special
    command: str  # report, resume
    label: str
    path: Path
    until: str = "1"


# ---- the whole run ------------------------------------------------------------------------------------
def special_cases(folder: Path) -> list[Case]:
    try:
        from scenarios.limits import file_cap
    except ImportError:  # the code before issue 30, run for comparison: no caps
        def file_cap(kind: str) -> int:
            return 2 * 1024**3

    d = folder / "a-directory"
    d.mkdir(exist_ok=True)
    fifo = folder / "a-fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    empty = folder / "empty.msgpack"
    empty.write_bytes(b"")
    big = folder / "big.msgpack"
    with big.open("wb") as f:
        f.truncate(max(file_cap("ledger"), file_cap("save")) + 1)  # sparse: no disk used
    out = []
    for p in (d, Path("/dev/zero"), fifo, empty, big, folder / "no-such-file"):
        out += [Case("special", "report", p.name, p), Case("special", "resume", p.name, p)]
    return out


def fuzz(cases: int = 1000, seed: int = 1, *, jobs: int = 2, timeout: float = 120.0, memory_mib: int = 2048,
         show: int = 10, kinds: tuple[str, ...] = KINDS, bases: tuple[str, ...] | None = None,
         show_clear: int = 0, say: Any = print) -> dict[str, Any]:
    """Run the fuzzer (``bases``: the names of :data:`BASES` to damage, default all); returns the counts
    by (kind, command, outcome), the traceback kinds, and the totals of cases, tracebacks and hangs."""
    import workers.cli  # noqa: F401 — imported once, before the children fork
    import workers.report  # noqa: F401

    rng = random.Random(seed)
    counts: Counter[tuple[str, str, str]] = Counter()
    tb_kinds: Counter[str] = Counter()
    seen: set[str] = set()
    shown = 0
    drawn = 0
    messages: list[str] = []
    with tempfile.TemporaryDirectory(prefix="fuzz-ledgers-") as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        real = make_bases(folder, bases)
        say(f"{len(real)} real campaigns written in {time.perf_counter() - t0:.0f} s")
        todo: list[Case] = special_cases(folder)
        for b in real:  # the real files themselves
            for k in kinds:
                todo.append(Case(k, "report", f"{b.name}.{k} (undamaged)", b.files[k], b.until))
                if k == "save":
                    todo.append(Case(k, "resume", f"{b.name}.save (undamaged)", b.files[k], b.until))
        for kind in kinds:
            for i in range(cases):
                b = real[i % len(real)]
                if kind == "save":
                    data, what = damaged_save(b, rng)
                else:
                    data, what = damaged_ledger(b, kind, rng)
                p = folder / f"case-{kind}-{i}.{kind}"
                p.write_bytes(data)
                todo.append(Case(kind, "report", f"{b.name}.{kind}: {what}", p, b.until))
                if kind == "save":
                    todo.append(Case(kind, "resume", f"{b.name}.save: {what}", p, b.until))
        say(f"{len(todo)} cases ({cases} damaged files of each of {', '.join(kinds)}; saves reported and resumed), "
            f"{jobs} at a time")
        t1 = time.perf_counter()
        running: list[tuple[Case, Any, Any, float]] = []
        ctx = mp.get_context("fork")
        queue = list(reversed(todo))
        done = 0
        while queue or running:
            while queue and len(running) < jobs:
                case = queue.pop()
                recv, send = ctx.Pipe(duplex=False)
                p = ctx.Process(target=_child, args=(send, case.command, str(case.path), case.until, set(seen),
                                                     memory_mib))
                p.start()
                send.close()
                running.append((case, p, recv, time.perf_counter()))
            mp.connection.wait([r for _, _, r, _ in running], timeout=1.0)
            still = []
            for case, p, recv, started in running:
                res: dict[str, Any] | None = None
                if recv.poll():
                    try:
                        res = recv.recv()
                    except EOFError:
                        res = {"outcome": "traceback", "kind": f"the child died (exit {p.exitcode})", "detail": ""}
                elif not p.is_alive():
                    res = {"outcome": "traceback", "kind": f"the child died (exit {p.exitcode})", "detail": ""}
                elif time.perf_counter() - started > timeout:
                    p.kill()
                    res = {"outcome": "hang"}
                if res is None:
                    still.append((case, p, recv, started))
                    continue
                p.join(5)
                recv.close()
                done += 1
                counts[(case.kind, case.command, res["outcome"])] += 1
                if res["outcome"] == "clear" and len(messages) < show_clear and rng.random() < 0.2:
                    messages.append(f"{case.label[:150]}\n    → {res.get('message', '')[:400]}")
                if res["outcome"] == "ok" and res.get("key"):
                    seen.add(res["key"])
                    drawn += 1
                if res["outcome"] in ("traceback", "hang"):
                    if res["outcome"] == "traceback":
                        tb_kinds[f"{case.command}: {res.get('kind')}"] += 1
                    if shown < show:
                        shown += 1
                        say(f"{res['outcome'].upper()} {case.command} {case.label[:300]}\n  {res.get('kind', '')}: "
                            f"{res.get('detail', '')[:300]}\n{res.get('where', '')}")
                if done % 250 == 0:
                    say(f"  … {done} of {len(todo)} in {time.perf_counter() - t1:.0f} s")
            running = still
        total = time.perf_counter() - t0
    say(f"\n{len(todo)} cases in {total:.0f} s (seed {seed}); a report of tables already drawn is not drawn again "
        f"({drawn} reports drawn)")
    say(f"  {'kind':<9}{'command':<9}{'cases':>7}{'clear':>8}{'ok':>7}{'tracebacks':>12}{'hangs':>7}")
    for kind in (*kinds, "special"):
        for command in ("report", "resume"):
            n = sum(v for (k, c, _), v in counts.items() if k == kind and c == command)
            if not n:
                continue
            row = [counts[(kind, command, o)] for o in ("clear", "ok", "traceback", "hang")]
            say(f"  {kind:<9}{command:<9}{n:>7}{row[0]:>8}{row[1]:>7}{row[2]:>12}{row[3]:>7}")
    all_tb = sum(v for (_, _, o), v in counts.items() if o == "traceback")
    all_hang = sum(v for (_, _, o), v in counts.items() if o == "hang")
    say(f"  all: {len(todo)} cases, {sum(v for (_, _, o), v in counts.items() if o == 'clear')} clear errors, "
        f"{sum(v for (_, _, o), v in counts.items() if o == 'ok')} successes, {all_tb} tracebacks, {all_hang} hangs")
    for k, n in tb_kinds.most_common():
        say(f"    {n:5d}  {k}")
    if messages:
        say("\nsome clear errors (the damage, then the message):")
        for m in messages:
            say(f"  {m}")
    return {"counts": counts, "kinds": tb_kinds, "cases": len(todo), "tracebacks": all_tb, "hangs": all_hang}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=1000, help="damaged files of each kind (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="cases run at a time (default 2)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per case before it counts as a hang")
    ap.add_argument("--memory", type=int, default=2048, help="MiB a case may allocate above the parent (default 2048)")
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"among {','.join(KINDS)} (default all)")
    ap.add_argument("--show", type=int, default=10, help="tracebacks and hangs to print in full (default 10)")
    ap.add_argument("--bases", default=None, help=f"real campaigns to damage among {','.join(b[0] for b in BASES)} (default all)")
    ap.add_argument("--show-clear", type=int, default=0, metavar="N", help="also print N clear errors, with their damage")
    args = ap.parse_args(argv)
    kinds = tuple(k for k in args.kinds.split(",") if k)
    res = fuzz(args.cases, args.seed, jobs=args.jobs, timeout=args.timeout, memory_mib=args.memory, show=args.show,
               kinds=kinds, show_clear=args.show_clear, bases=tuple(args.bases.split(",")) if args.bases else None)
    return 1 if res["tracebacks"] or res["hangs"] else 0


if __name__ == "__main__":
    sys.exit(main())
