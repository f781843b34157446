"""The live map and the season charts as SVG, drawn on the server (the page needs no build step).

The map is the campaign's hex map in odd-r offset layout (sim/hexmap.py: odd rows shifted half a hex
to the right, pointy-top hexes): terrain, rivers and roads, then the factions' state from a snapshot
(workers/server/mapview.py): kingdoms' hexes with their borders, settlements, Mare Nostrum cities
with the nations' embassies, guild domains and armies, convoys on their way with the rest of their
route, kingdoms' envoys. Every faction keeps one colour on the map, in the charts and in the legend.
"""

from __future__ import annotations

import hashlib
import math
from html import escape
from typing import Any

from sim.hexmap import HexMap

R = 12.0  # hex radius (centre to corner), px
W = math.sqrt(3) * R  # hex width
H_STEP = 1.5 * R  # row to row

TERRAIN_FILL = {
    "P": "#dfe7b0", "H": "#cdb88a", "F": "#8fb878", "M": "#a79e96", "D": "#eed9a0", "S": "#a3bca0",
    "J": "#6e9f62", "O": "#c2b4c4", "T": "#e8eef0", "W": "#8dbbe0", "C": "#7b716a",
}
TERRAIN_NAME = {"P": "plains", "H": "hills", "F": "forest", "M": "mountains", "D": "desert", "S": "marsh",
                "J": "jungle", "O": "moor", "T": "tundra", "W": "water", "C": "cavern"}
PALETTE = ("#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f",
           "#ff9da7", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#17becf", "#bcbd22", "#e377c2")
# edge of a pointy-top hex toward each direction of sim.hexmap (E, NE, NW, W, SW, SE): its two corners
EDGE_CORNERS = ((0, 1), (5, 0), (4, 5), (3, 4), (2, 3), (1, 2))


class Colours:
    """One colour per faction: the scenario's factions in order, any later one (a vassal) by hash."""

    def __init__(self, factions: list[dict[str, str]]) -> None:
        self.order = {f["key"]: i for i, f in enumerate(factions)}
        self.names = {f["key"]: f["name"] for f in factions}

    def __call__(self, key: str | None) -> str:
        if not key:
            return "#777777"
        i = self.order.get(key)
        if i is None:
            i = int(hashlib.sha256(key.encode()).hexdigest()[:6], 16)
        return PALETTE[i % len(PALETTE)]

    def name(self, key: str) -> str:
        return self.names.get(key) or key.partition(":")[2] or key


def centre(i: int, width: int) -> tuple[float, float]:
    row, col = divmod(i, width)
    return W / 2 + col * W + (W / 2 if row & 1 else 0.0) + 2, R + row * H_STEP + 2


def corners(cx: float, cy: float, r: float = R) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30))) for k in range(6)]


def _pts(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def size(m: dict[str, Any]) -> tuple[float, float]:
    return m["width"] * W + W / 2 + 4, m["height"] * H_STEP + R / 2 + 4


def _offsets(n: int) -> list[tuple[float, float]]:
    """Where n markers sit inside one hex so that they do not hide one another."""
    if n <= 1:
        return [(0.0, 0.0)]
    return [(R * 0.45 * math.cos(2 * math.pi * k / n), R * 0.45 * math.sin(2 * math.pi * k / n)) for k in range(n)]


def terrain_layer(m: dict[str, Any]) -> str:
    width = m["width"]
    out = ['<g class="terrain">']
    for i, letter in enumerate(m["terrain"]):
        cx, cy = centre(i, width)
        out.append(f'<use href="#hx" x="{cx:.1f}" y="{cy:.1f}" fill="{TERRAIN_FILL.get(letter, "#ddd")}"/>')
    out.append("</g>")
    geo = HexMap(m["width"], m["height"], [])
    rivers = set(m["rivers"])
    if rivers:
        out.append('<g class="rivers" stroke="#4f8fc9" stroke-width="2" stroke-linecap="round" fill="none">')
        for i in sorted(rivers):
            for n in geo.neighbors(i):
                if n in rivers and n > i:
                    (x1, y1), (x2, y2) = centre(i, width), centre(n, width)
                    out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
        out.append("</g>")
    roads = {int(k): v for k, v in m["roads"].items()}
    if roads:
        out.append('<g class="roads" stroke="#8a6a44" stroke-linecap="round" fill="none">')
        for i, level in sorted(roads.items()):
            for n in geo.neighbors(i):
                if n in roads and n > i:
                    lv = min(level, roads[n])
                    (x1, y1), (x2, y2) = centre(i, width), centre(n, width)
                    dash = ' stroke-dasharray="2 2"' if lv <= 1 else ""
                    out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                               f'stroke-width="{0.8 + 0.7 * lv:.1f}"{dash}/>')
        out.append("</g>")
    return "".join(out)


def faction_layer(m: dict[str, Any], snap: dict[str, Any], colour: Colours) -> str:
    width = m["width"]
    geo = HexMap(m["width"], m["height"], [])
    out: list[str] = []
    # kingdoms: their hexes tinted, their borders drawn where a neighbour is not theirs
    owner: dict[int, str] = {}
    for k in snap.get("kingdoms", []):
        for h in k["hexes"]:
            owner[h] = k["key"]
    if owner:
        out.append('<g class="territory">')
        for k in snap["kingdoms"]:
            c = colour(k["key"])
            tip = escape(f"{k['name']}: {len(k['hexes'])} hexes, Unrest {k['unrest']}, Treasury {k['treasury']} BP")
            cells = "".join(f'<use href="#hx" x="{centre(h, width)[0]:.1f}" y="{centre(h, width)[1]:.1f}"/>' for h in k["hexes"])
            out.append(f'<g fill="{c}" fill-opacity="0.42" data-faction="{escape(k["key"])}"><title>{tip}</title>{cells}</g>')
        out.append("</g><g class=\"borders\" stroke-width=\"2.2\" stroke-linecap=\"round\">")
        for h, key in sorted(owner.items()):
            cx, cy = centre(h, width)
            cs = corners(cx, cy)
            segs = []
            for d, (a, b) in enumerate(EDGE_CORNERS):
                n = geo.neighbor(h, d)
                if n is None or owner.get(n) != key:
                    segs.append(f"M{cs[a][0]:.1f},{cs[a][1]:.1f}L{cs[b][0]:.1f},{cs[b][1]:.1f}")
            if segs:
                out.append(f'<path d="{"".join(segs)}" stroke="{colour(key)}"/>')
        out.append("</g>")
    # settlements: a kingdom's in its colour (its capital as a star, those it founded during the campaign
    # too), the map's others (villages, towns) in white
    kingdom_settlement = {}
    for k in snap.get("kingdoms", []):
        for h, name in k["settlements"]:
            kingdom_settlement[h] = (k, name)
    out.append('<g class="settlements">')
    on_map = {h: (name, kind) for h, name, kind in m["settlements"]}
    for h in sorted(set(on_map) | set(kingdom_settlement)):
        cx, cy = centre(h, width)
        if h in kingdom_settlement:
            k, name = kingdom_settlement[h]
            capital = k.get("capital") == name
            shape = _star(cx, cy, 5.5) if capital else f'<rect x="{cx - 3.5:.1f}" y="{cy - 3.5:.1f}" width="7" height="7"/>'
            out.append(f'<g fill="{colour(k["key"])}" stroke="#222" stroke-width="0.8"><title>{escape(name)} '
                       f"({'capital of ' if capital else ''}{escape(k['name'])})</title>{shape}</g>")
        else:
            name, kind = on_map[h]
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2.6" fill="#fff" stroke="#333" stroke-width="0.8">'
                       f"<title>{escape(name)}{' (' + escape(kind) + ')' if kind else ''}</title></circle>")
        out.append(f'<text x="{cx:.1f}" y="{cy + R * 0.95:.1f}" class="label">{escape(name)}</text>')
    out.append("</g>")
    # Mare Nostrum: the nations' provinces, the free cities, the embassies there
    if snap.get("nations") or snap.get("cities"):
        out.append('<g class="mn">')
        for n in snap.get("nations", []):
            c = colour(n["key"])
            for h in n["provinces"]:
                if h < 0:
                    continue
                cx, cy = centre(h, width)
                big = h == n["capital"]
                r = 5.5 if big else 4
                out.append(f'<path d="M{cx:.1f},{cy - r:.1f}L{cx + r:.1f},{cy:.1f}L{cx:.1f},{cy + r:.1f}L{cx - r:.1f},{cy:.1f}Z" '
                           f'fill="{c}" stroke="#222" stroke-width="0.8"><title>{escape(n["name"])}'
                           f"{' (capital)' if big else ''}: treasury {n['treasury']}</title></path>")
        for city in snap.get("cities", []):
            if city["hex"] < 0:
                continue
            cx, cy = centre(city["hex"], width)
            ring = colour(city["controller"]) if city["controller"] else "#555"
            out.append(f'<g><title>{escape(city["name"])} (free city{", held by " + escape(colour.name(city["controller"])) if city["controller"] else ""})</title>'
                       f'<rect x="{cx - 4:.1f}" y="{cy - 3:.1f}" width="8" height="6" fill="#f7f3e8" stroke="{ring}" stroke-width="1.4"/>'
                       f'<path d="M{cx - 4:.1f},{cy - 3:.1f}v-2h2v1.2h1v-1.2h2v1.2h1v-1.2h2v2" fill="#f7f3e8" stroke="{ring}" stroke-width="1"/></g>'
                       f'<text x="{cx:.1f}" y="{cy + R * 0.95:.1f}" class="label">{escape(city["name"])}</text>')
        by_city: dict[int, list[dict[str, Any]]] = {}
        for e in snap.get("embassies", []):
            if e["hex"] >= 0:
                by_city.setdefault(e["hex"], []).append(e)
        for h, embs in sorted(by_city.items()):
            cx, cy = centre(h, width)
            for j, e in enumerate(embs):
                x = cx - 6 + j * 3.2
                y = cy - 5
                out.append(f'<g><title>embassy of {escape(colour.name(e["nation"]))} in {escape(e["city"])}</title>'
                           f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x:.1f}" y2="{y - 7:.1f}" stroke="#333" stroke-width="0.7"/>'
                           f'<path d="M{x:.1f},{y - 7:.1f}l4,1.6l-4,1.6z" fill="{colour(e["nation"])}" stroke="#222" stroke-width="0.4"/></g>')
        out.append("</g>")
    # guild war: domains, then armies on top
    if snap.get("domains") or snap.get("armies"):
        out.append('<g class="gw">')
        for d in snap.get("domains", []):
            cx, cy = centre(d["hex"], width)
            c = colour(d["owner"])
            state = " besieged" if d["besieged"] else ""
            state += " occupied" if d["occupied"] else ""
            out.append(f'<g><title>{escape(d["name"])}, domain of {escape(colour.name(d["owner"]))}{state}</title>'
                       f'<path d="M{cx:.1f},{cy - 5:.1f}L{cx + 5:.1f},{cy - 1.5:.1f}L{cx + 3:.1f},{cy + 4.5:.1f}'
                       f'L{cx - 3:.1f},{cy + 4.5:.1f}L{cx - 5:.1f},{cy - 1.5:.1f}Z" fill="{c}" stroke="#222" stroke-width="0.8"/>'
                       + (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="8" fill="none" stroke="#c0392b" stroke-width="1.5" '
                          'stroke-dasharray="2.5 1.5"/>' if d["besieged"] else "")
                       + (f'<path d="M{cx - 3:.1f},{cy - 2:.1f}l6,5M{cx + 3:.1f},{cy - 2:.1f}l-6,5" stroke="#111" stroke-width="1.3"/>'
                          if d["occupied"] else "") + "</g>")
        by_hex: dict[int, list[dict[str, Any]]] = {}
        for a in snap.get("armies", []):
            by_hex.setdefault(a["hex"], []).append(a)
        for h, armies in sorted(by_hex.items()):
            cx, cy = centre(h, width)
            for (dx, dy), army in zip(_offsets(len(armies)), armies):
                x, y = cx + dx, cy + dy
                out.append(f'<g class="army"><title>army {escape(army["id"])} of {escape(colour.name(army["owner"]))}: '
                           f'{army["units"]} units</title><path d="M{x:.1f},{y - 5.5:.1f}L{x + 5:.1f},{y + 3.5:.1f}L{x - 5:.1f},{y + 3.5:.1f}Z" '
                           f'fill="{colour(army["owner"])}" stroke="#111" stroke-width="1"/></g>')
        out.append("</g>")
    # convoys on their way, with the rest of their route
    travelling = [c for c in snap.get("convoys", []) if c["status"] == "travelling"]
    if travelling:
        out.append('<g class="convoys">')
        for c in travelling:
            col = colour(c["key"])
            if len(c["path"]) > 1:
                pts = _pts([centre(h, width) for h in c["path"]])
                out.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="1.6" stroke-dasharray="3 2" '
                           'stroke-opacity="0.85"/>')
        for c in travelling:
            cx, cy = centre(c["hex"], width)
            out.append(f'<g class="convoy"><title>{escape(c["name"])}: Unrest {c["unrest"]}</title>'
                       f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4.2" fill="{colour(c["key"])}" stroke="#fff" stroke-width="1.4"/>'
                       f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5.4" fill="none" stroke="#222" stroke-width="0.7"/></g>')
        out.append("</g>")
    if snap.get("envoys"):
        out.append('<g class="envoys">')
        for e in snap["envoys"]:
            if e["hex"] < 0:
                continue
            cx, cy = centre(e["hex"], width)
            out.append(f'<g><title>envoy of {escape(colour.name(e["kingdom"]))} to {escape(e["target"])}</title>'
                       f'<circle cx="{cx + 4:.1f}" cy="{cy - 4:.1f}" r="2.6" fill="#fff" stroke="{colour(e["kingdom"])}" stroke-width="1.6"/></g>')
        out.append("</g>")
    return "".join(out)


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return f'<polygon points="{_pts(pts)}"/>'


def map_svg(m: dict[str, Any], snap: dict[str, Any]) -> str:
    colour = Colours(m["factions"])
    w, h = size(m)
    hexagon = _pts(corners(0, 0, R + 0.35))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap" viewBox="0 0 {w:.0f} {h:.0f}" '
            f'data-hour="{snap["hour"]}" data-season="{snap["season"]}" role="img" aria-label="map at {escape(snap["date"])}">'
            f'<defs><polygon id="hx" points="{hexagon}"/></defs>'
            f"{terrain_layer(m)}{faction_layer(m, snap, colour)}</svg>")


def legend(m: dict[str, Any], snap: dict[str, Any]) -> str:
    colour = Colours(m["factions"])
    keys = [f["key"] for f in m["factions"]]
    for k in snap.get("kingdoms", []):
        if k["key"] not in keys:
            keys.append(k["key"])
    items = "".join(f'<li data-faction="{escape(k)}"><span class="sw" style="background:{colour(k)}"></span>'
                    f"{escape(colour.name(k))} <small>{escape(k.partition(':')[0])}</small></li>" for k in keys)
    terrain = sorted(set(m["terrain"]))
    tiles = "".join(f'<li><span class="sw hex" style="background:{TERRAIN_FILL.get(t, "#ddd")}"></span>{TERRAIN_NAME.get(t, t)}</li>'
                    for t in terrain)
    symbols = []
    systems = m.get("systems", [])
    if "km" in systems:
        symbols += ["★ capital", "■ settlement", "○ envoy"]
    if "mn" in systems:
        symbols += ["◆ nation's province", "▭ free city", "⚑ embassy"]
    if "gw" in systems:
        symbols += ["⬟ domain", "▲ army", "◌ siege"]
    if "cv" in systems:
        symbols += ["● convoy, - - its route"]
    sym = "".join(f"<li>{escape(s)}</li>" for s in symbols)
    return f'<ul class="legend factions">{items}</ul><ul class="legend symbols">{sym}</ul><ul class="legend terrain">{tiles}</ul>'


# ---- season charts ------------------------------------------------------------------------------
def chart(title: str, unit: str, series: list[tuple[str, list[tuple[float, float]]]], colour: Colours,
          width: int = 380, height: int = 190) -> str:
    """A line chart: one line per faction, seasons along x."""
    pad_l, pad_r, pad_t, pad_b = 46, 10, 24, 26
    xs = [x for _, pts in series for x, _ in pts]
    ys = [y for _, pts in series for _, y in pts]
    if not xs:
        return ""
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(0.0, min(ys)), max(ys)
    if x1 == x0:
        x1 = x0 + 1
    if y1 == y0:
        y1 = y0 + 1
    step = nice_step(y1 - y0)
    y1 = math.ceil(y1 / step - 1e-9) * step  # the top line is a round value
    pw, ph = width - pad_l - pad_r, height - pad_t - pad_b

    def sx(x: float) -> float:
        return pad_l + (x - x0) / (x1 - x0) * pw

    def sy(y: float) -> float:
        return pad_t + ph - (y - y0) / (y1 - y0) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(title)}"><text x="{pad_l}" y="15" class="ctitle">{escape(title)}</text>'
           f'<text x="{width - pad_r}" y="15" class="cunit" text-anchor="end">{escape(unit)}</text>']
    for v in nice_ticks(y0, y1):
        y = sy(v)
        out.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                   f'<text x="{pad_l - 4}" y="{y + 3:.1f}" class="tick" text-anchor="end">{_num(v)}</text>')
    for v in nice_ticks(x0, x1, integer=True):
        out.append(f'<text x="{sx(v):.1f}" y="{height - 8}" class="tick" text-anchor="middle">{_num(v)}</text>')
    for key, pts in series:
        if not pts:
            continue
        c = colour(key)
        out.append(f'<polyline points="{_pts([(sx(x), sy(y)) for x, y in pts])}" fill="none" stroke="{c}" '
                   f'stroke-width="1.8" data-faction="{escape(key)}"><title>{escape(colour.name(key))}</title></polyline>')
        lx, ly = pts[-1]
        out.append(f'<circle cx="{sx(lx):.1f}" cy="{sy(ly):.1f}" r="2.2" fill="{c}"/>')
    out.append("</svg>")
    return "".join(out)


def nice_step(span: float, n: int = 5, integer: bool = False) -> float:
    """The round step (1, 2, 2.5 or 5 times a power of ten) that cuts ``span`` into about ``n`` parts."""
    if span <= 0:
        return 1.0
    mag = 10 ** math.floor(math.log10(span / n))
    steps = [m * mag * k for k in (1, 10) for m in (1, 2, 2.5, 5)]
    if integer:
        steps = [max(1.0, math.ceil(x)) for x in steps]
    return min(steps, key=lambda st: (abs(span / st - n), st))


def nice_ticks(lo: float, hi: float, n: int = 5, integer: bool = False) -> list[float]:
    """Round tick values from ``lo`` to ``hi``."""
    step = nice_step(hi - lo, n, integer)
    v = math.ceil(lo / step - 1e-9) * step
    out = []
    while v <= hi + 1e-9 * max(1.0, abs(hi)):
        out.append(round(v, 10))
        v += step
    return out


def _num(v: float) -> str:
    if abs(v) >= 10_000:
        return f"{v / 1000:.0f}k"
    if abs(v - round(v)) < 1e-9:
        return str(int(round(v)))
    return f"{v:.1f}"


# the page's charts: (metric, unit) per faction kind, metrics as the drivers' ``metrics_row`` names them
# in the ledger's SeasonSummarized events
CHARTS: dict[str, list[tuple[str, str]]] = {
    "kingdom": [("treasury", "BP"), ("unrest", "Unrest"), ("size", "hexes"), ("treaties", "treaties")],
    "nation": [("treasury", "PO"), ("treaties", "treaties"), ("embassies", "embassies")],
    "guild": [("solars", "solars"), ("domains", "domains"), ("armies", "armies")],
    "convoy": [("unrest", "caravan Unrest"), ("hp", "HP"), ("provisions", "provisions")],
}


def season_charts(rows: list[dict[str, Any]], m: dict[str, Any]) -> str:
    """Small multiples, one chart per (faction kind, metric) that has data: a line per faction."""
    colour = Colours(m["factions"])
    out = []
    for kind, metrics in CHARTS.items():
        for metric, unit in metrics:
            series: dict[str, list[tuple[float, float]]] = {}
            for r in rows:
                f = str(r.get("faction", ""))
                v = r.get(metric)
                if f.partition(":")[0] != kind or isinstance(v, bool) or not isinstance(v, int | float):
                    continue
                series.setdefault(f, []).append((float(r["season"]), float(v)))
            if series:
                out.append(chart(f"{metric} — {kind}s", unit, sorted(series.items()), colour))
    return "".join(out)
