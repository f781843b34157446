"""The Redis Streams queue with a real redis-server and real worker processes.

Slow jobs are ``spin`` jobs (N chained SHA-256 rounds over the seed): their result is known without
the code under test, and a million rounds keep a worker busy long enough to kill it mid-job.
"""

from __future__ import annotations

import hashlib
import re
import signal
from typing import Any

import pytest

from workers.batch import BatchPlan
from workers.job import decode, encode
from workers.queue import GROUP, STORE_LUA, RedisQueue, incomplete_message, wait_batch

from .conftest import Procs, seeds_in, wait_for

pytestmark = pytest.mark.redis

SLOW = 1_000_000  # rounds: a few tenths of a second per job


def spin_digest(seed: int, rounds: int) -> str:
    d = hashlib.sha256(str(seed).encode()).digest()
    for _ in range(rounds):
        d = hashlib.sha256(d).digest()
    return d.hex()


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_worker_killed_mid_job_loses_nothing_and_every_job_has_exactly_one_result(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, list(range(1, 9)), kind="spin", overrides={"rounds": SLOW})
    victim = procs.worker(redis_server.url, "victim", "--min-idle", "1", "--block", "0.2", "--log-level", "debug")
    wait_for(lambda: "started" in procs.log("victim"), what="the first worker to start")
    q.submit(plan)
    wait_for(lambda: "running job" in procs.log("victim"), what="the first worker to start a job")
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    assert q.state(plan).results == {} or len(q.state(plan).results) < len(plan)
    held = q.r.xpending_range(q.keys.stream, GROUP, "-", "+", 10, consumername="victim")
    assert len(held) == 1, "the killed worker should have died holding exactly one job"
    orphan = held[0]["message_id"]

    procs.worker(redis_server.url, "rescuer", "--min-idle", "1", "--block", "0.2")
    st = wait_batch(q, plan, timeout=90)

    assert st.complete, incomplete_message(st)
    assert {r["seed"]: r["ledger_sha256"] for r in st.results.values()} == {s: spin_digest(s, SLOW) for s in plan.seeds}
    assert q.r.scard(q.keys.done(plan.id)) == 8
    assert q.stats().get("stored") == 8, "a result was stored more than once (or not at all)"
    assert q.r.xpending(q.keys.stream, GROUP)["pending"] == 0
    assert q.r.xlen(q.keys.stream) == 0, "acknowledged entries must be deleted"
    assert q.r.xrange(q.keys.stream, orphan, orphan) == []
    assert q.r.xlen(q.keys.dead) == 0
    assert "claimed 1 stale job(s)" in procs.log("rescuer")


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_poison_job_is_dead_lettered_with_its_error_and_the_rest_completes(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3, 4, 5], kind="spin", overrides={"rounds": 100})
    q.ensure_group()
    q.save_plan(plan)
    q.enqueue(plan, [1, 2, 4, 5])
    # seed 3's entry carries a job the job function refuses (another job format version)
    poison = plan.job(3)
    poison["v"] = 99
    q.r.xadd(q.keys.stream, {"job": encode(poison), "key": plan.keys()[2], "batch": plan.id})
    procs.worker(redis_server.url, "w1", "--min-idle", "1", "--block", "0.2")
    st = wait_batch(q, plan, timeout=60)

    assert sorted(r["seed"] for r in st.results.values()) == [1, 2, 4, 5]
    (seed, error), = st.dead_seeds()
    assert seed == 3
    assert error.startswith("failed on each of 3 deliveries; last error: JobError: not a realmsim job of version 1: ")
    assert "'v': 99, 'kind': 'spin'" in error
    dead = q.dead_letters()
    assert len(dead) == 1
    letter = dead[0]
    assert letter["batch"] == plan.id and letter["key"] == plan.keys()[2] and letter["deliveries"] == "3"
    assert "JobError: not a realmsim job of version 1" in letter["error"]
    assert letter["tb"].startswith("Traceback (most recent call last)") and "raise JobError" in letter["tb"]
    assert decode(letter["job"])["seed"] == 3
    assert q.stats() == {"stored": 4, "failed": 2, "dead": 1}
    assert q.r.xlen(q.keys.stream) == 0
    msg = incomplete_message(st)
    assert "4 of 5 results, 0 missing, 1 dead-lettered" in msg
    assert ("dead seed 3, error (as stored in Redis, unchecked without REALMSIM_SECRET): 'failed on each of 3 "
            "deliveries; last error: JobError: not a realmsim job of version 1: ") in msg


def _delivered_to_ghosts(q: RedisQueue, n: int) -> None:
    """The batch's only entry delivered ``n`` times to workers that died (one read, claims), never acknowledged."""
    (entry_id, _), = q.r.xreadgroup(GROUP, "ghost1", {q.keys.stream: ">"}, count=1)[0][1]
    for i in range(2, n + 1):
        q.r.xclaim(q.keys.stream, GROUP, f"ghost{i}", 0, [entry_id])


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_job_whose_workers_keep_dying_is_dead_lettered_without_running_again(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1], kind="spin", overrides={"rounds": 1})
    q.submit(plan)
    _delivered_to_ghosts(q, 3)
    procs.worker(redis_server.url, "w1", "--min-idle", "0.2", "--block", "0.2", "--max-deaths", "2")
    st = wait_batch(q, plan, timeout=60)
    assert st.results == {}
    (seed, error), = st.dead_seeds()
    assert seed == 1
    assert error == "its workers died or stalled 3 times while running it (more than --max-deaths 2)"
    (letter,) = q.dead_letters()
    assert (letter["reason"], letter["deaths"], letter["failures"]) == ("died", "3", "0")
    assert q.stats() == {"dead": 1}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_worker_deaths_do_not_count_against_the_job_s_failure_budget(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1], kind="spin", overrides={"rounds": 1})
    q.submit(plan)
    _delivered_to_ghosts(q, 3)  # as many deaths as --max-deliveries allows failures
    procs.worker(redis_server.url, "w1", "--min-idle", "0.2", "--block", "0.2", "--max-deliveries", "3")
    st = wait_batch(q, plan, timeout=60)
    assert st.complete and st.dead_seeds() == []
    assert st.results[plan.keys()[0]]["ledger_sha256"] == spin_digest(1, 1)
    assert q.stats() == {"stored": 1}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_redelivered_job_whose_result_exists_is_not_counted_twice(procs: Procs, redis_server, tmp_path) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3], kind="spin", overrides={"rounds": 10})
    q.submit(plan)
    w = procs.worker(redis_server.url, "w1", "--burst", "--block", "0.2")
    assert w.wait(60) == 0
    assert q.stats() == {"stored": 3}
    first = {k: q.r.get(q.keys.result(k)) for k in plan.keys()}
    # the same three jobs come again (a redelivery, a resubmission): they find their results
    for _, key, payload in plan.jobs():
        q.r.xadd(q.keys.stream, {"job": payload, "key": key, "batch": plan.id})
    w = procs.worker(redis_server.url, "w2", "--burst", "--block", "0.2")
    assert w.wait(60) == 0
    assert q.stats() == {"stored": 3, "duplicates": 3}
    found = re.findall(r"(\d+) job\(s\) already had a result \(redelivered\); not stored again", procs.log("w2"))
    assert sum(int(n) for n in found) == 3
    assert {k: q.r.get(q.keys.result(k)) for k in plan.keys()} == first
    assert q.r.scard(q.keys.done(plan.id)) == 3
    assert q.counts(plan.id) == (3, 0)
    out = procs.cli("collect", plan.id, "--redis", redis_server.url, "--queue", "t", "--out", str(tmp_path / "r.csv"))
    assert out.returncode == 0, out.stderr
    assert seeds_in(tmp_path / "r.csv") == ["1", "2", "3"]


def test_the_store_script_stores_a_result_only_once_and_acknowledges_both_deliveries(redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    q.ensure_group()
    ids = [q.r.xadd(q.keys.stream, {"job": b"x", "key": "k1", "batch": "b"}) for _ in range(2)]
    q.r.xreadgroup(GROUP, "a", {q.keys.stream: ">"}, count=2)

    def store(entry_id: Any, value: bytes) -> list[int]:
        keys = [q.keys.stream, q.keys.stats, q.keys.result("k1"), q.keys.done("b")]
        return q.r.eval(STORE_LUA, len(keys), *keys, GROUP, "0", entry_id, "k1", value)

    # (stored, duplicates, orphans, entries left to read — the stream less its pending entries: what a
    # worker sizes its next read by)
    assert store(ids[0], b"first") == [1, 0, 0, 0]  # the other entry is read: nothing left to read
    assert store(ids[1], b"second") == [0, 1, 0, 0]
    assert q.r.get(q.keys.result("k1")) == b"first"
    assert q.r.smembers(q.keys.done("b")) == {b"k1"}
    assert q.r.xpending(q.keys.stream, GROUP)["pending"] == 0 and q.r.xlen(q.keys.stream) == 0
    assert q.stats() == {"stored": 1, "duplicates": 1}
    # an entry found done before running ('' value) is acknowledged only if the result is really there
    orphan = q.r.xadd(q.keys.stream, {"job": b"x", "key": "k2", "batch": "b"})
    q.r.xreadgroup(GROUP, "a", {q.keys.stream: ">"}, count=1)
    keys = [q.keys.stream, q.keys.stats, q.keys.result("k2"), q.keys.done("b")]
    assert q.r.eval(STORE_LUA, len(keys), *keys, GROUP, "0", orphan, "k2", "") == [0, 0, 1, 0]
    assert q.r.xpending(q.keys.stream, GROUP)["pending"] == 1


def test_the_store_script_says_how_many_entries_are_left_to_read(redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    q.ensure_group()
    ids = [q.r.xadd(q.keys.stream, {"job": b"x", "key": f"k{i}", "batch": "b"}) for i in range(5)]
    q.r.xreadgroup(GROUP, "a", {q.keys.stream: ">"}, count=2)  # 2 read (pending), 3 left to read
    keys = [q.keys.stream, q.keys.stats, q.keys.result("k0"), q.keys.done("b")]
    assert q.r.eval(STORE_LUA, len(keys), *keys, GROUP, "0", ids[0], "k0", b"v")[3] == 3  # not the other pending one
    q.r.xreadgroup(GROUP, "b", {q.keys.stream: ">"}, count=1)
    keys = [q.keys.stream, q.keys.stats, q.keys.result("k1"), q.keys.done("b")]
    assert q.r.eval(STORE_LUA, len(keys), *keys, GROUP, "0", ids[1], "k1", b"v")[3] == 2


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_sigterm_stops_a_busy_worker_at_once_and_puts_its_job_back(procs: Procs, redis_server) -> None:
    """Issue 30: a worker busy with a long job finished it first (it did not stop within 12 s). Now the job
    is killed and put back with the jobs read and not started, none counted as failed or dead."""
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3], kind="spin", overrides={"rounds": 200 * SLOW})  # a minute
    w = procs.worker(redis_server.url, "w1", "--block", "0.2", "--log-level", "debug")
    wait_for(lambda: "started" in procs.log("w1"), what="the worker to start")
    q.submit(plan)
    wait_for(lambda: "running job" in procs.log("w1"), what="the worker to start a job")
    w.send_signal(signal.SIGTERM)
    assert w.wait(5) == 0, "a busy worker must stop at once"
    assert "asked to stop; putting back the jobs in hand" in procs.log("w1")
    assert q.state(plan).results == {}
    assert q.r.xpending(q.keys.stream, GROUP)["pending"] == 0, "a stopped worker must hold no job"
    assert q.r.xlen(q.keys.stream) == 3
    assert {f[b"failures"] for _, f in q.r.xrange(q.keys.stream) if b"failures" in f} <= {b"0"}
    assert {f[b"deaths"] for _, f in q.r.xrange(q.keys.stream) if b"deaths" in f} <= {b"0"}
    assert q.stats().get("failed", 0) == 0 and q.stats().get("dead", 0) == 0
    # a job put back this way runs again elsewhere and is counted once
    short = BatchPlan.make({"name": "spin"}, [4, 5], kind="spin", overrides={"rounds": 4 * SLOW})
    q.r.delete(q.keys.stream)
    q.ensure_group()
    w = procs.worker(redis_server.url, "w2", "--block", "0.2", "--log-level", "debug")
    wait_for(lambda: "started" in procs.log("w2"), what="the second worker to start")
    q.submit(short)
    wait_for(lambda: "running job" in procs.log("w2"), what="the second worker to start a job")
    w.send_signal(signal.SIGTERM)
    assert w.wait(5) == 0
    assert q.state(short).results == {} and q.r.xlen(q.keys.stream) == 2
    procs.worker(redis_server.url, "w3", "--burst", "--block", "0.2")
    st = wait_batch(q, short, timeout=60)
    assert st.complete and {r["seed"]: r["ledger_sha256"] for r in st.results.values()} == {
        s: spin_digest(s, 4 * SLOW) for s in (4, 5)}
    # (a worker's first read takes one job: each stopped worker put back the one it ran)
    assert q.stats() == {"stored": 2, "released": 2}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_burst_worker_exits_when_the_queue_is_drained(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "noop"}, list(range(50)), kind="noop")
    q.submit(plan)
    w = procs.worker(redis_server.url, "w1", "--burst", "--block", "0.2")
    assert w.wait(60) == 0
    assert q.counts(plan.id) == (50, 0)
    assert "queue drained (burst); exiting" in procs.log("w1")


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_collect_after_redis_lost_everything_resubmits_from_the_manifest(procs: Procs, redis_server, tmp_path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..5", "--redis", url)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    manifest = procs.tmp / "state" / "batches" / f"{batch_id}.msgpack"
    assert manifest.is_file(), sub.stderr
    assert f"manifest {manifest}" in sub.stderr

    redis_server.restart()  # nothing is persisted: the stream, the group and the batch record are gone
    q = RedisQueue(url)
    assert q.r.dbsize() == 0

    procs.worker(url, "w1", "--block", "0.2", prefix="realmsim")
    out = procs.cli("collect", batch_id, "--redis", url, "--out", str(tmp_path / "r.csv"), "--timeout", "90")
    assert out.returncode == 0, out.stderr
    assert f"Redis does not know batch {batch_id} (restarted without its data?); restoring it from its manifest" in out.stderr
    assert f"resubmitting 5 job(s) of batch {batch_id} that have no result (Redis lost the batch's jobs)" in out.stderr
    assert seeds_in(tmp_path / "r.csv") == ["1", "2", "3", "4", "5"]


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_collect_resubmit_adds_back_jobs_lost_from_the_stream(procs: Procs, redis_server, tmp_path) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3], kind="spin", overrides={"rounds": 10})
    q.submit(plan)
    # someone deleted two of the entries (the group and the batch record survive)
    ids = [i for i, _ in q.r.xrange(q.keys.stream)]
    q.r.xdel(q.keys.stream, *ids[:2])
    procs.worker(redis_server.url, "w1", "--block", "0.2")
    wait_for(lambda: q.counts(plan.id)[0] == 1, timeout=60, what="the one job left in the stream to be done")
    st = wait_batch(q, plan, timeout=1, check_every=0.2)
    assert len(st.results) == 1 and len(st.missing_seeds()) == 2
    said: list[str] = []
    st = wait_batch(q, plan, timeout=60, resubmit=True, say=said.append)
    assert st.complete
    assert said == [f"resubmitting 2 job(s) of batch {plan.id} that have no result (asked to (--resubmit))"]


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_long_job_is_not_taken_for_a_stale_one_while_its_worker_lives(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1], kind="spin", overrides={"rounds": 8 * SLOW})  # ~2 s, idle limit 0.3 s
    procs.worker(redis_server.url, "busy", "--min-idle", "0.3", "--block", "0.2", "--log-level", "debug")
    wait_for(lambda: "started" in procs.log("busy"), what="the first worker to start")
    q.submit(plan)
    wait_for(lambda: "running job" in procs.log("busy"), what="the first worker to start the job")
    procs.worker(redis_server.url, "idle", "--min-idle", "0.3", "--block", "0.2")
    st = wait_batch(q, plan, timeout=60)
    assert st.complete
    assert "running job" not in procs.log("busy").split("running job", 1)[1], "the job ran twice"
    assert "claimed" not in procs.log("idle")
    assert q.stats() == {"stored": 1}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_worker_rides_out_a_redis_restart_and_keeps_the_result_of_its_job(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1, 2], kind="spin", overrides={"rounds": 4 * SLOW})
    procs.worker(redis_server.url, "w1", "--min-idle", "1", "--block", "0.2", "--log-level", "debug")
    wait_for(lambda: "started" in procs.log("w1"), what="the worker to start")
    q.submit(plan)
    wait_for(lambda: "running job" in procs.log("w1"), what="the worker to start a job")
    redis_server.stop()  # down while the job runs: the worker cannot store its result
    wait_for(lambda: "Redis connection error" in procs.log("w1"), timeout=60, what="the worker to notice")
    redis_server.start()  # back, empty: the job stream, the group, the batch record are gone
    first = plan.keys()[0]
    wait_for(lambda: q.r.get(q.keys.result(first)) is not None, timeout=60,
             what="the worker to store the job it was running when Redis went away")
    assert re.search(r"WARNING worker w1: Redis connection error \(.*\); retrying in 0\.2 s", procs.log("w1"))
    assert q.r.smembers(q.keys.done(plan.id)) == {first.encode()}
    said: list[str] = []
    st = wait_batch(q, plan, timeout=60, say=said.append)  # the lost second job is resubmitted
    assert st.complete
    assert said == [f"resubmitting 1 job(s) of batch {plan.id} that have no result (Redis lost the batch's jobs)"]
    assert {r["seed"]: r["ledger_sha256"] for r in st.results.values()} == {s: spin_digest(s, 4 * SLOW) for s in (1, 2)}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_worker_waits_out_a_redis_that_refuses_writes_and_keeps_its_result(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1, 2], kind="spin", overrides={"rounds": 2 * SLOW})
    procs.worker(redis_server.url, "w1", "--block", "0.2", "--log-level", "debug")
    wait_for(lambda: "started" in procs.log("w1"), what="the worker to start")
    q.submit(plan)
    wait_for(lambda: "running job" in procs.log("w1"), what="the worker to start a job")
    q.r.config_set("maxmemory-policy", "noeviction")
    q.r.config_set("maxmemory", "1")  # every write is refused: OOM
    try:
        wait_for(lambda: "Redis refused a command for now (OutOfMemoryError: command not allowed when used memory"
                 in procs.log("w1"), timeout=60,
                 what="the worker to be refused")
    finally:
        q.r.config_set("maxmemory", "0")
    st = wait_batch(q, plan, timeout=60)
    assert st.complete
    assert q.stats() == {"stored": 2}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_collect_queues_again_a_deleted_entry_and_a_deleted_result_after_resubmit_after(
        procs: Procs, redis_server, tmp_path) -> None:
    """Issue 30: one deleted entry or result was lost until the user thought of ``collect --resubmit``."""
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..3", "--redis", url)
    batch_id = sub.stdout.strip()
    q = RedisQueue(url)
    plan = q.load_plan(batch_id)
    assert plan is not None
    first = [i for i, _ in q.r.xrange(q.keys.stream)][0]
    q.r.xdel(q.keys.stream, first)  # seed 1's entry, deleted before any worker saw it
    w = procs.cli("worker", "--redis", url, "--burst", "--block", "0.2")
    assert w.returncode == 0, w.stderr
    q.r.delete(q.keys.result(plan.keys()[1]))  # seed 2's result, deleted once stored
    assert len(q.state(plan).results) == 1
    procs.worker(url, "w1", "--block", "0.2", prefix="realmsim")
    out = tmp_path / "r.csv"
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "90", "--resubmit-after", "1")
    assert res.returncode == 0, res.stderr
    assert (f"resubmitting 2 job(s) of batch {batch_id} that were gone from the queue for 1 s or more with no result "
            f"(deleted, or lost by Redis); --resubmit-after SECONDS sets this wait, 'never' turns it off") in res.stderr
    assert seeds_in(out) == ["1", "2", "3"]
    assert q.r.scard(q.keys.done(batch_id)) == 3
    # with --resubmit-after never, nothing is queued again: the wait ends at its timeout
    q.r.delete(q.keys.result(plan.keys()[0]))
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "3",
                    "--resubmit-after", "never")
    assert res.returncode == 1 and "resubmitting" not in res.stderr
    assert "2 of 3 results, 1 missing" in res.stderr


def test_a_job_still_queued_or_dead_is_not_taken_for_a_gone_one(redis_server) -> None:
    from workers.queue import _Watch

    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3, 4], kind="spin", overrides={"rounds": 1})
    q.submit(plan)
    k1, k2, k3, k4 = plan.keys()
    ids = [i for i, _ in q.r.xrange(q.keys.stream)]
    q.r.xreadgroup(GROUP, "ghost", {q.keys.stream: ">"}, count=1)  # seed 1: pending with a dead worker
    q.r.xdel(q.keys.stream, ids[1], ids[2], ids[3])
    q.r.set(q.keys.result(k2), b"x")  # seed 2: a result
    q.r.sadd(q.keys.dead_set(plan.id), k3)  # seed 3: dead (no secret: a mark holds)
    # seed 4: gone. A copy of seed 4's entry carrying another job's payload does not count as its entry
    q.r.xadd(q.keys.stream, {"job": next(plan.jobs())[2], "key": k4, "batch": plan.id})
    w = _Watch(q, plan, 10.0, lambda s: None)
    assert w.scan(100.0) == [] and set(w.gone_since) == {k4}
    assert w.scan(109.0) == []
    assert w.scan(110.0) == [k4]  # gone for 10 s: queue it again
    assert w.scan(111.0) == [] and w.gone_since == {k4: 111.0}
    assert w.scan(130.0) == []  # the second time after twice as long
    assert w.scan(131.0) == [k4]
