"""The seven CV worked examples of RULES.md §7.4, with their exact dice (ScriptedDice)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.config import Config, CvConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.hexmap import Hex, HexMap
from sim.rules import cv as cr
from sim.state.cv import DayPlan, Effect, Hazard, ticks_to_miles
from tests.cv.helpers import baseline, convoy, kinds, ledger_at, line_map, travelers, world_of


def outcomes(ledger, kind):
    return [e.outcome for e in ledger.events if e.kind == kind]


@pytest.mark.rule("CV-TRAV-04", "CV-TRAV-05", "CV-TRAV-06", "CV-TRAV-07", "RES-CV-03", "RES-CV-04", "RES-CV-05")
def test_ex_cv_01_extra_hours_and_exhaustion() -> None:
    hm = line_map(30)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=12", "d20=11"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=2)), dice, led)
    dice.assert_exhausted()
    # hours 1–12: 36 miles; hour 13: 12 + 4 = 16 >= 15, travels (39 miles), DC 16; hour 14: 15 < 16
    assert ticks_to_miles(c.ticks_total) == 39
    checks = [(e.dc, e.total, e.outcome) for e in led.of_kind("ExtraHourCheckRolled")]
    assert checks == [(15, 16, "success"), (16, 15, "failure")]
    assert c.condition == "exhausted"
    assert c.extra_dc == 16
    # exhausted: −6 on all rolls, cannot move
    mods = dict(cr.stat_mods(c, "security", w.config.cv, w.now, w.cv.job_bonuses))
    assert mods["exhausted"] == -6
    assert not cr.can_move(c, w.now)[0]
    assert all(p.move != "travel" for p in cr.legal_orders(w, "amber"))
    # the night after the forced march is only 11 h: no recovery. A (fed) rest day: 12+ consecutive h → fatigued
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice([]), led)
    assert c.condition == "fatigued"
    assert dict(cr.stat_mods(c, "security", w.config.cv, w.now, w.cv.job_bonuses))["fatigued"] == -2
    # another such rest (after a normal 12-hour travel day) → normal; the extra-hour DC is back to 15
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), led)
    assert c.condition == "none"
    assert c.extra_dc == 15
    assert outcomes(led, "ConditionChanged") == ["exhausted", "fatigued", "none"]


@pytest.mark.rule("CV-TRAV-02", "CV-TRAV-03", "CV-TRAV-04", "RES-CV-01", "RES-CV-02", "RES-CV-03", "SC-CV-06", "SC-CV-11")
def test_ex_cv_02_speed_bonuses_terrain_and_night() -> None:
    hm = line_map(10, terrain="forest", road="none")
    c = convoy(["covered", "supply", "horse_train", "horse_train", "horse_train", "horse_train"], travelers(6), hm=hm,
               feats=["extra_wagons"])
    cfg = CvConfig()
    assert cr.max_wagons(c, cfg) == 6
    assert cr.speed_mpd(c, cfg) == 44  # only 3 horse trains count
    assert cr.daily_miles(c, "forest", "none", cfg) == 22
    assert cr.daily_miles(c, "forest", "trail", cfg) == 22  # trails count as trackless for caravans
    assert cr.daily_miles(c, "forest", "road", cfg) == 44
    assert cr.daily_miles(c, "forest", "none", cfg, night=True) == 11
    for wg in c.wagons[:5]:
        wg.axles = True
    assert cr.speed_mpd(c, cfg) == 44
    c.wagons[5].axles = True
    assert cr.speed_mpd(c, cfg) == 46
    # all 4 horse trains still add their consumption: 4 × 6 = 24 (+2 covered +1 supply +6 travelers)
    assert cr.consumption(c, 0) == 24 + 2 + 1 + 6
    # travelling the 12 hours at night in trackless forest (without axles): 11 miles
    for wg in c.wagons:
        wg.axles = False
    w = world_of(c, hm)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(night=True)), ScriptedDice([]), ledger_at())
    assert ticks_to_miles(c.ticks_total) == 11


@pytest.mark.rule("CV-REST-02", "CV-REST-03", "CV-REST-04", "RES-CV-09", "RES-CV-10", "RES-CV-24", "CV-PROV-01",
                  "CV-PROV-02", "RES-CV-12")
def test_ex_cv_03_running_out_of_provisions() -> None:
    hm = line_map(30, villages={5: "Millbrook"})
    # standard caravan (70 HP, 32 mpd) with 10 travelers: consumption 4 + 10 = 14
    crew = travelers(3, "scout", *["passenger"] * 6)
    c = convoy(["covered", "fortune_teller", "supply"], crew, hm=hm, provisions=13, gp=100)
    w = world_of(c, hm)
    assert cr.consumption(c, w.now) == 14 and c.hp == 70
    led = ledger_at()
    dice = ScriptedDice(["1d6=4", "1d6=5", "1d6=3", "1d6=6"])
    # day 1: the scout scouts; rest start: 13 < 14 → all eaten, 1d6 = 4
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    assert (c.hp, c.provisions, c.condition, c.starving) == (66, 0, "fatigued", True)
    # day 2: slot start 1d6 = 5; the scout forages 2; rest start 2 < 14 → eaten, 1d6 = 3
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(forage=True, halt=True)), dice, led)
    assert (c.hp, c.provisions, c.starving) == (58, 0, True)
    assert hm.hexes[c.hex].settlement == "Millbrook" and c.progress == 0
    # day 3: slot start 1d6 = 6; buys 2 units of food stores (20 provisions, 20 gp); 20 >= 14
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(buy="stores:2")), dice, led)
    dice.assert_exhausted()
    assert (c.hp, c.provisions, c.starving, c.condition) == (52, 6, False, "none")
    assert c.gp == 80
    assert [e.total for e in led.of_kind("StarvationDamageTaken")] == [4, 5, 3, 6]
    assert outcomes(led, "ProvisionsConsumed") == ["short", "short", "fed"]
    assert not led.of_kind("UnrestCheckRolled")  # 52 > 0.25 × 70
    assert c.unrest == 0


@pytest.mark.rule("CV-MUT-01", "CV-MUT-02", "CV-MUT-03", "RES-CV-17", "RES-CV-18", "CV-UNR-04", "RES-CV-14")
def test_ex_cv_04_mutiny() -> None:
    hm = line_map(30)
    c = baseline(hm, unrest=5)
    w = world_of(c, hm)
    cfg = w.config.cv
    assert cr.mutiny_margin(c) == 3
    assert cr.stat_value(c, "ac", cfg, w.now, w.cv.job_bonuses) == 10
    assert cr.stat_value(c, "resolve", cfg, w.now, w.cv.job_bonuses) == 4
    led = ledger_at()
    dice = ScriptedDice(["d20=18", "d20=11", "1d2=1", "d20=14"])
    # day A: 18 + 4 = 22 < 25, fails by 3 → half speed → 18 miles on the road
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    assert ticks_to_miles(c.ticks_total) == 18
    ev = led.of_kind("MutinyCheckRolled")[0]
    assert (ev.dc, ev.total, ev.outcome) == (25, 22, "half speed")
    # day B: 11 + 4 = 15, fails by 10 → 1d2 = 1 → refuses → Unrest check 14 + 4 = 18 < 25 → Unrest 6
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    assert ticks_to_miles(c.ticks_total) == 18
    assert c.unrest == 6
    assert cr.mutiny_margin(c) == 4
    assert cr.stat_value(c, "ac", cfg, w.now, w.cv.job_bonuses) == 9
    for stat in ("attack", "security", "resolve"):
        assert dict(cr.stat_mods(c, stat, cfg, w.now, w.cv.job_bonuses))["mutiny"] == -4
    u = led.of_kind("UnrestCheckRolled")[0]
    assert (u.dc, u.total, u.outcome, u.data["trigger"]) == (25, 18, "failure", "(d) cannot move: mutiny refusal")
    assert kinds(led, skip=("ProvisionsConsumed", "ConvoyTravelled")) == [
        "ConvoySetOut", "MutinyCheckRolled", "MutinyCheckRolled", "MutinyRefusedToMove", "UnrestCheckRolled", "UnrestRose",
    ]


@pytest.mark.rule("CV-UNR-06", "RES-CV-15", "RES-CV-24")
def test_ex_cv_05_calming_the_crew_in_a_village() -> None:
    hm = line_map(30, villages={0: "Millbrook"})
    crew = travelers(3, "entertainer", *["passenger"] * 6)  # consumption 4 + 10 = 14
    c = convoy(["covered", "fortune_teller", "supply"], crew, hm=hm, morale=5, unrest=4, provisions=60)
    w = world_of(c, hm, bonuses={"entertainer": {"resolve": 2}})
    assert cr.stat_value(c, "resolve", w.config.cv, w.now, w.cv.job_bonuses) == 7
    assert cr.consumption(c, w.now) == 14 and not c.in_mutiny
    led = ledger_at()
    dice = ScriptedDice(["d20=13", "d20=9"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest", double=True)), dice, led)
    dice.assert_exhausted()
    checks = [(e.data["action"], e.total, e.outcome) for e in led.of_kind("CalmingCheckRolled")]
    assert checks == [("full rest day", 21, "success"), ("double consumption", 18, "failure")]
    assert c.unrest == 3
    assert led.of_kind("ProvisionsConsumed")[0].total == 28
    assert c.provisions == 32


@pytest.mark.rule("CV-UNR-02", "CV-UNR-08", "RES-CV-16")
def test_ex_cv_06_buying_loyalty_gets_dearer() -> None:
    hm = line_map(5)
    c = baseline(hm, unrest=6, cargo={"trade_goods": 10, "treasure": 3})
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_gift(w, c, "trade_goods", led)
    assert (c.unrest, c.gifts, c.cargo["trade_goods"]) == (5, 1, 9)
    cr.resolve_gift(w, c, "treasure", led)
    assert (c.unrest, c.gifts, c.cargo["treasure"]) == (2, 2, 1)
    cr.resolve_gift(w, c, "trade_goods", led)
    assert (c.unrest, c.gifts, c.cargo["trade_goods"]) == (1, 3, 6)
    with pytest.raises(IllegalOrderError, match=r"RES-CV-16: the next gift costs 4 cargo units of treasure; the caravan carries 1"):
        cr.resolve_gift(w, c, "treasure", led)
    assert (c.unrest, c.cargo["trade_goods"], c.cargo["treasure"], c.gifts) == (1, 6, 1, 3)
    assert [e.total for e in led.of_kind("GiftGiven")] == [1, 2, 3]


@pytest.mark.rule("CV-HAZ-02", "RES-CV-06", "CV-UNR-04", "RES-CV-14")
def test_ex_cv_07_hazard_damage_crosses_the_25_percent_line() -> None:
    hm = line_map(5)
    c = convoy(["covered", "fortune_teller", "supply", "covered"], travelers(4), hm=hm, mobility=4, morale=3, hp=30)
    w = world_of(c, hm, bonuses={})
    assert c.max_hp == 90
    assert cr.stat_value(c, "security", w.config.cv, w.now, {}) == 4
    assert cr.stat_value(c, "resolve", w.config.cv, w.now, {}) == 3
    hz = Hazard(id="rockslide", check="security", dc=18, on_fail=(Effect(kind="damage", dice="2d6"),))
    led = ledger_at()
    dice = ScriptedDice(["d20=10", "2d6=5,3", "d20=15"])
    ok = cr.resolve_hazard(w, c, hz, dice, led)
    dice.assert_exhausted()
    assert not ok
    assert (c.hp, c.unrest) == (22, 1)
    assert [(e.kind, e.total, e.outcome) for e in led.events] == [
        ("HazardCheckRolled", 14, "failure"),
        ("DamageTaken", 8, "rockslide"),
        ("UnrestCheckRolled", 18, "failure"),
        ("UnrestRose", 1, "failed Resolve check ((c) hit points at 25% or less)"),
    ]


def test_helpers_map_is_connected() -> None:
    hm = HexMap(width=2, height=1, hexes=[Hex(terrain="plains"), Hex(terrain="plains")])
    assert hm.path_is_connected([0, 1])
    assert Fraction(1) == 1
    assert Config().cv.travel_start_hour == 6
