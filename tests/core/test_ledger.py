"""The event ledger and the check helper (GEN-03)."""

from __future__ import annotations

import hashlib

import msgpack
import pytest

from sim.dice import ScriptedDice
from sim.events import Ledger, check, decode_events, encode_events


def _ledger(keep: bool = True) -> Ledger:
    led = Ledger(keep=keep)
    led.now = 30
    led.emit("cv", "SecurityCheckRolled", "convoy:a", ["CV-TRAV-05"], dc=15, mods=[("Security", 4)],
             dice=[(20, 12)], total=16, outcome="success", hour=13)
    led.now = 31
    led.emit("cv", "ConvoyExhausted", "convoy:a", ["CV-TRAV-06"], outcome="exhausted")
    return led


def test_events_carry_clauses_dc_mods_dice_total_outcome() -> None:
    ev = _ledger().events[0]
    assert (ev.seq, ev.t, ev.system, ev.kind, ev.actor) == (0, 30, "cv", "SecurityCheckRolled", "convoy:a")
    assert ev.clauses == ("CV-TRAV-05",)
    assert (ev.dc, ev.mods, ev.dice, ev.total, ev.outcome) == (15, (("Security", 4),), ((20, 12),), 16, "success")
    assert ev.data == {"hour": 13}


def test_sha256_is_the_digest_of_the_encoded_msgpack_stream() -> None:
    led = _ledger()
    raw = led.encode()
    assert led.sha256() == hashlib.sha256(raw).hexdigest()
    objs = list(msgpack.Unpacker(__import__("io").BytesIO(raw), raw=False))
    assert [o["kind"] for o in objs] == ["SecurityCheckRolled", "ConvoyExhausted"]


def test_ledger_round_trips_and_a_lean_ledger_has_the_same_digest() -> None:
    led = _ledger()
    assert decode_events(encode_events(led.events)) == led.events
    lean = _ledger(keep=False)
    assert lean.count == 2 and lean.events == []
    assert lean.sha256() == led.sha256()
    with pytest.raises(ValueError, match="did not keep its events"):
        lean.encode()


def test_restore_rebuilds_the_digest() -> None:
    led = _ledger()
    other = Ledger()
    other.restore(led.events)
    assert other.sha256() == led.sha256() and other.count == 2


@pytest.mark.rule("GEN-03")
def test_check_succeeds_on_equal_to_dc_and_reports_margins() -> None:
    r = check(ScriptedDice(["d20=11"]), 15, [("Security", 4)])
    assert (r.natural, r.total, r.success, r.margin) == (11, 15, True, 0)
    r = check(ScriptedDice(["d20=10"]), 15, [("Security", 4)])
    assert (r.total, r.success, r.failed_by) == (14, False, 1)


def test_natural_one_and_twenty_only_when_asked() -> None:
    assert check(ScriptedDice(["d20=1"]), 10, [("x", 50)]).success is True
    assert check(ScriptedDice(["d20=1"]), 10, [("x", 50)], natural_1_fails=True).success is False
    assert check(ScriptedDice(["d20=20"]), 99, []).success is False
    assert check(ScriptedDice(["d20=20"]), 99, [], natural_20_succeeds=True).success is True
