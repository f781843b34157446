"""Tests written against surviving mutants of tools/mutate.py (issue 10): each one pins a GW rule
behaviour (sim/rules/gw/, once warfare.py) that no earlier test distinguished from a plausible mistake.

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import (
    Annex,
    AttackArmy,
    AttackDomain,
    Deploy,
    Disband,
    DomainAction,
    LendSeals,
    Move,
    Recruit,
    Reinforce,
    ReturnTitle,
    Siege,
    TreasureHunt,
)
from tests.gw.helpers import hx, make_world, occupy, play, put_army, put_domain, start_season

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
    wf.check(w, "a", Move(guild="a", army="A1", to=0))
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
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m2"], requisition={"militia": 4}))
    wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m2"], requisition={"militia": 2}))


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
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "b-m1"], units={"infantry": 5}))
    # 3 × 100 = 300 ≥ 67 × 4 = 268: accepted
    wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1", "a-m2", "a-m3", "b-m1"], units={"infantry": 5}))


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
        wf.check(w, "a", Recruit(guild="a", units={"militia": 5}))


# ---- reinforcing, domain actions, lending -----------------------------------------------------------


@pytest.mark.rule("SC-GW-09")
def test_reinforcing_with_a_unit_kind_the_pool_lacks_is_illegal():
    """Reinforce moves units from the guild's pool: a kind the pool does not hold at all counts as 0."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].pool = {"infantry": 5}
    start_season(w, 0, Ledger())
    with pytest.raises(IllegalOrderError, match="SC-GW-09: guild a sends 1 militia but its unit pool holds 0"):
        wf.check(w, "a", Reinforce(guild="a", domain="D1", units={"militia": 1}))
    wf.check(w, "a", Reinforce(guild="a", domain="D1", units={"infantry": 1}))


@pytest.mark.rule("RES-GW-19", "SC-GW-09")
def test_an_unknown_domain_action_is_an_invalid_order_listing_the_known_ones():
    """A domain action that is neither on the GW-OCC-02 allow-list nor a work is an unknown order."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    start_season(w, 0, Ledger())
    with pytest.raises(InvalidOrderError, match="unknown domain action 'dance' \\(known: sortie_assault, drug_the_vanguard, .*, cast_spell, build, assign\\)"):
        wf.check(w, "a", DomainAction(guild="a", domain="D1", action="dance"))


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
    occupy(w, "Z", "D")
    assert w.gw.domains["D"].occupied_by == ["Z"]
    start_season(w, 1, Ledger())
    wf.check(w, "a", AttackDomain(guild="a", army="Y", domain="D"))
    with pytest.raises(IllegalOrderError, match="GW-ATK-04: domain D is already occupied by guild b"):
        wf.check(w, "b", AttackDomain(guild="b", army="Z2", domain="D"))


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
        wf.check(w, "c", ReturnTitle(guild="c", domain="D"))


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


@pytest.mark.rule("GW-DEP-05", "RES-GW-03", "RES-GW-04")
def test_legal_deployments_fill_the_capacity_from_the_pool_strongest_kind_first():
    """One seal lets 10 units in: the pool's 8 infantry (CS 2) come first, then only 2 of its 8 militia."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].pool = {"infantry": 8, "militia": 8}
    start_season(w, 0, Ledger())
    legal = wf.legal_orders(w, "a")
    # capacity 1 seal × 10 = 10: infantry 8, then 10 − 8 = 2 militia
    assert Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 8, "militia": 2}) in legal
    assert not any(isinstance(o, Deploy) and sum(o.units.values()) > 10 * len(o.seals) for o in legal)


@pytest.mark.rule("GW-DEP-07", "RES-GW-03", "RES-GW-04")
def test_legal_deployments_hand_in_the_pool_and_requisition_only_the_room_left():
    """The "both" deployment hands in the whole pool and requisitions from the garrison only up to
    the capacity that is left."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1), garrison={"militia": 6})
    w.gw.guilds["a"].pool = {"infantry": 6}
    start_season(w, 0, Ledger())
    legal = wf.legal_orders(w, "a")
    # capacity 10: 6 infantry handed in, 10 − 6 = 4 of the 6 militia requisitioned
    assert Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 6}, requisition={"militia": 4}) in legal


@pytest.mark.rule("GW-DEP-04", "RES-GW-02")
def test_legal_deployments_include_the_seals_other_guilds_lend():
    """B lends its seals to A: A is offered a deployment with its own seals plus B's (region R, as D1);
    E's seal (region R, not lent) and C's (region Q) are never offered."""
    w = make_world()
    w.gw.guilds["b"].lends_to = ["a"]
    put_domain(w, "D1", "a", hx(w, 1, 1))
    w.gw.guilds["a"].pool = {"infantry": 10}
    start_season(w, 0, Ledger())
    deploys = [o for o in wf.legal_orders(w, "a") if isinstance(o, Deploy)]
    # own free military seals a-m1…a-m4; at most as many lent ones: b-m1…b-m3 (4 own × 2 ≥ 7 engaged)
    assert {tuple(o.seals) for o in deploys} == {
        ("a-m1",), ("a-m1", "a-m2", "a-m3", "a-m4"), ("a-m1", "a-m2", "a-m3", "a-m4", "b-m1", "b-m2", "b-m3"),
    }


# ---- siege statuses ---------------------------------------------------------------------------------


@pytest.mark.rule("GW-SIEGE-03", "RES-GW-20", "RES-GW-17")
def test_a_stale_siege_short_exception_is_dropped_when_a_later_season_starts():
    """The GW-SIEGE-03 exception of a siege in season 0 serves season 1 only: when season 2's deploy
    phase runs (season 1 having been skipped by this test), the army no longer holds it."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=2, garrison={"militia": 6})
    put_army(w, "Z", "a", h, {"infantry": 5})
    play(w, 0, [Siege(guild="a", army="Z", domain="D")])  # 5 units < 6: short
    z = w.gw.armies["Z"]
    assert (z.siege_short, z.siege_short_season) == ("D", 0)
    led = Ledger()
    start_season(w, 2, led)
    wf.resolve_deploy_phase(w, ScriptedDice([]), led)
    assert (z.siege_short, z.siege_short_season) == (None, -1)
    assert not wf.may_assault(w, z, w.gw.domains["D"])


@pytest.mark.rule("GW-SIEGE-03", "RES-GW-20")
def test_an_army_that_now_besieges_no_longer_holds_the_short_siege_exception():
    """Short in season 0 (5 units < 6), then in season 1 with enough units (5 ≥ 4): the army is
    besieging, and its GW-SIEGE-03 exception of season 0 is gone at once."""
    w = make_world()
    h = hx(w, 10, 2)
    dom = put_domain(w, "D", "c", h, fort=2, garrison={"militia": 6})
    put_army(w, "Z", "a", h, {"infantry": 5})
    play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    z = w.gw.armies["Z"]
    assert (z.besieging, z.siege_short, z.siege_short_season) == (None, "D", 0)
    dom.garrison = dom.garrison[:4]
    led = Ledger()
    start_season(w, 1, led)
    wf.give_order(w, Siege(guild="a", army="Z", domain="D"), led)
    for ph in ("deploy", "move", "siege"):
        wf.PHASE_FUNCTIONS[ph](w, ScriptedDice([]), led)
    assert led.of_kind("ArmyBesieging")[0].actor == "army:Z"
    assert (z.besieging, z.siege_short, z.siege_short_season) == ("D", None, -1)


# ---- disbanding, domain actions ---------------------------------------------------------------------


@pytest.mark.rule("SC-GW-09", "SC-GW-03")
def test_disbanding_returns_the_units_to_a_pool_that_had_none_of_that_kind():
    """Disband: the army's 5 infantry go back to the pool, which held no infantry before."""
    w = make_world()
    put_army(w, "Z", "a", hx(w, 3, 3), {"infantry": 5})
    w.gw.guilds["a"].pool = {"militia": 2}
    led = play(w, 1, [Disband(guild="a", army="Z")])
    assert led.of_kind("ArmyDisbanded")[0].data["units"] == {"infantry": 5}
    assert w.gw.guilds["a"].pool == {"infantry": 5, "militia": 2}  # 0 + 5 infantry; militia untouched
    assert "Z" not in w.gw.armies


@pytest.mark.rule("SC-GW-09", "GW-OCC-01", "GW-OCC-02", "RES-GW-19")
def test_disbanding_the_only_occupier_frees_the_domain_at_once():
    """Disbanded in phase (1), the occupying army no longer occupies the domain: the owner's later
    domain action of the same phase is no longer restricted."""
    w = make_world()
    h = hx(w, 10, 2)
    dom = put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    occupy(w, "Z", "D")
    led = Ledger()
    start_season(w, 1, led)
    wf.give_order(w, Disband(guild="a", army="Z"), led)  # guild a resolves before guild c
    wf.give_order(w, DomainAction(guild="c", domain="D", action="revolt"), led)
    wf.resolve_deploy_phase(w, ScriptedDice([]), led)
    assert dom.occupied_by == []
    (ev,) = led.of_kind("DomainActionTaken")
    assert ev.outcome == "revolt" and ev.data["restricted"] is False


@pytest.mark.rule("GW-OCC-01", "RES-GW-19")
def test_a_build_order_starts_a_work_in_progress_once():
    """Building on a free domain records the work in progress; a second build does not add it twice."""
    w = make_world()
    dom = put_domain(w, "D1", "a", hx(w, 1, 1))
    play(w, 0, [DomainAction(guild="a", domain="D1", action="build")])
    assert dom.works == ["build"]
    play(w, 1, [DomainAction(guild="a", domain="D1", action="build")])
    assert dom.works == ["build"]


# ---- famine -----------------------------------------------------------------------------------------


@pytest.mark.rule("GW-FAM-01", "RES-GW-22")
def test_a_garrison_of_one_unit_is_fed_during_a_siege():
    """A single besieged unit eats 1 × 5 victuals like any garrison."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=2, garrison={"militia": 1})
    w.gw.guilds["c"].victuals = 12
    put_army(w, "Z", "a", h, {"infantry": 3})
    led = play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    (fed,) = led.of_kind("GarrisonFed")
    assert (fed.dc, fed.total, fed.outcome) == (5, 5, "fed")  # 1 unit × 5
    assert w.gw.guilds["c"].victuals == 7  # 12 − 5; no yield while besieged


# ---- combats ----------------------------------------------------------------------------------------


@pytest.mark.rule("RES-GW-08", "RES-GW-09", "GW-CMB-05", "GW-CMB-01")
def test_a_battle_reports_the_damage_already_taken_and_the_unit_counts_of_each_front():
    """An infantry already hit for 1 this season counts 2 − 1 = 1: the attacker breakdown shows base 4,
    damage 1, total 3, and the event counts 2 attacking and 1 defending unit (no garrison on either)."""
    w = make_world()
    h = hx(w, 3, 3)
    y = put_army(w, "Y", "a", h, {"infantry": 2})
    put_army(w, "B1", "b", h, {"militia": 1})
    y.units[0].damage = 1  # left over from an earlier combat of the season
    led = play(w, 1, [AttackArmy(guild="a", army="Y", target="B1")])
    (ev,) = led.of_kind("BattleFought")
    assert ev.data["attacker_breakdown"] == {"base": 4, "bonus": 0, "fortification": 0, "damage": 1, "total": 3}
    assert ev.total == 3 and ev.dc == 1
    assert (ev.data["attacker_units"], ev.data["defender_units"]) == (2, 1)


@pytest.mark.rule("GW-CMB-04", "RES-GW-11", "RES-GW-13", "RES-GW-18")
def test_a_single_damage_point_reaches_the_garrison():
    """An attacker of strength 1 deals 1 damage to a garrison of 2 militia (fortification 0): one
    militia (CS 1) is destroyed."""
    w = make_world()
    h = hx(w, 10, 2)
    dom = put_domain(w, "D", "c", h, garrison={"militia": 2})
    put_army(w, "Y", "a", h, {"militia": 1})
    led = play(w, 1, [AttackDomain(guild="a", army="Y", domain="D")])
    (ev,) = led.of_kind("DomainAttacked")
    assert (ev.total, ev.dc) == (1, 2)
    assert [k for _, k in ev.data["defenders_lost"]] == ["militia"] and len(dom.garrison) == 1
    assert ev.outcome == "failure" and "Y" not in w.gw.armies  # 2 damage ≥ 1 CS


@pytest.mark.rule("RES-GW-12", "GW-ORD-03")
def test_combats_that_take_place_come_before_cancelled_ones_even_at_strength_0():
    """A1 (10) destroys B1 first; C1's attack on B1 is then cancelled. E0, an army without units
    (strength 0, the scenario may field one), still fights its combat before the cancelled one is
    recorded."""
    w = make_world()
    h, h2 = hx(w, 3, 3), hx(w, 8, 1)
    put_army(w, "A1", "a", h, {"infantry": 5})  # 5 × 2 = 10
    put_army(w, "C1", "c", h, {"infantry": 1})  # 2
    put_army(w, "B1", "b", h, {"militia": 1})  # 1
    put_army(w, "E0", "e", h2, {})  # 0
    put_army(w, "B2", "b", h2, {"militia": 1})
    led = play(w, 1, [
        AttackArmy(guild="a", army="A1", target="B1"),
        AttackArmy(guild="c", army="C1", target="B1"),
        AttackArmy(guild="e", army="E0", target="B2"),
    ])
    seq = [(e.kind, e.actor) for e in led.events if e.kind in ("BattleFought", "CombatCancelled")]
    assert seq == [("BattleFought", "army:A1"), ("BattleFought", "army:E0"), ("CombatCancelled", "army:C1")]


@pytest.mark.rule("RES-GW-12", "GW-ORD-03", "RES-GW-18", "RES-GW-06")
def test_a_domain_attack_whose_army_fell_defending_is_cancelled_after_the_attacks_that_take_place():
    """Phase (5): A1 (10) attacks DZ first and destroys W, B's army defending its domain DZ; W's own
    attack on DC is then cancelled ("attackers destroyed"), and is recorded after E0's attack on DX,
    which takes place although E0 (no units) has strength 0. The attack order is by strength, not by
    domain id (DC < DX < DZ)."""
    w = make_world()
    h, h2 = hx(w, 10, 2), hx(w, 12, 4)
    put_domain(w, "DZ", "b", h)  # no garrison: W (b, on the hex) defends it
    put_domain(w, "DC", "c", h, garrison={"militia": 1})
    put_domain(w, "DX", "c", h2, garrison={"militia": 1})
    put_army(w, "A1", "a", h, {"infantry": 5})  # 10
    put_army(w, "W", "b", h, {"infantry": 1})  # 2
    put_army(w, "E0", "e", h2, {})  # 0
    led = play(w, 1, [
        AttackDomain(guild="a", army="A1", domain="DZ"),
        AttackDomain(guild="b", army="W", domain="DC"),
        AttackDomain(guild="e", army="E0", domain="DX"),
    ])
    seq = [(e.kind, e.actor, e.data.get("domain")) for e in led.events if e.kind in ("DomainAttacked", "CombatCancelled")]
    assert seq == [
        ("DomainAttacked", "army:A1", "DZ"), ("DomainAttacked", "army:E0", "DX"), ("CombatCancelled", "army:W", "DC"),
    ]
    cancelled = led.of_kind("CombatCancelled")[0]
    assert cancelled.outcome == "attackers destroyed" and cancelled.data["attackers"] == ["W"]
    assert w.gw.domains["DZ"].occupied_by == ["A1"]  # 10 damage destroys W's 2 CS; A1 survives


@pytest.mark.rule("RES-GW-23", "SC-GW-10", "GW-ANX-03", "RES-GW-25")
def test_an_annexation_resolved_without_an_annex_order_takes_the_deposit_then():
    """annex_domain resolved directly (no Annex order given, so no deposit yet) takes the 500-solar
    compensation from the annexing guild into the bank and records the deposit."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    occupy(w, "Z", "D")
    led = Ledger()
    start_season(w, 1, led)
    wf.annex_domain(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    assert w.gw.guilds["a"].solars == 500 and w.gw.bank.held == 500  # 1000 − 500
    (dep,) = w.gw.bank.deposits
    assert (dep.domain, dep.payer, dep.amount, dep.former_owner, dep.annexed_season) == ("D", "a", 500, "c", 1)
    assert led.of_kind("DomainAnnexed")[0].data["compensation"] == 500


@pytest.mark.rule("GW-ANX-04", "RES-GW-24", "SC-GW-10")
def test_returning_the_title_in_season_a_plus_1_is_recorded_in_the_ledger():
    """Annexed in season 1; C returns the title in season 2 and recovers the 500 solars."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    occupy(w, "Z", "D")
    play(w, 1, [Annex(guild="a", domain="D", seal="a-p1")])
    assert w.gw.guilds["c"].solars == 1000  # D yields to its new owner a, c owns nothing else
    led = play(w, 2, [ReturnTitle(guild="c", domain="D")])
    (ev,) = led.of_kind("TitleReturned")
    assert ev.actor == "guild:c" and ev.total == 500 and ev.data["solars_after"] == 1500  # 1000 + 500
    assert w.gw.bank.held == 0


@pytest.mark.rule("RES-GW-20", "GW-ATK-04")
def test_refreshing_the_statuses_drops_an_occupation_the_army_no_longer_holds():
    """An army recorded as occupying a domain it does not stand on (a hand-made state) loses the
    status when the statuses are recomputed, so a later Move ends no occupation."""
    w = make_world()
    put_domain(w, "D", "c", hx(w, 10, 2))
    z = put_army(w, "Z", "a", hx(w, 3, 3), {"cavalry": 1})
    z.occupying, z.occupying_since = "D", 0
    wf.refresh_statuses(w)
    assert (z.occupying, z.occupying_since) == (None, -1) and w.gw.domains["D"].occupied_by == []
    led = play(w, 1, [Move(guild="a", army="Z", to=hx(w, 5, 5))])
    assert led.of_kind("OccupationEnded") == [] and led.of_kind("ArmyMoved")[0].outcome == "arrived"


@pytest.mark.rule("RES-GW-15", "GW-LOOT-03", "RES-GW-14")
def test_loots_of_one_season_get_distinct_ids_and_each_is_claimed_by_its_own():
    """Two loots in season 0 (hexes in ascending id roll 1d6 = 6, then 2) are loot 1 and loot 2; a
    treasure hunt for loot 2 in season 1 gets loot 2's value."""
    w = make_world()
    h1, h2 = hx(w, 2, 0), hx(w, 12, 5)
    put_army(w, "A1", "a", h1, {"infantry": 5})
    put_army(w, "C1", "c", h1, {"infantry": 5})
    put_army(w, "A2", "a", h2, {"infantry": 6})
    put_army(w, "C2", "c", h2, {"infantry": 5})
    led = play(w, 0, [AttackArmy(guild="a", army="A1", target="C1"), AttackArmy(guild="a", army="A2", target="C2")],
               ScriptedDice(["1d6=6", "1d6=2"]))
    # h1: 10 units × 6 × 10 = 600; h2: 10 units × 2 × 10 = 200
    assert [(e.data["loot"], e.total) for e in led.of_kind("LootCreated")] == [(1, 600), (2, 200)]
    assert [lt.id for lt in w.gw.loot] == [1, 2]
    led = play(w, 1, [TreasureHunt(guild="b", loot=2, season=0)])
    (claim,) = led.of_kind("LootClaimed")
    assert claim.total == 200 and claim.data["loot"] == 2 and [lt.id for lt in w.gw.loot] == [1]


@pytest.mark.rule("RES-GW-26", "GW-ANX-07", "RES-GW-20", "GW-ANX-03")
def test_after_an_annexation_the_annexers_own_besieger_no_longer_besieges_its_domain():
    """Y (guild b, with a support seal of guild a) occupies D; Z (guild a) besieges it. When A annexes
    D (through Y, RES-GW-26), D is A's: Z's siege of it ends at once and D is no longer besieged."""
    w = make_world()
    h = hx(w, 10, 2)
    dom = put_domain(w, "D", "c", h)
    y = put_army(w, "Y", "b", h, {"infantry": 5})
    y.support_seals = ["a-m1"]
    w.gw.seals["a-m1"].army = "Y"
    y.occupying, y.occupying_since = "D", 0
    z = put_army(w, "Z", "a", h, {"infantry": 3})
    z.besieging = "D"
    wf.refresh_statuses(w)
    assert (dom.occupied_by, dom.besieged_by) == (["Y"], ["Z"])
    led = Ledger()
    start_season(w, 1, led)
    wf.give_order(w, Siege(guild="a", army="Z", domain="D"), led)  # D is occupied by b, not a: legal
    wf.give_order(w, Annex(guild="a", domain="D", seal="a-p1"), led)
    for ph in ("deploy", "move", "siege", "army_combats", "domain_attacks", "annexations"):
        wf.PHASE_FUNCTIONS[ph](w, ScriptedDice([]), led)
    (ev,) = led.of_kind("DomainAnnexed")
    assert ev.data["stopped_occupying"] == ["Y"] and dom.owner_guild == "a"
    assert z.besieging is None and dom.besieged_by == [] and dom.occupied_by == []
