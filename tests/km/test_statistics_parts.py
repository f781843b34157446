"""The parts of a kingdom's sheet read from its terrain improvements and its trade routes (SC-KM-32,
RES-KM-32, KM-TRADE-11/16, RES-KM-23), worked by hand on small kingdoms: ``stats`` reads them in one
pass over the improvements and the routes, and keeps settlement modifiers by the values they are
made of (issue 26); every count here is written out."""

from __future__ import annotations

import pytest

from sim.config import Config, KmConfig
from sim.rules import km as K
from sim.state.km import TradeRoute
from tests.km.helpers import kingdom, plains, settle, world


def _route(rid: int, kid: str, *, status: str, arrival: int, expiry: int, eco: int, bonus: int, type_: str = "goods") -> TradeRoute:
    return TradeRoute(id=rid, kingdom=kid, partner="b", origin="X", destination="Y", type=type_, path=[], trl_halves=2,
                      rm=0, lm=0, investment=5, k=1, issue_turn=0, arrival_turn=arrival, days="1", status=status,
                      economy_bonus=eco, type_bonus=bonus, expiry_turn=expiry)


@pytest.mark.rule("SC-KM-32", "RES-KM-32")
def test_improvements_count_once_per_hex_and_kind() -> None:
    """Six hexes: a Farm; a Farm and a Mine; a Mine; a Quarry and a Sawmill; a Fishery; a Mine listed
    twice in one hex (counted once: a hex holds a kind or not). Counts: farm 2, mine 3, quarry 1,
    sawmill 1, fishery 1."""
    a = kingdom("a", [0, 1, 2, 3, 4, 5], improvements={
        0: ["farm"], 1: ["farm", "mine"], 2: ["mine"], 3: ["quarry", "sawmill"], 4: ["fishery"], 5: ["mine", "mine"]})
    assert K.improvement_counts(a) == {"farm": 2, "mine": 3, "quarry": 1, "sawmill": 1, "fishery": 1}
    assert [K.count_improvements(a, x) for x in ("farm", "mine", "quarry", "sawmill", "fishery")] == [2, 3, 1, 1, 1]
    assert K.improvement_counts(kingdom("b", [0])) == {}


@pytest.mark.rule("SC-KM-32", "RES-KM-32", "SC-KM-14", "SC-KM-15", "SC-KM-16")
def test_the_sheet_reads_each_improvement() -> None:
    """The kingdom above, every leader in place, base 10/10/10, edicts at their defaults (Holiday none:
    Loyalty −1, Promotion none: Stability −1, Taxation normal: Economy +2, Loyalty −2), no settlement,
    no road. Economy 10 + 3 Mines + 2 = 15; Loyalty 10 − 1 − 2 = 7; Stability 10 + 1 Quarry + 1 Sawmill
    − 1 = 11. Consumption: Size 6, two Farms −2 each (no Stockyard), one Fishery −1: 6 − 4 − 1 = 1."""
    a = kingdom("a", [0, 1, 2, 3, 4, 5], improvements={
        0: ["farm"], 1: ["farm", "mine"], 2: ["mine"], 3: ["quarry", "sawmill"], 4: ["fishery"], 5: ["mine", "mine"]})
    w = world(plains(6, 1), [a])
    st = K.stats(w, a)
    assert (st.economy, st.loyalty, st.stability) == (15, 7, 11)
    assert (st.raw_consumption, st.consumption) == (1, 1)
    audit = K.stats(w, a, audit=True)
    assert ("Mines", 3) in audit.parts["economy"] and ("Quarries and Sawmills", 2) in audit.parts["stability"]
    assert ("Farms", -4) in audit.parts["consumption"] and ("Fisheries", -1) in audit.parts["consumption"]


@pytest.mark.rule("KM-TRADE-11", "KM-TRADE-16", "RES-KM-23", "RES-KM-25")
def test_only_the_kingdoms_established_routes_in_their_months_count() -> None:
    """Turn 5. Kingdom a's routes: established from turn 2 to 8 (Economy +1, type bonus +2: counts, +3);
    established but expired at turn 5 (RES-KM-23: turn 5 is its first turn without the bonus: 0);
    established from turn 6 (not yet: 0); travelling (0); lost (0); a Food route established from
    turn 1 to 9 with bonus +1 and type bonus +1, whose type bonus needs this turn's surplus (RES-KM-25:
    none, so +1). Kingdom b's established route (+1, +1) is not a's. Economy: base 10 + Taxation normal 2
    + 3 + 1 = 16; b: 10 + 2 + 2 = 14."""
    a = kingdom("a", [0])
    b = kingdom("b", [1])
    w = world(plains(2, 1), [a, b], turn=5)
    km = w.km
    assert km is not None
    km.routes = [
        _route(1, "a", status="established", arrival=2, expiry=8, eco=1, bonus=2),
        _route(2, "a", status="established", arrival=1, expiry=5, eco=1, bonus=1),
        _route(3, "a", status="established", arrival=6, expiry=9, eco=1, bonus=1),
        _route(4, "a", status="travelling", arrival=4, expiry=9, eco=1, bonus=1),
        _route(5, "a", status="lost", arrival=2, expiry=9, eco=1, bonus=1),
        _route(6, "a", status="established", arrival=1, expiry=9, eco=1, bonus=1, type_="food"),
        _route(7, "b", status="established", arrival=1, expiry=9, eco=1, bonus=1),
    ]
    assert K.stats(w, a).economy == 10 + 2 + 3 + 1
    a.surplus_turn = 5  # this turn's Upkeep found a surplus: the Food route's type bonus counts too
    assert K.stats(w, a).economy == 10 + 2 + 3 + 2
    assert K.stats(w, b).economy == 10 + 2 + 2


@pytest.mark.rule("SC-KM-28", "RES-KM-38", "SC-KM-29", "SC-KM-30")
def test_settlement_modifiers_follow_every_change_of_what_they_are_made_of() -> None:
    """``settlement_mods`` keeps its answers by the values it reads; each change below must show at
    once (a stale answer would be a rules bug). Modifiers in the order corruption, crime, law, lore,
    productivity, society:

    - a Guildhall (Law +1, Productivity +2), Autocracy (none): 0, 0, 1, 0, 2, 0;
    - a Tavern added (Corruption +1): 1, 0, 1, 0, 2, 0;
    - a second Tavern: 2, 0, 1, 0, 2, 0;
    - a scenario extra Crime +3: 2, 3, 1, 0, 2, 0;
    - Theocracy (Corruption −1, Law +1, Lore +1, Society −1): 1, 3, 2, 1, 2, −1;
    - SC-KM-30's size modifiers on: Guildhall 2 lots + 2 Taverns 1 each = 4 lots, −2 on all six:
      −1, 1, 0, −1, 0, −3;
    - 44 lots (21 Guildhalls: 21 × 2 = 42, + 2 Taverns; 41–100 lots: +1 per district, one
      district): Law +1 and Productivity +2 for each Guildhall: 21 Law + 1 Theocracy = 22;
      Productivity 42; +1 on all six: 2, 4, 23, 2, 43, 0;
    - a second district: +2 on all six instead: 3, 5, 24, 3, 44, 1.
    """
    order = ("corruption", "crime", "law", "lore", "productivity", "society")
    a = kingdom("a", [0])
    w = world(plains(1, 1), [a])
    s = settle(w, "a", "Acity", 0, buildings={"guildhall": 1})

    def mods() -> tuple[int, ...]:
        m = K.settlement_mods(w, a, s)
        return tuple(m[x] for x in order)

    assert mods() == (0, 0, 1, 0, 2, 0)
    s.buildings["tavern"] = 1
    assert mods() == (1, 0, 1, 0, 2, 0)
    s.buildings["tavern"] += 1
    assert mods() == (2, 0, 1, 0, 2, 0)
    s.mods = {"crime": 3}
    assert mods() == (2, 3, 1, 0, 2, 0)
    a.government = "theocracy"
    assert mods() == (1, 3, 2, 1, 2, -1)
    w.config = Config(km=KmConfig(settlement_size_modifiers=True))
    assert mods() == (-1, 1, 0, -1, 0, -3)
    s.buildings["guildhall"] = 21
    assert mods() == (2, 4, 23, 2, 43, 0)
    s.districts = 2
    assert mods() == (3, 5, 24, 3, 44, 1)
    got = K.settlement_mods(w, a, s)
    got["law"] = 99  # each call has its own dict: changing it changes nothing kept
    assert mods() == (3, 5, 24, 3, 44, 1)


@pytest.mark.rule("SC-KM-31", "SC-KM-28")
def test_building_lines_follow_every_building_added_or_lost() -> None:
    """SC-KM-31's Kingdom lines, summed over a settlement's buildings and kept by their counts; each
    change must show at once. (Economy, Loyalty, Stability, Fame): an Alchemist (Economy +1): 1, 0,
    0, 0; a Black Market added (Economy +2, Stability +1): 3, 0, 1, 0; a second Black Market: 5, 0,
    2, 0; a Noble Villa (+1 to all four): 6, 1, 3, 1; the Alchemist lost: 5, 1, 3, 1. The sheet adds
    them to base 10/10/10 with the defaults' −1 Loyalty (Holiday none), −2 Loyalty and +2 Economy
    (Taxation normal) and −1 Stability (Promotion none): Economy 17, Loyalty 8, Stability 12."""
    b: dict[str, int] = {"alchemist": 1}
    assert K.building_lines(b) == (1, 0, 0, 0)
    b["black_market"] = 1
    assert K.building_lines(b) == (3, 0, 1, 0)
    b["black_market"] = 2
    assert K.building_lines(b) == (5, 0, 2, 0)
    b["noble_villa"] = 1
    assert K.building_lines(b) == (6, 1, 3, 1)
    del b["alchemist"]
    assert K.building_lines(b) == (5, 1, 3, 1)
    a = kingdom("a", [0])
    w = world(plains(1, 1), [a])
    settle(w, "a", "Acity", 0, buildings=b)
    st = K.stats(w, a)
    assert (st.economy, st.loyalty, st.stability) == (17, 8, 12)
