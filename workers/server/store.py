"""The server's records: campaigns, their ledgers and map snapshots, batches and their results.

An embedded SQLite database under the state directory (``--data-dir``), in both modes: with
``--redis`` the Redis workers run the batch jobs, but Redis here is a work queue whose keys expire
(results live a week) and which may be restarted without its data; the records a person comes back
to (a campaign's ledger, a batch's results) must outlive both, so they are copied here as they
arrive. One server process owns a data directory (a lock file says so).

All methods are synchronous and thread-safe (one connection, one lock); the web handlers call them
through :meth:`Store.call`, on a worker thread, so the event loop never waits on the disk.
"""

from __future__ import annotations

import fcntl
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import anyio.to_thread
import msgpack

P = ParamSpec("P")
T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    id TEXT PRIMARY KEY, created REAL NOT NULL, status TEXT NOT NULL, recipe BLOB NOT NULL,
    scenario TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', seed INTEGER NOT NULL, lang TEXT NOT NULL,
    parent TEXT, fork_season INTEGER, fork_hour INTEGER, started REAL, finished REAL,
    hour INTEGER NOT NULL DEFAULT 0, end_hour INTEGER NOT NULL DEFAULT 0, until_hour INTEGER,
    events INTEGER NOT NULL DEFAULT 0, summary TEXT, factions TEXT, ledger_sha256 TEXT, error TEXT,
    note TEXT, owner TEXT
);
CREATE TABLE IF NOT EXISTS events (
    campaign TEXT NOT NULL, seq INTEGER NOT NULL, t INTEGER NOT NULL, season INTEGER NOT NULL,
    kind TEXT NOT NULL, actor TEXT NOT NULL, factions TEXT NOT NULL, line TEXT, body BLOB NOT NULL,
    PRIMARY KEY (campaign, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS events_actor ON events (campaign, actor, seq);
CREATE INDEX IF NOT EXISTS events_kind ON events (campaign, kind, seq);
CREATE INDEX IF NOT EXISTS events_season ON events (campaign, season, seq);
CREATE TABLE IF NOT EXISTS maps (campaign TEXT PRIMARY KEY, body BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (
    campaign TEXT NOT NULL, hour INTEGER NOT NULL, season INTEGER NOT NULL, body BLOB NOT NULL,
    PRIMARY KEY (campaign, hour)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS standings (
    campaign TEXT NOT NULL, hour INTEGER NOT NULL, body BLOB NOT NULL,
    PRIMARY KEY (campaign, hour)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checkpoints (
    campaign TEXT NOT NULL, hour INTEGER NOT NULL, body BLOB NOT NULL,
    PRIMARY KEY (campaign, hour)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS plots (
    campaign TEXT NOT NULL, hour INTEGER NOT NULL, name TEXT NOT NULL, png BLOB NOT NULL,
    PRIMARY KEY (campaign, hour, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS batches (
    id TEXT PRIMARY KEY, created REAL NOT NULL, status TEXT NOT NULL, mode TEXT NOT NULL,
    plan BLOB NOT NULL, scenario TEXT NOT NULL, total INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0, dead INTEGER NOT NULL DEFAULT 0,
    started REAL, finished REAL, error TEXT, owner TEXT
);
CREATE TABLE IF NOT EXISTS batch_results (
    batch TEXT NOT NULL, seed INTEGER NOT NULL, ok INTEGER NOT NULL, result BLOB, error TEXT,
    PRIMARY KEY (batch, seed)
) WITHOUT ROWID;
"""

ACTIVE = ("queued", "running")
CAMPAIGN_TABLES = ("events", "snapshots", "standings", "checkpoints", "maps", "plots")  # what a campaign has besides its record
CAMPAIGN_FIELDS = ("id", "created", "status", "scenario", "title", "seed", "lang", "parent", "fork_season", "fork_hour", "started",
                   "finished", "hour", "end_hour", "until_hour", "events", "summary", "factions", "ledger_sha256",
                   "error", "note", "owner")
BATCH_FIELDS = ("id", "created", "status", "mode", "scenario", "total", "done", "dead", "started", "finished", "error",
                "owner")


class DataDirBusyError(RuntimeError):
    """Another server process already owns this data directory."""


class Store:
    def __init__(self, data_dir: Path) -> None:
        self.dir = data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        self._lockfile = open(data_dir / "server.lock", "a+")  # noqa: SIM115 - held for the store's life
        try:
            fcntl.flock(self._lockfile, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lockfile.close()
            raise DataDirBusyError(f"{data_dir} is in use by another realmsim server (its server.lock is held)") from None
        self.path = data_dir / "server.sqlite3"
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.lock = threading.Lock()
        with self.lock:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            # a data directory from before records had owners, or forks an hour
            for table, column in (("campaigns", "owner"), ("batches", "owner"), ("campaigns", "fork_hour")):
                if column not in {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {'INTEGER' if column == 'fork_hour' else 'TEXT'}")

    def close(self) -> None:
        with self.lock:
            self.db.close()
        self._lockfile.close()

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a store method on a worker thread."""
        return await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs))

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self.lock:
            return self.db.execute(sql, params).fetchall()

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> None:
        with self.lock:
            self.db.execute(sql, params)

    # ---- campaigns -------------------------------------------------------------------------------
    def add_campaign(self, rec: dict[str, Any], recipe: dict[str, Any]) -> None:
        self._exec(
            "INSERT INTO campaigns (id, created, status, recipe, scenario, title, seed, lang, parent, fork_season, "
            "fork_hour, end_hour, until_hour, owner) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (rec["id"], rec["created"], rec["status"], msgpack.packb(recipe, use_bin_type=True), rec["scenario"],
             rec.get("title", ""), rec["seed"], rec["lang"], rec.get("parent"), rec.get("fork_season"),
             rec.get("fork_hour"), rec.get("end_hour", 0), rec.get("until_hour"), rec.get("owner")),
        )

    def campaign(self, cid: str) -> dict[str, Any] | None:
        rows = self._rows(f"SELECT {', '.join(CAMPAIGN_FIELDS)} FROM campaigns WHERE id = ?", (cid,))
        return dict(rows[0]) if rows else None

    def recipe(self, cid: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT recipe FROM campaigns WHERE id = ?", (cid,))
        return msgpack.unpackb(rows[0]["recipe"], raw=False, strict_map_key=False) if rows else None

    def campaigns(self, limit: int = 100, status: str | None = None,
                  seen: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The newest campaigns (of ``status``; only those of no owner or of an owner in ``seen``, if given)."""
        where, params = _seen(seen)
        if status:
            where.append("status = ?")
            params.append(status)
        cond = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._rows(f"SELECT {', '.join(CAMPAIGN_FIELDS)} FROM campaigns {cond} ORDER BY created DESC LIMIT ?",
                          [*params, limit])
        return [dict(r) for r in rows]

    def active_campaigns(self) -> list[dict[str, Any]]:
        rows = self._rows(f"SELECT {', '.join(CAMPAIGN_FIELDS)} FROM campaigns WHERE status IN (?, ?) ORDER BY created",
                          ACTIVE)
        return [dict(r) for r in rows]

    def update_campaign(self, cid: str, **fields: Any) -> None:
        if not fields:
            return
        cols = ", ".join(f"{k} = ?" for k in fields)
        self._exec(f"UPDATE campaigns SET {cols} WHERE id = ?", [*fields.values(), cid])

    def reset_campaign(self, cid: str, note: str) -> None:
        """Forget what a run that did not finish produced, so that it can run again from the start."""
        with self.lock:
            self.db.execute("BEGIN")
            for table in CAMPAIGN_TABLES:
                self.db.execute(f"DELETE FROM {table} WHERE campaign = ?", (cid,))
            self.db.execute("UPDATE campaigns SET status = 'queued', hour = 0, events = 0, summary = NULL, factions = NULL, "
                            "started = NULL, error = NULL, note = ? WHERE id = ?", (note, cid))
            self.db.execute("COMMIT")

    def delete_campaign(self, cid: str) -> None:
        """Forget a campaign and everything it has (its ledger, maps, snapshots, plots)."""
        with self.lock:
            self.db.execute("BEGIN")
            for table in CAMPAIGN_TABLES:
                self.db.execute(f"DELETE FROM {table} WHERE campaign = ?", (cid,))
            self.db.execute("DELETE FROM campaigns WHERE id = ?", (cid,))
            self.db.execute("COMMIT")

    def add_events(self, cid: str, rows: Iterable[tuple[int, int, int, str, str, str, str | None, bytes]],
                   progress: dict[str, Any]) -> None:
        """Append a chunk of ledger events and the campaign's new progress, in one transaction."""
        cols = ", ".join(f"{k} = ?" for k in progress)
        with self.lock:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT OR REPLACE INTO events (campaign, seq, t, season, kind, actor, factions, line, body) "
                "VALUES (?,?,?,?,?,?,?,?,?)",
                [(cid, *r) for r in rows],
            )
            if progress:
                self.db.execute(f"UPDATE campaigns SET {cols} WHERE id = ?", [*progress.values(), cid])
            self.db.execute("COMMIT")

    def events(self, cid: str, *, after: int = -1, limit: int = 100, actor: str | None = None,
               kind: Sequence[str] = (), season: int | None = None, faction: str | None = None,
               tell: bool = False) -> list[sqlite3.Row]:
        where = ["campaign = ?", "seq > ?"]
        params: list[Any] = [cid, after]
        if actor:
            where.append("actor = ?")
            params.append(actor)
        if kind:
            where.append(f"kind IN ({', '.join('?' * len(kind))})")
            params.extend(kind)
        if season is not None:
            where.append("season = ?")
            params.append(season)
        if faction:
            where.append("instr(factions, ?) > 0")
            params.append(f",{faction},")
        if tell:  # what a reader follows: chronicle lines and season summaries
            where.append("(line IS NOT NULL OR kind IN ('SeasonSummarized', 'CampaignEnded'))")
        params.append(limit)
        return self._rows(f"SELECT seq, t, season, kind, actor, factions, line, body FROM events WHERE {' AND '.join(where)} "
                          "ORDER BY seq LIMIT ?", params)

    def ledger(self, cid: str) -> list[bytes]:
        """Every stored event of the campaign (JSON), in order."""
        return [r["body"] for r in self._rows("SELECT body FROM events WHERE campaign = ? ORDER BY seq", (cid,))]

    def season_events(self, cid: str) -> list[bytes]:
        rows = self._rows("SELECT body FROM events WHERE campaign = ? AND kind IN ('SeasonSummarized', 'CampaignEnded') "
                          "ORDER BY seq", (cid,))
        return [r["body"] for r in rows]

    def set_map(self, cid: str, body: bytes) -> None:
        self._exec("INSERT OR REPLACE INTO maps (campaign, body) VALUES (?, ?)", (cid, body))

    def map(self, cid: str) -> bytes | None:
        rows = self._rows("SELECT body FROM maps WHERE campaign = ?", (cid,))
        return rows[0]["body"] if rows else None

    def add_snapshot(self, cid: str, hour: int, season: int, body: bytes) -> None:
        """A snapshot of the map (JSON), kept compressed: a campaign of 40 seasons has one for every day
        that changed something."""
        self._exec("INSERT OR REPLACE INTO snapshots (campaign, hour, season, body) VALUES (?,?,?,?)",
                   (cid, hour, season, zlib.compress(body, 6)))

    def snapshot(self, cid: str, hour: int | None = None) -> tuple[int, int, bytes] | None:
        """The last snapshot at or before ``hour`` (default: the last one), its JSON."""
        if hour is None:
            rows = self._rows("SELECT hour, season, body FROM snapshots WHERE campaign = ? ORDER BY hour DESC LIMIT 1", (cid,))
        else:
            rows = self._rows("SELECT hour, season, body FROM snapshots WHERE campaign = ? AND hour <= ? "
                              "ORDER BY hour DESC LIMIT 1", (cid, hour))
        return (rows[0]["hour"], rows[0]["season"], _json_of(rows[0]["body"])) if rows else None

    def add_standings(self, cid: str, hour: int, body: bytes) -> None:
        """Every faction's score (JSON) at ``hour`` (a season's start, a fork point, the end)."""
        self._exec("INSERT OR REPLACE INTO standings (campaign, hour, body) VALUES (?,?,?)", (cid, hour, body))

    def standings(self, cid: str, hour: int | None = None) -> tuple[int, bytes] | None:
        """The last standings at or before ``hour`` (default: the last ones): (their hour, JSON)."""
        if hour is None:
            rows = self._rows("SELECT hour, body FROM standings WHERE campaign = ? ORDER BY hour DESC LIMIT 1", (cid,))
        else:
            rows = self._rows("SELECT hour, body FROM standings WHERE campaign = ? AND hour <= ? ORDER BY hour DESC LIMIT 1",
                              (cid, hour))
        return (rows[0]["hour"], rows[0]["body"]) if rows else None

    def snapshot_hours(self, cid: str) -> list[int]:
        return [r["hour"] for r in self._rows("SELECT hour FROM snapshots WHERE campaign = ? ORDER BY hour", (cid,))]

    def add_checkpoint(self, cid: str, hour: int, body: bytes) -> None:
        """The world at a season boundary (zlib-compressed msgpack, as the campaign process sends it)."""
        self._exec("INSERT OR REPLACE INTO checkpoints (campaign, hour, body) VALUES (?,?,?)", (cid, hour, body))

    def checkpoint(self, cid: str, hour: int) -> bytes | None:
        """The world's msgpack at ``hour`` exactly, if the campaign stood there."""
        rows = self._rows("SELECT body FROM checkpoints WHERE campaign = ? AND hour = ?", (cid, hour))
        return zlib.decompress(rows[0]["body"]) if rows else None

    def plots(self, cid: str, hour: int) -> dict[str, bytes]:
        rows = self._rows("SELECT name, png FROM plots WHERE campaign = ? AND hour = ?", (cid, hour))
        return {r["name"]: r["png"] for r in rows}

    def set_plots(self, cid: str, hour: int, plots: dict[str, bytes]) -> None:
        with self.lock:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM plots WHERE campaign = ?", (cid,))
            self.db.executemany("INSERT INTO plots (campaign, hour, name, png) VALUES (?,?,?,?)",
                                [(cid, hour, n, png) for n, png in plots.items()])
            self.db.execute("COMMIT")

    # ---- batches ---------------------------------------------------------------------------------
    def add_batch(self, rec: dict[str, Any], plan_record: bytes) -> None:
        self._exec("INSERT INTO batches (id, created, status, mode, plan, scenario, total, owner) VALUES (?,?,?,?,?,?,?,?)",
                   (rec["id"], rec["created"], rec["status"], rec["mode"], plan_record, rec["scenario"], rec["total"],
                    rec.get("owner")))

    def batch(self, bid: str) -> dict[str, Any] | None:
        rows = self._rows(f"SELECT {', '.join(BATCH_FIELDS)} FROM batches WHERE id = ?", (bid,))
        return dict(rows[0]) if rows else None

    def batch_plan(self, bid: str) -> bytes | None:
        rows = self._rows("SELECT plan FROM batches WHERE id = ?", (bid,))
        return rows[0]["plan"] if rows else None

    def batches(self, limit: int = 100, seen: Sequence[str] | None = None) -> list[dict[str, Any]]:
        where, params = _seen(seen)
        cond = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._rows(f"SELECT {', '.join(BATCH_FIELDS)} FROM batches {cond} ORDER BY created DESC LIMIT ?",
                          [*params, limit])
        return [dict(r) for r in rows]

    def delete_batch(self, bid: str) -> None:
        """Forget a batch and its results."""
        with self.lock:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM batch_results WHERE batch = ?", (bid,))
            self.db.execute("DELETE FROM batches WHERE id = ?", (bid,))
            self.db.execute("COMMIT")

    def active_batches(self) -> list[dict[str, Any]]:
        rows = self._rows(f"SELECT {', '.join(BATCH_FIELDS)} FROM batches WHERE status IN (?, ?) ORDER BY created", ACTIVE)
        return [dict(r) for r in rows]

    def update_batch(self, bid: str, **fields: Any) -> None:
        if fields:
            self._exec(f"UPDATE batches SET {', '.join(f'{k} = ?' for k in fields)} WHERE id = ?", [*fields.values(), bid])

    def add_batch_results(self, bid: str, outcomes: Iterable[tuple[int, bool, dict[str, Any] | None, str]]) -> tuple[int, int]:
        """Record job outcomes (a result is never replaced by a failure); returns the new (done, dead)."""
        with self.lock:
            self.db.execute("BEGIN")
            for seed, ok, result, error in outcomes:
                if ok:
                    self.db.execute("INSERT OR REPLACE INTO batch_results (batch, seed, ok, result, error) VALUES (?,?,1,?,'')",
                                    (bid, seed, msgpack.packb(result, use_bin_type=True)))
                else:
                    self.db.execute("INSERT OR IGNORE INTO batch_results (batch, seed, ok, result, error) VALUES (?,?,0,NULL,?)",
                                    (bid, seed, error))
            done, dead = self._counts(bid)
            self.db.execute("UPDATE batches SET done = ?, dead = ? WHERE id = ?", (done, dead, bid))
            self.db.execute("COMMIT")
        return done, dead

    def _counts(self, bid: str) -> tuple[int, int]:
        row = self.db.execute("SELECT COALESCE(SUM(ok), 0), COUNT(*) - COALESCE(SUM(ok), 0) FROM batch_results WHERE batch = ?",
                              (bid,)).fetchone()
        return int(row[0]), int(row[1])

    def batch_results(self, bid: str) -> list[dict[str, Any]]:
        rows = self._rows("SELECT result FROM batch_results WHERE batch = ? AND ok = 1 ORDER BY seed", (bid,))
        return [msgpack.unpackb(r["result"], raw=False, strict_map_key=False) for r in rows]

    def batch_failures(self, bid: str, limit: int = 20) -> list[tuple[int, str]]:
        rows = self._rows("SELECT seed, error FROM batch_results WHERE batch = ? AND ok = 0 ORDER BY seed LIMIT ?", (bid, limit))
        return [(r["seed"], r["error"]) for r in rows]

    def batch_seeds_done(self, bid: str) -> set[int]:
        return {r["seed"] for r in self._rows("SELECT seed FROM batch_results WHERE batch = ?", (bid,))}


def _seen(seen: Sequence[str] | None) -> tuple[list[str], list[Any]]:
    """The condition for records their owner lets a request see (workers.server.auth): all when ``seen`` is
    None, else those of no owner and those of an owner in ``seen``."""
    if seen is None:
        return [], []
    return [f"(owner IS NULL OR owner IN ({', '.join('?' * len(seen))}))" if seen else "owner IS NULL"], list(seen)


def _json_of(body: bytes) -> bytes:
    """A stored snapshot's JSON (compressed since snapshots are daily; a data directory from before holds JSON)."""
    return body if body[:1] == b"{" else zlib.decompress(body)


def now() -> float:
    return time.time()

