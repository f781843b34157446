"""Treaties, embassies, pacts, wars and income (MN-TRE, MN-EMB, RES-MN-05…07/13, SC-MN-04…06/10)."""

from __future__ import annotations

import pytest

from sim.config import MnConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import mn as dip
from tests.mn.common import buy, last, make_world, post

NO_DICE = ScriptedDice([])


def _end(mn, cfg, led, dice=NO_DICE) -> None:  # noqa: ANN001
    dip.end_of_turn(mn, lambda n: dice, led, cfg)


@pytest.mark.rule("MN-TRE-01", "MN-TEST-01", "MN-TEST-02")
@pytest.mark.parametrize(("treaty", "threshold"), [("commercial", 60), ("alliance", 40), ("pact", 20)])
def test_three_treaty_types_and_their_thresholds(treaty: str, threshold: int) -> None:
    mn, cfg, led = make_world(turn=5)
    mn.rf = {}
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "carthago", treaty), led, cfg)  # type: ignore[arg-type]
    mn.turn = 6
    r = dip.resolve_test(mn, m, ScriptedDice([f"d100={threshold - 1}"]), led, cfg)  # one under: success
    assert (r.band, r.duration, r.threshold) == ("limited", 1, threshold)
    assert mn.treaties[0].kind == treaty
    mn, cfg, led = make_world(turn=5)
    mn.rf = {}
    b = buy(mn, "p1")
    m2 = dip.resolve_launch(mn, "p1", dip.LaunchMission(b.id, "athenae", treaty), led, cfg)  # type: ignore[arg-type]
    mn.turn = 6
    r2 = dip.resolve_test(mn, m2, ScriptedDice([f"d100={threshold}"]), led, cfg)  # equal: failure (MN-OUT-03)
    assert r2.band == "failure"


@pytest.mark.rule("MN-TRE-02", "RES-MN-05", "SC-MN-04")
def test_imported_types_stay_only_while_an_agreement_provides_them() -> None:
    mn, cfg, led = make_world(turn=5)
    mn.provinces["Campania"].resources = ["fish", "salt"]
    _, _, t1 = post(mn, "p1", "massalia", kind="commercial", last_turn=6)  # salt
    _, _, t2 = post(mn, "p1", "neapolis", kind="commercial")  # fish, salt
    imports = mn.nations["p1"].imports
    assert sorted((i.resource, i.source, i.origin) for i in imports) == [
        ("fish", "Campania", "Latium"), ("salt", "Campania", "Latium"), ("salt", "Gallia", "Latium")]
    mn.turn = 6
    _end(mn, cfg, led)  # t1 expires: salt still comes from Neapolis
    assert t1 not in mn.treaties and {i.resource for i in mn.nations["p1"].imports} == {"fish", "salt"}
    dip.resolve_break(mn, "p1", dip.BreakTreaty(t2.id), NO_DICE, led, cfg)
    assert not mn.nations["p1"].imports and not mn.cities["neapolis"].imports
    assert last(led, "TreatyBroken").outcome == "commercial agreement broken"
    assert dip.rf(mn, "Latium", "greeks") == 5  # no racial-factor cost for a commercial agreement


@pytest.mark.rule("SC-MN-06", "MN-TRE-02", "RES-MN-05")
def test_income_per_province_and_resource_type_with_monopolies_double() -> None:
    mn, cfg, led = make_world(turn=5, treasury=0)
    # p1: 1 province, grain + wine, no one else has them: 20 + 2 x 10 x 2 = 60
    # p2: 1 province, oil (monopoly): 20 + 10 x 2 = 40
    assert dip.income_of(mn, cfg, "p1") == (60, ["grain", "wine"], ["grain", "wine"])
    post(mn, "p2", "massalia", kind="commercial")  # p2 imports salt (a monopoly too): 20 + 2 x 20 = 60
    assert dip.income_of(mn, cfg, "p2") == (60, ["oil", "salt"], ["oil", "salt"])
    post(mn, "p1", "massalia", kind="commercial")  # both have salt now: no longer a monopoly
    assert dip.income_of(mn, cfg, "p1")[0] == 20 + 2 * 20 + 10
    assert dip.income_of(mn, cfg, "p2")[0] == 20 + 20 + 10
    _end(mn, cfg, led)
    assert (mn.nations["p1"].treasury, mn.nations["p2"].treasury) == (70, 50)
    ev = led.of_kind("IncomeCollected")
    assert [(e.actor, e.total) for e in ev] == [("nation:p1", 70), ("nation:p2", 50)]
    cheap = MnConfig(province_income_po=5, resource_income_po=1)  # CFG mn.province_income_po, mn.resource_income_po
    assert dip.income_of(mn, cheap, "p1")[0] == 5 + 2 * 2 + 1


@pytest.mark.rule("MN-TRE-03", "SC-MN-10", "SC-MN-03")
def test_an_alliance_lets_the_nation_raise_an_army_in_the_allied_province() -> None:
    mn, cfg, led = make_world(turn=5)
    _, _, t = post(mn, "p1", "carthago", kind="alliance")
    army = dip.resolve_raise_army(mn, "p1", dip.RaiseArmy(t.id), led, cfg)
    assert (army.nation, army.province, army.turn, army.reason, army.treaty) == ("p1", "Africa", 5, "alliance", t.id)
    assert mn.armies == [army] and mn.stats.armies_raised == 1
    ev = last(led, "ArmyRaised")
    assert ev.outcome == "alliance" and "SC-MN-10" in ev.clauses and "MN-TRE-03" in ev.clauses
    with pytest.raises(IllegalOrderError, match="MN-TRE-03.*no military alliance"):
        dip.resolve_raise_army(mn, "p2", dip.RaiseArmy(t.id), led, cfg)


@pytest.mark.rule("MN-TRE-04", "RES-MN-09")
def test_breaking_an_alliance_costs_5_racial_factor_at_the_ambassadors_home_province() -> None:
    mn, cfg, led = make_world(turn=5)
    mn.nations["p1"].provinces.append("Numidia")
    a = dip.resolve_buy(mn, "p1", dip.BuyAmbassador("Numidia"), led, cfg)
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "athenae", "alliance"), led, cfg)
    mn.turn = 6
    dip.resolve_test(mn, m, ScriptedDice(["d100=5"]), led, cfg)
    [t] = mn.treaties
    dip.resolve_break(mn, "p1", dip.BreakTreaty(t.id), NO_DICE, led, cfg)
    assert dip.rf(mn, "Numidia", "greeks") == -5 and dip.rf(mn, "Latium", "greeks") == 5
    assert not mn.treaties and mn.embassies  # the embassy itself stays
    assert not mn.cuts


@pytest.mark.rule("MN-TRE-05", "MN-TRE-07", "RES-MN-06")
@pytest.mark.parametrize("ally_declares", [True, False])
def test_a_war_of_the_eternal_friend_creates_the_obligation(ally_declares: bool) -> None:
    mn, cfg, led = make_world(turn=10)
    post(mn, "p1", "rhodos", kind="pact")
    by, on = ("city:rhodos", "nation:p2") if ally_declares else ("nation:p2", "city:rhodos")
    [ob] = dip.resolve_declare_war(mn, by, dip.DeclareWar(on), led, cfg)
    assert (ob.nation, ob.ally, ob.aggressor, ob.war_turn, ob.deadline_turn) == ("p1", "city:rhodos", "nation:p2", 10, 11)
    longer = MnConfig(pact_response_turns=3)  # CFG mn.pact_response_turns
    mn2, _, led2 = make_world(turn=10)
    post(mn2, "p1", "rhodos", kind="pact")
    [ob2] = dip.resolve_declare_war(mn2, by, dip.DeclareWar(on), led2, longer)
    assert ob2.deadline_turn == 13


@pytest.mark.rule("MN-TRE-07", "RES-MN-06", "SC-MN-10")
def test_honouring_raises_an_army_in_the_nearest_province_and_severs_relations() -> None:
    mn, cfg, led = make_world(turn=10)
    mn.nations["p1"].provinces = ["Latium", "Numidia"]
    mn.travel = {"Latium": {"Rhodus": 2}, "Numidia": {"Rhodus": 2}, "Rhodus": {"Latium": 2, "Numidia": 2}}
    assert dip.nearest_province(mn, cfg, "p1", "city:rhodos") == "Latium"  # tie: lowest id
    mn.travel["Numidia"]["Rhodus"] = 1
    assert dip.nearest_province(mn, cfg, "p1", "city:rhodos") == "Numidia"
    post(mn, "p1", "rhodos", kind="pact")
    b, e, t = post(mn, "p1", "carthago", kind="commercial")
    [ob] = dip.resolve_declare_war(mn, "city:carthago", dip.DeclareWar("city:rhodos"), led, cfg)
    army = dip.resolve_honour(mn, "p1", dip.HonourPact(ob.id), led, cfg)
    assert (army.province, army.reason, army.obligation) == ("Numidia", "pact", ob.id)
    assert ob.status == "honoured" and dip.pact_of(mn, "p1") is not None
    assert t not in mn.treaties and e not in mn.embassies  # trade routes broken, ambassador recalled
    assert b.state == "travelling"
    assert dip.at_war(mn, "nation:p1", "city:carthago")
    with pytest.raises(IllegalOrderError, match="RES-MN-06"):
        dip.resolve_honour(mn, "p1", dip.HonourPact(ob.id), led, cfg)


@pytest.mark.rule("MN-TRE-08", "RES-MN-07", "RES-MN-09")
def test_a_peacetime_break_costs_15_and_cuts_relations_for_1d4_years() -> None:
    mn, cfg, led = make_world(turn=10)
    a, e, t = post(mn, "p1", "rhodos", kind="pact")
    _, e2, t2 = post(mn, "p1", "rhodos", kind="commercial")  # a second embassy there
    dice = ScriptedDice(["d4=3"])
    dip.resolve_break(mn, "p1", dip.BreakTreaty(t.id), dice, led, cfg)
    assert dip.rf(mn, "Latium", "rhodians") == -10  # 5 - 15
    ev = last(led, "PactBroken")
    assert (ev.outcome, ev.total, ev.data["cut_through_turn"]) == ("peacetime", 3, 22)
    assert not mn.embassies and not mn.treaties  # embassies close at the break (RES-MN-07, MN-EMB-01)
    assert dip.relations_cut(mn, "nation:p1", "city:rhodos", 22) and not dip.relations_cut(mn, "nation:p1", "city:rhodos", 23)


@pytest.mark.rule("MN-TRE-08", "RES-MN-07", "MN-TRE-06")
def test_breaking_a_pact_between_two_players_cuts_both_ways() -> None:
    mn, cfg, led = make_world(turn=10)
    a, _, _ = post(mn, "p1", "corinthus")
    b, _, _ = post(mn, "p2", "roma")
    p = dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "pact"), led, cfg)
    c = dip.resolve_sign(mn, "p2", dip.SignTreaty("p1", "commercial"), led, cfg)
    assert p is not None and c is not None
    with pytest.raises(IllegalOrderError, match="MN-TRE-06"):
        dip.resolve_launch(mn, "p2", dip.LaunchMission(buy(mn, "p2").id, "rhodos", "pact"), led, cfg)
    dip.resolve_break(mn, "p2", dip.BreakTreaty(p.id), ScriptedDice(["d4=1"]), led, cfg)
    assert dip.rf(mn, "Achaea", "latins") == -15  # the breaker's capital province, the former ally's people
    assert not mn.treaties and not mn.embassies
    assert a.state == b.state == "travelling"
    assert last(led, "PactBroken").data["cut_through_turn"] == 14
    with pytest.raises(IllegalOrderError, match="MN-MIS-03|RES-MN-07"):
        dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "commercial"), led, cfg)


@pytest.mark.rule("MN-EMB-01", "RES-MN-17")
def test_closing_an_embassy_ends_every_treaty_with_that_province() -> None:
    mn, cfg, led = make_world(turn=5)
    a, e1, t1 = post(mn, "p1", "carthago", kind="commercial")
    b, e2, t2 = post(mn, "p1", "carthago", kind="alliance")
    _, _, t3 = post(mn, "p1", "massalia", kind="commercial")
    dip.resolve_recall(mn, "p1", dip.Recall(a.id), led, cfg)
    assert mn.treaties == [t3]  # the alliance obtained by the other ambassador ends too
    assert e2 in mn.embassies and b.state == "at_post"
    assert [ev.outcome for ev in led.of_kind("TreatyEnded")] == ["embassy closed", "embassy closed"]
    with pytest.raises(IllegalOrderError, match="RES-MN-17.*not an at_post ambassador"):
        dip.resolve_recall(mn, "p1", dip.Recall(a.id), led, cfg)


@pytest.mark.rule("SC-MN-05", "MN-OUT-01", "SC-MN-02")
def test_declaring_war_ends_permanent_embassies_among_the_same_people() -> None:
    mn, cfg, led = make_world(turn=5)
    _, e_mas, t_mas = post(mn, "p1", "massalia", kind="commercial")  # greeks, permanent
    _, e_nea, t_nea = post(mn, "p1", "neapolis", kind="commercial", last_turn=7)  # greeks, limited: stays
    _, e_car, t_car = post(mn, "p1", "carthago", kind="commercial")  # punics: stays
    _, e2, _ = post(mn, "p2", "athenae", kind="commercial")  # another nation's: stays
    dip.resolve_declare_war(mn, "nation:p1", dip.DeclareWar("city:syracusae"), led, cfg)
    assert dip.at_war(mn, "nation:p1", "city:syracusae") and dip.at_war(mn, "city:syracusae", "nation:p1")
    assert e_mas not in mn.embassies and t_mas not in mn.treaties
    assert all(e in mn.embassies for e in (e_nea, e_car, e2))
    with pytest.raises(IllegalOrderError, match="SC-MN-05.*already at war"):
        dip.resolve_declare_war(mn, "nation:p1", dip.DeclareWar("city:syracusae"), led, cfg)
    mn2, cfg2, led2 = make_world(turn=5)
    _, e, _ = post(mn2, "p1", "massalia", kind="commercial")
    dip.resolve_declare_war(mn2, "city:syracusae", dip.DeclareWar("nation:p1"), led2, cfg2)
    assert e in mn2.embassies  # only the ambassador's own nation declaring war ends it
    dip.make_peace(mn2, "nation:p1", "city:syracusae", led2)
    assert not mn2.wars


@pytest.mark.rule("RES-MN-13", "SC-MN-04", "MN-OUT-02")
def test_renewal_in_the_expiry_turn() -> None:
    mn, cfg, led = make_world(turn=8)
    a, e, t = post(mn, "p1", "massalia", kind="commercial", last_turn=9, installed=6)
    with pytest.raises(IllegalOrderError, match="RES-MN-13.*expires in turn 9, not this turn"):
        dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id), led, cfg)
    mn.turn = 9
    m = dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id, 5), led, cfg)
    assert (m.arrival_turn, m.renewal_of, mn.nations["p1"].treasury) == (9, e.id, 165)
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=48"]), led, cfg)  # 48 - 10 = 38; margin 22 -> very warm
    assert r.band == "very_warm"
    assert (e.last_turn, t.last_turn, e.installed_turn, t.renewed_turn) == (None, None, 6, 9)
    assert a.state == "at_post" and a.mission is None


@pytest.mark.rule("RES-MN-13", "MN-EMB-01")
def test_a_failed_renewal_closes_the_embassy_and_a_limited_success_gets_a_fresh_duration() -> None:
    mn, cfg, led = make_world(turn=9)
    a, e, t = post(mn, "p1", "massalia", kind="commercial", last_turn=9, installed=6)
    m = dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id), led, cfg)
    dip.resolve_test(mn, m, ScriptedDice(["d100=50"]), led, cfg)  # 45: margin 15 -> 3 turns
    assert (e.last_turn, t.last_turn) == (12, 12)
    _end(mn, cfg, led)
    assert e in mn.embassies
    mn.turn = 12
    m = dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id), led, cfg)
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)  # 65: dismissed
    assert e not in mn.embassies and t not in mn.treaties
    assert (a.state, a.returns_turn) == ("travelling", 13)
