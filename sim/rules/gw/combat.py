"""GW combats (GW-CMB, GW-ORD, GW-LOSS) — phases (4) and (5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.dice import Dice
from sim.events import Ledger
from sim.rules.gw.core import (
    SYS,
    allied,
    apply_damage,
    armies_at,
    army_strength,
    capped_bonus,
    domains_at,
    effective_cs,
    fort_bonus,
    garrison_strength,
    refresh_statuses,
    toughness,
    unit_rows,
)
from sim.rules.gw.deploy import attempt, orders_of
from sim.rules.gw.hooks import NO_HOOKS, GwHooks
from sim.rules.gw.legality import check_order_stage
from sim.rules.gw.siege import army_destroyed, count_destroyed
from sim.state.gw import AnyOrder, Army, AttackArmy, AttackDomain, Domain, GwWorld, Sack, Unit
from sim.world import World

__all__ = [
    "CombatResult",
    "fight",
    "front_breakdown",
    "garrison_joining",
    "occupy",
    "resolve_army_combats",
    "resolve_attack",
    "resolve_domain_attacks",
    "resolve_sack",
]


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
    gw = world.gw_state()
    att = sum(army_strength(world, a) for a in attackers) + (garrison_strength(world, attacker_garrison) if attacker_garrison else 0)
    dfn = sum(army_strength(world, a) for a in defenders) + (garrison_strength(world, defender_garrison) if defender_garrison else 0)
    att_units = sum(len(a.units) for a in attackers) + (len(attacker_garrison.garrison) if attacker_garrison else 0)
    dfn_units = sum(len(a.units) for a in defenders) + (len(defender_garrison.garrison) if defender_garrison else 0)
    att_parts = front_breakdown(world, attackers, attacker_garrison)
    dfn_parts = front_breakdown(world, defenders, defender_garrison)
    lost_d = _front_damage(world, defenders, defender_garrison, att)
    lost_a = _front_damage(world, attackers, attacker_garrison, dfn)
    count_destroyed(gw, hex_, len(lost_a) + len(lost_d))
    gone = [a for a in (*attackers, *defenders) if not a.units]
    outcome = judge() if judge else f"{len(lost_a)} attackers and {len(lost_d)} defenders lost"
    ledger.emit(
        SYS, kind, f"army:{attackers[0].id}", clauses, total=att, dc=dfn, outcome=outcome,
        hex=hex_, attackers=[a.id for a in attackers], defenders=[a.id for a in defenders],
        attacker_garrison=attacker_garrison.id if attacker_garrison else None,
        defender_garrison=defender_garrison.id if defender_garrison else None,
        attacker_strength=att, defender_strength=dfn, attacker_units=att_units, defender_units=dfn_units,
        attacker_breakdown=att_parts, defender_breakdown=dfn_parts,
        attackers_lost=unit_rows(lost_a), defenders_lost=unit_rows(lost_d), armies_destroyed=[a.id for a in gone], **data,
    )
    for a in gone:
        army_destroyed(world, a, ledger, ("GW-LOSS-01", "RES-GW-13"))
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


def strongest(world: World, armies: list[Army]) -> tuple[int, str]:
    best = sorted(armies, key=lambda a: (-army_strength(world, a), a.id))[0]
    return army_strength(world, best), best.id


def resolve_army_combats(world: World, dice: Dice, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> list[CombatResult]:
    """Phase (4): Attack-an-army combats, one at a time, the combat whose strongest attacking army
    is strongest first (GW-ORD-03, RES-GW-12); losses of earlier combats count in later ones."""
    gw = world.gw_state()
    valid: list[AnyOrder] = []
    for o in orders_of(gw, AttackArmy):
        if attempt(world, ledger, o, lambda w, o, led: check_order_stage(w, o, stage="resolve")):
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
            s, aid = strongest(world, alive)
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
        gw.stats.battles += 1
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


def occupy(world: World, dom: Domain, armies: list[Army], ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """GW-ATK-04, GW-OCC-01: the surviving attackers occupy the domain; its owner's constructions
    and assignments in progress are cancelled."""
    gw = world.gw_state()
    watch = hooks.occupation_watch(world, dom) if hooks.occupation_watch is not None else None  # LINK-08
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
    gw.stats.occupations += 1
    ledger.emit(
        SYS, "DomainOccupied", f"domain:{dom.id}", ("GW-ATK-04", "GW-OCC-01", "RES-GW-18"), outcome="occupied",
        armies=[a.id for a in armies], occupiers=list(dom.occupied_by), owner=dom.owner_guild, cancelled=cancelled,
    )
    if watch is not None and hooks.domain_occupied is not None:  # --- LINK-08 hook: Unrest for the kingdom claiming the hex, at its next Upkeep
        hooks.domain_occupied(world, dom, watch, ledger)


def resolve_domain_attacks(world: World, dice: Dice, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> list[CombatResult]:
    """Phase (5): attacks on domains (strongest first, RES-GW-12), then sacks (SC-GW-13)."""
    gw = world.gw_state()
    valid: list[AnyOrder] = []
    for o in orders_of(gw, AttackDomain):
        if attempt(world, ledger, o, lambda w, o, led: check_order_stage(w, o, stage="resolve")):
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
            s, aid = strongest(world, alive)
            ranked.append((0, -s, aid, i))
        ranked.sort()
        did, front = pending.pop(ranked[0][3])
        dom = gw.domains[did]
        alive = [gw.armies[o.army] for o in front if o.army in gw.armies and gw.armies[o.army].hex == dom.hex]  # type: ignore[union-attr]
        if not alive:
            ledger.emit(SYS, "CombatCancelled", f"army:{front[0].army}", ("RES-GW-12",), outcome="attackers destroyed", attackers=[o.army for o in front], domain=did)  # type: ignore[union-attr]
            continue
        res = resolve_attack(world, dom, alive, ledger, hooks)
        results.append(res)
    for o in orders_of(gw, Sack):
        attempt(world, ledger, o, resolve_sack)
    return results


def resolve_attack(world: World, dom: Domain, attackers: list[Army], ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> CombatResult:
    """Attack a domain (GW-ATK-03/04, RES-GW-18): the attacking front against the garrison (which
    defends by itself) plus any army of the owner guild on the hex. Success: no garrison unit left
    and an attacker survives; the survivors occupy the domain."""
    gw = world.gw_state()
    defenders = [a for a in armies_at(gw, dom.hex) if a.owner == dom.owner_guild]
    gw.stats.assaults += 1
    reported = hooks.attackers_of(world, attackers) if hooks.attackers_of is not None else None  # LINK-07 (before the combat)

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
        gw.stats.assaults_won += 1
        occupy(world, dom, [a for a in attackers if a.id in gw.armies], ledger, hooks)
    if reported is not None and hooks.attack_reported is not None:  # --- LINK-07 hook: an invasion (or a repulse) of the domain's province
        hooks.attack_reported(world, dom, reported, res.outcome, ledger)
    return res


def resolve_sack(world: World, order: Sack, ledger: Ledger) -> int:
    """Sack (*Saccager*, SC-GW-13): destroy buildings in descending SP (ties: lower id) while the
    running total stays within the army's current strength; stop at the first that would exceed
    it. Returns the SP destroyed (a loot is created at season end if ≥ 10, RES-GW-16)."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
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
    gw.stats.sacks += 1
    ledger.emit(
        SYS, "DomainSacked", f"army:{army.id}", ("SC-GW-13", "GW-LOOT-04"), dc=strength, total=total,
        outcome=f"{len(destroyed)} buildings destroyed", domain=dom.id, guild=army.owner,
        destroyed=[[b.id, b.name, b.sp] for b in destroyed], spared=[[b.id, b.name, b.sp] for b in dom.buildings],
    )
    return total
