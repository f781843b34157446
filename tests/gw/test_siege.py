"""Sieges (GW-SIEGE), famine (GW-FAM), attacks on domains (GW-ATK) and occupation (GW-OCC)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import AttackDomain, Bonus, Deploy, DomainAction, Move, Reinforce, Siege
from tests.gw.helpers import counts, hx, make_world, play, put_army, put_domain, start_season


def keep_world(garrison=None, fort=2, victuals=100):
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=fort, garrison=garrison if garrison is not None else {"infantry": 4})
    w.gw.guilds["c"].victuals = victuals
    return w, h


@pytest.mark.rule("GW-FAM-01")
def test_a_fed_garrison_does_not_desert():
    w, h = keep_world({"infantry": 4}, victuals=25)
    put_army(w, "Z", "a", h, {"infantry": 10})
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    fed = led.of_kind("GarrisonFed")[0]
    assert (fed.dc, fed.total, fed.outcome) == (20, 20, "fed")
    assert w.gw.guilds["c"].victuals == 5  # 25 − 4 × 5; no yield while besieged
    assert led.of_kind("DesertionSuffered") == []


@pytest.mark.rule("GW-FAM-01", "GW-FAM-02", "RES-GW-22", "RES-GW-14")
def test_famine_counts_units_before_siege_damage_and_desertion_makes_no_loot():
    w, h = keep_world({"militia": 10, "infantry": 5}, victuals=0)
    put_army(w, "Z", "a", h, {"infantry": 20, "siege_engine": 4})
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D")], ScriptedDice([]))
    fed = led.of_kind("GarrisonFed")[0]
    assert (fed.dc, fed.total) == (75, 0)  # 15 units × 5, counted before the siege engines fire
    des = led.of_kind("DesertionSuffered")[0]
    assert des.total == 4 and des.data["base_cs"] == 20  # ceil(20% × 20)
    sd = led.of_kind("SiegeDamageDealt")[0]
    # 4 militia deserted; 12 siege damage: the 6 militia left (6), then 3 infantry (6)
    assert sd.total == 12 and [k for _, k in sd.data["destroyed"]] == ["militia"] * 6 + ["infantry"] * 3
    assert w.gw.destroyed_on == {h: 9}  # siege-damage kills counted, desertion not: 9 < 10 → no loot
    assert w.gw.loot == []


@pytest.mark.rule("RES-GW-22")
def test_desertion_rounding_is_configurable():
    w, h = keep_world({"militia": 3}, victuals=0)
    w.config.gw.desertion_rounding = "floor"
    put_army(w, "Z", "a", h, {"infantry": 10})
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    assert led.of_kind("DesertionSuffered")[0].total == 0  # floor(20% × 3)
    w2, h2 = keep_world({"militia": 3}, victuals=0)
    put_army(w2, "Z", "a", h2, {"infantry": 10})
    led2 = play(w2, 0, [Siege(guild="a", army="Z", domain="D")])
    assert led2.of_kind("DesertionSuffered")[0].total == 1  # ceil (the default)


@pytest.mark.rule("GW-FAM-02", "RES-GW-22")
def test_desertion_ignores_bonuses_and_fortification():
    w, h = keep_world({"infantry": 5}, fort=4, victuals=0)
    for u in w.gw.domains["D"].garrison:
        u.bonuses = [Bonus("sépium", 1)]
    put_army(w, "Z", "a", h, {"infantry": 10})
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    des = led.of_kind("DesertionSuffered")[0]
    # 20% of 5 × 2 base = 2 damage, against base CS 2: exactly one infantry deserts
    assert des.total == 2 and len(des.data["destroyed"]) == 1


@pytest.mark.rule("GW-SIEGE-04", "RES-GW-21")
def test_siege_damage_both_ways_at_once_to_the_strongest_besieger():
    w, h = keep_world({"siege_engine": 2, "militia": 2}, fort=3)
    for u in w.gw.domains["D"].garrison:
        if u.kind == "siege_engine":
            u.bonuses = [Bonus("magie", 1), Bonus("sépium", 1)]  # capped: +1 → 4 each
    put_army(w, "Z", "a", h, {"infantry": 6, "siege_engine": 1})  # 15, the strongest
    put_army(w, "Y", "a", h, {"infantry": 5})  # 10
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D"), Siege(guild="a", army="Y", domain="D")], ScriptedDice([]))
    sd = led.of_kind("SiegeDamageDealt")[0]
    assert sd.total == 3 and sd.data["garrison_damage"] == 8 and sd.data["target"] == "Z"
    # the garrison's siege engines fire even though the besiegers' 3 points kill its 2 militia and
    # then land on a siege engine (no fortification: 3 + 1 bonus = 4 toughness, 1 damage)
    assert counts(w.gw.domains["D"].garrison) == {"siege_engine": 2}
    assert [k for _, k in sd.data["destroyed_besiegers"]] == ["infantry"] * 4  # 8 damage on Z
    assert len(w.gw.armies["Y"].units) == 5


@pytest.mark.rule("GW-SIEGE-03", "RES-GW-20", "SC-GW-14")
def test_a_siege_short_of_units_is_no_siege_but_allows_an_attack_next_season_only():
    w, h = keep_world({"militia": 6})
    w.gw.guilds["c"].solars = 0
    w.gw.guilds["c"].victuals = 100
    put_army(w, "Z", "a", h, {"infantry": 5})
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    short = led.of_kind("SiegeFellShort")[0]
    assert (short.total, short.dc) == (5, 6)
    z = w.gw.armies["Z"]
    assert z.besieging is None and (z.siege_short, z.siege_short_season) == ("D", 0)
    dom = w.gw.domains["D"]
    assert dom.besieged_by == []
    # not besieged: the owner is not restricted, and the domain yields
    assert w.gw.guilds["c"].solars == 20 and w.gw.guilds["c"].victuals == 100 - 30 + 10
    start_season(w, 1, Ledger())
    wf.check(w, "c", DomainAction(guild="c", domain="D", action="build"))
    wf.check(w, "a", AttackDomain(guild="a", army="Z", domain="D"))  # next season: allowed
    # …but only in that season
    play(w, 1, [])
    start_season(w, 2, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-ATK-02"):
        wf.check(w, "a", AttackDomain(guild="a", army="Z", domain="D"))


@pytest.mark.rule("RES-GW-20", "RES-GW-17")
def test_the_besieging_status_lapses_without_a_new_siege_or_attack_order():
    w, h = keep_world({"militia": 2})
    put_army(w, "Z", "a", h, {"infantry": 5})
    play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    assert w.gw.domains["D"].besieged_by == ["Z"]
    led = play(w, 1, [])  # no order for Z
    assert led.of_kind("SiegeAbandoned")[0].actor == "army:Z"
    assert w.gw.armies["Z"].besieging is None and w.gw.domains["D"].besieged_by == []
    start_season(w, 2, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-ATK-02: domain D has a keep"):
        wf.check(w, "a", AttackDomain(guild="a", army="Z", domain="D"))


@pytest.mark.rule("GW-ATK-02", "RES-GW-17")
def test_only_the_armies_that_did_the_siege_may_assault():
    w, h = keep_world({"militia": 2})
    put_army(w, "Z", "a", h, {"infantry": 5})
    put_army(w, "Y", "a", h, {"infantry": 5})
    play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    start_season(w, 1, Ledger())
    wf.check(w, "a", AttackDomain(guild="a", army="Z", domain="D"))
    with pytest.raises(IllegalOrderError, match="GW-ATK-02: domain D has a keep"):
        wf.check(w, "a", AttackDomain(guild="a", army="Y", domain="D"))


@pytest.mark.rule("GW-ATK-03", "GW-ATK-04", "RES-GW-18")
def test_failed_assault_leaves_the_domain_free_and_mutual_destruction_fails():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=1, garrison={"infantry": 5})  # 5 × 3 = 15
    put_army(w, "Z", "a", h, {"infantry": 4})  # 8
    led = play(w, 0, [AttackDomain(guild="a", army="Z", domain="D")])
    atk = led.of_kind("DomainAttacked")[0]
    assert atk.outcome == "failure" and (atk.data["attacker_strength"], atk.data["defender_strength"]) == (8, 15)
    assert "Z" not in w.gw.armies and w.gw.domains["D"].occupied_by == []
    assert len(w.gw.domains["D"].garrison) == 3  # 8 damage: two infantry (6), 2 on a third
    # both fronts wiped out: no occupation
    w2 = make_world()
    put_domain(w2, "D", "c", h, fort=0, garrison={"infantry": 4})
    put_army(w2, "Z", "a", h, {"infantry": 4})
    led2 = play(w2, 0, [AttackDomain(guild="a", army="Z", domain="D")])
    assert led2.of_kind("DomainAttacked")[0].outcome == "failure" and w2.gw.domains["D"].occupied_by == []


@pytest.mark.rule("GW-OCC-01", "GW-ATK-04")
def test_occupation_cancels_works_and_lasts_while_the_army_stays():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=0, garrison={"militia": 1}, works=["build"])
    put_army(w, "Z", "a", hx(w, 9, 2), {"infantry": 5})
    led = play(w, 0, [Move(guild="a", army="Z", to=h), AttackDomain(guild="a", army="Z", domain="D")])
    assert led.of_kind("DomainOccupied")[0].data["cancelled"] == ["build"]
    assert w.gw.domains["D"].occupied_by == ["Z"] and w.gw.armies["Z"].occupying_since == 0
    led2 = play(w, 1, [Move(guild="a", army="Z", to=hx(w, 12, 2))])
    assert led2.of_kind("OccupationEnded")[0].data["domain"] == "D"
    assert w.gw.domains["D"].occupied_by == [] and w.gw.armies["Z"].occupying is None


@pytest.mark.rule("GW-OCC-02", "RES-GW-19", "GW-SIEGE-02")
@pytest.mark.parametrize("state", ["occupied", "besieged"])
def test_owner_of_an_occupied_or_besieged_domain_is_limited_to_the_allow_list(state):
    w = make_world()
    h = hx(w, 10, 2)
    dom = put_domain(w, "D", "c", h, fort=2, garrison={"militia": 3})
    put_domain(w, "D2", "c", hx(w, 12, 4), consents_to=["c"])
    put_army(w, "Z", "a", h, {"infantry": 5})
    if state == "occupied":
        w.gw.armies["Z"].occupying = "D"
    else:
        w.gw.armies["Z"].besieging = "D"
    wf.refresh_statuses(w)
    start_season(w, 1, Ledger())
    clause = "GW-OCC-02" if state == "occupied" else "GW-SIEGE-02"
    for act in wf.OCCUPIED_ALLOWED:
        if act == "cast_spell":
            continue
        wf.check(w, "c", DomainAction(guild="c", domain="D", action=act))
    for act in ("build", "assign"):
        with pytest.raises(IllegalOrderError, match=f"{clause}: domain D is {state}: {act} is not on the allow-list"):
            wf.check(w, "c", DomainAction(guild="c", domain="D", action=act))
    with pytest.raises(IllegalOrderError, match=clause):
        wf.check(w, "c", Deploy(guild="c", domain="D", seals=["c-m1"], requisition={"militia": 3}))
    with pytest.raises(IllegalOrderError, match="GW-OCC-02: only residents of a parish or an arcane place may cast spells"):
        wf.check(w, "c", DomainAction(guild="c", domain="D", action="cast_spell"))
    dom.places = ["parish"]
    wf.check(w, "c", DomainAction(guild="c", domain="D", action="cast_spell"))
    # legal_orders offers the owner exactly the allow-list for D (and the works for its free D2)
    acts = sorted(o.action for o in wf.legal_orders(w, "c") if isinstance(o, DomainAction) and o.domain == "D")
    assert acts == sorted(wf.OCCUPIED_ALLOWED)
    assert not any(isinstance(o, Reinforce | Deploy) and o.domain == "D" for o in wf.legal_orders(w, "c"))


@pytest.mark.rule("GW-OCC-02")
def test_magic_item_may_not_target_a_consenting_occupied_domain():
    w = make_world()
    put_domain(w, "D", "c", hx(w, 10, 2), garrison={})
    put_domain(w, "T", "e", hx(w, 12, 4), consents_to=["c"])
    put_army(w, "Z", "a", hx(w, 12, 4), {"infantry": 5})
    w.gw.armies["Z"].occupying = "T"
    put_army(w, "Y", "a", hx(w, 10, 2), {"infantry": 5})
    w.gw.armies["Y"].occupying = "D"
    wf.refresh_statuses(w)
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-OCC-02: a magic item may not target T, a consenting domain that is occupied"):
        wf.check(w, "c", DomainAction(guild="c", domain="D", action="use_magic_item", target="T"))
    wf.check(w, "c", DomainAction(guild="c", domain="D", action="use_magic_item"))


@pytest.mark.rule("GW-SIEGE-01", "GW-ATK-01")
def test_a_domain_below_a_keep_is_attacked_at_once_a_castle_is_not():
    for fort, ok in ((0, True), (1, True), (2, False), (3, False), (4, False)):
        w, h = keep_world({}, fort=fort)
        put_army(w, "Z", "a", h, {"infantry": 5})
        start_season(w, 0, Ledger())
        if ok:
            wf.check(w, "a", AttackDomain(guild="a", army="Z", domain="D"))
        else:
            with pytest.raises(IllegalOrderError, match="GW-ATK-02"):
                wf.check(w, "a", AttackDomain(guild="a", army="Z", domain="D"))
