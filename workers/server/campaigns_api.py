"""``/v1/campaigns``: start, follow, read, fork and cancel campaigns.

A campaign is stored as a *recipe* (scenario, seed, overrides, until, fork stages): enough to run it
again exactly. Its ledger arrives from the campaign process as it runs (runner.py) and is kept
whole, with each event's chronicle line and the factions it concerns, for paging, filtering and
streaming.
"""

from __future__ import annotations

import asyncio
import io
import json
import secrets
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal, cast

import msgspec
from litestar import Request, Response, Router, delete, get, post
from litestar.params import Parameter
from litestar.response import Stream

from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON, date_of
from sim.errors import Problem
from workers.server.auth import may_see, owner, sees
from workers.server.bodies import json_body
from workers.server.errors import ApiError, bad_value, not_cancellable, not_found
from workers.server.feed import KEEPALIVE, sse
from workers.server.inputs import (
    check_overrides,
    duration_hours,
    fork_policies,
    scenario_from,
    scenario_ref,
    until_hour,
)
from workers.server.models import (
    Campaign,
    CampaignList,
    CampaignRequest,
    Created,
    EventPage,
    FactionResult,
    ForkOf,
    ForkRequest,
    MapView,
    Progress,
)
from workers.server.runner import end_message
from workers.server.services import Services, svc
from workers.server.store import ACTIVE

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
PAGE = 1000


def new_id() -> str:
    return "c" + time.strftime("%Y%m%d-%H%M%S-", time.gmtime()) + secrets.token_hex(3)


def view(rec: dict[str, Any], position: int | None = None) -> Campaign:
    end = rec["end_hour"] or 0
    hour = rec["hour"] or 0
    factions = json.loads(rec["factions"]) if rec["factions"] else {}
    base = f"/v1/campaigns/{rec['id']}"
    return Campaign(
        id=rec["id"], status=rec["status"], scenario=rec["scenario"], title=rec["title"], seed=rec["seed"],
        lang=rec["lang"], created=rec["created"], started=rec["started"], finished=rec["finished"],
        until_hour=rec["until_hour"],
        progress=Progress(hour=hour, end=end, season=hour // HOURS_PER_SEASON, seasons=-(-end // HOURS_PER_SEASON),
                          fraction=round(hour / end, 4) if end else 0.0, events=rec["events"], queue_position=position),
        factions=[FactionResult(faction=k, kind=k.partition(":")[0], metrics=v) for k, v in sorted(factions.items())],
        summary=json.loads(rec["summary"]) if rec["summary"] else None, ledger_sha256=rec["ledger_sha256"],
        error=rec["error"], note=rec["note"],
        fork_of=ForkOf(id=rec["parent"], season=rec["fork_season"], hour=rec.get("fork_hour")) if rec["parent"] else None,
        links={"self": base, "events": f"{base}/events", "stream": f"{base}/stream", "map": f"{base}/map",
               "seasons_csv": f"{base}/seasons.csv", "seasons_parquet": f"{base}/seasons.parquet",
               "plots": f"{base}/plots", "fork": f"{base}/fork", "page": f"/campaigns/{rec['id']}"},
    )


async def record(s: Services, cid: str, request: Request[Any, Any, Any] | None = None) -> dict[str, Any]:
    """The campaign ``cid``; 404 when there is none, or when it belongs to a token that ``request``'s may not see."""
    rec = await s.store.call(s.store.campaign, cid)
    if rec is None or (request is not None and not may_see(request.scope, rec["owner"])):
        raise not_found("campaign", cid)
    return rec


def _refuse_when_busy(s: Services) -> None:
    if s.stopping:
        raise ApiError(503, "unavailable", "the server is stopping; try again in a moment", headers={"Retry-After": "5"})
    if s.campaigns.queued_count() >= s.settings.queue_limit:
        raise ApiError(429, "busy", f"{s.settings.queue_limit} campaigns are already waiting; try again later",
                       headers={"Retry-After": "30"})


async def _create(s: Services, recipe: dict[str, Any], rec: dict[str, Any]) -> Created:
    await s.store.call(s.store.add_campaign, rec, recipe)
    s.campaigns.submit(rec["id"])
    return Created(id=rec["id"], status="queued", url=f"/v1/campaigns/{rec['id']}")


@post("/", summary="Start a campaign (a built-in scenario or TOML text) → its id",
      dependencies={"payload": json_body(CampaignRequest)})
async def create_campaign(request: Request[Any, Any, Any], payload: CampaignRequest) -> Created:
    data = payload
    s = svc(request)
    _refuse_when_busy(s)

    def prepare() -> tuple[dict[str, Any], dict[str, Any]]:
        loaded = scenario_from(data.scenario, data.text)
        overrides = check_overrides(loaded, dict(data.overrides))
        end = duration_hours(loaded, data.seed, overrides)
        until = until_hour(data.until, end)
        sc = loaded.scenario.scenario
        seed = sc.seed if data.seed is None else data.seed
        lang = data.lang or sc.lang
        recipe = {"scenario": scenario_ref(loaded, data.scenario), "seed": seed, "overrides": overrides,
                  "until": until, "lang": lang, "stages": [], "explain": data.explain}
        rec = {"id": new_id(), "created": time.time(), "status": "queued", "scenario": sc.name, "title": sc.title,
               "seed": seed, "lang": lang, "end_hour": end, "until_hour": until, "owner": owner(request.scope)}
        return recipe, rec

    recipe, rec = await s.store.call(prepare)
    return await _create(s, recipe, rec)


@post("/{campaign_id:str}/fork", summary="A new campaign: this one up to a day of season N, then with other rules "
                                         "overrides, another policy for one faction or the game master's orders",
      dependencies={"payload": json_body(ForkRequest)})
async def fork_campaign(request: Request[Any, Any, Any], campaign_id: str, payload: ForkRequest) -> Created:
    data = payload
    s = svc(request)
    _refuse_when_busy(s)
    parent = await record(s, campaign_id, request)
    recipe = await s.store.call(s.store.recipe, campaign_id)
    assert recipe is not None
    hour = data.season * HOURS_PER_SEASON + data.day * HOURS_PER_DAY
    end = parent["end_hour"]
    if hour >= end:
        last = -(-end // HOURS_PER_SEASON) - 1
        raise bad_value("season", f"a season of the campaign, 0..{last} (with day, a moment before its end, hour "
                                  f"{end})", str(data.season) if data.day == 0 else f"{data.season} (day {data.day})")
    orders_hour = hour if data.orders_hour is None else data.orders_hour
    if data.orders and not hour <= orders_hour < end:
        raise bad_value("orders_hour", f"the hour of the orders' decisions, from the fork's ({hour}) to before the "
                                       f"campaign's end ({end})", str(orders_hour))
    if data.orders_hour is not None and not data.orders:
        raise bad_value("orders_hour", "the game master's orders with it (orders)", "no orders")

    def prepare() -> tuple[dict[str, Any], dict[str, Any]]:
        from workers.server.campaign_child import load

        loaded = load(recipe["scenario"])
        overrides = check_overrides(loaded, dict(data.overrides))
        policies = fork_policies(loaded, data.faction, data.policy, orders=bool(data.orders))
        until = until_hour(data.until, end, after=hour)
        stages = [st for st in recipe.get("stages", []) if st["hour"] <= hour]
        stage: dict[str, Any] = {"hour": hour, "overrides": overrides, "policies": policies}
        if data.orders:
            stage["gm"] = {"faction": data.faction, "hour": orders_hour,
                           "orders": [[o.decision, o.order] for o in data.orders]}
        stages.append(stage)
        new = {**recipe, "stages": stages, "until": until}
        rec = {"id": new_id(), "created": time.time(), "status": "queued", "scenario": parent["scenario"],
               "title": parent["title"], "seed": parent["seed"], "lang": parent["lang"], "end_hour": end,
               "until_hour": until, "parent": campaign_id, "fork_season": data.season, "fork_hour": hour,
               "owner": owner(request.scope)}
        return new, rec

    new, rec = await s.store.call(prepare)
    return await _create(s, new, rec)


@get("/", summary="Campaigns, newest first")
async def list_campaigns(request: Request[Any, Any, Any],
                         status: Literal["queued", "running", "finished", "stopped", "failed", "cancelled"] | None = None,
                         limit: Annotated[int, Parameter(ge=1, le=1000)] = 100) -> CampaignList:
    s = svc(request)
    recs = await s.store.call(s.store.campaigns, limit, status, sees(request.scope))
    return CampaignList([view(r, s.campaigns.position(r["id"])) for r in recs])


@get("/{campaign_id:str}", summary="Status, progress, summary and per-faction results of a campaign")
async def get_campaign(request: Request[Any, Any, Any], campaign_id: str) -> Response[Campaign]:
    s = svc(request)
    if sees(request.scope) is not None:
        await record(s, campaign_id, request)  # whose it is, before the cache answers
    cached = s.campaigns.views.get(campaign_id)
    if cached is None:
        rec = await record(s, campaign_id, request)
        cached = msgspec.json.encode(view(rec, s.campaigns.position(campaign_id)))
        if rec["status"] not in ACTIVE or len(s.campaigns.views) < 10_000:
            s.campaigns.views[campaign_id] = cached
    return Response(cached, media_type="application/json")


@post("/{campaign_id:str}/cancel", status_code=200, summary="Cancel a queued or running campaign (it stays, with the "
     "ledger it has)")
async def cancel_campaign(request: Request[Any, Any, Any], campaign_id: str) -> Campaign:
    s = svc(request)
    rec = await record(s, campaign_id, request)
    if not await s.campaigns.cancel(campaign_id):
        raise not_cancellable("campaign", campaign_id, rec["status"])
    for _ in range(100):
        rec = await record(s, campaign_id)
        if rec["status"] not in ACTIVE:
            break
        await asyncio.sleep(0.05)
    return view(rec)


@delete("/{campaign_id:str}", status_code=204, summary="Delete a campaign and everything it has (its ledger, maps, "
        "plots); a queued or running one is cancelled first")
async def delete_campaign(request: Request[Any, Any, Any], campaign_id: str) -> None:
    s = svc(request)
    rec = await record(s, campaign_id, request)
    if rec["status"] in ACTIVE:
        await s.campaigns.cancel(campaign_id)
        if not await s.campaigns.wait_stopped(campaign_id, 30):
            raise ApiError(409, "conflict", f"campaign {campaign_id} is still stopping; try again in a moment",
                           headers={"Retry-After": "5"})
    await s.store.call(s.store.delete_campaign, campaign_id)
    s.campaigns.views.pop(campaign_id, None)


@get("/{campaign_id:str}/events", summary="The ledger, paged and filtered (actor, kind, season, faction)")
async def list_events(
    request: Request[Any, Any, Any],
    campaign_id: str,
    after: Annotated[int, Parameter(ge=-1, le=2**62, description="events after this seq (-1: from the start)")] = -1,
    limit: Annotated[int, Parameter(ge=1, le=PAGE)] = 100,
    actor: Annotated[str | None, Parameter(max_length=200, description="e.g. convoy:amber")] = None,
    kind: Annotated[list[str] | None, Parameter(description="event kinds, e.g. SeasonSummarized", max_items=50)] = None,
    season: Annotated[int | None, Parameter(ge=0, le=10**6)] = None,
    faction: Annotated[str | None, Parameter(max_length=200, description="events concerning this faction")] = None,
    chronicle: Annotated[bool, Parameter(description="only events with a chronicle line (and season summaries)")] = False,
) -> Response[EventPage]:
    s = svc(request)
    await record(s, campaign_id, request)
    rows = await s.store.call(s.store.events, campaign_id, after=after, limit=limit, actor=actor, kind=tuple(kind or ()),
                              season=season, faction=faction, tell=chronicle)
    nxt = rows[-1]["seq"] if len(rows) == limit else None
    body = b'{"events":[' + b",".join(r["body"] for r in rows) + b'],"next_after":' + json.dumps(nxt).encode() + b"}"
    return Response(cast(Any, body), media_type="application/json")  # stored JSON, answered as it is


async def ledger_frames(s: Services, cid: str, start: int, tell_only: bool) -> AsyncIterator[bytes]:
    """The campaign's ledger from ``start``: stored events, then live ones, then an ``end`` event."""
    n = start
    while True:
        feed = s.campaigns.feeds.get(cid)
        if feed is None:
            rec = await record(s, cid)
            if rec["status"] in ACTIVE:  # between the store and the runner: look again
                await asyncio.sleep(0.05)
                continue
            while True:
                rows = await s.store.call(s.store.events, cid, after=n - 1, limit=PAGE, tell=tell_only)
                if rows:
                    yield b"".join(sse("ledger", r["body"], r["seq"]) for r in rows)
                    n = rows[-1]["seq"] + 1
                if len(rows) < PAGE:
                    break
            yield sse("end", json.dumps(end_message(rec)))
            return
        while True:
            if n < len(feed.frames):
                frames, tell = feed.frames[n:n + PAGE], feed.tell[n:n + PAGE]
                n += len(frames)
                out = b"".join(f for f, t in zip(frames, tell) if t or not tell_only)
                if out:
                    yield out
            elif feed.done:
                assert feed.end is not None
                yield feed.end
                return
            elif s.stopping:
                yield sse("shutdown", json.dumps({"reason": "the server is stopping; reconnect to continue"}))
                return
            else:
                before = len(feed.frames)
                await feed.wait(15.0)
                if len(feed.frames) == before and not feed.done and not s.stopping:
                    yield KEEPALIVE


@get("/{campaign_id:str}/stream", summary="The ledger live as server-sent events: every event from the start "
     "(or from Last-Event-ID + 1), then live ones, then an `end` event", media_type="text/event-stream")
async def stream_campaign(
    request: Request[Any, Any, Any], campaign_id: str,
    start: Annotated[int, Parameter(query="from", ge=0, le=2**62, description="first seq to send")] = 0,
    only: Annotated[Literal["all", "chronicle"], Parameter(description="chronicle: only events with a chronicle line "
                                                                        "and season summaries")] = "all",
) -> Stream:
    s = svc(request)
    await record(s, campaign_id, request)
    last = request.headers.get("last-event-id")
    if last and last.strip().isdigit():
        start = max(start, int(last) + 1)
    return Stream(ledger_frames(s, campaign_id, start, only == "chronicle"), media_type="text/event-stream",
                  headers=SSE_HEADERS)


async def _season_table(s: Services, cid: str, request: Request[Any, Any, Any]) -> Any:
    from sim.events import Event
    from workers.report import ReportError, season_table

    await record(s, cid, request)
    bodies = await s.store.call(s.store.season_events, cid)

    def build() -> Any:
        events = [msgspec.json.decode(b, type=Event) for b in bodies]
        try:
            return season_table(events)
        except ReportError:
            raise ApiError(409, "not_yet", f"campaign {cid} has no season summary yet (the first comes at hour 0 of "
                           "its first season)") from None

    return await s.store.call(build)


@get("/{campaign_id:str}/seasons.csv", summary="The season table: one row per season and faction, a column per "
     "metric", media_type="text/csv")
async def seasons_csv(request: Request[Any, Any, Any], campaign_id: str) -> Response[bytes]:
    df = await _season_table(svc(request), campaign_id, request)
    return Response(df.to_csv(index=False).encode(), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{campaign_id}-seasons.csv"'})


@get("/{campaign_id:str}/seasons.parquet", summary="The season table as Parquet",
     media_type="application/vnd.apache.parquet")
async def seasons_parquet(request: Request[Any, Any, Any], campaign_id: str) -> Response[bytes]:
    s = svc(request)
    df = await _season_table(s, campaign_id, request)

    def to_bytes() -> bytes:
        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        return buf.getvalue()

    return Response(await s.store.call(to_bytes), media_type="application/vnd.apache.parquet",
                    headers={"Content-Disposition": f'attachment; filename="{campaign_id}-seasons.parquet"'})


async def _plots(s: Services, cid: str, request: Request[Any, Any, Any]) -> dict[str, bytes]:
    from workers.server import plots

    rec = await record(s, cid, request)
    return await plots.plots_for(s, rec)


@get("/{campaign_id:str}/plots", summary="The names of the campaign's plots (workers/report.py)")
async def list_plots(request: Request[Any, Any, Any], campaign_id: str) -> dict[str, list[str]]:
    names = sorted(await _plots(svc(request), campaign_id, request))
    return {"plots": [f"/v1/campaigns/{campaign_id}/plots/{n}" for n in names]}


@get("/{campaign_id:str}/plots/{name:str}", summary="One plot as PNG", media_type="image/png")
async def get_plot(request: Request[Any, Any, Any], campaign_id: str, name: str) -> Response[bytes]:
    found = await _plots(svc(request), campaign_id, request)
    if name not in found:
        raise ApiError(404, "not_found", f"campaign {campaign_id} has no plot {name!r}",
                       [Problem("name", f"one of {', '.join(sorted(found)) or 'no plot yet'}", repr(name))])
    return Response(found[name], media_type="image/png")


async def moment_snapshot(s: Services, cid: str, rec: dict[str, Any], season: int | None,
                          day: int | None) -> tuple[bytes, bytes] | None:
    """The map and the snapshot of the world at day ``day`` of ``season`` (the latest when neither is
    given; a season alone: its start). Snapshots are kept for the days that changed something, so the
    one at or before the moment is the world then; its clock is set to the moment asked (at most the
    campaign's present)."""
    static = await s.store.call(s.store.map, cid)
    if season is None and day is None:
        snap = await s.store.call(s.store.snapshot, cid, None)
        return None if static is None or snap is None else (static, snap[2])
    hour = (season or 0) * HOURS_PER_SEASON + (day or 0) * HOURS_PER_DAY
    snap = await s.store.call(s.store.snapshot, cid, hour)
    if static is None or snap is None:
        return None
    present = max(int(rec["hour"] or 0), snap[0])
    at = min(hour, present)
    if at == snap[0]:
        return static, snap[2]
    st = json.loads(snap[2])
    st.update({"hour": at, "season": at // HOURS_PER_SEASON, "date": date_of(at).format("en"), "since": snap[0]})
    return static, json.dumps(st).encode()


@get("/{campaign_id:str}/map", summary="The map (terrain, roads, rivers, settlements, provinces) and the factions' "
     "state at a moment (default: the latest; ?season=N: its start; &day=D: its day D)")
async def get_map(request: Request[Any, Any, Any], campaign_id: str,
                  season: Annotated[int | None, Parameter(ge=0, le=10**6)] = None,
                  day: Annotated[int | None, Parameter(ge=0, le=89, description="a day of the season (0: its "
                                                                                "first), with season")] = None) -> Response[MapView]:
    s = svc(request)
    rec = await record(s, campaign_id, request)
    found = await moment_snapshot(s, campaign_id, rec, season, day)
    if found is None:
        raise ApiError(409, "not_yet", f"campaign {campaign_id} has not started yet")
    static, snap = found
    body = b'{"map":' + static + b',"state":' + snap + b"}"
    return Response(cast(Any, body), media_type="application/json")


router = Router("/v1/campaigns", tags=["campaigns"], route_handlers=[
    create_campaign, fork_campaign, list_campaigns, get_campaign, cancel_campaign, delete_campaign, list_events, stream_campaign,
    seasons_csv, seasons_parquet, list_plots, get_plot, get_map,
])
