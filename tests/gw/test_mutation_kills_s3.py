"""Tests written against the survivors of the fresh mutation sample of seed 3 (issue 29: ``tools/mutate.py
gw --fresh --seed 3``). Seed 3 was the sample that counted; GW scored under 90% on it, so its
survivors were worked through as well and seed 4 is the sample that counts for GW (docs/mutation.md).
Each test pins a GW behaviour (sim/rules/gw/) that a mutant changed and no earlier test noticed;
expected values are worked out by hand from RULES.md (§3, §5.3, §7.3) and the arithmetic is in the
comments."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from sim.config import UnitType
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.rules.gw import broken_invariants
from sim.state.gw import (
    Annex,
    AttackArmy,
    Deploy,
    Disband,
    LendSeals,
    Loot,
    Move,
    PickUpLoot,
    Siege,
    Unit,
)
from tests.gw.helpers import hx, make_world, occupy, play, put_army, put_domain, start_season

# ---- annexation (GW-ANX, RES-GW-23/24/28) ---------------------------------------------------------------


def _d_occupied_by(w: Any, armies: list[tuple[str, str, int]]) -> None:
    """Domain D of guild c at (10, 2), no garrison, occupied since season 0 by each (army, guild, n
    infantry)."""
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    for aid, guild, n in armies:
        put_army(w, aid, guild, h, {"infantry": n})
        occupy(w, aid, "D")


@pytest.mark.rule("RES-GW-28", "RES-GW-23", "GW-ANX-02")
def test_the_guild_whose_annexation_gives_way_gets_its_own_deposit_back():
    """a (army of 5 infantry, strength 10) and b (3 infantry, 6) both order the annexation of D and
    deposit 500 each. a's army is stronger: a annexes, b's order is rejected and b's own 500 returned.
    Chests: a 1000 − 500 − 5 upkeep = 495; b 1000 − 500 + 500 − 3 upkeep = 997; the bank holds a's 500."""
    w = make_world()
    _d_occupied_by(w, [("Za", "a", 5), ("Zb", "b", 3)])
    led = play(w, 1, [Annex(guild="a", domain="D", seal="a-p1"), Annex(guild="b", domain="D", seal="b-p1")])
    (rej,) = led.of_kind("OrderRejected")
    assert rej.actor == "guild:b" and rej.clauses[0] == "RES-GW-28"
    assert (w.gw.guilds["a"].solars, w.gw.guilds["b"].solars) == (495, 997)
    assert w.gw.bank.held == 500 and [(d.payer, d.amount, d.annexed_season) for d in w.gw.bank.deposits] == [("a", 500, 1)]
    assert w.gw.domains["D"].owner_guild == "a"


@pytest.mark.rule("RES-GW-28", "GW-ANX-03")
def test_annexations_of_equally_strong_occupiers_go_to_the_lower_army_id():
    """Both occupiers have 5 infantry (strength 10): the tie goes to the lower army id, Z1 (guild b),
    although a gave its order first."""
    w = make_world()
    _d_occupied_by(w, [("Z2", "a", 5), ("Z1", "b", 5)])
    led = play(w, 1, [Annex(guild="a", domain="D", seal="a-p1"), Annex(guild="b", domain="D", seal="b-p1")])
    assert (w.gw.domains["D"].owner_guild, w.gw.domains["D"].owner) == ("b", "Bob")
    assert [e.actor for e in led.of_kind("OrderRejected")] == ["guild:a"]


@pytest.mark.rule("GW-ANX-04", "RES-GW-24", "SC-GW-10", "SC-GW-12")
def test_a_title_not_returned_forfeits_the_deposit_and_the_bank_holds_no_more_than_its_pending_deposits():
    """EX-GW-04 case b: D annexed by a in season 1; c does not return the title in season 2: the bank
    keeps the 500 (held 500 → 0, kept 500), c's notoriety 7 → 5; the deposit is forfeited, so the
    bank's pending deposits (0) match what it holds."""
    w = make_world()
    _d_occupied_by(w, [("Z", "a", 5)])
    play(w, 1, [Annex(guild="a", domain="D", seal="a-p1")])
    led = play(w, 2, [])
    (f,) = led.of_kind("CompensationForfeited")
    assert (f.total, f.data["notoriety_before"], f.data["notoriety_after"]) == (500, 7, 5)
    (dep,) = w.gw.bank.deposits
    assert dep.forfeited and not dep.title_returned
    assert (w.gw.bank.held, w.gw.bank.kept) == (0, 500)
    assert broken_invariants(w) == []


# ---- loot ---------------------------------------------------------------------------------------------


@pytest.mark.rule("GW-LOOT-03", "RES-GW-15", "RES-GW-27")
def test_a_pick_up_whose_army_fell_in_the_battle_phase_is_rejected():
    """A loot of season 0 on H. Season 1: a's A1 (2 militia) on H orders a pick-up; b's B1 (5 infantry,
    10) attacks A1 (2) in phase (4): A1 is destroyed. In phase (6) no army of a stands on H: the pick-up
    is rejected (GW-LOOT-03) and the loot stays. 3 units destroyed: no new loot."""
    w = make_world()
    h = hx(w, 7, 4)
    lt = Loot(w.gw.next_loot, h, 0, 100, "battle", 12)
    w.gw.next_loot += 1
    w.gw.loot.append(lt)
    put_army(w, "A1", "a", h, {"militia": 2})
    put_army(w, "B1", "b", h, {"infantry": 5})
    led = play(w, 1, [PickUpLoot(guild="a", loot=lt.id, season=0), AttackArmy(guild="b", army="B1", target="A1")])
    assert "A1" not in w.gw.armies
    (rej,) = led.of_kind("OrderRejected")
    assert rej.actor == "guild:a" and rej.clauses[0] == "GW-LOOT-03"
    assert led.of_kind("LootClaimed") == [] and w.gw.loot == [lt]
    assert w.gw.guilds["a"].solars == 1000


@pytest.mark.rule("GW-LOOT-02", "RES-GW-15")
def test_a_loot_is_announced_as_targetable_from_the_next_season():
    """Created at the end of season 2 (12 units destroyed on H, 1d6 = 1: 12 × 1 × 10 = 120), it can be
    targeted from season 3."""
    w = make_world()
    start_season(w, 2, Ledger())
    w.gw.destroyed_on = {hx(w, 7, 4): 12}
    led = Ledger()
    wf.create_loot(w, ScriptedDice(["1d6=1"]), led)
    (e,) = led.of_kind("LootCreated")
    assert (e.total, e.data["targetable_from"]) == (120, 3)


# ---- combat, losses, siege ------------------------------------------------------------------------------


def _with_porter(w: Any, loss_rank: int) -> Any:
    """The catalogue plus a porter (*porteur*): CS 0 (a catalogue may hold one, CFG.gw.units)."""
    cfg = w.config.gw
    return msgspec.structs.replace(cfg, units={**cfg.units, "porter": UnitType("porteur", 0, 10, False, loss_rank)})


@pytest.mark.rule("RES-GW-13", "RES-GW-08", "GW-LOSS-01")
def test_a_unit_of_no_strength_first_in_the_loss_order_falls_to_no_damage():
    """Porter (loss rank 0, effective CS 0) and infantry (CS 2) take 2: the porter's damage reaches its
    effective CS 0 at once, the 2 go on to the infantry (2 ≥ 2): damage equal to the army's strength
    (0 + 2) destroys both (RES-GW-13)."""
    w = make_world()
    cfg = _with_porter(w, 0)
    units = [Unit(1, "porter", 0, []), Unit(2, "infantry", 0, [])]
    destroyed, left = wf.apply_damage(units, 2, cfg)
    assert ([u.id for u in destroyed], left, units) == ([1, 2], 0, [])


@pytest.mark.rule("RES-GW-13", "GW-CMB-05", "GW-LOSS-02")
def test_damage_that_stops_on_a_unit_does_not_reach_the_units_after_it():
    """Two infantry (CS 2) then a porter (loss rank 9, CS 0) take 2: the first infantry falls, the
    remainder 0 reaches the second and stays there (insufficient): the porter after it is not reached."""
    w = make_world()
    cfg = _with_porter(w, 9)
    units = [Unit(1, "infantry", 0, []), Unit(2, "infantry", 0, []), Unit(3, "porter", 0, [])]
    destroyed, left = wf.apply_damage(units, 2, cfg)
    assert ([u.id for u in destroyed], left) == ([1], 0)
    assert [(u.id, u.damage) for u in units] == [(2, 0), (3, 0)]


@pytest.mark.rule("GW-FAM-02", "RES-GW-22", "GW-FAM-01")
def test_desertion_rounds_a_fifth_of_the_garrison_up():
    """101 militia (base CS 101), no victuals: 20% of 101 = 20.2, rounded up (ceil) = 21 militia desert."""
    w = make_world()
    dom = put_domain(w, "D", "c", hx(w, 10, 2), garrison={"militia": 101})
    w.gw.guilds["c"].victuals = 0
    led = Ledger()
    gone = wf.resolve_famine(w, dom, led)
    (e,) = led.of_kind("DesertionSuffered")
    assert (e.total, len(gone), len(dom.garrison)) == (21, 21, 80)


@pytest.mark.rule("GW-CMB-05", "RES-GW-09")
def test_leftover_damage_on_a_garrison_is_cleared_and_counted():
    w = make_world()
    dom = put_domain(w, "D", "c", hx(w, 10, 2), garrison={"infantry": 2})
    dom.garrison[0].damage = 1
    led = Ledger()
    assert wf.clear_damage(w, led) == 1
    assert led.of_kind("DamageCleared")[0].total == 1 and [u.damage for u in dom.garrison] == [0, 0]


@pytest.mark.rule("LINK-08", "GW-ATK-04", "GW-OCC-01")
def test_an_occupation_is_reported_to_the_kingdoms_hook_with_what_was_seen_before_it():
    """LINK-08's hooks around an occupation: what occupation_watch saw before (D unoccupied), then
    domain_occupied once the army holds it."""
    w = make_world()
    dom = put_domain(w, "D", "c", hx(w, 10, 2), garrison={"militia": 1})
    z = put_army(w, "Z", "a", hx(w, 10, 2), {"infantry": 3})
    start_season(w, 0, Ledger())
    calls: list[Any] = []
    hooks = wf.GwHooks(occupation_watch=lambda world, d: ("seen", d.id, list(d.occupied_by)),
                       domain_occupied=lambda world, d, watch, led: calls.append((d.id, watch, list(d.occupied_by))))
    res = wf.resolve_attack(w, dom, [z], Ledger(), hooks)
    assert res.outcome == "success"  # 6 against 1
    assert calls == [("D", ("seen", "D", []), ["Z"])]


# ---- deploying, disbanding ------------------------------------------------------------------------------


@pytest.mark.rule("SC-GW-08", "GW-DEP-02", "SC-GW-09")
def test_an_army_deployed_after_another_was_disbanded_gets_a_new_id():
    """An army is one army from its deployment to its end: the id of a disbanded army is not given to a
    new one (its events would read as the old army's)."""
    w = make_world()
    w.gw.guilds["a"].pool = {"infantry": 10}
    put_domain(w, "D1", "a", hx(w, 1, 1))
    play(w, 0, [Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 5})])
    (first,) = w.gw.armies
    play(w, 1, [Disband(guild="a", army=first)])
    assert w.gw.armies == {}
    play(w, 2, [Deploy(guild="a", domain="D1", seals=["a-m1"], units={"infantry": 5})])
    (second,) = w.gw.armies
    assert second != first


@pytest.mark.rule("SC-GW-09", "RES-GW-27")
def test_a_disband_resolved_directly_is_still_checked():
    """b cannot disband a's army (SC-GW-09), also when the order is resolved directly."""
    w = make_world()
    put_army(w, "X", "a", hx(w, 1, 1), {"infantry": 3})
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match="SC-GW-09: army X belongs to guild a, not b"):
        wf.resolve_disband(w, Disband(guild="b", army="X"), Ledger())
    assert "X" in w.gw.armies and w.gw.guilds["a"].pool == {}


@pytest.mark.rule("GW-DEP-07", "RES-GW-04")
def test_a_requisition_from_a_garrison_without_that_type_says_it_has_none():
    w = make_world()
    put_domain(w, "D1", "a", hx(w, 1, 1), garrison={"militia": 6})
    start_season(w, 0, Ledger())
    with pytest.raises(IllegalOrderError, match="GW-DEP-07: requisition of 2 archer from D1, whose garrison has 0"):
        wf.check(w, "a", Deploy(guild="a", domain="D1", seals=["a-m1"], requisition={"archer": 2}))


# ---- one Move and one action (RES-GW-27) -----------------------------------------------------------------


@pytest.mark.rule("RES-GW-27")
def test_a_move_that_would_leave_the_target_of_the_armys_action_is_refused():
    """The Move resolves before the action (phase 2): after a Siege of D or an attack on army Y in the
    army's hex, a Move elsewhere would take it away from its target."""
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "D", "c", h)
    put_army(w, "Z", "a", h, {"infantry": 3})
    put_army(w, "Z2", "a", h, {"infantry": 3})
    put_army(w, "Y", "b", h, {"infantry": 3})
    led = Ledger()
    start_season(w, 1, led)
    wf.give_order(w, Siege(guild="a", army="Z", domain="D"), led)
    wf.give_order(w, AttackArmy(guild="a", army="Z2", target="Y"), led)
    for army in ("Z", "Z2"):
        with pytest.raises(IllegalOrderError, match="RES-GW-27: the target of its .* order would not be in its hex after this move"):
            wf.check(w, "a", Move(guild="a", army=army, to=hx(w, 12, 2)))


# ---- the menu of orders (legal_orders) -----------------------------------------------------------------


@pytest.mark.rule("GW-DEP-04", "SC-GW-03")
def test_a_guild_without_military_seals_is_offered_no_consent_to_lend_them():
    """GW-DEP-04 lends military seals; guild f holds a political seal only: nothing to lend."""
    w = make_world('[[guilds]]\nid = "f"\nleader = "Fay"\nsolars = 100\nseals = [{ id = "f-p1", kind = "political", province = "P" }]\n')
    start_season(w, 1, Ledger())
    assert [o for o in wf.legal_orders(w, "f") if isinstance(o, LendSeals)] == []
    assert LendSeals(guild="e", to="f", lend=True) in wf.legal_orders(w, "e")  # e holds a military seal


@pytest.mark.rule("RES-GW-05", "RES-GW-27")
def test_an_army_on_the_maps_first_hex_is_offered_moves():
    """legal_orders offers a Move to every domain hex reachable by land, from hex 0 (the corner (0, 0))
    too."""
    w = make_world()
    put_army(w, "A0", "a", hx(w, 0, 0), {"cavalry": 1})
    put_domain(w, "D", "c", hx(w, 3, 0))
    start_season(w, 1, Ledger())
    assert hx(w, 0, 0) == 0
    assert Move(guild="a", army="A0", to=hx(w, 3, 0)) in wf.legal_orders(w, "a")


@pytest.mark.rule("RES-GW-23", "GW-ANX-01", "RES-GW-28")
def test_a_chest_holding_exactly_the_compensation_is_offered_the_annexation():
    """500 solars pay the 500 of RES-GW-23: the annexation of D (occupied by a since season 0) is offered."""
    w = make_world()
    _d_occupied_by(w, [("Z", "a", 5)])
    w.gw.guilds["a"].solars = 500
    start_season(w, 1, Ledger())
    assert Annex(guild="a", domain="D", seal="a-p1") in wf.legal_orders(w, "a")
