"""The tables a report is drawn from, read from a run's ledger or a batch's results file.

* :func:`season_table` — one row per season snapshot and faction (``SeasonSummarized`` and the final
  ``CampaignEnded``), one column per metric *and system*: the engine writes ``unrest`` for a kingdom
  and for a caravan, the table has ``km.unrest`` and ``cv.unrest``. Whole numbers stay whole (pandas
  ``Int64``, empty where a faction of another kind has no such metric).
* :func:`convoy_days` and :func:`convoy_journeys` — caravans live for days, not seasons: their day by
  day state (HP, Unrest, provisions, miles) is rebuilt from the CV events that carry the values after
  a change (``DamageTaken.after``, ``UnrestRose.after``, ``ProvisionsConsumed.left``…), anchored on
  every snapshot of the ledger. The ledger itself is never changed.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd

from scenarios.inputs import InputFileError, open_input
from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON
from sim.events import Event
from workers.report.ledger import MAX_DENOMINATOR, ReportError, miles_of, read_events
from workers.report.names import KINDS, SYSTEM_OF_KIND

__all__ = ["ReportError", "campaign_info", "convoy_days", "convoy_journeys", "read_batch", "read_events",
           "season_table", "whole_numbers"]


# ---- reading ----------------------------------------------------------------------------------------
def read_batch(path: Path) -> Any:
    """A ``realmsim batch`` results file as a DataFrame (whole numbers as ``Int64``)."""
    try:
        with open_input(path, "table") as f:  # a regular file under its cap, never a FIFO (issue 30)
            df = pd.read_parquet(f) if path.suffix == ".parquet" else pd.read_csv(f)
    except InputFileError as e:
        raise ReportError(str(e)) from None
    except Exception as e:
        raise ReportError(f"{path}: not a readable {path.suffix} table ({type(e).__name__}: {e})") from None
    if "seed" not in df.columns:
        raise ReportError(f"{path}: not a realmsim batch table (no 'seed' column)")
    return whole_numbers(df)


def campaign_info(events: list[Event]) -> dict[str, Any]:
    """Scenario, seed, systems and end hour from ``CampaignStarted`` (empty if the ledger lacks it)."""
    for ev in events[:5]:
        if ev.kind == "CampaignStarted":
            return dict(ev.data)
    return {}


# ---- dtypes -----------------------------------------------------------------------------------------
def _is_whole(values: Iterable[Any]) -> bool:
    seen = False
    for v in values:
        if v is None or (isinstance(v, float) and v != v):
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            return False
        seen = True
    return seen


def whole_numbers(df: Any) -> Any:
    """Every numeric column whose values are all whole numbers becomes ``Int64`` (nulls allowed)."""
    out = df.copy()
    for c in out.columns:
        s = out[c]
        if pd.api.types.is_bool_dtype(s) or not pd.api.types.is_numeric_dtype(s):
            continue
        if pd.api.types.is_integer_dtype(s):
            out[c] = s.astype("Int64")
            continue
        v = s.dropna()
        if len(v) and (v == v.round()).all() and v.abs().max() < 2**53:
            out[c] = s.astype("Int64")
    return out


def _column(values: list[Any]) -> Any:
    if _is_whole(values):
        return pd.array(values, dtype="Int64")
    if all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values):
        return pd.array([None if v is None else float(v) for v in values], dtype="float64")
    return pd.array([None if v is None else str(v) for v in values], dtype="string")


# ---- the season table -------------------------------------------------------------------------------
def kind_of(faction: str) -> str:
    """``kingdom:brevoy`` → ``kingdom``."""
    return faction.partition(":")[0]


def column_of(faction: str, metric: str) -> str:
    """The season table's column of a faction's metric: ``km.unrest`` for a kingdom's ``unrest``."""
    system = SYSTEM_OF_KIND.get(kind_of(faction), kind_of(faction))
    return f"{system}.{metric}"


_SYSTEM_ORDER = {s: i for i, s in enumerate(SYSTEM_OF_KIND.values())}


def season_table(events: list[Event]) -> Any:
    """One row per snapshot and faction: ``season``, ``hour``, ``faction``, ``kind``, then one column
    per system and metric (``km.treasury``, ``mn.treasury``, ``cv.unrest``…).

    ``season`` is the snapshot's season: whole (``Int64``) when every snapshot falls on a season's
    start, as in every campaign of a whole number of seasons; a campaign that ends inside a season
    (``caravan-crossing``: 60 days) has its last row at a fraction of a season and the column is then
    a decimal (rounded to 0.01). ``hour`` is always exact.
    """
    rows: list[dict[str, Any]] = []
    for ev in events:
        if ev.kind == "SeasonSummarized":
            hour = ev.t
        elif ev.kind == "CampaignEnded":
            hour = ev.t
        else:
            continue
        for faction, metrics in ev.data.get("factions", {}).items():
            row: dict[str, Any] = {"hour": hour, "faction": faction, "kind": kind_of(faction)}
            for m, v in metrics.items():
                row[column_of(faction, m)] = v
            rows.append(row)
    if not rows:
        raise ReportError("the ledger has no SeasonSummarized events (was it written by realmsim run --ledger?)")
    metrics = sorted({k for r in rows for k in r} - {"hour", "faction", "kind"},
                     key=lambda c: (_SYSTEM_ORDER.get(c.partition(".")[0], 99), c))
    rows.sort(key=lambda r: (r["hour"], r["faction"]))
    hours = [r["hour"] for r in rows]
    seasons: Any
    if all(h % HOURS_PER_SEASON == 0 for h in hours):
        seasons = pd.array([h // HOURS_PER_SEASON for h in hours], dtype="Int64")
    else:
        seasons = pd.array([round(h / HOURS_PER_SEASON, 2) for h in hours], dtype="float64")
    data: dict[str, Any] = {
        "season": seasons,
        "hour": pd.array(hours, dtype="int64"),
        "faction": pd.array([r["faction"] for r in rows], dtype="string"),
        "kind": pd.array([r["kind"] for r in rows], dtype="string"),
    }
    for c in metrics:
        data[c] = _column([r.get(c) for r in rows])
    return pd.DataFrame(data)


def metric_columns(df: Any) -> list[str]:
    """The metric columns of a season or convoy-day table (not the identity columns)."""
    return [c for c in df.columns if "." in c]


# ---- caravans day by day -----------------------------------------------------------------------------
@dataclass
class _Track:
    """One convoy's state as the events change it, and its history [(hour, state)]."""

    hp: int = 0
    max_hp: int = 0
    unrest: int = 0
    provisions: int = 0
    miles: Fraction = Fraction(0)
    status: str = "travelling"
    set_out: int | None = None
    end: int | None = None
    origin: str = ""
    destination: str = ""
    hp_start: int = 0
    unrest_peak: int = 0
    cause: str = ""
    hours: list[int] = field(default_factory=list)
    states: list[tuple[int, int, int, int, float, str]] = field(default_factory=list)

    def record(self, hour: int) -> None:
        self.unrest_peak = max(self.unrest_peak, self.unrest)
        state = (self.hp, self.max_hp, self.unrest, self.provisions, round(float(self.miles), 2), self.status)
        if self.hours and self.hours[-1] == hour:
            self.states[-1] = state
        else:
            self.hours.append(hour)
            self.states.append(state)

    def at(self, hour: int) -> tuple[int, int, int, int, float, str] | None:
        """The state after every event up to and including ``hour``."""
        i = bisect.bisect_right(self.hours, hour)
        return self.states[i - 1] if i else None


def _miles(v: Any) -> Fraction:
    """A distance the reading boundary checked (workers.report.ledger.miles_of); 0 if it is not one."""
    return miles_of(v) or Fraction(0)


def _add_miles(total: Fraction, v: Any) -> Fraction:
    """``total + v``, its denominator kept small (a ledger of odd fractions cannot make the sum grow without end)."""
    out = total + _miles(v)
    return out.limit_denominator(MAX_DENOMINATOR) if out.denominator > MAX_DENOMINATOR else out


def _apply(tr: _Track, ev: Event) -> None:
    d = ev.data
    k = ev.kind
    if k == "ConvoySetOut":
        tr.set_out = ev.t
        tr.hp, tr.provisions = int(d.get("hp", tr.hp)), int(d.get("provisions", tr.provisions))
        tr.hp_start = tr.hp
        tr.max_hp = max(tr.max_hp, tr.hp)
        tr.origin, tr.destination = str(d.get("origin", "")), str(d.get("destination", ""))
        tr.status = "travelling"
    elif k in ("DamageTaken", "StarvationDamageTaken"):
        tr.hp, tr.max_hp = int(d["after"]), int(d.get("max_hp", tr.max_hp))
    elif k == "WagonLost":
        tr.hp, tr.max_hp = int(d["hp_after"]), int(d.get("max_hp", tr.max_hp))
    elif k in ("WagonBought", "ConvoyRepaired", "CombatEnded"):
        tr.hp, tr.max_hp = int(d.get("hp", tr.hp)), int(d.get("max_hp", tr.max_hp))
    elif k in ("UnrestRose", "UnrestFell"):
        tr.unrest = int(d["after"])
    elif k in ("MutinyBegan", "MutinyEnded"):
        tr.unrest = int(d.get("unrest", tr.unrest))
    elif k in ("ProvisionsConsumed", "ProvisionsLost"):
        tr.provisions = int(d["left"])
    elif k == "StoresBought":
        tr.provisions = int(d["provisions"])
    elif k == "CargoLeftBehind" and ev.outcome == "provisions":
        tr.provisions -= int(ev.total or 0)
    elif k == "ConvoyTravelled":
        tr.miles = _add_miles(tr.miles, d.get("miles", 0))
    elif k == "ConvoyArrived":
        tr.status = "arrived"
        tr.end = int(d.get("hour", ev.t))
        tr.hp, tr.max_hp = int(d.get("hp", tr.hp)), int(d.get("max_hp", tr.max_hp))
        tr.provisions, tr.unrest = int(d.get("provisions", tr.provisions)), int(d.get("unrest", tr.unrest))
        if "miles" in d:
            tr.miles = _miles(d["miles"])
    elif k == "ConvoyDestroyed":
        tr.status, tr.hp, tr.end = "destroyed", 0, ev.t
        tr.cause = str(d.get("cause", ""))
    else:
        return
    tr.record(ev.t)


def _anchor(tr: _Track, m: dict[str, Any], hour: int) -> None:
    """A snapshot is the truth: it corrects what no event says (e.g. HP a level's feat adds)."""
    tr.hp = int(m.get("hp", tr.hp))
    tr.unrest = int(m.get("unrest", tr.unrest))
    tr.provisions = int(m.get("provisions", tr.provisions))
    if "miles" in m:
        tr.miles = _miles(m["miles"])
    tr.status = str(m.get("status", tr.status))
    tr.record(hour)


def _tracks(events: list[Event]) -> tuple[dict[str, _Track], int]:
    tracks: dict[str, _Track] = {}
    last = 0
    for ev in events:
        last = max(last, ev.t)
        if ev.system == "cv" and ev.actor.startswith("convoy:"):
            _apply(tracks.setdefault(ev.actor, _Track()), ev)
        elif ev.kind in ("SeasonSummarized", "CampaignEnded"):
            for faction, m in ev.data.get("factions", {}).items():
                if kind_of(faction) != "convoy":
                    continue
                tr = tracks.setdefault(faction, _Track())
                if tr.set_out is None or tr.end is None or tr.end >= ev.t:
                    _anchor(tr, m, ev.t)
    return {c: tr for c, tr in sorted(tracks.items()) if tr.set_out is not None}, last


MAX_CONVOY_DAYS = 5_000_000  # rows of convoy_days: 100 convoys on the road for 100 years fit (3.6 million)


def convoy_days(events: list[Event]) -> Any:
    """One row per convoy and day of its journey, from the day it sets out to the day it arrives or is
    destroyed (or the ledger's last day): ``convoy``, ``day`` (of the campaign), ``journey_day``
    (0 on the day it sets out), then ``cv.hp``, ``cv.max_hp``, ``cv.unrest``, ``cv.provisions``,
    ``cv.miles`` and ``cv.status`` at the end of that day."""
    tracks, last = _tracks(events)
    spans = {c: (tr.set_out or 0) // HOURS_PER_DAY for c, tr in tracks.items()}
    total = sum(max(0, (tr.end if tr.end is not None else last) // HOURS_PER_DAY - spans[c] + 1) for c, tr in tracks.items())
    if total > MAX_CONVOY_DAYS:
        raise ReportError(f"the ledger's convoys are on the road {total:,} days in all; a report draws at most "
                          f"{MAX_CONVOY_DAYS:,} convoy-days".replace(",", " "))
    rows: list[tuple[Any, ...]] = []
    for convoy, tr in tracks.items():
        assert tr.set_out is not None
        first = spans[convoy]
        end = (tr.end if tr.end is not None else last) // HOURS_PER_DAY
        for day in range(first, end + 1):
            st = tr.at(min((day + 1) * HOURS_PER_DAY - 1, last))
            if st is not None:
                rows.append((convoy, day, day - first, *st))
    cols = ["convoy", "day", "journey_day", "cv.hp", "cv.max_hp", "cv.unrest", "cv.provisions", "cv.miles", "cv.status"]
    df = pd.DataFrame(rows, columns=cols)
    for c in ("day", "journey_day", "cv.hp", "cv.max_hp", "cv.unrest", "cv.provisions"):
        df[c] = df[c].astype("Int64")
    df["cv.miles"] = df["cv.miles"].astype("float64")
    for c in ("convoy", "cv.status"):
        df[c] = df[c].astype("string")
    return df


def convoy_journeys(events: list[Event]) -> Any:
    """One row per convoy: where from and to, when it set out and ended (hours; ``days`` between,
    empty while still travelling), how (``arrived``, ``destroyed``, ``travelling``), and its HP, Unrest
    peak, provisions and miles at the end."""
    tracks, last = _tracks(events)
    rows = []
    for convoy, tr in tracks.items():
        assert tr.set_out is not None
        rows.append({
            "convoy": convoy, "origin": tr.origin, "destination": tr.destination, "set_out_hour": tr.set_out,
            "end_hour": tr.end, "days": None if tr.end is None else round((tr.end - tr.set_out) / HOURS_PER_DAY, 2),
            "outcome": tr.status, "cause": tr.cause, "cv.hp_start": tr.hp_start, "cv.hp": tr.hp,
            "cv.max_hp": tr.max_hp, "cv.unrest_peak": tr.unrest_peak, "cv.unrest": tr.unrest,
            "cv.provisions": tr.provisions, "cv.miles": round(float(tr.miles), 2),
        })
    cols = ["convoy", "origin", "destination", "set_out_hour", "end_hour", "days", "outcome", "cause", "cv.hp_start",
            "cv.hp", "cv.max_hp", "cv.unrest_peak", "cv.unrest", "cv.provisions", "cv.miles"]
    df = pd.DataFrame(rows, columns=cols)
    for c in ("set_out_hour", "end_hour", "cv.hp_start", "cv.hp", "cv.max_hp", "cv.unrest_peak", "cv.unrest",
              "cv.provisions"):
        df[c] = df[c].astype("Int64")
    df["days"] = df["days"].astype("float64")
    df["cv.miles"] = df["cv.miles"].astype("float64")
    for c in ("convoy", "origin", "destination", "outcome", "cause"):
        df[c] = df[c].astype("string")
    return df


def kinds_in(df: Any) -> list[str]:
    """The faction kinds of a season table, in the systems' order."""
    present = set(df["kind"].dropna().unique()) if len(df) else set()
    return [k for k in KINDS if k in present] + sorted(present - set(KINDS))
