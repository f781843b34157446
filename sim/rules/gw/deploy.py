"""GW resolution, phases (1) deployments and requisitions and (2) movement."""

from __future__ import annotations

from collections.abc import Callable

from sim.dice import Dice
from sim.errors import RulesError
from sim.events import Ledger
from sim.rules.gw.core import (
    SYS,
    WORKS,
    army_speed,
    army_strength,
    is_restricted,
    march_path,
    new_units,
    refresh_statuses,
    unit_counts,
)
from sim.rules.gw.hooks import NO_HOOKS, GwHooks
from sim.rules.gw.legality import check_order_stage, cost_of_recruits
from sim.state.gw import (
    AnyOrder,
    Army,
    AttackDomain,
    Deploy,
    Disband,
    DomainAction,
    GwWorld,
    Move,
    Recruit,
    Reinforce,
    Siege,
    Unit,
)
from sim.world import World

__all__ = [
    "drop_idle_sieges",
    "resolve_deploy",
    "resolve_deploy_phase",
    "resolve_disband",
    "resolve_domain_action",
    "resolve_move",
    "resolve_movement_phase",
    "resolve_recruit",
    "resolve_reinforce",
]


# =================================================================================================
# resolution — phase (1): deployments and requisitions
# =================================================================================================


def orders_of(gw: GwWorld, *types: type) -> list[AnyOrder]:
    """This season's orders of the given types, guilds in ascending id, each guild's in order given."""
    idx = [(o.guild, i, o) for i, o in enumerate(gw.orders) if isinstance(o, types)]
    idx.sort(key=lambda t: (t[0], t[1]))
    return [o for _, _, o in idx]


def reject(ledger: Ledger, order: AnyOrder, err: RulesError) -> None:
    clause = getattr(err, "clause", "SC-GW-09")
    reason = getattr(err, "reason", str(err))
    clauses = (clause,) if clause == "RES-GW-27" else (clause, "RES-GW-27")
    ledger.emit(SYS, "OrderRejected", f"guild:{order.guild}", clauses, outcome="rejected", order=str(order), reason=reason)


def attempt(world: World, ledger: Ledger, order: AnyOrder, fn: Callable[..., object]) -> bool:
    try:
        fn(world, order, ledger)
    except RulesError as e:
        reject(ledger, order, e)
        return False
    return True


def drop_idle_sieges(world: World, ledger: Ledger) -> None:
    """RES-GW-20: a besieging army keeps its status this season only if ordered to siege or attack
    the domain again; a GW-SIEGE-03 exception lasts only for the season after the siege."""
    gw = world.gw_state()
    keep: dict[str, str] = {}
    for o in gw.orders:
        if isinstance(o, Siege | AttackDomain):
            keep[o.army] = o.domain
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.besieging is not None and keep.get(aid) != a.besieging:
            ledger.emit(SYS, "SiegeAbandoned", f"army:{aid}", ("RES-GW-20",), outcome="lifted", domain=a.besieging)
            a.besieging = None
        if a.siege_short is not None and a.siege_short_season < gw.season - 1:
            a.siege_short = None
            a.siege_short_season = -1
    refresh_statuses(world)


def resolve_deploy(world: World, order: Deploy, ledger: Ledger) -> Army:
    """Deploy an army (GW-DEP-01…07, RES-GW-01…04)."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    cfg = world.config.gw
    guild = gw.guilds[order.guild]
    dom = gw.domains[order.domain]
    aid = f"{order.guild}-{gw.next_army}"
    gw.next_army += 1
    while aid in gw.armies:
        aid = f"{order.guild}-{gw.next_army}"
        gw.next_army += 1
    own = [s for s in order.seals if gw.seals[s].guild == order.guild]
    other = [s for s in order.seals if gw.seals[s].guild != order.guild]
    cap = cfg.units_per_seal * (len(order.seals) + len(order.support_seals)) + guild.capacity_bonus  # GW-DEP-05
    army = Army(id=aid, owner=order.guild, hex=dom.hex, capacity=cap, own_seals=own, other_seals=other, support_seals=list(order.support_seals), deployed=gw.season)
    for s in (*order.seals, *order.support_seals):
        gw.seals[s].army = aid
    for k, n in sorted(order.units.items()):
        guild.pool[k] -= n
        if guild.pool[k] == 0:
            del guild.pool[k]
        army.units.extend(new_units(world, order.guild, k, n, army=aid))
    requisitioned: list[Unit] = []
    for k, n in sorted(order.requisition.items()):
        # resolution: ENG-GW-01
        take = sorted((u for u in dom.garrison if u.kind == k), key=lambda u: u.id)[:n]
        ids = {u.id for u in take}
        dom.garrison = [u for u in dom.garrison if u.id not in ids]
        requisitioned.extend(take)
    army.units.extend(requisitioned)
    gw.armies[aid] = army
    gw.stats.deployments += 1
    ledger.emit(
        SYS,
        "ArmyDeployed",
        f"army:{aid}",
        ("GW-DEP-01", "GW-DEP-02" if not order.proxy else "GW-DEP-03", "GW-DEP-04", "GW-DEP-05", "GW-DEP-07", "RES-GW-02", "RES-GW-03", "RES-GW-04"),
        outcome="deployed",
        guild=order.guild,
        domain=dom.id,
        hex=dom.hex,
        own_seals=own,
        other_seals=other,
        support_seals=list(order.support_seals),
        capacity=cap,
        handed_in=dict(sorted(order.units.items())),
        requisitioned=dict(sorted(order.requisition.items())),
        units=len(army.units),
        strength=army_strength(world, army),
        proxy=order.proxy,
    )
    return army


def resolve_recruit(world: World, order: Recruit, ledger: Ledger) -> None:
    """SC-GW-15: buy units into the guild's pool."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    guild = gw.guilds[order.guild]
    cost = cost_of_recruits(world, order.units)
    before = guild.solars
    guild.solars -= cost
    for k, n in sorted(order.units.items()):
        guild.pool[k] = guild.pool.get(k, 0) + n
    gw.stats.units_recruited += sum(order.units.values())
    ledger.emit(
        SYS, "UnitsRecruited", f"guild:{order.guild}", ("SC-GW-15",), total=cost, outcome="recruited",
        units=dict(sorted(order.units.items())), solars_before=before, solars_after=guild.solars,
    )


def resolve_reinforce(world: World, order: Reinforce, ledger: Ledger) -> None:
    """Reinforce the garrison: units from the guild's pool into one of its domains (SC-GW-09)."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    guild = gw.guilds[order.guild]
    dom = gw.domains[order.domain]
    for k, n in sorted(order.units.items()):
        guild.pool[k] -= n
        if guild.pool[k] == 0:
            del guild.pool[k]
        dom.garrison.extend(new_units(world, order.guild, k, n, domain=dom.id))
    ledger.emit(
        SYS, "GarrisonReinforced", f"guild:{order.guild}", ("SC-GW-09", "GW-OCC-01"), outcome="reinforced",
        domain=dom.id, units=dict(sorted(order.units.items())), garrison=len(dom.garrison),
    )


def release_army(world: World, army: Army) -> None:
    """Free its seals (SC-GW-03) and its occupation/siege; remove it from the world."""
    gw = world.gw_state()
    for s in (*army.own_seals, *army.other_seals, *army.support_seals):
        if s in gw.seals and gw.seals[s].army == army.id:
            gw.seals[s].army = None
    gw.armies.pop(army.id, None)
    for d in gw.domains.values():
        if army.id in d.occupied_by:
            d.occupied_by = [a for a in d.occupied_by if a != army.id]
        if army.id in d.besieged_by:
            d.besieged_by = [a for a in d.besieged_by if a != army.id]


def resolve_disband(world: World, order: Disband, ledger: Ledger) -> None:
    """Disband an army: its units return to the guild's pool, its seals are freed (SC-GW-09)."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    army = gw.armies[order.army]
    guild = gw.guilds[army.owner]
    for k, n in unit_counts(army.units).items():
        guild.pool[k] = guild.pool.get(k, 0) + n
    release_army(world, army)
    ledger.emit(
        SYS, "ArmyDisbanded", f"army:{army.id}", ("SC-GW-09", "SC-GW-03"), outcome="disbanded",
        guild=army.owner, units=unit_counts(army.units), seals=[*army.own_seals, *army.other_seals, *army.support_seals],
    )


def resolve_domain_action(world: World, order: DomainAction, ledger: Ledger) -> None:
    """A domain action: a work in progress (build, assign) or an allow-list action of GW-OCC-02,
    whose own effects are outside this spec (RES-GW-19)."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    dom = gw.domains[order.domain]
    if order.action in WORKS and order.action not in dom.works:
        dom.works.append(order.action)
    ledger.emit(
        SYS, "DomainActionTaken", f"guild:{order.guild}", ("GW-OCC-02", "RES-GW-19"), outcome=order.action,
        domain=dom.id, restricted=is_restricted(dom), target=order.target,
    )


_PHASE1: dict[type, Callable[..., object]] = {
    Recruit: resolve_recruit,
    Deploy: resolve_deploy,
    Reinforce: resolve_reinforce,
    Disband: resolve_disband,
    DomainAction: resolve_domain_action,
}


def resolve_deploy_phase(world: World, dice: Dice, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """Phase (1) of RES-GW-10: siege statuses not renewed lapse (RES-GW-20), then every Recruit,
    Deploy, Reinforce, Disband and domain action, guilds in ascending id, each in the order given."""
    gw = world.gw_state()
    drop_idle_sieges(world, ledger)
    for o in orders_of(gw, *_PHASE1):
        attempt(world, ledger, o, _PHASE1[type(o)])


# =================================================================================================
# phase (2): movement
# =================================================================================================


def resolve_move(world: World, order: Move, ledger: Ledger) -> list[int]:
    """Move at the slowest unit's speed along the least-cost path (GW-MOV-01/02, RES-GW-05).
    Leaving a domain's hex ends the army's occupation of it."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    army = gw.armies[order.army]
    path = march_path(world, army, order.to)
    start = army.hex
    army.hex = path[-1]
    speed = army_speed(world, army)
    # resolution: ENG-GW-05
    if army.occupying is not None and gw.domains[army.occupying].hex != army.hex:
        dom = gw.domains[army.occupying]
        dom.occupied_by = [a for a in dom.occupied_by if a != army.id]
        ledger.emit(SYS, "OccupationEnded", f"army:{army.id}", ("GW-ATK-04",), outcome="left", domain=dom.id)
        army.occupying = None
        army.occupying_since = -1
    ledger.emit(
        SYS, "ArmyMoved", f"army:{army.id}", ("GW-MOV-01", "GW-MOV-02", "RES-GW-05"),
        total=len(path) - 1, outcome="arrived" if army.hex == order.to else "under way",
        guild=army.owner, start=start, end=army.hex, to=order.to, speed=speed, path=path,
    )
    return path


def resolve_movement_phase(world: World, dice: Dice, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """Phase (2): every Move order, guilds in ascending id."""
    gw = world.gw_state()
    for o in orders_of(gw, Move):
        attempt(world, ledger, o, resolve_move)
