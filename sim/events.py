"""The event ledger: every roll, check and decision of a campaign, in order.

An event carries the clause IDs that produced it, the DC, each modifier by name, every die drawn
(sides and face), the total and the outcome, plus whatever else a person needs to audit it
(``data``). The initial world plus the ledger is the game record.

The encoded ledger is a msgpack *stream*: the events' msgpack encodings one after another
(``msgpack.Unpacker`` reads it back). ``ledger_sha256`` is the SHA-256 of exactly those bytes, so it
can be computed while the campaign runs, without keeping the events.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import msgpack
import msgspec

Mods = Sequence[tuple[str, int]]


class Event(msgspec.Struct, frozen=True, omit_defaults=True):
    """One entry of the ledger.

    seq      position in the ledger (0-based)
    t        campaign hour at which it happened
    system   ``cv``, ``km``, ``mn``, ``gw`` or ``link``
    kind     what happened, a past-tense noun phrase (``SecurityCheckFailed``, ``DiplomatExecuted``)
    actor    the entity it concerns (``convoy:amber``, ``kingdom:brevoy``)
    clauses  RULES.md clause IDs that produced it
    dc       the DC or threshold, when there is one
    mods     named modifiers added to the die, in order: ``[("Security", 4), ("fatigued", -2)]``
    dice     every die drawn: ``[(20, 12)]`` is a d20 showing 12
    total    the check total or the rolled amount
    outcome  ``success``/``failure``/a band name/what was decided
    data     anything else needed to audit it (state before/after, targets, alternatives scored…)
    """

    seq: int
    t: int
    system: str
    kind: str
    actor: str
    clauses: tuple[str, ...]
    dc: int | None = None
    mods: tuple[tuple[str, int], ...] = ()
    dice: tuple[tuple[int, int], ...] = ()
    total: int | None = None
    outcome: str = ""
    data: dict[str, Any] = {}


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Event)

ACTOR_KINDS = ("convoy", "kingdom", "guild", "army", "nation", "ambassador", "city", "envoy", "world")


def actor_key(kind: str, ident: str) -> str:
    """The ledger's name for an entity: ``actor_key("convoy", "amber") == "convoy:amber"``."""
    return f"{kind}:{ident}"


def split_actor(key: str) -> tuple[str, str]:
    """``"convoy:amber"`` → ``("convoy", "amber")``; ``"world"`` → ``("world", "")``."""
    kind, _, ident = key.partition(":")
    return kind, ident


class Ledger:
    """Collects events; hashes them as they come. ``keep=False`` keeps only the count and digest.

    ``dice`` counts the dice the events carry: with every die drawn recorded in exactly one event
    (GEN-01), it equals the draws of the rules' dice sources (``DiceBox.draws``)."""

    __slots__ = ("events", "count", "dice", "clock", "_now", "_hash", "keep", "_listeners")

    def __init__(self, *, keep: bool = True, now: int = 0) -> None:
        self.events: list[Event] = []
        self.count = 0
        self.dice = 0
        self.clock: Any = None  # a campaign's clock (anything with ``.now``); None: the ledger keeps its own
        self._now = now
        self.keep = keep
        self._hash = hashlib.sha256()
        self._listeners: list[Any] = []

    @property
    def now(self) -> int:
        """The hour events are stamped with: the bound clock's (a campaign's SimPy environment,
        which reads ``world.now``), else the ledger's own (rules run without a campaign, in tests)."""
        return self._now if self.clock is None else int(self.clock.now)

    @now.setter
    def now(self, value: int) -> None:
        if self.clock is not None:
            if int(value) != int(self.clock.now):
                raise ValueError(f"ledger.now follows its campaign's clock (hour {self.clock.now}); it cannot be set to {value}")
            return
        self._now = value

    def emit(
        self,
        system: str,
        kind: str,
        actor: str,
        clauses: Iterable[str],
        *,
        dc: int | None = None,
        mods: Mods = (),
        dice: Iterable[tuple[int, int]] = (),
        total: int | None = None,
        outcome: str = "",
        **data: Any,
    ) -> Event:
        # (the hot path of every campaign: tuples pass as they are, empty modifiers skip the copy)
        ev = Event(
            self.count,
            self._now if self.clock is None else int(self.clock.now),
            system,
            kind,
            actor,
            clauses if type(clauses) is tuple else tuple(clauses),
            dc,
            tuple([(str(n), int(v)) for n, v in mods]) if mods else (),
            dice if type(dice) is tuple else tuple(dice),
            total,
            outcome,
            data,
        )
        self._hash.update(_encoder.encode(ev))
        self.count += 1
        self.dice += len(ev.dice)
        if self.keep:
            self.events.append(ev)
        if self._listeners:
            for fn in self._listeners:
                fn(ev)
        return ev

    def emit_check(
        self,
        system: str,
        kind: str,
        actor: str,
        clauses: Iterable[str],
        result: CheckResult,
        *,
        mods: Mods = (),
        outcome: str | None = None,
        **data: Any,
    ) -> Event:
        """One check as one event: its DC, the named modifiers, the die, the total and
        ``success``/``failure`` (or ``outcome`` when the clause names its bands)."""
        return self.emit(
            system, kind, actor, clauses, dc=result.dc, mods=mods, dice=result.dice, total=result.total,
            outcome=result.outcome if outcome is None else outcome, **data,
        )

    def subscribe(self, fn: Any) -> None:
        """Call ``fn(event)`` for every event emitted from now on (chronicles, progress)."""
        self._listeners.append(fn)

    def sha256(self) -> str:
        return self._hash.hexdigest()

    def encode(self) -> bytes:
        if not self.keep:
            raise ValueError("this ledger did not keep its events (keep=False)")
        return encode_events(self.events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return self.count

    def of_kind(self, *kinds: str) -> list[Event]:
        return [e for e in self.events if e.kind in kinds]

    # save/resume: the digest state cannot be exported from hashlib, so a resumed ledger re-hashes
    # the events it restores (they are part of the save file).
    def restore(self, events: list[Event]) -> None:
        self.events = list(events) if self.keep else []
        self.count = len(events)
        self.dice = sum(len(ev.dice) for ev in events)
        self._hash = hashlib.sha256()
        for ev in events:
            self._hash.update(_encoder.encode(ev))


def encode_events(events: Iterable[Event]) -> bytes:
    return b"".join(_encoder.encode(e) for e in events)


def decode_events(data: bytes) -> list[Event]:
    """Read a ledger written by :func:`encode_events` (a msgpack stream of events)."""
    out = []
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    for obj in unpacker:
        out.append(msgspec.convert(obj, Event))
    return out


def ledger_sha256(events: Iterable[Event]) -> str:
    h = hashlib.sha256()
    for e in events:
        h.update(_encoder.encode(e))
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A d20 (or other die) check: natural face, total, DC and what came of it (GEN-03)."""

    natural: int
    total: int
    dc: int
    success: bool
    sides: int = 20

    @property
    def dice(self) -> tuple[tuple[int, int], ...]:
        """The die drawn, as events record it: ``((20, natural),)``."""
        return ((self.sides, self.natural),)

    @property
    def outcome(self) -> str:
        return "success" if self.success else "failure"

    @property
    def margin(self) -> int:
        """Positive: succeeded by; negative: failed by (GEN-03)."""
        return self.total - self.dc

    @property
    def failed_by(self) -> int:
        return self.dc - self.total


def check(
    dice: Any,
    dc: int,
    mods: Mods,
    *,
    sides: int = 20,
    natural_1_fails: bool = False,
    natural_20_succeeds: bool = False,
) -> CheckResult:
    """Roll ``1d<sides> + Σ mods`` against ``dc``; success is total ≥ DC (GEN-03).

    Kingdom checks pass ``natural_1_fails``/``natural_20_succeeds`` (SC-KM-03); skill and caravan
    checks do not (RES-KM-04, RES-CV-19).
    """
    nat = dice.roll(sides)[0]
    total = nat + sum(v for _, v in mods)
    # implements: GEN-03
    ok = total >= dc
    if natural_1_fails and nat == 1:
        ok = False
    elif natural_20_succeeds and nat == sides:
        ok = True
    return CheckResult(nat, total, dc, ok, sides)
