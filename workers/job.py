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
     "metrics"}, …}, "events": 1234, "ledger_sha256": "…", "decisions": {…}, "signals": {…},
     "invariants": {"count", "first"}, "series": {…}, "spawned": [KEY, …],
     "overrides": {…} (only when the job has some),
     "ledger": <bytes> (only if asked)}

``decisions``, ``signals``, ``invariants`` and ``series`` (the season snapshots of kingdoms, nations
and guilds) are tallied from the events as they come (:mod:`workers.signals`) for the tables and
findings of a batch. ``spawned`` lists the factions the scenario does not declare (the trade caravans
a kingdom's trade edict sends, LINK-04): a batch's faction table leaves them to its detail table.

A job is keyed by scenario, seed, overrides and code version (``job_key``), so a redelivered job can
never count twice. A job's bytes are untrusted (anyone who can write to the queue can write one):
:func:`job_key` refuses any other shape with a :class:`JobError`, and a payload above
``MAX_JOB_BYTES`` is refused unread.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import msgpack

from sim.errors import RealmsimError
from workers.version import code_version

JOB_VERSION = 1
MAX_JOB_BYTES = 4 * 1024 * 1024  # a scenario file of 1 MiB and its orders files fit with room to spare

# The default time limit of a job (without --job-timeout), from its length (docs/workers.md): a base for
# everything a job does besides the campaign, plus so much per year of campaign. The slowest built-in,
# ``realm``, takes about 0.45 s of CPU a year (10 years in 4.5 s); 20 s a year is some 40 times that, for a
# slower or busier machine and a larger scenario. A spin job: so much per million rounds (0.3 s to 1.5 s).
LIMIT_BASE_S = 10.0
LIMIT_PER_YEAR_S = 20.0
LIMIT_PER_MEGAROUND_S = 10.0


class JobError(RealmsimError):
    """A job that cannot be run as given (bad payload, other code version)."""


def make_job(
    scenario: dict[str, str],
    seed: int,
    *,
    overrides: dict[str, Any] | None = None,
    want_ledger: bool = False,
    kind: str = "campaign",
    explain: bool = False,
) -> dict[str, Any]:
    """A job; ``explain``: its campaign records every decision explained (as ``run --explain``),
    a key the job carries only when true (jobs without it are as they always were)."""
    job = {
        "v": JOB_VERSION,
        "kind": kind,
        "scenario": dict(scenario),
        "seed": int(seed),
        "overrides": dict(sorted((overrides or {}).items())),
        "code_version": code_version(),
        "want_ledger": bool(want_ledger),
    }
    if explain:
        job["explain"] = True
    return job


def scenario_identity(sc: Any) -> str:
    """What identifies a job's scenario: a built-in's name, else a digest of everything it carries."""
    if not isinstance(sc, dict):
        raise JobError(f"job.scenario: expected a map, found {type(sc).__name__}")
    name = sc.get("name")
    if name and set(sc) == {"name"}:
        if not isinstance(name, str):
            raise JobError(f"job.scenario.name: expected a string, found {type(name).__name__}")
        return name
    text = sc.get("text", "")
    if not isinstance(text, str):
        raise JobError(f"job.scenario.text: expected a string, found {type(text).__name__}")
    files = sc.get("files")
    if not files:
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    if not isinstance(files, dict):
        raise JobError(f"job.scenario.files: expected a map, found {type(files).__name__}")
    try:
        carried = encode([text, sorted(files.items())])
    except TypeError as e:
        raise JobError(f"job.scenario.files: expected a map of names to texts ({e})") from None
    return "sha256:" + hashlib.sha256(carried).hexdigest()


def job_key(job: dict[str, Any]) -> str:
    """The job's identity: scenario, seed, overrides, code version, and whether its decisions are
    explained (JobError for any other shape)."""
    if not isinstance(job, dict):
        raise JobError(f"a job is a map, found {type(job).__name__}")
    overrides = job.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise JobError(f"job.overrides: expected a map, found {type(overrides).__name__}")
    explain = job.get("explain", False)
    if not isinstance(explain, bool):
        raise JobError(f"job.explain: expected true or false, found {type(explain).__name__} {str(explain)[:40]!r}")
    try:
        ident = [job.get("kind"), scenario_identity(job.get("scenario") or {}), job.get("seed"),
                 sorted(overrides.items()), job.get("code_version")]
        if explain:  # an explained ledger is another result (jobs without it keep the keys they always had)
            ident.append("explain")
        packed = msgpack.packb(ident, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as e:
        raise JobError(f"job fields of the wrong types ({e})") from None
    return hashlib.sha256(packed).hexdigest()[:32]


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
    from agents.campaign import finish, prepare_campaign
    from workers.signals import Signals

    loaded = job_scenario(job.get("scenario") or {})
    want = bool(job.get("want_ledger"))
    model = prepare_campaign(loaded, int(job["seed"]), overrides=job.get("overrides") or None, keep_ledger=want,
                             collect=False, explain=job.get("explain", False))
    tally = Signals(model)  # reads the events as they come; the ledger is unchanged (workers/signals.py)
    model.ledger.subscribe(tally)
    model.run()
    res = finish(model)
    factions = res.factions()
    out = {
        "v": JOB_VERSION,
        "job_key": key,
        "scenario": res.scenario,
        "seed": res.seed,
        "code_version": mine,
        "summary": res.summary,
        "factions": factions,
        "events": res.events,
        "ledger_sha256": res.ledger_sha256,
        **tally.result(),
        "spawned": spawned_factions(loaded, factions),
    }
    if job.get("overrides"):
        out["overrides"] = dict(job["overrides"])
    if want:
        out["ledger"] = res.ledger.encode()
    return out


def spawned_factions(loaded: Any, factions: dict[str, Any]) -> list[str]:
    """The faction keys of a result that its scenario does not declare (LINK-04 trade caravans)."""
    sc = loaded.scenario
    declared = {f"{kind}:{row.id}" for kind, table in (("kingdom", "kingdoms"), ("nation", "nations"),
                                                       ("guild", "guilds"), ("convoy", "convoys"))
                for row in (getattr(sc, table, None) or [])}
    return sorted(k for k in factions if k not in declared)


_BUILTIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def refusal(job: Any) -> str:
    """Why a job can never run on any worker, said before it is run (empty if none): a scenario
    "name" that could not be a built-in's (a path: a job reads no file of the worker's)."""
    sc = job.get("scenario") if isinstance(job, dict) else None
    name = sc.get("name") if isinstance(sc, dict) and "text" not in sc else None
    if isinstance(name, str) and not _BUILTIN_NAME.match(name):
        return f"scenario name is not a built-in: {name[:80]!r} (a job names a built-in or carries its text)"
    return ""


def job_scenario(sc: dict[str, Any]) -> Any:
    """The scenario a job carries: a built-in by name (only a built-in: a name is never a path), or a
    text and the texts of its other files (a worker never opens a path a job names)."""
    from scenarios.files import from_texts
    from scenarios.loader import builtin_names, load_scenario, load_scenario_text

    if "text" in sc:
        text, label = sc["text"], sc.get("label", "<scenario>")
        if not isinstance(text, str) or not isinstance(label, str):
            raise JobError("job.scenario: expected a text and a label (strings)")
        return load_scenario_text(text, label[:200], from_texts(sc.get("files")))
    if "name" in sc:
        name = sc["name"]
        if not isinstance(name, str) or name not in builtin_names():
            raise JobError(refusal({"scenario": {"name": str(name)}}) or
                           f"scenario name is not a built-in: {str(name)[:80]!r} (built-ins: {', '.join(builtin_names())})")
        return load_scenario(name)
    raise JobError("job names no scenario (expected scenario.name or scenario.text)")


def time_limit(job: Any) -> tuple[float, str]:
    """The default time limit of ``job`` in seconds, from its length, and what it was worked out from
    (for the message of a job killed at it): ``LIMIT_BASE_S`` plus ``LIMIT_PER_YEAR_S`` per year of
    campaign (its scenario's duration), or per million rounds of a spin job. A job whose length cannot
    be read gets the base: it fails as soon as it starts anyway."""
    from sim.calendar import HOURS_PER_DAY, HOURS_PER_YEAR

    if not isinstance(job, dict):
        return LIMIT_BASE_S, "a job that is not a map"
    kind = job.get("kind")
    if kind == "spin":
        rounds = (job.get("overrides") or {}).get("rounds", 0) if isinstance(job.get("overrides"), dict) else 0
        if isinstance(rounds, int) and not isinstance(rounds, bool) and 0 <= rounds <= 10**9:
            return LIMIT_BASE_S + LIMIT_PER_MEGAROUND_S * rounds / 1e6, f"a spin job of {rounds:,} rounds"
        return LIMIT_BASE_S, "a spin job"
    if kind != "campaign":
        return LIMIT_BASE_S, f"a {str(kind)[:20]} job"
    try:
        from scenarios.build import duration_hours

        sc = job.get("scenario")
        loaded = job_scenario(sc if isinstance(sc, dict) else {})
        hours = duration_hours(loaded.scenario.scenario.duration)
    except Exception:  # noqa: BLE001 - a scenario that does not load: the job fails at once when it runs
        return LIMIT_BASE_S, "a campaign whose scenario does not load"
    years = max(0, hours) / HOURS_PER_YEAR
    whole = hours > 0 and hours % HOURS_PER_YEAR == 0
    length = f"{hours // HOURS_PER_YEAR} year(s)" if whole else f"{hours // HOURS_PER_DAY} day(s)"
    return LIMIT_BASE_S + LIMIT_PER_YEAR_S * years, f"a campaign of {length}"


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
        from sim.registry import names

        for name in names():
            get_driver(name)
    except Exception as e:  # noqa: BLE001 - reported to the caller
        error = f"{type(e).__name__}: {e}"
    return code_version(), error


def run_job(payload: bytes) -> bytes:
    """The job function: msgpack bytes in, msgpack bytes out."""
    return encode(run_job_dict(decode(payload)))
