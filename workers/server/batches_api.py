"""``/v1/batches``: one scenario over many seeds; progress (also live), results as CSV/Parquet, cancel."""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from litestar import Request, Response, Router, delete, get, post
from litestar.openapi import ResponseSpec
from litestar.params import Parameter
from litestar.response import Stream

from sim.errors import Problem
from workers.batch import BatchPlan, new_batch_id
from workers.server.auth import may_see, owner, sees
from workers.server.bodies import json_body
from workers.server.errors import ApiError, not_cancellable, not_found
from workers.server.feed import KEEPALIVE, sse
from workers.server.inputs import check_overrides, scenario_from, scenario_ref, seeds_from
from workers.server.models import (
    Batch,
    BatchFinding,
    BatchList,
    BatchReport,
    BatchRequest,
    Created,
    ErrorBody,
    Failure,
)
from workers.server.services import Services, svc
from workers.server.store import ACTIVE

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def view(rec: dict[str, Any], failures: list[tuple[int, str]]) -> Batch:
    base = f"/v1/batches/{rec['id']}"
    return Batch(id=rec["id"], status=rec["status"], mode=rec["mode"], scenario=rec["scenario"], total=rec["total"],
                 done=rec["done"], dead=rec["dead"], created=rec["created"], started=rec["started"],
                 finished=rec["finished"], error=rec["error"], failures=[Failure(s, e) for s, e in failures],
                 links={"self": base, "stream": f"{base}/stream", "results_csv": f"{base}/results.csv",
                        "results_parquet": f"{base}/results.parquet", "report": f"{base}/report",
                        "page": f"/batches/{rec['id']}"})


async def record(s: Services, bid: str, request: Request[Any, Any, Any] | None = None) -> dict[str, Any]:
    """The batch ``bid``; 404 when there is none, or when it belongs to a token that ``request``'s may not see."""
    rec = await s.store.call(s.store.batch, bid)
    if rec is None or (request is not None and not may_see(request.scope, rec["owner"])):
        raise not_found("batch", bid)
    return rec


async def batch_view(s: Services, bid: str, request: Request[Any, Any, Any] | None = None) -> Batch:
    rec = await record(s, bid, request)
    return view(rec, await s.store.call(s.store.batch_failures, bid) if rec["dead"] else [])


@post("/", summary="Start a batch: one scenario over many seeds → its id", dependencies={"payload": json_body(BatchRequest)})
async def create_batch(request: Request[Any, Any, Any], payload: BatchRequest) -> Created:
    data = payload
    s = svc(request)
    if s.stopping:
        raise ApiError(503, "unavailable", "the server is stopping; try again in a moment", headers={"Retry-After": "5"})

    def prepare() -> BatchPlan:
        seeds = seeds_from(data.seeds)
        loaded = scenario_from(data.scenario, data.text)
        overrides = check_overrides(loaded, dict(data.overrides))
        return BatchPlan.make(scenario_ref(loaded, data.scenario), seeds, name=loaded.name, overrides=overrides,
                              batch_id=new_batch_id())

    plan = await s.store.call(prepare)
    await s.batches.submit(plan, owner(request.scope))
    return Created(id=plan.id, status="queued", url=f"/v1/batches/{plan.id}")


@get("/", summary="Batches, newest first")
async def list_batches(request: Request[Any, Any, Any], limit: Annotated[int, Parameter(ge=1, le=1000)] = 100) -> BatchList:
    s = svc(request)
    return BatchList([view(r, []) for r in await s.store.call(s.store.batches, limit, sees(request.scope))])


@get("/{batch_id:str}", summary="A batch's status and progress (done, dead of total)")
async def get_batch(request: Request[Any, Any, Any], batch_id: str) -> Batch:
    return await batch_view(svc(request), batch_id, request)


@post("/{batch_id:str}/cancel", status_code=200, summary="Cancel a queued or running batch (results so far are kept)")
async def cancel_batch(request: Request[Any, Any, Any], batch_id: str) -> Batch:
    s = svc(request)
    rec = await record(s, batch_id, request)
    if not await s.batches.cancel(batch_id):
        raise not_cancellable("batch", batch_id, rec["status"])
    return await batch_view(s, batch_id)


@delete("/{batch_id:str}", status_code=204, summary="Delete a batch and its results; a queued or running one is "
        "cancelled first")
async def delete_batch(request: Request[Any, Any, Any], batch_id: str) -> None:
    s = svc(request)
    rec = await record(s, batch_id, request)
    if rec["status"] in ACTIVE:
        await s.batches.cancel(batch_id)  # waits for the batch's task to end
    await s.store.call(s.store.delete_batch, batch_id)


async def progress_frames(s: Services, bid: str) -> AsyncIterator[bytes]:
    feed = s.batches.feeds.get(bid)
    if feed is None:
        rec = await record(s, bid)
        yield sse("progress", json.dumps(_progress(rec)))
        yield sse("end", json.dumps(_progress(rec)))
        return
    seen = -1
    while True:
        if feed.version != seen:
            seen = feed.version
            yield sse("progress", json.dumps(feed.state))
        if feed.done:
            yield sse("end", json.dumps(feed.state))
            return
        if s.stopping:
            yield sse("shutdown", json.dumps({"reason": "the server is stopping; reconnect to continue"}))
            return
        await feed.wait(15.0)
        if feed.version == seen and not feed.done and not s.stopping:
            yield KEEPALIVE


def _progress(rec: dict[str, Any]) -> dict[str, Any]:
    return {k: rec[k] for k in ("id", "status", "total", "done", "dead", "error")}


@get("/{batch_id:str}/stream", summary="A batch's progress as server-sent events (`progress`…, then `end`)",
     media_type="text/event-stream")
async def stream_batch(request: Request[Any, Any, Any], batch_id: str) -> Stream:
    s = svc(request)
    await record(s, batch_id, request)
    return Stream(progress_frames(s, batch_id), media_type="text/event-stream", headers=SSE_HEADERS)


async def _results(s: Services, bid: str, suffix: str, request: Request[Any, Any, Any]) -> bytes:
    from workers.output import write_results

    rec = await record(s, bid, request)
    if rec["status"] in ACTIVE and rec["done"] == 0:
        raise ApiError(409, "not_yet", f"batch {bid} has no result yet ({rec['status']})")
    results = await s.store.call(s.store.batch_results, bid)

    def encode() -> bytes:
        with tempfile.TemporaryDirectory(prefix="realmsim-results-") as tmp:
            path = Path(tmp) / f"results{suffix}"
            write_results(path, results)
            return path.read_bytes()

    return await s.store.call(encode)


@get("/{batch_id:str}/results.csv", summary="The campaign table: one row per seed (workers/tidy.py columns)",
     media_type="text/csv")
async def results_csv(request: Request[Any, Any, Any], batch_id: str) -> Response[bytes]:
    body = await _results(svc(request), batch_id, ".csv", request)
    return Response(body, media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="{batch_id}.csv"'})


@get("/{batch_id:str}/results.parquet", summary="The campaign table: one row per seed, as Parquet",
     media_type="application/vnd.apache.parquet")
async def results_parquet(request: Request[Any, Any, Any], batch_id: str) -> Response[bytes]:
    body = await _results(svc(request), batch_id, ".parquet", request)
    return Response(body, media_type="application/vnd.apache.parquet",
                    headers={"Content-Disposition": f'attachment; filename="{batch_id}.parquet"'})


async def batch_report_info(s: Services, bid: str, request: Request[Any, Any, Any] | None = None) -> dict[str, Any]:
    """The report of an ended batch (made on first request, then kept): figures, findings, command."""
    from workers.server.batch_report import make_report

    rec = await record(s, bid, request)
    if rec["status"] in ACTIVE:
        raise ApiError(409, "not_yet", f"batch {bid} is {rec['status']}: its report is made when it ends")
    if rec["done"] == 0:
        raise ApiError(409, "not_yet", f"batch {bid} has no result ({rec['status']}): nothing to report")
    results = await s.store.call(s.store.batch_results, bid)
    return await s.store.call(make_report, s.settings.data_dir, bid, results, rec["scenario"])


_REPORT_ERRORS = {
    404: ResponseSpec(ErrorBody, generate_examples=False, description="No such batch (or no such figure in its report)"),
    409: ResponseSpec(ErrorBody, generate_examples=False,
                      description="The batch is still queued or running, or ended without a result: no report yet"),
}


@get("/{batch_id:str}/report", summary="An ended batch's overview: the figures and findings of realmsim report",
     responses=_REPORT_ERRORS)
async def get_batch_report(request: Request[Any, Any, Any], batch_id: str) -> BatchReport:
    info = await batch_report_info(svc(request), batch_id, request)
    base = f"/v1/batches/{batch_id}/report"
    f = info["findings"]
    return BatchReport(id=batch_id, campaigns=int(info["campaigns"]), command=str(info["command"]),
                       figures=list(info["figures"]), links={n: f"{base}/{n}.png" for n in info["figures"]},
                       findings=[BatchFinding(kind=x["kind"], title=x["title"], detail=x["detail"], seeds=list(x["seeds"]),
                                              replay=x["replay"], count=int(x["count"]), total=int(x["total"]),
                                              share=float(x.get("share", 0.0)), subject=x.get("subject", ""))
                                 for x in f.get("findings", [])],
                       not_checked=list(f.get("not_checked", [])))


@get("/{batch_id:str}/report/{name:str}", summary="A figure of an ended batch's report (PNG: NAME.png)",
     media_type="image/png", responses=_REPORT_ERRORS)
async def batch_report_figure(request: Request[Any, Any, Any], batch_id: str, name: str) -> Response[bytes]:
    from workers.server.batch_report import figure_path

    s = svc(request)
    await batch_report_info(s, batch_id, request)
    p = figure_path(s.settings.data_dir, batch_id, name.removesuffix(".png")) if name.endswith(".png") else None
    if p is None:
        raise ApiError(404, "not_found", f"no figure {name!r} in the report of batch {batch_id}",
                       [Problem("name", "NAME.png, a figure of the report (its links)", repr(name))])
    return Response(p.read_bytes(), media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


router = Router("/v1/batches", tags=["batches"], route_handlers=[
    create_batch, list_batches, get_batch, cancel_batch, delete_batch, stream_batch, results_csv, results_parquet,
    get_batch_report, batch_report_figure,
])

