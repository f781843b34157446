"""Tests written against the survivors of a fresh mutation sample (issue 29: ``tools/mutate.py mn
--seed 2``): each pins a piece of MN behaviour (sim/rules/mn/) that a mutant changed without any
earlier test noticing.

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments); the world
is the common one of tests/mn/common.py (RF(Latium, greeks) = +5, all travel 1 turn, treasuries 200).
"""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.orders import ScriptedDecider
from sim.rules import mn as dip
from tests.mn.common import buy, last, make_world, post, world_of


def _launch(mn, cfg, led, city: str, kind: str, gift: int = 0):  # noqa: ANN001, ANN202
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, city, kind, gift), led, cfg)
    mn.turn = m.arrival_turn
    return a, m


# ---- RES-MN-02: the ambassador's return -----------------------------------------------------------------
@pytest.mark.rule("RES-MN-02", "MN-OUT-03")
def test_a_dismissed_ambassador_is_recorded_home_one_turn_later() -> None:
    """Dismissed at Massalia in turn 6 (70 − 5 = 65 >= 60, by 5: failure); Gallia → Latium takes 1 turn:
    the AmbassadorSentHome event says he is home in turn 7."""
    mn, cfg, led = make_world(turn=5)
    a, m = _launch(mn, cfg, led, "massalia", "commercial")
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)
    ev = last(led, "AmbassadorSentHome")
    assert (ev.outcome, ev.data["returns_turn"], ev.data["travel_turns"]) == ("travelling", 7, 1)
    assert a.returns_turn == 7


@pytest.mark.rule("RES-MN-02", "RES-MN-01", "MN-OUT-03")
def test_an_ambassador_home_at_once_is_recorded_home_in_the_same_turn() -> None:
    """No travel (a mission inside its home province): home in the turn of the dismissal, turn 5."""
    mn, cfg, led = make_world(turn=5)
    mn.nations["p1"].provinces = ["Gallia", "Latium"]
    a = dip.resolve_buy(mn, "p1", dip.BuyAmbassador("Gallia"), led, cfg)
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)  # RF(Gallia, greeks) 0: 70 >= 60, by 10
    ev = last(led, "AmbassadorSentHome")
    assert (ev.outcome, ev.data["returns_turn"], ev.data["travel_turns"]) == ("home", 5, 0)


# ---- RES-MN-05: imports --------------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-05", "MN-TRE-02", "MN-OUT-01")
def test_a_commercial_agreement_records_the_resources_it_adds() -> None:
    """EX-MN-01: the agreement with Massalia (Gallia: salt) adds salt to P1's importable set, and Latium's
    grain and wine to Massalia's; nothing is removed."""
    mn, cfg, led = make_world(turn=5)
    a, m = _launch(mn, cfg, led, "massalia", "commercial", 12)
    dip.resolve_test(mn, m, ScriptedDice(["d100=31"]), led, cfg)  # 31 − 17 = 14: very warm
    changes = {e.actor: (e.data["added"], e.data["removed"]) for e in led.of_kind("ImportsChanged")}
    assert changes == {"nation:p1": (["salt"], []), "city:massalia": (["grain", "wine"], [])}


# ---- statistics of the campaign ------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-01", "MN-OUT-01", "MN-OUT-02", "RES-MN-13")
def test_the_counts_of_ambassadors_bought_and_embassies_installed() -> None:
    """One ambassador bought; his very warm welcome at Massalia installs one embassy."""
    mn, cfg, led = make_world(turn=5)
    a = dip.resolve_buy(mn, "p1", dip.BuyAmbassador(), led, cfg)
    assert mn.stats.ambassadors_bought == 1 and mn.nations["p1"].treasury == 150  # 200 − 50 (RES-MN-01)
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    dip.resolve_test(mn, m, ScriptedDice(["d100=31"]), led, cfg)  # 31 − 5 = 26: margin 34 >= 20, very warm
    assert mn.stats.embassies_installed == 1


@pytest.mark.rule("MN-TRE-08", "RES-MN-07")
def test_a_pact_broken_in_peace_is_counted_as_such_and_ends_as_broken() -> None:
    """P1 breaks its pact with Rhodos, nobody at war: a peacetime break (RF −15), counted among the pacts
    broken in peace; its TreatyEnded event says "broken" (not "embassy closed", though the embassy closes)."""
    mn, cfg, led = make_world(turn=5)
    _, e, pact = post(mn, "p1", "rhodos", kind="pact")
    assert pact is not None
    dip.resolve_break(mn, "p1", dip.BreakTreaty(pact.id), ScriptedDice(["d4=1"]), led, cfg)
    assert last(led, "PactBroken").outcome == "peacetime" and dip.rf(mn, "Latium", "rhodians") == -10  # 5 − 15
    assert (mn.stats.pacts_broken_war, mn.stats.pacts_broken_peace) == (0, 1)
    ended = [ev for ev in led.of_kind("TreatyEnded") if ev.data["treaty"] == pact.id]
    assert [ev.outcome for ev in ended] == ["broken"] and "MN-TRE-08" in ended[0].clauses
    assert (mn.stats.treaties_broken, mn.stats.treaties_ended) == (1, 0)
    assert e not in mn.embassies  # relations cut (RES-MN-07): the embassy closes all the same


# ---- RES-MN-06: obligations -----------------------------------------------------------------------------
@pytest.mark.rule("MN-TRE-08", "RES-MN-06")
def test_breaking_ones_pact_leaves_another_nations_obligation_open() -> None:
    """Syracusae declares war on Rhodos and on Athenae: P1 (pact with Rhodos) and P2 (pact with Athenae) must
    each intervene. P1 breaking its own pact settles P1's obligation only: P2's stays open."""
    mn, cfg, led = make_world(turn=5)
    _, _, p1_pact = post(mn, "p1", "rhodos", kind="pact")
    post(mn, "p2", "athenae", kind="pact")
    assert p1_pact is not None
    [ob1] = dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:rhodos"), led, cfg)
    [ob2] = dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:athenae"), led, cfg)
    assert (ob1.nation, ob2.nation) == ("p1", "p2")
    dip.resolve_break(mn, "p1", dip.BreakTreaty(p1_pact.id), ScriptedDice(["d4=1"]), led, cfg)
    assert ob1.status != "open" and ob2.status == "open"
    dip.check(world_of(mn, cfg), "p2", dip.HonourPact(ob2.id))  # P2 may still honour its pact


@pytest.mark.rule("RES-MN-06", "MN-EMB-01", "MN-TRE-07")
def test_an_obligation_lapses_when_its_pact_ends_before_it_is_met() -> None:
    """P2 declares war on Rhodos: P1 must intervene for its pact. P1 then recalls its ambassador from
    Rhodos: the embassy closes and with it the pact (MN-EMB-01), so there is nothing left to honour."""
    mn, cfg, led = make_world(turn=5)
    a, _, pact = post(mn, "p1", "rhodos", kind="pact")
    [ob] = dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("city:rhodos"), led, cfg)
    dip.resolve_recall(mn, "p1", dip.Recall(a.id), led, cfg)
    assert pact not in mn.treaties and ob.status == "lapsed"
    with pytest.raises(IllegalOrderError, match="RES-MN-06.*no open obligation"):
        dip.check(world_of(mn, cfg), "p1", dip.HonourPact(ob.id))


@pytest.mark.rule("MN-TRE-07", "RES-MN-06", "MN-TRE-02")
def test_honouring_a_pact_ends_every_treaty_with_the_aggressor() -> None:
    """MN-TRE-07: the pact's friend severs all relations with the aggressor as if at war. P1 and P2 have a
    commercial agreement through P2's ambassador at Roma (no P1 embassy in P2's cities): it ends too."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p1", "rhodos", kind="pact")
    _, _, trade = post(mn, "p2", "roma", kind="commercial")
    assert trade is not None and trade.partner == "nation:p1"
    [ob] = dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("city:rhodos"), led, cfg)
    dip.resolve_honour(mn, "p1", dip.HonourPact(ob.id), led, cfg)
    assert trade not in mn.treaties
    assert [ev.outcome for ev in led.of_kind("TreatyEnded") if ev.data["treaty"] == trade.id] == ["relations severed"]
    assert dip.at_war(mn, "nation:p1", "nation:p2")


# ---- the legal orders ---------------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-01", "RES-MN-17")
def test_a_treasury_of_exactly_the_ambassadors_price_may_buy_one() -> None:
    """An ambassador costs 50 PO (CFG.mn.ambassador_cost): with 50 PO one is offered, with 49 not."""
    mn, cfg, _ = make_world(turn=5, treasury=50)
    assert dip.legal_orders(world_of(mn, cfg), "p1", slot="buy") == [dip.Pass("buy"), dip.BuyAmbassador("Latium")]
    mn.nations["p1"].treasury = 49
    assert dip.legal_orders(world_of(mn, cfg), "p1", slot="buy") == [dip.Pass("buy")]


@pytest.mark.rule("RES-MN-04", "MN-HOST-02", "RES-MN-03")
def test_players_in_contact_are_offered_a_commercial_agreement_and_a_pact() -> None:
    """P2's ambassador accepted at Roma: the players are in contact and may propose either treaty open to two
    players (commercial agreement, eternal friendship pact)."""
    mn, cfg, _ = make_world(turn=5)
    post(mn, "p2", "roma")
    assert dip.legal_orders(world_of(mn, cfg), "p1", slot="propose", subject="p2") == [
        dip.Pass("propose"), dip.SignTreaty("p2", "commercial"), dip.SignTreaty("p2", "pact")]


@pytest.mark.rule("MN-TRE-06", "RES-MN-04")
def test_a_nation_holding_a_pact_cannot_sign_another_with_a_player() -> None:
    """MN-TRE-06: P1 holds a pact with Rhodos; though in contact with P2 it may sign a commercial agreement
    with it, not a pact."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p1", "rhodos", kind="pact")
    post(mn, "p2", "roma")
    w = world_of(mn, cfg)
    dip.check(w, "p1", dip.SignTreaty("p2", "commercial"))
    with pytest.raises(IllegalOrderError, match="MN-TRE-06"):
        dip.check(w, "p1", dip.SignTreaty("p2", "pact"))
    with pytest.raises(IllegalOrderError, match="MN-TRE-06"):
        dip.check(w, "p2", dip.SignTreaty("p1", "pact"))


@pytest.mark.rule("RES-MN-13", "MN-MOD-07", "RES-MN-12")
def test_a_renewal_without_a_gift_is_legal_and_a_negative_gift_is_not() -> None:
    """A gift is +1 per PO (MN-MOD-07): 0 PO is no gift, allowed; a negative one is refused."""
    mn, cfg, _ = make_world(turn=9)
    _, e, _ = post(mn, "p1", "massalia", kind="commercial", last_turn=9, installed=6)
    w = world_of(mn, cfg)
    dip.check(w, "p1", dip.RenewTreaty(e.id, 0))
    with pytest.raises(IllegalOrderError, match="MN-MOD-07.*negative gift"):
        dip.check(w, "p1", dip.RenewTreaty(e.id, -1))


@pytest.mark.rule("RES-MN-04", "MN-HOST-01")
def test_an_imprisonment_without_a_ransom_is_legal_and_a_negative_ransom_is_not() -> None:
    mn, cfg, led = make_world(turn=5)
    a, m = _launch(mn, cfg, led, "corinthus", "commercial")
    w = world_of(mn, cfg)
    dip.check(w, "p2", dip.HostChoice(m.id, "imprison", 0))
    with pytest.raises(IllegalOrderError, match="MN-HOST-01.*negative ransom"):
        dip.check(w, "p2", dip.HostChoice(m.id, "imprison", -1))


@pytest.mark.rule("RES-MN-14", "RES-MN-04", "MN-HOST-01")
def test_a_ransom_of_0_po_is_paid_and_frees_the_ambassador() -> None:
    """A host may imprison without a ransom (0 PO); paying it in the Acclamation phase (turn 8, the last of
    its year) costs nothing and sends him home (Achaea → Latium: 1 turn)."""
    mn, cfg, led = make_world(turn=5)
    a, m = _launch(mn, cfg, led, "corinthus", "commercial")
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "imprison", 0), led, cfg)
    mn.turn = 8
    dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
    assert (a.state, a.returns_turn) == ("travelling", 9)
    assert (mn.nations["p1"].treasury, mn.nations["p2"].treasury) == (170, 200)  # 200 − 30 (the fee); + 0
    assert last(led, "RansomPaid").data["ransom"] == 0


@pytest.mark.rule("RES-MN-17")
def test_a_negative_treasury_breaks_an_invariant() -> None:
    """RES-MN-17: a player's treasury never goes below 0; a state where it does is reported."""
    mn, _, _ = make_world(turn=5)
    assert dip.invariant_problems(mn) == []
    mn.nations["p2"].treasury = -1
    assert dip.invariant_problems(mn) == ["nation p2 treasury -1 < 0 (RES-MN-17)"]


# ---- RES-MN-13: a renewal's result -----------------------------------------------------------------------
@pytest.mark.rule("RES-MN-13", "MN-OUT-02")
def test_a_successful_renewal_returns_the_renewed_treaty() -> None:
    """A renewal at Massalia in its expiry turn 9: 50 − 5 = 45, margin 15 → 3 turns; the test's result is
    the treaty renewed, in force through turn 12."""
    mn, cfg, led = make_world(turn=9)
    _, e, t = post(mn, "p1", "massalia", kind="commercial", last_turn=9, installed=6)
    m = dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id), led, cfg)
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=50"]), led, cfg)
    assert (r.band, r.duration) == ("limited", 3)
    assert r.treaty is t and t.last_turn == 12


@pytest.mark.rule("MN-MOD-07", "RES-MN-12", "RES-MN-17")
def test_the_gifts_offered_with_a_mission_run_up_to_40_po() -> None:
    """The legal missions carry the gift menu 0, 5, 10, 15, 20, 30 and 40 PO (orders.GIFT_MENU) where the
    treasury pays fee + gift (MN-MIS-02): with 200 PO, all seven."""
    mn, cfg, _ = make_world(turn=4)
    a = buy(mn, "p1")
    launches = [o for o in dip.legal_orders(world_of(mn, cfg), "p1", slot="ambassador", subject=a)
                if isinstance(o, dip.LaunchMission) and o.city == "massalia" and o.treaty == "commercial"]
    assert [o.gift for o in launches] == [0, 5, 10, 15, 20, 30, 40]


@pytest.mark.rule("MN-INT-01", "RES-MN-16", "MN-OUT-02")
def test_an_interferer_that_answers_the_sign_question_with_nothing_adds_the_d20() -> None:
    """legal_orders offers the interference sign with "+" first, as the do-nothing choice: P2, at post in
    Neapolis, interferes with P1's commercial mission and answers the sign with a plain Pass: +d20.
    50 − 5 = 45, + 7 = 52 < 60: margin 8 → ceil(8 / 5) = 2 turns (with −7 it would be 38, very warm)."""
    mn, cfg, led = make_world(turn=4)
    post(mn, "p2", "neapolis")
    a = buy(mn, "p1")
    dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "neapolis", "commercial"), led, cfg)
    decider = ScriptedDecider({("nation:p2", "interfere"): [dip.Interfere(True)],
                               ("nation:p2", "interference_sign"): [dip.Pass("interference_sign")]}, default="first")
    dice = ScriptedDice(["d100=50", "d20=7"])
    dip.resolve_turn(world_of(mn, cfg), 5, decider, dice, led)
    dice.assert_exhausted()
    decider.assert_exhausted()
    ev = last(led, "DiplomacyTestRolled")
    assert (ev.total, ev.outcome, ev.data["duration"]) == (52, "limited", 2)
    assert last(led, "InterferenceRolled").data["sign"] == "+"


@pytest.mark.rule("MN-INT-01", "RES-MN-16", "MN-OUT-01")
def test_a_nation_that_answers_the_interference_question_with_nothing_does_not_interfere() -> None:
    """"Do not interfere" is the do-nothing choice of the interfere question: P2 answering it with a plain
    Pass draws no d20. 31 − 5 = 26: margin 34 >= 20, very warm."""
    mn, cfg, led = make_world(turn=4)
    post(mn, "p2", "neapolis")
    a = buy(mn, "p1")
    dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "neapolis", "commercial"), led, cfg)
    decider = ScriptedDecider({("nation:p2", "interfere"): [dip.Pass("interfere")]}, default="first")
    dice = ScriptedDice(["d100=31"])
    dip.resolve_turn(world_of(mn, cfg), 5, decider, dice, led)
    dice.assert_exhausted()
    decider.assert_exhausted()
    ev = last(led, "DiplomacyTestRolled")
    assert (ev.total, ev.outcome, ev.data["interference"]) == (26, "very_warm", [])
    assert led.of_kind("InterferenceRolled") == []


@pytest.mark.rule("MN-INT-01", "RES-MN-16")
def test_the_label_of_an_interference_sign() -> None:
    """The ledger's decisions label the sign answers "+" (add the d20) and "-" (subtract it)."""
    assert dip.order_label(dip.InterferenceSign(1)) == "+"
    assert dip.order_label(dip.InterferenceSign(-1)) == "-"


# ---- SC-MN-03: the whole turn ---------------------------------------------------------------------------
@pytest.mark.rule("SC-MN-03", "SC-MN-08", "SC-MN-09")
def test_turns_1_to_4_are_year_1_and_turn_5_opens_year_2() -> None:
    """Turn 1 opens a year of 4 turns (SC-MN-03/08): turn 4 is year 1 and has the Acclamation phase, turn 5
    is year 2 and has none."""
    mn, cfg, led = make_world(turn=3)
    for turn in (4, 5):
        dip.resolve_turn(world_of(mn, cfg), turn, ScriptedDecider(default="first"), ScriptedDice(), led)
    began = [(e.data["turn"], e.data["year"], e.data["acclamation"]) for e in led.of_kind("TurnBegan")]
    assert began == [(4, 1, True), (5, 2, False)]


@pytest.mark.rule("SC-MN-03", "RES-MN-17", "RES-MN-01")
def test_a_question_with_one_legal_answer_is_not_asked() -> None:
    """With 10 PO P1 cannot buy an ambassador (50 PO): the buy question has one answer (pass) and is not
    asked; P2, with 200 PO, is asked."""
    mn, cfg, led = make_world(turn=4)
    mn.nations["p1"].treasury = 10
    decider = ScriptedDecider(default="first")
    dip.resolve_turn(world_of(mn, cfg), 5, decider, ScriptedDice(), led)
    assert ("nation:p1", "buy") not in decider.asked and ("nation:p2", "buy") in decider.asked


@pytest.mark.rule("RES-MN-04", "MN-HOST-02", "RES-MN-03", "SC-MN-03")
def test_players_in_contact_sign_a_commercial_agreement_in_the_diplomacy_phase() -> None:
    """P2's ambassador is accepted at Roma: in phase (3) P1 proposes a commercial agreement, P2 consents,
    and it is signed without a test (RES-MN-04), permanent."""
    mn, cfg, led = make_world(turn=4)
    post(mn, "p2", "roma")
    decider = ScriptedDecider({("nation:p1", "propose"): [dip.SignTreaty("p2", "commercial")],
                               ("nation:p2", "consent"): [dip.Consent(True)]}, default="first")
    dip.resolve_turn(world_of(mn, cfg), 5, decider, ScriptedDice(), led)
    decider.assert_exhausted()
    [t] = [t for t in mn.treaties if t.kind == "commercial"]
    assert (t.nation, t.partner, t.signed_turn, t.last_turn) == ("p1", "nation:p2", 5, None)


@pytest.mark.rule("MN-TRE-07", "RES-MN-06", "SC-MN-03")
def test_an_open_obligation_is_asked_in_the_military_phase_and_may_be_honoured() -> None:
    """P2 declared war on Rhodos in turn 5; in turn 6 (the deadline, 5 + 1) P1 is asked about its pact and
    honours it: an army is raised, the pact stands, and nothing is broken at the end of the turn."""
    mn, cfg, led = make_world(turn=5)
    _, _, pact = post(mn, "p1", "rhodos", kind="pact")
    [ob] = dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("city:rhodos"), led, cfg)
    decider = ScriptedDecider({("nation:p1", "obligation"): [dip.HonourPact(ob.id)]}, default="first")
    dip.resolve_turn(world_of(mn, cfg), 6, decider, ScriptedDice(), led)
    decider.assert_exhausted()
    assert last(led, "PactHonoured").data["obligation"] == ob.id
    assert pact in mn.treaties and led.of_kind("PactBroken") == []


@pytest.mark.rule("MN-OUT-04", "RES-MN-14", "SC-MN-09")
def test_a_blundering_ambassador_is_ransomed_in_the_acclamation_phase() -> None:
    """EX-MN-05 without interference: at Rhodos (RF set to 0), a pact: d100 = 41 ≥ 20 + 20 → blunder, prison
    with a 10 PO ransom. Turn 8 closes the year: P1 pays the 10 PO and he is home one turn later."""
    mn, cfg, led = make_world(turn=6)
    mn.rf["Latium"]["rhodians"] = 0
    a, m = _launch(mn, cfg, led, "rhodos", "pact")
    dip.resolve_test(mn, m, ScriptedDice(["d100=41"]), led, cfg)
    assert (a.state, a.ransom) == ("imprisoned", 10)
    treasury = mn.nations["p1"].treasury
    decider = ScriptedDecider({("nation:p1", "ransom"): [dip.PayRansom(a.id)]}, default="first")
    dip.resolve_turn(world_of(mn, cfg), 8, decider, ScriptedDice(), led)
    decider.assert_exhausted()
    paid = last(led, "RansomPaid")
    assert (paid.data["ransom"], paid.data["treasury"]) == (10, treasury - 10)
    assert (a.state, a.returns_turn) == ("travelling", 9)
