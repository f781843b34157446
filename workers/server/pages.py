"""The web page: plain HTML rendered here, SVG for the map and charts, a little JavaScript
(static/app.js) that follows the ledger with an EventSource and reloads the fragments below.

``/`` lists the campaigns and batches and starts new ones; ``/campaigns/{id}`` shows one campaign
(live hex map, season charts, per-faction results, the chronicle with a filter by faction, fork and
cancel); ``/batches/{id}`` one batch. ``/ui/…`` are the fragments the script reloads.
"""

from __future__ import annotations

import hashlib
import json
import time
from html import escape
from importlib import resources
from typing import Annotated, Any
from urllib.parse import quote

import msgspec
from litestar import MediaType, Request, Response, Router, get, post
from litestar.enums import RequestEncodingType
from litestar.params import Body
from litestar.response import Redirect

from sim.calendar import HOURS_PER_SEASON, date_of
from workers.server import svg
from workers.server.auth import COOKIE, is_valid, may_see, sees
from workers.server.services import Services, svc
from workers.server.store import ACTIVE

_STATIC = resources.files("workers.server") / "static"
CSS = (_STATIC / "app.css").read_bytes()
JS = (_STATIC / "app.js").read_bytes()
STATIC_VERSION = hashlib.sha256(CSS + JS).hexdigest()[:10]
ICON = quote("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 22'><polygon points='10,1 19,6 19,16 10,21 1,16 1,6' "
             "fill='#e3b35f' stroke='#7b4f2c' stroke-width='2'/></svg>")


def layout(title: str, body: str, request: Request[Any, Any, Any] | None = None, page: str = "") -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{escape(title)} · realmsim</title>'
            f'<link rel="icon" href="data:image/svg+xml,{ICON}"><link rel="stylesheet" href="/static/app.css?v={STATIC_VERSION}"></head><body data-page="{page}">'
            '<header class="top"><a class="brand" href="/">realm<b>sim</b></a><nav><a href="/">Campaigns &amp; batches</a>'
            '<a href="/docs">API</a></nav></header>'
            f'<main>{body}</main><script src="/static/app.js?v={STATIC_VERSION}"></script></body></html>')


# the page's own script and styles only (inline style attributes draw the bars and swatches)
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _html(text: str, status: int = 200) -> Response[str]:
    return Response(text, media_type=MediaType.HTML, status_code=status, headers=PAGE_HEADERS)


def _when(ts: float | None) -> str:
    if not ts:
        return ""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def badge(status: str) -> str:
    return f'<span class="badge {escape(status)}">{escape(status)}</span>'


def bar(fraction: float, text: str = "", dead: float = 0.0) -> str:
    pct = max(0.0, min(1.0, fraction)) * 100
    dpct = max(0.0, min(1.0, dead)) * 100
    return (f'<div class="bar" title="{escape(text)}"><span style="width:{pct:.1f}%"></span>'
            + (f'<i style="width:{dpct:.1f}%"></i>' if dead else "") + f"<em>{escape(text)}</em></div>")


# ---- home ---------------------------------------------------------------------------------------
async def home_tables(s: Services, seen: tuple[str, ...] | None = None) -> str:
    from workers.server.campaigns_api import view

    camps = await s.store.call(s.store.campaigns, 50, None, seen)
    batches = await s.store.call(s.store.batches, 30, seen)
    rows = []
    for rec in camps:
        v = view(rec)
        p = v.progress
        fork = f' <small class="fork">fork of {escape(v.fork_of.id)} @ season {v.fork_of.season}</small>' if v.fork_of else ""
        rows.append(f'<tr data-status="{v.status}"><td><a href="/campaigns/{v.id}">{escape(v.id)}</a>{fork}</td>'
                    f"<td>{escape(v.scenario)}</td><td>{v.seed}</td><td>{badge(v.status)}</td>"
                    f"<td>{bar(p.fraction, f'season {p.season}/{p.seasons}')}</td><td class=num>{p.events:,}</td>"
                    f"<td>{_when(v.created)}</td></tr>")
    ctable = ("<table class=list><thead><tr><th>campaign</th><th>scenario</th><th>seed</th><th>status</th><th>progress</th>"
              f"<th>events</th><th>started</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
              if rows else '<p class="empty">No campaign yet: start one.</p>')
    brows = []
    for b in batches:
        done = b["done"] + b["dead"]
        brows.append(f'<tr data-status="{b["status"]}"><td><a href="/batches/{b["id"]}">{escape(b["id"])}</a></td>'
                     f"<td>{escape(b['scenario'])}</td><td>{b['total']:,}</td><td>{badge(b['status'])}</td>"
                     f"<td>{bar(b['done'] / max(1, b['total']), f'{done:,}/{b['total']:,}', b['dead'] / max(1, b['total']))}</td>"
                     f"<td>{escape(b['mode'])}</td><td>{_when(b['created'])}</td></tr>")
    btable = ("<table class=list><thead><tr><th>batch</th><th>scenario</th><th>seeds</th><th>status</th><th>progress</th>"
              f"<th>on</th><th>started</th></tr></thead><tbody>{''.join(brows)}</tbody></table>"
              if brows else '<p class="empty">No batch yet.</p>')
    return f'<section class="card"><h2>Campaigns</h2>{ctable}</section><section class="card"><h2>Batches</h2>{btable}</section>'


def _scenario_options() -> str:
    from scenarios.loader import builtin_names
    from workers.server.scenarios_api import builtin_info

    out = []
    for n in builtin_names():
        i = builtin_info(n)
        sel = " selected" if n == "realm" else ""
        out.append(f'<option value="{escape(n)}" data-seasons="{i.seasons}"{sel}>{escape(n)} — {escape(i.title)}</option>')
    return "".join(out)


@get("/", summary="the web page", include_in_schema=False)
async def home(request: Request[Any, Any, Any]) -> Response[str]:
    s = svc(request)
    options = await s.store.call(_scenario_options)
    forms = f"""
<section class="card start">
  <h2>Start a campaign</h2>
  <form id="new-campaign" class="api-form" data-api="/v1/campaigns" data-go="/campaigns/">
    <label>Scenario <select name="scenario">{options}</select></label>
    <div class="row"><label>Seed <input name="seed" type="number" min="0" placeholder="the scenario's"></label>
    <label>Stop at season <input name="until" type="number" min="1" placeholder="the end"></label>
    <label>Chronicle <select name="lang"><option value="">scenario's</option><option>en</option><option>fr</option></select></label></div>
    <label>Rules overrides <input name="overrides" placeholder='{{"cv.fatigued_penalty": 3}}'></label>
    <button type="submit">Start</button><div class="problems" hidden></div>
  </form>
</section>
<section class="card start">
  <h2>Start a batch</h2>
  <form id="new-batch" class="api-form" data-api="/v1/batches" data-go="/batches/">
    <label>Scenario <select name="scenario">{options}</select></label>
    <label>Seeds <input name="seeds" value="1..20" required></label>
    <label>Rules overrides <input name="overrides" placeholder='{{"cv.fatigued_penalty": 3}}'></label>
    <button type="submit">Start</button><div class="problems" hidden></div>
  </form>
</section>"""
    body = (f'<div class="home"><div class="side">{forms}</div>'
            f'<div class="lists" id="home-tables" data-src="/ui/home">{await home_tables(s, sees(request.scope))}</div></div>')
    return _html(layout("Campaigns and batches", body, request, "home"))


@get("/ui/home", include_in_schema=False)
async def home_fragment(request: Request[Any, Any, Any]) -> Response[str]:
    return _html(await home_tables(svc(request), sees(request.scope)))


# ---- one campaign ------------------------------------------------------------------------------
async def _campaign(s: Services, cid: str, request: Request[Any, Any, Any]) -> dict[str, Any] | None:
    """The campaign, if there is one that this request may see."""
    rec = await s.store.call(s.store.campaign, cid)
    return rec if rec is not None and may_see(request.scope, rec["owner"]) else None


async def _batch(s: Services, bid: str, request: Request[Any, Any, Any]) -> dict[str, Any] | None:
    rec = await s.store.call(s.store.batch, bid)
    return rec if rec is not None and may_see(request.scope, rec["owner"]) else None


def _not_found(request: Request[Any, Any, Any], what: str, ident: str) -> Response[str]:
    return _html(layout("not found", f'<section class="card"><h2>No {what} {escape(ident)}</h2><p><a href="/">'
                                     "Back to the list</a></p></section>", request), 404)


async def map_fragment(s: Services, cid: str, season: int | None = None) -> str:
    static = await s.store.call(s.store.map, cid)
    snap = await s.store.call(s.store.snapshot, cid, None if season is None else season * HOURS_PER_SEASON)
    if static is None or snap is None:
        return '<div class="waiting">The map appears when the campaign starts…</div>'
    m, st = json.loads(static), json.loads(snap[2])
    return (f'<div class="mapdate"><b>{escape(st["date"])}</b> · season {st["season"]} · hour {st["hour"]:,}</div>'
            f'{svg.map_svg(m, st)}{svg.legend(m, st)}')


def status_fragment(s: Services, rec: dict[str, Any]) -> str:
    from workers.server.campaigns_api import view

    v = view(rec, s.campaigns.position(rec["id"]))
    p = v.progress
    out = (f'<div id="status" data-status="{v.status}">{badge(v.status)} '
           f'{bar(p.fraction, f"{date_of(p.hour).format()} — season {p.season} of {p.seasons}")}'
           f'<span class="events">{p.events:,} events</span></div>')
    if v.error:
        out += f'<p class="error">{escape(v.error)}</p>'
    if v.note:
        out += f'<p class="note">{escape(v.note)}</p>'
    if p.queue_position:
        out += f'<p class="note">waiting: number {p.queue_position} in the queue</p>'
    return out


KIND_ORDER = {"kingdom": 0, "nation": 1, "guild": 2, "convoy": 3}


async def panels_fragment(s: Services, rec: dict[str, Any]) -> str:
    from workers.server.campaigns_api import view

    v = view(rec)
    static = await s.store.call(s.store.map, rec["id"])
    charts = ""
    results = ""
    if static:
        m = json.loads(static)
        bodies = await s.store.call(s.store.season_events, rec["id"])
        rows = []
        for b in bodies:
            ev = msgspec.json.decode(b)
            season = ev["data"].get("season", ev["t"] / HOURS_PER_SEASON)
            for f, metrics in ev["data"].get("factions", {}).items():
                rows.append({"season": season, "faction": f, **metrics})
        charts = svg.season_charts(rows, m)
        colour = svg.Colours(m["factions"])
        by_kind: dict[str, list[Any]] = {}
        for fr in v.factions:
            by_kind.setdefault(fr.kind, []).append(fr)
        for kind, frs in sorted(by_kind.items(), key=lambda kv: KIND_ORDER.get(kv[0], 9)):
            cols = sorted({k for fr in frs for k in fr.metrics})
            head = "".join(f"<th>{escape(c.replace('_', ' '))}</th>" for c in cols)
            body = "".join(
                f'<tr data-faction="{escape(fr.faction)}"><td><span class="sw" style="background:{colour(fr.faction)}"></span>'
                f"{escape(colour.name(fr.faction))}</td>"
                + "".join(f"<td class=num>{escape(_cell(fr.metrics.get(c)))}</td>" for c in cols) + "</tr>" for fr in frs)
            table = (f"<div class=scroll><table class=results><thead><tr><th>{escape(kind)}</th>{head}</tr></thead>"
                     f"<tbody>{body}</tbody></table></div>")
            if len(frs) > 12:
                results += f"<details><summary>{escape(kind)}s ({len(frs)})</summary>{table}</details>"
            else:
                results += f"<h3>{escape(kind)}s</h3>{table}"
    summary = ""
    if v.summary:
        summary = "<details><summary>Summary metrics</summary><table class=results>" + "".join(
            f"<tr><td>{escape(k)}</td><td class=num>{escape(_cell(val))}</td></tr>" for k, val in v.summary.items()) + \
            f"</table><p class=mono>ledger sha256 {escape(v.ledger_sha256 or '')}</p></details>"
    return (f'<section class="card"><h2>Seasons</h2><div class="charts">{charts or "<p class=empty>The first season summary comes at hour 0.</p>"}</div></section>'
            f'<section class="card"><h2>Factions now</h2>{results or "<p class=empty>No faction results yet.</p>"}{summary}</section>')


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.2f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return "" if v is None else str(v)


@get("/campaigns/{campaign_id:str}", include_in_schema=False)
async def campaign_page(request: Request[Any, Any, Any], campaign_id: str) -> Response[str]:
    s = svc(request)
    rec = await _campaign(s, campaign_id, request)
    if rec is None:
        return _not_found(request, "campaign", campaign_id)
    static = await s.store.call(s.store.map, campaign_id)
    factions = json.loads(static)["factions"] if static else []

    fopts = "".join(f'<option value="{escape(f["key"])}">{escape(f["name"])} ({escape(f["key"].partition(":")[0])})</option>'
                    for f in factions)
    api = f"/v1/campaigns/{campaign_id}"
    parent = f' · fork of <a href="/campaigns/{escape(rec["parent"])}">{escape(rec["parent"])}</a> from season {rec["fork_season"]}' if rec["parent"] else ""
    seasons = -(-rec["end_hour"] // HOURS_PER_SEASON) if rec["end_hour"] else 1
    from agents.policies import known_policies

    policy_opts = "".join(f"<option>{escape(p)}</option>" for p in sorted(
        {p for k in ("kingdom", "nation", "guild", "convoy") for p in known_policies(k)} - {"scripted"}))
    body = f"""
<div class="campaign" data-id="{escape(campaign_id)}" data-active="{1 if rec['status'] in ACTIVE else 0}">
  <div class="head card">
    <div class="title"><h1>{escape(rec['title'] or rec['scenario'])}</h1>
      <p class="sub"><code>{escape(campaign_id)}</code> · scenario <b>{escape(rec['scenario'])}</b> · seed {rec['seed']}{parent}</p>
      <div id="head-status" data-src="/ui/campaigns/{escape(campaign_id)}/status">{status_fragment(s, rec)}</div></div>
    <div class="actions">
      <a class="button ghost" href="{api}/seasons.csv">seasons.csv</a>
      <a class="button ghost" href="{api}/seasons.parquet">.parquet</a>
      <a class="button ghost" href="{api}/plots">plots</a>
      <a class="button ghost" href="{api}/events">ledger</a>
      <button class="danger" id="cancel" data-api="{api}" {'hidden' if rec['status'] not in ACTIVE else ''}>Cancel</button>
    </div>
  </div>
  <div class="grid">
    <section class="card mapcard"><h2>Map</h2><div id="map" data-src="/ui/campaigns/{escape(campaign_id)}/map">{await map_fragment(s, campaign_id)}</div></section>
    <section class="card chronicle"><h2>Chronicle</h2>
      <div class="filter"><label>Faction <select id="faction"><option value="">all</option>{fopts}</select></label>
      <span id="lines-count"></span></div>
      <ol id="lines" data-stream="{api}/stream?only=chronicle"></ol>
    </section>
  </div>
  <div id="panels" data-src="/ui/campaigns/{escape(campaign_id)}/panels">{await panels_fragment(s, rec)}</div>
  <section class="card"><h2>Fork</h2>
    <form id="fork" class="api-form" data-api="{api}/fork" data-go="/campaigns/">
      <div class="row"><label>From season <input name="season" type="number" min="1" max="{max(1, seasons - 1)}" value="{max(1, min(4, seasons - 1))}" required></label>
      <label>Faction <select name="faction"><option value="">(none)</option>{fopts}</select></label>
      <label>New policy <select name="policy"><option value="">(none)</option>{policy_opts}</select></label>
      <label>Stop at season <input name="until" type="number" min="1" placeholder="the end"></label></div>
      <label>Rules overrides from then on <input name="overrides" placeholder='{{"km.base_unrest": 1}}'></label>
      <button type="submit">Fork</button><div class="problems" hidden></div>
    </form>
  </section>
</div>"""
    return _html(layout(rec["title"] or rec["scenario"], body, request, "campaign"))


@get("/ui/campaigns/{campaign_id:str}/map", include_in_schema=False)
async def campaign_map(request: Request[Any, Any, Any], campaign_id: str, season: int | None = None) -> Response[str]:
    s = svc(request)
    if await _campaign(s, campaign_id, request) is None:
        return _html("", 404)
    return _html(await map_fragment(s, campaign_id, season))


@get("/ui/campaigns/{campaign_id:str}/{part:str}", include_in_schema=False)
async def campaign_part(request: Request[Any, Any, Any], campaign_id: str, part: str) -> Response[str]:
    """``status`` (the head's status line) or ``panels`` (charts and tables)."""
    s = svc(request)
    rec = await _campaign(s, campaign_id, request)
    if rec is None or part not in ("status", "panels"):
        return _html("", 404)
    return _html(status_fragment(s, rec) if part == "status" else await panels_fragment(s, rec))


# ---- one batch ------------------------------------------------------------------------------------
async def batch_fragment(s: Services, rec: dict[str, Any]) -> str:
    done = rec["done"] + rec["dead"]
    out = (f'<div id="status" data-status="{rec["status"]}">{badge(rec["status"])} '
           f"{bar(rec['done'] / max(1, rec['total']), f'{done:,} of {rec['total']:,} seeds', rec['dead'] / max(1, rec['total']))}"
           f"<span class=events>{rec['dead']:,} failed</span></div>")
    if rec["error"]:
        out += f'<p class="error">{escape(rec["error"])}</p>'
    if rec["dead"]:
        fails = await s.store.call(s.store.batch_failures, rec["id"])
        out += "<ul class=failures>" + "".join(f"<li>seed {seed}: <code>{escape(err)}</code></li>" for seed, err in fails) + "</ul>"
    if rec["done"] and rec["status"] not in ACTIVE:
        out += await batch_overview(s, rec)
    elif rec["done"]:
        out += "<p class=note>The overview (figures and findings) appears when the batch ends.</p>"
    return out


async def batch_overview(s: Services, rec: dict[str, Any]) -> str:
    """The figures and findings of ``realmsim report`` for an ended batch (workers.server.batch_report)."""
    from workers.report.batch import markdown_html
    from workers.server.batches_api import batch_report_info
    from workers.server.errors import ApiError

    try:
        info = await batch_report_info(s, rec["id"])
    except ApiError as e:
        return f"<p class=\"error\">{escape(e.message)}</p>"
    api = f"/v1/batches/{escape(rec['id'])}/report"
    from workers.findings import Finding, Findings

    f = info["findings"]
    items = [Finding(**{k: v for k, v in x.items() if k != "share"}) for x in f.get("findings", [])]
    md = Findings(items, list(f.get("not_checked", [])), f.get("source", "")).markdown()
    figs = "".join(f'<figure><img src="{api}/{escape(n)}.png" alt="{escape(n)}" loading="lazy"></figure>'
                   for n in info["figures"])
    return (f"<h3>Findings</h3><div class=findings>{markdown_html(md)}</div>"
            f"<p class=note>The same report from the command line: <code>{escape(info['command'])}</code></p>"
            f"<h3>Across {int(info['campaigns']):,} campaigns</h3><div class=figures>{figs}</div>")


@get("/batches/{batch_id:str}", include_in_schema=False)
async def batch_page(request: Request[Any, Any, Any], batch_id: str) -> Response[str]:
    s = svc(request)
    rec = await _batch(s, batch_id, request)
    if rec is None:
        return _not_found(request, "batch", batch_id)
    api = f"/v1/batches/{batch_id}"
    body = f"""
<div class="batch" data-id="{escape(batch_id)}">
  <div class="head card"><div><h1>Batch of {escape(rec['scenario'])}</h1>
    <p class="sub"><code>{escape(batch_id)}</code> · {rec['total']:,} seeds · on {'Redis workers' if rec['mode'] == 'redis' else 'the local pool'}</p></div>
    <div class="actions"><a class="button ghost" href="{api}/results.csv">results.csv</a>
    <a class="button ghost" href="{api}/results.parquet">.parquet</a>
    <button class="danger" id="cancel" data-api="{api}" {'hidden' if rec['status'] not in ACTIVE else ''}>Cancel</button></div></div>
  <section class="card"><div id="batch-panel" data-src="/ui/batches/{escape(batch_id)}" data-stream="{api}/stream"{'' if rec['status'] in ACTIVE else ' data-ended'}>{await batch_fragment(s, rec)}</div></section>
</div>"""
    return _html(layout(f"batch {batch_id}", body, request, "batch"))


@get("/ui/batches/{batch_id:str}", include_in_schema=False)
async def batch_panel(request: Request[Any, Any, Any], batch_id: str) -> Response[str]:
    s = svc(request)
    rec = await _batch(s, batch_id, request)
    if rec is None:
        return _html("", 404)
    return _html(await batch_fragment(s, rec))


# ---- sign-in (only with --tokens), static files ---------------------------------------------------
class LoginForm(msgspec.Struct):
    token: str = ""
    next: str = "/"


def _safe_next(target: str) -> str:
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/"


@get("/login", include_in_schema=False)
async def login_page(request: Request[Any, Any, Any], next: str = "/") -> Response[str]:
    body = (f'<section class="card login"><h2>Sign in</h2><form method="post" action="/login">'
            f'<input type="hidden" name="next" value="{escape(_safe_next(next))}">'
            '<label>Token <input name="token" type="password" autofocus required></label><button>Sign in</button></form>'
            "<p class=note>The token is kept in a cookie of this site only.</p></section>")
    return _html(layout("sign in", body, request))


@post("/login", include_in_schema=False, status_code=303)
async def login(request: Request[Any, Any, Any],
                data: Annotated[LoginForm, Body(media_type=RequestEncodingType.URL_ENCODED)]) -> Response[Any]:
    digests = svc(request).settings.tokens
    if digests is None:
        return Redirect(_safe_next(data.next), status_code=303)
    if not is_valid(data.token, digests):
        return _html(layout("sign in", '<section class="card login"><h2>Sign in</h2><p class="error">That token is '
                            'not one of this server\'s.</p><p><a href="/login">Try again</a></p></section>', request), 401)
    resp = Redirect(_safe_next(data.next), status_code=303)
    resp.set_cookie(COOKIE, data.token.strip(), httponly=True, samesite="strict", path="/",
                    secure=request.url.scheme == "https")
    return resp


@get("/static/app.css", include_in_schema=False, cache_control=None)
async def app_css() -> Response[bytes]:
    return Response(CSS, media_type="text/css", headers={"Cache-Control": "public, max-age=86400"})


@get("/static/app.js", include_in_schema=False)
async def app_js() -> Response[bytes]:
    return Response(JS, media_type="text/javascript", headers={"Cache-Control": "public, max-age=86400"})


router = Router("/", route_handlers=[home, home_fragment, campaign_page, campaign_map, campaign_part, batch_page,
                                     batch_panel, login_page, login, app_css, app_js])
