"""The ordinary part of the Edict phase (*phase d'édit*, SC-KM-13…17): Holiday, Promotion and
Taxation edicts, hex claims, terrain improvements, settlements, districts, buildings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.hexmap import ROAD_LEVEL
from sim.rules.km.statistics import add_unrest, change_fame, change_infamy, ruler_vacant, settlement, size_of
from sim.rules.km.tables import (
    BUILDINGS,
    FREE_HOUSES,
    IMPROVEMENT_COST,
    IMPROVEMENT_LIMITS,
    IMPROVEMENT_TERRAIN,
    SYS,
    TERRAIN,
    actor,
    km_terrain,
)
from sim.rules.km.upkeep_phase import lose_claimed_hex
from sim.state.km import HOLIDAY_LEVELS, PROMOTION_LEVELS, TAXATION_LEVELS, Kingdom, Settlement

if TYPE_CHECKING:
    from sim.world import World


__all__ = [
    "abandon_hex",
    "build_improvement",
    "buy_district",
    "claim_hex",
    "construct",
    "found_settlement",
    "improvement_cost",
    "limits",
    "lots_used",
    "set_edicts",
    "size_milestones",
]


# ---- the ordinary part of the Edict phase (SC-KM-13…17) ------------------------------------------


def limits(k: Kingdom) -> tuple[int, int | None, int, int]:
    """SC-KM-17: (new settlements, new buildings (None: no limit), terrain improvements, hex claims)."""
    size = size_of(k)
    for top, s, b, t, c in IMPROVEMENT_LIMITS:
        if size <= top:
            return s, b, t, c
    raise AssertionError("unreachable")


def _counters(k: Kingdom, turn: int) -> dict[str, int]:
    if k.builds_turn != turn:
        k.builds_turn = turn
        k.built = {}
        k.free_house_used = False
    return k.built


def _limit(k: Kingdom, turn: int, what: str) -> None:
    s, b, t, c = limits(k)
    cap = {"settlements": s, "buildings": b, "improvements": t, "claims": c}[what]
    used = _counters(k, turn).get(what, 0)
    if cap is not None and used >= cap:
        raise IllegalOrderError(
            "SC-KM-17",
            f"a kingdom of Size {size_of(k)} may make {cap} {_LIMIT_NAMES[what]} per turn and has made {used}",
            actor=actor(k.id),
        )


_LIMIT_NAMES = {
    "settlements": "new settlement(s)",
    "buildings": "new building(s)",
    "improvements": "terrain improvement(s)",
    "claims": "hex claim(s)",
}


def _count(k: Kingdom, turn: int, what: str) -> None:
    c = _counters(k, turn)
    c[what] = c.get(what, 0) + 1


def pay_bp(k: Kingdom, cost: int, turn: int, what: str, clause: str = "SC-KM-13") -> int:
    """Pay a purchase from the RES-KM-28 construction budget first, then the Treasury."""
    budget = k.construction_budget if k.budget_turn == turn else 0
    if budget + k.treasury < cost:
        raise IllegalOrderError(
            clause,
            f"{what} costs {cost} BP but the Treasury holds {k.treasury} BP"
            + (f" (+{budget} BP construction budget)" if budget else ""),
            actor=actor(k.id),
        )
    from_budget = min(budget, cost)
    k.construction_budget = budget - from_budget
    k.treasury -= cost - from_budget
    return from_budget


def _no_anarchy(k: Kingdom) -> None:
    if k.anarchy:
        raise IllegalOrderError("SC-KM-07", "the kingdom is in anarchy (Unrest 20) and can take no actions", actor=actor(k.id))


def set_edicts(world: World, kid: str, holiday: str, promotion: str, taxation: str, ledger: Ledger) -> None:
    """SC-KM-14/15/16: set the Holiday, Promotion and Taxation edicts for this turn (KM-GEN-02)."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    for value, levels, name in (
        (holiday, HOLIDAY_LEVELS, "holiday"),
        (promotion, PROMOTION_LEVELS, "promotion"),
        (taxation, TAXATION_LEVELS, "taxation"),
    ):
        if value not in levels:
            raise InvalidOrderError(f"{name} edict level {value!r}: expected one of {', '.join(levels)}")
    changed = (k.holiday, k.promotion, k.taxation) != (holiday, promotion, taxation)
    k.holiday, k.promotion, k.taxation = holiday, promotion, taxation
    k.edicts_turn = km.turn
    ledger.emit(
        SYS,
        "EdictsSet",
        actor(kid),
        ("SC-KM-13", "SC-KM-14", "SC-KM-15", "SC-KM-16", "KM-GEN-02"),
        outcome="changed" if changed else "unchanged",
        holiday=holiday,
        promotion=promotion,
        taxation=taxation,
    )


def claim_hex(world: World, kid: str, h: int, ledger: Ledger) -> None:
    """SC-KM-13: claim an explored hex adjacent to the kingdom for 1 BP (Size +1)."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    turn = km.turn
    _no_anarchy(k)
    if ruler_vacant(k):
        raise IllegalOrderError("SC-KM-20", "the Ruler's seat is vacant: the kingdom cannot claim hexes", actor=actor(kid))
    if not 0 <= h < len(world.map.hexes):
        raise InvalidOrderError(f"hex {h} is not on the map")
    where = list(world.map.coords(h))
    owner = km.owner_of(h)
    if owner is not None:
        raise IllegalOrderError("SC-KM-13", f"hex {where} is already claimed by {owner}", actor=actor(kid))
    if world.map.hexes[h].is_water:
        raise IllegalOrderError("SC-KM-13", f"hex {where} is water", actor=actor(kid))
    if not km.explored(h):
        raise IllegalOrderError("SC-KM-13", f"hex {where} has not been explored", actor=actor(kid))
    if k.hexes and not any(n in k.hexes for n in world.map.neighbors(h)):
        raise IllegalOrderError("SC-KM-13", f"hex {where} is not adjacent to the kingdom", actor=actor(kid))
    _limit(k, turn, "claims")
    pay_bp(k, 1, turn, f"claiming hex {where}")
    _count(k, turn, "claims")
    k.hexes.append(h)
    k.hexes.sort()
    km.stats.hexes_claimed += 1
    ledger.emit(
        SYS,
        "HexClaimed",
        actor(kid),
        ("SC-KM-13", "SC-KM-17"),
        total=1,
        outcome="claimed",
        hex=where,
        terrain=world.map.hexes[h].terrain,
        size_after=len(k.hexes),
        treasury_after=k.treasury,
    )
    size_milestones(world, kid, ledger)


def abandon_hex(world: World, kid: str, h: int, ledger: Ledger) -> None:
    """SC-KM-13: abandon a hex: Unrest +1, +4 if it held a settlement. The capital's hex too (nothing in
    SC-KM-13 forbids it): the next settlement becomes the capital (:func:`lose_claimed_hex`)."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    _no_anarchy(k)
    where = list(world.map.coords(h))
    if h not in k.hexes:
        raise IllegalOrderError("SC-KM-13", f"hex {where} is not claimed by {kid}", actor=actor(kid))
    had_town = any(s.hex == h for s in k.settlements)
    n = 4 if had_town else 1
    lose_claimed_hex(world, k, h)
    k.unrest += n
    ledger.emit(
        SYS,
        "HexAbandoned",
        actor(kid),
        ("SC-KM-13",),
        total=n,
        outcome=f"+{n} Unrest",
        hex=where,
        settlement=had_town,
        unrest_after=k.unrest,
    )


def improvement_cost(world: World, h: int, kind: str) -> int | None:
    """SC-KM-32/33: cost of a terrain improvement on hex ``h``; None if the terrain forbids it."""
    hx = world.map.hexes[h]
    t = km_terrain(hx.terrain)
    if kind == "road":
        cost = TERRAIN[t][3]
        return None if cost is None else cost * (2 if hx.river else 1)
    if kind == "highway":
        cost = TERRAIN[t][3]
        return None if cost is None else 2 * cost * (2 if hx.river else 1)
    if kind == "farm":
        if t not in IMPROVEMENT_TERRAIN["farm"]:
            return None
        return TERRAIN[t][2]
    if kind == "fishery":
        if hx.coast or hx.river or t in ("water", "marsh"):
            return IMPROVEMENT_COST["fishery"]
        return None
    if kind in IMPROVEMENT_TERRAIN:
        return IMPROVEMENT_COST[kind] if t in IMPROVEMENT_TERRAIN[kind] else None
    raise InvalidOrderError(f"unknown terrain improvement {kind!r}")


def build_improvement(world: World, kid: str, h: int, kind: str, ledger: Ledger) -> None:
    """SC-KM-32: build a Farm, Fishery, Mine, Quarry, Sawmill, Road or Highway in a claimed hex."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    turn = km.turn
    _no_anarchy(k)
    where = list(world.map.coords(h))
    if h not in k.hexes:
        raise IllegalOrderError("SC-KM-32", f"hex {where} is not claimed by {kid}", actor=actor(kid))
    hx = world.map.hexes[h]
    if kind in ("farm", "road") and ruler_vacant(k):
        raise IllegalOrderError("SC-KM-20", f"the Ruler's seat is vacant: no {kind}s can be built", actor=actor(kid))
    cost = improvement_cost(world, h, kind)
    if cost is None:
        raise IllegalOrderError("SC-KM-32", f"a {kind} cannot be built on {hx.terrain} hex {where}", actor=actor(kid))
    imps = k.improvements.get(h, [])
    if kind == "road":
        if hx.road_level >= ROAD_LEVEL["road"]:
            raise IllegalOrderError("SC-KM-32", f"hex {where} already has a road", actor=actor(kid))
    elif kind == "highway":
        if size_of(k) < 26:
            raise IllegalOrderError("SC-KM-32", f"a Highway needs Size 26 or more (Size {size_of(k)})", actor=actor(kid))
        if hx.road_level != ROAD_LEVEL["road"]:
            raise IllegalOrderError("SC-KM-32", f"a Highway upgrades a Road and hex {where} has {hx.road}", actor=actor(kid))
    else:
        if any(i in imps for i in ("farm", "fishery", "mine", "quarry", "sawmill")):
            raise IllegalOrderError("SC-KM-32", f"hex {where} already has a terrain improvement ({', '.join(imps)})", actor=actor(kid))
        if any(s.hex == h for s in k.settlements):
            raise IllegalOrderError("SC-KM-32", f"hex {where} holds a settlement", actor=actor(kid))
        if kind == "farm":
            farm_allowed(world, k, h, where)
    _limit(k, turn, "improvements")
    pay_bp(k, cost, turn, f"a {kind} on {where}", "SC-KM-32")
    _count(k, turn, "improvements")
    if kind == "road":
        world.map.set_road(h, "road")
    elif kind == "highway":
        world.map.set_road(h, "highway")
    else:
        k.improvements[h] = sorted([*imps, kind])
    km.stats.improvements_built += 1
    ledger.emit(
        SYS,
        "TerrainImprovementBuilt",
        actor(kid),
        ("SC-KM-32", "SC-KM-33", "SC-KM-17"),
        total=cost,
        outcome=kind,
        hex=where,
        terrain=hx.terrain,
        treasury_after=k.treasury,
    )


def farm_allowed(world: World, k: Kingdom, h: int, where: list[int]) -> None:
    hx = world.map.hexes[h]
    t = km_terrain(hx.terrain)
    near = (h, *world.map.neighbors(h))
    if t == "desert" and not (hx.river or hx.coast):
        raise IllegalOrderError("SC-KM-32", f"a desert Farm needs a canal, coast or river (hex {where})", actor=actor(k.id))
    # resolution: ENG-KM-01
    watered = any(
        world.map.hexes[n].river or world.map.hexes[n].terrain in ("water", "marsh", "moor") for n in near
    )
    farms_near = sum(1 for n in world.map.neighbors(h) if "farm" in k.improvements.get(n, []))
    if not watered and farms_near < 2:
        raise IllegalOrderError(
            "SC-KM-33",
            f"a Farm must be in or next to a hex with a river, lake or swamp, or next to two Farms (hex {where})",
            actor=actor(k.id),
        )


def found_settlement(world: World, kid: str, h: int, name: str, ledger: Ledger) -> None:
    """SC-KM-13: found a settlement on a claimed hex (its preparation cost, SC-KM-33; one district)."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    turn = km.turn
    _no_anarchy(k)
    where = list(world.map.coords(h))
    hx = world.map.hexes[h]
    if h not in k.hexes:
        raise IllegalOrderError("SC-KM-13", f"hex {where} is not claimed by {kid}", actor=actor(kid))
    if hx.settlement or any(s.hex == h for s in k.settlements):
        raise IllegalOrderError("SC-KM-13", f"hex {where} already holds a settlement", actor=actor(kid))
    if name in world.map.settlements():
        raise InvalidOrderError(f"a settlement named {name!r} already exists")
    if k.improvements.get(h):
        raise IllegalOrderError("SC-KM-13", f"hex {where} holds a terrain improvement", actor=actor(kid))
    # resolution: ENG-KM-08
    cost = TERRAIN[km_terrain(hx.terrain)][1]
    if cost is None:
        raise IllegalOrderError("SC-KM-33", f"no settlement can be founded on {hx.terrain}", actor=actor(kid))
    _limit(k, turn, "settlements")
    pay_bp(k, cost, turn, f"founding {name}")
    _count(k, turn, "settlements")
    hx.settlement = name
    hx.settlement_kind = "village"
    water = hx.coast or hx.river
    k.settlements.append(Settlement(name=name, hex=h, water_border=water))
    if k.capital is None:
        k.capital = name
    ledger.emit(
        SYS,
        "SettlementFounded",
        actor(kid),
        ("SC-KM-13", "SC-KM-33", "SC-KM-17"),
        total=cost,
        outcome=name,
        hex=where,
        treasury_after=k.treasury,
    )


def buy_district(world: World, kid: str, name: str, ledger: Ledger) -> None:
    """SC-KM-28: an extra district costs the preparation cost of the settlement's terrain."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    _no_anarchy(k)
    s = settlement(k, name)
    if s is None:
        raise IllegalOrderError("SC-KM-28", f"{kid} has no settlement named {name!r}", actor=actor(kid))
    if ruler_vacant(k):
        raise IllegalOrderError("SC-KM-20", "the Ruler's seat is vacant: the kingdom cannot buy districts", actor=actor(kid))
    cost = TERRAIN[km_terrain(world.map.hexes[s.hex].terrain)][1] or 0
    pay_bp(k, cost, km.turn, f"a district for {name}", "SC-KM-28")
    s.districts += 1
    ledger.emit(
        SYS,
        "DistrictAdded",
        actor(kid),
        ("SC-KM-28", "SC-KM-04"),
        total=cost,
        outcome=name,
        districts=s.districts,
        treasury_after=k.treasury,
    )


def lots_used(s: Settlement) -> int:
    return sum(BUILDINGS[b].lots * n for b, n in s.buildings.items())


def construct(world: World, kid: str, name: str, kind: str, ledger: Ledger) -> None:
    """SC-KM-28/31: construct a building in a settlement (complete in the turn it is paid)."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    turn = km.turn
    _no_anarchy(k)
    b = BUILDINGS.get(kind)
    if b is None:
        raise InvalidOrderError(f"unknown building {kind!r}; known: {', '.join(sorted(BUILDINGS))}")
    s = settlement(k, name)
    if s is None:
        raise IllegalOrderError("SC-KM-28", f"{kid} has no settlement named {name!r}", actor=actor(kid))
    if b.water_border and not s.water_border:
        raise IllegalOrderError("RES-KM-38", f"a {kind} needs a settlement with a water border ({name} has none)", actor=actor(kid))
    if kind == "waterfront" and s.buildings.get("waterfront", 0):
        raise IllegalOrderError("SC-KM-31", f"{name} already has a Waterfront (one per settlement)", actor=actor(kid))
    if lots_used(s) + b.lots > 36 * s.districts:
        raise IllegalOrderError(
            "SC-KM-28", f"{name} has {36 * s.districts - lots_used(s)} free lot(s) and a {kind} needs {b.lots}", actor=actor(kid)
        )
    free = kind in FREE_HOUSES and not (k.builds_turn == turn and k.free_house_used)
    if not free:
        _limit(k, turn, "buildings")
    pay_bp(k, b.bp, turn, f"a {kind} in {name}", "SC-KM-31")
    _counters(k, turn)
    if free:
        k.free_house_used = True
    else:
        _count(k, turn, "buildings")
    s.buildings[kind] = s.buildings.get(kind, 0) + 1
    s.buildings = dict(sorted(s.buildings.items()))
    km.stats.buildings_built += 1
    if b.unrest:
        add_unrest(k, b.unrest)
    ledger.emit(
        SYS,
        "BuildingConstructed",
        actor(kid),
        ("SC-KM-28", "SC-KM-31", "SC-KM-17"),
        total=b.bp,
        outcome=kind,
        settlement=name,
        treasury_after=k.treasury,
        unrest_after=k.unrest,
        counted=not free,
    )


def size_milestones(world: World, kid: str, ledger: Ledger) -> None:
    """SC-KM-27: when Size reaches 11, 26, 51, 101 and 201, Fame or Infamy (ruler's choice) +1."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    for m in (11, 26, 51, 101, 201):
        if size_of(k) >= m and m not in k.milestones:
            k.milestones.append(m)
            if k.milestone_choice == "infamy":
                change_infamy(k, 1)
            else:
                change_fame(k, 1)
            ledger.emit(
                SYS,
                "SizeMilestoneReached",
                actor(kid),
                ("SC-KM-27",),
                total=1,
                outcome=f"{k.milestone_choice} +1",
                size=m,
            )


