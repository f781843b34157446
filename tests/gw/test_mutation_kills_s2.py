"""Tests written against the survivors of a fresh mutation sample (issue 29: ``tools/mutate.py gw --fresh
--seed 2``): each pins a GW behaviour (sim/rules/gw/) that a mutant changed and no earlier test
noticed. Expected values are worked out by hand from RULES.md (§3, §5.3, the §7.3 examples) and the
ENG-GW entries of docs/resolutions.md; the arithmetic is in the comments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import Annex, AttackDomain, Deploy, DomainAction, LendSeals, Move, Recruit, Sack, Siege
from tests.gw.helpers import hx, make_world, occupy, play, put_army, put_domain, start_season

# ---- annexation (GW-ANX, RES-GW-23/28) --------------------------------------------------------------


def _occupied_d() -> Any:
    """Domain D of guild c at (10, 2), no garrison, occupied since season 0 by army Z of guild a
    (5 infantry); a's chest 1000 solars."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    occupy(w, "Z", "D")
    return w


@pytest.mark.rule("GW-ANX-01", "RES-GW-28", "RES-GW-23", "RES-GW-27")
def test_an_annexation_whose_occupier_marched_away_is_rejected_and_its_deposit_returned():
    """Season 1: a orders the annexation of D (500 solars deposited at once, RES-GW-23) and moves Z away
    from D's hex. In phase (6) no army of a occupies D: the order is rejected (GW-ANX-01) and the 500
    come back. a's chest: 1000 − 500 + 500 − 5 upkeep (5 units × 1 solar, SC-GW-16) = 995; the bank
    holds nothing."""
    w = _occupied_d()
    led = play(w, 1, [Annex(guild="a", domain="D", seal="a-p1"), Move(guild="a", army="Z", to=hx(w, 12, 2))])
    (rej,) = led.of_kind("OrderRejected")
    assert rej.clauses[0] == "GW-ANX-01" and "no army of a occupies D" in rej.data["reason"]
    assert led.of_kind("DomainAnnexed") == []
    assert w.gw.guilds["a"].solars == 995
    assert (w.gw.bank.held, w.gw.bank.deposits) == (0, [])
    assert w.gw.domains["D"].owner_guild == "c"


@pytest.mark.rule("GW-ANX-01", "RES-GW-28")
def test_an_annexation_resolved_directly_is_still_checked():
    """EX-GW-04: in the season of the successful attack the annexation is rejected (only from the
    season after it, GW-ANX-01) — also when the annexation is resolved directly; nothing is paid."""
    w = _occupied_d()
    led = Ledger()
    start_season(w, 0, led)
    with pytest.raises(IllegalOrderError, match="GW-ANX-01: D was taken this season"):
        wf.annex_domain(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    assert w.gw.guilds["a"].solars == 1000 and w.gw.domains["D"].owner_guild == "c"


@pytest.mark.rule("RES-GW-23", "GW-ANX-02", "GW-ANX-03")
def test_a_chest_holding_exactly_the_compensation_can_pay_it():
    """RES-GW-23: rejected only if the chest cannot pay; 500 solars pay the 500 (chest 0, bank 500)."""
    w = _occupied_d()
    w.gw.guilds["a"].solars = 500
    led = Ledger()
    start_season(w, 1, led)
    wf.annex_domain(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    assert w.gw.guilds["a"].solars == 0 and w.gw.bank.held == 500
    assert (w.gw.domains["D"].owner_guild, w.gw.domains["D"].owner) == ("a", "Alice")


# ---- occupation, siege, sack ------------------------------------------------------------------------


@pytest.mark.rule("GW-ATK-04", "RES-GW-20", "GW-SIEGE-02", "SC-GW-09")
def test_an_army_that_takes_the_domain_it_besieged_occupies_it_and_no_longer_besieges_it():
    """EX-GW-03: Z besieges D in S, takes it by assault in S+1: D is then occupied (GW-ATK-04), not
    besieged — its siege is over, and Z cannot be ordered to siege its own guild's occupation (ENG-GW-07),
    so nothing is lifted at the start of S+2."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=2, garrison=[("militia", 6), ("infantry", 6)])
    w.gw.guilds["c"].victuals = 40
    put_army(w, "Z", "a", h, {"infantry": 20, "siege_engine": 2})
    dice = ScriptedDice(["1d6=2"])  # the loot of S+1: 12 units destroyed
    play(w, 0, [Siege(guild="a", army="Z", domain="D")], dice)
    assert w.gw.domains["D"].besieged_by == ["Z"]
    led = play(w, 1, [AttackDomain(guild="a", army="Z", domain="D")], dice)
    assert led.of_kind("DomainAttacked")[0].outcome == "success"
    dom, z = w.gw.domains["D"], w.gw.armies["Z"]
    assert (dom.occupied_by, dom.besieged_by, z.occupying, z.besieging) == (["Z"], [], "D", None)
    led3 = play(w, 2, [], ScriptedDice([]))
    assert led3.of_kind("SiegeAbandoned") == []
    assert (dom.occupied_by, dom.besieged_by) == (["Z"], [])


@pytest.mark.rule("SC-GW-13", "GW-LOOT-04", "RES-GW-16")
def test_a_sack_destroys_a_building_whose_points_reach_the_armys_strength_exactly():
    """SC-GW-13: buildings fall while the running total stays ≤ the strength: 5 infantry = 10; the
    10-SP hall (total 10 ≤ 10) falls, the well (11 > 10) is spared. 10 SP ≥ 10 → loot 10 × 3 × 10 = 300."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, buildings=[("Halle", 10), ("Puits", 1)])
    put_army(w, "Z", "a", h, {"infantry": 5})
    occupy(w, "Z", "D")
    led = play(w, 1, [Sack(guild="a", army="Z", domain="D")], ScriptedDice(["1d6=3"]))
    sack = led.of_kind("DomainSacked")[0]
    assert (sack.dc, sack.total, [n for _, n, _ in sack.data["destroyed"]]) == (10, 10, ["Halle"])
    assert [b.name for b in w.gw.domains["D"].buildings] == ["Puits"]
    assert [(lt.source, lt.value) for lt in w.gw.loot] == [("sack", 300)]


@pytest.mark.rule("SC-GW-09", "RES-GW-27")
def test_a_second_army_does_not_siege_a_domain_its_guild_already_occupies():
    w = _occupied_d()
    put_army(w, "Y", "a", hx(w, 10, 2), {"infantry": 3})
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="SC-GW-09: domain D is already occupied by guild a"):
        wf.check(w, "a", Siege(guild="a", army="Y", domain="D"))


@pytest.mark.rule("GW-OCC-02", "RES-GW-19")
def test_a_magic_item_is_refused_only_on_a_consenting_domain_that_is_occupied():
    """GW-OCC-02: "use a magic item, except when its target is a consenting domain that is occupied".
    T1 consents to a and is occupied: refused. T2 consents but is free, T3 is occupied but does not
    consent: both allowed."""
    w = make_world()
    put_domain(w, "A1", "a", hx(w, 1, 1))
    put_domain(w, "T1", "c", hx(w, 10, 1), consents_to=["a"])
    put_domain(w, "T2", "c", hx(w, 11, 1), consents_to=["a"])
    put_domain(w, "T3", "c", hx(w, 12, 1))
    put_army(w, "B1", "b", hx(w, 10, 1), {"infantry": 2})
    put_army(w, "B3", "b", hx(w, 12, 1), {"infantry": 2})
    occupy(w, "B1", "T1")
    occupy(w, "B3", "T3")
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-OCC-02: a magic item may not target T1, a consenting domain that is occupied"):
        wf.check(w, "a", DomainAction(guild="a", domain="A1", action="use_magic_item", target="T1"))
    wf.check(w, "a", DomainAction(guild="a", domain="A1", action="use_magic_item", target="T2"))
    wf.check(w, "a", DomainAction(guild="a", domain="A1", action="use_magic_item", target="T3"))


# ---- bonuses, movement ------------------------------------------------------------------------------


@pytest.mark.rule("RES-GW-07", "GW-CMB-02")
def test_a_bonus_selecting_a_guild_goes_to_that_guilds_units_only():
    w = make_world(
        '[[domains]]\nid = "D1"\nat = [1, 1]\nowner = "a"\ngarrison = { infantry = 1 }\n'
        '[[domains]]\nid = "D2"\nat = [7, 1]\nowner = "b"\ngarrison = { infantry = 1 }\n'
        '[[unit_bonuses]]\nsource = "magie"\nvalue = 1\nguild = "a"\n'
    )
    got = {d: [b.source for u in w.gw.domains[d].garrison for b in u.bonuses] for d in ("D1", "D2")}
    assert got == {"D1": ["magie"], "D2": []}
    assert (wf.garrison_strength(w, w.gw.domains["D1"]), wf.garrison_strength(w, w.gw.domains["D2"])) == (3, 2)


@pytest.mark.rule("RES-GW-07", "GW-CMB-02", "GW-CMB-03")
def test_a_bonus_selecting_an_army_and_one_selecting_nothing_both_go_to_that_armys_units():
    """Army X's two infantry get the bonus that names X and the one that names nothing; capped at +1
    each (GW-CMB-03): strength 2 × (2 + 1) = 6."""
    w = make_world(
        '[[armies]]\nid = "X"\nowner = "a"\nat = [1, 1]\nseals = ["a-m1"]\nunits = { infantry = 2 }\n'
        '[[unit_bonuses]]\nsource = "magie"\nvalue = 1\narmy = "X"\n'
        '[[unit_bonuses]]\nsource = "sépium"\nvalue = 1\n'
    )
    x = w.gw.armies["X"]
    assert [sorted(b.source for b in u.bonuses) for u in x.units] == [["magie", "sépium"], ["magie", "sépium"]]
    assert wf.army_strength(w, x) == 6


@pytest.mark.rule("RES-GW-05", "GW-MOV-01")
def test_a_hex_cut_off_by_water_has_no_land_path():
    """Hex (13, 0), the map's north-east corner, with water on its three land sides, (12, 0), (12, 1)
    and (13, 1): an island. An army at (1, 1) has no land path to it."""
    w = make_world()
    for col, row in ((12, 0), (12, 1), (13, 1)):
        w.map.hexes[hx(w, col, row)].terrain = "water"
    w.gw.land_component = wf.land_components(w)
    put_army(w, "A1", "a", hx(w, 1, 1), {"cavalry": 1})
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="RES-GW-05: no land path from"):
        wf.check(w, "a", Move(guild="a", army="A1", to=hx(w, 13, 0)))
    wf.check(w, "a", Move(guild="a", army="A1", to=hx(w, 11, 0)))


# ---- the menu of orders (legal_orders) and its bound ------------------------------------------------


@pytest.mark.rule("SC-GW-15", "RES-GW-27")
def test_a_free_unit_type_leaves_the_menu_of_orders_whole():
    """A scenario may price a unit at 0 solars (CFG.gw.unit_cost_solars ≥ 0): the menu is still made,
    and offers the other types (infantry at 10: 1 and 5 recruits for a's one domain)."""
    costs = {"militia": 0, "infantry": 10, "archer": 12, "cavalry": 15, "knight": 20, "siege_engine": 30}
    w = make_world(config={"gw.unit_cost_solars": costs})
    put_domain(w, "D1", "a", hx(w, 1, 1))
    start_season(w, 1, Ledger())
    recruits = [o for o in wf.legal_orders(w, "a") if isinstance(o, Recruit)]
    assert Recruit(guild="a", units={"infantry": 1}) in recruits
    assert Recruit(guild="a", units={"infantry": 5}) in recruits
    wf.check(w, "a", Recruit(guild="a", units={"militia": 5}))  # legal, and free


@pytest.mark.rule("GW-OCC-02", "RES-GW-19")
def test_the_owner_of_an_occupied_domain_is_offered_the_allow_list():
    """GW-OCC-02's list, but for casting spells (D is no parish nor arcane place), and nothing else."""
    w = make_world()
    put_domain(w, "D", "a", hx(w, 10, 2))
    put_army(w, "Y", "b", hx(w, 10, 2), {"infantry": 2})
    occupy(w, "Y", "D")
    start_season(w, 1, Ledger())
    acts = sorted(o.action for o in wf.legal_orders(w, "a") if isinstance(o, DomainAction) and o.domain == "D")
    assert acts == sorted(["sortie_assault", "drug_the_vanguard", "mercenary_support", "last_stand", "heroic_speech",
                           "use_consumable", "use_magic_item", "revolt", "use_knowledge_stones", "vote", "change_title"])


@pytest.mark.rule("GW-DEP-05", "GW-DEP-07", "SC-GW-06")
def test_the_menu_fills_a_deployment_from_the_pool_strongest_type_first():
    """One seal: capacity 10 (GW-DEP-05). The pool holds 10 militia (CS 1) and 5 siege engines (CS 3):
    the menu's fill takes the strongest type first — 5 siege engines, then 5 militia."""
    w = make_world()
    w.gw.guilds["a"].pool = {"militia": 10, "siege_engine": 5}
    put_domain(w, "D1", "a", hx(w, 1, 1))
    start_season(w, 1, Ledger())
    one = [o for o in wf.legal_orders(w, "a") if isinstance(o, Deploy) and len(o.seals) == 1 and not o.requisition]
    assert [o.units for o in one] == [{"siege_engine": 5, "militia": 5}]


class _EndlessLender:
    """A decider that never ends a guild's orders: it withdraws and gives its consent to lend seals
    to b, again and again (each LendSeals order is legal after the one before)."""

    def decide(self, actor: str, decision: str, legal: Sequence[Any], context: Mapping[str, Any]) -> Any:
        return next(o for o in legal if isinstance(o, LendSeals) and o.to == "b")


@pytest.mark.rule("RES-GW-27", "SC-GW-09")
def test_a_guild_gives_at_most_120_orders_a_season():
    """docs/agents.md: a guild gives at most 120 orders a season (a decider that never says "end of
    orders" stops there)."""
    w = make_world()
    start_season(w, 1, Ledger())
    given = wf.give_orders(w, "a", _EndlessLender(), Ledger())
    assert len(given) == 120 and len(w.gw.orders) == 120
    assert given[0] == LendSeals(guild="a", to="b", lend=True) and given[1] == LendSeals(guild="a", to="b", lend=False)


# ---- war loot (GW-LOOT-02, RES-GW-14) ------------------------------------------------------------------


@pytest.mark.rule("GW-LOOT-02", "RES-GW-14", "GW-LOOT-05")
def test_the_loot_made_at_the_end_of_a_season_is_returned_and_counted():
    """EX-GW-02: 21 units destroyed on one hex, 1d6 = 4 → one loot of 21 × 4 × 10 = 840 solars; the
    campaign counts one loot and 840 solars of loot."""
    w = make_world()
    h = hx(w, 7, 4)
    w.gw.destroyed_on = {h: 21}
    made = wf.create_loot(w, ScriptedDice(["1d6=4"]), Ledger())
    assert [(lt.hex, lt.value, lt.units, lt.source) for lt in made] == [(h, 840, 21, "battle")]
    assert (w.gw.stats.loot_created, w.gw.stats.loot_solars) == (1, 840)
