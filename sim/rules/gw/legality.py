"""GW legality (SC-GW-09, RES-GW-27): ``check`` and the checks behind it, ``give_order``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules.gw.core import (
    ACTION_ORDERS,
    OCCUPIED_ALLOWED,
    SPELL_PLACES,
    SYS,
    WORKS,
    army_involves,
    is_keep,
    is_restricted,
    lends_seals,
    march_path,
    owned_domains,
    reachable,
    unit_counts,
)
from sim.state.gw import (
    Annex,
    AnyOrder,
    Army,
    AttackArmy,
    AttackDomain,
    Deploy,
    Deposit,
    Disband,
    Domain,
    DomainAction,
    Guild,
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
    "check",
    "committed",
    "expected_hex",
    "give_checked_order",
    "give_order",
    "may_assault",
]


# =================================================================================================
# legality (SC-GW-09, RES-GW-27)
# =================================================================================================


def _guild(gw: GwWorld, gid: str) -> Guild:
    g = gw.guilds.get(gid)
    if g is None:
        raise InvalidOrderError(f"unknown guild {gid!r}")
    return g


def _domain(gw: GwWorld, did: str) -> Domain:
    d = gw.domains.get(did)
    if d is None:
        raise InvalidOrderError(f"unknown domain {did!r}")
    return d


def _army(gw: GwWorld, aid: str) -> Army:
    a = gw.armies.get(aid)
    if a is None:
        raise InvalidOrderError(f"unknown army {aid!r}")
    return a


def _own_army(gw: GwWorld, order: AnyOrder, aid: str) -> Army:
    a = _army(gw, aid)
    if a.owner != order.guild:
        raise IllegalOrderError("SC-GW-09", f"army {aid} belongs to guild {a.owner}, not {order.guild}", order=order, actor=f"guild:{order.guild}")
    if a.deployed >= gw.season:
        raise IllegalOrderError("RES-GW-27", f"army {aid} was deployed this season; it takes orders from the next one", order=order, actor=f"guild:{order.guild}")
    return a


def fail(clause: str, reason: str, order: AnyOrder) -> IllegalOrderError:
    return IllegalOrderError(clause, reason, order=str(order), actor=f"guild:{order.guild}")


def _kinds(world: World, units: dict[str, int], order: AnyOrder) -> None:
    catalogue = world.config.gw.units
    for k, n in units.items():
        if k not in catalogue:
            known = ", ".join(sorted(catalogue))
            raise InvalidOrderError(f"unknown unit type {k!r} (known: {known})")
        if n < 1:
            raise InvalidOrderError(f"unit count for {k!r} must be at least 1, found {n}")


@dataclass
class Pending:
    """What a guild's orders already given this season commit (legality of the next ones)."""

    pool: dict[str, int] = field(default_factory=dict)  # units handed in or sent to garrisons
    requisitioned: dict[str, dict[str, int]] = field(default_factory=dict)  # domain → kind → n
    seals: set[str] = field(default_factory=set)
    recruited: int = 0
    recruit_cost: int = 0
    moves: dict[str, int] = field(default_factory=dict)  # army → destination
    actions: dict[str, AnyOrder] = field(default_factory=dict)  # army → its action order
    disbanded: set[str] = field(default_factory=set)
    annexed: set[str] = field(default_factory=set)  # domains
    returned: set[str] = field(default_factory=set)
    loot: set[tuple[str, int]] = field(default_factory=set)
    domain_actions: set[tuple[str, str]] = field(default_factory=set)
    where: dict[str, int] = field(default_factory=dict)  # army → hex after its pending Move (cache)
    garrisons: dict[str, dict[str, int]] = field(default_factory=dict)  # domain → its garrison's unit_counts (cache; read-only)
    free_domains: int = -1  # the guild's unoccupied domains (cache; -1: not counted yet)


def _recruit_cost_of(costs: dict[str, int], units: dict[str, int]) -> int:
    total = 0  # integers: the order of the additions does not matter
    for k, n in units.items():
        total += costs.get(k, 0) * n
    return total


def pending_of(gw: GwWorld, guild: str, costs: dict[str, int] | None = None) -> Pending:
    p = Pending()
    gw_costs = costs or {}
    for o in gw.orders:
        if o.guild != guild or type(o) is LendSeals:  # a consent commits nothing here (the most frequent order)
            continue
        if isinstance(o, Deploy):
            for k, n in o.units.items():
                p.pool[k] = p.pool.get(k, 0) + n
            req = p.requisitioned.setdefault(o.domain, {})
            for k, n in o.requisition.items():
                req[k] = req.get(k, 0) + n
            p.seals.update(o.seals)
            p.seals.update(o.support_seals)
        elif isinstance(o, Reinforce):
            for k, n in o.units.items():
                p.pool[k] = p.pool.get(k, 0) + n
        elif isinstance(o, Recruit):
            p.recruited += sum(o.units.values())
            p.recruit_cost += _recruit_cost_of(gw_costs, o.units)
        elif isinstance(o, Move):
            p.moves[o.army] = o.to
        elif isinstance(o, ACTION_ORDERS):
            p.actions[o.army] = o
        elif isinstance(o, Disband):
            p.disbanded.add(o.army)
        elif isinstance(o, Annex):
            p.annexed.add(o.domain)
        elif isinstance(o, ReturnTitle):
            p.returned.add(o.domain)
        elif isinstance(o, TreasureHunt | PickUpLoot):
            p.loot.add((str(o.__struct_config__.tag), o.loot))
        elif isinstance(o, DomainAction):
            p.domain_actions.add((o.domain, o.action))
    return p


def garrison_counts(dom: Domain, pend: Pending | None) -> dict[str, int]:
    """``unit_counts(dom.garrison)``, once per ``Pending`` (legal_orders checks every Deploy candidate
    with one; the world does not change meanwhile). Do not change the dict it returns."""
    if pend is None:
        return unit_counts(dom.garrison)
    got = pend.garrisons.get(dom.id)
    if got is None:
        got = pend.garrisons[dom.id] = unit_counts(dom.garrison)
    return got


def cost_of_recruits(world: World, units: dict[str, int]) -> int:
    costs = world.config.gw.unit_cost_solars
    return sum(costs.get(k, 0) * n for k, n in units.items())


def committed(world: World, guild: str) -> Pending:
    """What the orders ``guild`` already gave this season commit: pool units, seals, moves, actions…"""
    return pending_of(world.gw_state(), guild, world.config.gw.unit_cost_solars)


def _pending_recruit_cost(world: World, gw: GwWorld, guild: str) -> int:
    return sum(cost_of_recruits(world, o.units) for o in gw.orders if o.guild == guild and isinstance(o, Recruit))


def expected_hex(world: World, army: Army, pending: Pending | None) -> int:
    """Where the army will stand after the movement phase, given its pending Move (RES-GW-27)."""
    if pending is not None and army.id in pending.moves:
        if army.id not in pending.where:
            path = march_path(world, army, pending.moves[army.id])
            pending.where[army.id] = path[-1] if path else army.hex
        return pending.where[army.id]
    return army.hex


def check_order_stage(world: World, order: AnyOrder, *, stage: str = "give", _pend: Pending | None = None) -> None:
    """Raise if ``order`` is not legal now. ``stage`` is ``give`` (the order is being given at the
    start of the season: the guild's earlier orders of the season count, RES-GW-27) or ``resolve``
    (it is resolving in its phase: the world as it now stands counts)."""
    gw = world.gw_state()
    _guild(gw, order.guild)
    pend = (_pend if _pend is not None else pending_of(gw, order.guild, world.config.gw.unit_cost_solars)) if stage == "give" else None
    fn = CHECKS.get(type(order))
    if fn is None:
        raise InvalidOrderError(f"unknown order type {type(order).__name__}")
    fn(world, gw, order, pend)


def check(world: World, actor: str, order: AnyOrder) -> None:
    """Raise :class:`IllegalOrderError` (naming the clause) unless guild ``actor`` may give ``order``
    now, given the orders it has already given this season (:class:`InvalidOrderError` for an
    unknown guild, domain, army, seal or loot)."""
    if order.guild != actor:
        raise IllegalOrderError("RES-GW-27", f"this order is guild {order.guild!r}'s, not guild {actor!r}'s", order=order, actor=actor)
    check_order_stage(world, order, stage="give")


def _restricted_clause(dom: Domain) -> str:
    return "GW-OCC-02" if dom.occupied_by else "GW-SIEGE-02"


def _check_deploy(world: World, gw: GwWorld, o: Deploy, pend: Pending | None) -> None:
    cfg = world.config.gw
    guild = gw.guilds[o.guild]
    dom = _domain(gw, o.domain)
    for s in (*o.seals, *o.support_seals):
        if s not in gw.seals:
            raise InvalidOrderError(f"unknown seal {s!r}")
    _kinds(world, o.units, o)
    _kinds(world, o.requisition, o)
    if not o.seals:
        raise fail("GW-DEP-01", "an army can only be deployed by engaging military seals; none is engaged", o)
    if len(set(o.seals) | set(o.support_seals)) != len(o.seals) + len(o.support_seals):
        raise fail("SC-GW-03", "a seal is named twice", o)
    for s in (*o.seals, *o.support_seals):
        seal = gw.seals[s]
        if seal.kind != "military":
            raise fail("GW-DEP-01", f"seal {s} is a {seal.kind} seal, not a military seal", o)
        if seal.army is not None or (pend is not None and s in pend.seals):
            where = seal.army or "another deployment this season"
            raise fail("SC-GW-03", f"seal {s} is already engaged ({where})", o)
    # resolution: ENG-GW-03
    engaged = [*o.seals, *o.support_seals]  # support seals are engaged seals too (GW-DEP-04/05, SC-GW-08)
    own = [s for s in engaged if gw.seals[s].guild == o.guild]
    others = [s for s in engaged if gw.seals[s].guild != o.guild]
    if is_restricted(dom):
        raise fail(
            _restricted_clause(dom),
            f"domain {dom.id} is {'occupied' if dom.occupied_by else 'besieged'}; deploying there is not on the GW-OCC-02 list (RES-GW-19)",
            o,
        )
    if dom.owner_guild != o.guild:
        # GW-DEP-03 / RES-GW-01: a consenting domain in the province of every engaged own seal, with a proxy
        if not o.proxy:
            raise fail("GW-DEP-03", f"domain {dom.id} belongs to {dom.owner_guild}: a proxy (procuration) from its owner must accompany the order", o)
        if o.guild not in dom.consents_to:
            raise fail("GW-DEP-03", f"domain {dom.id} is not a consenting domain for guild {o.guild} (its owner gave no proxy)", o)
        for s in own:
            if gw.seals[s].province != dom.province:
                raise fail(
                    "RES-GW-01",
                    f"seal {s} is affiliated to province {gw.seals[s].province}, but domain {dom.id} lies in {dom.province}",
                    o,
                )
    # GW-DEP-04 / RES-GW-02: at least half the engaged seals are the owner's, the others from the domain's region
    total = len(engaged)
    if len(own) * 100 < cfg.own_seal_percent * total:
        raise fail(
            "GW-DEP-04",
            f"only {len(own)} of the {total} engaged seals belong to {o.guild} ({len(own)} × 2 = {len(own) * 2} < {total}); at least {cfg.own_seal_percent}% must",
            o,
        )
    for s in others:
        seal = gw.seals[s]
        # resolution: ENG-LINK-01
        if gw.guilds[seal.guild].nation is not None:  # --- LINK-06: a nation's seals raise its own armies only
            raise fail("LINK-06", f"seal {s} is a seal of the nation {seal.guild}, which raises only its own armies with it", o)
        if seal.region != dom.region:
            raise fail("GW-DEP-04", f"seal {s} of guild {seal.guild} is from region {seal.region}, not {dom.region} where {dom.id} lies", o)
        if not lends_seals(gw, seal.guild, o.guild):
            raise fail(
                "GW-DEP-04",
                f"seal {s} belongs to guild {seal.guild}, which has not agreed to lend its seals to {o.guild} "
                f"(a lend_seals order or the scenario's lends_to)",
                o,
            )
    # units (GW-DEP-05/06/07, RES-GW-03/04)
    for k, n in sorted(o.units.items()):
        have = guild.pool.get(k, 0) - (pend.pool.get(k, 0) if pend else 0)
        if n > have:
            raise fail("RES-GW-04", f"guild {o.guild} hands in {n} {k} but its unit pool holds {max(have, 0)}", o)
    if o.requisition:
        if dom.owner != guild.leader and not o.proxy:
            raise fail("RES-GW-04", f"requisitioning units of {dom.id} needs a proxy from its owner {dom.owner}", o)
        gar = garrison_counts(dom, pend)
        taken = pend.requisitioned.get(dom.id, {}) if pend else {}
        for k, n in sorted(o.requisition.items()):
            have = gar.get(k, 0) - taken.get(k, 0)
            if n > have:
                raise fail("GW-DEP-07", f"requisition of {n} {k} from {dom.id}, whose garrison has {max(have, 0)}", o)
    # implements: GW-DEP-06
    n_units = sum(o.units.values()) + sum(o.requisition.values())
    if n_units < 1:
        raise fail("GW-DEP-07", "no unit is handed in or requisitioned", o)
    cap = cfg.units_per_seal * total + guild.capacity_bonus  # GW-DEP-05: 10 units per engaged seal
    if n_units > cap:
        raise fail(
            "RES-GW-03",
            f"{n_units} units exceed the army's capacity of {cap} ({total} seals × {cfg.units_per_seal}{' + ' + str(guild.capacity_bonus) if guild.capacity_bonus else ''}); the order is not trimmed",
            o,
        )


def _check_lend(world: World, gw: GwWorld, o: LendSeals, pend: Pending | None) -> None:
    """A guild's consent to lend its military seals (GW-DEP-04), or its withdrawal."""
    guild = gw.guilds[o.guild]
    if o.to not in gw.guilds:
        raise InvalidOrderError(f"unknown guild {o.to!r}")
    if o.to == o.guild:
        raise fail("GW-DEP-04", "a guild engages its own seals without lending them", o)
    # resolution: ENG-LINK-01
    if guild.nation is not None:  # --- LINK-06: a nation's seals raise its own armies only
        raise fail("LINK-06", f"{o.guild} is a nation: its seals raise only its own armies", o)
    if o.lend == (o.to in guild.lends_to):
        state = "already lends" if o.lend else "does not lend"
        raise fail("GW-DEP-04", f"guild {o.guild} {state} its seals to {o.to}", o)


def _check_recruit(world: World, gw: GwWorld, o: Recruit, pend: Pending | None) -> None:
    cfg = world.config.gw
    guild = gw.guilds[o.guild]
    _kinds(world, o.units, o)
    if not o.units:
        raise InvalidOrderError("a recruit order names no unit")
    for k in o.units:
        if k not in cfg.unit_cost_solars:
            raise fail("SC-GW-15", f"unit type {k} has no price in CFG.gw.unit_cost_solars", o)
    if pend is None or pend.free_domains < 0:
        free = sum(1 for d in owned_domains(gw, o.guild) if not d.occupied_by)
        if pend is not None:
            pend.free_domains = free  # legal_orders checks every Recruit candidate with one Pending
    else:
        free = pend.free_domains
    cap = cfg.recruit_per_domain * free
    n = sum(o.units.values())
    done = pend.recruited if pend else 0
    if n + done > cap:
        raise fail(
            "SC-GW-15",
            f"{n} recruits (+{done} already ordered) exceed {cfg.recruit_per_domain} per unoccupied domain × {free} = {cap} this season",
            o,
        )
    cost = _recruit_cost_of(cfg.unit_cost_solars, o.units)
    committed = pend.recruit_cost if pend else 0
    if cost + committed > guild.solars:
        raise fail("SC-GW-15", f"the chest holds {guild.solars} solars; these recruits cost {cost} (+{committed} already ordered)", o)


def _check_reinforce(world: World, gw: GwWorld, o: Reinforce, pend: Pending | None) -> None:
    guild = gw.guilds[o.guild]
    dom = _domain(gw, o.domain)
    _kinds(world, o.units, o)
    if not o.units:
        raise InvalidOrderError("a reinforce order names no unit")
    if dom.owner_guild != o.guild:
        raise fail("SC-GW-09", f"domain {dom.id} belongs to {dom.owner_guild}; a guild reinforces only its own domains", o)
    if dom.occupied_by:
        raise fail("GW-OCC-01", f"domain {dom.id} is occupied: the occupation prevents reinforcing the garrison", o)
    if dom.besieged_by:
        raise fail("GW-SIEGE-02", f"domain {dom.id} is besieged: its owner may not reinforce the garrison", o)
    for k, n in sorted(o.units.items()):
        have = guild.pool.get(k, 0) - (pend.pool.get(k, 0) if pend else 0)
        if n > have:
            raise fail("SC-GW-09", f"guild {o.guild} sends {n} {k} but its unit pool holds {max(have, 0)}", o)


def _check_disband(world: World, gw: GwWorld, o: Disband, pend: Pending | None) -> None:
    _own_army(gw, o, o.army)
    if pend is not None and (o.army in pend.moves or o.army in pend.actions or o.army in pend.disbanded):
        # resolution: ENG-GW-07
        raise fail("RES-GW-27", f"army {o.army} already has orders this season", o)


def _check_move(world: World, gw: GwWorld, o: Move, pend: Pending | None) -> None:
    army = _own_army(gw, o, o.army)
    if not 0 <= o.to < len(world.map.hexes):
        raise InvalidOrderError(f"hex {o.to} is not on the map")
    if pend is not None:
        if o.army in pend.moves:
            raise fail("RES-GW-27", f"army {o.army} already has a Move order this season", o)
        if o.army in pend.disbanded:
            raise fail("RES-GW-27", f"army {o.army} is being disbanded", o)
    if world.map.hexes[o.to].is_water:
        raise fail("RES-GW-05", f"hex {world.map.label(o.to)} is water; land armies cannot enter it", o)
    if o.to == army.hex:
        raise fail("RES-GW-05", f"army {o.army} is already on {world.map.label(o.to)}", o)
    if not reachable(world, army.hex, o.to):
        raise fail("RES-GW-05", f"no land path from {world.map.label(army.hex)} to {world.map.label(o.to)}", o)
    if pend is not None and o.army in pend.actions:
        act = pend.actions[o.army]
        end = march_path(world, army, o.to)[-1]
        where = _target_hex(gw, act)
        if where is not None and where != end:
            raise fail("RES-GW-27", f"the target of its {act.__struct_config__.tag} order would not be in its hex after this move", o)


def _target_hex(gw: GwWorld, act: AnyOrder) -> int | None:
    if isinstance(act, Siege | AttackDomain | Sack):
        d = gw.domains.get(act.domain)
        return d.hex if d else None
    if isinstance(act, AttackArmy):
        a = gw.armies.get(act.target)
        return a.hex if a else None
    return None


def _action_common(world: World, gw: GwWorld, o: Siege | AttackDomain | AttackArmy | Sack, pend: Pending | None) -> tuple[Army, int]:
    army = _own_army(gw, o, o.army)
    if pend is not None:
        if o.army in pend.actions:
            prev = pend.actions[o.army]
            raise fail("RES-GW-27", f"army {o.army} already has a {prev.__struct_config__.tag} order this season (at most one of Siege, Attack a domain, Attack an army, Sack)", o)
        if o.army in pend.disbanded:
            raise fail("RES-GW-27", f"army {o.army} is being disbanded", o)
    return army, expected_hex(world, army, pend)


def _domain_here(gw: GwWorld, o: Siege | AttackDomain | Sack, where: int, world: World) -> Domain:
    dom = _domain(gw, o.domain)
    if dom.hex != where:
        raise fail("RES-GW-27", f"domain {dom.id} is not in the army's hex {world.map.label(where)} after movement", o)
    return dom


def _check_siege(world: World, gw: GwWorld, o: Siege, pend: Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    dom = _domain_here(gw, o, where, world)
    if dom.owner_guild == o.guild:
        raise fail("SC-GW-09", f"domain {dom.id} belongs to the army's own guild", o)
    if any(gw.armies[a].owner == o.guild for a in dom.occupied_by if a in gw.armies):
        # resolution: ENG-GW-07
        raise fail("SC-GW-09", f"domain {dom.id} is already occupied by guild {o.guild}", o)


def may_assault(world: World, army: Army, dom: Domain) -> bool:
    """GW-ATK-01/02, RES-GW-17: below a keep at once; a keep or better only for an army that was
    besieging it at the end of the preceding season (or held the GW-SIEGE-03 exception then)."""
    if not is_keep(world, dom):
        return True
    gw = world.gw_state()
    if army.besieging == dom.id:
        return True
    return army.siege_short == dom.id and army.siege_short_season == gw.season - 1


def _check_attack_domain(world: World, gw: GwWorld, o: AttackDomain, pend: Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    dom = _domain_here(gw, o, where, world)
    if dom.owner_guild == o.guild:
        raise fail("SC-GW-09", f"domain {dom.id} belongs to the army's own guild", o)
    if any(gw.armies[a].owner == o.guild for a in dom.occupied_by if a in gw.armies):
        raise fail("GW-ATK-04", f"domain {dom.id} is already occupied by guild {o.guild}", o)
    # implements: GW-SIEGE-01
    if not may_assault(world, army, dom):
        empty = " even though it has no garrison (GW-SIEGE-01)" if not dom.garrison else ""
        raise fail(
            "GW-ATK-02",
            f"domain {dom.id} has a {world.config.gw.fortification_names[dom.fortification]} (keep or better): only an army that did a season of siege may attack it{empty} (RES-GW-17)",
            o,
        )


def _check_attack_army(world: World, gw: GwWorld, o: AttackArmy, pend: Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    target = _army(gw, o.target)
    if target.owner == o.guild:
        raise fail("SC-GW-09", f"army {o.target} belongs to the same guild", o)
    if target.hex != where:
        raise fail("RES-GW-27", f"army {o.target} is not in the army's hex {world.map.label(where)} after movement", o)


def _check_sack(world: World, gw: GwWorld, o: Sack, pend: Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    dom = _domain_here(gw, o, where, world)
    if army.occupying != dom.id:
        raise fail("SC-GW-13", f"army {army.id} does not occupy {dom.id}; only an occupying army may sack it", o)


def _check_annex(world: World, gw: GwWorld, o: Annex, pend: Pending | None) -> None:
    cfg = world.config.gw
    guild = gw.guilds[o.guild]
    dom = _domain(gw, o.domain)
    seal = gw.seals.get(o.seal)
    if seal is None:
        raise InvalidOrderError(f"unknown seal {o.seal!r}")
    if seal.kind != "political" or seal.guild != o.guild:
        raise fail("RES-GW-23", f"an annexation must name a political seal of {o.guild}; {o.seal} is a {seal.kind} seal of {seal.guild}", o)
    if pend is not None:
        # a political seal may be named by several annexations of one season: GW-ANX-03 uses it only to
        # say whose leader receives the domain, and nothing spends it
        if o.domain in pend.annexed:
            raise fail("RES-GW-28", f"guild {o.guild} already ordered the annexation of {o.domain} this season", o)
    if dom.owner_guild == o.guild:
        raise fail("GW-ANX-01", f"domain {dom.id} already belongs to {o.guild}", o)
    if gw.season <= dom.frozen_until:
        raise fail("GW-ANX-06", f"the ownership of {dom.id} cannot change before season {dom.frozen_until + 1} (RES-GW-25)", o)
    occupiers = [gw.armies[a] for a in dom.occupied_by if a in gw.armies and army_involves(gw, gw.armies[a], o.guild)]
    if not occupiers:
        raise fail("GW-ANX-01", f"no army of {o.guild} occupies {dom.id} after a successful attack (RES-GW-28)", o)
    if all(a.occupying_since >= gw.season for a in occupiers):
        raise fail("GW-ANX-01", f"{dom.id} was taken this season; the annexation may be requested from the next season (RES-GW-28)", o)
    if pend is not None and guild.solars < cfg.annex_compensation_solars:
        raise fail(
            "RES-GW-23",
            f"the compensation of {cfg.annex_compensation_solars} solars cannot be paid: the chest holds {guild.solars}",
            o,
        )


def return_deposit(gw: GwWorld, guild: str, domain: str) -> Deposit | None:
    for d in gw.bank.deposits:
        if d.domain == domain and d.former_owner == guild and d.annexed_season >= 0 and not d.title_returned:
            return d
    return None


def _check_return_title(world: World, gw: GwWorld, o: ReturnTitle, pend: Pending | None) -> None:
    _domain(gw, o.domain)
    if pend is not None and o.domain in pend.returned:
        raise fail("GW-ANX-04", f"the title of {o.domain} is already being returned", o)
    d = return_deposit(gw, o.guild, o.domain)
    dom = gw.domains[o.domain]
    if d is None and dom.annexed_from == o.guild and dom.annexed_season >= 0:
        # the former owner, too late (RES-GW-24): the window was season A+1 only
        a = dom.annexed_season
        raise fail(
            "RES-GW-24",
            f"{o.domain} was annexed in season {a}: its title could be returned only in season {a + 1}, not in season {gw.season}",
            o,
        )
    if d is None:
        raise fail("GW-ANX-04", f"guild {o.guild} is not the former owner of an annexed {o.domain} awaiting its title", o)
    if gw.season != d.annexed_season + 1:
        raise fail(
            "RES-GW-24",
            f"{o.domain} was annexed in season {d.annexed_season}: its title may be returned only in season {d.annexed_season + 1}",
            o,
        )


def get_loot(gw: GwWorld, o: TreasureHunt | PickUpLoot) -> Loot:
    for lt in gw.loot:
        if lt.id == o.loot:
            if lt.season != o.season:
                raise InvalidOrderError(f"loot {o.loot} was created in season {lt.season}, not {o.season} (RES-GW-15)")
            return lt
    raise fail("GW-LOOT-03", f"there is no loot {o.loot} (created in season {o.season}) to target", o)


def _check_loot_order(world: World, gw: GwWorld, o: TreasureHunt | PickUpLoot, pend: Pending | None) -> None:
    lt = get_loot(gw, o)
    if lt.season >= gw.season:
        raise fail("GW-LOOT-03", f"loot {lt.id} is created this season; it can be targeted from season {lt.season + 1} (RES-GW-15)", o)
    if pend is not None and (str(o.__struct_config__.tag), o.loot) in pend.loot:
        raise fail("RES-GW-15", f"loot {lt.id} is already targeted by this guild this season", o)
    if isinstance(o, PickUpLoot):
        here = [a for a in gw.armies.values() if a.owner == o.guild and a.deployed < gw.season and expected_hex(world, a, pend) == lt.hex]
        if not here:
            raise fail("GW-LOOT-03", f"no army of {o.guild} stands on the loot's hex {world.map.label(lt.hex)} to pick it up", o)


def _check_domain_action(world: World, gw: GwWorld, o: DomainAction, pend: Pending | None) -> None:
    dom = _domain(gw, o.domain)
    if o.action not in OCCUPIED_ALLOWED and o.action not in WORKS:
        known = ", ".join((*OCCUPIED_ALLOWED, *WORKS))
        raise InvalidOrderError(f"unknown domain action {o.action!r} (known: {known})")
    if dom.owner_guild != o.guild:
        raise fail("SC-GW-09", f"domain {dom.id} belongs to {dom.owner_guild}", o)
    if is_restricted(dom) and o.action not in OCCUPIED_ALLOWED:
        state = "occupied" if dom.occupied_by else "besieged"
        raise fail(_restricted_clause(dom), f"domain {dom.id} is {state}: {o.action} is not on the allow-list (RES-GW-19)", o)
    if o.action == "cast_spell" and not any(p in dom.places for p in SPELL_PLACES):
        raise fail("GW-OCC-02", f"only residents of a parish or an arcane place may cast spells; {dom.id} is neither", o)
    if o.action == "use_magic_item" and o.target is not None:
        tgt = _domain(gw, o.target)
        if tgt.occupied_by and o.guild in tgt.consents_to:
            raise fail("GW-OCC-02", f"a magic item may not target {tgt.id}, a consenting domain that is occupied", o)


CHECKS: dict[type, Callable[..., None]] = {
    Deploy: _check_deploy,
    LendSeals: _check_lend,
    Recruit: _check_recruit,
    Reinforce: _check_reinforce,
    Disband: _check_disband,
    Move: _check_move,
    Siege: _check_siege,
    AttackDomain: _check_attack_domain,
    AttackArmy: _check_attack_army,
    Sack: _check_sack,
    Annex: _check_annex,
    ReturnTitle: _check_return_title,
    TreasureHunt: _check_loot_order,
    PickUpLoot: _check_loot_order,
    DomainAction: _check_domain_action,
}


def give_order(world: World, order: AnyOrder, ledger: Ledger) -> None:
    """A guild gives ``order`` for this season (RES-GW-27). Raises if it is not legal now. An Annex
    order's compensation is taken from the chest at once (RES-GW-23); a LendSeals order's consent
    counts at once, for the orders given after it (GW-DEP-04)."""
    check_order_stage(world, order, stage="give")
    give_checked_order(world, order, ledger)


def give_checked_order(world: World, order: AnyOrder, ledger: Ledger) -> None:
    """:func:`give_order` for an order known to be legal now: one of the list ``legal_orders`` gave
    for its guild (every order of it passed ``check``), the world unchanged since (``give_orders``)."""
    gw = world.gw_state()
    gw.orders.append(order)
    clauses: tuple[str, ...] = ("SC-GW-09", "RES-GW-27")
    if isinstance(order, Annex):
        amount = world.config.gw.annex_compensation_solars
        guild = gw.guilds[order.guild]
        guild.solars -= amount
        gw.bank.held += amount
        gw.bank.deposits.append(Deposit(order.domain, order.guild, amount, gw.season))
        clauses = ("GW-ANX-02", "RES-GW-23", "SC-GW-10", "RES-GW-27")
    elif isinstance(order, LendSeals):
        guild = gw.guilds[order.guild]
        lent = set(guild.lends_to)
        if order.lend:
            lent.add(order.to)
        else:
            lent.discard(order.to)
        guild.lends_to = sorted(lent)
        clauses = ("GW-DEP-04", "RES-GW-02", "RES-GW-27")
    ledger.emit(SYS, "OrderGiven", f"guild:{order.guild}", clauses, outcome=str(order.__struct_config__.tag), order=str(order))
