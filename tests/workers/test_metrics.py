"""Every summary metric defined once (workers/metrics.py, docs/metrics.md), and recomputed here from the
ledger of a small campaign, independently of the system driver that computes it (issue 25 item 3).

A recomputation reads only events: never the world, never the summary the ledger's ``CampaignEnded``
carries (that is what is checked)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.campaign import run_campaign
from scenarios.loader import builtin_names
from sim.calendar import HOURS_PER_DAY
from sim.events import Event
from workers.metrics import METRICS, definition
from workers.report.names import SUMMARY

ROOT = Path(__file__).resolve().parents[2]
Events = list[Event]


def _count(kind: str, system: str | None = None) -> Callable[[Events], float]:
    return lambda ev: sum(1 for e in ev if e.kind == kind and (system is None or e.system == system))


def _convoys(ev: Events) -> dict[str, dict[str, Any]]:
    """Each convoy's journey from its events: set out, arrival or destruction, days moved."""
    out: dict[str, dict[str, Any]] = {}
    for e in ev:
        if e.system != "cv" or not e.actor.startswith("convoy:"):
            continue
        c = out.setdefault(e.actor, {"set_out": None, "end": None, "status": "travelling", "moved_days": set(),
                                     "peak": 0, "unrest": 0})
        if e.kind == "ConvoySetOut":
            c["set_out"] = e.t
        elif e.kind == "ConvoyArrived":
            c["status"], c["end"] = "arrived", e.t
        elif e.kind == "ConvoyDestroyed":
            c["status"], c["end"] = "destroyed", e.t
        elif e.kind == "ConvoyTravelled":
            c["moved_days"].add(e.t // HOURS_PER_DAY)
        elif e.kind in ("UnrestRose", "UnrestFell"):
            c["unrest"] = int(e.data["after"])
            c["peak"] = max(c["peak"], c["unrest"])
    return out


def _days_on_road(c: dict[str, Any]) -> int:
    return c["end"] // HOURS_PER_DAY - c["set_out"] // HOURS_PER_DAY + 1


def _mean_days(ev: Events) -> float:
    days = [_days_on_road(c) for c in _convoys(ev).values() if c["status"] == "arrived"]
    return round(sum(days) / len(days), 2) if days else 0.0


def _miles(ev: Events) -> float:
    from fractions import Fraction

    return round(float(sum(Fraction(str(e.data.get("miles", 0))) for e in ev if e.kind == "ConvoyTravelled")), 2)


def _damage(source: str) -> Callable[[Events], float]:
    def f(ev: Events) -> float:
        return sum(int(e.total or 0) for e in ev if e.kind == "DamageTaken" and _source(e) == source)
    return f


def _source(e: Event) -> str:
    src = str(e.data.get("source", ""))
    return "combat" if "combat" in src or "attack" in src or "enemy" in src else "hazard"


RECOMPUTE: dict[str, tuple[str, int, Callable[[Events], float]]] = {
    # metric: (scenario, seed, recomputation from the ledger)
    "cv.convoys": ("caravan-crossing", 1, _count("ConvoySetOut")),
    "cv.arrived": ("caravan-crossing", 1, _count("ConvoyArrived")),
    "cv.destroyed": ("caravan-crossing", 1, _count("ConvoyDestroyed")),
    "cv.stranded": ("caravan-crossing", 1, lambda ev: sum(1 for c in _convoys(ev).values() if c["status"] == "travelling")),
    "cv.mean_days_to_arrive": ("caravan-crossing", 1, _mean_days),
    "cv.miles_travelled": ("caravan-crossing", 1, _miles),
    "cv.peak_unrest": ("caravan-crossing", 1, lambda ev: max(c["peak"] for c in _convoys(ev).values())),
    "cv.wagons_lost": ("caravan-crossing", 1, _count("WagonLost")),
    "cv.stores_bought": ("caravan-crossing", 1, lambda ev: sum(int(e.total or 0) for e in ev if e.kind == "StoresBought")),
    "cv.days_travelled": ("caravan-crossing", 1, lambda ev: sum(len(c["moved_days"]) for c in _convoys(ev).values())),
    "gw.deployments": ("guild-war", 1, _count("ArmyDeployed")),
    "gw.battles": ("guild-war", 1, _count("BattleFought")),
    "gw.armies_destroyed": ("guild-war", 1, _count("ArmyDestroyed")),
    "gw.occupations": ("guild-war", 1, _count("DomainOccupied")),
    "gw.sacks": ("guild-war", 1, _count("DomainSacked")),
    "gw.domains_annexed": ("guild-war", 1, _count("DomainAnnexed")),
    "gw.loot_created": ("guild-war", 1, _count("LootCreated")),
    "gw.siege_seasons": ("guild-war", 1, _count("ArmyBesieging")),
    "gw.assaults": ("guild-war", 1, _count("DomainAttacked")),
    "mn.turns": ("mare-nostrum", 1, _count("TurnBegan", "mn")),
    "mn.ambassadors_bought": ("mare-nostrum", 1, _count("AmbassadorBought")),
    "mn.missions": ("mare-nostrum", 1, _count("MissionLaunched")),
    "mn.renewals": ("mare-nostrum", 1, _count("RenewalLaunched")),
    "mn.tests": ("mare-nostrum", 1, _count("DiplomacyTestRolled")),
    "mn.interferences": ("mare-nostrum", 1, _count("InterferenceRolled")),
    "mn.treaties_signed": ("mare-nostrum", 1, _count("TreatySigned")),
    "mn.embassies_installed": ("mare-nostrum", 1, _count("EmbassyInstalled")),
    "mn.embassies_closed": ("mare-nostrum", 1, _count("EmbassyClosed")),
    "mn.ransoms_paid": ("mare-nostrum", 1, _count("RansomPaid")),
    "mn.armies_raised": ("mare-nostrum", 1, _count("ArmyRaised")),
    "mn.wars_declared": ("mare-nostrum", 1, _count("WarDeclared")),
    "mn.invasions": ("mare-nostrum", 1, _count("InvasionRecorded")),
    "mn.repulses": ("mare-nostrum", 1, _count("RepulseRecorded")),
    "mn.pacts_honoured": ("mare-nostrum", 1, _count("PactHonoured")),
    "km.edicts_diplomatic": ("stolen-lands", 1, _count("DiplomaticEdictIssued")),
    "km.edicts_exploration": ("stolen-lands", 1, _count("ExplorationEdictIssued")),
    "km.edicts_trade": ("stolen-lands", 1, _count("TradeEdictIssued")),
    "km.edicts_vassalage": ("stolen-lands", 1, _count("VassalageEdictIssued")),
    "km.hexes_explored": ("stolen-lands", 1, _count("HexExplored")),
    "km.hexes_claimed": ("stolen-lands", 1, _count("HexClaimed")),
    "km.buildings_built": ("stolen-lands", 1, _count("BuildingConstructed")),
    "km.improvements_built": ("stolen-lands", 1, _count("TerrainImprovementBuilt")),
    "km.hexes_lost_to_unrest": ("stolen-lands", 1, _count("HexLostToUnrest")),
    "km.trade_routes_established": ("stolen-lands", 1, _count("TradeRouteEstablished")),
    "km.trade_expeditions_lost": ("stolen-lands", 1, _count("TradeExpeditionLost")),
    "km.trade_sold_elsewhere": ("stolen-lands", 1, _count("TradeGoodsSoldElsewhere")),
}
_LEDGERS: dict[tuple[str, int], tuple[Events, dict[str, Any]]] = {}


def _campaign(scenario: str, seed: int) -> tuple[Events, dict[str, Any]]:
    if (scenario, seed) not in _LEDGERS:
        res = run_campaign(scenario, seed, collect=False)
        _LEDGERS[(scenario, seed)] = (list(res.ledger.events), dict(res.summary))
    return _LEDGERS[(scenario, seed)]


@pytest.mark.slow
@pytest.mark.parametrize("metric", sorted(RECOMPUTE))
def test_a_summary_metric_is_what_the_ledger_says(metric: str) -> None:
    scenario, seed, recompute = RECOMPUTE[metric]
    events, summary = _campaign(scenario, seed)
    assert recompute(events) == pytest.approx(summary[metric]), f"{metric} on {scenario} seed {seed}"


@pytest.mark.slow
def test_mean_days_to_arrive_is_days_on_the_road_not_the_day_of_arrival() -> None:
    """cv.mean_days_to_arrive was the campaign day of arrival (1,987.8 days in realm); it is the days on the
    road, the day of setting out and of arriving both counted (caravan-crossing seed 1: amber 13, cobalt 15,
    ember 6 → 11.33)."""
    events, summary = _campaign("caravan-crossing", 1)
    arrived = {k: _days_on_road(c) for k, c in _convoys(events).items() if c["status"] == "arrived"}
    assert arrived == {"convoy:amber": 13, "convoy:cobalt": 15, "convoy:ember": 6}
    assert summary["cv.mean_days_to_arrive"] == 11.33


def test_every_summary_metric_has_a_definition_a_name_and_a_unit_word() -> None:
    for key in METRICS:
        assert key in SUMMARY, f"{key}: no readable name in workers/report/names.py"
    for key in SUMMARY:
        if key not in ("hours", "events"):
            assert definition(key) is not None, f"{key}: not defined in workers/metrics.py"


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["caravan-crossing", "guild-war", "mare-nostrum"])
def test_every_metric_a_campaign_reports_is_defined(scenario: str) -> None:
    assert scenario in builtin_names()
    _, summary = _campaign(scenario, 1)
    missing = [k for k in summary if k != "hours" and definition(k) is None]
    assert missing == []


def test_the_metrics_page_is_written_from_the_table() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "metrics_doc.py"), "--check"], cwd=ROOT)
    assert r.returncode == 0, "docs/metrics.md is out of date: run python tools/metrics_doc.py"
