"""The caravan day as one turn function (RES-CV-24): ``resolve_day`` with a decider, its questions,
its stages on the clock, and the legality API (``legal_orders``, ``check``)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.orders import ScriptedDecider
from sim.rules import cv as cr
from sim.state.cv import DayPlan, EnemySpec, Hazard, ScheduledEvent, Traveler
from tests.cv.helpers import baseline, convoy, ledger_at, line_map, travelers, world_of


@pytest.mark.rule("RES-CV-24", "SC-CV-03")
def test_a_day_sets_out_pays_wages_then_asks_for_its_plan_with_the_legal_plans() -> None:
    hm = line_map(20)
    crew = travelers(4, "guard", "entertainer") + [Traveler(id="hired", job="guard", wage_gp=10)]
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], crew, hm=hm, gp=25)
    w = world_of(c, hm, events=[ScheduledEvent(day=0, convoy="amber", kind="unrest", amount=1, note="a quarrel")])
    led = ledger_at()
    seen: list[tuple[int, int]] = []

    def plan(legal: list[DayPlan], context: dict) -> DayPlan:
        seen.append((len(legal), len(cr.legal_orders(w, "amber"))))
        assert context["clauses"] == ("RES-CV-24",) and context["label"](legal[0]) == legal[0].label()
        return DayPlan(move="rest")

    d = ScriptedDecider({("convoy:amber", "day"): [plan]})
    cr.resolve_day(w, "amber", d, ScriptedDice(["d20=20"]), led)  # the calming check of the rest day
    d.assert_exhausted()
    assert d.asked == [("convoy:amber", "day")]
    assert seen and seen[0][0] == seen[0][1] > 1
    assert [e.kind for e in led.events][:5] == [
        "UnrestEventHappened", "UnrestRose", "ConvoySetOut", "WagesPaid", "ProvisionsConsumed",
    ]
    assert led.of_kind("ConvoySetOut")[0].outcome == "heuristic"  # the convoy's policy, unless told otherwise
    assert c.gp == 15 and c.hired_at == 6 and w.now == 30


@pytest.mark.rule("SC-CV-03")
def test_wages_are_paid_again_every_wage_period() -> None:
    assert cr.WAGE_PERIOD_HOURS == 30 * 24
    hm = line_map(60)
    crew = travelers(4) + [Traveler(id="hired", job="guard", wage_gp=10)]
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], crew, hm=hm, gp=100)
    w = world_of(c, hm)
    led = ledger_at()
    for day in (0, 29, 30):  # days of rest (the days between are the same)
        w.now = led.now = 6 + 24 * day
        cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice([]), led)
        if day == 29:
            assert [e.outcome for e in led.of_kind("WagesPaid")] == ["hiring"]
    assert [e.outcome for e in led.of_kind("WagesPaid")] == ["hiring", "monthly"]
    assert c.gp == 80 and c.hired_at == 6 + cr.WAGE_PERIOD_HOURS


@pytest.mark.rule("SC-CV-14", "RES-CV-24")
def test_a_combat_asks_for_the_target_with_the_enemies_standing() -> None:
    hm = line_map(20)
    c = baseline(hm)
    two = Hazard(id="bandits", check="combat", rounds=1, enemies=(EnemySpec("e1", ac=12, hp=5, attack=2, damage="1d4"),
                                                                   EnemySpec("e2", ac=14, hp=3, attack=1, damage="1d4")))
    w = world_of(c, hm, hazards={"bandits": two},
                 events=[ScheduledEvent(day=0, convoy="amber", kind="hazard", hazard="bandits", hour=2)])
    contexts: list[dict] = []

    def target(legal: list[str], context: dict) -> str:
        contexts.append(dict(context))
        assert legal == ["e1", "e2"]
        return "e2"

    d = ScriptedDecider({("convoy:amber", "day"): [DayPlan()], ("convoy:amber", "target"): [target]})
    # the caravan attacks e2: 5 + 1 < 14, a miss; e1 and e2 miss the caravan (AC 13)
    cr.resolve_day(w, "amber", d, ScriptedDice(["d20=5", "d20=1", "d20=1"]), led := ledger_at())
    assert d.asked == [("convoy:amber", "day"), ("convoy:amber", "target")]
    assert contexts[0]["clauses"] == ("SC-CV-14",)
    assert [e["id"] for e in contexts[0]["enemies"]] == ["e1", "e2"]
    assert led.of_kind("CaravanAttackRolled")[0].data["target"] == "e2"


@pytest.mark.rule("RES-CV-24", "CV-TRAV-05")
def test_the_days_stages_wait_on_the_clock_and_resume_from_the_world() -> None:
    hm = line_map(30)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=20", "d20=20"])
    day = cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=2)), dice, led, stages=True)
    assert next(day) == 6 + 12  # (a) and (b) ran at the slot start; the end of the slot next
    assert c.today.stage == 1 and w.now == 6
    # a new generator (a resumed save) carries on from the stage the world records
    again = cr.resolve_day(w, "amber", ScriptedDecider(), dice, led, stages=True)
    w.now = led.now = 18
    assert next(again) == 18  # the end of the slot, once more: nothing of it has run
    assert next(again) == 20  # the forced march's two hours ran; the rest starts at hour 20
    assert c.today.stage == 2 and c.today.stop_hour == 20
    w.now = led.now = 20
    with pytest.raises(StopIteration):
        next(again)
    assert c.today.stage == 0 and led.of_kind("ProvisionsConsumed")
    dice.assert_exhausted()
    assert cr.next_slot_start(w, 20) == 30 and cr.day_of(w, 30) == 1


@pytest.mark.rule("RES-CV-24", "CV-TRAV-06")
def test_check_refuses_an_illegal_plan_and_the_day_raises_on_it() -> None:
    hm = line_map(10)
    c = baseline(hm)
    c.condition = "exhausted"
    w = world_of(c, hm)
    assert all(p.move != "travel" for p in cr.legal_orders(w, "amber"))
    cr.check(w, "amber", DayPlan(move="rest"))
    with pytest.raises(IllegalOrderError, match="CV-TRAV-06"):
        cr.check(w, "amber", DayPlan())
    with pytest.raises(IllegalOrderError, match="CV-TRAV-06"):
        cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), ledger_at())
