"""A Redis Streams worker: ``python -m workers.worker --redis URL [--burst]`` or ``realmsim worker``.

The loop: claim stale jobs of dead or stalled workers with XAUTOCLAIM (idle longer than
``--min-idle``; looked for a few times per ``--min-idle``, at most every second), else read new ones
with XREADGROUP; run each with :func:`workers.job.run_job`; store every result only if absent, then
acknowledge and delete its entry, in one Lua script (atomic).

- How many entries one read takes adapts to the jobs' length (about 50 ms of work per read, at most
  ``max_count``), so no-op jobs go by the hundred and campaign jobs one at a time (two workers share
  a batch of slow jobs evenly).
- While it holds entries, a heartbeat thread re-claims them (XCLAIM JUSTID, which resets their idle
  time without counting a delivery), so a long job is never taken for a stale one.
- A job that raises is put back (a new entry carrying its attempt count and error) until it has been
  delivered ``max_deliveries`` times; then it goes to the dead-letter stream with its traceback. A
  job whose workers keep dying is dead-lettered the same way when its delivery count passes the limit.
- The result of a finished job is kept in memory until Redis has it: connection errors are logged
  and retried with backoff, never lose a job.
- SIGTERM (or a first Ctrl-C): finish the current job, put back the entries read but not started,
  then exit.
- ``--burst``: exit when the queue has nothing left: no new entries and no pending ones (a pending
  entry of a worker that died is claimed once it is stale, so a burst worker also finishes those).

Operational lines go through ``logging`` (logger ``realmsim.worker``); domain events never do.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any

import redis

from workers.batch import ServiceError, UsageError
from workers.job import preload, run_job
from workers.queue import (
    CONNECTION_ERRORS,
    DEFAULT_PREFIX,
    DEFAULT_TTL,
    GROUP,
    STORE_LUA,
    Keys,
    connect,
    is_nogroup,
    redact,
)

log = logging.getLogger("realmsim.worker")

# replies that say "not now" (out of memory, a read-only replica, a busy script…): wait and retry
TRANSIENT = (
    redis.exceptions.OutOfMemoryError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.MasterDownError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
)


def brief(e: Exception) -> str:
    """An error in one line, without the pipeline's echo of the command (a whole Lua script)."""
    msg = str(e)
    if "caused error: " in msg:
        msg = msg.split("caused error: ", 1)[1]
    return f"{type(e).__name__}: {msg}"


def is_transient(e: Exception) -> bool:
    return isinstance(e, TRANSIENT) or "BUSY Redis is busy" in str(e)

LOG_FORMAT = "%(asctime)s realmsim.worker[%(process)d] %(levelname)s %(message)s"


@dataclass
class Entry:
    id: bytes
    fields: dict[bytes, bytes]
    deliveries: int  # this delivery included, and the tries of the entries it was put back from

    @property
    def payload(self) -> bytes:
        return self.fields.get(b"job", b"")

    @property
    def key(self) -> str:
        return self.fields.get(b"key", b"").decode()

    @property
    def batch(self) -> str:
        return self.fields.get(b"batch", b"").decode()

    @property
    def attempts(self) -> int:
        try:
            return int(self.fields.get(b"attempts", b"0"))
        except ValueError:
            return 0


@dataclass
class Outcome:
    entry: Entry
    kind: str  # "ok" | "skip" (result existed) | "fail" | "dead" | "release"
    value: bytes = b""
    error: str = ""
    tb: str = ""


class Worker:
    def __init__(
        self,
        url: str,
        *,
        prefix: str = DEFAULT_PREFIX,
        name: str | None = None,
        min_idle: float = 30.0,
        max_deliveries: int = 3,
        block: float = 1.0,
        burst: bool = False,
        max_count: int = 500,
        max_jobs: int | None = None,
        ttl: int = DEFAULT_TTL,
        window: float = 0.05,
    ) -> None:
        if max_deliveries < 1:
            raise UsageError(f"--max-deliveries {max_deliveries}: expected an integer >= 1")
        if min_idle <= 0:
            raise UsageError(f"--min-idle {min_idle:g}: expected a number of seconds > 0")
        if block <= 0:
            raise UsageError(f"--block {block:g}: expected a number of seconds > 0")
        self.url = url
        self.keys = Keys(prefix)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.min_idle_ms = max(1, int(min_idle * 1000))
        self.max_deliveries = max_deliveries
        self.block_ms = max(1, int(block * 1000))
        self.burst = burst
        self.max_count = max(1, max_count)
        self.max_jobs = max_jobs
        self.ttl = ttl
        self.window = window
        # redis-py 8 sets a 5 s socket timeout by default; a blocking XREADGROUP needs more.
        self.r: Any = connect(url, socket_timeout=block + 10.0)  # replies are bytes
        self.hb: Any = connect(url, socket_timeout=10.0, check=False)
        self.stopping = threading.Event()
        self.processed = 0  # jobs run or found done by this worker
        self._per_job = 0.05  # moving average of a job's seconds (guess: a short campaign)
        self._cursor = "0-0"
        # Nothing can turn stale sooner than min_idle after it was last seen: look for stale entries
        # (XAUTOCLAIM) a few times per min_idle (at most every second), not before every read.
        self._claim_every = min(1.0, min_idle / 4)
        self._next_claim = 0.0
        self._held: list[bytes] = []
        self._held_lock = threading.Lock()
        self._unsaved: list[Outcome] = []
        self._backoff = 0.0

    # ---- public ------------------------------------------------------------------------------
    def stop(self, *_: Any) -> None:
        """Finish the current job, then exit (SIGTERM)."""
        if not self.stopping.is_set():
            log.info("worker %s: asked to stop; finishing the current job", self.name)
        self.stopping.set()

    def run(self) -> int:
        version, error = preload()
        if error:
            log.error("worker %s: the engine failed to import (%s); campaign jobs will fail", self.name, error)
        log.info("worker %s started: redis %s, queue %s, code version %s, min idle %d ms, max deliveries %d%s",
                 self.name, redact(self.url), self.keys.prefix, version, self.min_idle_ms, self.max_deliveries,
                 ", burst" if self.burst else "")
        hb = threading.Thread(target=self._heartbeat, name="realmsim-heartbeat", daemon=True)
        hb.start()
        try:
            self._ensure_group()
            while True:
                if self._unsaved:
                    self._guard(self._flush)
                    continue
                if self.stopping.is_set() or (self.max_jobs is not None and self.processed >= self.max_jobs):
                    break
                entries = self._guard(self._next)
                if entries is None:  # a connection error, already waited out
                    continue
                if not entries:
                    if self.burst and self._guard(self._drained):
                        log.info("worker %s: queue drained (burst); exiting", self.name)
                        break
                    continue
                self._work(entries)
        finally:
            self.stopping.set()
            hb.join(timeout=5)
            self._goodbye()
        log.info("worker %s stopped after %d job(s)", self.name, self.processed)
        return self.processed

    # ---- the loop ----------------------------------------------------------------------------
    def _guard(self, fn: Any) -> Any:
        """Run ``fn``; a connection error is logged and waited out with backoff (returns None)."""
        try:
            out = fn()
            if self._backoff:
                log.info("worker %s: connection to %s is back", self.name, redact(self.url))
            self._backoff = 0.0
            return out
        except redis.ResponseError as e:
            if is_nogroup(e):
                log.warning("worker %s: the stream or its group is gone (%s); creating it again", self.name,
                            brief(e))
                self._ensure_group_quiet()
                return None
            if not is_transient(e):
                raise
            self._backoff = min(30.0, max(0.2, self._backoff * 2))
            log.warning("worker %s: Redis refused a command for now (%s); retrying in %.1f s", self.name, brief(e),
                        self._backoff)
            time.sleep(self._backoff)
            return None
        except CONNECTION_ERRORS as e:
            self._backoff = min(30.0, max(0.2, self._backoff * 2))
            log.warning("worker %s: Redis connection error (%s); retrying in %.1f s", self.name, e, self._backoff)
            if self._unsaved:
                time.sleep(self._backoff)  # a result to store: wait even when stopping
            else:
                self.stopping.wait(self._backoff)
            return None

    def _ensure_group(self) -> None:
        try:
            self.r.xgroup_create(self.keys.stream, GROUP, id="0", mkstream=True)
        except redis.ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    def _ensure_group_quiet(self) -> None:
        try:
            self._ensure_group()
        except CONNECTION_ERRORS:
            pass

    def _count(self) -> int:
        return max(1, min(self.max_count, int(self.window / max(self._per_job, 1e-6))))

    def _next(self) -> list[Entry]:
        count = self._count()
        now = time.monotonic()
        if now >= self._next_claim:
            entries = self._claim(count)
            if entries:
                return entries
            if self._cursor == "0-0":  # the whole pending list was scanned: nothing stale for a while
                self._next_claim = now + self._claim_every
        block = None if self.stopping.is_set() else self.block_ms  # (0 would block forever)
        resp = self.r.xreadgroup(GROUP, self.name, {self.keys.stream: ">"}, count=count, block=block)
        out: list[Entry] = []
        for _stream, items in resp or []:
            for entry_id, fields in items:
                if fields is None:  # deleted while pending (older servers)
                    continue
                out.append(Entry(entry_id, fields, 1 + _attempts(fields)))
        self._hold([e.id for e in out])
        return out

    def _claim(self, count: int) -> list[Entry]:
        resp = self.r.xautoclaim(self.keys.stream, GROUP, self.name, self.min_idle_ms, start_id=self._cursor, count=count)
        cursor, items = resp[0], resp[1]
        self._cursor = cursor.decode() if isinstance(cursor, bytes) else str(cursor)
        items = [(i, f) for i, f in items if f]
        if not items:
            return []
        self._hold([i for i, _ in items])
        pipe = self.r.pipeline(transaction=False)
        for entry_id, _ in items:
            pipe.xpending_range(self.keys.stream, GROUP, entry_id, entry_id, 1)
        pend = pipe.execute()
        out = []
        for (entry_id, fields), p in zip(items, pend):
            times = int(p[0]["times_delivered"]) if p else 1
            out.append(Entry(entry_id, fields, times + _attempts(fields)))
        log.info("worker %s: claimed %d stale job(s) (idle > %d ms)", self.name, len(out), self.min_idle_ms)
        return out

    def _drained(self) -> bool:
        info = self.r.xpending(self.keys.stream, GROUP)
        return int(info.get("pending", 0)) == 0 and not self._held

    def _work(self, entries: list[Entry]) -> None:
        pipe = self.r.pipeline(transaction=False)
        for e in entries:
            pipe.exists(self.keys.result(e.key))
        try:
            exists = pipe.execute()
        except CONNECTION_ERRORS:
            exists = [0] * len(entries)  # run them; the store dedups
        t0 = time.perf_counter()
        last_flush = t0
        ran = 0
        for i, e in enumerate(entries):
            if self.stopping.is_set() or (self.max_jobs is not None and self.processed >= self.max_jobs):
                self._unsaved.extend(Outcome(x, "release") for x in entries[i:])
                break
            if exists[i]:
                self._unsaved.append(Outcome(e, "skip"))
            elif e.deliveries > self.max_deliveries:
                err = e.fields.get(b"error", b"").decode(errors="replace")
                why = (f"delivered {e.deliveries} times (more than {self.max_deliveries}): its workers died or "
                       f"stalled while running it" + (f"; last error: {err}" if err else ""))
                self._unsaved.append(Outcome(e, "dead", error=why, tb=e.fields.get(b"tb", b"").decode(errors="replace")))
            else:
                log.debug("worker %s: running job %s (batch %s, delivery %d)", self.name, e.key, e.batch, e.deliveries)
                try:
                    self._unsaved.append(Outcome(e, "ok", value=run_job(e.payload)))
                except Exception as exc:  # noqa: BLE001 - a bad job must never stop the worker
                    self._unsaved.append(Outcome(e, "fail", error=f"{type(exc).__name__}: {exc}",
                                                 tb=traceback.format_exc()))
                ran += 1
            self.processed += 1
            now = time.perf_counter()
            if now - last_flush >= self.window and i + 1 < len(entries):
                self._guard(self._flush)
                last_flush = now
        if ran:
            per = (time.perf_counter() - t0) / ran
            self._per_job = per if self._per_job <= 0 else 0.5 * self._per_job + 0.5 * per
        while self._unsaved:
            if self._guard(self._flush) is None and self._unsaved:
                continue

    def _flush(self) -> bool:
        """Store, put back or dead-letter every unsaved outcome in one transaction."""
        outs = self._unsaved
        if not outs:
            return True
        keys_: list[str] = [self.keys.stream, self.keys.stats]
        args: list[Any] = [GROUP, str(self.ttl)]
        pipe = self.r.pipeline(transaction=True)
        stored = [o for o in outs if o.kind in ("ok", "skip")]
        for o in stored:
            keys_ += [self.keys.result(o.entry.key), self.keys.done(o.entry.batch)]
            args += [o.entry.id, o.entry.key, o.value]
        if stored:
            pipe.eval(STORE_LUA, len(keys_), *keys_, *args)
        counts = {"failed": 0, "dead": 0, "released": 0}
        for o in outs:
            e = o.entry
            if o.kind == "fail" and e.deliveries >= self.max_deliveries:
                o.kind = "dead"
                o.error = f"failed on each of {e.deliveries} deliveries; last error: {o.error}"
            if o.kind == "fail":
                counts["failed"] += 1
                fields = dict(e.fields)
                fields.update({b"attempts": str(e.deliveries).encode(), b"error": o.error.encode(), b"tb": o.tb.encode()})
                pipe.xadd(self.keys.stream, fields)
            elif o.kind == "release":
                counts["released"] += 1
                fields = dict(e.fields)
                fields[b"attempts"] = str(max(0, e.deliveries - 1)).encode()
                pipe.xadd(self.keys.stream, fields)
            elif o.kind == "dead":
                counts["dead"] += 1
                pipe.xadd(self.keys.dead, {
                    "job": e.payload, "key": e.key, "batch": e.batch, "error": o.error, "tb": o.tb,
                    "deliveries": e.deliveries, "worker": self.name, "at": f"{time.time():.3f}",
                })
                pipe.sadd(self.keys.dead_set(e.batch), e.key)
                pipe.hset(self.keys.errors(e.batch), e.key, o.error)
                if self.ttl:
                    pipe.expire(self.keys.dead_set(e.batch), self.ttl)
                    pipe.expire(self.keys.errors(e.batch), self.ttl)
            else:
                continue
            pipe.xack(self.keys.stream, GROUP, e.id)
            pipe.xdel(self.keys.stream, e.id)
        for name, n in counts.items():
            if n:
                pipe.hincrby(self.keys.stats, name, n)
        res = pipe.execute()
        self._unsaved = []
        self._release([o.entry.id for o in outs])
        if stored:
            n_stored, n_dup, n_orphan = (int(x) for x in res[0])
            if n_dup:
                log.info("worker %s: %d job(s) already had a result (redelivered); not stored again", self.name, n_dup)
            if n_orphan:
                log.warning("worker %s: %d job(s) lost their result before acknowledgement; left pending", self.name,
                            n_orphan)
        for o in outs:
            if o.kind == "fail":
                log.warning("worker %s: job %s (batch %s) failed on delivery %d of %d, put back: %s",
                            self.name, o.entry.key, o.entry.batch, o.entry.deliveries, self.max_deliveries, o.error)
            elif o.kind == "dead":
                log.error("worker %s: job %s (batch %s) dead-lettered: %s", self.name, o.entry.key, o.entry.batch,
                          o.error)
        if counts["released"]:
            log.info("worker %s: put back %d job(s) read but not started", self.name, counts["released"])
        return True

    # ---- heartbeat: keep the entries we hold from looking stale -------------------------------
    def _hold(self, ids: list[bytes]) -> None:
        with self._held_lock:
            self._held.extend(ids)

    def _release(self, ids: list[bytes]) -> None:
        gone = set(ids)
        with self._held_lock:
            self._held = [i for i in self._held if i not in gone]

    def _heartbeat(self) -> None:
        every = max(0.05, self.min_idle_ms / 3000)
        while not self.stopping.wait(every):
            with self._held_lock:
                ids = list(self._held)
            if not ids:
                continue
            try:
                self.hb.xclaim(self.keys.stream, GROUP, self.name, 0, ids, justid=True)
            except (redis.ResponseError, *CONNECTION_ERRORS) as e:
                log.debug("worker %s: heartbeat failed: %s", self.name, e)

    def _goodbye(self) -> None:
        """Leave the group if we hold nothing (keeps XINFO CONSUMERS short)."""
        try:
            for c in self.r.xinfo_consumers(self.keys.stream, GROUP):
                if c.get("name") in (self.name, self.name.encode()) and int(c.get("pending", 0)) == 0:
                    self.r.xgroup_delconsumer(self.keys.stream, GROUP, self.name)
        except (redis.ResponseError, *CONNECTION_ERRORS):
            pass


def _attempts(fields: dict[bytes, bytes]) -> int:
    try:
        return int(fields.get(b"attempts", b"0"))
    except ValueError:
        return 0


# --------------------------------------------------------------------------------------------
# command line (also ``realmsim worker``)
# --------------------------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--redis", required=True, metavar="URL", help="Redis URL, e.g. redis://127.0.0.1:6379/0")
    p.add_argument("--burst", action="store_true", help="exit when the queue has nothing left")
    p.add_argument("--queue", default=DEFAULT_PREFIX, metavar="PREFIX", help=f"key prefix (default {DEFAULT_PREFIX})")
    p.add_argument("--name", default=None, help="consumer name (default HOST-PID)")
    p.add_argument("--min-idle", type=float, default=30.0, metavar="S",
                   help="claim another worker's job once it has been idle this long (default 30 s)")
    p.add_argument("--max-deliveries", type=int, default=3, metavar="N",
                   help="dead-letter a job after N deliveries (default 3)")
    p.add_argument("--block", type=float, default=1.0, metavar="S", help="XREADGROUP block time (default 1 s)")
    p.add_argument("--max-jobs", type=int, default=None, metavar="N", help="exit after N jobs")
    p.add_argument("--result-ttl", type=int, default=DEFAULT_TTL, metavar="S",
                   help=f"results expire after S seconds, 0 = never (default {DEFAULT_TTL})")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def worker_from_args(args: argparse.Namespace) -> Worker:
    return Worker(
        args.redis,
        prefix=args.queue,
        name=args.name,
        min_idle=args.min_idle,
        max_deliveries=args.max_deliveries,
        block=args.block,
        burst=args.burst,
        max_jobs=args.max_jobs,
        ttl=args.result_ttl,
    )


def serve(args: argparse.Namespace) -> int:
    """Run a worker until stopped (SIGTERM, Ctrl-C) or, with --burst, until the queue is drained."""
    logging.basicConfig(level=args.log_level.upper(), format=LOG_FORMAT, stream=sys.stderr)
    w = worker_from_args(args)

    def on_int(signum: int, frame: Any) -> None:
        if w.stopping.is_set():
            raise KeyboardInterrupt
        w.stop()

    signal.signal(signal.SIGTERM, w.stop)
    signal.signal(signal.SIGINT, on_int)
    w.run()
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m workers.worker", description="Work realmsim jobs from Redis.")
    add_arguments(p)
    args = p.parse_args(argv)
    try:
        return serve(args)
    except (UsageError, ServiceError) as e:
        print(f"realmsim worker: {e}", file=sys.stderr)
        return getattr(e, "exit_code", 2)


if __name__ == "__main__":
    sys.exit(main())
