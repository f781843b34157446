"""Hazards (CV-HAZ, RES-CV-06/07, SC-CV-14): tables, checks, every effect, combat."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.hexmap import Hex, HexMap
from sim.rules import cv as cr
from sim.state.cv import (
    SUSPENDED_FOREVER,
    Band,
    DayPlan,
    Effect,
    EnemySpec,
    Hazard,
    HazardTable,
    ScheduledEvent,
    ticks_to_miles,
)
from tests.cv.helpers import baseline, ledger_at, line_map, world_of


def hz(check: str = "security", dc: int = 14, *fail: Effect, success: tuple[Effect, ...] = ()) -> Hazard:
    return Hazard(id="h", check=check, dc=dc, on_fail=tuple(fail), on_success=success)


@pytest.mark.rule("CV-HAZ-01", "RES-CV-06")
def test_table_bands_and_hours() -> None:
    hm = line_map(30)
    c = baseline(hm)
    tb = HazardTable(id="t", bands=(Band(1, 50), Band(51, 80, "h"), Band(81, 100, "h", hour=3)))
    led = ledger_at()
    assert cr.roll_table(c, tb, ScriptedDice(["d%=50"]), led, 1) == ("", 0)
    assert cr.roll_table(c, tb, ScriptedDice(["d%=51", "d12=9"]), led, 1) == ("h", 9)
    assert cr.roll_table(c, tb, ScriptedDice(["d%=100"]), led, 1) == ("h", 3)  # fixed hour: no d12
    assert [(e.total, e.outcome, e.data["hour"]) for e in led.events] == [(50, "nothing", 0), (51, "h", 9), (100, "h", 3)]
    assert led.events[1].dice == ((100, 51), (12, 9))


@pytest.mark.rule("CV-HAZ-01", "RES-CV-06")
def test_first_matching_table_by_terrain_path_and_river() -> None:
    hexes = [Hex(terrain="plains", road="road"), Hex(terrain="forest", river=True), Hex(terrain="forest"), Hex(terrain="hills")]
    hm = HexMap(width=4, height=1, hexes=hexes)
    c = baseline(hm)
    roads = HazardTable(id="roads", bands=(Band(1, 100),), paths=("road", "highway"))
    fords = HazardTable(id="fords", bands=(Band(1, 100),), river=True)
    forest = HazardTable(id="forest", bands=(Band(1, 100),), terrains=("forest",))
    w = world_of(c, hm, tables=[roads, fords, forest])
    assert [getattr(cr.table_for(w.cv, hm, i), "id", None) for i in range(4)] == ["roads", "fords", "forest", None]


@pytest.mark.rule("CV-HAZ-01", "CV-HAZ-02", "RES-CV-06", "CV-UNR-04", "RES-CV-14")
def test_hazard_met_at_its_hour_blocks_the_rest_of_the_period() -> None:
    hm = line_map(30)
    c = baseline(hm)
    block = Hazard(id="mud", check="security", dc=14, on_fail=(Effect(kind="block_travel"),))
    w = world_of(c, hm, hazards={"mud": block}, tables=[HazardTable(id="t", bands=(Band(1, 50), Band(51, 100, "mud")))])
    led = ledger_at()
    dice = ScriptedDice(["d%=60", "d12=5", "d20=1", "d20=20"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    # hours 1–4 travelled (3 mi/h), the hazard at the start of hour 5 fails (1 + 4 < 14) and blocks
    assert ticks_to_miles(c.ticks_total) == 12
    assert [e.kind for e in led.events][:7] == [
        "ConvoySetOut", "HazardTableRolled", "HazardCheckRolled", "TravelBlocked", "UnrestCheckRolled", "ConvoyTravelled", "ProvisionsConsumed",
    ]
    u = led.of_kind("UnrestCheckRolled")[0]
    assert (u.dc, u.total, u.outcome) == (20, 27, "success") and c.unrest == 0
    assert c.moved_until == 6 + 4


@pytest.mark.rule("CV-HAZ-02", "RES-CV-06")
def test_success_has_no_effect_unless_listed_and_resolve_hazards_use_resolve() -> None:
    hm = line_map(5)
    c = baseline(hm, hp=50)
    w = world_of(c, hm)
    led = ledger_at()
    dmg = Effect(kind="damage", dice="1d6")
    assert cr.resolve_hazard(w, c, hz("security", 14, dmg), ScriptedDice(["d20=10"]), led)  # 10 + 4 = 14
    assert c.hp == 50
    bonus = Effect(kind="unrest", amount=-1)
    c.unrest = 2
    ok = cr.resolve_hazard(w, c, hz("resolve", 17, dmg, success=(bonus,)), ScriptedDice(["d20=10"]), led)  # 10 + 7
    assert ok and c.unrest == 1 and c.hp == 50
    ev = led.of_kind("HazardCheckRolled")[1]
    assert (ev.dc, ev.total, ev.data["check"]) == (17, 17, "resolve")
    assert dict(ev.mods) == {"Morale": 2, "job bonuses": 5}


@pytest.mark.rule("CV-HAZ-03", "RES-CV-06", "GEN-01")
def test_damage_rolled_to_nothing_still_records_its_dice() -> None:
    hm = line_map(5)
    c = baseline(hm, hp=50)
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=1", "d4=3"])  # fails; 1d4−4 = −1: no damage
    cr.resolve_hazard(w, c, hz("security", 30, Effect(kind="damage", dice="1d4-4")), dice, led)
    taken = led.of_kind("DamageTaken")[0]
    assert (taken.dice, taken.total, taken.data["before"], taken.data["after"]) == (((4, 3),), -1, 50, 50)
    assert c.hp == 50 and dice.draws == led.dice == 2


@pytest.mark.rule("CV-HAZ-03", "RES-CV-06")
def test_loss_of_provisions_and_cargo() -> None:
    hm = line_map(5)
    c = baseline(hm, provisions=25, cargo={"trade_goods": 3, "repair": 1})
    w = world_of(c, hm)
    led = ledger_at()
    eff = [
        Effect(kind="lose_provisions", dice="2d6"),  # 3 + 4
        Effect(kind="lose_cargo", cargo="trade_goods", amount=2),
        Effect(kind="lose_cargo", cargo="stores", amount=1),  # 10 provisions
        Effect(kind="lose_provisions", amount=50),  # only what is left
        Effect(kind="lose_cargo", cargo="repair", amount=3),
    ]
    cr.resolve_hazard(w, c, hz("security", 30, *eff), ScriptedDice(["d20=1", "2d6=3,4"]), led)
    assert c.provisions == 0
    assert c.cargo == {"trade_goods": 1, "repair": 0}
    assert [e.total for e in led.of_kind("ProvisionsLost", "CargoLost")] == [7, 2, 10, 8, 1]


@pytest.mark.rule("CV-HAZ-03", "RES-CV-06", "RES-CV-23", "CV-UNR-04")
def test_lose_a_wagon_of_a_kind_and_of_any_kind() -> None:
    hm = line_map(5)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    # the only supply wagon: no pick roll; −20 HP from max and current; CV-UNR-04 (a) d20 = 20 succeeds
    cr.resolve_hazard(w, c, hz("security", 30, Effect(kind="lose_wagon", wagon="supply")), ScriptedDice(["d20=1", "d20=20"]), led)
    assert [x.kind for x in c.wagons] == ["covered", "fortune_teller", "horse_train"]
    assert (c.hp, c.max_hp, c.unrest) == (60, 60, 0)
    # any wagon: 1d3 among the three in id order → 2 = the fortune-teller's wagon (30 HP); the check fails
    cr.resolve_hazard(w, c, hz("security", 30, Effect(kind="lose_wagon")), ScriptedDice(["d20=1", "1d3=2", "d20=5"]), led)
    assert [x.kind for x in c.wagons] == ["covered", "horse_train"]
    assert (c.hp, c.max_hp, c.unrest) == (30, 30, 1)
    assert led.of_kind("WagonChosen")[0].outcome == "1"


@pytest.mark.rule("CV-HAZ-03", "RES-CV-06", "CV-UNR-04", "RES-CV-14")
def test_kill_a_traveler_triggers_an_unrest_check() -> None:
    hm = line_map(5)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_hazard(w, c, hz("security", 30, Effect(kind="kill_traveler", job="guard")), ScriptedDice(["d20=1", "d20=3"]), led)
    assert "guard1" not in [t.id for t in c.travelers] and c.travelers_lost == 1
    u = led.of_kind("UnrestCheckRolled")[0]
    assert (u.total, u.outcome, u.data["trigger"]) == (3 + 7, "failure", "(b) traveler killed")
    assert c.unrest == 1


@pytest.mark.rule("CV-HAZ-03", "RES-CV-06", "SC-CV-13")
def test_suspend_a_job_for_days_or_for_good() -> None:
    hm = line_map(5)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_hazard(w, c, hz("security", 30, Effect(kind="suspend_job", job="driver", days=2)), ScriptedDice(["d20=1", "1d4=3"]), led)
    t = next(x for x in c.travelers if x.id == "driver3")
    assert t.suspended_until == 6 + 48
    assert cr.drivers(c, 6) == 3 and not cr.can_move(c, 6)[0]  # four wagons, three drivers
    assert cr.drivers(c, 54) == 4
    cr.resolve_hazard(w, c, hz("security", 30, Effect(kind="suspend_job", job="guard")), ScriptedDice(["d20=1"]), led)
    g = next(x for x in c.travelers if x.id == "guard1")
    assert g.suspended_until == SUSPENDED_FOREVER
    assert cr.stat_value(c, "security", w.config.cv, 10_000, w.cv.job_bonuses) == 1  # its +3 is gone


@pytest.mark.rule("CV-HAZ-02", "SC-CV-12")
def test_terrain_mastery_in_the_hazards_terrain() -> None:
    hm = line_map(5)
    c = baseline(hm, feats=["terrain_mastery:forest"])
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_hazard(w, c, hz("security", 16, Effect(kind="damage", dice="1d6")), ScriptedDice(["d20=10"]), led, terrain="forest")
    cr.resolve_hazard(w, c, hz("security", 16, Effect(kind="damage", dice="1d6")), ScriptedDice(["d20=10", "1d6=1"]), led, terrain="hills")
    assert [(e.total, e.outcome) for e in led.of_kind("HazardCheckRolled")] == [(16, "success"), (14, "failure")]


def _combat(rounds: int = 5) -> Hazard:
    return Hazard(
        id="ambush", check="combat", rounds=rounds,
        enemies=(EnemySpec("e2", ac=14, hp=3, attack=2, damage="1d6"), EnemySpec("e1", ac=12, hp=5, attack=3, damage="1d4")),
        on_fail=(Effect(kind="lose_cargo", cargo="trade_goods", amount=1),),
        on_success=(Effect(kind="unrest", amount=-1),),
    )  # fmt: skip


@pytest.mark.rule("CV-HAZ-04", "RES-CV-07", "SC-CV-14")
def test_combat_rounds_until_the_enemies_fall() -> None:
    hm = line_map(5)
    c = baseline(hm, unrest=1, cargo={"trade_goods": 2})
    w = world_of(c, hm)
    led = ledger_at()
    # round 1: target e1 (lowest id): 15 + 1 = 16 ≥ 12, 1d6 = 4 + Offense 1 = 5 → e1 down;
    #          e2 attacks: 10 + 2 = 12 < AC 13 → miss
    # round 2: target e2: 13 + 1 = 14 ≥ 14, 1d6 = 2 + 1 = 3 → e2 down → victory
    dice = ScriptedDice(["d20=15", "1d6=4", "d20=10", "d20=13", "1d6=2"])
    assert cr.resolve_hazard(w, c, _combat(), dice, led)
    dice.assert_exhausted()
    assert [(e.kind, e.outcome) for e in led.events if "Attack" in e.kind] == [
        ("CaravanAttackRolled", "hit"), ("EnemyAttackRolled", "miss"), ("CaravanAttackRolled", "hit"),
    ]
    assert led.of_kind("CombatEnded")[0].outcome == "victory"
    assert c.unrest == 0 and c.cargo["trade_goods"] == 2 and c.hp == 80


@pytest.mark.rule("SC-CV-14", "RES-CV-07", "CV-HAZ-04")
def test_combat_round_limit_and_target_chosen_by_the_policy() -> None:
    hm = line_map(5)
    c = baseline(hm, cargo={"trade_goods": 2})
    w = world_of(c, hm)
    led = ledger_at()
    picked: list[list[str]] = []

    def choose(enemies: list[dict]) -> str:
        picked.append([e["id"] for e in enemies])
        return "e2"

    # one round: the caravan attacks e2 and misses (5 + 1 < 14); e1 hits 13 + 3 ≥ 13 for 1d4 = 4, e2 misses
    dice = ScriptedDice(["d20=5", "d20=13", "1d4=4", "d20=2"])
    assert not cr.resolve_hazard(w, c, _combat(rounds=1), dice, led, choose_target=choose)
    dice.assert_exhausted()
    assert picked == [["e1", "e2"]]
    assert c.hp == 76 and c.combat_damage == 4
    assert c.cargo["trade_goods"] == 1  # on_fail: enemies still standing
    assert led.of_kind("CombatEnded")[0].data["enemies_left"] == ["e1", "e2"]


@pytest.mark.rule("SC-CV-14")
def test_combat_damage_expression_is_configurable() -> None:
    from sim.config import Config, CvConfig

    hm = line_map(5)
    c = baseline(hm)
    w = world_of(c, hm, config=Config(cv=CvConfig(combat_damage="2d4")))
    led = ledger_at()
    one = Hazard(id="x", check="combat", rounds=1, enemies=(EnemySpec("e", ac=10, hp=20, attack=0, damage="1"),))
    cr.resolve_hazard(w, c, one, ScriptedDice(["d20=10", "2d4=1,3", "d20=1"]), led)
    assert led.of_kind("CaravanAttackRolled")[0].data["damage"] == 1 + 3 + 1  # 2d4 + Offense


@pytest.mark.rule("RES-CV-06", "GEN-06", "CV-UNR-07")
def test_a_scripted_hazard_replaces_the_days_table() -> None:
    hm = line_map(30)
    c = baseline(hm)
    storm = Hazard(id="storm", check="security", dc=5, on_fail=(Effect(kind="damage", dice="1d4"),))
    w = world_of(c, hm, hazards={"storm": storm}, tables=[HazardTable(id="t", bands=(Band(1, 100, "storm"),))])
    led = ledger_at()
    cr.new_day(c, 0, 6)
    cr.resolve_scheduled(w, c, ScheduledEvent(day=0, convoy="amber", kind="hazard", hazard="storm", hour=7), ScriptedDice([]), led)
    dice = ScriptedDice(["d20=1"])  # no d100: the scenario fixed today's hazard; 1 + 4 = 5 ≥ 5
    cr.resolve_slot_start(w, "amber", DayPlan(), dice, led)
    cr.resolve_travel_slot(w, "amber", dice, led)
    dice.assert_exhausted()
    assert [e.kind for e in led.events] == ["HazardScheduled", "HazardCheckRolled", "ConvoyTravelled"]


@pytest.mark.rule("RES-CV-24", "RES-CV-06", "CV-HAZ-02", "GEN-06")
def test_two_scripted_hazards_on_one_day_are_each_met_at_their_hour_in_hour_order() -> None:
    """RES-CV-24 (b): each scripted hazard is resolved at its hour; the second no longer replaces the first."""
    hm = line_map(30)
    c = baseline(hm, hp=80)
    storm = Hazard(id="storm", check="security", dc=10, on_fail=(Effect(kind="damage", dice="1d4"),))
    mud = Hazard(id="mud", check="resolve", dc=10, on_fail=(Effect(kind="lose_provisions", amount=5),))
    w = world_of(c, hm, hazards={"storm": storm, "mud": mud})
    led = ledger_at()
    cr.new_day(c, 0, 6)
    # listed late hour first: they are met in hour order all the same
    for ev in (ScheduledEvent(day=0, convoy="amber", kind="hazard", hazard="storm", hour=9),
               ScheduledEvent(day=0, convoy="amber", kind="hazard", hazard="mud", hour=3)):
        cr.resolve_scheduled(w, c, ev, ScriptedDice([]), led)
    dice = ScriptedDice(["d20=1", "d20=2", "d4=3"])  # mud: 1 + 7 = 8 < 10; storm: 2 + 4 = 6 < 10, 3 damage
    cr.resolve_slot_start(w, "amber", DayPlan(), dice, led)
    cr.resolve_travel_slot(w, "amber", dice, led)
    dice.assert_exhausted()
    checks = led.of_kind("HazardCheckRolled")
    assert [(e.data["hazard"], e.outcome) for e in checks] == [("mud", "failure"), ("storm", "failure")]
    assert [e.kind for e in led.events] == [
        "HazardScheduled", "HazardScheduled", "HazardCheckRolled", "ProvisionsLost", "HazardCheckRolled", "DamageTaken",
        "ConvoyTravelled",
    ]
    assert c.hp == 77 and c.provisions == 95 and c.hazards_met == 2
    assert ticks_to_miles(c.ticks_total) == 36  # neither blocks travel: the 12 hours are travelled


@pytest.mark.rule("RES-CV-24", "RES-CV-06")
def test_the_validator_accepts_two_scripted_hazards_on_one_day() -> None:
    from agents.campaign import run_campaign
    from scenarios.loader import load_scenario_text
    from tests.cv.test_scenario import BASE

    text = BASE + """
[[hazards]]
id = "mud"
check = "resolve"
dc = 5

[[cv_events]]
day = 1
convoy = "amber"
kind = "hazard"
hazard = "storm"
hour = 8

[[cv_events]]
day = 1
convoy = "amber"
kind = "hazard"
hazard = "mud"
hour = 2
"""
    res = run_campaign(load_scenario_text(text, "two.toml"), 1, collect=False)
    met = [e.data["hazard"] for e in res.ledger.events if e.kind == "HazardCheckRolled" and e.t < 24]
    assert met == ["mud", "storm"]
