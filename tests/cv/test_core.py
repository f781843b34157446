"""The minimal caravan (SC-CV-01…14, RES-CV-19/21/23), orders and state round-trip."""

from __future__ import annotations

import pytest

from sim.config import Config, CvConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import cv as cr
from sim.state.cv import DayPlan, Traveler
from sim.world import decode_world, encode_world
from tests.cv.helpers import baseline, convoy, ledger_at, line_map, travelers, world_of

SC_CV_06 = {  # cost, HP, travelers, cargo, limit (0 = none), consumption — typed from RULES.md SC-CV-06
    "armored": (5000, 60, 6, 4, 2, 2),
    "covered": (500, 20, 6, 4, 0, 2),
    "fortune_teller": (500, 30, 2, 4, 1, 1),
    "horse_train": (1200, 10, 6, 1, 3, 6),
    "prisoner": (4000, 40, 6, 2, 2, 2),
    "royal_carriage": (2500, 30, 4, 2, 1, 2),
    "supply": (300, 20, 2, 10, 0, 1),
}


@pytest.mark.rule("SC-CV-06", "RES-CV-21")
@pytest.mark.parametrize("kind", sorted(SC_CV_06))
def test_wagon_types(kind: str) -> None:
    wt = cr.wagon_type(kind, CvConfig())
    assert (wt.cost, wt.hp, wt.travelers, wt.cargo, wt.limit, wt.consumption) == SC_CV_06[kind]


@pytest.mark.rule("RES-CV-21")
def test_supply_wagon_hp_and_cost_are_configurable() -> None:
    cfg = CvConfig(supply_wagon_hp=30, supply_wagon_cost_gp=450)
    assert (cr.wagon_type("supply", cfg).hp, cr.wagon_type("supply", cfg).cost) == (30, 450)
    hm = line_map(4)
    c = convoy(["covered", "fortune_teller", "supply", "supply"], travelers(4), hm=hm)
    assert cr.max_hp_of(c, cfg) == 20 + 30 + 30 + 30


@pytest.mark.rule("SC-CV-02", "RES-CV-19", "SC-CV-06")
def test_derived_statistics_and_wagon_specials() -> None:
    hm = line_map(4)
    crew = travelers(4, "guard", "passenger")
    c = convoy(["armored", "armored", "armored", "prisoner", "royal_carriage"], crew, hm=hm, offense=2, defense=2,
               mobility=2, morale=1)
    bon = {"guard": {"attack": 1, "ac": 1, "security": 2}}
    cfg = CvConfig()
    assert cr.stat_value(c, "attack", cfg, 0, bon) == 2 + 1
    assert cr.stat_value(c, "ac", cfg, 0, bon) == 10 + 2 + 1 + 3 * 2  # armored: +3 each up to the limit of 2
    assert cr.stat_value(c, "security", cfg, 0, bon) == 2 + 2 + 2  # one prisoner wagon: +2
    assert cr.stat_value(c, "resolve", cfg, 0, bon) == 1 + 4  # royal carriage with a passenger aboard
    c.travelers = [t for t in c.travelers if t.job != "passenger"]
    assert cr.stat_value(c, "resolve", cfg, 0, bon) == 1


@pytest.mark.rule("RES-CV-19", "SC-CV-02")
def test_natural_1_and_20_have_no_special_effect() -> None:
    hm = line_map(4)
    # Resolve 19: Morale 10 + job bonuses 5 (capped) + royal carriage 4 (a passenger aboard)
    c = convoy(["royal_carriage", "covered"], travelers(2, "entertainer", "passenger"), hm=hm, morale=10)
    w = world_of(c, hm, bonuses={"entertainer": {"resolve": 7}})
    led = ledger_at()
    assert cr.unrest_check(w, c, ScriptedDice(["d20=1"]), led, "(a) test")  # natural 1: 1 + 19 = 20 ≥ 20
    # Resolve 7 − 8 (mutiny margin) = −1 against DC 30: a natural 20 totals 19 and fails
    c2 = baseline(hm, unrest=10)
    w2 = world_of(c2, hm)
    assert not cr.unrest_check(w2, c2, ScriptedDice(["d20=20"]), led, "(a) test")
    assert [(e.dc, e.total, e.outcome) for e in led.of_kind("UnrestCheckRolled")] == [(20, 20, "success"), (30, 19, "failure")]


@pytest.mark.rule("SC-CV-03", "SC-CV-13")
def test_job_bonuses_cap_at_five_unless_expert_travelers() -> None:
    hm = line_map(4)
    c = convoy(["covered", "covered"], travelers(2, "guard", "guard", "guard"), hm=hm)
    bon = {"guard": {"security": 3}}
    cfg = CvConfig()
    assert cr.job_bonus(c, "security", 0, bon, cfg.job_bonus_cap) == 5
    c.feats.append("expert_travelers")
    assert cr.job_bonus(c, "security", 0, bon, cfg.job_bonus_cap) == 9
    c.feats.clear()
    assert cr.job_bonus(c, "security", 0, bon, 6) == 6  # cfg.job_bonus_cap


@pytest.mark.rule("SC-CV-03")
def test_wages_at_hiring_and_monthly_unpaid_become_passengers_and_leave() -> None:
    hm = line_map(10, villages={2: "Millbrook"})
    crew = travelers(4)
    crew += [Traveler(id="guardA", job="guard", wage_gp=15), Traveler(id="guardB", job="guard", wage_gp=15)]
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], crew, hm=hm, gp=40)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_wages(w, c, led, "hiring")
    assert c.gp == 10
    cr.resolve_wages(w, c, led, "monthly")  # 10 gp: neither can be paid
    assert [(t.id, t.job, t.unpaid) for t in c.travelers[4:]] == [("guardA", "passenger", True), ("guardB", "passenger", True)]
    assert [e.kind for e in led.events] == ["WagesPaid", "WagesUnpaid", "WagesUnpaid"]
    cr.unpaid_leave(w, c, led)  # not in a settlement: they stay
    assert len(c.travelers) == 6
    c.hex = 2
    cr.unpaid_leave(w, c, led)
    assert len(c.travelers) == 4
    assert [e.outcome for e in led.of_kind("TravelerLeft")] == ["unpaid", "unpaid"]


@pytest.mark.rule("SC-CV-03", "SC-CV-13", "SC-CV-07")
def test_job_changes_after_24_hours_and_drivers() -> None:
    hm = line_map(10)
    crew = travelers(3)
    crew.append(Traveler(id="sandru", job="guide", can_drive=True, job_since=0))
    crew.append(Traveler(id="koya", job="guide"))
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], crew, hm=hm)
    w = world_of(c, hm, now=6)
    ok, clause, _ = cr.can_move(c, w.now)
    assert (ok, clause) == (False, "SC-CV-13")  # four wagons, three drivers
    with pytest.raises(IllegalOrderError, match="SC-CV-03: sandru changed jobs less than 24 hours ago"):
        cr.check(w, "amber", DayPlan(assign="sandru:driver"))
    with pytest.raises(IllegalOrderError, match="SC-CV-07: koya cannot drive"):
        cr.check(w, "amber", DayPlan(move="rest", assign="koya:driver"))
    w.now = 30
    plans = cr.legal_orders(w, "amber")
    assert {p.assign for p in plans} == {"", "sandru:driver"}
    # or leave a wagon behind (one option per kind): then three drivers are enough
    assert {p.abandon for p in plans} == {"", "covered", "fortune_teller", "horse_train", "supply"}
    assert {p.move for p in plans if p.assign} >= {"travel"}
    assert {p.move for p in plans if not p.assign and not p.abandon} == {"rest"}
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(assign="sandru:driver")), ScriptedDice([]), ledger_at(30))
    assert c.ticks_total == 36 * 192


@pytest.mark.rule("SC-CV-05", "SC-CV-06", "CV-UNR-06")
def test_buying_a_wagon_and_the_wagon_limit() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = convoy(["covered", "fortune_teller", "supply", "horse_train"], travelers(5), hm=hm, gp=3000, provisions=60)
    w = world_of(c, hm)
    led = ledger_at()
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="rest", buy="wagon:horse_train")), ScriptedDice([]), led)
    assert (c.max_hp, c.hp, c.gp) == (90, 90, 1800)
    assert cr.traveler_capacity(c, w.config.cv) == 22 and cr.cargo_capacity(c, w.config.cv) == 20
    assert cr.consumption(c, w.now) == 16 + 5
    assert cr.speed_mpd(c, w.config.cv) == 40
    with pytest.raises(IllegalOrderError, match="SC-CV-05: a caravan holds at most 5 wagons"):
        cr.check(w, "amber", DayPlan(move="rest", buy="wagon:covered"))
    assert all(not p.buy.startswith("wagon:") for p in cr.legal_orders(w, "amber"))
    c.feats.append("extra_wagons")
    assert any(p.buy == "wagon:covered" for p in cr.legal_orders(w, "amber"))
    assert cr.max_wagons(c, Config(cv=CvConfig(extra_wagons_per_feat=2)).cv) == 7


@pytest.mark.rule("SC-CV-05")
def test_wagons_over_a_type_limit_give_no_benefit() -> None:
    hm = line_map(4)
    c = convoy(["horse_train"] * 4 + ["royal_carriage", "royal_carriage"], travelers(6, "entertainer"), hm=hm,
               feats=["extra_wagons"])
    cfg = CvConfig()
    assert cr.speed_mpd(c, cfg) == 32 + 12
    assert cr.stat_value(c, "resolve", cfg, 0, {}) == 2 + 4
    assert cr.consumption(c, 0) == 4 * 6 + 2 * 2 + 7  # every wagon still eats


@pytest.mark.rule("SC-CV-09")
def test_stores_occupy_whole_cargo_units() -> None:
    assert [cr.stores_units(p) for p in (0, 1, 10, 11, 20, 21)] == [0, 1, 1, 2, 2, 3]


@pytest.mark.rule("SC-CV-09", "RES-CV-23", "SC-CV-12")
def test_losing_a_wagon_leaves_what_no_longer_fits_and_its_toughness() -> None:
    hm = line_map(4, villages={0: "Millbrook"})
    crew = travelers(3, "passenger", "passenger", "guard", "entertainer")
    crew[-1].pc = True
    c = convoy(["supply", "covered", "fortune_teller"], crew, hm=hm, provisions=60,
               cargo={"other": 1, "trade_goods": 6, "repair": 1, "treasure": 2}, gp=1000)
    c.wagons[1].toughness = 1  # Caravan Toughness on the covered wagon
    c.max_hp += 20
    c.hp += 20
    w = world_of(c, hm)
    led = ledger_at()
    cr.lose_wagon(w, c, c.wagons[1], ScriptedDice(["d20=20"]), led, "test", ("RES-CV-06",))
    # −20 HP and −20 toughness HP; capacity now 2 + 2 travelers, 10 + 4 cargo: 16 units carried, 2 too many,
    # left behind in the order other, trade goods…
    assert (c.max_hp, c.hp) == (50, 50)
    assert c.cargo == {"other": 0, "trade_goods": 5, "repair": 1, "treasure": 2} and c.provisions == 60
    assert [(e.total, e.outcome) for e in led.of_kind("CargoLeftBehind")] == [(1, "other"), (1, "trade_goods")]
    assert [t.id for t in c.travelers] == ["driver1", "driver2", "driver3", "entertainer1"]
    assert "caravan_toughness_lost:covered" in c.feats
    # the feat comes back with a new wagon of the same type
    cr.add_wagon(c, "covered", w.config.cv)
    assert c.wagons[-1].toughness == 1 and (c.max_hp, c.hp) == (90, 90)


@pytest.mark.rule("SC-CV-09", "RES-CV-23")
@pytest.mark.parametrize("kind", ["supply", "covered", "fortune_teller"])
def test_left_behind_foresees_what_losing_a_wagon_leaves(kind: str) -> None:
    """What a policy weighs before abandoning a wagon (``left_behind``) is what losing it leaves."""
    hm = line_map(4, villages={0: "Millbrook"})
    crew = travelers(3, "passenger", "passenger", "guard", "entertainer", "scout")
    c = convoy(["supply", "covered", "fortune_teller"], crew, hm=hm, provisions=95,
               cargo={"other": 1, "trade_goods": 6, "repair": 1, "treasure": 2}, gp=1000)
    w = world_of(c, hm)
    want = cr.left_behind(c, kind, w.config.cv)
    cargo, food, people = sum(c.cargo.values()), c.provisions, len(c.travelers)
    led = ledger_at()
    cr.lose_wagon(w, c, [x for x in c.wagons if x.kind == kind][-1], ScriptedDice(["d20=20"]), led, "test", ("RES-CV-06",))
    assert want == (cargo - sum(c.cargo.values()), food - c.provisions, people - len(c.travelers))
    assert want != (0, 0, 0)  # each of these wagons carries something that will not fit without it


@pytest.mark.rule("SC-CV-10", "RES-CV-23")
def test_zero_hp_from_damage_immobilises_until_repaired() -> None:
    hm = line_map(10)
    crew = travelers(4, "wainwright", "wainwright")
    c = baseline(hm, hp=5, cargo={"repair": 3})
    c.travelers = crew
    w = world_of(c, hm)
    led = ledger_at()
    cr.damage(w, c, 9, "rockslide", ScriptedDice([]), led, ("RES-CV-06",))
    assert c.hp == 0 and c.status == "travelling"
    assert led.of_kind("ConvoyImmobilized")
    assert {p.move for p in cr.legal_orders(w, "amber")} == {"rest", "repair"}
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="repair")), ScriptedDice([]), led)
    assert (c.hp, c.cargo["repair"]) == (20, 1)  # two wainwrights, one unit each, 10 HP a unit
    w.config = Config(cv=CvConfig(repair_hp_per_unit=15, repair_units_per_wainwright_day=2))
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(move="repair")), ScriptedDice([]), led)
    assert (c.hp, c.cargo["repair"]) == (35, 0)


@pytest.mark.rule("SC-CV-12", "SC-CV-04")
def test_feats() -> None:
    hm = line_map(4)
    c = baseline(hm, feats=["fast_caravan", "terrain_mastery:hills", "efficient_consumption"])
    cfg = CvConfig()
    assert cr.speed_mpd(c, cfg) == 36 + 4
    assert cr.consumption(c, 0) == 16 - 2
    mods = dict(cr.stat_mods(c, "security", cfg, 0, {}, terrain="hills"))
    assert mods["Terrain Mastery"] == 2
    assert "Terrain Mastery" not in dict(cr.stat_mods(c, "security", cfg, 0, {}, terrain="forest"))


@pytest.mark.rule("RES-CV-24", "SC-CV-13")
def test_legal_orders_outside_and_inside_a_village() -> None:
    hm = line_map(10, villages={0: "Millbrook", 2: "Ashford"})
    c = baseline(hm, gp=600, cargo={"trade_goods": 2})
    c.travelers.append(Traveler(id="scout1", job="scout"))
    c.hex = 1
    c.path = list(range(1, 10))
    w = world_of(c, hm)
    plans = cr.legal_orders(w, "amber")
    # moves: travel +0, 1, 2, 3, 4, 6, 9, 12, halt at Ashford, by night, rest = 11; scouts: 2;
    # care: none, double, gift = 3
    assert len(plans) == 11 * 2 * 3 and len(set(plans)) == len(plans)
    assert not any(p.buy for p in plans)
    c.hex = 0
    c.path = list(range(0, 10))
    plans = cr.legal_orders(w, "amber")
    buys = sorted({p.buy for p in plans})
    # 600 gp: stores (19 cargo units − 10 of stores − 2 of goods = 7 free), covered, fortune-teller's,
    # supply wagons, axles
    assert buys == ["", "axles", "stores:7", "wagon:covered", "wagon:fortune_teller", "wagon:supply"]
    for p in plans:
        cr.check(w, "amber", p)  # every listed plan is legal


@pytest.mark.rule("RES-CV-24")
def test_world_round_trips_with_convoys() -> None:
    hm = line_map(10, villages={0: "Millbrook"})
    c = baseline(hm, gp=600)
    w = world_of(c, hm)
    cr.resolve_day(w, "amber", cr.given("amber", DayPlan(extra=1)), ScriptedDice(["d20=15"]), ledger_at())
    assert decode_world(encode_world(w)) == w


@pytest.mark.rule("SC-CV-07", "SC-CV-01")
def test_a_standard_convoy_added_during_a_campaign() -> None:
    from agents.campaign import prepare_campaign
    from agents.systems.cv import DRIVER

    model = prepare_campaign("caravan-crossing", 7)
    model.run(24 * 3)
    w = model.world
    sett = w.map.settlements()
    c = cr.standard_convoy("aaa-expedition", sett["Millbrook"], sett["Ashford"], w.config.cv, provisions=60,
                           cargo={"trade_goods": 3})
    assert (c.max_hp, c.offense + c.defense + c.mobility + c.morale, len(c.travelers)) == (70, 7, 6)
    assert sum(t.can_drive for t in c.travelers) == 3
    rank = cr.add_convoy(w, c, model.caches["cv.routes"])
    assert rank == 0 and w.cv.convoys[0] is c and c.path[0] == sett["Millbrook"] and c.path[-1] == sett["Ashford"]
    DRIVER.spawn(model, c.id, c.policy)
    model.run()
    assert c.status == "arrived" and c.arrived_at < 24 * 6
    with pytest.raises(Exception, match="already exists"):
        cr.add_convoy(w, c)


@pytest.mark.rule("RES-CV-16", "RES-CV-24", "CV-UNR-04")
def test_a_gift_lapses_when_the_wagon_abandoned_earlier_that_day_took_its_goods() -> None:
    # the day's orders run in RES-CV-24 order: the abandoned supply wagon leaves its load behind,
    # so the gift ordered for the same day has nothing to give (found by a 1,000-seed batch)
    hm = line_map(10, villages={0: "Millbrook"})
    c = convoy(["covered", "supply"], travelers(2), hm=hm, provisions=0, cargo={"trade_goods": 12})
    c.gifts = 4  # the next gift costs 5 units
    w = world_of(c, hm, now=6)
    plan = DayPlan(move="rest", abandon="supply", gift="trade_goods")
    cr.check(w, "amber", plan)  # legal when ordered: 12 units carried
    led = ledger_at(6)
    dice = ScriptedDice(["d20=20"])  # CV-UNR-04 (a) Resolve check for the lost wagon
    cr.new_day(c, 0, 6)
    cr.resolve_slot_start(w, "amber", plan, dice, led)
    dice.assert_exhausted()
    assert c.cargo["trade_goods"] == 4 and c.gifts == 4
    [lapsed] = led.of_kind("GiftLapsed")
    assert (lapsed.total, lapsed.outcome, lapsed.data["left"]) == (5, "trade_goods", 4)
    assert not led.of_kind("GiftGiven")
