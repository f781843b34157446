"""Hazards (CV-HAZ, RES-CV-06/07, GEN-06): the day's hazard table, a hazard's check and effects, and
the caravan combats of SC-CV-14."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.dice import Dice, DiceExpr
from sim.errors import InvalidOrderError
from sim.events import Ledger
from sim.hexmap import HexMap
from sim.rules.cv.crew import damage, kill_traveler, lose_wagon, pick, set_unrest, unrest_check
from sim.rules.cv.stats import PROVISIONS_PER_STORES, bonuses_of, emit, roll_check, stat_mods
from sim.state.cv import SUSPENDED_FOREVER, Convoy, CvWorld, Effect, EnemySpec, Hazard, HazardTable
from sim.world import World

__all__ = [
    "apply_effect",
    "resolve_combat",
    "resolve_hazard",
    "roll_table",
    "table_for",
]


# ---- hazards --------------------------------------------------------------------------------


def table_for(cv: CvWorld, hm: HexMap, hex_index: int) -> HazardTable | None:
    """The first hazard table whose terrain, path type and river filters match the hex."""
    h = hm.hexes[hex_index]
    for tb in cv.tables:
        if tb.terrains and h.terrain not in tb.terrains:
            continue
        if tb.paths and h.road not in tb.paths:
            continue
        if tb.river is not None and tb.river != h.river:
            continue
        return tb
    return None


# resolution: ENG-CV-04
def roll_table(c: Convoy, tb: HazardTable, dice: Dice, ledger: Ledger, hex_index: int) -> tuple[str, int]:
    """RES-CV-06/GEN-06: the d100 of the day's table, then 1d12 for the hour unless fixed."""
    d = dice.roll(100)[0]
    drawn = [(100, d)]
    hz, hour = "", 0
    for b in tb.bands:
        if b.lo <= d <= b.hi:
            hz, hour = b.hazard, b.hour
            break
    if hz and not hour:
        hour = dice.roll(12)[0]
        drawn.append((12, hour))
    emit(ledger, "HazardTableRolled", c, ("RES-CV-06", "GEN-06", "CV-HAZ-01"), dice=drawn, total=d,
          outcome=hz or "nothing", table=tb.id, hour=hour, hex=hex_index)
    return hz, hour


def resolve_hazard(world: World, c: Convoy, hz: Hazard, dice: Dice, ledger: Ledger, *, terrain: str = "",
                   choose_target: Callable[[list[dict[str, Any]]], str] | None = None) -> bool:
    """CV-HAZ-02/03, RES-CV-06: the hazard's check (or combat, CV-HAZ-04/SC-CV-14), then the
    effects of failure (or of success, if the hazard lists any). Returns whether it succeeded."""
    cfg = world.config.cv
    c.hazards_met += 1
    if hz.check == "combat":
        ok = resolve_combat(world, c, hz, dice, ledger, choose_target=choose_target)
    else:
        stat = "security" if hz.check == "security" else "resolve"
        mods = stat_mods(c, stat, cfg, world.now, bonuses_of(world.cv_state()), terrain=terrain,
                         scouting=not (c.today.plan and c.today.plan.forage))
        nat, total, ok = roll_check(dice, hz.dc, mods)
        emit(ledger, "HazardCheckRolled", c, ("CV-HAZ-02", "RES-CV-06", "SC-CV-02", "RES-CV-19"), dc=hz.dc, mods=mods,
              dice=[(20, nat)], total=total, outcome="success" if ok else "failure", hazard=hz.id, check=hz.check)
    # resolution: ENG-CV-12
    for e in hz.on_success if ok else hz.on_fail:
        if c.status == "destroyed":
            break
        apply_effect(world, c, e, dice, ledger, hz.id)
    return ok


def _amount(e: Effect, dice: Dice) -> tuple[int, list[tuple[int, int]]]:
    if e.dice:
        return DiceExpr.parse(e.dice).roll(dice)
    return e.amount, []


def apply_effect(world: World, c: Convoy, e: Effect, dice: Dice, ledger: Ledger, source: str) -> None:
    """One effect of RES-CV-06, dice drawn in the order the effect needs them (GEN-01)."""
    cfg = world.config.cv
    now = world.now
    cl = ("CV-HAZ-03", "RES-CV-06")
    if e.kind == "damage":
        n, drawn = _amount(e, dice)
        damage(world, c, n, source, dice, ledger, cl, drawn)
    elif e.kind == "lose_provisions":
        n, drawn = _amount(e, dice)
        lost = min(max(0, n), c.provisions)
        c.provisions -= lost
        emit(ledger, "ProvisionsLost", c, cl, dice=drawn, total=lost, outcome=source, left=c.provisions)
    elif e.kind == "lose_cargo":
        n, drawn = _amount(e, dice)
        n = max(0, n)
        if e.cargo == "stores":
            lost = min(n * PROVISIONS_PER_STORES, c.provisions)
            c.provisions -= lost
            emit(ledger, "ProvisionsLost", c, cl, dice=drawn, total=lost, outcome=source, left=c.provisions)
        else:
            lost = min(n, c.cargo.get(e.cargo, 0))
            if lost:
                c.cargo[e.cargo] -= lost
            emit(ledger, "CargoLost", c, cl, dice=drawn, total=lost, outcome=source, cargo=e.cargo,
                  left=c.cargo.get(e.cargo, 0))
    elif e.kind == "lose_wagon":
        cands = [w for w in c.wagons if not e.wagon or w.kind == e.wagon]
        if cands:
            i, drawn = pick(dice, len(cands))
            if drawn:
                emit(ledger, "WagonChosen", c, ("RES-CV-06", "GEN-06"), dice=drawn, total=drawn[0][1],
                      outcome=str(cands[i].id), candidates=[w.id for w in cands])
            lose_wagon(world, c, cands[i], dice, ledger, source, cl)
    elif e.kind == "kill_traveler":
        victims = [t for t in c.travelers if not e.job or t.job == e.job]
        if victims:
            i, drawn = pick(dice, len(victims))
            if drawn:
                emit(ledger, "TravelerChosen", c, ("RES-CV-06", "GEN-06"), dice=drawn, total=drawn[0][1],
                      outcome=victims[i].id, candidates=[t.id for t in victims])
            kill_traveler(world, c, victims[i], dice, ledger, source)
    elif e.kind == "suspend_job":
        workers = [t for t in c.travelers if (not e.job or t.job == e.job) and t.suspended_until <= now]
        if workers:
            i, drawn = pick(dice, len(workers))
            tr = workers[i]
            tr.suspended_until = now + 24 * e.days if e.days > 0 else SUSPENDED_FOREVER
            emit(ledger, "JobSuspended", c, cl, dice=drawn, outcome=source, traveler=tr.id, job=tr.job,
                  days=e.days if e.days > 0 else None, permanent=e.days <= 0)
    elif e.kind == "block_travel":
        if not c.today.blocked:
            c.today.blocked = True
            emit(ledger, "TravelBlocked", c, cl, outcome=source)
            unrest_check(world, c, dice, ledger, "(d) cannot move: adverse event")
    elif e.kind == "unrest":
        set_unrest(c, c.unrest + e.amount, ledger, ("CV-UNR-07",), source, cause="hazard", ref=source)
    else:
        raise InvalidOrderError(f"unknown hazard effect {e.kind!r} in hazard {source!r}")
    _ = cfg


def resolve_combat(world: World, c: Convoy, hz: Hazard, dice: Dice, ledger: Ledger, *,
                   choose_target: Callable[[list[dict[str, Any]]], str] | None = None) -> bool:
    """SC-CV-14 (RES-CV-07): each round the caravan attacks one enemy (its target is a policy input;
    default the lowest id), then every standing enemy attacks in ascending id. Ends when all
    enemies are at 0 HP (success), the round limit is reached, or the caravan is at 0 HP."""
    cfg = world.config.cv
    bon = bonuses_of(world.cv_state())
    enemies: list[EnemySpec] = sorted(hz.enemies, key=lambda e: e.id)
    hp = {e.id: e.hp for e in enemies}
    dmg_expr = DiceExpr.parse(cfg.combat_damage)
    emit(ledger, "CombatBegan", c, ("CV-HAZ-04", "RES-CV-07", "SC-CV-14"), outcome=hz.id,
          enemies=[[e.id, e.hp, e.ac] for e in enemies], rounds=hz.rounds)
    for rnd in range(1, hz.rounds + 1):
        alive = [e for e in enemies if hp[e.id] > 0]
        if not alive:
            break
        view = [{"id": e.id, "hp": hp[e.id], "ac": e.ac, "attack": e.attack, "damage": e.damage} for e in alive]
        tid = choose_target(view) if choose_target else alive[0].id
        target = next((e for e in alive if e.id == tid), alive[0])
        mods = stat_mods(c, "attack", cfg, world.now, bon)
        nat, total, hit = roll_check(dice, target.ac, mods)
        drawn = [(20, nat)]
        dealt = 0
        if hit:
            n, faces = dmg_expr.roll(dice)
            dealt = max(0, n + c.offense)
            drawn += faces
            hp[target.id] = max(0, hp[target.id] - dealt)
        emit(ledger, "CaravanAttackRolled", c, ("SC-CV-14",), dc=target.ac, mods=mods, dice=drawn, total=total,
              outcome="hit" if hit else "miss", round=rnd, target=target.id, damage=dealt, enemy_hp=hp[target.id])
        for e in enemies:
            if hp[e.id] <= 0 or c.hp <= 0 or c.status == "destroyed":
                continue
            ac_mods = stat_mods(c, "ac", cfg, world.now, bon)
            ac = sum(v for _, v in ac_mods)
            nat, total, hit = roll_check(dice, ac, [("attack bonus", e.attack)])
            drawn = [(20, nat)]
            n = 0
            if hit:
                n, faces = DiceExpr.parse(e.damage).roll(dice)
                drawn += faces
            emit(ledger, "EnemyAttackRolled", c, ("SC-CV-14",), dc=ac, mods=[("attack bonus", e.attack)], dice=drawn,
                  total=total, outcome="hit" if hit else "miss", round=rnd, enemy=e.id, damage=max(0, n),
                  ac_mods=[[k, v] for k, v in ac_mods])
            if hit:
                damage(world, c, max(0, n), "combat", dice, ledger, ("SC-CV-14", "RES-CV-23"))
        # resolution: ENG-CV-12
        if c.hp <= 0 or c.status == "destroyed":
            break
    won = all(v <= 0 for v in hp.values())
    emit(ledger, "CombatEnded", c, ("SC-CV-14",), outcome="victory" if won else "defeat", hazard=hz.id, hp=c.hp,
          max_hp=c.max_hp,
          enemies_left=[k for k in sorted(hp) if hp[k] > 0])
    return won
