"""``realmsim serve --redis URL``: batches go to the same Redis workers as ``realmsim batch --redis``
(a real redis-server on a free port, real ``workers.worker`` processes); the records stay in the
server's store, so they outlive a restart of the server and Redis's expiry."""

from __future__ import annotations

import csv
import io
import signal

import pytest
import redis

from workers.job import make_job, run_job_dict

from ..conftest import Procs
from .conftest import Server

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def test_a_batch_runs_on_redis_workers_and_its_results_survive_a_restart(make_server, redis_server, procs: Procs) -> None:
    s: Server = make_server("--redis", redis_server.url, "--queue", "srv").start()
    assert s.get("/healthz").json()["mode"] == "redis"
    bid = s.post("/v1/batches", {"scenario": "caravan-crossing", "seeds": "1..3"}).json()["id"]
    assert s.get(f"/v1/batches/{bid}").json()["mode"] == "redis"
    procs.worker(redis_server.url, "w1", "--burst", prefix="srv")
    rec = s.wait("batches", bid, timeout=180)
    assert (rec["status"], rec["done"], rec["total"]) == ("finished", 3, 3), rec
    rows = list(csv.DictReader(io.StringIO(s.get(f"/v1/batches/{bid}/results.csv").text)))
    assert [r["ledger_sha256"] for r in rows] == [
        run_job_dict(make_job({"name": "caravan-crossing"}, seed))["ledger_sha256"] for seed in (1, 2, 3)]
    # campaigns run on the server's own processes in this mode too (they stream their ledger live)
    cid = s.post("/v1/campaigns", {"scenario": "guild-war", "seed": 2, "until": 2}).json()["id"]
    assert s.wait("campaigns", cid)["status"] == "stopped"

    assert s.stop(signal.SIGTERM) == 0
    redis_server.restart()  # Redis loses everything: the server's records do not depend on it
    s.start()
    assert s.get(f"/v1/batches/{bid}").json() == rec
    assert list(csv.DictReader(io.StringIO(s.get(f"/v1/batches/{bid}/results.csv").text))) == rows


def test_a_batch_waiting_for_workers_goes_on_after_a_restart_and_cancel_removes_its_jobs(
        make_server, redis_server, procs: Procs) -> None:
    s: Server = make_server("--redis", redis_server.url, "--queue", "srv").start()
    waiting = s.post("/v1/batches", {"scenario": "caravan-crossing", "seeds": "7..8"}).json()["id"]
    doomed = s.post("/v1/batches", {"scenario": "realm", "seeds": "1..5"}).json()["id"]
    r = redis.Redis.from_url(redis_server.url)
    s.wait("batches", doomed, until=("running",))

    def jobs_of(bid: str) -> int:
        return sum(1 for _, f in r.xrange("srv:jobs") if f[b"batch"] == bid.encode())

    assert jobs_of(doomed) == 5 and jobs_of(waiting) == 2
    cancelled = s.client().delete(f"/v1/batches/{doomed}")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert jobs_of(doomed) == 0 and jobs_of(waiting) == 2  # no worker will start the cancelled jobs

    assert s.stop(signal.SIGTERM) == 0  # no worker yet: the other batch is still waiting
    s.start()
    assert s.get(f"/v1/batches/{waiting}").json()["status"] == "running"
    procs.worker(redis_server.url, "w2", "--burst", prefix="srv")
    rec = s.wait("batches", waiting, timeout=180)
    assert (rec["status"], rec["done"]) == ("finished", 2)
    assert s.get(f"/v1/batches/{doomed}").json()["status"] == "cancelled"
