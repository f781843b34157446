"""GW phase (3): sieges — famine (GW-FAM) then siege damage (GW-SIEGE-04)."""

from __future__ import annotations

from sim.dice import Dice
from sim.events import Ledger
from sim.rules.gw.core import (
    SYS,
    apply_damage,
    army_strength,
    effective_cs,
    refresh_statuses,
    unit_rows,
    units_strength,
)
from sim.rules.gw.deploy import attempt, orders_of, release_army
from sim.rules.gw.hooks import NO_HOOKS, GwHooks
from sim.rules.gw.legality import check_order_stage
from sim.state.gw import Army, Domain, GwWorld, Siege, Unit
from sim.world import World

__all__ = [
    "resolve_famine",
    "resolve_siege",
    "resolve_siege_damage",
    "resolve_siege_phase",
]


# =================================================================================================
# phase (3): sieges — famine (GW-FAM) then siege damage (GW-SIEGE-04)
# =================================================================================================


def count_destroyed(gw: GwWorld, hex_: int, n: int) -> None:
    if n:
        gw.destroyed_on[hex_] = gw.destroyed_on.get(hex_, 0) + n
        gw.stats.units_destroyed += n


def army_destroyed(world: World, army: Army, ledger: Ledger, clauses: tuple[str, ...]) -> None:
    release_army(world, army)
    world.gw_state().stats.armies_destroyed += 1
    ledger.emit(SYS, "ArmyDestroyed", f"army:{army.id}", clauses, outcome="destroyed", guild=army.owner, hex=army.hex)


def resolve_famine(world: World, dom: Domain, ledger: Ledger) -> list[Unit]:
    """GW-FAM-01/02, RES-GW-22: the besieged garrison eats 5 victuals per unit from its owner's
    chest; if not all are fed it suffers desertion: 20% of its total base CS (rounded per
    ``CFG.gw.desertion_rounding``) as damage in loss order against base CS. Returns the deserters
    (they do not count towards war loot)."""
    gw = world.gw_state()
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
    gw.stats.deserters += len(destroyed)
    ledger.emit(
        SYS, "DesertionSuffered", f"domain:{dom.id}", ("GW-FAM-02", "RES-GW-22", "RES-GW-13"), total=dmg,
        outcome=f"{len(destroyed)} deserted", base_cs=base, percent=cfg.desertion_percent, rounding=cfg.desertion_rounding,
        destroyed=unit_rows(destroyed), garrison=len(dom.garrison),
    )
    return destroyed


def resolve_siege_damage(world: World, dom: Domain, besiegers: list[Army], ledger: Ledger) -> tuple[list[Unit], list[Unit]]:
    """GW-SIEGE-04, RES-GW-21: siege units on both sides deal their CS (capped bonus kept, no
    fortification) at the same time; the garrison's goes to the strongest besieging army.
    Returns (garrison units destroyed, besieger units destroyed)."""
    gw = world.gw_state()
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
    count_destroyed(gw, dom.hex, len(lost_gar) + len(lost_army))
    if out_dmg or in_dmg:
        ledger.emit(
            SYS, "SiegeDamageDealt", f"domain:{dom.id}", ("GW-SIEGE-04", "RES-GW-21", "RES-GW-13"), total=out_dmg,
            outcome=f"{len(lost_gar)} defenders, {len(lost_army)} besiegers lost",
            besiegers=[a.id for a in besiegers], garrison_damage=in_dmg, target=target.id if target else None,
            destroyed=unit_rows(lost_gar), destroyed_besiegers=unit_rows(lost_army), garrison=len(dom.garrison),
        )
    if target is not None and not target.units:
        army_destroyed(world, target, ledger, ("GW-SIEGE-04", "GW-LOSS-01"))
    return lost_gar, lost_army


def resolve_siege(world: World, dom: Domain, orders: list[Siege], ledger: Ledger) -> None:
    """One domain's siege season: famine, siege damage, then who holds besieging status (RES-GW-20)."""
    gw = world.gw_state()
    besiegers: list[Army] = []
    for o in orders:
        if attempt(world, ledger, o, lambda w, o, led: check_order_stage(w, o, stage="resolve")):
            besiegers.append(gw.armies[o.army])
    if not besiegers:
        return
    gw.stats.siege_seasons += 1
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


def resolve_siege_phase(world: World, dice: Dice, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """Phase (3): in ascending domain id, each domain at least one army was ordered to Siege."""
    gw = world.gw_state()
    by_dom: dict[str, list[Siege]] = {}
    for o in orders_of(gw, Siege):
        assert isinstance(o, Siege)
        by_dom.setdefault(o.domain, []).append(o)
    for did in sorted(by_dom):
        if did in gw.domains:
            resolve_siege(world, gw.domains[did], by_dom[did], ledger)
