"""Missions, ambassadors, travel, hosts and contact (MN-MIS, MN-HOST, RES-MN-01…04, RES-MN-17)."""

from __future__ import annotations

import pytest

from sim.config import MnConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import mn as dip
from tests.mn.common import buy, last, make_world, post, world_of


@pytest.mark.rule("MN-MIS-01", "MN-TEST-01", "MN-HOST-01")
def test_a_mission_goes_to_a_players_city_or_an_uncontrolled_one() -> None:
    mn, cfg, led = make_world()
    a, b = buy(mn, "p1"), buy(mn, "p1")
    to_player = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "commercial"), led, cfg)
    to_free = dip.resolve_launch(mn, "p1", dip.LaunchMission(b.id, "massalia", "commercial"), led, cfg)
    assert dip.needs_host(mn, to_player) == "p2" and dip.needs_host(mn, to_free) is None
    mn.turn += 1
    with pytest.raises(IllegalOrderError, match="MN-TEST-01.*controlled by p2"):
        dip.resolve_test(mn, to_player, ScriptedDice(["d100=10"]), led, cfg)
    c = buy(mn, "p1")
    with pytest.raises(IllegalOrderError, match="MN-MIS-01.*own city"):
        dip.resolve_launch(mn, "p1", dip.LaunchMission(c.id, "roma", "commercial"), led, cfg)


@pytest.mark.rule("MN-MIS-02", "RES-MN-01", "SC-MN-03")
def test_buying_an_ambassador_costs_the_configured_price_and_he_is_reusable() -> None:
    mn, cfg, led = make_world(treasury=100)
    amb = dip.resolve_buy(mn, "p1", dip.BuyAmbassador(), led, cfg)
    assert (amb.id, amb.home_province, amb.state, mn.nations["p1"].treasury) == ("p1-1", "Latium", "home", 50)
    assert last(led, "AmbassadorBought").data["cost"] == 50
    with pytest.raises(IllegalOrderError, match=r"RES-MN-01.*costs 50 PO but the treasury holds 20 PO"):
        mn.nations["p1"].treasury = 20
        dip.resolve_buy(mn, "p1", dip.BuyAmbassador(), led, cfg)
    assert mn.nations["p1"].treasury == 20  # never below 0 (RES-MN-17)
    dear = MnConfig(ambassador_cost=70)  # CFG mn.ambassador_cost
    mn.nations["p1"].treasury = 100
    dip.resolve_buy(mn, "p1", dip.BuyAmbassador(), led, dear)
    assert mn.nations["p1"].treasury == 30
    with pytest.raises(IllegalOrderError, match="RES-MN-01.*not a province of p1"):
        dip.resolve_buy(mn, "p1", dip.BuyAmbassador("Achaea"), led, cfg)
    # reusable: after a failed mission he comes home and goes out again for the fee alone
    mn.nations["p1"].treasury = 200
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(amb.id, "massalia", "commercial"), led, cfg)
    with pytest.raises(IllegalOrderError, match="RES-MN-01.*is travelling, not home"):
        dip.resolve_launch(mn, "p1", dip.LaunchMission(amb.id, "neapolis", "commercial"), led, cfg)
    mn.turn += 1
    dip.resolve_test(mn, m, ScriptedDice(["d100=70"]), led, cfg)  # 70 - 5 = 65: failure
    mn.turn += 1
    dip.advance_travel(mn, led)
    dip.resolve_launch(mn, "p1", dip.LaunchMission(amb.id, "neapolis", "commercial"), led, cfg)
    assert mn.nations["p1"].treasury == 200 - 30 - 30


@pytest.mark.rule("RES-MN-02", "MN-OUT-03")
def test_travel_turns_come_from_the_table_or_the_configured_default() -> None:
    mn, cfg, led = make_world(turn=5)
    mn.travel = {"Latium": {"Gallia": 3}, "Gallia": {"Latium": 3}}
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    assert m.arrival_turn == 8
    assert dip.arriving_missions(mn) == []
    mn.turn = 8
    assert dip.arriving_missions(mn) == [m]
    dip.resolve_test(mn, m, ScriptedDice(["d100=80"]), led, cfg)  # 80 - 5 = 75: dismissed
    assert a.returns_turn == 11
    for t in (9, 10):
        mn.turn = t
        assert dip.advance_travel(mn, led) == [] and a.state == "travelling"
    mn.turn = 11
    assert dip.advance_travel(mn, led) == [a] and a.state == "home"
    two = MnConfig(default_travel_turns=2)  # CFG mn.default_travel_turns
    m2 = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "neapolis", "commercial"), led, two)
    assert m2.arrival_turn == 13


@pytest.mark.rule("RES-MN-02")
def test_zero_travel_resolves_in_the_same_turn_and_comes_home_at_once() -> None:
    mn, cfg, led = make_world(turn=5)
    mn.travel = {"Latium": {"Gallia": 0}, "Gallia": {"Latium": 0}}
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    assert m.arrival_turn == 5 and dip.arriving_missions(mn) == [m]
    dip.resolve_test(mn, m, ScriptedDice(["d100=80"]), led, cfg)
    assert a.state == "home"


@pytest.mark.rule("MN-HOST-01", "RES-MN-04")
@pytest.mark.parametrize("choice", ["dismiss", "execute"])
def test_the_host_sends_back_or_executes(choice: str) -> None:
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "pact"), led, cfg)
    mn.turn = 6
    with pytest.raises(IllegalOrderError, match="MN-HOST-01.*p1 does not control corinthus"):
        dip.resolve_host_choice(mn, "p1", dip.HostChoice(m.id, "accept"), led, cfg)
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, choice), led, cfg)  # type: ignore[arg-type]
    if choice == "dismiss":
        assert (a.state, a.returns_turn) == ("travelling", 7)
    else:
        assert a.state == "dead"
        assert dip.rf(mn, "Latium", "achaeans") == 0  # only MN-OUT-05 costs racial factor
    assert not dip.in_contact(mn, "p1", "p2") and not mn.missions
    assert last(led, "HostChose").outcome == choice


@pytest.mark.rule("MN-MIS-03", "RES-MN-03", "RES-MN-04", "MN-EMB-01")
def test_contact_lasts_while_an_ambassador_is_at_post_and_treaties_end_with_the_embassy() -> None:
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p2")
    m = dip.resolve_launch(mn, "p2", dip.LaunchMission(a.id, "roma", "commercial"), led, cfg)
    with pytest.raises(IllegalOrderError, match="MN-MIS-03"):
        dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "commercial"), led, cfg)
    mn.turn = 6
    dip.resolve_host_choice(mn, "p1", dip.HostChoice(m.id, "accept"), led, cfg)
    [e] = mn.embassies
    assert e.last_turn is None  # lasts until broken or ended by MN-EMB-01
    assert dip.in_contact(mn, "p1", "p2")
    t = dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "commercial"), led, cfg)
    assert t is not None
    refused = dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "pact"), led, cfg, consent=False)
    assert refused is None and dip.pact_of(mn, "p1") is None
    with pytest.raises(IllegalOrderError, match="MN-TRE-03"):
        dip.resolve_sign(mn, "p1", dip.SignTreaty("p2", "alliance"), led, cfg)  # type: ignore[arg-type]
    dip.resolve_recall(mn, "p2", dip.Recall(a.id), led, cfg)
    assert not dip.in_contact(mn, "p1", "p2") and not mn.treaties
    assert last(led, "TreatyEnded").outcome == "embassy closed"
    assert (a.state, a.returns_turn) == ("travelling", 7)


@pytest.mark.rule("RES-MN-17", "MN-MIS-02", "RES-MN-12", "MN-TRE-06", "MN-TRE-03")
def test_launch_is_refused_for_money_a_second_pact_or_an_alliance_with_a_player() -> None:
    mn, cfg, led = make_world(turn=5, treasury=40)
    a = buy(mn, "p1")
    with pytest.raises(IllegalOrderError, match=r"MN-MIS-02.*30 PO \+ gift 20 PO; the treasury holds 40 PO"):
        dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial", 20), led, cfg)
    assert mn.nations["p1"].treasury == 40 and a.state == "home"
    with pytest.raises(IllegalOrderError, match="MN-TRE-03.*only with an uncontrolled city"):
        dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "alliance"), led, cfg)
    mn.nations["p1"].treasury = 500
    dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "pact", 10), led, cfg)
    b = buy(mn, "p1")
    with pytest.raises(IllegalOrderError, match="MN-TRE-06"):  # one under negotiation
        dip.resolve_launch(mn, "p1", dip.LaunchMission(b.id, "neapolis", "pact"), led, cfg)
    assert mn.nations["p1"].treasury == 460  # the gift is paid at launch (RES-MN-12)
    mn.turn = 6
    r = dip.resolve_test(mn, mn.missions[0], ScriptedDice(["d100=40"]), led, cfg)  # 40 - 15 = 25 >= 20: failure
    assert r.band == "failure" and mn.nations["p1"].treasury == 460  # never refunded


@pytest.mark.rule("RES-MN-17", "RES-MN-01")
def test_legal_orders_per_slot() -> None:
    mn, cfg, led = make_world(turn=4, treasury=60)
    orders = dip.legal_orders(world_of(mn, cfg), "p1", slot="buy")
    assert orders == [dip.Pass("buy"), dip.BuyAmbassador("Latium")]
    a = buy(mn, "p1")
    launches = [o for o in dip.legal_orders(world_of(mn, cfg), "p1", slot="ambassador", subject=a) if isinstance(o, dip.LaunchMission)]
    assert launches and all(30 + o.gift <= 60 for o in launches)
    assert not any(o.city == "roma" for o in launches)
    assert not any(o.city == "corinthus" and o.treaty == "alliance" for o in launches)
    a.state = "imprisoned"
    a.city = "massalia"
    a.ransom = 10
    assert dip.legal_orders(world_of(mn, cfg), "p1", slot="ransom", subject=a) == [dip.Pass("ransom"), dip.PayRansom(a.id)]
    mn.turn = 5
    assert dip.legal_orders(world_of(mn, cfg), "p1", slot="ransom", subject=a) == [dip.Pass("ransom")]
    with pytest.raises(Exception, match="unknown decision slot"):
        dip.legal_orders(world_of(mn, cfg), "p1", slot="nope")


@pytest.mark.rule("RES-MN-04", "MN-HOST-02")
def test_a_ransom_demanded_by_a_host_goes_to_the_host() -> None:
    mn, cfg, led = make_world(turn=7)
    _, _, _ = post(mn, "p2", "massalia")
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "pact"), led, cfg)
    mn.turn = 8
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "imprison", 25), led, cfg)
    mn.nations["p1"].treasury = 20
    with pytest.raises(IllegalOrderError, match="RES-MN-14.*costs 25 PO but the treasury holds 20 PO"):
        dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
    mn.nations["p1"].treasury = 25
    dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
    assert (mn.nations["p1"].treasury, mn.nations["p2"].treasury) == (0, 225)


@pytest.mark.rule("RES-MN-17")
def test_every_legal_order_passes_check_and_the_answers_are_offered_as_orders() -> None:
    mn, cfg, led = make_world(turn=4, treasury=60)
    w = world_of(mn, cfg)
    a = buy(mn, "p1")
    post(mn, "p1", "massalia", kind="alliance")
    for slot, subject in (("buy", None), ("ambassador", a), ("military", None), ("propose", "p2")):
        legal = dip.legal_orders(w, "p1", slot=slot, subject=subject)
        assert legal[0] == dip.Pass(slot)
        for o in legal:
            dip.check(w, "p1", o)
    assert dip.legal_orders(w, "p1", slot="consent") == [dip.Consent(False), dip.Consent(True)]
    assert dip.legal_orders(w, "p1", slot="interfere") == [dip.Interfere(False), dip.Interfere(True)]
    assert dip.legal_orders(w, "p1", slot="interference_sign") == [dip.InterferenceSign(1), dip.InterferenceSign(-1)]


@pytest.mark.rule("RES-MN-17", "RES-MN-01", "MN-MIS-02", "SC-MN-05", "MN-TRE-03", "RES-MN-14")
@pytest.mark.parametrize(("order", "clause"), [
    (dip.BuyAmbassador("Gallia"), "RES-MN-01"),  # not a province of p1
    (dip.LaunchMission("p1-1", "massalia", "commercial", 40), "MN-MIS-02"),  # 30 + 40 > 60 PO
    (dip.LaunchMission("p2-1", "massalia", "commercial"), "RES-MN-01"),  # not his ambassador
    (dip.DeclareWar("nation:p1"), "SC-MN-05"),
    (dip.RaiseArmy(99), "MN-TRE-03"),
    (dip.PayRansom("p1-1"), "RES-MN-14"),  # not imprisoned
    (dip.Recall("p1-1"), "RES-MN-17"),  # at home
    (dip.BreakTreaty(99), "RES-MN-17"),
])
def test_check_names_the_clause_an_order_breaks(order: dip.Order, clause: str) -> None:
    mn, cfg, led = make_world(turn=4, treasury=60)
    buy(mn, "p1")
    with pytest.raises(IllegalOrderError) as err:
        dip.check(world_of(mn, cfg), "p1", order)
    assert err.value.clause == clause and err.value.actor == "nation:p1"


@pytest.mark.rule("LINK-03", "LINK-06", "LINK-09")
def test_the_links_build_the_hooks_of_the_mn_turn() -> None:
    """MN alone needs no hooks; with kingdoms and guild warfare the links add the one treasury (LINK-03)
    and the armies (LINK-06), the army hook using the turn's treasury."""
    from sim.rules import links
    from tests.link.helpers import ledger, world

    mn, cfg, _ = make_world()
    assert links.mn_hooks(world_of(mn, cfg)) == dip.MnHooks()
    w = world()
    hooks = links.mn_hooks(w)
    assert hooks.treasury is links.MnTreasuries and hooks.army is not None
    led = ledger()
    money = hooks.treasury(w, led)
    assert callable(hooks.army(w, led, money)) and callable(hooks.army(w, led, None))
