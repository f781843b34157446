"""The eight KM worked examples of RULES.md §7.1, with their exact dice (ScriptedDice)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import km as E
from sim.rules import km as K
from sim.rules.km.trade import type_taken
from sim.state.km import (
    Agreement,
    DiplomaticEdict,
    Encounter,
    ExplorationEdict,
    HiddenFeature,
    TradeEdict,
    VassalageEdict,
)
from tests.km.helpers import grid, kinds, kingdom, ledger, plains, ready, settle, sheet, world


def ex01_world():
    """EX-KM-01's start: A (LG, Size 23, Fame 5, Infamy 2, Treasury 20, Diplomacy +14, present in B),
    B (NG, Size 41, Indifferent to A); A and B both have a treaty with C; A has an embassy with D; B is
    at war with D."""
    hm = plains(10, 8)
    a = kingdom("a", list(range(0, 23)), alignment="LG", fame=5, infamy=2, treasury=20, skills={"diplomacy": 14})
    b = kingdom("b", list(range(23, 64)), alignment="NG")
    c = kingdom("c", [64, 65], alignment="N")
    d = kingdom("d", [66, 67], alignment="N")
    w = world(hm, [a, b, c, d])
    km = w.km
    for x in ("a", "b"):
        rel = km.relation(x, "c")
        rel.embassy = True
        rel.treaty = Agreement("treaty", bonus={x: 0, "c": 0})
    km.relation("a", "d").embassy = True
    km.relation("b", "d").enemies = True
    km.stance("a", "b").present = True
    ready(w, "a")
    return w


@pytest.mark.rule(
    "KM-DIP-03", "KM-DIP-04", "KM-DIP-05", "KM-DIP-07", "KM-DIP-09", "KM-DIP-10", "KM-DIP-11",
    "RES-KM-01", "RES-KM-03", "RES-KM-04", "RES-KM-05", "RES-KM-06", "KM-REL-02",
)
def test_ex_km_01_diplomatic_edict_establishes_an_embassy() -> None:
    w = ex01_world()
    km = w.km
    led = ledger()
    dc, terms, rows = E.diplomatic_dc(w, "a", "b", 3)
    assert dict(terms) == {
        "base": 10, "own Infamy": 2, "target special size": 8, "own special size": 4, "alignment difference": 5,
        "relationships": 0, "attitude (indifferent)": 10, "own Fame": -5, "bribes": -3,
    }
    assert rows == [["c", "both have a treaty with", -2], ["d", "embassy with the target's enemy", 2]]
    assert dc == 31
    dice = ScriptedDice(["d4=3", "d20=19"])
    out = E.resolve_special(w, "a", DiplomaticEdict("b", "embassy", bribe=3), dice, led)
    dice.assert_exhausted()
    assert out == "embassy established"
    chk = led.of_kind("DiplomacyCheckRolled")[0]
    assert (chk.dc, chk.total, chk.outcome, chk.data["margin"]) == (31, 33, "success", 2)
    assert km.relation("a", "b").embassy
    assert km.stance("b", "a").attitude == "indifferent"
    assert K.stats(w, km.kingdoms["a"]).fame == 5
    assert km.kingdoms["a"].treasury == 14


@pytest.mark.rule("KM-REL-07", "RES-KM-10", "RES-KM-40", "KM-DIP-11")
def test_ex_km_02_treaty_attempt_fails_on_two_checks() -> None:
    w = ex01_world()
    km = w.km
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy", bribe=3), ScriptedDice(["d4=3", "d20=19"]), ledger())
    T = km.turn
    km.turn = T + 1
    ready(w, "a")
    led = ledger()
    dice = ScriptedDice(["d4=1", "d20=15", "d20=11"])
    out = E.resolve_special(w, "a", DiplomaticEdict("b", "treaty"), dice, led)
    dice.assert_exhausted()
    assert out == "treaty refused"
    checks = [(e.dc, e.total, e.outcome, e.data["attitude"]) for e in led.of_kind("DiplomacyCheckRolled")]
    assert checks == [(34, 29, "failure", ["indifferent", "unfriendly"]), (39, 25, "failure", ["unfriendly", "hostile"])]
    assert km.relation("a", "b").treaty is None
    assert K.stats(w, km.kingdoms["a"]).fame == 4
    assert km.stance("b", "a").attitude == "hostile"
    assert km.kingdoms["a"].treasury == 13
    # next treaty attempt with B allowed from turn T+13
    for turn, legal in ((T + 12, False), (T + 13, True)):
        km.turn = turn
        ready(w, "a")
        if legal:
            E.check(w, "a", DiplomaticEdict("b", "treaty"))
        else:
            with pytest.raises(IllegalOrderError, match=r"KM-REL-07.*failed treaty attempt"):
                E.check(w, "a", DiplomaticEdict("b", "treaty"))


def ex03_world(stability: int = 40):
    """EX-KM-03's start: Size 23, 2 districts (Control DC 45), Stability 40, Unrest 3, Treasury 30,
    least stealthy explorer +3; encounter month 1 day 3, hostile, CR 4. The route runs east from the
    capital through unexplored plains (one day each at 30 ft)."""
    hm = plains(30, 2)
    hexes = list(range(30, 53))  # row 1
    a = kingdom("a", hexes, unrest=3, treasury=30, explorers={"stealth": 3})
    w = world(hm, [a])
    settle(w, "a", "Capital", 0 + 30, districts=2)
    a.hexes = sorted({*a.hexes})
    w.km.hex(0).explored = False
    sheet(w, "a", stability=stability)
    w.km.encounters = [Encounter(day=3, cr=4, hostile=True)]
    ready(w, "a")
    return w


ROUTE = list(range(0, 10))  # row 0, next to the capital at [0, 1]


@pytest.mark.rule("KM-EXP-02", "KM-EXP-07", "KM-EXP-08", "RES-KM-12", "RES-KM-15", "RES-KM-16", "RES-KM-42", "SC-KM-03", "SC-KM-04")
def test_ex_km_03_unaccompanied_explorers_are_killed() -> None:
    w = ex03_world()
    k = w.km.kingdoms["a"]
    assert K.stats(w, k).control_dc == 45
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=9", "d20=15"])
    exp = E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    stealth = led.of_kind("ExplorerStealthCheckRolled")[0]
    assert (stealth.dc, stealth.total, stealth.outcome) == (18, 12, "failure")
    stab = led.of_kind("ExplorerStabilityCheckRolled")[0]
    assert (stab.dc, stab.total, stab.outcome, stab.data["result"]) == (53, 52, "failure", "killed")
    assert exp.status == "killed" and exp.day == 3
    assert k.unrest == 4
    assert k.treasury == 24
    # nothing more happens in month 2 (no refund, no explorers)
    w.km.turn += 1
    led2 = ledger()
    E.run_expeditions(w, "a", ScriptedDice([]), led2)
    assert kinds(led2) == []
    assert k.treasury == 24


@pytest.mark.rule("KM-EXP-08", "RES-KM-16", "SC-KM-03")
def test_ex_km_04a_explorers_scattered_then_resume_in_month_2() -> None:
    w = ex03_world()
    k = w.km.kingdoms["a"]
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=9", "d20=16"])
    exp = E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    stab = led.of_kind("ExplorerStabilityCheckRolled")[0]
    assert (stab.total, stab.dc, stab.data["result"], stab.data["days_forfeited"]) == (53, 53, "scattered", 28)
    assert [e.data["day"] for e in led.of_kind("HexExplored")] == [1, 2]
    assert exp.status == "active" and exp.scattered_month == 1
    assert k.unrest == 3 and k.treasury == 24
    # month 2: exploration resumes on day 31
    w.km.turn += 1
    led2 = ledger()
    E.run_expeditions(w, "a", ScriptedDice([]), led2)
    days = [e.data["day"] for e in led2.of_kind("HexExplored")]
    assert days[0] == 31


@pytest.mark.rule("KM-EXP-08", "RES-KM-16", "SC-KM-03")
def test_ex_km_04b_natural_1_on_a_kingdom_check_kills_the_explorers() -> None:
    w = ex03_world(stability=60)
    k = w.km.kingdoms["a"]
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=9", "d20=1"])
    exp = E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    stab = led.of_kind("ExplorerStabilityCheckRolled")[0]
    assert (stab.total, stab.dc, stab.outcome) == (58, 53, "failure")
    assert exp.status == "killed"
    assert k.unrest == 4


@pytest.mark.rule("KM-EXP-04", "KM-EXP-05", "RES-KM-13", "RES-KM-14", "RES-KM-42", "SC-KM-34")
def test_ex_km_05_exploration_timing_and_a_hidden_feature() -> None:
    from sim.config import Config, KmConfig

    # capital at [0, 0]; H1 plains (explored) [1, 0], H2 forest [2, 0], H3 mountains [3, 0]
    hm = grid(["PPFM", "PPPP"])
    a = kingdom("a", [0, 4], treasury=10, explorers={"knowledge_geography": 2, "survival": 6})
    w = world(hm, [a], config=Config(km=KmConfig(explorer_speed_ft=20)))
    settle(w, "a", "Capital", 0)
    km = w.km
    km.hex(1).explored = True
    km.hex(2).features = [HiddenFeature("ruined shrine", 22)]
    ready(w, "a")
    led = ledger()
    dice = ScriptedDice(["d4=3", "d20=10", "d20=17"])
    exp = E.resolve_special(w, "a", ExplorationEdict(months=1, route=[1, 2, 3]), dice, led)
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    rolls = [(e.mods[0][0], e.total, e.outcome, e.data["day"]) for e in led.of_kind("HiddenFeatureCheckRolled")]
    assert rolls == [("Knowledge (geography)", 12, "nothing found", 3), ("Survival", 23, "found ruined shrine", 3)]
    explored = [(e.data["hex"], e.data["day"]) for e in led.of_kind("HexExplored")]
    assert explored == [([2, 0], 4), ([3, 0], 8)]
    assert km.explored(2) and km.explored(3)
    assert km.hex(2).features[0].found_by == "a"
    assert a.treasury == 7
    ret = led.of_kind("ExplorersReturned")[0]
    assert exp.status == "finished" and ret.data["unused_route"] == 0


def ex06_world():
    """EX-KM-06: a line of hexes east of the origin: 4 road, 2 water, 2 highway, 3 plains (the last one
    the partner's settlement). Origin with Pier, Waterfront and Guildhall; Corruption 2, Productivity 5."""
    row0 = "P" * 5 + "WW" + "P" * 5
    hm = grid([row0, "P" * 12, "P" * 12, "P" * 12])
    for i in (1, 2, 3, 4):
        hm.hexes[i].road = "road"
    for i in (7, 8):
        hm.hexes[i].road = "highway"
    a_hexes = [0] + list(range(12, 41))  # Size 30
    a = kingdom("a", a_hexes, treasury=40, unrest=2)
    b = kingdom("b", [11])
    w = world(hm, [a, b])
    settle(w, "a", "Origin", 0, districts=2, water_border=True,
           buildings={"guildhall": 1, "pier": 1, "waterfront": 1}, mods={"corruption": 2, "productivity": 1})
    settle(w, "b", "Dest", 11)
    sheet(w, "a", economy=60, loyalty=50, stability=55)
    ready(w, "a")
    return w


def _ex_km_06() -> SimpleNamespace:
    """EX-KM-06 played through (the figures before the edict are kept as they were)."""
    w = ex06_world()
    k = w.km.kingdoms["a"]
    m = K.settlement_mods(w, k, k.settlements[0])
    out = SimpleNamespace(w=w, k=k, control_dc=K.stats(w, k).control_dc, mods=(m["corruption"], m["productivity"]))
    out.led = ledger()
    dice = ScriptedDice(["d20=12", "d20=19", "d20=14", "d4=3", "d4=1"])
    out.r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "goods", 10, path=list(range(1, 12))), dice, out.led)
    dice.assert_exhausted()
    return out


@pytest.mark.rule("KM-TRADE-03", "KM-TRADE-04", "KM-TRADE-05", "KM-TRADE-06", "RES-KM-17", "RES-KM-18", "RES-KM-19", "RES-KM-20")
def test_ex_km_06_trade_route_length_modifiers_and_days() -> None:
    ex = _ex_km_06()
    issued = ex.led.of_kind("TradeEdictIssued")[0]
    assert (issued.data["trl"], issued.data["rm"], issued.data["lm"], issued.data["days"]) == ("12", 1, 18, "19/2")
    assert issued.data["arrival_turn"] == 0


@pytest.mark.rule("KM-TRADE-07", "KM-TRADE-08", "KM-TRADE-09", "KM-TRADE-10", "RES-KM-21", "RES-KM-22")
def test_ex_km_06_trade_edict_with_one_success() -> None:
    ex = _ex_km_06()
    w, k, led = ex.w, ex.k, ex.led
    assert ex.control_dc == 52
    assert ex.mods == (2, 5)
    checks = [(e.data["attribute"], e.dc, e.total, e.outcome) for e in led.of_kind("TradeCheckRolled")]
    assert checks == [("economy", 68, 70, "success"), ("loyalty", 68, 67, "failure"), ("stability", 68, 67, "failure")]
    assert ex.r.status == "sold"
    assert k.treasury == 34
    assert K.stats(w, k).economy == 60 and K.stats(w, k).fame == 0
    assert not type_taken(w.km, "a", "goods")  # the Goods slot is still free


@pytest.mark.rule("KM-TRADE-05", "KM-TRADE-08", "KM-TRADE-11", "KM-TRADE-13", "KM-TRADE-17", "RES-KM-19", "RES-KM-22", "RES-KM-23",
                  "RES-KM-24", "RES-KM-38", "SC-KM-31")
def test_ex_km_07_trade_edict_with_two_successes_and_a_goods_bonus() -> None:
    # origin at [0, 0]; 2 road hexes then 6 plains hexes, the partner's settlement on the last
    hm = plains(9, 3)
    hm.hexes[1].road = "road"
    hm.hexes[2].road = "road"
    a = kingdom("a", [0] + list(range(9, 18)), treasury=15, government="autocracy")  # Size 10
    b = kingdom("b", [8])
    w = world(hm, [a, b])
    settle(w, "a", "Origin", 0, buildings={"guildhall": 1, "smithy": 3, "shop": 4, "trade_shop": 2, "tannery": 1, "tavern": 1})
    settle(w, "b", "Dest", 8)
    sheet(w, "a", economy=25, loyalty=20, stability=22)
    m = K.settlement_mods(w, a, a.settlements[0])
    assert (m["productivity"], m["corruption"]) == (8, 1)
    assert K.stats(w, a).control_dc == 31
    ready(w, "a")
    T = w.km.turn
    led = ledger()
    dice = ScriptedDice(["d20=8", "d20=3", "d20=5", "d4=3", "d4=2"])
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "goods", 5, path=list(range(1, 9))), dice, led)
    dice.assert_exhausted()
    assert [e.dc for e in led.of_kind("TradeCheckRolled")] == [25, 25, 25]
    assert [e.outcome for e in led.of_kind("TradeCheckRolled")] == ["success", "failure", "success"]
    est = led.of_kind("TradeRouteEstablished")[0]
    assert (est.total, est.data["economy_bonus"], est.data["type_bonus"]) == (6, 1, 1)
    assert r.status == "established" and a.treasury == 16
    assert K.stats(w, a).economy == 27 and K.stats(w, a).fame == 0
    for turn in (T + 1, T + 11):
        K.start_turn(w, turn, ledger())
        assert K.stats(w, a).economy == 27
    K.start_turn(w, T + 12, led)
    assert K.stats(w, a).economy == 25
    assert r.status == "expired" and led.of_kind("TradeRouteExpired")


@pytest.mark.rule("KM-VAS-02", "KM-VAS-06", "KM-VAS-07", "RES-KM-26", "RES-KM-29", "RES-KM-30", "RES-KM-43", "SC-KM-03")
def test_ex_km_08_subjugation_friction_until_equilibrium() -> None:
    hm = plains(10, 5)
    ov = kingdom("ov", list(range(0, 23)), alignment="LG", treasury=50, unrest=2)
    sub = kingdom("sub", list(range(23, 40)), alignment="CN", treasury=0, conquered_by="ov", deposition_shift=1)
    w = world(hm, [ov, sub])
    settle(w, "ov", "Seat", 0, districts=2)
    sheet(w, "ov", loyalty=35)
    assert K.stats(w, ov).control_dc == 45
    ready(w, "ov")
    led = ledger()
    dice = ScriptedDice(["d4=2", "d20=17"])
    E.resolve_special(w, "ov", VassalageEdict("subjugation", viceroy="Lady Vess", target="sub", grant_max=True), dice, led)
    dice.assert_exhausted()
    assert ov.treasury == 36 and sub.treasury == 12
    issued = led.of_kind("VassalageEdictIssued")[0]
    assert (issued.data["grant"], issued.data["alignment_steps"], issued.data["attitude"]) == (12, 3, "indifferent")
    assert w.km.stance("sub", "ov").attitude == "indifferent"
    assert sub.overlord == "ov" and sub.subjugation is not None and sub.subjugation.dc_increase == 3
    script = {1: ["d20=6", "d4=3"], 2: ["d20=18"], 3: ["d20=20"], 4: ["d20=19"]}
    for t in (1, 2, 3, 4):
        w.km.turn = t
        K.friction_check(w, "ov", "sub", ScriptedDice(script[t]), led)
    checks = [(e.dc, e.total, e.outcome, e.data["streak"]) for e in led.of_kind("SubjugationFrictionCheckRolled")]
    assert checks == [(48, 50, "success", 1), (48, 39, "failure", 0), (48, 48, "success", 1), (48, 50, "success", 2),
                      (48, 49, "success", 3)]
    assert ov.unrest == 5
    assert sub.subjugation.finished
    # from T+5 the Upkeep phase makes no friction check
    w.km.turn = 5
    led5 = ledger()
    K.upkeep(w, "ov", ScriptedDice(["d20=20"]), led5)
    assert not led5.of_kind("SubjugationFrictionCheckRolled")
