"""The season (SC-GW-01, GW-ORD-01, RES-GW-10/27), the guild world (SC-GW-02…12), the economy
(SC-GW-14…16), legal orders (SC-GW-09) and the state's msgpack round trip."""

from __future__ import annotations

import msgspec
import pytest

from sim.calendar import HOURS_PER_SEASON, HOURS_PER_YEAR
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import (
    Annex,
    AnyOrder,
    AttackArmy,
    AttackDomain,
    Deploy,
    Disband,
    DomainAction,
    GwWorld,
    Move,
    PickUpLoot,
    Recruit,
    Reinforce,
    ReturnTitle,
    Sack,
    Siege,
    TreasureHunt,
)
from sim.world import decode_world, encode_world
from tests.gw.helpers import hx, kinds, make_world, play, put_army, put_domain, start_season


@pytest.mark.rule("SC-GW-01", "GEN-07")
def test_four_seasons_a_year_unless_configured():
    w = make_world()
    assert w.config.gw.seasons_per_year == 4 and wf.season_hours(w.config.gw) == HOURS_PER_SEASON
    assert wf.season_at(w, HOURS_PER_YEAR + 1) == 4
    w2 = make_world(config={"gw.seasons_per_year": 2})
    assert wf.season_hours(w2.config.gw) == HOURS_PER_YEAR // 2 and wf.season_at(w2, HOURS_PER_YEAR) == 2


@pytest.mark.rule("GW-ORD-01", "RES-GW-10")
def test_the_phases_run_in_order_and_the_order_is_configurable():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=2, garrison={"militia": 2})
    put_domain(w, "HOME", "a", hx(w, 1, 1))
    put_army(w, "Z", "a", hx(w, 9, 2), {"infantry": 6})
    put_army(w, "Y", "a", hx(w, 12, 4), {"infantry": 1})
    put_army(w, "C1", "c", hx(w, 12, 4), {"infantry": 1})
    w.gw.guilds["a"].pool = {"militia": 2}
    led = play(w, 0, [
        Move(guild="a", army="Z", to=h), Siege(guild="a", army="Z", domain="D"),
        AttackArmy(guild="a", army="Y", target="C1"), Recruit(guild="a", units={"militia": 1}),
    ])
    seq = [k for k in kinds(led) if k in ("UnitsRecruited", "ArmyMoved", "GarrisonFed", "BattleFought", "YieldCollected", "UpkeepPaid")]
    assert seq == ["UnitsRecruited", "ArmyMoved", "GarrisonFed", "BattleFought", "YieldCollected", "UpkeepPaid"]
    assert w.config.gw.phase_order == ["deploy", "move", "siege", "army_combats", "domain_attacks", "annexations", "end_of_season"]
    # a scenario may reorder them: here the army combat comes before the movement
    w2 = make_world(config={"gw.phase_order": ["deploy", "army_combats", "move", "siege", "domain_attacks", "annexations", "end_of_season"]})
    put_army(w2, "Z", "a", hx(w2, 9, 2), {"infantry": 1})
    put_army(w2, "Y", "a", hx(w2, 12, 4), {"infantry": 1})
    put_army(w2, "C1", "c", hx(w2, 12, 4), {"infantry": 1})
    led2 = play(w2, 0, [Move(guild="a", army="Z", to=h), AttackArmy(guild="a", army="Y", target="C1")])
    assert [k for k in kinds(led2) if k in ("ArmyMoved", "BattleFought")] == ["BattleFought", "ArmyMoved"]


@pytest.mark.rule("RES-GW-27", "SC-GW-09")
def test_an_order_that_became_illegal_by_its_phase_is_rejected_whole_with_its_clause():
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "A1", "a", h, {"infantry": 10})
    put_army(w, "C1", "c", h, {"infantry": 2})
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, AttackArmy(guild="a", army="A1", target="C1"), led)
    wf.give_order(w, Move(guild="c", army="C1", to=hx(w, 9, 4)), led)  # C1 walks away first
    wf.run_phases(w, ScriptedDice([]), led)
    rej = led.of_kind("OrderRejected")[0]
    assert rej.clauses == ("RES-GW-27",) and "is not in the army's hex" in rej.data["reason"]
    assert led.of_kind("BattleFought") == []


@pytest.mark.rule("SC-GW-02", "SC-GW-03", "SC-GW-04", "SC-GW-05", "SC-GW-08", "SC-GW-11")
def test_the_guild_world_built_from_a_scenario():
    w = make_world("""
[[domains]]
id = "D1"
name = "Fort"
at = [1, 1]
owner = "a"
fortification = 2
garrison = { militia = 2 }
buildings = [{ name = "Grenier", sp = 12 }]
consents_to = ["b"]
works = ["tower"]

[[armies]]
id = "host"
owner = "a"
at = [2, 2]
seals = ["a-m1", "a-m2"]
units = { infantry = 12 }
""")
    gw = w.gw
    a = gw.guilds["a"]
    assert (a.leader, a.solars, a.victuals, a.notoriety, a.pool, a.affiliation) == ("Alice", 1000, 100, 7, {}, None)
    assert a.seals == ["a-m1", "a-m2", "a-m3", "a-m4", "a-p1"]
    s = gw.seals["a-m1"]
    assert (s.kind, s.guild, s.province, s.region, s.army) == ("military", "a", "P", "R", "host")
    assert gw.regions == {"Q": ["Q1"], "R": ["P", "P2"]}
    assert gw.provinces["Q1"].hexes[0] == hx(w, 9, 0) and len(gw.provinces["Q1"].hexes) == 30
    d = gw.domains["D1"]
    assert (d.hex, d.province, d.region, d.owner, d.owner_guild, d.title_holder, d.fortification) == (hx(w, 1, 1), "P", "R", "Alice", "a", "Alice", 2)
    assert [b.sp for b in d.buildings] == [12] and d.occupied_by == [] and d.besieged_by == [] and d.frozen_until == -1
    army = gw.armies["host"]
    assert (army.owner, army.capacity, army.hex, len(army.units), army.own_seals) == ("a", 20, hx(w, 2, 2), 12, ["a-m1", "a-m2"])
    assert army.besieging is None and army.occupying is None


@pytest.mark.rule("SC-GW-14", "SC-GW-16", "SC-GW-11")
def test_yields_then_upkeep_and_unpaid_units_leave():
    w = make_world(config={"gw.domain_solars": 7, "gw.domain_victuals": 3, "gw.army_upkeep_solars": 2})
    put_domain(w, "D1", "a", hx(w, 1, 1))
    put_domain(w, "D2", "a", hx(w, 3, 3))
    put_army(w, "big", "a", hx(w, 7, 4), {"militia": 3, "infantry": 6})
    put_army(w, "small", "a", hx(w, 8, 5), {"knight": 2})
    g = w.gw.guilds["a"]
    g.solars = 0
    g.victuals = 0
    led = play(w, 0, [])
    y = led.of_kind("YieldCollected")[0]
    assert (y.data["solars"], y.data["victuals"]) == (14, 6)
    up = [e for e in led.of_kind("UpkeepPaid") if e.actor == "guild:a"][0]
    # 11 units × 2 = 22 due, 14 in the chest: 7 units paid, 4 leave from the largest army, militia first
    assert (up.dc, up.total) == (22, 14)
    assert [k for _, k, _ in up.data["left"]] == ["militia", "militia", "militia", "infantry"]
    assert g.solars == 0 and g.victuals == 6
    assert len(w.gw.armies["big"].units) == 5 and len(w.gw.armies["small"].units) == 2


@pytest.mark.rule("SC-GW-16")
def test_unpaid_units_leave_from_the_army_with_most_units_ties_lowest_id_and_an_empty_army_dissolves():
    w = make_world()
    put_army(w, "x2", "a", hx(w, 7, 4), {"infantry": 2})
    put_army(w, "x1", "a", hx(w, 8, 5), {"infantry": 2})
    put_army(w, "x3", "a", hx(w, 9, 5), {"militia": 1})
    w.gw.guilds["a"].solars = 0
    led = play(w, 0, [])
    left = [e for e in led.of_kind("UpkeepPaid") if e.actor == "guild:a"][0].data["left"]
    assert [a for _, _, a in left] == ["x1", "x2", "x1", "x2", "x3"]
    assert w.gw.armies == {} and [e.actor for e in led.of_kind("ArmyDissolved")] == ["army:x1", "army:x2", "army:x3"]
    assert all(w.gw.seals[s].army is None for s in ("x1-s1", "x2-s1", "x3-s1"))


@pytest.mark.rule("SC-GW-14", "RES-GW-20")
def test_occupied_and_besieged_domains_yield_nothing():
    w = make_world()
    put_domain(w, "D1", "c", hx(w, 10, 1))
    put_domain(w, "D2", "c", hx(w, 12, 3))
    put_domain(w, "D3", "c", hx(w, 10, 5))
    put_army(w, "Z", "a", hx(w, 10, 1), {"infantry": 5})
    put_army(w, "Y", "a", hx(w, 12, 3), {"infantry": 5})
    w.gw.armies["Z"].occupying = "D1"
    w.gw.armies["Y"].besieging = "D2"
    wf.refresh_statuses(w)
    led = play(w, 1, [Siege(guild="a", army="Y", domain="D2")])
    (y,) = [e for e in led.of_kind("YieldCollected") if e.actor == "guild:c"]
    assert y.data["domains"] == ["D3"] and y.data["solars"] == 20 and y.data["victuals"] == 10


@pytest.mark.rule("SC-GW-15")
def test_recruitment_prices_caps_and_an_unaffordable_order_is_illegal():
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    put_domain(w, "D2", "a", hx(w, 3, 3))
    put_domain(w, "D3", "a", hx(w, 1, 5))
    put_army(w, "enemy", "c", hx(w, 1, 5), {"infantry": 1})
    w.gw.armies["enemy"].occupying = "D3"
    wf.refresh_statuses(w)
    cfg = w.config.gw
    assert cfg.unit_cost_solars == {"militia": 5, "infantry": 10, "archer": 12, "cavalry": 15, "knight": 20, "siege_engine": 30}
    g = w.gw.guilds["a"]
    g.solars = 200
    led = Ledger()
    start_season(w, 0, led)
    with pytest.raises(IllegalOrderError, match=r"SC-GW-15: 11 recruits \(\+0 already ordered\) exceed 5 per unoccupied domain × 2 = 10"):
        wf.check(w, "a", Recruit(guild="a", units={"militia": 11}))
    wf.give_order(w, Recruit(guild="a", units={"knight": 6}), led)  # 120
    with pytest.raises(IllegalOrderError, match=r"SC-GW-15: the chest holds 200 solars; these recruits cost 90 \(\+120 already ordered\)"):
        wf.check(w, "a", Recruit(guild="a", units={"siege_engine": 3}))
    with pytest.raises(IllegalOrderError, match=r"SC-GW-15: 5 recruits \(\+6 already ordered\)"):
        wf.check(w, "a", Recruit(guild="a", units={"militia": 5}))
    wf.give_order(w, Recruit(guild="a", units={"infantry": 4}), led)
    wf.run_phases(w, ScriptedDice([]), led)
    assert g.pool == {"infantry": 4, "knight": 6}
    assert [e.total for e in led.of_kind("UnitsRecruited")] == [120, 40]


@pytest.mark.rule("SC-GW-10", "SC-GW-12")
def test_the_bank_and_notoriety_change_only_through_annexation():
    w = make_world()
    assert (w.gw.bank.held, w.gw.bank.kept, w.gw.bank.deposits) == (0, 0, [])
    before = {g: w.gw.guilds[g].notoriety for g in w.gw.guilds}
    put_domain(w, "D", "c", hx(w, 10, 2), garrison={"militia": 1})
    put_army(w, "Z", "a", hx(w, 10, 2), {"infantry": 5})
    for s, orders in enumerate([[AttackDomain(guild="a", army="Z", domain="D")], [], []]):
        play(w, s, orders)
    assert {g: w.gw.guilds[g].notoriety for g in w.gw.guilds} == before
    assert w.gw.bank.held == 0


def _all_order_kinds_world():
    w = make_world(alliances='alliances = [["a", "b"]]')
    h = hx(w, 10, 2)
    put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 4})
    put_domain(w, "D", "c", h, fort=1, garrison={}, buildings=[("Halle", 12)])
    put_domain(w, "K", "c", hx(w, 12, 4), fort=1, garrison={"militia": 1})
    put_army(w, "Z", "a", h, {"infantry": 5})
    put_army(w, "Y", "a", hx(w, 12, 4), {"infantry": 5})
    put_army(w, "C1", "c", h, {"infantry": 1})
    w.gw.armies["Z"].occupying = "D"
    w.gw.armies["Z"].occupying_since = 0
    w.gw.guilds["a"].pool = {"infantry": 10}
    wf.refresh_statuses(w)
    led = Ledger()
    put_army(w, "B1", "b", hx(w, 7, 4), {"infantry": 10})
    put_army(w, "C2", "c", hx(w, 7, 4), {"infantry": 5})
    play(w, 0, [AttackArmy(guild="b", army="B1", target="C2")], ScriptedDice(["1d6=1"]), led)
    # a pending title return for a
    from sim.state.gw import Deposit

    put_domain(w, "LOST", "b", hx(w, 3, 4))
    w.gw.bank.deposits.append(Deposit("LOST", "b", 500, 0, former_owner="a", annexed_season=0, new_owner="Bob"))
    w.gw.bank.held += 500
    start_season(w, 1, led)
    return w


@pytest.mark.rule("SC-GW-09", "SC-GW-15", "RES-GW-27")
def test_legal_orders_lists_every_kind_of_order_and_each_is_accepted():
    w = _all_order_kinds_world()
    legal = wf.legal_orders(w, "a")
    tags = {o.__struct_config__.tag for o in legal}
    assert tags == {
        "deploy", "recruit", "reinforce", "disband", "move", "siege", "attack_domain", "attack_army", "sack", "annex",
        "return_title", "treasure_hunt", "domain_action", "lend_seals",
    }
    # every listed order passes the check it is listed by
    for o in legal:
        wf.check(w, o.guild, o)
    assert all(isinstance(o, AnyOrder.__args__) for o in legal)  # type: ignore[attr-defined]
    # a pick-up needs an army on the loot's hex: move one there, then it is listed
    loot_hex = w.gw.loot[0].hex
    wf.give_order(w, Move(guild="a", army="Y", to=loot_hex), Ledger())
    assert any(isinstance(o, PickUpLoot) for o in wf.legal_orders(w, "a"))


@pytest.mark.rule("SC-GW-09", "RES-GW-27")
def test_legal_orders_shrink_as_orders_are_given():
    w = _all_order_kinds_world()
    led = Ledger()
    wf.give_order(w, Disband(guild="a", army="Y"), led)
    legal = wf.legal_orders(w, "a")
    assert not any(getattr(o, "army", None) == "Y" for o in legal)
    wf.give_order(w, Deploy(guild="a", domain="HOME", seals=["a-m1", "a-m2", "a-m3", "a-m4"], units={"infantry": 10}), led)
    legal = wf.legal_orders(w, "a")
    assert not any(isinstance(o, Deploy | Reinforce) for o in legal)  # no free seal, empty pool
    wf.give_order(w, ReturnTitle(guild="a", domain="LOST"), led)
    assert not any(isinstance(o, ReturnTitle) for o in wf.legal_orders(w, "a"))
    wf.give_order(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    assert not any(isinstance(o, Annex) for o in wf.legal_orders(w, "a"))
    assert any(isinstance(o, Sack | TreasureHunt | DomainAction) for o in wf.legal_orders(w, "a"))


@pytest.mark.rule("SC-GW-02", "SC-GW-05", "SC-GW-08")
def test_the_guild_world_round_trips_through_msgpack_with_pending_orders():
    w = _all_order_kinds_world()
    led = Ledger()
    for _ in range(3):
        wf.give_order(w, wf.legal_orders(w, "a")[-1], led)
    assert w.gw.orders
    assert decode_world(encode_world(w)) == w
    gw2 = msgspec.msgpack.decode(msgspec.msgpack.encode(w.gw), type=GwWorld)
    assert gw2 == w.gw
