"""The ``cv.*`` configuration keys (RULES.md §6, GEN-05) that other CV tests leave at their defaults."""

from __future__ import annotations

import pytest

from agents.campaign import run_campaign
from sim.config import Config, CvConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import cv as cr
from sim.state.cv import DayPlan, Traveler
from tests.cv.helpers import baseline, convoy, ledger_at, line_map, travelers, world_of


@pytest.mark.rule("RES-CV-01", "CV-UNR-06")
def test_axles_cost() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, gp=250)
    w = world_of(c, hm, config=Config(cv=CvConfig(axles_cost_gp=120)))
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest", buy="axles")), ScriptedDice([]), led)
    assert c.gp == 130 and c.wagons[0].axles and not c.wagons[1].axles
    assert led.of_kind("AxlesFitted")[0].total == 120
    c.gp = 100
    with pytest.raises(IllegalOrderError, match="RES-CV-01: not enough gold for improved axles"):
        cr.check(w, "amber", DayPlan(buy="axles"))


@pytest.mark.rule("CV-TRAV-06", "RES-CV-05")
def test_exhausted_penalty() -> None:
    hm = line_map(4)
    c = baseline(hm)
    c.condition = "exhausted"
    w = world_of(c, hm, config=Config(cv=CvConfig(exhausted_penalty=4)))
    assert dict(cr.stat_mods(c, "resolve", w.config.cv, 0, w.cv.job_bonuses))["exhausted"] == -4


@pytest.mark.rule("SC-CV-05")
def test_max_wagons() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = convoy(["covered", "supply", "supply"], travelers(4), hm=hm, gp=1000)
    w = world_of(c, hm, config=Config(cv=CvConfig(max_wagons=3)))
    with pytest.raises(IllegalOrderError, match="SC-CV-05: a caravan holds at most 3 wagons"):
        cr.check(w, "amber", DayPlan(move="rest", buy="wagon:covered"))


@pytest.mark.rule("RES-CV-23")
def test_repair_materials_cost() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, gp=100, hp=40)
    c.travelers.append(Traveler(id="wright", job="wainwright"))
    w = world_of(c, hm, config=Config(cv=CvConfig(repair_materials_cost_gp=30)))
    assert "repair:2" in {p.buy for p in cr.legal_orders(w, "amber")}  # 2 per wainwright at most, within 100 gp
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="repair", buy="repair:2")), ScriptedDice([]), ledger_at())
    assert (c.gp, c.cargo["repair"], c.hp) == (40, 1, 50)


@pytest.mark.rule("CV-REST-04", "RES-CV-10")
def test_characters_survive_flag() -> None:
    hm = line_map(4)
    c = convoy(["covered"], travelers(1), hm=hm, provisions=0, hp=3)
    c.starving = True
    w = world_of(c, hm, config=Config(cv=CvConfig(characters_survive=False)))
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice(["1d6=5"]), led)
    assert led.of_kind("ConvoyDestroyed")[0].data["characters_survive"] is False


@pytest.mark.rule("RES-CV-24")
def test_travel_start_hour() -> None:
    res = run_campaign("caravan-crossing", 7, overrides={"cv.travel_start_hour": 8}, collect=False)
    first = next(e for e in res.ledger.events if e.kind == "ConvoySetOut")
    assert first.t == 8
    assert {e.t % 24 for e in res.ledger.events if e.kind == "DecisionMade"} == {8}
