"""Injected dice (GEN-01).

Every random number the rules use comes from a ``Dice`` passed in by the caller. Three sources:

* ``SeededDice`` — one ``random.Random`` stream; ``DiceBox`` derives one per (system, entity) from a
  run's root seed with SHA-256, so streams are independent of creation order, process and
  ``PYTHONHASHSEED``, and a new entity never shifts another entity's rolls.
* ``ScriptedDice`` — a fixed sequence such as ``["d20=12", "2d6=5,3"]`` for tests and for a game
  master's table rolls. It fails loudly on an unscripted roll or a roll of the wrong die.
* ``exact_distribution`` (in :mod:`sim.odds`) enumerates every face of every die to give exact odds.

Every source counts the dice it has drawn (``draws``; a ``DiceBox`` sums its rules streams, leaving
out the policies' streams under the ``policy`` system, which are not rules dice). The ledger counts
the dice its events carry (``Ledger.dice``), so the audit promise of GEN-01 — every die drawn appears
in exactly one event — is one comparison of two counters.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Protocol

from sim.errors import DiceScriptError


class Dice(Protocol):
    """A source of die rolls. ``roll(6, 2)`` rolls 2d6 and returns each face, in order."""

    def roll(self, sides: int, count: int = 1) -> list[int]: ...


class DiceSource(Protocol):
    """Where a turn function gets its dice: one stream per (system, entity), as :class:`DiceBox`
    derives them. A :class:`ScriptedDice` is a source too: every stream is its one script, so a
    worked example scripts the whole turn as one sequence."""

    def stream(self, system: str, entity: str) -> Dice: ...


def derive_seed(root: int, *key: str) -> int:
    """A 64-bit seed for the stream named ``key`` under ``root`` (stable across processes)."""
    text = f"realmsim/{int(root)}/" + "/".join(key)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class SeededDice:
    """A reproducible stream of rolls."""

    __slots__ = ("name", "draws", "_rng", "_randrange")

    def __init__(self, seed: int, name: str = "") -> None:
        self.name = name
        self.draws = 0  # dice rolled so far (GEN-01 audit)
        self._rng = random.Random(seed)
        self._randrange = self._rng.randrange

    def roll(self, sides: int, count: int = 1) -> list[int]:
        # implements: GEN-01
        rr = self._randrange
        self.draws += count
        if count == 1:
            return [rr(sides) + 1]
        return [rr(sides) + 1 for _ in range(count)]

    def random(self) -> float:
        """A float in [0, 1) — for policies only, never for rules."""
        return self._rng.random()

    @property
    def rng(self) -> Random:
        """The underlying generator (policies use ``choice``/``shuffle`` on it)."""
        return self._rng

    def getstate(self) -> list[object]:
        version, internal, gauss = self._rng.getstate()
        return [version, list(internal), gauss, self.draws]

    def setstate(self, state: Sequence[object]) -> None:
        """Restore a state of :meth:`getstate` (a save file written before draws were counted has
        three items: its count restarts at 0)."""
        version, internal, gauss = state[:3]
        self._rng.setstate((version, tuple(internal), gauss))  # type: ignore[arg-type]
        self.draws = int(state[3]) if len(state) > 3 else 0  # type: ignore[call-overload]


class DiceBox:
    """All the seeded streams of one run, derived from its root seed.

    ``box.stream("cv", "convoy:amber")`` always returns the same stream object for that key.
    Policies get streams under the ``policy`` system so an AI change never shifts a rules roll.
    """

    def __init__(self, root_seed: int) -> None:
        self.root_seed = int(root_seed)
        self._streams: dict[str, SeededDice] = {}

    def stream(self, system: str, entity: str) -> SeededDice:
        key = f"{system}/{entity}"
        s = self._streams.get(key)
        if s is None:
            s = SeededDice(derive_seed(self.root_seed, system, entity), key)
            self._streams[key] = s
        return s

    def reseed(self, system: str, entity: str, root_seed: int) -> SeededDice:
        """Replace the stream of ``(system, entity)`` by the one root seed ``root_seed`` gives it
        (advice seeds the advised faction's policy apart from the world: workers/advise.py)."""
        key = f"{system}/{entity}"
        s = SeededDice(derive_seed(int(root_seed), system, entity), key)
        self._streams[key] = s
        return s

    @property
    def draws(self) -> int:
        """Dice drawn by the rules streams (every system but ``policy``) — what the ledger must record."""
        return sum(s.draws for k, s in self._streams.items() if not k.startswith("policy/"))

    def getstate(self) -> dict[str, list[object]]:
        return {k: self._streams[k].getstate() for k in sorted(self._streams)}

    def setstate(self, state: dict[str, list[object]]) -> None:
        for key, st in state.items():
            system, _, entity = key.partition("/")
            self.stream(system, entity).setstate(st)


_SCRIPT_RE = re.compile(r"^\s*(\d*)d(\d+|%)\s*=\s*([\d\s,]+)$")


def parse_script_entry(entry: str | tuple[int, int]) -> list[tuple[int, int]]:
    """``"2d6=5,3"`` → ``[(6, 5), (6, 3)]``; ``(20, 12)`` → ``[(20, 12)]``; ``"d%=97"`` is a d100."""
    if isinstance(entry, tuple):
        sides, face = entry
        return [(int(sides), int(face))]
    m = _SCRIPT_RE.match(entry)
    if not m:
        raise DiceScriptError(f"cannot read dice script entry {entry!r}: expected a form like 'd20=12' or '2d6=5,3'")
    count = int(m.group(1) or 1)
    sides = 100 if m.group(2) == "%" else int(m.group(2))
    faces = [int(x) for x in m.group(3).replace(" ", "").split(",") if x]
    if len(faces) != count:
        raise DiceScriptError(f"dice script entry {entry!r} names {count} dice but gives {len(faces)} faces")
    for f in faces:
        if not 1 <= f <= sides:
            raise DiceScriptError(f"dice script entry {entry!r}: face {f} is not on a d{sides}")
    return [(sides, f) for f in faces]


class ScriptedDice:
    """Rolls read from a script, in order; any mismatch is an error naming the roll."""

    def __init__(self, script: Iterable[str | tuple[int, int]] = ()) -> None:
        self._rolls: list[tuple[int, int]] = []
        for entry in script:
            self._rolls.extend(parse_script_entry(entry))
        self._pos = 0

    def extend(self, script: Iterable[str | tuple[int, int]]) -> None:
        for entry in script:
            self._rolls.extend(parse_script_entry(entry))

    @property
    def draws(self) -> int:
        """Dice drawn so far (GEN-01 audit); the same as :attr:`used`."""
        return self._pos

    def stream(self, system: str, entity: str) -> ScriptedDice:
        """Every stream of a scripted source is the script itself (see :class:`DiceSource`)."""
        return self

    def roll(self, sides: int, count: int = 1) -> list[int]:
        out = []
        for _ in range(count):
            n = self._pos + 1
            if self._pos >= len(self._rolls):
                raise DiceScriptError(
                    f"roll {n}: the rules asked for a d{sides} but the dice script is exhausted "
                    f"after {len(self._rolls)} roll(s)"
                )
            want, face = self._rolls[self._pos]
            if want != sides:
                raise DiceScriptError(
                    f"roll {n}: the rules asked for a d{sides} but the dice script has d{want}={face} next"
                )
            self._pos += 1
            out.append(face)
        return out

    @property
    def used(self) -> int:
        return self._pos

    @property
    def remaining(self) -> list[tuple[int, int]]:
        return self._rolls[self._pos :]

    def assert_exhausted(self) -> None:
        if self._pos != len(self._rolls):
            left = ", ".join(f"d{s}={f}" for s, f in self.remaining)
            raise DiceScriptError(f"{len(self._rolls) - self._pos} scripted roll(s) were never used: {left}")


_EXPR_TERM = re.compile(r"([+-]?)\s*(?:(\d*)d(\d+|%)|(\d+))")
_EXPR_FULL = re.compile(r"^\s*[+-]?\s*(?:\d*d(?:\d+|%)|\d+)(?:\s*[+-]\s*(?:\d*d(?:\d+|%)|\d+))*\s*$")


@dataclass(frozen=True)
class DiceExpr:
    """A sum of dice and constants, e.g. ``2d6+3`` or ``1d4-1``."""

    dice: tuple[tuple[int, int], ...]  # (count, sides) with sign folded into count
    bonus: int = 0
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        if not _EXPR_FULL.match(text):
            raise ValueError(f"cannot read dice expression {text!r}: expected a form like '2d6+3' or '1d4-1'")
        s = text.replace(" ", "")
        pos = 0
        dice: list[tuple[int, int]] = []
        bonus = 0
        while pos < len(s):
            m = _EXPR_TERM.match(s, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read dice expression {text!r} at {s[pos:]!r}")
            sign = -1 if m.group(1) == "-" else 1
            if pos > 0 and not m.group(1):
                raise ValueError(f"cannot read dice expression {text!r}: missing + or - before {s[pos:]!r}")
            if m.group(3):
                count = int(m.group(2) or 1)
                sides = 100 if m.group(3) == "%" else int(m.group(3))
                if count < 1 or sides < 1:
                    raise ValueError(f"dice expression {text!r} has an empty die term")
                dice.append((sign * count, sides))
            else:
                bonus += sign * int(m.group(4))
            pos = m.end()
        return cls(tuple(dice), bonus, text.strip())

    def roll(self, dice: Dice) -> tuple[int, list[tuple[int, int]]]:
        """Roll it: returns the total and every (sides, face) drawn, in order."""
        total = self.bonus
        faces: list[tuple[int, int]] = []
        for count, sides in self.dice:
            got = dice.roll(sides, abs(count))
            faces.extend((sides, f) for f in got)
            total += sum(got) if count > 0 else -sum(got)
        return total, faces

    def __str__(self) -> str:
        return self.text


def is_dice_expr(text: str) -> bool:
    try:
        DiceExpr.parse(text)
    except ValueError:
        return False
    return True
