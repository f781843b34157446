"""The worked examples EX-GW-01…06 of RULES.md §7.3, with their exact dice."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import (
    Annex,
    AttackArmy,
    AttackDomain,
    Deploy,
    DomainAction,
    Move,
    Reinforce,
    ReturnTitle,
    Siege,
    TreasureHunt,
)
from tests.gw.helpers import counts, hx, kinds, make_world, play, put_army, put_domain, start_season

# ---- EX-GW-01 ---------------------------------------------------------------------------------------


@pytest.mark.rule("GW-DEP-03", "GW-DEP-04", "GW-DEP-05", "GW-DEP-07", "RES-GW-01", "RES-GW-02", "RES-GW-03", "RES-GW-04", "GW-MOV-02")
class TestExGw01:
    """A deploys on D1 (province P, region R) with its seals and B's; C's seal is from region Q.

    EX-GW-01 declares no alliance: B and C engage their seals in A's army because they agree to
    (their consent, here set in the scenario), which is all GW-DEP-04 needs of them."""

    def world(self):
        w = make_world()
        w.gw.guilds["b"].lends_to = ["a"]
        w.gw.guilds["c"].lends_to = ["a"]
        put_domain(w, "D1", "a", hx(w, 1, 1), garrison={"militia": 12})
        put_domain(w, "D2", "e", hx(w, 3, 4), consents_to=["a"])
        w.gw.guilds["a"].pool = {"infantry": 30}
        return w

    def test_order_1_five_seals_capacity_50_is_valid(self):
        w = self.world()
        assert w.gw.alliances == []
        led = Ledger()
        start_season(w, 0, led)
        order = Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "a-m3", "b-m1", "b-m2"], units={"infantry": 30}, requisition={"militia": 12})
        wf.give_order(w, order, led)
        army = wf.resolve_deploy(w, order, led)
        assert army.capacity == 50
        assert len(army.units) == 42
        assert counts(army.units) == {"infantry": 30, "militia": 12}
        assert army.own_seals == ["a-m1", "a-m2", "a-m3"] and army.other_seals == ["b-m1", "b-m2"]
        assert w.gw.domains["D1"].garrison == []
        assert w.gw.guilds["a"].pool == {}
        assert [w.gw.seals[s].army for s in ("a-m1", "b-m2", "a-m4")] == [army.id, army.id, None]
        ev = led.of_kind("ArmyDeployed")[0]
        assert ev.data["capacity"] == 50 and ev.data["proxy"] is False

    def test_order_2_two_own_three_other_is_rejected(self):
        w = self.world()
        start_season(w, 0, Ledger())
        order = Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "b-m1", "b-m2", "b-m3"], units={"infantry": 10})
        with pytest.raises(IllegalOrderError, match=r"GW-DEP-04: only 2 of the 5 engaged seals belong to a \(2 × 2 = 4 < 5\)"):
            wf.check(w, order.guild, order)

    def test_order_3_seal_from_another_region_is_rejected(self):
        w = self.world()
        start_season(w, 0, Ledger())
        order = Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "b-m1", "c-m1"], units={"infantry": 10})
        with pytest.raises(IllegalOrderError, match=r"GW-DEP-04: seal c-m1 of guild c is from region Q, not R"):
            wf.check(w, order.guild, order)

    def test_order_4_consenting_domain_needs_the_proxy(self):
        w = self.world()
        led = Ledger()
        start_season(w, 0, led)
        without = Deploy(guild="a", domain="D2", seals=["a-m1", "a-m2"], units={"infantry": 20})
        with pytest.raises(IllegalOrderError, match=r"GW-DEP-03: domain D2 belongs to e: a proxy \(procuration\)"):
            wf.check(w, without.guild, without)
        with_proxy = Deploy(guild="a", domain="D2", seals=["a-m1", "a-m2"], units={"infantry": 20}, proxy=True)
        wf.give_order(w, with_proxy, led)
        army = wf.resolve_deploy(w, with_proxy, led)
        assert army.hex == w.gw.domains["D2"].hex and army.owner == "a" and army.capacity == 20

    def test_movement_at_the_slowest_speed(self):
        w = self.world()
        a = put_army(w, "mix", "a", hx(w, 0, 0), {"militia": 2, "archer": 2, "cavalry": 2})
        assert wf.army_speed(w, a) == 10
        path = wf.march_path(w, a, hx(w, 13, 5))
        assert len(path) - 1 == 10
        assert w.map.distance(path[0], path[-1]) == 10


# ---- EX-GW-02 ---------------------------------------------------------------------------------------


def _ex_gw_02() -> SimpleNamespace:
    """EX-GW-02 played through: the field battle of season S, then the end of the season, then S+1.
    What the tests below check is recorded as it happens (values that change later are kept)."""
    w = make_world()
    h = hx(w, 7, 4)  # no domain here
    put_army(w, "X", "a", h, {"militia": 10, "knight": 5})
    put_army(w, "Y", "b", h, {"infantry": 8, "siege_engine": 2}, bonuses={"infantry": [("magie", 1), ("sépium", 1)]})
    led = Ledger()
    dice = ScriptedDice(["1d6=4"])
    start_season(w, 0, led)
    wf.give_order(w, AttackArmy(guild="a", army="X", target="Y"), led)
    for phase in ("deploy", "move", "siege", "army_combats"):
        wf.PHASE_FUNCTIONS[phase](w, dice, led)
    out = SimpleNamespace(w=w, h=h, led=led, battle=led.of_kind("BattleFought")[0], x_left="X" in w.gw.armies)
    out.y_units = counts(w.gw.armies["Y"].units)
    out.damaged = [u for u in w.gw.armies["Y"].units if u.damage]
    out.damage_during = [u.damage for u in out.damaged]
    out.cs_during = [wf.effective_cs(u, w.config.gw) for u in out.damaged]
    for phase in ("domain_attacks", "annexations", "end_of_season"):
        wf.PHASE_FUNCTIONS[phase](w, dice, led)
    dice.assert_exhausted()
    out.cs_after = [wf.effective_cs(u, w.config.gw) for u in out.damaged]
    return out


@pytest.mark.rule("GW-CMB-01", "GW-CMB-02", "GW-CMB-03", "RES-GW-06", "RES-GW-08")
def test_ex_gw_02_field_battle_strengths_and_the_bonus_cap():
    ex = _ex_gw_02()
    assert (ex.battle.data["attacker_strength"], ex.battle.data["defender_strength"]) == (20, 30)
    # the audit trail of the cap: 8 infantry had +2 each, only +1 counts
    assert ex.battle.data["defender_breakdown"] == {"base": 22, "bonus": 8, "fortification": 0, "damage": 0, "total": 30}


@pytest.mark.rule("GW-CMB-04", "GW-LOSS-01", "GW-LOSS-02", "RES-GW-11", "RES-GW-13")
def test_ex_gw_02_field_battle_damage_and_losses():
    ex = _ex_gw_02()
    assert not ex.x_left  # 30 > 20: destroyed, 15 units
    assert len(ex.battle.data["attackers_lost"]) == 15
    assert len(ex.battle.data["defenders_lost"]) == 6  # 6 infantry × 3 = 18
    assert ex.y_units == {"infantry": 2, "siege_engine": 2}


@pytest.mark.rule("GW-CMB-05", "RES-GW-09")
def test_ex_gw_02_partial_damage_stays_for_the_season_then_is_discarded():
    ex = _ex_gw_02()
    assert len(ex.damaged) == 1 and ex.damaged[0].kind == "infantry" and ex.damage_during == [2]
    assert ex.cs_during == [1]
    assert ex.cs_after == [3]  # leftover damage discarded


@pytest.mark.rule("GW-LOOT-02", "RES-GW-14", "RES-GW-27")
def test_ex_gw_02_loot_of_the_battle():
    ex = _ex_gw_02()
    w, led = ex.w, ex.led
    (loot,) = w.gw.loot
    assert (loot.hex, loot.value, loot.season, loot.units) == (ex.h, 840, 0, 21)
    assert kinds(led)[:6] == ["OrderGiven", "BattleFought", "ArmyDestroyed", "LootCreated", "DamageCleared", "UpkeepPaid"]
    # targetable from S+1 only (RES-GW-15)
    start_season(w, 1, led)
    wf.check(w, "c", TreasureHunt(guild="c", loot=loot.id, season=0))


# ---- EX-GW-03 ---------------------------------------------------------------------------------------


def _ex_gw_03() -> SimpleNamespace:
    """EX-GW-03 played through: season S a siege (famine, desertion, siege damage), season S+1 the
    assault. The state after S is recorded before S+1 changes it."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=2, garrison=[("militia", 6), ("infantry", 6)], works=["construction: tower", "assignment: smiths"])
    w.gw.guilds["c"].victuals = 40
    put_army(w, "Z", "a", h, {"infantry": 20, "siege_engine": 2})
    dice = ScriptedDice(["1d6=2"])
    # season S: siege
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D")], dice)
    dom = w.gw.domains["D"]
    out = SimpleNamespace(w=w, led=led, dom=dom, victuals_after_siege=w.gw.guilds["c"].victuals,
                          garrison_after_siege=counts(dom.garrison), besieging=w.gw.armies["Z"].besieging,
                          besieged_by=list(dom.besieged_by))
    # season S+1: assault, no Siege order → no famine, no siege damage
    out.led2 = play(w, 1, [AttackDomain(guild="a", army="Z", domain="D")], dice)
    dice.assert_exhausted()
    return out


@pytest.mark.rule("GW-SIEGE-04", "GW-FAM-01", "GW-FAM-02", "RES-GW-10", "RES-GW-20", "RES-GW-21", "RES-GW-22", "GW-LOOT-02")
def test_ex_gw_03_season_of_siege_famine_desertion_and_siege_damage():
    ex = _ex_gw_03()
    led = ex.led
    fed = led.of_kind("GarrisonFed")[0]
    assert (fed.dc, fed.total, fed.outcome) == (60, 40, "short")
    assert ex.victuals_after_siege == 0  # D yields nothing while besieged
    des = led.of_kind("DesertionSuffered")[0]
    assert des.total == 4 and [k for _, k in des.data["destroyed"]] == ["militia"] * 4
    sd = led.of_kind("SiegeDamageDealt")[0]
    assert sd.total == 6 and [k for _, k in sd.data["destroyed"]] == ["militia", "militia", "infantry", "infantry"]
    assert ex.garrison_after_siege == {"infantry": 4}
    assert ex.besieging == "D" and ex.besieged_by == ["Z"]
    assert led.of_kind("LootCreated") == []  # 4 destroyed (desertion excluded)
    assert kinds(led).index("GarrisonFed") < kinds(led).index("DesertionSuffered") < kinds(led).index("SiegeDamageDealt") < kinds(led).index("ArmyBesieging")


@pytest.mark.rule("GW-ATK-02", "GW-ATK-04", "GW-SIEGE-03", "RES-GW-17", "RES-GW-18", "GW-LOOT-02", "GW-OCC-01")
def test_ex_gw_03_assault_after_a_season_of_siege():
    ex = _ex_gw_03()
    w, led2, dom = ex.w, ex.led2, ex.dom
    assert led2.of_kind("GarrisonFed") == [] and led2.of_kind("SiegeDamageDealt") == []
    atk = led2.of_kind("DomainAttacked")[0]
    assert (atk.data["attacker_strength"], atk.data["defender_strength"], atk.outcome) == (46, 16, "success")
    assert len(atk.data["defenders_lost"]) == 4 and [k for _, k in atk.data["attackers_lost"]] == ["infantry"] * 8
    z = w.gw.armies["Z"]
    assert counts(z.units) == {"infantry": 12, "siege_engine": 2}
    assert dom.garrison == [] and dom.occupied_by == ["Z"] and z.occupying == "D"
    occ = led2.of_kind("DomainOccupied")[0]
    assert occ.data["cancelled"] == ["construction: tower", "assignment: smiths"] and dom.works == []
    (loot,) = w.gw.loot
    assert (loot.value, loot.units, loot.season) == (240, 12, 1)


# ---- EX-GW-04 ---------------------------------------------------------------------------------------


def _ex4_world():
    """D (guild C, notoriety 7) is attacked in S+1 = season 1 by Z (guild A) and W (guild B)."""
    w = make_world()
    h = hx(w, 10, 3)
    put_domain(w, "D", "c", h, fort=1, garrison={"militia": 2})
    w.gw.guilds["c"].notoriety = 7
    w.gw.guilds["a"].solars = 800
    put_army(w, "Z", "a", h, {"infantry": 10})
    put_army(w, "W", "b", h, {"infantry": 5})
    for g in ("a", "b", "c"):
        w.gw.guilds[g].victuals = 0
    return w


@pytest.mark.rule(
    "GW-ANX-01", "GW-ANX-02", "GW-ANX-03", "GW-ANX-04", "GW-ANX-05", "GW-ANX-06", "GW-ANX-07", "RES-GW-23", "RES-GW-24",
    "RES-GW-25", "RES-GW-26", "RES-GW-28", "SC-GW-12",
)
@pytest.mark.parametrize("returned", [True, False], ids=["case-a-title-returned", "case-b-title-kept"])
def test_ex_gw_04_annexation_compensation_and_title(returned):
    w = _ex4_world()
    led = Ledger()
    play(w, 0, [], ledger=led)
    # S+1: both attack; an annexation order the same season is rejected
    start_season(w, 1, led)
    with pytest.raises(IllegalOrderError, match=r"GW-ANX-01: no army of a occupies D"):
        wf.give_order(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    wf.give_order(w, AttackDomain(guild="a", army="Z", domain="D"), led)
    wf.give_order(w, AttackDomain(guild="b", army="W", domain="D"), led)
    wf.run_phases(w, ScriptedDice([]), led)
    dom = w.gw.domains["D"]
    assert dom.occupied_by == ["W", "Z"]
    # S+2: annexation with PA1
    start_season(w, 2, led)
    a_before = w.gw.guilds["a"].solars
    wf.give_order(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    assert w.gw.guilds["a"].solars == a_before - 500
    assert w.gw.bank.held == 500
    wf.run_phases(w, ScriptedDice([]), led)
    assert dom.owner == "Alice" and dom.owner_guild == "a"
    assert w.gw.armies["Z"].occupying is None and dom.occupied_by == ["W"]  # W remains an occupier
    assert dom.frozen_until == 4 and dom.title_return_season == 3
    with pytest.raises(IllegalOrderError, match="GW-OCC-02"):
        wf.check(w, "a", DomainAction(guild="a", domain="D", action="build"))
    with pytest.raises(IllegalOrderError, match="GW-OCC-01"):
        w.gw.guilds["a"].pool = {"militia": 1}
        wf.check(w, "a", Reinforce(guild="a", domain="D", units={"militia": 1}))
    wf.check(w, "a", DomainAction(guild="a", domain="D", action="heroic_speech"))
    # S+3: the ownership is frozen; C may return the title
    c_before = w.gw.guilds["c"].solars
    start_season(w, 3, led)
    with pytest.raises(IllegalOrderError, match=r"GW-ANX-06: the ownership of D cannot change before season 5"):
        wf.give_order(w, Annex(guild="b", domain="D", seal="b-p1"), led)
    if returned:
        wf.give_order(w, ReturnTitle(guild="c", domain="D"), led)
    wf.run_phases(w, ScriptedDice([]), led)
    c = w.gw.guilds["c"]
    if returned:
        assert c.solars == c_before + 500 and w.gw.bank.held == 0 and w.gw.bank.kept == 0 and c.notoriety == 7
    else:
        assert c.solars == c_before and w.gw.bank.held == 0 and w.gw.bank.kept == 500 and c.notoriety == 5
        assert led.of_kind("CompensationForfeited")[0].data["notoriety_after"] == 5
    assert dom.title_return_season == -1  # the window has closed either way
    # S+4: the title (original or replacement) reaches A's leader
    assert dom.title_holder == ("bank" if returned else "Cid")
    start_season(w, 4, led)
    assert dom.title_holder == "Alice"
    ev = led.of_kind("TitleDelivered")[0]
    assert ev.outcome == ("original" if returned else "replacement") and ev.t == 4 * 2160
    # too late to return it now: RES-GW-24's window was S+3 (C is the former owner, GW-ANX-04 holds)
    with pytest.raises(IllegalOrderError, match=r"RES-GW-24: D was annexed in season 2: its title could be returned only in season 3, not in season 4"):
        wf.check(w, "c", ReturnTitle(guild="c", domain="D"))
    # a guild that never owned D is told so
    with pytest.raises(IllegalOrderError, match="GW-ANX-04: guild b is not the former owner of an annexed D"):
        wf.check(w, "b", ReturnTitle(guild="b", domain="D"))


# ---- EX-GW-05 ---------------------------------------------------------------------------------------


@pytest.mark.rule("GW-ORD-03", "RES-GW-12", "GW-LOSS-01", "RES-GW-14")
def test_ex_gw_05_multiple_combats_strongest_first():
    w = make_world()
    h = hx(w, 7, 0)
    put_army(w, "L", "b", h, {"infantry": 10, "militia": 5})
    put_army(w, "K", "a", h, {"infantry": 20})
    put_army(w, "M", "c", h, {"infantry": 15})
    led = Ledger()
    dice = ScriptedDice(["1d6=5"])
    start_season(w, 0, led)
    # M's order is given first: the combat order does not depend on the order given
    wf.give_order(w, AttackArmy(guild="c", army="M", target="L"), led)
    wf.give_order(w, AttackArmy(guild="a", army="K", target="L"), led)
    for phase in ("deploy", "move", "siege", "army_combats"):
        wf.PHASE_FUNCTIONS[phase](w, dice, led)
    battle = led.of_kind("BattleFought")[0]
    assert battle.data["attackers"] == ["K"] and (battle.data["attacker_strength"], battle.data["defender_strength"]) == (40, 25)
    assert "L" not in w.gw.armies
    k = w.gw.armies["K"]
    assert counts(k.units) == {"infantry": 8} and [u.damage for u in k.units if u.damage] == [1]
    cancelled = led.of_kind("CombatCancelled")[0]
    assert cancelled.data["attackers"] == ["M"] and cancelled.outcome == "target destroyed"
    m = w.gw.armies["M"]
    assert counts(m.units) == {"infantry": 15} and all(u.damage == 0 for u in m.units)
    assert kinds(led)[2:5] == ["BattleFought", "ArmyDestroyed", "CombatCancelled"]
    for phase in ("domain_attacks", "annexations", "end_of_season"):
        wf.PHASE_FUNCTIONS[phase](w, dice, led)
    (loot,) = w.gw.loot
    assert (loot.units, loot.value) == (27, 1350)


# ---- EX-GW-06 ---------------------------------------------------------------------------------------


@pytest.mark.rule("GW-ATK-01", "GW-ATK-02", "GW-SIEGE-01", "RES-GW-17", "RES-GW-18", "RES-GW-27")
def test_ex_gw_06_empty_keep_still_needs_a_siege_season():
    w = make_world()
    f = hx(w, 10, 2)
    put_domain(w, "F", "c", f, fort=2)
    put_army(w, "N", "a", hx(w, 11, 2), {"infantry": 5})
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, Move(guild="a", army="N", to=f), led)
    with pytest.raises(IllegalOrderError, match=r"GW-ATK-02: domain F has a keep .* even though it has no garrison \(GW-SIEGE-01\)"):
        wf.give_order(w, AttackDomain(guild="a", army="N", domain="F"), led)
    wf.give_order(w, Siege(guild="a", army="N", domain="F"), led)
    wf.run_phases(w, ScriptedDice([]), led)
    assert w.gw.armies["N"].besieging == "F" and w.gw.domains["F"].besieged_by == ["N"]
    led2 = play(w, 1, [AttackDomain(guild="a", army="N", domain="F")])
    atk = led2.of_kind("DomainAttacked")[0]
    assert atk.outcome == "success" and (atk.data["attacker_strength"], atk.data["defender_strength"]) == (10, 0)
    assert w.gw.domains["F"].occupied_by == ["N"]


@pytest.mark.rule("GW-ATK-01", "RES-GW-27")
def test_ex_gw_06_a_palisade_could_have_been_attacked_at_once():
    w = make_world()
    f = hx(w, 10, 2)
    put_domain(w, "F", "c", f, fort=1)
    put_army(w, "N", "a", hx(w, 11, 2), {"infantry": 5})
    led = play(w, 0, [Move(guild="a", army="N", to=f), AttackDomain(guild="a", army="N", domain="F")])
    assert led.of_kind("DomainAttacked")[0].outcome == "success"
    assert w.gw.domains["F"].occupied_by == ["N"]
