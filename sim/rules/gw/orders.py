"""GW legal orders: ``legal_orders(world, guild)``, the candidates every guild is offered."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sim.errors import RulesError
from sim.rules.gw.core import (
    OCCUPIED_ALLOWED,
    SPELL_PLACES,
    WORKS,
    armies_at,
    army_involves,
    domains_at,
    is_restricted,
    lends_seals,
    owned_domains,
)
from sim.rules.gw.legality import CHECKS, Pending, expected_hex, garrison_counts, pending_of
from sim.state.gw import (
    Annex,
    AnyOrder,
    AttackArmy,
    AttackDomain,
    Deploy,
    Disband,
    Domain,
    DomainAction,
    GwWorld,
    LendSeals,
    Loot,
    Move,
    PickUpLoot,
    Recruit,
    Reinforce,
    ReturnTitle,
    Sack,
    Siege,
    TreasureHunt,
)
from sim.world import World

__all__ = [
    "legal_after",
    "legal_orders",
]


# =================================================================================================
# legal orders
# =================================================================================================


def legal_orders(world: World, guild_id: str) -> list[AnyOrder]:
    """Every order ``guild_id`` may give now, given the orders it already gave this season.

    Orders with free quantities are listed at canonical sizes: Recruit 1, 5 or as many as allowed of
    one unit type; Reinforce 1 or all of a type; Deploy with one, or all, of the guild's free
    military seals (and the seals of the domain's region that other guilds agree to lend it), filled
    from the pool, from the garrison, or both; LendSeals (consent given or withdrawn) towards every
    other guild; Move to every domain, army or loot hex reachable by land. ``check``
    accepts any other size too. The owner of an occupied or besieged domain gets the GW-OCC-02
    allow-list for it (RES-GW-19)."""
    gw = world.gw_state()
    if guild_id not in gw.guilds:
        return []
    pend = pending_of(gw, guild_id, world.config.gw.unit_cost_solars)  # candidates share one view of the committed orders
    return _checked(world, gw, _candidates(world, gw, guild_id, pend), pend)


def legal_after(world: World, guild_id: str, legal: list[AnyOrder], order: AnyOrder) -> list[AnyOrder]:
    """``legal_orders(world, guild_id)`` once ``order`` has been given (``give_order``), where
    ``legal`` was ``legal_orders(world, guild_id)`` just before it and nothing else changed the world
    since (``give_orders``): the same list, in the same order, but only the runs of candidates
    ``order`` can change are computed again (``legal`` is not changed; the orders the result shares
    with it are the same objects).

    ``legal_orders`` lists its candidates in runs (:data:`_RUNS`), each of its own order types. What
    an order of the guild changes for its next orders (``give_order``, ``pending_of``), and so the
    runs computed again (:data:`_REDO`): a LendSeals only the guild's own ``lends_to`` (its consent
    towards ``to``), which only its LendSeals candidate towards ``to`` reads (a Deploy reads the
    ``lends_to`` of the *other* guilds): that candidate is turned; a Recruit only
    ``Pending.recruited`` and ``recruit_cost``; a Reinforce or a Deploy ``Pending.pool``,
    ``requisitioned`` and ``seals`` (the Reinforce and Deploy run); a Disband ``Pending.disbanded``; a
    Move ``Pending.moves`` (Disband, the armies' run, PickUpLoot: where the army will stand); an action
    of an army ``Pending.actions``; a DomainAction ``Pending.domain_actions``; a ReturnTitle
    ``Pending.returned``; a TreasureHunt or a PickUpLoot ``Pending.loot``. An Annex (it pays from the
    chest: the recruits' budget), an order of another guild, or a list not in runs: ``legal_orders``
    again."""
    gw = world.gw_state()
    t = type(order)
    if order.guild != guild_id or guild_id not in gw.guilds:
        return legal_orders(world, guild_id)
    if isinstance(order, LendSeals):
        lend = order.to not in gw.guilds[guild_id].lends_to  # what _candidates now offers towards order.to
        for i, o in enumerate(legal):
            if isinstance(o, LendSeals) and o.to == order.to:
                if o.lend != order.lend or lend == order.lend:
                    break  # not the order just given, or it changed nothing: not the list it came from
                turned = legal.copy()
                turned[i] = LendSeals(guild=guild_id, to=order.to, lend=lend)
                return turned
        return legal_orders(world, guild_id)
    redo = _REDO.get(t)
    if redo is None:
        return legal_orders(world, guild_id)
    pend = pending_of(gw, guild_id, world.config.gw.unit_cost_solars)
    mine = owned_domains(gw, guild_id)
    out: list[AnyOrder] = []
    run_of = _RUN_OF
    i = 0
    n = len(legal)
    for k, run in enumerate(_RUNS):
        j = i
        while j < n and run_of.get(type(legal[j])) == k:
            j += 1
        if k in redo:
            out += _checked(world, gw, run(world, gw, guild_id, pend, mine), pend)
        else:
            out += legal[i:j]
        i = j
    if i != n:
        return legal_orders(world, guild_id)  # not in runs: not a list of legal_orders
    return out


def _checked(world: World, gw: GwWorld, cands: Iterable[AnyOrder], pend: Pending) -> list[AnyOrder]:
    """The candidates ``check`` accepts, in their order."""
    out: list[AnyOrder] = []
    checks = CHECKS  # what _check_order(world, cand, stage="give", _pend=pend) runs: the guild is known
    for cand in cands:
        try:
            checks[type(cand)](world, gw, cand, pend)
        except RulesError:
            continue
        out.append(cand)
    return out


def _candidates(world: World, gw: GwWorld, g: str, pend: Pending | None = None) -> Iterable[AnyOrder]:
    pend = pending_of(gw, g, world.config.gw.unit_cost_solars) if pend is None else pend
    mine = owned_domains(gw, g)
    for run in _RUNS:
        yield from run(world, gw, g, pend, mine)


# ---- the runs of candidates, in the order legal_orders lists them -------------------------------


def _recruit_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[Recruit]:
    # (1) deploy phase: recruit, reinforce, deploy, lend seals, disband, domain actions
    cfg = world.config.gw
    guild = gw.guilds[g]
    free_doms = [d for d in mine if not d.occupied_by]
    cap_left = cfg.recruit_per_domain * len(free_doms) - pend.recruited
    budget = guild.solars - pend.recruit_cost
    for kind in sorted(cfg.unit_cost_solars):
        price = cfg.unit_cost_solars[kind]
        if kind not in cfg.units or price <= 0:
            continue
        most = min(cap_left, budget // price)
        for n in sorted({1, 5, most}):
            if 1 <= n <= most:
                yield Recruit(guild=g, units={kind: n})


def _pool_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[Reinforce | Deploy]:
    """The Reinforce candidates, then the Deploy candidates: what the pool left feeds."""
    guild_pool = gw.guilds[g].pool
    pool = {k: guild_pool.get(k, 0) - pend.pool.get(k, 0) for k in sorted(guild_pool)}
    pool = {k: n for k, n in pool.items() if n > 0}
    for d in mine:
        if is_restricted(d):
            continue
        for kind, n in pool.items():
            for m in sorted({1, n}):
                yield Reinforce(guild=g, domain=d.id, units={kind: m})
        if len(pool) > 1:
            yield Reinforce(guild=g, domain=d.id, units=dict(pool))
    yield from _deploy_candidates(world, gw, g, pend, pool)


def _lend_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[LendSeals]:
    guild = gw.guilds[g]
    if guild.nation is None and any(gw.seals[s].kind == "military" for s in guild.seals if s in gw.seals):
        for other in sorted(gw.guilds):
            if other != g:
                yield LendSeals(guild=g, to=other, lend=other not in guild.lends_to)


def _disband_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[Disband]:
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.owner == g and a.deployed < gw.season and aid not in pend.moves and aid not in pend.actions:
            yield Disband(guild=g, army=aid)


def _domain_action_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[DomainAction]:
    for d in mine:
        if is_restricted(d):
            spells = any(p in d.places for p in SPELL_PLACES)
            for act in OCCUPIED_ALLOWED:
                if act == "cast_spell" and not spells:
                    continue  # GW-OCC-02: check refuses it (no parish, no arcane place)
                if (d.id, act) not in pend.domain_actions:
                    yield DomainAction(guild=g, domain=d.id, action=act)
        else:
            for act in WORKS:
                if act not in d.works and (d.id, act) not in pend.domain_actions:
                    yield DomainAction(guild=g, domain=d.id, action=act)


def _army_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[Move | Siege | AttackDomain | Sack | AttackArmy]:
    # (2)-(5) armies: move, siege, attacks, sack
    interesting = sorted(
        {d.hex for d in gw.domains.values()} | {a.hex for a in gw.armies.values()} | {lt.hex for lt in gw.loot if lt.season < gw.season}
    )
    comp = gw.land_component  # reachable(world, a.hex, h), inlined
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.owner != g or a.deployed >= gw.season or aid in pend.disbanded:
            continue
        if aid not in pend.moves and aid not in pend.actions and 0 <= a.hex < len(comp) and comp[a.hex] >= 0:
            area = comp[a.hex]
            for h in interesting:
                if h != a.hex and 0 <= h < len(comp) and comp[h] == area:
                    yield Move(guild=g, army=aid, to=h)
        if aid not in pend.actions:
            where = expected_hex(world, a, pend)
            for d in domains_at(gw, where):
                # check refuses a siege or an attack of one's own domain or of one its guild
                # already occupies (SC-GW-09, GW-ATK-04), and a sack by an army not occupying it (SC-GW-13)
                if d.owner_guild != g and not any(gw.armies[x].owner == g for x in d.occupied_by if x in gw.armies):
                    yield Siege(guild=g, army=aid, domain=d.id)
                    yield AttackDomain(guild=g, army=aid, domain=d.id)
                if d.buildings and a.occupying == d.id:
                    yield Sack(guild=g, army=aid, domain=d.id)
            for t in armies_at(gw, where):
                if t.owner != g:
                    yield AttackArmy(guild=g, army=aid, target=t.id)


def _title_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[Annex | ReturnTitle]:
    # (6) annexations, titles, loot
    cfg = world.config.gw
    guild = gw.guilds[g]
    political = [s for s in guild.seals if s in gw.seals and gw.seals[s].kind == "political"]
    # check refuses every annexation while the chest cannot pay the compensation (RES-GW-23)
    if political and guild.solars >= cfg.annex_compensation_solars:
        for did in sorted(gw.domains):
            dom = gw.domains[did]
            if dom.owner_guild == g or not dom.occupied_by:
                continue
            # …and one already ordered (RES-GW-28), of a frozen domain (GW-ANX-06), or with no army of
            # the guild occupying it since an earlier season (GW-ANX-01)
            if did in pend.annexed or gw.season <= dom.frozen_until:
                continue
            occupiers = [gw.armies[a] for a in dom.occupied_by if a in gw.armies and army_involves(gw, gw.armies[a], g)]
            if all(a.occupying_since >= gw.season for a in occupiers):  # none, or all taken this season
                continue
            for s in political:
                yield Annex(guild=g, domain=did, seal=s)
    for dep in gw.bank.deposits:
        if dep.former_owner == g:
            yield ReturnTitle(guild=g, domain=dep.domain)


def _loot_candidates(world: World, gw: GwWorld, g: str, pend: Pending, mine: list[Domain]) -> Iterable[TreasureHunt | PickUpLoot]:
    first: dict[int, Loot] = {}  # the loot check finds for an id
    for lt in gw.loot:
        first.setdefault(lt.id, lt)
    here: set[int] | None = None  # where the guild's armies stand after movement (a pick-up needs one, GW-LOOT-03)
    for lt in gw.loot:
        if lt.season < gw.season:
            # check refuses a loot the guild already targets this season with the same order (RES-GW-15)
            if ("treasure_hunt", lt.id) not in pend.loot:
                yield TreasureHunt(guild=g, loot=lt.id, season=lt.season)
            if ("pick_up_loot", lt.id) in pend.loot:
                continue
            if first[lt.id] is lt:
                if here is None:
                    here = {expected_hex(world, a, pend) for a in gw.armies.values() if a.owner == g and a.deployed < gw.season}
                if lt.hex not in here:
                    continue
            yield PickUpLoot(guild=g, loot=lt.id, season=lt.season)


_Run = Callable[[World, GwWorld, str, Pending, list[Domain]], Iterable[AnyOrder]]
_RUNS: tuple[_Run, ...] = (
    _recruit_candidates, _pool_candidates, _lend_candidates, _disband_candidates, _domain_action_candidates,
    _army_candidates, _title_candidates, _loot_candidates,
)
# the run of each order type (an order type is listed in one run only)
_RUN_OF: dict[type, int] = {
    Recruit: 0, Reinforce: 1, Deploy: 1, LendSeals: 2, Disband: 3, DomainAction: 4,
    Move: 5, Siege: 5, AttackDomain: 5, Sack: 5, AttackArmy: 5, Annex: 6, ReturnTitle: 6, TreasureHunt: 7, PickUpLoot: 7,
}
_ACTION_RUNS = frozenset({3, 5})  # Disband, the armies' run: an army with an action is neither moved nor disbanded
# the runs legal_after computes again after an order of the guild (see legal_after; LendSeals: turned)
_REDO: dict[type, frozenset[int]] = {
    Recruit: frozenset({0}),
    Reinforce: frozenset({1}),
    Deploy: frozenset({1}),
    Disband: frozenset({3, 5}),
    DomainAction: frozenset({4}),
    Move: frozenset({3, 5, 7}),
    Siege: _ACTION_RUNS,
    AttackDomain: _ACTION_RUNS,
    Sack: _ACTION_RUNS,
    AttackArmy: _ACTION_RUNS,
    ReturnTitle: frozenset({6}),
    TreasureHunt: frozenset({7}),
    PickUpLoot: frozenset({7}),
}


def _ranked(avail: dict[str, int], world: World) -> list[tuple[str, int]]:
    """``avail``'s unit types and counts, strongest type first (then by name): the order ``_fill`` takes them."""
    units = world.config.gw.units
    return [(k, avail[k]) for k in sorted(avail, key=lambda k: (-units[k].cs if k in units else 0, k))]


def _fill(ranked: list[tuple[str, int]], room: int) -> dict[str, int]:
    """Take up to ``room`` units from ``ranked`` (``_ranked``), strongest type first (then by name)."""
    out: dict[str, int] = {}
    for k, have in ranked:
        if room <= 0:
            break
        n = min(have, room)
        if n > 0:
            out[k] = n
            room -= n
    return out


def _deploy_candidates(world: World, gw: GwWorld, g: str, pend: Pending, pool: dict[str, int]) -> Iterable[Deploy]:
    cfg = world.config.gw
    guild = gw.guilds[g]
    free_own = [s for s in guild.seals if s in gw.seals and gw.seals[s].kind == "military" and gw.seals[s].army is None and s not in pend.seals]
    if not free_own:
        return
    lent = [
        s
        for s in sorted(gw.seals)
        if gw.seals[s].guild != g
        and gw.seals[s].kind == "military"
        and gw.seals[s].army is None
        and s not in pend.seals
        and lends_seals(gw, gw.seals[s].guild, g)
        and gw.guilds[gw.seals[s].guild].nation is None  # LINK-06: a nation does not lend its seals
    ]
    pool_ranked = _ranked(pool, world)
    for did in sorted(gw.domains):
        dom = gw.domains[did]
        if is_restricted(dom):
            continue
        proxy = dom.owner_guild != g
        if proxy and g not in dom.consents_to:
            continue
        own = [s for s in free_own if not proxy or gw.seals[s].province == dom.province]
        if not own:
            continue
        others = [s for s in lent if gw.seals[s].region == dom.region][: len(own)]
        seal_sets = [own[:1], own] if len(own) > 1 else [own]  # one own seal: the two sets are one
        if others:
            seal_sets.append(own + others)
        gar = dict(garrison_counts(dom, pend))
        for k, n in pend.requisitioned.get(did, {}).items():
            gar[k] = gar.get(k, 0) - n
        gar = {k: n for k, n in gar.items() if n > 0}
        gar_ranked = _ranked(gar, world)
        seen: set[tuple[tuple[str, ...], tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]] = set()
        for seals in seal_sets:
            cap = cfg.units_per_seal * len(seals) + guild.capacity_bonus
            hand = _fill(pool_ranked, cap)
            req = _fill(gar_ranked, cap)
            both_hand = dict(hand)  # the same fill of the pool, its own dict
            both_req = _fill(gar_ranked, cap - sum(both_hand.values()))
            for units, requisition in ((hand, {}), ({}, req), (both_hand, both_req)):
                if not units and not requisition:
                    continue
                # what str(Deploy) would tell apart within one domain: the seals, the units and the
                # requisition, each dict in sorted order
                key = (tuple(seals), tuple(sorted(units.items())), tuple(sorted(requisition.items())))
                if key not in seen:
                    seen.add(key)
                    yield Deploy(guild=g, domain=did, seals=list(seals), units=units, requisition=requisition, proxy=proxy)
