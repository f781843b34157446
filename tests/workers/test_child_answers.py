"""The job process writes a run of short jobs' answers together, but never holds one back behind a
long job (the worker would count the short one as still running, and time it out)."""

from __future__ import annotations

import time

import pytest

from workers.child import JobRunner
from workers.job import encode, make_job
from workers.local_child import HOLD_S


def spin(rounds: int, seed: int = 0) -> bytes:
    return encode(make_job({"name": "spin"}, seed, kind="spin", overrides={"rounds": rounds}))


def noop(seed: int) -> bytes:
    return encode(make_job({"name": "noop"}, seed, kind="noop"))


@pytest.mark.slow  # starts a job process (the engine's imports)
def test_a_short_jobs_answer_is_not_held_behind_a_long_job() -> None:
    runner = JobRunner(timeout=60)
    try:
        list(runner.run([(0, noop(0))]))  # a warm job process
        t0 = time.monotonic()
        got: dict[int, float] = {}
        for r in runner.run([(1, noop(1)), (2, spin(3_000_000))]):
            assert r.status == "ok", r
            got[r.tag] = time.monotonic() - t0
        assert got[2] > 3 * HOLD_S  # the long job took a while…
        assert got[1] <= HOLD_S + 0.15  # …and the short one's answer did not wait for it
    finally:
        runner.close(grace=0)


@pytest.mark.slow
def test_a_run_of_short_jobs_comes_back_whole_and_in_order() -> None:
    runner = JobRunner(timeout=60)
    try:
        replies = list(runner.run([(i, noop(i)) for i in range(200)]))
        assert [r.tag for r in replies] == list(range(200)) and all(r.status == "ok" for r in replies)
    finally:
        runner.close(grace=0)
