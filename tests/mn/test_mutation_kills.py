"""Tests written against surviving mutants of tools/mutate.py (issue 10): each one pins a piece of MN
behaviour (sim/rules/mn/, once diplomacy.py) that a mutant changed without any earlier test noticing.

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments); the
world is the common one of tests/mn/common.py (RF(Latium, greeks) = +5, all travel 1 turn).
"""

from __future__ import annotations

import msgspec
import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.rules import mn as dip
from sim.state.mn import ScriptedEvent, Treaty
from tests.mn.common import buy, last, make_world, post, world_of

# an order file holds one order (or a list of them) tagged by ``order``
AnyOrder = dip.Pass | dip.BuyAmbassador | dip.LaunchMission | dip.RenewTreaty | dip.Recall | dip.HostChoice | \
    dip.SignTreaty | dip.BreakTreaty | dip.DeclareWar | dip.RaiseArmy | dip.HonourPact | dip.PayRansom | \
    dip.Interfere | dip.InterferenceSign | dip.Consent


def _decode(text: str) -> dip.Order:
    return msgspec.json.decode(text.encode(), type=AnyOrder)  # type: ignore[no-any-return]


# ---- orders and their files (RES-MN-17) ------------------------------------------------------------
@pytest.mark.rule("RES-MN-17", "MN-MIS-02", "MN-MOD-07", "RES-MN-12")
def test_a_gift_that_empties_the_treasury_exactly_is_offered() -> None:
    """With 60 PO the offered gifts are those of the menu with 30 + gift <= 60."""
    mn, cfg, _ = make_world(turn=4, treasury=60)
    a = buy(mn, "p1")
    launches = [o for o in dip.legal_orders(world_of(mn, cfg), "p1", slot="ambassador", subject=a)
                if isinstance(o, dip.LaunchMission) and o.city == "massalia" and o.treaty == "commercial"]
    # menu 0, 5, 10, 15, 20, 30, 40; fee 30 (MN-MIS-02): 30 + 30 = 60 <= 60 is offered, 30 + 40 = 70 is not
    assert [o.gift for o in launches] == [0, 5, 10, 15, 20, 30]


@pytest.mark.rule("RES-MN-04", "MN-HOST-01")
def test_an_imprison_order_without_a_ransom_demands_none() -> None:
    """An order file's host choice without ``ransom`` means a ransom of 0 PO."""
    o = _decode('{"order": "host_choice", "mission": 7, "choice": "imprison"}')
    assert o == dip.HostChoice(7, "imprison", 0)
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "commercial"), led, cfg)
    mn.turn = 6
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "imprison"), led, cfg)
    assert (a.state, a.ransom) == ("imprisoned", 0)
    assert last(led, "HostChose").data["ransom"] == 0
    assert last(led, "AmbassadorImprisoned").data["ransom"] == 0


@pytest.mark.rule("MN-INT-01", "RES-MN-16")
def test_an_order_file_may_subtract_the_d20() -> None:
    """MN-INT-01: the d20 is added or subtracted; an order file's sign is +1 or -1 (nothing else)."""
    assert _decode('{"order": "interference_sign", "sign": -1}') == dip.InterferenceSign(-1)
    assert _decode('{"order": "interference_sign", "sign": 1}') == dip.InterferenceSign(1)
    with pytest.raises(msgspec.ValidationError):
        _decode('{"order": "interference_sign", "sign": 0}')


@pytest.mark.rule("RES-MN-04", "MN-HOST-01")
def test_the_label_of_a_host_choice_shows_the_ransom_of_an_imprisonment_only() -> None:
    """The ledger's decisions label an imprisonment with its ransom, and no other choice with one."""
    assert dip.order_label(dip.HostChoice(3, "imprison", 20)) == "imprison #3 ransom 20"
    assert dip.order_label(dip.HostChoice(3, "accept")) == "accept #3"
    assert dip.order_label(dip.HostChoice(3, "dismiss")) == "dismiss #3"


# ---- parties ----------------------------------------------------------------------------------------
@pytest.mark.rule("SC-MN-05", "SC-MN-02")
def test_war_needs_two_known_parties() -> None:
    """An unknown nation can neither declare war nor be declared war on; nothing is recorded."""
    mn, cfg, led = make_world()
    with pytest.raises(InvalidOrderError, match="unknown party"):
        dip.resolve_declare_war(mn, "nation:p9", dip.DeclareWar("city:massalia"), led, cfg)
    with pytest.raises(InvalidOrderError, match="unknown party"):
        dip.resolve_declare_war(mn, "city:massalia", dip.DeclareWar("nation:p9"), led, cfg)
    with pytest.raises(InvalidOrderError, match="unknown party"):
        dip.resolve_declare_war(mn, "city:atlantis", dip.DeclareWar("nation:p1"), led, cfg)
    assert mn.wars == [] and led.of_kind("WarDeclared") == []


@pytest.mark.rule("SC-MN-01")
def test_party_names_in_english_and_french() -> None:
    """A party's French name is used only in French; English keeps the plain name."""
    mn, _, _ = make_world()
    mn.cities["neapolis"].name_fr = "Néapolis"
    assert dip.party_name(mn, "city:neapolis", "en") == "Neapolis"
    assert dip.party_name(mn, "city:neapolis", "fr") == "Néapolis"
    assert dip.party_name(mn, "city:massalia", "fr") == "Massalia"  # no French name: the plain one
    assert dip.party_name(mn, "nation:p1") == "P1"


# ---- travel and the ambassador's record ------------------------------------------------------------
@pytest.mark.rule("RES-MN-02", "RES-MN-01", "MN-OUT-03")
def test_a_mission_inside_its_home_province_takes_no_travel() -> None:
    """An ambassador of Gallia visiting Massalia (in Gallia) is tested at once and is home at once."""
    mn, cfg, led = make_world(turn=5)
    mn.nations["p1"].provinces = ["Gallia", "Latium"]
    a = dip.resolve_buy(mn, "p1", dip.BuyAmbassador("Gallia"), led, cfg)
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    assert m.arrival_turn == 5  # T + travel_turns(Gallia, Gallia) = 5 + 0
    # RF(Gallia, greeks) = 0: score 70 >= 60 and 70 - 60 = 10 < 20: failure
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)
    assert (a.state, a.returns_turn) == ("home", None)
    assert last(led, "AmbassadorSentHome").data["travel_turns"] == 0


@pytest.mark.rule("RES-MN-02", "MN-OUT-03", "RES-MN-01")
def test_a_returning_ambassador_changes_state_in_the_turn_he_is_home() -> None:
    """``since`` is the turn of the ambassador's last change of state: his return home."""
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)  # 70 - 5 = 65 >= 60, 65 - 60 < 20: failure
    assert (a.state, a.since, a.returns_turn) == ("travelling", 6, 7)  # 6 + 1 turn of travel
    mn.turn = 7
    assert dip.advance_travel(mn, led) == [a]
    assert (a.state, a.since) == ("home", 7)


@pytest.mark.rule("MN-OUT-01", "RES-MN-13", "RES-MN-01")
def test_an_installed_ambassador_is_at_post_since_his_arrival() -> None:
    """Launched in turn 5, welcomed in turn 6: at post since turn 6."""
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    assert a.since == 5
    mn.turn = 6
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=10"]), led, cfg)  # 10 - 5 = 5; 60 - 5 = 55 >= 20: very warm
    assert r.band == "very_warm"
    assert (a.state, a.city, a.since) == ("at_post", "massalia", 6)


# ---- treaties, embassies, imports ------------------------------------------------------------------
@pytest.mark.rule("RES-MN-05", "RES-MN-17", "MN-TRE-02")
def test_breaking_a_commercial_agreement_removes_the_imported_types() -> None:
    """The ImportsChanged events of a break list what each side loses."""
    mn, cfg, led = make_world(turn=5)
    _, _, t = post(mn, "p1", "massalia", kind="commercial")
    assert t is not None and dip.importable(mn, "p1") == {"salt"}  # Gallia produces salt
    dip.resolve_break(mn, "p1", dip.BreakTreaty(t.id), ScriptedDice([]), led, cfg)
    changes = {e.actor: e.data for e in led.of_kind("ImportsChanged")}
    assert changes["nation:p1"]["removed"] == ["salt"] and changes["nation:p1"]["added"] == []
    assert changes["nation:p1"]["importable"] == []
    assert changes["city:massalia"]["removed"] == ["grain", "wine"]  # Latium's resources
    assert dip.importable(mn, "p1") == set()


@pytest.mark.rule("MN-EMB-01", "RES-MN-17")
def test_a_treaty_ended_by_a_closed_embassy_counts_as_ended() -> None:
    """Neither expired nor broken: the recall's treaty end is counted as ended."""
    mn, cfg, led = make_world(turn=5)
    a, _, _ = post(mn, "p1", "massalia", kind="commercial")
    dip.resolve_recall(mn, "p1", dip.Recall(a.id), led, cfg)
    assert last(led, "TreatyEnded").outcome == "embassy closed"
    s = mn.stats
    assert (s.treaties_ended, s.treaties_broken, s.treaties_expired, s.embassies_closed) == (1, 0, 0, 1)


@pytest.mark.rule("MN-INT-02", "RES-MN-16", "MN-EMB-01", "RES-MN-13")
def test_an_expelled_meddler_loses_the_renewal_he_was_negotiating() -> None:
    """P1 renews its limited embassy at Massalia in its expiry turn, then meddles in P2's test and rolls
    20: the embassy closes and the renewal mission is aborted."""
    mn, cfg, led = make_world(turn=4)
    a1, e, t = post(mn, "p1", "massalia", kind="commercial", last_turn=5)
    b = buy(mn, "p2")
    m2 = dip.resolve_launch(mn, "p2", dip.LaunchMission(b.id, "massalia", "commercial"), led, cfg)  # arrives in 5
    mn.turn = 5
    renewal = dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id), led, cfg)
    assert a1.mission == renewal.id
    # RF(Achaea, greeks) = 0: score 50, then +20 = 70 >= 60, 70 - 60 = 10 < 20: failure
    r = dip.resolve_test(mn, m2, ScriptedDice(["d100=50", "d20=20"]), led, cfg, dip.ScriptedInterference({"p1": "+"}))
    assert (r.band, r.score) == ("failure", 70)
    aborted = last(led, "MissionAborted")
    assert (aborted.outcome, aborted.data["mission"]) == ("embassy closed", renewal.id)
    assert renewal not in mn.missions and a1.mission is None and a1.state == "travelling"
    assert t not in mn.treaties and e not in mn.embassies
    assert (mn.stats.interferences, mn.stats.plots_discovered) == (1, 1)  # one d20, and it showed 20


# ---- launching, hosts, cut relations ---------------------------------------------------------------
@pytest.mark.rule("RES-MN-17", "MN-MIS-02")
def test_an_unknown_nation_cannot_launch_a_mission() -> None:
    """A launch order of a nation that does not exist is invalid (not a crash)."""
    mn, cfg, led = make_world()
    a = buy(mn, "p1")
    with pytest.raises(InvalidOrderError, match="unknown nation 'p9'"):
        dip.resolve_launch(mn, "p9", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    assert mn.missions == [] and a.state == "home"


@pytest.mark.rule("MN-MIS-02", "RES-MN-12", "RES-MN-01", "RES-MN-02")
def test_a_launched_mission_costs_fee_plus_gift_and_names_its_city() -> None:
    """The MissionLaunched total is 30 + gift; the travelling ambassador is bound for the target city."""
    mn, cfg, led = make_world(turn=5, treasury=200)
    a = buy(mn, "p1")
    dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial", 12), led, cfg)
    ev = last(led, "MissionLaunched")
    assert (ev.total, ev.data["fee"], ev.data["gift"]) == (42, 30, 12)  # 30 + 12
    assert ev.data["treasury"] == 158  # 200 - 42
    assert (a.state, a.city) == ("travelling", "massalia")


@pytest.mark.rule("MN-HOST-01", "MN-HOST-02", "RES-MN-04")
def test_an_accepting_host_demands_no_ransom_and_is_counted() -> None:
    """HostChose of an accept carries ransom 0; the host's acceptance is counted."""
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "commercial"), led, cfg)
    mn.turn = 6
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "accept", 40), led, cfg)  # a ransom only for imprison
    ev = last(led, "HostChose")
    assert (ev.outcome, ev.data["ransom"]) == ("accept", 0)
    assert (mn.stats.host_accept, mn.stats.host_dismiss, mn.stats.host_execute, mn.stats.host_imprison) == (1, 0, 0, 0)
    assert (a.state, a.since) == ("at_post", 6)


@pytest.mark.rule("MN-HOST-01", "RES-MN-04")
def test_an_executed_ambassador_is_dead_since_the_turn_of_his_execution() -> None:
    """Launched in turn 5, executed by the host in turn 6."""
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "pact"), led, cfg)
    mn.turn = 6
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "execute"), led, cfg)
    assert (a.state, a.since, a.mission) == ("dead", 6, None)
    assert mn.stats.host_execute == 1


@pytest.mark.rule("RES-MN-07", "MN-TRE-08", "RES-MN-02")
def test_a_mission_arriving_while_relations_are_cut_goes_home_untried() -> None:
    """P1 sends a mission to Rhodos in turn 5 and breaks its pact with Rhodos the same turn (cut 1 year);
    the mission arrives in turn 6, is aborted and its ambassador travels home."""
    mn, cfg, led = make_world(turn=5)
    _, _, pact = post(mn, "p1", "rhodos", kind="pact")
    assert pact is not None
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "rhodos", "commercial"), led, cfg)
    dip.resolve_break(mn, "p1", dip.BreakTreaty(pact.id), ScriptedDice(["d4=1"]), led, cfg)  # peacetime
    assert last(led, "PactBroken").data["cut_through_turn"] == 9  # 5 + 1 year × 4 turns
    mn.turn = 6
    assert dip.abort_if_cut(mn, cfg, led, m) is True
    ev = last(led, "MissionAborted")
    assert (ev.outcome, ev.data["mission"], ev.data["through_turn"]) == ("relations cut", m.id, 9)
    assert m not in mn.missions and led.of_kind("DiplomacyTestRolled") == []
    assert (a.state, a.mission, a.returns_turn) == ("travelling", None, 7)  # 6 + 1 turn back to Latium


# ---- interference -----------------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-16", "MN-INT-01", "MN-TEST-02")
def test_without_a_chooser_nobody_interferes() -> None:
    """P2 is at post at Massalia but no chooser is given: nobody interferes and no d20 is drawn."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p2", "massalia")
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    dice = ScriptedDice(["d100=50", "d20=20"])
    r = dip.resolve_test(mn, m, dice, led, cfg)
    assert (r.score, r.band, r.interference) == (45, "limited", [])  # 50 - RF 5 = 45; 60 - 45 = 15 < 20: limited
    assert r.duration == 3  # ceil(15 / 5)
    assert led.of_kind("InterferenceRolled") == [] and mn.stats.interferences == 0
    assert (mn.stats.tests, mn.stats.limited, mn.stats.failures) == (1, 1, 0)


# ---- the test's record ------------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-13", "RES-MN-18", "MN-OUT-01", "MN-TEST-02")
def test_a_renewal_test_cites_the_renewal_clauses() -> None:
    """A renewal's DiplomacyTestRolled names RES-MN-13 and RES-MN-18; a first mission's does not."""
    mn, cfg, led = make_world(turn=5)
    _, e, t = post(mn, "p1", "massalia", kind="commercial", last_turn=5)  # installed in turn 0: age 5 < 8, no MN-MOD-06
    assert t is not None
    r = dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id), led, cfg)
    res = dip.resolve_test(mn, r, ScriptedDice(["d100=10"]), led, cfg)  # 10 - 5 = 5; 60 - 5 = 55 >= 20: very warm
    assert res.band == "very_warm"
    ev = last(led, "DiplomacyTestRolled")
    assert "RES-MN-13" in ev.clauses and "RES-MN-18" in ev.clauses and ev.data["renewal"] is True
    assert (t.last_turn, t.renewed_turn, e.last_turn) == (None, 5, None)  # renewed permanent in turn 5
    b = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(b.id, "neapolis", "commercial"), led, cfg)
    mn.turn = 6
    dip.resolve_test(mn, m, ScriptedDice(["d100=10"]), led, cfg)
    ev = last(led, "DiplomacyTestRolled")
    assert "RES-MN-13" not in ev.clauses and "RES-MN-18" not in ev.clauses and ev.data["renewal"] is False
    assert (mn.stats.tests, mn.stats.very_warm, mn.stats.renewals) == (2, 2, 1)


@pytest.mark.rule("MN-INT-02", "RES-MN-16", "MN-EMB-01")
def test_the_meddler_is_the_nations_ambassador_in_the_visited_city() -> None:
    """P2 holds an older embassy at Neapolis and one at Massalia; its meddling at Massalia is done by
    the Massalia ambassador, who alone is expelled on a 20."""
    mn, cfg, led = make_world(turn=5)
    _, at_neapolis, _ = post(mn, "p2", "neapolis")  # the lower id
    b, at_massalia, _ = post(mn, "p2", "massalia")
    assert at_neapolis.id < at_massalia.id
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    # 30 - 5 = 25, then +20 = 45 < 60: limited, 60 - 45 = 15, ceil(15 / 5) = 3 turns
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=30", "d20=20"]), led, cfg, dip.ScriptedInterference({"p2": "+"}))
    assert (r.score, r.band, r.duration) == (45, "limited", 3)
    assert last(led, "InterferenceRolled").data["ambassador"] == b.id
    assert last(led, "AmbassadorExpelled").data["ambassador"] == b.id
    assert at_massalia not in mn.embassies and at_neapolis in mn.embassies


# ---- player-player treaties --------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-04", "RES-MN-03", "MN-HOST-02")
def test_a_treaty_needs_another_known_player() -> None:
    """No treaty with oneself or with an unknown player; an unknown nation cannot propose one."""
    mn, cfg, led = make_world()
    w = world_of(mn, cfg)
    for partner in ("p1", "p9"):
        with pytest.raises(IllegalOrderError) as err:
            dip.check(w, "p1", dip.SignTreaty(partner, "commercial"))
        assert (err.value.clause, err.value.reason) == ("RES-MN-04", f"no other player {partner!r}")
    with pytest.raises(IllegalOrderError, match="RES-MN-04.*no other player 'p1'"):
        dip.resolve_sign(mn, "p1", dip.SignTreaty("p1", "commercial"), led, cfg)
    with pytest.raises(InvalidOrderError, match="unknown nation 'p9'"):
        dip.resolve_sign(mn, "p9", dip.SignTreaty("p1", "commercial"), led, cfg)
    assert led.of_kind("TreatyProposed") == []


@pytest.mark.rule("RES-MN-04", "RES-MN-03", "MN-HOST-02", "MN-TRE-02")
def test_a_proposal_is_recorded_whether_agreed_or_refused() -> None:
    """TreatyProposed records each proposal between players in contact and its answer."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p1", "corinthus")  # P1 at post in P2's city: in contact (RES-MN-03)
    refused = dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "pact"), led, cfg, consent=False)
    assert refused is None
    ev = last(led, "TreatyProposed")
    assert (ev.outcome, ev.data["partner"], ev.data["type"]) == ("refused", "p2", "pact")
    t = dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "commercial"), led, cfg)
    assert t is not None and t.last_turn is None
    ev = last(led, "TreatyProposed")
    assert (ev.outcome, ev.data["partner"], ev.data["type"]) == ("agreed", "p2", "commercial")
    assert len(led.of_kind("TreatyProposed")) == 2


# ---- invasions ------------------------------------------------------------------------------------------
@pytest.mark.rule("SC-MN-07", "SC-MN-02", "RES-MN-10")
def test_invasions_and_repulses_are_counted_and_told_by_the_attackers_party() -> None:
    """An invasion from Latium is P1's; one from Numidia (no city, no nation) is the world's."""
    mn, _, led = make_world(turn=5)
    dip.record_invasion(mn, led, "Latium", "Africa", False)
    ev = last(led, "InvasionRecorded")
    assert (ev.actor, ev.data["attacker_party"]) == ("nation:p1", "nation:p1")
    dip.record_invasion(mn, led, "Numidia", "Latium", True)
    ev = last(led, "RepulseRecorded")
    assert (ev.actor, ev.data["attacker_party"]) == ("world", None)
    dip.record_invasion(mn, led, "Gallia", "Sicilia", False)
    assert last(led, "InvasionRecorded").actor == "city:massalia"
    assert (mn.stats.invasions, mn.stats.repulses) == (2, 1)


# ---- pacts: peace and breaks ---------------------------------------------------------------------------
@pytest.mark.rule("MN-TRE-05", "RES-MN-06", "SC-MN-02")
def test_peace_lapses_the_obligation_the_war_raised() -> None:
    """Syracusae attacks P1's eternal friend Rhodos: P1 must intervene; peace lapses that obligation, so
    nothing is broken when its deadline passes."""
    mn, cfg, led = make_world(turn=5)
    _, _, pact = post(mn, "p1", "rhodos", kind="pact")
    assert pact is not None
    [ob] = dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:rhodos"), led, cfg)
    assert (ob.nation, ob.ally, ob.aggressor, ob.status, ob.deadline_turn) == ("p1", "city:rhodos", "city:syracusae", "open", 6)
    dip.make_peace(mn, "city:syracusae", "city:rhodos", led)
    assert ob.status == "lapsed"
    mn.turn = 6  # the deadline (5 + pact_response_turns 1)
    dip.end_of_turn(mn, lambda n: ScriptedDice(["d4=1"]), led, cfg)
    assert led.of_kind("PactBroken") == [] and pact in mn.treaties
    assert dip.rf(mn, "Latium", "rhodians") == 5


@pytest.mark.rule("MN-TRE-08", "RES-MN-09", "RES-MN-07")
def test_the_proposer_of_a_player_pact_who_breaks_it_loses_rf_at_his_capital() -> None:
    """P1 signs a pact with P2 and breaks it in peacetime: RF(Latium, achaeans) 0 → -15, cut 1d4 years."""
    mn, cfg, led = make_world(turn=5)
    post(mn, "p1", "corinthus")  # in contact
    t = dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "pact"), led, cfg)
    assert t is not None and t.nation == "p1" and t.origin is None
    dip.resolve_break(mn, "p1", dip.BreakTreaty(t.id), ScriptedDice(["d4=2"]), led, cfg)
    ev = last(led, "PactBroken")
    assert (ev.outcome, ev.data["rf_province"], ev.data["people"]) == ("peacetime", "Latium", "achaeans")
    assert (ev.data["rf_before"], ev.data["rf_after"]) == (0, -15)  # peacetime: -15 (MN-TRE-08)
    assert dip.rf(mn, "Latium", "achaeans") == -15
    assert ev.data["cut_through_turn"] == 13  # 5 + 2 years × 4 turns


@pytest.mark.rule("MN-TRE-08", "RES-MN-07", "MN-EMB-01")
def test_a_pact_break_closes_only_the_embassies_between_the_two_parties() -> None:
    """P1 breaks its pact with Rhodos during Rhodos's war: P1's embassy at Rhodos closes; P1's embassy at
    Massalia, P2's at Rhodos and P2's at Roma stay open."""
    mn, cfg, led = make_world(turn=5)
    _, at_rhodos, pact = post(mn, "p1", "rhodos", kind="pact")
    _, at_massalia, _ = post(mn, "p1", "massalia")
    _, p2_rhodos, _ = post(mn, "p2", "rhodos")
    _, p2_roma, _ = post(mn, "p2", "roma")
    assert pact is not None
    dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:rhodos"), led, cfg)
    dip.resolve_break(mn, "p1", dip.BreakTreaty(pact.id), ScriptedDice(["d4=3"]), led, cfg)
    ev = last(led, "PactBroken")
    assert ev.outcome == "wartime" and (ev.data["rf_before"], ev.data["rf_after"]) == (5, -15)  # 5 - 20
    assert (mn.stats.pacts_broken_war, mn.stats.pacts_broken_peace) == (1, 0)
    assert at_rhodos not in mn.embassies
    assert at_massalia in mn.embassies and p2_rhodos in mn.embassies and p2_roma in mn.embassies


# ---- scenario actions ----------------------------------------------------------------------------------
@pytest.mark.rule("SC-MN-05", "SC-MN-02")
def test_scripted_war_and_peace() -> None:
    """A scenario's war event starts a war, its peace event ends it."""
    mn, cfg, led = make_world(turn=5)
    dip.apply_scripted(mn, ScriptedEvent(5, "war", "city:carthago", "city:syracusae"), led, cfg)
    assert dip.at_war(mn, "city:carthago", "city:syracusae")
    assert last(led, "WarDeclared").data["source"] == "scenario"
    dip.apply_scripted(mn, ScriptedEvent(5, "war", "city:carthago", "city:syracusae"), led, cfg)  # already at war
    assert len(mn.wars) == 1 and len(led.of_kind("WarDeclared")) == 1
    dip.apply_scripted(mn, ScriptedEvent(6, "peace", "city:carthago", "city:syracusae"), led, cfg)
    assert not dip.at_war(mn, "city:carthago", "city:syracusae") and mn.wars == []
    assert last(led, "PeaceMade").outcome == "peace"


# ---- Acclamation -------------------------------------------------------------------------------------
@pytest.mark.rule("RES-MN-04", "RES-MN-14", "SC-MN-09", "MN-HOST-01")
def test_a_paid_ransom_clears_the_prisoners_debt_and_is_counted() -> None:
    """P2 imprisons P1's envoy for 25 PO in turn 8 (a year's last turn); once paid, the ambassador owes
    nothing to anyone and travels home."""
    mn, cfg, led = make_world(turn=7)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "pact"), led, cfg)
    mn.turn = 8
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "imprison", 25), led, cfg)
    assert (a.ransom, a.ransom_to) == (25, "p2")
    dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
    assert (mn.nations["p1"].treasury, mn.nations["p2"].treasury) == (145, 225)  # 200 - 30 - 25; 200 + 25
    assert (a.ransom, a.ransom_to, a.state, a.returns_turn) == (0, None, "travelling", 9)
    assert mn.stats.ransoms_paid == 1


# ---- legal orders and invariants ---------------------------------------------------------------------
@pytest.mark.rule("RES-MN-17", "RES-MN-13", "MN-MIS-02", "MN-EMB-01")
def test_an_at_post_ambassador_may_renew_in_the_expiry_turn_or_be_recalled() -> None:
    """With 60 PO in the expiry turn: renewals with gifts up to 30 (30 + 30 = 60), then the recall; an
    imprisoned ambassador has nothing to do."""
    mn, cfg, _ = make_world(turn=5, treasury=60)
    a, e, _ = post(mn, "p1", "massalia", kind="commercial", last_turn=5)
    legal = dip.legal_orders(world_of(mn, cfg), "p1", slot="ambassador", subject=a)
    assert legal == [dip.Pass("ambassador"), *(dip.RenewTreaty(e.id, g) for g in (0, 5, 10, 15, 20, 30)), dip.Recall(a.id)]
    mn.turn = 4  # not the expiry turn: only the recall
    assert dip.legal_orders(world_of(mn, cfg), "p1", slot="ambassador", subject=a) == [dip.Pass("ambassador"), dip.Recall(a.id)]
    b = buy(mn, "p1")
    b.state, b.city, b.ransom = "imprisoned", "neapolis", 10
    assert dip.legal_orders(world_of(mn, cfg), "p1", slot="ambassador", subject=b) == [dip.Pass("ambassador")]


@pytest.mark.rule("RES-MN-07", "MN-TRE-08")
def test_a_treaty_signed_in_the_turn_relations_were_cut_breaks_the_invariant() -> None:
    """After a pact break in turn 5 (cut from turn 5), a treaty between the two parties dated turn 5 is
    reported; one dated turn 4 (before the cut) is not."""
    mn, cfg, led = make_world(turn=5)
    _, _, pact = post(mn, "p1", "rhodos", kind="pact")
    assert pact is not None
    dip.resolve_break(mn, "p1", dip.BreakTreaty(pact.id), ScriptedDice(["d4=1"]), led, cfg)
    assert dip.invariant_problems(mn) == []
    old = Treaty(mn.new_id(), "commercial", "p1", "city:rhodos", 4, None)
    mn.treaties.append(old)
    assert dip.invariant_problems(mn) == []
    new = Treaty(mn.new_id(), "commercial", "p1", "city:rhodos", 5, None)
    mn.treaties.append(new)
    assert dip.invariant_problems(mn) == [f"treaty #{new.id} signed while relations were cut (RES-MN-07)"]
