"""The job's tallies (``workers.signals.Signals``) read each event with a few shortcuts (the latest
hour by comparison, each actor key's faction kind looked up once): on real ledgers they tally exactly
what the listener as first written tallies."""

from __future__ import annotations

import pytest

from agents.campaign import run_campaign
from sim.calendar import HOURS_PER_MONTH
from sim.events import Event
from workers.quality import ACT_EVENTS, is_act
from workers.signals import Signals


class PlainSignals(Signals):
    """The listener as first written (before issue 26): no shortcut."""

    def __call__(self, ev: Event) -> None:
        self.end = max(self.end, ev.t)
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

    def _activity(self, ev: Event) -> None:
        key = ev.actor
        if ev.kind == "AmbassadorBought":
            self.ambassador_nation[f"ambassador:{ev.outcome}"] = ev.actor
        if ev.kind in ("MissionLaunched", "RenewalLaunched") and "nation" in ev.data:
            self.ambassador_nation[ev.actor] = f"nation:{ev.data['nation']}"
        if key.startswith("ambassador:"):
            key = self.ambassador_nation.get(key, key)
        fkind = key.split(":", 1)[0]
        if fkind not in ACT_EVENTS:
            return
        if key not in self.start:
            self.start[key] = ev.t
            self.acts[key] = []
        if fkind == "convoy" and ev.kind in ("ConvoyArrived", "ConvoyDestroyed"):
            self.convoy_end[key] = ev.t
        if ev.kind in ACT_EVENTS[fkind] and is_act(ev):
            self.acts[key].append(ev.t)


def _both(events: list[Event]) -> tuple[Signals, Signals]:
    fast, plain = Signals(), PlainSignals()
    for ev in events:
        fast(ev)
        plain(ev)
    return fast, plain


@pytest.mark.parametrize(("scenario", "seed", "until"), [("caravan-crossing", 1, None), ("realm", 2, 2 * 8640)])
def test_signals_tally_what_the_plain_listener_tallies(scenario: str, seed: int, until: int | None) -> None:
    res = run_campaign(scenario, seed, keep_ledger=True, collect=False, until=until)
    events = list(res.ledger)
    fast, plain = _both(events)
    assert fast.result() == plain.result()
    for name in ("end", "start", "acts", "convoy_end", "ambassador_nation", "anarchy_since", "anarchy_hours"):
        assert getattr(fast, name) == getattr(plain, name), name
    assert fast.acts and fast.start
    if scenario == "realm":  # the realm's nations send ambassadors: their acts count as their nation's
        assert fast.ambassador_nation and any(k.startswith("nation:") for k in fast.acts)
    else:
        assert fast.convoy_end


def test_signals_tally_odd_actor_keys_as_the_plain_listener() -> None:
    """Keys of no faction kind, a kind without an id, an ambassador before and after its nation is known."""
    evs = [
        Event(0, 5, "cv", "ConvoyArrived", "convoy", ()),
        Event(1, 6, "cv", "ConvoyTravelled", "convoy", (), data={"miles": "3"}),
        Event(2, 7, "link", "SeasonSummarized", "world", ()),
        Event(3, 8, "mn", "MissionLaunched", "ambassador:x", (), data={"nation": "n"}),
        Event(4, 9, "mn", "RenewalLaunched", "ambassador:y", ()),
        Event(5, 10, "mn", "AmbassadorBought", "nation:m", (), outcome="y"),
        Event(6, 11, "mn", "RenewalLaunched", "ambassador:y", (), data={"nation": "m"}),
        Event(7, 3, "cv", "ConvoyDestroyed", "convoy:a", ()),
        Event(8, 12, "gw", "OrderGiven", "guild:g", ()),
        Event(9, 12, "gw", "ArmyMoved", "army:q", ()),
    ]
    fast, plain = _both(evs)
    assert fast.result() == plain.result()
    assert (fast.end, fast.start, fast.acts, fast.convoy_end, fast.ambassador_nation) == (
        plain.end, plain.start, plain.acts, plain.convoy_end, plain.ambassador_nation)
