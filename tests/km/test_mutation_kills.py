"""Tests written against surviving mutants of tools/mutate.py (issue 10): each one checks a rule
behaviour (a state change or a ledger field) that a mutant of the KM rules (sim/rules/km/, once
kingdom.py and edicts.py) changed without any other test noticing.

Expected values are worked out by hand from RULES.md; the arithmetic is in the comments. Most
diplomacy tests use the ``pair`` of tests/km/test_diplomacy.py: two lawful good kingdoms of Size 2,
Fame and Infamy 0, a Helpful target, so the KM-DIP-04 DC is 10 + relationships − bribes."""

from __future__ import annotations

import pytest

from sim.calendar import HOURS_PER_MONTH
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.rules import cv as cr
from sim.rules import km as E
from sim.rules import km as K
from sim.rules import links
from sim.rules.km.trade import check_trade
from sim.state.km import (
    Agreement,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    Leader,
    RelationOrder,
    ScriptedEvent,
    TradeEdict,
    TurnOrders,
)
from tests.km.helpers import grid, kinds, kingdom, ledger, plains, settle, sheet, world
from tests.km.test_diplomacy import pair, sign_treaty_script
from tests.km.test_link import model
from tests.km.test_trade import line

# ---- KM-REL-01/02: embassies -------------------------------------------------------------------------


@pytest.mark.rule("KM-REL-01", "RES-KM-40")
def test_embassy_failed_by_5_records_the_fame_loss_in_the_ledger() -> None:
    """The DiplomacyCheckRolled event of an embassy failing by 5+ records Fame −1 and the attitude step."""
    w, a, b = pair(a_kw={"fame": 3})
    led = ledger()
    # DC 10 − 3 (Fame) = 7; d20 = 2 + 0 = 2 fails by 5: Fame 3 → 2, Helpful → Friendly
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy"), ScriptedDice(["d4=1", "d20=2"]), led)
    ev = led.of_kind("DiplomacyCheckRolled")[0]
    assert (ev.dc, ev.total, ev.outcome) == (7, 2, "failure")
    assert ev.data["fame"] == -1 and a.fame == 2
    assert ev.data["attitude"] == ["helpful", "friendly"]
    assert ev.data["ban_until"] == 12  # turn 0 + 12


# ---- KM-REL-05 / RES-KM-09: threats ------------------------------------------------------------------


@pytest.mark.rule("KM-REL-05", "RES-KM-09")
def test_threat_failing_by_exactly_5_is_the_5_plus_band() -> None:
    """A threat that fails by exactly 5 gives Infamy +3 and attitude −2 (not the 1–4 band)."""
    w, a, b = pair()
    led = ledger()
    # DC 10 (Helpful, no Fame/Infamy terms); d20 = 5 + 0 Intimidate + 0 Infamy + 0 armies = 5: fails by 5
    E.resolve_special(w, "a", DiplomaticEdict("b", "threat"), ScriptedDice(["d4=1", "d20=5"]), led)
    ev = led.of_kind("IntimidateCheckRolled")[0]
    assert (ev.dc, ev.total, ev.data["margin"]) == (10, 5, -5)
    # Infamy 0 + 3; Helpful − 2 steps = Indifferent (not Hostile: no war)
    assert a.infamy == 3 and ev.data["infamy"] == 3
    assert w.km.stance("b", "a").attitude == "indifferent"
    assert ev.data["attitude"] == ["helpful", "indifferent"]
    assert not w.km.enemies("a", "b") and ev.data["result"] == "threat rejected"


@pytest.mark.rule("KM-REL-05", "GEN-01")
def test_threat_event_records_the_d20_drawn() -> None:
    """The IntimidateCheckRolled event carries the d20 as (20, natural)."""
    w, a, b = pair()
    led = ledger()
    dice = ScriptedDice(["d4=1", "d20=13"])
    # DC 10; 13 + 0 = 13 succeeds
    E.resolve_special(w, "a", DiplomaticEdict("b", "threat"), dice, led)
    ev = led.of_kind("IntimidateCheckRolled")[0]
    assert ev.dice == ((20, 13),) and ev.total == 13
    assert led.dice == dice.draws == 2  # the 1d4 and the d20


# ---- KM-REL-07/08/11: treaty and alliance attempts --------------------------------------------------


@pytest.mark.rule("KM-REL-07", "RES-KM-40")
def test_refused_treaty_is_counted() -> None:
    """A refused treaty attempt is counted in the world's counts (treaty_refused)."""
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    led = ledger()
    # DC 10: 8 ✗ (by 2), 7 ✗ (by 3) → two failures of three decide it: refused
    E.resolve_special(w, "a", DiplomaticEdict("b", "treaty"), ScriptedDice(["d4=1", "d20=8", "d20=7"]), led)
    assert led.of_kind("AgreementRefused")[0].data["failures"] == 2
    assert w.km.stats.treaty_refused == 1
    assert w.km.relation("a", "b").treaty is None


@pytest.mark.rule("KM-REL-08", "KM-REL-11", "RES-KM-41")
def test_opposed_check_clauses_name_treaty_or_alliance() -> None:
    """A treaty's opposed checks cite KM-REL-08 (not KM-REL-11); an alliance's cite KM-REL-11 first."""
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "treaty", balance="balanced"), ScriptedDice(sign_treaty_script()), led)
    opp = led.of_kind("OpposedCheckRolled")
    assert opp and all(e.clauses == ("KM-REL-08", "RES-KM-41", "RES-KM-47") for e in opp)
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty = True, Agreement("treaty")
    led = ledger()
    # four successes at DC 10 (10, 11, 12, 13), then opposed Diplomacy 20–1, 20–1: envoy 2 of 3
    script = ["d4=1", "d20=10", "d20=11", "d20=12", "d20=13", "d20=20", "d20=1", "d20=20", "d20=1"]
    E.resolve_special(w, "a", DiplomaticEdict("b", "alliance", balance="balanced"), ScriptedDice(script), led)
    opp = led.of_kind("OpposedCheckRolled")
    assert len(opp) == 2 and all(e.clauses == ("KM-REL-11", "KM-REL-08", "RES-KM-41", "RES-KM-47") for e in opp)


@pytest.mark.rule("KM-REL-09", "RES-KM-11")
def test_balanced_treaty_each_side_gets_10_percent_of_the_other() -> None:
    """Balanced: a gets 10% of b's Economy and b 10% of a's, rounded down."""
    w, a, b = pair()
    sheet(w, "a", economy=100)
    sheet(w, "b", economy=40)
    led = ledger()
    ag = E.sign_agreement(w, "a", "b", "treaty", "a", True, ScriptedDice([]), led, via="edict")
    # a: 40 × 10 // 100 = 4; b: 100 × 10 // 100 = 10; neither holds another agreement: no reduction
    assert ag.bonus == {"a": 4, "b": 10} and ag.reduction == {"a": 0, "b": 0}
    assert led.of_kind("AgreementSigned")[0].data["bonus"] == {"a": 4, "b": 10}


# ---- KM-REL-03: embassy buildings --------------------------------------------------------------------


@pytest.mark.rule("KM-REL-03")
def test_embassy_building_host_must_be_another_known_kingdom() -> None:
    """An embassy building in one's own kingdom, or in an unknown one, is a malformed order."""
    w, a, b = pair()
    a.treasury = 100
    led = ledger()
    with pytest.raises(InvalidOrderError, match="embassy building host 'a': expected another kingdom"):
        E.build_embassy(w, "a", EmbassyBuildingOrder("a", "Acity", "mansion"), led)
    with pytest.raises(InvalidOrderError, match="embassy building host 'zz': expected another kingdom"):
        E.build_embassy(w, "a", EmbassyBuildingOrder("zz", "Zcity", "mansion"), led)
    assert a.treasury == 100 and led.events == []


# ---- KM-REL-06/10: relation orders -------------------------------------------------------------------


@pytest.mark.rule("KM-REL-06")
def test_resolving_a_close_embassy_without_an_embassy_is_refused() -> None:
    """resolve_relation_order checks the order first: no embassy to close → KM-REL-06 refusal, no die."""
    w, a, b = pair()
    dice = ScriptedDice(["d20=20"])
    with pytest.raises(IllegalOrderError, match="KM-REL-06.*no embassy with b to close"):
        E.resolve_relation_order(w, "a", RelationOrder("close_embassy", "b"), dice, ledger())
    assert dice.draws == 0


@pytest.mark.rule("KM-REL-10", "KM-REL-11")
def test_withdrawing_from_an_alliance_keeps_the_treaty() -> None:
    """Withdrawing from an alliance ends the alliance only; the treaty and embassy remain."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty, rel.alliance = True, Agreement("treaty"), Agreement("alliance")
    sheet(w, "a", loyalty=0)
    led = ledger()
    # natural 20 succeeds: Unrest +1
    out = E.resolve_relation_order(w, "a", RelationOrder("withdraw", "b", which="alliance"), ScriptedDice(["d20=20"]), led)
    assert out == "withdrew from the alliance"
    assert rel.alliance is None and rel.treaty is not None and rel.embassy
    assert a.unrest == 1 and rel.level == 2


@pytest.mark.rule("KM-REL-10", "KM-REL-09", "RES-KM-11")
def test_renegotiated_unbalanced_treaty_advantaged_gets_15_percent_disadvantaged_5() -> None:
    """Renegotiating won by the envoy, unbalanced: envoy 15% of the partner's Economy, partner 5% of the envoy's."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy = True
    sheet(w, "a", economy=40, loyalty=0)
    sheet(w, "b", economy=30)
    rel.treaty = Agreement("treaty", balanced=True, advantaged="b", bonus={"a": 0, "b": 0}, reduction={"a": 0, "b": 0})
    led = ledger()
    # Loyalty: natural 20 succeeds; opposed checks (treaty): envoy 20–1 three times → envoy wins 3 of 5
    script = ["d20=20", "d20=20", "d20=1", "d20=20", "d20=1", "d20=20", "d20=1"]
    out = E.resolve_relation_order(w, "a", RelationOrder("renegotiate", "b", balance="unbalanced"), ScriptedDice(script), led)
    assert out == "renegotiated"
    # a advantaged: 30 × 15 // 100 = 4; b: 40 × 5 // 100 = 2; a's Infamy +1
    assert rel.treaty.bonus == {"a": 4, "b": 2}
    assert (rel.treaty.balanced, rel.treaty.advantaged) == (False, "a") and a.infamy == 1
    assert led.of_kind("AgreementRenegotiated")[0].data["bonus"] == {"a": 4, "b": 2}


# ---- RES-KM-35 / KM-REL-12: scenario events ----------------------------------------------------------


@pytest.mark.rule("RES-KM-35")
def test_scenario_unrest_event_is_in_the_ledger() -> None:
    """A scripted Unrest event adds the amount and records a ScenarioUnrest event."""
    w, a, b = pair()
    a.unrest = 1
    led = ledger()
    E.resolve_event(w, ScriptedEvent(0, "unrest", "a", amount=3), ScriptedDice([]), led)
    # Unrest 1 + 3 = 4
    assert a.unrest == 4
    assert kinds(led) == ["ScenarioUnrest"]
    ev = led.events[0]
    assert (ev.total, ev.outcome, ev.actor) == (3, "Unrest 4", "kingdom:a")


@pytest.mark.rule("KM-REL-12", "GEN-01")
def test_stationed_army_events_record_the_request_and_every_die() -> None:
    """A requested stationing is recorded at no cost; an unrequested one records the d20 and the 1d2."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty, rel.alliance = True, Agreement("treaty"), Agreement("alliance")
    sheet(w, "b", loyalty=0)
    led = ledger()
    E.resolve_event(w, ScriptedEvent(0, "station_army", "a", "b", requested=True), ScriptedDice([]), led)
    assert kinds(led) == ["AlliedArmyStationed"]
    assert led.events[0].outcome == "requested: no cost" and led.events[0].data["ally"] == "a" and b.unrest == 0
    led = ledger()
    dice = ScriptedDice(["d20=2", "d2=2"])
    # b's Loyalty 0 + 2 < Control DC: fails → Unrest +1d2 = 2
    E.resolve_event(w, ScriptedEvent(0, "station_army", "a", "b"), dice, led)
    ev = led.of_kind("AlliedArmyStationed")[0]
    assert ev.dice == ((20, 2), (2, 2)) and ev.data["unrest"] == 2 and b.unrest == 2
    assert led.dice == dice.draws == 2


@pytest.mark.rule("KM-REL-12")
def test_attacked_ally_ending_the_relations_is_recorded() -> None:
    """When the attacked ally ends the relations, the attack event says so (relations_ended)."""
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty, rel.alliance = True, Agreement("treaty"), Agreement("alliance")
    sheet(w, "a", loyalty=0)
    led = ledger()
    # natural 20 succeeds: Infamy and Unrest +1d4 each (3 and 2)
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b", end_relations=True), ScriptedDice(["d20=20", "d4=3", "d4=2"]), led)
    ev = led.of_kind("AttackLoyaltyCheckRolled")[0]
    assert ev.data["relations_ended"] is True and (ev.data["infamy"], ev.data["unrest"]) == (3, 2)
    assert rel.level == 0 and rel.enemies and (a.infamy, a.unrest) == (3, 2)


# ---- KM-TRADE-03/16, RES-KM-18/25: trade edicts -----------------------------------------------------


@pytest.mark.rule("KM-TRADE-03", "RES-KM-18")
def test_river_and_water_hexes_need_a_pier_and_a_waterfront_in_the_origin() -> None:
    """Without a Pier a river hills hex is not allowed; without a Waterfront a water hex is not."""
    w, a, b = line("PHPPP")
    w.map.hexes[1].river = True
    with pytest.raises(IllegalOrderError, match=r"KM-TRADE-03.*hex \[1, 0\] \(hills, river\) is not allowed on a trade route from Origin"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=[1, 2, 3, 4]))
    a.settlements[0].buildings = {"pier": 1}
    # with a Pier: river 2 halves + 3 plains × 4 halves = 14
    assert check_trade(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=[1, 2, 3, 4]))[3] == 14
    w, a, b = line("PWPPP")
    with pytest.raises(IllegalOrderError, match=r"KM-TRADE-03.*hex \[1, 0\] \(water\) is not allowed on a trade route from Origin"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=[1, 2, 3, 4]))
    a.settlements[0].buildings = {"waterfront": 1}
    # with a Waterfront: water 1 half + 3 plains × 4 halves = 13
    assert check_trade(w, "a", TradeEdict("b", "Origin", "Dest", "raw_materials", 5, path=[1, 2, 3, 4]))[3] == 13


@pytest.mark.rule("KM-TRADE-16", "RES-KM-25")
def test_food_route_refused_when_raw_consumption_is_exactly_0() -> None:
    """'Below 0' is strict: a raw Consumption of exactly 0 is no surplus."""
    w, a, b = line("PPPP")
    a.settlements[0].buildings = {"granary": 1, "stockyard": 1}
    # raw Consumption 10 here (test_route_type_prerequisites); 10 − 10 = 0: refused
    a.consumption_mod = -10
    with pytest.raises(IllegalOrderError, match="RES-KM-25.*raw Consumption is 0, not below 0"):
        E.check(w, "a", TradeEdict("b", "Origin", "Dest", "food", 5))
    a.consumption_mod = -11  # −1: a surplus
    E.check(w, "a", TradeEdict("b", "Origin", "Dest", "food", 5))


@pytest.mark.rule("LINK-04", "KM-TRADE-09")
def test_convoy_arrivals_handle_only_the_kingdoms_own_caravans() -> None:
    """A kingdom's Income phase does not judge another kingdom's trade caravan."""
    m = model()
    m.run(1)
    w = m.world
    r = w.km.routes[0]
    assert r.kingdom == "a" and r.status == "travelling"
    cr.destroy(w.cv.convoy(r.convoy), m.ledger, "test", w.config.cv, ("CV-HAZ-01",))
    w.now = m.ledger.now = HOURS_PER_MONTH
    links.caravan_arrivals(w, "b", ScriptedDice([]), m.ledger)
    assert r.status == "travelling" and not m.ledger.of_kind("TradeExpeditionLost")
    links.caravan_arrivals(w, "a", ScriptedDice([]), m.ledger)
    assert r.status == "lost" and len(m.ledger.of_kind("TradeExpeditionLost")) == 1


# ---- KM-EXP-03: exploration candidates ---------------------------------------------------------------


@pytest.mark.rule("KM-EXP-01", "KM-EXP-03")
def test_frontier_route_leads_from_the_capital_to_the_nearest_unexplored_hex_and_on_for_four() -> None:
    """A candidate exploration route: through explored land from the capital to the nearest
    unexplored hex, then on through unexplored neighbours, four unexplored hexes in all."""
    w = world(plains(8, 1), [kingdom("a", [0, 1])])
    settle(w, "a", "Acity", 0)
    # one row: [0] capital, [1] explored (a's), [2]…[7] unexplored. Nearest unexplored: [2] (via [1]);
    # then 3 more unexplored neighbours: [3], [4], [5] (length 4 = the target + 3)
    assert E.frontier_routes(w, "a") == [[1, 2, 3, 4, 5]]
    assert E.frontier_routes(w, "a", length=2) == [[1, 2, 3]]


# ---- LINK-05: envoys ---------------------------------------------------------------------------------


@pytest.mark.rule("LINK-05", "RES-KM-02")
def test_recalling_a_representative_present_without_an_envoy_or_an_envoy_still_travelling() -> None:
    """A representative counts whether it is present (no envoy record needed) or still on the way."""
    w, a, b = pair()  # a's representative is present in b (scenario state, no Envoy record)
    led = ledger()
    links.recall_envoy(w, "a", "b", led)
    assert not w.km.stance("a", "b").present and kinds(led) == ["EnvoyRecalled"]
    env = links.send_envoy(w, "a", "b", 720, led)  # travelling: not yet present
    assert not w.km.stance("a", "b").present
    links.recall_envoy(w, "a", "b", led)
    assert env.status == "recalled" and kinds(led)[-1] == "EnvoyRecalled"
    with pytest.raises(IllegalOrderError, match="LINK-05.*no representative in or on the way to b"):
        links.recall_envoy(w, "a", "b", led)


# ---- SC-KM-18: the Income phase ----------------------------------------------------------------------


@pytest.mark.rule("SC-KM-18", "RES-KM-48")
def test_an_illegal_withdrawal_is_reported_and_taxes_are_still_collected() -> None:
    """Withdrawing more than the Treasury is passed to on_error; the taxes are collected anyway."""
    w, a, b = pair()  # Treasury 30
    sheet(w, "a", economy=10)
    errors: list[tuple[str, str]] = []
    led = ledger()
    E.income_phase(w, "a", TurnOrders(withdraw_bp=31), ScriptedDice(["d20=9"]), led,
                   lambda path, err: errors.append((path, err.clause)))  # type: ignore[attr-defined]
    assert errors == [("withdraw_bp", "SC-KM-18")]
    # no withdrawal; Economy check 9 + 10 = 19 → 19 // 3 = 6 BP: 30 + 6 = 36; Unrest unchanged
    assert kinds(led) == ["TaxesCollected"] and a.treasury == 36 and a.unrest == 0


# ---- SC-KM-31: the building catalogue ----------------------------------------------------------------

# (kind, BP, lots, (Economy, Loyalty, Stability, Fame), Unrest once, settlement modifiers, water border),
# transcribed from the SC-KM-31 table of RULES.md
CATALOGUE = [
    ("alchemist", 18, 1, (1, 0, 0, 0), 0, {}, False),
    ("black_market", 50, 1, (2, 0, 1, 0), 1, {"corruption": 2, "crime": 2}, False),
    ("casters_tower", 30, 1, (1, 1, 0, 0), 0, {}, False),
    ("exotic_artisan", 10, 1, (1, 0, 1, 0), 0, {}, False),
    ("foundry", 16, 2, (1, 0, 1, 0), 1, {"productivity": 1}, True),
    ("granary", 12, 1, (0, 1, 1, 0), 0, {}, False),
    ("guildhall", 34, 2, (2, 2, 0, 0), 0, {"law": 1, "productivity": 2}, False),
    ("herbalist", 10, 1, (0, 1, 1, 0), 0, {}, False),
    ("luxury_store", 28, 1, (1, 0, 0, 0), 0, {}, False),
    ("magic_shop", 68, 1, (1, 0, 0, 0), 0, {}, False),
    ("mansion", 10, 1, (0, 0, 1, 0), 0, {"law": 1, "society": 1}, False),
    ("mill", 6, 1, (1, 0, 1, 0), 0, {"productivity": 1}, True),
    ("noble_villa", 24, 2, (1, 1, 1, 1), 0, {"society": 1}, False),
    ("pier", 16, 1, (1, 0, 1, 0), 0, {"crime": 1}, True),
    ("shop", 8, 1, (1, 0, 0, 0), 0, {"productivity": 1}, False),
    ("smithy", 6, 1, (1, 0, 1, 0), 0, {}, False),
    ("stockyard", 20, 4, (1, 0, -1, 0), 0, {"productivity": 1}, False),
    ("tannery", 6, 1, (1, 0, 1, 0), 0, {"society": -1}, False),
    ("tavern", 12, 1, (1, 1, 0, 0), 0, {"corruption": 1}, False),
    ("trade_shop", 10, 1, (1, 0, 1, 0), 0, {"productivity": 1}, False),
    ("waterfront", 90, 4, (4, 0, 0, 0), 0, {"productivity": 2}, True),
]


@pytest.mark.rule("SC-KM-31", "SC-KM-28", "RES-KM-38")
@pytest.mark.parametrize(("kind", "bp", "lots", "effect", "unrest", "mods", "water"), CATALOGUE, ids=[c[0] for c in CATALOGUE])
def test_each_building_costs_and_gives_what_the_catalogue_says(
    kind: str, bp: int, lots: int, effect: tuple[int, int, int, int], unrest: int, mods: dict[str, int], water: bool
) -> None:
    """Constructing one building: BP paid, lots taken, kingdom and settlement effects, Unrest once;
    a water-border building is refused in a settlement without a water border."""
    # Taxation none (SC-KM-16: Loyalty +1, no penalty), so the Waterfront has no Taxation penalty to halve
    w = world(plains(6, 4), [kingdom("a", [0, 1], treasury=100, taxation="none")])
    a = w.km.kingdoms["a"]
    s = settle(w, "a", "Acity", 0)
    if water:
        with pytest.raises(IllegalOrderError, match=f"RES-KM-38.*a {kind} needs a settlement with a water border"):
            K.construct(w, "a", "Acity", kind, ledger())
        s.water_border = True  # otherwise the settlement stays dry: the building needs no water border
    before, mods_before = K.stats(w, a), K.settlement_mods(w, a, s)
    K.construct(w, "a", "Acity", kind, ledger())
    after, mods_after = K.stats(w, a), K.settlement_mods(w, a, s)
    assert a.treasury == 100 - bp and K.lots_used(s) == lots and a.unrest == unrest
    assert (after.economy - before.economy, after.loyalty - before.loyalty, after.stability - before.stability,
            after.fame - before.fame) == effect
    assert {m: mods_after[m] - mods_before[m] for m in mods_after if mods_after[m] != mods_before[m]} == mods


@pytest.mark.rule("SC-KM-31", "SC-KM-16")
@pytest.mark.parametrize(("taxation", "penalty", "halved"), [("normal", -2, -1), ("heavy", -4, -2), ("overwhelming", -8, -4)])
def test_waterfront_halves_the_taxation_loyalty_penalty(taxation: str, penalty: int, halved: int) -> None:
    """SC-KM-16 Loyalty penalties −2/−4/−8 become −1/−2/−4 with a Waterfront (its own Loyalty is 0)."""
    w = world(plains(6, 4), [kingdom("a", [0, 1], taxation=taxation)])
    a = w.km.kingdoms["a"]
    s = settle(w, "a", "Acity", 0, water_border=True)
    before = K.stats(w, a).loyalty
    s.buildings = {"waterfront": 1}
    assert K.stats(w, a).loyalty - before == halved - penalty


# ---- SC-KM-21/24: leaders ----------------------------------------------------------------------------


@pytest.mark.rule("SC-KM-21")
def test_grand_diplomat_vacancy_costs_stability_2_only() -> None:
    """A vacant Grand Diplomat: Stability −2; Economy and Loyalty unchanged."""
    w = world(plains(6, 4), [kingdom("a", [0, 1])])
    a = w.km.kingdoms["a"]
    before = K.stats(w, a)
    del a.leaders["grand_diplomat"]
    after = K.stats(w, a)
    assert (after.economy - before.economy, after.loyalty - before.loyalty, after.stability - before.stability) == (0, 0, -2)


@pytest.mark.rule("SC-KM-24", "RES-KM-36")
def test_viceroy_adds_half_the_ability_modifier_to_the_vassal_economy() -> None:
    """A vassal's Viceroy with an ability modifier of +4 adds 4 / 2 = +2 Economy."""
    w = world(plains(6, 4), [kingdom("a", [0, 1]), kingdom("v", [10, 11])])
    v = w.km.kingdoms["v"]
    v.overlord = "a"
    v.leaders["viceroy"] = Leader("V", ability=0)
    before = K.stats(w, v).economy
    v.leaders["viceroy"] = Leader("V", ability=4)
    assert K.stats(w, v).economy - before == 2


# ---- SC-KM-31 Foundry: linked Mines ------------------------------------------------------------------


@pytest.mark.rule("SC-KM-31", "SC-KM-32", "SC-KM-18")
def test_a_foundry_links_one_mine_on_a_road_or_river_for_economy_and_bp() -> None:
    """With a Foundry, a Mine on a Road (or river) hex adds Economy +1 and +1 BP at tax collection."""
    w = world(plains(6, 4), [kingdom("a", [0, 1, 2], treasury=0, taxation="none")])
    a = w.km.kingdoms["a"]
    settle(w, "a", "Acity", 0, water_border=True, buildings={"foundry": 1})
    a.improvements = {1: ["mine"]}
    before = K.stats(w, a).economy
    w.map.hexes[1].road = "road"
    assert K.stats(w, a).economy - before == 1
    w.map.hexes[1].road = "none"
    w.map.hexes[1].river = True
    assert K.stats(w, a).economy - before == 1
    sheet(w, "a", economy=0)
    led = ledger()
    K.income(w, "a", ScriptedDice(["d20=2"]), led)
    # Economy check 2 + 0 = 2 → 2 // 3 = 0 BP tax; + 1 (the Mine, SC-KM-32) + 1 (linked to the Foundry)
    ev = led.of_kind("TaxesCollected")[0]
    assert (ev.data["tax"], ev.data["improvements"], a.treasury) == (0, 2, 2)


# ---- SC-KM-07/09: checks and Upkeep ------------------------------------------------------------------


@pytest.mark.rule("SC-KM-07", "SC-KM-03")
def test_in_anarchy_a_natural_20_still_succeeds() -> None:
    """In anarchy the result counts as 0, but a natural 20 succeeds whatever the DC."""
    w = world(plains(6, 4), [kingdom("a", [0, 1], anarchy=True)])
    a = w.km.kingdoms["a"]
    st = K.stats(w, a)
    r, _ = K.kingdom_check(ScriptedDice(["d20=20"]), a, "loyalty", 25, st)
    assert (r.natural, r.total, r.success) == (20, 0, True)
    r, _ = K.kingdom_check(ScriptedDice(["d20=19"]), a, "loyalty", 25, st)
    assert (r.total, r.success) == (0, False)  # 0 < 25


@pytest.mark.rule("SC-KM-09")
def test_upkeep_success_at_unrest_0_records_the_treasury_gain() -> None:
    """A successful Upkeep Stability check with Unrest 0 gives Treasury +1, recorded in the event."""
    w = world(plains(6, 4), [kingdom("a", [0, 1], treasury=10)])
    a = w.km.kingdoms["a"]
    sheet(w, "a", stability=100)
    a.consumption_mod = -20  # no Consumption to pay
    led = ledger()
    K.upkeep(w, "a", ScriptedDice(["d20=10"]), led)
    ev = led.of_kind("UpkeepStabilityCheckRolled")[0]
    # 10 + 100 ≥ Control DC 22: success; Unrest 0 → Treasury 10 + 1 = 11
    assert ev.outcome == "success" and ev.data["treasury_gain"] == 1 and a.treasury == 11 and a.unrest == 0


@pytest.mark.rule("RES-KM-25", "SC-KM-10", "RES-KM-32")
def test_a_raw_consumption_of_exactly_0_is_no_surplus_month() -> None:
    """Upkeep step 2 marks a surplus month only when raw Consumption is negative, not when it is 0."""
    w = world(plains(6, 4), [kingdom("a", [0, 1], treasury=10)], turn=3)
    a = w.km.kingdoms["a"]
    sheet(w, "a", stability=100)
    a.consumption_mod = -2  # raw Consumption: Size 2 − 2 = 0
    led = ledger()
    K.upkeep(w, "a", ScriptedDice(["d20=10"]), led)
    assert led.of_kind("ConsumptionPaid")[0].data["raw_consumption"] == 0
    assert a.surplus_turn == -1
    a.consumption_mod = -3  # 2 − 3 = −1: a surplus
    K.upkeep(w, "a", ScriptedDice(["d20=10"]), led)
    assert led.of_kind("ConsumptionPaid")[1].data["raw_consumption"] == -1
    assert a.surplus_turn == 3


@pytest.mark.rule("SC-KM-12", "RES-KM-34")
def test_royal_enforcer_acts_when_unrest_is_1() -> None:
    """Step 4: the Royal Enforcer lowers an Unrest of 1 to 0, then the Loyalty check follows."""
    w = world(plains(6, 4), [kingdom("a", [0, 1], treasury=10, unrest=2, enforcer=True)])
    a = w.km.kingdoms["a"]
    sheet(w, "a", stability=100)
    a.consumption_mod = -20
    led = ledger()
    # step 1: 10 + 100 − 2 succeeds: Unrest 2 → 1; step 4: Enforcer 1 → 0, Loyalty check natural 20 succeeds
    K.upkeep(w, "a", ScriptedDice(["d20=10", "d20=20"]), led)
    assert a.unrest == 0
    ev = led.of_kind("EnforcerLoyaltyCheckRolled")[0]
    assert ev.outcome == "success" and ev.data["unrest_after"] == 0 and ev.data["loyalty_change"] == 0


# ---- SC-KM-13/32/33: claims, improvements, settlements -----------------------------------------------


@pytest.mark.rule("SC-KM-13")
def test_hex_0_can_be_claimed() -> None:
    """Hex 0 (the map's first hex, [0, 0]) is on the map and may be claimed for 1 BP."""
    w = world(plains(6, 4), [kingdom("a", [1], treasury=5)])
    a = w.km.kingdoms["a"]
    w.km.hex(0).explored = True
    led = ledger()
    K.claim_hex(w, "a", 0, led)
    assert a.hexes == [0, 1] and a.treasury == 4  # 5 − 1
    assert led.of_kind("HexClaimed")[0].data["hex"] == [0, 0]


@pytest.mark.rule("SC-KM-32", "SC-KM-33")
def test_a_mine_costs_6_bp_and_is_in_the_ledger() -> None:
    """A Mine on a hills hex costs 6 BP (SC-KM-32) and is recorded as TerrainImprovementBuilt."""
    w = world(grid(["PH", "PP"]), [kingdom("a", [0, 1], treasury=10)])
    a = w.km.kingdoms["a"]
    led = ledger()
    K.build_improvement(w, "a", 1, "mine", led)
    assert a.improvements == {1: ["mine"]} and a.treasury == 4  # 10 − 6
    ev = led.of_kind("TerrainImprovementBuilt")[0]
    assert (ev.total, ev.outcome, ev.data["hex"], ev.data["terrain"], ev.data["treasury_after"]) == (6, "mine", [1, 0], "hills", 4)


@pytest.mark.rule("SC-KM-13", "SC-KM-33")
def test_founding_a_settlement_costs_the_terrain_preparation_cost() -> None:
    """Founding a settlement on hills costs the SC-KM-33 preparation cost, 2 BP; a river gives a water border."""
    w = world(grid(["PH", "PP"]), [kingdom("a", [0, 1], treasury=10)])
    a = w.km.kingdoms["a"]
    w.map.hexes[1].river = True
    led = ledger()
    K.found_settlement(w, "a", 1, "Hilltown", led)
    assert a.treasury == 8 and a.capital == "Hilltown"  # 10 − 2
    assert a.settlements[0].water_border and a.settlements[0].districts == 1
    assert led.of_kind("SettlementFounded")[0].total == 2
