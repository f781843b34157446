"""Tests written against the survivors of a fresh mutation sample (issue 29: ``tools/mutate.py cv --fresh
--seed 2``): each pins a behaviour of sim/rules/cv/ that a mutant changed and no earlier CV test
noticed. Expected values are worked out by hand from RULES.md (§4, §5.4, the §7.4 baseline) and the
ENG-CV entries of docs/resolutions.md; the arithmetic is in the comments."""

from __future__ import annotations

import pytest

from sim.config import Config, CvConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.hexmap import Hex, HexMap
from sim.rules import cv as cr
from sim.state.cv import (
    DayPlan,
    Effect,
    EnemySpec,
    Hazard,
    RouteChoice,
    ScheduledEvent,
    Traveler,
    ticks_to_miles,
)
from tests.cv.helpers import BONUSES, baseline, convoy, kinds, ledger_at, line_map, travelers, world_of


def two_rows(width: int = 8) -> HexMap:
    """Two rows of plains road hexes, 12 miles each ("odd-r": hex ``width + k`` lies south-east of
    hex ``k``). The baseline's 36 mpd is 3 miles an hour: a hex every 4 hours, 3 hexes a day."""
    return HexMap(width=width, height=2, hexes=[Hex(terrain="plains", road="road") for _ in range(2 * width)], hex_miles=12)


# the long way from hex 0 to hex 7 of two_rows(): down to the second row, along it, and back up (9 hexes
# where the first row takes 7)
DETOUR = [0, 8, 9, 10, 11, 12, 13, 14, 15, 7]


# ---- hit points, wagons ------------------------------------------------------------------------------


@pytest.mark.rule("SC-CV-10", "RES-CV-23", "GEN-01")
def test_a_hit_rolled_to_nothing_on_a_caravan_at_0_hp_changes_nothing_but_is_recorded() -> None:
    """1d4−1 showing 1 is 0 damage: the dice are recorded (DamageTaken), and a caravan already at 0 HP
    is not immobilized a second time."""
    hm = line_map(4)
    c = baseline(hm, hp=0)
    w = world_of(c, hm)
    led = ledger_at()
    cr.apply_effect(w, c, Effect(kind="damage", dice="1d4-1"), ScriptedDice(["d4=1"]), led, "hail")
    assert kinds(led) == ["DamageTaken"]
    e = led.of_kind("DamageTaken")[0]
    assert (e.total, e.dice, e.data["before"], e.data["after"]) == (0, ((4, 1),), 0, 0)
    assert c.hp == 0 and c.status == "travelling"


@pytest.mark.rule("SC-CV-05", "RES-CV-23")
def test_two_wagons_bought_one_after_the_other_are_two_wagons() -> None:
    """Each wagon bought is a wagon of its own (an effect may name it, RES-CV-23): the baseline's wagons
    are 0–3, the two covered wagons bought become 4 and 5."""
    hm = line_map(4)
    c = baseline(hm)
    cfg = CvConfig()
    a = cr.add_wagon(c, "covered", cfg)
    b = cr.add_wagon(c, "covered", cfg)
    assert (a.id, b.id) == (4, 5)
    assert [x.id for x in c.wagons] == [0, 1, 2, 3, 4, 5]


@pytest.mark.rule("RES-CV-23", "SC-CV-10", "CV-UNR-04", "RES-CV-14")
def test_losing_a_wagon_down_to_0_hp_immobilizes_the_caravan() -> None:
    """Covered + supply (max 40) at 20 HP loses the covered wagon: max 20, HP 20 − 20 = 0. Check (a),
    then the caravan at 0 HP cannot move (SC-CV-10), then check (c) (0 ≤ 20 / 4)."""
    hm = line_map(4)
    c = convoy(["covered", "supply"], travelers(2), hm=hm, hp=20)
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=20", "d20=20"])  # Resolve 2: 22 ≥ 20 twice
    cr.lose_wagon(w, c, c.wagons[0], dice, led, "rockslide", ("RES-CV-06",))
    dice.assert_exhausted()
    assert (c.hp, c.max_hp) == (0, 20)
    assert kinds(led) == ["WagonLost", "UnrestCheckRolled", "ConvoyImmobilized", "UnrestCheckRolled"]
    imm = led.of_kind("ConvoyImmobilized")[0]
    assert (imm.outcome, imm.data["cause"]) == ("0 hp", "wagon lost")


@pytest.mark.rule("RES-CV-14", "SC-CV-12", "RES-CV-20", "CV-UNR-04")
def test_caravan_toughness_lifts_the_caravan_above_the_quarter_line_so_it_can_cross_it_again() -> None:
    """Baseline at 20 of 80 HP is at the 25% line. Caravan Toughness (+20 HP, max and current): 40 of
    100, above it again. 15 damage: 25 ≤ 100 / 4 — crossing it again makes a new check (c)."""
    hm = line_map(4)
    c = baseline(hm, hp=20)
    assert c.below_quarter
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=20"])
    cr.resolve_scheduled(w, c, ScheduledEvent(day=0, convoy="amber", kind="level_up", feat="caravan_toughness"), dice, led)
    assert (c.hp, c.max_hp) == (40, 100)
    cr.damage(w, c, 15, "rockslide", dice, led, ("CV-HAZ-03",))
    dice.assert_exhausted()
    assert c.hp == 25
    assert [e.data["trigger"] for e in led.of_kind("UnrestCheckRolled")] == ["(c) hit points at 25% or less"]


# ---- combat (SC-CV-14) ---------------------------------------------------------------------------------


@pytest.mark.rule("SC-CV-14", "CV-HAZ-04", "GEN-01")
def test_an_enemy_left_at_1_hp_still_stands_and_an_enemy_hit_records_its_damage_die() -> None:
    """Wolf: 5 HP, AC 10, +0, 1d6. Round 1: caravan 15 + Offense 1 = 16 ≥ 10, 1d6 3 + 1 = 4 → wolf at 1;
    wolf 13 ≥ AC 13 hits, 1d6 = 4 → 76 HP. Round 2: the wolf (1 HP) still stands: 16 hits, 1 + 1 = 2 →
    wolf at 0: victory."""
    hm = line_map(4)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    wolf = EnemySpec(id="wolf", ac=10, hp=5, attack=0, damage="1d6")
    h = Hazard(id="mk-wolf", check="combat", enemies=(wolf,), rounds=2)
    dice = ScriptedDice(["d20=15", "d6=3", "d20=13", "d6=4", "d20=15", "d6=1"])
    assert cr.resolve_hazard(w, c, h, dice, led)
    dice.assert_exhausted()
    assert c.hp == 76
    bites = led.of_kind("EnemyAttackRolled")
    assert [(e.outcome, e.dice, e.data["damage"]) for e in bites] == [("hit", ((20, 13), (6, 4)), 4)]
    blows = led.of_kind("CaravanAttackRolled")
    assert [(e.data["round"], e.data["damage"], e.data["enemy_hp"]) for e in blows] == [(1, 4, 1), (2, 2, 0)]
    end = led.of_kind("CombatEnded")[0]
    assert (end.outcome, end.data["enemies_left"]) == ("victory", [])


# ---- legality -------------------------------------------------------------------------------------------


@pytest.mark.rule("RES-CV-24")
def test_a_convoy_with_no_route_ahead_cannot_set_out() -> None:
    """A route that ends where the convoy stands leaves no hex to travel to."""
    hm = line_map(4)
    c = baseline(hm, at=2, dest=2)
    w = world_of(c, hm)
    assert cr.can_move(c, 6) == (False, "RES-CV-24", "no route ahead")
    with pytest.raises(IllegalOrderError, match="RES-CV-24: no route ahead"):
        cr.check(w, "amber", DayPlan())
    cr.check(w, "amber", DayPlan(move="rest"))


@pytest.mark.rule("SC-CV-13")
def test_mobility_without_a_plan_is_whether_the_convoy_can_move() -> None:
    """Four wagons and three drivers: each wagon needs its driver (SC-CV-13)."""
    hm = line_map(4)
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], travelers(3, "guard"), hm=hm)
    assert cr.mobility(c, 6) == (False, "SC-CV-13", "4 wagons need 4 drivers; 3 assigned")
    c2 = baseline(hm)
    assert cr.mobility(c2, 6) == (True, "", "")


@pytest.mark.rule("RES-CV-24", "SC-CV-13")
def test_mobility_of_a_plan_abandoning_a_wagon_the_convoy_lacks() -> None:
    """The baseline has no armored wagon to leave behind."""
    hm = line_map(4)
    c = baseline(hm)
    assert cr.mobility(c, 6, DayPlan(abandon="armored")) == (False, "RES-CV-24", "no armored wagon to abandon")


@pytest.mark.rule("RES-CV-11", "CV-PROV-01")
def test_a_purse_for_one_unit_of_stores_is_offered_one() -> None:
    """15 gp buys one unit of food stores at 10 gp (RES-CV-11), nothing else (a wagon costs 300 gp or
    more, axles 100 gp, repair materials need a wainwright)."""
    hm = line_map(4, villages={0: "Ashford"})
    c = baseline(hm, gp=15)
    w = world_of(c, hm)
    assert cr.purchase_options(w, c) == ["stores:1"]
    assert any(p.buy == "stores:1" for p in cr.legal_orders(w, "amber"))


@pytest.mark.rule("RES-CV-24")
def test_a_caravan_does_not_abandon_its_last_wagon() -> None:
    hm = line_map(4)
    c = convoy(["covered"], travelers(1), hm=hm)
    w = world_of(c, hm)
    with pytest.raises(IllegalOrderError, match="RES-CV-24: a caravan does not abandon its last wagon"):
        cr.check(w, "amber", DayPlan(move="rest", abandon="covered"))


@pytest.mark.rule("RES-CV-16", "CV-UNR-08")
def test_a_gift_of_a_kind_never_carried_is_refused() -> None:
    """The first gift costs 1 unit; the caravan carries no treasure at all."""
    hm = line_map(4)
    c = baseline(hm, unrest=3, cargo={"trade_goods": 2})
    w = world_of(c, hm)
    with pytest.raises(IllegalOrderError, match="RES-CV-16: the next gift costs 1 cargo units of treasure; the caravan carries 0"):
        cr.check(w, "amber", DayPlan(move="rest", gift="treasure"))


# ---- orders of the day, scheduled events, wages ------------------------------------------------------


@pytest.mark.rule("SC-CV-05", "SC-CV-06")
def test_a_wagon_bought_counts_its_price_as_gold_spent() -> None:
    """A covered wagon costs 500 gp (SC-CV-06): the purse 600 → 100, gold spent 0 → 500."""
    hm = line_map(4, villages={0: "Ashford"})
    c = baseline(hm, gp=600)
    w = world_of(c, hm)
    cr.resolve_purchase(w, c, "wagon:covered", ledger_at())
    assert (c.gp, c.gp_spent) == (100, 500)


@pytest.mark.rule("CV-UNR-07")
def test_an_unrest_event_is_announced_with_its_note() -> None:
    """A scenario event raising Unrest by 2 says why (its note); without a note, "campaign event"."""
    hm = line_map(4)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_scheduled(w, c, ScheduledEvent(day=0, convoy="amber", kind="unrest", amount=2, note="rumours of plague"),
                         ScriptedDice([]), led)
    cr.resolve_scheduled(w, c, ScheduledEvent(day=0, convoy="amber", kind="unrest", amount=1), ScriptedDice([]), led)
    assert [(e.total, e.outcome) for e in led.of_kind("UnrestRose")] == [(2, "rumours of plague"), (3, "campaign event")]


@pytest.mark.rule("SC-CV-03")
def test_an_unpaid_hand_becomes_a_passenger_today_so_cannot_change_jobs_again_today() -> None:
    """SC-CV-03: unpaid NPCs become passengers — today's job change; a job changes after 24 hours."""
    hm = line_map(4)
    c = baseline(hm, gp=0)
    c.travelers.append(Traveler(id="hand", job="guard", wage_gp=5))
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_wages(w, c, led, "monthly")
    assert led.of_kind("WagesUnpaid")[0].outcome == "passenger"
    with pytest.raises(IllegalOrderError, match="SC-CV-03: hand changed jobs less than 24 hours ago"):
        cr.check(w, "amber", DayPlan(move="rest", assign="hand:guard"))


# ---- route risk and routes --------------------------------------------------------------------------


@pytest.mark.rule("RES-CV-24", "RES-CV-06", "CV-HAZ-03")
@pytest.mark.parametrize("effect", [
    Effect(kind="lose_provisions", amount=10),
    Effect(kind="lose_cargo", cargo="trade_goods", amount=1),
    Effect(kind="kill_traveler"),
    Effect(kind="block_travel"),
    Effect(kind="lose_wagon"),
    Effect(kind="suspend_job", days=2),
])
def test_every_effect_of_a_failed_hazard_is_a_harm_the_safe_route_weighs(effect: Effect) -> None:
    """Each failure effect of RES-CV-06 hurts the caravan (CV-HAZ-03), so a stretch whose hazard has
    only that effect is riskier than one without hazards: its expected harm is above 0."""
    assert cr.hazard_harm(Hazard(id=f"mk-only-{effect.kind}", check="security", dc=15, on_fail=(effect,))) > 0


@pytest.mark.rule("RES-CV-24", "RES-CV-06")
def test_the_expected_damage_of_two_dice_is_their_mean() -> None:
    """2d6 averages 2 × 3.5 = 7; 2d6+1, 8."""
    assert cr.hazard_harm(Hazard(id="mk-2d6", check="security", dc=15, on_fail=(Effect(kind="damage", dice="2d6"),))) == 7.0
    assert cr.hazard_harm(Hazard(id="mk-2d6+1", check="security", dc=15,
                                 on_fail=(Effect(kind="damage", dice="2d6+1"),))) == 8.0


@pytest.mark.rule("RES-CV-24", "SC-CV-02", "RES-CV-05", "CV-MUT-02")
def test_a_route_is_judged_on_the_standing_statistics_not_todays_condition_or_mutiny() -> None:
    """The baseline's Security +4 and Resolve +7 (§7.4), fatigued (−2) and in mutiny (Unrest 5 > Morale 2,
    −3) or not."""
    hm = line_map(4)
    c = baseline(hm)
    w = world_of(c, hm)
    assert cr.route_stats(w, c) == (4, 7)
    c2 = baseline(hm, unrest=5)
    c2.condition = "fatigued"
    w2 = world_of(c2, hm)
    assert cr.stat_value(c2, "resolve", w2.config.cv, 6, BONUSES) == 7 - 2 - 3
    assert cr.route_stats(w2, c2) == (4, 7)


@pytest.mark.rule("RES-CV-24", "RES-CV-02")
def test_a_new_route_keeps_the_progress_toward_its_first_hex_only() -> None:
    """ENG-CV-01: miles covered toward the next hex carry on toward it; a route that turns elsewhere
    first drops them."""
    hm = two_rows()
    c = baseline(hm, dest=7)
    w = world_of(c, hm)
    c.progress = 100
    cr.resolve_route(w, "amber", RouteChoice("safe", (0, 1, 2, 3, 4, 5, 6, 7), 2.33, 0.0), ledger_at())
    assert c.progress == 100  # still toward hex 1
    cr.resolve_route(w, "amber", RouteChoice("safe", tuple(DETOUR), 3.0, 0.0), ledger_at())
    assert c.progress == 0  # now toward hex 8


@pytest.mark.rule("RES-CV-24", "RES-CV-02")
def test_an_ordinary_day_keeps_the_chosen_route() -> None:
    """A convoy on a chosen longer route (its route already weighed here) travels 3 hexes along it and
    keeps it: the route is planned again only after a wandering mutiny (ENG-CV-07) or in a settlement."""
    hm = two_rows()
    c = baseline(hm, dest=7)
    c.path = list(DETOUR)
    c.route_checked = 0
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), led)
    assert c.hex == 10
    assert c.path[c.path_pos:] == [10, 11, 12, 13, 14, 15, 7]
    assert led.of_kind("RouteChosen") == []


@pytest.mark.rule("RES-CV-24", "RES-CV-02")
def test_on_its_first_day_a_convoy_takes_the_one_route_there_is() -> None:
    """No hazard table: the fast and the safe route are the same 7 hexes along the first row, so the
    convoy that was on the detour takes it at once (RouteChosen) and travels 3 hexes along it."""
    hm = two_rows()
    c = baseline(hm, dest=7)
    c.path = list(DETOUR)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), led)
    (e,) = led.of_kind("RouteChosen")
    assert (e.outcome, e.data["hexes"]) == ("fast", 7)
    assert c.hex == 3


# ---- travel ---------------------------------------------------------------------------------------------


@pytest.mark.rule("RES-CV-03", "CV-TRAV-04")
def test_the_clock_marks_the_night_hours_of_every_day_not_only_the_first() -> None:
    """Night 18–06 by the clock: day 1's slot (hours 30–41, 06:00–18:00) is all day hours: 12 × 3 = 36
    miles."""
    hm = line_map(10)
    cfg = Config(cv=CvConfig(travel_hours_are_day=False, night_starts_hour=18, night_ends_hour=6))
    c = baseline(hm)
    w = world_of(c, hm, config=cfg, now=30)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), ledger_at(30))
    assert ticks_to_miles(c.ticks_total) == 36


@pytest.mark.rule("RES-CV-24", "CV-TRAV-04")
def test_halting_at_a_village_counts_the_hour_that_reached_it() -> None:
    """3 miles an hour, 12-mile hexes: hex 1 after 4 hours, the village in hex 2 after 8: the convoy
    halts there having moved 8 hours (rest counted from hour 6 + 8 = 14)."""
    hm = line_map(10, villages={2: "Ashford"})
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(halt=True)), ScriptedDice([]), led)
    ev = led.of_kind("ConvoyTravelled")[0]
    assert (ev.total, ev.outcome, ev.data["miles"]) == (8, "halted", "24")
    assert (c.hex, c.moved_until) == (2, 14)


@pytest.mark.rule("SC-CV-10", "CV-TRAV-04")
def test_a_caravan_at_1_hp_still_travels() -> None:
    """Only a caravan at 0 HP cannot move (SC-CV-10): at 1 HP the baseline covers its 36 miles."""
    hm = line_map(10)
    c = baseline(hm, hp=1)
    w = world_of(c, hm)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), ledger_at())
    assert ticks_to_miles(c.ticks_total) == 36


@pytest.mark.rule("CV-MUT-03", "RES-CV-18")
def test_a_mutiny_wandering_east_is_recorded_as_wandering() -> None:
    """Unrest 5, Morale 2: Resolve 7 − 3 = +4 vs DC 25; d20 1 → 5 fails by 20; 1d2 = 2 → a random
    direction; the route goes south-east (hex 0 → 8), so 1d6 = 1 (east, direction 0) stands. Half speed
    east: 12 × 1.5 = 18 miles."""
    hm = two_rows()
    c = baseline(hm, dest=15, unrest=5)
    c.path = [0, 8, 9, 10, 11, 12, 13, 14, 15]
    c.route_checked = 0
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=1", "d2=2", "d6=1"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    wander = led.of_kind("MutinyWandered")[0]
    assert (wander.total, wander.data["chosen"]) == (0, "SE")
    ev = led.of_kind("ConvoyTravelled")[0]
    assert (ev.data["wander"], ev.data["half_speed"], ev.data["miles"]) == (True, True, "18")
    assert c.hex == 1


@pytest.mark.rule("CV-REST-01", "RES-CV-08", "CV-TRAV-05")
def test_fatigue_after_a_forced_march_counts_its_extra_hours() -> None:
    """12 slot hours + 2 extra hours (12 + 4 = 16 ≥ DC 15, then 16 ≥ DC 16) = a 14-hour stretch ending at
    hour 20; the next slot starts at 30 after 10 hours of rest: fatigued "after 10 h of rest following
    14 h of travel" (that day's rest, 12 hours from hour 18, then removes the fatigue)."""
    hm = line_map(30)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=2)), ScriptedDice(["d20=12", "d20=12"]), led)
    assert c.moved_until == 20
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), ScriptedDice([]), led)
    e = led.of_kind("ConditionChanged")[0]
    assert (e.t, e.outcome, e.data["why"]) == (30, "fatigued", "set out after 10 h of rest following 14 h of travel")


# ---- LINK-04 ------------------------------------------------------------------------------------------


@pytest.mark.rule("SC-CV-07", "LINK-04")
def test_the_standard_caravan_has_six_travelers_three_of_whom_drive() -> None:
    """SC-CV-07: covered, fortune-teller's and supply wagons, six NPC travelers (six distinct people),
    three of them drivers."""
    c = cr.standard_convoy("trade", 0, 3, CvConfig())
    assert [x.kind for x in c.wagons] == ["covered", "fortune_teller", "supply"]
    ids = [t.id for t in c.travelers]
    assert len(ids) == 6 and len(set(ids)) == 6
    assert sum(1 for t in c.travelers if t.job == "driver" and t.can_drive) == 3
