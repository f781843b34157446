"""Deploying armies (GW-DEP), seals (SC-GW-03), disbanding, reinforcing, recruiting (phase 1)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import Deploy, Disband, LendSeals, Reinforce
from tests.gw.helpers import counts, hx, make_world, play, put_army, put_domain, start_season


def world():
    """A's domain D1 in P (region R); B (P2, region R) lends its seals to A, E (P, region R) does not;
    no guild is allied with another."""
    w = make_world()
    w.gw.guilds["b"].lends_to = ["a"]
    put_domain(w, "D1", "a", hx(w, 1, 1), garrison={"militia": 6, "infantry": 4})
    put_domain(w, "DB", "b", hx(w, 6, 1), garrison={"militia": 5}, consents_to=["a"])
    put_domain(w, "DE", "e", hx(w, 3, 4), garrison={"militia": 5}, consents_to=["a"])
    put_domain(w, "DC", "c", hx(w, 10, 1), garrison={"militia": 5})
    w.gw.guilds["a"].pool = {"infantry": 25, "militia": 10}
    return w


@pytest.mark.rule("GW-DEP-01")
def test_an_army_needs_military_seals():
    w = world()
    start_season(w, 0, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-DEP-01: an army can only be deployed by engaging military seals; none is engaged"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=[], units={"infantry": 5}))
    with pytest.raises(IllegalOrderError, match="GW-DEP-01: seal a-p1 is a political seal, not a military seal"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-p1"], units={"infantry": 5}))


@pytest.mark.rule("GW-DEP-02", "GW-DEP-05", "SC-GW-08")
def test_owner_is_the_guild_that_deploys_on_its_own_domain():
    w = world()
    led = play(w, 0, [Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2"], units={"infantry": 15})])
    (ev,) = led.of_kind("ArmyDeployed")
    army = w.gw.armies[ev.actor.removeprefix("army:")]
    assert army.owner == "a" and army.hex == hx(w, 1, 1)
    assert army.capacity == 20  # 10 units per seal
    assert army.deployed == 0 and army.own_seals == ["a-m1", "a-m2"] and army.other_seals == [] and army.support_seals == []
    assert w.gw.guilds["a"].pool == {"infantry": 10, "militia": 10}


@pytest.mark.rule("GW-DEP-03", "RES-GW-01")
def test_consenting_domain_must_lie_in_the_province_of_the_own_seals():
    w = world()
    start_season(w, 0, Ledger())
    # DB lies in P2; A's seals are affiliated to P
    with pytest.raises(IllegalOrderError, match="RES-GW-01: seal a-m1 is affiliated to province P, but domain DB lies in P2"):
        wf.check(w, "a", Deploy(guild="a", domain="DB", seals=["a-m1"], units={"infantry": 5}, proxy=True))
    # DC never consented
    with pytest.raises(IllegalOrderError, match="GW-DEP-03: domain DC is not a consenting domain for guild a"):
        wf.check(w, "a", Deploy(guild="a", domain="DC", seals=["a-m1"], units={"infantry": 5}, proxy=True))
    wf.check(w, "a", Deploy(guild="a", domain="DE", seals=["a-m1"], units={"infantry": 5}, proxy=True))


@pytest.mark.rule("GW-DEP-04", "RES-GW-02")
def test_half_the_seals_own_the_rest_from_the_domains_region_and_whole_rejection():
    w = world()
    start_season(w, 0, Ledger())
    # 1 own + 1 lent by B (region R) = exactly 50%: valid, and no alliance is declared
    assert w.gw.alliances == []
    wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1", "b-m1"], units={"infantry": 20}))
    # C is from region Q: refused on the region whatever C agrees to
    with pytest.raises(IllegalOrderError, match="GW-DEP-04: seal c-m1 of guild c is from region Q"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "c-m1"], units={"infantry": 5}))
    led = play(w, 0, [])
    assert led.of_kind("ArmyDeployed") == [] and w.gw.armies == {}


@pytest.mark.rule("GW-DEP-04", "RES-GW-02", "GW-DEP-01")
def test_another_guilds_seals_need_its_consent_not_an_alliance():
    """GW-DEP-04 asks only that half the seals be the owner's and the others from the domain's region;
    the lender has to agree (its LendSeals order or the scenario's lends_to), but no alliance is needed."""
    w = world()
    led = Ledger()
    start_season(w, 0, led)
    with pytest.raises(IllegalOrderError, match="GW-DEP-04: seal e-m1 belongs to guild e, which has not agreed to lend its seals to a"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1", "e-m1"], units={"infantry": 5}))
    # E agrees (a decision of its policy): from then on A may engage E's seal, still without an alliance
    assert LendSeals(guild="e", to="a") in wf.legal_orders(w, "e")
    wf.give_order(w, LendSeals(guild="e", to="a"), led)
    assert w.gw.guilds["e"].lends_to == ["a"] and not wf.allied(w.gw, "a", "e")
    order = Deploy(guild="a", domain="D1", seals=["a-m1", "e-m1"], units={"infantry": 20})
    wf.give_order(w, order, led)
    wf.run_phases(w, ScriptedDice([]), led)
    (army,) = w.gw.armies.values()
    assert army.other_seals == ["e-m1"] and army.capacity == 20 and w.gw.seals["e-m1"].army == army.id
    # E withdraws its consent: the engaged seal stays engaged (SC-GW-03), a new loan is refused
    start_season(w, 1, led)
    assert LendSeals(guild="e", to="a", lend=False) in wf.legal_orders(w, "e")
    wf.give_order(w, LendSeals(guild="e", to="a", lend=False), led)
    assert w.gw.guilds["e"].lends_to == [] and w.gw.seals["e-m1"].army == army.id
    with pytest.raises(IllegalOrderError, match="GW-DEP-04: guild e does not lend its seals to a"):
        wf.check(w, "e", LendSeals(guild="e", to="a", lend=False))
    with pytest.raises(IllegalOrderError, match="GW-DEP-04: a guild engages its own seals without lending them"):
        wf.check(w, "e", LendSeals(guild="e", to="e"))
    assert [e.outcome for e in led.of_kind("OrderGiven")].count("lend_seals") == 2


@pytest.mark.rule("GW-DEP-06", "RES-GW-03")
def test_capacity_modifier_and_no_trimming():
    w = world()
    w.gw.guilds["a"].capacity_bonus = 3
    start_season(w, 0, Ledger())
    with pytest.raises(IllegalOrderError, match=r"RES-GW-03: 14 units exceed the army's capacity of 13 \(1 seals × 10 \+ 3\); the order is not trimmed"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 14}))
    play(w, 0, [Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 8})])
    (army,) = w.gw.armies.values()
    assert army.capacity == 13 and len(army.units) == 8  # fewer units than its capacity is fine


@pytest.mark.rule("GW-DEP-07", "RES-GW-04")
def test_hand_in_requisition_or_both_and_the_proxy_for_requisitions():
    w = world()
    start_season(w, 0, Ledger())
    with pytest.raises(IllegalOrderError, match="RES-GW-04: guild a hands in 26 infantry but its unit pool holds 25"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "a-m3"], units={"infantry": 26}))
    with pytest.raises(IllegalOrderError, match="GW-DEP-07: requisition of 5 infantry from D1, whose garrison has 4"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1"], requisition={"infantry": 5}))
    with pytest.raises(IllegalOrderError, match="GW-DEP-07: no unit is handed in or requisitioned"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1"]))
    with pytest.raises(InvalidOrderError, match="unknown unit type 'dragon'"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1"], units={"dragon": 1}))
    # requisition from E's consenting domain: the order is legal only with the proxy
    o = Deploy(guild="a", domain="DE", seals=["a-m1"], requisition={"militia": 5}, proxy=True)
    play(w, 0, [o, Deploy(guild="a", domain="D1", seals=["a-m2", "a-m3"], units={"infantry": 10}, requisition={"militia": 6, "infantry": 4})])
    armies = sorted(w.gw.armies.values(), key=lambda a: a.id)
    assert counts(armies[0].units) == {"militia": 5} and w.gw.domains["DE"].garrison == []
    assert counts(armies[1].units) == {"infantry": 14, "militia": 6} and w.gw.domains["D1"].garrison == []


@pytest.mark.rule("SC-GW-03", "SC-GW-09")
def test_seals_stay_engaged_until_the_army_is_disbanded_or_destroyed():
    w = world()
    play(w, 0, [Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 10})])
    (aid,) = w.gw.armies
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match=f"SC-GW-03: seal a-m1 is already engaged \\({aid}\\)"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 5}))
    led = play(w, 1, [Disband(guild="a", army=aid)])
    assert w.gw.seals["a-m1"].army is None and aid not in w.gw.armies
    assert w.gw.guilds["a"].pool["infantry"] == 25  # the units went back to the pool
    assert led.of_kind("ArmyDisbanded")[0].data["seals"] == ["a-m1"]


@pytest.mark.rule("RES-GW-27")
def test_an_army_deployed_this_season_gets_orders_from_the_next():
    w = world()
    play(w, 0, [Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 10})])
    (aid,) = w.gw.armies
    w.gw.season = 0  # still season S
    with pytest.raises(IllegalOrderError, match=f"RES-GW-27: army {aid} was deployed this season"):
        wf.check(w, "a", Disband(guild="a", army=aid))


@pytest.mark.rule("SC-GW-09", "GW-OCC-01", "GW-SIEGE-02")
def test_reinforce_garrison_from_the_pool_but_not_under_occupation_or_siege():
    w = world()
    led = play(w, 0, [Reinforce(guild="a", domain="D1", units={"infantry": 5})])
    assert counts(w.gw.domains["D1"].garrison) == {"militia": 6, "infantry": 9}
    assert led.of_kind("GarrisonReinforced")[0].data["garrison"] == 15
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="SC-GW-09: domain DB belongs to b"):
        wf.check(w, "a", Reinforce(guild="a", domain="DB", units={"infantry": 1}))
    put_army(w, "enemy", "c", hx(w, 1, 1), {"infantry": 5})
    w.gw.armies["enemy"].besieging = "D1"
    wf.refresh_statuses(w)
    with pytest.raises(IllegalOrderError, match="GW-SIEGE-02: domain D1 is besieged: its owner may not reinforce the garrison"):
        wf.check(w, "a", Reinforce(guild="a", domain="D1", units={"infantry": 1}))
    w.gw.armies["enemy"].besieging = None
    w.gw.armies["enemy"].occupying = "D1"
    wf.refresh_statuses(w)
    with pytest.raises(IllegalOrderError, match="GW-OCC-01: domain D1 is occupied: the occupation prevents reinforcing the garrison"):
        wf.check(w, "a", Reinforce(guild="a", domain="D1", units={"infantry": 1}))


@pytest.mark.rule("SC-GW-08", "RES-GW-26", "GW-DEP-04", "GW-DEP-05", "RES-GW-02")
def test_support_seals_are_engaged_seals_add_capacity_and_follow_gw_dep_04():
    """A seal engaged in support of the army is a military seal engaged in the deployment: 10 units
    (GW-DEP-05), counted in the 50% rule, from the domain's region, lent with consent (GW-DEP-04)."""
    w = world()
    play(w, 0, [Deploy(guild="a", domain="D1", seals=["a-m1"], support_seals=["b-m1"], units={"infantry": 20})])
    (army,) = w.gw.armies.values()
    assert army.capacity == 20 and len(army.units) == 20
    assert army.support_seals == ["b-m1"] and army.other_seals == [] and w.gw.seals["b-m1"].army == army.id
    assert wf.army_involves(w.gw, army, "b") and not wf.army_involves(w.gw, army, "c")
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-DEP-04: seal c-m1 of guild c is from region Q"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m2"], support_seals=["c-m1"], units={"infantry": 5}))
    with pytest.raises(IllegalOrderError, match="GW-DEP-04: seal e-m1 belongs to guild e, which has not agreed"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m2"], support_seals=["e-m1"], units={"infantry": 5}))
    with pytest.raises(IllegalOrderError, match=r"GW-DEP-04: only 1 of the 3 engaged seals belong to a"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m2"], support_seals=["b-m2", "b-m3"], units={"infantry": 5}))


