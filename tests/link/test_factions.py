"""LINK-03: factions (a kingdom, a nation or both), one treasury in BP for a faction that is both, and
the affiliation of guilds."""

from __future__ import annotations

import pytest

from agents.campaign import run_campaign, variant
from scenarios.build import build_world
from sim.errors import ScenarioError
from sim.rules import links
from sim.rules import mn as dip
from sim.rules.links import MnTreasuries
from tests.link.helpers import ledger, mini, world

RATES = {"link.gp_per_bp": 100, "link.gp_per_po": 10}  # 1 BP = 10 PO


@pytest.mark.rule("LINK-03")
def test_a_faction_that_is_both_is_one_record_on_each_side() -> None:
    w = world()
    assert w.km is not None and w.mn is not None
    assert w.km.kingdoms["alpha"].nation == "alpha" and w.mn.nations["alpha"].kingdom == "alpha"
    assert w.km.kingdoms["beta"].nation is None  # a kingdom only
    assert w.mn.nations["delta"].kingdom is None  # a nation only
    assert links.faction_of(w, "alpha") == ("alpha", "alpha")
    assert links.faction_of(w, "beta") == ("beta", None)
    assert links.faction_of(w, "delta") == (None, "delta")
    assert links.is_dual(w, "alpha") and not links.is_dual(w, "delta")


@pytest.mark.rule("LINK-03")
def test_guilds_are_affiliated_with_a_kingdom_a_nation_or_nothing() -> None:
    w = world()
    assert links.affiliation_of(w, "ga") == ("alpha", "alpha")
    assert links.affiliation_of(w, "gb") == ("beta", None)
    assert links.affiliation_of(w, "gd") == (None, "delta")
    assert links.affiliation_of(w, "gi") == (None, None)


@pytest.mark.rule("LINK-03", "LINK-02")
def test_the_one_treasury_is_the_kingdoms_shown_to_mare_nostrum_in_po() -> None:
    w = world(overrides=RATES)
    assert w.mn is not None and w.km is not None
    assert w.mn.nations["alpha"].treasury == 300  # 30 BP
    assert w.mn.nations["delta"].treasury == 500  # a nation alone keeps its PO
    w.km.kingdoms["alpha"].treasury = -4  # a kingdom in debt (SC-KM-05): nothing to spend in Mare Nostrum
    MnTreasuries(w, ledger())
    assert w.mn.nations["alpha"].treasury == 0


@pytest.mark.rule("LINK-03", "LINK-02", "MN-MIS-02", "MN-MOD-07")
def test_mare_nostrum_costs_are_converted_to_bp_and_rounded_down() -> None:
    w = world(overrides=RATES)
    assert w.mn is not None and w.km is not None
    led = ledger()
    money = MnTreasuries(w, led)
    cfg = w.config.mn
    w.mn.turn = 1
    dip.resolve_launch(w.mn, "alpha", dip.LaunchMission("alpha-1", "gamma", "commercial", 5), led, cfg)
    assert w.mn.nations["alpha"].treasury == 265  # 300 − 30 − 5, until settled
    money.settle("mission")
    ev = led.of_kind("TreasuryConverted")[-1]
    assert ev.clauses == ("LINK-03", "LINK-02") and ev.outcome == "cost" and ev.total == -3  # 35 PO = 350 gp = 3 BP
    assert (ev.data["po"], ev.data["bp"], ev.data["treasury_before"], ev.data["treasury_after"]) == (35, 3, 30, 27)
    assert w.km.kingdoms["alpha"].treasury == 27
    assert w.mn.nations["alpha"].treasury == 270  # shown again from the BP treasury
    money.settle("nothing")
    assert len(led.of_kind("TreasuryConverted")) == 1  # no change, no conversion


@pytest.mark.rule("LINK-03", "LINK-02", "SC-MN-06")
def test_mare_nostrum_income_is_converted_to_bp_and_rounded_down() -> None:
    w = world(overrides=RATES)
    assert w.mn is not None and w.km is not None
    led = ledger()
    money = MnTreasuries(w, led)
    w.mn.turn = 1
    dip.end_of_turn(w.mn, lambda n: None, led, w.config.mn)  # type: ignore[arg-type,return-value]
    income = led.of_kind("IncomeCollected")[0]
    assert income.actor == "nation:alpha" and income.total == 40  # 20 PO for North + 10 PO for grain, doubled: a monopoly
    money.settle("income")
    ev = led.of_kind("TreasuryConverted")[-1]
    assert ev.outcome == "income" and ev.total == 4 and w.km.kingdoms["alpha"].treasury == 34  # 400 gp = 4 BP
    assert w.mn.nations["delta"].treasury == 500 + 40  # a nation alone keeps its PO: 20 for Far + 2 × 10 for salt


@pytest.mark.rule("LINK-03", "LINK-02")
def test_at_the_default_rates_small_po_amounts_are_worth_no_bp() -> None:
    # implemented literally: 4,000 gp per BP and 1 gp per PO make a 30 PO mission cost 0 BP
    w = world()
    assert w.mn is not None and w.km is not None
    led = ledger()
    money = MnTreasuries(w, led)
    w.mn.turn = 1
    dip.resolve_launch(w.mn, "alpha", dip.LaunchMission("alpha-1", "gamma", "commercial", 0), led, w.config.mn)
    money.settle("mission")
    ev = led.of_kind("TreasuryConverted")[-1]
    assert (ev.data["po"], ev.data["bp"], ev.total) == (30, 0, 0)
    assert w.km.kingdoms["alpha"].treasury == 30 and w.mn.nations["alpha"].treasury == 120000


@pytest.mark.rule("LINK-03")
def test_a_campaign_settles_every_mare_nostrum_cost_and_income_in_bp() -> None:
    res = run_campaign(mini(), overrides=RATES)
    conv = [e for e in res.ledger.events if e.kind == "TreasuryConverted"]
    assert conv and {e.actor for e in conv} == {"kingdom:alpha"}
    assert any(e.outcome == "income" for e in conv) and any(e.outcome == "cost" for e in conv)
    for e in conv:
        assert e.data["treasury_after"] - e.data["treasury_before"] == e.total
        assert abs(e.total) == e.data["po"] * 10 // 100
    assert res.summary["link.mn_incomes_bp"] == sum(e.total for e in conv if e.outcome == "income")
    assert res.summary["link.mn_costs_bp"] == -sum(e.total for e in conv if e.outcome == "cost")


# ---- the scenario side ------------------------------------------------------------------------------


@pytest.mark.rule("LINK-03")
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[[factions]]\nkingdom = "gamma"\n', r'factions\[2\]\.kingdom: expected a kingdom id of \[\[kingdoms\]\] \("alpha", "beta"\), found "gamma"'),
        ('[[factions]]\nnation = "omega"\n', r'factions\[2\]\.nation: expected a nation id of \[\[nations\]\] \("alpha", "delta"\), found "omega"'),
        ('[[factions]]\nname = "nobody"\n', r"factions\[2\]: expected a kingdom, a nation or both \(LINK-03\), found neither"),
        ('[[factions]]\nkingdom = "beta"\nnation = "delta"\n', r'factions\[2\]\.nation: expected a nation in one faction, found "delta", already in factions\[1\]'),
        ('[[factions]]\nkingdom = "beta"\nlevy = { infantry = 2 }\n', r"factions\[2\]\.levy: expected nothing \(LINK-06: only a nation raises armies as a guild\)"),
    ],
)
def test_factions_are_checked(extra: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        mini(extra=extra)


@pytest.mark.rule("LINK-03")
def test_an_affiliation_names_a_kingdom_or_a_nation() -> None:
    with pytest.raises(ScenarioError, match=r'guilds\[3\]\.affiliation: expected a kingdom or nation id \(LINK-03\) \("alpha", "alpha", "beta", "delta"\), found "gamma"'):
        mini({'id = "gi"\nleader = "Ida"\n': 'id = "gi"\nleader = "Ida"\naffiliation = "gamma"\n'})


@pytest.mark.rule("LINK-03")
def test_an_affiliation_naming_two_factions_is_ambiguous() -> None:
    # kingdom beta and a nation beta that are not one faction
    text = {
        '[[nations]]\nid = "delta"\n': '[[nations]]\nid = "beta"\ncapital = "beta-city"\n[[nations]]\nid = "delta"\n',
    }
    with pytest.raises(ScenarioError, match=r'guilds\[1\]\.affiliation: expected an id that names one faction \(LINK-03\), found "beta", both a kingdom and a nation'):
        mini(text)


@pytest.mark.rule("LINK-03", "LINK-06")
def test_no_guild_may_take_a_nations_id_when_nations_act_as_guilds() -> None:
    extra = '[[guilds]]\nid = "delta"\nleader = "Zed"\n'
    with pytest.raises(ScenarioError, match=r'guilds\[4\]\.id: expected an id no nation uses \(LINK-06: a nation acts as the guild of its own id\), found "delta"'):
        mini(extra=extra)
    # without guild warfare and Mare Nostrum together, the id is free
    loaded = mini({'systems = ["km", "mn", "gw"]': 'systems = ["km", "gw"]'}, extra=extra)
    assert "delta" in (build_world(loaded.scenario, 1).gw.guilds)  # type: ignore[union-attr]


@pytest.mark.rule("LINK-03", "LINK-09")
def test_references_to_a_disabled_system_do_not_link() -> None:
    # KM off: alpha is only a nation, beta's guild is independent, no treasury is converted
    w = build_world(variant(mini(), systems=["mn", "gw"]).scenario, 1)
    assert w.km is None and w.mn is not None and w.gw is not None
    assert w.mn.nations["alpha"].kingdom is None and w.mn.nations["alpha"].treasury == 50  # SC-MN-08's 50 PO
    assert links.affiliation_of(w, "ga") == (None, "alpha")  # the faction's nation half
    assert links.affiliation_of(w, "gb") == (None, None)
    # MN off: alpha is only a kingdom, delta's guild is independent, no nation acts as a guild
    w = build_world(variant(mini(), systems=["km", "gw"]).scenario, 1)
    assert w.mn is None and w.gw is not None and w.km is not None
    assert w.km.kingdoms["alpha"].nation is None
    assert links.affiliation_of(w, "ga") == ("alpha", None) and links.affiliation_of(w, "gd") == (None, None)
    assert sorted(w.gw.guilds) == ["ga", "gb", "gd", "gi"]
