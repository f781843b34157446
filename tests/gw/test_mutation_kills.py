"""Tests written against surviving mutants of tools/mutate.py (issue 10): each one pins a GW rule
behaviour (sim/rules/warfare.py) that no earlier test distinguished from a plausible mistake.

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments)."""

from __future__ import annotations

import pytest

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules import warfare as wf
from sim.state.gw import (
    Annex,
    AttackDomain,
    Deploy,
    DomainAction,
    LendSeals,
    Move,
    Recruit,
    Reinforce,
    ReturnTitle,
)
from tests.gw.helpers import hx, make_world, play, put_army, put_domain, start_season

# ---- strength, bonuses, fortification ----------------------------------------------------------------


@pytest.mark.rule("SC-GW-07", "RES-GW-07", "RES-GW-08")
def test_a_level_beyond_an_overridden_fortification_table_gets_its_last_bonus():
    """A domain's level above the configured table (shortened by an override) counts as the table's
    highest level instead of failing."""
    w = make_world(
        '[[domains]]\nid = "K"\nat = [10, 2]\nowner = "c"\nfortification = 3\ngarrison = { militia = 2 }\n',
        config={"gw.fortifications": [0, 1], "gw.keep_level": 1},
    )
    dom = w.gw.domains["K"]
    assert wf.fort_bonus(w, dom) == 1  # level 3 → last entry of [0, 1]
    assert wf.garrison_strength(w, dom) == 4  # 2 militia × (1 base + 1 fortification)


@pytest.mark.rule("RES-GW-07", "GW-CMB-02")
def test_a_bonus_selecting_a_unit_kind_goes_to_that_kind_only():
    """A scenario bonus with a ``kind`` selector is given to the units of that kind, not the others."""
    w = make_world(
        '[[domains]]\nid = "D1"\nat = [1, 1]\nowner = "a"\ngarrison = { infantry = 1, militia = 1 }\n'
        '[[unit_bonuses]]\nsource = "sépium"\nvalue = 1\nkind = "infantry"\n'
    )
    by_kind = {u.kind: [(b.source, b.value) for b in u.bonuses] for u in w.gw.domains["D1"].garrison}
    assert by_kind == {"infantry": [("sépium", 1)], "militia": []}
    assert wf.garrison_strength(w, w.gw.domains["D1"]) == 4  # infantry 2 + 1, militia 1


# ---- movement ---------------------------------------------------------------------------------------


@pytest.mark.rule("GW-MOV-02", "RES-GW-05")
def test_an_army_without_units_has_no_speed_and_stays_put():
    """GW-MOV-02: an army moves at its slowest unit's capacity; an army with no unit (the scenario may
    field one) has none, so a Move leaves it where it is."""
    w = make_world('[[armies]]\nid = "X"\nowner = "a"\nat = [1, 1]\nseals = ["a-m1"]\n')
    start_hex = hx(w, 1, 1)
    led = play(w, 1, [Move(guild="a", army="X", to=hx(w, 4, 1))])
    (ev,) = led.of_kind("ArmyMoved")
    assert ev.data["speed"] == 0 and ev.total == 0 and ev.outcome == "under way"
    assert ev.data["path"] == [start_hex] and w.gw.armies["X"].hex == start_hex


@pytest.mark.rule("RES-GW-05", "RES-GW-27")
def test_hex_zero_is_a_legal_move_destination():
    """The map's first hex (id 0, a land corner) is reachable by land like any other."""
    w = make_world()
    put_army(w, "A1", "a", hx(w, 3, 0), {"cavalry": 1})
    start_season(w, 1, Ledger())
    assert hx(w, 0, 0) == 0
    wf.check_order(w, Move(guild="a", army="A1", to=0))
    led = play(w, 1, [Move(guild="a", army="A1", to=0)])
    (ev,) = led.of_kind("ArmyMoved")
    assert ev.outcome == "arrived" and ev.total == 3 and w.gw.armies["A1"].hex == 0  # 3 hexes west


# ---- deploying --------------------------------------------------------------------------------------


@pytest.mark.rule("GW-DEP-07", "RES-GW-04", "RES-GW-27")
def test_requisitions_of_two_deployments_from_one_garrison_add_up():
    """A guild's earlier Deploy of the season has already taken its requisitioned units: a second one
    can only requisition what is left of the garrison."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1), garrison={"militia": 6})
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, Deploy(guild="a", domain="D1", seals=["a-m1"], requisition={"militia": 4}), led)
    # 6 militia − 4 already requisitioned = 2 left; 4 more is too many
    with pytest.raises(IllegalOrderError, match="GW-DEP-07: requisition of 4 militia from D1, whose garrison has 2"):
        wf.check_order(w, Deploy(guild="a", domain="D1", seals=["a-m2"], requisition={"militia": 4}))
    wf.check_order(w, Deploy(guild="a", domain="D1", seals=["a-m2"], requisition={"militia": 2}))


@pytest.mark.rule("GW-DEP-04", "RES-GW-02")
def test_own_seal_share_is_compared_as_an_exact_percentage():
    """With the share set to 67%, 2 own seals of 3 (66.7%) are too few; the test is own × 100 ≥ 67 × total."""
    w = make_world(config={"gw.own_seal_percent": 67})
    w.gw.guilds["b"].lends_to = ["a"]
    w.gw.guilds["a"].pool = {"infantry": 10}
    put_domain(w, "D1", "a", hx(w, 1, 1))
    start_season(w, 0, Ledger())
    # 2 × 100 = 200 < 67 × 3 = 201: rejected
    with pytest.raises(IllegalOrderError, match="GW-DEP-04: only 2 of the 3 engaged seals belong to a"):
        wf.check_order(w, Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "b-m1"], units={"infantry": 5}))
    # 3 × 100 = 300 ≥ 67 × 4 = 268: accepted
    wf.check_order(w, Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "a-m3", "b-m1"], units={"infantry": 5}))


# ---- recruiting -------------------------------------------------------------------------------------


@pytest.mark.rule("SC-GW-15")
def test_a_recruit_costing_exactly_the_chest_is_legal():
    """Only a recruit order the chest cannot pay is illegal: spending the whole chest is allowed."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].solars = 25
    led = play(w, 0, [Recruit(guild="a", units={"militia": 5})])  # 5 militia × 5 solars = 25 = the chest
    assert led.of_kind("OrderRejected") == []
    assert w.gw.guilds["a"].pool.get("militia", 0) == 5
    w.gw.guilds["a"].solars = 24
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="SC-GW-15: the chest holds 24 solars; these recruits cost 25"):
        wf.check_order(w, Recruit(guild="a", units={"militia": 5}))


# ---- reinforcing, domain actions, lending -----------------------------------------------------------


@pytest.mark.rule("SC-GW-09")
def test_reinforcing_with_a_unit_kind_the_pool_lacks_is_illegal():
    """Reinforce moves units from the guild's pool: a kind the pool does not hold at all counts as 0."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].pool = {"infantry": 5}
    start_season(w, 0, Ledger())
    with pytest.raises(IllegalOrderError, match="SC-GW-09: guild a sends 1 militia but its unit pool holds 0"):
        wf.check_order(w, Reinforce(guild="a", domain="D1", units={"militia": 1}))
    wf.check_order(w, Reinforce(guild="a", domain="D1", units={"infantry": 1}))


@pytest.mark.rule("RES-GW-19", "SC-GW-09")
def test_an_unknown_domain_action_is_an_invalid_order_listing_the_known_ones():
    """A domain action that is neither on the GW-OCC-02 allow-list nor a work is an unknown order."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    start_season(w, 0, Ledger())
    with pytest.raises(InvalidOrderError, match="unknown domain action 'dance' \\(known: sortie_assault, drug_the_vanguard, .*, cast_spell, build, assign\\)"):
        wf.check_order(w, DomainAction(guild="a", domain="D1", action="dance"))


@pytest.mark.rule("GW-DEP-04", "RES-GW-02", "RES-GW-27")
def test_a_lend_seals_order_is_recorded_under_the_seal_lending_clauses():
    """The ledger's OrderGiven event of a LendSeals order names GW-DEP-04 / RES-GW-02, not the generic
    order clauses."""
    w = make_world()
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, LendSeals(guild="e", to="a"), led)
    (ev,) = led.of_kind("OrderGiven")
    assert ev.clauses == ("GW-DEP-04", "RES-GW-02", "RES-GW-27") and ev.outcome == "lend_seals"
    assert w.gw.guilds["e"].lends_to == ["a"]


# ---- attacking an occupied domain -------------------------------------------------------------------


@pytest.mark.rule("GW-ATK-04", "GW-ATK-01", "RES-GW-18")
def test_a_domain_occupied_by_one_guild_can_be_attacked_by_another_but_not_by_it_again():
    """An occupation by guild b does not stop guild a attacking the domain; a second army of b may not
    attack what b already occupies."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)  # fortification 0: may be attacked at once (GW-ATK-01)
    put_army(w, "Z", "b", h, {"infantry": 5})
    put_army(w, "Z2", "b", h, {"infantry": 2})
    put_army(w, "Y", "a", h, {"infantry": 3})
    w.gw.armies["Z"].occupying = "D"
    w.gw.armies["Z"].occupying_since = 0
    wf.refresh_statuses(w)
    assert w.gw.domains["D"].occupied_by == ["Z"]
    start_season(w, 1, Ledger())
    wf.check_order(w, AttackDomain(guild="a", army="Y", domain="D"))
    with pytest.raises(IllegalOrderError, match="GW-ATK-04: domain D is already occupied by guild b"):
        wf.check_order(w, AttackDomain(guild="b", army="Z2", domain="D"))


# ---- annexation and the title -----------------------------------------------------------------------


@pytest.mark.rule("RES-GW-24", "GW-ANX-04", "RES-GW-25")
def test_a_title_returned_too_late_after_an_annexation_in_season_0_names_the_missed_window():
    """Season 0 is a season like any other: a domain annexed then had its return window in season 1
    only, and a return in season 2 is refused under RES-GW-24 (not as if it was never annexed)."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    w.gw.armies["Z"].occupying = "D"
    w.gw.armies["Z"].occupying_since = -1  # taken before the first season
    wf.refresh_statuses(w)
    led = play(w, 0, [Annex(guild="a", domain="D", seal="a-p1")])
    (ev,) = led.of_kind("DomainAnnexed")
    assert ev.data["former_owner"] == "c" and w.gw.domains["D"].annexed_season == 0
    start_season(w, 2, Ledger())  # A = 0: window A + 1 = 1 has passed
    with pytest.raises(IllegalOrderError, match="RES-GW-24: D was annexed in season 0: its title could be returned only in season 1, not in season 2"):
        wf.check_order(w, ReturnTitle(guild="c", domain="D"))


# ---- the legal-order lists --------------------------------------------------------------------------


@pytest.mark.rule("SC-GW-09", "RES-GW-27")
def test_legal_orders_offer_reinforcing_with_the_whole_remaining_pool():
    """After a Reinforce that used up the militia, the remaining pool (archers and infantry, no militia)
    is offered whole, once per domain, alongside the per-kind sizes."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].pool = {"archer": 3, "infantry": 5, "militia": 2}
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, Reinforce(guild="a", domain="D1", units={"militia": 2}), led)
    reinf = [o for o in wf.legal_orders(w, "a") if isinstance(o, Reinforce)]
    # archer: 1 or 3; infantry: 1 or 5; both kinds whole: {archer 3, infantry 5}; nothing with militia
    assert sorted(str(o) for o in reinf) == sorted(
        str(Reinforce(guild="a", domain="D1", units=u))
        for u in ({"archer": 1}, {"archer": 3}, {"infantry": 1}, {"infantry": 5}, {"archer": 3, "infantry": 5})
    )


@pytest.mark.rule("SC-GW-09", "RES-GW-27")
def test_legal_orders_offer_a_single_kind_pool_once():
    """With one unit kind in the pool, "all of the pool" is the "all of that kind" order: listed once."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].pool = {"infantry": 5}
    start_season(w, 0, Ledger())
    reinf = [str(o) for o in wf.legal_orders(w, "a") if isinstance(o, Reinforce)]
    assert sorted(reinf) == sorted(str(Reinforce(guild="a", domain="D1", units={"infantry": m})) for m in (1, 5))


@pytest.mark.rule("SC-GW-15", "RES-GW-27")
def test_legal_orders_offer_the_most_recruits_the_rest_of_the_chest_pays():
    """The "as many as allowed" Recruit is sized by what the chest still holds after the season's
    earlier recruits."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    put_domain(w, "D2", "a", hx(w, 2, 4))
    w.gw.guilds["a"].solars = 40
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, Recruit(guild="a", units={"militia": 2}), led)  # 2 × 5 = 10 solars
    # cap 5 × 2 domains − 2 = 8; budget 40 − 10 = 30 → 30 // 5 = 6 militia at most
    sizes = sorted(o.units["militia"] for o in wf.legal_orders(w, "a") if isinstance(o, Recruit) and "militia" in o.units)
    assert sizes == [1, 5, 6]
