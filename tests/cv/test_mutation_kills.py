"""Tests written against surviving mutants of tools/mutate.py (issue 10): each pins a behaviour of
sim/rules/cv/ that a mutant changed and no earlier CV test noticed (an event field, an
offered order, a route cost, a boundary). Expected values are worked by hand from RULES.md."""

from __future__ import annotations

import pytest

from sim.config import Config, CvConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.hexmap import Hex, HexMap
from sim.rules import cv as cr
from sim.state.cv import (
    SUSPENDED_FOREVER,
    Band,
    Convoy,
    DayPlan,
    Effect,
    EnemySpec,
    Hazard,
    HazardTable,
    RouteChoice,
    Traveler,
    ticks_to_miles,
)
from sim.world import World
from tests.cv.helpers import baseline, convoy, ledger_at, line_map, travelers, world_of

# ---- wagons, travelers, cargo ---------------------------------------------------------------


@pytest.mark.rule("SC-CV-12", "SC-CV-05")
def test_a_lost_toughness_comes_back_with_one_new_wagon_only() -> None:
    """The pending Caravan Toughness is used up by the first wagon of its type bought back."""
    hm = line_map(4)
    c = convoy(["supply"], travelers(1), hm=hm, feats=["caravan_toughness_lost:covered"])
    cfg = CvConfig()
    a = cr.add_wagon(c, "covered", cfg)
    b = cr.add_wagon(c, "covered", cfg)
    assert (a.toughness, b.toughness) == (1, 0)
    assert "caravan_toughness_lost:covered" not in c.feats
    # supply 20 + covered 20 + toughness 20 + covered 20
    assert (c.max_hp, c.hp) == (80, 80)


@pytest.mark.rule("RES-CV-23", "SC-CV-05", "SC-CV-09", "RES-CV-14", "CV-UNR-04")
def test_losing_a_wagon_is_recorded_crosses_the_quarter_line_and_leaves_a_passenger() -> None:
    """WagonLost with its HP, then checks (a) and (c), then the passenger that no longer fits leaves."""
    hm = line_map(4)
    crew = travelers(3, *["passenger"] * 6)  # 9 travelers
    c = convoy(["covered", "supply", "covered"], crew, hm=hm, hp=30)  # max 20 + 20 + 20 = 60
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d20=20", "d20=20"])
    cr.lose_wagon(w, c, c.wagons[0], dice, led, "rockslide", ("RES-CV-06",))
    dice.assert_exhausted()
    # max 60 − 20 = 40, hp 30 − 20 = 10: 4 × 10 = 40 ≤ 40, at the 25% line
    lost = led.of_kind("WagonLost")
    assert len(lost) == 1
    e = lost[0]
    assert e.outcome == "rockslide"
    assert (e.data["wagon"], e.data["wagon_kind"], e.data["hp_before"], e.data["hp_after"], e.data["max_hp"]) == (
        0, "covered", 30, 10, 40)
    checks = led.of_kind("UnrestCheckRolled")
    assert [x.data["trigger"] for x in checks] == ["(a) wagon lost", "(c) hit points at 25% or less"]
    assert c.below_quarter
    # travelers: supply 2 + covered 6 = 8 seats for 9: the last-listed passenger leaves
    left = led.of_kind("TravelerLeft")
    assert [(x.outcome, x.data["traveler"], x.data["job"], x.data["capacity"]) for x in left] == [
        ("no room", "passenger6", "passenger", 8)]
    assert len(c.travelers) == 8


@pytest.mark.rule("CV-HAZ-03", "RES-CV-06")
def test_losing_cargo_the_caravan_does_not_carry_records_nothing_left() -> None:
    """A lose_cargo effect on a kind never carried loses 0 and leaves 0 of it."""
    hm = line_map(4)
    c = baseline(hm, cargo={"trade_goods": 3})
    w = world_of(c, hm)
    led = ledger_at()
    cr.apply_effect(w, c, Effect(kind="lose_cargo", cargo="treasure", amount=2), ScriptedDice([]), led, "thieves")
    e = led.of_kind("CargoLost")[0]
    assert (e.total, e.outcome, e.data["cargo"], e.data["left"]) == (0, "thieves", "treasure", 0)


@pytest.mark.rule("RES-CV-06", "GEN-06")
def test_the_wagon_chosen_by_the_die_records_the_face() -> None:
    """Four candidate wagons: 1d4 showing 2 picks the second (id 1); the event's total is the face."""
    hm = line_map(4)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    dice = ScriptedDice(["d4=2", "d20=20"])
    cr.apply_effect(w, c, Effect(kind="lose_wagon"), dice, led, "flood")
    dice.assert_exhausted()
    e = led.of_kind("WagonChosen")[0]
    assert (e.total, e.outcome, e.data["candidates"]) == (2, "1", [0, 1, 2, 3])
    assert [x.kind for x in c.wagons] == ["covered", "supply", "horse_train"]


@pytest.mark.rule("CV-HAZ-03", "RES-CV-06")
def test_a_job_suspended_for_0_days_is_for_good_and_a_suspension_ending_now_is_over() -> None:
    """A scout whose suspension ends this very hour works again, so can be suspended; 0 days = for good."""
    hm = line_map(4)
    c = baseline(hm)
    c.travelers.append(Traveler(id="scout1", job="scout", suspended_until=6))
    w = world_of(c, hm, now=6)
    led = ledger_at()
    cr.apply_effect(w, c, Effect(kind="suspend_job", job="scout", days=0), ScriptedDice([]), led, "injury")
    assert c.travelers[-1].suspended_until == SUSPENDED_FOREVER
    e = led.of_kind("JobSuspended")[0]
    assert (e.outcome, e.data["traveler"], e.data["days"], e.data["permanent"]) == ("injury", "scout1", None, True)


@pytest.mark.rule("CV-HAZ-04", "SC-CV-14", "RES-CV-07")
def test_combat_is_announced_and_a_hit_for_0_damage_takes_no_hp() -> None:
    """CombatBegan lists the enemies; an enemy hit rolled to 0 damage (1d4−1 showing 1) takes nothing."""
    hm = line_map(4)
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    wolf = EnemySpec(id="wolf", ac=30, hp=3, attack=0, damage="1d4-1")
    h = Hazard(id="mk-wolf", check="combat", enemies=(wolf,), rounds=1)
    # caravan: d20 1 + attack < 30, a miss; wolf: 20 + 0 ≥ AC 13, a hit for 1 − 1 = 0
    dice = ScriptedDice(["d20=1", "d20=20", "d4=1"])
    assert not cr.resolve_hazard(w, c, h, dice, led)
    dice.assert_exhausted()
    began = led.of_kind("CombatBegan")
    assert len(began) == 1
    assert (began[0].outcome, began[0].data["enemies"], began[0].data["rounds"]) == ("mk-wolf", [["wolf", 3, 30]], 1)
    assert c.hp == 80
    hit = led.of_kind("EnemyAttackRolled")[0]
    assert (hit.outcome, hit.data["damage"]) == ("hit", 0)
    assert led.of_kind("DamageTaken") == []  # nothing taken, no die drawn by damage(): no event


# ---- route risk (the route options of RES-CV-24) ----------------------------------------------


@pytest.mark.rule("RES-CV-24", "RES-CV-06")
def test_hazard_harm_of_unrest_damage_and_combat() -> None:
    """The expected harm of a failed hazard: 6 per Unrest point, the mean of the damage dice, and for
    combat half the enemies' mean damage per round for at most 3 rounds."""
    riot = Hazard(id="mk-riot", check="resolve", dc=10, on_fail=(Effect(kind="unrest", amount=2),))
    assert cr.hazard_harm(riot) == pytest.approx(12.0)  # 6 × 2
    rocks = Hazard(id="mk-rocks", check="security", dc=10, on_fail=(Effect(kind="damage", dice="1d6+1"),))
    assert cr.hazard_harm(rocks) == pytest.approx(4.5)  # 1 + (1 + 6) / 2
    ogre = EnemySpec(id="ogre", ac=12, hp=20, attack=4, damage="1d8")
    brawl = Hazard(id="mk-brawl", check="combat", enemies=(ogre,), rounds=5)
    assert cr.hazard_harm(brawl) == pytest.approx(6.75)  # 4.5 × 0.5 × min(5, 3)


@pytest.mark.rule("RES-CV-24", "CV-HAZ-02", "RES-CV-06")
def test_fail_chance_counts_the_faces_below_dc_minus_the_statistic() -> None:
    """Security +4 against DC 14 fails on 1–9 (9/20); Resolve +7 against DC 14 on 1–6 (6/20)."""
    assert cr.fail_chance(Hazard(id="mk-a", check="security", dc=14), 4, 7) == pytest.approx(0.45)
    assert cr.fail_chance(Hazard(id="mk-b", check="resolve", dc=14), 4, 7) == pytest.approx(0.30)


def _risky_world(n: int = 4) -> tuple[HexMap, Convoy, World]:
    hm = line_map(n)
    c = baseline(hm)
    rocks = Hazard(id="mk-rocks2", check="security", dc=14, on_fail=(Effect(kind="damage", dice="1d6+1"),))
    tb = HazardTable(id="all", bands=(Band(1, 100, "mk-rocks2"),))
    return hm, c, world_of(c, hm, hazards={"mk-rocks2": rocks}, tables=[tb])


@pytest.mark.rule("RES-CV-24", "RES-CV-02", "RES-CV-06")
def test_the_safe_route_cost_adds_the_risk_of_the_first_table() -> None:
    """The first table (index 0) counts too: a plains road hex is 12 mi at 36 mpd = 1/3 day, plus
    1/3 × risk / 10 with risk = 100% × 9/20 × 4.5 = 2.025; the route's risk is 2 hexes × 2.025 × 1/3."""
    hm, c, w = _risky_world()
    speed = cr.speed_mpd(c, w.config.cv)
    assert speed == 36
    steps = cr.step_costs(w, "safe", 4, 7, speed)
    assert steps[1] == pytest.approx(1 / 3 * (1 + 2.025 / 10))
    assert cr.step_costs(w, "fast", 4, 7, speed)[1] == pytest.approx(1 / 3)
    assert cr.route_risk(w, c, [0, 1, 2]) == pytest.approx(2 * 2.025 / 3)


@pytest.mark.rule("RES-CV-24", "RES-CV-02")
def test_route_days_counts_an_impassable_hex_at_the_open_terrain_rate() -> None:
    """route_days of a path through water (no multiplier) counts that hex at ×1: 12 × 4 / (36 × 4) +
    12 × 4 / 36 = 1/3 + 4/3 days."""
    hexes = [Hex(terrain="plains", road="road"), Hex(terrain="plains", road="road"), Hex(terrain="water")]
    hm = HexMap(width=3, height=1, hexes=hexes)
    c = baseline(hm, dest=1)
    w = world_of(c, hm)
    assert cr.route_days(w, c, [0, 1, 2]) == pytest.approx(1 / 3 + 4 / 3)


@pytest.mark.rule("RES-CV-24", "RES-CV-02")
def test_a_chosen_route_is_recorded_and_must_start_at_the_convoy() -> None:
    """The route kind is kept for the replans; RouteChosen records it; a route starting elsewhere is illegal."""
    hm = line_map(6, villages={3: "Ashford"})
    c = baseline(hm)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_route(w, "amber", RouteChoice("safe", (0, 1, 2, 3, 4, 5), 2.0, 1.5), led)
    assert c.route_kind == "safe" and c.path == [0, 1, 2, 3, 4, 5]
    e = led.of_kind("RouteChosen")[0]
    assert (e.outcome, e.data["hexes"], e.data["days"], e.data["risk"]) == ("safe", 5, 2.0, 1.5)
    assert e.data["via"] == [hm.label(3)]
    with pytest.raises(IllegalOrderError, match="RES-CV-24"):
        cr.resolve_route(w, "amber", RouteChoice("fast", (1, 2, 3), 1.0, 0.0), led)


# ---- legal orders -------------------------------------------------------------------------------


@pytest.mark.rule("RES-CV-24")
def test_a_convoy_that_has_arrived_cannot_move() -> None:
    """A convoy that is no longer travelling (arrived) cannot set out."""
    hm = line_map(4)
    c = baseline(hm)
    c.status = "arrived"
    assert cr.can_move(c, 6)[:2] == (False, "RES-CV-24")


@pytest.mark.rule("SC-CV-13", "SC-CV-03")
def test_taking_a_driver_off_the_box_leaves_a_wagon_without_driver() -> None:
    """Four wagons, four drivers: moving driver1 to scouting leaves 3 drivers for 4 wagons."""
    hm = line_map(4)
    c = baseline(hm)
    w = world_of(c, hm, now=30)
    plan = DayPlan(assign="driver1:scout")
    assert cr.mobility(c, 30, plan)[:2] == (False, "SC-CV-13")
    with pytest.raises(IllegalOrderError, match="SC-CV-13: 4 wagons need 4 drivers; 3 assigned"):
        cr.check(w, "amber", plan)


@pytest.mark.rule("SC-CV-10", "SC-CV-13")
def test_a_caravan_at_1_hp_can_move_once_a_driver_is_assigned() -> None:
    """1 HP is above 0 (SC-CV-10): with a guide put on the box, 4 drivers for 4 wagons, it may travel."""
    hm = line_map(4)
    crew = travelers(3, "guard")
    crew.append(Traveler(id="sandru", job="guide", can_drive=True))
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], crew, hm=hm, hp=1)
    assert cr.mobility(c, 30, DayPlan(assign="sandru:driver")) == (True, "", "")


@pytest.mark.rule("RES-CV-24")
def test_halting_is_offered_for_a_settlement_up_to_4_hexes_ahead() -> None:
    """A settlement 4 hexes ahead may be a halt; one 5 hexes ahead is not offered."""
    hm = line_map(10, villages={4: "Ashford"})
    c = baseline(hm)
    w = world_of(c, hm)
    assert any(p.halt for p in cr.legal_orders(w, "amber"))
    hm5 = line_map(10, villages={5: "Ashford"})
    c5 = baseline(hm5)
    w5 = world_of(c5, hm5)
    assert not any(p.halt for p in cr.legal_orders(w5, "amber"))


@pytest.mark.rule("RES-CV-01", "RES-CV-11")
def test_axles_are_offered_only_for_a_wagon_without_them_and_within_the_purse() -> None:
    """Improved axles (100 gp) need both a wagon without them and the gold."""
    hm = line_map(4, villages={0: "Millbrook"})
    c = baseline(hm, gp=1000)
    for x in c.wagons:
        x.axles = True
    w = world_of(c, hm)
    assert "axles" not in cr.purchase_options(w, c)  # every wagon has them
    c2 = baseline(hm, gp=50)  # 50 gp < 100 gp
    w2 = world_of(c2, hm)
    assert "axles" not in cr.purchase_options(w2, c2)
    c3 = baseline(hm, gp=100)
    w3 = world_of(c3, hm)
    assert "axles" in cr.purchase_options(w3, c3)


@pytest.mark.rule("RES-CV-24", "SC-CV-13")
def test_the_last_wagon_is_never_offered_for_abandoning() -> None:
    """One wagon and no driver: the caravan can only rest; abandoning its only wagon is not offered."""
    hm = line_map(4)
    c = convoy(["covered"], travelers(0, "guard"), hm=hm)
    w = world_of(c, hm)
    plans = cr.legal_orders(w, "amber")
    assert plans and {p.abandon for p in plans} == {""}
    assert {p.move for p in plans} == {"rest"}


@pytest.mark.rule("RES-CV-24", "SC-CV-13")
def test_abandoning_one_of_two_wagons_of_a_kind() -> None:
    """Two covered wagons, one driver: leaving one behind lets the caravan travel."""
    hm = line_map(4)
    c = convoy(["covered", "covered"], travelers(1), hm=hm)
    w = world_of(c, hm)
    plans = cr.legal_orders(w, "amber")
    assert {p.abandon for p in plans} == {"", "covered"}
    assert DayPlan(abandon="covered") in plans
    assert {p.move for p in plans if not p.abandon} == {"rest"}


@pytest.mark.rule("RES-CV-23", "RES-CV-24")
def test_a_repair_day_is_offered_as_a_plain_repair_day() -> None:
    """A repair day is a day's order of its own: never offered as a night move."""
    hm = line_map(4)
    c = baseline(hm, hp=40, cargo={"repair": 2})
    c.travelers.append(Traveler(id="wainwright1", job="wainwright"))
    w = world_of(c, hm)
    repairs = [p for p in cr.legal_orders(w, "amber") if p.move == "repair"]
    assert DayPlan(move="repair") in repairs
    assert not any(p.night for p in repairs)


@pytest.mark.rule("CV-UNR-06", "RES-CV-22", "CV-PROV-02")
def test_double_rations_are_offered_only_when_the_day_can_pay_for_them() -> None:
    """Double rations need a consumption above 0 and 2 × consumption in the day's pool (stores + foraged)."""
    hm = line_map(4)
    # baseline eats 2 + 1 + 1 + 6 + 6 travelers = 16: 20 units < 32, no double rations
    c = baseline(hm, provisions=20)
    w = world_of(c, hm)
    assert not any(p.double for p in cr.legal_orders(w, "amber"))
    # supply wagon 1 + driver + cook = 3 − 2 (cook) = 1 a day: double rations (2) are offered
    c1 = convoy(["supply"], travelers(1, "cook"), hm=hm, provisions=100)
    w1 = world_of(c1, hm)
    assert cr.consumption(c1, w1.now) == 1
    assert any(p.double for p in cr.legal_orders(w1, "amber"))
    # two cooks: 1 + 3 − 4 → 0 a day; nothing to double
    c0 = convoy(["supply"], travelers(1, "cook", "cook"), hm=hm, provisions=100)
    w0 = world_of(c0, hm)
    assert cr.consumption(c0, w0.now) == 0
    assert not any(p.double for p in cr.legal_orders(w0, "amber"))
    # two scouts: 1 + 3 = 4 a day, 4 units carried; foraging adds 2 × 2 = 4: 8 ≥ 2 × 4 only when foraging
    c2 = convoy(["supply"], travelers(1, "scout", "scout"), hm=hm, provisions=4)
    w2 = world_of(c2, hm)
    assert {(p.forage, p.double) for p in cr.legal_orders(w2, "amber")} == {(False, False), (True, False), (True, True)}


@pytest.mark.rule("SC-CV-03", "RES-CV-24")
def test_a_job_change_to_an_unknown_job_is_unreadable() -> None:
    """A job change to a job the rules do not list is an unreadable order, not a legal one."""
    hm = line_map(4)
    c = baseline(hm)
    w = world_of(c, hm, now=30)
    with pytest.raises(InvalidOrderError, match="cannot read job change"):
        cr.check(w, "amber", DayPlan(move="rest", assign="guard1:juggler"))


@pytest.mark.rule("CV-UNR-08", "RES-CV-16")
def test_no_gift_of_goods_never_carried() -> None:
    """A gift of a cargo kind the caravan has never carried is refused (the next gift costs 1 unit)."""
    hm = line_map(4)
    c = baseline(hm, cargo={"treasure": 1})
    w = world_of(c, hm)
    with pytest.raises(IllegalOrderError, match="RES-CV-16"):
        cr.resolve_gift(w, c, "trade_goods", ledger_at())
    assert c.unrest == 0 and c.gifts == 0


@pytest.mark.rule("CV-PROV-01", "RES-CV-11")
def test_stores_bought_count_in_the_gold_spent() -> None:
    """Food stores cost 10 gp a unit and the gold spent is tallied."""
    hm = line_map(4, villages={0: "Millbrook"})
    c = baseline(hm, gp=100, provisions=0)
    w = world_of(c, hm)
    cr.resolve_purchase(w, c, "stores:3", ledger_at())
    # 3 × 10 gp; 3 × 10 provision units
    assert (c.gp, c.gp_spent, c.provisions, c.stores_bought) == (70, 30, 30, 3)


@pytest.mark.rule("SC-CV-05", "SC-CV-06")
def test_a_wagon_bought_up_to_its_type_limit_is_not_over_it() -> None:
    """The fortune-teller's wagon has a limit of 1: the first one bought is within it, a second is over."""
    hm = line_map(4, villages={0: "Millbrook"})
    c = convoy(["covered"], travelers(1), hm=hm, gp=1000)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_purchase(w, c, "wagon:fortune_teller", led)
    cr.resolve_purchase(w, c, "wagon:fortune_teller", led)
    bought = led.of_kind("WagonBought")
    assert [(e.outcome, e.data["over_limit"]) for e in bought] == [("fortune_teller", False), ("fortune_teller", True)]
    assert c.gp == 1000 - 2 * 500


@pytest.mark.rule("SC-CV-03")
def test_a_wage_of_1_gp_is_paid() -> None:
    """A hired NPC with a 1 gp wage is paid from the purse like any other."""
    hm = line_map(4)
    c = baseline(hm, gp=10)
    c.travelers.append(Traveler(id="porter", job="passenger", wage_gp=1))
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_wages(w, c, led, "monthly")
    assert (c.gp, c.gp_spent) == (9, 1)
    e = led.of_kind("WagesPaid")[0]
    assert (e.total, e.outcome, e.data["travelers"]) == (1, "monthly", ["porter"])


@pytest.mark.rule("CV-MUT-03", "RES-CV-18", "CV-UNR-04")
def test_a_mutiny_check_failed_by_exactly_5_is_a_failure_by_5_or_more() -> None:
    """Unrest 3, Morale 2: DC 23, Resolve 2 − 1 (mutiny margin) = +1; 17 + 1 = 18 fails by 5: refusal."""
    hm = line_map(4)
    c = convoy(["covered"], travelers(1), hm=hm, unrest=3)
    w = world_of(c, hm, config=Config(cv=CvConfig(mutiny_fail5_outcome="refuse")))
    led = ledger_at()
    dice = ScriptedDice(["d20=17", "d20=20"])  # the mutiny check, then the (d) Unrest check of the refusal
    cr.new_day(c, 0, w.now)
    cr.resolve_slot_start(w, "amber", DayPlan(), dice, led)
    dice.assert_exhausted()
    e = led.of_kind("MutinyCheckRolled")[0]
    assert (e.dc, e.total, e.outcome) == (23, 18, "failure by 5 or more")
    assert led.of_kind("MutinyRefusedToMove") and c.today.refused


def _wander_map(hex_miles: int = 12) -> tuple[HexMap, int]:
    """7 × 3 plains with roads; the start (3, 1) has a forest E neighbour (4, 1) and water beyond (5, 1)."""
    hexes = [Hex(terrain="plains", road="road") for _ in range(21)]
    hm = HexMap(width=7, height=3, hexes=hexes, hex_miles=hex_miles)
    hm.hexes[hm.index(4, 1)] = Hex(terrain="forest", road="road")
    hm.hexes[hm.index(5, 1)] = Hex(terrain="water")
    return hm, hm.index(3, 1)


@pytest.mark.rule("CV-MUT-03", "RES-CV-18", "RES-CV-06", "RES-CV-02")
def test_a_mutiny_wandering_east_rolls_the_table_of_the_east_hex_and_stops_before_water() -> None:
    """Route west; the wander die shows 1 = E (direction 0): the day's table is the one of the forest
    hex east, not of the route's next hex. Half speed on a forest road: 36 / 2 / 12 = 1.5 mi/h, so
    the 10-mile forest hex is entered in hour 7 (10.5 mi); water lies beyond: stuck there, the
    0.5 mi of progress dropped."""
    hm, start = _wander_map(hex_miles=10)
    dest = hm.index(0, 1)
    c = baseline(hm, at=start, dest=dest, unrest=5)  # margin 3: Resolve 7 − 3 = +4, DC 25
    c.path = [start, start - 1, start - 2, dest]
    woods = HazardTable(id="woods", bands=(Band(1, 100),), terrains=("forest",))
    w = world_of(c, hm, tables=[woods], config=Config(cv=CvConfig(mutiny_fail5_outcome="random_direction")))
    led = ledger_at()
    # 2 + 4 = 6 fails DC 25 by 19: a random direction; 1d6 = 1 (E, not the chosen W); the woods' d100
    dice = ScriptedDice(["d20=2", "1d6=1", "d%=40"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    east = hm.index(4, 1)
    assert led.of_kind("HazardTableRolled")[0].data["hex"] == east
    moved = led.of_kind("ConvoyTravelled")[0]
    assert (moved.outcome, moved.total, moved.data["progress"]) == ("stuck", 7, "0")
    assert c.hex == east and ticks_to_miles(c.ticks_total) == 10.5


@pytest.mark.rule("CV-MUT-03", "RES-CV-18", "RES-CV-02")
def test_a_mutiny_wandering_off_the_map_does_not_move() -> None:
    """At the east edge, wandering E (1d6 = 1) leads off the map: stuck in hour 1, no hour moved."""
    hm = HexMap(width=7, height=3, hexes=[Hex(terrain="plains", road="road") for _ in range(21)])
    start, dest = hm.index(6, 1), hm.index(3, 1)
    c = baseline(hm, at=start, dest=dest, unrest=5)
    c.path = [start, start - 1, start - 2, dest]
    w = world_of(c, hm, config=Config(cv=CvConfig(mutiny_fail5_outcome="random_direction")))
    led = ledger_at()
    dice = ScriptedDice(["d20=2", "1d6=1"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    moved = led.of_kind("ConvoyTravelled")[0]
    assert (moved.outcome, moved.total) == ("stuck", 0)
    assert c.hex == start and c.ticks_total == 0 and c.days_travelled == 0


@pytest.mark.rule("CV-HAZ-02", "RES-CV-06", "RES-CV-24")
def test_a_slot_ended_by_a_hazard_is_recorded_as_stopped() -> None:
    """The hazard of hour 5 blocks travel: the slot ends after 4 hours, 'stopped'; a day travelled."""
    hm = line_map(30)
    c = baseline(hm)
    block = Hazard(id="mud", check="security", dc=14, on_fail=(Effect(kind="block_travel"),))
    w = world_of(c, hm, hazards={"mud": block}, tables=[HazardTable(id="t", bands=(Band(1, 100, "mud", hour=5),))])
    led = ledger_at()
    dice = ScriptedDice(["d%=60", "d20=1", "d20=20"])  # table, check 1 + 4 < 14, the (d) Unrest check
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan()), dice, led)
    dice.assert_exhausted()
    moved = led.of_kind("ConvoyTravelled")[0]
    assert (moved.outcome, moved.total) == ("stopped", 4)
    assert (c.days_travelled, c.days_rested) == (1, 0)


@pytest.mark.rule("RES-CV-24", "CV-TRAV-04")
def test_a_rest_day_counts_as_rested() -> None:
    """A rest day is tallied as rested, not travelled."""
    hm = line_map(10)
    c = baseline(hm)
    w = world_of(c, hm)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice([]), ledger_at())
    assert (c.days_travelled, c.days_rested) == (0, 1)


@pytest.mark.rule("CV-TRAV-05", "RES-CV-04", "RES-CV-24")
def test_the_first_extra_hour_is_numbered_1_and_moves_the_rest_an_hour_later() -> None:
    """Slot 6–18, extra hour 1 at hour 18: 15 + 4 = 19 ≥ DC 15; the rest then starts at 18 + 1 = 19."""
    hm = line_map(30)
    c = baseline(hm)
    w = world_of(c, hm, now=6)
    led = ledger_at(6)
    dice = ScriptedDice(["d20=15"])
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=1)), dice, led)
    dice.assert_exhausted()
    e = led.of_kind("ExtraHourCheckRolled")[0]
    assert (e.dc, e.total, e.outcome, e.data["extra_hour"], e.data["hour"]) == (15, 19, "success", 1, 18)
    assert c.today.stop_hour == 19
    assert led.of_kind("ProvisionsConsumed")[0].t == 19


@pytest.mark.rule("CV-PROV-03", "CV-PROV-04", "RES-CV-24")
def test_spells_create_units_at_the_rest_and_an_unknown_spell_none() -> None:
    """Goodberry ×2 = 2 units (CV-PROV-03); a spell the table does not list creates nothing."""
    hm = line_map(10)
    c = baseline(hm)
    c.travelers.append(Traveler(id="druid", job="caster", spells={"goodberry": 2, "prestidigitation": 3}))
    w = world_of(c, hm)
    assert cr.spell_units(c, w.now) == 2
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest")), ScriptedDice([]), led)
    e = led.of_kind("ProvisionsCreated")
    assert [(x.total, x.outcome) for x in e] == [(2, "spells")]
    # eats 16 + 1 (the druid) = 17: 2 from the spells, 15 from the stores
    assert led.of_kind("ProvisionsConsumed")[0].data["from_spells"] == 2 and c.provisions == 100 - 15
