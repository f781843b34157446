"""Poison in the queue: whatever an entry holds, every worker survives, the entry is dead-lettered with
its reason, and the next good job is served. Real workers, a real redis-server, entries written raw.

Anyone who can write to Redis can write these: fields that are not UTF-8, bytes that are not msgpack,
maps of the wrong shape, a payload above the size limit, a key that is not its job's, a scenario whose
policy is ``os:fork``, ``sys:exit`` or ``os:abort``, a scenario "name" that is a path, an absolute
orders file, a job that never ends, an ``explain`` that is not true or false.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from workers.batch import BatchPlan
from workers.job import decode, encode, make_job
from workers.queue import GROUP, RedisQueue, wait_batch

from ..cv.test_scenario import BASE as CARAVAN  # one caravan, policy "heuristic"
from ..km.test_scenario import SCRIPTED_A, text
from .conftest import Procs, wait_for
from .test_determinism import job_processes
from .test_queue import spin_digest

pytestmark = pytest.mark.redis

NAME = re.search(r'name = "([^"]+)"', CARAVAN).group(1)  # type: ignore[union-attr]
SECRET_MARK = "hunter2-s3cr3t"


def raw(q: RedisQueue, fields: dict[Any, Any]) -> None:
    q.r.xadd(q.keys.stream, fields)


def letters_by_label(q: RedisQueue) -> dict[str, dict[str, Any]]:
    """Dead letters keyed by the label each poison carries in its batch field (or key field)."""
    out = {}
    for d in q.dead_letters(count=1000):
        label = d["batch"] if d["batch"].startswith("p-") else d["key"]
        out[label] = d
    return out


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_poison_entries_are_dead_lettered_with_their_reason_and_every_worker_survives(
        procs: Procs, redis_server, tmp_path: Path) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    q.ensure_group()
    good = make_job({"name": "spin"}, 1, kind="spin", overrides={"rounds": 10})
    from workers.job import job_key

    good_key = job_key(good)
    other_key = job_key(make_job({"name": "spin"}, 2, kind="spin", overrides={"rounds": 10}))
    poisons: list[tuple[str, dict[Any, Any]]] = [
        ("p-key-not-utf8", {"job": encode(good), "key": b"\xff\xfe\xfd", "batch": "p-key-not-utf8"}),
        ("p-batch-not-utf8", {"job": encode(good), "key": "p-batch-not-utf8", "batch": b"\xc3\x28"}),
        ("p-garbage", {"job": b"\xc1\xc1\x00garbage\xff", "key": good_key, "batch": "p-garbage"}),
        ("p-list", {"job": encode([1, 2, 3]), "key": good_key, "batch": "p-list"}),
        ("p-scenario-str", {"job": encode({**good, "scenario": "caravan-crossing"}), "key": good_key,
                            "batch": "p-scenario-str"}),
        ("p-overrides-list", {"job": encode({**good, "overrides": [1, 2]}), "key": good_key,
                              "batch": "p-overrides-list"}),
        ("p-no-job", {"nothing": "here", "batch": "p-no-job"}),
        ("p-too-large", {"job": encode({**good, "pad": "x" * 300_000}), "key": good_key, "batch": "p-too-large"}),
        # the forged entry of issue 9: another job's key on this job (its result would be stored as seed 2's)
        ("p-forged-key", {"job": encode(good), "key": other_key, "batch": "p-forged-key"}),
        # issue 26: a job's explain is true or false; "yes" is no answer (a campaign would run compact)
        ("p-explain-str", {"job": encode({**good, "explain": "yes"}), "key": good_key, "batch": "p-explain-str"}),
        ("p-nan-counters", {"job": encode(good), "key": good_key, "batch": "p-nan-counters",
                            "failures": "-9" * 30, "deaths": b"\xff"}),
    ]
    for _, fields in poisons:
        raw(q, fields)
    workers = [procs.worker(redis_server.url, n, "--min-idle", "1", "--block", "0.2", "--max-job-bytes", "100000")
               for n in ("w1", "w2")]
    # the counters of p-nan-counters are read as 0: a healthy job under them runs and is stored
    wait_for(lambda: q.r.get(q.keys.result(good_key)) is not None, timeout=60, what="the good job to be stored")
    wait_for(lambda: q.r.xlen(q.keys.dead) >= len(poisons) - 1, timeout=60, what="every poison to be dead-lettered")
    letters = letters_by_label(q)
    expected = {
        "p-key-not-utf8": ("poison", r"the entry's key field b'\\xff\\xfe\\xfd' is not its job's key [0-9a-f]{32} "
                                     r"\(a forged or damaged entry\)"),
        "p-batch-not-utf8": ("poison", r"the batch field b'\(' is not a batch id|the batch field b'\\xc3\(' is not"),
        "p-garbage": ("poison", r"the job is not msgpack|not a realmsim job"),
        "p-list": ("poison", r"not a realmsim job: a job is a map, found list"),
        "p-scenario-str": ("poison", r"not a realmsim job: job\.scenario: expected a map, found str"),
        "p-overrides-list": ("poison", r"not a realmsim job: job\.overrides: expected a map, found list"),
        "p-no-job": ("poison", r"the entry has no job field"),
        "p-too-large": ("too-large", r"job payload of 300,\d{3} bytes is above the limit of 100,000 "
                                     r"\(--max-job-bytes\); not read"),
        "p-forged-key": ("poison", rf"the entry's key field b'{other_key}' is not its job's key {good_key}"),
        "p-explain-str": ("poison", r"not a realmsim job: job\.explain: expected true or false, found str 'yes'"),
    }
    for label, (reason, pattern) in expected.items():
        letter = letters.get(label)
        assert letter is not None, f"{label} was not dead-lettered; letters: {sorted(letters)}"
        assert letter["reason"] == reason, (label, letter)
        assert re.search(pattern, letter["error"]), (label, letter["error"])
        assert letter["deliveries"] == "1", f"{label}: a poison is dead-lettered at once, not retried"
    assert letters["p-too-large"]["job"] == b"" and int(letters["p-too-large"]["size"]) > 300_000
    assert "p-nan-counters" not in letters
    # a forged key never stores a result under the other job's key
    assert q.r.get(q.keys.result(other_key)) is None
    # the next good batch is served, and both workers are alive and hold nothing
    plan = BatchPlan.make({"name": "spin"}, list(range(10, 20)), kind="spin", overrides={"rounds": 100})
    q.submit(plan)
    st = wait_batch(q, plan, timeout=60)
    assert st.complete
    assert {r["seed"]: r["ledger_sha256"] for r in st.results.values()} == {s: spin_digest(s, 100) for s in plan.seeds}
    assert all(w.poll() is None for w in workers), "a worker died"
    assert q.r.xpending(q.keys.stream, GROUP)["pending"] == 0
    assert "Traceback" not in procs.log("w1") + procs.log("w2")


def caravan(policy: str) -> dict[str, str]:
    assert CARAVAN.count('policy = "heuristic"') == 1
    return {"label": f"{policy}.toml", "text": CARAVAN.replace('policy = "heuristic"', f'policy = "{policy}"')}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_jobs_that_exit_abort_fork_or_read_host_files_are_dead_lettered_and_the_workers_go_on(
        procs: Procs, redis_server, tmp_path: Path) -> None:
    secret = tmp_path / "secrets.toml"
    secret.write_text(f'password = "{SECRET_MARK}"\n[[orders]]\nturn = "{SECRET_MARK}"\n', encoding="utf-8")
    km = text().replace("skills = { diplomacy = 10 }", f'{SCRIPTED_A}\norders_file = "{secret}"', 1)
    q = RedisQueue(redis_server.url, prefix="t")
    cases = {
        "exit": BatchPlan.make(caravan("sys:exit"), [1], name=NAME, batch_id="p-sys-exit"),
        "abort": BatchPlan.make(caravan("os:abort"), [1], name=NAME, batch_id="p-os-abort"),
        "fork": BatchPlan.make(caravan("os:fork"), [1], name=NAME, batch_id="p-os-fork"),
        "path": BatchPlan.make({"name": str(secret)}, [1], name="x", batch_id="p-path-name"),
        "orders": BatchPlan.make({"label": "km.toml", "text": km}, [1], name="km-mini", batch_id="p-abs-orders"),
    }
    for plan in cases.values():
        q.submit(plan)
    w1 = procs.worker(redis_server.url, "w1", "--min-idle", "1", "--block", "0.2")
    w2 = procs.worker(redis_server.url, "w2", "--min-idle", "1", "--block", "0.2")
    states = {name: wait_batch(q, plan, timeout=120) for name, plan in cases.items()}
    errors = {}
    for name, st in states.items():
        (seed, error), = st.dead_seeds()
        errors[name] = error
    letters = {d["batch"]: d for d in q.dead_letters()}
    # a policy the worker was not allowed to import is a problem of the scenario, never imported (issue 9)
    for name, spec in (("exit", "sys:exit"), ("abort", "os:abort"), ("fork", "os:fork")):
        assert errors[name].startswith("failed on each of 3 deliveries; last error: "), (name, errors[name])
        assert (f'convoys[0].policy: expected a built-in convoy policy (heuristic, lookahead, random), an installed one, or a '
                f'module allowed by --allow-policies, found "{spec}" (module {spec.partition(":")[0]} is not allowed by '
                f'--allow-policies)') in errors[name], errors[name]
    assert {letters[b]["reason"] for b in ("p-sys-exit", "p-os-fork", "p-os-abort", "p-abs-orders")} == {"failed"}
    # a scenario name that is a path: refused unread, at once; an absolute orders file: a problem of its field
    assert letters["p-path-name"]["reason"] == "poison" and letters["p-path-name"]["deliveries"] == "1"
    assert errors["path"].startswith("scenario name is not a built-in: "), errors["path"]
    assert ('kingdoms[0].orders_file: expected a path relative to the scenario file, inside its folder '
            '(e.g. orders/alpha.toml), found') in errors["orders"] and "(an absolute path)" in errors["orders"]
    # every worker survived, and nothing the fork started outlives the job: one job process each, and
    # no process under a job process
    assert w1.poll() is None and w2.poll() is None
    time.sleep(0.2)
    kids = job_processes(w1.pid) + job_processes(w2.pid)
    assert len(kids) == 2, kids
    assert [p for k in kids for p in job_processes(k)] == []
    # and the next good job is served
    plan = BatchPlan.make(caravan("heuristic"), [1, 2], name=NAME)
    q.submit(plan)
    st = wait_batch(q, plan, timeout=120)
    assert st.complete, st.dead_seeds()
    assert all(r["scenario"] == NAME and r["events"] > 0 for r in st.results.values())


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_job_reads_no_file_of_the_worker_s(procs: Procs, redis_server, tmp_path: Path) -> None:
    secret = tmp_path / "secrets.toml"
    secret.write_text(f'password = "{SECRET_MARK}"\n[[orders]]\nturn = "{SECRET_MARK}"\n', encoding="utf-8")
    km = text().replace("skills = { diplomacy = 10 }", f'{SCRIPTED_A}\norders_file = "{secret}"', 1)
    q = RedisQueue(redis_server.url, prefix="t")
    plans = [BatchPlan.make({"name": str(secret)}, [1], name="x", batch_id="p-path-name"),
             BatchPlan.make({"label": "km.toml", "text": km}, [1], name="km-mini", batch_id="p-abs-orders")]
    for plan in plans:
        q.submit(plan)
    procs.worker(redis_server.url, "w1", "--min-idle", "1", "--block", "0.2", "--max-deliveries", "1")
    for plan in plans:
        (seed, error), = wait_batch(q, plan, timeout=120).dead_seeds()
        assert SECRET_MARK not in error and "password" not in error, f"{plan.id}: the dead letter quotes a host file"
    letters = {d["batch"]: d for d in q.dead_letters()}
    assert letters["p-path-name"]["reason"] == "poison"
    assert letters["p-path-name"]["error"] == (f"scenario name is not a built-in: {str(secret)!r} (a job names a "
                                               f"built-in or carries its text)")
    assert "(an absolute path)" in letters["p-abs-orders"]["error"]
    assert all(SECRET_MARK not in str(d) for d in q.dead_letters())
    # a relative orders file the job does not carry is not looked for on the worker's disk either
    km = text().replace("skills = { diplomacy = 10 }", f'{SCRIPTED_A}\norders_file = "secrets.toml"', 1)
    plan = BatchPlan.make({"label": "km.toml", "text": km}, [1], name="km-mini", batch_id="p-rel-orders")
    q.submit(plan)
    (seed, error), = wait_batch(q, plan, timeout=120).dead_seeds()
    assert "orders_file (secrets.toml): (file): expected a file carried with the scenario" in error, error
    assert SECRET_MARK not in error
    # and the next good job is served
    good = BatchPlan.make(caravan("heuristic"), [1], name=NAME)
    q.submit(good)
    assert wait_batch(q, good, timeout=120).complete


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_job_that_never_ends_is_killed_at_the_time_limit_retried_then_dead_lettered(
        procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    hung = BatchPlan.make({"name": "spin"}, [1], kind="spin", overrides={"rounds": 10**9})  # minutes of work
    q.submit(hung)
    w = procs.worker(redis_server.url, "w1", "--min-idle", "0.5", "--block", "0.2", "--job-timeout", "1",
                     "--max-deliveries", "2")
    st = wait_batch(q, hung, timeout=120)
    (seed, error), = st.dead_seeds()
    assert error == "timed out after 1 s on each of 2 deliveries (killed)"
    (letter,) = q.dead_letters()
    assert letter["reason"] == "timed-out" and letter["failures"] == "1"
    assert q.stats() == {"failed": 1, "dead": 1}
    # the heartbeat did not keep it: nobody claimed it as stale while it ran
    assert "claimed" not in procs.log("w1")
    ok = BatchPlan.make({"name": "spin"}, [2], kind="spin", overrides={"rounds": 100})
    q.submit(ok)
    assert wait_batch(q, ok, timeout=60).complete
    assert w.poll() is None


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_collect_refuses_a_forged_result(procs: Procs, redis_server, tmp_path: Path) -> None:
    url = redis_server.url
    sub = procs.cli("submit", "data/tiny.toml", "--seeds", "1..3", "--redis", url)
    assert sub.returncode == 0, sub.stderr
    batch_id = sub.stdout.strip()
    w = procs.cli("worker", "--redis", url, "--burst", "--block", "0.2")
    assert w.returncode == 0, w.stderr
    q = RedisQueue(url)
    plan = q.load_plan(batch_id)
    assert plan is not None
    k2, k3 = plan.keys()[1], plan.keys()[2]
    # seed 3's result written over seed 2's: collect would write seed 3 twice and seed 2 never
    q.r.set(q.keys.result(k2), q.r.get(q.keys.result(k3)))
    out = tmp_path / "r.csv"
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "30")
    assert res.returncode == 1
    assert f"realmsim collect: refused 1 result(s) of batch {batch_id} that are not its jobs'" in res.stderr
    assert f"seed 2 (job {k2}): its job_key is '{k3}', not {k2}" in res.stderr
    assert "Traceback" not in res.stderr and not out.exists()
    # a result with the right key but another seed, and one that is not msgpack
    forged = decode(q.r.get(q.keys.result(k3)))
    forged["job_key"] = k2
    q.r.set(q.keys.result(k2), encode(forged))
    q.r.set(q.keys.result(k3), b"\xc1 not msgpack")
    res = procs.cli("collect", batch_id, "--redis", url, "--out", str(out), "--timeout", "30", "--partial")
    assert res.returncode == 1 and not out.exists()
    assert f"seed 2 (job {k2}): its seed is 3, not 2" in res.stderr
    assert f"seed 3 (job {k3}): not msgpack" in res.stderr


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_job_payload_above_the_limit_is_refused_at_submit(procs: Procs, redis_server, tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    pad = "# " + "x" * 98 + "\n"
    big.write_text((Path(procs.src) / "data" / "tiny.toml").read_text(encoding="utf-8") + pad * 200, encoding="utf-8")
    res = procs.cli("submit", str(big), "--seeds", "1..3", "--redis", redis_server.url, "--max-job-bytes", "10000")
    assert res.returncode == 2
    assert re.search(r"realmsim submit: a job of tiny is 20,\d{3} bytes, above the limit of 10,000 bytes per job",
                     res.stderr), res.stderr
    assert RedisQueue(redis_server.url).r.dbsize() == 0
    assert not list((procs.tmp / "state").glob("batches/*")), "no manifest for a batch that was not submitted"


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_batch_key_of_the_wrong_type_costs_its_job_not_the_worker(procs: Procs, redis_server) -> None:
    q = RedisQueue(redis_server.url, prefix="t")
    bad = BatchPlan.make({"name": "spin"}, [1], kind="spin", overrides={"rounds": 10}, batch_id="p-wrong-type")
    q.submit(bad)
    q.r.set(q.keys.done(bad.id), "not a set")  # someone turned the batch's done set into a string
    good = BatchPlan.make({"name": "spin"}, [2, 3], kind="spin", overrides={"rounds": 10})
    q.submit(good)
    w = procs.worker(redis_server.url, "w1", "--block", "0.2")
    assert wait_batch(q, good, timeout=60).complete
    wait_for(lambda: q.r.xlen(q.keys.dead) == 1, timeout=60, what="the job whose batch key is wrong to be dead-lettered")
    (letter,) = q.dead_letters()
    assert letter["batch"] == "p-wrong-type" and letter["reason"] == "poison"
    assert letter["error"].startswith("Redis refused to store its outcome (ResponseError: WRONGTYPE")
    assert w.poll() is None and q.r.xpending(q.keys.stream, GROUP)["pending"] == 0


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_worker_builds_an_outside_policy_only_of_a_module_its_own_command_line_allows(
        procs: Procs, redis_server, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "mypolicies_h9a.py").write_text(
        "from agents.policies import Decision, Policy\n\n\nclass First(Policy):\n"
        "    def decide(self, obs, legal, rng):\n        return Decision(legal[0], [], 'the first')\n", encoding="utf-8")
    env = {"PYTHONPATH": f"{procs.src}:{lib}"}
    q = RedisQueue(redis_server.url, prefix="t")
    refused = BatchPlan.make(caravan("mypolicies_h9a:First"), [1], name=NAME, batch_id="p-not-allowed")
    q.submit(refused)
    w1 = procs.worker(redis_server.url, "w1", "--block", "0.2", "--max-deliveries", "1", env=env)
    (seed, error), = wait_batch(q, refused, timeout=120).dead_seeds()
    assert "module mypolicies_h9a is not allowed by --allow-policies" in error, error
    w1.terminate()
    assert w1.wait(30) == 0
    allowed = BatchPlan.make(caravan("mypolicies_h9a:First"), [2], name=NAME, batch_id="p-allowed")
    q.submit(allowed)
    w2 = procs.worker(redis_server.url, "w2", "--block", "0.2", "--allow-policies", "mypolicies_h9a", env=env)
    st = wait_batch(q, allowed, timeout=120)
    assert st.complete, st.dead_seeds()
    (res,) = st.results.values()
    assert res["factions"]["convoy:amber"]["policy"] == "mypolicies_h9a:First"
    assert w2.poll() is None


@pytest.mark.slow  # over 0.5 s (about 12 s: the limit of a 10-day campaign): left out of make test-fast
def test_long_entries_hold_workers_only_for_the_time_limit_of_their_scenario_s_length(
        procs: Procs, redis_server, tmp_path: Path) -> None:
    """Issue 30: two entries that never end held both workers for the 900 s of the old default timeout. By
    default a job's limit now comes from its length: 10 s + 20 s per year, 10.56 s for this 10-day campaign."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "sleepy_q30.py").write_text(
        "import time\nfrom agents.policies import Policy\n\n\nclass Sleepy(Policy):\n"
        "    def decide(self, obs, legal, rng):\n        time.sleep(3600)\n", encoding="utf-8")
    env = {"PYTHONPATH": f"{procs.src}:{lib}"}
    q = RedisQueue(redis_server.url, prefix="t")
    plan = BatchPlan.make(caravan("sleepy_q30:Sleepy"), [1, 2], name=NAME)
    q.submit(plan)
    for name in ("w1", "w2"):
        procs.worker(redis_server.url, name, "--block", "0.2", "--max-deliveries", "1", "--allow-policies",
                     "sleepy_q30", env=env)
    st = wait_batch(q, plan, timeout=90)
    assert sorted(seed for seed, _ in st.dead_seeds()) == [1, 2], (st.dead, st.missing_seeds())
    for _, error in st.dead_seeds():
        assert error == ("timed out after 10.5556 s on each of 1 deliveries (killed; the default time limit for a "
                         "campaign of 10 day(s); --job-timeout S sets another)"), error
    assert {d["reason"] for d in q.dead_letters()} == {"timed-out"}
    # both workers are free again: a good job is served
    good = BatchPlan.make(caravan("heuristic"), [3], name=NAME)
    q.submit(good)
    assert wait_batch(q, good, timeout=60).complete


def test_the_default_time_limit_comes_from_the_job_s_length() -> None:
    from workers.job import LIMIT_BASE_S, LIMIT_PER_YEAR_S, make_job, time_limit

    assert (LIMIT_BASE_S, LIMIT_PER_YEAR_S) == (10.0, 20.0)  # docs/workers.md says these
    assert time_limit(make_job({"name": "caravan-crossing"}, 1)) == (pytest.approx(10 + 20 * 60 / 360),
                                                                      "a campaign of 60 day(s)")
    assert time_limit(make_job({"name": "realm"}, 1)) == (210.0, "a campaign of 10 year(s)")
    assert time_limit(make_job({"name": "guild-war"}, 1)) == (110.0, "a campaign of 5 year(s)")
    assert time_limit(make_job(caravan("heuristic"), 1)) == (pytest.approx(10 + 20 * 10 / 360), "a campaign of 10 day(s)")
    assert time_limit(make_job({"name": "spin"}, 1, kind="spin", overrides={"rounds": 10**9})) == (
        10010.0, "a spin job of 1,000,000,000 rounds")
    assert time_limit(make_job({"name": "../etc/passwd"}, 1)) == (10.0, "a campaign whose scenario does not load")
    assert time_limit(["not", "a", "job"]) == (10.0, "a job that is not a map")
