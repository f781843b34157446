"""Reading a ledger from outside (issue 30): every event decoded on its own and checked before use.

A ledger file (``realmsim run --ledger``: a msgpack stream, or JSON lines) or the ledger a save file
carries may be damaged or written by hand. :class:`LedgerReader` takes its events one at a time, as
the file streams in, and checks each one's envelope before anything uses it:

* a map of the :class:`~sim.events.Event` fields, of their types (msgspec converts it);
* numbered in order: ``seq`` is the event's index;
* at an hour that never goes back and stays within the campaign: from 0 to the end that
  ``CampaignStarted`` (the first event) gives, itself at most :data:`scenarios.limits.MAX_HOURS`
  (the longest campaign a scenario may describe), or to the hour a save stands at;
* of a known system, with a kind and an actor of bounded length;
* ``CampaignStarted``'s scenario, seed, systems and end of their types and ranges.

What a reader then takes from an event's ``data`` it checks itself, against the kinds it reads
(the report: :mod:`workers.report.ledger`). A failure is a :class:`LedgerError` that names the event
(index, kind, hour), the field, what was expected and what was found; the caller adds the file.
The bytes are never trusted for sizes either: msgpack containers and strings are bounded, a
truncated last event is said to be one, JSON nested too deep is an error, not a RecursionError.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import IO, Any

import msgpack
import msgspec

from scenarios.limits import MAX_HOURS
from scenarios.validate import describe, printable
from sim.errors import RealmsimError
from sim.events import Event

SYSTEMS = ("cv", "km", "mn", "gw", "link")
MAX_EVENT_BYTES = 64 * 1024 * 1024  # one event's encoding (a season summary of realm: a few KB)
MAX_ITEMS = 1_000_000  # entries of one msgpack array or map
MAX_ACTOR = 300  # "convoy:" and an id of at most 200 characters (scenarios/limits.py)
_KIND = re.compile(r"[A-Z][A-Za-z0-9]{0,79}")


class LedgerError(RealmsimError):
    """A ledger that cannot be read; the message names the event, the field, what was expected and found
    (what it quotes of the file with its control characters escaped: they never reach a terminal)."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


def _where(i: int, ev: Event | None) -> str:
    return f"event {i}" if ev is None else f"event {i} ({ev.kind[:80]} at hour {ev.t})"


def whole(v: Any, lo: int, hi: int) -> bool:
    """``v`` is an integer (not a boolean) from ``lo`` to ``hi``."""
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _n(v: int) -> str:
    return f"{v:,}".replace(",", " ")


class LedgerReader:
    """Checks the events of one ledger, in order (:meth:`event`); ``end``: the latest hour an event may
    stand at (a save's hour), else the campaign's end from ``CampaignStarted``, else MAX_HOURS."""

    def __init__(self, *, end: int | None = None) -> None:
        self.count = 0
        self.last_t = 0
        self.end = MAX_HOURS if end is None else min(end, MAX_HOURS)
        self.started: dict[str, Any] | None = None

    def fail(self, ev: Event | None, field: str, expected: str, found: Any, *, shown: str | None = None) -> LedgerError:
        at = f"{field}: " if field else ""
        return LedgerError(f"{_where(self.count, ev)}: {at}expected {expected}, found {shown or describe(found)}")

    def event(self, obj: Any) -> Event:
        """The next event, from its decoded map; LedgerError if anything in its envelope is wrong."""
        i = self.count
        if not isinstance(obj, dict):
            raise self.fail(None, "", "an event (a map of seq, t, system, kind, actor, clauses…)", obj)
        try:
            ev = msgspec.convert(obj, Event)
        except msgspec.ValidationError as e:
            raise LedgerError(f"event {i}: not an event of the ledger's format ({e})") from None
        if ev.seq != i:
            raise self.fail(ev, "seq", f"{i} (events are numbered in order from 0)", ev.seq)
        if not whole(ev.t, self.last_t, self.end):
            why = "the previous event's hour" if ev.t < self.last_t else "the campaign's end"
            raise self.fail(ev, "t", f"an hour from {_n(self.last_t)} to {_n(self.end)} ({why})", ev.t)
        if ev.system not in SYSTEMS:
            raise self.fail(ev, "system", f"one of {', '.join(SYSTEMS)}", ev.system)
        if not _KIND.fullmatch(ev.kind):
            raise self.fail(ev, "kind", "an event kind (a word of at most 80 letters, e.g. ConvoySetOut)", ev.kind)
        if len(ev.actor) > MAX_ACTOR:
            raise self.fail(ev, "actor", f"an actor of at most {MAX_ACTOR} characters", f"{len(ev.actor)} characters")
        bad = _not_plain(ev.data)
        if bad is not None:
            raise self.fail(ev, f"data{bad[0]}", "a value of a ledger (nothing, true or false, a number, a text, "
                            "a list, a map of texts to values)", None, shown=bad[1])
        if ev.kind == "CampaignStarted" and i == 0:
            self._started(ev)
        self.last_t = ev.t
        self.count += 1
        return ev

    def _started(self, ev: Event) -> None:
        d = ev.data
        end = d.get("end")
        if not isinstance(end, int) or not whole(end, 1, MAX_HOURS):
            raise self.fail(ev, "data.end", f"the campaign's last hour, from 1 to {_n(MAX_HOURS)} (100 years)", end)
        if "scenario" in d and not (isinstance(d["scenario"], str) and len(d["scenario"]) <= 100):
            raise self.fail(ev, "data.scenario", "a scenario name of at most 100 characters", d["scenario"])
        if "seed" in d and not whole(d["seed"], 0, 2**63 - 1):
            raise self.fail(ev, "data.seed", "a seed from 0 to 2**63-1", d["seed"])
        systems = d.get("systems", [])
        if not (isinstance(systems, list) and len(systems) <= len(SYSTEMS) and all(s in SYSTEMS for s in systems)):
            raise self.fail(ev, "data.systems", f"a list of systems among {', '.join(SYSTEMS[:4])}", systems)
        self.end = min(self.end, end)
        self.started = dict(d)


_JSON = msgspec.json.Encoder()


def _takes(v: Any) -> bool:
    try:
        _JSON.encode(v)
        return True
    except (TypeError, ValueError, RecursionError):
        return False


def _not_plain(data: dict[str, Any]) -> tuple[str, str] | None:
    """(where, what is found there) of a value in ``data`` that a ledger cannot hold, else None. Every value must be one
    the JSON-lines writer takes, since ``realmsim resume --ledger x.jsonl`` writes every event again:
    no msgpack timestamp, no map keyed by nothing, true or bytes (bytes values and other keys do)."""
    if _takes(data):  # the fast way, for every event; the walk below says where, for a bad one
        return None
    stack: list[tuple[Any, str]] = [(v, f".{k}") for k, v in data.items()]
    while stack:
        v, where = stack.pop()
        if isinstance(v, list | tuple):
            stack.extend((x, f"{where}[{i}]") for i, x in enumerate(v))
        elif isinstance(v, dict):
            for k, x in v.items():
                if not _takes({k: None}):
                    return where, f"a key {describe(k)}"
                stack.append((x, f"{where}.{str(k)[:40]}"))
        elif not _takes(v):
            return where, describe(v)
    return "", "a value the JSON writer cannot take"


def _msgpack_events(f: IO[bytes], reader: LedgerReader) -> Iterator[Event]:
    unpacker = msgpack.Unpacker(f, raw=False, strict_map_key=False, max_buffer_size=MAX_EVENT_BYTES,
                                max_array_len=MAX_ITEMS, max_map_len=MAX_ITEMS)
    while True:
        start = unpacker.tell()
        try:
            obj = unpacker.unpack()
        except msgpack.OutOfData:
            try:
                unpacker.read_bytes(1)  # at a clean end: nothing; inside an event: ValueError
            except ValueError:
                raise LedgerError(f"event {reader.count}: the ledger ends in the middle of it (cut short after "
                                  f"byte {_n(start)})") from None
            return
        except (ValueError, TypeError, RecursionError, msgpack.UnpackException) as e:
            why = "nested too deep" if isinstance(e, (RecursionError, msgpack.StackError)) else type(e).__name__
            raise LedgerError(f"event {reader.count}: not msgpack, or damaged (from byte {_n(start)}: {why})") from None
        yield reader.event(obj)


def _jsonl_events(f: IO[bytes], reader: LedgerReader) -> Iterator[Event]:
    for n, line in enumerate(f, start=1):
        if not line.strip():
            continue
        try:
            obj = msgspec.json.decode(line)
        except (msgspec.DecodeError, RecursionError) as e:
            why = "nested too deep" if isinstance(e, RecursionError) else str(e)[:200]
            raise LedgerError(f"line {n} (event {reader.count}): not JSON ({why})") from None
        yield reader.event(obj)


def iter_events(f: IO[bytes], *, jsonl: bool = False, reader: LedgerReader | None = None) -> Iterator[Event]:
    """Each event of a ledger stream (msgpack, or JSON lines), checked by ``reader`` (a new one by default)."""
    reader = reader or LedgerReader()
    return _jsonl_events(f, reader) if jsonl else _msgpack_events(f, reader)


def decode_ledger(data: bytes, *, end: int | None = None) -> list[Event]:
    """Every event of an encoded ledger (a save's), checked; ``end``: the hour none may pass."""
    return list(iter_events(io.BytesIO(data), reader=LedgerReader(end=end)))
