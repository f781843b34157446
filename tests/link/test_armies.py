"""LINK-06: an army raised for a military alliance (MN-TRE-03) or an eternal friendship pact (MN-TRE-07)
is a GW army deployed by the nation acting as a guild, under its seal of the province, its units bought
at SC-GW-15 prices converted through LINK-02."""

from __future__ import annotations

import pytest

from agents.campaign import prepare_campaign, run_campaign, variant
from scenarios.build import build_world
from sim.errors import IllegalOrderError
from sim.rules import gw as wf
from sim.rules import links
from sim.rules import mn as dip
from sim.rules.links import MnTreasuries
from sim.state.gw import Deploy
from tests.link.helpers import ledger, mini, world

RATES = {"link.gp_per_bp": 100}  # 1 BP = 100 gp = 10 solars; 1 PO = 1 gp (default)


def _units(army) -> dict[str, int]:  # noqa: ANN001
    out: dict[str, int] = {}
    for u in army.units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return out


def _alliance(w):  # noqa: ANN001, ANN202
    return next(t for t in w.mn.treaties if t.kind == "alliance" and t.nation == "alpha")


@pytest.mark.rule("LINK-06", "LINK-02", "LINK-03", "MN-TRE-03", "SC-GW-15", "GW-DEP-03", "RES-GW-01")
def test_an_alliance_army_is_a_gw_army_of_the_nation_paid_in_bp() -> None:
    w = world(overrides=RATES)
    assert w.mn is not None and w.gw is not None and w.km is not None
    led = ledger()
    money = MnTreasuries(w, led)
    w.mn.turn = 1
    seal = w.gw.seals["alpha@South"]  # one seal per province controlled or allied with, of its region
    assert (seal.kind, seal.guild, seal.province, seal.region, seal.army) == ("military", "alpha", "South", "R2", None)
    raised = dip.resolve_raise_army(w.mn, "alpha", dip.RaiseArmy(_alliance(w).id), led, w.config.mn, hook=links.army_hook(w, led, money))
    assert raised.gw_army == "alpha-1"
    army = w.gw.armies["alpha-1"]
    fort = w.gw.domains["gamma-fort"]  # the domain of the allied city's province
    assert (army.owner, army.hex, army.own_seals, army.capacity) == ("alpha", fort.hex, ["alpha@South"], 10)
    assert _units(army) == {"archer": 2, "infantry": 4}  # the levy of factions[0]
    assert w.gw.seals["alpha@South"].army == "alpha-1" and "alpha" in fort.consents_to
    assert army.deployed == 0 and w.gw.guilds["alpha"].pool == {}  # orders from the next season (RES-GW-27)
    # 2 archers × 12 + 4 infantry × 10 = 64 solars = 640 gp = 6 BP (rounded down) from the one treasury
    assert w.km.kingdoms["alpha"].treasury == 24 and w.mn.nations["alpha"].treasury == 2400
    assert [e.kind for e in led.events] == ["ArmyRaised", "ArmyDeployed", "NationArmyRaised"]
    ev = led.events[-1]
    assert ev.system == "link" and "LINK-06" in ev.clauses and "MN-TRE-03" in ev.clauses
    assert (ev.total, ev.data["solars"], ev.data["currency"], ev.data["domain"], ev.data["seal"]) == (6, 64, "bp", "gamma-fort", "alpha@South")
    assert led.events[1].data["proxy"] is True  # a consenting domain of another owner (GW-DEP-03)


@pytest.mark.rule("LINK-06", "LINK-02", "SC-GW-15")
def test_a_nation_alone_pays_in_po_for_as_many_units_of_its_levy_as_it_can() -> None:
    w = world()
    assert w.mn is not None and w.gw is not None
    led = ledger()
    w.mn.turn = 1
    raised = dip.raise_army(w.mn, led, "delta", "Far", "pact", hook=links.army_hook(w, led, MnTreasuries(w, led)))
    army = w.gw.armies[raised.gw_army or ""]
    # the levy in order (archer, infantry), 120 PO an archer and 100 PO a footman, out of 500 PO
    assert _units(army) == {"archer": 2, "infantry": 2}
    assert w.mn.nations["delta"].treasury == 500 - 440
    assert army.hex == w.gw.domains["delta-hall"].hex  # the province's domain, owned by the guild gd
    assert led.of_kind("NationArmyRaised")[0].data["currency"] == "po"


@pytest.mark.rule("LINK-06")
def test_when_no_army_can_be_raised_the_ledger_says_why() -> None:
    w = world()
    assert w.mn is not None and w.gw is not None
    led = ledger()
    money = MnTreasuries(w, led)
    hook = links.army_hook(w, led, money)
    w.mn.turn = 1
    first = dip.raise_army(w.mn, led, "delta", "Far", "pact", hook=hook)
    again = dip.raise_army(w.mn, led, "delta", "Far", "pact", hook=hook)
    assert first.gw_army is not None and again.gw_army is None
    east = dip.raise_army(w.mn, led, "delta", "East", "pact", hook=hook)
    assert east.gw_army is None
    whys = [e.data["why"] for e in led.of_kind("NationArmyNotRaised")]
    assert whys == [
        f"its military seal of Far is engaged in army {first.gw_army}",
        "it holds no military seal of East (a province it neither controls nor is allied with)",
    ]
    w2 = world()
    assert w2.mn is not None and w2.gw is not None
    w2.mn.nations["delta"].treasury = 0
    del w2.gw.domains["gamma-fort"]
    led2 = ledger()
    hook2 = links.army_hook(w2, led2, MnTreasuries(w2, led2))
    assert dip.raise_army(w2.mn, led2, "delta", "Far", "pact", hook=hook2).gw_army is None
    assert dip.raise_army(w2.mn, led2, "alpha", "South", "alliance", hook=hook2).gw_army is None
    assert [e.data["why"] for e in led2.of_kind("NationArmyNotRaised")] == [
        "the treasury (0 PO) cannot pay one unit", "province South has no domain",
    ]
    assert [e.outcome for e in led2.of_kind("ArmyRaised")] == ["pact", "alliance"]  # MN still records its armies


@pytest.mark.rule("LINK-06", "MN-TRE-05", "MN-TRE-07", "RES-MN-06")
def test_honouring_a_pact_raises_the_army_in_the_nearest_province() -> None:
    w = world(extra='[[mn_treaties]]\nnation = "delta"\npartner = "gamma"\nkind = "pact"\n')
    assert w.mn is not None and w.gw is not None
    led = ledger()
    w.mn.turn = 1
    (ob,) = dip.resolve_declare_war(w.mn, "nation:alpha", dip.DeclareWar("city:gamma"), led, w.config.mn)
    assert ob.nation == "delta"
    raised = dip.resolve_honour(w.mn, "delta", dip.HonourPact(ob.id), led, w.config.mn, hook=links.army_hook(w, led, MnTreasuries(w, led)))
    assert raised.province == "Far" and raised.gw_army in w.gw.armies
    ev = led.of_kind("NationArmyRaised")[0]
    assert ev.data["reason"] == "pact" and "MN-TRE-07" in ev.clauses


@pytest.mark.rule("LINK-06", "SC-GW-03")
def test_seals_follow_the_provinces_controlled_and_allied_with() -> None:
    w = world()
    assert w.mn is not None and w.gw is not None
    assert w.gw.guilds["alpha"].seals == ["alpha@North", "alpha@South"]
    assert w.gw.guilds["delta"].seals == ["delta@Far"]
    t = _alliance(w)
    w.mn.treaties.remove(t)  # the alliance with Gamma ends: its free seal is withdrawn
    assert links.refresh_nation_seals(w, "alpha") == ["alpha@North"] and "alpha@South" not in w.gw.seals
    w2 = world()
    assert w2.mn is not None and w2.gw is not None
    led = ledger()
    w2.mn.turn = 1
    raised = dip.raise_army(w2.mn, led, "alpha", "South", "alliance", hook=links.army_hook(w2, led, MnTreasuries(w2, led)))
    w2.mn.treaties.remove(_alliance(w2))
    assert links.refresh_nation_seals(w2, "alpha") == ["alpha@North", "alpha@South"]  # engaged: stays with its army
    assert w2.gw.seals["alpha@South"].army == raised.gw_army


@pytest.mark.rule("LINK-06", "GW-DEP-04", "RES-GW-06")
def test_the_nation_is_allied_with_its_guilds_but_lends_them_no_seal() -> None:
    w = world()
    assert w.gw is not None
    assert ["alpha", "ga"] in w.gw.alliances and ["delta", "gd"] in w.gw.alliances
    w.gw.guilds["ga"].pool = {"infantry": 12}
    o = Deploy(guild="ga", domain="alpha-keep", seals=["ga-m1", "alpha@North"], units={"infantry": 12})
    with pytest.raises(IllegalOrderError, match=r"LINK-06: seal alpha@North is a seal of the nation alpha, which raises only its own armies with it"):
        wf.check(w, o.guild, o)
    assert not any(isinstance(x, Deploy) and "alpha@North" in x.seals for x in wf.legal_orders(w, "ga"))


@pytest.mark.rule("LINK-06", "MN-TRE-03", "SC-GW-16", "LINK-02")
def test_the_nation_pays_its_armies_upkeep_into_its_guild_chest() -> None:
    w = world()
    assert w.mn is not None and w.gw is not None
    led = ledger()
    w.mn.turn = 1
    dip.raise_army(w.mn, led, "delta", "Far", "pact", hook=links.army_hook(w, led, MnTreasuries(w, led)))
    assert w.mn.nations["delta"].treasury == 60  # 4 units
    links.fund_nation_armies(w, led)
    ev = led.of_kind("NationArmyUpkeepFunded")[-1]
    assert (ev.outcome, ev.data["due"], ev.data["solars"], ev.total) == ("funded", 4, 4, 40)
    assert w.gw.guilds["delta"].solars == 4 and w.mn.nations["delta"].treasury == 20
    links.fund_nation_armies(w, led)  # the chest already holds this season's upkeep: nothing to pay
    assert len(led.of_kind("NationArmyUpkeepFunded")) == 1
    w.gw.guilds["delta"].solars = 0
    links.fund_nation_armies(w, led)  # 20 PO buy 2 of the 4 solars due
    ev = led.of_kind("NationArmyUpkeepFunded")[-1]
    assert (ev.outcome, ev.data["solars"], ev.total) == ("short", 2, 20)
    assert w.gw.guilds["delta"].solars == 2 and w.mn.nations["delta"].treasury == 0


def _war_scenario():  # noqa: ANN202
    return mini(extra='[[mn_events]]\nturn = 1\nkind = "war"\nby = "alpha"\non = "delta"\n')


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.rule("LINK-06")
def test_each_campaign_raises_its_armies_in_its_own_world() -> None:
    a = prepare_campaign(_war_scenario(), 1)
    b = prepare_campaign(_war_scenario(), 2)
    a.run()
    b.run()
    assert not hasattr(dip, "set_army_hook")  # nothing module-wide: each model's MN turn gets its own hooks
    for m in (a, b):
        raised = [e for e in m.ledger.events if e.kind == "NationArmyRaised"]
        assert raised, "the heuristic at war raises its alliance army"
        deployed = {e.actor[5:] for e in m.ledger.events if e.kind == "ArmyDeployed"}
        assert {e.data["army"] for e in raised} <= deployed
        assert {x.gw_army for x in m.world.mn.armies if x.gw_army} == {e.data["army"] for e in raised}  # type: ignore[union-attr]


@pytest.mark.rule("LINK-06", "LINK-09")
def test_without_guild_warfare_armies_stay_in_mare_nostrum() -> None:
    res = run_campaign(variant(_war_scenario(), systems=["km", "mn"]))
    assert res.world.mn is not None and res.world.mn.armies
    assert all(x.gw_army is None for x in res.world.mn.armies)
    assert not [e for e in res.ledger.events if e.system in ("gw", "link") and "Army" in e.kind]
    assert build_world(variant(_war_scenario(), systems=["km", "mn"]).scenario, 1).gw is None
