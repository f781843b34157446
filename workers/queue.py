"""The Redis Streams queue (docs/DESIGN.md "Workers and batches").

Keys (``P`` is the queue prefix, ``realmsim`` by default)::

    P:jobs                   stream of jobs, consumer group ``workers``; fields job (msgpack),
                             key (job key), batch (batch id), and after a failed try attempts,
                             error, tb. Never trimmed: only acknowledged entries are XDEL'd.
    P:dead                   dead-letter stream: job, key, batch, error, tb, deliveries, worker, at
    P:result:<job key>       a job's result (msgpack), written only if absent (SET NX)
    P:batch:<id>             the batch record: its full job list (template + seeds, msgpack)
    P:batch:<id>:done        set of the batch's job keys that have a result
    P:batch:<id>:dead        set of the batch's job keys that were dead-lettered
    P:batch:<id>:errors      hash job key -> error text of the dead-lettered ones
    P:stats                  hash of counters: stored, duplicates, failed, dead, released

A result is keyed by the job key (scenario, seed, overrides, code version), so a job delivered twice
is stored once and counted once (the ``done`` set holds job keys). msgpack only on the wire.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from workers.batch import BatchPlan, ServiceError, UsageError, default_manifest, read_manifest
from workers.job import decode

GROUP = "workers"
DEFAULT_PREFIX = "realmsim"
DEFAULT_TTL = 7 * 24 * 3600  # results and batch records live a week
CONNECTION_ERRORS = (redis.ConnectionError, redis.TimeoutError, ConnectionError, OSError)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if parts.password:
        host = parts.hostname or ""
        if parts.port:
            host = f"{host}:{parts.port}"
        user = parts.username or ""
        return urlunsplit((parts.scheme, f"{user}:***@{host}", parts.path, parts.query, parts.fragment))
    return url


def connect(url: str, *, socket_timeout: float = 10.0, check: bool = True) -> redis.Redis:
    """A client for ``url`` (bytes replies, RESP2, no silent retries: the callers retry themselves).

    A malformed URL is a :class:`UsageError` (exit 2); a server that cannot be reached is a
    :class:`ServiceError` with exit status 3.
    """
    try:
        client = redis.Redis.from_url(
            url,
            socket_timeout=socket_timeout,
            socket_connect_timeout=min(5.0, socket_timeout),
            retry=Retry(NoBackoff(), 0),
            protocol=2,
        )
    except ValueError as e:
        raise UsageError(f"--redis {redact(url)!r}: {e} (expected redis://HOST:PORT/DB, rediss://… or unix://PATH)") from None
    if check:
        try:
            client.ping()
        except redis.AuthenticationError as e:
            raise ServiceError(f"Redis at {redact(url)} refused our credentials: {e}", exit_code=3) from None
        except redis.ResponseError as e:
            raise ServiceError(f"Redis at {redact(url)} answered PING with an error: {e}", exit_code=3) from None
        except CONNECTION_ERRORS as e:
            raise ServiceError(f"cannot reach Redis at {redact(url)}: {e}", exit_code=3) from None
    return client


def is_nogroup(e: Exception) -> bool:
    """The stream or its consumer group does not exist (also inside a pipeline's error message)."""
    return isinstance(e, redis.ResponseError) and "NOGROUP" in str(e)


# Store the results of a read: SET NX, SADD to the batch's done set, XACK and XDEL, for each entry,
# atomically. KEYS: stream, stats, then per entry (result key, done set). ARGV: group, ttl, then per
# entry (entry id, job key, result bytes or '' when the result was found to exist before running).
STORE_LUA = """
local stored, dup, orphan = 0, 0, 0
local ttl = tonumber(ARGV[2])
local n = (#KEYS - 2) / 2
for i = 0, n - 1 do
  local rkey, done = KEYS[3 + 2 * i], KEYS[4 + 2 * i]
  local id, jk, val = ARGV[3 + 3 * i], ARGV[4 + 3 * i], ARGV[5 + 3 * i]
  local ack = true
  if val ~= '' then
    local fresh
    if ttl > 0 then fresh = redis.call('SET', rkey, val, 'NX', 'EX', ttl)
    else fresh = redis.call('SET', rkey, val, 'NX') end
    if fresh then stored = stored + 1 else dup = dup + 1 end
  elseif redis.call('EXISTS', rkey) == 1 then
    dup = dup + 1
  else
    ack = false
    orphan = orphan + 1
  end
  if ack then
    redis.call('SADD', done, jk)
    if ttl > 0 then redis.call('EXPIRE', done, ttl) end
    redis.call('XACK', KEYS[1], ARGV[1], id)
    redis.call('XDEL', KEYS[1], id)
  end
end
if stored > 0 then redis.call('HINCRBY', KEYS[2], 'stored', stored) end
if dup > 0 then redis.call('HINCRBY', KEYS[2], 'duplicates', dup) end
return {stored, dup, orphan}
"""


@dataclass
class Keys:
    prefix: str = DEFAULT_PREFIX

    @property
    def stream(self) -> str:
        return f"{self.prefix}:jobs"

    @property
    def dead(self) -> str:
        return f"{self.prefix}:dead"

    @property
    def stats(self) -> str:
        return f"{self.prefix}:stats"

    def result(self, job_key: str) -> str:
        return f"{self.prefix}:result:{job_key}"

    def batch(self, batch_id: str) -> str:
        return f"{self.prefix}:batch:{batch_id}"

    def done(self, batch_id: str) -> str:
        return f"{self.prefix}:batch:{batch_id}:done"

    def dead_set(self, batch_id: str) -> str:
        return f"{self.prefix}:batch:{batch_id}:dead"

    def errors(self, batch_id: str) -> str:
        return f"{self.prefix}:batch:{batch_id}:errors"


@dataclass
class BatchState:
    """Where a batch stands: results by job key, dead-lettered job keys with their error text."""

    plan: BatchPlan
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    dead: dict[str, str] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.plan)

    def missing_seeds(self) -> list[int]:
        keys = self.plan.keys()
        return [s for s, k in zip(self.plan.seeds, keys) if k not in self.results and k not in self.dead]

    def dead_seeds(self) -> list[tuple[int, str]]:
        keys = self.plan.keys()
        return [(s, self.dead[k]) for s, k in zip(self.plan.seeds, keys) if k in self.dead and k not in self.results]


class RedisQueue:
    """The submitting and collecting side of the queue."""

    def __init__(self, url: str, *, prefix: str = DEFAULT_PREFIX, ttl: int = DEFAULT_TTL, check: bool = True) -> None:
        self.url = url
        self.keys = Keys(prefix)
        self.ttl = ttl
        self.r: Any = connect(url, check=check)  # replies are bytes (decode_responses off)

    # ---- the stream --------------------------------------------------------------------------
    def ensure_group(self) -> None:
        try:
            self.r.xgroup_create(self.keys.stream, GROUP, id="0", mkstream=True)
        except redis.ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    def group_exists(self) -> bool:
        try:
            groups = self.r.xinfo_groups(self.keys.stream)
        except redis.ResponseError:  # no such key
            return False
        return any(_s(g.get("name") if isinstance(g, dict) else None) == GROUP for g in groups)

    # ---- submit ------------------------------------------------------------------------------
    def save_plan(self, plan: BatchPlan) -> None:
        self.r.set(self.keys.batch(plan.id), plan.to_record(), ex=self.ttl or None)

    def load_plan(self, batch_id: str) -> BatchPlan | None:
        data = self.r.get(self.keys.batch(batch_id))
        if data is None:
            return None
        return BatchPlan.from_record(data, f"batch record {self.keys.batch(batch_id)}")

    def submit(self, plan: BatchPlan, *, chunk: int = 1000) -> int:
        """Store the batch record and add every job that has no result yet; returns how many were added.

        Jobs whose result already exists (the same job key, from an earlier batch) count as done at once.
        """
        self.ensure_group()
        self.save_plan(plan)
        return self.enqueue(plan, plan.seeds, chunk=chunk)

    def enqueue(self, plan: BatchPlan, seeds: Iterable[int], *, chunk: int = 1000) -> int:
        wanted = set(seeds)
        items = [(s, k, p) for s, k, p in plan.jobs() if s in wanted]
        added = 0
        done_key = self.keys.done(plan.id)
        batch = plan.id.encode()
        for i in range(0, len(items), chunk):
            part = items[i:i + chunk]
            pipe = self.r.pipeline(transaction=False)
            for _, k, _ in part:
                pipe.exists(self.keys.result(k))
            exists = pipe.execute()
            pipe = self.r.pipeline(transaction=False)
            known = [k for (_, k, _), e in zip(part, exists) if e]
            if known:
                pipe.sadd(done_key, *known)
                if self.ttl:
                    pipe.expire(done_key, self.ttl)
            for (_, k, payload), e in zip(part, exists):
                if not e:
                    pipe.xadd(self.keys.stream, {"job": payload, "key": k, "batch": batch})
                    added += 1
            pipe.execute()
        return added

    # ---- collect -----------------------------------------------------------------------------
    def counts(self, batch_id: str) -> tuple[int, int]:
        pipe = self.r.pipeline(transaction=False)
        pipe.scard(self.keys.done(batch_id))
        pipe.scard(self.keys.dead_set(batch_id))
        done, dead = pipe.execute()
        return int(done), int(dead)

    def state(self, plan: BatchPlan, *, chunk: int = 1000) -> BatchState:
        st = BatchState(plan)
        keys = plan.keys()
        for i in range(0, len(keys), chunk):
            part = keys[i:i + chunk]
            for k, v in zip(part, self.r.mget([self.keys.result(k) for k in part])):
                if v is not None:
                    st.results[k] = decode(v)
        for k, err in self.r.hgetall(self.keys.errors(plan.id)).items():
            st.dead[_s(k)] = _s(err)
        for k in self.r.smembers(self.keys.dead_set(plan.id)):
            st.dead.setdefault(_s(k), "dead-lettered")
        return st

    def stats(self) -> dict[str, int]:
        return {_s(k): int(v) for k, v in self.r.hgetall(self.keys.stats).items()}

    def dead_letters(self, count: int = 100) -> list[dict[str, Any]]:
        out = []
        for entry_id, fields in self.r.xrange(self.keys.dead, count=count):
            d: dict[str, Any] = {"id": _s(entry_id)}
            for k, v in fields.items():
                d[_s(k)] = v if _s(k) == "job" else _s(v)
            out.append(d)
        return out


def _s(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


# --------------------------------------------------------------------------------------------
# waiting for a batch (collect, batch --redis)
# --------------------------------------------------------------------------------------------
def find_plan(q: RedisQueue, batch_id: str, manifest: Path | None) -> tuple[BatchPlan, bool]:
    """The batch's job list: from Redis, else from the manifest file. (plan, lost) — ``lost`` when
    Redis no longer knows the batch (it was restarted without its data)."""
    plan = q.load_plan(batch_id)
    if plan is not None:
        return plan, False
    path = manifest or default_manifest(batch_id)
    if not path.is_file():
        raise ServiceError(
            f"batch {batch_id!r} is unknown to Redis at {redact(q.url)} (no batch record) and there is no "
            f"manifest at {path}; pass --manifest FILE (written by submit)",
            exit_code=2,
        )
    plan = read_manifest(path)
    if plan.id != batch_id:
        raise ServiceError(f"manifest {path} is for batch {plan.id!r}, not {batch_id!r}", exit_code=2)
    return plan, True


def wait_batch(
    q: RedisQueue,
    plan: BatchPlan,
    *,
    timeout: float | None = None,
    resubmit: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
    say: Callable[[str], None] = lambda s: None,
    poll: float = 0.02,
    check_every: float = 1.0,
) -> BatchState:
    """Wait until every job of ``plan`` has a result or is dead (or ``timeout`` seconds passed).

    ``resubmit``: add again, at once, every job that has no result and is not dead. Whatever
    ``resubmit`` says, when the batch record, the stream or its group are gone (a Redis restart that
    lost the data) the batch record is restored and the jobs with no result are resubmitted.
    Connection errors are waited out (until the timeout).
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    total = len(plan)
    next_check = 0.0
    down_since: float | None = None
    force = resubmit
    while True:
        try:
            now = time.monotonic()
            if force or now >= next_check:
                lost = not q.group_exists() or not q.r.exists(q.keys.batch(plan.id))
                if force or lost:
                    why = "asked to (--resubmit)" if force and not lost else "Redis lost the batch's jobs"
                    q.ensure_group()
                    q.save_plan(plan)
                    st = q.state(plan)
                    missing = st.missing_seeds()
                    if missing:
                        added = q.enqueue(plan, missing)
                        say(f"resubmitting {added} job(s) of batch {plan.id} that have no result ({why})")
                    force = False
                next_check = now + check_every
            done, dead = q.counts(plan.id)
            if down_since is not None:
                say("Redis is reachable again")
                down_since = None
            if on_progress:
                on_progress(min(done, total), min(dead, total))
            if done + dead >= total:
                st = q.state(plan)
                if len(st.results) + len(st.dead_seeds()) >= total:
                    return st
                # a done-set member without its result (expired or lost): look again soon
                next_check = 0.0
        except CONNECTION_ERRORS as e:
            if down_since is None:
                down_since = time.monotonic()
                say(f"lost Redis at {redact(q.url)} ({e}); waiting for it")
            next_check = 0.0  # when it is back, check whether it lost the batch
        if deadline is not None and time.monotonic() >= deadline:
            try:
                return q.state(plan)
            except CONNECTION_ERRORS as e:
                raise ServiceError(
                    f"timed out after {timeout:g} s and Redis at {redact(q.url)} is unreachable ({e}); "
                    f"no results could be read", exit_code=3) from None
        time.sleep(poll if down_since is None else 0.5)


def incomplete_message(st: BatchState, *, timeout: float | None = None, limit: int = 5) -> str:
    """What is missing, in words: how many results are missing and which jobs are dead."""
    total = len(st.plan)
    missing = st.missing_seeds()
    dead = st.dead_seeds()
    parts = []
    if timeout is not None and missing:
        parts.append(f"timed out after {timeout:g} s:")
    parts.append(f"batch {st.plan.id} is incomplete: {len(st.results)} of {total} results,")
    parts.append(f"{len(missing)} missing, {len(dead)} dead-lettered")
    msg = " ".join(parts)
    if missing:
        shown = ", ".join(str(s) for s in missing[:limit]) + (", …" if len(missing) > limit else "")
        msg += f"\n  missing seeds: {shown}"
    for s, err in dead[:limit]:
        msg += f"\n  dead seed {s}: {err}"
    if len(dead) > limit:
        msg += f"\n  … and {len(dead) - limit} more dead (see the dead-letter stream)"
    return msg
