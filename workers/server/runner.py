"""Campaigns run in worker processes, never in the server's event loop.

:class:`CampaignRunner` keeps a queue of campaigns and runs at most ``max_campaigns`` at once, each
in its own process (:mod:`workers.server.campaign_child`, one process per campaign, one kept
started ahead so that a new campaign does not wait for the engine's imports). A process streams its
ledger back in msgpack chunks; the runner stores each chunk (events, map snapshots, progress) and
hands it to the campaign's :class:`~workers.server.feed.LedgerFeed` for its SSE clients.

A campaign that was queued or running when the server stopped runs again from its start when the
server starts again (its recipe is in the store; the run is deterministic, so it produces the same
ledger). SIGTERM: :meth:`CampaignRunner.drain` lets running campaigns finish for a while, then stops
their processes and leaves them queued for the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from collections import deque
from pathlib import Path
from typing import Any

import msgpack

from workers.server.feed import LedgerFeed, sse
from workers.server.store import Store, now

log = logging.getLogger("realmsim.server")
_ROOT = Path(__file__).resolve().parents[2]
SEASON_KINDS = ("SeasonSummarized", "CampaignEnded")
RERUN_NOTE = "the server stopped while it ran; it ran again from the start"


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


class _Process:
    """A started campaign process that has said it is ready."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=256 << 20)

    @classmethod
    async def start(cls) -> _Process:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "workers.server.campaign_child",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=child_env(), start_new_session=True,
        )
        p = cls(proc)
        msg = await p.next()
        if msg != ["ready"]:
            await p.kill()
            raise RuntimeError(f"campaign process did not start (said {msg!r}, exit status {proc.returncode})")
        return p

    async def next(self) -> Any:
        """The next message, or None when the process has closed its output."""
        assert self.proc.stdout is not None
        while True:
            for msg in self.unpacker:
                return msg
            chunk = await self.proc.stdout.read(1 << 16)
            if not chunk:
                return None
            self.unpacker.feed(chunk)

    async def send(self, obj: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(msgpack.packb(obj, use_bin_type=True))
        await self.proc.stdin.drain()

    async def kill(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()


class CampaignRunner:
    def __init__(self, store: Store, *, max_campaigns: int, queue_limit: int) -> None:
        self.store = store
        self.max_campaigns = max(1, max_campaigns)
        self.queue_limit = queue_limit
        self.queue: deque[str] = deque()
        self.running: dict[str, tuple[asyncio.Task[None], _Process | None]] = {}
        self.feeds: dict[str, LedgerFeed] = {}
        self.views: dict[str, bytes] = {}  # campaign id -> its encoded GET answer (see campaigns.py)
        self.cancelled: set[str] = set()
        self.stopping = False
        self._spare: asyncio.Task[_Process] | None = None
        self.used = False  # no process is started ahead before the first campaign
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---- lifecycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        for rec in await self.store.call(self.store.active_campaigns):
            if rec["status"] == "running":
                await self.store.call(self.store.reset_campaign, rec["id"], RERUN_NOTE)
                log.info("realmsim.server: campaign %s runs again from the start (the server stopped while it ran)", rec["id"])
            self.queue.append(rec["id"])
            self.feeds[rec["id"]] = LedgerFeed()
            self.used = True
        self._pump()

    async def drain(self, timeout: float) -> None:
        """Stop taking campaigns from the queue; let running ones finish for ``timeout`` seconds, then
        stop them (they stay queued and run again at the next start)."""
        self.stopping = True
        tasks = [t for t, _ in self.running.values()]
        if tasks:
            log.info("realmsim.server: waiting up to %.0f s for %d running campaign(s)", timeout, len(tasks))
            _, pending = await asyncio.wait(tasks, timeout=timeout)
            for cid, (task, proc) in list(self.running.items()):
                if task in pending:
                    log.info("realmsim.server: stopping campaign %s; it will run again at the next start", cid)
                    if proc is not None:
                        await proc.kill()
                    await asyncio.wait([task], timeout=5)
        spare, self._spare = self._spare, None
        if spare is not None:
            if spare.done() and not spare.cancelled() and spare.exception() is None:
                await spare.result().kill()
            else:
                spare.cancel()  # a process still starting exits by itself when it finds its stdin closed
        for feed in self.feeds.values():
            if not feed.done:
                feed.finish({"status": "interrupted", "reason": "the server is stopping"})

    # ---- queue ---------------------------------------------------------------------------------
    def queued_count(self) -> int:
        return len(self.queue)

    def submit(self, cid: str) -> None:
        self.used = True
        self.feeds[cid] = LedgerFeed()
        self.queue.append(cid)
        self._pump()

    def position(self, cid: str) -> int | None:
        try:
            return self.queue.index(cid) + 1
        except ValueError:
            return None

    async def cancel(self, cid: str) -> bool:
        """Cancel a queued or running campaign; False if it is neither."""
        if cid in self.queue:
            self.queue.remove(cid)
            await self._end(cid, "cancelled", error="cancelled by a request")
            return True
        if cid in self.running:
            self.cancelled.add(cid)
            _, proc = self.running[cid]
            if proc is not None:
                await proc.kill()
            return True
        return False

    async def wait_stopped(self, cid: str, timeout: float) -> bool:
        """Wait until the campaign's task has ended (it writes nothing more); False if it still runs."""
        entry = self.running.get(cid)
        if entry is not None:
            await asyncio.wait([entry[0]], timeout=timeout)
        return cid not in self.running

    def _pump(self) -> None:
        while not self.stopping and self.queue and len(self.running) < self.max_campaigns:
            cid = self.queue.popleft()
            task = asyncio.create_task(self._run(cid), name=f"campaign {cid}")
            self.running[cid] = (task, None)
            for waiting in self.queue:  # their queue positions changed
                self.views.pop(waiting, None)
        if not self.stopping and self._spare is None and self.used:  # from the first campaign on, one started ahead
            self._spare = asyncio.create_task(_Process.start())

    async def _process(self) -> _Process:
        spare, self._spare = self._spare, None
        if spare is not None:
            try:
                return await spare
            except Exception:  # noqa: BLE001 - a spare that failed to start: try once more below
                log.warning("realmsim.server: a spare campaign process failed to start", exc_info=True)
        return await _Process.start()

    # ---- one campaign --------------------------------------------------------------------------
    async def _run(self, cid: str) -> None:
        proc: _Process | None = None
        try:
            recipe = await self.store.call(self.store.recipe, cid)
            if recipe is None:
                return
            proc = await self._process()
            self.running[cid] = (self.running[cid][0], proc)
            self._pump()  # start the next spare while this campaign runs
            await self.store.call(self.store.update_campaign, cid, status="running", started=now())
            self.views.pop(cid, None)
            await proc.send(recipe)
            await self._follow(cid, proc)
        except Exception as e:  # noqa: BLE001 - recorded on the campaign, never raised into the loop
            log.exception("realmsim.server: campaign %s failed in the server", cid)
            await self._end(cid, "failed", error=f"server error: {type(e).__name__}: {e}")
        finally:
            if proc is not None:
                await proc.kill()
            self.running.pop(cid, None)
            self.cancelled.discard(cid)
            if not self.stopping:
                self._pump()

    async def _follow(self, cid: str, proc: _Process) -> None:
        feed = self.feeds.setdefault(cid, LedgerFeed())
        while True:
            msg = await proc.next()
            if msg is None:
                code = await proc.proc.wait()
                if cid in self.cancelled:
                    await self._end(cid, "cancelled", error="cancelled by a request")
                elif self.stopping:
                    await self.store.call(self.store.reset_campaign, cid, RERUN_NOTE)
                    self.views.pop(cid, None)
                else:
                    await self._end(cid, "failed", error=f"the campaign process died (exit status {code})")
                return
            what = msg[0]
            if what == "events":
                await self._ingest(cid, feed, msg[1])
            elif what == "state":
                _, hour, season, snap = msg
                table = snap.pop("standings", None)
                if table is not None:
                    await self.store.call(self.store.add_standings, cid, int(hour), json.dumps(table).encode())
                await self.store.call(self.store.add_snapshot, cid, int(hour), int(season), json.dumps(snap).encode())
            elif what == "checkpoint":
                await self.store.call(self.store.add_checkpoint, cid, int(msg[1]), bytes(msg[2]))
            elif what == "gm":
                from workers.server.gm_orders import note

                rec = await self.store.call(self.store.campaign, cid)
                old = (rec or {}).get("note")
                await self.store.call(self.store.update_campaign, cid, note=f"{old}; {note(msg[1])}" if old else note(msg[1]))
                self.views.pop(cid, None)
            elif what == "map":
                await self.store.call(self.store.set_map, cid, json.dumps(msg[1]).encode())
                await self.store.call(self.store.update_campaign, cid, end_hour=int(msg[1]["end"]))
            elif what == "done":
                d = msg[1]
                status = "finished" if d["hour"] >= d["end"] else "stopped"
                # (the per-faction results stay those of the ledger's last SeasonSummarized/CampaignEnded)
                await self._end(cid, status, hour=d["hour"], events=d["events"], summary=json.dumps(d["summary"]),
                                ledger_sha256=d["ledger_sha256"])
                return
            elif what == "error":
                log.warning("realmsim.server: campaign %s failed: %s\n%s", cid, msg[1], msg[2])
                await self._end(cid, "failed", error=str(msg[1]))
                return

    async def _ingest(self, cid: str, feed: LedgerFeed, chunk: list[list[Any]]) -> None:
        rows, frames, tell = [], [], []
        factions_json = None
        for seq, t, season, kind, actor, facs, line, body in chunk:
            extra = {"chronicle": line, "factions": [f for f in facs.split(",") if f]}
            full = body[:-1] + b"," + json.dumps(extra, ensure_ascii=False, separators=(",", ":")).encode()[1:]
            rows.append((seq, t, season, kind, actor, facs, line, full))
            frames.append(sse("ledger", full, seq))
            tell.append(line is not None or kind in SEASON_KINDS)
            if kind in SEASON_KINDS:
                factions_json = json.dumps(json.loads(body)["data"].get("factions", {}))
        last = chunk[-1]
        progress: dict[str, Any] = {"hour": last[1], "events": last[0] + 1}
        if factions_json is not None:
            progress["factions"] = factions_json
        await self.store.call(self.store.add_events, cid, rows, progress)
        self.views.pop(cid, None)
        feed.extend(frames, tell)

    async def _end(self, cid: str, status: str, **fields: Any) -> None:
        await self.store.call(self.store.update_campaign, cid, status=status, finished=now(), **fields)
        self.views.pop(cid, None)
        rec = await self.store.call(self.store.campaign, cid)
        feed = self.feeds.pop(cid, None)
        if feed is not None:
            feed.finish(end_message(rec or {"id": cid, "status": status}))


def end_message(rec: dict[str, Any]) -> dict[str, Any]:
    return {"id": rec.get("id"), "status": rec.get("status"), "events": rec.get("events"), "hour": rec.get("hour"),
            "ledger_sha256": rec.get("ledger_sha256"), "error": rec.get("error")}
