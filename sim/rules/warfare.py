"""Guild warfare (GW) — la guerre des guildes (RULES.md §3 and the supporting core §5.3).

A season (*saison*, SC-GW-01) runs as follows (RES-GW-10, ``CFG.gw.phase_order``)::

    begin_season(world, ledger)                    # title deliveries (RES-GW-25)
    give_order(world, order, ledger)  ×  n         # every guild, ascending id (RES-GW-27)
    run_phases(world, dice, ledger)                # (1) deploy … (7) end of season

``legal_orders(world, guild)`` lists what a guild may order now, given the orders it has already
given this season. ``check_order`` raises :class:`IllegalOrderError` naming the clause an order breaks
(or :class:`InvalidOrderError` for an unknown entity). Each ``resolve_*`` function resolves one order
or one phase; a resolver handed an order that has become illegal by the time it resolves raises
``IllegalOrderError`` too, and the phase functions turn that into an ``OrderRejected`` event (the
order is rejected whole, naming the clause, RES-GW-27).

Rules are plain functions of the world, the dice and the ledger; every number a resolution invented
is read from ``world.config.gw``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sim.calendar import HOURS_PER_YEAR
from sim.config import GwConfig
from sim.dice import Dice
from sim.errors import IllegalOrderError, InvalidOrderError, RulesError
from sim.events import Ledger
from sim.paths import cheapest_path
from sim.state.gw import (
    Annex,
    AnyOrder,
    Army,
    AttackArmy,
    AttackDomain,
    Bonus,
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
    Unit,
)
from sim.world import World

SYS = "gw"

# GW-OCC-02: what the owner of an occupied (or besieged, GW-SIEGE-02) domain may still do there.
OCCUPIED_ALLOWED: tuple[str, ...] = (
    "sortie_assault",  # Assaut de sortie
    "drug_the_vanguard",  # Droguer l'avant-garde
    "mercenary_support",  # Support de mercenaires
    "last_stand",  # Dernier retranchement
    "heroic_speech",  # Discours héroïque
    "use_consumable",  # potion, babiole, parchemin
    "use_magic_item",  # objet magique (not on a consenting domain that is occupied)
    "revolt",  # Se mettre en révolte
    "use_knowledge_stones",  # pierres de savoir
    "vote",  # voter pour un maître de fief ou lors d'une élection
    "change_title",  # changer le titre de propriétaire du domaine
    "cast_spell",  # résidents d'une paroisse / d'un lieu arcanique
)
# Works in progress (GW-OCC-01): not on the allow-list; an occupation cancels them.
WORKS: tuple[str, ...] = ("build", "assign")
SPELL_PLACES = ("parish", "arcane_place", "great_arcane_place")
ACTION_ORDERS = (Siege, AttackDomain, AttackArmy, Sack)
PHASES = ("deploy", "move", "siege", "army_combats", "domain_attacks", "annexations", "end_of_season")


# =================================================================================================
# helpers
# =================================================================================================


def _links() -> Any:
    """The LINK glue (imported late: ``sim.rules.links`` imports this module)."""
    from sim.rules import links

    return links


def gw_of(world: World) -> GwWorld:
    if world.gw is None:
        raise RulesError("this world has no guild warfare (gw) system")
    return world.gw


def season_hours(cfg: GwConfig) -> int:
    """Length of a season in hours (SC-GW-01)."""
    # implements: GEN-07
    return HOURS_PER_YEAR // cfg.seasons_per_year


def season_at(world: World, hour: int) -> int:
    return hour // season_hours(world.config.gw)


def allied(gw: GwWorld, a: str, b: str) -> bool:
    """Same guild, or declared allies in the scenario (RES-GW-06: one front against one target). An
    alliance is not needed to lend seals (:func:`lends_seals`)."""
    if a == b:
        return True
    pair = sorted((a, b))
    return pair in gw.alliances


# resolution: ENG-GW-02
def lends_seals(gw: GwWorld, lender: str, borrower: str) -> bool:
    """GW-DEP-04: another guild's seals are engaged only with that guild's consent — its ``lends_to``
    (set in the scenario, changed by its LendSeals orders). No alliance is needed."""
    g = gw.guilds.get(lender)
    return lender == borrower or (g is not None and borrower in g.lends_to)


def army_involves(gw: GwWorld, army: Army, guild: str) -> bool:
    """RES-GW-26: the guild owns the army or engaged any seal (own, other, support) in it."""
    if army.owner == guild:
        return True
    return any(gw.seals[s].guild == guild for s in (*army.own_seals, *army.other_seals, *army.support_seals) if s in gw.seals)


def domains_at(gw: GwWorld, hex_: int) -> list[Domain]:
    return [gw.domains[k] for k in sorted(gw.domains) if gw.domains[k].hex == hex_]


def armies_at(gw: GwWorld, hex_: int) -> list[Army]:
    return [gw.armies[k] for k in sorted(gw.armies) if gw.armies[k].hex == hex_]


def is_restricted(dom: Domain) -> bool:
    """GW-OCC-02 / GW-SIEGE-02: the owner is limited to the allow-list while occupied or besieged."""
    return bool(dom.occupied_by or dom.besieged_by)


def owned_domains(gw: GwWorld, guild: str) -> list[Domain]:
    return [gw.domains[k] for k in sorted(gw.domains) if gw.domains[k].owner_guild == guild]


# ---- strength (GW-CMB, RES-GW-07/08) ------------------------------------------------------------


def capped_bonus(u: Unit, cfg: GwConfig) -> int:
    """Σ non-fortification bonuses, capped at +1 (GW-CMB-03); any further bonus is lost."""
    # implements: RES-GW-07
    return min(sum(b.value for b in u.bonuses), cfg.bonus_cap)


def toughness(u: Unit, cfg: GwConfig, fort: int = 0, bonus: bool = True) -> int:
    """What the unit is worth in an action before this season's damage (RES-GW-08)."""
    return cfg.units[u.kind].cs + (capped_bonus(u, cfg) if bonus else 0) + fort


def effective_cs(u: Unit, cfg: GwConfig, fort: int = 0, bonus: bool = True) -> int:
    """Effective CS (RES-GW-08): base + capped bonus + fortification − damage taken, minimum 0."""
    # implements: SC-GW-06
    return max(0, toughness(u, cfg, fort, bonus) - u.damage)


def units_strength(units: Iterable[Unit], cfg: GwConfig, fort: int = 0, bonus: bool = True) -> int:
    return sum(effective_cs(u, cfg, fort, bonus) for u in units)


def army_strength(world: World, army: Army) -> int:
    return units_strength(army.units, world.config.gw)


def fort_bonus(world: World, dom: Domain) -> int:
    """Per-unit garrison bonus of the domain's fortification (SC-GW-07)."""
    forts = world.config.gw.fortifications
    return forts[min(dom.fortification, len(forts) - 1)]


def garrison_strength(world: World, dom: Domain, fort: bool = True) -> int:
    return units_strength(dom.garrison, world.config.gw, fort_bonus(world, dom) if fort else 0)


def defending_strength(world: World, dom: Domain) -> int:
    """Strength of the front that defends a domain against an attack (RES-GW-18)."""
    gw = gw_of(world)
    s = garrison_strength(world, dom)
    for a in armies_at(gw, dom.hex):
        if a.owner == dom.owner_guild:
            s += army_strength(world, a)
    return s


def army_speed(world: World, army: Army) -> int:
    """GW-MOV-02: the speed of its slowest unit."""
    units = world.config.gw.units
    return min((units[u.kind].speed for u in army.units), default=0)


def is_keep(world: World, dom: Domain) -> bool:
    """Keep (*donjon*) or better (SC-GW-07)."""
    return dom.fortification >= world.config.gw.keep_level


# ---- losses (GW-LOSS, RES-GW-13) --------------------------------------------------------------


def loss_order(units: list[Unit], cfg: GwConfig, fort: int = 0, bonus: bool = True) -> list[Unit]:
    """RES-GW-13: ascending loss rank, then ascending effective CS, then ascending unit id."""
    return sorted(units, key=lambda u: (cfg.units[u.kind].loss_rank, effective_cs(u, cfg, fort, bonus), u.id))


def apply_damage(units: list[Unit], dmg: int, cfg: GwConfig, fort: int = 0, bonus: bool = True) -> tuple[list[Unit], int]:
    """Apply ``dmg`` to ``units`` in loss order (RES-GW-13); destroyed units are removed from the list.

    Returns (destroyed units, damage left over after every unit is destroyed). The last, insufficient
    remainder stays on the unit it reached (GW-CMB-05, RES-GW-09)."""
    destroyed: list[Unit] = []
    if dmg <= 0:
        return destroyed, 0
    for u in loss_order(units, cfg, fort, bonus):
        if dmg <= 0:
            break
        left = effective_cs(u, cfg, fort, bonus)
        if dmg >= left:
            dmg -= left
            destroyed.append(u)
        else:
            u.damage += dmg
            dmg = 0
    if destroyed:
        gone = {id(u) for u in destroyed}
        units[:] = [u for u in units if id(u) not in gone]
    return destroyed, dmg


def _unit_rows(units: Iterable[Unit]) -> list[list[int | str]]:
    return [[u.id, u.kind] for u in units]


def _counts(units: Iterable[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return dict(sorted(out.items()))


def new_units(world: World, guild: str, kind: str, n: int, *, army: str | None = None, domain: str | None = None) -> list[Unit]:
    """Create ``n`` units with fresh ids and the scenario bonuses that select them (RES-GW-07)."""
    gw = gw_of(world)
    bonuses = [
        Bonus(r.source, r.value)
        for r in gw.bonus_rules
        if (r.guild is None or r.guild == guild)
        and (r.kind is None or r.kind == kind)
        and (r.army is None or r.army == army)
        and (r.domain is None or r.domain == domain)
        and (r.army is None or army is not None)
        and (r.domain is None or domain is not None)
    ]
    out = []
    for _ in range(n):
        out.append(Unit(gw.next_unit, kind, 0, list(bonuses)))
        gw.next_unit += 1
    return out


# ---- movement (GW-MOV, RES-GW-05) -------------------------------------------------------------


def _entry_costs(world: World) -> list[float | None]:
    return [None if h.is_water else 1.0 for h in world.map.hexes]


def march_path(world: World, army: Army, to: int) -> list[int]:
    """The hexes the army walks this season towards ``to``: the least-cost path (1 per land hex,
    water impassable, RES-GW-05) cut at the army's speed (GW-MOV-01/02). Empty if unreachable."""
    found = cheapest_path(world.map, army.hex, to, "gw-march", lambda: _entry_costs(world), terrain_only=True)
    if found is None:
        return []
    path = found[0]
    # resolution: ENG-GW-04
    return path[: army_speed(world, army) + 1]


def reachable(world: World, a: int, b: int) -> bool:
    comp = gw_of(world).land_component
    return 0 <= a < len(comp) and 0 <= b < len(comp) and comp[a] >= 0 and comp[a] == comp[b]


def land_components(world: World) -> list[int]:
    """Connected land areas of the map (water impassable)."""
    hexes = world.map.hexes
    comp = [-1] * len(hexes)
    n = 0
    for start in range(len(hexes)):
        if comp[start] >= 0 or hexes[start].is_water:
            continue
        stack = [start]
        comp[start] = n
        while stack:
            a = stack.pop()
            for b in world.map.neighbors(a):
                if comp[b] < 0 and not hexes[b].is_water:
                    comp[b] = n
                    stack.append(b)
        n += 1
    return comp


# =================================================================================================
# season bookkeeping
# =================================================================================================


def begin_season(world: World, ledger: Ledger) -> int:
    """Start season ``season_at(now)``: clear the season's orders and counters; hand over the titles
    due this season (GW-ANX-05, RES-GW-25). Returns the season index."""
    gw = gw_of(world)
    s = season_at(world, world.now)
    gw.season = s
    gw.orders = []
    gw.destroyed_on = {}
    gw.sacked = []
    keep: list[Deposit] = []
    for d in gw.bank.deposits:
        if d.annexed_season >= 0 and s >= d.annexed_season + 2:
            dom = gw.domains.get(d.domain)
            if dom is not None:
                dom.title_holder = d.new_owner
            ledger.emit(
                SYS,
                "TitleDelivered",
                f"guild:{dom.owner_guild if dom else d.payer}",
                ("GW-ANX-05", "GW-ANX-06", "RES-GW-25"),
                outcome="original" if d.title_returned else "replacement",
                domain=d.domain,
                holder=d.new_owner,
                annexed_season=d.annexed_season,
            )
        else:
            keep.append(d)
    gw.bank.deposits = keep
    return s


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


def _fail(clause: str, reason: str, order: AnyOrder) -> IllegalOrderError:
    return IllegalOrderError(clause, reason, order=str(order), actor=f"guild:{order.guild}")


def _kinds(world: World, units: dict[str, int], order: AnyOrder) -> None:
    for k, n in units.items():
        if k not in world.config.gw.units:
            known = ", ".join(sorted(world.config.gw.units))
            raise InvalidOrderError(f"unknown unit type {k!r} (known: {known})")
        if n < 1:
            raise InvalidOrderError(f"unit count for {k!r} must be at least 1, found {n}")


@dataclass
class _Pending:
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
    free_domains: int = -1  # the guild's unoccupied domains (cache; -1: not counted yet)


def _recruit_cost_of(costs: dict[str, int], units: dict[str, int]) -> int:
    return sum(costs.get(k, 0) * n for k, n in units.items())


def _pending(gw: GwWorld, guild: str, costs: dict[str, int] | None = None) -> _Pending:
    p = _Pending()
    gw_costs = costs or {}
    for o in gw.orders:
        if o.guild != guild:
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


def _recruit_cost(world: World, units: dict[str, int]) -> int:
    costs = world.config.gw.unit_cost_solars
    return sum(costs.get(k, 0) * n for k, n in units.items())


def committed(world: World, guild: str) -> _Pending:
    """What the orders ``guild`` already gave this season commit: pool units, seals, moves, actions…"""
    return _pending(gw_of(world), guild, world.config.gw.unit_cost_solars)


def _pending_recruit_cost(world: World, gw: GwWorld, guild: str) -> int:
    return sum(_recruit_cost(world, o.units) for o in gw.orders if o.guild == guild and isinstance(o, Recruit))


def expected_hex(world: World, army: Army, pending: _Pending | None) -> int:
    """Where the army will stand after the movement phase, given its pending Move (RES-GW-27)."""
    if pending is not None and army.id in pending.moves:
        if army.id not in pending.where:
            path = march_path(world, army, pending.moves[army.id])
            pending.where[army.id] = path[-1] if path else army.hex
        return pending.where[army.id]
    return army.hex


def check_order(world: World, order: AnyOrder, *, stage: str = "give", _pend: _Pending | None = None) -> None:
    """Raise if ``order`` is not legal now. ``stage`` is ``give`` (the order is being given at the
    start of the season: the guild's earlier orders of the season count, RES-GW-27) or ``resolve``
    (it is resolving in its phase: the world as it now stands counts)."""
    gw = gw_of(world)
    _guild(gw, order.guild)
    pend = (_pend if _pend is not None else _pending(gw, order.guild, world.config.gw.unit_cost_solars)) if stage == "give" else None
    fn = _CHECKS.get(type(order))
    if fn is None:
        raise InvalidOrderError(f"unknown order type {type(order).__name__}")
    fn(world, gw, order, pend)


def _restricted_clause(dom: Domain) -> str:
    return "GW-OCC-02" if dom.occupied_by else "GW-SIEGE-02"


def _check_deploy(world: World, gw: GwWorld, o: Deploy, pend: _Pending | None) -> None:
    cfg = world.config.gw
    guild = gw.guilds[o.guild]
    dom = _domain(gw, o.domain)
    for s in (*o.seals, *o.support_seals):
        if s not in gw.seals:
            raise InvalidOrderError(f"unknown seal {s!r}")
    _kinds(world, o.units, o)
    _kinds(world, o.requisition, o)
    if not o.seals:
        raise _fail("GW-DEP-01", "an army can only be deployed by engaging military seals; none is engaged", o)
    if len(set(o.seals) | set(o.support_seals)) != len(o.seals) + len(o.support_seals):
        raise _fail("SC-GW-03", "a seal is named twice", o)
    for s in (*o.seals, *o.support_seals):
        seal = gw.seals[s]
        if seal.kind != "military":
            raise _fail("GW-DEP-01", f"seal {s} is a {seal.kind} seal, not a military seal", o)
        if seal.army is not None or (pend is not None and s in pend.seals):
            where = seal.army or "another deployment this season"
            raise _fail("SC-GW-03", f"seal {s} is already engaged ({where})", o)
    # resolution: ENG-GW-03
    engaged = [*o.seals, *o.support_seals]  # support seals are engaged seals too (GW-DEP-04/05, SC-GW-08)
    own = [s for s in engaged if gw.seals[s].guild == o.guild]
    others = [s for s in engaged if gw.seals[s].guild != o.guild]
    if is_restricted(dom):
        raise _fail(
            _restricted_clause(dom),
            f"domain {dom.id} is {'occupied' if dom.occupied_by else 'besieged'}; deploying there is not on the GW-OCC-02 list (RES-GW-19)",
            o,
        )
    if dom.owner_guild != o.guild:
        # GW-DEP-03 / RES-GW-01: a consenting domain in the province of every engaged own seal, with a proxy
        if not o.proxy:
            raise _fail("GW-DEP-03", f"domain {dom.id} belongs to {dom.owner_guild}: a proxy (procuration) from its owner must accompany the order", o)
        if o.guild not in dom.consents_to:
            raise _fail("GW-DEP-03", f"domain {dom.id} is not a consenting domain for guild {o.guild} (its owner gave no proxy)", o)
        for s in own:
            if gw.seals[s].province != dom.province:
                raise _fail(
                    "RES-GW-01",
                    f"seal {s} is affiliated to province {gw.seals[s].province}, but domain {dom.id} lies in {dom.province}",
                    o,
                )
    # GW-DEP-04 / RES-GW-02: at least half the engaged seals are the owner's, the others from the domain's region
    total = len(engaged)
    if len(own) * 100 < cfg.own_seal_percent * total:
        raise _fail(
            "GW-DEP-04",
            f"only {len(own)} of the {total} engaged seals belong to {o.guild} ({len(own)} × 2 = {len(own) * 2} < {total}); at least {cfg.own_seal_percent}% must",
            o,
        )
    for s in others:
        seal = gw.seals[s]
        # resolution: ENG-LINK-01
        if gw.guilds[seal.guild].nation is not None:  # --- LINK-06: a nation's seals raise its own armies only
            raise _fail("LINK-06", f"seal {s} is a seal of the nation {seal.guild}, which raises only its own armies with it", o)
        if seal.region != dom.region:
            raise _fail("GW-DEP-04", f"seal {s} of guild {seal.guild} is from region {seal.region}, not {dom.region} where {dom.id} lies", o)
        if not lends_seals(gw, seal.guild, o.guild):
            raise _fail(
                "GW-DEP-04",
                f"seal {s} belongs to guild {seal.guild}, which has not agreed to lend its seals to {o.guild} "
                f"(a lend_seals order or the scenario's lends_to)",
                o,
            )
    # units (GW-DEP-05/06/07, RES-GW-03/04)
    for k, n in sorted(o.units.items()):
        have = guild.pool.get(k, 0) - (pend.pool.get(k, 0) if pend else 0)
        if n > have:
            raise _fail("RES-GW-04", f"guild {o.guild} hands in {n} {k} but its unit pool holds {max(have, 0)}", o)
    if o.requisition:
        if dom.owner != guild.leader and not o.proxy:
            raise _fail("RES-GW-04", f"requisitioning units of {dom.id} needs a proxy from its owner {dom.owner}", o)
        gar = _counts(dom.garrison)
        taken = pend.requisitioned.get(dom.id, {}) if pend else {}
        for k, n in sorted(o.requisition.items()):
            have = gar.get(k, 0) - taken.get(k, 0)
            if n > have:
                raise _fail("GW-DEP-07", f"requisition of {n} {k} from {dom.id}, whose garrison has {max(have, 0)}", o)
    # implements: GW-DEP-06
    n_units = sum(o.units.values()) + sum(o.requisition.values())
    if n_units < 1:
        raise _fail("GW-DEP-07", "no unit is handed in or requisitioned", o)
    cap = cfg.units_per_seal * total + guild.capacity_bonus  # GW-DEP-05: 10 units per engaged seal
    if n_units > cap:
        raise _fail(
            "RES-GW-03",
            f"{n_units} units exceed the army's capacity of {cap} ({total} seals × {cfg.units_per_seal}{' + ' + str(guild.capacity_bonus) if guild.capacity_bonus else ''}); the order is not trimmed",
            o,
        )


def _check_lend(world: World, gw: GwWorld, o: LendSeals, pend: _Pending | None) -> None:
    """A guild's consent to lend its military seals (GW-DEP-04), or its withdrawal."""
    guild = gw.guilds[o.guild]
    if o.to not in gw.guilds:
        raise InvalidOrderError(f"unknown guild {o.to!r}")
    if o.to == o.guild:
        raise _fail("GW-DEP-04", "a guild engages its own seals without lending them", o)
    # resolution: ENG-LINK-01
    if guild.nation is not None:  # --- LINK-06: a nation's seals raise its own armies only
        raise _fail("LINK-06", f"{o.guild} is a nation: its seals raise only its own armies", o)
    if o.lend == (o.to in guild.lends_to):
        state = "already lends" if o.lend else "does not lend"
        raise _fail("GW-DEP-04", f"guild {o.guild} {state} its seals to {o.to}", o)


def _check_recruit(world: World, gw: GwWorld, o: Recruit, pend: _Pending | None) -> None:
    cfg = world.config.gw
    guild = gw.guilds[o.guild]
    _kinds(world, o.units, o)
    if not o.units:
        raise InvalidOrderError("a recruit order names no unit")
    for k in o.units:
        if k not in cfg.unit_cost_solars:
            raise _fail("SC-GW-15", f"unit type {k} has no price in CFG.gw.unit_cost_solars", o)
    if pend is None or pend.free_domains < 0:
        free = sum(1 for d in owned_domains(gw, o.guild) if not d.occupied_by)
        if pend is not None:
            pend.free_domains = free  # legal_orders checks every Recruit candidate with one _Pending
    else:
        free = pend.free_domains
    cap = cfg.recruit_per_domain * free
    n = sum(o.units.values())
    done = pend.recruited if pend else 0
    if n + done > cap:
        raise _fail(
            "SC-GW-15",
            f"{n} recruits (+{done} already ordered) exceed {cfg.recruit_per_domain} per unoccupied domain × {free} = {cap} this season",
            o,
        )
    cost = _recruit_cost(world, o.units)
    committed = pend.recruit_cost if pend else 0
    if cost + committed > guild.solars:
        raise _fail("SC-GW-15", f"the chest holds {guild.solars} solars; these recruits cost {cost} (+{committed} already ordered)", o)


def _check_reinforce(world: World, gw: GwWorld, o: Reinforce, pend: _Pending | None) -> None:
    guild = gw.guilds[o.guild]
    dom = _domain(gw, o.domain)
    _kinds(world, o.units, o)
    if not o.units:
        raise InvalidOrderError("a reinforce order names no unit")
    if dom.owner_guild != o.guild:
        raise _fail("SC-GW-09", f"domain {dom.id} belongs to {dom.owner_guild}; a guild reinforces only its own domains", o)
    if dom.occupied_by:
        raise _fail("GW-OCC-01", f"domain {dom.id} is occupied: the occupation prevents reinforcing the garrison", o)
    if dom.besieged_by:
        raise _fail("GW-SIEGE-02", f"domain {dom.id} is besieged: its owner may not reinforce the garrison", o)
    for k, n in sorted(o.units.items()):
        have = guild.pool.get(k, 0) - (pend.pool.get(k, 0) if pend else 0)
        if n > have:
            raise _fail("SC-GW-09", f"guild {o.guild} sends {n} {k} but its unit pool holds {max(have, 0)}", o)


def _check_disband(world: World, gw: GwWorld, o: Disband, pend: _Pending | None) -> None:
    _own_army(gw, o, o.army)
    if pend is not None and (o.army in pend.moves or o.army in pend.actions or o.army in pend.disbanded):
        # resolution: ENG-GW-07
        raise _fail("RES-GW-27", f"army {o.army} already has orders this season", o)


def _check_move(world: World, gw: GwWorld, o: Move, pend: _Pending | None) -> None:
    army = _own_army(gw, o, o.army)
    if not 0 <= o.to < len(world.map.hexes):
        raise InvalidOrderError(f"hex {o.to} is not on the map")
    if pend is not None:
        if o.army in pend.moves:
            raise _fail("RES-GW-27", f"army {o.army} already has a Move order this season", o)
        if o.army in pend.disbanded:
            raise _fail("RES-GW-27", f"army {o.army} is being disbanded", o)
    if world.map.hexes[o.to].is_water:
        raise _fail("RES-GW-05", f"hex {world.map.label(o.to)} is water; land armies cannot enter it", o)
    if o.to == army.hex:
        raise _fail("RES-GW-05", f"army {o.army} is already on {world.map.label(o.to)}", o)
    if not reachable(world, army.hex, o.to):
        raise _fail("RES-GW-05", f"no land path from {world.map.label(army.hex)} to {world.map.label(o.to)}", o)
    if pend is not None and o.army in pend.actions:
        act = pend.actions[o.army]
        end = march_path(world, army, o.to)[-1]
        where = _target_hex(gw, act)
        if where is not None and where != end:
            raise _fail("RES-GW-27", f"the target of its {act.__struct_config__.tag} order would not be in its hex after this move", o)


def _target_hex(gw: GwWorld, act: AnyOrder) -> int | None:
    if isinstance(act, Siege | AttackDomain | Sack):
        d = gw.domains.get(act.domain)
        return d.hex if d else None
    if isinstance(act, AttackArmy):
        a = gw.armies.get(act.target)
        return a.hex if a else None
    return None


def _action_common(world: World, gw: GwWorld, o: Siege | AttackDomain | AttackArmy | Sack, pend: _Pending | None) -> tuple[Army, int]:
    army = _own_army(gw, o, o.army)
    if pend is not None:
        if o.army in pend.actions:
            prev = pend.actions[o.army]
            raise _fail("RES-GW-27", f"army {o.army} already has a {prev.__struct_config__.tag} order this season (at most one of Siege, Attack a domain, Attack an army, Sack)", o)
        if o.army in pend.disbanded:
            raise _fail("RES-GW-27", f"army {o.army} is being disbanded", o)
    return army, expected_hex(world, army, pend)


def _domain_here(gw: GwWorld, o: Siege | AttackDomain | Sack, where: int, world: World) -> Domain:
    dom = _domain(gw, o.domain)
    if dom.hex != where:
        raise _fail("RES-GW-27", f"domain {dom.id} is not in the army's hex {world.map.label(where)} after movement", o)
    return dom


def _check_siege(world: World, gw: GwWorld, o: Siege, pend: _Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    dom = _domain_here(gw, o, where, world)
    if dom.owner_guild == o.guild:
        raise _fail("SC-GW-09", f"domain {dom.id} belongs to the army's own guild", o)
    if any(gw.armies[a].owner == o.guild for a in dom.occupied_by if a in gw.armies):
        # resolution: ENG-GW-07
        raise _fail("SC-GW-09", f"domain {dom.id} is already occupied by guild {o.guild}", o)


def may_assault(world: World, army: Army, dom: Domain) -> bool:
    """GW-ATK-01/02, RES-GW-17: below a keep at once; a keep or better only for an army that was
    besieging it at the end of the preceding season (or held the GW-SIEGE-03 exception then)."""
    if not is_keep(world, dom):
        return True
    gw = gw_of(world)
    if army.besieging == dom.id:
        return True
    return army.siege_short == dom.id and army.siege_short_season == gw.season - 1


def _check_attack_domain(world: World, gw: GwWorld, o: AttackDomain, pend: _Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    dom = _domain_here(gw, o, where, world)
    if dom.owner_guild == o.guild:
        raise _fail("SC-GW-09", f"domain {dom.id} belongs to the army's own guild", o)
    if any(gw.armies[a].owner == o.guild for a in dom.occupied_by if a in gw.armies):
        raise _fail("GW-ATK-04", f"domain {dom.id} is already occupied by guild {o.guild}", o)
    # implements: GW-SIEGE-01
    if not may_assault(world, army, dom):
        empty = " even though it has no garrison (GW-SIEGE-01)" if not dom.garrison else ""
        raise _fail(
            "GW-ATK-02",
            f"domain {dom.id} has a {world.config.gw.fortification_names[dom.fortification]} (keep or better): only an army that did a season of siege may attack it{empty} (RES-GW-17)",
            o,
        )


def _check_attack_army(world: World, gw: GwWorld, o: AttackArmy, pend: _Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    target = _army(gw, o.target)
    if target.owner == o.guild:
        raise _fail("SC-GW-09", f"army {o.target} belongs to the same guild", o)
    if target.hex != where:
        raise _fail("RES-GW-27", f"army {o.target} is not in the army's hex {world.map.label(where)} after movement", o)


def _check_sack(world: World, gw: GwWorld, o: Sack, pend: _Pending | None) -> None:
    army, where = _action_common(world, gw, o, pend)
    dom = _domain_here(gw, o, where, world)
    if army.occupying != dom.id:
        raise _fail("SC-GW-13", f"army {army.id} does not occupy {dom.id}; only an occupying army may sack it", o)


def _check_annex(world: World, gw: GwWorld, o: Annex, pend: _Pending | None) -> None:
    cfg = world.config.gw
    guild = gw.guilds[o.guild]
    dom = _domain(gw, o.domain)
    seal = gw.seals.get(o.seal)
    if seal is None:
        raise InvalidOrderError(f"unknown seal {o.seal!r}")
    if seal.kind != "political" or seal.guild != o.guild:
        raise _fail("RES-GW-23", f"an annexation must name a political seal of {o.guild}; {o.seal} is a {seal.kind} seal of {seal.guild}", o)
    if pend is not None:
        # a political seal may be named by several annexations of one season: GW-ANX-03 uses it only to
        # say whose leader receives the domain, and nothing spends it
        if o.domain in pend.annexed:
            raise _fail("RES-GW-28", f"guild {o.guild} already ordered the annexation of {o.domain} this season", o)
    if dom.owner_guild == o.guild:
        raise _fail("GW-ANX-01", f"domain {dom.id} already belongs to {o.guild}", o)
    if gw.season <= dom.frozen_until:
        raise _fail("GW-ANX-06", f"the ownership of {dom.id} cannot change before season {dom.frozen_until + 1} (RES-GW-25)", o)
    occupiers = [gw.armies[a] for a in dom.occupied_by if a in gw.armies and army_involves(gw, gw.armies[a], o.guild)]
    if not occupiers:
        raise _fail("GW-ANX-01", f"no army of {o.guild} occupies {dom.id} after a successful attack (RES-GW-28)", o)
    if all(a.occupying_since >= gw.season for a in occupiers):
        raise _fail("GW-ANX-01", f"{dom.id} was taken this season; the annexation may be requested from the next season (RES-GW-28)", o)
    if pend is not None and guild.solars < cfg.annex_compensation_solars:
        raise _fail(
            "RES-GW-23",
            f"the compensation of {cfg.annex_compensation_solars} solars cannot be paid: the chest holds {guild.solars}",
            o,
        )


def _return_deposit(gw: GwWorld, guild: str, domain: str) -> Deposit | None:
    for d in gw.bank.deposits:
        if d.domain == domain and d.former_owner == guild and d.annexed_season >= 0 and not d.title_returned:
            return d
    return None


def _check_return_title(world: World, gw: GwWorld, o: ReturnTitle, pend: _Pending | None) -> None:
    _domain(gw, o.domain)
    if pend is not None and o.domain in pend.returned:
        raise _fail("GW-ANX-04", f"the title of {o.domain} is already being returned", o)
    d = _return_deposit(gw, o.guild, o.domain)
    dom = gw.domains[o.domain]
    if d is None and dom.annexed_from == o.guild and dom.annexed_season >= 0:
        # the former owner, too late (RES-GW-24): the window was season A+1 only
        a = dom.annexed_season
        raise _fail(
            "RES-GW-24",
            f"{o.domain} was annexed in season {a}: its title could be returned only in season {a + 1}, not in season {gw.season}",
            o,
        )
    if d is None:
        raise _fail("GW-ANX-04", f"guild {o.guild} is not the former owner of an annexed {o.domain} awaiting its title", o)
    if gw.season != d.annexed_season + 1:
        raise _fail(
            "RES-GW-24",
            f"{o.domain} was annexed in season {d.annexed_season}: its title may be returned only in season {d.annexed_season + 1}",
            o,
        )


def _loot(gw: GwWorld, o: TreasureHunt | PickUpLoot) -> Loot:
    for lt in gw.loot:
        if lt.id == o.loot:
            if lt.season != o.season:
                raise InvalidOrderError(f"loot {o.loot} was created in season {lt.season}, not {o.season} (RES-GW-15)")
            return lt
    raise _fail("GW-LOOT-03", f"there is no loot {o.loot} (created in season {o.season}) to target", o)


def _check_loot_order(world: World, gw: GwWorld, o: TreasureHunt | PickUpLoot, pend: _Pending | None) -> None:
    lt = _loot(gw, o)
    if lt.season >= gw.season:
        raise _fail("GW-LOOT-03", f"loot {lt.id} is created this season; it can be targeted from season {lt.season + 1} (RES-GW-15)", o)
    if pend is not None and (str(o.__struct_config__.tag), o.loot) in pend.loot:
        raise _fail("RES-GW-15", f"loot {lt.id} is already targeted by this guild this season", o)
    if isinstance(o, PickUpLoot):
        here = [a for a in gw.armies.values() if a.owner == o.guild and a.deployed < gw.season and expected_hex(world, a, pend) == lt.hex]
        if not here:
            raise _fail("GW-LOOT-03", f"no army of {o.guild} stands on the loot's hex {world.map.label(lt.hex)} to pick it up", o)


def _check_domain_action(world: World, gw: GwWorld, o: DomainAction, pend: _Pending | None) -> None:
    dom = _domain(gw, o.domain)
    if o.action not in OCCUPIED_ALLOWED and o.action not in WORKS:
        known = ", ".join((*OCCUPIED_ALLOWED, *WORKS))
        raise InvalidOrderError(f"unknown domain action {o.action!r} (known: {known})")
    if dom.owner_guild != o.guild:
        raise _fail("SC-GW-09", f"domain {dom.id} belongs to {dom.owner_guild}", o)
    if is_restricted(dom) and o.action not in OCCUPIED_ALLOWED:
        state = "occupied" if dom.occupied_by else "besieged"
        raise _fail(_restricted_clause(dom), f"domain {dom.id} is {state}: {o.action} is not on the allow-list (RES-GW-19)", o)
    if o.action == "cast_spell" and not any(p in dom.places for p in SPELL_PLACES):
        raise _fail("GW-OCC-02", f"only residents of a parish or an arcane place may cast spells; {dom.id} is neither", o)
    if o.action == "use_magic_item" and o.target is not None:
        tgt = _domain(gw, o.target)
        if tgt.occupied_by and o.guild in tgt.consents_to:
            raise _fail("GW-OCC-02", f"a magic item may not target {tgt.id}, a consenting domain that is occupied", o)


_CHECKS: dict[type, Callable[..., None]] = {
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
    check_order(world, order, stage="give")
    gw = gw_of(world)
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


# =================================================================================================
# legal orders
# =================================================================================================


def legal_orders(world: World, guild_id: str) -> list[AnyOrder]:
    """Every order ``guild_id`` may give now, given the orders it already gave this season.

    Orders with free quantities are listed at canonical sizes: Recruit 1, 5 or as many as allowed of
    one unit type; Reinforce 1 or all of a type; Deploy with one, or all, of the guild's free
    military seals (and the seals of the domain's region that other guilds agree to lend it), filled
    from the pool, from the garrison, or both; LendSeals (consent given or withdrawn) towards every
    other guild; Move to every domain, army or loot hex reachable by land. ``check_order``
    accepts any other size too. The owner of an occupied or besieged domain gets the GW-OCC-02
    allow-list for it (RES-GW-19)."""
    gw = gw_of(world)
    if guild_id not in gw.guilds:
        return []
    out: list[AnyOrder] = []
    pend = _pending(gw, guild_id, world.config.gw.unit_cost_solars)  # candidates share one view of the committed orders
    for cand in _candidates(world, gw, guild_id, pend):
        try:
            check_order(world, cand, stage="give", _pend=pend)
        except RulesError:
            continue
        out.append(cand)
    return out


def _candidates(world: World, gw: GwWorld, g: str, pend: _Pending | None = None) -> Iterable[AnyOrder]:
    cfg = world.config.gw
    guild = gw.guilds[g]
    pend = _pending(gw, g, cfg.unit_cost_solars) if pend is None else pend
    pool = {k: guild.pool.get(k, 0) - pend.pool.get(k, 0) for k in sorted(guild.pool)}
    pool = {k: n for k, n in pool.items() if n > 0}
    mine = owned_domains(gw, g)
    # (1) deploy phase: recruit, reinforce, deploy, disband, domain actions
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
    for d in mine:
        if is_restricted(d):
            continue
        for kind, n in pool.items():
            for m in sorted({1, n}):
                yield Reinforce(guild=g, domain=d.id, units={kind: m})
        if len(pool) > 1:
            yield Reinforce(guild=g, domain=d.id, units=dict(pool))
    yield from _deploy_candidates(world, gw, g, pend, pool)
    if guild.nation is None and any(gw.seals[s].kind == "military" for s in guild.seals if s in gw.seals):
        for other in sorted(gw.guilds):
            if other != g:
                yield LendSeals(guild=g, to=other, lend=other not in guild.lends_to)
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.owner == g and a.deployed < gw.season and aid not in pend.moves and aid not in pend.actions:
            yield Disband(guild=g, army=aid)
    for d in mine:
        if is_restricted(d):
            for act in OCCUPIED_ALLOWED:
                if (d.id, act) not in pend.domain_actions:
                    yield DomainAction(guild=g, domain=d.id, action=act)
        else:
            for act in WORKS:
                if act not in d.works and (d.id, act) not in pend.domain_actions:
                    yield DomainAction(guild=g, domain=d.id, action=act)
    # (2)-(5) armies: move, siege, attacks, sack
    interesting = sorted(
        {d.hex for d in gw.domains.values()} | {a.hex for a in gw.armies.values()} | {lt.hex for lt in gw.loot if lt.season < gw.season}
    )
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.owner != g or a.deployed >= gw.season or aid in pend.disbanded:
            continue
        if aid not in pend.moves and aid not in pend.actions:
            for h in interesting:
                if h != a.hex and reachable(world, a.hex, h):
                    yield Move(guild=g, army=aid, to=h)
        if aid not in pend.actions:
            where = expected_hex(world, a, pend)
            for d in domains_at(gw, where):
                yield Siege(guild=g, army=aid, domain=d.id)
                yield AttackDomain(guild=g, army=aid, domain=d.id)
                if d.buildings:
                    yield Sack(guild=g, army=aid, domain=d.id)
            for t in armies_at(gw, where):
                if t.owner != g:
                    yield AttackArmy(guild=g, army=aid, target=t.id)
    # (6) annexations, titles, loot
    political = [s for s in guild.seals if s in gw.seals and gw.seals[s].kind == "political"]
    for did in sorted(gw.domains):
        dom = gw.domains[did]
        if dom.owner_guild == g or not dom.occupied_by:
            continue
        for s in political:
            yield Annex(guild=g, domain=did, seal=s)
    for dep in gw.bank.deposits:
        if dep.former_owner == g:
            yield ReturnTitle(guild=g, domain=dep.domain)
    for lt in gw.loot:
        if lt.season < gw.season:
            yield TreasureHunt(guild=g, loot=lt.id, season=lt.season)
            yield PickUpLoot(guild=g, loot=lt.id, season=lt.season)


def _fill(avail: dict[str, int], room: int, world: World) -> dict[str, int]:
    """Take up to ``room`` units from ``avail``, strongest type first (then by name)."""
    units = world.config.gw.units
    out: dict[str, int] = {}
    for k in sorted(avail, key=lambda k: (-units[k].cs if k in units else 0, k)):
        if room <= 0:
            break
        n = min(avail[k], room)
        if n > 0:
            out[k] = n
            room -= n
    return out


def _deploy_candidates(world: World, gw: GwWorld, g: str, pend: _Pending, pool: dict[str, int]) -> Iterable[Deploy]:
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
        seal_sets = [own[:1], own]
        if others:
            seal_sets.append(own + others)
        gar = _counts(dom.garrison)
        for k, n in pend.requisitioned.get(did, {}).items():
            gar[k] = gar.get(k, 0) - n
        gar = {k: n for k, n in gar.items() if n > 0}
        seen: set[str] = set()
        for seals in seal_sets:
            cap = cfg.units_per_seal * len(seals) + guild.capacity_bonus
            hand = _fill(pool, cap, world)
            req = _fill(gar, cap, world)
            both_hand = _fill(pool, cap, world)
            both_req = _fill(gar, cap - sum(both_hand.values()), world)
            for units, requisition in ((hand, {}), ({}, req), (both_hand, both_req)):
                if not units and not requisition:
                    continue
                d = Deploy(guild=g, domain=did, seals=list(seals), units=units, requisition=requisition, proxy=proxy)
                key = str(d)
                if key not in seen:
                    seen.add(key)
                    yield d


# =================================================================================================
# resolution — phase (1): deployments and requisitions
# =================================================================================================


def _orders_of(gw: GwWorld, *types: type) -> list[AnyOrder]:
    """This season's orders of the given types, guilds in ascending id, each guild's in order given."""
    idx = [(o.guild, i, o) for i, o in enumerate(gw.orders) if isinstance(o, types)]
    idx.sort(key=lambda t: (t[0], t[1]))
    return [o for _, _, o in idx]


def _reject(ledger: Ledger, order: AnyOrder, err: RulesError) -> None:
    clause = getattr(err, "clause", "SC-GW-09")
    reason = getattr(err, "reason", str(err))
    clauses = (clause,) if clause == "RES-GW-27" else (clause, "RES-GW-27")
    ledger.emit(SYS, "OrderRejected", f"guild:{order.guild}", clauses, outcome="rejected", order=str(order), reason=reason)


def _attempt(world: World, ledger: Ledger, order: AnyOrder, fn: Callable[..., object]) -> bool:
    try:
        fn(world, order, ledger)
    except RulesError as e:
        _reject(ledger, order, e)
        return False
    return True


def drop_idle_sieges(world: World, ledger: Ledger) -> None:
    """RES-GW-20: a besieging army keeps its status this season only if ordered to siege or attack
    the domain again; a GW-SIEGE-03 exception lasts only for the season after the siege."""
    gw = gw_of(world)
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
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
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
    gw.bump("deployments")
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
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
    guild = gw.guilds[order.guild]
    cost = _recruit_cost(world, order.units)
    before = guild.solars
    guild.solars -= cost
    for k, n in sorted(order.units.items()):
        guild.pool[k] = guild.pool.get(k, 0) + n
    gw.bump("units_recruited", sum(order.units.values()))
    ledger.emit(
        SYS, "UnitsRecruited", f"guild:{order.guild}", ("SC-GW-15",), total=cost, outcome="recruited",
        units=dict(sorted(order.units.items())), solars_before=before, solars_after=guild.solars,
    )


def resolve_reinforce(world: World, order: Reinforce, ledger: Ledger) -> None:
    """Reinforce the garrison: units from the guild's pool into one of its domains (SC-GW-09)."""
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
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


def _release_army(world: World, army: Army) -> None:
    """Free its seals (SC-GW-03) and its occupation/siege; remove it from the world."""
    gw = gw_of(world)
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
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
    army = gw.armies[order.army]
    guild = gw.guilds[army.owner]
    for k, n in _counts(army.units).items():
        guild.pool[k] = guild.pool.get(k, 0) + n
    _release_army(world, army)
    ledger.emit(
        SYS, "ArmyDisbanded", f"army:{army.id}", ("SC-GW-09", "SC-GW-03"), outcome="disbanded",
        guild=army.owner, units=_counts(army.units), seals=[*army.own_seals, *army.other_seals, *army.support_seals],
    )


def resolve_domain_action(world: World, order: DomainAction, ledger: Ledger) -> None:
    """A domain action: a work in progress (build, assign) or an allow-list action of GW-OCC-02,
    whose own effects are outside this spec (RES-GW-19)."""
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
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


def resolve_deploy_phase(world: World, dice: Dice, ledger: Ledger) -> None:
    """Phase (1) of RES-GW-10: siege statuses not renewed lapse (RES-GW-20), then every Recruit,
    Deploy, Reinforce, Disband and domain action, guilds in ascending id, each in the order given."""
    gw = gw_of(world)
    drop_idle_sieges(world, ledger)
    for o in _orders_of(gw, *_PHASE1):
        _attempt(world, ledger, o, _PHASE1[type(o)])


# =================================================================================================
# phase (2): movement
# =================================================================================================


def resolve_move(world: World, order: Move, ledger: Ledger) -> list[int]:
    """Move at the slowest unit's speed along the least-cost path (GW-MOV-01/02, RES-GW-05).
    Leaving a domain's hex ends the army's occupation of it."""
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
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


def resolve_movement_phase(world: World, dice: Dice, ledger: Ledger) -> None:
    """Phase (2): every Move order, guilds in ascending id."""
    gw = gw_of(world)
    for o in _orders_of(gw, Move):
        _attempt(world, ledger, o, resolve_move)


# =================================================================================================
# phase (3): sieges — famine (GW-FAM) then siege damage (GW-SIEGE-04)
# =================================================================================================


def _count_destroyed(gw: GwWorld, hex_: int, n: int) -> None:
    if n:
        gw.destroyed_on[hex_] = gw.destroyed_on.get(hex_, 0) + n
        gw.bump("units_destroyed", n)


def _army_destroyed(world: World, army: Army, ledger: Ledger, clauses: tuple[str, ...]) -> None:
    _release_army(world, army)
    gw_of(world).bump("armies_destroyed")
    ledger.emit(SYS, "ArmyDestroyed", f"army:{army.id}", clauses, outcome="destroyed", guild=army.owner, hex=army.hex)


def resolve_famine(world: World, dom: Domain, ledger: Ledger) -> list[Unit]:
    """GW-FAM-01/02, RES-GW-22: the besieged garrison eats 5 victuals per unit from its owner's
    chest; if not all are fed it suffers desertion: 20% of its total base CS (rounded per
    ``CFG.gw.desertion_rounding``) as damage in loss order against base CS. Returns the deserters
    (they do not count towards war loot)."""
    gw = gw_of(world)
    cfg = world.config.gw
    guild = gw.guilds[dom.owner_guild]
    n = len(dom.garrison)
    if n == 0:
        return []
    due = n * cfg.victuals_per_unit
    paid = min(due, max(guild.victuals, 0))
    before = guild.victuals
    guild.victuals -= paid
    ledger.emit(
        SYS, "GarrisonFed", f"domain:{dom.id}", ("GW-FAM-01", "RES-GW-22"), dc=due, total=paid,
        outcome="fed" if paid >= due else "short", guild=guild.id, units=n, victuals_before=before, victuals_after=guild.victuals,
    )
    if paid >= due:
        return []
    base = units_strength(dom.garrison, cfg, 0, bonus=False)
    raw = base * cfg.desertion_percent
    dmg = -(-raw // 100) if cfg.desertion_rounding == "ceil" else raw // 100
    destroyed, _ = apply_damage(dom.garrison, dmg, cfg, 0, bonus=False)
    gw.bump("deserters", len(destroyed))
    ledger.emit(
        SYS, "DesertionSuffered", f"domain:{dom.id}", ("GW-FAM-02", "RES-GW-22", "RES-GW-13"), total=dmg,
        outcome=f"{len(destroyed)} deserted", base_cs=base, percent=cfg.desertion_percent, rounding=cfg.desertion_rounding,
        destroyed=_unit_rows(destroyed), garrison=len(dom.garrison),
    )
    return destroyed


def resolve_siege_damage(world: World, dom: Domain, besiegers: list[Army], ledger: Ledger) -> tuple[list[Unit], list[Unit]]:
    """GW-SIEGE-04, RES-GW-21: siege units on both sides deal their CS (capped bonus kept, no
    fortification) at the same time; the garrison's goes to the strongest besieging army.
    Returns (garrison units destroyed, besieger units destroyed)."""
    gw = gw_of(world)
    cfg = world.config.gw
    out_dmg = sum(effective_cs(u, cfg, 0) for a in besiegers for u in a.units if cfg.units[u.kind].siege)
    in_dmg = sum(effective_cs(u, cfg, 0) for u in dom.garrison if cfg.units[u.kind].siege)
    target = None
    if besiegers:
        target = sorted(besiegers, key=lambda a: (-army_strength(world, a), a.id))[0]
    lost_gar, _ = apply_damage(dom.garrison, out_dmg, cfg, 0)
    lost_army: list[Unit] = []
    if target is not None and in_dmg:
        lost_army, _ = apply_damage(target.units, in_dmg, cfg, 0)
    _count_destroyed(gw, dom.hex, len(lost_gar) + len(lost_army))
    if out_dmg or in_dmg:
        ledger.emit(
            SYS, "SiegeDamageDealt", f"domain:{dom.id}", ("GW-SIEGE-04", "RES-GW-21", "RES-GW-13"), total=out_dmg,
            outcome=f"{len(lost_gar)} defenders, {len(lost_army)} besiegers lost",
            besiegers=[a.id for a in besiegers], garrison_damage=in_dmg, target=target.id if target else None,
            destroyed=_unit_rows(lost_gar), destroyed_besiegers=_unit_rows(lost_army), garrison=len(dom.garrison),
        )
    if target is not None and not target.units:
        _army_destroyed(world, target, ledger, ("GW-SIEGE-04", "GW-LOSS-01"))
    return lost_gar, lost_army


def resolve_siege(world: World, dom: Domain, orders: list[Siege], ledger: Ledger) -> None:
    """One domain's siege season: famine, siege damage, then who holds besieging status (RES-GW-20)."""
    gw = gw_of(world)
    besiegers: list[Army] = []
    for o in orders:
        if _attempt(world, ledger, o, lambda w, o, led: check_order(w, o, stage="resolve")):
            besiegers.append(gw.armies[o.army])
    if not besiegers:
        return
    gw.bump("siege_seasons")
    resolve_famine(world, dom, ledger)
    resolve_siege_damage(world, dom, besiegers, ledger)
    n_gar = len(dom.garrison)
    for a in besiegers:
        if a.id not in gw.armies:
            continue
        if len(a.units) >= n_gar:
            a.besieging = dom.id
            a.siege_short = None
            a.siege_short_season = -1
            ledger.emit(SYS, "ArmyBesieging", f"army:{a.id}", ("GW-SIEGE-03", "RES-GW-20"), dc=n_gar, total=len(a.units), outcome="besieging", domain=dom.id, guild=a.owner)
        else:
            a.besieging = None
            a.siege_short = dom.id
            a.siege_short_season = gw.season
            ledger.emit(SYS, "SiegeFellShort", f"army:{a.id}", ("GW-SIEGE-03", "RES-GW-20"), dc=n_gar, total=len(a.units), outcome="not besieging", domain=dom.id, guild=a.owner)
    refresh_statuses(world)


def resolve_siege_phase(world: World, dice: Dice, ledger: Ledger) -> None:
    """Phase (3): in ascending domain id, each domain at least one army was ordered to Siege."""
    gw = gw_of(world)
    by_dom: dict[str, list[Siege]] = {}
    for o in _orders_of(gw, Siege):
        assert isinstance(o, Siege)
        by_dom.setdefault(o.domain, []).append(o)
    for did in sorted(by_dom):
        if did in gw.domains:
            resolve_siege(world, gw.domains[did], by_dom[did], ledger)


# =================================================================================================
# combats (GW-CMB, GW-ORD, GW-LOSS) — phases (4) and (5)
# =================================================================================================


@dataclass
class CombatResult:
    attacker_strength: int
    defender_strength: int
    attackers_lost: list[Unit]
    defenders_lost: list[Unit]
    destroyed_armies: list[str]
    outcome: str = ""


def front_breakdown(world: World, armies: list[Army], garrison: Domain | None) -> dict[str, int]:
    """A front's strength by part (RES-GW-08): base CS, capped bonuses (GW-CMB-03), fortification
    (garrison only, SC-GW-07), minus damage already taken this season."""
    cfg = world.config.gw
    out = {"base": 0, "bonus": 0, "fortification": 0, "damage": 0, "total": 0}
    parts: list[tuple[list[Unit], int]] = [(a.units, 0) for a in armies]
    if garrison is not None:
        parts.append((garrison.garrison, fort_bonus(world, garrison)))
    for us, fort in parts:
        for u in us:
            out["base"] += cfg.units[u.kind].cs
            out["bonus"] += capped_bonus(u, cfg)
            out["fortification"] += fort
            out["damage"] += min(u.damage, toughness(u, cfg, fort))
            out["total"] += effective_cs(u, cfg, fort)
    return out


def _front_damage(world: World, armies: list[Army], garrison: Domain | None, dmg: int) -> list[Unit]:
    """RES-GW-11: armies in descending current strength (ties: lower id), the garrison last."""
    cfg = world.config.gw
    lost: list[Unit] = []
    for a in sorted(armies, key=lambda a: (-army_strength(world, a), a.id)):
        if dmg <= 0:
            break
        gone, dmg = apply_damage(a.units, dmg, cfg)
        lost.extend(gone)
    if garrison is not None and dmg > 0:
        gone, dmg = apply_damage(garrison.garrison, dmg, cfg, fort_bonus(world, garrison))
        lost.extend(gone)
    return lost


def fight(
    world: World,
    attackers: list[Army],
    defenders: list[Army],
    *,
    attacker_garrison: Domain | None,
    defender_garrison: Domain | None,
    hex_: int,
    ledger: Ledger,
    kind: str,
    clauses: tuple[str, ...],
    judge: Callable[[], str] | None = None,
    **data: Any,
) -> CombatResult:
    """One combat between two fronts (GW-CMB-01…05, RES-GW-06/08/11/13): both strengths first, then
    each front takes the other's strength as damage. Destroyed armies are removed (GW-LOSS-01).
    ``judge`` names the outcome once the damage is applied."""
    gw = gw_of(world)
    att = sum(army_strength(world, a) for a in attackers) + (garrison_strength(world, attacker_garrison) if attacker_garrison else 0)
    dfn = sum(army_strength(world, a) for a in defenders) + (garrison_strength(world, defender_garrison) if defender_garrison else 0)
    att_units = sum(len(a.units) for a in attackers) + (len(attacker_garrison.garrison) if attacker_garrison else 0)
    dfn_units = sum(len(a.units) for a in defenders) + (len(defender_garrison.garrison) if defender_garrison else 0)
    att_parts = front_breakdown(world, attackers, attacker_garrison)
    dfn_parts = front_breakdown(world, defenders, defender_garrison)
    lost_d = _front_damage(world, defenders, defender_garrison, att)
    lost_a = _front_damage(world, attackers, attacker_garrison, dfn)
    _count_destroyed(gw, hex_, len(lost_a) + len(lost_d))
    gone = [a for a in (*attackers, *defenders) if not a.units]
    outcome = judge() if judge else f"{len(lost_a)} attackers and {len(lost_d)} defenders lost"
    ledger.emit(
        SYS, kind, f"army:{attackers[0].id}", clauses, total=att, dc=dfn, outcome=outcome,
        hex=hex_, attackers=[a.id for a in attackers], defenders=[a.id for a in defenders],
        attacker_garrison=attacker_garrison.id if attacker_garrison else None,
        defender_garrison=defender_garrison.id if defender_garrison else None,
        attacker_strength=att, defender_strength=dfn, attacker_units=att_units, defender_units=dfn_units,
        attacker_breakdown=att_parts, defender_breakdown=dfn_parts,
        attackers_lost=_unit_rows(lost_a), defenders_lost=_unit_rows(lost_d), armies_destroyed=[a.id for a in gone], **data,
    )
    for a in gone:
        _army_destroyed(world, a, ledger, ("GW-LOSS-01", "RES-GW-13"))
    return CombatResult(att, dfn, lost_a, lost_d, [a.id for a in gone], outcome)


def garrison_joining(gw: GwWorld, guild: str, hex_: int) -> Domain | None:
    """RES-GW-06: a domain's garrison joins the front of its owner's army fighting on its hex."""
    for d in domains_at(gw, hex_):
        if d.owner_guild == guild and d.garrison:
            return d
    return None


def _fronts(gw: GwWorld, orders: list[AnyOrder]) -> list[list[AnyOrder]]:
    """Group the orders against one target into fronts: allied (or same-guild) attackers fight
    together (RES-GW-06); any other attack is a separate combat."""
    fronts: list[list[AnyOrder]] = []
    for o in sorted(orders, key=lambda o: o.army):  # type: ignore[union-attr]
        for f in fronts:
            if all(allied(gw, o.guild, x.guild) for x in f):
                f.append(o)
                break
        else:
            fronts.append([o])
    return fronts


def _strongest(world: World, armies: list[Army]) -> tuple[int, str]:
    best = sorted(armies, key=lambda a: (-army_strength(world, a), a.id))[0]
    return army_strength(world, best), best.id


def resolve_army_combats(world: World, dice: Dice, ledger: Ledger) -> list[CombatResult]:
    """Phase (4): Attack-an-army combats, one at a time, the combat whose strongest attacking army
    is strongest first (GW-ORD-03, RES-GW-12); losses of earlier combats count in later ones."""
    gw = gw_of(world)
    valid: list[AnyOrder] = []
    for o in _orders_of(gw, AttackArmy):
        if _attempt(world, ledger, o, lambda w, o, led: check_order(w, o, stage="resolve")):
            valid.append(o)
    by_target: dict[str, list[AnyOrder]] = {}
    for o in valid:
        assert isinstance(o, AttackArmy)
        by_target.setdefault(o.target, []).append(o)
    pending = [(t, f) for t in sorted(by_target) for f in _fronts(gw, by_target[t])]
    results: list[CombatResult] = []
    while pending:
        ranked = []
        for i, (target, front) in enumerate(pending):
            alive = [gw.armies[o.army] for o in front if o.army in gw.armies]  # type: ignore[union-attr]
            if target not in gw.armies or not alive:
                ranked.append((1, 0, "", i))
                continue
            s, aid = _strongest(world, alive)
            ranked.append((0, -s, aid, i))
        ranked.sort()
        _, _, _, i = ranked[0]
        target, front = pending.pop(i)
        alive = [gw.armies[o.army] for o in front if o.army in gw.armies]  # type: ignore[union-attr]
        if target not in gw.armies or not alive:
            ledger.emit(
                SYS, "CombatCancelled", f"army:{front[0].army}", ("RES-GW-12",),  # type: ignore[union-attr]
                outcome="target destroyed" if target not in gw.armies else "attackers destroyed",
                attackers=[o.army for o in front], target=target,  # type: ignore[union-attr]
            )
            continue
        tgt = gw.armies[target]
        hex_ = tgt.hex
        alive = [a for a in alive if a.hex == hex_]
        if not alive:
            continue
        gw.bump("battles")
        res = fight(
            world, alive, [tgt],
            attacker_garrison=garrison_joining(gw, alive[0].owner, hex_),
            defender_garrison=garrison_joining(gw, tgt.owner, hex_),
            hex_=hex_, ledger=ledger, kind="BattleFought",
            clauses=("GW-CMB-01", "GW-CMB-02", "GW-CMB-03", "GW-CMB-04", "GW-CMB-05", "GW-ORD-02", "GW-ORD-03", "GW-LOSS-02", "RES-GW-06", "RES-GW-08", "RES-GW-11", "RES-GW-12", "RES-GW-13"),
            target=target,
        )
        results.append(res)
    return results


def occupy(world: World, dom: Domain, armies: list[Army], ledger: Ledger) -> None:
    """GW-ATK-04, GW-OCC-01: the surviving attackers occupy the domain; its owner's constructions
    and assignments in progress are cancelled."""
    gw = gw_of(world)
    watch = _links().occupation_watch(world, dom) if world.km is not None else None  # LINK-08
    for a in armies:
        if a.occupying is not None and a.occupying != dom.id and a.occupying in gw.domains:
            old = gw.domains[a.occupying]
            old.occupied_by = [x for x in old.occupied_by if x != a.id]
        a.occupying = dom.id
        a.occupying_since = gw.season
        if a.besieging == dom.id:
            a.besieging = None
        if a.siege_short == dom.id:
            a.siege_short = None
            a.siege_short_season = -1
        if a.id not in dom.occupied_by:
            dom.occupied_by = sorted([*dom.occupied_by, a.id])
    refresh_statuses(world)
    cancelled = list(dom.works)
    dom.works = []
    gw.bump("occupations")
    ledger.emit(
        SYS, "DomainOccupied", f"domain:{dom.id}", ("GW-ATK-04", "GW-OCC-01", "RES-GW-18"), outcome="occupied",
        armies=[a.id for a in armies], occupiers=list(dom.occupied_by), owner=dom.owner_guild, cancelled=cancelled,
    )
    if watch is not None:  # --- LINK-08 hook: Unrest for the kingdom claiming the hex, at its next Upkeep
        _links().domain_occupied(world, dom, watch, ledger)


def resolve_domain_attacks(world: World, dice: Dice, ledger: Ledger) -> list[CombatResult]:
    """Phase (5): attacks on domains (strongest first, RES-GW-12), then sacks (SC-GW-13)."""
    gw = gw_of(world)
    valid: list[AnyOrder] = []
    for o in _orders_of(gw, AttackDomain):
        if _attempt(world, ledger, o, lambda w, o, led: check_order(w, o, stage="resolve")):
            valid.append(o)
    by_dom: dict[str, list[AnyOrder]] = {}
    for o in valid:
        assert isinstance(o, AttackDomain)
        by_dom.setdefault(o.domain, []).append(o)
    pending = [(d, f) for d in sorted(by_dom) for f in _fronts(gw, by_dom[d])]
    results: list[CombatResult] = []
    while pending:
        ranked = []
        for i, (_, front) in enumerate(pending):
            alive = [gw.armies[o.army] for o in front if o.army in gw.armies]  # type: ignore[union-attr]
            if not alive:
                ranked.append((1, 0, "", i))
                continue
            s, aid = _strongest(world, alive)
            ranked.append((0, -s, aid, i))
        ranked.sort()
        did, front = pending.pop(ranked[0][3])
        dom = gw.domains[did]
        alive = [gw.armies[o.army] for o in front if o.army in gw.armies and gw.armies[o.army].hex == dom.hex]  # type: ignore[union-attr]
        if not alive:
            ledger.emit(SYS, "CombatCancelled", f"army:{front[0].army}", ("RES-GW-12",), outcome="attackers destroyed", attackers=[o.army for o in front], domain=did)  # type: ignore[union-attr]
            continue
        res = resolve_attack(world, dom, alive, ledger)
        results.append(res)
    for o in _orders_of(gw, Sack):
        _attempt(world, ledger, o, resolve_sack)
    return results


def resolve_attack(world: World, dom: Domain, attackers: list[Army], ledger: Ledger) -> CombatResult:
    """Attack a domain (GW-ATK-03/04, RES-GW-18): the attacking front against the garrison (which
    defends by itself) plus any army of the owner guild on the hex. Success: no garrison unit left
    and an attacker survives; the survivors occupy the domain."""
    gw = gw_of(world)
    defenders = [a for a in armies_at(gw, dom.hex) if a.owner == dom.owner_guild]
    gw.bump("assaults")
    reported = _links().attackers_of(world, attackers) if world.mn is not None else None  # LINK-07 (before the combat)

    def judge() -> str:
        return "success" if not dom.garrison and any(a.units for a in attackers) else "failure"

    res = fight(
        world, attackers, defenders,
        attacker_garrison=None, defender_garrison=dom if dom.garrison else None,
        hex_=dom.hex, ledger=ledger, kind="DomainAttacked",
        clauses=("GW-ATK-01", "GW-ATK-02", "GW-ATK-03", "GW-ATK-04", "GW-CMB-01", "GW-CMB-04", "GW-ORD-03", "RES-GW-06", "RES-GW-07", "RES-GW-11", "RES-GW-12", "RES-GW-17", "RES-GW-18"),
        judge=judge, domain=dom.id, owner=dom.owner_guild, fortification=dom.fortification,
    )
    if res.outcome == "success":
        gw.bump("assaults_won")
        occupy(world, dom, [a for a in attackers if a.id in gw.armies], ledger)
    if reported is not None:  # --- LINK-07 hook: an invasion (or a repulse) of the domain's province
        _links().report_attack(world, dom, reported, res.outcome, ledger)
    return res


def resolve_sack(world: World, order: Sack, ledger: Ledger) -> int:
    """Sack (*Saccager*, SC-GW-13): destroy buildings in descending SP (ties: lower id) while the
    running total stays within the army's current strength; stop at the first that would exceed
    it. Returns the SP destroyed (a loot is created at season end if ≥ 10, RES-GW-16)."""
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
    army = gw.armies[order.army]
    dom = gw.domains[order.domain]
    strength = army_strength(world, army)
    total = 0
    destroyed = []
    for b in sorted(dom.buildings, key=lambda b: (-b.sp, b.id)):
        if total + b.sp > strength:
            break
        total += b.sp
        destroyed.append(b)
    gone = {b.id for b in destroyed}
    dom.buildings = [b for b in dom.buildings if b.id not in gone]
    if total:
        gw.sacked.append([dom.hex, total])
    gw.bump("sacks")
    ledger.emit(
        SYS, "DomainSacked", f"army:{army.id}", ("SC-GW-13", "GW-LOOT-04"), dc=strength, total=total,
        outcome=f"{len(destroyed)} buildings destroyed", domain=dom.id, guild=army.owner,
        destroyed=[[b.id, b.name, b.sp] for b in destroyed], spared=[[b.id, b.name, b.sp] for b in dom.buildings],
    )
    return total


# =================================================================================================
# phase (6): annexations, titles, loot orders
# =================================================================================================


def _strongest_occupier(world: World, dom: Domain, guild: str) -> tuple[int, str] | None:
    gw = gw_of(world)
    occ = [gw.armies[a] for a in dom.occupied_by if a in gw.armies and army_involves(gw, gw.armies[a], guild)]
    if not occ:
        return None
    return _strongest(world, occ)


def _refund(world: World, order: Annex, ledger: Ledger, reason: RulesError) -> None:
    gw = gw_of(world)
    for d in list(gw.bank.deposits):
        if d.domain == order.domain and d.payer == order.guild and d.annexed_season < 0 and d.season == gw.season:
            gw.bank.deposits.remove(d)
            gw.bank.held -= d.amount
            gw.guilds[order.guild].solars += d.amount
            break
    _reject(ledger, order, reason)


def resolve_annexations(world: World, ledger: Ledger) -> None:
    """GW-ANX-01…07, RES-GW-23…28, per domain in ascending id."""
    gw = gw_of(world)
    by_dom: dict[str, list[Annex]] = {}
    for o in _orders_of(gw, Annex):
        assert isinstance(o, Annex)
        by_dom.setdefault(o.domain, []).append(o)
    for did in sorted(by_dom):
        valid: list[tuple[int, str, Annex]] = []
        for o in by_dom[did]:
            try:
                check_order(world, o, stage="resolve")
            except RulesError as e:
                _refund(world, o, ledger, e)
                continue
            best = _strongest_occupier(world, gw.domains[did], o.guild)
            assert best is not None
            valid.append((-best[0], best[1], o))
        if not valid:
            continue
        valid.sort(key=lambda t: (t[0], t[1]))
        _, _, winner = valid[0]
        for _, _, o in valid[1:]:
            _refund(world, o, ledger, IllegalOrderError("RES-GW-28", f"guild {winner.guild}'s occupying army is stronger; its annexation proceeds"))
        annex_domain(world, winner, ledger)


def annex_domain(world: World, order: Annex, ledger: Ledger) -> None:
    """Resolve one annexation (GW-ANX-03/05/06/07, RES-GW-25/26)."""
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
    dom = gw.domains[order.domain]
    seal = gw.seals[order.seal]
    new_guild = gw.guilds[seal.guild]
    former = dom.owner_guild
    dep = None
    for d in gw.bank.deposits:
        if d.domain == order.domain and d.payer == order.guild and d.annexed_season < 0:
            dep = d
            break
    if dep is None:  # resolved directly (tests): take the deposit now
        amount = world.config.gw.annex_compensation_solars
        if new_guild.solars < amount:
            raise _fail("RES-GW-23", f"the compensation of {amount} solars cannot be paid: the chest holds {new_guild.solars}", order)
        new_guild.solars -= amount
        gw.bank.held += amount
        dep = Deposit(order.domain, order.guild, amount, gw.season)
        gw.bank.deposits.append(dep)
    dep.former_owner = former
    dep.annexed_season = gw.season
    dep.new_owner = new_guild.leader
    dom.owner_guild = new_guild.id
    dom.owner = new_guild.leader
    dom.frozen_until = gw.season + 2
    dom.title_return_season = gw.season + 1
    dom.annexed_from = former
    dom.annexed_season = gw.season
    dom.consents_to = []
    stopped = []
    for aid in list(dom.occupied_by):
        a = gw.armies.get(aid)
        if a is not None and army_involves(gw, a, order.guild):
            a.occupying = None
            a.occupying_since = -1
            stopped.append(aid)
    dom.occupied_by = [a for a in dom.occupied_by if a not in stopped]
    refresh_statuses(world)
    gw.bump("annexations")
    ledger.emit(
        SYS, "DomainAnnexed", f"guild:{order.guild}", ("GW-ANX-01", "GW-ANX-03", "GW-ANX-06", "GW-ANX-07", "RES-GW-25", "RES-GW-26", "RES-GW-28"),
        outcome="annexed", domain=dom.id, former_owner=former, new_owner=dom.owner, seal=order.seal, compensation=dep.amount,
        frozen_until=dom.frozen_until, stopped_occupying=stopped, still_occupied_by=list(dom.occupied_by), title_holder=dom.title_holder,
    )
    if world.km is not None:  # --- LINK-08 hook: the claiming kingdom loses the hex; a capital's loss is a conquest
        _links().domain_annexed(world, dom, former, ledger)


def resolve_return_title(world: World, order: ReturnTitle, ledger: Ledger) -> None:
    """GW-ANX-04, RES-GW-24: the former owner returns the title during A+1 and recovers the deposit."""
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
    dep = _return_deposit(gw, order.guild, order.domain)
    assert dep is not None
    guild = gw.guilds[order.guild]
    guild.solars += dep.amount
    gw.bank.held -= dep.amount
    dep.title_returned = True
    gw.domains[order.domain].title_holder = "bank"
    gw.domains[order.domain].title_return_season = -1
    ledger.emit(
        SYS, "TitleReturned", f"guild:{order.guild}", ("GW-ANX-04", "RES-GW-24", "SC-GW-10"), total=dep.amount,
        outcome="compensation recovered", domain=order.domain, solars_after=guild.solars,
    )


# resolution: ENG-GW-06
def resolve_loot_claim(world: World, order: TreasureHunt | PickUpLoot, ledger: Ledger) -> int:
    """Treasure hunt / pick up a named loot (GW-LOOT-03, RES-GW-15). The seed leaves their
    resolution to the game's team; this engine gives the loot's value to the first guild that
    claims it (a pick-up needs an army of the guild on the loot's hex)."""
    check_order(world, order, stage="resolve")
    gw = gw_of(world)
    lt = _loot(gw, order)
    gw.loot = [x for x in gw.loot if x.id != lt.id]
    guild = gw.guilds[order.guild]
    guild.solars += lt.value
    gw.bump("loot_claimed_solars", lt.value)
    ledger.emit(
        SYS, "LootClaimed", f"guild:{order.guild}", ("GW-LOOT-03", "RES-GW-15", "GW-LOOT-05"), total=lt.value,
        outcome=str(order.__struct_config__.tag), loot=lt.id, hex=lt.hex, created=lt.season,
    )
    return lt.value


def resolve_annexation_phase(world: World, dice: Dice, ledger: Ledger) -> None:
    """Phase (6): annexations, then title returns, then treasure hunts and pick-ups (RES-GW-27)."""
    gw = gw_of(world)
    resolve_annexations(world, ledger)
    for o in _orders_of(gw, ReturnTitle):
        _attempt(world, ledger, o, resolve_return_title)
    for o in _orders_of(gw, TreasureHunt, PickUpLoot):
        _attempt(world, ledger, o, resolve_loot_claim)


# =================================================================================================
# phase (7): end of season
# =================================================================================================


def refresh_statuses(world: World) -> None:
    """Recompute each domain's ``occupied_by`` / ``besieged_by`` from the armies (RES-GW-20)."""
    gw = gw_of(world)
    occ: dict[str, list[str]] = {}
    sieg: dict[str, list[str]] = {}
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.occupying is not None:
            d = gw.domains.get(a.occupying)
            if d is None or d.hex != a.hex or d.owner_guild == a.owner:
                a.occupying = None
                a.occupying_since = -1
            else:
                occ.setdefault(a.occupying, []).append(aid)
        if a.besieging is not None:
            d = gw.domains.get(a.besieging)
            if d is None or d.hex != a.hex or d.owner_guild == a.owner:
                a.besieging = None
            else:
                sieg.setdefault(a.besieging, []).append(aid)
    for did, d in gw.domains.items():
        d.occupied_by = occ.get(did, [])
        d.besieged_by = sieg.get(did, [])


def create_loot(world: World, dice: Dice, ledger: Ledger) -> list[Loot]:
    """GW-LOOT-02/04, RES-GW-14/16: a hex where ≥ 10 units were destroyed this season gets a loot of
    ``n × 1d6 × CFG.gw.loot_solars_per_unit_pip``; a sack that destroyed ≥ 10 SP gets one with
    ``n`` = SP. Hexes in ascending id, the battle loot before the sacks of that hex."""
    gw = gw_of(world)
    cfg = world.config.gw
    made: list[Loot] = []
    hexes = sorted(set(gw.destroyed_on) | {h for h, _ in gw.sacked})
    for h in hexes:
        sources: list[tuple[str, int, tuple[str, ...]]] = []
        n = gw.destroyed_on.get(h, 0)
        if n >= cfg.loot_min_units:
            sources.append(("battle", n, ("GW-LOOT-01", "GW-LOOT-02", "GW-LOOT-05", "RES-GW-14")))
        for sh, sp in gw.sacked:
            if sh == h and sp >= cfg.sack_loot_min_sp:
                sources.append(("sack", sp, ("GW-LOOT-04", "GW-LOOT-05", "RES-GW-14", "RES-GW-16")))
        for src, n, clauses in sources:
            pip = dice.roll(6)[0]
            value = n * pip * cfg.loot_solars_per_unit_pip
            lt = Loot(gw.next_loot, h, gw.season, value, src, n)
            gw.next_loot += 1
            gw.loot.append(lt)
            made.append(lt)
            gw.bump("loot_created")
            gw.bump("loot_solars", value)
            ledger.emit(
                SYS, "LootCreated", "world", clauses, dice=[(6, pip)], total=value, outcome=src,
                loot=lt.id, hex=h, units=n, per_pip=cfg.loot_solars_per_unit_pip, targetable_from=gw.season + 1,
            )
    return made


def clear_damage(world: World, ledger: Ledger) -> int:
    """GW-CMB-05, RES-GW-09: leftover damage is discarded at the end of the season's phases."""
    gw = gw_of(world)
    n = 0
    for aid in sorted(gw.armies):
        for u in gw.armies[aid].units:
            if u.damage:
                u.damage = 0
                n += 1
    for did in sorted(gw.domains):
        for u in gw.domains[did].garrison:
            if u.damage:
                u.damage = 0
                n += 1
    if n:
        ledger.emit(SYS, "DamageCleared", "world", ("GW-CMB-05", "RES-GW-09"), total=n, outcome="cleared")
    return n


def lapse_titles(world: World, ledger: Ledger) -> None:
    """GW-ANX-04, RES-GW-24: at the end of A+1 an unreturned title forfeits the compensation to the
    bank and costs the former owner 2 notoriety (SC-GW-12)."""
    gw = gw_of(world)
    cfg = world.config.gw
    for d in gw.bank.deposits:
        if d.annexed_season >= 0 and d.annexed_season + 1 == gw.season and not d.title_returned and d.former_owner:
            gw.bank.held -= d.amount
            gw.bank.kept += d.amount
            d.forfeited = True
            if d.domain in gw.domains:
                gw.domains[d.domain].title_return_season = -1
            g = gw.guilds[d.former_owner]
            before = g.notoriety
            g.notoriety -= cfg.notoriety_penalty
            ledger.emit(
                SYS, "CompensationForfeited", f"guild:{g.id}", ("GW-ANX-04", "RES-GW-24", "SC-GW-10", "SC-GW-12"),
                total=d.amount, outcome="kept by the bank", domain=d.domain, notoriety_before=before, notoriety_after=g.notoriety,
            )


def collect_yields(world: World, ledger: Ledger) -> None:
    """SC-GW-14: every domain neither occupied nor besieged yields solars and victuals to its owner."""
    gw = gw_of(world)
    cfg = world.config.gw
    per: dict[str, list[str]] = {}
    for did in sorted(gw.domains):
        d = gw.domains[did]
        if not d.occupied_by and not d.besieged_by:
            per.setdefault(d.owner_guild, []).append(did)
    for gid in sorted(per):
        g = gw.guilds[gid]
        n = len(per[gid])
        g.solars += n * cfg.domain_solars
        # implements: SC-GW-11
        g.victuals += n * cfg.domain_victuals
        ledger.emit(
            SYS, "YieldCollected", f"guild:{gid}", ("SC-GW-14",), total=n * cfg.domain_solars, outcome="collected",
            domains=per[gid], solars=n * cfg.domain_solars, victuals=n * cfg.domain_victuals,
        )


def pay_upkeep(world: World, ledger: Ledger) -> None:
    """SC-GW-16: 1 solar per unit in a guild's armies; units it cannot pay for leave, lowest loss
    rank first, from the army with the most units (ties: lowest army id). They create no loot."""
    gw = gw_of(world)
    cfg = world.config.gw
    price = cfg.army_upkeep_solars
    for gid in sorted(gw.guilds):
        g = gw.guilds[gid]
        armies = [gw.armies[a] for a in sorted(gw.armies) if gw.armies[a].owner == gid]
        n = sum(len(a.units) for a in armies)
        if n == 0 or price <= 0:
            continue
        payable = min(n, max(g.solars, 0) // price)
        g.solars -= payable * price
        left: list[list[int | str]] = []
        for _ in range(n - payable):
            a = sorted(armies, key=lambda a: (-len(a.units), a.id))[0]
            u = loss_order(a.units, cfg)[0]
            a.units.remove(u)
            left.append([u.id, u.kind, a.id])
        gw.bump("units_unpaid", len(left))
        ledger.emit(
            SYS, "UpkeepPaid", f"guild:{gid}", ("SC-GW-16",), dc=n * price, total=payable * price,
            outcome="paid" if not left else f"{len(left)} units left", units=n, left=left, solars_after=g.solars,
        )
        for a in armies:
            if not a.units and a.id in gw.armies:
                _release_army(world, a)
                ledger.emit(SYS, "ArmyDissolved", f"army:{a.id}", ("SC-GW-16", "SC-GW-03"), outcome="dissolved", guild=gid)


def resolve_end_of_season(world: World, dice: Dice, ledger: Ledger) -> None:
    """Phase (7) of RES-GW-10: war loot, leftover damage cleared, siege/occupation statuses and
    title windows updated; then yields (SC-GW-14) and upkeep (SC-GW-16)."""
    gw = gw_of(world)
    create_loot(world, dice, ledger)
    clear_damage(world, ledger)
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.siege_short is not None and a.siege_short_season < gw.season:
            a.siege_short = None
            a.siege_short_season = -1
    refresh_statuses(world)
    lapse_titles(world, ledger)
    collect_yields(world, ledger)
    pay_upkeep(world, ledger)
    refresh_statuses(world)
    gw.bump("seasons")


PHASE_FUNCTIONS: dict[str, Callable[[World, Dice, Ledger], object]] = {
    "deploy": resolve_deploy_phase,
    "move": resolve_movement_phase,
    "siege": resolve_siege_phase,
    "army_combats": resolve_army_combats,
    "domain_attacks": resolve_domain_attacks,
    "annexations": resolve_annexation_phase,
    "end_of_season": resolve_end_of_season,
}


def run_phases(world: World, dice: Dice, ledger: Ledger) -> None:
    """Run the season's phases in ``CFG.gw.phase_order`` (RES-GW-10, GW-ORD-01)."""
    for name in world.config.gw.phase_order:
        PHASE_FUNCTIONS[name](world, dice, ledger)


def run_season(world: World, orders: Iterable[AnyOrder], dice: Dice, ledger: Ledger) -> None:
    """A whole season with a fixed list of orders (tests and tools): each order is given (illegal
    ones raise), then the phases run."""
    begin_season(world, ledger)
    for o in orders:
        give_order(world, o, ledger)
    run_phases(world, dice, ledger)
