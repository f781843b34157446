"""A campaign process of the server: runs one campaign and streams its ledger back, msgpack only.

Started by :class:`workers.server.runner.CampaignRunner` as ``python -m workers.server.campaign_child``;
not meant to be run by hand. It imports the engine, says ``["ready"]``, reads one *recipe* (a msgpack
map) from stdin, and writes messages (msgpack arrays) to stdout as the campaign runs:

    ["map", {static map}]                       once, first
    ["events", [[seq, t, season, kind, actor, factions, line, json], ...]]   every ~0.1 s or 256 events
    ["state", hour, season, {snapshot}]         at every day boundary where the world differs from the
                                                day before (always at a season boundary, with the
                                                factions' standings, at a fork point and at the end)
    ["checkpoint", hour, zlib(world msgpack)]   at every season boundary the campaign stands at
                                                (advice and standings at a past season read it)
    ["gm", {"faction", "hour", "given", "not_given"}]  once the game master's orders of a fork's
                                                stage have had their decision time
    ["done", {"hour", "end", "events", "summary", "ledger_sha256"}]   last, or
    ["error", message, traceback]

The campaign runs a day at a time (``model.run`` to each day boundary: the same events, dice and
ledger as one run to the end, as a save taken at any hour and resumed is).

A recipe: ``{"scenario": {"name": N} | {"label": L, "text": TOML}, "seed", "overrides", "until"
(hour or nil), "lang", "stages": [{"hour", "overrides", "policies": {faction: policy}, "gm": {"faction",
"hour", "orders": [[decision, order], ...]} | nil}]}``. A stage is a fork point: the campaign runs to its
hour (a day boundary), the world gets the stage's rule overrides and policies, the faction of ``gm``
gives the game master's orders at its decision time ``hour`` (:mod:`workers.server.gm_orders`), and the
campaign goes on from the same world, dice and ledger exactly as ``realmsim resume`` goes on from a
save file (agents/savefile.py).
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
import zlib
from typing import IO, Any

import msgpack
import msgspec

from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON
from sim.events import Event

CHUNK_EVENTS = 256
CHUNK_SECONDS = 0.1
POLICY_FIELD = {"kingdom": "kingdoms", "nation": "nations", "guild": "guilds", "convoy": "convoys"}


class StageError(Exception):
    """A fork stage that cannot be applied to the world it meets."""


class Streamer:
    """Ledger listener: sends events in chunks, with their chronicle line and factions; and the map's
    snapshots and the world's checkpoints when the campaign stands at a day boundary (:meth:`moment`)."""

    def __init__(self, out: IO[bytes], lang: str) -> None:
        self.out = out
        self.lang = lang
        self.model: Any = None
        self.buf: list[list[Any]] = []
        self.pending: list[Event] = []
        self.last_flush = time.monotonic()
        self.last_snap: dict[str, Any] | None = None
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
        # a season's summary at once (its map was sent when the campaign stood at the boundary)
        if ev.kind == "SeasonSummarized" or len(self.buf) >= CHUNK_EVENTS or time.monotonic() - self.last_flush >= CHUNK_SECONDS:
            self.flush()

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

    def moment(self, *, always: bool = False) -> None:
        """The campaign stands at a day boundary (or its end): the map's snapshot if the world changed
        since the last one (always at a season boundary, with the standings, and when ``always``), and
        the world's checkpoint at a season boundary before the end."""
        from sim.world import encode_world
        from workers.server.mapview import same_moment, snapshot, standings

        w = self.model.world
        snap = snapshot(w)
        season_start = w.now % HOURS_PER_SEASON == 0
        if season_start or always or w.now >= w.end:
            snap["standings"] = standings(w)
        elif same_moment(snap, self.last_snap):
            return
        self.flush()
        self.send(["state", w.now, w.now // HOURS_PER_SEASON, snap])
        self.last_snap = {k: v for k, v in snap.items() if k != "standings"}
        if season_start and w.now < w.end:
            self.send(["checkpoint", w.now, zlib.compress(encode_world(w), 6)])


def load(scenario: dict[str, Any]) -> Any:
    from scenarios.loader import builtin_names, load_scenario, load_scenario_text

    if "text" in scenario:
        return load_scenario_text(str(scenario["text"]), str(scenario.get("label", "<scenario>")))
    name = str(scenario.get("name", ""))
    if name not in builtin_names():  # never a path: only built-in names resolve
        raise ValueError(f"unknown built-in scenario {name!r}")
    return load_scenario(name)


def apply_stage(model: Any, stage: dict[str, Any]) -> Any:
    """The campaign's model rebuilt at the stage's hour with its overrides, policies and the game
    master's orders."""
    from agents.model import RealmModel
    from scenarios.loader import apply_overrides

    world = model.world
    when = f"fork at hour {world.now}"
    if stage.get("overrides"):
        world.config = apply_overrides(world.config, stage["overrides"], when)
    for faction, policy in (stage.get("policies") or {}).items():
        _faction_row(world, str(faction)).policy = str(policy)
    from workers.server.gm_orders import GameMasterOrders

    rebuilt = RealmModel(world, dice=model.dice, ledger=model.ledger, collect=False, explain=model.explain)
    # an earlier stage's orders whose hour is still to come go on with the rebuilt agents
    orders: list[GameMasterOrders] = [GameMasterOrders.install(rebuilt, gm.faction, gm.hour, gm.orders)
                                      for gm in getattr(model, "gm_orders", []) if not gm.reported and gm.hour >= world.now]
    gm = stage.get("gm")
    if gm:
        _faction_row(world, str(gm["faction"]))  # it exists
        orders.append(GameMasterOrders.install(rebuilt, str(gm["faction"]), int(gm["hour"]),
                                               [(str(d), str(o)) for d, o in gm["orders"]]))
    rebuilt.gm_orders = orders
    return rebuilt


def _faction_row(world: Any, faction: str) -> Any:
    kind, _, ident = faction.partition(":")
    part = {"kingdom": world.km, "nation": world.mn, "guild": world.gw, "convoy": world.cv}.get(kind)
    if part is None:
        raise StageError(f"fork: faction {faction!r}: this campaign has no {kind or 'such'} factions")
    table = getattr(part, POLICY_FIELD[kind])
    rows = table.values() if isinstance(table, dict) else table
    match = [r for r in rows if r.id == ident]
    if not match:
        raise StageError(f"fork: faction {faction!r} does not exist at hour {world.now}")
    return match[0]


def advance(model: Any, until: int | None, streamer: Streamer) -> None:
    """Run the campaign to ``until`` (default: its end) a day at a time, the map at each day boundary."""
    world = model.world
    end = world.end if until is None else min(int(until), world.end)
    day = (world.now // HOURS_PER_DAY + 1) * HOURS_PER_DAY
    while day < end:
        model.run(day)
        streamer.moment()
        _report_gm(model, streamer)
        day += HOURS_PER_DAY
    model.run(end)


def _report_gm(model: Any, streamer: Streamer, final: bool = False) -> None:
    """The game master's orders whose hour has passed (all of them at the end): what was given."""
    for gm in getattr(model, "gm_orders", []):
        if not gm.reported and (final or model.world.now > gm.hour):
            streamer.flush()
            streamer.send(["gm", gm.report()])


def run(recipe: dict[str, Any], out: IO[bytes]) -> None:
    from agents.campaign import finish, prepare_campaign
    from workers.server.mapview import static_map

    loaded = load(recipe["scenario"])
    lang = recipe.get("lang") or loaded.scenario.scenario.lang
    streamer = Streamer(out, lang)
    model = prepare_campaign(loaded, recipe.get("seed"), overrides=recipe.get("overrides") or None,
                             keep_ledger=False, collect=False, listeners=[streamer], explain=recipe.get("explain") is True)
    streamer.send(["map", static_map(model.world)])
    streamer.attach(model)
    streamer.flush()
    streamer.moment(always=True)
    for stage in sorted(recipe.get("stages") or [], key=lambda s: s["hour"]):
        advance(model, int(stage["hour"]), streamer)
        streamer.flush()
        _report_gm(model, streamer)
        model = apply_stage(model, stage)
        streamer.attach(model)
        streamer.moment(always=True)
    until = recipe.get("until")
    advance(model, None if until is None else int(until), streamer)
    res = finish(model)
    streamer.flush()
    streamer.moment(always=True)
    _report_gm(model, streamer, final=True)
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
