"""Travel (CV-TRAV, RES-CV-01…05/08/24, SC-CV-11): speed, terrain, night, extra hours, fatigue."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.config import Config, CvConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.hexmap import Hex, HexMap
from sim.rules import cv as cr
from sim.state.cv import DayPlan, ticks_to_miles
from tests.cv.helpers import baseline, convoy, ledger_at, line_map, travelers, world_of

STANDARD = ["covered", "fortune_teller", "supply"]


@pytest.mark.rule("CV-TRAV-01", "CV-TRAV-02", "RES-CV-01", "SC-CV-06")
def test_speed_base_horse_trains_feat_and_axles() -> None:
    hm = line_map(4)
    cfg = CvConfig()
    c = convoy(STANDARD, travelers(3), hm=hm)
    assert cr.speed_mpd(c, cfg) == 32  # base 32 miles a day
    c2 = convoy([*STANDARD, "horse_train", "horse_train"], travelers(5), hm=hm)
    assert cr.speed_mpd(c2, cfg) == 40  # +4 per horse train
    c2.feats.append("fast_caravan")
    assert cr.speed_mpd(c2, cfg) == 44  # +4 Fast Caravan
    for w in c2.wagons:
        w.axles = True
    assert cr.speed_mpd(c2, cfg) == 46  # +2 with improved axles on every wagon
    # the CFG keys move those numbers (GEN-05)
    cfg2 = CvConfig(base_speed_mpd=30, fast_caravan_mpd=6, axles_mpd=3)
    assert cr.speed_mpd(c2, cfg2) == 30 + 8 + 6 + 3


SC_CV_11 = {  # terrain: (highway, road or trail, trackless), typed from RULES.md SC-CV-11
    "desert": ("1", "1/2", "1/2"),
    "forest": ("1", "1", "1/2"),
    "hills": ("1", "3/4", "1/2"),
    "jungle": ("1", "3/4", "1/4"),
    "moor": ("1", "1", "3/4"),
    "mountains": ("3/4", "3/4", "1/2"),
    "plains": ("1", "1", "3/4"),
    "marsh": ("1", "3/4", "1/2"),
    "tundra": ("1", "3/4", "3/4"),
}


@pytest.mark.rule("CV-TRAV-03", "RES-CV-02", "SC-CV-11")
@pytest.mark.parametrize("terrain", sorted(SC_CV_11))
def test_terrain_multipliers(terrain: str) -> None:
    hw, rd, tl = SC_CV_11[terrain]
    assert cr.terrain_multiplier(terrain, "highway") == Fraction(hw)
    assert cr.terrain_multiplier(terrain, "road") == Fraction(rd)
    # trails count as trackless for caravans (S5); no path is trackless
    assert cr.terrain_multiplier(terrain, "trail") == Fraction(tl)
    assert cr.terrain_multiplier(terrain, "none") == Fraction(tl)
    c = convoy(STANDARD, travelers(3), hm=line_map(2))
    assert cr.daily_miles(c, terrain, "road", CvConfig()) == 32 * Fraction(rd)


@pytest.mark.rule("RES-CV-02", "SC-CV-11")
def test_water_and_cavern_are_impassable() -> None:
    assert cr.terrain_mult4("water", "none") is None
    assert cr.terrain_mult4("cavern", "road") is None


@pytest.mark.rule("RES-CV-02", "RES-CV-03", "CV-TRAV-04")
def test_mixed_terrain_hour_by_hour() -> None:
    # hexes 0–1 plains on a road, then trackless forest; speed 32: 8/3 mi/h toward hex 1, 4/3 mi/h beyond
    hexes = [Hex(terrain="plains", road="road"), Hex(terrain="plains", road="road")] + [Hex(terrain="forest") for _ in range(4)]
    hm = HexMap(width=6, height=1, hexes=hexes)
    c = convoy(STANDARD, travelers(3), hm=hm)
    w = world_of(c, hm)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), ledger_at())
    # hours 1–5: 5 × 8/3 = 40/3 ≥ 12 → hex 1 with 4/3 left over; hours 6–12: 7 × 4/3 = 28/3
    assert ticks_to_miles(c.ticks_total) == Fraction(68, 3)
    assert c.hex == 1
    assert ticks_to_miles(c.progress) == Fraction(32, 3)


@pytest.mark.rule("CV-TRAV-04", "RES-CV-03")
def test_night_halves_and_half_speed_quarters() -> None:
    # 36 mpd on a plains road: 3 miles an hour; at night 3/2; at night on a half-speed day 3/4
    assert Fraction(cr.hourly_ticks(36, "plains", "road", False, False), 192) == 3
    assert Fraction(cr.hourly_ticks(36, "plains", "road", True, False), 192) == Fraction(3, 2)
    assert Fraction(cr.hourly_ticks(36, "plains", "road", True, True), 192) == Fraction(3, 4)


@pytest.mark.rule("RES-CV-03", "CV-TRAV-05")
def test_clock_marks_night_hours_when_travel_hours_are_not_all_day() -> None:
    hm = line_map(10)
    cfg = Config(cv=CvConfig(travel_hours_are_day=False, night_starts_hour=18, night_ends_hour=6))
    c = baseline(hm)
    w = world_of(c, hm, config=cfg)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=1)), ScriptedDice(["d20=20"]), ledger_at())
    # 12 day hours (06–18) at 3 mi/h, then the extra hour 18–19 is a night hour: 3/2
    assert ticks_to_miles(c.ticks_total) == Fraction(75, 2)
    # by default every travel hour is a day hour
    c2 = baseline(hm)
    w2 = world_of(c2, hm)
    cr.resolve_day(w2, "amber", cr.given("amber", DayPlan(extra=1)), ScriptedDice(["d20=20"]), ledger_at())
    assert ticks_to_miles(c2.ticks_total) == 39


@pytest.mark.rule("CV-TRAV-04", "RES-CV-24")
def test_travel_day_is_twelve_hours_then_rest() -> None:
    hm = line_map(10)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), led)
    ev = led.of_kind("ConvoyTravelled")[0]
    assert ev.total == 12 and ev.data["miles"] == "36"
    assert c.moved_until == 6 + 12 and c.today.stop_hour == 18
    assert w.now == 30  # the next travel slot
    assert [e.kind for e in led.events] == ["ConvoySetOut", "ConvoyTravelled", "ProvisionsConsumed"]  # the first day


@pytest.mark.rule("CV-TRAV-05", "RES-CV-04", "CV-REST-01", "RES-CV-08")
def test_extra_hour_dc_accumulates_until_twelve_hours_of_rest() -> None:
    hm = line_map(30)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    # day 1: one extra hour, 12 + 4 = 16 ≥ 15 → DC 16; the night is 11 hours
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=1)), ScriptedDice(["d20=12"]), led)
    assert c.extra_dc == 16 and c.condition == "none"
    # day 2 sets out after 11 h of rest following 13 h of travel → fatigued (−2); the DC is still 16
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=1)), ScriptedDice(["d20=14"]), led)
    chk = led.of_kind("ExtraHourCheckRolled")[1]
    assert (chk.dc, chk.total, chk.outcome) == (16, 14 + 4 - 2, "success")
    assert dict(chk.mods) == {"Mobility": 1, "job bonuses": 3, "fatigued": -2}
    assert c.extra_dc == 17
    assert [e.outcome for e in led.of_kind("ConditionChanged")] == ["fatigued"]
    # a rest day: 12+ consecutive hours → the DC is back to 15 at the next slot (RES-CV-04)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice([]), led)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), led)
    assert c.extra_dc == 15
    assert led.of_kind("ExtraHourDCReset")[0].data["before"] == 17


@pytest.mark.rule("CV-TRAV-05", "RES-CV-04", "RES-CV-24")
def test_a_forced_march_has_no_three_hour_cap_the_rising_dc_and_exhaustion_end_it() -> None:
    hm = line_map(30)
    c = baseline(hm)  # Security +4, 3 miles an hour on the road
    w = world_of(c, hm)
    led = ledger_at()
    # 5 extra hours: 20 + 4 = 24 beats DC 15, 16, 17, 18 and 19 — every hour is travelled
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=5)), ScriptedDice(["d20=20"] * 5), led)
    checks = led.of_kind("ExtraHourCheckRolled")
    assert [(e.dc, e.outcome) for e in checks] == [(15, "success"), (16, "success"), (17, "success"), (18, "success"), (19, "success")]
    assert ticks_to_miles(c.ticks_total) == 36 + 5 * 3 and c.extra_dc == 20 and c.condition == "none"
    # a caravan whose DC has risen to 20 (7 hours of rest: no reset), 9 extra hours asked: the fifth
    # check fails (DC 24) and the march ends there, exhausted
    hm2 = line_map(40)
    c2 = baseline(hm2)
    w2 = world_of(c2, hm2)
    led2 = ledger_at()
    c2.extra_dc, c2.moved_until = 20, 6 - 7
    cr.resolve_day(w2, "amber", cr.given("amber", DayPlan(extra=9)), ScriptedDice(["d20=20"] * 4 + ["d20=19"]), led2)
    assert [e.dc for e in led2.of_kind("ExtraHourCheckRolled")] == [20, 21, 22, 23, 24]
    assert led2.of_kind("ExtraHourCheckRolled")[-1].outcome == "failure"  # 19 + 4 = 23 < 24
    assert c2.condition == "exhausted" and ticks_to_miles(c2.ticks_total) == 36 + 4 * 3
    # twelve extra hours fit in the day, thirteen do not (the next day's travel slot begins)
    cr.check(w, "amber", DayPlan(extra=12))
    with pytest.raises(IllegalOrderError, match="RES-CV-24: 13 extra hours do not fit in the day"):
        cr.check(w, "amber", DayPlan(extra=13))
    assert any(p.extra > 3 for p in cr.legal_orders(w, "amber"))


@pytest.mark.rule("CV-REST-01", "RES-CV-08")
def test_a_normal_day_does_not_fatigue() -> None:
    hm = line_map(30)
    c = baseline(hm)
    w = world_of(c, hm)
    for _ in range(3):
        cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), ledger_at())
    assert c.condition == "none"


@pytest.mark.rule("CV-TRAV-06", "RES-CV-05")
def test_exhausted_cannot_move_and_takes_minus_six() -> None:
    hm = line_map(10)
    c = baseline(hm)
    c.condition = "exhausted"
    w = world_of(c, hm)
    cfg = w.config.cv
    with pytest.raises(IllegalOrderError, match="CV-TRAV-06: an exhausted caravan cannot move"):
        cr.check(w, "amber", DayPlan())
    assert {p.move for p in cr.legal_orders(w, "amber")} == {"rest"}
    assert cr.stat_value(c, "security", cfg, w.now, w.cv.job_bonuses) == 4 - 6
    assert cr.stat_value(c, "resolve", cfg, w.now, w.cv.job_bonuses) == 7 - 6
    assert cr.stat_value(c, "attack", cfg, w.now, w.cv.job_bonuses) == 1 - 6
    # −6 on rolls; exhaustion replaces fatigue, so the fatigued AC penalty does not apply (RES-CV-05)
    assert cr.stat_value(c, "ac", cfg, w.now, w.cv.job_bonuses) == 13


@pytest.mark.rule("CV-TRAV-07", "RES-CV-05", "CV-REST-02")
def test_rest_without_full_consumption_gives_no_recovery() -> None:
    hm = line_map(10)
    c = baseline(hm, provisions=0)
    c.condition = "exhausted"
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice(["1d6=2"]), led)
    # unfed: all eaten (0), 1d6 damage, starving; the exhausted caravan stays exhausted (RES-CV-05)
    assert c.condition == "exhausted" and c.hp == 78 and c.starving
    c.provisions = 100
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice(["1d6=1"]), led)
    assert c.condition == "fatigued"  # the fed 12-hour rest: exhausted → fatigued


@pytest.mark.rule("RES-CV-05")
def test_fatigued_penalty_on_checks_and_ac_is_configurable() -> None:
    hm = line_map(4)
    c = baseline(hm)
    c.condition = "fatigued"
    w = world_of(c, hm, config=Config(cv=CvConfig(fatigued_penalty=3)))
    cfg = w.config.cv
    assert cr.stat_value(c, "ac", cfg, w.now, w.cv.job_bonuses) == 10
    assert cr.stat_value(c, "security", cfg, w.now, w.cv.job_bonuses) == 1
    assert cr.can_move(c, w.now)[0]  # a fatigued caravan can move


@pytest.mark.rule("RES-CV-24", "RES-CV-10", "RES-CV-18", "RES-CV-06", "GEN-06")
def test_order_of_a_days_rolls() -> None:
    from sim.state.cv import Band, Effect, Hazard, HazardTable

    hm = line_map(30)
    c = baseline(hm, unrest=3, provisions=0)  # mutiny margin 1; no food
    c.starving = True
    hz = Hazard(id="storm", check="security", dc=10, on_fail=(Effect(kind="damage", dice="1d4"),))
    tb = HazardTable(id="all", bands=(Band(1, 50), Band(51, 100, "storm")))
    w = world_of(c, hm, hazards={"storm": hz}, tables=[tb])
    led = ledger_at()
    # (a) starvation 1d6, mutiny d20 (succeeds: 20 + 6 = 26 ≥ 23); (b) d100 = 70 → storm, d12 = 4 hour,
    # Security d20 = 10 + 3 = 13 ≥ 10; (d) consumption short → 1d6
    dice = ScriptedDice(["1d6=2", "d20=20", "d%=70", "d12=4", "d20=10", "1d6=3"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    assert [e.kind for e in led.events] == [
        "ConvoySetOut", "StarvationDamageTaken", "MutinyCheckRolled", "HazardTableRolled", "HazardCheckRolled",
        "ConvoyTravelled", "ProvisionsConsumed", "ConditionChanged", "StarvationDamageTaken",
    ]
    assert led.of_kind("HazardTableRolled")[0].data["hour"] == 4
    assert c.hp == 80 - 2 - 3
