"""The one pure job function: msgpack bytes in, msgpack bytes out. It never touches Redis.

Job (a msgpack map)::

    {"v": 1, "kind": "campaign",
     "scenario": {"name": "caravan-crossing"}  or  {"label": "my.toml", "text": "<TOML>"},
     "seed": 7, "overrides": {"cv.fatigued_penalty": 3}, "code_version": "0.1.0+abc…",
     "want_ledger": false}

``kind`` may also be ``noop`` (returns at once; used to measure queue overhead) or ``spin``
(``overrides = {"rounds": N}``: N chained SHA-256 rounds over the seed, a deterministic CPU-bound job
of known length for the queue's tests and benchmarks; its digest stands in for ``ledger_sha256``).

Result (a msgpack map)::

    {"v": 1, "job_key": "…", "scenario": "caravan-crossing", "seed": 7, "code_version": "…",
     "summary": {…}, "factions": {"convoy:amber": {"kind", "policy", "score", "unit", "terms",
     "metrics"}, …}, "events": 1234, "ledger_sha256": "…", "ledger": <bytes> (only if asked)}

A job is keyed by scenario, seed, overrides and code version (``job_key``), so a redelivered job can
never count twice.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

from sim.errors import RealmsimError
from workers.version import code_version

JOB_VERSION = 1


class JobError(RealmsimError):
    """A job that cannot be run as given (bad payload, other code version)."""


def make_job(
    scenario: dict[str, str],
    seed: int,
    *,
    overrides: dict[str, Any] | None = None,
    want_ledger: bool = False,
    kind: str = "campaign",
) -> dict[str, Any]:
    return {
        "v": JOB_VERSION,
        "kind": kind,
        "scenario": dict(scenario),
        "seed": int(seed),
        "overrides": dict(sorted((overrides or {}).items())),
        "code_version": code_version(),
        "want_ledger": bool(want_ledger),
    }


def job_key(job: dict[str, Any]) -> str:
    sc = job.get("scenario") or {}
    sc_id = sc.get("name") or "sha256:" + hashlib.sha256(sc.get("text", "").encode()).hexdigest()
    ident = [job.get("kind"), sc_id, job.get("seed"), sorted((job.get("overrides") or {}).items()), job.get("code_version")]
    return hashlib.sha256(msgpack.packb(ident, use_bin_type=True)).hexdigest()[:32]


def encode(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def decode(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def run_job_dict(job: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(job, dict) or job.get("v") != JOB_VERSION:
        raise JobError(f"not a realmsim job of version {JOB_VERSION}: {str(job)[:120]!r}")
    kind = job.get("kind")
    key = job_key(job)
    if kind == "noop":
        return {"v": JOB_VERSION, "job_key": key, "seed": job.get("seed"), "summary": {}, "events": 0, "ledger_sha256": ""}
    if kind == "spin":
        return _spin(job, key)
    if kind != "campaign":
        raise JobError(f"unknown job kind {kind!r} (expected 'campaign', 'noop' or 'spin')")
    mine = code_version()
    if job.get("code_version") != mine:
        raise JobError(f"job was made for code version {job.get('code_version')!r}; this worker runs {mine!r}")
    from agents.campaign import run_campaign
    from scenarios.loader import load_scenario, load_scenario_text

    sc = job.get("scenario") or {}
    if "text" in sc:
        loaded = load_scenario_text(sc["text"], sc.get("label", "<scenario>"))
    elif "name" in sc:
        loaded = load_scenario(sc["name"])
    else:
        raise JobError("job names no scenario (expected scenario.name or scenario.text)")
    want = bool(job.get("want_ledger"))
    res = run_campaign(loaded, int(job["seed"]), overrides=job.get("overrides") or None, keep_ledger=want, collect=False)
    out = {
        "v": JOB_VERSION,
        "job_key": key,
        "scenario": res.scenario,
        "seed": res.seed,
        "code_version": mine,
        "summary": res.summary,
        "factions": res.factions(),
        "events": res.events,
        "ledger_sha256": res.ledger_sha256,
    }
    if want:
        out["ledger"] = res.ledger.encode()
    return out


def _spin(job: dict[str, Any], key: str) -> dict[str, Any]:
    rounds = (job.get("overrides") or {}).get("rounds", 0)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 0 <= rounds <= 10**9:
        raise JobError(f"spin job: overrides.rounds must be an integer 0..10**9, found {rounds!r}")
    digest = hashlib.sha256(str(job.get("seed")).encode()).digest()
    for _ in range(rounds):
        digest = hashlib.sha256(digest).digest()
    return {
        "v": JOB_VERSION,
        "job_key": key,
        "scenario": "spin",
        "seed": job.get("seed"),
        "summary": {"rounds": rounds},
        "events": 0,
        "ledger_sha256": digest.hex(),
    }


def preload() -> tuple[str, str]:
    """Import everything a campaign job needs and fix this process's code version (a worker or a
    local pool calls it once at start, so that a forked child runs the code its version names).

    Returns (code version, error): an engine that fails to import is reported, not raised, so a
    worker still serves the jobs that do not need it; a campaign job then fails with that error.
    """
    error = ""
    try:
        import agents.campaign  # noqa: F401
        import scenarios.loader  # noqa: F401
        from agents.systems import get_driver

        for name in ("cv", "gw", "km", "mn"):
            get_driver(name)
    except Exception as e:  # noqa: BLE001 - reported to the caller
        error = f"{type(e).__name__}: {e}"
    return code_version(), error


def run_job(payload: bytes) -> bytes:
    """The job function: msgpack bytes in, msgpack bytes out."""
    return encode(run_job_dict(decode(payload)))
