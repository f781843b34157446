"""Tests written against the survivors of one more fresh mutation sample of issue 29 (``tools/mutate.py km
--seed 5``), a work sample drawn after seed 3 fell under the 90% target, to pin more of the KM rules before
the sample that counts (seed 4, measured untouched afterwards; docs/mutation.md).

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments); the
diplomacy tests use the ``pair`` of tests/km/test_diplomacy.py (two lawful good kingdoms of Size 2,
Treasury 30 for a, Fame and Infamy 0, a Helpful target: the KM-DIP-04 DC is 10 + relationships − bribes)."""

from __future__ import annotations

import pytest

from sim.calendar import HOURS_PER_MONTH
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.rules import km as E
from sim.rules import links
from sim.state.km import (
    Agreement,
    BuildOrder,
    DiplomaticEdict,
    Encounter,
    ExplorationEdict,
    RelationOrder,
    ScriptedEvent,
    VassalageEdict,
)
from tests.km.helpers import grid, kingdom, ledger, plains, ready, settle, sheet, world
from tests.km.test_diplomacy import pair
from tests.km.test_examples import ROUTE, ex03_world
from tests.km.test_link import model

# ---- KM-REL-05: threats — the counts of embassies and wars ---------------------------------------------


@pytest.mark.rule("KM-REL-05", "RES-KM-09")
def test_a_successful_threat_counts_an_embassy_and_one_failed_by_5_into_hostility_a_war() -> None:
    """A threat that succeeds (DC 10, d20 = 15) establishes an embassy, counted; one that fails by 5 or more
    against an Unfriendly target (DC 10 + 15 = 25, d20 = 1: by 24) worsens it 2 steps to Hostile (stops
    there): the target declares war, counted."""
    w, a, b = pair()
    E.resolve_special(w, "a", DiplomaticEdict("b", "threat"), ScriptedDice(["d4=1", "d20=15"]), ledger())
    assert w.km.relation("a", "b").embassy and w.km.stats.embassies == 1
    w, a, b = pair(attitude="unfriendly")
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "threat"), ScriptedDice(["d4=1", "d20=1"]), led)
    ev = led.of_kind("IntimidateCheckRolled")[0]
    assert (ev.dc, ev.data["result"]) == (25, "war declared")
    assert w.km.enemies("a", "b") and w.km.stats.wars_declared == 1


# ---- KM-REL-07 / RES-KM-10: the checks of an attempt, numbered ----------------------------------------------


@pytest.mark.rule("KM-REL-07", "RES-KM-10", "GEN-01")
def test_the_checks_of_a_treaty_attempt_are_numbered_1_and_2_of_3() -> None:
    """Two successes at DC 10 (10, 12) decide the attempt after two of its three checks."""
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    led = ledger()
    script = ["d4=1", "d20=10", "d20=12", "d20=5", "d20=5", "d20=7", "d20=3", "d20=10", "d20=12", "d20=15", "d20=2",
              "d20=11", "d20=4"]
    E.resolve_special(w, "a", DiplomaticEdict("b", "treaty"), ScriptedDice(script), led)
    assert [(e.data["check"], e.data["of"]) for e in led.of_kind("DiplomacyCheckRolled")] == [(1, 3), (2, 3)]


# ---- KM-REL-09/11: what an agreement's event records ---------------------------------------------------------


@pytest.mark.rule("KM-REL-09", "KM-REL-11", "RES-KM-11")
def test_an_unbalanced_treaty_records_infamy_and_an_alliance_cites_km_rel_11() -> None:
    """Unbalanced: the advantaged kingdom's Infamy +1 (KM-REL-09), recorded; an alliance's signing cites
    KM-REL-11 (its percentages apply to Stability), a treaty's does not."""
    w, a, b = pair()
    led = ledger()
    E.sign_agreement(w, "a", "b", "treaty", "a", False, ScriptedDice([]), led, via="edict")
    ev = led.of_kind("AgreementSigned")[0]
    assert (ev.data["fame"], ev.data["infamy"], a.infamy) == (0, 1, 1)
    assert "KM-REL-11" not in ev.clauses and ev.data["attribute"] == "economy"
    led = ledger()
    E.sign_agreement(w, "a", "b", "alliance", "a", True, ScriptedDice([]), led, via="edict")
    ev = led.of_kind("AgreementSigned")[0]
    assert "KM-REL-11" in ev.clauses and ev.data["attribute"] == "stability"


@pytest.mark.rule("KM-REL-09", "RES-KM-39", "RES-KM-46")
def test_a_rebalanced_treaty_gives_each_side_10_percent_of_the_others_economy() -> None:
    """Rebalancing an unbalanced treaty in a's favour (no check): a gets 10% of b's Economy 100 = 10, b 10% of
    a's 40 = 4, no stored reduction; a's Fame +1."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy = True
    rel.treaty = Agreement("treaty", balanced=False, advantaged="a", bonus={"a": 15, "b": 2}, reduction={"a": 0, "b": 0})
    sheet(w, "a", economy=40)
    sheet(w, "b", economy=100)
    led = ledger()
    assert E.resolve_special(w, "a", DiplomaticEdict("b", "rebalance"), ScriptedDice(["d4=1"]), led) == "treaty rebalanced"
    assert rel.treaty.bonus == {"a": 10, "b": 4} and rel.treaty.balanced and a.fame == 1


# ---- LINK-05: the envoy's journey in the ledger -----------------------------------------------------------------


@pytest.mark.rule("LINK-05")
def test_the_envoy_event_counts_the_hexes_after_the_capital() -> None:
    """Acity [0, 0] to Bcity [4, 3]: a path of 6 steps (the hexes after the start), 3 days at 2 a day."""
    w, a, b = pair()
    w.km.stance("a", "b").present = False
    led = ledger()
    links.send_envoy(w, "a", "b", 720, led)
    ev = led.of_kind("EnvoySent")[0]
    assert (ev.data["hexes"], ev.total) == (6, 3)


# ---- RES-KM-15: whose expeditions an encounter meets ------------------------------------------------------------


@pytest.mark.rule("RES-KM-15", "KM-EXP-06")
def test_an_encounter_scripted_for_another_kingdom_does_not_meet_these_explorers() -> None:
    """EX-KM-03's encounter (day 3, CR 4, hostile), scripted for kingdom b only: a's explorers meet nothing
    (no Stealth check) and explore on."""
    w = ex03_world()
    w.km.encounters = [Encounter(day=3, cr=4, hostile=True, kingdom="b")]
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4"])
    exp = E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    assert led.of_kind("ExplorerStealthCheckRolled") == [] and exp.status == "active"
    w = ex03_world()
    w.km.encounters = [Encounter(day=3, cr=4, hostile=True, kingdom="a")]
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=20"])
    E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    assert len(led.of_kind("ExplorerStealthCheckRolled")) == 1


# ---- RES-KM-39: the skill an alliance edict is offered with -----------------------------------------------------


@pytest.mark.rule("RES-KM-39", "KM-REL-11")
def test_an_alliance_is_offered_with_the_better_of_diplomacy_and_intimidate() -> None:
    """KM-REL-11 lets an alliance's checks use Diplomacy or Intimidate: with Intimidate +5 over Diplomacy +2 the
    alliance edicts offered use Intimidate; other kinds always use Diplomacy."""
    w, a, b = pair(a_kw={"skills": {"diplomacy": 2, "intimidate": 5}})
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty = True, Agreement("treaty")
    offered = [o for o in E.legal_orders(w, "a") if isinstance(o, DiplomaticEdict) and o.kind == "alliance"]
    assert offered and {o.skill for o in offered} == {"intimidate"}
    w, a, b = pair(a_kw={"skills": {"diplomacy": 2, "intimidate": 5}})
    offered = [o for o in E.legal_orders(w, "a") if isinstance(o, DiplomaticEdict) and o.target == "b"]
    assert offered and {o.skill for o in offered} == {"diplomacy"}


# ---- RES-KM-39 / RES-KM-26: the Vassalage edicts offered --------------------------------------------------------


@pytest.mark.rule("RES-KM-39", "RES-KM-26", "KM-VAS-02")
def test_a_subjugation_is_offered_without_a_grant_and_with_the_grant_the_worst_1d4_leaves() -> None:
    """A conquered kingdom may be subjugated: offered with no grant and with the largest grant sure to be
    allowed, a quarter of the Treasury after the worst 1d4 (RES-KM-26): (30 − 4) // 4 = 6 BP."""
    w, a, b = pair()
    b.conquered_by = "a"
    offered = [o for o in E.legal_orders(w, "a") if isinstance(o, VassalageEdict) and o.mode == "subjugation"]
    assert [(o.target, o.grant) for o in offered] == [("b", 0), ("b", 6)]


@pytest.mark.rule("RES-KM-39", "KM-VAS-01")
def test_a_new_vassal_is_offered_while_the_overlord_keeps_3_hexes() -> None:
    """The menu's new vassal edicts leave the overlord at least 3 hexes: ceding the town [6, 0] (no claimed hex
    around it) out of 4 keeps 3: offered; out of 3 it would keep 2: not offered."""
    hm = plains(8, 2)
    a = kingdom("a", [0, 2, 4, 6], treasury=30)
    w = world(hm, [a])
    settle(w, "a", "Acity", 0)
    settle(w, "a", "Town", 6)
    ready(w, "a")
    vassals = [o for o in E.legal_orders(w, "a") if isinstance(o, VassalageEdict) and o.mode == "new_vassal"]
    assert [o.hexes for o in vassals] == [[6]]
    a.hexes = [0, 2, 6]
    assert not [o for o in E.legal_orders(w, "a") if isinstance(o, VassalageEdict) and o.mode == "new_vassal"]


# ---- SC-KM-17/28: the districts and buildings offered --------------------------------------------------------


@pytest.mark.rule("SC-KM-28", "SC-KM-13")
def test_a_district_is_offered_only_where_fewer_than_6_lots_are_free() -> None:
    """A district has 36 lots (SC-KM-28): Acity uses 32 (8 Stockyards of 4), 4 free: a district is offered
    (1 BP on plains); Btown uses none: not offered, though affordable."""
    w, a, b = pair()
    a.settlements[0].buildings = {"stockyard": 8}
    settle(w, "a", "Btown", 1)
    assert E.legal_orders(w, "a", slot="district") == ["Acity"]


@pytest.mark.rule("SC-KM-17")
def test_the_first_mansion_of_the_turn_is_offered_beyond_the_building_limit() -> None:
    """Size 2: 1 building a turn, but the first House, Mansion, Noble Villa or Tenement does not count
    (SC-KM-17). After a Shop (8 BP; 22 left) only a Mansion (10 BP) is offered; after it, nothing."""
    w, a, b = pair()
    E.construct(w, "a", "Acity", "shop", ledger())
    assert E.legal_orders(w, "a", slot="building") == [BuildOrder("Acity", "mansion")]
    E.construct(w, "a", "Acity", "mansion", ledger())
    assert E.legal_orders(w, "a", slot="building") == []


# ---- KM-REL-10: withdrawing ---------------------------------------------------------------------------------


@pytest.mark.rule("KM-REL-10", "KM-REL-11")
def test_withdrawing_from_a_treaty_is_offered_and_ends_the_alliance_built_on_it() -> None:
    """A balanced treaty and an alliance with b: withdrawing from either is offered (no renegotiation: both are
    balanced). Withdrawing from the treaty (natural 20: Unrest +1) ends the alliance too (ENG-KM-04); the
    embassy stays."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty, rel.alliance = True, Agreement("treaty"), Agreement("alliance")
    assert E.legal_orders(w, "a", slot="relation") == [RelationOrder("withdraw", "b", "treaty"),
                                                       RelationOrder("withdraw", "b", "alliance")]
    sheet(w, "a", loyalty=0)
    E.resolve_relation_order(w, "a", RelationOrder("withdraw", "b", "treaty"), ScriptedDice(["d20=20"]), ledger())
    assert rel.treaty is None and rel.alliance is None and rel.embassy and a.unrest == 1


# ---- the legality API: an unknown kingdom ----------------------------------------------------------------------


@pytest.mark.rule("SC-KM-13")
def test_checking_an_order_of_an_unknown_kingdom_names_it() -> None:
    w, a, b = pair()
    with pytest.raises(InvalidOrderError, match="unknown kingdom 'zz'; known: a, b"):
        E.check(w, "zz", 2, slot="claim")


# ---- SC-KM-20: what a vacant Ruler forbids ---------------------------------------------------------------------


@pytest.mark.rule("SC-KM-20", "SC-KM-32")
def test_without_a_ruler_no_road_is_built_but_a_mine_is() -> None:
    """SC-KM-20: with the Ruler's seat vacant no Farms or Roads are built; other improvements are (a Mine in
    the hills, 6 BP)."""
    hm = grid(["PH", "PP"])
    a = kingdom("a", [0, 1, 2], treasury=20)
    del a.leaders["ruler"]
    w = world(hm, [a])
    settle(w, "a", "Acity", 0)
    with pytest.raises(IllegalOrderError, match="SC-KM-20.*no roads can be built"):
        E.build_improvement(w, "a", 2, "road", ledger())
    E.build_improvement(w, "a", 1, "mine", ledger())
    assert a.improvements == {1: ["mine"]} and a.treasury == 14


# ---- KM-REL-06/12: scenario events -------------------------------------------------------------------------------


@pytest.mark.rule("KM-REL-12", "GEN-01")
def test_an_ally_refusing_aid_gains_1d4_infamy_recorded() -> None:
    w, a, b = pair()
    led = ledger()
    E.resolve_event(w, ScriptedEvent(0, "aid_refused", "a", "b"), ScriptedDice(["d4=3"]), led)
    ev = led.of_kind("AidRefused")[0]
    assert (ev.dice, ev.total, ev.outcome, a.infamy) == (((4, 3),), 3, "Infamy +3", 3)


@pytest.mark.rule("KM-REL-06")
def test_attacking_an_embassy_partner_ends_no_relation() -> None:
    """KM-REL-06: attacking a kingdom one has an embassy with: Loyalty check (natural 20: success → Infamy +1);
    the embassy stays and the event says no relation ended."""
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    sheet(w, "a", loyalty=0)
    led = ledger()
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b"), ScriptedDice(["d20=20"]), led)
    ev = led.of_kind("AttackLoyaltyCheckRolled")[0]
    assert (ev.data["infamy"], ev.data["unrest"], ev.data["relations_ended"]) == (1, 0, False)
    assert w.km.relation("a", "b").embassy and a.infamy == 1


# ---- SC-KM-32: Highways; SC-KM-26: Infamy; the sheet's audit ----------------------------------------------------


@pytest.mark.rule("SC-KM-32")
def test_four_highway_hexes_count_as_roads_and_as_highways() -> None:
    """A Highway is an upgraded Road (SC-KM-32): its hexes count among the Road hexes (Economy +1 per 4) and
    among the Highway hexes (Economy +1 per 4): 4 Highway hexes give Economy +2."""
    w, a, b = pair()
    a.hexes = [0, 1, 2, 3]
    st0 = E.stats(w, a)
    for h in (0, 1, 2, 3):
        w.map.set_road(h, "highway")
    assert E.stats(w, a).economy - st0.economy == 2


@pytest.mark.rule("SC-KM-26", "RES-KM-37")
def test_corruption_and_crime_of_10_give_infamy_1() -> None:
    """SC-KM-26: Infamy gains (Σ Corruption + Crime) / 10: 6 + 4 = 10 → +1."""
    w, a, b = pair()
    a.settlements[0].mods = {"corruption": 6, "crime": 4}
    assert E.stats(w, a).infamy == 1


@pytest.mark.rule("SC-KM-16", "RES-KM-36")
def test_the_sheets_audit_names_each_part() -> None:
    """stats(audit=True) lists the non-zero parts of each attribute by name: Economy = base 10 + Taxation
    Normal +2 (SC-KM-16); Loyalty = base 10 − 2 (Taxation Normal) − 1 (no Holiday, SC-KM-14)."""
    w, a, b = pair()
    parts = E.stats(w, a, audit=True).parts
    assert parts["economy"] == [("base", 10), ("Taxation edict (normal)", 2)]
    assert sorted(parts["loyalty"]) == sorted([("base", 10), ("Holiday edict (none)", -1), ("Taxation edict (normal)", -2)])


# ---- LINK-04: a caravan that arrives too late ----------------------------------------------------------------


@pytest.mark.rule("LINK-04", "KM-TRADE-09")
def test_a_caravan_arriving_after_the_limit_is_lost_without_checks() -> None:
    """link.expedition_max_days = 5: the caravan of the link scenario needs longer; on arrival the expedition
    is lost as in KM-TRADE-09 without checks (clauses KM-TRADE-09 and LINK-04, Fame −1 recorded)."""
    m = model("[config.link]\nexpedition_max_days = 5\n")
    m.run(HOURS_PER_MONTH + 1)
    lost = m.ledger.of_kind("TradeExpeditionLost")
    assert len(lost) == 1 and "arrived after more than 5 days" in lost[0].data["reason"]
    assert lost[0].clauses == ("KM-TRADE-09", "LINK-04") and lost[0].data["fame"] == -1
