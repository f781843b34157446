"""Property tests: over random legal orders, nothing goes negative and no unit dies twice."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.dice import SeededDice
from sim.events import Ledger
from sim.rules import gw as wf
from sim.rules.gw import broken_invariants
from sim.state.gw import Bonus
from tests.gw.helpers import hx, make_world, put_army, put_domain, start_season

END = "end"


def arena():
    w = make_world(alliances='alliances = [["a", "b"]]')
    put_domain(w, "HA", "a", hx(w, 1, 1), fort=2, garrison={"militia": 5, "infantry": 3}, buildings=[("Grenier", 12), ("Forge", 4)])
    put_domain(w, "HB", "b", hx(w, 7, 1), fort=1, garrison={"militia": 3, "siege_engine": 1}, buildings=[("Moulin", 6)], consents_to=["a"])
    put_domain(w, "HC", "c", hx(w, 10, 3), fort=2, garrison={"infantry": 6, "siege_engine": 1}, buildings=[("Halle", 15), ("Tour", 9)])
    put_domain(w, "HC2", "c", hx(w, 8, 4), fort=0, garrison={"militia": 2}, buildings=[("Ferme", 10)])
    put_domain(w, "HE", "e", hx(w, 3, 4), fort=3, garrison={"militia": 4}, consents_to=["a"])
    put_army(w, "A1", "a", hx(w, 8, 3), {"infantry": 12, "siege_engine": 2}, seals=2)
    put_army(w, "B1", "b", hx(w, 8, 3), {"archer": 5, "cavalry": 3}, bonuses={"cavalry": [("magie", 1), ("sépium", 2)]})
    put_army(w, "C1", "c", hx(w, 9, 3), {"infantry": 8, "knight": 2}, seals=1)
    put_army(w, "E1", "e", hx(w, 4, 4), {"militia": 6})
    w.gw.guilds["a"].pool = {"infantry": 10, "siege_engine": 1}
    w.gw.guilds["c"].pool = {"militia": 8}
    w.gw.guilds["c"].victuals = 20
    return w


def removed_units(events):
    out = []
    for e in events:
        d = e.data
        for key in ("attackers_lost", "defenders_lost", "destroyed", "destroyed_besiegers"):
            if key in d and e.kind in ("BattleFought", "DomainAttacked", "SiegeDamageDealt", "DesertionSuffered"):
                out.extend(uid for uid, _ in d[key])
        if e.kind == "UpkeepPaid":
            out.extend(uid for uid, _, _ in d["left"])
    return out


def world_unit_ids(w):
    ids = [u.id for a in w.gw.armies.values() for u in a.units]
    ids += [u.id for d in w.gw.domains.values() for u in d.garrison]
    return ids


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_orders_keep_every_invariant(data, seed):
    w = arena()
    dice = SeededDice(seed)
    ledger = Ledger()
    for s in range(4):
        start_season(w, s, ledger)
        for gid in sorted(w.gw.guilds):
            for _ in range(10):
                legal = [*wf.legal_orders(w, gid), END]
                pick = legal[data.draw(st.integers(0, len(legal) - 1), label=f"s{s} {gid}")]
                if pick == END:
                    break
                wf.give_order(w, pick, ledger)
        wf.run_phases(w, dice, ledger)
        assert broken_invariants(w) == [], s
        gone = removed_units(ledger.events)
        assert len(gone) == len(set(gone)), "a unit was destroyed twice"
        assert not set(gone) & set(world_unit_ids(w)), "a destroyed unit is still in the world"
        for a in w.gw.armies.values():  # an army with no unit left is removed (its strength is a sum of non-negatives)
            assert len(a.units) > 0
        for g in w.gw.guilds.values():
            assert g.solars >= 0 and g.victuals >= 0 and all(n >= 0 for n in g.pool.values())
        assert w.gw.bank.held >= 0


@settings(max_examples=60, deadline=None)
@given(
    spec=st.lists(st.tuples(st.sampled_from(["militia", "infantry", "archer", "cavalry", "knight", "siege_engine"]), st.integers(0, 3)), min_size=1, max_size=8),
    dmg=st.integers(0, 80),
    fort=st.integers(0, 4),
)
def test_damage_is_conserved_and_never_negative(spec, dmg, fort):
    w = make_world()
    from tests.gw.helpers import units

    us = units(w, [(k, 1) for k, _ in spec])
    for u, (_, extra) in zip(us, spec):
        u.bonuses = [Bonus("sépium", extra)]
    cfg = w.config.gw
    before = wf.units_strength(us, cfg, fort)
    survivors = list(us)
    lost, left = wf.apply_damage(survivors, dmg, cfg, fort)
    after = wf.units_strength(survivors, cfg, fort)
    assert left >= 0 and after >= 0
    assert len(lost) + len(survivors) == len(us) and len({u.id for u in lost}) == len(lost)
    # every point is either absorbed by the front or left over
    assert before - after + left == max(dmg, 0) if dmg <= before else (after == 0 and left == dmg - before)
