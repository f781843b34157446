"""``legal_after`` (issue 26): the menu of a guild's next order, computed again only where the order
just given can change it, must be exactly ``legal_orders`` (the same orders, of the same types, in
the same order: the policies break ties by the list's order) on real campaigns; and the runs it
computes again must hold exactly what ``check`` accepts of a brute-force set of candidates. An order
picked from the menu is given without being checked again (``give_checked_order``): check accepts it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from agents.campaign import run_campaign
from agents.variants import variant
from scenarios.loader import load_scenario
from sim.errors import RulesError
from sim.rules.gw import legality, orders, season
from sim.rules.gw.core import OCCUPIED_ALLOWED, WORKS, is_restricted, owned_domains
from sim.state.gw import (
    AnyOrder,
    AttackArmy,
    AttackDomain,
    Deploy,
    Disband,
    DomainAction,
    LendSeals,
    Move,
    PickUpLoot,
    Recruit,
    Reinforce,
    Sack,
    Siege,
    TreasureHunt,
)
from sim.world import World


def _legal(world: World, order: AnyOrder, pend: legality.Pending | None = None) -> bool:
    """``check`` (with ``pend``: ``committed(world, order.guild)`` computed once, the world unchanged)."""
    try:
        if pend is None:
            legality.check(world, order.guild, order)
        else:
            legality.check_order_stage(world, order, stage="give", _pend=pend)
    except RulesError:
        return False
    return True


def _brute_force(world: World, g: str, got: list[AnyOrder]) -> None:
    """The runs ``legal_after`` computes again, against ``check`` over every candidate of their kind."""
    gw = world.gw_state()
    cfg = world.config.gw
    pend = legality.committed(world, g)
    # LendSeals: towards every guild, consent given and withdrawn
    lends = [LendSeals(guild=g, to=o, lend=b) for o in sorted(gw.guilds) for b in (False, True)]
    assert [o for o in got if type(o) is LendSeals] == [o for o in lends if _legal(world, o, pend)]
    # Recruit: every size of every priced type; the menu offers 1, 5 and the most of each
    recruits: list[AnyOrder] = []
    for kind in sorted(cfg.unit_cost_solars):
        # the sizes check accepts are 1..most (the cap and the chest bound n from above): the largest by
        # bisection, every size up to 12 and the five past it checked too
        lo, hi = 0, 1
        while _legal(world, Recruit(guild=g, units={kind: hi}), pend):
            lo, hi = hi, 2 * hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if _legal(world, Recruit(guild=g, units={kind: mid}), pend) else (lo, mid)
        most = lo
        for n in (*range(1, 13), *range(most + 1, most + 6)):
            assert _legal(world, Recruit(guild=g, units={kind: n}), pend) == (n <= most)
        recruits += [Recruit(guild=g, units={kind: n}) for n in range(1, most + 1) if n in (1, 5, most)]
    assert [o for o in got if type(o) is Recruit] == recruits
    # Reinforce: one unit of a type goes to a domain exactly when the menu offers one there
    listed = {(o.domain, k) for o in got if type(o) is Reinforce for k in o.units}
    for did in sorted(gw.domains):
        for kind in sorted(cfg.units):
            if _legal(world, Reinforce(guild=g, domain=did, units={kind: 1}), pend):
                assert (did, kind) in listed
    assert all(_legal(world, o) for o in got)  # check itself, for every order offered
    # DomainAction: every action check accepts on a domain of the guild, less those ordered already (check
    # accepts them again), works already done, and the GW-OCC-02 list where works are allowed
    done = pend.domain_actions
    acts = [
        DomainAction(guild=g, domain=d.id, action=a)
        for d in owned_domains(gw, g)
        for a in (OCCUPIED_ALLOWED if is_restricted(d) else [w for w in WORKS if w not in d.works])
        if (d.id, a) not in done
    ]
    assert [o for o in got if type(o) is DomainAction] == [o for o in acts if _legal(world, o, pend)]
    # TreasureHunt, PickUpLoot: every loot
    loot: list[AnyOrder] = []
    for lt in gw.loot:
        loot += [o for o in (TreasureHunt(guild=g, loot=lt.id, season=lt.season), PickUpLoot(guild=g, loot=lt.id, season=lt.season)) if _legal(world, o, pend)]
    assert [o for o in got if type(o) in (TreasureHunt, PickUpLoot)] == loot
    # Disband, and every army's Move (to a domain, army or targetable loot: the hexes offered) and actions
    assert [o for o in got if type(o) is Disband] == [o for o in (Disband(guild=g, army=a) for a in sorted(gw.armies)) if _legal(world, o, pend)]
    hexes = sorted({d.hex for d in gw.domains.values()} | {a.hex for a in gw.armies.values()} | {lt.hex for lt in gw.loot if lt.season < gw.season})
    for aid in sorted(a for a in gw.armies if gw.armies[a].owner == g):
        mine: list[AnyOrder] = [o for o in got if type(o) in (Move, Siege, AttackDomain, Sack, AttackArmy) and o.army == aid]  # type: ignore[union-attr]
        want: list[AnyOrder] = [Move(guild=g, army=aid, to=h) for h in hexes]
        want += [c(guild=g, army=aid, domain=did) for did in sorted(gw.domains) for c in (Siege, AttackDomain)]
        want += [Sack(guild=g, army=aid, domain=did) for did in sorted(gw.domains) if gw.domains[did].buildings]  # a sack razes buildings
        want += [AttackArmy(guild=g, army=aid, target=t) for t in sorted(gw.armies)]
        for cls in (Move, Siege, AttackDomain, Sack, AttackArmy):
            assert [o for o in mine if type(o) is cls] == [o for o in want if type(o) is cls and _legal(world, o, pend)]


def _checked_campaign(monkeypatch: pytest.MonkeyPatch, name: str, seed: int, hours: int | None, policy: str | None) -> Counter[str]:
    seen: Counter[str] = Counter()
    fast = orders.legal_after

    def compared(world: World, g: str, legal: list[AnyOrder], order: AnyOrder) -> list[AnyOrder]:
        before = list(legal)
        got = fast(world, g, legal, order)
        assert legal == before  # the list handed is not changed
        ref = orders.legal_orders(world, g)
        assert got == ref
        assert [type(o) for o in got] == [type(o) for o in ref]
        if type(order) is not Deploy:  # (Deploy candidates are not brute-forced)
            _brute_force(world, g, got)
        seen[type(order).__name__] += 1
        return got

    unchecked = legality.give_checked_order

    def give_checked(world: World, order: AnyOrder, ledger: Any) -> None:
        legality.check(world, order.guild, order)  # what give_order would check first: it must pass
        seen["unchecked"] += 1
        unchecked(world, order, ledger)

    monkeypatch.setattr(season, "legal_after", compared)
    monkeypatch.setattr(season, "give_checked_order", give_checked)
    kw: dict[str, Any] = {}
    if policy is not None:
        kw["policy"] = policy
    if hours is not None:
        kw["duration_hours"] = hours
    scenario = variant(load_scenario(name), **kw) if kw else load_scenario(name)
    run_campaign(scenario, seed, keep_ledger=False, collect=False)
    return seen


def test_legal_after_is_legal_orders_in_a_guild_war() -> None:
    with pytest.MonkeyPatch.context() as mp:
        seen = _checked_campaign(mp, "guild-war", 1, None, None)
    # the orders legal_after patches or computes in part were given, and the others too
    for kind in ("LendSeals", "Recruit", "Reinforce", "TreasureHunt", "DomainAction", "Move"):
        assert seen[kind] > 0, seen
    assert sum(seen.values()) > 100
    assert seen["unchecked"] > 100  # the orders picked from the menu are given without checking them again


def test_legal_after_is_legal_orders_in_a_year_of_realm() -> None:
    with pytest.MonkeyPatch.context() as mp:
        seen = _checked_campaign(mp, "realm", 1, 8640, None)
    for kind in ("LendSeals", "Recruit", "Reinforce", "Move"):
        assert seen[kind] > 0, seen


def test_legal_after_is_legal_orders_for_random_guilds() -> None:
    """Random guilds give the rarer orders (Deploy, Disband, PickUpLoot, withdrawn consents…)."""
    with pytest.MonkeyPatch.context() as mp:
        seen = _checked_campaign(mp, "guild-war", 2, None, "random")
    assert len(set(seen) - {"unchecked"}) >= 8, seen


def test_legal_after_recomputes_what_it_cannot_place() -> None:
    """An order of another guild, or a LendSeals the list does not hold: ``legal_orders`` again."""
    from tests.gw.helpers import hx, make_world, put_domain

    w = make_world()
    put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 3})
    w.gw_state().guilds["a"].solars = 500
    legal = orders.legal_orders(w, "a")
    stale = [o for o in legal if type(o) is not Recruit]  # not the list of legal_orders
    assert orders.legal_after(w, "a", stale, Recruit(guild="a", units={"militia": 1})) == legal
    other = sorted(w.gw_state().guilds)[-1]
    assert orders.legal_after(w, "a", stale, Recruit(guild=other, units={"militia": 1})) == legal
