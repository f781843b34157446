"""Optional signatures on what travels through Redis: with ``REALMSIM_SECRET`` set, jobs, results and
batch records carry an HMAC-SHA256 of their msgpack bytes, so a client that can write to Redis but does
not know the secret can neither make a worker run a job nor make ``collect`` accept a result.

Each signature covers a context word and what the bytes belong to (a job its batch id, a result its job
key), so a signed job can never pass for a result, nor a result for another job's. Without the secret
nothing is signed or checked, and anyone who can write to Redis is trusted (docs/workers.md, "Threat
model").
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

import msgpack

ENV = "REALMSIM_SECRET"
ALGORITHM = "hmac-sha256"


class SignatureError(ValueError):
    """Bytes that should carry a valid signature and do not (the text says which)."""


def secret() -> bytes | None:
    """The shared secret from the environment, or None (signing off)."""
    value = os.environ.get(ENV, "")
    return value.encode() if value else None


def mac(key: bytes, context: str, bound: bytes, data: bytes) -> bytes:
    return hmac.new(key, context.encode() + b"\0" + bound + b"\0" + data, hashlib.sha256).digest()


def sign_job(key: bytes, batch: bytes, payload: bytes) -> bytes:
    """The ``sig`` field of a job entry: hex of the MAC over the batch id and the job bytes."""
    return mac(key, "job", batch, payload).hex().encode()


def check_job(key: bytes, batch: bytes, payload: bytes, sig: bytes | None) -> None:
    if not sig:
        raise SignatureError(f"unsigned job ({ENV} is set on this worker)")
    if not hmac.compare_digest(sign_job(key, batch, payload), sig):
        raise SignatureError("wrongly signed job (not signed with this worker's secret)")


def wrap(key: bytes | None, context: str, bound: bytes, data: bytes) -> bytes:
    """``data`` as stored: itself when signing is off, else an envelope with its MAC."""
    if key is None:
        return data
    return msgpack.packb({"signed": ALGORITHM, "mac": mac(key, context, bound, data), "body": data},
                         use_bin_type=True)


def unwrap(key: bytes | None, context: str, bound: bytes, stored: bytes) -> bytes:
    """The bytes inside ``stored``; SignatureError when a secret is set and they are not signed with it.

    Without a secret an envelope is opened unchecked (there is nothing to check it with)."""
    env = _envelope(stored)
    if env is None:
        if key is not None:
            raise SignatureError(f"unsigned {context} ({ENV} is set)")
        return stored
    body = env["body"]
    if key is not None and not hmac.compare_digest(mac(key, context, bound, body), env["mac"]):
        raise SignatureError(f"wrongly signed {context} (not signed with this {ENV})")
    return bytes(body)


def _envelope(stored: bytes) -> dict[str, Any] | None:
    if not stored or stored[0] not in (0x83, 0xDE):  # an envelope is a map of three
        return None
    try:
        env = msgpack.unpackb(stored, raw=False)
    except Exception:  # noqa: BLE001 - not an envelope: the caller decodes (and refuses) it
        return None
    if (isinstance(env, dict) and env.get("signed") == ALGORITHM and isinstance(env.get("mac"), bytes)
            and isinstance(env.get("body"), bytes)):
        return env
    return None


# ---- what a worker writes about a job: dead marks and the counters of a job put back ---------------
def mark_bound(batch: str, job_key: str) -> bytes:
    """What a batch's dead mark (its error text in ``P:batch:B:errors``) is bound to: the batch and job."""
    return batch.encode() + b"\0" + job_key.encode()


def sign_mark(key: bytes | None, batch: str, job_key: str, error: str) -> bytes:
    """The value a worker stores for a dead-lettered job of a batch: its error text, signed when a secret
    is set (so a writer without the secret cannot mark a job dead, nor choose the words ``collect`` shows)."""
    return wrap(key, "dead", mark_bound(batch, job_key), error.encode())


def check_mark(key: bytes | None, batch: str, job_key: str, stored: bytes) -> str:
    """The error text of a dead mark; SignatureError when a secret is set and the mark is not signed with it."""
    return unwrap(key, "dead", mark_bound(batch, job_key), stored).decode("utf-8", "replace")


def sign_counts(key: bytes, batch: bytes, job_key: bytes, failures: bytes, deaths: bytes, error: bytes, tb: bytes
                ) -> bytes:
    """The ``csig`` field of an entry put back: the MAC over its counters and last error, bound to its
    batch and job, so that a copy of a signed job with ``failures`` or ``deaths`` raised (or a last error
    of someone's choosing) is not taken for a job that failed or whose workers died."""
    body = msgpack.packb([failures, deaths, error, tb], use_bin_type=True)
    return mac(key, "counts", batch + b"\0" + job_key, body).hex().encode()


def counts_ok(key: bytes, batch: bytes, job_key: bytes, failures: bytes, deaths: bytes, error: bytes, tb: bytes,
              sig: bytes | None) -> bool:
    return bool(sig) and hmac.compare_digest(sign_counts(key, batch, job_key, failures, deaths, error, tb), sig or b"")
