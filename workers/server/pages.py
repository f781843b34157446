"""The web page: plain HTML rendered here, SVG for the map and charts, a little JavaScript
(static/app.js) that follows the ledger with an EventSource and reloads the fragments below.

``/`` lists the campaigns and batches and starts new ones; ``/campaigns/{id}`` shows one campaign
(:mod:`workers.server.campaign_page`: the game master's table); ``/batches/{id}`` one batch. ``/ui/…``
are the fragments the script reloads.
"""

from __future__ import annotations

import hashlib
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

from sim.calendar import date_of
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


def html_page(text: str, status: int = 200) -> Response[str]:
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
        point = "" if not v.fork_of else (date_of(v.fork_of.hour).format() if v.fork_of.hour is not None
                                          else f"season {v.fork_of.season}")
        fork = f' <small class="fork">fork of {escape(v.fork_of.id)} @ {escape(point)}</small>' if v.fork_of else ""
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
    return html_page(layout("Campaigns and batches", body, request, "home"))


@get("/ui/home", include_in_schema=False)
async def home_fragment(request: Request[Any, Any, Any]) -> Response[str]:
    return html_page(await home_tables(svc(request), sees(request.scope)))


# ---- one campaign: workers/server/campaign_page.py ---------------------------------------------------
async def _batch(s: Services, bid: str, request: Request[Any, Any, Any]) -> dict[str, Any] | None:
    rec = await s.store.call(s.store.batch, bid)
    return rec if rec is not None and may_see(request.scope, rec["owner"]) else None


def page_not_found(request: Request[Any, Any, Any], what: str, ident: str) -> Response[str]:
    return html_page(layout("not found", f'<section class="card"><h2>No {what} {escape(ident)}</h2><p><a href="/">'
                                     "Back to the list</a></p></section>", request), 404)


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
        return page_not_found(request, "batch", batch_id)
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
    return html_page(layout(f"batch {batch_id}", body, request, "batch"))


@get("/ui/batches/{batch_id:str}", include_in_schema=False)
async def batch_panel(request: Request[Any, Any, Any], batch_id: str) -> Response[str]:
    s = svc(request)
    rec = await _batch(s, batch_id, request)
    if rec is None:
        return html_page("", 404)
    return html_page(await batch_fragment(s, rec))


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
    return html_page(layout("sign in", body, request))


@post("/login", include_in_schema=False, status_code=303)
async def login(request: Request[Any, Any, Any],
                data: Annotated[LoginForm, Body(media_type=RequestEncodingType.URL_ENCODED)]) -> Response[Any]:
    digests = svc(request).settings.tokens
    if digests is None:
        return Redirect(_safe_next(data.next), status_code=303)
    if not is_valid(data.token, digests):
        return html_page(layout("sign in", '<section class="card login"><h2>Sign in</h2><p class="error">That token is '
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


router = Router("/", route_handlers=[home, home_fragment, batch_page, batch_panel, login_page, login, app_css, app_js])
