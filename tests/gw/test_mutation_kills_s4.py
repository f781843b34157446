"""Tests written against the survivors of the fresh mutation sample of seed 4 (issue 29: ``tools/mutate.py
gw --fresh --seed 4``). Seed 4 was GW's sample that counted after seed 3 was worked through; it scored
89.9% without its equivalents, under the 90% target, so its survivors were worked through as well and
seed 5 is the sample that counts for GW (docs/mutation.md). Expected values are worked out by hand
from RULES.md (§3, §5.3, §7.3); the arithmetic is in the comments."""

from __future__ import annotations

from typing import Any

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import Annex, AttackArmy, AttackDomain, Deploy, Move, ReturnTitle, Siege
from tests.gw.helpers import hx, make_world, occupy, play, put_army, put_domain, start_season

# ---- annexation, titles (GW-ANX, RES-GW-24/28) ------------------------------------------------------------


@pytest.mark.rule("RES-GW-28", "GW-ANX-03")
def test_the_strongest_occupier_annexes_whatever_its_army_id():
    """a's Z9 (5 infantry, strength 10) and b's Z1 (3 infantry, 6) occupy D; both guilds order its
    annexation: the greatest current strength proceeds — a's, although Z1 is the lower id."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    for aid, guild, n in (("Z9", "a", 5), ("Z1", "b", 3)):
        put_army(w, aid, guild, h, {"infantry": n})
        occupy(w, aid, "D")
    play(w, 1, [Annex(guild="a", domain="D", seal="a-p1"), Annex(guild="b", domain="D", seal="b-p1")])
    assert w.gw.domains["D"].owner_guild == "a"


@pytest.mark.rule("GW-ANX-04", "RES-GW-24")
def test_a_title_return_resolved_directly_is_still_checked():
    """D (of c) annexed by a in season 1: in season 2 only c, the former owner, may return its title;
    b's return is refused (GW-ANX-04), also when resolved directly, and the deposit stays at the bank."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 5})
    occupy(w, "Z", "D")
    play(w, 1, [Annex(guild="a", domain="D", seal="a-p1")])
    start_season(w, 2, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-ANX-04: guild b is not the former owner of an annexed D"):
        wf.resolve_return_title(w, ReturnTitle(guild="b", domain="D"), Ledger())
    assert w.gw.bank.held == 500 and w.gw.guilds["b"].solars == 1000


# ---- combat ---------------------------------------------------------------------------------------------


@pytest.mark.rule("GW-ATK-01", "SC-GW-07", "RES-GW-07", "RES-GW-08", "RES-GW-18")
def test_an_attack_on_a_palisade_records_the_garrisons_fortification():
    """A palisade (level 1, +1 a unit, SC-GW-07) may be attacked at once (GW-ATK-01). Its 2 militia:
    base 2 + fortification 2 = 4 against Z's 3 infantry (6)."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=1, garrison={"militia": 2})
    put_army(w, "Z", "a", h, {"infantry": 3})
    led = play(w, 1, [AttackDomain(guild="a", army="Z", domain="D")])
    (atk,) = led.of_kind("DomainAttacked")
    assert atk.data["defender_breakdown"] == {"base": 2, "bonus": 0, "fortification": 2, "damage": 0, "total": 4}
    assert (atk.data["attacker_strength"], atk.data["defender_strength"], atk.outcome) == (6, 4, "success")


@pytest.mark.rule("GW-CMB-04", "RES-GW-12")
def test_the_army_combats_phase_returns_each_combat_fought():
    """EX-GW-02's field battle: X (20) attacks Y (30): one combat, returned with its strengths."""
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "X", "a", h, {"militia": 10, "knight": 5})
    put_army(w, "Y", "b", h, {"infantry": 8, "siege_engine": 2}, bonuses={"infantry": [("magie", 1), ("sépium", 1)]})
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, AttackArmy(guild="a", army="X", target="Y"), led)
    got = wf.resolve_army_combats(w, ScriptedDice([]), led)
    assert [(r.attacker_strength, r.defender_strength, r.destroyed_armies) for r in got] == [(20, 30, ["X"])]


# ---- siege (GW-SIEGE, GW-FAM) --------------------------------------------------------------------------


@pytest.mark.rule("GW-SIEGE-03", "GW-ATK-02", "RES-GW-17", "RES-GW-20")
def test_an_army_that_ended_its_siege_short_of_units_may_attack_the_next_season_only():
    """Keep D (+2) with 6 militia, fed (30 victuals of 100). Z (3 infantry, no siege engine) besieges it
    in season 0 and ends with 3 units < 6: not besieging, but it may attack in season 1 (GW-SIEGE-03) —
    the assault takes place (6 against 6 × 3 = 18: it fails). In season 2 the exception is over."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, fort=2, garrison={"militia": 6})
    put_army(w, "Z", "a", h, {"infantry": 3})
    led0 = play(w, 0, [Siege(guild="a", army="Z", domain="D")])
    assert led0.of_kind("SiegeFellShort") and w.gw.armies["Z"].besieging is None
    led1 = play(w, 1, [AttackDomain(guild="a", army="Z", domain="D")])
    assert led1.of_kind("OrderRejected") == []
    (atk,) = led1.of_kind("DomainAttacked")
    assert (atk.data["attacker_strength"], atk.data["defender_strength"], atk.outcome) == (6, 18, "failure")
    put_army(w, "Z2", "a", h, {"infantry": 3})  # Z fell in season 1; a fresh army has no siege season either
    start_season(w, 2, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-ATK-02"):
        wf.check(w, "a", AttackDomain(guild="a", army="Z2", domain="D"))


@pytest.mark.rule("GW-FAM-02", "RES-GW-22")
def test_desertion_rounded_down_when_the_scenario_says_so():
    """CFG.gw.desertion_rounding = floor: 5 militia (base CS 5), no victuals: 20% of 5 = 1.0 → 1."""
    w = make_world(config={"gw.desertion_rounding": "floor"})
    dom = put_domain(w, "D", "c", hx(w, 10, 2), garrison={"militia": 5})
    w.gw.guilds["c"].victuals = 0
    led = Ledger()
    wf.resolve_famine(w, dom, led)
    (e,) = led.of_kind("DesertionSuffered")
    assert (e.total, len(dom.garrison)) == (1, 4)


@pytest.mark.rule("GW-SIEGE-04", "RES-GW-21", "RES-GW-14", "GW-LOOT-02")
def test_siege_damage_losses_of_both_sides_count_toward_the_loot():
    """Z (10 militia + 4 siege engines) besieges D (5 militia + 2 siege engines, fed). At once: Z's
    engines deal 4 × 3 = 12 — the 5 militia (5) and the 2 engines (6, no fortification) fall; the
    garrison's engines deal 2 × 3 = 6 to Z — 6 militia fall. 7 + 6 = 13 ≥ 10 units destroyed on the
    hex: a loot of 13 × 2 × 10 = 260 solars."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h, garrison={"militia": 5, "siege_engine": 2})
    put_army(w, "Z", "a", h, {"militia": 10, "siege_engine": 4})
    play(w, 0, [Siege(guild="a", army="Z", domain="D")], ScriptedDice(["1d6=2"]))
    assert w.gw.domains["D"].garrison == []
    assert [(lt.units, lt.value) for lt in w.gw.loot] == [(13, 260)]


@pytest.mark.rule("GW-SIEGE-04", "RES-GW-21")
def test_the_garrisons_siege_damage_without_a_besieger_goes_nowhere():
    """GW-SIEGE-04: the garrison's siege damage goes to the strongest besieging army; with none, it
    hurts no one (and the garrison, with no besieger's engines against it, loses nothing)."""
    w = make_world()
    dom = put_domain(w, "D", "c", hx(w, 10, 2), garrison={"siege_engine": 1})
    assert wf.resolve_siege_damage(w, dom, [], Ledger()) == ([], [])
    assert len(dom.garrison) == 1


# ---- deploying -----------------------------------------------------------------------------------------


@pytest.mark.rule("SC-GW-08", "GW-DEP-02")
def test_a_new_army_does_not_take_the_id_of_an_army_already_in_the_field():
    """The scenario's armies "a-3" and "a-4" hold 1 infantry each; a's deployment gets another id and
    leaves them alone."""
    w = make_world('[[armies]]\nid = "a-3"\nowner = "a"\nat = [3, 3]\nseals = ["a-m3"]\nunits = { infantry = 1 }\n'
                   '[[armies]]\nid = "a-4"\nowner = "a"\nat = [3, 4]\nseals = ["a-m4"]\nunits = { infantry = 1 }\n')
    w.gw.guilds["a"].pool = {"infantry": 10}
    put_domain(w, "D1", "a", hx(w, 1, 1))
    play(w, 0, [Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 5})])
    assert len(w.gw.armies) == 3
    assert sorted(len(a.units) for a in w.gw.armies.values()) == [1, 1, 5]
    assert (w.gw.armies["a-3"].hex, w.gw.armies["a-4"].hex) == (hx(w, 3, 3), hx(w, 3, 4))


@pytest.mark.rule("RES-GW-04", "GW-DEP-07", "RES-GW-27")
def test_units_handed_in_come_from_the_pool_as_the_seasons_orders_leave_it():
    """The pool holds 10 infantry and no archer: 1 archer cannot be handed in; after a first Deploy of 8
    infantry, 2 are left for a second."""
    w = make_world()
    w.gw.guilds["a"].pool = {"infantry": 10}
    put_domain(w, "D1", "a", hx(w, 1, 1))
    led = Ledger()
    start_season(w, 0, led)
    with pytest.raises(IllegalOrderError, match="RES-GW-04: guild a hands in 1 archer but its unit pool holds 0"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1"], units={"archer": 1}))
    wf.give_order(w, Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 8}), led)
    with pytest.raises(IllegalOrderError, match="RES-GW-04: guild a hands in 5 infantry but its unit pool holds 2"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m2"], units={"infantry": 5}))


# ---- upkeep (SC-GW-16) ---------------------------------------------------------------------------------


@pytest.mark.rule("SC-GW-16")
def test_upkeep_paid_in_full_says_paid():
    """3 units at 1 solar each: 3 solars of a's 1000, all paid."""
    w = make_world()
    put_army(w, "X", "a", hx(w, 1, 1), {"infantry": 3})
    led = play(w, 1, [])
    (e,) = [x for x in led.of_kind("UpkeepPaid") if x.actor == "guild:a"]
    assert (e.dc, e.total, e.outcome, e.data["solars_after"]) == (3, 3, "paid", 997)


# ---- the menu of orders (legal_orders) -----------------------------------------------------------------


def _deploys(w: Any, guild: str) -> list[Deploy]:
    return [o for o in wf.legal_orders(w, guild) if isinstance(o, Deploy)]


@pytest.mark.rule("RES-GW-05", "RES-GW-27")
def test_the_maps_first_hex_is_offered_as_a_destination():
    """legal_orders offers a Move to every domain hex reachable by land: hex 0 (the corner (0, 0)) too."""
    w = make_world()
    put_domain(w, "D", "c", hx(w, 0, 0))
    put_army(w, "A", "a", hx(w, 3, 0), {"cavalry": 1})
    start_season(w, 1, Ledger())
    assert Move(guild="a", army="A", to=0) in wf.legal_orders(w, "a")


@pytest.mark.rule("GW-DEP-05", "GW-DEP-07", "SC-GW-06")
def test_the_menus_deployment_takes_a_single_unit_of_a_type_too():
    """One seal (capacity 10), a pool of 3 infantry (CS 2) and 1 militia (CS 1): strongest type first,
    3 infantry, then the 1 militia."""
    w = make_world()
    w.gw.guilds["a"].pool = {"infantry": 3, "militia": 1}
    put_domain(w, "D1", "a", hx(w, 1, 1))
    start_season(w, 1, Ledger())
    one = [o for o in _deploys(w, "a") if len(o.seals) == 1 and not o.requisition]
    assert [o.units for o in one] == [{"infantry": 3, "militia": 1}]


@pytest.mark.rule("GW-DEP-03", "RES-GW-01", "RES-GW-04")
def test_the_menu_offers_a_deployment_on_a_consenting_domain_of_the_seals_province():
    """EX-GW-01 order 4: a deploys on e's consenting domain D2 in province P with its own seals of P —
    valid with e's proxy."""
    w = make_world()
    w.gw.guilds["a"].pool = {"infantry": 10}
    put_domain(w, "D2", "e", hx(w, 2, 2), consents_to=["a"])
    start_season(w, 1, Ledger())
    on_d2 = [o for o in _deploys(w, "a") if o.domain == "D2"]
    assert on_d2 and all(o.proxy for o in on_d2)
    assert Deploy(guild="a", domain="D2", seals=["a-m1"], units={"infantry": 10}, proxy=True) in on_d2


@pytest.mark.rule("GW-DEP-07", "RES-GW-04", "RES-GW-27")
def test_the_menu_requisitions_what_the_seasons_requisitions_left_in_the_garrison():
    """D1's garrison: 6 militia, 4 already requisitioned by a first Deploy: the menu's requisitions
    take the 2 left."""
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1), garrison={"militia": 6})
    led = Ledger()
    start_season(w, 1, led)
    wf.give_order(w, Deploy(guild="a", domain="D1", seals=["a-m1"], requisition={"militia": 4}), led)
    reqs = [o.requisition for o in _deploys(w, "a") if o.domain == "D1" and o.requisition]
    assert reqs and all(r == {"militia": 2} for r in reqs)
