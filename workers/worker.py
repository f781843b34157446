"""A Redis Streams worker: ``python -m workers.worker --redis URL [--burst]`` or ``realmsim worker``.

The loop: claim stale jobs of dead or stalled workers with XAUTOCLAIM (idle longer than
``--min-idle``; looked for a few times per ``--min-idle``, at most every second), else read new ones
with XREADGROUP; check each entry; run the good ones in a warm child process
(:class:`workers.child.JobRunner`, killed past ``--job-timeout``); store every result only if absent,
then acknowledge and delete its entry, in one Lua script (atomic).

- Everything read from Redis is untrusted. An entry that cannot be a job — a field that is not
  UTF-8, bytes that are not msgpack, a map of the wrong shape, a payload above ``--max-job-bytes``
  (not even decoded), a ``key`` field that is not its job's key, a missing or wrong signature when
  ``REALMSIM_SECRET`` is set — goes to the dead-letter stream at once with the reason. The job key
  is always recomputed from the job; the entry's ``key`` field is never trusted.
- A job runs in the child, never in the worker: whatever it raises (``SystemExit`` included), however
  it dies (``os.abort``), whatever it forks, the worker reports it and goes on.
- "The job failed" and "its worker died" are counted apart. A job that raised, timed out or killed
  its process is put back (a new entry carrying its ``failures``) until it failed ``--max-deliveries``
  times; a job whose workers died or stalled while holding it (seen as a redelivery by XAUTOCLAIM) is
  retried until that happened more than ``--max-deaths`` times. Then it goes to the dead-letter stream
  with its reason (``failed``, ``timed-out``, ``crashed`` or ``died``) and its traceback.
- How many entries one read takes adapts to the jobs' length (about ``window`` s of work per read, at
  most ``max_count``), so no-op jobs go by the hundred and campaign jobs a few at a time — and never
  more than a quarter of the stream's backlog at the last store (the store script reports it), so
  near the end of a batch the reads shrink and no worker sits on jobs another could run. The jobs
  of one read are handed to the child in one write, the child writes their answers a run at a time
  (held at most 0.1 s), and their results are stored in one script when the read is done (a read
  that takes more than a second stores on the way).
- While it holds entries, a heartbeat thread re-claims them (XCLAIM JUSTID, which resets their idle
  time without counting a delivery), so a long job is never taken for a stale one — but not past
  ``--job-timeout`` without progress, so a stuck worker does not hold a job for ever.
- The result of a finished job is kept in memory until Redis has it: connection errors are logged
  and retried with backoff, never lose a job.
- SIGTERM (or a first Ctrl-C): kill the job in hand (its process), put it back with the entries read
  but not started — no failure or death counted, so another worker or a restart runs it — then exit,
  well within a second. A blocking read is cut short at once (CLIENT UNBLOCK from the heartbeat's
  connection; where the ACL forbids it, reads block 50 ms at a time).
- With ``REALMSIM_SECRET``, what a worker writes about a job is signed too: the error text of a job it
  dead-letters for a batch (the batch's dead mark: ``collect`` ignores one that is not signed), and the
  counters and last error of a job it puts back (``csig``; a copy of a signed job with its counters
  raised is taken for a fresh one). A job claimed from a dead worker is put back at once with its death
  counted in those signed counters (the delivery count of an entry can be set by anyone who can write
  to Redis: XCLAIM … RETRYCOUNT), and run when it is read again.
- Consumers of the group idle past ``--forget-idle`` with nothing pending (workers that died) are
  removed from the group, atomically (a Lua script), so XINFO CONSUMERS stays short.
- ``--burst``: exit when the queue has nothing left: no new entries and no pending ones (a pending
  entry of a worker that died is claimed once it is stale, so a burst worker also finishes those).

Operational lines go through ``logging`` (logger ``realmsim.worker``); domain events never do.
"""

from __future__ import annotations

# ruff: noqa: E402 - ``python -m workers.worker`` starts its job process before its own imports (below)

if __name__ == "__main__" and not {"-h", "--help"} & set(__import__("sys").argv):
    # The job process takes a second or more to import the engine; start it now, so that it overlaps
    # with this process's own imports (redis…) and connecting. The worker adopts it.
    from workers.child import JobRunner as _JobRunner

    _early = _JobRunner()
    _early.start()
    EARLY_RUNNER: _JobRunner | None = _early

import argparse
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import redis

from workers import signing
from workers.batch import ServiceError, UsageError, check_seconds
from workers.child import DEFAULT_JOB_TIMEOUT, JOB_TIMEOUT_HELP, JobRunner, Reply
from workers.job import MAX_JOB_BYTES, JobError, decode, job_key, refusal
from workers.queue import (
    CONNECTION_ERRORS,
    DEFAULT_PREFIX,
    DEFAULT_TTL,
    FORGET_IDLE_LUA,
    GROUP,
    STORE_LUA,
    Keys,
    check_url,
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
DEFAULT_MAX_DEATHS = 10
DEFAULT_FORGET_IDLE = 3600.0
DEFAULT_WINDOW = 0.5  # seconds of work a read takes (see --read-window)
BACKLOG_SHARE = 4  # a read takes at most this share of the stream's backlog (1/4: two workers or more share the tail)
_BATCH_ID = re.compile(rb"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
_JOB_KEY = re.compile(rb"^[0-9a-f]{32}$")


def brief(e: Exception) -> str:
    """An error in one line, without the pipeline's echo of the command (a whole Lua script)."""
    msg = str(e)
    if "caused error: " in msg:
        msg = msg.split("caused error: ", 1)[1]
    return f"{type(e).__name__}: {msg}"


def is_transient(e: Exception) -> bool:
    return isinstance(e, TRANSIENT) or "BUSY Redis is busy" in str(e)


LOG_FORMAT = "%(asctime)s realmsim.worker[%(process)d] %(levelname)s %(message)s"


def _count(fields: dict[bytes, bytes], name: bytes) -> int:
    """A counter field of an entry; anything but a small non-negative integer counts as 0."""
    raw = fields.get(name, b"0")
    try:
        return max(0, min(10**6, int(raw)))
    except (TypeError, ValueError):
        return 0


def _show(raw: Any, limit: int = 60) -> str:
    """Untrusted bytes for a message: repr, cut."""
    text = repr(raw)
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass
class Entry:
    """A stream entry as read, and what checking it found."""

    id: bytes
    fields: dict[bytes, bytes]
    times: int = 1  # deliveries of this entry id (1 on a fresh read; more when claimed from a dead worker)
    payload: bytes = b""
    key: str = ""  # recomputed from the job; "" when it could not be
    batch: str = ""  # "" when the field is not a batch id
    poison: str = ""  # why this entry cannot be run, if it cannot
    reason: str = ""  # the dead letter's reason word
    failures: int = 0  # tries that failed before this entry (carried by put-back entries)
    deaths: int = 0  # deliveries whose worker died, this one's included

    @property
    def deliveries(self) -> int:
        return self.failures + self.deaths + 1

    @property
    def raw_key(self) -> bytes:
        v = self.fields.get(b"key", b"")
        return v if isinstance(v, bytes) else b""

    @property
    def raw_batch(self) -> bytes:
        v = self.fields.get(b"batch", b"")
        return v if isinstance(v, bytes) else b""


@dataclass
class Outcome:
    entry: Entry
    kind: str  # "ok" | "skip" (result existed) | "fail" | "dead" | "release"
    value: bytes = b""
    error: str = ""
    tb: str = ""
    reason: str = ""  # fail/dead: failed | timed-out | crashed | died | poison | too-large | unsigned …
    extra: dict[str, Any] = field(default_factory=dict)


class Worker:
    def __init__(
        self,
        url: str,
        *,
        prefix: str = DEFAULT_PREFIX,
        name: str | None = None,
        min_idle: float = 30.0,
        max_deliveries: int = 3,
        max_deaths: int = DEFAULT_MAX_DEATHS,
        block: float = 1.0,
        burst: bool = False,
        max_count: int = 500,
        max_jobs: int | None = None,
        ttl: int = DEFAULT_TTL,
        window: float = DEFAULT_WINDOW,
        job_timeout: float | None = DEFAULT_JOB_TIMEOUT,
        max_job_bytes: int = MAX_JOB_BYTES,
        forget_idle: float = DEFAULT_FORGET_IDLE,
        ca: str | None = None,
        runner: JobRunner | None = None,
    ) -> None:
        if max_deliveries < 1:
            raise UsageError(f"--max-deliveries {max_deliveries}: expected an integer >= 1")
        if max_deaths < 0:
            raise UsageError(f"--max-deaths {max_deaths}: expected an integer >= 0")
        check_seconds("--min-idle", min_idle)
        check_seconds("--block", block)
        if job_timeout is not None:
            check_seconds("--job-timeout", job_timeout)
        check_seconds("--read-window", window)
        if max_job_bytes < 1:
            raise UsageError(f"--max-job-bytes {max_job_bytes}: expected an integer >= 1")
        check_seconds("--forget-idle", forget_idle)
        check_url(url)  # (before a job process is started for nothing)
        self.url = url
        self.keys = Keys(prefix)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.min_idle_ms = max(1, int(min_idle * 1000))
        self.max_deliveries = max_deliveries
        self.max_deaths = max_deaths
        self.block_ms = max(1, int(block * 1000))
        self.burst = burst
        self.max_count = max(1, max_count)
        self.max_jobs = max_jobs
        self.ttl = ttl
        self.window = window
        # results of a read are stored together once it is done; a read that takes longer than this
        # (long jobs, a slow machine) stores what it has on the way, so a death loses little
        self.flush_every = max(window, 1.0)
        self.job_timeout = job_timeout
        self.max_job_bytes = max_job_bytes
        self.forget_idle_ms = int(forget_idle * 1000)
        self.secret = signing.secret()
        # the job process starts importing the engine while we connect (if it has not started already)
        self.runner = runner or JobRunner(job_timeout)
        self.runner.timeout = job_timeout
        self.runner.start()
        try:
            # redis-py 8 sets a 5 s socket timeout by default; a blocking XREADGROUP needs more.
            self.r: Any = connect(url, socket_timeout=block + 10.0, ca=ca)  # replies are bytes
            self.hb: Any = connect(url, socket_timeout=10.0, check=False, ca=ca)
            self._store = self.r.register_script(STORE_LUA)
        except BaseException:
            self.runner.close(grace=0)
            raise
        self.stopping = threading.Event()
        self.finished = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self.processed = 0  # jobs run or found done by this worker
        self._backlog: int | None = None  # entries left to read at our last store (the store script says)
        self._per_job = 0.0  # moving average of a job's CPU seconds (0: none measured yet, one job a read)
        self._cursor = "0-0"
        # Nothing can turn stale sooner than min_idle after it was last seen: look for stale entries
        # (XAUTOCLAIM) a few times per min_idle (at most every second), not before every read.
        self._claim_every = min(1.0, min_idle / 4)
        self._next_claim = 0.0
        self._forget_every = max(1.0, min(60.0, forget_idle / 4))
        self._next_forget = 0.0
        self._held: dict[bytes, float] = {}
        self._held_lock = threading.Lock()
        self._progress = time.monotonic()  # the last time a job started or ended
        self._unsaved: list[Outcome] = []
        self._backoff = 0.0
        self._client_id: int | None = None  # our main connection's CLIENT ID, for CLIENT UNBLOCK
        self._blocking = False
        self._can_unblock = True

    # ---- public ------------------------------------------------------------------------------
    def stop(self, *_: Any) -> None:
        """Kill the job in hand, put it back with the rest, then exit (SIGTERM). Safe in a signal handler."""
        if not self.stopping.is_set():
            log.info("worker %s: asked to stop; putting back the jobs in hand", self.name)
        self.stopping.set()
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def run(self) -> int:
        log.info("worker %s started: redis %s, queue %s, min idle %d ms, max deliveries %d, max deaths %d, "
                 "job timeout %s%s%s", self.name, redact(self.url), self.keys.prefix, self.min_idle_ms,
                 self.max_deliveries, self.max_deaths,
                 "from each job's length" if self.job_timeout is None else f"{self.job_timeout:g} s",
                 ", signed jobs only" if self.secret else "", ", burst" if self.burst else "")
        hb = threading.Thread(target=self._heartbeat, name="realmsim-heartbeat", daemon=True)
        hb.start()
        try:
            self._guard(self._ensure_group)
            self._probe_unblock()
            # take no job before the job process can run it: a worker killed while it starts must not
            # have claimed jobs it never ran (each would count a death)
            self._wait_for_job_process()
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
            self.finished.set()
            self.runner.close(grace=0.0)  # idle (a job in hand was finished): no need to wait for it
            hb.join(timeout=5)
            self._goodbye()
        log.info("worker %s stopped after %d job(s)", self.name, self.processed)
        return self.processed

    # ---- the loop ----------------------------------------------------------------------------
    def _wait_for_job_process(self) -> None:
        t0 = time.monotonic()
        for _ in range(3):
            try:
                p = self.runner.wait_ready(wake_fd=self._wake_r)
            except OSError as e:
                log.error("worker %s: %s; starting another", self.name, e)
                continue
            if p is not None:
                log.info("worker %s: job process %d ready in %.1f s (code version %s)", self.name, p.proc.pid,
                         time.monotonic() - t0, p.version)
                if p.engine_error:
                    log.error("worker %s: the engine failed to import in the job process (%s); campaign jobs will "
                              "fail", self.name, p.engine_error)
            return
        log.error("worker %s: no job process could start; every job will fail", self.name)

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
            self._backoff = min(30.0, max(0.2, self._backoff * 2))
            if is_transient(e):
                log.warning("worker %s: Redis refused a command for now (%s); retrying in %.1f s", self.name,
                            brief(e), self._backoff)
            else:  # a permission taken away, a key of the wrong type…: say so, and keep trying
                log.error("worker %s: Redis refused a command (%s); retrying in %.1f s", self.name, brief(e),
                          self._backoff)
            time.sleep(self._backoff)
            return None
        except CONNECTION_ERRORS as e:
            self._client_id = None  # a new connection, a new id
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
        except (redis.ResponseError, *CONNECTION_ERRORS):
            pass

    def _probe_unblock(self) -> None:
        """Can we cut our own blocking read short (CLIENT UNBLOCK)? If the ACL says no, block briefly."""
        try:
            self.hb.execute_command("CLIENT", "UNBLOCK", "0")
        except redis.exceptions.NoPermissionError:
            self._can_unblock = False
            self.block_ms = min(self.block_ms, 50)
            log.info("worker %s: this Redis user may not run CLIENT UNBLOCK; reading in %d ms blocks so that "
                     "a stop is quick", self.name, self.block_ms)
        except (redis.ResponseError, *CONNECTION_ERRORS):
            pass

    def _count(self) -> int:
        if self._per_job <= 0:
            return 1  # the first read takes one job: how long they take is not known yet
        n = max(1, min(self.max_count, int(self.window / max(self._per_job, 1e-6))))
        if self._backlog is not None:
            # never more than a quarter of what was left to read at our last store (the stream less the
            # entries read and not yet acknowledged): near the end of a batch the reads shrink, so no
            # worker sits on jobs another could run
            n = min(n, max(1, -(-self._backlog // BACKLOG_SHARE)))
        if self.max_jobs is not None:
            n = max(1, min(n, self.max_jobs - self.processed))
        return n

    def _next(self) -> list[Entry]:
        count = self._count()
        now = time.monotonic()
        if now >= self._next_forget:
            self._next_forget = now + self._forget_every
            self._forget_idle_consumers()
        if now >= self._next_claim:
            entries = self._claim(count)
            if entries:
                return entries
            if self._cursor == "0-0":  # the whole pending list was scanned: nothing stale for a while
                self._next_claim = now + self._claim_every
        if self.stopping.is_set():
            return []
        if self._client_id is None and self._can_unblock:
            try:
                self._client_id = int(self.r.client_id())
            except redis.ResponseError:
                self._can_unblock = False
        self._blocking = True
        try:
            if self.stopping.is_set():  # (a stop between the check above and here)
                return []
            resp = self.r.xreadgroup(GROUP, self.name, {self.keys.stream: ">"}, count=count, block=self.block_ms)
        finally:
            self._blocking = False
        out: list[Entry] = []
        for _stream, items in resp or []:
            for entry_id, fields in items:
                if fields is None:  # deleted while pending (older servers)
                    continue
                out.append(Entry(entry_id, fields, 1))
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
        try:
            pend = pipe.execute()
        except (redis.ResponseError, *CONNECTION_ERRORS):  # they are ours now: run them, one death each
            pend = [None] * len(items)
        out = []
        for (entry_id, fields), p in zip(items, pend):
            times = int(p[0]["times_delivered"]) if p else 2
            out.append(Entry(entry_id, fields, max(2, times)))
        log.info("worker %s: claimed %d stale job(s) (idle > %d ms)", self.name, len(out), self.min_idle_ms)
        return out

    def _forget_idle_consumers(self) -> None:
        try:
            gone = self.r.eval(FORGET_IDLE_LUA, 1, self.keys.stream, GROUP, str(self.forget_idle_ms))
        except redis.ResponseError as e:
            if not is_nogroup(e) and "no such key" not in str(e):
                log.debug("worker %s: could not look for idle consumers: %s", self.name, brief(e))
            return
        if gone:
            log.info("worker %s: removed %d consumer(s) idle over %d s with nothing pending: %s", self.name, len(gone),
                     self.forget_idle_ms // 1000, ", ".join(_show(g, 40) for g in gone[:5]))

    def _drained(self) -> bool:
        info = self.r.xpending(self.keys.stream, GROUP)
        return int(info.get("pending", 0)) == 0 and not self._held

    # ---- checking what was read ---------------------------------------------------------------
    def _check(self, e: Entry) -> None:
        """Fill in ``e`` from its fields, or say in ``e.poison`` why it cannot be a job. Never raises."""
        try:
            self._check_fields(e)
        except Exception as exc:  # noqa: BLE001 - whatever the entry holds, the worker goes on
            e.poison, e.reason = f"unreadable entry ({type(exc).__name__}: {exc})", "poison"

    def _check_fields(self, e: Entry) -> None:
        f = e.fields
        e.failures = _count(f, b"failures")
        e.deaths = _count(f, b"deaths") + max(0, e.times - 1)
        if self.secret is not None:
            # counters and a last error count only when signed by a worker (see _put_back); a claim from a
            # dead worker counts one death whatever the entry's delivery count says (anyone can raise it)
            e.deaths = _count(f, b"deaths") + (1 if e.times > 1 else 0)
            if not self._counts_ok(e):
                if any(n in f for n in (b"failures", b"deaths", b"error", b"tb")):
                    log.warning("worker %s: entry %s carries counters or an error not signed with %s; ignored",
                                self.name, e.id.decode(errors="replace"), signing.ENV)
                e.failures, e.deaths = 0, (1 if e.times > 1 else 0)
                e.fields = {k: v for k, v in f.items() if k not in (b"failures", b"deaths", b"error", b"tb")}
                f = e.fields
        payload = f.get(b"job")
        if not isinstance(payload, bytes) or not payload:
            e.poison, e.reason = "the entry has no job field", "poison"
            return
        if len(payload) > self.max_job_bytes:
            e.poison, e.reason = (f"job payload of {len(payload):,} bytes is above the limit of "
                                  f"{self.max_job_bytes:,} (--max-job-bytes); not read", "too-large")
            return
        e.payload = payload
        raw_batch = e.raw_batch
        if not _BATCH_ID.match(raw_batch):
            e.poison, e.reason = f"the batch field {_show(raw_batch)} is not a batch id", "poison"
            return
        e.batch = raw_batch.decode()
        if self.secret is not None:
            sig = f.get(b"sig")
            try:
                signing.check_job(self.secret, raw_batch, payload, sig if isinstance(sig, bytes) else None)
            except signing.SignatureError as exc:
                e.poison, e.reason = str(exc), "unsigned" if not sig else "bad-signature"
                return
        try:
            job = decode(payload)
        except Exception as exc:  # noqa: BLE001 - any undecodable bytes
            e.poison, e.reason = f"the job is not msgpack ({type(exc).__name__}: {exc})", "poison"
            return
        try:
            key = job_key(job)
        except JobError as exc:
            e.poison, e.reason = f"not a realmsim job: {exc}", "poison"
            return
        if e.raw_key != key.encode():
            e.poison, e.reason = (f"the entry's key field {_show(e.raw_key)} is not its job's key {key} "
                                  f"(a forged or damaged entry)", "poison")
            return
        e.key = key
        why = refusal(job)  # a scenario name that is a path (issue 9: a job reads no file of the worker's)
        if why:
            e.poison, e.reason = why, "poison"

    def _counts_ok(self, e: Entry) -> bool:
        """With a secret: are the entry's counters and last error signed for its batch and job?"""
        assert self.secret is not None
        f = e.fields
        parts = [f.get(n, b"") for n in (b"failures", b"deaths", b"error", b"tb", b"csig", b"batch", b"key")]
        if not all(isinstance(x, bytes) for x in parts):
            return False
        failures, deaths, error, tb, csig, batch, key = parts
        if not (failures or deaths or error or tb):
            return True  # a fresh entry: nothing to check
        return signing.counts_ok(self.secret, batch, key, failures, deaths, error, tb, csig)

    # ---- running -----------------------------------------------------------------------------
    def _work(self, entries: list[Entry]) -> None:
        for e in entries:
            self._check(e)
        runnable: list[Entry] = []
        claimed_back = 0
        for e in entries:
            if e.poison:
                self._unsaved.append(Outcome(e, "dead", error=e.poison, reason=e.reason))
                self.processed += 1
            elif self.secret is not None and e.times > 1 and e.deaths <= self.max_deaths:
                # claimed from a dead worker: put back at once with the death in its signed counters (run when
                # read again), so deaths add up one a claim whatever the entry's delivery count says
                self._unsaved.append(Outcome(e, "release"))
                claimed_back += 1
            elif e.deaths > self.max_deaths:
                err = e.fields.get(b"error", b"")
                last = err.decode(errors="replace") if isinstance(err, bytes) else ""
                why = (f"its workers died or stalled {e.deaths} times while running it (more than --max-deaths "
                       f"{self.max_deaths})" + (f"; last error: {last}" if last else ""))
                self._unsaved.append(Outcome(e, "dead", error=why, reason="died"))
                self.processed += 1
            else:
                runnable.append(e)
        if claimed_back:
            log.info("worker %s: put back %d claimed job(s) with a death counted (signed)", self.name, claimed_back)
        # Has a job come back whose result exists (a redelivery, a resubmission)? Asked only of entries
        # that were delivered or put back before: for a first delivery the store's SET NX is enough.
        exists = [0] * len(runnable)
        again = [i for i, e in enumerate(runnable) if e.times > 1 or e.failures or e.deaths or b"error" in e.fields]
        if again:
            pipe = self.r.pipeline(transaction=False)
            for i in again:
                pipe.exists(self.keys.result(runnable[i].key))
            try:
                for i, ex in zip(again, pipe.execute()):
                    exists[i] = ex
            except CONNECTION_ERRORS:
                pass  # run them; the store dedups
        todo: list[Entry] = []
        for e, ex in zip(runnable, exists):
            if ex:
                self._unsaved.append(Outcome(e, "skip"))
                self.processed += 1
            else:
                todo.append(e)
        if todo and (self.stopping.is_set() or (self.max_jobs is not None and self.processed >= self.max_jobs)):
            self._unsaved.extend(Outcome(e, "release") for e in todo)
            todo = []
        t0 = time.perf_counter()
        last_flush = t0
        ran = 0
        spent = 0.0
        self.runner.report_starts = log.isEnabledFor(logging.DEBUG)
        for r in self.runner.run([(i, e.payload) for i, e in enumerate(todo)], wake_fd=self._wake_r,
                                 should_stop=self.stopping.is_set):
            e = todo[r.tag]
            self._progress = time.monotonic()
            if r.status == "started":
                log.debug("worker %s: running job %s (batch %s, delivery %d)", self.name, e.key, e.batch, e.deliveries)
                continue
            if r.status == "cancelled":
                self._unsaved.append(Outcome(e, "release"))
                continue
            self._unsaved.append(self._outcome(e, r))
            self.processed += 1
            ran += 1
            spent += r.cpu or r.seconds
            now = time.perf_counter()
            if now - last_flush >= self.flush_every and r.tag + 1 < len(todo):
                self._guard(self._flush)  # a long read: store what is done while the child works on
                last_flush = now
        if ran:  # the jobs' CPU, not their wall time: a loaded machine must not shrink the reads
            per = spent / ran
            self._per_job = per if self._per_job <= 0 else 0.5 * self._per_job + 0.5 * per
        while self._unsaved:
            if self._guard(self._flush) is None and self._unsaved:
                continue

    def _outcome(self, e: Entry, r: Reply) -> Outcome:
        if r.status == "ok":
            value = r.value
            if self.secret is not None:
                value = signing.wrap(self.secret, "result", e.key.encode(), value)
            return Outcome(e, "ok", value=value)
        reason = {"error": "failed", "timeout": "timed-out", "died": "crashed"}.get(r.status, "failed")
        error = str(r.value)
        if r.note:  # timed out at the default limit: say what it was worked out from
            error = error.removesuffix(")") + f"; {r.note})"
        return Outcome(e, "fail", error=error, tb=r.tb, reason=reason, extra={"note": r.note})

    def _flush(self) -> bool:
        """Store, put back or dead-letter every unsaved outcome in one transaction.

        If Redis refuses the transaction for good (not for now: a key of a batch turned into another
        type…), each outcome is tried alone, and one that still fails is dead-lettered as poison."""
        try:
            return self._flush_all()
        except redis.ResponseError as e:
            if is_nogroup(e) or is_transient(e):
                raise
            outs = self._unsaved
            log.error("worker %s: Redis refused to store %d outcome(s) (%s); storing them one by one", self.name,
                      len(outs), brief(e))
            for o in outs:
                self._unsaved = [o]
                try:
                    self._flush_all()
                except redis.ResponseError as e1:
                    if is_nogroup(e1) or is_transient(e1):
                        self._unsaved = outs[outs.index(o):]
                        raise
                    self._unsaved = [Outcome(o.entry, "dead", error=f"Redis refused to store its outcome "
                                             f"({brief(e1)})", reason="poison")]
                    o.entry.batch = ""  # the batch's own keys are what Redis refuses
                    try:
                        self._flush_all()
                    except redis.ResponseError as e2:
                        log.error("worker %s: cannot even dead-letter entry %s (%s); leaving it", self.name,
                                  o.entry.id.decode(errors="replace"), brief(e2))
                        self._release([o.entry.id])
            self._unsaved = []
            return True

    def _flush_all(self) -> bool:
        outs = self._unsaved
        if not outs:
            return True
        keys_: list[str] = [self.keys.stream, self.keys.stats]
        args: list[Any] = [GROUP, str(self.ttl)]
        stored = [o for o in outs if o.kind in ("ok", "skip")]
        for o in stored:
            keys_ += [self.keys.result(o.entry.key), self.keys.done(o.entry.batch)]
            args += [o.entry.id, o.entry.key, o.value]
        if len(stored) == len(outs):
            # results only (the usual case): one script, atomic by itself — no transaction around it, and
            # EVALSHA (the script is loaded once; redis-py loads it again after a SCRIPT FLUSH)
            res = [self._store(keys=keys_, args=args)]
            return self._flushed(outs, stored, res, {"failed": 0, "dead": 0, "released": 0})
        pipe = self.r.pipeline(transaction=True)
        if stored:  # (EVAL, not EVALSHA: a pipeline with a Script object asks SCRIPT EXISTS every time)
            pipe.eval(STORE_LUA, len(keys_), *keys_, *args)
        counts = {"failed": 0, "dead": 0, "released": 0}
        for o in outs:
            e = o.entry
            if o.kind == "fail" and e.failures + 1 >= self.max_deliveries:
                o.kind = "dead"
                if o.reason == "timed-out":
                    limit = o.error.removeprefix("timed out after ").split(" s ", 1)[0]
                    note = o.extra.get("note", "")
                    o.error = (f"timed out after {limit} s on each of {e.failures + 1} deliveries "
                               f"(killed{'; ' + note if note else ''})")
                else:
                    o.error = f"failed on each of {e.failures + 1} deliveries; last error: {o.error}"
            if o.kind == "fail":
                counts["failed"] += 1
                pipe.xadd(self.keys.stream, self._put_back(e, failures=e.failures + 1, error=o.error, tb=o.tb))
            elif o.kind == "release":
                counts["released"] += 1
                pipe.xadd(self.keys.stream, self._put_back(e, failures=e.failures))
            elif o.kind == "dead":
                counts["dead"] += 1
                self._dead_letter(pipe, o)
            else:
                continue
            pipe.xack(self.keys.stream, GROUP, e.id)
            pipe.xdel(self.keys.stream, e.id)
        for name, n in counts.items():
            if n:
                pipe.hincrby(self.keys.stats, name, n)
        return self._flushed(outs, stored, pipe.execute(), counts)

    def _flushed(self, outs: list[Outcome], stored: list[Outcome], res: list[Any], counts: dict[str, int]) -> bool:
        """What :meth:`_flush_all` does once Redis has taken the outcomes: forget them, and log."""
        self._unsaved = []
        self._release([o.entry.id for o in outs])
        if stored:
            n_stored, n_dup, n_orphan, self._backlog = (int(x) for x in res[0])
            if n_dup:
                log.info("worker %s: %d job(s) already had a result (redelivered); not stored again", self.name, n_dup)
            if n_orphan:
                log.warning("worker %s: %d job(s) lost their result before acknowledgement; left pending", self.name,
                            n_orphan)
        for o in outs:
            if o.kind == "fail":
                log.warning("worker %s: job %s (batch %s) failed on try %d of %d, put back: %s",
                            self.name, o.entry.key, o.entry.batch, o.entry.failures + 1, self.max_deliveries, o.error)
            elif o.kind == "dead":
                log.error("worker %s: entry %s (job %s, batch %s) dead-lettered (%s): %s", self.name,
                          o.entry.id.decode(errors="replace"), o.entry.key or _show(o.entry.raw_key, 40),
                          o.entry.batch or _show(o.entry.raw_batch, 40), o.reason, o.error)
        if counts["released"]:
            log.info("worker %s: put back %d job(s) read but not started", self.name, counts["released"])
        return True

    def _put_back(self, e: Entry, *, failures: int, error: str = "", tb: str = "") -> dict[bytes, bytes]:
        """A new entry for a checked job: its own fields only (nothing else the old entry carried)."""
        fields = {b"job": e.payload, b"key": e.key.encode(), b"batch": e.batch.encode(),
                  b"failures": str(failures).encode(), b"deaths": str(e.deaths).encode()}
        sig = e.fields.get(b"sig")
        if isinstance(sig, bytes) and sig:
            fields[b"sig"] = sig
        if error:
            fields[b"error"] = error.encode()
            fields[b"tb"] = tb.encode()
        if self.secret is not None:
            fields[b"csig"] = signing.sign_counts(self.secret, fields[b"batch"], fields[b"key"], fields[b"failures"],
                                                  fields[b"deaths"], fields.get(b"error", b""), fields.get(b"tb", b""))
        return fields

    def _dead_letter(self, pipe: Any, o: Outcome) -> None:
        e = o.entry
        letter: dict[str, Any] = {
            "job": e.payload, "key": e.key.encode() if e.key else e.raw_key,
            "batch": e.batch.encode() if e.batch else e.raw_batch, "reason": o.reason or "failed",
            "error": o.error, "tb": o.tb, "deliveries": e.deliveries, "failures": e.failures, "deaths": e.deaths,
            "size": len(e.fields.get(b"job", b"") or b""), "worker": self.name, "at": f"{time.time():.3f}",
        }
        pipe.xadd(self.keys.dead, letter)
        # the batch learns of it when the entry can be attributed: a checked job, or, with signing off,
        # an entry that names a batch and a job key it could be (nothing is trusted without the secret)
        key = e.key
        if not key and self.secret is None and _JOB_KEY.match(e.raw_key):
            key = e.raw_key.decode()
        if key and e.batch and o.reason not in ("unsigned", "bad-signature"):
            pipe.sadd(self.keys.dead_set(e.batch), key)
            pipe.hset(self.keys.errors(e.batch), key, signing.sign_mark(self.secret, e.batch, key, o.error))
            if self.ttl:
                pipe.expire(self.keys.dead_set(e.batch), self.ttl)
                pipe.expire(self.keys.errors(e.batch), self.ttl)

    # ---- heartbeat: keep the entries we hold from looking stale -------------------------------
    def _hold(self, ids: list[bytes]) -> None:
        now = time.monotonic()
        with self._held_lock:
            for i in ids:
                self._held[i] = now
        self._progress = now

    def _release(self, ids: list[bytes]) -> None:
        with self._held_lock:
            for i in ids:
                self._held.pop(i, None)

    def _heartbeat(self) -> None:
        every = max(0.05, self.min_idle_ms / 3000)
        unblocked = False
        while not self.finished.is_set():
            self.stopping.wait(every)
            if self.stopping.is_set() and not unblocked:
                self._unblock_main()
                unblocked = True
            if self.stopping.is_set():
                self.finished.wait(every)
            with self._held_lock:
                ids = list(self._held)
            # a worker that has made no progress for longer than a job may take is stuck: let others claim
            limit = self.runner.limit_now()
            if not ids or time.monotonic() - self._progress > limit + 30:
                continue
            try:
                self.hb.xclaim(self.keys.stream, GROUP, self.name, 0, ids, justid=True)
            except (redis.ResponseError, *CONNECTION_ERRORS) as e:
                log.debug("worker %s: heartbeat failed: %s", self.name, e)

    def _unblock_main(self) -> None:
        """Cut the main connection's blocking XREADGROUP short (it returns nothing) so a stop is quick."""
        deadline = time.monotonic() + 2.0
        while self._blocking and self._can_unblock and time.monotonic() < deadline:
            cid = self._client_id
            if cid is None:
                break
            try:
                self.hb.execute_command("CLIENT", "UNBLOCK", cid)
            except (redis.ResponseError, *CONNECTION_ERRORS) as e:
                log.debug("worker %s: CLIENT UNBLOCK failed: %s", self.name, e)
                break
            time.sleep(0.01)

    def _goodbye(self) -> None:
        """Leave the group if we hold nothing (keeps XINFO CONSUMERS short). DELCONSUMER drops a
        consumer's pending entries: only when every entry we read was stored, put back or dead-lettered."""
        if self._held or self._unsaved:
            return
        try:
            self.r.xgroup_delconsumer(self.keys.stream, GROUP, self.name)
        except (redis.ResponseError, *CONNECTION_ERRORS):
            pass


# --------------------------------------------------------------------------------------------
# command line (also ``realmsim worker``)
# --------------------------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    from workers.options import add_redis_arguments

    add_redis_arguments(p, env_default=True)
    p.add_argument("--burst", action="store_true", help="exit when the queue has nothing left")
    p.add_argument("--queue", default=DEFAULT_PREFIX, metavar="PREFIX", help=f"key prefix (default {DEFAULT_PREFIX})")
    p.add_argument("--name", default=None, help="consumer name (default HOST-PID)")
    p.add_argument("--min-idle", type=float, default=30.0, metavar="S",
                   help="claim another worker's job once it has been idle this long (default 30 s)")
    p.add_argument("--max-deliveries", type=int, default=3, metavar="N",
                   help="dead-letter a job once it failed (raised, timed out, crashed its process) N times (default 3)")
    p.add_argument("--max-deaths", type=int, default=DEFAULT_MAX_DEATHS, metavar="N",
                   help=f"dead-letter a job once its workers died more than N times running it (default "
                        f"{DEFAULT_MAX_DEATHS})")
    p.add_argument("--job-timeout", type=float, default=DEFAULT_JOB_TIMEOUT, metavar="S",
                   help=JOB_TIMEOUT_HELP)
    p.add_argument("--max-job-bytes", type=int, default=MAX_JOB_BYTES, metavar="N",
                   help=f"dead-letter, unread, a job payload above N bytes (default {MAX_JOB_BYTES})")
    p.add_argument("--forget-idle", type=float, default=DEFAULT_FORGET_IDLE, metavar="S",
                   help=f"remove consumers idle over S seconds with nothing pending (default {DEFAULT_FORGET_IDLE:g})")
    p.add_argument("--block", type=float, default=1.0, metavar="S", help="XREADGROUP block time (default 1 s)")
    p.add_argument("--read-window", type=float, default=DEFAULT_WINDOW, metavar="S",
                   help=f"seconds of work one read takes, by the jobs' measured CPU (default {DEFAULT_WINDOW:g}; "
                        "never more than a quarter of the stream's backlog)")
    p.add_argument("--max-jobs", type=int, default=None, metavar="N", help="exit after N jobs")
    p.add_argument("--result-ttl", type=int, default=DEFAULT_TTL, metavar="S",
                   help=f"results expire after S seconds, 0 = never (default {DEFAULT_TTL})")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    from workers.options import add_allow_policies

    add_allow_policies(p)


def worker_from_args(args: argparse.Namespace) -> Worker:
    from workers.queue import redis_url

    return Worker(
        redis_url(args),
        prefix=args.queue,
        name=args.name,
        min_idle=args.min_idle,
        max_deliveries=args.max_deliveries,
        max_deaths=args.max_deaths,
        block=args.block,
        window=args.read_window,
        burst=args.burst,
        max_jobs=args.max_jobs,
        ttl=args.result_ttl,
        job_timeout=args.job_timeout,
        max_job_bytes=args.max_job_bytes,
        forget_idle=args.forget_idle,
        ca=args.redis_ca,
        runner=_early_runner(args),
    )


def _early_runner(args: argparse.Namespace) -> JobRunner | None:
    """The job process started before the options were read, unless ``--allow-policies`` came after
    it (a job process reads the allowed modules from its environment when it starts)."""
    early: JobRunner | None = globals().get("EARLY_RUNNER")
    if early is not None and getattr(args, "allow_policies", None):
        early.close(0)
        return None
    return early


def serve(args: argparse.Namespace) -> int:
    """Run a worker until stopped (SIGTERM, Ctrl-C) or, with --burst, until the queue is drained."""
    logging.basicConfig(level=args.log_level.upper(), format=LOG_FORMAT, stream=sys.stderr)
    from workers.options import apply_allow_policies

    apply_allow_policies(args)
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
    except redis.RedisError as e:  # Redis refused something for good (a permission, a wrong type…)
        print(f"realmsim worker: Redis error: {brief(e)}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    code = main()
    # Everything is closed (the job process killed, Redis connections idle); skip the interpreter's
    # teardown, which would add a tenth of a second or more to every stop.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
