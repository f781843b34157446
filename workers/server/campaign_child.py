"""A campaign process of the server: runs one campaign and streams its ledger back, msgpack only.

Started by :class:`workers.server.runner.CampaignRunner` as ``python -m workers.server.campaign_child``;
not meant to be run by hand. It imports the engine, says ``["ready"]``, reads one *recipe* (a msgpack
map) from stdin, and writes messages (msgpack arrays) to stdout as the campaign runs:

    ["map", {static map}]                       once, first
    ["events", [[seq, t, season, kind, actor, factions, line, json], ...]]   every ~0.1 s or 256 events
    ["state", hour, season, {snapshot}]         at every season boundary, about every second between
                                                them, and at the end
    ["done", {"hour", "end", "events", "summary", "ledger_sha256"}]   last, or
    ["error", message, traceback]

A recipe: ``{"scenario": {"name": N} | {"label": L, "text": TOML}, "seed", "overrides", "until"
(hour or nil), "lang", "stages": [{"hour", "overrides", "policies": {faction: policy}}]}``. A stage
is a fork point: the campaign runs to its hour (a season boundary), the world gets the stage's rule
overrides and policies, and the campaign goes on from the same world, dice and ledger exactly as
``realmsim resume`` goes on from a save file (agents/savefile.py).
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from typing import IO, Any

import msgpack
import msgspec

from sim.calendar import HOURS_PER_SEASON
from sim.events import Event

CHUNK_EVENTS = 256
CHUNK_SECONDS = 0.1
SNAPSHOT_SECONDS = 1.0
POLICY_FIELD = {"kingdom": "kingdoms", "nation": "nations", "guild": "guilds", "convoy": "convoys"}


class StageError(Exception):
    """A fork stage that cannot be applied to the world it meets."""


class Streamer:
    """Ledger listener: sends events in chunks, with their chronicle line and factions, and map
    snapshots at season boundaries."""

    def __init__(self, out: IO[bytes], lang: str) -> None:
        self.out = out
        self.lang = lang
        self.model: Any = None
        self.buf: list[list[Any]] = []
        self.pending: list[Event] = []
        self.last_flush = time.monotonic()
        self.last_snapshot = time.monotonic()
        self._json = msgspec.json.Encoder()

    def send(self, msg: list[Any]) -> None:
        self.out.write(msgpack.packb(msg, use_bin_type=True))
        self.out.flush()

    def attach(self, model: Any) -> None:
        self.model = model
        for ev in self.pending:
            self._add(ev)
        self.pending.clear()

    def __call__(self, ev: Event) -> None:
        if self.model is None:
            self.pending.append(ev)
            return
        self._add(ev)
        now = time.monotonic()
        if ev.kind == "SeasonSummarized":  # the map first, so that it is stored when a client hears of the season
            self.snapshot()
            self.flush()
        elif len(self.buf) >= CHUNK_EVENTS or now - self.last_flush >= CHUNK_SECONDS:
            self.flush()
            if now - self.last_snapshot >= SNAPSHOT_SECONDS:
                self.snapshot()

    def _add(self, ev: Event) -> None:
        from agents.chronicle import line
        from workers.server.mapview import event_factions

        world = self.model.world
        text = line(self.model, ev, self.lang)
        facs = event_factions(world, ev.actor, ev.data)
        self.buf.append([ev.seq, ev.t, ev.t // HOURS_PER_SEASON, ev.kind, ev.actor,
                         "," + ",".join(facs) + ",", text, self._json.encode(ev)])

    def flush(self) -> None:
        if self.buf:
            self.send(["events", self.buf])
            self.buf = []
        self.last_flush = time.monotonic()

    def snapshot(self) -> None:
        from workers.server.mapview import snapshot

        w = self.model.world
        self.send(["state", w.now, w.now // HOURS_PER_SEASON, snapshot(w)])
        self.last_snapshot = time.monotonic()


def load(scenario: dict[str, Any]) -> Any:
    from scenarios.loader import builtin_names, load_scenario, load_scenario_text

    if "text" in scenario:
        return load_scenario_text(str(scenario["text"]), str(scenario.get("label", "<scenario>")))
    name = str(scenario.get("name", ""))
    if name not in builtin_names():  # never a path: only built-in names resolve
        raise ValueError(f"unknown built-in scenario {name!r}")
    return load_scenario(name)


def apply_stage(model: Any, stage: dict[str, Any]) -> Any:
    """The campaign's model rebuilt at a season boundary with the stage's overrides and policies."""
    from agents.model import RealmModel
    from scenarios.loader import apply_overrides

    world = model.world
    if stage.get("overrides"):
        world.config = apply_overrides(world.config, stage["overrides"], f"fork at season {world.now // HOURS_PER_SEASON}")
    for faction, policy in (stage.get("policies") or {}).items():
        kind, _, ident = str(faction).partition(":")
        part = {"kingdom": world.km, "nation": world.mn, "guild": world.gw, "convoy": world.cv}.get(kind)
        if part is None:
            raise StageError(f"fork: faction {faction!r}: this campaign has no {kind or 'such'} factions")
        table = getattr(part, POLICY_FIELD[kind])
        rows = table.values() if isinstance(table, dict) else table
        match = [r for r in rows if r.id == ident]
        if not match:
            raise StageError(f"fork: faction {faction!r} does not exist at season {world.now // HOURS_PER_SEASON}")
        match[0].policy = str(policy)
    return RealmModel(world, dice=model.dice, ledger=model.ledger, collect=False)


def run(recipe: dict[str, Any], out: IO[bytes]) -> None:
    from agents.campaign import finish, prepare_campaign
    from workers.server.mapview import static_map

    loaded = load(recipe["scenario"])
    lang = recipe.get("lang") or loaded.scenario.scenario.lang
    streamer = Streamer(out, lang)
    model = prepare_campaign(loaded, recipe.get("seed"), overrides=recipe.get("overrides") or None,
                             keep_ledger=False, collect=False, listeners=[streamer])
    streamer.send(["map", static_map(model.world)])
    streamer.attach(model)
    streamer.flush()
    streamer.snapshot()
    for stage in sorted(recipe.get("stages") or [], key=lambda s: s["hour"]):
        model.run(int(stage["hour"]))
        streamer.flush()
        model = apply_stage(model, stage)
        streamer.attach(model)
    until = recipe.get("until")
    model.run(None if until is None else int(until))
    res = finish(model)
    streamer.flush()
    streamer.snapshot()
    w = model.world
    streamer.send(["done", {"hour": w.now, "end": w.end, "events": res.events, "summary": res.summary,
                            "ledger_sha256": res.ledger_sha256}])


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C and SIGTERM are the server's to handle
    from workers.job import preload

    preload()
    import agents.chronicle  # noqa: F401
    import workers.server.mapview  # noqa: F401

    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the protocol keeps the real stdout to itself
    out.write(msgpack.packb(["ready"], use_bin_type=True))
    out.flush()
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=64 << 20)
    fd = sys.stdin.fileno()
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return 0  # the server went away before sending a campaign
        unpacker.feed(chunk)
        for recipe in unpacker:
            try:
                run(recipe, out)
            except BaseException as e:  # noqa: BLE001 - SystemExit too (a job boundary, issue 9): reported
                from sim.errors import RealmsimError

                msg = str(e) if isinstance(e, RealmsimError | StageError) else f"{type(e).__name__}: {e}"
                out.write(msgpack.packb(["error", msg, traceback.format_exc()], use_bin_type=True))
                out.flush()
            return 0


if __name__ == "__main__":
    sys.exit(main())
