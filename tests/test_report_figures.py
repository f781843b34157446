"""The report's figures, checked on matplotlib's objects rather than on pixels: every panel names its
system and faction kind, has a legend (or a colour bar), units on its axes, whole-number ticks for
counts, no two labelled lines of one colour; many lines become the top six and grey, many caravans a
band; a short caravan crossing is drawn day by day."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.collections import PolyCollection, QuadMesh
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from agents.campaign import run_campaign
from sim.calendar import HOURS_PER_SEASON
from workers.report import (
    distribution_figure,
    palette,
    render_png,
    run_figures,
    run_tables,
    standard_figure,
)
from workers.report.draw import GREY

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`

SYSTEM_TITLE = re.compile(r"^(Kingdoms \(KM\)|Nations \(MN\)|Guilds \(GW\)|Caravans \(CV\)) — \S")
SYSTEM_TITLE_FR = re.compile(r"^(Royaumes \(KM\)|Nations \(MN\)|Guildes \(GW\)|Convois \(CV\)) — \S")


@pytest.fixture(scope="module")
def realm() -> Any:
    """Six seasons of realm: 4 kingdoms, 3 nations, 14 guilds, dozens of caravans."""
    return run_tables(list(run_campaign("realm", 1, until=6 * HOURS_PER_SEASON, collect=False).ledger.events))


@pytest.fixture(scope="module")
def realm_figures(realm: Any) -> dict[str, Figure]:
    return run_figures(realm)


@pytest.fixture(scope="module")
def crossing() -> Any:
    return run_tables(list(run_campaign("caravan-crossing", 1, collect=False).ledger.events))


def _panels(fig: Figure) -> list[Axes]:
    """The figure's panels (a colour bar is an axes too, but has no title)."""
    return [ax for ax in fig.axes if ax.get_title(loc="left")]


def _is_heatmap(ax: Axes) -> bool:
    return any(isinstance(c, QuadMesh) for c in ax.collections)


def _labelled_lines(ax: Axes) -> list[Any]:
    return [ln for ln in ax.get_lines() if not str(ln.get_label()).startswith("_")]


def _integer_ticks(values: Any) -> bool:
    return all(float(v).is_integer() for v in values)


def test_every_panel_names_its_system_and_kind_and_has_a_legend_and_units(realm_figures: dict[str, Figure]) -> None:
    assert {"treasury", "unrest", "territory", "armies", "treaties", "caravans", "journeys"} <= set(realm_figures)
    for name, fig in realm_figures.items():
        assert fig.get_suptitle().endswith("realm, seed 1"), name
        panels = _panels(fig)
        assert panels, name
        for ax in panels:
            title = ax.get_title(loc="left")
            assert SYSTEM_TITLE.match(title), (name, title)
            if _is_heatmap(ax):  # a grid: one row per faction, a colour bar for its legend
                bars = [a for a in fig.axes if a is not ax and not a.get_title(loc="left") and a.get_ylabel()]
                assert bars and ax.get_yticklabels(), (name, title)
                continue
            if name != "journeys":
                assert ax.get_legend() is not None or any(a.get_legend() for a in panels), (name, title)
            label = ax.get_ylabel() or "".join(a.get_ylabel() for a in ax.get_shared_y_axes().get_siblings(ax))
            assert label and "." not in label and "_" not in label, (name, title, label)  # never a raw key
        assert panels[-1].get_xlabel() in ("Season", "Day of the journey", "Days on the road (days)", "Days"), name


def test_axis_labels_carry_units(realm_figures: dict[str, Figure]) -> None:
    treasury = {ax.get_title(loc="left"): ax.get_ylabel() for ax in _panels(realm_figures["treasury"])}
    assert treasury == {"Kingdoms (KM) — Treasury": "Treasury (BP)", "Nations (MN) — Treasury": "Treasury (PO)",
                        "Guilds (GW) — Solars": "Solars"}
    caravans = {ax.get_title(loc="left"): ax.get_ylabel() for ax in _panels(realm_figures["caravans"])}
    assert caravans["Caravans (CV) — Hit points"] == "Hit points (HP)"
    assert caravans["Caravans (CV) — Distance travelled"] == "Distance travelled (miles)"


def test_counts_have_whole_number_ticks(realm_figures: dict[str, Figure], crossing: Any) -> None:
    """No "0.5 armies": every per-season panel of realm is a count (BP, PO and solars are whole too)."""
    for name in ("treasury", "unrest", "territory", "armies", "treaties"):
        for ax in _panels(realm_figures[name]):
            assert _integer_ticks(ax.get_yticks()), (name, ax.get_title(loc="left"), ax.get_yticks())
            assert _integer_ticks(ax.get_xticks()), (name, "seasons")
        for bar in [a for a in realm_figures[name].axes if not a.get_title(loc="left")]:
            assert _integer_ticks(bar.get_yticks()), (name, "colour bar")
    for fig in (realm_figures["caravans"], standard_figure("caravans", crossing.seasons, days=crossing.days,
                                                          journeys=crossing.journeys, info=crossing.info)):
        assert fig is not None
        for ax in _panels(fig):
            if "Distance" not in ax.get_title(loc="left"):  # miles are decimals
                assert _integer_ticks(ax.get_yticks()), ax.get_title(loc="left")
            assert _integer_ticks(ax.get_xticks())


def test_no_two_labelled_lines_of_a_panel_share_a_colour(realm_figures: dict[str, Figure], crossing: Any) -> None:
    figures = [*realm_figures.values(), standard_figure("caravans", crossing.seasons, days=crossing.days,
                                                        journeys=crossing.journeys, info=crossing.info)]
    checked = 0
    for fig in figures:
        assert fig is not None
        for ax in _panels(fig):
            colours = [to_hex(ln.get_color()) for ln in _labelled_lines(ax)]
            assert len(colours) == len(set(colours)), (fig.get_suptitle(), ax.get_title(loc="left"), colours)
            checked += len(colours) > 1
    assert checked > 20


def test_a_panel_of_many_factions_shows_the_top_six_and_greys_the_rest(realm: Any,
                                                                       realm_figures: dict[str, Figure]) -> None:
    (ax,) = [a for a in _panels(realm_figures["treasury"]) if a.get_title(loc="left") == "Guilds (GW) — Solars"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    # the six richest guilds at the last snapshot, from the table itself
    s = realm.seasons
    last = s[(s["kind"] == "guild") & (s["hour"] == s["hour"].max())]
    richest = last.sort_values("gw.solars", ascending=False)["faction"].str.partition(":")[2].tolist()
    assert len(richest) == 14
    assert legend[-1] == "8 other guilds"
    assert legend[:6] == richest[:6] or last["gw.solars"].nlargest(7).iloc[-2:].nunique() == 1
    grey = [ln for ln in ax.get_lines() if to_hex(ln.get_color()) == GREY and str(ln.get_label()).startswith("_")]
    assert len(grey) == 8


def test_many_caravans_are_a_median_over_a_band(realm_figures: dict[str, Figure]) -> None:
    panels = _panels(realm_figures["caravans"])
    assert panels[0].get_title(loc="left") == "Caravans (CV) — Convoys on the road"
    for ax in panels[1:]:
        assert any(isinstance(c, PolyCollection) for c in ax.collections), ax.get_title(loc="left")
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert labels[0] == "each convoy" and "10th–90th percentile" in labels
        assert any(lb.startswith("median of the convoys on the road") for lb in labels)


def test_a_short_crossing_is_drawn_day_by_day_with_how_each_caravan_ended(crossing: Any) -> None:
    fig = standard_figure("caravans", crossing.seasons, days=crossing.days, journeys=crossing.journeys,
                          info=crossing.info)
    assert fig is not None and fig.get_suptitle() == "Caravans day by day — caravan-crossing, seed 1"
    first = _panels(fig)[0]
    lines = _labelled_lines(first)
    assert [ln.get_label() for ln in lines] == ["amber", "brass", "cobalt", "dune", "ember", "flint"]
    assert all(len(ln.get_xdata()) > 5 for ln in lines)  # a line a day, not two points
    legend = [t.get_text() for t in first.get_legend().get_texts()]
    assert legend[-2:] == ["arrived", "destroyed"]
    assert _panels(fig)[-1].get_xlabel() == "Day of the journey"
    journeys = standard_figure("journeys", crossing.seasons, days=crossing.days, journeys=crossing.journeys,
                               info=crossing.info)
    assert journeys is not None
    bars = _panels(journeys)[0]
    assert [t.get_text() for t in bars.get_yticklabels()] == ["amber", "brass", "cobalt", "dune", "ember", "flint"]
    assert [t.get_text() for t in journeys.legends[0].get_texts()] == ["arrived", "destroyed"]


def test_plots_in_french_use_the_seeds_terms(realm: Any) -> None:
    fig = standard_figure("treasury", realm.seasons, info=realm.info, lang="fr")
    assert fig is not None and fig.get_suptitle() == "Trésorerie — realm, graine 1"
    panels = _panels(fig)
    assert all(SYSTEM_TITLE_FR.match(ax.get_title(loc="left")) for ax in panels)
    assert panels[0].get_title(loc="left") == "Royaumes (KM) — Trésorerie" and panels[0].get_ylabel() == "Trésorerie (PC)"
    assert panels[-1].get_xlabel() == "Saison"
    unrest = standard_figure("unrest", realm.seasons, info=realm.info, lang="fr")
    assert unrest is not None and _panels(unrest)[0].get_title(loc="left") == "Royaumes (KM) — Insatisfaction"
    caravans = standard_figure("caravans", realm.seasons, days=realm.days, journeys=realm.journeys, lang="fr")
    assert caravans is not None
    assert "Convois (CV) — Niveau de Troubles" in [ax.get_title(loc="left") for ax in _panels(caravans)]


def test_a_batch_histogram_of_a_count_has_whole_number_bins_a_title_and_units() -> None:
    rng = np.random.default_rng(7)
    batch = pd.DataFrame({"seed": range(1, 41), "scenario": "caravan-crossing",
                          "cv.arrived": pd.array(rng.integers(0, 7, 40), dtype="Int64"),
                          "cv.gp_spent": pd.array(rng.integers(800, 1900, 40), dtype="Int64"),
                          "cv.mean_days_to_arrive": rng.uniform(9, 16, 40).round(2)})
    fig = distribution_figure(batch, "cv.arrived")
    ax = _panels(fig)[0]
    assert ax.get_title(loc="left") == "Caravans (CV) — Convoys arrived"
    assert fig.get_suptitle() == "Distributions — caravan-crossing, across 40 seeds"
    assert ax.get_xlabel() == "Convoys arrived" and ax.get_ylabel() == "Seeds"
    bars = ax.patches
    assert sum(p.get_height() for p in bars) == 40
    assert all(float(p.get_x() + 0.5).is_integer() and p.get_width() == 1 for p in bars)  # a bar per whole number
    assert _integer_ticks(ax.get_xticks()) and _integer_ticks(ax.get_yticks())
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0].startswith("median ") and legend[1].startswith("mean ")
    money = _panels(distribution_figure(batch, "cv.gp_spent"))[0]
    assert money.get_xlabel() == "Money spent (gp)"
    assert all(float(p.get_width()).is_integer() and float(p.get_x() + 0.5).is_integer() for p in money.patches)
    days = _panels(distribution_figure(batch, "cv.mean_days_to_arrive"))[0]
    assert days.get_xlabel() == "Mean time to arrive (days)"


def test_the_palette_never_repeats_and_keeps_grey_for_the_others() -> None:
    for n in range(1, 101):
        colours = palette(n)
        assert len(colours) == n and len(set(colours)) == n, n
        assert GREY not in colours and "#7f7f7f" not in colours


def test_render_png_gives_one_standard_plot_for_a_server(crossing: Any) -> None:
    events = list(run_campaign("caravan-crossing", 1, collect=False).ledger.events)
    png = render_png(events, "caravans")
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert render_png(events, "unrest") is None  # no kingdoms in a caravan crossing
    with pytest.raises(ValueError, match="plot 'nope': expected one of treasury, unrest"):
        render_png(events, "nope")
    with pytest.raises(ValueError, match="lang 'de': expected one of en, fr"):
        render_png(events, "caravans", lang="de")
