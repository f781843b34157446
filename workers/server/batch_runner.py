"""Batches of the server: many seeds of one scenario, on the local pool or on Redis workers.

Local (no ``--redis``): one batch at a time runs ``workers.local.run_local`` in a process of its own
(:mod:`workers.server.batch_child`); the others wait their turn. Each result is stored as it comes, so
a batch interrupted by a server restart goes on with the seeds that have none.

Redis (``--redis URL``): the batch is submitted to the stream the ``realmsim worker`` processes read
(``RedisQueue.submit``), and a thread waits for it with ``wait_batch`` (which resubmits what a
restarted Redis lost); the results are copied into the store when it completes, so they outlive
Redis's expiry. Cancelling deletes the batch's entries that no worker has finished; a job a worker
is running finishes, and its result stays in Redis only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
from collections import deque
from typing import Any

import msgpack

from workers.batch import BatchPlan
from workers.server.feed import ProgressFeed
from workers.server.runner import child_env
from workers.server.store import Store, now

log = logging.getLogger("realmsim.server")


class _Stop(Exception):
    """Raised from wait_batch's progress callback to stop waiting (cancel or server stop)."""


class BatchRunner:
    def __init__(self, store: Store, *, redis: str | None, prefix: str, workers: int) -> None:
        self.store = store
        self.redis = redis
        self.prefix = prefix
        self.workers = max(1, workers)
        self.queue: deque[str] = deque()
        self.feeds: dict[str, ProgressFeed] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.procs: dict[str, asyncio.subprocess.Process] = {}
        self.stop_flags: dict[str, threading.Event] = {}
        self.cancelled: set[str] = set()
        self.stopping = False
        self._local_busy = False
        self.q: Any = None
        if redis:
            from workers.queue import RedisQueue

            self.q = RedisQueue(redis, prefix=prefix)  # a bad URL or a Redis that cannot be reached stops here

    @property
    def redacted(self) -> str:
        from workers.queue import redact

        return redact(self.redis or "")

    @property
    def mode(self) -> str:
        return "redis" if self.redis else "local"

    # ---- lifecycle -------------------------------------------------------------------------------
    async def start(self) -> None:
        for rec in await self.store.call(self.store.active_batches):
            self._feed(rec)
            if rec["mode"] == "redis" and self.q is not None:
                self._launch(rec["id"])
            elif rec["mode"] == "local" and self.q is None:
                self.queue.append(rec["id"])
            else:
                await self.store.call(self.store.update_batch, rec["id"], status="failed", finished=now(),
                                      error=f"a {rec['mode']} batch, and this server runs {self.mode} batches")
        self._pump()

    async def drain(self, timeout: float) -> None:
        self.stopping = True
        for flag in self.stop_flags.values():
            flag.set()
        for proc in list(self.procs.values()):
            _kill_group(proc)  # a local batch goes on with the seeds it lacks at the next start
        if self.tasks:
            await asyncio.wait(list(self.tasks.values()), timeout=timeout)

    def _feed(self, rec: dict[str, Any]) -> ProgressFeed:
        feed = ProgressFeed({"id": rec["id"], "status": rec["status"], "total": rec["total"], "done": rec["done"],
                             "dead": rec["dead"]})
        self.feeds[rec["id"]] = feed
        return feed

    # ---- submit / cancel -------------------------------------------------------------------------
    async def submit(self, plan: BatchPlan, owner: str | None = None) -> dict[str, Any]:
        rec = {"id": plan.id, "created": now(), "status": "queued", "mode": self.mode, "scenario": plan.name,
               "total": len(plan), "done": 0, "dead": 0, "owner": owner}
        await self.store.call(self.store.add_batch, rec, plan.to_record())
        self._feed(rec)
        if self.q is not None:
            self._launch(plan.id)
        else:
            self.queue.append(plan.id)
            self._pump()
        return rec

    async def cancel(self, bid: str) -> bool:
        if bid in self.queue:
            self.queue.remove(bid)
            await self._end(bid, "cancelled", error="cancelled by a request")
            return True
        if bid not in self.tasks:
            return False
        self.cancelled.add(bid)
        if bid in self.stop_flags:
            self.stop_flags[bid].set()
        if bid in self.procs:
            _kill_group(self.procs[bid])
        await asyncio.wait([self.tasks[bid]], timeout=30)
        return True

    def _launch(self, bid: str) -> None:
        runner = self._run_redis if self.q is not None else self._run_local
        self.tasks[bid] = asyncio.create_task(self._guard(bid, runner), name=f"batch {bid}")

    def _pump(self) -> None:
        if self.q is None and not self.stopping and not self._local_busy and self.queue:
            self._local_busy = True
            self._launch(self.queue.popleft())

    async def _guard(self, bid: str, runner: Any) -> None:
        try:
            await runner(bid)
        except Exception as e:  # noqa: BLE001 - recorded on the batch
            log.exception("realmsim.server: batch %s failed in the server", bid)
            await self._end(bid, "failed", error=f"server error: {type(e).__name__}: {e}")
        finally:
            self.tasks.pop(bid, None)
            self.procs.pop(bid, None)
            self.stop_flags.pop(bid, None)
            self.cancelled.discard(bid)
            if self.q is None:
                self._local_busy = False
                self._pump()

    async def _plan(self, bid: str) -> BatchPlan:
        record = await self.store.call(self.store.batch_plan, bid)
        assert record is not None
        return BatchPlan.from_record(record, f"batch {bid}")

    async def _end(self, bid: str, status: str, **fields: Any) -> None:
        await self.store.call(self.store.update_batch, bid, status=status, finished=now(), **fields)
        rec = await self.store.call(self.store.batch, bid)
        feed = self.feeds.pop(bid, None)
        if feed is not None and rec is not None:
            feed.finish(status=rec["status"], done=rec["done"], dead=rec["dead"], error=rec["error"])

    async def _finish(self, bid: str) -> None:
        rec = await self.store.call(self.store.batch, bid)
        assert rec is not None
        if rec["done"] == rec["total"]:
            await self._end(bid, "finished")
        else:
            await self._end(bid, "incomplete", error=f"{rec['dead']} of {rec['total']} jobs failed")

    # ---- local pool ------------------------------------------------------------------------------
    async def _run_local(self, bid: str) -> None:
        plan = await self._plan(bid)
        have = await self.store.call(self.store.batch_seeds_done, bid)
        todo = BatchPlan(plan.template, [s for s in plan.seeds if s not in have], id=plan.id, name=plan.name,
                         created=plan.created)
        await self.store.call(self.store.update_batch, bid, status="running", started=now())
        feed = self.feeds.get(bid)
        if feed:
            feed.update(status="running")
        if todo.seeds:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "workers.server.batch_child", stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, env=child_env(), start_new_session=True)
            self.procs[bid] = proc
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(msgpack.packb([todo.to_record(), self.workers], use_bin_type=True))
            await proc.stdin.drain()
            unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=1 << 30)
            while True:
                chunk = await proc.stdout.read(1 << 16)
                if not chunk:
                    break
                unpacker.feed(chunk)
                got = [(seed, bool(ok), result, error or "") for seed, ok, result, error in unpacker]
                if got:
                    done, dead = await self.store.call(self.store.add_batch_results, bid, got)
                    if feed:
                        feed.update(done=done, dead=dead)
            code = await proc.wait()
            if bid in self.cancelled:
                await self._end(bid, "cancelled", error="cancelled by a request")
                return
            if self.stopping:
                await self.store.call(self.store.update_batch, bid, status="queued")
                return
            if code != 0:
                await self._end(bid, "failed", error=f"the batch process died (exit status {code})")
                return
        await self._finish(bid)

    # ---- Redis workers ---------------------------------------------------------------------------
    async def _run_redis(self, bid: str) -> None:
        from workers.queue import wait_batch

        plan = await self._plan(bid)
        flag = self.stop_flags.setdefault(bid, threading.Event())
        feed = self.feeds.get(bid)
        loop = asyncio.get_running_loop()
        rec = await self.store.call(self.store.batch, bid)
        if rec and rec["status"] == "queued":
            await asyncio.to_thread(self.q.submit, plan)
            await self.store.call(self.store.update_batch, bid, status="running", started=now())
        if feed:
            feed.update(status="running")
        last = [(-1, -1)]

        def progress(done: int, dead: int) -> None:
            if flag.is_set():
                raise _Stop
            if (done, dead) != last[0]:
                last[0] = (done, dead)
                self.store.update_batch(bid, done=done, dead=dead)
                if feed:
                    loop.call_soon_threadsafe(lambda: feed.update(done=done, dead=dead))

        try:
            st = await asyncio.to_thread(wait_batch, self.q, plan, on_progress=progress, poll=0.1)
        except _Stop:
            if bid in self.cancelled:
                removed = await asyncio.to_thread(self._delete_entries, bid)
                log.info("realmsim.server: batch %s cancelled; %d job(s) removed from the stream", bid, removed)
                await self._end(bid, "cancelled", error="cancelled by a request")
            return
        keys = plan.keys()
        outcomes: list[tuple[int, bool, dict[str, Any] | None, str]] = []
        for seed, key in zip(plan.seeds, keys):
            if key in st.results:
                outcomes.append((seed, True, st.results[key], ""))
        outcomes += [(seed, False, None, err) for seed, err in st.dead_seeds()]
        await self.store.call(self.store.add_batch_results, bid, outcomes)
        await self._finish(bid)

    def _delete_entries(self, bid: str) -> int:
        """Delete the batch's jobs from the stream (those not yet finished): no worker starts them."""
        r, stream = self.q.r, self.q.keys.stream
        mine = bid.encode()
        removed = 0
        start = "-"
        while True:
            entries = r.xrange(stream, min=start, max="+", count=1000)
            if not entries:
                return removed
            ids = [eid for eid, fields in entries if fields.get(b"batch") == mine]
            if ids:
                removed += int(r.xdel(stream, *ids))
            last = entries[-1][0].decode()
            ms, _, n = last.partition("-")
            start = f"{ms}-{int(n) + 1}"
            if len(entries) < 1000:
                return removed


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
