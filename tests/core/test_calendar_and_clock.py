"""The one calendar and the tie order at one instant (LINK-01, GEN-07)."""

from __future__ import annotations

import simpy

from agents.clock import At
from sim.calendar import (
    HOURS_PER_DAY,
    HOURS_PER_MONTH,
    HOURS_PER_SEASON,
    HOURS_PER_YEAR,
    Phase,
    date_of,
    hours,
    month_index,
    priority,
    season_index,
)


def test_calendar_units_are_day_24_month_30_season_3_year_4() -> None:
    assert (HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_SEASON, HOURS_PER_YEAR) == (24, 720, 2160, 8640)
    assert hours(years=1, seasons=1, months=1, days=1, hours=1) == 8640 + 2160 + 720 + 24 + 1


def test_dates() -> None:
    d = date_of(0)
    assert (d.year, d.season, d.month, d.day, d.hour) == (1, 0, 1, 1, 0)
    d = date_of(HOURS_PER_YEAR + HOURS_PER_SEASON * 2 + HOURS_PER_MONTH + 3 * 24 + 6)
    assert (d.year, d.season, d.month, d.day, d.hour) == (2, 2, 8, 4, 6)
    assert d.format("en") == "Y2 autumn M8 D4 06h"
    assert d.format("fr") == "An 2 automne M8 D4 06h"
    assert month_index(HOURS_PER_SEASON) == 3 and season_index(HOURS_PER_YEAR - 1) == 3


def test_tie_order_is_km_mn_gw_cv_then_faction_rank_whatever_the_creation_order() -> None:
    env = simpy.Environment()
    log: list[str] = []

    def wake(name: str, phase: Phase, rank: int):  # type: ignore[no-untyped-def]
        yield At(env, 720, priority(phase, rank))
        log.append(name)

    # created in the worst possible order
    for name, phase, rank in [("cv0", Phase.CV, 0), ("gw1", Phase.GW, 1), ("gw0", Phase.GW, 0),
                              ("mn0", Phase.MN, 0), ("km2", Phase.KM, 2), ("km0", Phase.KM, 0)]:
        env.process(wake(name, phase, rank))
    env.run()
    assert log == ["km0", "km2", "mn0", "gw0", "gw1", "cv0"]


def test_a_span_is_told_exactly_in_english_and_french() -> None:
    from sim.calendar import span_words

    assert span_words(3 * 720) == "3 months" and span_words(3 * 720, "fr") == "3 mois"
    assert span_words(720) == "1 month"
    assert span_words(186) == "7 days 18 hours" and span_words(186, "fr") == "7 jours 18 heures"
    assert span_words(240) == "10 days" and span_words(24, "fr") == "1 jour"
    assert span_words(5) == "5 hours" and span_words(1) == "1 hour"
    assert span_words(750) == "31 days 6 hours"  # not a whole number of months
