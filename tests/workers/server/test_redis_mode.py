"""``realmsim serve --redis URL``: batches go to the same Redis workers as ``realmsim batch --redis``
(a real redis-server on a free port, a real ``workers.worker`` process); the records stay in the
server's store, so they outlive a restart of the server and a Redis that lost its data."""

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


def test_batches_on_redis_workers_cancel_restart_and_records_that_outlive_redis(make_server, redis_server,
                                                                                procs: Procs) -> None:
    s: Server = make_server("--redis", redis_server.url, "--queue", "srv").start()
    assert s.get("/healthz").json()["mode"] == "redis"
    r = redis.Redis.from_url(redis_server.url)

    def jobs_of(bid: str) -> int:
        return sum(1 for _, f in r.xrange("srv:jobs") if f[b"batch"] == bid.encode())

    # no worker yet: the jobs wait in the stream; cancelling one batch removes its jobs only
    doomed = s.post("/v1/batches", {"scenario": "realm", "seeds": "1..5"}).json()["id"]
    bid = s.post("/v1/batches", {"scenario": "caravan-crossing", "seeds": "1..3"}).json()["id"]
    s.wait("batches", doomed, until=("running",))
    s.wait("batches", bid, until=("running",))
    assert s.get(f"/v1/batches/{bid}").json()["mode"] == "redis"
    assert jobs_of(doomed) == 5 and jobs_of(bid) == 3
    cancelled = s.client().post(f"/v1/batches/{doomed}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert jobs_of(doomed) == 0 and jobs_of(bid) == 3  # no worker will start the cancelled jobs

    # campaigns run on the server's own processes in this mode too (they stream their ledger live)
    cid = s.post("/v1/campaigns", {"scenario": "guild-war", "seed": 2, "until": 2}).json()["id"]
    assert s.wait("campaigns", cid)["status"] == "stopped"

    # the server stops, Redis loses everything; at the next start the server waits for its batch
    # again, resubmits the jobs Redis lost, and a worker runs them
    assert s.stop(signal.SIGTERM) == 0
    redis_server.restart()
    s.start()
    assert s.get(f"/v1/batches/{bid}").json()["status"] == "running"
    procs.worker(redis_server.url, "w1", "--burst", prefix="srv")
    rec = s.wait("batches", bid, timeout=180)
    assert (rec["status"], rec["done"], rec["total"]) == ("finished", 3, 3), rec
    rows = list(csv.DictReader(io.StringIO(s.get(f"/v1/batches/{bid}/results.csv").text)))
    assert [r["ledger_sha256"] for r in rows] == [
        run_job_dict(make_job({"name": "caravan-crossing"}, seed))["ledger_sha256"] for seed in (1, 2, 3)]

    # the records do not depend on Redis
    assert s.stop(signal.SIGTERM) == 0
    redis_server.restart()
    s.start()
    assert s.get(f"/v1/batches/{bid}").json() == rec
    assert list(csv.DictReader(io.StringIO(s.get(f"/v1/batches/{bid}/results.csv").text))) == rows
    assert s.get(f"/v1/batches/{doomed}").json()["status"] == "cancelled"
    assert s.get(f"/v1/campaigns/{cid}").json()["status"] == "stopped"
