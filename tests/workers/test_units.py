"""Seeds, the batch plan and its manifest, the results file, the progress bar, the spin job."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

from workers.batch import (
    BatchPlan,
    ServiceError,
    UsageError,
    parse_seeds,
    read_manifest,
    scenario_ref,
    write_manifest,
)
from workers.job import JobError, decode, job_key, make_job, run_job_dict
from workers.output import check_out_path, read_results, write_results
from workers.progress import Progress

from .conftest import TINY


# ---- --seeds ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "seeds"),
    [
        ("1..5", [1, 2, 3, 4, 5]),
        ("7", [7]),
        ("0", [0]),
        ("3,1,2", [1, 2, 3]),
        ("1..3,10,12..13", [1, 2, 3, 10, 12, 13]),
        (" 4 .. 6 , 2 ", [2, 4, 5, 6]),
        ("1..3,2..4", [1, 2, 3, 4]),
        ("9..9", [9]),
    ],
)
def test_seeds_accepted(text: str, seeds: list[int]) -> None:
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5..1", r"--seeds '5\.\.1': range '5\.\.1' runs backwards \(5 > 1\)"),
        ("abc", r"--seeds 'abc': 'abc' is not a seed or a range \(expected A\.\.B"),
        ("-3", r"'-3' is negative; seeds are integers >= 0"),
        ("", r"--seeds '': empty"),
        ("1,,2", r"empty item in the list"),
        ("1...5", r"'1\.\.\.5' is not a seed or a range"),
        ("1..", r"'1\.\.' is not a seed or a range"),
        ("0..20000000", r"more than 10,000,000 seeds"),
        ("99999999999999999999", r"larger than 9223372036854775807"),
    ],
)
def test_bad_seeds_get_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_seeds(text)


# ---- the plan ---------------------------------------------------------------------------------
def test_a_file_scenario_travels_as_its_text_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    ref, name = scenario_ref(str(TINY))
    assert ref == {"label": "tiny.toml", "text": TINY.read_text(encoding="utf-8")}
    assert name == "tiny"
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nname = "x"\nsystems = ["cv"]\nduration = { days = "two" }\n', encoding="utf-8")
    from sim.errors import ScenarioError

    with pytest.raises(ScenarioError, match=r"bad\.toml: .*duration"):
        scenario_ref(str(bad))
    with pytest.raises(ScenarioError, match=r"a built-in scenario name .* or a path to a \.toml file, found no such file"):
        scenario_ref("no-such-scenario")
    with pytest.raises(ScenarioError, match=r"--set"):
        scenario_ref(str(TINY), {"cv.no_such_key": 3})


def test_plan_jobs_are_the_template_with_each_seed_and_round_trip_through_the_manifest(tmp_path: Path) -> None:
    plan = BatchPlan.make({"name": "spin"}, [5, 3, 4, 3], kind="spin", overrides={"rounds": 10}, batch_id="b-test")
    assert plan.seeds == [3, 4, 5]
    jobs = list(plan.jobs())
    assert [s for s, _, _ in jobs] == [3, 4, 5]
    seed, key, payload = jobs[1]
    job = decode(payload)
    assert job["seed"] == 4 and job["kind"] == "spin" and job["overrides"] == {"rounds": 10}
    assert key == job_key(job)
    assert len({k for _, k, _ in jobs}) == 3
    path = write_manifest(plan, tmp_path / "m" / "b-test.msgpack")
    back = read_manifest(path)
    assert back.id == "b-test" and back.seeds == [3, 4, 5] and back.keys() == plan.keys()
    assert path.read_bytes()[:1] != b"\x80"  # msgpack, not a pickle (protocol 2+ starts with 0x80)
    (tmp_path / "junk.msgpack").write_bytes(b"\x93\x01\x02\x03")
    with pytest.raises(ServiceError, match=r"junk\.msgpack: not a realmsim batch record"):
        read_manifest(tmp_path / "junk.msgpack")


def test_batch_id_is_checked() -> None:
    with pytest.raises(UsageError, match=r"batch id '\.\./x': expected letters, digits"):
        BatchPlan.make({"name": "noop"}, [1], batch_id="../x")


# ---- the spin job (the queue's slow test job) ---------------------------------------------------
def test_spin_job_is_the_chained_sha256_of_its_seed() -> None:
    d = hashlib.sha256(b"12").digest()
    for _ in range(3):
        d = hashlib.sha256(d).digest()
    res = run_job_dict(make_job({"name": "spin"}, 12, overrides={"rounds": 3}, kind="spin"))
    assert res["ledger_sha256"] == d.hex()
    assert res["seed"] == 12 and res["summary"] == {"rounds": 3}
    with pytest.raises(JobError, match=r"spin job: overrides\.rounds must be an integer 0\.\.10\*\*9, found -1"):
        run_job_dict(make_job({"name": "spin"}, 1, overrides={"rounds": -1}, kind="spin"))


# ---- the results file -------------------------------------------------------------------------
RESULTS = [
    {"seed": 9, "scenario": "s", "ledger_sha256": "cc", "events": 4, "summary": {"z.last": 1, "a.first": 2.5}},
    {"seed": 2, "scenario": "s", "ledger_sha256": "aa", "events": 3, "summary": {"z.last": 7, "a.first": 0.5}},
]


def test_csv_has_identity_columns_then_sorted_metrics_and_rows_by_seed(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert write_results(out, RESULTS) == 2
    assert out.read_text(encoding="utf-8") == (
        "campaign,seed,scenario,ledger_sha256,events,a.first,z.last\n"
        "0,2,s,aa,3,0.5,7\n"
        "1,9,s,cc,4,2.5,1\n"
    )
    assert (tmp_path / "r.metrics.csv").read_text(encoding="utf-8") == (
        "campaign,seed,metric,value\n0,2,a.first,0.5\n0,2,z.last,7\n1,9,a.first,2.5\n1,9,z.last,1\n")


def test_parquet_round_trips(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    write_results(out, RESULTS)
    rows = read_results(out)
    assert rows == [
        {"campaign": 0, "seed": 2, "scenario": "s", "ledger_sha256": "aa", "events": 3, "a.first": 0.5, "z.last": 7},
        {"campaign": 1, "seed": 9, "scenario": "s", "ledger_sha256": "cc", "events": 4, "a.first": 2.5, "z.last": 1},
    ]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("r.txt", r"--out '.*r\.txt': expected a file name ending in \.csv or \.parquet, found '\.txt'"),
        ("r", r"found 'no suffix'"),
        ("nowhere/r.csv", r"folder '.*nowhere' does not exist"),
    ],
)
def test_bad_out_path(tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        check_out_path(tmp_path / name)


# ---- progress ---------------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_progress_is_quiet_off_a_terminal_except_the_final_line() -> None:
    buf, clock = io.StringIO(), Clock()
    p = Progress(10, label="batch tiny", stream=buf, clock=clock)
    for i in range(1, 11):
        clock.t += 0.5
        p.update(i)
    assert buf.getvalue() == ""
    p.close()
    assert buf.getvalue() == "batch tiny: 10/10 jobs in 0:05 (2.0 jobs/s)\n"


def test_progress_off_a_terminal_logs_a_line_a_minute_on_long_work() -> None:
    buf, clock = io.StringIO(), Clock()
    p = Progress(300, label="tournament x", stream=buf, clock=clock)
    for i in range(1, 301):
        clock.t += 1.0  # a job a second: five minutes
        p.update(i)
    lines = buf.getvalue().splitlines()
    assert len(lines) == 4  # at 1, 2, 3 and 4 minutes; not at the end (close says it)
    assert lines[0].startswith("tournament x [") and "60/300" in lines[0] and "ETA 4:00" in lines[0]
    assert "\r" not in buf.getvalue()
    p.close()
    assert buf.getvalue().splitlines()[-1] == "tournament x: 300/300 jobs in 5:00 (1.0 jobs/s)"


def test_progress_of_slow_jobs_says_seconds_per_job() -> None:
    buf, clock = io.StringIO(), Clock()
    p = Progress(300, label="tournament y", stream=buf, clock=clock)
    clock.t += 6383
    p.update(300)
    p.close()
    assert buf.getvalue() == "tournament y: 300/300 jobs in 1:46:23 (21.3 s/job)\n"


def test_progress_on_a_terminal_shows_done_total_rate_and_eta() -> None:
    buf, clock = io.StringIO(), Clock()
    p = Progress(100, label="batch", stream=buf, tty=True, clock=clock)
    clock.t += 10
    p.update(25, 5)
    line = buf.getvalue()
    assert line.startswith("\r")
    assert "30/100" in line and "( 30.0%, 5 dead)" in line
    assert "3.0 jobs/s" in line
    assert "ETA 0:23" in line  # 70 left at 3 jobs/s
    p.close()
    assert buf.getvalue().endswith("\x1b[K\nbatch: 30/100 jobs in 0:10 (3.0 jobs/s, 5 dead)\n")


def test_a_worker_sizes_its_reads_by_job_length_and_the_streams_backlog() -> None:
    from types import SimpleNamespace

    from workers.worker import Worker

    def count(per_job: float, backlog: int | None, **kw: object) -> int:
        w = SimpleNamespace(_per_job=per_job, window=0.5, max_count=500, _backlog=backlog, max_jobs=None, processed=0)
        w.__dict__.update(kw)
        return Worker._count(w)  # type: ignore[arg-type]

    assert count(0.0, None) == 1  # nothing measured yet: one job
    assert count(0.01, None) == 50  # half a second of 10 ms jobs
    assert count(0.0001, None) == 500  # no-op jobs: at most max_count
    assert count(0.01, 1000) == 50 and count(0.01, 120) == 30 and count(0.01, 3) == 1  # a quarter of the backlog
    assert count(0.01, 0) == 1  # an empty stream at the last store: one job, then measure again
    assert count(0.01, None, max_jobs=10, processed=8) == 2


def test_the_worker_read_window_is_an_option() -> None:
    import argparse

    from workers.worker import DEFAULT_WINDOW, add_arguments

    p = argparse.ArgumentParser()
    add_arguments(p)
    assert p.parse_args([]).read_window == DEFAULT_WINDOW == 0.5
    assert p.parse_args(["--read-window", "0.1"]).read_window == 0.1


def test_an_explained_job_is_another_job_and_its_explain_must_be_true_or_false() -> None:
    """Issue 26: ``explain`` changes a job's ledger (its decisions' records), so it is part of the job's
    identity — but only when true, so that every job made before keeps its key; any value but true or
    false is refused (a worker dead-letters the entry, tests/workers/test_poison.py)."""
    import msgpack

    plain = make_job({"name": "caravan-crossing"}, 7)
    told = make_job({"name": "caravan-crossing"}, 7, explain=True)
    assert "explain" not in plain and told["explain"] is True
    assert job_key(told) != job_key(plain)
    assert job_key({**plain, "explain": False}) == job_key(plain)  # false is the default, not another job
    # the key of a job without explain is the digest of the fields it always had (written out here)
    ident = ["campaign", "caravan-crossing", 7, [], plain["code_version"]]
    assert job_key(plain) == hashlib.sha256(msgpack.packb(ident, use_bin_type=True)).hexdigest()[:32]
    for bad in ("yes", 1, None, [True]):
        with pytest.raises(JobError, match=r"job\.explain: expected true or false, found "):
            job_key({**plain, "explain": bad})
