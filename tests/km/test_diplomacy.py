"""Diplomatic edicts (KM-DIP) and embassies, treaties and alliances (KM-REL).

Most tests use two lawful good kingdoms of Size < 5 (special sizes 0, no alignment difference) with
Fame and Infamy 0 and a Helpful target: the KM-DIP-04 DC is then 10 + relationships − bribes, which
keeps the hand computations short."""

from __future__ import annotations

import pytest

from sim.config import Config, KmConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import km as E
from sim.rules import km as K
from sim.rules import links
from sim.state.km import (
    Agreement,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    ExplorationEdict,
    RelationOrder,
    ScriptedEvent,
    TradeEdict,
    TurnOrders,
    VassalageEdict,
)
from tests.km.helpers import kinds, kingdom, ledger, plains, ready, settle, sheet, world


def pair(*, attitude: str = "helpful", a_kw: dict | None = None, b_kw: dict | None = None, config: Config | None = None):
    hm = plains(12, 8)
    a = kingdom("a", [0, 1], treasury=30, **(a_kw or {}))
    b = kingdom("b", [40, 41], **(b_kw or {}))
    w = world(hm, [a, b], config=config)
    settle(w, "a", "Acity", 0)
    settle(w, "b", "Bcity", 40)
    w.km.stance("a", "b").present = True
    w.km.stance("b", "a").attitude = attitude
    ready(w, "a", "b")
    return w, a, b


def fail_on_error(path, err):
    raise err


# ---- KM-GEN ----------------------------------------------------------------------------------------


@pytest.mark.rule("KM-GEN-01", "KM-GEN-02", "RES-KM-39")
def test_one_special_edict_per_turn_only_after_the_ordinary_edicts() -> None:
    w, a, b = pair()
    led = ledger()
    w.km.hex(2).explored = False
    a.edicts_turn = -1
    with pytest.raises(IllegalOrderError, match="KM-GEN-02.*only after the Holiday, Improvement, Promotion and Taxation"):
        E.check(w, "a", DiplomaticEdict("b", "embassy"))
    ready(w, "a")
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy"), ScriptedDice(["d4=1", "d20=15"]), led)
    for second in (ExplorationEdict(months=1, route=[2]), DiplomaticEdict("b", "treaty"),
                   TradeEdict("b", "Acity", "Bcity", "raw_materials", 5), VassalageEdict("colony", viceroy="V", hexes=[2])):
        with pytest.raises(IllegalOrderError, match="KM-GEN-02.*at most one special edict per turn"):
            E.check(w, "a", second)
    # the four kinds are the tagged orders of RES-KM-39
    import msgspec

    for o, tag in ((DiplomaticEdict("b", "embassy"), "diplomatic"), (ExplorationEdict(months=1, route=[2]), "exploration"),
                   (TradeEdict("b", "x", "y", "goods", 5), "trade"), (VassalageEdict("colony", viceroy="V"), "vassalage")):
        assert msgspec.to_builtins(o)["edict"] == tag


@pytest.mark.rule("KM-GEN-02", "RES-KM-39")
def test_relation_orders_resolve_just_before_the_special_edict() -> None:
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    sheet(w, "a", loyalty=100)
    led = ledger()
    o = TurnOrders(relations=[RelationOrder("close_embassy", "b")], special=DiplomaticEdict("b", "embassy"), taxation="light")
    E.apply_orders(w, "a", o, ScriptedDice(["d20=10", "d4=1", "d20=15"]), led, fail_on_error)
    assert kinds(led) == ["EdictsSet", "CloseEmbassyLoyaltyCheckRolled", "DiplomaticEdictIssued", "DiplomacyCheckRolled"]
    assert w.km.relation("a", "b").embassy  # closed, then established again by the edict


# ---- KM-DIP ----------------------------------------------------------------------------------------


@pytest.mark.rule("KM-DIP-01", "KM-DIP-02", "RES-KM-02")
def test_a_representative_must_be_present_unless_magic_communication() -> None:
    w, a, b = pair()
    w.km.stance("a", "b").present = False
    with pytest.raises(IllegalOrderError, match="KM-DIP-02.*no representative of a is present in b"):
        E.check(w, "a", DiplomaticEdict("b", "embassy"))
    w.config = Config(km=KmConfig(magic_communication=True))
    E.check(w, "a", DiplomaticEdict("b", "embassy"))


@pytest.mark.rule("KM-DIP-03", "RES-KM-01", "RES-KM-03")
def test_cost_then_bribes_capped_by_the_treasury_and_paid_whatever_the_result() -> None:
    w, a, b = pair()
    a.treasury = 6
    led = ledger()
    # DC 10 − 3 bribes = 7; d20 = 2 fails by 5: the bribes are spent anyway
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy", bribe=3), ScriptedDice(["d4=3", "d20=2"]), led)
    assert led.of_kind("DiplomacyCheckRolled")[0].dc == 7
    assert a.treasury == 0
    # a special edict is never refused for lack of BP: the 1d4 may drive the Treasury negative
    w.km.turn += 1
    ready(w, "a")
    E.resolve_special(w, "a", ExplorationEdict(months=1, route=[12]), ScriptedDice(["d4=4"]), ledger())
    assert a.treasury == -4


@pytest.mark.rule("RES-KM-01", "KM-DIP-03", "KM-DIP-04", "RES-KM-03", "GEN-01")
def test_bribes_above_the_treasury_are_capped_after_the_1d4_not_refused() -> None:
    """RES-KM-01: the 1d4 is rolled and paid, then the bribe is capped by the Treasury left (0 if it is
    not positive); a special edict is never refused for lack of BP, and the 1d4 is in the ledger."""
    w, a, b = pair()
    a.treasury = 6
    E.check(w, "a", DiplomaticEdict("b", "embassy", bribe=50))  # legal: nothing to refuse before the die
    led = ledger()
    dice = ScriptedDice(["d4=3", "d20=2"])
    # Treasury 6 − 3 = 3 → the 4 BP asked become 3; DC 10 − 3 = 7, d20 = 2 fails
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy", bribe=4), dice, led)
    issued = led.of_kind("DiplomaticEdictIssued")[0]
    assert (issued.dice, issued.data["cost"], issued.data["bribe"], issued.data["bribe_asked"]) == (((4, 3),), 3, 3, 4)
    assert led.of_kind("DiplomacyCheckRolled")[0].dc == 7
    assert a.treasury == 0 and a.special_turn == w.km.turn
    assert dice.draws == led.dice == 2  # every die drawn is in one event (GEN-01)
    # a Treasury already in debt: the 1d4 is paid and the bribe is 0
    w, a, b = pair()
    a.treasury = -2
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy", bribe=5), ScriptedDice(["d4=1", "d20=20"]), led)
    issued = led.of_kind("DiplomaticEdictIssued")[0]
    assert (issued.data["bribe"], issued.data["bribe_asked"], a.treasury) == (0, 5, -3)
    assert led.of_kind("DiplomacyCheckRolled")[0].dc == 10


@pytest.mark.rule("KM-DIP-05", "GEN-02")
@pytest.mark.parametrize(("size", "ss"), [(1, 0), (4, 0), (5, 1), (23, 4), (41, 8)])
def test_special_size_modifier(size: int, ss: int) -> None:
    assert K.special_size(kingdom("a", list(range(size)))) == ss


@pytest.mark.rule("KM-DIP-06", "KM-DIP-07", "RES-KM-05")
@pytest.mark.parametrize(("x", "y", "mod"), [("LG", "LG", 0), ("LG", "NG", 5), ("LG", "CN", 20), ("LG", "CE", 30),
                                              ("N", "CE", 10), ("LN", "NE", 10), ("CG", "LE", 30), ("N", "N", 0)])
def test_alignment_difference_per_axis(x: str, y: str, mod: int) -> None:
    assert E.alignment_mod(x, y) == mod


@pytest.mark.rule("KM-DIP-08", "KM-DIP-09", "RES-KM-06")
def test_relationship_modifier_one_row_per_third_kingdom() -> None:
    hm = plains(20, 4)
    ks = [kingdom("a", [0]), kingdom("b", [1])] + [kingdom(f"x{i}", [10 + i]) for i in range(1, 10)]
    w = world(hm, ks)
    km = w.km
    al = Agreement("alliance")
    tr = Agreement("treaty")

    def rel(p: str, q: str, level: int) -> None:
        r = km.relation(p, q)
        r.embassy = level >= 1
        r.treaty = tr if level >= 2 else None
        r.alliance = al if level >= 3 else None

    rel("a", "x1", 3), rel("b", "x1", 3)  # both alliance: −8
    rel("a", "x2", 2), rel("b", "x2", 3)  # you treaty, X the target's ally: −4
    rel("a", "x3", 2), rel("b", "x3", 2)  # both treaty: −2
    rel("a", "x4", 3), km.relation("b", "x4").__setattr__("enemies", True)  # alliance with the target's enemy: +10
    rel("a", "x5", 2), km.relation("b", "x5").__setattr__("enemies", True)  # treaty with the target's enemy: +5
    rel("a", "x6", 1), km.relation("b", "x6").__setattr__("enemies", True)  # embassy with the target's enemy: +2
    rel("a", "x7", 3), rel("b", "x7", 2)  # an alliance implies a treaty: both treaty-or-better: −2
    rel("a", "x8", 3), rel("b", "x8", 3), km.relation("b", "x8").__setattr__("enemies", True)  # first row wins: −8
    rel("a", "x9", 1)  # nothing shared: no row
    total, rows = E.relationship_mod(km, "a", "b")
    assert [r[2] for r in rows] == [-8, -4, -2, 10, 5, 2, -2, -8]
    assert total == -7


@pytest.mark.rule("KM-DIP-10", "KM-DIP-11", "RES-KM-07")
def test_attitude_ladder_and_shifts_stop_at_the_ends() -> None:
    assert [E.attitude_mod(a) for a in ("helpful", "friendly", "indifferent", "unfriendly", "hostile")] == [0, 5, 10, 15, 20]
    w, a, b = pair(attitude="indifferent")
    km = w.km
    assert km.stance("x", "y").attitude == "indifferent"  # the default
    assert K.shift_attitude(km, "b", "a", 2) == ("indifferent", "helpful")
    assert K.shift_attitude(km, "b", "a", 1) == ("helpful", "helpful")
    assert K.shift_attitude(km, "b", "a", -9) == ("helpful", "hostile")


@pytest.mark.rule("KM-DIP-04", "RES-KM-03", "RES-KM-04")
def test_dc_uses_raw_fame_and_infamy_and_the_check_has_no_natural_rules() -> None:
    w, a, b = pair(a_kw={"fame": 7, "infamy": 3, "skills": {"diplomacy": 30}})
    dc, terms, _ = E.diplomatic_dc(w, "a", "b", 2)
    assert dc == 10 + 3 - 7 - 2
    led = ledger()
    # a natural 1 with +30 succeeds (a skill check, not a kingdom check)
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy", bribe=2), ScriptedDice(["d4=1", "d20=1"]), led)
    ev = led.of_kind("DiplomacyCheckRolled")[0]
    assert (ev.total, ev.outcome) == (31, "success")
    assert w.km.relation("a", "b").embassy


# ---- KM-REL: embassies ------------------------------------------------------------------------------


@pytest.mark.rule("KM-REL-01", "RES-KM-40")
def test_embassy_rejected_ban_and_fame_loss_on_a_failure_by_5() -> None:
    w, a, b = pair(a_kw={"fame": 3})
    led = ledger()
    # DC 10 − 3 (Fame) = 7; d20 = 3: fails by 4 → ban only
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy"), ScriptedDice(["d4=1", "d20=3"]), led)
    assert a.fame == 3 and w.km.stance("b", "a").attitude == "helpful"
    assert w.km.stance("a", "b").bans == {"embassy": 12}
    w.km.turn = 11
    ready(w, "a")
    with pytest.raises(IllegalOrderError, match=r"KM-REL-01.*until turn 13"):
        E.check(w, "a", DiplomaticEdict("b", "embassy"))
    w.km.turn = 12
    ready(w, "a")
    # DC 7; d20 = 2 fails by 5: Fame −1, the target's attitude worsens one step
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy"), ScriptedDice(["d4=1", "d20=2"]), led)
    assert a.fame == 2 and w.km.stance("b", "a").attitude == "friendly"
    assert not w.km.relation("a", "b").embassy


@pytest.mark.rule("KM-REL-02")
def test_embassy_success_by_5_improves_attitude_and_fame() -> None:
    w, a, b = pair(attitude="indifferent")
    led = ledger()
    # DC 20; d20 = 15 + 10 = 25: succeeds by 5
    a.skills = {"diplomacy": 10}
    E.resolve_special(w, "a", DiplomaticEdict("b", "embassy"), ScriptedDice(["d4=1", "d20=15"]), led)
    assert w.km.relation("a", "b").embassy
    assert w.km.stance("b", "a").attitude == "friendly" and a.fame == 1


@pytest.mark.rule("KM-REL-03", "RES-KM-08")
def test_embassy_building_counts_for_the_owner_and_not_against_the_limit() -> None:
    w, a, b = pair()
    a.treasury = 100
    before = K.stats(w, a)
    led = ledger()
    with pytest.raises(IllegalOrderError, match="KM-REL-03.*no embassy agreement"):
        E.build_embassy(w, "a", EmbassyBuildingOrder("b", "Bcity", "noble_villa"), led)
    w.km.relation("a", "b").embassy = True
    K.construct(w, "a", "Acity", "shop", led)  # the one building of the turn (Size 2)
    E.build_embassy(w, "a", EmbassyBuildingOrder("b", "Bcity", "noble_villa"), led)
    after = K.stats(w, a)
    # Shop Economy +1; Noble Villa Economy +1, Loyalty +1, Stability +1, Fame +1; embassy Economy +2, Consumption +1
    assert after.economy - before.economy == 1 + 1 + 2
    assert (after.loyalty - before.loyalty, after.stability - before.stability) == (1, 1)
    assert after.raw_consumption - before.raw_consumption == 1
    assert after.fame - before.fame == 1
    assert a.treasury == 100 - 8 - 24
    assert b.settlements[0].buildings == {}  # it is the owner's, not the host's
    with pytest.raises(IllegalOrderError, match="KM-REL-03.*already has an embassy building"):
        E.build_embassy(w, "a", EmbassyBuildingOrder("b", "Bcity", "mansion"), led)


@pytest.mark.rule("KM-REL-05", "RES-KM-09", "RES-KM-47")
def test_threat_bands() -> None:
    kw = {"infamy": 2, "armies": 3, "skills": {"intimidate": 5}}
    # success: DC 10 (no Fame/Infamy terms); 1 + 5 + 2 (Infamy before the attempt) + 3 armies = 11
    w, a, b = pair(a_kw=dict(kw))
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "threat"), ScriptedDice(["d4=1", "d20=1"]), led)
    ev = led.of_kind("IntimidateCheckRolled")[0]
    assert (ev.dc, ev.total, ev.outcome) == (10, 11, "success")
    assert ev.mods == (("Intimidate", 5), ("own Infamy", 2), ("active armies", 3), ("Infamy bonus", 0))
    assert a.infamy == 3 and w.km.relation("a", "b").embassy
    # failure by 1–4 (Friendly: DC 15): Infamy +2, attitude −1, a one-year ban on threats
    w, a, b = pair(attitude="friendly", a_kw=dict(kw))
    E.resolve_special(w, "a", DiplomaticEdict("b", "threat"), ScriptedDice(["d4=1", "d20=1"]), ledger())
    assert a.infamy == 4 and w.km.stance("b", "a").attitude == "indifferent"
    assert w.km.stance("a", "b").bans == {"threat": 12} and not w.km.enemies("a", "b")
    # failure by 5+ (Unfriendly: DC 25): Infamy +3, attitude −2 (stops at Hostile) → war
    w, a, b = pair(attitude="unfriendly", a_kw=dict(kw))
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "threat"), ScriptedDice(["d4=1", "d20=1"]), led)
    assert a.infamy == 5 and w.km.stance("b", "a").attitude == "hostile"
    assert w.km.enemies("a", "b") and led.of_kind("IntimidateCheckRolled")[0].data["result"] == "war declared"


@pytest.mark.rule("KM-REL-06")
def test_closing_an_embassy_and_attacking_an_embassy_partner() -> None:
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    sheet(w, "a", loyalty=0)
    cdc = K.stats(w, a).control_dc
    led = ledger()
    out = E.resolve_relation_order(w, "a", RelationOrder("close_embassy", "b"), ScriptedDice(["d20=2"]), led)
    assert out == "embassy kept" and w.km.relation("a", "b").embassy  # retry next turn
    out = E.resolve_relation_order(w, "a", RelationOrder("close_embassy", "b"), ScriptedDice(["d20=20"]), led)
    assert out == "embassy closed" and not w.km.relation("a", "b").embassy
    assert led.of_kind("CloseEmbassyLoyaltyCheckRolled")[0].dc == cdc
    # attacking a kingdom you have an embassy with: success Infamy +1; failure Infamy +1 and Unrest +1
    w.km.relation("a", "b").embassy = True
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b"), ScriptedDice(["d20=20"]), led)
    assert (a.infamy, a.unrest) == (1, 0)
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b"), ScriptedDice(["d20=2"]), led)
    assert (a.infamy, a.unrest) == (2, 1) and w.km.enemies("a", "b")


def sign_treaty_script() -> list[str]:
    # 1d4; two Diplomacy checks at DC 10 (10 and 12: two successes, no third roll); opposed checks:
    # Bluff 5–5 tie then 7–3 (envoy), Diplomacy 10–12 (target), Knowledge (local) 15–2 (envoy),
    # Knowledge (nobility) 11–4 (envoy): 3 of 5, Sense Motive not rolled
    return ["d4=1", "d20=10", "d20=12", "d20=5", "d20=5", "d20=7", "d20=3", "d20=10", "d20=12", "d20=15", "d20=2",
            "d20=11", "d20=4"]


@pytest.mark.rule("KM-REL-07", "KM-REL-08", "KM-REL-09", "RES-KM-10", "RES-KM-11", "RES-KM-41")
def test_treaty_signed_unbalanced_in_favour_of_the_opposed_checks_winner() -> None:
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    sheet(w, "a", economy=30)
    sheet(w, "b", economy=40)
    led = ledger()
    dice = ScriptedDice(sign_treaty_script())
    out = E.resolve_special(w, "a", DiplomaticEdict("b", "treaty", balance="unbalanced"), dice, led)
    dice.assert_exhausted()
    assert out == "treaty signed"
    assert [e.outcome for e in led.of_kind("DiplomacyCheckRolled")] == ["success", "success"]
    opp = led.of_kind("OpposedCheckRolled")
    assert [(e.data["skill"], e.outcome) for e in opp] == [
        ("Bluff", "envoy wins"), ("Diplomacy", "target wins"), ("Knowledge (local)", "envoy wins"),
        ("Knowledge (nobility)", "envoy wins")]
    assert opp[0].data["totals"] == [[5, 5], [7, 3]]
    t = w.km.relation("a", "b").treaty
    # unbalanced, a advantaged: a +15% of 40 = 6, b +5% of 30 = 1 (1.5 rounded down); a's Infamy +1
    assert t is not None and (t.balanced, t.advantaged, t.bonus) == (False, "a", {"a": 6, "b": 1})
    assert a.infamy == 1 and a.fame == 0
    assert K.stats(w, a).economy == 36 and K.stats(w, b).economy == 41


@pytest.mark.rule("KM-REL-07", "RES-KM-10")
def test_attitude_moves_between_checks_and_the_dc_is_recomputed() -> None:
    w, a, b = pair(attitude="indifferent", a_kw={"skills": {"diplomacy": 6}})
    w.km.relation("a", "b").embassy = True
    led = ledger()
    # check 1: DC 20, 19 + 6 = 25 succeeds by 5 → Friendly, DC 15; check 2: 9 + 6 = 15 succeeds: decided
    script = ["d4=1", "d20=19", "d20=9", "d20=20", "d20=1", "d20=20", "d20=1", "d20=20", "d20=1"]
    E.resolve_special(w, "a", DiplomaticEdict("b", "treaty", balance="balanced"), ScriptedDice(script), led)
    assert [e.dc for e in led.of_kind("DiplomacyCheckRolled")] == [20, 15]
    t = w.km.relation("a", "b").treaty
    assert t is not None and t.balanced and a.fame == 1  # balanced: the advantaged kingdom's Fame +1


@pytest.mark.rule("KM-REL-08", "RES-KM-41", "RES-KM-47")
def test_opposed_checks_target_wins_and_chooses_each_side_adds_its_own_bonus() -> None:
    w, a, b = pair(a_kw={"fame": 20}, b_kw={"infamy": 30, "counter_skills": {"intimidate": 4}})
    w.km.relation("a", "b").embassy = True
    led = ledger()
    # two successes (DC 10 − 20 Fame = −10); opposed: Bluff 10–11 (target), Diplomacy (a: Diplomacy +2 Fame
    # bonus; b: Intimidate 4 + 3 Infamy bonus): 10 + 2 = 12 vs 5 + 7 = 12 tie, 3 + 2 = 5 vs 2 + 7 = 9 (target),
    # Knowledge (local) 1–20 (target)
    script = ["d4=1", "d20=5", "d20=5", "d20=10", "d20=11", "d20=10", "d20=5", "d20=3", "d20=2", "d20=1", "d20=20"]
    d = DiplomaticEdict("b", "treaty", balance="balanced", target_skill="intimidate", target_balance="unbalanced")
    E.resolve_special(w, "a", d, ScriptedDice(script), led)
    dip = led.of_kind("OpposedCheckRolled")[1]
    assert dip.data["skill"] == "Diplomacy" and dip.data["target_skill"] == "Intimidate"
    assert dip.data["totals"] == [[12, 12], [5, 9]]
    t = w.km.relation("a", "b").treaty
    assert t is not None and (t.balanced, t.advantaged) == (False, "b") and b.infamy == 31


@pytest.mark.rule("KM-REL-09", "RES-KM-11", "RES-KM-39")
def test_untracked_npc_economy_and_rebalancing() -> None:
    w, a, b = pair(b_kw={"tracked": False})
    w.km.relation("a", "b").embassy = True
    sheet(w, "a", economy=50)
    led = ledger()
    # after the opposed checks (envoy wins 3–0), the NPC's Economy is 2d6 + Size = 4 + 5 + 2 = 11
    script = ["d4=1", "d20=10", "d20=10", "d20=20", "d20=1", "d20=20", "d20=1", "d20=20", "d20=1", "2d6=4,5"]
    dice = ScriptedDice(script)
    E.resolve_special(w, "a", DiplomaticEdict("b", "treaty", balance="unbalanced"), dice, led)
    dice.assert_exhausted()
    signed = led.of_kind("AgreementSigned")[0]
    assert signed.data["partner_values"] == {"a": 50, "b": 11} and signed.dice == ((6, 4), (6, 5))
    assert w.km.relation("a", "b").treaty.bonus == {"a": 1, "b": 2}  # 15% of 11; 5% of 50
    # a later Diplomatic edict converts it to balanced without a check
    w.km.turn += 1
    ready(w, "a")
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "rebalance"), ScriptedDice(["d4=2"]), led)
    t = w.km.relation("a", "b").treaty
    assert t.balanced and t.bonus == {"a": 1, "b": 5}  # 10% of 11 and 10% of 50
    assert kinds(led) == ["DiplomaticEdictIssued", "AgreementRebalanced"] and a.fame == 1
    w.km.turn += 1
    ready(w, "a")
    with pytest.raises(IllegalOrderError, match="KM-REL-09.*no unbalanced treaty or alliance in its favour"):
        E.check(w, "a", DiplomaticEdict("b", "rebalance"))


@pytest.mark.rule("KM-REL-10")
def test_renegotiating_and_withdrawing_and_attacking_a_treaty_partner() -> None:
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy = True
    rel.treaty = Agreement("treaty", balanced=False, advantaged="b", bonus={"a": 0, "b": 3}, reduction={"a": 1, "b": 0})
    sheet(w, "a", economy=40, loyalty=0)
    sheet(w, "b", economy=30)
    led = ledger()
    out = E.resolve_relation_order(w, "a", RelationOrder("renegotiate", "b"), ScriptedDice(["d20=2"]), led)
    assert out == "renegotiation failed" and a.unrest == 1 and rel.treaty.advantaged == "b"
    # success: new opposed checks (envoy wins 3–0), a chooses balanced; the stored reduction is kept
    out = E.resolve_relation_order(w, "a", RelationOrder("renegotiate", "b", balance="balanced"),
                                   ScriptedDice(["d20=20", "d20=20", "d20=1", "d20=20", "d20=1", "d20=20", "d20=1"]), led)
    # values read now: b's Economy is 33 (30 + its old bonus 3) → a gets 10% = 3, less its stored reduction 1;
    # a's Economy is 40 → b gets 4
    assert out == "renegotiated" and rel.treaty.balanced and rel.treaty.advantaged == "a"
    assert rel.treaty.bonus == {"a": 2, "b": 4}
    # withdrawing: success Unrest +1, failure Unrest +2; the treaty ends either way
    a.unrest = 0
    E.resolve_relation_order(w, "a", RelationOrder("withdraw", "b"), ScriptedDice(["d20=2"]), led)
    assert a.unrest == 2 and rel.treaty is None
    # attacking a treaty partner: success Infamy and Unrest +1d2 each; failure +1d4 each
    rel.treaty = Agreement("treaty")
    a.unrest = 0
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b"), ScriptedDice(["d20=20", "d2=2", "d2=1"]), led)
    assert (a.infamy, a.unrest) == (2, 1)
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b"), ScriptedDice(["d20=2", "d4=3", "d4=4"]), led)
    assert (a.infamy, a.unrest) == (5, 5)


@pytest.mark.rule("KM-REL-11", "KM-REL-13", "RES-KM-46", "RES-KM-41")
def test_alliance_six_checks_four_successes_three_opposed_stability_bonus_reduced() -> None:
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy = True
    rel.treaty = Agreement("treaty", bonus={"a": 0, "b": 0})
    sheet(w, "a", stability=50)
    sheet(w, "b", stability=30)
    led = ledger()
    # checks at DC 10: 10 ✓, 6 ✗ (by 4: no attitude shift), 11 ✓, 12 ✓, 13 ✓ → 4 successes after 5 checks;
    # opposed Diplomacy 20–1 (envoy), 20–1 (envoy): 2 of 3
    script = ["d4=1", "d20=10", "d20=6", "d20=11", "d20=12", "d20=13", "d20=20", "d20=1", "d20=20", "d20=1"]
    dice = ScriptedDice(script)
    E.resolve_special(w, "a", DiplomaticEdict("b", "alliance", balance="balanced"), dice, led)
    dice.assert_exhausted()
    assert len(led.of_kind("DiplomacyCheckRolled")) == 5 and len(led.of_kind("OpposedCheckRolled")) == 2
    al = rel.alliance
    # Stability: a 10% of 30 = 3, b 10% of 50 = 5, each less 1 for the treaty both already hold
    assert al is not None and al.bonus == {"a": 2, "b": 4} and al.reduction == {"a": 1, "b": 1}
    assert K.stats(w, a).stability == 52 and K.stats(w, b).stability == 34
    # failing: 3 failures of 6 end the attempt (6 ✗, 10 ✓, 7 ✗, 8 ✗; no failure by 5: DC stays 10)
    w2, a2, b2 = pair(a_kw={"fame": 1})
    r2 = w2.km.relation("a", "b")
    r2.embassy, r2.treaty = True, Agreement("treaty")
    led2 = ledger()
    # Fame 1: DC 9; 6 ✗ (by 3), 10 ✓, 7 ✗, 8 ✗
    E.resolve_special(w2, "a", DiplomaticEdict("b", "alliance"), ScriptedDice(["d4=1", "d20=6", "d20=10", "d20=7", "d20=8"]), led2)
    assert r2.alliance is None and a2.fame == 0 and w2.km.stance("a", "b").bans == {"alliance": 12}
    assert len(led2.of_kind("DiplomacyCheckRolled")) == 4


@pytest.mark.rule("KM-REL-13", "RES-KM-46")
def test_second_treaty_bonus_reduced_by_one_per_side_judged_separately() -> None:
    hm = plains(12, 8)
    a = kingdom("a", [0, 1], treasury=30)
    b = kingdom("b", [40, 41])
    c = kingdom("c", [60])
    w = world(hm, [a, b, c])
    w.km.relation("a", "c").treaty = Agreement("treaty")
    w.km.relation("a", "c").embassy = True
    sheet(w, "a", economy=40)
    sheet(w, "b", economy=40)
    ag = E.sign_agreement(w, "a", "b", "treaty", "a", True, ScriptedDice([]), ledger(), via="edict")
    assert ag.bonus == {"a": 3, "b": 4} and ag.reduction == {"a": 1, "b": 0}
    assert E.agreements_held(w.km, "a") == 2


@pytest.mark.rule("KM-REL-12")
def test_allied_armies_aid_refused_and_attacking_an_ally() -> None:
    w, a, b = pair()
    rel = w.km.relation("a", "b")
    rel.embassy, rel.treaty, rel.alliance = True, Agreement("treaty"), Agreement("alliance")
    sheet(w, "b", loyalty=0)
    led = ledger()
    # b hosts a's army: a Loyalty check or Unrest +1d2; none when b asked for help
    E.resolve_event(w, ScriptedEvent(0, "station_army", "a", "b"), ScriptedDice(["d20=2", "d2=2"]), led)
    assert b.unrest == 2
    E.resolve_event(w, ScriptedEvent(0, "station_army", "a", "b", requested=True), ScriptedDice([]), led)
    assert b.unrest == 2
    # a fails to send requested aid: Infamy +1d4
    E.resolve_event(w, ScriptedEvent(0, "aid_refused", "a", "b"), ScriptedDice(["d4=3"]), led)
    assert a.infamy == 3
    # attacking an ally: success +1d4 each; failure +2d4 each; the attacked ally ends the relations
    sheet(w, "a", loyalty=0)
    E.resolve_event(w, ScriptedEvent(0, "attack", "a", "b", end_relations=True), ScriptedDice(["d20=3", "2d4=1,2", "2d4=3,4"]), led)
    assert (a.infamy, a.unrest) == (3 + 3, 7)
    assert rel.level == 0 and rel.enemies


# ---- envoys (LINK-05) -------------------------------------------------------------------------------


@pytest.mark.rule("LINK-05", "KM-DIP-02", "RES-KM-02")
def test_envoy_travels_at_hexes_per_day_and_is_present_from_arrival_until_recalled() -> None:
    w, a, b = pair()
    w.km.stance("a", "b").present = False
    led = ledger()
    env = links.send_envoy(w, "a", "b", 720, led)
    # Acity [0, 0] to Bcity [4, 3]: the least-cost path has 6 steps; 2 hexes a day → 3 days
    assert len(env.path) - 1 == w.map.distance(0, 40) == 6
    assert env.arrive == 720 + 3 * 24
    assert not E.representative_present(w, "a", "b")
    with pytest.raises(IllegalOrderError, match="LINK-05.*already has a representative"):
        links.send_envoy(w, "a", "b", 720, led)
    links.envoy_arrived(w, env, led)
    assert E.representative_present(w, "a", "b") and env.status == "present"
    links.recall_envoy(w, "a", "b", led)
    assert not E.representative_present(w, "a", "b") and env.status == "recalled"
