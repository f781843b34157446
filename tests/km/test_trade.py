"""Trade edicts (KM-TRADE, RES-KM-17…25), with the exact odds of each outcome band."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.odds import exact_distribution
from sim.rules import km as E
from sim.rules import km as K
from sim.rules.km.trade import check_trade, type_taken
from sim.state.km import TradeEdict
from sim.world import copy_world
from tests.km.helpers import grid, kingdom, ledger, ready, settle, sheet, world


def line(row0: str, *, size: int = 10, treasury: int = 40, other: str = "P", **settle_kw: object):
    """Origin at [0, 0] (kingdom a), destination at the row's last hex (kingdom b); more rows (of
    ``other`` terrain, row 1 kept empty) give kingdom a its Size."""
    w_ = len(row0)
    rows = [row0] + [other * w_] * (2 + size // w_)
    hm = grid(rows)
    a = kingdom("a", [0] + list(range(w_ * 2, w_ * 2 + size - 1)), treasury=treasury)
    b = kingdom("b", [w_ - 1])
    w = world(hm, [a, b])
    settle(w, "a", "Origin", 0, **settle_kw)
    settle(w, "b", "Dest", w_ - 1)
    ready(w, "a")
    return w, a, b


def path(w) -> list[int]:
    return list(range(1, w.map.width))


@pytest.mark.rule("KM-TRADE-02", "RES-KM-17")
def test_origin_destination_and_path_shape() -> None:
    w, a, b = line("PPPPP")
    with pytest.raises(IllegalOrderError, match="KM-TRADE-02.*origin 'Dest' is not a settlement of a"):
        E.check(w, "a", TradeEdict("b", "Dest", "Dest", "raw_materials", 5))
    with pytest.raises(IllegalOrderError, match="KM-TRADE-02.*destination 'Origin' is not a settlement of b"):
        E.check(w, "a", TradeEdict("b", "Origin", "Origin", "raw_materials", 5))
    with pytest.raises(IllegalOrderError, match=r"RES-KM-17.*must end at Dest \[4, 0\]"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=[1, 2, 3]))
    with pytest.raises(IllegalOrderError, match=r"RES-KM-17.*path hex \[3, 0\] is not next to \[1, 0\]"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=[1, 3, 4]))
    # the origin's hex may open the path; it is not counted: 4 plains hexes → TRL 8
    _, p, cats, halves = check_trade(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=[0, 1, 2, 3, 4]))
    assert (p, halves) == ([1, 2, 3, 4], 16)


@pytest.mark.rule("KM-TRADE-03", "KM-TRADE-04", "RES-KM-18")
def test_allowed_hexes_and_weights_with_pier_and_waterfront() -> None:
    # [1,0] hills with a river, [2,0] forest on the coast, [3,0] water, [4,0] desert, [5,0] hills with a road
    hm = grid(["PHFWDHP", "PPPPPPP"])
    hm.hexes[1].river = True
    hm.hexes[5].road = "road"
    a = kingdom("a", [0, 7])
    w = world(hm, [a])
    assert [E.route_weight(w, h, False, False) for h in range(7)] == [
        (4, "plains"), None, None, None, (4, "desert"), (2, "road"), (4, "plains")]
    assert [E.route_weight(w, h, True, False) for h in (1, 2, 3)] == [(2, "river"), (2, "coastal"), None]
    assert [E.route_weight(w, h, True, True) for h in (1, 2, 3)] == [(2, "river"), (2, "coastal"), (1, "water")]
    hm.hexes[1].road = "highway"
    assert E.route_weight(w, 1, True, True) == (1, "highway")  # highway first
    hm.hexes[0].terrain = "tundra"
    assert E.route_weight(w, 0, False, False) == (4, "desert")  # tundra is desert terrain


@pytest.mark.rule("KM-TRADE-03")
def test_a_route_through_a_forbidden_hex_is_refused() -> None:
    w, a, b = line("PPFPP", other="F")
    with pytest.raises(IllegalOrderError, match=r"KM-TRADE-03.*hex \[2, 0\] \(forest\) is not allowed on a trade route from Origin"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=path(w)))
    with pytest.raises(IllegalOrderError, match="KM-TRADE-03.*no allowed path from Origin to Dest"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5))


@pytest.mark.rule("KM-TRADE-05", "RES-KM-19", "GEN-02")
def test_rm_and_lm_from_the_exact_trl() -> None:
    # 5 plains (10) + 5 highway (2.5): TRL 12.5 → RM 1, LM = Size 30 − 12.5 = 17.5 → 17
    w, a, b = line("P" * 6 + "P" * 5, size=30)
    for h in range(6, 11):
        w.map.hexes[h].road = "highway"
    led = ledger()
    dice = ScriptedDice(["d20=1", "d20=1", "d20=1"])
    E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=path(w)), dice, led)
    ev = led.of_kind("TradeEdictIssued")[0]
    assert (ev.data["trl"], ev.data["rm"], ev.data["lm"]) == ("25/2", 1, 17)
    # a longer route than the Size: LM is 0, not negative
    w, a, b = line("P" * 8, size=4)
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=path(w)),
                          ScriptedDice(["d20=1", "d20=1", "d20=1"]), ledger())
    assert (r.trl_halves, r.rm, r.lm) == (28, 1, 0)


@pytest.mark.rule("KM-TRADE-06", "RES-KM-20")
def test_travel_days_rivers_coasts_and_arrival_in_a_later_turn() -> None:
    # a river flowing east along [1,0]…[4,0]: downstream ¼ day each; back upstream 1 day each
    hm = grid(["PPPPPP", "PPPPPP", "PPPPPP"])
    for h in range(0, 5):
        hm.hexes[h].river = True
        hm.hexes[h].river_to = h + 1
    a = kingdom("a", [0, 12])
    w = world(hm, [a])
    cats = ["river"] * 4
    assert E.route_days(w, [1, 2, 3, 4], cats, 0) == 4 * Fraction(1, 4)  # the river flows from [0,0] on: all downstream
    hm.hexes[0].river, hm.hexes[0].river_to = False, -1
    assert E.route_days(w, [1, 2, 3, 4], cats, 0) == 1 + 3 * Fraction(1, 4)  # entering a river from off it: upstream rate
    assert E.route_days(w, [3, 2, 1], ["river"] * 3, 4) == 3
    assert E.route_days(w, [6, 7], ["coastal", "water"], 0) == Fraction(3, 4)
    # 40 plains hexes: 40 days → arrives in the issue turn + 1; the checks open that turn's Edict phase
    w, a, b = line("P" * 41)
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=path(w)), ScriptedDice([]), ledger())
    assert (r.days, r.arrival_turn, r.status) == ("40", 1, "travelling")
    w.km.turn = 1
    led = ledger()
    E.begin_edict_phase(w, "a", ScriptedDice(["d20=1", "d20=1", "d20=1"]), led)
    assert [e.kind for e in led.events][-1] == "TradeExpeditionLost" and r.status == "lost"


@pytest.mark.rule("KM-TRADE-07", "RES-KM-21", "RES-KM-01")
def test_investment_at_least_5_bp_blocks_of_five() -> None:
    w, a, b = line("PPPP", treasury=14)
    with pytest.raises(IllegalOrderError, match="KM-TRADE-07.*at least 5 BP, not 4"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 4))
    sheet(w, "a", economy=100, loyalty=-100, stability=-100)  # exactly one success (Economy)
    led = ledger()
    dice = ScriptedDice(["d20=10", "d20=10", "d20=10", "d4=4", "d4=4"])  # k = floor(14 / 5) = 2 → 2d4
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 14, path=path(w)), dice, led)
    dice.assert_exhausted()
    assert r.k == 2 and a.treasury == 0 + 8


@pytest.mark.rule("RES-KM-01", "KM-TRADE-07", "RES-KM-21")
def test_an_investment_above_the_treasury_is_capped_and_needs_5_bp_of_it() -> None:
    """RES-KM-01: the investment is chosen up to the Treasury at that moment; KM-TRADE-07 then needs 5 BP
    (a Trade edict therefore needs a Treasury of at least 5 BP)."""
    w, a, b = line("PPPP", treasury=14)
    sheet(w, "a", economy=100, loyalty=-100, stability=-100)  # exactly one success (Economy)
    led = ledger()
    dice = ScriptedDice(["d20=10", "d20=10", "d20=10", "d4=1", "d4=2"])  # 15 asked, 14 invested: k = 2 → 2d4
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 15, path=path(w)), dice, led)
    dice.assert_exhausted()
    issued = led.of_kind("TradeEdictIssued")[0]
    assert (issued.total, issued.data["investment_asked"], r.investment, r.k) == (14, 15, 14, 2)
    assert a.treasury == 0 + 3
    w2, a2, _ = line("PPPP", treasury=4)
    with pytest.raises(IllegalOrderError, match=r"KM-TRADE-07.*at least 5 BP and the investment is capped by the Treasury \(4 BP"):
        E.check(w2, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 10))


@pytest.mark.rule("KM-TRADE-09", "KM-TRADE-01")
def test_zero_successes_lose_the_expedition_fame_and_unrest() -> None:
    w, a, b = line("PPPP", treasury=20)
    a.fame = 2
    led = ledger()
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 10, path=path(w)),
                          ScriptedDice(["d20=1", "d20=1", "d20=1"]), led)
    assert r.status == "lost" and (a.fame, a.unrest, a.treasury) == (1, 1, 10)
    assert not type_taken(w.km, "a", "raw_materials")  # a failed expedition frees the type (RES-KM-24)


@pytest.mark.rule("KM-TRADE-11", "KM-TRADE-12", "KM-TRADE-01", "RES-KM-22")
def test_two_and_three_successes() -> None:
    w, a, b = line("PPPP", treasury=20)
    sheet(w, "a", economy=100, loyalty=100, stability=-100)
    led = ledger()
    # two successes, k = 2: Treasury + RM (0) + 4d4; Economy +1; Fame unchanged
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 10, path=path(w)),
                          ScriptedDice(["d20=10", "d20=10", "d20=10", "4d4=1,2,3,4"]), led)
    assert (r.economy_bonus, a.treasury, a.fame) == (1, 10 + 10, 0)
    # three successes: Economy +2, Fame +1
    w, a, b = line("PPPP", treasury=20)
    sheet(w, "a", economy=100, loyalty=100, stability=100)
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=path(w)),
                          ScriptedDice(["d20=10", "d20=10", "d20=10", "2d4=4,4"]), ledger())
    assert (r.economy_bonus, a.treasury, a.fame, r.status) == (2, 15 + 8, 1, "established")
    assert K.stats(w, a).economy == 102


@pytest.mark.rule("KM-TRADE-14", "RES-KM-24", "KM-TRADE-13")
def test_one_route_per_type_taken_from_issue_until_failure_or_expiry() -> None:
    w, a, b = line("P" * 41, treasury=40)
    E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=path(w)), ScriptedDice([]), ledger())
    w.km.turn = 1
    ready(w, "a")
    with pytest.raises(IllegalOrderError, match="KM-TRADE-14.*already has a raw_materials trade route"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5))
    # another type is free
    w.map.hexes[0].settlement = "Origin"
    a.settlements[0].buildings = {"guildhall": 1}
    E.check(w, "a", TradeEdict("b", "Origin", "Dest", "goods", 5))


@pytest.mark.rule("KM-TRADE-15", "KM-TRADE-16", "KM-TRADE-17", "KM-TRADE-18", "RES-KM-24", "RES-KM-25")
def test_route_type_prerequisites() -> None:
    w, a, b = line("PPPP")
    for typ, clause, what in (("food", "KM-TRADE-16", "Granary and a Stockyard"), ("goods", "KM-TRADE-17", "Guildhall"),
                              ("luxuries", "KM-TRADE-18", "Luxury Store")):
        with pytest.raises(IllegalOrderError, match=f"{clause}.*needs a {what} in Origin"):
            E.check(w, "a", TradeEdict("b", "Origin", "Dest", typ, 5))
    a.settlements[0].buildings = {"granary": 1, "stockyard": 1}
    with pytest.raises(IllegalOrderError, match="RES-KM-25.*raw Consumption is 10, not below 0"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "food", 5))
    a.consumption_mod = -11
    E.check(w, "a", TradeEdict("b", "Origin", "Dest", "food", 5))


@pytest.mark.rule("KM-TRADE-16", "RES-KM-25", "RES-KM-24")
def test_food_bonus_only_in_months_with_a_surplus() -> None:
    w, a, b = line("PPPP", treasury=40)
    a.settlements[0].buildings = {"granary": 1, "stockyard": 1}
    a.improvements = {h: ["farm"] for h in a.hexes[1:]}  # 9 Farms
    a.improvements[a.hexes[1]] = ["fishery"]  # 8 Farms + 1 Fishery → 9: no full group of 10 yet
    a.consumption_mod = -20
    sheet(w, "a", economy=100, loyalty=100, stability=-100)
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "food", 5, path=path(w)),
                          ScriptedDice(["d20=10", "d20=10", "d20=10", "2d4=1,1"]), ledger())
    assert r.type_bonus == 0
    r.type_bonus = 1  # as if the kingdom had 10 Farms and Fisheries at arrival
    base = K.stats(w, a).economy - r.economy_bonus
    a.surplus_turn = w.km.turn
    assert K.stats(w, a).economy == base + 1 + 1
    a.surplus_turn = w.km.turn - 1  # this month's Upkeep step 2 found no surplus: the type bonus is lost
    assert K.stats(w, a).economy == base + 1


@pytest.mark.rule("KM-TRADE-17", "KM-TRADE-18", "KM-TRADE-19")
def test_type_bonuses() -> None:
    w, a, b = line("PPPP")
    s = a.settlements[0]
    s.buildings = {"guildhall": 2, "smithy": 3, "shop": 3, "trade_shop": 1, "tannery": 1, "tavern": 5}
    assert E.type_bonus(w, a, "Origin", "goods") == 1  # 10 of the five goods buildings
    s.buildings = {"alchemist": 4, "casters_tower": 2, "exotic_artisan": 3, "herbalist": 5, "luxury_store": 4, "magic_shop": 2}
    assert E.type_bonus(w, a, "Origin", "luxuries") == 2
    a.improvements = {h: ["mine"] for h in a.hexes[1:9]} | {a.hexes[9]: ["quarry"]}
    a.hexes.extend([100, 101])
    a.improvements[100] = ["sawmill"]
    assert E.type_bonus(w, a, "Origin", "raw_materials") == 0  # Mines count only with a Foundry in the origin
    s.buildings["foundry"] = 1
    assert E.type_bonus(w, a, "Origin", "raw_materials") == 1  # 8 Mines + 1 Quarry + 1 Sawmill


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.rule("KM-TRADE-08", "KM-TRADE-09", "KM-TRADE-10", "KM-TRADE-11", "KM-TRADE-12", "SC-KM-03")
def test_exact_odds_of_each_outcome_band() -> None:
    """Enumerate every face of the three d20s (k = 0: no d4 is drawn) and compare with the hand-computed
    fractions. Economy needs 11+ (10 faces: 1/2), Loyalty 16+ (5 faces: 1/4), Stability only a natural 20
    (1/20). P(0) = 1/2·3/4·19/20 = 57/160; P(1) = (57 + 19 + 3)/160 = 79/160; P(2) = (19 + 3 + 1)/160 =
    23/160; P(3) = 1/2·1/4·1/20 = 1/160."""
    w, a, b = line("PPPP", treasury=40)
    r = E.resolve_special(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=path(w)),
                          ScriptedDice(["d20=1", "d20=1", "d20=1"]), ledger())
    r.status, r.k = "travelling", 0
    dc, _ = E.trade_dc(w, r)
    sheet(w, "a", economy=dc - 11, loyalty=dc - 16, stability=dc - 40)
    a.unrest = 0
    base = copy_world(w)
    band = {0: "lost", 1: "sold elsewhere", 2: "established", 3: "great success"}

    def fn(dice) -> str:
        ww = copy_world(base)
        route = ww.km.routes[0]
        E.trade_arrival(ww, route, dice, ledger())
        return band[route.successes]

    dist = exact_distribution(fn)
    assert dist == {"lost": Fraction(57, 160), "sold elsewhere": Fraction(79, 160), "established": Fraction(23, 160),
                    "great success": Fraction(1, 160)}
    # with natural 1 and natural 20 deciding: Economy fails only on a 1 (19/20), Loyalty succeeds only on a 20
    # (1/20), Stability needs 6+ (3/4): P(0) = 1/20·19/20·1/4 = 19/1600; P(1) = (361 + 1 + 57)/1600 = 419/1600;
    # P(2) = (19 + 1083 + 3)/1600 = 1105/1600; P(3) = 19/20·1/20·3/4 = 57/1600
    sheet(w, "a", economy=dc + 30, loyalty=dc - 40, stability=dc - 6)
    base = copy_world(w)
    dist = exact_distribution(fn)
    assert dist == {"lost": Fraction(19, 1600), "sold elsewhere": Fraction(419, 1600), "established": Fraction(1105, 1600),
                    "great success": Fraction(57, 1600)}
