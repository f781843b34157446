"""The same scenario and seed give the same ledger bytes whichever process, pool or worker ran them."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from workers.batch import BatchPlan
from workers.local import run_local

from .conftest import Procs

# The campaign the determinism checks run: the built-in caravan crossing (hundreds of events a seed).
SCENARIO = "caravan-crossing"
SEEDS = "1..6"

_ONE_JOB = """
import sys
from workers.job import make_job, run_job_dict
res = run_job_dict(make_job({"name": sys.argv[1]}, int(sys.argv[2]), want_ledger=True))
sys.stdout.buffer.write(res["ledger_sha256"].encode() + b"\\n" + res["ledger"])
"""


def _ledger_in_subprocess(procs: Procs, seed: int, hashseed: str) -> tuple[str, bytes]:
    done = subprocess.run(
        [sys.executable, "-c", _ONE_JOB, SCENARIO, str(seed)],
        cwd=procs.src, env=procs.env(PYTHONHASHSEED=hashseed), capture_output=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    sha, _, ledger = done.stdout.partition(b"\n")
    return sha.decode(), ledger


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_same_seed_same_ledger_bytes_in_two_processes_with_different_hash_seeds(procs: Procs) -> None:
    sha_a, ledger_a = _ledger_in_subprocess(procs, 7, "1")
    sha_b, ledger_b = _ledger_in_subprocess(procs, 7, "4242")
    from sim.events import decode_events

    events = decode_events(ledger_a)
    assert len(events) > 100, f"the campaign emitted only {len(events)} events"
    assert {e.system for e in events} >= {"cv"}
    assert ledger_a == ledger_b
    assert sha_a == sha_b == hashlib.sha256(ledger_a).hexdigest()
    _, other = _ledger_in_subprocess(procs, 8, "1")
    assert other != ledger_a, "seeds 7 and 8 gave the same ledger: the seed does not reach the dice"


def _rows(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.redis
def test_local_pool_and_redis_workers_give_identical_results(procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    local1 = procs.cli("batch", SCENARIO, "--seeds", SEEDS, "--workers", "1", "--out", str(tmp_path / "l1.csv"),
                       PYTHONHASHSEED="0")
    assert local1.returncode == 0, local1.stderr
    local2 = procs.cli("batch", SCENARIO, "--seeds", SEEDS, "--workers", "2", "--out", str(tmp_path / "l2.csv"),
                       PYTHONHASHSEED="17")
    assert local2.returncode == 0, local2.stderr
    # a different queue prefix for each run, so no run can reuse another's stored results; the
    # one-worker run gets the scenario as a file (its jobs carry the TOML text, not the name)
    as_file = tmp_path / "copy.toml"
    as_file.write_bytes((procs.src / "scenarios" / "data" / f"{SCENARIO}.toml").read_bytes())
    r1 = procs.cli("batch", str(as_file), "--seeds", SEEDS, "--redis", url, "--queue", "one", "--workers", "1",
                   "--out", str(tmp_path / "r1.csv"), "--timeout", "120", PYTHONHASHSEED="99")
    assert r1.returncode == 0, r1.stderr
    r2 = procs.cli("batch", SCENARIO, "--seeds", SEEDS, "--redis", url, "--queue", "two", "--workers", "2",
                   "--out", str(tmp_path / "r2.parquet"), "--timeout", "120", PYTHONHASHSEED="12345")
    assert r2.returncode == 0, r2.stderr

    base = _rows(tmp_path / "l1.csv")
    lines = base.splitlines()
    assert lines[0].startswith("campaign,seed,scenario,ledger_sha256,events")
    assert [line.split(",")[1] for line in lines[1:]] == ["1", "2", "3", "4", "5", "6"]
    assert len({line.split(",")[3] for line in lines[1:]}) == 6, "two seeds gave the same ledger"
    assert _rows(tmp_path / "l2.csv") == base
    assert _rows(tmp_path / "r1.csv") == base
    import csv
    import io

    from workers.output import read_results
    from workers.tidy import _csv_cell

    rows = read_results(tmp_path / "r2.parquet")  # the parquet file, written out as CSV in its own column order
    text = io.StringIO()
    out = csv.writer(text, lineterminator="\n")
    out.writerow(list(rows[0]))
    out.writerows([_csv_cell(v) for v in row.values()] for row in rows)
    assert text.getvalue() == base


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_local_pool_runs_every_seed_and_reports_bad_jobs_without_stopping() -> None:
    good = BatchPlan.make({"name": "spin"}, [1, 2, 3, 4, 5], kind="spin", overrides={"rounds": 2})
    progress: list[tuple[int, int]] = []
    outs = sorted(run_local(good, 2, on_progress=lambda d, x: progress.append((d, x))), key=lambda o: o.seed)
    assert [o.seed for o in outs] == [1, 2, 3, 4, 5]
    expected = []
    for s in range(1, 6):
        d = hashlib.sha256(str(s).encode()).digest()
        d = hashlib.sha256(hashlib.sha256(d).digest()).digest()
        expected.append(d.hex())
    assert [o.result["ledger_sha256"] for o in outs if o.result] == expected
    assert progress[-1] == (5, 0)

    bad = BatchPlan.make({"name": "spin"}, [1, 2, 3], kind="spin", overrides={"rounds": "many"})
    outs = list(run_local(bad, 2))
    assert len(outs) == 3 and all(o.result is None for o in outs)
    assert all(o.error == "JobError: spin job: overrides.rounds must be an integer 0..10**9, found 'many'" for o in outs)
    assert all("Traceback" in o.traceback for o in outs)


def _children(parent: int) -> list[tuple[int, bytes]]:
    """(pid, command line) of the processes whose parent is ``parent``."""
    import os

    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = f.read().rsplit(")", 1)[1].split()[1]
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if ppid == str(parent):
            out.append((int(d), cmd))
    return out


def fork_servers(parent: int | None = None) -> list[int]:
    """Pids of the fork servers (``workers.forkserver``) of ``parent`` (default: this process)."""
    import os

    return sorted(pid for pid, cmd in _children(parent or os.getpid()) if b"workers.forkserver" in cmd)


def job_processes(parent: int | None = None) -> list[int]:
    """Pids of the job processes of ``parent`` (default: this process): its ``workers.local_child``
    children, and the processes its fork servers forked."""
    import os

    me = parent or os.getpid()
    pids = [pid for pid, cmd in _children(me) if b"workers.local_child" in cmd]
    pids += [pid for server in fork_servers(me) for pid, _ in _children(server)]
    return sorted(pids)


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_pool_processes_killed_mid_job_lose_only_their_jobs() -> None:
    import os
    import signal

    plan = BatchPlan.make({"name": "spin"}, list(range(1, 11)), kind="spin", overrides={"rounds": 300_000})
    outs = []
    killed: list[int] = []
    for o in run_local(plan, 2):
        outs.append(o)
        if not killed:
            killed = job_processes()
            assert len(killed) == 2
            for pid in killed:  # both are busy (one may have just finished: its result still counts)
                os.kill(pid, signal.SIGKILL)
    assert sorted(o.seed for o in outs) == list(range(1, 11))  # every job ends exactly once
    died = [o for o in outs if o.result is None]
    assert 1 <= len(died) <= 2
    assert all(o.error == "pool process died (killed by SIGKILL) running this job" for o in died)
    assert len([o for o in outs if o.result is not None]) == 10 - len(died)  # replacements did the rest
    assert job_processes() == [] and fork_servers() == []  # the pool cleans up after itself


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_pool_job_past_its_time_limit_is_killed_and_the_others_finish() -> None:
    from .test_queue import spin_digest

    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3], kind="spin", overrides={"rounds": 10**9})  # minutes each
    quick = BatchPlan.make({"name": "spin"}, [4, 5], kind="spin", overrides={"rounds": 100})
    outs = list(run_local(plan, 2, job_timeout=1.0)) + list(run_local(quick, 2, job_timeout=1.0))
    assert sorted((o.seed, o.error) for o in outs if o.result is None) == [
        (s, "timed out after 1 s (killed)") for s in (1, 2, 3)]
    assert {o.seed: o.result["ledger_sha256"] for o in outs if o.result} == {s: spin_digest(s, 100) for s in (4, 5)}
    assert job_processes() == [] and fork_servers() == []
