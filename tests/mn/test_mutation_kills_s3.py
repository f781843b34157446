"""Tests written against the survivors of the second fresh mutation sample of issue 29 (``tools/mutate.py
mn --seed 3``). Seed 3 was measured first, untouched (86.5% killed: under the 90% target); these tests
were written against its survivors afterwards, so the sample that counts for MN is a third one (seed 4,
docs/mutation.md).

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments); the world
is the common one of tests/mn/common.py (RF(Latium, greeks) = +5, all travel 1 turn, treasuries 200).
"""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.orders import ScriptedDecider
from sim.rules import mn as dip
from sim.state.mn import ScriptedEvent, War
from tests.mn.common import buy, last, make_world, post, world_of


def _launch(mn, cfg, led, city: str, kind: str, gift: int = 0):  # noqa: ANN001, ANN202
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, city, kind, gift), led, cfg)
    mn.turn = m.arrival_turn
    return a, m


# ---- RES-MN-02: where an ambassador is ---------------------------------------------------------------------
@pytest.mark.rule("RES-MN-02", "MN-OUT-03", "RES-MN-01")
def test_a_dismissed_ambassador_leaves_the_city_and_is_home_without_a_return_turn() -> None:
    """Dismissed at Massalia in turn 6 (70 − 5 = 65 >= 60): he is no longer at Massalia (``city`` is where he
    goes, is posted or held), travelling home until turn 7; home in turn 7, nothing left to wait for."""
    mn, cfg, led = make_world(turn=5)
    a, m = _launch(mn, cfg, led, "massalia", "commercial")
    assert a.city == "massalia"
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)
    assert (a.state, a.city, a.returns_turn) == ("travelling", None, 7)
    mn.turn = 7
    assert dip.return_if_due(mn, a, led)
    assert (a.state, a.city, a.returns_turn, a.since) == ("home", None, None, 7)


# ---- counts of the campaign ---------------------------------------------------------------------------------
@pytest.mark.rule("MN-HOST-01", "RES-MN-04", "MN-TRE-01")
def test_the_counts_of_host_choices_and_treaties_signed() -> None:
    """Two missions to Corinthus (P2's): one dismissed, one imprisoned; a very warm welcome at Massalia signs
    one treaty."""
    mn, cfg, led = make_world(turn=5)
    _, m = _launch(mn, cfg, led, "corinthus", "commercial")
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "dismiss"), led, cfg)
    mn.turn = 5
    _, m = _launch(mn, cfg, led, "corinthus", "commercial")
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "imprison", 20), led, cfg)
    assert (mn.stats.host_dismiss, mn.stats.host_imprison) == (1, 1)
    mn.turn = 5
    _, m = _launch(mn, cfg, led, "massalia", "commercial")
    dip.resolve_test(mn, m, ScriptedDice(["d100=31"]), led, cfg)  # 31 − 5 = 26: margin 34, very warm
    assert mn.stats.treaties_signed == 1


# ---- MN-TRE-03: raising an army under an alliance ----------------------------------------------------------
@pytest.mark.rule("MN-TRE-03", "RES-MN-17")
def test_only_the_nation_holding_an_alliance_is_offered_to_raise_an_army_under_it() -> None:
    """P1's military alliance with Massalia lets P1 raise an army in Gallia (MN-TRE-03); P2 is offered none."""
    mn, cfg, _ = make_world(turn=5)
    _, _, t = post(mn, "p1", "massalia", kind="alliance")
    assert t is not None
    w = world_of(mn, cfg)
    assert dip.RaiseArmy(t.id) in dip.legal_orders(w, "p1", slot="military")
    assert not [o for o in dip.legal_orders(w, "p2", slot="military") if isinstance(o, dip.RaiseArmy)]


# ---- MN-HOST-01 / RES-MN-04: the host chooses when the mission arrives --------------------------------------
@pytest.mark.rule("MN-HOST-01", "RES-MN-04", "RES-MN-02")
def test_a_host_cannot_choose_before_the_mission_arrives() -> None:
    """Launched in turn 5 from Latium to Corinthus (1 turn): P2 chooses in turn 6, not in turn 5."""
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "commercial"), led, cfg)
    with pytest.raises(IllegalOrderError, match=f"RES-MN-04.*no mission #{m.id} arriving this turn"):
        dip.check(world_of(mn, cfg), "p2", dip.HostChoice(m.id, "accept"))
    mn.turn = 6
    dip.check(world_of(mn, cfg), "p2", dip.HostChoice(m.id, "accept"))


# ---- RES-MN-03: contact ------------------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-03", "MN-MIS-03")
def test_an_ambassador_at_an_uncontrolled_city_puts_no_player_in_contact() -> None:
    """Contact needs an ambassador of one player at post in a city of the other: P1 at Massalia and P2 at
    Neapolis (uncontrolled) are not in contact; P2 at Roma (P1's) is."""
    mn, cfg, _ = make_world(turn=5)
    post(mn, "p1", "massalia")
    post(mn, "p2", "neapolis")
    assert not dip.in_contact(mn, "p1", "p2") and not dip.in_contact(mn, "p2", "p1")
    post(mn, "p2", "roma")
    assert dip.in_contact(mn, "p1", "p2") and dip.in_contact(mn, "p2", "p1")


# ---- RES-MN-06 / MN-TRE-07: obligations, peace, honour, breaks ---------------------------------------------
@pytest.mark.rule("RES-MN-06", "SC-MN-02", "MN-TRE-05")
def test_peace_lapses_only_the_obligations_of_that_war() -> None:
    """Syracusae makes war on Rhodos and on Athenae: P1 (pact with Rhodos) and P2 (pact with Athenae) must
    intervene. Peace between Syracusae and Rhodos frees P1 only."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p1", "rhodos", kind="pact")
    post(mn, "p2", "athenae", kind="pact")
    [ob1] = dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:rhodos"), led, cfg)
    [ob2] = dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:athenae"), led, cfg)
    dip.make_peace(mn, "city:syracusae", "city:rhodos", led)
    assert (ob1.status, ob2.status) == ("lapsed", "open")


@pytest.mark.rule("RES-MN-06", "MN-TRE-07")
def test_only_the_obliged_nation_may_honour_its_obligation() -> None:
    """P1 must intervene for Rhodos; P2 cannot honour P1's obligation."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p1", "rhodos", kind="pact")
    [ob] = dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:rhodos"), led, cfg)
    with pytest.raises(IllegalOrderError, match=f"RES-MN-06.*p2 has no open obligation #{ob.id}"):
        dip.resolve_honour(mn, "p2", dip.HonourPact(ob.id), led, cfg)
    assert ob.status == "open" and led.of_kind("PactHonoured") == []


@pytest.mark.rule("MN-TRE-07", "RES-MN-06")
def test_honouring_a_pact_is_a_war_with_the_aggressor_by_the_pact() -> None:
    """MN-TRE-07: the eternal friend severs relations with the aggressor "as if directly at war": P1 and P2 are
    then at war, a war that comes from the pact."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p1", "rhodos", kind="pact")
    [ob] = dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("city:rhodos"), led, cfg)
    dip.resolve_honour(mn, "p1", dip.HonourPact(ob.id), led, cfg)
    assert War("nation:p1", "nation:p2", 5, by_pact=True) in mn.wars


@pytest.mark.rule("RES-MN-17", "MN-TRE-08")
def test_a_nation_cannot_break_a_treaty_it_is_not_party_to() -> None:
    mn, cfg, led = make_world(turn=5)
    _, _, t = post(mn, "p1", "rhodos", kind="pact")
    assert t is not None
    with pytest.raises(IllegalOrderError, match=f"RES-MN-17.*p2 is party to no treaty #{t.id}"):
        dip.resolve_break(mn, "p2", dip.BreakTreaty(t.id), ScriptedDice(["d4=1"]), led, cfg)
    assert t in mn.treaties and led.of_kind("PactBroken") == []


@pytest.mark.rule("MN-TRE-06")
def test_two_pacts_held_by_one_nation_break_an_invariant() -> None:
    """MN-TRE-06: one eternal friendship pact at a time; a state with two is reported."""
    mn, _, _ = make_world(turn=5)
    post(mn, "p1", "rhodos", kind="pact")
    assert dip.invariant_problems(mn) == []
    post(mn, "p1", "athenae", kind="pact")
    assert dip.invariant_problems(mn) == ["nation p1 has 2 eternal friendship pacts (MN-TRE-06)"]


# ---- RES-MN-13: renewals -------------------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-13", "MN-MIS-02", "RES-MN-12")
def test_a_renewal_pays_the_fee_and_the_gift_and_names_an_unknown_nation() -> None:
    """A renewal costs the 30 PO fee + the gift (5): the RenewalLaunched event's total is 35. An unknown
    nation is a malformed order."""
    mn, cfg, led = make_world(turn=9)
    _, e, _ = post(mn, "p1", "massalia", kind="commercial", last_turn=9, installed=6)
    with pytest.raises(InvalidOrderError, match="unknown nation 'p9'"):
        dip.resolve_renew(mn, "p9", dip.RenewTreaty(e.id, 5), led, cfg)
    dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id, 5), led, cfg)
    ev = last(led, "RenewalLaunched")
    assert (ev.total, ev.data["fee"], ev.data["gift"], ev.data["treasury"]) == (35, 30, 5, 165)


# ---- SC-MN-06: income --------------------------------------------------------------------------------------
@pytest.mark.rule("SC-MN-06")
def test_income_counts_20_po_per_province() -> None:
    """P1 holds Latium and Numidia: 2 × 20 PO, + 10 PO per resource type (grain, wine, horses: 3) and each
    monopoly twice (all three are P1's alone: +3 × 10) = 40 + 30 + 30 = 100 PO."""
    mn, cfg, led = make_world(turn=5)
    mn.nations["p1"].provinces = ["Latium", "Numidia"]
    total, types, mono = dip.income_of(mn, cfg, "p1")
    assert (total, types, mono) == (100, ["grain", "horses", "wine"], ["grain", "horses", "wine"])


# ---- SC-MN-03 / RES-MN-17: the whole turn -------------------------------------------------------------------
@pytest.mark.rule("RES-MN-17", "SC-MN-03")
def test_the_turn_refuses_an_answer_the_rules_do_not_allow_even_where_it_would_do_nothing() -> None:
    """Every answer is checked before anything else: paying the ransom of an ambassador who is not held is
    refused (RES-MN-14), even as the answer to the buy question, where it would not be resolved."""
    mn, cfg, led = make_world(turn=4)
    decider = ScriptedDecider({("nation:p1", "buy"): [dip.PayRansom("p1-9")]}, default="first")
    with pytest.raises(IllegalOrderError, match="RES-MN-14.*'p1-9' is not an imprisoned ambassador of p1"):
        dip.resolve_turn(world_of(mn, cfg), 5, decider, ScriptedDice(), led)


@pytest.mark.rule("RES-MN-02", "SC-MN-03", "MN-OUT-03")
def test_a_returning_ambassador_is_home_in_the_turn_he_returns() -> None:
    """Dismissed in turn 6 (home in turn 7): turn 7's phase (2) brings him home, and he may then be sent on a
    new mission at once."""
    mn, cfg, led = make_world(turn=5)
    a, m = _launch(mn, cfg, led, "massalia", "commercial")
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)
    decider = ScriptedDecider(default="first")
    dip.resolve_turn(world_of(mn, cfg), 7, decider, ScriptedDice(), led)
    assert a.state == "home" and last(led, "AmbassadorReturned").actor == f"ambassador:{a.id}"
    assert ("nation:p1", "ambassador") in decider.asked


@pytest.mark.rule("SC-MN-03", "LINK-03", "MN-MIS-02")
def test_the_treasury_hook_is_settled_after_a_mission_is_paid() -> None:
    """LINK-03: the one treasury is settled after every order that costs PO: here a mission (fee 30 PO),
    then the income."""
    mn, cfg, led = make_world(turn=4)
    a = buy(mn, "p1")
    settled: list[str] = []

    class Books:
        def settle(self, what: str = "") -> None:
            settled.append(what)

    launch = [lambda legal, ctx: next(o for o in legal if isinstance(o, dip.LaunchMission))]
    decider = ScriptedDecider({("nation:p1", "ambassador"): launch}, default="first")
    dip.resolve_turn(world_of(mn, cfg), 5, decider, ScriptedDice(), led, hooks=dip.MnHooks(treasury=lambda w, led: Books()))
    assert a.state == "travelling" and settled == ["mission", "income"]


@pytest.mark.rule("SC-MN-05", "SC-MN-03")
def test_a_scenario_war_happens_in_its_own_turn() -> None:
    """A scripted war of turn 6 (Carthago on Syracusae) is not declared in turn 5; it is in turn 6."""
    mn, cfg, led = make_world(turn=4)
    mn.script = [ScriptedEvent(6, "war", "city:carthago", "city:syracusae")]
    dip.resolve_turn(world_of(mn, cfg), 5, ScriptedDecider(default="first"), ScriptedDice(), led)
    assert not dip.at_war(mn, "city:carthago", "city:syracusae")
    dip.resolve_turn(world_of(mn, cfg), 6, ScriptedDecider(default="first"), ScriptedDice(), led)
    assert dip.at_war(mn, "city:carthago", "city:syracusae")
