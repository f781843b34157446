"""Exploration edicts (*édit d'exploration*, KM-EXP): explorers travel and explore day by day
(RES-KM-13/14/42).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger, check
from sim.rules.km.statistics import add_unrest, emit_check, kingdom_check, stats, vacant
from sim.rules.km.tables import SPEED_TABLE, SYS, TERRAIN, actor, km_terrain
from sim.rules.km.upkeep_phase import capital_hex
from sim.state.km import Encounter, Expedition, ExplorationEdict

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "explore_days",
    "explore_month",
    "resolve_exploration",
    "run_expeditions",
    "travel_hours",
]


# =================================================================================================
# Exploration edicts (KM-EXP)
# =================================================================================================


def explore_days(speed: int, terrain: str) -> int:
    """RES-KM-13: days to explore a hex: SC-KM-33 at 30 ft, SC-KM-34 at other speeds (Cavern as
    Mountain, Jungle as Marsh, Water always 2 days)."""
    t = km_terrain(terrain)
    if speed == 30:
        return TERRAIN[t][0]
    if t == "water":
        return 2
    row = SPEED_TABLE[speed]
    if t in ("plains", "hills"):
        return row[2]
    if t in ("desert", "forest", "marsh", "jungle"):
        return row[3]
    return row[4]


def travel_hours(speed: int, terrain: str) -> int:
    """SC-KM-34: hours to cross one hex at ``speed`` (plain or other terrain)."""
    row = SPEED_TABLE[speed]
    return row[0] if km_terrain(terrain) == "plains" else row[1]


def check_exploration(world: World, kid: str, o: ExplorationEdict) -> None:
    km = world.km_state()
    k = km.kingdoms[kid]
    if vacant(k, "grand_diplomat"):
        raise IllegalOrderError("KM-GEN-03", "the Grand Diplomat's seat is vacant: no Exploration edicts", actor=actor(kid))
    if o.months < 1:
        raise InvalidOrderError(f"months {o.months}: expected 1 or more whole months (KM-EXP-02)")
    if not o.route:
        raise IllegalOrderError("KM-EXP-02", "an expedition needs a route of at least one hex", actor=actor(kid))
    n = len(world.map.hexes)
    for h in o.route:
        if not 0 <= h < n:
            raise InvalidOrderError(f"route hex {h} is not on the map")
    cap = capital_hex(k)
    if cap is None or not k.settlements:
        raise IllegalOrderError("KM-EXP-03", f"{kid} has no capital for the explorers to leave from", actor=actor(kid))
    first = o.route[0]
    if first != cap and first not in world.map.neighbors(cap):
        raise IllegalOrderError(
            "RES-KM-12",
            f"the route must start at or next to the capital {list(world.map.coords(cap))}, not at {list(world.map.coords(first))}",
            actor=actor(kid),
        )
    for i, (a, b) in enumerate(zip(o.route, o.route[1:])):
        # resolution: ENG-KM-10
        if b not in world.map.neighbors(a):
            raise IllegalOrderError(
                "RES-KM-12", f"route hex {i + 1} {list(world.map.coords(b))} is not next to {list(world.map.coords(a))}", actor=actor(kid)
            )


def resolve_exploration(world: World, kid: str, o: ExplorationEdict, dice: Dice, ledger: Ledger) -> Expedition:
    """KM-EXP-02 / RES-KM-12: roll 1d4 per month, pay in advance, set the expedition out."""
    km = world.km_state()
    k = km.kingdoms[kid]
    faces = dice.roll(4, o.months)
    cost = sum(faces)
    k.treasury -= cost
    k.special_turn = km.turn
    km.stats.edicts_exploration += 1
    k.expeditions_sent += 1
    cap = capital_hex(k)
    route = list(o.route[1:] if o.route[0] == cap else o.route)
    exp = Expedition(
        id=km.new_id(),
        kingdom=kid,
        number=k.expeditions_sent,
        route=route,
        months=o.months,
        issue_turn=km.turn,
        cost=cost,
        knowledge=k.explorers.get("knowledge_geography", 0),
        survival=k.explorers.get("survival", 0),
        stealth=k.explorers.get("stealth", 0),
        speed=world.config.km.explorer_speed_ft,
        pcs=o.pcs,
    )
    km.expeditions.append(exp)
    ledger.emit(
        SYS,
        "ExplorationEdictIssued",
        actor(kid),
        ("KM-GEN-01", "KM-GEN-02", "KM-EXP-01", "KM-EXP-02", "KM-EXP-03", "RES-KM-12", "RES-KM-01", "RES-KM-39"),
        dice=[(4, f) for f in faces],
        total=cost,
        outcome=f"{o.months} month(s)",
        expedition=exp.id,
        route=[list(world.map.coords(h)) for h in route],
        treasury_after=k.treasury,
        pcs=o.pcs,
    )
    return exp


def run_expeditions(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-42: simulate this turn's contract month of each active expedition (ascending id)."""
    km = world.km_state()
    for exp in km.expeditions:
        if exp.kingdom != kid or exp.status != "active":
            continue
        m = km.turn - exp.issue_turn + 1
        if 1 <= m <= exp.months:
            explore_month(world, exp, m, dice, ledger)


def explore_month(world: World, exp: Expedition, m: int, dice: Dice, ledger: Ledger) -> None:
    """Contract month ``m`` of an expedition, day by day (RES-KM-13/14/15/16/42)."""
    km = world.km_state()
    cfg = world.config.km
    per = cfg.days_per_turn
    encs = [
        e
        for e in km.encounters
        if (e.kingdom is None or e.kingdom == exp.kingdom) and (e.expedition in (0, exp.number))
        and (m - 1) * per < e.day <= m * per
    ]
    for day in range((m - 1) * per + 1, m * per + 1):
        exp.day = day
        here = exp.route[min(exp.pos, len(exp.route) - 1)]
        stop = False
        for e in encs:
            if e.day == day and e.hex in (-1, here):
                res = _encounter(world, exp, e, m, here, dice, ledger)
                if res != "safe":
                    stop = True
                    break
        if stop:
            break
        _expedition_day(world, exp, day, dice, ledger)
    if exp.status == "active" and m == exp.months:
        exp.status = "finished"
        ledger.emit(
            SYS,
            "ExplorersReturned",
            actor(exp.kingdom),
            ("KM-EXP-03", "RES-KM-13"),
            outcome="contract ended",
            expedition=exp.id,
            explored=[list(world.map.coords(h)) for h in exp.explored],
            found=list(exp.found),
            unused_route=len(exp.route) - exp.pos,
        )


def _encounter(world: World, exp: Expedition, e: Encounter, m: int, here: int, dice: Dice, ledger: Ledger) -> str:
    """KM-EXP-06/07/08, RES-KM-15/16: "safe", "scattered" or "killed"."""
    km = world.km_state()
    k = km.kingdoms[exp.kingdom]
    where = list(world.map.coords(here))
    if exp.pcs:
        res = {"none": "safe", "scattered": "scattered", "killed": "killed"}.get(e.outcome, "safe")
        ledger.emit(
            SYS, "EncounterResolvedByPCs", actor(exp.kingdom), ("KM-EXP-06", "RES-KM-15"), outcome=res,
            expedition=exp.id, day=e.day, cr=e.cr, hex=where, name=e.name,
        )
        if res == "scattered":
            exp.scattered_month = m
            km.stats.expeditions_scattered += 1
        elif res == "killed":
            exp.status = "killed"
            km.stats.expeditions_killed += 1
        return res
    if not e.hostile:
        ledger.emit(
            SYS, "EncounterMet", actor(exp.kingdom), ("KM-EXP-06", "RES-KM-15"), outcome="not hostile",
            expedition=exp.id, day=e.day, cr=e.cr, hex=where, name=e.name,
        )
        return "safe"
    dc = 10 + 2 * e.cr
    r = check(dice, dc, [("Stealth (least stealthy)", exp.stealth)])
    ledger.emit(
        SYS, "ExplorerStealthCheckRolled", actor(exp.kingdom), ("KM-EXP-07", "RES-KM-15"), dc=dc,
        mods=[("Stealth (least stealthy)", exp.stealth)], dice=[(20, r.natural)], total=r.total,
        outcome="success" if r.success else "failure", expedition=exp.id, day=e.day, cr=e.cr, hex=where, name=e.name,
    )
    if r.success:
        return "safe"
    st = stats(world, k)
    sr, mods = kingdom_check(dice, k, "stability", st.control_dc + 2 * e.cr, st)
    if sr.success:
        exp.scattered_month = m
        res = "scattered"
    else:
        exp.status = "killed"
        add_unrest(k, 1)
        res = "killed"
    if res == "scattered":
        km.stats.expeditions_scattered += 1
    else:
        km.stats.expeditions_killed += 1
    emit_check(
        ledger, "ExplorerStabilityCheckRolled", exp.kingdom, ("KM-EXP-08", "RES-KM-16", "SC-KM-03", "SC-KM-04"), sr, mods,
        expedition=exp.id, day=e.day, cr=e.cr, result=res, unrest_after=k.unrest,
        days_forfeited=(m * world.config.km.days_per_turn - e.day + 1) if res == "scattered" else 0,
    )
    return res


def _expedition_day(world: World, exp: Expedition, day: int, dice: Dice, ledger: Ledger) -> None:
    """One day of travel (through explored hexes, up to the daily travel hours) or of exploration."""
    km = world.km_state()
    if exp.pos >= len(exp.route):
        return
    hexes = world.map.hexes
    h = exp.route[exp.pos]
    if km.explored(h):
        avail = world.config.km.explorer_travel_hours_per_day
        while exp.pos < len(exp.route) and km.explored(exp.route[exp.pos]) and avail > 0:
            cur = exp.route[exp.pos]
            need = travel_hours(exp.speed, hexes[cur].terrain) - exp.travel_done
            take = min(avail, need)
            avail -= take
            exp.travel_done += take
            if exp.travel_done >= travel_hours(exp.speed, hexes[cur].terrain):
                exp.pos += 1
                exp.travel_done = 0
        return  # a final partial day is rounded up (RES-KM-13)
    hs = km.hex(h)
    hs.progress += 1
    need = explore_days(exp.speed, hexes[h].terrain)
    rolled: list[tuple[int, int]] = []
    found: list[str] = []
    if hs.progress >= 2:
        for skill, bonus in (("Knowledge (geography)", exp.knowledge), ("Survival", exp.survival)):
            hidden = [f for f in hs.features if f.found_by is None]
            if not hidden:
                break
            d = dice.roll(20)[0]
            rolled.append((20, d))
            tot = d + bonus
            got = [f for f in hidden if tot >= f.dc]
            for f in got:
                km.stats.features_found += 1
                f.found_by = exp.kingdom
                found.append(f.name)
                exp.found.append(f.name)
            ledger.emit(
                SYS, "HiddenFeatureCheckRolled", actor(exp.kingdom), ("KM-EXP-05", "RES-KM-14"),
                dc=min(f.dc for f in hidden), mods=[(skill, bonus)], dice=[(20, d)], total=tot,
                outcome=("found " + ", ".join(f.name for f in got)) if got else "nothing found",
                expedition=exp.id, day=day, hex=list(world.map.coords(h)), dcs=[[f.name, f.dc] for f in hidden],
            )
    if hs.progress >= need:
        hs.explored = True
        hs.progress = 0
        km.stats.hexes_explored += 1
        exp.explored.append(h)
        exp.pos += 1
        ledger.emit(
            SYS, "HexExplored", actor(exp.kingdom), ("KM-EXP-04", "KM-EXP-05", "RES-KM-13", "RES-KM-42", "SC-KM-33", "SC-KM-34"),
            total=need, outcome="explored", expedition=exp.id, day=day, hex=list(world.map.coords(h)),
            terrain=hexes[h].terrain, found=found,
        )


