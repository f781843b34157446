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
import hashlib
import math
import os
import ssl
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

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
    """The URL without its password, for messages and logs. Never raises, whatever the URL holds (a port
    that is not a number, a bracket left open…): the netloc is cut by hand as ``urlsplit`` cuts it (the
    last ``@``, then the first ``:`` of what is before it)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    netloc, tail = rest[:end], rest[end:]
    userinfo, at, hostport = netloc.rpartition("@")
    user, colon, password = userinfo.partition(":")
    if not at or not colon or not password:
        return url
    return f"{scheme}://{user}:***@{hostport}{tail}"


URL_FORMS = "expected redis://[USER:PASSWORD@]HOST:PORT/DB, rediss://… for TLS, or unix://PATH"
# the options a URL may carry (``?name=value``), and what each must be; realmsim sets the socket timeouts,
# the protocol and the retries itself (a URL that changed them would break blocking reads)
_BOOL = {"1", "0", "true", "false", "yes", "no", "y", "n", "t", "f"}
URL_OPTIONS: dict[str, str] = {
    "db": "an integer >= 0",
    "client_name": "a name",
    "health_check_interval": "an integer >= 0 (seconds)",
    "socket_keepalive": "true or false",
}
TLS_URL_OPTIONS: dict[str, str] = {
    "ssl_cert_reqs": "none, optional or required",
    "ssl_check_hostname": "true or false",
    "ssl_ca_certs": "a CA file (or use --redis-ca)",
    "ssl_ca_path": "a folder of CA certificates",
    "ssl_certfile": "a client certificate file",
    "ssl_keyfile": "a client key file",
}


def _option_ok(name: str, value: str) -> bool:
    if name in ("db", "health_check_interval"):
        return value.isascii() and value.isdigit()
    if name in ("socket_keepalive", "ssl_check_hostname"):
        return value.lower() in _BOOL
    if name == "ssl_cert_reqs":
        return value in ("none", "optional", "required")
    return bool(value)


def check_url(url: str) -> None:
    """A malformed Redis URL is a :class:`UsageError` (one line, exit 2) naming what is wrong, the password
    hidden — never a traceback later, and never a silent default (``redis://host:6379/abc`` is not DB 0)."""
    from urllib.parse import parse_qsl, unquote

    shown = repr(redact(url))

    def bad(what: str) -> UsageError:
        return UsageError(f"--redis {shown}: {what} ({URL_FORMS})")

    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme not in ("redis", "rediss", "unix"):
        raise bad(f"the scheme {scheme[:20]!r} is not redis, rediss or unix" if scheme else "no scheme")
    if any(ord(c) < 32 or ord(c) == 127 for c in url):
        raise bad("a control character in the URL")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        text = str(e)
        if "Port could not be cast" in text:
            text = "the port " + text.rsplit(" as ", 1)[-1] + " is not a number"
        elif "out of range" in text:
            text = "the port is out of range (1 to 65535)"
        raise bad(text) from None
    if parts.fragment:
        raise bad(f"a fragment #{parts.fragment[:40]!r} (nothing follows # in a Redis URL)")
    try:
        query = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        raise bad(f"the options ?{parts.query[:80]} are not NAME=VALUE pairs joined by &") from None
    seen: set[str] = set()
    for name, value in query:
        known = URL_OPTIONS.get(name) or TLS_URL_OPTIONS.get(name)
        if known is None:
            allowed = ", ".join([*URL_OPTIONS, *(TLS_URL_OPTIONS if scheme == "rediss" else {})])
            raise bad(f"unknown option {name[:40]!r} (a URL may carry {allowed})")
        if name in TLS_URL_OPTIONS and scheme != "rediss":
            raise bad(f"option {name} is only for a TLS URL (rediss://)")
        if name in seen:
            raise bad(f"option {name} is given twice")
        seen.add(name)
        if not _option_ok(name, value):
            raise bad(f"option {name}={value[:40]!r}: expected {known}")
    if scheme == "unix":
        if not parts.path or parts.path == "/":
            raise bad("no socket path after unix://")
        return
    if port is not None and port == 0:
        raise bad("port 0 (expected a port from 1 to 65535)")
    if parts.netloc and not parts.hostname:
        raise bad("no host name")
    db = unquote(parts.path).strip("/") if parts.path else ""
    if db and not (db.isascii() and db.isdigit()):
        raise bad(f"the database {db[:40]!r} is not a number (/0, /1… after the host)")


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
    check_url(url)
    kwargs: dict[str, Any] = {}
    if ca is not None:
        if not url.lower().startswith("rediss://"):
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
        pool = client.connection_pool  # the connection's options are checked when one is made (not connected)
        pool.connection_class(**pool.connection_kwargs)
    except (ValueError, TypeError, redis.RedisError) as e:
        raise UsageError(f"--redis {redact(url)!r}: {e} ({URL_FORMS})") from None
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


def _speaks_plain_redis(url: str, timeout: float = 2.0) -> bool:
    """Does the host and port of ``url`` answer a plain-text PING (a Redis without TLS)?"""
    import socket

    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "localhost", parts.port or 6379
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"PING\r\n")
            reply = s.recv(64)
    except (OSError, ValueError):
        return False
    return reply[:1] in (b"+", b"-")  # +PONG, or -NOAUTH / -ERR: a Redis reply, not a TLS record


def _connection_text(e: BaseException, url: str) -> str:
    """Why a connection failed, with what to do about a TLS failure."""
    text = str(e)
    cause: BaseException | None = e
    while cause is not None and not isinstance(cause, ssl.SSLError):
        cause = cause.__cause__ or cause.__context__
    tls = isinstance(cause, ssl.SSLError) or "SSL" in text or "certificate" in text.lower()
    is_tls_url = url.lower().startswith("rediss://")
    if is_tls_url and not isinstance(e, ConnectionRefusedError) and "refused" not in text.lower() \
            and _speaks_plain_redis(url):
        return (f"TLS handshake failed ({text}): the server at this port speaks plain Redis, not TLS; use redis://… "
                f"for it (or the server's TLS port)")
    if tls and is_tls_url:
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


class SubmitError(ServiceError):
    """``submit`` failed part of the way; ``removed``: what it had queued was removed again."""

    def __init__(self, message: str, *, removed: bool) -> None:
        super().__init__(message, exit_code=3)
        self.removed = removed


# why a worker refused a job without running it, when its signature does not check (docs/workers.md)
MISMATCH_REASONS = {
    "unsigned": f"unsigned, and the workers have {signing.ENV} set",
    "bad-signature": f"not signed with the workers' {signing.ENV}",
}
MISMATCH_FIX = f"workers and submitter use different secrets: set the same {signing.ENV} on both"
DEFAULT_RESUBMIT_AFTER = 60.0  # collect queues a job again once it has been gone this long (--resubmit-after)


def quote(text: str, limit: int = 200) -> str:
    """Text read from Redis, shown as data: quoted, control characters escaped, cut."""
    cut = text if len(text) <= limit else text[:limit]
    return repr(cut) + ("…" if cut is not text else "")


@dataclass
class BatchState:
    """Where a batch stands: results by job key, dead-lettered job keys with their error text, the results
    refused (job key -> why), the dead marks ignored (job key -> why: not signed, not a job of the batch),
    the jobs workers refused for their signature (job key -> reason word), and whether the dead marks'
    texts were signed (``REALMSIM_SECRET`` set)."""

    plan: BatchPlan
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    dead: dict[str, str] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)
    ignored: dict[str, str] = field(default_factory=dict)
    mismatch: dict[str, str] = field(default_factory=dict)
    signed: bool = False

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
        if any(why.startswith(("unsigned result", "wrongly signed result")) for why in self.refused.values()):
            msg += (f"\n  if the workers stored them: {MISMATCH_FIX} (the submitting host, every worker and the "
                    f"collecting host)")
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


# Entries of one batch in a stream (the job stream or the dead-letter stream), without their payloads: for
# each entry of ARGV[3] among the ARGV[2] entries from ARGV[1] on, its id, the SHA-1 of its job field, its
# sig and reason fields. Read-only (and allowed when Redis is out of memory: submit's undo uses it).
# KEYS: stream. Returns {last id read, entries read, {{id, sha1, sig, reason}, …}}.
SCAN_LUA = """#!lua flags=no-writes,allow-oom
local entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', tonumber(ARGV[2]))
local found = {}
for _, e in ipairs(entries) do
  local f = e[2]
  local batch, job, sig, reason = nil, '', '', ''
  for i = 1, #f, 2 do
    local k = f[i]
    if k == 'batch' then batch = f[i + 1]
    elseif k == 'job' then job = f[i + 1]
    elseif k == 'sig' then sig = f[i + 1]
    elseif k == 'reason' then reason = f[i + 1] end
  end
  if batch == ARGV[3] then
    found[#found + 1] = {e[1], redis.sha1hex(job), sig, reason}
  end
end
local last = ''
if #entries > 0 then last = entries[#entries][1] end
return {last, #entries, found}
"""


@dataclass
class Scanned:
    """One entry of a batch found by :meth:`RedisQueue.scan`."""

    id: bytes
    sha1: str  # of its job field
    sig: bytes
    reason: str


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

    def scan(self, stream: str, batch_id: str, *, start: str | bytes = "-", count: int = 500,
             calls: int | None = None) -> tuple[list[Scanned], str | bytes, bool]:
        """The entries of ``batch_id`` in ``stream`` from ``start`` on, ``count`` entries a call (the
        server reads them; only ids, digests and short fields travel), at most ``calls`` calls. Returns
        (the entries found, where to go on from next time, whether the end was reached)."""
        found: list[Scanned] = []
        n = 0
        while calls is None or n < calls:
            n += 1
            last, read, items = self.r.eval(SCAN_LUA, 1, stream, start, count, batch_id)
            for fid, sha, sig, reason in items:
                found.append(Scanned(fid, _s(sha), sig or b"", _s(reason)))
            if last:
                start = b"(" + last
            if int(read) < count:
                return found, start, True
        return found, start, False

    def scan_count(self, plan: BatchPlan) -> int:
        """Entries per scan call: about 8 MiB of payloads (the server holds a call's entries at once)."""
        if not plan.seeds:
            return 1000
        from workers.job import encode

        return max(10, min(1000, (8 << 20) // max(1, len(encode(plan.job(plan.seeds[0]))))))

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
        All or nothing: when Redis fails part of the way (out of memory, gone), what was queued is removed
        again and :class:`SubmitError` says so (exit status 3), naming the batch.
        """
        self.check_size(plan)
        ids: list[bytes] = []
        try:
            self.ensure_group()
            self.save_plan(plan)
            return self.enqueue(plan, plan.seeds, chunk=chunk, ids=ids)
        except (redis.RedisError, *CONNECTION_ERRORS) as e:
            raise self._undo_submit(plan, ids, e) from None

    def _undo_submit(self, plan: BatchPlan, ids: list[bytes], error: BaseException) -> SubmitError:
        """Remove every entry of ``plan`` from the stream (those we know of, and any other with its batch id:
        a pipeline cut short does not say which went in) and its keys; the error to raise."""
        what = _brief(error)
        try:
            found, _, _ = self.scan(self.keys.stream, plan.id, count=self.scan_count(plan))
            every = list(dict.fromkeys([*ids, *(f.id for f in found)]))
            for i in range(0, len(every), 1000):
                part = every[i:i + 1000]
                pipe = self.r.pipeline(transaction=False)
                pipe.xack(self.keys.stream, GROUP, *part)  # (read already? then no worker holds it any more)
                pipe.xdel(self.keys.stream, *part)
                pipe.execute()
            self.r.delete(self.keys.batch(plan.id), self.keys.done(plan.id), self.keys.dead_set(plan.id),
                          self.keys.errors(plan.id))
        except (redis.RedisError, *CONNECTION_ERRORS) as e2:
            return SubmitError(
                f"submitting batch {plan.id} to {redact(self.url)} failed after {len(ids)} of {len(plan)} job(s) were "
                f"queued ({what}), and removing them failed too ({_brief(e2)}): jobs of batch {plan.id} may stay "
                f"queued and run; once Redis is back, `realmsim collect {plan.id}` finishes the batch (its manifest "
                f"is kept), or submit again", removed=False)
        return SubmitError(
            f"submitting batch {plan.id} to {redact(self.url)} failed after {len(every)} of {len(plan)} job(s) were "
            f"queued ({what}); removed them and the batch record again: nothing of batch {plan.id} is left in "
            f"Redis (submit again once Redis can take it)", removed=True)

    def enqueue(self, plan: BatchPlan, seeds: Iterable[int], *, chunk: int = 1000, ids: list[bytes] | None = None
                ) -> int:
        """Add the jobs of ``seeds`` that have no result (``ids``: gets the ids of the entries added, also
        when a pipeline fails part of the way: the first error is raised after)."""
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
            first = 0
            if known:
                pipe.sadd(done_key, *known)
                first += 1
                if self.ttl:
                    pipe.expire(done_key, self.ttl)
                    first += 1
            for (_, k, payload), e in zip(part, exists):
                if not e:
                    fields = {"job": payload, "key": k, "batch": batch}
                    if self.secret is not None:
                        fields["sig"] = signing.sign_job(self.secret, batch, payload)
                    pipe.xadd(self.keys.stream, fields)
            replies = pipe.execute(raise_on_error=False)
            new = [r for r in replies[first:] if not isinstance(r, Exception)]
            added += len(new)
            if ids is not None:
                ids.extend(new)
            errors = [r for r in replies if isinstance(r, Exception)]
            if errors:
                raise errors[0]
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
            st.mismatch.pop(k, None)
        return self.enqueue(plan, seeds)

    # ---- collect -----------------------------------------------------------------------------
    def counts(self, batch_id: str) -> tuple[int, int]:
        pipe = self.r.pipeline(transaction=False)
        pipe.scard(self.keys.done(batch_id))
        pipe.scard(self.keys.dead_set(batch_id))
        done, dead = pipe.execute()
        return int(done), int(dead)

    def dead_marks(self, plan: BatchPlan, keys: set[str] | None = None) -> tuple[dict[str, str], dict[str, str]]:
        """The batch's dead marks: (job key -> error text of the marks that hold, job key -> why a mark is
        ignored). With ``REALMSIM_SECRET`` a mark holds only with its error text signed by a worker for this
        batch and job; without it every mark of one of the batch's jobs holds (anyone who can write to
        Redis is trusted: docs/workers.md, "Threat model")."""
        keys = set(plan.keys()) if keys is None else keys
        pipe = self.r.pipeline(transaction=False)
        pipe.hgetall(self.keys.errors(plan.id))
        pipe.smembers(self.keys.dead_set(plan.id))
        errors, members = pipe.execute()
        dead: dict[str, str] = {}
        ignored: dict[str, str] = {}
        for raw, stored in errors.items():
            k = _s(raw)
            if k not in keys:
                ignored[k] = "not a job of this batch"
                continue
            try:
                dead[k] = signing.check_mark(self.secret, plan.id, k, stored)
            except signing.SignatureError as e:
                ignored[k] = str(e)
        for raw in members:
            k = _s(raw)
            if k in dead or k in ignored:
                continue
            if k not in keys:
                ignored[k] = "not a job of this batch"
            elif self.secret is not None:
                ignored[k] = f"a dead mark without a signed error text ({signing.ENV} is set)"
            else:
                dead[k] = "dead-lettered"
        return dead, ignored

    def state(self, plan: BatchPlan, *, chunk: int = 1000) -> BatchState:
        """Every result of ``plan`` there is, each checked against its job (:func:`check_result`), and its
        dead marks that hold (:meth:`dead_marks`)."""
        st = BatchState(plan, signed=self.secret is not None)
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
        st.dead, st.ignored = self.dead_marks(plan, set(keys))
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


def _brief(e: BaseException) -> str:
    """An error in one line, without a pipeline's echo of its command."""
    msg = str(e).split("caused error: ", 1)[-1]
    return f"{type(e).__name__}: {msg}"


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


class _Watch:
    """What :func:`wait_batch` keeps an eye on besides the counts: jobs gone from the queue with no result
    (queued again after ``resubmit_after`` seconds, then twice as long each time), jobs the workers refused
    for their signature (said at once), and dead marks that do not hold (said, and ignored)."""

    def __init__(self, q: RedisQueue, plan: BatchPlan, resubmit_after: float | None, say: Callable[[str], None]
                 ) -> None:
        self.q = q
        self.plan = plan
        self.keys = plan.keys()
        self.key_set = set(self.keys)
        self.seed_of = dict(zip(self.keys, plan.seeds))
        self.resubmit_after = resubmit_after
        self.say = say
        self.scan_every = 0.0 if resubmit_after is None else min(15.0, max(0.2, resubmit_after / 4))
        self.next_scan = math.inf if resubmit_after is None else time.monotonic() + self.scan_every
        self.count = q.scan_count(plan)
        self._expected: dict[str, tuple[str, bytes]] | None = None
        self.gone_since: dict[str, float] = {}  # job key -> when first seen gone (no entry, no result, not dead)
        self.requeued: dict[str, int] = {}  # job key -> times queued again by this wait
        self.refused_by_workers: dict[str, str] = {}  # job key -> reason (unsigned / bad-signature)
        self.letters_cursor: bytes | str = "-"
        self.letters_said: set[str] = set()
        self.mismatch_dead: dict[str, str] = {}  # without a secret: refused by workers and no longer queued
        self.ignored_said: set[str] = set()
        self.dead_ok = 0  # with a secret: the dead marks that hold (the dead set can be written by anyone)
        self._dead_seen = -1

    @property
    def expected(self) -> dict[str, tuple[str, bytes]]:
        """SHA-1 of each job's payload -> (job key, the sig field it carries)."""
        if self._expected is None:
            b = self.plan.id.encode()
            sk = self.q.secret
            self._expected = {hashlib.sha1(p).hexdigest(): (k, signing.sign_job(sk, b, p) if sk else b"")
                              for _, k, p in self.plan.jobs()}
        return self._expected

    def forget(self) -> None:
        self.gone_since.clear()

    # ---- dead letters of jobs refused for their signature ---------------------------------------
    def read_letters(self) -> bool:
        """Look at the dead letters written since last time (a few thousand at most per call) for jobs of
        this batch refused as unsigned or wrongly signed; say so the first time. True when new ones came."""
        found, self.letters_cursor, _ = self.q.scan(self.q.keys.dead, self.plan.id, start=self.letters_cursor,
                                                    count=self.count, calls=20)
        new: dict[str, str] = {}
        for f in found:
            if f.reason in MISMATCH_REASONS and f.sha1 in self.expected:
                k = self.expected[f.sha1][0]
                self.refused_by_workers[k] = f.reason
                if k not in self.letters_said:
                    new[k] = f.reason
        if new:
            self.letters_said.update(new)
            reasons = sorted(set(new.values()))
            how = "; ".join(MISMATCH_REASONS[r] for r in reasons)
            then = ("they count as dead (`collect --resubmit-dead` queues them again once the secrets agree)"
                    if self.q.secret is None else
                    "waiting on: once the workers have the same secret, the jobs are queued again after "
                    "--resubmit-after (these dead letters do not fail the batch: anyone who can write to Redis "
                    "could have written them)")
            self.say(f"workers refused {len(new)} job(s) of batch {self.plan.id} without running them ({how}): "
                     f"{MISMATCH_FIX}; {then}")
        return bool(new)

    # ---- dead marks --------------------------------------------------------------------------
    def marks(self) -> tuple[dict[str, str], dict[str, str]]:
        dead, ignored = self.q.dead_marks(self.plan, self.key_set)
        self.say_ignored(ignored)
        return dead, ignored

    def say_ignored(self, ignored: dict[str, str]) -> None:
        new = {k: why for k, why in ignored.items() if k not in self.ignored_said}
        if not new:
            return
        self.ignored_said.update(new)
        k, why = min(new.items(), key=lambda kv: (self.seed_of.get(kv[0], math.inf), kv[0]))
        seed = self.seed_of.get(k)
        first = f"seed {seed}" if seed is not None else f"key {quote(k, 40)}"
        self.say(f"ignored {len(new)} dead mark(s) of batch {self.plan.id} in Redis that do not hold ({first}: "
                 f"{why}{'; …' if len(new) > 1 else ''}): written by someone without {signing.ENV}?")

    def dead_count(self, dead_in_set: int) -> int:
        """How many jobs count as dead: with a secret, the marks that hold (read again when the dead set
        changed), else the dead set's size; and the jobs refused by workers that are no longer queued."""
        if self.q.secret is None:
            return dead_in_set + len(self.mismatch_dead)
        if dead_in_set != self._dead_seen:
            self._dead_seen = dead_in_set
            self.dead_ok = len(self.marks()[0]) if dead_in_set else 0
        return self.dead_ok

    # ---- jobs gone from the queue --------------------------------------------------------------
    def scan(self, now: float) -> list[str]:
        """Which jobs have neither an entry in the stream nor a result nor a dead mark; those gone for long
        enough are returned (to queue again). The stream is read first, the results after: a job stored in
        between is seen with its result, never as gone."""
        present: set[str] = set()
        found, _, _ = self.q.scan(self.q.keys.stream, self.plan.id, count=self.count)
        for f in found:
            exp = self.expected.get(f.sha1)
            if exp is not None and (self.q.secret is None or f.sig == exp[1]):
                present.add(exp[0])
        absent = [k for k in self.keys if k not in present]
        exists: list[int] = []
        for i in range(0, len(absent), 1000):
            pipe = self.q.r.pipeline(transaction=False)
            for k in absent[i:i + 1000]:
                pipe.exists(self.q.keys.result(k))
            exists += pipe.execute()
        dead, _ = self.marks()
        gone = [k for k, e in zip(absent, exists) if not e and k not in dead]
        if self.q.secret is None:
            self.mismatch_dead = {k: self.refused_by_workers[k] for k in gone if k in self.refused_by_workers}
            gone = [k for k in gone if k not in self.mismatch_dead]
        gone_set = set(gone)
        for k in [k for k in self.gone_since if k not in gone_set]:
            del self.gone_since[k]
        for k in gone:
            self.gone_since.setdefault(k, now)
        if self.resubmit_after is None:
            return []
        due = [k for k in gone if now - self.gone_since[k] >= self.resubmit_after * 2 ** min(self.requeued.get(k, 0), 10)]
        for k in due:
            self.requeued[k] = self.requeued.get(k, 0) + 1
            del self.gone_since[k]
        return due

    def state(self) -> BatchState:
        st = self.q.state(self.plan)
        self.say_ignored(st.ignored)
        for k, reason in self.mismatch_dead.items():
            if k not in st.results and k not in st.dead:
                st.dead[k] = f"refused by a worker without running it: {MISMATCH_REASONS[reason]}"
                st.mismatch[k] = reason
        return st


def wait_batch(
    q: RedisQueue,
    plan: BatchPlan,
    *,
    timeout: float | None = None,
    resubmit: bool = False,
    resubmit_dead: bool = False,
    resubmit_after: float | None = DEFAULT_RESUBMIT_AFTER,
    on_progress: Callable[[int, int], None] | None = None,
    say: Callable[[str], None] = lambda s: None,
    poll: float = 0.02,
    check_every: float = 1.0,
) -> BatchState:
    """Wait until every job of ``plan`` has a result or is dead (or ``timeout`` seconds passed).

    ``resubmit``: add again, at once, every job that has no result and is not dead. Whatever
    ``resubmit`` says, when the batch record, the stream or its group are gone (a Redis restart that
    lost the data) the batch record is restored and the jobs with no result are resubmitted.
    ``resubmit_after``: a job that has had no entry in the stream, no result and no dead mark for this
    many seconds (deleted, or lost by Redis) is queued again, and said; then after twice as long each
    time; None: never. ``resubmit_dead``: first queue again the batch's dead-lettered jobs. Jobs that
    workers refused for their signature are said within a second or so, with the fix. Connection errors
    are waited out (until the timeout). A result that is not its job's stops the wait:
    :class:`RefusedResultsError`.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    total = len(plan)
    w = _Watch(q, plan, resubmit_after, say)
    next_check = 0.0
    down_since: float | None = None
    force = resubmit
    state_at: tuple[int, int] | None = None
    next_state = 0.0
    if resubmit_dead:
        w.read_letters()
        w.scan(time.monotonic())
        st = w.state()
        _refuse(st)
        added = q.requeue_dead(plan, st)
        w.mismatch_dead.clear()
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
                    w.forget()
                if w.read_letters():
                    w.next_scan = now  # settle at once whether they are still queued
                if now >= w.next_scan:
                    due = w.scan(now)
                    if due:
                        added = q.enqueue(plan, [w.seed_of[k] for k in due])
                        say(f"resubmitting {added} job(s) of batch {plan.id} that were gone from the queue for "
                            f"{resubmit_after:g} s or more with no result (deleted, or lost by Redis); "
                            f"--resubmit-after SECONDS sets this wait, 'never' turns it off")
                    w.next_scan = now + w.scan_every if resubmit_after is not None else math.inf
                next_check = now + check_every
            done, dead_in_set = q.counts(plan.id)
            dead = w.dead_count(dead_in_set)
            if down_since is not None:
                say("Redis is reachable again")
                down_since = None
            if on_progress:
                on_progress(min(done, total), min(dead, total))
            if done + dead >= total and ((done, dead) != state_at or now >= next_state):
                st = w.state()
                _refuse(st)
                if len(st.results) + len(st.dead_seeds()) >= total:
                    return st
                # a done-set member without its result (expired or lost), a mark that does not hold: look
                # again when the counts change, or in a while
                state_at, next_state = (done, dead), now + check_every
                next_check = 0.0
        except CONNECTION_ERRORS as e:
            if down_since is None:
                down_since = time.monotonic()
                say(f"lost Redis at {redact(q.url)} ({e}); waiting for it")
            next_check = 0.0  # when it is back, check whether it lost the batch
        if deadline is not None and time.monotonic() >= deadline:
            try:
                st = w.state()
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
    """What is missing, in words: how many results are missing and which jobs are dead (their error texts
    quoted: they were read from Redis)."""
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
    by_seed = dict(zip(st.plan.seeds, st.plan.keys()))
    whose = "signed by a worker" if st.signed else f"as stored in Redis, unchecked without {signing.ENV}"
    for s, err in dead[:limit]:
        if by_seed.get(s) in st.mismatch:
            msg += f"\n  dead seed {s}: {err}"
        else:
            msg += f"\n  dead seed {s}, error ({whose}): {quote(err)}"
    if len(dead) > limit:
        msg += f"\n  … and {len(dead) - limit} more dead (see the dead-letter stream)"
    if st.mismatch:
        msg += f"\n  {MISMATCH_FIX} (then: collect --resubmit-dead)"
    return msg
