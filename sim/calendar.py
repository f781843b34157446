"""The one calendar (LINK-01, GEN-07): integer hours.

day = 24 h, month = 30 days (a kingdom turn), season = 3 months (a guild and a Mare Nostrum turn),
year = 4 seasons. Turns begin at hour 0 of their period. When several things happen at the same
hour they run in the fixed order of ``Phase`` (KM, MN, GW, then the convoys' hour), and inside a
system in ascending faction id — never in creation order.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

HOURS_PER_DAY = 24
DAYS_PER_MONTH = 30
MONTHS_PER_SEASON = 3
SEASONS_PER_YEAR = 4

HOURS_PER_MONTH = HOURS_PER_DAY * DAYS_PER_MONTH  # 720
HOURS_PER_SEASON = HOURS_PER_MONTH * MONTHS_PER_SEASON  # 2160
HOURS_PER_YEAR = HOURS_PER_SEASON * SEASONS_PER_YEAR  # 8640
DAYS_PER_SEASON = DAYS_PER_MONTH * MONTHS_PER_SEASON
DAYS_PER_YEAR = DAYS_PER_SEASON * SEASONS_PER_YEAR

SEASON_NAMES = {"en": ("spring", "summer", "autumn", "winter"), "fr": ("printemps", "été", "automne", "hiver")}


class Phase(IntEnum):
    """Tie order at one instant (LINK-01). Lower runs first."""

    KM = 1
    MN = 2
    GW = 3
    CV = 4


@dataclass(frozen=True, slots=True)
class Date:
    """A calendar position; every field is 0-based except ``day``/``month``/``year`` (1-based)."""

    year: int
    season: int  # 0..3
    month: int  # 1..12 within the year
    day: int  # 1..30 within the month
    hour: int  # 0..23

    def format(self, lang: str = "en") -> str:
        s = SEASON_NAMES.get(lang, SEASON_NAMES["en"])[self.season]
        y = "Y" if lang == "en" else "An "
        return f"{y}{self.year} {s} M{self.month} D{self.day} {self.hour:02d}h"


def date_of(hour: int) -> Date:
    year, rest = divmod(hour, HOURS_PER_YEAR)
    month0, rest = divmod(rest, HOURS_PER_MONTH)
    day0, h = divmod(rest, HOURS_PER_DAY)
    return Date(year + 1, month0 // MONTHS_PER_SEASON, month0 + 1, day0 + 1, h)


def day_index(hour: int) -> int:
    """0-based day number of an hour."""
    return hour // HOURS_PER_DAY


def month_index(hour: int) -> int:
    """0-based month (kingdom turn) number of an hour."""
    return hour // HOURS_PER_MONTH


def season_index(hour: int) -> int:
    """0-based season (guild / Mare Nostrum turn) number of an hour."""
    return hour // HOURS_PER_SEASON


def hours(*, years: int = 0, seasons: int = 0, months: int = 0, days: int = 0, hours: int = 0) -> int:
    return years * HOURS_PER_YEAR + seasons * HOURS_PER_SEASON + months * HOURS_PER_MONTH + days * HOURS_PER_DAY + hours


def priority(phase: int, index: int = 0) -> int:
    """SimPy priority for something of ``phase`` done by the ``index``-th faction (ascending id)."""
    return 10 + int(phase) * 1_000_000 + index


def span_words(span: int, lang: str = "en") -> str:
    """A span of hours in words, exact: whole months ("3 months", "3 mois"), else days and hours
    ("7 days 18 hours", "7 jours 18 heures"); under a day, hours."""
    fr = lang == "fr"

    def unit(n: int, en: str, fr_word: str) -> str:
        word = fr_word if fr else en
        if n > 1 and not word.endswith("s"):
            word += "s"
        return f"{n} {word}"

    if span >= HOURS_PER_MONTH and span % HOURS_PER_MONTH == 0:
        return unit(span // HOURS_PER_MONTH, "month", "mois")
    d, h = divmod(max(0, span), HOURS_PER_DAY)
    parts = ([unit(d, "day", "jour")] if d else []) + ([unit(h, "hour", "heure")] if h or not d else [])
    return " ".join(parts)
