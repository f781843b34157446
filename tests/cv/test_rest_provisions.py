"""Rest and provisions (CV-REST, CV-PROV, RES-CV-09…13, SC-CV-08, RES-CV-22)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import cv as cr
from sim.state.cv import DayPlan, Traveler
from tests.cv.helpers import baseline, convoy, ledger_at, line_map, travelers, world_of

STANDARD = ["covered", "fortune_teller", "supply"]


@pytest.mark.rule("SC-CV-08", "RES-CV-22", "SC-CV-12")
def test_consumption_score() -> None:
    hm = line_map(4)
    # wagons 2 + 1 + 1 + horse train 6 = 10, plus 6 travelers
    c = baseline(hm)
    assert cr.consumption(c, 0) == 16
    c.travelers.append(Traveler(id="cook", job="cook"))
    assert cr.consumption(c, 0) == 17 - 2  # a cook: −2 while stores are carried
    c.provisions = 0
    assert cr.consumption(c, 0) == 17  # no stores, no cook reduction
    c.provisions = 5
    c.feats = ["efficient_consumption", "efficient_consumption", "efficient_consumption"]
    assert cr.consumption(c, 0) == 15 - 6
    c2 = convoy(STANDARD, travelers(3), hm=hm, feats=["efficient_consumption"] * 3)
    assert cr.consumption(c2, 0) == 3  # 4 + 3 = 7, −6 but not below the 3 wagons
    c3 = convoy(["supply"], [Traveler(id=f"cook{i}", job="cook") for i in range(5)], hm=hm)
    assert cr.consumption(c3, 0) == 0  # 1 + 5 − 10 = −4: never below 0 (RES-CV-22)
    c3.travelers[0].suspended_until = 100
    assert cr.consumption(c3, 0) == 1 + 5 - 8 + 2  # a cook whose job is suspended saves nothing


@pytest.mark.rule("CV-REST-02", "RES-CV-09", "CV-PROV-02", "RES-CV-12", "CV-PROV-03", "CV-PROV-04", "RES-CV-13")
def test_spells_then_forage_then_stores() -> None:
    hm = line_map(40)
    crew = travelers(4, "guard", "entertainer", "scout", "scout")
    crew.append(Traveler(id="druid", job="caster", spells={"goodberry": 2, "create_food_and_water": 1}))
    crew.append(Traveler(id="cleric", job="caster", spells={"heroes_feast": 1}, caster_level=11))
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], crew, hm=hm, provisions=30)
    w = world_of(c, hm)
    cons = cr.consumption(c, w.now)
    assert cons == 10 + 10
    led = ledger_at()
    # spells: 2×1 + 3 + 11 = 16; two foraging scouts: 4; stores pay the rest: 20 − 16 − 4 = 0
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(forage=True)), ScriptedDice([]), led)
    ev = led.of_kind("ProvisionsConsumed")[0]
    assert (ev.data["from_spells"], ev.data["from_forage"], ev.data["from_stores"]) == (16, 4, 0)
    assert c.provisions == 30
    # with double rations: 40 needed: 16 spells, 4 forage, 20 stores
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(forage=True, double=True)), ScriptedDice(["d20=1"]), led)
    assert c.provisions == 10
    # a small eater: 3 spell units left over are discarded, not stored
    c.travelers = [t for t in c.travelers if t.id != "cleric"]
    c.travelers.append(Traveler(id="cleric2", job="caster", spells={"heroes_feast": 1}, caster_level=20))
    led2 = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), led2)
    assert led2.of_kind("ProvisionsDiscarded")[0].total == 2 + 3 + 20 - cr.consumption(c, w.now)
    assert c.provisions == 10


@pytest.mark.rule("CV-PROV-02", "RES-CV-12", "SC-CV-13")
def test_foraging_scouts_give_no_security() -> None:
    hm = line_map(5)
    c = baseline(hm)
    c.travelers.append(Traveler(id="scout1", job="scout"))
    w = world_of(c, hm)
    cfg = w.config.cv
    assert cr.stat_value(c, "security", cfg, w.now, w.cv.job_bonuses) == 1 + 3 + 1
    assert cr.stat_value(c, "security", cfg, w.now, w.cv.job_bonuses, scouting=False) == 1 + 3


@pytest.mark.rule("CV-REST-03", "CV-REST-04", "RES-CV-10", "RES-CV-09")
def test_starving_takes_1d6_twice_a_day_until_fed() -> None:
    hm = line_map(30)
    c = baseline(hm, provisions=10)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice(["1d6=6"]), led)  # 10 < 16: all eaten, 1d6
    assert (c.provisions, c.hp, c.starving, c.condition) == (0, 74, True, "fatigued")
    # a rest day: the slot-start 1d6 comes whether or not the convoy moves; then short again
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice(["1d6=1", "1d6=2"]), led)
    assert c.hp == 71
    assert not led.of_kind("CalmingCheckRolled")  # an unfed rest day is no calming rest day
    c.provisions = 16
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice(["1d6=3"]), led)
    # fed at the rest start: starving ends without damage; the full 12-hour rest removes fatigue
    assert (c.hp, c.starving, c.condition, c.provisions) == (68, False, "none", 0)
    assert [e.kind for e in led.events if "Starvation" in e.kind] == [
        "StarvationBegan", "StarvationDamageTaken", "StarvationDamageTaken", "StarvationDamageTaken",
        "StarvationDamageTaken", "StarvationEnded",
    ]


@pytest.mark.rule("CV-REST-04", "RES-CV-10", "RES-CV-14")
def test_starvation_to_zero_destroys_without_an_unrest_check() -> None:
    hm = line_map(30)
    c = convoy(["covered"], travelers(1), hm=hm, provisions=0, hp=6)  # 6 > 25% of 20
    c.starving = True
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["1d6=6"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), dice, led)
    dice.assert_exhausted()
    # 6 → 0 at the slot start: destroyed, and the 25% line crossed on the way gives no Unrest check
    assert c.status == "destroyed" and c.hp == 0
    assert not led.of_kind("UnrestCheckRolled")
    kinds = [e.kind for e in led.events]
    assert kinds[-1] == "ConvoyDestroyed"
    assert led.events[-1].data["characters_survive"] is True
    assert cr.legal_orders(w, "amber") == []


@pytest.mark.rule("CV-REST-04", "RES-CV-23")
def test_a_starving_caravan_cannot_be_repaired() -> None:
    hm = line_map(5)
    c = baseline(hm, hp=40, cargo={"repair": 2})
    c.travelers.append(Traveler(id="wright", job="wainwright"))
    c.starving = True
    w = world_of(c, hm)
    with pytest.raises(IllegalOrderError, match="CV-REST-04: a starving caravan cannot be repaired"):
        cr.check(w, "amber", DayPlan(move="repair"))
    assert all(p.move != "repair" for p in cr.legal_orders(w, "amber"))


@pytest.mark.rule("CV-PROV-01", "RES-CV-11", "SC-CV-09")
def test_food_stores_in_a_settlement() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, provisions=25, gp=100)  # stores take 3 cargo units; cargo capacity 4 + 4 + 10 + 1 = 19
    w = world_of(c, hm)
    led = ledger_at()
    opts = {p.buy for p in cr.legal_orders(w, "amber")}
    assert "stores:10" in opts  # 16 free cargo units, but 100 gp buys 10 units at 10 gp
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest", buy="stores:10")), ScriptedDice([]), led)
    assert (c.provisions, c.gp) == (25 + 100 - 16, 0)
    assert cr.stores_units(125) == 13
    c.gp = 1000
    with pytest.raises(IllegalOrderError, match="SC-CV-09: the stores would exceed the cargo capacity"):
        cr.check(w, "amber", DayPlan(buy="stores:9"))  # 109 → 11 + 9 = 20 > 19
    c.hex = 3
    with pytest.raises(IllegalOrderError, match="RES-CV-11: purchases are made in a settlement"):
        cr.check(w, "amber", DayPlan(buy="stores:1"))


@pytest.mark.rule("RES-CV-11")
def test_stores_price_is_configurable() -> None:
    from sim.config import Config, CvConfig

    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, provisions=0, gp=60)
    w = world_of(c, hm, config=Config(cv=CvConfig(stores_cost_gp=20)))
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(buy="stores:3")), ScriptedDice([]), led)
    assert c.gp == 0 and led.of_kind("StoresBought")[0].data["gp"] == 60


@pytest.mark.rule("RES-CV-01", "RES-CV-15", "RES-CV-24")
def test_axles_are_not_bought_for_the_wagon_abandoned_that_day() -> None:
    """ENG-CV-13: the abandoned wagon is gone before the day's purchases. When it is the only wagon
    without improved axles, "abandon it and buy axles" is neither offered nor accepted (it used to be
    both, and the purchase then failed with a StopIteration)."""
    hm = line_map(4, villages={0: "Millbrook"})
    c = convoy(["covered", "supply"], travelers(4), hm=hm, gp=5000)
    c.wagons[0].axles = True  # only the supply wagon lacks axles
    w = world_of(c, hm)
    plan = DayPlan(move="rest", buy="axles", abandon="supply")
    with pytest.raises(IllegalOrderError, match="RES-CV-01.*every wagon already has improved axles"):
        cr.check(w, "amber", plan)
    offered = cr.legal_orders(w, c.id)
    assert not [p for p in offered if p.abandon == "supply" and "axles" in p.purchases]
    assert [p for p in offered if not p.abandon and "axles" in p.purchases]  # without the abandon, still offered
