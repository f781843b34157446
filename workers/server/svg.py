"""The season charts as SVG, drawn on the server (the page needs no build step): one line per
faction, in the faction's hue and with its lines' dash (workers.server.mapdraw.Colours), so that a
faction looks the same on the map, in the charts and in the legend. The map is workers.server.mapdraw.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from workers.server.mapdraw import Colours
from workers.server.mapdraw import pts as _pts

# the map moved to workers.server.mapdraw; these stay importable from here
__all__ = ["CHARTS", "Colours", "chart", "nice_step", "nice_ticks", "season_charts"]


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
                   f'stroke-width="1.8"{colour.dash(key)} data-faction="{escape(key)}"><title>{escape(colour.name(key))}</title></polyline>')
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
