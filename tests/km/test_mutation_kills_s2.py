"""Tests written against the survivors of a fresh mutation sample (issue 29: ``tools/mutate.py km
--seed 2``): each pins a KM rule behaviour (an outcome, a state change or a ledger field) that a
mutant of sim/rules/km/ changed without any earlier test noticing.

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments); the
diplomacy tests use the ``pair`` of tests/km/test_diplomacy.py (two lawful good kingdoms of Size 2,
Fame and Infamy 0, a Helpful target: the KM-DIP-04 DC is 10 + relationships − bribes)."""

from __future__ import annotations

import pytest

from sim.config import Config, KmConfig
from sim.dice import DiceBox, ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.orders import ScriptedDecider
from sim.rules import km as E
from sim.rules import links
from sim.rules.km.statistics import kingdom_check
from sim.state.km import (
    Agreement,
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuilding,
    EmbassyBuildingOrder,
    ExplorationEdict,
    Kingdom,
    RelationOrder,
    ScriptedEvent,
    Subjugation,
    TradeEdict,
    TradeRoute,
    TurnOrders,
    VassalageEdict,
)
from sim.world import World
from tests.km.helpers import grid, kinds, kingdom, ledger, plains, ready, settle, sheet, world
from tests.km.test_diplomacy import pair, sign_treaty_script
from tests.km.test_examples import ROUTE, ex03_world
from tests.km.test_link import model
from tests.km.test_month import two

# ---- KM-DIP-01: the target of a Diplomatic edict ------------------------------------------------------


@pytest.mark.rule("KM-DIP-01")
def test_a_diplomatic_edict_towards_oneself_or_an_unknown_kingdom_is_malformed_even_with_magic() -> None:
    """The target is *another* kingdom: oneself or an unknown id is a malformed order, also when magic
    communication waives the representative's presence (KM-DIP-02 is then no obstacle)."""
    w, a, b = pair(config=Config(km=KmConfig(magic_communication=True)))
    with pytest.raises(InvalidOrderError, match="diplomatic edict target 'a': expected another kingdom"):
        E.check(w, "a", DiplomaticEdict("a", "embassy"))
    with pytest.raises(InvalidOrderError, match="diplomatic edict target 'zz': expected another kingdom"):
        E.check(w, "a", DiplomaticEdict("zz", "embassy"))


# ---- KM-REL-08 / RES-KM-41: the opposed checks ----------------------------------------------------------


@pytest.mark.rule("KM-REL-08", "RES-KM-41", "GEN-01")
def test_opposed_checks_are_numbered_in_the_order_of_the_skills() -> None:
    """Each OpposedCheckRolled event names its place among the five: 1 Bluff, 2 Diplomacy, 3 Knowledge
    (local), 4 Knowledge (nobility); the envoy's third win (check 4) stops the rolling."""
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "treaty"), ScriptedDice(sign_treaty_script()), led)
    opp = led.of_kind("OpposedCheckRolled")
    assert [(e.data["check"], e.data["skill"]) for e in opp] == [
        (1, "Bluff"), (2, "Diplomacy"), (3, "Knowledge (local)"), (4, "Knowledge (nobility)")]
    # envoy, target, envoy, envoy: the running tallies
    assert [(e.data["envoy_wins"], e.data["target_wins"]) for e in opp] == [(1, 0), (1, 1), (2, 1), (3, 1)]


# ---- KM-REL-09: the Fame of a balanced treaty ----------------------------------------------------------


@pytest.mark.rule("KM-REL-09", "RES-KM-11")
def test_a_balanced_treaty_records_the_advantaged_kingdoms_fame_gain() -> None:
    """Balanced: the advantaged kingdom's Fame +1 (no Infamy); the AgreementSigned event says so."""
    w, a, b = pair()
    sheet(w, "a", economy=20)
    sheet(w, "b", economy=30)
    led = ledger()
    E.sign_agreement(w, "a", "b", "treaty", "a", True, ScriptedDice([]), led, via="edict")
    ev = led.of_kind("AgreementSigned")[0]
    assert (ev.data["fame"], ev.data["infamy"]) == (1, 0)
    assert (a.fame, a.infamy, b.fame) == (1, 0, 0)
    # a: 30 × 10 // 100 = 3; b: 20 × 10 // 100 = 2
    assert ev.data["bonus"] == {"a": 3, "b": 2}


# ---- LINK-05: envoys ----------------------------------------------------------------------------------


@pytest.mark.rule("LINK-05", "KM-DIP-02", "RES-KM-02")
def test_an_envoy_one_day_away_is_not_present_before_it_arrives() -> None:
    """Capitals 2 hexes apart at 2 hexes a day: the envoy arrives after 1 day (24 h), not at once."""
    hm = plains(12, 8)
    a = kingdom("a", [0, 1], treasury=30)
    b = kingdom("b", [2, 3])
    w = world(hm, [a, b])
    settle(w, "a", "Acity", 0)
    settle(w, "b", "Bcity", 2)
    ready(w, "a", "b")
    led = ledger()
    env = links.send_envoy(w, "a", "b", 720, led)
    # [0, 0] → [2, 0]: 2 steps; ceil(2 / 2) = 1 day
    assert len(env.path) - 1 == 2 and env.arrive == 720 + 24
    assert env.status == "travelling" and not E.representative_present(w, "a", "b")
    assert kinds(led) == ["EnvoySent"] and led.events[0].total == 1


# ---- KM-EXP-03 / RES-KM-12: an expedition leaves from the capital --------------------------------------


@pytest.mark.rule("KM-EXP-03", "RES-KM-12", "RES-KM-13", "SC-KM-33")
def test_a_route_that_names_the_capital_first_starts_exploring_on_day_1() -> None:
    """The explorers leave from the capital: a route written from the capital itself does not make them
    cross it. The next hex, unexplored plains, takes 1 day at 30 ft (SC-KM-33): explored on day 1."""
    hm = plains(10, 2)
    a = kingdom("a", [0], treasury=30)
    w = world(hm, [a])
    settle(w, "a", "Capital", 0)
    ready(w, "a")
    led = ledger()
    dice = ScriptedDice(["d4=2"])
    exp = E.resolve_special(w, "a", ExplorationEdict(months=1, route=[0, 1, 2]), dice, led)
    assert exp.route == [1, 2]
    assert led.of_kind("ExplorationEdictIssued")[0].data["route"] == [[1, 0], [2, 0]]
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    # day 1: [1, 0]; day 2: [2, 0]
    assert [(e.data["day"], e.data["hex"]) for e in led.of_kind("HexExplored")] == [(1, [1, 0]), (2, [2, 0])]


# ---- KM-EXP-08 / RES-KM-16: killed explorers forfeit no days, they end -----------------------------------


@pytest.mark.rule("KM-EXP-08", "RES-KM-16")
def test_killed_explorers_record_no_scattering_forfeit() -> None:
    """EX-KM-03: killed on day 3. The Stability event's days_forfeited is the scattering forfeit of
    RES-KM-16, which applies only to scattered explorers: 0 here (the expedition ends instead)."""
    w = ex03_world()
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=9", "d20=15"])
    E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    stab = led.of_kind("ExplorerStabilityCheckRolled")[0]
    assert (stab.data["result"], stab.data["days_forfeited"]) == ("killed", 0)
    # the scattered variant (EX-KM-04 a, d20 = 16): days 3–30 of month 1 are forfeited, 28 days
    w = ex03_world()
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=9", "d20=16"])
    E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    stab = led.of_kind("ExplorerStabilityCheckRolled")[0]
    assert (stab.data["result"], stab.data["days_forfeited"]) == ("scattered", 28)


# ---- RES-KM-39 / RES-KM-01: the bribes a Diplomatic edict is offered with ------------------------------


def _bribes(w, kid: str, target: str, kind: str) -> list[int]:  # noqa: ANN001
    return [o.bribe for o in E.legal_orders(w, kid) if isinstance(o, DiplomaticEdict) and o.target == target and o.kind == kind]


@pytest.mark.rule("RES-KM-39", "RES-KM-01", "RES-KM-03")
def test_the_offered_bribes_are_the_canonical_0_5_10_capped_by_what_the_worst_1d4_leaves() -> None:
    """The legal Diplomatic edicts carry the canonical bribes 0, 5 and 10 BP (docs/agents.md: canonical
    sizes), each capped by the Treasury left after the worst 1d4 of the edict's cost (RES-KM-01: the bribe is
    chosen after the 1d4 is paid, up to the Treasury then)."""
    w, a, b = pair()  # Treasury 30: 30 − 4 = 26 leaves all three
    assert _bribes(w, "a", "b", "embassy") == [0, 5, 10]
    a.treasury = 11  # 11 − 4 = 7: 0, 5, min(7, 10) = 7
    assert _bribes(w, "a", "b", "embassy") == [0, 5, 7]
    a.treasury = 7  # 7 − 4 = 3: 0, 3 (5 and 10 both capped to 3)
    assert _bribes(w, "a", "b", "embassy") == [0, 3]


# ---- KM-TRADE-17 / RES-KM-24: a route type's buildings, in the origin offered ---------------------------


@pytest.mark.rule("KM-TRADE-17", "RES-KM-24", "RES-KM-39")
def test_a_goods_route_is_offered_from_the_settlement_with_the_guildhall_not_the_nearer_one() -> None:
    """Goods need a Guildhall in the origin settlement (KM-TRADE-17): with the Guildhall in the farther of two
    settlements, the Goods Trade edicts offered leave from it (the nearer one cannot send Goods at all)."""
    hm = plains(12, 2)
    a = kingdom("a", [0, 1, 2, 3, 4, 5], treasury=30)
    b = kingdom("b", [8, 9])
    w = world(hm, [a, b])
    settle(w, "a", "Far", 0, buildings={"guildhall": 1})
    settle(w, "a", "Near", 4)
    settle(w, "b", "Bcity", 9)
    ready(w, "a", "b")
    goods = [o for o in E.legal_orders(w, "a") if isinstance(o, TradeEdict) and o.type == "goods"]
    assert goods and {o.origin for o in goods} == {"Far"} and {o.destination for o in goods} == {"Bcity"}
    # the nearer settlement may send raw materials (no building needed, KM-TRADE-19), not Goods
    E.check(w, "a", TradeEdict("b", "Near", "Bcity", "raw_materials", 5))
    with pytest.raises(IllegalOrderError, match="KM-TRADE-17.*needs a Guildhall in Near"):
        E.check(w, "a", TradeEdict("b", "Near", "Bcity", "goods", 5))


@pytest.mark.rule("KM-TRADE-03", "RES-KM-18", "RES-KM-39")
def test_a_waterfront_settlement_is_offered_a_trade_route_across_the_water() -> None:
    """With a Waterfront the route may cross water hexes (KM-TRADE-03): across a strait with no land path,
    the legal Trade edicts from the Waterfront settlement go over the water (½ a hex each, RES-KM-18)."""
    hm = grid(["PWWWP", "PWWWP"])
    a = kingdom("a", [0, 5], treasury=30)
    b = kingdom("b", [4, 9])
    w = world(hm, [a, b])
    settle(w, "a", "Port", 0, buildings={"waterfront": 1}, water_border=True)
    settle(w, "b", "Bcity", 4)
    ready(w, "a", "b")
    trade = [o for o in E.legal_orders(w, "a") if isinstance(o, TradeEdict)]
    assert trade and {o.origin for o in trade} == {"Port"}
    # from [0, 0] to [4, 0] by row 0: three water hexes then the destination
    assert all(o.path == [1, 2, 3, 4] for o in trade)


# ---- KM-VAS-01: a colony is offered where there is explored, unclaimed land --------------------------------


@pytest.mark.rule("KM-VAS-01", "RES-KM-39", "RES-KM-43")
def test_a_colony_on_explored_unclaimed_land_next_to_the_kingdom_is_offered() -> None:
    """KM-VAS-01: a Vassalage edict may found a colony on unclaimed land; next to explored, unclaimed plains
    the legal special edicts include one, on hexes that are unclaimed, explored and not water."""
    hm = plains(8, 4)
    a = kingdom("a", [0, 1], treasury=30)
    w = world(hm, [a])
    settle(w, "a", "Acity", 0)
    for h in (2, 9, 10):
        w.km.hex(h).explored = True
    ready(w, "a")
    colonies = [o for o in E.legal_orders(w, "a") if isinstance(o, VassalageEdict) and o.mode == "colony"]
    assert colonies
    for o in colonies:
        assert o.hexes and set(o.hexes) <= {2, 9, 10}
        assert any(h in hm.neighbors(1) or h in hm.neighbors(0) for h in o.hexes)


# ---- LINK-05 / SC-KM-13: envoy targets; embassy buildings --------------------------------------------------


def _three() -> World:
    hm = plains(12, 8)
    a = kingdom("a", [0, 1], treasury=60)
    b = kingdom("b", [40, 41])
    c = kingdom("c", [6, 7])
    w = world(hm, [a, b, c])
    settle(w, "a", "Acity", 0)
    settle(w, "b", "Bcity", 40)
    settle(w, "c", "Ccity", 6)
    ready(w, "a", "b", "c")
    return w


@pytest.mark.rule("LINK-05")
def test_an_envoy_is_not_offered_towards_a_kingdom_one_is_already_travelling_to() -> None:
    """LINK-05: one representative per target. a's own envoy on the way to b takes b off a's envoy targets;
    c's envoy on the way to b does not."""
    w = _three()
    led = ledger()
    hooks = links.km_hooks(w)  # the envoys are LINK-05's, behind KM's hooks
    assert E.legal_orders(w, "a", slot="envoy", hooks=hooks) == ["b", "c"]
    links.send_envoy(w, "c", "b", 720, led)  # c's envoy, travelling (2 days or more away)
    assert E.legal_orders(w, "a", slot="envoy", hooks=hooks) == ["b", "c"]
    links.send_envoy(w, "a", "b", 720, led)
    assert E.legal_orders(w, "a", slot="envoy", hooks=hooks) == ["c"]


@pytest.mark.rule("KM-REL-03", "RES-KM-08")
def test_embassy_buildings_are_offered_only_where_one_has_none_yet() -> None:
    """KM-REL-03: with an embassy agreement a kingdom may have its embassy building in the other's
    settlement. a has embassies with b and c and already an embassy building in b: only c is offered."""
    w = _three()
    for t in ("b", "c"):
        w.km.relation("a", t).embassy = True
    w.km.embassy_buildings.append(EmbassyBuilding("a", "b", "Bcity", "mansion"))
    offered = [o for o in E.legal_orders(w, "a", slot="building") if isinstance(o, EmbassyBuildingOrder)]
    # Treasury 60: a Mansion (10 BP) and a Noble Villa (24 BP), both in c's only settlement
    assert [(o.host, o.settlement, o.kind) for o in offered] == [("c", "Ccity", "mansion"), ("c", "Ccity", "noble_villa")]


# ---- SC-KM-07 / ENG-KM-02: the hex lost to Unrest ---------------------------------------------------------


@pytest.mark.rule("SC-KM-07", "SC-KM-12")
def test_the_hexes_a_kingdom_may_lose_to_unrest_leave_out_its_settlements() -> None:
    """The leaders choose a hex without a settlement while there is one (ENG-KM-02); a settlement's hex only
    when none other is left."""
    hm = plains(8, 4)
    a = kingdom("a", [0, 1, 2, 3], treasury=30)
    w = world(hm, [a])
    settle(w, "a", "Acity", 0)
    settle(w, "a", "Btown", 2)
    assert E.legal_orders(w, "a", slot="lose_hex") == [1, 3]
    a.hexes = [0, 2]
    assert E.legal_orders(w, "a", slot="lose_hex") == [0, 2]


# ---- SC-KM-32/33: Highways, Roads; SC-KM-28: districts -----------------------------------------------------


def _big(hm_rows: list[str]) -> tuple[World, Kingdom]:
    hm = grid(hm_rows)
    a = kingdom("a", list(range(26)), treasury=50)  # Size 26: Highways allowed
    w = world(hm, [a])
    settle(w, "a", "Acity", 0)
    return w, a


@pytest.mark.rule("SC-KM-32", "SC-KM-33")
def test_a_highway_costs_twice_the_road_and_twice_again_across_a_river() -> None:
    """A Highway upgrades a Road at twice the Road cost (SC-KM-32), the Road cost doubled on a river hex:
    plains (Road 1 BP) → Highway 2 BP; plains with a river → 2 × 1 × 2 = 4 BP; hills (Road 3 BP) → 6 BP."""
    w, a = _big(["PPPPPPP", "PPPPPPP", "HHHHHHH", "PPPPPPP"])
    w.map.hexes[5].river = True
    for h in (3, 5, 14):
        w.map.set_road(h, "road")
    led = ledger()
    E.build_improvement(w, "a", 3, "highway", led)
    E.build_improvement(w, "a", 5, "highway", led)
    E.build_improvement(w, "a", 14, "highway", led)
    assert [e.total for e in led.of_kind("TerrainImprovementBuilt")] == [2, 4, 6]
    assert a.treasury == 50 - 2 - 4 - 6
    assert [w.map.hexes[h].road for h in (3, 5, 14)] == ["highway"] * 3


@pytest.mark.rule("SC-KM-32", "KM-TRADE-04")
def test_a_road_built_puts_a_road_on_the_map() -> None:
    """A Road built on plains (1 BP) gives the hex a road: a trade route then weighs it 1, not 2 (KM-TRADE-04)."""
    w, a = _big(["PPPPPPP", "PPPPPPP", "PPPPPPP", "PPPPPPP"])
    assert E.route_weight(w, 3, False, False)[0] == 4  # plains: 2 hexes, in halves
    E.build_improvement(w, "a", 3, "road", ledger())
    assert w.map.hexes[3].road == "road" and a.treasury == 49
    assert E.route_weight(w, 3, False, False)[0] == 2  # road: 1 hex, in halves


@pytest.mark.rule("SC-KM-28", "SC-KM-33")
def test_a_district_costs_the_preparation_cost_of_the_settlements_terrain() -> None:
    """SC-KM-28: an extra district costs the preparation cost of the terrain (SC-KM-33): Forest 4 BP
    (not its 2 days of exploration), Hills 2 BP."""
    hm = grid(["FHPP", "PPPP"])
    a = kingdom("a", [0, 1, 2], treasury=20)
    w = world(hm, [a])
    settle(w, "a", "Woodton", 0)
    settle(w, "a", "Hilltop", 1)
    led = ledger()
    E.buy_district(w, "a", "Woodton", led)
    assert a.treasury == 16 and a.settlements[0].districts == 2
    E.buy_district(w, "a", "Hilltop", led)
    assert a.treasury == 14 and a.settlements[1].districts == 2
    assert [(e.total, e.data["treasury_after"]) for e in led.of_kind("DistrictAdded")] == [(4, 16), (2, 14)]


# ---- KM-REL-10: renegotiation; KM-REL-06/10/12: attacks; LINK-08: conquest; RES-KM-35 ------------------------


@pytest.mark.rule("KM-REL-10", "KM-REL-09", "RES-KM-11", "RES-KM-46")
def test_a_renegotiated_bonus_of_less_than_1_bp_is_0() -> None:
    """Renegotiated balanced, won by the envoy: a gets 10% of b's Economy 5 = 0 (rounded down), b 10% of
    a's 40 = 4; no reduction stored."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy = True
    sheet(w, "a", economy=40, loyalty=0)
    sheet(w, "b", economy=5)
    rel.treaty = Agreement("treaty", balanced=False, advantaged="b", bonus={"a": 0, "b": 0}, reduction={"a": 0, "b": 0})
    led = ledger()
    # Loyalty: natural 20 succeeds; opposed checks: envoy 20–1 three times → envoy wins 3 of 5
    script = ["d20=20", "d20=20", "d20=1", "d20=20", "d20=1", "d20=20", "d20=1"]
    out = E.resolve_relation_order(w, "a", RelationOrder("renegotiate", "b", balance="balanced"), ScriptedDice(script), led)
    assert out == "renegotiated"
    assert rel.treaty.bonus == {"a": 0, "b": 4} and rel.treaty.balanced
    assert led.of_kind("AgreementRenegotiated")[0].data["bonus"] == {"a": 0, "b": 4}


@pytest.mark.rule("KM-REL-10", "KM-REL-12")
def test_attacking_a_treaty_partner_cites_km_rel_10_and_an_ally_km_rel_12() -> None:
    """Attacking a treaty partner is KM-REL-10's (success: Infamy and Unrest +1d2 each); an ally, KM-REL-12's
    (success: +1d4 each)."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty = True, Agreement("treaty")
    sheet(w, "a", loyalty=0)
    led = ledger()
    # natural 20 succeeds: 1d2 = 1 Infamy, 1d2 = 2 Unrest
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b"), ScriptedDice(["d20=20", "d2=1", "d2=2"]), led)
    ev = led.of_kind("AttackLoyaltyCheckRolled")[0]
    assert ev.clauses[0] == "KM-REL-10" and (ev.data["infamy"], ev.data["unrest"]) == (1, 2)
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty, rel.alliance = True, Agreement("treaty"), Agreement("alliance")
    sheet(w, "a", loyalty=0)
    led = ledger()
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b"), ScriptedDice(["d20=20", "d4=3", "d4=4"]), led)
    ev = led.of_kind("AttackLoyaltyCheckRolled")[0]
    assert ev.clauses[0] == "KM-REL-12" and (ev.data["infamy"], ev.data["unrest"]) == (3, 4)


@pytest.mark.rule("LINK-08", "KM-VAS-01")
def test_a_conquest_is_recorded_in_the_ledger() -> None:
    """A scripted conquest makes the target conquered by the kingdom, and a KingdomConquered event says so."""
    w, a, b = pair()
    led = ledger()
    E.resolve_event(w, ScriptedEvent(0, "conquest", "a", "b"), ScriptedDice([]), led)
    assert b.conquered_by == "a"
    assert kinds(led) == ["KingdomConquered"]
    assert (led.events[0].actor, led.events[0].data["target"], led.events[0].outcome) == ("kingdom:a", "b", "conquered")


@pytest.mark.rule("RES-KM-35")
def test_a_scenario_event_of_a_kingdom_that_is_gone_is_skipped() -> None:
    """A scripted event whose kingdom, or whose target, no longer exists is skipped (and recorded), not
    resolved."""
    w, a, b = pair()
    led = ledger()
    E.resolve_event(w, ScriptedEvent(0, "unrest", "zz", amount=3), ScriptedDice([]), led)
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "zz"), ScriptedDice([]), led)
    assert [(e.kind, e.outcome, e.data["event"]) for e in led.events] == [
        ("ScenarioEventSkipped", "kingdom gone", "unrest"), ("ScenarioEventSkipped", "kingdom gone", "attack")]
    assert a.unrest == 0 and a.infamy == 0


@pytest.mark.rule("KM-REL-03", "SC-KM-26", "RES-KM-37")
def test_an_embassy_buildings_society_2_counts_towards_fame() -> None:
    """KM-REL-03: an embassy building gives its owner Society +2, which SC-KM-26 counts in the Fame gain:
    an autocracy's settlement with Lore + Society 8 gives Fame 8 // 10 = 0; with a Mansion abroad,
    (8 + 2) // 10 = 1 (a Mansion has no Fame of its own)."""
    w, a, b = pair()
    a.settlements[0].mods = {"lore": 3, "society": 5}
    w.km.relation("a", "b").embassy = True
    assert E.stats(w, a).fame == 0
    w.km.embassy_buildings.append(EmbassyBuilding("a", "b", "Bcity", "mansion"))
    assert E.stats(w, a).fame == 1


# ---- SC-KM-32: Roads; SC-KM-07: anarchy; KM-TRADE-16: the Food route's buildings ----------------------------


@pytest.mark.rule("SC-KM-32")
def test_eight_road_hexes_give_economy_2_and_stability_1() -> None:
    """Road: Economy +1 per 4 Road hexes, Stability +1 per 8 (SC-KM-32). 7 Roads: +1 / +0; 8 Roads: +2 / +1."""
    w, a = _big(["PPPPPPP", "PPPPPPP", "PPPPPPP", "PPPPPPP"])
    st0 = E.stats(w, a)
    for h in range(1, 8):
        w.map.set_road(h, "road")
    st7 = E.stats(w, a)
    assert (st7.economy - st0.economy, st7.stability - st0.stability) == (1, 0)
    w.map.set_road(8, "road")
    st8 = E.stats(w, a)
    assert (st8.economy - st0.economy, st8.stability - st0.stability) == (2, 1)


@pytest.mark.rule("SC-KM-07", "SC-KM-03", "GEN-03")
def test_in_anarchy_a_kingdom_check_counts_as_0_against_its_dc() -> None:
    """SC-KM-07: in anarchy every check result counts as 0, so it succeeds only against a DC of 0 or less
    (GEN-03), a natural 20 always succeeding and a natural 1 always failing (SC-KM-03)."""
    w, a, b = pair()
    a.anarchy = True
    st = E.stats(w, a)
    assert [kingdom_check(ScriptedDice([f"d20={n}"]), a, "loyalty", dc, st)[0].success
            for n, dc in ((19, 1), (19, 0), (20, 40), (1, 0))] == [False, True, True, False]


@pytest.mark.rule("KM-TRADE-16")
def test_a_food_route_needs_a_granary_as_well_as_a_stockyard() -> None:
    """KM-TRADE-16: a Food route needs at least one Granary and one Stockyard in the settlement; a Stockyard
    alone is refused for the missing Granary."""
    w, a, b = pair()
    a.settlements[0].buildings = {"stockyard": 1}
    with pytest.raises(IllegalOrderError, match="KM-TRADE-16.*needs a Granary and a Stockyard in Acity"):
        E.check(w, "a", TradeEdict("b", "Acity", "Bcity", "food", 5))


# ---- LINK-04: a caravan that has not arrived in time ------------------------------------------------------


@pytest.mark.rule("LINK-04", "KM-TRADE-09")
def test_a_caravan_still_on_the_road_after_120_days_loses_the_expedition() -> None:
    """LINK-04: a convoy that has not arrived after link.expedition_max_days (default 120) days loses the
    expedition as in KM-TRADE-09, without checks; one day short of that it is still on its way."""
    m = model()
    m.run(1)
    w = m.world
    r = w.km.routes[0]
    assert r.status == "travelling" and w.cv.convoy(r.convoy).status == "travelling"
    w.now = m.ledger.now = r.set_out + 120 * 24 - 1
    links.caravan_arrivals(w, "a", ScriptedDice([]), m.ledger)
    assert r.status == "travelling" and not m.ledger.of_kind("TradeExpeditionLost")
    w.now = m.ledger.now = r.set_out + 120 * 24
    links.caravan_arrivals(w, "a", ScriptedDice([]), m.ledger)
    lost = m.ledger.of_kind("TradeExpeditionLost")
    assert r.status == "lost" and len(lost) == 1
    assert lost[0].data["reason"] == f"the caravan {r.convoy} has not arrived after 120 days"
    assert not [e for e in m.ledger.events if e.kind == "TradeCheckRolled" and e.actor == "kingdom:a"]


@pytest.mark.rule("LINK-04", "RES-KM-20")
def test_a_caravans_arrival_turn_is_unknown_when_it_sets_out() -> None:
    """With caravans the CV rules replace RES-KM-20's day count (LINK-04): the TradeEdictIssued event gives no
    arrival turn (-1) and names the convoy."""
    m = model()
    m.run(1)
    r = m.world.km.routes[0]
    ev = m.ledger.of_kind("TradeEdictIssued")[0]
    assert r.convoy is not None and (ev.data["arrival_turn"], ev.data["convoy"]) == (-1, r.convoy)
    assert r.arrival_turn == -1


@pytest.mark.rule("KM-TRADE-08")
def test_the_trade_dc_of_an_origin_settlement_no_longer_held_has_no_settlement_terms() -> None:
    """KM-TRADE-08: DC = Control DC + origin Corruption + RM + LM − origin Productivity. An origin the
    kingdom no longer holds has neither modifier: Size 2, no district left → Control DC 22; RM 1, LM 0 → 23."""
    w, a, b = pair()
    a.settlements[0].buildings = {"guildhall": 1}  # Productivity +2 while it stood
    route = TradeRoute(id=1, kingdom="a", partner="b", origin="Acity", destination="Bcity", type="goods", path=[],
                       trl_halves=24, rm=1, lm=0, investment=5, k=1, issue_turn=0, arrival_turn=1, days="12")
    a.settlements = []
    dc, terms = E.trade_dc(w, route)
    assert dc == 23
    assert terms == [("Control DC", 22), ("Acity Corruption", 0), ("RM", 1), ("LM", 0), ("Acity Productivity", 0)]


# ---- SC-KM-09/10, ENG-KM-06: Upkeep ----------------------------------------------------------------------


@pytest.mark.rule("SC-KM-09", "GEN-01")
def test_an_upkeep_stability_failure_by_5_records_the_1d4() -> None:
    """Control DC 20 + 2 + 1 = 23; d20 = 2 + Stability 10 = 12 fails by 11: Unrest +1d4 (3); the event's
    dice are the d20 and the d4."""
    w, a, b = pair()
    sheet(w, "a", stability=10)
    led = ledger()
    E.upkeep(w, "a", ScriptedDice(["d20=2", "d4=3"]), led)
    ev = led.of_kind("UpkeepStabilityCheckRolled")[0]
    assert (ev.dc, ev.total, ev.outcome) == (23, 12, "failure by 5 or more")
    assert ev.dice == ((20, 2), (4, 3)) and ev.data["unrest_after"] == 3


@pytest.mark.rule("SC-KM-31", "SC-KM-10", "RES-KM-32")
def test_a_granary_stores_at_most_5_bp_of_a_surplus() -> None:
    """ENG-KM-06: one Granary stores up to 5 BP of a turn's surplus. Size 2, other reductions −10: raw
    Consumption −8 → 5 BP stored (3 wasted), Consumption 0 paid."""
    w, a, b = pair()
    a.settlements[0].buildings = {"granary": 1}
    a.consumption_mod = -10
    a.unrest = 1  # the Stability check's success lowers Unrest, not the Treasury's +1
    led = ledger()
    E.upkeep(w, "a", ScriptedDice(["d20=20"]), led)
    ev = led.of_kind("ConsumptionPaid")[0]
    assert (ev.data["raw_consumption"], ev.data["stored_in_granary"], ev.total) == (-8, 5, 0)
    assert a.granary == 5 and a.treasury == 30


@pytest.mark.rule("SC-KM-31", "SC-KM-10", "SC-KM-05")
def test_a_granary_gives_back_what_the_treasury_lacks_and_keeps_the_rest() -> None:
    """ENG-KM-06: the stored BP are given back when Consumption exceeds the Treasury. Consumption 2 + 2 = 4,
    Treasury 2, 5 BP stored: 4 − 2 = 2 BP from the Granary, 2 from the Treasury → Treasury 0, no debt, 3 BP
    stored."""
    w, a, b = pair()
    a.settlements[0].buildings = {"granary": 1}
    a.consumption_mod = 2
    a.granary, a.treasury, a.unrest = 5, 2, 1
    led = ledger()
    E.upkeep(w, "a", ScriptedDice(["d20=20"]), led)
    ev = led.of_kind("ConsumptionPaid")[0]
    assert (ev.total, ev.data["from_granary"], ev.data["treasury_after"], ev.outcome) == (4, 2, 0, "paid")
    assert (a.treasury, a.granary, a.unrest) == (0, 3, 0)


# ---- SC-KM-07: the leaders choose the hex lost to Unrest ---------------------------------------------------


@pytest.mark.rule("SC-KM-07", "SC-KM-12")
def test_the_leaders_choose_which_hex_is_lost_to_unrest() -> None:
    """SC-KM-07: at Unrest 11 or more the kingdom loses one hex, the leaders' choice: with three hexes
    without a settlement the policy is asked, and the hex it picks ([0, 1], index 6) is the one lost."""
    w = two(unrest=15)
    decider = ScriptedDecider({("kingdom:a", "lose_hex"): [lambda legal, ctx: 6]}, default="first")
    led = ledger()
    E.resolve_month(w, decider, DiceBox(1), led)
    assert ("kingdom:a", "lose_hex") in decider.asked
    assert [e.data["hex"] for e in led.of_kind("HexLostToUnrest") if e.actor == "kingdom:a"] == [[0, 1]]
    assert w.km.kingdoms["a"].hexes == [0, 1, 7]


# ---- KM-VAS-05 / RES-KM-28: a budget granted after the vassal's Edict phase is spent that turn -------------


@pytest.mark.rule("KM-VAS-05", "RES-KM-28")
def test_a_vassal_spends_a_construction_budget_granted_after_its_own_edict_phase() -> None:
    """Vassal b acts before its overlord z (ascending id); z's treaty with b bought with 20 BP of bribes
    succeeds (DC 10 − 20 = −10), so b gets 20 // 2 = 10 BP to build this turn, after its own Edict phase: b is
    asked again, builds a Shop (8 BP, SC-KM-31) from it, and 2 BP of budget are left (lost at the turn's end)."""
    hm = plains(12, 8)
    b = kingdom("b", [40, 41], treasury=0, subjugation=Subjugation(overlord="z", dc_increase=0), overlord="z",
                conquered_by="z")
    z = kingdom("z", [0, 1], treasury=40, policy="scripted")
    w = world(hm, [b, z])
    settle(w, "b", "Bcity", 40)
    settle(w, "z", "Zcity", 0)
    w.km.relation("z", "b").embassy = True
    w.km.stance("z", "b").present = True
    w.km.stance("b", "z").attitude = "helpful"
    w.km.scripted = {"z": [TurnOrders(turn=1, special=DiplomaticEdict("b", "treaty", bribe=20))]}
    shop = [lambda legal, ctx: next(o for o in legal if isinstance(o, BuildOrder) and o.kind == "shop")]
    decider = ScriptedDecider({("kingdom:b", "building"): shop}, default="first")
    led = ledger()
    E.resolve_month(w, decider, DiceBox(1), led)
    assert led.of_kind("VassalConstructionBudgetGranted")[0].total == 10
    assert b.settlements[0].buildings == {"shop": 1}
    assert [e.outcome for e in led.of_kind("BuildingConstructed") if e.actor == "kingdom:b"] == ["shop"]
    assert b.construction_budget == 2
