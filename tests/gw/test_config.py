"""The ``gw.*`` configuration keys of RULES.md §6 (GEN-05): every invented number can be overridden."""

from __future__ import annotations

import pytest

from agents.campaign import run_campaign
from scenarios.loader import load_scenario_text, read_source
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import AttackArmy, Recruit
from tests.gw.helpers import hx, make_world, occupy, play, put_army, put_domain, start_season, units

CATALOGUE = {
    "militia": {"french": "milicien", "cs": 1, "speed": 10, "siege": False, "loss_rank": 1},
    "infantry": {"french": "fantassin", "cs": 5, "speed": 12, "siege": False, "loss_rank": 2},
    "ram": {"french": "bélier", "cs": 4, "speed": 8, "siege": True, "loss_rank": 3},
}


@pytest.mark.rule("SC-GW-06", "RES-GW-13")
def test_a_scenario_unit_catalogue_replaces_the_default():
    w = make_world(config={"gw.units": CATALOGUE, "gw.unit_cost_solars": {"militia": 5, "infantry": 10, "ram": 40}})
    cfg = w.config.gw
    (inf,) = units(w, {"infantry": 1})
    assert wf.effective_cs(inf, cfg) == 5
    a = put_army(w, "A", "a", hx(w, 7, 4), {"infantry": 2, "ram": 1})
    assert wf.army_speed(w, a) == 8 and wf.army_strength(w, a) == 14
    put_army(w, "C", "c", hx(w, 7, 4), {"militia": 3})
    play(w, 0, [AttackArmy(guild="a", army="A", target="C")])
    # 3 damage kill no infantry (5 each): the first is damaged, then healed at the season's end
    assert "C" not in w.gw.armies and len(a.units) == 3 and all(u.damage == 0 for u in a.units)


@pytest.mark.rule("SC-GW-07")
def test_fortification_levels_and_the_keep_level_are_configurable():
    w = make_world(config={"gw.fortifications": [0, 3, 6], "gw.fortification_names": ["none", "stockade", "fortress"], "gw.keep_level": 1})
    d = put_domain(w, "D", "c", hx(w, 10, 2), fort=1, garrison={"militia": 2})
    assert wf.garrison_strength(w, d) == 2 * 4 and wf.is_keep(w, d)
    put_army(w, "Z", "a", hx(w, 10, 2), {"infantry": 5})
    start_season(w, 0, Ledger())
    from sim.state.gw import AttackDomain

    with pytest.raises(IllegalOrderError, match="GW-ATK-02: domain D has a stockade"):
        wf.check(w, "a", AttackDomain(guild="a", army="Z", domain="D"))


@pytest.mark.rule("SC-GW-15")
def test_unit_prices_and_the_recruitment_cap_are_configurable():
    w = make_world(config={"gw.unit_cost_solars": {"militia": 50, "infantry": 10, "archer": 12, "cavalry": 15, "knight": 20, "siege_engine": 30},
                           "gw.recruit_per_domain": 2})
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].solars = 120
    start_season(w, 0, Ledger())
    with pytest.raises(IllegalOrderError, match=r"SC-GW-15: 3 recruits \(\+0 already ordered\) exceed 2 per unoccupied domain × 1 = 2"):
        wf.check(w, "a", Recruit(guild="a", units={"infantry": 3}))
    led = play(w, 0, [Recruit(guild="a", units={"militia": 2})])
    assert led.of_kind("UnitsRecruited")[0].total == 100 and w.gw.guilds["a"].solars == 120 - 100 + 20


@pytest.mark.rule("RES-GW-23")
def test_the_compensation_amount_is_configurable():
    w = make_world(config={"gw.annex_compensation_solars": 120})
    put_domain(w, "D", "c", hx(w, 10, 2))
    put_army(w, "Z", "a", hx(w, 10, 2), {"infantry": 5})
    occupy(w, "Z", "D")
    led = Ledger()
    start_season(w, 1, led)
    from sim.state.gw import Annex

    wf.give_order(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    assert w.gw.guilds["a"].solars == 880 and w.gw.bank.held == 120


@pytest.mark.rule("SC-GW-01")
def test_a_campaign_with_two_seasons_a_year_wakes_twice_a_year():
    _, text = read_source("guild-war")
    text = text.replace("duration = { years = 5 }", "duration = { years = 1 }").replace("domain_victuals = 4", "domain_victuals = 4\nseasons_per_year = 2")
    res = run_campaign(load_scenario_text(text, "guild-war-2"))
    assert res.summary["gw.seasons"] == 2
    assert sorted({e.t for e in res.ledger.events if e.kind == "DecisionMade"}) == [0, 4320]
