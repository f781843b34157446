"""The nation policies: what the heuristic prefers, on the examples' world."""

from __future__ import annotations

import random

import pytest

from agents.nation import NationObs
from agents.policies import make_policy
from sim.rules import mn as dip
from sim.state.mn import Mission
from tests.mn.common import buy, make_world, post, world_of


def decide(mn, cfg, slot: str, subject=None, **extra):  # noqa: ANN001, ANN003, ANN201
    legal = extra.pop("legal", None) or dip.legal_orders(world_of(mn, cfg), "p1", slot=slot, subject=subject)
    pol = make_policy("nation", "heuristic")
    return pol.decide(NationObs(mn, cfg, "p1", slot, subject, extra), legal, random.Random(1))


def test_both_policies_are_registered() -> None:
    assert make_policy("nation", "random").name == "random"
    assert make_policy("nation", "heuristic").name == "heuristic"


@pytest.mark.rule("MN-MOD-01", "MN-MOD-07")
def test_it_targets_cities_with_good_racial_factors_and_pays_a_gift_when_it_pays_off() -> None:
    mn, cfg, led = make_world(turn=5, treasury=300)
    mn.rf["Latium"]["rhodians"] = 0
    a = buy(mn, "p1")
    d = decide(mn, cfg, "ambassador", a)
    o = d.chosen
    assert isinstance(o, dip.LaunchMission)
    assert mn.provinces[mn.cities[o.city].province].people == "greeks"  # RF +5 beats RF 0 for equal trade
    assert o.treaty == "commercial" and o.gift > 0
    assert len(d.scored) > 1 and d.scored[0][1] >= d.scored[-1][1]


def test_it_stays_home_when_nothing_is_worth_the_fee() -> None:
    mn, cfg, led = make_world(turn=5, treasury=300)
    for p in mn.provinces.values():
        p.resources = ["grain"]  # nothing to import that Latium lacks
    for people in mn.rf["Latium"]:
        mn.rf["Latium"][people] = -60  # and every people hostile: an embassy would rarely be won
    a = buy(mn, "p1")
    assert decide(mn, cfg, "ambassador", a).chosen == dip.Pass("ambassador")


@pytest.mark.rule("MN-INT-01", "RES-MN-16")
def test_it_interferes_against_a_rival_only_when_the_d20_can_change_the_outcome() -> None:
    mn, cfg, led = make_world(turn=6)
    post(mn, "p1", "massalia")
    b = buy(mn, "p2")
    m = Mission(99, b.id, "p2", "Achaea", "massalia", "commercial", 0, 5, 6)
    legal = [dip.Interfere(False), dip.Interfere(True)]
    near = dip.InterferenceContext(m, 60, 52, 52)
    assert decide(mn, cfg, "interfere", near, legal=legal).chosen == dip.Interfere(True)
    far = dip.InterferenceContext(m, 60, 5, -40)  # nothing a d20 can do: very warm either way
    assert decide(mn, cfg, "interfere", far, legal=legal).chosen == dip.Interfere(False)
    signs = [dip.InterferenceSign(1), dip.InterferenceSign(-1)]
    assert decide(mn, cfg, "interference_sign", near, legal=signs, d20=9).chosen == dip.InterferenceSign(1)


@pytest.mark.rule("MN-HOST-01")
def test_a_host_receives_a_peaceful_trader_and_imprisons_an_enemy() -> None:
    mn, cfg, led = make_world(turn=6)
    b = buy(mn, "p2")
    m = Mission(99, b.id, "p2", "Achaea", "roma", "commercial", 0, 5, 6)
    assert decide(mn, cfg, "host", m).chosen == dip.HostChoice(99, "accept")
    dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("nation:p1"), led, cfg)
    assert decide(mn, cfg, "host", m).chosen.choice in ("imprison", "execute")


@pytest.mark.rule("MN-TRE-07", "MN-TRE-08")
def test_it_honours_a_pact_unless_severing_relations_costs_more() -> None:
    mn, cfg, led = make_world(turn=10)
    post(mn, "p1", "rhodos", kind="pact")
    [ob] = dip.resolve_declare_war(mn, "city:carthago", dip.DeclareWar("city:rhodos"), led, cfg)
    assert isinstance(decide(mn, cfg, "obligation", ob).chosen, dip.HonourPact)
    mn2, cfg2, led2 = make_world(turn=10)
    mn2.provinces["Africa"].resources = ["purple", "ivory", "tin"]
    post(mn2, "p1", "rhodos", kind="pact")
    post(mn2, "p1", "carthago", kind="commercial")  # three types only Carthage provides
    [ob2] = dip.resolve_declare_war(mn2, "city:carthago", dip.DeclareWar("city:rhodos"), led2, cfg2)
    assert isinstance(decide(mn2, cfg2, "obligation", ob2).chosen, dip.BreakTreaty)


def test_it_buys_an_ambassador_only_when_none_is_idle_and_it_can_send_him() -> None:
    mn, cfg, led = make_world(turn=1, treasury=200)
    assert isinstance(decide(mn, cfg, "buy").chosen, dip.BuyAmbassador)
    buy(mn, "p1")
    assert decide(mn, cfg, "buy").chosen == dip.Pass("buy")  # one waits at home
    mn2, cfg2, _ = make_world(turn=1, treasury=60)
    assert decide(mn2, cfg2, "buy").chosen == dip.Pass("buy")  # 60 - 50 leaves no mission fee
