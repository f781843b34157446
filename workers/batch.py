"""A batch: one scenario, many seeds. Parsing ``--seeds``, naming the scenario, the job list.

A :class:`BatchPlan` is the whole job list of a batch in compact form: the job *template* (the job
without its seed) plus the sorted seeds. It is what ``submit`` stores in Redis (the batch record) and
writes to the local manifest file, and what ``collect`` resubmits from when Redis lost the stream.
It is msgpack on the wire and on disk, never pickle.
"""

from __future__ import annotations

import math
import os
import re
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.errors import RealmsimError
from workers.job import decode, encode, job_key, make_job

MAX_SEEDS = 10_000_000
MAX_SEED = 2**63 - 1
PLAN_VERSION = 1


class UsageError(RealmsimError):
    """A bad command-line option value (exit status 2)."""


def check_seconds(flag: str, value: float, *, zero: bool = False) -> float:
    """A duration option: a finite number of seconds, > 0 (``>= 0`` with ``zero``); ``nan`` or ``inf``
    would otherwise end in a traceback where it is turned into milliseconds."""
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        raise UsageError(f"{flag} {value:g}: expected a number of seconds {'>=' if zero else '>'} 0")
    return value


class ServiceError(RealmsimError):
    """Something outside the user's input went wrong: Redis unreachable (exit 3), a batch that did not
    complete (exit 1)."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


# --------------------------------------------------------------------------------------------
# --seeds
# --------------------------------------------------------------------------------------------
_INT = r"\d+"
_RANGE = re.compile(rf"^({_INT})\s*\.\.\s*({_INT})$")


def parse_seeds(text: str) -> list[int]:
    """``A..B`` (inclusive), ``N`` or a comma list of both (``1..5,9,20..22``) → sorted unique seeds.

    >>> parse_seeds("3..5,1")
    [1, 3, 4, 5]
    """
    def bad(what: str) -> UsageError:
        shown = text if len(text) <= 60 else f"{text[:40]}…({len(text)} characters)"
        return UsageError(
            f"--seeds {shown!r}: {what} (expected A..B with 0 <= A <= B, a seed N, or a comma list such as 1..10,15)"
        )

    if not text or not text.strip():
        raise bad("empty")
    digits = len(str(MAX_SEED))

    def seed(word: str) -> int:
        # a seed has at most MAX_SEED's digits: a longer one is refused before int() is asked to read it
        if len(word.lstrip("0")) > digits:
            raise bad(f"seed {word[:12]}… ({len(word)} digits) is larger than {MAX_SEED}")
        return int(word)

    seeds: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise bad("empty item in the list")
        m = _RANGE.match(part)
        if m:
            a, b = seed(m.group(1)), seed(m.group(2))
            if a > b:
                raise bad(f"range {part!r} runs backwards ({a} > {b})")
            if b > MAX_SEED:
                raise bad(f"seed {b} is larger than {MAX_SEED}")
            if b - a + 1 + len(seeds) > MAX_SEEDS:
                raise bad(f"more than {MAX_SEEDS:,} seeds")
            seeds.update(range(a, b + 1))
        elif re.fullmatch(_INT, part):
            n = seed(part)
            if n > MAX_SEED:
                raise bad(f"seed {n} is larger than {MAX_SEED}")
            seeds.add(n)
        elif part.startswith("-"):
            raise bad(f"{part!r} is negative; seeds are integers >= 0")
        else:
            raise bad(f"{part!r} is not a seed or a range")
        if len(seeds) > MAX_SEEDS:
            raise bad(f"more than {MAX_SEEDS:,} seeds")
    return sorted(seeds)


# --------------------------------------------------------------------------------------------
# the scenario a job carries
# --------------------------------------------------------------------------------------------
def scenario_ref(name_or_path: str, overrides: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    """Validate a scenario (and the config overrides) and return (what a job carries, its name).

    A built-in is carried by name; a file by its TOML text and the texts of the files it names, read
    here relative to it (a remote worker has no access to the submitter's files and opens no path). A bad scenario or override raises :class:`sim.errors.ScenarioError` here,
    before anything is submitted.
    """
    import msgspec

    from scenarios.loader import apply_overrides, builtin_names, load_scenario
    from sim.config import Config

    loaded = load_scenario(name_or_path)
    if overrides:
        apply_overrides(msgspec.convert(loaded.scenario.config, Config), overrides, "--set")
    if name_or_path in builtin_names():
        return {"name": name_or_path}, loaded.name
    ref: dict[str, Any] = {"label": Path(name_or_path).name, "text": loaded.text}
    if loaded.files:  # its orders files travel inside the job: a worker never opens a path (issue 9)
        ref["files"] = loaded.files
    return ref, loaded.name


# --------------------------------------------------------------------------------------------
# the plan
# --------------------------------------------------------------------------------------------
def new_batch_id() -> str:
    return time.strftime("b%Y%m%d-%H%M%S-", time.gmtime()) + secrets.token_hex(4)


_BATCH_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def check_batch_id(batch_id: str) -> str:
    if not _BATCH_ID.match(batch_id):
        raise UsageError(f"batch id {batch_id!r}: expected letters, digits, '.', '_' or '-' (as printed by submit)")
    return batch_id


@dataclass
class BatchPlan:
    """The full job list of a batch: ``template`` (a job without its seed) × ``seeds``."""

    template: dict[str, Any]
    seeds: list[int]
    id: str = field(default_factory=new_batch_id)
    name: str = ""  # the scenario's name, for messages
    created: float = field(default_factory=time.time)

    @classmethod
    def make(
        cls,
        scenario: dict[str, str],
        seeds: list[int],
        *,
        name: str = "",
        overrides: dict[str, Any] | None = None,
        kind: str = "campaign",
        want_ledger: bool = False,
        batch_id: str | None = None,
    ) -> BatchPlan:
        template = make_job(scenario, 0, overrides=overrides, want_ledger=want_ledger, kind=kind)
        template["seed"] = None
        plan = cls(template, sorted(set(seeds)), name=name or scenario.get("name") or scenario.get("label", ""))
        if batch_id:
            plan.id = check_batch_id(batch_id)
        return plan

    def __len__(self) -> int:
        return len(self.seeds)

    def job(self, seed: int) -> dict[str, Any]:
        j = dict(self.template)
        j["seed"] = int(seed)
        return j

    def jobs(self) -> Iterator[tuple[int, str, bytes]]:
        """(seed, job key, msgpack job) for every seed, in seed order."""
        for s in self.seeds:
            j = self.job(s)
            yield s, job_key(j), encode(j)

    def keys(self) -> list[str]:
        return [job_key(self.job(s)) for s in self.seeds]

    # ---- msgpack record (Redis batch record and local manifest file) -------------------------
    def to_record(self) -> bytes:
        return encode(
            {"v": PLAN_VERSION, "id": self.id, "name": self.name, "created": self.created,
             "template": self.template, "seeds": self.seeds}
        )

    @classmethod
    def from_record(cls, data: bytes, where: str = "batch record") -> BatchPlan:
        try:
            rec = decode(data)
        except Exception as e:  # noqa: BLE001 - any undecodable bytes
            raise ServiceError(f"{where}: not a realmsim batch record ({e})", exit_code=2) from None
        if not isinstance(rec, dict) or rec.get("v") != PLAN_VERSION or not isinstance(rec.get("seeds"), list):
            raise ServiceError(f"{where}: not a realmsim batch record of version {PLAN_VERSION}", exit_code=2)
        return cls(rec["template"], [int(s) for s in rec["seeds"]], id=str(rec["id"]), name=str(rec.get("name", "")),
                   created=float(rec.get("created", 0.0)))


# --------------------------------------------------------------------------------------------
# the local manifest file written by ``submit``
# --------------------------------------------------------------------------------------------
def state_dir() -> Path:
    """``$REALMSIM_STATE_DIR``, else ``$XDG_STATE_HOME/realmsim``, else ``~/.local/state/realmsim``."""
    env = os.environ.get("REALMSIM_STATE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "realmsim"


def default_manifest(batch_id: str) -> Path:
    return state_dir() / "batches" / f"{batch_id}.msgpack"


def write_manifest(plan: BatchPlan, path: Path | None = None) -> Path:
    path = path or default_manifest(plan.id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(plan.to_record())
        tmp.replace(path)
    except OSError as e:
        raise ServiceError(f"cannot write the batch manifest {path}: {e.strerror or e}", exit_code=2) from None
    return path


def read_manifest(path: Path) -> BatchPlan:
    from scenarios.inputs import InputFileError, read_input

    try:
        data = read_input(path, "manifest")
    except InputFileError as e:
        raise ServiceError(f"cannot read the batch manifest {e.path}: expected {e.expected}, found {e.found}",
                           exit_code=2) from None
    return BatchPlan.from_record(data, str(path))


def stop_workers(procs: list[Any], grace: float = 30.0) -> None:
    """Stop worker processes this command started: SIGTERM (each puts back its jobs, the one in hand too, and exits),
    then a kill for any still running after ``grace`` seconds."""
    import subprocess

    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(grace)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
