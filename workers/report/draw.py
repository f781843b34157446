"""How a report draws: figures without pyplot, a palette that never repeats, integer ticks for counts,
the top lines in colour and the rest in grey, quantile bands.

Figures are built on :class:`matplotlib.figure.Figure` with the Agg canvas, never through pyplot:
no global state, nothing to close, safe in a server thread.
"""

from __future__ import annotations

import colorsys
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, MaxNLocator, ScalarFormatter

# Lines beyond MANY in one panel are too many to tell apart: the TOP are drawn in colour, the rest in grey.
MANY = 8
TOP = 6
GREY = "#b0b0b0"
DODGE_SPAN = 20
DPI = 110
WIDTH = 10.0

# matplotlib's tab10 without its grey (grey means "the others" here), then tab20's light shades
_TAB10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"]
_TAB20_LIGHT = ["#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5"]


def palette(n: int) -> list[str]:
    """``n`` different colours: tab10 (less grey) up to 9, then tab20's light shades up to 18, then
    evenly spaced hues in three lightness rings. No colour repeats and none is grey."""
    if n <= len(_TAB10):
        return _TAB10[:n]
    if n <= len(_TAB10) + len(_TAB20_LIGHT):
        return (_TAB10 + _TAB20_LIGHT)[:n]
    out: list[str] = []
    golden = 0.618033988749895
    for i in range(n):
        h = (i * golden) % 1.0
        lightness = (0.38, 0.55, 0.70)[i % 3]
        out.append(to_hex(colorsys.hls_to_rgb(h, lightness, 0.75)))
    # distinct hues by construction; a guard against rounding collisions all the same
    seen: set[str] = set()
    for i, c in enumerate(out):
        while c in seen:
            r, g, b = (int(c[k:k + 2], 16) for k in (1, 3, 5))
            c = f"#{r:02x}{g:02x}{(b + 1) % 256:02x}"
        out[i] = c
        seen.add(c)
    return out


@dataclass(frozen=True)
class Margins:
    """A layout fixed in inches: the space around the panels (``left``…) and between them (``hgap``
    between rows, ``wgap`` between columns), for titles, tick labels, axis labels and legends.

    Constrained layout measures every text of a figure twice more before it draws it; a figure whose
    texts are known in advance (a batch report's: the same titles and labels whatever the data) can say
    where they go and be drawn once — a third of the time of a batch report went to layout."""

    left: float
    right: float
    top: float
    bottom: float
    hgap: float = 0.0
    wgap: float = 0.0

    def size(self, rows: int, cols: int, width: float, panel_height: float) -> tuple[float, float]:
        """(width, height) in inches of a figure of ``rows`` panels ``panel_height`` high."""
        return width, self.top + self.bottom + rows * panel_height + (rows - 1) * self.hgap

    def title_y(self, fig: Figure) -> float:
        """Where a suptitle goes (with ``va="top"``): 0.15 in below the top, however tall the figure."""
        return float(1 - 0.15 / fig.get_size_inches()[1])

    def gridspec(self, rows: int, cols: int, width: float, height: float) -> dict[str, float]:
        axes_w = (width - self.left - self.right - (cols - 1) * self.wgap) / cols
        axes_h = (height - self.top - self.bottom - (rows - 1) * self.hgap) / rows
        return {"left": self.left / width, "right": 1 - self.right / width, "top": 1 - self.top / height,
                "bottom": self.bottom / height, "hspace": self.hgap / axes_h, "wspace": self.wgap / axes_w}


def new_figure(panels: int, *, panel_height: float = 3.0, width: float = WIDTH, sharex: bool = True,
               cols: int = 1, margins: Margins | None = None) -> tuple[Figure, list[Axes]]:
    """A figure of ``panels`` axes (one column unless ``cols``), laid out by matplotlib's constrained
    layout so that titles, legends outside the axes and labels never overlap; with ``margins``, laid
    out once in inches instead (``panel_height`` is then the height of each axes)."""
    rows = -(-panels // cols)
    if margins is None:
        fig = Figure(figsize=(width, 0.9 + panel_height * rows), dpi=DPI, layout="constrained")
        gridspec_kw = None
    else:
        size = margins.size(rows, cols, width, panel_height)
        fig = Figure(figsize=size, dpi=DPI)
        gridspec_kw = margins.gridspec(rows, cols, *size)
    FigureCanvasAgg(fig)
    grid = fig.subplots(rows, cols, sharex=sharex, squeeze=False, gridspec_kw=gridspec_kw)
    axes = [ax for row in grid for ax in row]
    for ax in axes[panels:]:
        ax.set_visible(False)
    return fig, axes[:panels]


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG bytes (what a server sends and what a report writes)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def integer_ticks(ax: Axes, *, x: bool = False, y: bool = False) -> None:
    """Whole-number ticks (no "0.5 armies"), in steps of 1, 2, 5 or 10 times a power of ten (never
    600s); a count that never leaves one value gets the whole numbers around it."""
    if x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 2.5, 5, 10]))
        lo, hi = ax.get_xlim()
        if hi - lo < 2:  # a histogram of one value: the whole numbers around it
            mid = round((lo + hi) / 2)
            ax.set_xlim(mid - 1.5, mid + 1.5)
        fmt = ax.xaxis.get_major_formatter()
        if isinstance(fmt, ScalarFormatter):
            fmt.set_useOffset(False)  # 1440, not 0 with "+1.44e3" in the corner
        _group_thousands(ax.xaxis, ax.get_xlim())
    if y:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 2.5, 5, 10]))
        data = [v for ln in ax.get_lines() for v in np.asarray(ln.get_ydata(), dtype=float) if not np.isnan(v)]
        if data and max(data) - min(data) < 1:  # flat: the whole numbers around it, not a sliver of one
            mid = round(min(data))
            ax.set_ylim(max(mid - 1.5, -0.5) if mid >= 0 else mid - 1.5, mid + 1.5)
        _group_thousands(ax.yaxis, ax.get_ylim())


def number(v: float) -> str:
    """A number for a legend: 1 440, 12.5, 3, 0.667 (never 1.44e+03)."""
    if abs(v) >= 1000:
        return f"{v:,.0f}".replace(",", "\u202f")
    if float(v).is_integer():
        return f"{int(v)}"
    return f"{v:.3g}"


def _group_thousands(axis: Any, lim: tuple[float, float]) -> None:
    """90 000 rather than 90000 (a thin space, as SI writes it in English and French alike)."""
    if max(abs(lim[0]), abs(lim[1])) >= 10_000:
        axis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}".replace(",", "\u202f")))


def plain(text: str) -> str:
    """A name from a ledger as matplotlib must draw it: as written. A ``$`` would start mathtext, and a
    name such as ``$\\x{`` is a valid scenario id but no formula (matplotlib raises when it draws it)."""
    return text.replace("$", r"\$")


class Series:
    """One labelled line: x and y values (NaN where absent), its colour when it has a fixed one. The
    label is a name from the ledger, drawn as written (:func:`plain`)."""

    def __init__(self, label: str, x: Sequence[float], y: Sequence[float], colour: str | None = None,
                 end_marker: str | None = None) -> None:
        self.label = plain(label)
        self.x = np.asarray(x, dtype=float)
        self.y = np.asarray(y, dtype=float)
        self.colour = colour
        self.end_marker = end_marker

    def rank_value(self) -> float:
        """Lines are ranked by their last value, then by their peak (the ones a reader looks for)."""
        ok = self.y[~np.isnan(self.y)]
        return float(ok[-1]) if len(ok) else float("-inf")

    def peak(self) -> float:
        ok = self.y[~np.isnan(self.y)]
        return float(ok.max()) if len(ok) else float("-inf")


def draw_lines(ax: Axes, series: list[Series], *, others_label: str, step: bool = False,
               many: int = MANY, top: int = TOP, dodge: bool = False) -> None:
    """Every line in its own colour when there are at most ``many``; otherwise the ``top`` by last
    value in colour (legend in rank order) and the rest thin and grey under one legend entry.

    ``dodge`` (for small counts, whose lines often coincide: three guilds with 1 army) shifts the
    coloured lines apart by 1% of the panel's range each, about two pixels, so that every line stays
    visible: at most a fifth of one unit when the range is at most ``DODGE_SPAN``, and never beyond it."""
    style: dict[str, Any] = {"drawstyle": "steps-post"} if step else {}
    if len(series) <= many:
        shown, rest = series, []
    else:
        ranked = sorted(series, key=lambda s: (s.rank_value(), s.peak(), s.label), reverse=True)
        shown, rest = ranked[:top], ranked[top:]
    colours = palette(len(shown))
    for s in rest:
        ax.plot(s.x, s.y, color=GREY, lw=0.9, alpha=0.8, zorder=1, **style)
    ys = [s.y[~np.isnan(s.y)] for s in shown]
    span = max((float(y.max()) for y in ys if len(y)), default=0.0) - min((float(y.min()) for y in ys if len(y)),
                                                                          default=0.0)
    step_y = 0.012 * max(span, 3.0) if dodge and len(shown) > 1 and span <= DODGE_SPAN else 0.0
    for i, s in enumerate(shown):
        n = int((~np.isnan(s.y)).sum())
        marker = "o" if n <= 25 and not step else None
        offset = (i - (len(shown) - 1) / 2) * step_y
        ax.plot(s.x, s.y + offset, color=s.colour or colours[i], lw=1.8, marker=marker, ms=3.5, label=s.label,
                zorder=3, **style)
    if rest:
        ax.plot([], [], color=GREY, lw=0.9, label=others_label)


def end_markers(ax: Axes, series: list[Series], markers: dict[str, tuple[str, str]]) -> list[Line2D]:
    """A marker at the end of each line whose ``end_marker`` names one of ``markers`` (name →
    (marker, label)); returns legend handles for the markers used."""
    used: dict[str, Line2D] = {}
    for s in series:
        if s.end_marker not in markers:
            continue
        ok = ~np.isnan(s.y)
        if not ok.any():
            continue
        i = int(np.flatnonzero(ok)[-1])
        mk, label = markers[s.end_marker]
        line = next((ln for ln in ax.get_lines() if ln.get_label() == s.label), None)
        colour = line.get_color() if line is not None else "black"
        y = float(np.asarray(line.get_ydata(), dtype=float)[i]) if line is not None else float(s.y[i])
        ax.plot([s.x[i]], [y], marker=mk, ms=9, color=colour, mec="black", mew=0.8, ls="none", zorder=4)
        used.setdefault(s.end_marker, Line2D([], [], marker=mk, ms=8, color="white", mec="black", ls="none",
                                             label=label))
    return [used[k] for k in markers if k in used]


def draw_band(ax: Axes, x: Sequence[float], lo: Sequence[float], mid: Sequence[float], hi: Sequence[float], *,
              colour: str, band_label: str, mid_label: str, step: bool = False) -> None:
    """The median as a line over its 10th–90th percentile band."""
    kw: dict[str, Any] = {"step": "post"} if step else {}
    ax.fill_between(x, lo, hi, color=colour, alpha=0.25, lw=0, label=band_label, **kw)
    ax.plot(x, mid, color=colour, lw=2, label=mid_label, drawstyle="steps-post" if step else "default")


def legend_outside(ax: Axes, extra: list[Any] | None = None, *, title: str | None = None) -> None:
    """The legend to the right of the axes, so that it never hides a line."""
    handles, labels = ax.get_legend_handles_labels()
    for h in extra or []:
        handles.append(h)
        labels.append(h.get_label())
    if handles:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title=title,
                  title_fontsize=8, frameon=False)


def note(ax: Axes, text: str) -> None:
    """A line of text inside the axes, top left (e.g. why a panel is flat)."""
    ax.text(0.01, 0.97, text, transform=ax.transAxes, ha="left", va="top", fontsize=8, color="#444444")


# A count that spans at most HEAT_SPAN whole numbers, over at least HEAT_ROWS factions, reads better as
# a grid (faction × time, one shade per value) than as lines that keep landing on each other.
HEAT_SPAN = 12
HEAT_ROWS = 5


def draw_heatmap(ax: Axes, labels: list[str], x: Sequence[float], values: Any, *, label: str) -> Any:
    """One row per faction, one column per time, a shade per whole number (legend: a colour bar with
    one tick per value); the numbers are written in the cells when they fit."""
    from matplotlib import colormaps
    from matplotlib.colors import BoundaryNorm, ListedColormap

    m = np.asarray(values, dtype=float)
    lo = int(np.nanmin(m)) if np.isfinite(m).any() else 0
    hi = int(np.nanmax(m)) if np.isfinite(m).any() else 0
    n = hi - lo + 1
    shades = colormaps["Blues"](np.linspace(0.08, 0.95, max(n, 2)))[:n] if n > 1 else colormaps["Blues"]([0.45])
    cmap = ListedColormap(shades).with_extremes(bad="white")
    norm = BoundaryNorm(np.arange(lo - 0.5, hi + 1.5), cmap.N)
    xs = np.asarray(x, dtype=float)
    mids = (xs[1:] + xs[:-1]) / 2 if len(xs) > 1 else np.array([])
    first = xs[0] - (mids[0] - xs[0] if len(mids) else 0.5)
    last = xs[-1] + (xs[-1] - mids[-1] if len(mids) else 0.5)
    edges = np.concatenate([[first], mids, [last]])
    mesh = ax.pcolormesh(edges, np.arange(len(labels) + 1) - 0.5, np.ma.masked_invalid(m), cmap=cmap, norm=norm,
                         edgecolors="white", linewidth=0.4)
    ax.set_yticks(range(len(labels)), [plain(x) for x in labels], fontsize=8)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    bar = ax.figure.colorbar(mesh, ax=ax, ticks=range(lo, hi + 1), pad=0.01, aspect=12)
    bar.set_label(label, fontsize=9)
    if m.shape[1] <= 25 and m.shape[0] <= 16:
        for (r, c), v in np.ndenumerate(m):
            if np.isfinite(v):
                dark = (v - lo) / max(n - 1, 1) > 0.55
                ax.text(float(xs[c]), r, f"{int(v)}", ha="center", va="center", fontsize=7,
                        color="white" if dark else "black")
    return mesh
