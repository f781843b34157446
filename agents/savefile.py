"""Save a campaign at a season boundary and resume it exactly.

A save file is a msgpack map::

    {"format": "realmsim-save", "version": 1, "code_version": "...", "sha256": "<of body>",
     "body": <msgpack bytes of {"scenario": {"label", "text"}, "seed", "overrides", "world",
                                 "dice", "ledger"}>}

``world`` is the msgpack-encoded World, ``dice`` every seeded stream's state (rules and policies),
``ledger`` the events so far. Resuming rebuilds the model from the world alone: every driver's
processes compute their next wake-up from the clock and the world, so a run saved at any season and
resumed ends exactly as the run that never stopped (same JSON, same ``ledger_sha256``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import msgpack

from agents.campaign import CampaignResult, finish
from agents.model import RealmModel
from scenarios.loader import load_scenario_text
from sim.dice import DiceBox
from sim.errors import SaveFileError
from sim.events import Ledger, decode_events, encode_events
from sim.version import code_version
from sim.world import decode_world, encode_world

FORMAT = "realmsim-save"
VERSION = 1


def save(model: RealmModel, path: Path, *, scenario_label: str, scenario_text: str, overrides: dict[str, Any] | None) -> None:
    if not model.ledger.keep:
        raise SaveFileError("cannot save a campaign whose ledger was not kept (keep_ledger=False)")
    body = msgpack.packb(
        {
            "scenario": {"label": scenario_label, "text": scenario_text},
            "seed": model.world.seed,
            "overrides": dict(sorted((overrides or {}).items())),
            "world": encode_world(model.world),
            "dice": model.dice.getstate(),
            "ledger": encode_events(model.ledger.events),
        },
        use_bin_type=True,
    )
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "code_version": code_version(),
        "sha256": hashlib.sha256(body).hexdigest(),
        "body": body,
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(msgpack.packb(doc, use_bin_type=True))
    tmp.replace(path)


def load(path: Path) -> dict[str, Any]:
    """Read and check a save file; SaveFileError with a clear reason if it cannot be resumed."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise SaveFileError(f"{path}: cannot read the save file ({e.strerror or e})") from None
    try:
        doc = msgpack.unpackb(raw, raw=False)
    except Exception:  # msgpack raises several unrelated types on garbage
        raise SaveFileError(f"{path}: not a realmsim save file (not msgpack, or damaged)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveFileError(f"{path}: not a realmsim save file")
    if doc.get("version") != VERSION:
        raise SaveFileError(f"{path}: save format version {doc.get('version')!r}; this realmsim reads version {VERSION}")
    body = doc.get("body")
    if not isinstance(body, bytes) or hashlib.sha256(body).hexdigest() != doc.get("sha256"):
        raise SaveFileError(f"{path}: the save file is damaged (its checksum does not match)")
    mine = code_version()
    if doc.get("code_version") != mine:
        raise SaveFileError(
            f"{path}: saved by realmsim code version {doc.get('code_version')!r}; this is {mine!r}. "
            "A campaign can only be resumed by the code that saved it (re-run it from its scenario and seed)."
        )
    try:
        return dict(msgpack.unpackb(body, raw=False, strict_map_key=False))
    except Exception:
        raise SaveFileError(f"{path}: the save file is damaged (its body cannot be read)") from None


def restore(path: Path, *, collect: bool = True) -> tuple[RealmModel, dict[str, Any]]:
    """A model ready to continue the saved campaign, and the save's metadata."""
    data = load(path)
    sc = data["scenario"]
    loaded = load_scenario_text(sc["text"], sc["label"])
    world = decode_world(data["world"])
    dice = DiceBox(data["seed"])
    dice.setstate(data["dice"])
    ledger = Ledger(keep=True)
    ledger.restore(decode_events(data["ledger"]))
    model = RealmModel(world, dice=dice, ledger=ledger, collect=collect)
    meta = {"scenario": loaded, "seed": data["seed"], "overrides": data["overrides"]}
    return model, meta


def resume(path: Path, *, until: int | None = None) -> CampaignResult:
    model, _ = restore(path)
    model.run(until)
    return finish(model)
