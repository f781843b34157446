"""Saves are validated like scenarios before a resume (issue 9, finding 9): a save whose checksum was
recomputed over an inconsistent body — one scenario's text with another scenario's world, another
seed's world, a world that lost a faction — is refused with a clear message and exit 2, never a
traceback and never a silent resume."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest

from agents.campaign import prepare_campaign
from agents.savefile import restore, save
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_SEASON
from sim.errors import SaveFileError
from sim.world import decode_world, encode_world

ROOT = Path(__file__).resolve().parent.parent


def _save(name: str, seed: int, path: Path) -> Path:
    loaded = load_scenario(name)
    model = prepare_campaign(loaded, seed)
    model.run(HOURS_PER_SEASON)
    save(model, path, scenario_label=loaded.label, scenario_text=loaded.text, overrides=None)
    return path


def _body(path: Path) -> dict[str, Any]:
    doc = msgpack.unpackb(path.read_bytes(), raw=False)
    return dict(msgpack.unpackb(doc["body"], raw=False, strict_map_key=False))


def _rewrite(path: Path, body: dict[str, Any]) -> None:
    """Write ``body`` with a checksum recomputed as the save module computes it (sha256 of the body)."""
    doc = msgpack.unpackb(path.read_bytes(), raw=False)
    doc["body"] = msgpack.packb(body, use_bin_type=True)
    doc["sha256"] = hashlib.sha256(doc["body"]).hexdigest()
    path.write_bytes(msgpack.packb(doc, use_bin_type=True))


def _resume(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workers.cli", "resume", str(path), "--json"], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


PAIRS = [("guild-war", "mare-nostrum"), ("mare-nostrum", "guild-war"), ("stolen-lands", "guild-war"),
         ("caravan-crossing", "stolen-lands")]


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize(("text_of", "world_of"), PAIRS)
def test_a_save_with_another_scenario_s_world_is_refused(tmp_path: Path, text_of: str, world_of: str) -> None:
    a = _save(text_of, 1, tmp_path / "a.save")
    b = _save(world_of, 1, tmp_path / "b.save")
    body = _body(a)
    body["world"] = _body(b)["world"]
    body["dice"] = _body(b)["dice"]
    _rewrite(a, body)
    with pytest.raises(SaveFileError, match=rf"the saved world is not one of its scenario's \({text_of}\): its world's "
                                            rf"scenario is '{world_of}', the scenario's '{text_of}'"):
        restore(a)
    r = _resume(a)
    assert r.returncode == 2, r.stdout[-500:] + r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert f"realmsim resume: {a}: the saved world is not one of its scenario" in r.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_save_with_another_seed_s_world_or_a_missing_faction_is_refused(tmp_path: Path) -> None:
    a = _save("guild-war", 1, tmp_path / "a.save")
    b = _save("guild-war", 2, tmp_path / "b.save")
    body = _body(a)
    body["world"] = _body(b)["world"]
    _rewrite(a, body)
    with pytest.raises(SaveFileError, match="its world's seed is 2, the scenario's 1"):
        restore(a)
    # the world of the right scenario and seed, less one guild
    c = _save("guild-war", 1, tmp_path / "c.save")
    body = _body(c)
    world = decode_world(body["world"])
    assert world.gw is not None
    gone = sorted(world.gw.guilds)[0]
    del world.gw.guilds[gone]
    body["world"] = encode_world(world)
    _rewrite(c, body)
    with pytest.raises(SaveFileError, match=f"its world lacks the scenario's guilds {gone}"):
        restore(c)
    r = _resume(c)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "lacks the scenario's guilds" in r.stderr


@pytest.mark.parametrize("damage", ["scenario-text", "world-bytes", "seed", "overrides", "dice", "no-scenario"])
def test_a_save_whose_body_is_of_the_wrong_shape_is_a_clear_error(tmp_path: Path, damage: str) -> None:
    a = _save("guild-war", 1, tmp_path / "a.save")
    body = _body(a)
    expect = {
        "scenario-text": (lambda b: b["scenario"].update(text=b["scenario"]["text"].replace("[[guilds]]", "[[guildz]]", 1)),
                          "the scenario the save carries has problems"),
        "world-bytes": (lambda b: b.update(world=b"\x93\x01\x02\x03"), "the saved world cannot be read"),
        "seed": (lambda b: b.update(seed="one"), "the save's seed is not a seed"),
        "overrides": (lambda b: b.update(overrides={"gw.nonsense": 3}), "the save's overrides do not fit its scenario"),
        "dice": (lambda b: b.update(dice={"gw/x": [1]}), "the saved campaign cannot be resumed"),
        "no-scenario": (lambda b: b.pop("scenario"), "the save carries no scenario"),
    }[damage]
    expect[0](body)
    _rewrite(a, body)
    with pytest.raises(SaveFileError, match=expect[1]):
        restore(a)


def _ledger_events(body: dict[str, Any]) -> list[dict[str, Any]]:
    import io

    return list(msgpack.Unpacker(io.BytesIO(body["ledger"]), raw=False, strict_map_key=False))


@pytest.mark.parametrize(("damage", "message"), [
    (lambda evs: evs[-1].update(t=10**6), r"event \d+ \(\w+ at hour 1000000\): t: expected an hour from [\d ]+ to 2 160 "
                                          r"\(the campaign's end\), found 1000000"),
    (lambda evs: evs[5].update(seq=99), r"event 5 \(\w+ at hour \d+\): seq: expected 5 \(events are numbered in order from 0\)"),
    (lambda evs: evs.__setitem__(3, "an event"), r"event 3: expected an event \(a map of seq, t, system, kind"),
    (lambda evs: evs[4]["data"].update(extra={None: 1}), r"event 4 \(\w+ at hour \d+\): data\.extra: expected a value of a "
                                                         r"ledger .*found a key nothing"),
])
def test_a_save_whose_ledger_is_damaged_is_refused_naming_the_event(tmp_path: Path, damage: Any, message: str) -> None:
    # issue 30: the events a resume restores are checked like any ledger's, none after the save's hour
    a = _save("guild-war", 1, tmp_path / "a.save")
    body = _body(a)
    events = _ledger_events(body)
    damage(events)
    body["ledger"] = b"".join(msgpack.packb(e, use_bin_type=True) for e in events)
    _rewrite(a, body)
    with pytest.raises(SaveFileError, match=rf"a\.save: the saved ledger is damaged: {message}"):
        restore(a)


@pytest.mark.slow  # a subprocess
def test_resume_of_a_save_with_a_damaged_ledger_exits_2_with_the_event(tmp_path: Path) -> None:
    a = _save("guild-war", 1, tmp_path / "a.save")
    body = _body(a)
    events = _ledger_events(body)
    events[-1]["t"] = 2**31
    body["ledger"] = b"".join(msgpack.packb(e, use_bin_type=True) for e in events)
    _rewrite(a, body)
    r = _resume(a)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == ""
    assert f"realmsim resume: {a}: the saved ledger is damaged: event {len(events) - 1} (" in r.stderr
