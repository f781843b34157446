"""Unrest and mutiny (CV-UNR, CV-MUT, RES-CV-14…18, RES-CV-20)."""

from __future__ import annotations

import pytest

from sim.config import Config, CvConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.hexmap import Hex, HexMap
from sim.rules import cv as cr
from sim.state.cv import DayPlan, ScheduledEvent, Traveler, ticks_to_miles
from tests.cv.helpers import baseline, ledger_at, line_map, world_of


@pytest.mark.rule("CV-UNR-01", "CV-UNR-02")
def test_unrest_is_never_negative_and_has_no_maximum() -> None:
    hm = line_map(4)
    c = baseline(hm, unrest=2)
    led = ledger_at()
    cr.set_unrest(c, -5, led, ("CV-UNR-07",), "test")
    assert c.unrest == 0
    cr.set_unrest(c, 40, led, ("CV-UNR-07",), "test")
    assert c.unrest == 40 and c.unrest_peak == 40
    assert [e.kind for e in led.events] == ["UnrestFell", "UnrestRose", "MutinyBegan"]


@pytest.mark.rule("CV-UNR-03", "CV-UNR-05", "RES-CV-20", "SC-CV-04", "CV-MUT-01", "RES-CV-17")
def test_level_up_raises_morale_and_lowers_unrest() -> None:
    hm = line_map(4)
    c = baseline(hm, unrest=4)  # Morale 2: in mutiny
    w = world_of(c, hm)
    led = ledger_at()
    ev = ScheduledEvent(day=3, convoy="amber", kind="level_up", feat="efficient_consumption", morale=1)
    cr.resolve_scheduled(w, c, ev, ScriptedDice([]), led)
    assert (c.level, c.morale, c.unrest, c.feats) == (2, 3, 3, ["efficient_consumption"])
    assert c.in_mutiny is False
    assert [e.kind for e in led.events] == ["LevelGained", "UnrestFell", "MutinyEnded"]


@pytest.mark.rule("RES-CV-20", "SC-CV-12")
def test_level_up_with_caravan_toughness_and_gift_counter_reset() -> None:
    hm = line_map(4)
    c = baseline(hm)
    c.gifts = 3
    w = world_of(c, hm, config=Config(cv=CvConfig(gift_counter_resets="level_up")))
    cr.resolve_scheduled(w, c, ScheduledEvent(day=1, convoy="amber", kind="level_up", feat="caravan_toughness"), ScriptedDice([]), ledger_at())
    assert (c.hp, c.max_hp) == (100, 100)
    assert c.wagons[0].toughness == 1
    assert c.gifts == 0


@pytest.mark.rule("CV-UNR-04", "RES-CV-14", "SC-CV-10")
def test_the_25_percent_line_checks_once_until_hp_rise_above_it() -> None:
    hm = line_map(4)
    c = baseline(hm, hp=30)  # max 80: the line is 20
    w = world_of(c, hm)
    led = ledger_at()
    cr.damage(w, c, 10, "rockslide", ScriptedDice(["d20=1"]), led, ("RES-CV-06",))  # 30 → 20: check, fails
    assert c.unrest == 1
    cr.damage(w, c, 1, "rockslide", ScriptedDice([]), led, ("RES-CV-06",))  # still below: no check
    cr.heal(c, 30)  # 49: above the line again
    cr.damage(w, c, 30, "rockslide", ScriptedDice(["d20=20"]), led, ("RES-CV-06",))  # 49 → 19: check, succeeds
    assert c.unrest == 1
    assert [e.data["trigger"] for e in led.of_kind("UnrestCheckRolled")] == ["(c) hit points at 25% or less"] * 2
    # an Unrest check's DC is 20 + current Unrest
    assert led.of_kind("UnrestCheckRolled")[1].dc == 21


@pytest.mark.rule("CV-UNR-04", "RES-CV-14")
def test_resting_by_choice_or_exhausted_is_not_a_blocked_period() -> None:
    hm = line_map(10)
    c = baseline(hm, unrest=1)
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=2"])  # a chosen rest day: only the CV-UNR-06 calming check (fails)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), dice, led)
    c.condition = "exhausted"
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), dice, led)  # forced rest: no check at all
    dice.assert_exhausted()
    assert not led.of_kind("UnrestCheckRolled")
    assert [e.data["action"] for e in led.of_kind("CalmingCheckRolled")] == ["full rest day"]
    assert c.unrest == 1
    # at Unrest 0 a calming check could change nothing: it is not rolled
    c.unrest = 0
    c.condition = "none"
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice([]), led)
    assert len(led.of_kind("CalmingCheckRolled")) == 1


@pytest.mark.rule("CV-UNR-06", "RES-CV-15", "RES-CV-24", "SC-CV-05")
def test_calming_checks_in_order_once_per_kind() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, unrest=6, gp=2000, provisions=100)
    c.morale = 6
    c.travelers.append(Traveler(id="driver5", job="driver", can_drive=True))
    w = world_of(c, hm, config=Config(cv=CvConfig(unrest_reduction=2)))
    led = ledger_at()
    # a rest day in the village with a wagon added and double rations.
    # Resolve 6 + 5 = 11; checks: wagon added, full rest day, double consumption
    dice = ScriptedDice(["d20=10", "d20=1", "d20=8"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest", double=True, buy="wagon:covered")), dice, led)
    dice.assert_exhausted()
    got = [(e.data["action"], e.total, e.outcome) for e in led.of_kind("CalmingCheckRolled")]
    # 10 + 11 − 6 + 5 = 20 ≥ 20 → Unrest 4 (reduction 2); 1 + 11 − 4 + 5 = 13; 8 + 11 − 4 + 5 = 20 → 2
    assert got == [("wagon added", 20, "success"), ("full rest day", 13, "failure"), ("double consumption", 20, "success")]
    assert c.unrest == 2
    # next day: axles (an upgrade) and travel away: one check, still with the village bonus
    dice = ScriptedDice(["d20=4"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(buy="axles")), dice, led)
    ev = led.of_kind("CalmingCheckRolled")[-1]
    assert (ev.data["action"], ev.data["village"], ev.total) == ("wagon upgraded", True, 4 + 11 - 2 + 5)


@pytest.mark.rule("RES-CV-15", "CV-UNR-06", "SC-CV-05", "RES-CV-01", "RES-CV-24")
def test_several_purchases_in_one_day_with_one_check_per_kind_of_action() -> None:
    """RES-CV-15: a day's plan may hold several purchases: two wagons bought the same day make one
    "wagon added" check; a wagon added and another upgraded make one check of each kind."""
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, unrest=4, gp=2000, provisions=100, feats=["extra_wagons", "extra_wagons"])  # 7 wagons at most
    c.morale = 6
    c.travelers += [Traveler(id=f"extra{i}", job="driver", can_drive=True) for i in (5, 6)]
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=9", "d20=3"])  # wagon added: 9 + 11 − 4 + 5 = 21 → Unrest 3; rest day: 3 + 11 − 3 + 5 = 16
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest", buy=("wagon:covered", "wagon:supply"))), dice, led)
    dice.assert_exhausted()
    assert [e.outcome for e in led.of_kind("WagonBought")] == ["covered", "supply"]
    assert [x.kind for x in c.wagons][-2:] == ["covered", "supply"] and c.gp == 2000 - 500 - 300
    assert [(e.data["action"], e.total) for e in led.of_kind("CalmingCheckRolled")] == [("wagon added", 21), ("full rest day", 16)]
    assert c.unrest == 3
    # next day: a wagon added and another upgraded, then away: one check of each kind, in the RES-CV-24 order
    led = ledger_at(w.now)
    dice = ScriptedDice(["d20=2", "d20=20"])
    c.travelers.append(Traveler(id="extra7", job="driver", can_drive=True))
    plan = DayPlan(buy=("axles", "wagon:covered"))
    assert plan.label() == "travel, buy axles and wagon:covered"
    cr.resolve_day(w, "amber", cr.given("amber", plan), dice, led)
    dice.assert_exhausted()
    assert [e.data["action"] for e in led.of_kind("CalmingCheckRolled")] == ["wagon added", "wagon upgraded"]
    assert len(c.wagons) == 4 + 2 + 1 and c.wagons[0].axles and c.gp == 1200 - 100 - 500


@pytest.mark.rule("RES-CV-15", "SC-CV-05", "RES-CV-11")
def test_each_purchase_of_the_day_is_checked_on_what_the_earlier_ones_left() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, gp=800, feats=["extra_wagons"])  # 6 wagons at most
    c.travelers += [Traveler(id=f"extra{i}", job="driver", can_drive=True) for i in (5, 6)]
    w = world_of(c, hm)
    cr.check(w, "amber", DayPlan(move="rest", buy=("wagon:covered", "wagon:supply")))  # 500 + 300 = 800
    with pytest.raises(IllegalOrderError, match=r"SC-CV-05: not enough gold for the covered wagon \(500 gp; the purse holds 300\)"):
        cr.check(w, "amber", DayPlan(move="rest", buy=("wagon:covered", "wagon:covered")))
    with pytest.raises(IllegalOrderError, match="SC-CV-05: a caravan holds at most 6 wagons"):
        cr.check(w, "amber", DayPlan(move="rest", buy=("wagon:supply", "wagon:supply", "wagon:supply")))
    assert c.gp == 800 and len(c.wagons) == 4  # checking buys nothing
    # an order file may write them as a list
    import msgspec

    plan = msgspec.convert({"type": "day", "move": "rest", "buy": ["wagon:covered", "axles"]}, DayPlan)
    assert plan.purchases == ("wagon:covered", "axles")


@pytest.mark.rule("CV-UNR-06", "RES-CV-15", "RES-CV-23")
def test_repair_days_and_forced_rests_do_not_calm() -> None:
    hm = line_map(10)
    c = baseline(hm, unrest=3, hp=50, cargo={"repair": 1})
    c.travelers.append(Traveler(id="wright", job="wainwright"))
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="repair")), ScriptedDice([]), led)
    assert c.hp == 60 and not led.of_kind("CalmingCheckRolled")
    c.hp = 0  # cannot move: a rest day does not count
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice([]), led)
    assert not led.of_kind("CalmingCheckRolled")


@pytest.mark.rule("CV-UNR-07")
def test_scenario_unrest_events() -> None:
    hm = line_map(4)
    c = baseline(hm, unrest=1)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_scheduled(w, c, ScheduledEvent(day=0, convoy="amber", kind="unrest", amount=2, note="bad news"), ScriptedDice([]), led)
    cr.resolve_scheduled(w, c, ScheduledEvent(day=0, convoy="amber", kind="unrest", amount=-4, note="a feast"), ScriptedDice([]), led)
    assert c.unrest == 0
    assert [e.kind for e in led.events] == ["UnrestEventHappened", "UnrestRose", "MutinyBegan", "UnrestEventHappened",
                                            "UnrestFell", "MutinyEnded"]


@pytest.mark.rule("CV-UNR-08", "RES-CV-16", "CV-UNR-02")
def test_a_gift_at_zero_unrest_is_spent_for_nothing() -> None:
    hm = line_map(4)
    c = baseline(hm, unrest=0, cargo={"treasure": 5})
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_gift(w, c, "treasure", led)
    assert (c.unrest, c.gifts, c.cargo["treasure"]) == (0, 1, 4)
    c.unrest = 2
    cr.resolve_gift(w, c, "treasure", led)  # costs 2; −3 stops at 0
    assert (c.unrest, c.gifts, c.cargo["treasure"]) == (0, 2, 2)
    with pytest.raises(IllegalOrderError, match="RES-CV-16: the next gift costs 3 cargo units of treasure"):
        cr.check(w, "amber", DayPlan(gift="treasure"))


@pytest.mark.rule("CV-UNR-08", "RES-CV-16", "RES-CV-24", "CV-UNR-06", "SC-CV-03")
def test_gifts_at_any_time_several_a_day_and_with_double_rations() -> None:
    """RES-CV-24 lists gifts "at any time": a day may hold double rations and gifts together, and
    several gifts, each one cargo unit dearer (RES-CV-16); several travelers may change jobs (SC-CV-03)."""
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, unrest=6, provisions=100, cargo={"trade_goods": 10, "treasure": 2})
    c.morale = 8
    c.travelers.append(Traveler(id="cook1", job="cook"))
    w = world_of(c, hm)
    led = ledger_at()
    plan = DayPlan(move="rest", double=True, gift=("trade_goods", "treasure", "trade_goods"),
                   assign=("cook1:guard", "entertainer1:passenger"))
    assert plan.label() == ("rest, double rations, gift trade_goods and treasure and trade_goods, "
                            "assign cook1:guard and entertainer1:passenger")
    cr.check(w, "amber", plan)
    dice = ScriptedDice(["d20=1", "d20=1"])  # full rest day and double consumption checks, both fail
    cr.resolve_day(w, "amber", cr.given("amber", plan), dice, led)
    dice.assert_exhausted()
    # gifts cost 1, 2 and 3 units: Unrest 6 − 1 − 3 − 1 = 1
    assert [e.total for e in led.of_kind("GiftGiven")] == [1, 2, 3]
    assert (c.unrest, c.gifts, c.cargo["trade_goods"], c.cargo["treasure"]) == (1, 3, 6, 0)
    assert [e.data["action"] for e in led.of_kind("CalmingCheckRolled")] == ["full rest day", "double consumption"]
    assert [e.outcome for e in led.of_kind("JobChanged")] == ["guard", "passenger"]
    # the fourth gift would cost 4 units: with 6 of trade goods, a fifth (5 more) is refused
    with pytest.raises(IllegalOrderError, match="RES-CV-16: the next gift costs 5 cargo units of trade_goods; the caravan carries 2"):
        cr.check(w, "amber", DayPlan(gift=("trade_goods", "trade_goods")))
    with pytest.raises(IllegalOrderError, match="SC-CV-03: cook1 changed jobs less than 24 hours ago"):
        cr.check(w, "amber", DayPlan(move="rest", assign=("cook1:cook", "cook1:scout")))  # twice in one day


@pytest.mark.rule("CV-MUT-01", "CV-MUT-02", "RES-CV-17")
def test_mutiny_exactly_while_unrest_exceeds_morale() -> None:
    hm = line_map(4)
    c = baseline(hm, unrest=2)  # Morale 2: not yet
    w = world_of(c, hm)
    cfg = w.config.cv
    assert cr.mutiny_margin(c) == 0 and not c.in_mutiny
    led = ledger_at()
    cr.set_unrest(c, 4, led, ("CV-UNR-04",), "test")
    assert c.in_mutiny and cr.mutiny_margin(c) == 2
    assert cr.stat_value(c, "ac", cfg, w.now, w.cv.job_bonuses) == 11
    assert cr.stat_value(c, "attack", cfg, w.now, w.cv.job_bonuses) == -1
    assert cr.stat_value(c, "security", cfg, w.now, w.cv.job_bonuses) == 2
    assert cr.stat_value(c, "resolve", cfg, w.now, w.cv.job_bonuses) == 5
    assert led.of_kind("MutinyBegan")[0].data["margin"] == 2


def _wander_map() -> tuple[HexMap, int, int]:
    hm = HexMap(width=7, height=3, hexes=[Hex(terrain="plains", road="road") for _ in range(21)])
    return hm, hm.index(3, 1), hm.index(6, 1)


@pytest.mark.rule("CV-MUT-03", "RES-CV-18")
def test_mutiny_random_direction_rerolls_the_chosen_one() -> None:
    hm, start, dest = _wander_map()
    c = baseline(hm, at=start, dest=dest, unrest=5)  # margin 3: Resolve +4, DC 25
    c.path = [start, start + 1, start + 2, dest]
    w = world_of(c, hm)
    led = ledger_at()
    # 2 + 4 = 6, fails by 19 → 1d2 = 2 (random direction) → 1d6 = 1 is E, the chosen one: reroll → 4 = W
    dice = ScriptedDice(["d20=2", "1d2=2", "1d6=1", "1d6=4"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    west = hm.neighbor(start, 3)
    # half speed (18 miles): 12 reach the west neighbour, 6 more toward the next hex west, dropped
    # when the route is planned again from there (RES-CV-18)
    assert ticks_to_miles(c.ticks_total) == 18
    assert c.hex == west and c.progress == 0
    assert c.path[0] == west and c.path[-1] == dest
    assert led.of_kind("MutinyWandered")[0].dice == ((2, 2), (6, 1), (6, 4))


@pytest.mark.rule("CV-MUT-03", "RES-CV-18")
@pytest.mark.parametrize("mode, script, refused", [("refuse", ["d20=2", "d20=20"], True),
                                                   ("random_direction", ["d20=2", "1d6=4"], False)])
def test_mutiny_fail_by_five_outcome_is_configurable(mode: str, script: list[str], refused: bool) -> None:
    hm, start, dest = _wander_map()
    c = baseline(hm, at=start, dest=dest, unrest=5)
    c.path = [start, start + 1, start + 2, dest]
    w = world_of(c, hm, config=Config(cv=CvConfig(mutiny_fail5_outcome=mode)))
    led = ledger_at()
    dice = ScriptedDice(script)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    assert bool(led.of_kind("MutinyRefusedToMove")) is refused
    assert c.ticks_total == (0 if refused else 18 * 192)


@pytest.mark.rule("CV-MUT-03", "RES-CV-18")
def test_no_mutiny_check_on_a_rest_day() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, unrest=5)
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=1"])  # the calming check only
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), dice, led)
    dice.assert_exhausted()
    assert not led.of_kind("MutinyCheckRolled")
    assert led.of_kind("CalmingCheckRolled")[0].data["village"] is True
    assert c.mutiny_days == 1
