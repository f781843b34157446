"""The local pool's fork server (workers/forkserver.py, issue 26 item 3): one process imports the engine
and forks each pool process; a job's ledger is the same as in a fresh interpreter, a job process that
dies is reported as before, and a pool whose fork server is gone goes on with fresh interpreters."""

from __future__ import annotations

import os
import signal

import pytest

from workers.batch import BatchPlan
from workers.job import make_job, run_job_dict
from workers.local import run_local

from .test_determinism import _children, fork_servers, job_processes


@pytest.mark.slow  # a pool of two: a few seconds
def test_pool_processes_are_forks_of_one_server_and_give_the_ledgers_of_one_process() -> None:
    plan = BatchPlan.make({"name": "caravan-crossing"}, [1, 2, 3, 4])
    seen: list[tuple[list[int], list[int], list[int]]] = []
    outs = []
    for o in run_local(plan, 2):
        outs.append(o)
        if not seen:
            servers = fork_servers()
            seen.append((servers, [pid for s in servers for pid, _ in _children(s)], job_processes()))
    servers, forked_kids, kids = seen[0]
    assert len(servers) == 1 and len(forked_kids) == 2 and kids == sorted(forked_kids)
    forked = {o.seed: o.result["ledger_sha256"] for o in outs if o.result}
    fresh = {o.seed: o.result["ledger_sha256"] for o in run_local(plan, 2, fork_server=False) if o.result}
    here = {s: run_job_dict(make_job({"name": "caravan-crossing"}, s))["ledger_sha256"] for s in (1, 2, 3, 4)}
    assert forked == fresh == here
    assert fork_servers() == [] and job_processes() == []


@pytest.mark.slow  # a pool of two: a few seconds
def test_a_pool_whose_fork_server_is_killed_finishes_on_fresh_interpreters() -> None:
    plan = BatchPlan.make({"name": "spin"}, list(range(1, 9)), kind="spin", overrides={"rounds": 300_000})
    outs = []
    for o in run_local(plan, 2):
        outs.append(o)
        if len(outs) == 1:
            (server,) = fork_servers()
            os.kill(server, signal.SIGKILL)  # its job processes die with it (PR_SET_PDEATHSIG)
    assert sorted(o.seed for o in outs) == list(range(1, 9))  # every job ends exactly once
    died = [o for o in outs if o.result is None]
    assert len(died) <= 2
    assert all(o.error == "pool process died (killed by SIGKILL) running this job" for o in died)
    assert len([o for o in outs if o.result is not None]) == 8 - len(died)
    assert fork_servers() == [] and job_processes() == []


@pytest.mark.slow  # a pool of one: a second or two
def test_a_forked_job_process_killed_by_a_signal_is_reported_with_that_signal() -> None:
    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3], kind="spin", overrides={"rounds": 300_000})
    outs = []
    for o in run_local(plan, 1):
        outs.append(o)
        if len(outs) == 1:
            (kid,) = job_processes()
            os.kill(kid, signal.SIGTERM)  # (the exit status comes through the fork server)
    assert sorted(o.seed for o in outs) == [1, 2, 3]
    died = [o for o in outs if o.result is None]
    assert len(died) <= 1
    assert all(o.error == "pool process died (killed by SIGTERM) running this job" for o in died)
    assert fork_servers() == [] and job_processes() == []
