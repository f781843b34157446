// realmsim's page: forms that call the API, fragments reloaded from the server, the ledger followed
// with an EventSource. No framework, no build step.
"use strict";

function problemsHtml(body) {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const items = (body.problems || []).map((p) => `<li><code>${esc(p.path)}</code>: expected ${esc(p.expected)}, found ${esc(p.found)}</li>`);
  return `<b>${esc(body.message || body.error || "error")}</b>` + (items.length ? `<ul>${items.join("")}</ul>` : "");
}

async function reload(el, url) {
  const r = await fetch(url || el.dataset.src, {headers: {"Accept": "text/html"}});
  if (r.ok) el.innerHTML = await r.text();
  return r.ok;
}

function formJson(form) {
  const out = {};
  for (const [k, v] of new FormData(form).entries()) {
    if (v === "") continue;
    if (k === "overrides") { out[k] = JSON.parse(v); continue; }
    if (["seed", "until", "season", "day"].includes(k)) { out[k] = Number(v); continue; }
    out[k] = v;
  }
  return out;
}

for (const form of document.querySelectorAll("form.api-form")) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const box = form.querySelector(".problems");
    box.hidden = true;
    let body;
    try { body = formJson(form); } catch (err) {
      box.innerHTML = problemsHtml({message: "overrides: expected a JSON object such as {\"cv.fatigued_penalty\": 3}"});
      box.hidden = false; return;
    }
    const r = await fetch(form.dataset.api, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const answer = await r.json().catch(() => ({message: `HTTP ${r.status}`}));
    if (r.ok) { location.href = form.dataset.go + answer.id; return; }
    box.innerHTML = problemsHtml(answer);
    box.hidden = false;
  });
}

const cancel = document.getElementById("cancel");
if (cancel) cancel.addEventListener("click", async () => {
  cancel.disabled = true;
  await fetch(cancel.dataset.api + "/cancel", {method: "POST"});
  location.reload();
});

// ---- home: the lists refresh while something runs ------------------------------------------------
const tables = document.getElementById("home-tables");
if (tables) {
  const busy = () => tables.querySelector('tr[data-status="running"], tr[data-status="queued"]');
  setInterval(() => { if (busy()) reload(tables); }, 2000);
}

// ---- one campaign: the game master's table ----------------------------------------------------------
// The map (zoom, pan, coordinates, a click opens the details of a hex or token), the time (a scrubber
// over the days reached, a player, live), the chronicle, advice applied to a fork. The server draws;
// this script only asks for fragments (/ui/campaigns/{id}/...) and the API.
const camp = document.querySelector(".campaign");
if (camp) {
  const HOURS_DAY = 24, HOURS_SEASON = 2160;
  const cid = camp.dataset.id;
  const lines = document.getElementById("lines");
  const count = document.getElementById("lines-count");
  const filter = document.getElementById("faction");
  const map = document.getElementById("map");
  const panels = document.getElementById("panels");
  const head = document.getElementById("head-status");
  const details = document.getElementById("details");
  const scrub = document.getElementById("scrub");
  const coordsBox = document.getElementById("show-coords");
  const liveBtn = document.getElementById("live"), playBtn = document.getElementById("play");
  const adviceForm = document.getElementById("advise"), adviceOut = document.getElementById("advice-out");
  const forkForm = document.getElementById("fork");
  const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const all = [];        // [text, when, factions, isSeason, hour]
  const SHOWN = 1500;
  let pending = null, refreshing = false, again = false, seasonShown = -1;
  let shown = null;      // the hour shown; null: the present, followed live
  let present = Number((document.getElementById("status") || {dataset: {}}).dataset.hour || 0);
  let view = null;       // the map's viewBox [x, y, w, h] while zoomed; null: the whole map
  let picked = null;     // {h, token}: the details open
  let playing = null, mapSeq = 0, panelsSeason = null;

  const moment = (sep) => shown === null ? "" :
    `${sep}season=${Math.floor(shown / HOURS_SEASON)}&day=${Math.floor((shown % HOURS_SEASON) / HOURS_DAY)}`;
  const svgEl = () => map.querySelector("svg.hexmap");

  // ---- chronicle ----
  const row = (l) => {
    const li = document.createElement("li");
    if (l[3]) li.className = "season";
    const when = document.createElement("span"); when.className = "when"; when.textContent = l[1];
    li.append(when, document.createTextNode(l[0]));
    return li;
  };
  const keep = (l) => (!filter.value || l[2].includes(filter.value)) && (shown === null || l[4] <= shown);
  const render = () => {
    const chosen = all.filter(keep);
    lines.replaceChildren(...chosen.slice(-SHOWN).map(row));
    count.textContent = `${chosen.length.toLocaleString()} lines` + (chosen.length > SHOWN ? ` (last ${SHOWN})` : "") +
      (shown === null ? "" : " up to the moment shown");
    lines.scrollTop = lines.scrollHeight;
  };
  const dim = () => {
    for (const el of document.querySelectorAll("#map [data-faction], #panels [data-faction]"))
      el.style.opacity = !filter.value || el.dataset.faction === filter.value ? "" : "0.25";
  };
  filter.addEventListener("change", () => { render(); dim(); });

  // a campaign that had not started when the page was drawn: its factions come with the map's legend
  const fillFactions = () => {
    for (const sel of document.querySelectorAll("#faction, #fork select[name=faction], #advise select[name=faction]")) {
      if (sel.querySelectorAll("option[value^='kingdom:'], option[value^='nation:'], option[value^='guild:'], option[value^='convoy:']").length) continue;
      for (const li of map.querySelectorAll("ul.factions li[data-faction]")) {
        const o = document.createElement("option");
        o.value = li.dataset.faction;
        o.textContent = `${li.textContent.trim()} (${li.dataset.faction.split(":")[0]})`;
        sel.append(o);
      }
    }
  };
  fillFactions();

  // ---- the map: zoom, pan, coordinates, details ----
  const base = (svg) => svg.getAttribute("viewBox").split(" ").map(Number);
  const applyView = () => {
    const svg = svgEl();
    if (!svg) return;
    if (!svg.dataset.full) svg.dataset.full = svg.getAttribute("viewBox");
    svg.setAttribute("viewBox", view ? view.map((v) => v.toFixed(1)).join(" ") : svg.dataset.full);
    svg.classList.toggle("zoomed", !!view);
    svg.classList.toggle("show-coords", coordsBox.checked);
  };
  const zoom = (factor, cx, cy) => {
    const svg = svgEl();
    if (!svg) return;
    const full = (svg.dataset.full || svg.getAttribute("viewBox")).split(" ").map(Number);
    const [x, y, w, h] = view || full;
    const nw = Math.min(full[2], Math.max(full[2] / 14, w / factor));
    if (nw >= full[2] - 0.5) { view = null; applyView(); return; }
    const nh = nw * h / w;
    cx ??= x + w / 2; cy ??= y + h / 2;
    view = [cx - (cx - x) * nw / w, cy - (cy - y) * nh / h, nw, nh];
    applyView();
  };
  const toSvg = (svg, e) => {
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [pt.x, pt.y];
  };
  const colRow = (h) => { const w = Number(svgEl().dataset.width); return `[${h % w},${Math.floor(h / w)}]`; };
  const mark = () => {
    const svg = svgEl();
    if (!svg) return;
    svg.querySelector("use.selected")?.remove();
    if (!picked) return;
    const cell = svg.querySelector(`g.terrain use[data-h="${picked.h}"]`);
    if (!cell) return;
    const sel = document.createElementNS("http://www.w3.org/2000/svg", "use");
    sel.setAttribute("href", "#hx"); sel.setAttribute("class", "selected");
    sel.setAttribute("x", cell.getAttribute("x")); sel.setAttribute("y", cell.getAttribute("y"));
    svg.append(sel);
  };
  async function openDetails(h, token) {
    picked = {h, token};
    mark();
    const q = `/ui/campaigns/${cid}/hex?h=${h}` + (token ? `&token=${encodeURIComponent(token)}` : "") + moment("&");
    const r = await fetch(q, {headers: {"Accept": "text/html"}});
    if (r.ok) details.innerHTML = await r.text();
    details.closest(".card").classList.add("open");
  }
  const bindMap = () => {
    const svg = svgEl();
    if (!svg || svg.dataset.bound) return;
    svg.dataset.bound = "1";
    const hover = map.querySelector(".hover");
    let drag = null;
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [cx, cy] = toSvg(svg, e);
      zoom(e.deltaY < 0 ? 1.25 : 0.8, cx, cy);
    }, {passive: false});
    svg.addEventListener("pointerdown", (e) => {
      drag = {x: e.clientX, y: e.clientY, view: view ? [...view] : null, moved: false};
      svg.setPointerCapture(e.pointerId);
    });
    svg.addEventListener("pointermove", (e) => {
      if (drag && (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 4)) drag.moved = true;
      if (drag && drag.moved && drag.view) {
        const k = drag.view[2] / svg.clientWidth;
        view = [drag.view[0] - (e.clientX - drag.x) * k, drag.view[1] - (e.clientY - drag.y) * k, drag.view[2], drag.view[3]];
        applyView();
        return;
      }
      const at = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-h]");
      if (at && hover) {
        const tok = at.closest("[data-token]");
        hover.textContent = colRow(Number(at.dataset.h)) + (tok ? `  ${tok.dataset.token}` : "");
        hover.hidden = false;
      }
    });
    svg.addEventListener("pointerleave", () => { if (hover) hover.hidden = true; });
    svg.addEventListener("pointerup", (e) => {
      const d = drag; drag = null;
      if (!d || d.moved) return;
      const hit = document.elementFromPoint(e.clientX, e.clientY);
      const tok = hit?.closest("[data-token]");
      const cell = tok || hit?.closest("[data-h]");
      if (cell) openDetails(Number(cell.dataset.h), tok ? tok.dataset.token : null);
    });
  };
  document.getElementById("zoom-in").addEventListener("click", () => zoom(1.5));
  document.getElementById("zoom-out").addEventListener("click", () => zoom(1 / 1.5));
  document.getElementById("zoom-reset").addEventListener("click", () => { view = null; applyView(); });
  coordsBox.addEventListener("change", applyView);

  // ---- time ----
  const dayOf = (hour) => Math.floor(hour / HOURS_DAY);
  const sync = () => {   // the controls after the map shows a moment
    const date = map.querySelector(".mapdate");
    if (date) present = Math.max(present, Number(date.dataset.present || 0));
    scrub.max = String(dayOf(present));
    scrub.value = String(shown === null ? dayOf(present) : dayOf(shown));
    liveBtn.classList.toggle("on", shown === null);
    camp.dataset.shown = shown === null ? "" : String(shown);
  };
  async function loadMap() {
    const seq = ++mapSeq;
    const r = await fetch(`/ui/campaigns/${cid}/map${moment("?")}`, {headers: {"Accept": "text/html"}});
    if (!r.ok || seq !== mapSeq) return;
    map.innerHTML = await r.text();
    const svg = svgEl();
    if (svg) seasonShown = Number(svg.dataset.season);
    applyView(); bindMap(); sync(); fillFactions(); mark(); dim();
    if (picked) openDetails(picked.h, picked.token);
  }
  async function loadPanels() {
    const season = shown === null ? null : Math.floor(shown / HOURS_SEASON);
    await reload(panels, `/ui/campaigns/${cid}/panels` + (season === null ? "" : `?season=${season}`));
    panelsSeason = season;
    dim();
  }
  const setFormMoment = () => {
    const at = shown === null ? present : shown;
    const season = Math.floor(at / HOURS_SEASON);
    if (adviceForm) adviceForm.elements.season.value = String(season);  // advice stands at the season's start
    if (forkForm) {
      forkForm.elements.season.value = String(season);
      forkForm.elements.day.value = String(Math.floor((at % HOURS_SEASON) / HOURS_DAY));
    }
  };
  let showTimer = null;
  const showAt = (hour, now) => {   // show a moment (null: the present, live)
    shown = hour === null ? null : Math.max(0, Math.min(hour, present));
    if (shown !== null && shown >= present && camp.dataset.active === "1") shown = null;
    sync(); render(); setFormMoment();
    clearTimeout(showTimer);
    const go = () => {
      const p = loadMap();
      const season = shown === null ? null : Math.floor(shown / HOURS_SEASON);
      if (season !== panelsSeason) loadPanels();
      return p;
    };
    if (now) return go();
    showTimer = setTimeout(go, 90);
    return null;
  };
  const at = () => (shown === null ? present : shown);
  scrub.addEventListener("input", () => { stopPlay(); showAt(Number(scrub.value) * HOURS_DAY); });
  document.getElementById("back-day").addEventListener("click", () => { stopPlay(); showAt(at() - HOURS_DAY, true); });
  document.getElementById("fwd-day").addEventListener("click", () => { stopPlay(); showAt(at() + HOURS_DAY, true); });
  document.getElementById("back-season").addEventListener("click", () => {
    stopPlay();
    const t = at();
    showAt(t % HOURS_SEASON ? t - t % HOURS_SEASON : t - HOURS_SEASON, true);
  });
  document.getElementById("fwd-season").addEventListener("click", () => {
    stopPlay();
    const t = at();
    showAt(t - t % HOURS_SEASON + HOURS_SEASON, true);
  });
  liveBtn.addEventListener("click", () => { stopPlay(); showAt(null, true); });
  function stopPlay() { if (playing) { clearTimeout(playing); playing = null; playBtn.textContent = "▶"; playBtn.classList.remove("on"); } }
  playBtn.addEventListener("click", () => {
    if (playing) { stopPlay(); return; }
    let t = shown === null ? present - present % HOURS_SEASON : shown;
    if (t >= present) t = 0;
    playBtn.textContent = "❚❚"; playBtn.classList.add("on");
    const step = async () => {
      await showAt(t, true);
      t += HOURS_DAY;
      if (t > present) { stopPlay(); return; }
      playing = setTimeout(step, 350);
    };
    playing = setTimeout(step, 0);
  });

  // ---- live ----
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      await reload(head);
      const st = document.getElementById("status");
      if (st) present = Math.max(present, Number(st.dataset.hour || 0));
      await Promise.all([loadMap(), shown === null ? loadPanels() : null]);
      if (shown === null) setFormMoment();
    } finally {
      refreshing = false;
      if (again) { again = false; refresh(); }
    }
  }
  const soon = () => { if (!pending) pending = setTimeout(() => { pending = null; refresh(); }, 250); };
  const ticker = setInterval(() => { if (camp.dataset.active === "1") soon(); else clearInterval(ticker); }, 1500);
  bindMap(); applyView(); sync();

  let batch = [], flush = null;
  const es = new EventSource(lines.dataset.stream);
  es.addEventListener("ledger", (m) => {
    const ev = JSON.parse(m.data);
    if (ev.kind === "SeasonSummarized" || ev.kind === "CampaignEnded") {
      const season = ev.kind === "SeasonSummarized" ? ev.data.season : "end";
      batch.push([ev.kind === "CampaignEnded" ? "The campaign ends." : `Season ${season} begins.`, `hour ${ev.t}`, [], true, ev.t]);
      soon();
    }
    if (ev.chronicle) {
      const sp = ev.chronicle.indexOf("  ");
      batch.push([sp > 0 ? ev.chronicle.slice(sp + 2) : ev.chronicle, sp > 0 ? ev.chronicle.slice(0, sp) : "", ev.factions || [], false, ev.t]);
    }
    if (!flush) flush = setTimeout(() => { flush = null; all.push(...batch); batch = []; render(); }, 120);
  });
  es.addEventListener("end", () => {
    es.close();
    camp.dataset.active = "0";
    setTimeout(() => { all.push(...batch); batch = []; render(); refresh(); if (cancel) cancel.hidden = true; }, 150);
  });
  es.addEventListener("shutdown", () => { /* the server is restarting: EventSource reconnects by itself */ });

  // ---- advice, and its orders given to a fork ----
  let advised = null;
  const pct = (c) => `${Number(c.percent).toLocaleString(undefined, {maximumFractionDigits: 1})}%`;
  const nameOf = (key) => adviceForm.querySelector(`option[value="${CSS.escape(key)}"]`)?.textContent || key;
  const renderAdvice = (body) => {
    const a = body.advice;
    const rows = a.orders.map((o, i) => `<tr><td><input type="checkbox" data-i="${i}" checked aria-label="give this order"></td>` +
      `<td>${esc(o.decision)}</td><td><b>${esc(o.order_words || o.order)}</b></td><td class="why">${esc(o.reason)}</td>` +
      `<td class="num">${o.checks.map((c) => `<span title="${esc(c.text)}">${pct(c)}</span>`).join(" ") || "—"}</td></tr>`).join("");
    adviceOut.innerHTML = `<p class="summary">${esc(a.summary)}</p>` +
      `<p class="note">From the campaign's world at ${esc(body.date)} (season ${body.season}), with the ${esc(a.policy)} policy; ` +
      `the orders are given at hour ${a.hour.toLocaleString()}.` + (a.missing.length ? ` The state lacks: ${esc(a.missing.map((m) => m.path).join(", "))}.` : "") + `</p>` +
      `<div class="scroll"><table class="results advice-orders"><thead><tr><th>give</th><th>decision</th><th>order</th><th>why</th><th>odds</th></tr></thead>` +
      `<tbody>${rows}</tbody></table></div>` +
      `<form id="apply" class="apply"><label>Stop the fork at season <input name="until" type="number" min="1" placeholder="the end"></label>` +
      `<button type="submit">Give these orders in a fork</button> <span class="note">the fork is this campaign up to season ${body.season}, ` +
      `then ${esc(nameOf(a.faction))} gives the orders ticked when the rules ask, then its policy plays on</span><div class="problems" hidden></div></form>`;
    document.getElementById("apply").addEventListener("submit", applyAdvice);
  };
  async function applyAdvice(e) {
    e.preventDefault();
    const form = e.target, box = form.querySelector(".problems");
    const ticked = [...adviceOut.querySelectorAll("input[data-i]")].filter((c) => c.checked).map((c) => advised.orders[Number(c.dataset.i)]);
    const body = {season: advised.season, faction: advised.advice.faction, orders: ticked, orders_hour: advised.advice.hour};
    if (form.elements.until.value) body.until = Number(form.elements.until.value);
    box.hidden = true;
    if (!ticked.length) { box.innerHTML = problemsHtml({message: "tick at least one order"}); box.hidden = false; return; }
    const r = await fetch(`/v1/campaigns/${cid}/fork`, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const answer = await r.json().catch(() => ({message: `HTTP ${r.status}`}));
    if (r.ok) { location.href = `/campaigns/${answer.id}`; return; }
    box.innerHTML = problemsHtml(answer); box.hidden = false;
  }
  if (adviceForm) adviceForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const box = adviceForm.querySelector(".problems"), btn = adviceForm.querySelector("button");
    box.hidden = true; btn.disabled = true; adviceOut.innerHTML = '<p class="note">Asking…</p>';
    const f = adviceForm.elements;
    const body = {faction: f.faction.value, season: Number(f.season.value), policy: f.policy.value, lang: f.lang.value};
    try {
      const r = await fetch(adviceForm.dataset.api, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      const answer = await r.json().catch(() => ({message: `HTTP ${r.status}`}));
      if (r.ok) { advised = answer; renderAdvice(answer); } else { adviceOut.innerHTML = ""; box.innerHTML = problemsHtml(answer); box.hidden = false; }
    } finally { btn.disabled = false; }
  });

  window.realmsim = {seasonShown: () => seasonShown, lines: () => all.length, shown: () => shown, present: () => present};
}

// ---- one batch: progress live --------------------------------------------------------------------
const panel = document.getElementById("batch-panel");
if (panel && !("ended" in panel.dataset)) {  // an ended batch's page is complete: nothing to follow
  const es = new EventSource(panel.dataset.stream);
  let t = null;
  es.addEventListener("progress", () => { if (!t) t = setTimeout(() => { t = null; reload(panel); }, 300); });
  es.addEventListener("end", () => { es.close(); setTimeout(() => reload(panel), 100); if (cancel) cancel.hidden = true; });
}
