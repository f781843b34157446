"""Save a campaign at a season boundary and resume it exactly.

A save file is a msgpack map::

    {"format": "realmsim-save", "version": 1, "code_version": "...", "sha256": "<of body>",
     "body": <msgpack bytes of {"scenario": {"label", "text", "files"}, "seed", "overrides", "world",
                                 "dice", "ledger"}>}

``world`` is the msgpack-encoded World, ``dice`` every seeded stream's state (rules and policies),
``ledger`` the events so far. Resuming rebuilds the model from the world alone: every driver's
processes compute their next wake-up from the clock and the world, so a run saved at any season and
resumed ends exactly as the run that never stopped (same JSON, same ``ledger_sha256``).

A save is validated like a scenario before a resume (a checksum only says the body is the one that
was written, not who wrote it): the scenario text it carries goes through the scenario validator, the
world must be one of that scenario's (:func:`world_problems`: name, seed, systems, duration, config,
map size, factions), and the model rebuilt from it must keep the world's invariants. Any failure is a
:class:`SaveFileError` (``realmsim resume`` exits 2 with its message), never a traceback and never a
resume of one scenario's text with another's world. ``files``: the texts of the scenario's orders files
(a resume opens no path the save names). The file itself is read at most to its size cap
(``scenarios.limits.FILE_CAPS``), and its ledger event by event, each one checked
(:mod:`agents.ledgerfile`: in order, none after the hour the save stands at).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import msgpack

from agents.campaign import CampaignResult, finish
from agents.ledgerfile import LedgerError, decode_ledger
from agents.model import RealmModel
from scenarios.files import from_texts
from scenarios.inputs import InputFileError, read_input
from scenarios.loader import LoadedScenario, load_scenario_text
from sim.dice import DiceBox
from sim.errors import SaveFileError, ScenarioError
from sim.events import Event, Ledger, encode_events
from sim.version import code_version
from sim.world import World, decode_world, encode_world

FORMAT = "realmsim-save"
VERSION = 1


def save(model: RealmModel, path: Path, *, scenario_label: str, scenario_text: str, overrides: dict[str, Any] | None,
         files: dict[str, str] | None = None) -> None:
    if not model.ledger.keep:
        raise SaveFileError("cannot save a campaign whose ledger was not kept (keep_ledger=False)")
    body = msgpack.packb(
        {
            "scenario": {"label": scenario_label, "text": scenario_text, **({"files": files} if files else {})},
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


def load(path: Path, *, same_code: bool = True) -> dict[str, Any]:
    """Read and check a save file; SaveFileError with a clear reason if it cannot be resumed.
    ``same_code=False``: a save of another code version is read too (a report reads its ledger only)."""
    try:
        raw = read_input(path, "save")  # at most its cap, never a device or a FIFO (issue 30)
    except InputFileError as e:
        raise SaveFileError(str(e)) from None
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
    if same_code and doc.get("code_version") != mine:
        raise SaveFileError(
            f"{path}: saved by realmsim code version {doc.get('code_version')!r}; this is {mine!r}. "
            "A campaign can only be resumed by the code that saved it (re-run it from its scenario and seed)."
        )
    try:
        return dict(msgpack.unpackb(body, raw=False, strict_map_key=False))
    except Exception:
        raise SaveFileError(f"{path}: the save file is damaged (its body cannot be read)") from None


def _fields(path: Path, data: dict[str, Any]) -> tuple[str, str, Any, int, dict[str, Any]]:
    """(label, text, files, seed, overrides) of a save's body, of the right types, else SaveFileError."""
    sc = data.get("scenario")
    if not isinstance(sc, dict) or not isinstance(sc.get("text"), str) or not isinstance(sc.get("label"), str):
        raise SaveFileError(f"{path}: the save carries no scenario (expected its label and text)")
    seed, overrides = data.get("seed"), data.get("overrides") or {}
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise SaveFileError(f"{path}: the save's seed is not a seed (found {str(seed)[:40]})")
    if not isinstance(overrides, dict):
        raise SaveFileError(f"{path}: the save's overrides are not a table of config keys")
    for key in ("world", "ledger"):
        if not isinstance(data.get(key), bytes):
            raise SaveFileError(f"{path}: the save has no {key} (expected msgpack bytes)")
    if not isinstance(data.get("dice"), dict):
        raise SaveFileError(f"{path}: the save has no dice state (expected a table of streams)")
    return sc["label"], sc["text"], sc.get("files"), seed, overrides


def world_problems(loaded: LoadedScenario, world: World, seed: int, overrides: dict[str, Any]) -> list[str]:
    """How a saved ``world`` is not one of ``loaded``'s (built with ``seed`` and ``overrides``)."""
    import msgspec

    from scenarios.build import build_world

    fresh = build_world(loaded.scenario, seed, overrides=overrides or None, label=loaded.label, files=loaded.carried)
    out: list[str] = []
    for name in ("scenario", "seed", "start", "end", "systems"):
        if getattr(world, name) != getattr(fresh, name):
            out.append(f"its world's {name} is {getattr(world, name)!r}, the scenario's {getattr(fresh, name)!r}")
    if not world.start <= world.now <= world.end:
        out.append(f"its world's hour {world.now} is outside the campaign ({world.start}..{world.end})")
    if msgspec.to_builtins(world.config) != msgspec.to_builtins(fresh.config):
        out.append("its world's config is not the scenario's with the save's overrides")
    if (world.map.width, world.map.height) != (fresh.map.width, fresh.map.height):
        out.append(f"its world's map is {world.map.width}×{world.map.height}, the scenario's "
                   f"{fresh.map.width}×{fresh.map.height}")
    tables: list[tuple[str, Any, Any]] = [
        ("kingdoms", world.km and world.km.kingdoms, fresh.km and fresh.km.kingdoms),
        ("nations", world.mn and world.mn.nations, fresh.mn and fresh.mn.nations),
        ("guilds", world.gw and world.gw.guilds, fresh.gw and fresh.gw.guilds),
        ("convoys", world.cv and {c.id: c for c in world.cv.convoys}, fresh.cv and {c.id: c for c in fresh.cv.convoys}),
    ]
    for what, mine, theirs in tables:
        if (mine is None) != (theirs is None):
            out.append(f"its world has no {what}, the scenario has" if mine is None
                       else f"its world has {what}, the scenario has none")
        elif mine is not None and theirs is not None:
            missing = sorted(set(theirs) - set(mine))
            if missing:
                out.append(f"its world lacks the scenario's {what} {', '.join(missing[:5])}")
    return out


def restore(path: Path, *, collect: bool = True, explain: bool = False) -> tuple[RealmModel, dict[str, Any]]:
    """A model ready to continue the saved campaign, and the save's metadata. The save is validated
    first (module docstring); SaveFileError with the reason if it cannot be resumed."""
    data = load(path)
    label, text, files, seed, overrides = _fields(path, data)
    try:
        loaded = load_scenario_text(text, label, from_texts(files))
    except ScenarioError as e:
        raise SaveFileError(f"{path}: the scenario the save carries has problems:\n{e}") from None
    try:
        world = decode_world(data["world"])
    except Exception as e:  # noqa: BLE001 - msgspec raises several types on a body of the wrong shape
        raise SaveFileError(f"{path}: the saved world cannot be read ({type(e).__name__}: {e})") from None
    try:
        bad = world_problems(loaded, world, seed, overrides)
    except ScenarioError as e:  # its overrides
        raise SaveFileError(f"{path}: the save's overrides do not fit its scenario:\n{e}") from None
    if bad:
        raise SaveFileError(f"{path}: the saved world is not one of its scenario's ({loaded.name}): " + "; ".join(bad))
    events = _ledger(path, data["ledger"], world)
    try:
        dice = DiceBox(seed)
        dice.setstate(data["dice"])
        ledger = Ledger(keep=True)
        ledger.restore(events)
        model = RealmModel(world, dice=dice, ledger=ledger, collect=collect, explain=explain)
        broken = model.invariant_violations()
    except Exception as e:  # noqa: BLE001 - an inconsistent world fails in any way: said, not raised
        raise SaveFileError(f"{path}: the saved campaign cannot be resumed ({type(e).__name__}: {str(e)[:300]})") from None
    if broken:
        raise SaveFileError(f"{path}: the saved world breaks the world's invariants: " + "; ".join(broken[:10]))
    meta = {"scenario": loaded, "seed": seed, "overrides": overrides}
    return model, meta


def _ledger(path: Path, data: bytes, world: World) -> list[Event]:
    """The saved ledger's events, each checked (agents.ledgerfile): in order, none after the save's hour."""
    try:
        return decode_ledger(data, end=world.now)
    except LedgerError as e:
        raise SaveFileError(f"{path}: the saved ledger is damaged: {e}") from None


def resume(path: Path, *, until: int | None = None) -> CampaignResult:
    model, _ = restore(path)
    model.run(until)
    return finish(model)
