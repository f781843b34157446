"""The worked examples of RULES.md §7.2 (EX-MN-01…08) with their exact dice."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import mn as dip
from tests.mn.common import buy, kinds, last, make_world, post, world_of


def _launch(mn, cfg, led, city: str, treaty: str, gift: int = 0):  # noqa: ANN001, ANN202
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, city, treaty, gift), led, cfg)  # type: ignore[arg-type]
    mn.turn += 1  # all travel takes 1 turn in the examples' world
    assert m.arrival_turn == mn.turn
    return a, m


@pytest.mark.rule("MN-MIS-02", "MN-TEST-02", "MN-MOD-01", "MN-MOD-07", "MN-OUT-01", "RES-MN-08", "RES-MN-12", "RES-MN-15",
                  "RES-MN-05", "MN-TRE-02")
def test_ex_mn_01_very_warm_welcome_permanent_commercial_agreement() -> None:
    mn, cfg, led = make_world(turn=5)
    a, m = _launch(mn, cfg, led, "massalia", "commercial", 12)
    assert mn.nations["p1"].treasury == 158  # 200 - (30 + 12)
    dice = ScriptedDice(["d100=31"])
    r = dip.resolve_test(mn, m, dice, led, cfg)
    dice.assert_exhausted()
    assert (r.band, r.score, r.natural) == ("very_warm", 14, 31)  # 31 - (5 + 12); 60 - 14 = 46 >= 20
    ev = last(led, "DiplomacyTestRolled")
    assert (ev.dc, ev.total, ev.dice, ev.outcome) == (60, 14, ((100, 31),), "very_warm")
    assert ev.mods == (("racial factor RF(Latium, greeks) (MN-MOD-01)", -5), ("gift of 12 PO (MN-MOD-07)", -12))
    assert "MN-OUT-01" in ev.clauses and "MN-MOD-07" in ev.clauses
    [t] = mn.treaties
    assert (t.kind, t.partner, t.signed_turn, t.last_turn, t.via) == ("commercial", "city:massalia", 6, None, a.id)
    [e] = mn.embassies
    assert (e.city, e.installed_turn, e.last_turn) == ("massalia", 6, None)
    assert a.state == "at_post" and a.city == "massalia"
    assert mn.nations["p1"].treasury == 158
    assert {i.resource for i in mn.nations["p1"].imports} == {"salt"}
    assert {i.resource for i in mn.cities["massalia"].imports} == {"grain", "wine"}
    assert all(i.origin == "Latium" for i in mn.nations["p1"].imports)
    assert kinds(led) == ["MissionLaunched", "DiplomacyTestRolled", "EmbassyInstalled", "TreatySigned", "ImportsChanged",
                          "ImportsChanged"]


@pytest.mark.rule("MN-MOD-02", "MN-MOD-03", "MN-MOD-04", "RES-MN-10", "MN-INT-01", "RES-MN-16", "MN-OUT-03", "MN-MOD-08")
def test_ex_mn_02_interference_turns_a_narrow_success_into_a_failure() -> None:
    mn, cfg, led = make_world(turn=4)
    dip.record_invasion(mn, led, "Latium", "Sicilia", True)  # repelled in turn 4, two turns before the test
    mn.turn = 5
    post(mn, "p2", "syracusae")
    a, m = _launch(mn, cfg, led, "syracusae", "alliance")
    dice = ScriptedDice(["d100=22", "d20=7"])
    r = dip.resolve_test(mn, m, dice, led, cfg, dip.ScriptedInterference({"p2": "+"}))
    dice.assert_exhausted()
    assert (r.band, r.score) == ("failure", 44)  # 22 - (5 - 20) = 37, + 7 = 44 >= 40, 44 - 40 = 4 < 20
    ev = last(led, "DiplomacyTestRolled")
    assert ev.dc == 40 and ev.total == 44
    assert [c for _, c, _ in ev.data["modifiers"]] == ["MN-MOD-01", "MN-MOD-04"]  # no -10 four-year, no MN-MOD-02
    assert ev.mods[-1] == ("interference by nation:p2 (+d20, MN-MOD-08)", 7)
    inter = last(led, "InterferenceRolled")
    assert (inter.actor, inter.dice, inter.total, inter.outcome) == ("nation:p2", ((20, 7),), 7, "+")
    assert kinds(led)[-4:] == ["MissionLaunched", "InterferenceRolled", "DiplomacyTestRolled", "AmbassadorSentHome"]
    assert (a.state, a.returns_turn) == ("travelling", 7) and not mn.treaties
    mn.turn = 7
    dip.advance_travel(mn, led)
    assert a.state == "home"
    before = mn.nations["p1"].treasury
    dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    assert mn.nations["p1"].treasury == before - 30  # a new mission costs 30 PO again, no new ambassador


@pytest.mark.rule("MN-MOD-04", "MN-OUT-02", "RES-MN-10")
def test_ex_mn_02_without_the_interference_it_is_a_one_turn_treaty() -> None:
    mn, cfg, led = make_world(turn=4)
    dip.record_invasion(mn, led, "Latium", "Sicilia", True)
    mn.turn = 5
    a, m = _launch(mn, cfg, led, "syracusae", "alliance")
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=22"]), led, cfg)
    assert (r.band, r.score, r.duration) == ("limited", 37, 1)  # margin 3 -> ceil(3/5) = 1
    assert mn.treaties[0].last_turn == 7


@pytest.mark.rule("MN-MOD-02", "MN-OUT-02", "RES-MN-10", "RES-MN-13", "SC-MN-04")
def test_ex_mn_03_limited_treaty_duration() -> None:
    mn, cfg, led = make_world(turn=3)
    dip.record_invasion(mn, led, "Latium", "Numidia", False)  # not repelled, three turns before the test
    mn.turn = 5
    a, m = _launch(mn, cfg, led, "carthago", "commercial")
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=41"]), led, cfg)
    assert (r.band, r.score, r.duration) == ("limited", 51, 2)  # 41 - (0 - 10) = 51; 60 - 51 = 9 -> ceil(9/5) = 2
    ev = last(led, "DiplomacyTestRolled")
    assert ev.mods == (("racial factor RF(Latium, punics) (MN-MOD-01)", 0), ("punics province invaded within the year by Latium (MN-MOD-02)", 10))
    [t] = mn.treaties
    [e] = mn.embassies
    assert (t.signed_turn, t.last_turn, e.installed_turn, e.last_turn) == (6, 8, 6, 8)
    assert a.state == "at_post"
    no_dice = ScriptedDice([])
    for turn in (6, 7):
        mn.turn = turn
        dip.end_of_turn(mn, lambda n: no_dice, led, cfg)
        assert mn.treaties and mn.embassies  # in force through the end of turn 8
    mn.turn = 8
    dip.end_of_turn(mn, lambda n: no_dice, led, cfg)
    assert not mn.treaties and not mn.embassies
    assert (a.state, a.returns_turn) == ("travelling", 9)
    assert [e.outcome for e in led.of_kind("TreatyEnded")] == ["expired"]
    assert not mn.nations["p1"].imports


@pytest.mark.rule("MN-OUT-05", "RES-MN-15", "RES-MN-16", "RES-MN-09")
def test_ex_mn_04_catastrophe_overrides_modifiers() -> None:
    mn, cfg, led = make_world(turn=5)
    post(mn, "p2", "athenae")  # would interfere, but nobody does on a natural 96-00
    a, m = _launch(mn, cfg, led, "athenae", "pact", 50)
    dice = ScriptedDice(["d100=97"])
    r = dip.resolve_test(mn, m, dice, led, cfg, dip.ScriptedInterference({"p2": "+"}))
    dice.assert_exhausted()  # no d20 drawn
    assert r.band == "disaster" and r.score == 42  # 97 - 55: irrelevant
    assert a.state == "dead"
    assert not mn.treaties and dip.pact_of(mn, "p1") is None
    assert dip.rf(mn, "Latium", "greeks") == -5  # 5 - 10
    assert mn.nations["p1"].treasury == 120  # fee and gift lost
    assert not led.of_kind("InterferenceRolled")
    ex = last(led, "AmbassadorExecuted")
    assert (ex.data["rf_before"], ex.data["rf_after"]) == (5, -5)


@pytest.mark.rule("MN-OUT-04", "RES-MN-14", "MN-INT-01", "SC-MN-09")
@pytest.mark.parametrize("pays", [True, False])
def test_ex_mn_05_blunder_prison_and_ransom(pays: bool) -> None:
    mn, cfg, led = make_world(turn=5)
    mn.rf["Latium"]["rhodians"] = 0
    post(mn, "p2", "rhodos")
    a, m = _launch(mn, cfg, led, "rhodos", "pact")
    dice = ScriptedDice(["d100=35", "d20=6"])
    r = dip.resolve_test(mn, m, dice, led, cfg, dip.ScriptedInterference({"p2": "+"}))
    assert (r.band, r.score) == ("blunder", 41)  # 35 + 6; 41 - 20 = 21 >= 20
    assert (a.state, a.city, a.ransom, a.ransom_to) == ("imprisoned", "rhodos", 10, None)
    mn.turn = 7  # not an Acclamation turn
    with pytest.raises(IllegalOrderError, match=r"RES-MN-14.*Acclamation phase \(turn 7 has none\)"):
        dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
    mn.turn = 8  # the Acclamation phase that ends the year of the blunder
    assert dip.is_acclamation_turn(mn, cfg)
    if pays:
        dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
        assert mn.nations["p1"].treasury == 200 - 30 - 10
        assert (a.state, a.returns_turn) == ("travelling", 9)
        mn.turn = 9
        dip.advance_travel(mn, led)
        assert a.state == "home"
    else:
        for t in range(8, 14):
            mn.turn = t
            dip.end_of_turn(mn, lambda n: ScriptedDice([]), led, cfg)
            dip.advance_travel(mn, led)
        assert a.state == "imprisoned"


@pytest.mark.rule("MN-INT-02", "MN-EMB-01", "RES-MN-16", "MN-OUT-03")
def test_ex_mn_06_a_meddler_rolls_20_and_is_expelled() -> None:
    mn, cfg, led = make_world(turn=5)
    b, e2, t2 = post(mn, "p2", "neapolis", kind="commercial", last_turn=8)
    assert {i.resource for i in mn.nations["p2"].imports} == {"fish"}
    a, m = _launch(mn, cfg, led, "neapolis", "commercial")
    dice = ScriptedDice(["d100=50", "d20=20"])
    r = dip.resolve_test(mn, m, dice, led, cfg, dip.ScriptedInterference({"p2": "+"}))
    assert (r.band, r.score) == ("failure", 65)  # 50 - 5 + 20; 65 - 60 = 5: dismissed, not a blunder
    assert (a.state, a.returns_turn) == ("travelling", 7)
    assert (b.state, b.returns_turn) == ("travelling", 7)  # expelled, home next turn
    assert e2 not in mn.embassies and t2 not in mn.treaties
    assert not mn.nations["p2"].imports
    assert last(led, "InterferenceRolled").outcome == "plot discovered"
    assert last(led, "TreatyEnded").outcome == "embassy closed"
    assert kinds(led) == ["MissionLaunched", "InterferenceRolled", "DiplomacyTestRolled", "AmbassadorSentHome",
                          "AmbassadorExpelled", "EmbassyClosed", "TreatyEnded", "ImportsChanged", "ImportsChanged",
                          "AmbassadorSentHome"]


@pytest.mark.rule("MN-TRE-06", "MN-TRE-08", "RES-MN-06", "RES-MN-07", "RES-MN-09", "MN-TRE-05")
def test_ex_mn_07_breaking_a_pact_during_a_war() -> None:
    mn, cfg, led = make_world(turn=10)
    a, e, t = post(mn, "p1", "rhodos", kind="pact")
    [ob] = dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("city:rhodos"), led, cfg)
    assert (ob.nation, ob.ally, ob.aggressor, ob.deadline_turn) == ("p1", "city:rhodos", "nation:p2", 11)
    dice = ScriptedDice(["d4=2"])
    dip.resolve_break(mn, "p1", dip.BreakTreaty(t.id), dice, led, cfg)
    dice.assert_exhausted()
    assert dip.rf(mn, "Latium", "rhodians") == -15  # 5 - 20
    ev = last(led, "PactBroken")
    assert (ev.outcome, ev.dice, ev.data["cut_through_turn"], ev.data["cut_turns"]) == ("wartime", ((4, 2),), 18, 8)
    assert e not in mn.embassies and a.state == "travelling"
    assert dip.pact_of(mn, "p1") is None
    b = buy(mn, "p1")
    for turn in (10, 18):
        mn.turn = turn
        with pytest.raises(IllegalOrderError, match="RES-MN-07"):
            dip.resolve_launch(mn, "p1", dip.LaunchMission(b.id, "rhodos", "commercial"), led, cfg)
    dip.check(world_of(mn, cfg), "p1", dip.LaunchMission(b.id, "athenae", "pact"))  # legal: a new pact elsewhere
    mn.turn = 19
    dip.check(world_of(mn, cfg), "p1", dip.LaunchMission(b.id, "rhodos", "commercial"))  # legal again


@pytest.mark.rule("MN-TRE-08", "RES-MN-06", "RES-MN-07")
def test_ex_mn_07_doing_nothing_is_a_wartime_break_at_the_end_of_the_next_turn() -> None:
    mn, cfg, led = make_world(turn=10)
    post(mn, "p1", "rhodos", kind="pact")
    [ob] = dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("city:rhodos"), led, cfg)
    dice = ScriptedDice(["d4=2"])
    dip.end_of_turn(mn, lambda n: dice, led, cfg)  # end of turn 10: still within the response time
    assert dip.pact_of(mn, "p1") is not None
    mn.turn = 11
    dip.end_of_turn(mn, lambda n: dice, led, cfg)
    dice.assert_exhausted()
    assert dip.pact_of(mn, "p1") is None and not mn.obligations
    assert dip.rf(mn, "Latium", "rhodians") == -15  # the same -20 as a wartime break
    ev = last(led, "PactBroken")
    assert (ev.outcome, ev.data["cut_through_turn"], ev.data["obligation"]) == ("wartime", 19, ob.id)
    assert "RES-MN-06" in ev.clauses
    assert dip.relations_cut(mn, "nation:p1", "city:rhodos", 19) and not dip.relations_cut(mn, "nation:p1", "city:rhodos", 20)


@pytest.mark.rule("MN-HOST-01", "MN-HOST-02", "RES-MN-03", "RES-MN-04", "MN-MIS-03")
def test_ex_mn_08_host_demands_a_ransom() -> None:
    mn, cfg, led = make_world(turn=6)
    a, m = _launch(mn, cfg, led, "corinthus", "commercial")
    assert dip.needs_host(mn, m) == "p2"
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "imprison", 40), led, cfg)
    assert (a.state, a.ransom, a.ransom_to) == ("imprisoned", 40, "p2")
    assert not dip.in_contact(mn, "p1", "p2")
    with pytest.raises(IllegalOrderError, match="MN-MIS-03.*not in contact"):
        dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "commercial"), led, cfg)
    mn.turn = 8
    dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
    assert mn.nations["p1"].treasury == 200 - 30 - 40
    assert mn.nations["p2"].treasury == 240
    assert (a.state, a.returns_turn) == ("travelling", 9)


@pytest.mark.rule("MN-HOST-02", "RES-MN-03", "RES-MN-04", "MN-TRE-02")
def test_ex_mn_08_had_the_host_accepted_they_sign_without_a_test() -> None:
    mn, cfg, led = make_world(turn=6)
    a, m = _launch(mn, cfg, led, "corinthus", "commercial")
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "accept"), led, cfg)
    assert a.state == "at_post" and dip.in_contact(mn, "p1", "p2") and dip.in_contact(mn, "p2", "p1")
    t = dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "commercial"), led, cfg)
    assert t is not None and (t.kind, t.partner, t.last_turn) == ("commercial", "nation:p2", None)
    assert {i.resource for i in mn.nations["p1"].imports} == {"oil"}
    assert {i.resource for i in mn.nations["p2"].imports} == {"grain", "wine"}
    assert not led.of_kind("DiplomacyTestRolled")
    p = dip.resolve_sign(mn, "p2", dip.SignTreaty("p1", "pact"), led, cfg)
    assert p is not None and dip.pact_of(mn, "p1") is p and dip.pact_of(mn, "p2") is p
