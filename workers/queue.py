"""The Redis Streams queue (docs/DESIGN.md "Workers and batches").

Keys (``P`` is the queue prefix, ``realmsim`` by default)::

    P:jobs                   stream of jobs, consumer group ``workers``; fields job (msgpack),
                             key (job key), batch (batch id), sig (with REALMSIM_SECRET), and on
                             an entry put back failures, deaths, error, tb. Never trimmed: only
                             acknowledged entries are XDEL'd.
    P:dead                   dead-letter stream: job, key, batch, reason, error, tb, deliveries,
                             failures, deaths, size, worker, at
    P:result:<job key>       a job's result (msgpack), written only if absent (SET NX)
    P:batch:<id>             the batch record: its full job list (template + seeds, msgpack)
    P:batch:<id>:done        set of the batch's job keys that have a result
    P:batch:<id>:dead        set of the batch's job keys that were dead-lettered
    P:batch:<id>:errors      hash job key -> error text of the dead-lettered ones
    P:stats                  hash of counters: stored, duplicates, failed, dead, released

A result is keyed by the job key (scenario, seed, overrides, code version), so a job delivered twice
is stored once and counted once (the ``done`` set holds job keys). msgpack only on the wire. What is
read back is checked: a result must be its job's (job key, seed, scenario, code version) and, with
``REALMSIM_SECRET``, signed (:mod:`workers.signing`); anything else is refused.
"""

from __future__ import annotations

import argparse
import os
import ssl
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from workers import signing
from workers.batch import BatchPlan, ServiceError, UsageError, default_manifest, read_manifest
from workers.job import MAX_JOB_BYTES, decode
from workers.options import DEFAULT_PREFIX, URL_ENV

GROUP = "workers"
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




def redis_url(args: argparse.Namespace) -> str:
    url = args.redis or os.environ.get(URL_ENV, "")
    if not url:
        raise UsageError(f"--redis URL is required (or set ${URL_ENV})")
    return str(url)


def connect(url: str, *, socket_timeout: float = 10.0, check: bool = True, ca: str | None = None) -> redis.Redis:
    """A client for ``url`` (bytes replies, RESP2, no silent retries: the callers retry themselves).

    ``ca``: a CA file for a ``rediss://`` URL. A malformed URL or a missing CA file is a
    :class:`UsageError` (exit 2); a server that cannot be reached, refuses our credentials or fails
    the TLS handshake is a :class:`ServiceError` with exit status 3.
    """
    kwargs: dict[str, Any] = {}
    if ca is not None:
        if not url.startswith("rediss://"):
            raise UsageError(f"--redis-ca {ca}: only for a TLS URL (rediss://…), not {redact(url)}")
        if not os.path.isfile(ca):
            raise UsageError(f"--redis-ca {ca}: no such file (expected a CA certificate in PEM)")
        kwargs["ssl_ca_certs"] = ca
    try:
        client = redis.Redis.from_url(
            url,
            socket_timeout=socket_timeout,
            socket_connect_timeout=min(5.0, socket_timeout),
            retry=Retry(NoBackoff(), 0),
            protocol=2,
            **kwargs,
        )
    except ValueError as e:
        raise UsageError(f"--redis {redact(url)!r}: {e} (expected redis://HOST:PORT/DB, rediss://… or unix://PATH)") from None
    if check:
        try:
            client.ping()
        except (redis.AuthenticationError, redis.exceptions.AuthenticationWrongNumberOfArgsError) as e:
            if not _has_password(url):
                raise ServiceError(f"Redis at {redact(url)} requires a password ({e}); give it in the URL: "
                                   f"redis://USER:PASSWORD@HOST:PORT/DB", exit_code=3) from None
            raise ServiceError(f"Redis at {redact(url)} refused our credentials ({e}); check the user and password "
                               f"in the URL", exit_code=3) from None
        except redis.ResponseError as e:
            if "NOAUTH" in str(e):
                raise ServiceError(f"Redis at {redact(url)} requires a password ({e}); give it in the URL: "
                                   f"redis://USER:PASSWORD@HOST:PORT/DB", exit_code=3) from None
            raise ServiceError(f"Redis at {redact(url)} answered PING with an error: {e}", exit_code=3) from None
        except CONNECTION_ERRORS as e:
            raise ServiceError(f"cannot reach Redis at {redact(url)}: {_connection_text(e, url)}", exit_code=3) from None
    return client


def _has_password(url: str) -> bool:
    try:
        return bool(urlsplit(url).password)
    except ValueError:
        return False


def _connection_text(e: BaseException, url: str) -> str:
    """Why a connection failed, with what to do about a TLS failure."""
    text = str(e)
    cause: BaseException | None = e
    while cause is not None and not isinstance(cause, ssl.SSLError):
        cause = cause.__cause__ or cause.__context__
    tls = isinstance(cause, ssl.SSLError) or "SSL" in text or "certificate" in text.lower()
    if tls and url.startswith("rediss://"):
        return (f"TLS handshake failed ({text}); check --redis-ca (the CA that signed the server's certificate) "
                f"and that the host name matches the certificate")
    cut_off = any(w in text for w in ("Connection closed by server", "reset by peer", "Error while reading"))
    if tls or (cut_off and url.startswith("redis://")):
        return f"{text} (the server hung up: does it expect TLS? then use rediss://)"
    return text


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
-- what is left to read: the stream's entries less those read and not yet acknowledged (anyone's)
local pending = redis.call('XPENDING', KEYS[1], ARGV[1])[1]
return {stored, dup, orphan, redis.call('XLEN', KEYS[1]) - pending}
"""


# Remove the group's consumers idle over ARGV[2] ms with nothing pending, atomically: checked and deleted
# in one script, so a consumer that takes a job in between cannot lose it (DELCONSUMER drops its pending
# entries). KEYS: stream. ARGV: group, idle ms. Returns the names removed.
FORGET_IDLE_LUA = """
local gone = {}
local idle_ms = tonumber(ARGV[2])
for _, c in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local t = {}
  for i = 1, #c, 2 do t[c[i]] = c[i + 1] end
  if tonumber(t['pending']) == 0 and tonumber(t['idle']) >= idle_ms then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], t['name'])
    table.insert(gone, t['name'])
  end
end
return gone
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


class RefusedResultsError(ServiceError):
    """Results in Redis that are not the batch's jobs' (forged, damaged, or unsigned with a secret set)."""


@dataclass
class BatchState:
    """Where a batch stands: results by job key, dead-lettered job keys with their error text, and the
    results refused (job key -> why)."""

    plan: BatchPlan
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    dead: dict[str, str] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.plan)

    def missing_seeds(self) -> list[int]:
        keys = self.plan.keys()
        return [s for s, k in zip(self.plan.seeds, keys) if k not in self.results and k not in self.dead]

    def dead_seeds(self) -> list[tuple[int, str]]:
        keys = self.plan.keys()
        return [(s, self.dead[k]) for s, k in zip(self.plan.seeds, keys) if k in self.dead and k not in self.results]

    def refused_message(self, limit: int = 5) -> str:
        seeds = dict(zip(self.plan.keys(), self.plan.seeds))
        items = sorted(self.refused.items(), key=lambda kv: seeds.get(kv[0], -1))
        msg = (f"refused {len(items)} result(s) of batch {self.plan.id} that are not its jobs' (forged or damaged; "
               f"nothing was written):")
        for k, why in items[:limit]:
            msg += f"\n  seed {seeds.get(k, '?')} (job {k}): {why}"
        if len(items) > limit:
            msg += f"\n  … and {len(items) - limit} more"
        return msg


def check_result(plan: BatchPlan, seed: int, key: str, stored: bytes, secret: bytes | None) -> dict[str, Any]:
    """The result stored under ``key`` for ``seed`` of ``plan``, checked; ValueError saying why not."""
    try:
        data = signing.unwrap(secret, "result", key.encode(), stored)
    except signing.SignatureError as e:
        raise ValueError(str(e)) from None
    try:
        res = decode(data)
    except Exception as e:  # noqa: BLE001 - any undecodable bytes
        raise ValueError(f"not msgpack ({type(e).__name__}: {e})") from None
    if not isinstance(res, dict):
        raise ValueError(f"not a result map (found {type(res).__name__})")
    if res.get("job_key") != key:
        raise ValueError(f"its job_key is {_short(res.get('job_key'))}, not {key}")
    if res.get("seed") != seed or isinstance(res.get("seed"), bool):
        raise ValueError(f"its seed is {_short(res.get('seed'))}, not {seed}")
    kind = plan.template.get("kind")
    expected = plan.name if kind == "campaign" else "spin" if kind == "spin" else None
    if expected and res.get("scenario") != expected:
        raise ValueError(f"its scenario is {_short(res.get('scenario'))}, not {expected!r}")
    if kind == "campaign" and res.get("code_version") != plan.template.get("code_version"):
        raise ValueError(f"its code version is {_short(res.get('code_version'))}, not "
                         f"{plan.template.get('code_version')!r}")
    if not isinstance(res.get("summary", {}), dict) or not isinstance(res.get("ledger_sha256", ""), str):
        raise ValueError("its summary or ledger_sha256 has the wrong type")
    return res


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:60] + "…"


class RedisQueue:
    """The submitting and collecting side of the queue."""

    def __init__(self, url: str, *, prefix: str = DEFAULT_PREFIX, ttl: int = DEFAULT_TTL, check: bool = True,
                 ca: str | None = None, max_job_bytes: int = MAX_JOB_BYTES) -> None:
        self.url = url
        self.keys = Keys(prefix)
        self.ttl = ttl
        self.max_job_bytes = max_job_bytes
        self.secret = signing.secret()
        self.r: Any = connect(url, check=check, ca=ca)  # replies are bytes (decode_responses off)

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
        record = signing.wrap(self.secret, "batch", plan.id.encode(), plan.to_record())
        self.r.set(self.keys.batch(plan.id), record, ex=self.ttl or None)

    def load_plan(self, batch_id: str) -> BatchPlan | None:
        data = self.r.get(self.keys.batch(batch_id))
        if data is None:
            return None
        where = f"batch record {self.keys.batch(batch_id)}"
        try:
            data = signing.unwrap(self.secret, "batch", batch_id.encode(), data)
        except signing.SignatureError as e:
            raise ServiceError(f"{where}: {e}; refused", exit_code=1) from None
        plan = BatchPlan.from_record(data, where)
        if plan.id != batch_id:
            raise ServiceError(f"{where} is for batch {plan.id!r}, not {batch_id!r}; refused", exit_code=1)
        return plan

    def check_size(self, plan: BatchPlan) -> None:
        """Refuse a batch whose jobs are above the size limit (workers would dead-letter them unread)."""
        if not plan.seeds:
            return
        from workers.job import encode

        size = len(encode(plan.job(max(plan.seeds))))
        if size > self.max_job_bytes:
            raise UsageError(f"a job of {plan.name or 'this scenario'} is {size:,} bytes, above the limit of "
                             f"{self.max_job_bytes:,} bytes per job (the scenario and the files it carries are "
                             f"too large to queue)")

    def submit(self, plan: BatchPlan, *, chunk: int = 1000) -> int:
        """Store the batch record and add every job that has no result yet; returns how many were added.

        Jobs whose result already exists (the same job key, from an earlier batch) count as done at once.
        """
        self.check_size(plan)
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
                    fields = {"job": payload, "key": k, "batch": batch}
                    if self.secret is not None:
                        fields["sig"] = signing.sign_job(self.secret, batch, payload)
                    pipe.xadd(self.keys.stream, fields)
                    added += 1
            pipe.execute()
        return added

    def requeue_dead(self, plan: BatchPlan, st: BatchState) -> int:
        """Forget the batch's dead-lettered jobs (that have no result) and queue them again, with fresh
        failure and death counts; returns how many."""
        keys = set(st.dead) - set(st.results)
        seeds = [s for s, k in zip(plan.seeds, plan.keys()) if k in keys]
        if not seeds:
            return 0
        by_seed = dict(zip(plan.seeds, plan.keys()))
        gone = [by_seed[s] for s in seeds]
        pipe = self.r.pipeline(transaction=True)
        pipe.srem(self.keys.dead_set(plan.id), *gone)
        pipe.hdel(self.keys.errors(plan.id), *gone)
        pipe.execute()
        for k in gone:
            st.dead.pop(k, None)
        return self.enqueue(plan, seeds)

    # ---- collect -----------------------------------------------------------------------------
    def counts(self, batch_id: str) -> tuple[int, int]:
        pipe = self.r.pipeline(transaction=False)
        pipe.scard(self.keys.done(batch_id))
        pipe.scard(self.keys.dead_set(batch_id))
        done, dead = pipe.execute()
        return int(done), int(dead)

    def state(self, plan: BatchPlan, *, chunk: int = 1000) -> BatchState:
        """Every result of ``plan`` there is, each checked against its job (:func:`check_result`)."""
        st = BatchState(plan)
        keys = plan.keys()
        seeds = plan.seeds
        for i in range(0, len(keys), chunk):
            part = keys[i:i + chunk]
            for s, k, v in zip(seeds[i:i + chunk], part, self.r.mget([self.keys.result(k) for k in part])):
                if v is None:
                    continue
                try:
                    st.results[k] = check_result(plan, s, k, v, self.secret)
                except ValueError as e:
                    st.refused[k] = str(e)
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
    """The batch's job list. (plan, lost) — ``lost`` when Redis no longer knows the batch (it was
    restarted without its data).

    The local manifest, written by ``submit`` on this machine, is trusted over the batch record in
    Redis (which anyone who can write to Redis can change): when both exist they must agree.
    """
    path = manifest or default_manifest(batch_id)
    local = None
    if manifest is not None or path.is_file():
        local = read_manifest(path)
        if local.id != batch_id:
            raise ServiceError(f"manifest {path} is for batch {local.id!r}, not {batch_id!r}", exit_code=2)
    plan = q.load_plan(batch_id)
    if plan is not None:
        if local is not None and (plan.template != local.template or plan.seeds != local.seeds):
            raise ServiceError(f"the batch record of {batch_id} in Redis at {redact(q.url)} is not the job list of "
                               f"the manifest {path} (changed in Redis?); refused", exit_code=1)
        return plan, False
    if local is None:
        raise ServiceError(
            f"batch {batch_id!r} is unknown to Redis at {redact(q.url)} (no batch record) and there is no "
            f"manifest at {path}; pass --manifest FILE (written by submit)",
            exit_code=2,
        )
    return local, True


def wait_batch(
    q: RedisQueue,
    plan: BatchPlan,
    *,
    timeout: float | None = None,
    resubmit: bool = False,
    resubmit_dead: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
    say: Callable[[str], None] = lambda s: None,
    poll: float = 0.02,
    check_every: float = 1.0,
) -> BatchState:
    """Wait until every job of ``plan`` has a result or is dead (or ``timeout`` seconds passed).

    ``resubmit``: add again, at once, every job that has no result and is not dead. Whatever
    ``resubmit`` says, when the batch record, the stream or its group are gone (a Redis restart that
    lost the data) the batch record is restored and the jobs with no result are resubmitted.
    ``resubmit_dead``: first queue again the batch's dead-lettered jobs. Connection errors are waited
    out (until the timeout). A result that is not its job's stops the wait: :class:`RefusedResultsError`.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    total = len(plan)
    next_check = 0.0
    down_since: float | None = None
    force = resubmit
    if resubmit_dead:
        st = q.state(plan)
        _refuse(st)
        added = q.requeue_dead(plan, st)
        say(f"resubmitting {added} dead-lettered job(s) of batch {plan.id} (--resubmit-dead)")
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
                _refuse(st)
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
                st = q.state(plan)
            except CONNECTION_ERRORS as e:
                raise ServiceError(
                    f"timed out after {timeout:g} s and Redis at {redact(q.url)} is unreachable ({e}); "
                    f"no results could be read", exit_code=3) from None
            _refuse(st)
            return st
        time.sleep(poll if down_since is None else 0.5)


def _refuse(st: BatchState) -> None:
    if st.refused:
        raise RefusedResultsError(st.refused_message(), exit_code=1)


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
