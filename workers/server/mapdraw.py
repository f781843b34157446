"""The campaign's hex map as SVG, drawn on the server for a game master's table (the page needs no
build step; static/app.js zooms, pans, scrubs and opens the details of what is clicked).

The map is the campaign's hex map in odd-r offset layout (sim/hexmap.py: odd rows shifted half a hex
to the right, pointy-top hexes): terrain, rivers and roads, provinces and regions where the scenario
has them (guild war), then the factions' state from a snapshot (workers/server/mapview.py): kingdoms'
hexes with their borders, settlements, Mare Nostrum cities with the nations' embassies, guild domains,
then the tokens that move — armies, convoys with the rest of their route, kingdoms' envoys — labelled
with their owner and strength, fanned out when several share a hex. Every hex carries its index
(``data-h``) and its coordinates as the chronicle writes them (``[col,row]``, a layer the page shows
on demand); every token its kind and id (``data-token``).

Colours: a faction is a hue and a mark (:class:`Colours`): ten hues, each plain, striped or dotted
(and its lines solid, dashed or dotted), so that thirty factions stay apart on the map, in the charts
and in the legend, which groups them by kind.
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
# ten hues far apart (Tableau 10, its grey replaced by a dark blue: grey means "nobody's")
HUES = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#2f4b7c")
MARKS = ("plain", "striped", "dotted")
DASH = ("", "4 2", "1.2 1.6")  # a faction's lines, by mark
NOBODY = "#777777"
KIND_ORDER = ("kingdom", "nation", "guild", "convoy")
KIND_TITLE = {"kingdom": "Kingdoms", "nation": "Nations", "guild": "Guilds", "convoy": "Convoys"}
# edge of a pointy-top hex toward each direction of sim.hexmap (E, NE, NW, W, SW, SE): its two corners
EDGE_CORNERS = ((0, 1), (5, 0), (4, 5), (3, 4), (2, 3), (1, 2))


class Colours:
    """One look per faction — a hue and a mark — the scenario's factions in order (hue first, then
    mark: thirty before any repeats), any later one (a vassal, a trade convoy) by a hash of its key."""

    def __init__(self, factions: list[dict[str, str]]) -> None:
        self.order = {f["key"]: i for i, f in enumerate(factions)}
        self.names = {f["key"]: f["name"] for f in factions}

    def owner(self, key: str) -> str | None:
        """The kingdom a trade convoy (``convoy:trade-<kingdom>-<n>``, LINK-02) travels for, if known."""
        if not key.startswith("convoy:trade-"):
            return None
        rest = key[len("convoy:trade-"):]
        kingdoms = [k for k in self.order if k.startswith("kingdom:") and rest.startswith(k[len("kingdom:"):] + "-")]
        return max(kingdoms, key=len) if kingdoms else None

    def index(self, key: str | None) -> int:
        """The faction's look, 0..29 (-1: nobody); a trade convoy has its kingdom's."""
        if not key:
            return -1
        if key not in self.order:
            key = self.owner(key) or key
        i = self.order.get(key)
        if i is None:
            i = int(hashlib.sha256(key.encode()).hexdigest()[:6], 16)
        return i % (len(HUES) * len(MARKS))

    def __call__(self, key: str | None) -> str:
        """The faction's hue."""
        i = self.index(key)
        return NOBODY if i < 0 else HUES[i % len(HUES)]

    def mark(self, key: str | None) -> int:
        i = self.index(key)
        return 0 if i < 0 else i // len(HUES)

    def fill(self, key: str | None) -> str:
        """What fills the faction's shapes: its hue, or its hue striped or dotted (a pattern of ``defs``)."""
        i = self.index(key)
        return self(key) if i < len(HUES) else f"url(#fp{i})"

    def dash(self, key: str | None) -> str:
        d = DASH[self.mark(key)]
        return f' stroke-dasharray="{d}"' if d else ""

    def name(self, key: str) -> str:
        if key in self.names:
            return self.names[key]
        kingdom = self.owner(key)
        if kingdom is not None:
            return f"{self.names.get(kingdom, kingdom)} trade {key.rpartition('-')[2]}"
        return key.partition(":")[2] or key

    def defs(self, keys: list[str]) -> str:
        """The fill patterns of the striped and dotted factions among ``keys``."""
        out = []
        for i in sorted({self.index(k) for k in keys if self.index(k) >= len(HUES)}):
            hue, mark = HUES[i % len(HUES)], i // len(HUES)
            inner = ('<path d="M-1,1l2,-2M0,6l6,-6M5,7l2,-2" stroke="#fff" stroke-width="1.6"/>' if mark == 1
                     else '<circle cx="3" cy="3" r="1.25" fill="#fff"/>')
            out.append(f'<pattern id="fp{i}" width="6" height="6" patternUnits="userSpaceOnUse">'
                       f'<rect width="6" height="6" fill="{hue}"/>{inner}</pattern>')
        return "".join(out)

    def swatch(self, key: str) -> str:
        """A small square of the faction's look, for legends and tables."""
        return (f'<svg class="sw" viewBox="0 0 12 12" aria-hidden="true"><rect x="0.5" y="0.5" width="11" height="11" '
                f'rx="2" fill="{self.fill(key)}" stroke="#333" stroke-width="1"{self.dash(key)}/></svg>')


def centre(i: int, width: int) -> tuple[float, float]:
    row, col = divmod(i, width)
    return W / 2 + col * W + (W / 2 if row & 1 else 0.0) + 2, R + row * H_STEP + 2


def corners(cx: float, cy: float, r: float = R) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30))) for k in range(6)]


def pts(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def size(m: dict[str, Any]) -> tuple[float, float]:
    return m["width"] * W + W / 2 + 4, m["height"] * H_STEP + R / 2 + 4


def coords(i: int, width: int) -> str:
    """A hex as the chronicle writes it: ``[col,row]`` (sim.hexmap.HexMap.label)."""
    row, col = divmod(i, width)
    return f"[{col},{row}]"


def fan(n: int, centre_taken: bool = False) -> list[tuple[float, float]]:
    """Where n tokens sharing a hex stand, so that none hides another nor what stands at the hex's
    centre (a settlement, a city, a domain): alone on a free hex, at its centre; else around it, inside
    the hex for up to three, beyond it for more (each joined to the centre by a line)."""
    if n == 1 and not centre_taken:
        return [(0.0, 0.0)]
    if n == 1:
        return [(R * 0.62, -R * 0.42)]
    r = R * 0.78 if n <= 3 else R * (1.05 + 0.07 * n)
    start = -90.0 if n != 2 else -30.0
    return [(r * math.cos(math.radians(start + 360 * k / n)), r * math.sin(math.radians(start + 360 * k / n)))
            for k in range(n)]


def _short(name: str, n: int = 9) -> str:
    name = name.removeprefix("The ").removeprefix("the ")
    return name if len(name) <= n else name[: n - 1] + "…"


# ---- layers -------------------------------------------------------------------------------------------
def terrain_layer(m: dict[str, Any]) -> str:
    width = m["width"]
    out = ['<g class="terrain">']
    for i, letter in enumerate(m["terrain"]):
        cx, cy = centre(i, width)
        out.append(f'<use href="#hx" x="{cx:.1f}" y="{cy:.1f}" fill="{TERRAIN_FILL.get(letter, "#ddd")}" data-h="{i}"/>')
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


def _edges(geo: HexMap, width: int, area: list[int]) -> str:
    """The path of every hex edge between two different areas (or an area and the map's edge)."""
    segs = []
    for h, a in enumerate(area):
        if a < 0:
            continue
        cs = corners(*centre(h, width))
        for d, (p, q) in enumerate(EDGE_CORNERS):
            n = geo.neighbor(h, d)
            if n is None or area[n] == a or (area[n] >= 0 and n < h):  # the map's edge; inside; drawn from n
                continue
            segs.append(f"M{cs[p][0]:.1f},{cs[p][1]:.1f}L{cs[q][0]:.1f},{cs[q][1]:.1f}")
    return "".join(segs)


def areas_layer(m: dict[str, Any]) -> str:
    """Province borders (thin, dashed) and region borders (thick), with the regions' names."""
    if "provinces" not in m and "regions" not in m:
        return ""
    width = m["width"]
    geo = HexMap(m["width"], m["height"], [])
    out = ['<g class="areas" fill="none" stroke-linecap="round">']
    if "provinces" in m:
        out.append(f'<path class="province-borders" d="{_edges(geo, width, m["provinces"]["of"])}" stroke="#5b4a3a" '
                   'stroke-width="1" stroke-dasharray="3 2" stroke-opacity="0.8"/>')
    if "regions" in m:
        of = m["regions"]["of"]
        out.append(f'<path class="region-borders" d="{_edges(geo, width, of)}" stroke="#3b2a1a" stroke-width="2.6" '
                   'stroke-opacity="0.75"/>')
        for r, name in enumerate(m["regions"]["names"]):
            cells = [centre(h, width) for h, a in enumerate(of) if a == r]
            if cells:
                x = sum(c[0] for c in cells) / len(cells)
                y = sum(c[1] for c in cells) / len(cells)
                out.append(f'<text x="{x:.1f}" y="{y:.1f}" class="region">{escape(name)}</text>')
    out.append("</g>")
    return "".join(out)


def coords_layer(m: dict[str, Any]) -> str:
    """Every hex's ``[col,row]``: hidden unless the page's coordinates toggle is on."""
    width = m["width"]
    out = ['<g class="coords">']
    for i in range(width * m["height"]):
        cx, cy = centre(i, width)
        out.append(f'<text x="{cx:.1f}" y="{cy - R * 0.52:.1f}">{coords(i, width)}</text>')
    out.append("</g>")
    return "".join(out)


def _territory(m: dict[str, Any], snap: dict[str, Any], colour: Colours) -> list[str]:
    width = m["width"]
    geo = HexMap(m["width"], m["height"], [])
    owner: dict[int, str] = {}
    for k in snap.get("kingdoms", []):
        for h in k["hexes"]:
            owner[h] = k["key"]
    if not owner:
        return []
    out = ['<g class="territory">']
    for k in snap["kingdoms"]:
        cells = "".join(f'<use href="#hx" x="{centre(h, width)[0]:.1f}" y="{centre(h, width)[1]:.1f}" data-h="{h}"/>'
                        for h in k["hexes"])
        out.append(f'<g fill="{colour.fill(k["key"])}" fill-opacity="0.42" data-faction="{escape(k["key"])}">{cells}</g>')
    out.append('</g><g class="borders" stroke-width="2.2" stroke-linecap="round">')
    paths: dict[str, list[str]] = {}
    for h, key in sorted(owner.items()):
        cs = corners(*centre(h, width))
        for d, (a, b) in enumerate(EDGE_CORNERS):
            n = geo.neighbor(h, d)
            if n is None or owner.get(n) != key:
                paths.setdefault(key, []).append(f"M{cs[a][0]:.1f},{cs[a][1]:.1f}L{cs[b][0]:.1f},{cs[b][1]:.1f}")
    for key, segs in paths.items():
        out.append(f'<path d="{"".join(segs)}" stroke="{colour(key)}"{colour.dash(key)} data-faction="{escape(key)}"/>')
    out.append("</g>")
    return out


def _star(cx: float, cy: float, r: float) -> str:
    star = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        star.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return f'<polygon points="{pts(star)}"/>'


def _places(m: dict[str, Any], snap: dict[str, Any], colour: Colours) -> list[str]:
    """What stands still: settlements, Mare Nostrum's provinces, cities and embassies, guild domains."""
    width = m["width"]
    out: list[str] = []
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
            out.append(f'<g fill="{colour.fill(k["key"])}" stroke="#222" stroke-width="0.8" data-h="{h}" '
                       f'data-faction="{escape(k["key"])}">{shape}</g>')
        else:
            name, kind = on_map[h]
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2.6" fill="#fff" stroke="#333" stroke-width="0.8" data-h="{h}"/>')
        out.append(f'<text x="{cx:.1f}" y="{cy + R * 0.95:.1f}" class="label">{escape(name)}</text>')
    out.append("</g>")
    if snap.get("nations") or snap.get("cities"):
        out.append('<g class="mn">')
        for n in snap.get("nations", []):
            for h in n["provinces"]:
                if h < 0:
                    continue
                cx, cy = centre(h, width)
                r = 5.5 if h == n["capital"] else 4
                out.append(f'<path d="M{cx:.1f},{cy - r:.1f}L{cx + r:.1f},{cy:.1f}L{cx:.1f},{cy + r:.1f}L{cx - r:.1f},{cy:.1f}Z" '
                           f'fill="{colour.fill(n["key"])}" stroke="#222" stroke-width="0.8" data-h="{h}" '
                           f'data-faction="{escape(n["key"])}"/>')
        for city in snap.get("cities", []):
            if city["hex"] < 0:
                continue
            cx, cy = centre(city["hex"], width)
            ring = colour(city["controller"]) if city["controller"] else "#555"
            out.append(f'<g data-h="{city["hex"]}"><rect x="{cx - 4:.1f}" y="{cy - 3:.1f}" width="8" height="6" fill="#f7f3e8" '
                       f'stroke="{ring}" stroke-width="1.4"/><path d="M{cx - 4:.1f},{cy - 3:.1f}v-2h2v1.2h1v-1.2h2v1.2h1v-1.2h2v2" '
                       f'fill="#f7f3e8" stroke="{ring}" stroke-width="1"/></g>'
                       f'<text x="{cx:.1f}" y="{cy + R * 0.95:.1f}" class="label">{escape(city["name"])}</text>')
        by_city: dict[int, list[dict[str, Any]]] = {}
        for e in snap.get("embassies", []):
            if e["hex"] >= 0:
                by_city.setdefault(e["hex"], []).append(e)
        for h, embs in sorted(by_city.items()):
            cx, cy = centre(h, width)
            for j, e in enumerate(embs):
                x, y = cx - 6 + j * 3.2, cy - 5
                out.append(f'<g data-h="{h}" data-faction="{escape(e["nation"])}"><line x1="{x:.1f}" y1="{y:.1f}" x2="{x:.1f}" '
                           f'y2="{y - 7:.1f}" stroke="#333" stroke-width="0.7"/><path d="M{x:.1f},{y - 7:.1f}l4,1.6l-4,1.6z" '
                           f'fill="{colour(e["nation"])}" stroke="#222" stroke-width="0.4"/></g>')
        out.append("</g>")
    if snap.get("domains"):
        out.append('<g class="domains">')
        for d in snap["domains"]:
            cx, cy = centre(d["hex"], width)
            out.append(f'<g class="domain" data-h="{d["hex"]}" data-token="domain:{escape(d["id"])}" '
                       f'data-faction="{escape(d["owner"])}">'
                       f'<path d="M{cx:.1f},{cy - 5:.1f}L{cx + 5:.1f},{cy - 1.5:.1f}L{cx + 3:.1f},{cy + 4.5:.1f}'
                       f'L{cx - 3:.1f},{cy + 4.5:.1f}L{cx - 5:.1f},{cy - 1.5:.1f}Z" fill="{colour.fill(d["owner"])}" '
                       f'stroke="#222" stroke-width="0.8"/>'
                       + (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="8" fill="none" stroke="#c0392b" stroke-width="1.5" '
                          'stroke-dasharray="2.5 1.5"/>' if d["besieged"] else "")
                       + (f'<path d="M{cx - 3:.1f},{cy - 2:.1f}l6,5M{cx + 3:.1f},{cy - 2:.1f}l-6,5" stroke="#111" '
                          'stroke-width="1.3"/>' if d["occupied"] else "") + "</g>")
        out.append("</g>")
    return out


def tokens(snap: dict[str, Any]) -> dict[int, list[tuple[str, dict[str, Any]]]]:
    """The tokens that move, by hex: armies (by owner, then id), convoys on their way, envoys."""
    out: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for a in sorted(snap.get("armies", []), key=lambda a: (a["owner"], a["id"])):
        out.setdefault(a["hex"], []).append(("army", a))
    for c in snap.get("convoys", []):
        if c["status"] == "travelling":
            out.setdefault(c["hex"], []).append(("convoy", c))
    for e in snap.get("envoys", []):
        if e["hex"] >= 0:
            out.setdefault(e["hex"], []).append(("envoy", e))
    return out


def token_owner(kind: str, t: dict[str, Any]) -> str:
    if kind == "army":
        return str(t["owner"])
    if kind == "convoy":
        return str(t.get("owner") or t["key"])
    return str(t["kingdom"])


def token_id(kind: str, t: dict[str, Any]) -> str:
    if kind == "army":
        return f"army:{t['id']}"
    if kind == "convoy":
        return str(t["key"])
    return f"envoy:{t['kingdom'].partition(':')[2]}>{t['target']}"


def _token(kind: str, t: dict[str, Any], x: float, y: float, h: int, colour: Colours, small: bool, left: bool = False) -> str:
    owner = token_owner(kind, t)
    s = 0.72 if small else 1.0
    if kind == "army":
        shape = (f'<path d="M{x:.1f},{y - 5.5 * s:.1f}L{x + 5 * s:.1f},{y + 3.5 * s:.1f}L{x - 5 * s:.1f},{y + 3.5 * s:.1f}Z" '
                 f'fill="{colour.fill(owner)}" stroke="#111" stroke-width="1"/>')
        text = f"{_short(colour.name(owner))} {t.get('strength', t['units'])}"
    elif kind == "convoy":
        shape = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{4.2 * s:.1f}" fill="{colour.fill(owner)}" stroke="#fff" stroke-width="1.4"/>'
                 f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{5.4 * s:.1f}" fill="none" stroke="#222" stroke-width="0.7"/>')
        hp = f" {t['hp']}hp" if "hp" in t else ""
        text = f"{_short(str(t['name']), 12)}{hp}"
    else:
        shape = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.8" fill="#fff" stroke="{colour(owner)}" stroke-width="1.8"/>')
        text = f"envoy {_short(colour.name(owner))}"
    label = (f'<text x="{x - 5.5:.1f}" y="{y + 2:.1f}" class="tlabel" text-anchor="end">' if left
             else f'<text x="{x + 5.5:.1f}" y="{y + 2:.1f}" class="tlabel">')
    return (f'<g class="token {kind}" data-token="{escape(token_id(kind, t))}" data-h="{h}" data-faction="{escape(owner)}">'
            f'{shape}{label}{escape(text)}</text></g>')


def _places_at(m: dict[str, Any], snap: dict[str, Any]) -> set[int]:
    """The hexes whose centre a place holds (settlements, cities, nations' provinces, domains)."""
    out = {h for h, _, _ in m["settlements"]}
    out |= {h for k in snap.get("kingdoms", []) for h, _ in k["settlements"]}
    out |= {c["hex"] for c in snap.get("cities", [])} | {d["hex"] for d in snap.get("domains", [])}
    out |= {h for n in snap.get("nations", []) for h in n["provinces"]}
    return out


def _moving(m: dict[str, Any], snap: dict[str, Any], colour: Colours) -> list[str]:
    width = m["width"]
    out: list[str] = []
    travelling = [c for c in snap.get("convoys", []) if c["status"] == "travelling"]
    if travelling:
        out.append('<g class="routes">')
        for c in travelling:
            if len(c.get("path", [])) > 1:
                line = pts([centre(h, width) for h in c["path"]])
                out.append(f'<polyline points="{line}" fill="none" stroke="{colour(token_owner("convoy", c))}" stroke-width="1.6" '
                           f'stroke-dasharray="3 2" stroke-opacity="0.85" data-faction="{escape(token_owner("convoy", c))}"/>')
        out.append("</g>")
    by_hex = tokens(snap)
    groups = {"army": "armies", "convoy": "convoys", "envoy": "envoys"}
    layers: dict[str, list[str]] = {g: [] for g in groups.values()}
    taken = _places_at(m, snap)
    for h, items in sorted(by_hex.items()):
        cx, cy = centre(h, width)
        spots = fan(len(items), h in taken)
        for (dx, dy), (kind, t) in zip(spots, items, strict=True):
            if len(items) > 3:  # out of the hex: a line back to where it stands
                layers[groups[kind]].append(f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{cx + dx:.1f}" y2="{cy + dy:.1f}" '
                                            'class="fanline"/>')
            # labels point away from the hex's centre, so that fanned tokens' labels do not cross
            layers[groups[kind]].append(_token(kind, t, cx + dx, cy + dy, h, colour, len(items) > 1, left=dx < -0.5))
    for name, parts in layers.items():
        if parts:
            out.append(f'<g class="{name}">{"".join(parts)}</g>')
    return out


def map_svg(m: dict[str, Any], snap: dict[str, Any]) -> str:
    colour = Colours(m["factions"])
    w, h = size(m)
    hexagon = pts(corners(0, 0, R + 0.35))
    keys = [f["key"] for f in m["factions"]] + [k["key"] for k in snap.get("kingdoms", [])] + \
        [token_owner(kind, t) for items in tokens(snap).values() for kind, t in items]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap" viewBox="0 0 {w:.0f} {h:.0f}" '
            f'data-width="{m["width"]}" data-hour="{snap["hour"]}" data-season="{snap["season"]}" role="img" '
            f'aria-label="map at {escape(snap["date"])}"><defs><polygon id="hx" points="{hexagon}"/>{colour.defs(keys)}</defs>'
            f"{terrain_layer(m)}{''.join(_territory(m, snap, colour))}{areas_layer(m)}{''.join(_places(m, snap, colour))}"
            f"{''.join(_moving(m, snap, colour))}{coords_layer(m)}</svg>")


def legend(m: dict[str, Any], snap: dict[str, Any]) -> str:
    """The factions grouped by kind (each with its look), the symbols, the terrain."""
    colour = Colours(m["factions"])
    keys = [f["key"] for f in m["factions"]]
    for k in snap.get("kingdoms", []):
        if k["key"] not in keys:
            keys.append(k["key"])
    groups = []
    for kind in KIND_ORDER:
        mine = [k for k in keys if k.partition(":")[0] == kind]
        if not mine:
            continue
        items = "".join(f'<li data-faction="{escape(k)}">{colour.swatch(k)}{escape(colour.name(k))}</li>' for k in mine)
        groups.append(f'<div class="lgroup" data-kind="{kind}"><h4>{KIND_TITLE[kind]} <small>{len(mine)}</small></h4>'
                      f'<ul class="legend factions">{items}</ul></div>')
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
        symbols += ["⬟ domain", "▲ army (owner, strength)", "◌ siege"]
    if "provinces" in m:
        symbols += ["┅ province border", "━ region border"]
    if "cv" in systems:
        symbols += ["● convoy (name, HP), - - its route"]
    sym = "".join(f"<li>{escape(s)}</li>" for s in symbols)
    return (f'<div class="legend-groups">{"".join(groups)}</div><ul class="legend symbols">{sym}</ul>'
            f'<ul class="legend terrain">{tiles}</ul>')
