"""One campaign's page, ``/campaigns/{id}``: a game master's table.

- the **map** (:mod:`workers.server.mapdraw`), live while the campaign runs: zoom and pan, every hex's
  ``[col,row]`` on hover and as a toggle, a click on a hex or a token opens its details in the side
  panel (:func:`hex_panel`: owner, settlement, domain and garrison, armies with their strength and
  units, convoys with their cargo and crew…);
- **time**: a scrubber over every day the campaign has reached (the map of a day is the snapshot the
  campaign process kept for the last day that changed something), buttons a day and a season back
  and forth, a player that replays day by day, *live* to follow the present; the chronicle, the
  standings and the advice follow the moment shown;
- **advice** at a season's start for any faction, in the page's language, and its orders applied to a
  fork as the game master's (``POST /v1/campaigns/{id}/advise``, ``…/fork`` with ``orders``);
- the **standings** per faction kind (score, its main terms, policy), the season charts, the factions'
  metrics, the chronicle with a filter by faction, and the fork form (any day of any season).

Server-rendered HTML and SVG; ``static/app.js`` calls the fragments below (``/ui/campaigns/{id}/…``).
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

import msgspec
from litestar import Request, Response, Router, get

from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON, date_of
from workers.server import svg
from workers.server.auth import may_see
from workers.server.mapdraw import KIND_ORDER, KIND_TITLE, TERRAIN_NAME, Colours, coords, legend, map_svg
from workers.server.pages import badge, bar, html_page, layout, page_not_found
from workers.server.services import Services, svc
from workers.server.store import ACTIVE


async def _campaign(s: Services, cid: str, request: Request[Any, Any, Any]) -> dict[str, Any] | None:
    """The campaign, if there is one that this request may see."""
    rec = await s.store.call(s.store.campaign, cid)
    return rec if rec is not None and may_see(request.scope, rec["owner"]) else None


def _moment(season: int | None, day: int | None) -> tuple[int | None, int | None]:
    """(season, day) as the API takes them, from the fragments' query (a day alone counts from hour 0)."""
    if season is None and day is None:
        return None, None
    hour = (season or 0) * HOURS_PER_SEASON + (day or 0) * HOURS_PER_DAY
    return hour // HOURS_PER_SEASON, hour % HOURS_PER_SEASON // HOURS_PER_DAY


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.2f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return "" if v is None else str(v)


def _kinds(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in d.items()) or "none"


# ---- the map --------------------------------------------------------------------------------------
async def map_fragment(s: Services, rec: dict[str, Any], season: int | None = None, day: int | None = None) -> str:
    from workers.server.campaigns_api import moment_snapshot

    found = await moment_snapshot(s, rec["id"], rec, *_moment(season, day))
    if found is None:
        return '<div class="waiting">The map appears when the campaign starts…</div>'
    m, st = json.loads(found[0]), json.loads(found[1])
    present = max(int(rec["hour"] or 0), int(st["hour"]))
    since = f' · <span class="since">unchanged since {escape(date_of(int(st["since"])).format())}</span>' if st.get("since") is not None else ""
    return (f'<div class="mapdate" data-hour="{st["hour"]}" data-present="{present}" data-end="{m["end"]}">'
            f'<b>{escape(st["date"])}</b> · season {st["season"]} · hour {st["hour"]:,}'
            f'{since}</div><div class="viewport">{map_svg(m, st)}<div class="hover" hidden></div></div>{legend(m, st)}')


def _hex_rows(m: dict[str, Any], st: dict[str, Any], h: int, colour: Colours) -> list[tuple[str, str, str]]:
    """What stands on hex ``h``: (token id or "", section title, HTML)."""
    width = m["width"]

    def who(key: str | None) -> str:
        if not key:
            return "nobody"
        return f'{colour.swatch(key)}{escape(colour.name(key))} <small>{escape(key.partition(":")[0])}</small>'

    def place(i: int) -> str:
        return coords(i, width) if 0 <= i < width * m["height"] else "—"

    out: list[tuple[str, str, str]] = []
    for k in st.get("kingdoms", []):
        if h in k["hexes"]:
            body = (f"<p>{who(k['key'])} · policy {escape(str(k.get('policy', '')))}</p><dl>"
                    f"<dt>Treasury</dt><dd>{_cell(k['treasury'])} BP</dd><dt>Unrest</dt><dd>{k['unrest']}</dd>"
                    f"<dt>Size</dt><dd>{len(k['hexes'])} hexes</dd>"
                    + (f"<dt>Overlord</dt><dd>{escape(str(k['overlord']))}</dd>" if k.get("overlord") else "") + "</dl>")
            out.append(("", "Held by", body))
        for sh, name in k["settlements"]:
            if sh == h:
                capital = " (its capital)" if k.get("capital") == name else ""
                districts = k.get("districts", {}).get(name)
                buildings = k.get("buildings", {}).get(name)
                extra = (f" · {districts} district(s), {buildings} building(s)" if districts is not None else "")
                out.append(("", "Settlement", f"<p><b>{escape(name)}</b>{capital} of {who(k['key'])}{extra}</p>"))
    for n in st.get("nations", []):
        for i, ph in enumerate(n["provinces"]):
            if ph == h:
                names = n.get("province_names") or []
                pname = f"<b>{escape(names[i])}</b>, " if i < len(names) else ""
                amb = n.get("ambassadors") or {}
                out.append(("", "Nation's province", f"<p>{pname}province of {who(n['key'])} · treasury "
                            f"{_cell(n['treasury'])} PO · ambassadors: {escape(_kinds(amb))}</p>"))
    for c in st.get("cities", []):
        if c["hex"] == h:
            out.append(("", "City", f"<p><b>{escape(c['name'])}</b>, {'held by ' + who(c['controller']) if c['controller'] else 'a free city'}</p>"))
    embassies = [e for e in st.get("embassies", []) if e["hex"] == h]
    if embassies:
        out.append(("", "Embassies", "<p>" + ", ".join(who(e["nation"]) for e in embassies) + "</p>"))
    for d in st.get("domains", []):
        if d["hex"] == h:
            state = []
            if d.get("besieged_by"):
                state.append("besieged by " + ", ".join(escape(a) for a in d["besieged_by"]))
            if d.get("occupied_by"):
                state.append("occupied by " + ", ".join(escape(a) for a in d["occupied_by"]))
            body = (f"<p><b>{escape(d['name'])}</b>, domain of {who(d['owner'])}"
                    + (f" · {'; '.join(state)}" if state else "") + "</p><dl>"
                    f"<dt>Garrison</dt><dd>{escape(_kinds(d.get('garrison', {})))}"
                    f" — strength {d.get('garrison_strength', 0)}</dd>"
                    f"<dt>Fortification</dt><dd>{d.get('fortification', 0)}</dd>"
                    f"<dt>Buildings</dt><dd>{d.get('buildings', 0)}</dd></dl>")
            out.append((f"domain:{d['id']}", "Domain", body))
    for a in sorted(st.get("armies", []), key=lambda a: (a["owner"], a["id"])):
        if a["hex"] == h:
            doing = [f"besieging {escape(a['besieging'])}"] if a.get("besieging") else []
            doing += [f"occupying {escape(a['occupying'])}"] if a.get("occupying") else []
            body = (f"<p><b>{escape(a['id'])}</b> of {who(a['owner'])}" + (f" · {', '.join(doing)}" if doing else "")
                    + f"</p><dl><dt>Strength</dt><dd>{a.get('strength', '?')}</dd>"
                    f"<dt>Units</dt><dd>{a['units']}: {escape(_kinds(a.get('by_kind', {})))}</dd>"
                    f"<dt>Capacity</dt><dd>{a.get('capacity', '?')} ({a.get('seals', '?')} seal(s))</dd></dl>")
            out.append((f"army:{a['id']}", "Army", body))
    for c in st.get("convoys", []):
        if c["hex"] == h and c["status"] == "travelling":
            owner = f" for {who(c['owner'])}" if c.get("owner") else ""
            cargo = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in c.get("cargo", {}).items()) or "none"
            body = (f"<p><b>{escape(c['name'])}</b>{owner} · on its way to {place(int(c['destination']))}</p><dl>"
                    f"<dt>HP</dt><dd>{c.get('hp', '?')} / {c.get('max_hp', '?')}</dd>"
                    f"<dt>Unrest</dt><dd>{c.get('unrest', '?')} (morale {c.get('morale', '?')})</dd>"
                    f"<dt>Provisions</dt><dd>{c.get('provisions', '?')}</dd><dt>Gold</dt><dd>{c.get('gp', '?')} gp</dd>"
                    f"<dt>Cargo</dt><dd>{escape(cargo)}</dd>"
                    f"<dt>Wagons</dt><dd>{escape(_kinds(c.get('wagons', {})))}</dd>"
                    f"<dt>Crew</dt><dd>{escape(_kinds(c.get('crew', {})))}</dd></dl>")
            out.append((str(c["key"]), "Convoy", body))
    for e in st.get("envoys", []):
        if e["hex"] == h:
            out.append((f"envoy:{e['kingdom'].partition(':')[2]}>{e['target']}", "Envoy",
                        f"<p>envoy of {who(e['kingdom'])} on the way to {escape(str(e['target']))}</p>"))
    return out


async def hex_panel(s: Services, rec: dict[str, Any], h: int, token: str | None, season: int | None,
                    day: int | None) -> str:
    """The details of hex ``h`` at the moment shown (:func:`hex_details`)."""
    from workers.server.campaigns_api import moment_snapshot

    found = await moment_snapshot(s, rec["id"], rec, *_moment(season, day))
    if found is None:
        return '<p class="empty">No map yet.</p>'
    return hex_details(json.loads(found[0]), json.loads(found[1]), h, token)


def hex_details(m: dict[str, Any], st: dict[str, Any], h: int, token: str | None = None) -> str:
    """Where hex ``h`` is (its ``[col,row]``, terrain, province and region, settlement, road, river) and
    everything that stands on it in snapshot ``st``, the token ``token`` first."""
    width, height = m["width"], m["height"]
    if not 0 <= h < width * height:
        return f'<p class="empty">No hex {h} on this {width}×{height} map.</p>'
    colour = Colours(m["factions"])
    where = [TERRAIN_NAME.get(m["terrain"][h], m["terrain"][h])]
    for area in ("provinces", "regions"):
        if area in m and m[area]["of"][h] >= 0:
            where.append(f"{area[:-1]} {escape(m[area]['names'][m[area]['of'][h]])}")
    names = {sh: (n, kind) for sh, n, kind in m["settlements"]}
    if h in names:
        where.append(f"{escape(names[h][0])}{' (' + escape(names[h][1]) + ')' if names[h][1] else ''}")
    if str(h) in m["roads"]:
        where.append(f"road {m['roads'][str(h)]}")
    if h in m["rivers"]:
        where.append("river")
    rows = _hex_rows(m, st, h, colour)
    if token:  # the token clicked first
        rows.sort(key=lambda r: r[0] != token)
    body = "".join(f'<section class="item{" picked" if tok and tok == token else ""}" data-token="{escape(tok)}">'
                   f"<h4>{escape(title)}</h4>{html}</section>" for tok, title, html in rows)
    return (f'<div class="hexinfo" data-h="{h}"><h3><span class="coord">{coords(h, width)}</span> {", ".join(where)}</h3>'
            f'<p class="when">{escape(st["date"])}</p>{body or "<p class=empty>Nothing stands here.</p>"}</div>')


# ---- standings, charts, factions -----------------------------------------------------------------------
TOP = 12  # standings rows shown per kind before "all"
def standings_table(table: dict[str, dict[str, Any]], colour: Colours, lang: str) -> str:
    """One table per faction kind: score, its three largest terms, policy; best first."""
    from sim.scoring import term_labels

    out = []
    for kind in KIND_ORDER:
        rows = sorted(((k, v) for k, v in table.items() if v["kind"] == kind), key=lambda kv: -kv[1]["score"])
        if not rows:
            continue
        body = []
        for rank, (key, v) in enumerate(rows, 1):
            terms = sorted(v["terms"].items(), key=lambda kv: -abs(kv[1]))[:3]
            labels = term_labels().get(kind, {})
            words = " · ".join(f"{escape(labels.get(t, (t, t))[1 if lang == 'fr' else 0])} {val:+,.0f}"
                               for t, val in terms if val)
            body.append(f'<tr data-faction="{escape(key)}"><td class=num>{rank}</td><td>{colour.swatch(key)}'
                        f"{escape(colour.name(key))}</td><td class=num><b>{v['score']:,.0f}</b> {escape(v['unit'])}</td>"
                        f"<td class=terms>{words}</td><td>{escape(v['policy'])}</td></tr>")
        head = "<thead><tr><th>#</th><th>faction</th><th>score</th><th>main terms</th><th>policy</th></tr></thead>"
        html = f"<div class=scroll><table class=\"results standings\">{head}<tbody>{''.join(body[:TOP])}</tbody></table></div>"
        if len(body) > TOP:  # the best first; the others a click away
            html += (f"<details><summary>the other {len(body) - TOP}</summary><div class=scroll>"
                      f"<table class=\"results standings\">{head}<tbody>{''.join(body[TOP:])}</tbody></table></div></details>")
        out.append(f'<div class="standing" data-kind="{kind}"><h3>{KIND_TITLE[kind]} <small>{len(body)}</small></h3>{html}</div>')
    return "".join(out)


async def panels_fragment(s: Services, rec: dict[str, Any], season: int | None = None) -> str:
    from workers.server.campaigns_api import view

    v = view(rec)
    static = await s.store.call(s.store.map, rec["id"])
    charts = results = standings = ""
    if static:
        m = json.loads(static)
        colour = Colours(m["factions"])
        at = None if season is None else season * HOURS_PER_SEASON
        found = await s.store.call(s.store.standings, rec["id"], at)
        if found:
            when = date_of(found[0]).format()
            standings = (f'<p class="when">At {escape(when)} (hour {found[0]:,}) · scores in each faction&#39;s '
                         "money, from the world alone (docs/scoring.md)</p>"
                         + standings_table(json.loads(found[1]), colour, rec["lang"]))
        bodies = await s.store.call(s.store.season_events, rec["id"])
        rows = []
        for b in bodies:
            ev = msgspec.json.decode(b)
            sn = ev["data"].get("season", ev["t"] / HOURS_PER_SEASON)
            for f, metrics in ev["data"].get("factions", {}).items():
                rows.append({"season": sn, "faction": f, **metrics})
        charts = svg.season_charts(rows, m)
        by_kind: dict[str, list[Any]] = {}
        for fr in v.factions:
            by_kind.setdefault(fr.kind, []).append(fr)
        for kind, frs in sorted(by_kind.items(), key=lambda kv: KIND_ORDER.index(kv[0]) if kv[0] in KIND_ORDER else 9):
            cols = sorted({k for fr in frs for k in fr.metrics})
            head = "".join(f"<th>{escape(c.replace('_', ' '))}</th>" for c in cols)
            body = "".join(
                f'<tr data-faction="{escape(fr.faction)}"><td>{colour.swatch(fr.faction)}{escape(colour.name(fr.faction))}</td>'
                + "".join(f"<td class=num>{escape(_cell(fr.metrics.get(c)))}</td>" for c in cols) + "</tr>" for fr in frs)
            table = (f"<div class=scroll><table class=results><thead><tr><th>{escape(kind)}</th>{head}</tr></thead>"
                     f"<tbody>{body}</tbody></table></div>")
            results += f"<details><summary>{escape(kind)}s ({len(frs)})</summary>{table}</details>"
    summary = ""
    if v.summary:
        summary = "<details><summary>Summary metrics</summary><table class=results>" + "".join(
            f"<tr><td>{escape(k)}</td><td class=num>{escape(_cell(val))}</td></tr>" for k, val in v.summary.items()) + \
            f"</table><p class=mono>ledger sha256 {escape(v.ledger_sha256 or '')}</p></details>"
    return (f'<section class="card" id="standings"><h2>Standings</h2>{standings or "<p class=empty>The first standings come at hour 0.</p>"}</section>'
            f'<section class="card"><h2>Seasons</h2><div class="charts">{charts or "<p class=empty>The first season summary comes at hour 0.</p>"}</div></section>'
            f'<section class="card"><h2>Factions now</h2>{results or "<p class=empty>No faction results yet.</p>"}{summary}</section>')


def status_fragment(s: Services, rec: dict[str, Any]) -> str:
    from workers.server.campaigns_api import view

    v = view(rec, s.campaigns.position(rec["id"]))
    p = v.progress
    out = (f'<div id="status" data-status="{v.status}" data-hour="{p.hour}">{badge(v.status)} '
           f'{bar(p.fraction, f"{date_of(p.hour).format()} — season {p.season} of {p.seasons}")}'
           f'<span class="events">{p.events:,} events</span></div>')
    if v.error:
        out += f'<p class="error">{escape(v.error)}</p>'
    if v.note:
        out += f'<p class="note">{escape(v.note)}</p>'
    if p.queue_position:
        out += f'<p class="note">waiting: number {p.queue_position} in the queue</p>'
    return out


# ---- the page ---------------------------------------------------------------------------------------------
@get("/campaigns/{campaign_id:str}", include_in_schema=False)
async def campaign_page(request: Request[Any, Any, Any], campaign_id: str) -> Response[str]:
    from agents.policies import known_policies

    s = svc(request)
    rec = await _campaign(s, campaign_id, request)
    if rec is None:
        return page_not_found(request, "campaign", campaign_id)
    static = await s.store.call(s.store.map, campaign_id)
    factions = json.loads(static)["factions"] if static else []
    by_kind: dict[str, list[dict[str, str]]] = {}
    for f in factions:
        by_kind.setdefault(f["key"].partition(":")[0], []).append(f)
    fopts = "".join(f'<optgroup label="{KIND_TITLE.get(k, k)}">' + "".join(
        f'<option value="{escape(f["key"])}">{escape(f["name"])} ({escape(k)})</option>' for f in fs) + "</optgroup>"
        for k, fs in sorted(by_kind.items(), key=lambda kv: KIND_ORDER.index(kv[0]) if kv[0] in KIND_ORDER else 9))
    api = f"/v1/campaigns/{campaign_id}"
    cid = escape(campaign_id)
    parent = ""
    if rec["parent"]:
        at = rec.get("fork_hour")
        point = date_of(at).format() if at is not None else f"season {rec['fork_season']}"
        parent = f' · fork of <a href="/campaigns/{escape(rec["parent"])}">{escape(rec["parent"])}</a> from {escape(point)}'
    seasons = -(-rec["end_hour"] // HOURS_PER_SEASON) if rec["end_hour"] else 1
    kinds = ("kingdom", "nation", "guild", "convoy")
    policy_opts = "".join(f"<option>{escape(p)}</option>" for p in sorted({p for k in kinds for p in known_policies(k)} - {"scripted"}))
    lang = rec["lang"]
    present_season = (rec["hour"] or 0) // HOURS_PER_SEASON
    body = f"""
<div class="campaign" data-id="{cid}" data-active="{1 if rec['status'] in ACTIVE else 0}" data-lang="{escape(lang)}">
  <div class="head card">
    <div class="title"><h1>{escape(rec['title'] or rec['scenario'])}</h1>
      <p class="sub"><code>{cid}</code> · scenario <b>{escape(rec['scenario'])}</b> · seed {rec['seed']}{parent}</p>
      <div id="head-status" data-src="/ui/campaigns/{cid}/status">{status_fragment(s, rec)}</div></div>
    <div class="actions">
      <a class="button ghost" href="{api}/seasons.csv">seasons.csv</a>
      <a class="button ghost" href="{api}/seasons.parquet">.parquet</a>
      <a class="button ghost" href="{api}/plots">plots</a>
      <a class="button ghost" href="{api}/events">ledger</a>
      <button class="danger" id="cancel" data-api="{api}" {'hidden' if rec['status'] not in ACTIVE else ''}>Cancel</button>
    </div>
  </div>
  <div class="table">
    <section class="card mapcard"><h2>Map</h2>
      <div class="toolbar">
        <span class="group"><button type="button" class="tool" id="zoom-out" title="zoom out">−</button>
        <button type="button" class="tool" id="zoom-in" title="zoom in">+</button>
        <button type="button" class="tool" id="zoom-reset" title="the whole map">⤢</button></span>
        <label class="check"><input type="checkbox" id="show-coords"> coordinates</label>
        <span class="group time"><button type="button" class="tool" id="back-season" title="the start of the season (or the one before)">«</button>
        <button type="button" class="tool" id="back-day" title="a day back">‹</button>
        <input type="range" id="scrub" min="0" max="{(rec['hour'] or 0) // HOURS_PER_DAY}" value="{(rec['hour'] or 0) // HOURS_PER_DAY}" step="1" aria-label="day">
        <button type="button" class="tool" id="fwd-day" title="a day forward">›</button>
        <button type="button" class="tool" id="fwd-season" title="the next season's start">»</button>
        <button type="button" class="tool" id="play" title="replay day by day">▶</button>
        <button type="button" class="tool on" id="live" title="follow the present">● live</button></span>
      </div>
      <div id="map" data-src="/ui/campaigns/{cid}/map">{await map_fragment(s, rec)}</div>
    </section>
    <div class="sidecol">
      <section class="card details"><h2>Details</h2><div id="details"><p class="empty">Click a hex or a token on the map.</p></div></section>
      <section class="card chronicle"><h2>Chronicle</h2>
        <div class="filter"><label>Faction <select id="faction"><option value="">all</option>{fopts}</select></label>
        <span id="lines-count"></span></div>
        <ol id="lines" data-stream="{api}/stream?only=chronicle"></ol>
      </section>
    </div>
  </div>
  <section class="card advice"><h2>Advice for the game master</h2>
    <form id="advise" data-api="{api}/advise">
      <div class="row"><label>Faction <select name="faction" required>{fopts}</select></label>
      <label>At the start of season <input name="season" type="number" min="0" max="{max(0, seasons - 1)}" value="{present_season}" required></label>
      <label>Policy <select name="policy">{policy_opts.replace('<option>heuristic</option>', '<option selected>heuristic</option>')}</select></label>
      <label>Language <select name="lang"><option value="en"{' selected' if lang == 'en' else ''}>English</option>
        <option value="fr"{' selected' if lang == 'fr' else ''}>français</option></select></label></div>
      <button type="submit">Advise</button> <span class="note">a state file stands at a season's start (docs/state-format.md)</span>
      <div class="problems" hidden></div>
    </form>
    <div id="advice-out"></div>
  </section>
  <div id="panels" data-src="/ui/campaigns/{cid}/panels">{await panels_fragment(s, rec)}</div>
  <section class="card"><h2>Fork</h2>
    <form id="fork" class="api-form" data-api="{api}/fork" data-go="/campaigns/">
      <div class="row"><label>From season <input name="season" type="number" min="0" max="{max(0, seasons - 1)}" value="{max(1, min(4, seasons - 1))}" required></label>
      <label>Day of that season <input name="day" type="number" min="0" max="89" value="0"></label>
      <label>Faction <select name="faction"><option value="">(none)</option>{fopts}</select></label>
      <label>New policy <select name="policy"><option value="">(none)</option>{policy_opts}</select></label>
      <label>Stop at season <input name="until" type="number" min="1" placeholder="the end"></label></div>
      <label>Rules overrides from then on <input name="overrides" placeholder='{{"km.explorer_speed_ft": 20}}'></label>
      <button type="submit">Fork</button><div class="problems" hidden></div>
    </form>
  </section>
</div>"""
    return html_page(layout(rec["title"] or rec["scenario"], body, request, "campaign"))


@get("/ui/campaigns/{campaign_id:str}/map", include_in_schema=False)
async def campaign_map(request: Request[Any, Any, Any], campaign_id: str, season: int | None = None,
                       day: int | None = None) -> Response[str]:
    s = svc(request)
    rec = await _campaign(s, campaign_id, request)
    if rec is None:
        return html_page("", 404)
    return html_page(await map_fragment(s, rec, season, day))


@get("/ui/campaigns/{campaign_id:str}/hex", include_in_schema=False)
async def campaign_hex(request: Request[Any, Any, Any], campaign_id: str, h: int, token: str | None = None,
                       season: int | None = None, day: int | None = None) -> Response[str]:
    s = svc(request)
    rec = await _campaign(s, campaign_id, request)
    if rec is None:
        return html_page("", 404)
    return html_page(await hex_panel(s, rec, h, token, season, day))


@get("/ui/campaigns/{campaign_id:str}/{part:str}", include_in_schema=False)
async def campaign_part(request: Request[Any, Any, Any], campaign_id: str, part: str,
                        season: int | None = None) -> Response[str]:
    """``status`` (the head's status line) or ``panels`` (standings, charts and tables; ``season``: the
    standings at that season's start)."""
    s = svc(request)
    rec = await _campaign(s, campaign_id, request)
    if rec is None or part not in ("status", "panels"):
        return html_page("", 404)
    return html_page(status_fragment(s, rec) if part == "status" else await panels_fragment(s, rec, season))


router = Router("/", route_handlers=[campaign_page, campaign_map, campaign_hex, campaign_part])
