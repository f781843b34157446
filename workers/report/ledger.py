"""The report's reading boundary (issue 30): a run's ledger or save file, read as untrusted.

:func:`read_events` streams the file (at most its size cap, ``scenarios.inputs``), decodes each event
on its own and checks its envelope (``agents.ledgerfile``: in order, at an hour within the campaign),
then checks every value the report's tables take from the events they read — the season snapshots'
metrics and the convoys' HP, Unrest, provisions, miles, hours and names (:data:`FIELDS`) — against its
type and range, before any table is built. A failure is a :class:`ReportError` naming the file, the
event (index, kind, hour), the field, what was expected and what was found: never a traceback, and
never a table or a figure whose size a number in the file decides. Counts are bounded too
(:data:`MAX_CONVOYS`, :data:`MAX_FACTIONS`, :data:`MAX_METRICS`; ``convoy_days`` bounds its rows).

It keeps only the events the tables read (``CampaignStarted``, the snapshots, the convoys' events)
and the ledger's last event (its hour is where the ledger stops): a long ledger costs memory for
those, not for every roll.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from agents.ledgerfile import LedgerError, LedgerReader, iter_events, whole
from scenarios.inputs import InputFileError, open_input
from scenarios.limits import BIG
from scenarios.validate import describe
from sim.errors import RealmsimError
from sim.events import Event


class ReportError(RealmsimError):
    """An input the report command cannot read."""


SNAPSHOTS = ("SeasonSummarized", "CampaignEnded")
MAX_AMOUNT = 10**15  # a metric: exact as a float, far beyond any treasury a campaign can reach
MAX_MILES = BIG
MAX_DENOMINATOR = 10**6  # miles are thirds and halves of hexes; a sum of such fractions stays small
MAX_CONVOYS = 20_000  # realm's kingdoms send about 4 caravans a year each; 50 kingdoms for 100 years
MAX_FACTIONS = 1_000  # kingdoms, nations and guilds (a scenario holds at most 50 of each)
MAX_METRICS = 200  # distinct columns of the season table (the engine writes about 35)
_FACTION = re.compile(r"([a-z][a-z_]{0,30}):(.{1,200})", re.DOTALL)
_METRIC = re.compile(r"[a-z][a-z0-9_]{0,60}")
_MILES = re.compile(r"\d{1,16}(/\d{1,7})?|\d{1,16}\.\d{1,16}")


# ---- one value ----------------------------------------------------------------------------------------
Check = Callable[[Any, LedgerReader], bool]


def _amount(v: Any, _r: LedgerReader) -> bool:
    return whole(v, -BIG, BIG)


def _hour(v: Any, r: LedgerReader) -> bool:
    return whole(v, 0, r.end)


def _name(v: Any, _r: LedgerReader) -> bool:
    return isinstance(v, str) and len(v) <= 200


def miles_of(v: Any) -> Fraction | None:
    """A distance as the ledger writes it (``"1120/3"``, ``"12"``, or a number in a snapshot), if it is
    one from 0 to MAX_MILES with a small denominator; else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        f = Fraction(v)
    elif isinstance(v, float):
        if not math.isfinite(v):
            return None
        f = Fraction(str(v))
    elif isinstance(v, str) and _MILES.fullmatch(v):
        num, _, den = v.partition("/")
        if den and int(den) == 0:
            return None
        f = Fraction(v)
    else:
        return None
    return f if 0 <= f <= MAX_MILES and f.denominator <= MAX_DENOMINATOR else None


def _miles(v: Any, _r: LedgerReader) -> bool:
    return miles_of(v) is not None


def _n(v: int) -> str:
    return f"{v:,}".replace(",", " ")


AMOUNT = (_amount, f"a whole number from -{_n(BIG)} to {_n(BIG)}")
HOUR = (_hour, "an hour within the campaign")
NAME = (_name, "a text of at most 200 characters")
MILES = (_miles, f"a distance in miles from 0 to {_n(MAX_MILES)} (a number, or a fraction such as '1120/3')")
STATUS = (lambda v, _r: isinstance(v, str) and len(v) <= 40, "a status of at most 40 characters")

# What the convoy tables read of each CV event of a convoy: field → (check, expected, required).
FIELDS: dict[str, dict[str, tuple[Check, str, bool]]] = {}


def _fields(kinds: Iterable[str], **specs: tuple[tuple[Check, str], bool]) -> None:
    for k in kinds:
        FIELDS[k] = {f: (c, text, req) for f, ((c, text), req) in specs.items()}


_fields(["ConvoySetOut"], hp=(AMOUNT, False), provisions=(AMOUNT, False), origin=(NAME, False),
        destination=(NAME, False))
_fields(["DamageTaken", "StarvationDamageTaken"], after=(AMOUNT, True), max_hp=(AMOUNT, False))
_fields(["WagonLost"], hp_after=(AMOUNT, True), max_hp=(AMOUNT, False))
_fields(["WagonBought", "ConvoyRepaired", "CombatEnded"], hp=(AMOUNT, False), max_hp=(AMOUNT, False))
_fields(["UnrestRose", "UnrestFell"], after=(AMOUNT, True))
_fields(["MutinyBegan", "MutinyEnded"], unrest=(AMOUNT, False))
_fields(["ProvisionsConsumed", "ProvisionsLost"], left=(AMOUNT, True))
_fields(["StoresBought"], provisions=(AMOUNT, True))
_fields(["CargoLeftBehind"])  # its total, when its outcome is "provisions" (below)
_fields(["ConvoyTravelled"], miles=(MILES, False))
_fields(["ConvoyArrived"], hour=(HOUR, False), hp=(AMOUNT, False), max_hp=(AMOUNT, False), provisions=(AMOUNT, False),
        unrest=(AMOUNT, False), miles=(MILES, False))
_fields(["ConvoyDestroyed"], cause=(NAME, False))
# a convoy's entry in a snapshot (the tables anchor its track on it)
CONVOY_SNAPSHOT: dict[str, tuple[Check, str]] = {"hp": AMOUNT, "unrest": AMOUNT, "provisions": AMOUNT, "miles": MILES,
                                                 "status": STATUS}


def is_convoy_event(ev: Event) -> bool:
    """An event the convoy tables read."""
    return ev.system == "cv" and ev.actor.startswith("convoy:") and ev.kind in FIELDS


def metric_ok(v: Any) -> bool:
    """A season snapshot's metric: nothing, a boolean, a whole or finite number within ±MAX_AMOUNT, a short text."""
    if v is None or isinstance(v, bool):
        return True
    if isinstance(v, int):
        return -MAX_AMOUNT <= v <= MAX_AMOUNT
    if isinstance(v, float):
        return math.isfinite(v) and -MAX_AMOUNT <= v <= MAX_AMOUNT
    return isinstance(v, str) and len(v) <= 100


METRIC = "a number from -10**15 to 10**15, a boolean or a text of at most 100 characters"


# ---- one event ----------------------------------------------------------------------------------------
class _Check:
    """Checks the values the report reads, event by event, and counts what the tables will hold."""

    def __init__(self, reader: LedgerReader) -> None:
        self.r = reader
        self.convoys: set[str] = set()
        self.factions: set[str] = set()
        self.metrics: set[tuple[str, str]] = set()

    def fail(self, ev: Event, field: str, expected: str, found: Any, *, shown: str | None = None) -> LedgerError:
        return LedgerError(f"event {ev.seq} ({ev.kind} at hour {ev.t}): {field}: expected {expected}, "
                           f"found {shown or describe(found)}")

    def convoy(self, ev: Event, name: str, field: str) -> None:
        self.convoys.add(name)
        if len(self.convoys) > MAX_CONVOYS:
            raise self.fail(ev, field, f"at most {_n(MAX_CONVOYS)} convoys in a ledger", None,
                            shown=f"convoy number {_n(len(self.convoys))} ({name[:60]})")

    def event(self, ev: Event) -> bool:
        """Whether the tables read ``ev`` (after checking what they read of it)."""
        if ev.kind in SNAPSHOTS:
            self.snapshot(ev)
            return True
        if is_convoy_event(ev):
            for f, (ok, expected, required) in FIELDS[ev.kind].items():
                if f in ev.data or required:
                    v = ev.data.get(f)
                    if not ok(v, self.r):
                        raise self.fail(ev, f"data.{f}", expected, v)
            if ev.kind == "CargoLeftBehind" and ev.outcome == "provisions" and ev.total is not None \
                    and not _amount(ev.total, self.r):
                raise self.fail(ev, "total", AMOUNT[1], ev.total)
            if ev.kind == "ConvoySetOut":
                self.convoy(ev, ev.actor, "actor")
            return True
        return ev.kind == "CampaignStarted" and ev.seq == 0

    def snapshot(self, ev: Event) -> None:
        factions = ev.data.get("factions", {})
        if not isinstance(factions, dict):
            raise self.fail(ev, "data.factions", "a map of faction → metrics", factions)
        for faction, metrics in factions.items():
            m = _FACTION.fullmatch(faction) if isinstance(faction, str) else None
            if m is None:
                raise self.fail(ev, "data.factions", "faction names such as kingdom:brevoy (a kind, ':', an id of "
                                "at most 200 characters)", faction)
            where = f"data.factions[{faction[:60]!r}]"
            if not isinstance(metrics, dict):
                raise self.fail(ev, where, "a map of metric → value", metrics)
            kind = m.group(1)
            if kind == "convoy":
                self.convoy(ev, faction, "data.factions")
            elif faction not in self.factions:
                self.factions.add(faction)
                if len(self.factions) > MAX_FACTIONS:
                    raise self.fail(ev, "data.factions", f"at most {_n(MAX_FACTIONS)} factions besides convoys", None,
                                    shown=f"faction number {_n(len(self.factions))} ({faction[:60]})")
            for name, v in metrics.items():
                if not (isinstance(name, str) and _METRIC.fullmatch(name)):
                    raise self.fail(ev, where, "metric names such as treasury (lower-case letters, digits and _)", name)
                if kind == "convoy" and name in CONVOY_SNAPSHOT:
                    ok, expected = CONVOY_SNAPSHOT[name]
                    if not ok(v, self.r):
                        raise self.fail(ev, f"{where}.{name}", expected, v)
                elif not metric_ok(v):
                    raise self.fail(ev, f"{where}.{name}", METRIC, v)
                if (kind, name) not in self.metrics:
                    self.metrics.add((kind, name))
                    if len(self.metrics) > MAX_METRICS:
                        raise self.fail(ev, f"{where}.{name}", f"at most {MAX_METRICS} metrics in all", None,
                                        shown=f"metric number {len(self.metrics)}")


# ---- the file -----------------------------------------------------------------------------------------
def _is_save(head: bytes) -> bool:
    """A save file is one msgpack map whose first key says so (agents.savefile)."""
    return head[:1] != b"" and (0x80 <= head[0] <= 0x8F or head[0] in (0xDE, 0xDF)) and b"realmsim-save" in head[:64]


def _source(path: Path) -> tuple[IO[bytes], bool]:
    """The ledger's bytes as a stream, and whether they are a save file's."""
    f = open_input(path, "ledger")
    try:
        if not _is_save(f.peek(64)[:64]):
            return f, False
    except BaseException:
        f.close()
        raise
    f.close()
    from agents.savefile import load

    ledger = load(path, same_code=False).get("ledger")  # a report reads the ledger alone: any code version
    if not isinstance(ledger, bytes):
        raise LedgerError("the save has no ledger (expected msgpack bytes)")
    return io.BytesIO(ledger), True


# what a file that is no ledger at all fails with, on its first event
_NOT_A_LEDGER = re.compile(r"event 0: (expected an event|not msgpack)|line \d+ \(event 0\): not JSON")


def read_events(path: Path) -> list[Event]:
    """The events the report's tables read, checked (module docstring), from a ledger (msgpack stream,
    or ``.jsonl``) or a save file: ``CampaignStarted``, every snapshot, every convoy event, and the
    ledger's last event. ReportError naming the file and the event if any value is wrong."""
    out: list[Event] = []
    last: Event | None = None
    from_save = False
    try:
        f, from_save = _source(path)
        with f:
            reader = LedgerReader()
            check = _Check(reader)
            for ev in iter_events(f, jsonl=not from_save and path.suffix == ".jsonl", reader=reader):
                if check.event(ev):
                    out.append(ev)
                last = ev
    except InputFileError as e:
        raise ReportError(str(e)) from None
    except LedgerError as e:
        if last is None and not from_save and _NOT_A_LEDGER.match(str(e)):
            raise ReportError(f"{path}: not a realmsim ledger, save file or batch table ({e})") from None
        raise ReportError(f"{path}: {e}") from None
    if last is not None and (not out or out[-1] is not last):
        out.append(last)
    return out
