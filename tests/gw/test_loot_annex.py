"""War loot (GW-LOOT), sacks (SC-GW-13), annexation details (GW-ANX), the bank (SC-GW-10)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import Annex, AttackArmy, AttackDomain, PickUpLoot, Reinforce, Sack, TreasureHunt
from tests.gw.helpers import hx, make_world, occupy, play, put_army, put_domain, start_season


def occupied_world(buildings):
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, garrison={}, buildings=buildings)
    put_army(w, "Z", "a", h, {"infantry": 10})  # strength 20
    occupy(w, "Z", "D")
    return w, h


@pytest.mark.rule("SC-GW-13", "GW-LOOT-04", "RES-GW-16")
def test_sack_destroys_the_largest_buildings_within_the_armys_strength():
    # 12 + 6 = 18 ≤ 20; the 5 would take it to 23: stop there — the 1 after it is spared too
    w, h = occupied_world([("Halle", 12), ("Moulin", 5), ("Forge", 6), ("Puits", 1)])
    led = play(w, 1, [Sack(guild="a", army="Z", domain="D")], ScriptedDice(["1d6=3"]))
    sack = led.of_kind("DomainSacked")[0]
    assert sack.total == 18 and sack.dc == 20
    assert [n for _, n, _ in sack.data["destroyed"]] == ["Halle", "Forge"]
    assert sorted(b.name for b in w.gw.domains["D"].buildings) == ["Moulin", "Puits"]
    (loot,) = w.gw.loot
    assert (loot.source, loot.units, loot.value, loot.hex) == ("sack", 18, 18 * 3 * 10, h)


@pytest.mark.rule("SC-GW-13", "RES-GW-16", "GW-LOOT-04")
def test_a_sack_under_10_structure_points_makes_no_loot_and_needs_an_occupier():
    w, h = occupied_world([("Cabane", 9)])
    led = play(w, 1, [Sack(guild="a", army="Z", domain="D")], ScriptedDice([]))
    assert led.of_kind("DomainSacked")[0].total == 9 and w.gw.loot == []
    put_army(w, "Y", "b", h, {"infantry": 3})
    start_season(w, 2, Ledger())
    with pytest.raises(IllegalOrderError, match="SC-GW-13: army Y does not occupy D; only an occupying army may sack it"):
        wf.check(w, "b", Sack(guild="b", army="Y", domain="D"))


@pytest.mark.rule("GW-LOOT-01", "GW-LOOT-02", "GW-LOOT-05", "RES-GW-14")
def test_loot_value_is_units_times_d6_times_the_configured_pip_and_hexes_roll_in_ascending_order():
    w = make_world(config={"gw.loot_solars_per_unit_pip": 7})
    h1, h2 = hx(w, 2, 0), hx(w, 12, 5)
    put_army(w, "A2", "a", h2, {"infantry": 6})
    put_army(w, "C2", "c", h2, {"infantry": 5})
    put_army(w, "A1", "a", h1, {"infantry": 5})
    put_army(w, "C1", "c", h1, {"infantry": 5})
    dice = ScriptedDice(["1d6=6", "1d6=2"])
    led = play(w, 0, [AttackArmy(guild="a", army="A2", target="C2"), AttackArmy(guild="a", army="A1", target="C1")], dice)
    dice.assert_exhausted()
    lo = led.of_kind("LootCreated")
    assert [e.data["hex"] for e in lo] == [h1, h2]
    # h1: 5 + 5 destroyed, d6 = 6; h2: 5 + 5 destroyed (A2 loses all 6? 10 damage → 5 infantry), d6 = 2
    assert [(e.data["units"], e.dice, e.total) for e in lo] == [(10, ((6, 6),), 10 * 6 * 7), (10, ((6, 2),), 10 * 2 * 7)]
    assert w.gw.loot[0].source == "battle" and w.gw.loot[0].season == 0


@pytest.mark.rule("GW-LOOT-02", "RES-GW-14")
def test_nine_units_destroyed_make_no_loot():
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "A1", "a", h, {"infantry": 5})
    put_army(w, "C1", "c", h, {"infantry": 4})
    led = play(w, 0, [AttackArmy(guild="a", army="A1", target="C1")], ScriptedDice([]))
    assert w.gw.destroyed_on == {h: 8} and led.of_kind("LootCreated") == []


@pytest.mark.rule("GW-LOOT-03", "RES-GW-15")
def test_loot_can_be_targeted_from_the_next_season_by_name_and_season():
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "A1", "a", h, {"infantry": 10})
    put_army(w, "C1", "c", h, {"infantry": 5})
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, AttackArmy(guild="a", army="A1", target="C1"), led)
    wf.run_phases(w, ScriptedDice(["1d6=1"]), led)
    (lt,) = w.gw.loot
    w.gw.season = 0  # an order given during the creation season
    with pytest.raises(IllegalOrderError, match=f"GW-LOOT-03: loot {lt.id} is created this season; it can be targeted from season 1"):
        wf.check(w, "b", TreasureHunt(guild="b", loot=lt.id, season=0))
    start_season(w, 1, led)
    with pytest.raises(InvalidOrderError, match=r"was created in season 0, not 3 \(RES-GW-15\)"):
        wf.check(w, "b", TreasureHunt(guild="b", loot=lt.id, season=3))
    with pytest.raises(IllegalOrderError, match="GW-LOOT-03: there is no loot 99"):
        wf.check(w, "a", PickUpLoot(guild="a", loot=99, season=0))
    with pytest.raises(IllegalOrderError, match="GW-LOOT-03: no army of b stands on the loot's hex"):
        wf.check(w, "b", PickUpLoot(guild="b", loot=lt.id, season=0))
    wf.give_order(w, PickUpLoot(guild="a", loot=lt.id, season=0), led)
    wf.give_order(w, TreasureHunt(guild="b", loot=lt.id, season=0), led)
    before = w.gw.guilds["a"].solars
    wf.run_phases(w, ScriptedDice([]), led)
    claimed = led.of_kind("LootClaimed")
    assert [(e.actor, e.total) for e in claimed] == [("guild:a", 100)]  # 5 + 5 destroyed × 1 × 10
    gone = [e for e in led.of_kind("OrderRejected") if "treasure_hunt" in e.data["order"]]
    assert gone and "no loot" in gone[0].data["reason"]
    assert w.gw.loot == [] and w.gw.guilds["a"].solars == before + 100 - 5  # minus the upkeep of A1's 5 units


@pytest.mark.rule("RES-GW-15", "GW-LOOT-03")
def test_several_loots_may_lie_on_one_hex():
    w = make_world()
    h = hx(w, 7, 4)
    for s, die in ((0, "1d6=1"), (1, "1d6=2")):
        put_army(w, f"A{s}", "a", h, {"infantry": 10})
        put_army(w, f"C{s}", "c", h, {"infantry": 5})
        play(w, s, [AttackArmy(guild="a", army=f"A{s}", target=f"C{s}")], ScriptedDice([die]))
    assert [(lt.hex, lt.season, lt.value) for lt in w.gw.loot] == [(h, 0, 100), (h, 1, 200)]


@pytest.mark.rule("RES-GW-28", "RES-GW-23", "SC-GW-10")
def test_competing_annexations_strongest_occupier_proceeds_others_refunded():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    put_army(w, "W", "b", h, {"infantry": 8})
    for aid in ("Z", "W"):
        w.gw.armies[aid].occupying = "D"
        w.gw.armies[aid].occupying_since = 0
    wf.refresh_statuses(w)
    led = Ledger()
    start_season(w, 1, led)
    wf.give_order(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    wf.give_order(w, Annex(guild="b", domain="D", seal="b-p1"), led)
    assert w.gw.bank.held == 1000 and w.gw.guilds["a"].solars == 500 and w.gw.guilds["b"].solars == 500
    for ph in ("deploy", "move", "siege", "army_combats", "domain_attacks", "annexations"):
        wf.PHASE_FUNCTIONS[ph](w, ScriptedDice([]), led)
    assert w.gw.domains["D"].owner == "Bob"
    rej = led.of_kind("OrderRejected")[0]
    assert rej.actor == "guild:a" and rej.clauses[0] == "RES-GW-28"
    assert w.gw.guilds["a"].solars == 1000 and w.gw.bank.held == 500


@pytest.mark.rule("RES-GW-23", "GW-ANX-02")
def test_annexation_must_be_paid_and_name_a_political_seal_of_the_guild():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    occupy(w, "Z", "D")
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="RES-GW-23: an annexation must name a political seal of a; a-m1 is a military seal of a"):
        wf.check(w, "a", Annex(guild="a", domain="D", seal="a-m1"))
    with pytest.raises(IllegalOrderError, match="RES-GW-23: an annexation must name a political seal of a; b-p1 is a political seal of b"):
        wf.check(w, "a", Annex(guild="a", domain="D", seal="b-p1"))
    w.gw.guilds["a"].solars = 499
    with pytest.raises(IllegalOrderError, match="RES-GW-23: the compensation of 500 solars cannot be paid: the chest holds 499"):
        wf.check(w, "a", Annex(guild="a", domain="D", seal="a-p1"))
    w.config.gw.annex_compensation_solars = 400
    wf.check(w, "a", Annex(guild="a", domain="D", seal="a-p1"))


@pytest.mark.rule("RES-GW-23", "GW-ANX-03", "GW-ANX-01")
def test_one_political_seal_may_name_several_annexations_in_a_season():
    """GW-ANX-03 uses the political seal only to say whose leader receives the domain: nothing spends
    it, so two annexations of one season may name the same seal."""
    w = make_world()
    for did, col in (("D", 10), ("E", 12)):
        h = hx(w, col, 2)
        put_domain(w, did, "c", h)
        a = put_army(w, f"Z{did}", "a", h, {"infantry": 5})
        a.occupying, a.occupying_since = did, 0
    wf.refresh_statuses(w)
    led = play(w, 1, [Annex(guild="a", domain="D", seal="a-p1"), Annex(guild="a", domain="E", seal="a-p1")])
    assert [e.data["domain"] for e in led.of_kind("DomainAnnexed")] == ["D", "E"]
    assert w.gw.domains["D"].owner == w.gw.domains["E"].owner == "Alice"
    assert w.gw.bank.held == 2 * 500 and not led.of_kind("OrderRejected")


@pytest.mark.rule("RES-GW-26", "GW-ANX-07")
def test_an_army_with_a_support_seal_of_the_annexing_guild_stops_occupying_too():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    w2 = put_army(w, "W", "b", h, {"infantry": 5})
    w2.support_seals = ["a-m1"]
    w.gw.seals["a-m1"].army = "W"
    put_army(w, "V", "e", h, {"infantry": 5})
    for aid in ("Z", "W", "V"):
        w.gw.armies[aid].occupying = "D"
        w.gw.armies[aid].occupying_since = 0
    wf.refresh_statuses(w)
    led = play(w, 1, [Annex(guild="a", domain="D", seal="a-p1")])
    ev = led.of_kind("DomainAnnexed")[0]
    assert ev.data["stopped_occupying"] == ["W", "Z"] and ev.data["still_occupied_by"] == ["V"]
    assert w.gw.domains["D"].occupied_by == ["V"]


@pytest.mark.rule("GW-ANX-05", "GW-ANX-06")
def test_the_new_owner_acts_on_the_domain_before_the_title_arrives_but_nobody_can_take_it():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    put_army(w, "W", "b", h, {"infantry": 9})
    occupy(w, "Z", "D")
    w.gw.guilds["a"].pool = {"militia": 3}
    play(w, 1, [Annex(guild="a", domain="D", seal="a-p1")])
    dom = w.gw.domains["D"]
    assert dom.owner == "Alice" and dom.title_holder == "Cid" and dom.occupied_by == []
    # A+1: no title in hand yet, but Alice's guild may reinforce its new domain
    led = play(w, 2, [Reinforce(guild="a", domain="D", units={"militia": 3})])
    assert led.of_kind("GarrisonReinforced")[0].data["garrison"] == 3
    # B's army takes it (garrison and A's army Z defend: 3 + 10 against 18) but cannot annex it until
    # A+3 = season 4
    led = play(w, 3, [AttackDomain(guild="b", army="W", domain="D")], ScriptedDice(["1d6=1"]))
    atk = led.of_kind("DomainAttacked")[0]
    assert atk.outcome == "success" and atk.data["defenders"] == ["Z"] and atk.data["defender_strength"] == 13
    start_season(w, 3, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-ANX-06: the ownership of D cannot change before season 4"):
        wf.check(w, "b", Annex(guild="b", domain="D", seal="b-p1"))
    start_season(w, 4, Ledger())
    wf.check(w, "b", Annex(guild="b", domain="D", seal="b-p1"))
