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
    if (["seed", "until", "season"].includes(k)) { out[k] = Number(v); continue; }
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

// ---- one campaign: chronicle, map and charts live -------------------------------------------------
const camp = document.querySelector(".campaign");
if (camp) {
  const lines = document.getElementById("lines");
  const count = document.getElementById("lines-count");
  const filter = document.getElementById("faction");
  const map = document.getElementById("map");
  const panels = document.getElementById("panels");
  const head = document.getElementById("head-status");
  const all = [];        // [text, when, factions, isSeason]
  const SHOWN = 1500;
  let pending = null, refreshing = false, again = false, seasonShown = -1;

  const row = (l) => {
    const li = document.createElement("li");
    if (l[3]) li.className = "season";
    const when = document.createElement("span"); when.className = "when"; when.textContent = l[1];
    li.append(when, document.createTextNode(l[0]));
    return li;
  };
  const keep = (l) => !filter.value || l[2].includes(filter.value);
  const render = () => {
    const chosen = all.filter(keep);
    lines.replaceChildren(...chosen.slice(-SHOWN).map(row));
    count.textContent = `${chosen.length.toLocaleString()} lines` + (chosen.length > SHOWN ? ` (last ${SHOWN})` : "");
    lines.scrollTop = lines.scrollHeight;
  };
  filter.addEventListener("change", () => {
    render();
    for (const el of document.querySelectorAll("#map [data-faction], #panels [data-faction]"))
      el.style.opacity = !filter.value || el.dataset.faction === filter.value ? "" : "0.25";
  });

  // a campaign that had not started when the page was drawn: its factions come with the map's legend
  const fillFactions = () => {
    for (const sel of document.querySelectorAll("#faction, #fork select[name=faction]")) {
      if (sel.options.length > 1) continue;
      for (const li of map.querySelectorAll("ul.factions li[data-faction]")) {
        const o = document.createElement("option");
        o.value = li.dataset.faction;
        o.textContent = li.textContent.trim().replace(/\s+(\w+)$/, " ($1)");
        sel.append(o);
      }
    }
  };
  fillFactions();

  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      await Promise.all([reload(map), reload(panels), reload(head)]);
      const svg = map.querySelector("svg");
      if (svg) seasonShown = Number(svg.dataset.season);
      fillFactions();
      if (filter.value) filter.dispatchEvent(new Event("change"));
    } finally {
      refreshing = false;
      if (again) { again = false; refresh(); }
    }
  }
  const soon = () => { if (!pending) pending = setTimeout(() => { pending = null; refresh(); }, 250); };

  let batch = [], flush = null;
  const es = new EventSource(lines.dataset.stream);
  es.addEventListener("ledger", (m) => {
    const ev = JSON.parse(m.data);
    if (ev.kind === "SeasonSummarized" || ev.kind === "CampaignEnded") {
      const season = ev.kind === "SeasonSummarized" ? ev.data.season : "end";
      batch.push([ev.kind === "CampaignEnded" ? "The campaign ends." : `Season ${season} begins.`, `hour ${ev.t}`, [], true]);
      soon();
    }
    if (ev.chronicle) {
      const sp = ev.chronicle.indexOf("  ");
      batch.push([sp > 0 ? ev.chronicle.slice(sp + 2) : ev.chronicle, sp > 0 ? ev.chronicle.slice(0, sp) : "", ev.factions || [], false]);
    }
    if (!flush) flush = setTimeout(() => { flush = null; all.push(...batch); batch = []; render(); }, 120);
  });
  es.addEventListener("end", () => {
    es.close();
    setTimeout(() => { all.push(...batch); batch = []; render(); refresh(); if (cancel) cancel.hidden = true; }, 150);
    camp.dataset.active = "0";
  });
  es.addEventListener("shutdown", () => { /* the server is restarting: EventSource reconnects by itself */ });
  window.realmsim = {seasonShown: () => seasonShown, lines: () => all.length};
}

// ---- one batch: progress live --------------------------------------------------------------------
const panel = document.getElementById("batch-panel");
if (panel && !("ended" in panel.dataset)) {  // an ended batch's page is complete: nothing to follow
  const es = new EventSource(panel.dataset.stream);
  let t = null;
  es.addEventListener("progress", () => { if (!t) t = setTimeout(() => { t = null; reload(panel); }, 300); });
  es.addEventListener("end", () => { es.close(); setTimeout(() => reload(panel), 100); if (cancel) cancel.hidden = true; });
}
