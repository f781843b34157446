"""What a job tallies from its ledger as the campaign runs, for the findings of a report
(:mod:`workers.findings`, docs/research.md): compact figures, never the ledger itself.

A :class:`Signals` listens to the ledger (``Ledger.subscribe``); it reads events and changes nothing,
so ledgers and their digests stay as they were. At the end :meth:`Signals.result` gives three parts
of a job's result:

* ``decisions`` — ``{"KIND/POLICY": {"QUESTION": {"ORDER": count}}}``: every ``DecisionMade`` with at
  least two legal orders (a question with one answer is not a choice), by faction kind and policy,
  by the question (the clause IDs the event names, joined by ``+``) and by *order kind*
  (:func:`order_kind`: the chosen order's label without its arguments — ``recruit``, ``travel by
  night``, ``nothing``; a hex number becomes ``#``);
* ``signals`` — per faction (actor key): ``idle_months`` (the longest stretch with no act,
  :mod:`workers.quality`'s acts), ``anarchy_months`` (months in anarchy in all), ``anarchy_stuck_months``
  (months from the onset of an anarchy that never ended to the campaign's end; 0 otherwise),
  ``money_rise_seasons`` (how many season snapshots in a row, up to the end, the faction's money
  rose: a kingdom's or a nation's Treasury, a guild's solars; kingdoms, nations and guilds only); for a
  kingdom also ``buildings`` (``BuildingConstructed``), ``buildings_month_max`` (the most in one month),
  ``building_most`` and ``building_most_n`` (the kind it built most, and how many: the runaway finding);
* ``invariants`` — ``{"count": N, "first": "hour H: …"}``: the engine's invariant checks
  (``RealmModel.invariant_violations``) run at every season snapshot and at the end;
* ``series`` — the season snapshots of the kingdoms, nations and guilds (``SeasonSummarized`` and
  ``CampaignEnded``, their numeric metrics), column by column: ``{"hour": [...], "faction": [...],
  "METRIC": [...]}`` (``None`` where a faction of another kind has no such metric). Caravans live for
  days, not seasons: their end values are in ``factions``. A batch's season table is built from it
  (:mod:`workers.tidy`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sim.calendar import HOURS_PER_MONTH
from sim.events import Event
from workers.quality import ACT_EVENTS, is_act

if TYPE_CHECKING:
    from agents.model import RealmModel

MONEY = {"kingdom": "treasury", "nation": "treasury", "guild": "solars"}
_ARG = re.compile(r"[=:#(→0-9\[]")


@lru_cache(maxsize=1 << 14)
def order_kind(label: str) -> str:
    """The kind of an order from its label: the first comma-separated part, cut at the first word
    that carries an argument (``=``, ``:``, a digit, a bracket, an arrow) or a proper name (capital
    first letter), three words at most; ``#`` when nothing is left (a hex chosen by number).

    >>> order_kind("recruit units=siege_engine:1"), order_kind("travel by night, forage"), order_kind("112")
    ('recruit', 'travel by night', '#')
    >>> order_kind("trade food Mivon → Restov (restov), 5 BP")
    'trade food'
    """
    head = label.split(",", 1)[0].strip()
    words: list[str] = []
    for w in head.split():
        if _ARG.search(w) or (words and w[:1].isupper()) or len(words) == 3:
            break  # an argument, a proper name (a place, a kingdom), or enough words
        words.append(w)
    return " ".join(words)[:40] or "#"


# the act events (``ACT_EVENTS``) of each actor key's faction kind, by actor key (``_NO_FACTION``: the
# key of no faction kind ``ACT_EVENTS`` names); ``_CONVOY_ACTS`` is a convoy's (the kinds' sets are distinct objects)
_NO_FACTION: frozenset[str] = frozenset()
_CONVOY_ACTS = ACT_EVENTS["convoy"]
_ACTS_OF: dict[str, frozenset[str]] = {}

SERIES_KINDS = ("kingdom", "nation", "guild")
SIGNAL_NAMES = ("idle_months", "anarchy_months", "anarchy_stuck_months", "money_rise_seasons", "buildings",
                "buildings_month_max", "building_most", "building_most_n")


def is_tally_column(column: str) -> bool:
    """A batch table's column that holds a tally or a ``--set`` value, not a metric (reports draw
    no distribution of it)."""
    return (column.startswith(("set[", "decisions[")) or column in ("invariants", "invariant_first", "rotation")
            or column.split("[", 1)[0] in SIGNAL_NAMES)


class Signals:
    """A ledger listener that tallies decisions, acts, anarchy, money and invariant breaches."""

    def __init__(self, model: RealmModel | None = None) -> None:
        self.model = model
        self.decisions: dict[str, dict[str, dict[str, int]]] = {}
        self.start: dict[str, int] = {}
        self.acts: dict[str, list[int]] = {}
        self.convoy_end: dict[str, int] = {}
        self.ambassador_nation: dict[str, str] = {}
        self.anarchy_since: dict[str, int] = {}
        self.anarchy_hours: dict[str, int] = {}
        self.money_last: dict[str, float] = {}
        self.money_rise: dict[str, int] = {}
        self.invariant_count = 0
        self.invariant_first = ""
        self.end = 0
        self.series_rows: list[tuple[int, str, dict[str, Any]]] = []
        self.buildings: dict[str, dict[str, int]] = {}  # kingdom -> building kind -> count
        self.buildings_month: dict[tuple[str, int], int] = {}  # (kingdom, month) -> buildings

    # ---- the listener ----------------------------------------------------------------------------
    def __call__(self, ev: Event) -> None:
        if ev.t > self.end:  # (the latest hour: max(self.end, ev.t))
            self.end = ev.t
        kind = ev.kind
        if kind == "DecisionMade":
            self._decision(ev)
        elif kind == "SeasonSummarized" or kind == "CampaignEnded":
            self._snapshot(ev)
        elif kind == "BuildingConstructed":
            b = self.buildings.setdefault(ev.actor, {})
            b[ev.outcome] = b.get(ev.outcome, 0) + 1
            m = (ev.actor, ev.t // HOURS_PER_MONTH)
            self.buildings_month[m] = self.buildings_month.get(m, 0) + 1
        elif kind == "AnarchyBegan":
            self.anarchy_since.setdefault(ev.actor, ev.t)
        elif kind == "AnarchyEnded":
            began = self.anarchy_since.pop(ev.actor, None)
            if began is not None:
                self.anarchy_hours[ev.actor] = self.anarchy_hours.get(ev.actor, 0) + ev.t - began
        self._activity(ev)

    def _decision(self, ev: Event) -> None:
        if int(ev.data.get("legal", 0) or 0) < 2:
            return
        who = f"{ev.actor.split(':', 1)[0]}/{ev.data.get('policy', '')}"
        question = "+".join(ev.clauses) or "?"
        q = self.decisions.setdefault(who, {}).setdefault(question, {})
        o = order_kind(ev.outcome)
        q[o] = q.get(o, 0) + 1

    def _snapshot(self, ev: Event) -> None:
        for key, row in (ev.data.get("factions") or {}).items():
            if key.split(":", 1)[0] in SERIES_KINDS:
                self.series_rows.append((ev.t, key, {m: v for m, v in row.items()
                                                     if isinstance(v, int | float) and not isinstance(v, bool)}))
            field = MONEY.get(key.split(":", 1)[0])
            if field is None or field not in row:
                continue
            v = float(row[field])
            last = self.money_last.get(key)
            self.money_rise[key] = self.money_rise.get(key, 0) + 1 if last is not None and v > last else 0
            self.money_last[key] = v
        if self.model is not None:
            bad = self.model.invariant_violations()
            if bad:
                self.invariant_count += len(bad)
                if not self.invariant_first:
                    self.invariant_first = f"hour {ev.t}: {bad[0]}"

    def _activity(self, ev: Event) -> None:
        key = ev.actor
        kind = ev.kind
        if kind == "AmbassadorBought":
            self.ambassador_nation[f"ambassador:{ev.outcome}"] = ev.actor
        elif (kind == "MissionLaunched" or kind == "RenewalLaunched") and "nation" in ev.data:
            self.ambassador_nation[ev.actor] = f"nation:{ev.data['nation']}"
        if key.startswith("ambassador:"):
            key = self.ambassador_nation.get(key, key)
        acts = _ACTS_OF.get(key)  # the act events of the key's faction kind (None: not yet looked up)
        if acts is None:
            fkind = key.split(":", 1)[0]
            acts = ACT_EVENTS.get(fkind, _NO_FACTION)
            if len(_ACTS_OF) >= 1 << 14:
                _ACTS_OF.clear()
            _ACTS_OF[key] = acts
        if acts is _NO_FACTION:
            return
        if key not in self.start:
            self.start[key] = ev.t
            self.acts[key] = []
        if (kind == "ConvoyArrived" or kind == "ConvoyDestroyed") and acts is _CONVOY_ACTS:
            self.convoy_end[key] = ev.t
        if kind in acts and is_act(ev):
            self.acts[key].append(ev.t)

    # ---- the figures ---------------------------------------------------------------------------
    def longest_idle(self, key: str) -> int:
        """Hours, as :attr:`workers.quality.Activity.longest_idle`."""
        start, end = self.start[key], self.convoy_end.get(key, self.end)
        marks = [start, *sorted(a for a in self.acts[key] if start <= a <= end), end]
        return max((b - a for a, b in zip(marks, marks[1:])), default=0)

    def result(self) -> dict[str, Any]:
        signals: dict[str, dict[str, Any]] = {}
        for key in sorted(set(self.start) | set(self.money_last) | set(self.anarchy_hours) | set(self.anarchy_since)):
            row: dict[str, Any] = {}
            if key in self.start:
                row["idle_months"] = round(self.longest_idle(key) / HOURS_PER_MONTH, 2)
            if key.startswith("kingdom:"):
                stuck = self.end - self.anarchy_since[key] if key in self.anarchy_since else 0
                row["anarchy_months"] = round((self.anarchy_hours.get(key, 0) + stuck) / HOURS_PER_MONTH, 2)
                row["anarchy_stuck_months"] = round(stuck / HOURS_PER_MONTH, 2)
            if key in self.money_rise:
                row["money_rise_seasons"] = self.money_rise[key]
            if key.startswith("kingdom:"):
                built = self.buildings.get(key, {})
                row["buildings"] = sum(built.values())
                row["buildings_month_max"] = max((n for (k, _m), n in self.buildings_month.items() if k == key), default=0)
                if built:
                    top = max(sorted(built), key=lambda b: built[b])
                    row["building_most"], row["building_most_n"] = top, built[top]
            signals[key] = row
        decisions = {w: {q: dict(sorted(o.items())) for q, o in sorted(qs.items())} for w, qs in sorted(self.decisions.items())}
        return {"decisions": decisions, "signals": signals,
                "invariants": {"count": self.invariant_count, "first": self.invariant_first},
                "series": self.series()}

    def series(self) -> dict[str, list[Any]]:
        """The snapshots column by column (compact on the wire and in memory)."""
        names = sorted({m for _h, _k, row in self.series_rows for m in row})
        out: dict[str, list[Any]] = {"hour": [h for h, _k, _r in self.series_rows],
                                     "faction": [k for _h, k, _r in self.series_rows]}
        for m in names:
            out[m] = [row.get(m) for _h, _k, row in self.series_rows]
        return out


__all__ = ["MONEY", "SERIES_KINDS", "SIGNAL_NAMES", "Signals", "is_tally_column", "order_kind"]
