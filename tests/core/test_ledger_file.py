"""A ledger from outside is read event by event, each envelope checked before use (issue 30,
agents.ledgerfile): in order, within the campaign, of plain values, streamed and never trusted for sizes."""

from __future__ import annotations

import io
import json
import math
from typing import Any

import msgpack
import msgspec
import pytest

from agents.ledgerfile import LedgerError, LedgerReader, decode_ledger, iter_events
from sim.events import Ledger, encode_events


def _events() -> list[dict[str, Any]]:
    led = Ledger()
    led.emit("link", "CampaignStarted", "world", ("LINK-01",), scenario="s", seed=1, systems=["cv"], end=480)
    led.now = 24
    led.emit("cv", "ConvoySetOut", "convoy:amber", ("CV-01",), hp=60, provisions=90, origin="a", destination="b")
    led.now = 48
    led.emit("cv", "ConvoyTravelled", "convoy:amber", ("CV-02",), miles="40/3")
    return [msgspec.to_builtins(e) for e in led.events]


def _pack(events: list[Any]) -> bytes:
    return b"".join(msgpack.packb(e, use_bin_type=True) for e in events)


def test_a_sound_ledger_reads_back_as_it_was_written() -> None:
    led = Ledger()
    led.emit("link", "CampaignStarted", "world", ("LINK-01",), scenario="s", seed=1, systems=["cv"], end=480)
    led.emit("cv", "DamageTaken", "convoy:a", ("CV-07",), dice=[(6, 3)], total=3, after=57, mods=[("x", 1)])
    assert decode_ledger(encode_events(led.events)) == led.events
    lines = b"".join(msgspec.json.encode(e) + b"\n" for e in led.events)
    assert list(iter_events(io.BytesIO(lines), jsonl=True)) == led.events


@pytest.mark.parametrize(("change", "message"), [
    (lambda e: e[2].update(seq=7), r"event 2 \(ConvoyTravelled at hour 48\): seq: expected 2 \(events are numbered in order from 0\), found 7 \(an integer\)"),
    (lambda e: e[2].update(t=10), r"event 2 \(ConvoyTravelled at hour 10\): t: expected an hour from 24 to 480 \(the previous event's hour\), found 10"),
    (lambda e: e[2].update(t=2**31), r"event 2 \(ConvoyTravelled at hour 2147483648\): t: expected an hour from 24 to 480 \(the campaign's end\), found 2147483648"),
    (lambda e: e[2].update(t=-(2**63)), r"t: expected an hour from 24 to 480 \(the previous event's hour\), found -9223372036854775808"),
    (lambda e: e[0]["data"].update(end=2**64 - 1), r"event 0 \(CampaignStarted at hour 0\): data\.end: expected the campaign's last hour, from 1 to 864 000 \(100 years\), found 18446744073709551615"),
    (lambda e: e[0]["data"].update(seed="x"), r"data\.seed: expected a seed from 0 to 2\*\*63-1, found \"x\""),
    (lambda e: e[1].update(system="zz"), r"event 1 \(ConvoySetOut at hour 24\): system: expected one of cv, km, mn, gw, link, found \"zz\""),
    (lambda e: e[1].update(kind="x" * 100), r"kind: expected an event kind \(a word of at most 80 letters"),
    (lambda e: e[1].update(actor="convoy:" + "a" * 400), r"actor: expected an actor of at most 300 characters, found \"407 characters\""),
    (lambda e: e[1].update(t="noon"), r"event 1: not an event of the ledger's format \(Expected `int`, got `str` - at `\$\.t`\)"),
    (lambda e: e.__setitem__(1, 42), r"event 1: expected an event \(a map of seq, t, system, kind, actor, clauses…\), found 42 \(an integer\)"),
])
def test_a_damaged_envelope_names_the_event_the_field_what_was_expected_and_found(change: Any, message: str) -> None:
    events = _events()
    change(events)
    with pytest.raises(LedgerError, match=message):
        decode_ledger(_pack(events))


def test_a_save_s_ledger_may_not_pass_the_hour_it_stands_at() -> None:
    with pytest.raises(LedgerError, match=r"event 2 \(ConvoyTravelled at hour 48\): t: expected an hour from 24 to 30"):
        decode_ledger(_pack(_events()), end=30)


def test_values_the_json_writer_cannot_take_are_refused() -> None:
    events = _events()
    raw = bytearray(_pack(events))
    raw = raw.replace(msgpack.packb("40/3"), b"\xd6\xff" + (5).to_bytes(4, "big"))  # a msgpack timestamp
    with pytest.raises(LedgerError, match=r"event 2 \(ConvoyTravelled at hour 48\): data\.miles: expected a value "
                                          r"of a ledger \(.*\), found Timestamp"):
        decode_ledger(bytes(raw))
    for key, shown in ((None, "nothing"), (True, "true \\(a boolean\\)")):
        events[2]["data"]["miles"] = {"a": [{key: 1}]}
        with pytest.raises(LedgerError, match=rf"data\.miles\.a\[0\]: expected a value of a ledger .*found a key {shown}"):
            decode_ledger(_pack(events))


def test_bytes_extensions_and_number_keys_are_values_a_ledger_can_carry_on() -> None:
    events = _events()
    events[2]["data"]["extra"] = [b"\x00", msgpack.ExtType(5, b"x"), {1: 2}]
    got = decode_ledger(_pack(events))
    assert msgspec.json.decode(msgspec.json.encode(got[2]))["data"]["extra"] == ["AA==", [5, "eA=="], {"1": 2}]


def test_lists_nested_too_deep_are_a_clear_error_in_either_format() -> None:
    events = _events()
    events[2]["data"]["miles"] = "DEEP"
    raw = _pack(events).replace(msgpack.packb("DEEP"), b"\x91" * 3000 + b"\x90")
    with pytest.raises(LedgerError, match=r"event 2: not msgpack, or damaged \(from byte \d+: nested too deep\)"):
        decode_ledger(raw)
    line = json.dumps(events[2]).replace('"DEEP"', "[" * 100_000 + "]" * 100_000)
    text = "\n".join([json.dumps(events[0]), json.dumps(events[1]), line]).encode()
    with pytest.raises(LedgerError, match=r"line 3 \(event 2\): not JSON \(nested too deep\)"):
        list(iter_events(io.BytesIO(text), jsonl=True))


def test_a_truncated_ledger_says_where_it_was_cut() -> None:
    raw = _pack(_events())
    with pytest.raises(LedgerError, match=r"event 2: the ledger ends in the middle of it \(cut short after byte \d+\)"):
        decode_ledger(raw[:-3])


def test_a_nan_in_json_lines_is_not_json() -> None:
    events = _events()
    events[2]["data"]["miles"] = math.nan
    text = "\n".join(json.dumps(e) for e in events).encode()  # Python writes NaN, which JSON has not
    with pytest.raises(LedgerError, match=r"line 3 \(event 2\): not JSON"):
        list(iter_events(io.BytesIO(text), jsonl=True))


def test_a_huge_container_header_in_a_tiny_file_is_refused_without_allocating_it() -> None:
    raw = _pack(_events()[:1]) + b"\xdd\xff\xff\xff\xff"  # an array of 4 billion items, then nothing
    with pytest.raises(LedgerError, match=r"event 1: not msgpack, or damaged"):
        decode_ledger(raw)


def test_the_reader_keeps_the_campaign_s_end_from_campaign_started() -> None:
    reader = LedgerReader()
    list(iter_events(io.BytesIO(_pack(_events())), reader=reader))
    assert (reader.end, reader.count, reader.last_t) == (480, 3, 48)
    assert reader.started is not None and reader.started["scenario"] == "s"


def test_a_message_never_carries_the_file_s_control_characters_to_the_terminal() -> None:
    events = _events()
    events[1]["kind"] = "Convoy\x1b[2JSetOut"  # an escape sequence that would clear the screen
    with pytest.raises(LedgerError) as ei:
        decode_ledger(_pack(events))
    assert "\x1b" not in str(ei.value) and "Convoy\\x1b[2JSetOut" in str(ei.value)
