"""Trade edicts (*édit commercial*, KM-TRADE): the trade route (*route commerciale*) and its three
checks on arrival; with caravans, the merchants travel as a convoy through the LINK-04 hooks.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.hexmap import ROAD_LEVEL
from sim.paths import cheapest_path
from sim.rules.km.hooks import NO_HOOKS, KmHooks
from sim.rules.km.specials import ROUTE_BUILDINGS
from sim.rules.km.statistics import (
    add_unrest,
    change_fame,
    count_buildings,
    count_improvements,
    emit_check,
    kingdom_check,
    settlement,
    settlement_mods,
    size_of,
    stats,
)
from sim.rules.km.tables import SYS, actor, km_terrain
from sim.state.km import ROUTE_TYPES, Kingdom, KmWorld, TradeEdict, TradeRoute

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "resolve_trade",
    "route_days",
    "route_weight",
    "trade_arrival",
    "trade_arrivals",
    "trade_dc",
    "trade_investment",
    "trade_lost",
    "trade_path",
    "trade_route",
    "type_bonus",
]


# =================================================================================================
# Trade edicts (KM-TRADE)
# =================================================================================================


def route_weight(world: World, h: int, pier: bool, waterfront: bool) -> tuple[int, str] | None:
    """RES-KM-18: (weight in half hexes, category) of one route hex, or None if not allowed."""
    hx = world.map.hexes[h]
    lvl = hx.road_level
    if lvl >= ROAD_LEVEL["highway"]:
        return 1, "highway"
    if lvl >= ROAD_LEVEL["road"]:
        return 2, "road"
    if pier and hx.river:
        return 2, "river"
    if waterfront and hx.is_water:
        return 1, "water"
    if pier and hx.coast:
        return 2, "coastal"
    t = km_terrain(hx.terrain)
    if t == "plains":
        return 4, "plains"
    if t == "desert":
        return 4, "desert"
    return None


def route_days(world: World, path: list[int], cats: list[str], start: int) -> Fraction:
    """KM-TRADE-06 / RES-KM-20: Σ 1/rate over the path (road, upstream river, plains, desert,
    highway 1 hex/day; coast 2; water and downstream river 4)."""
    days = Fraction(0)
    prev = start
    for h, cat in zip(path, cats):
        if cat == "water":
            days += Fraction(1, 4)
        elif cat == "coastal":
            days += Fraction(1, 2)
        elif cat == "river":
            downstream = world.map.hexes[prev].river_to == h
            days += Fraction(1, 4) if downstream else Fraction(1)
        else:
            days += 1
        prev = h
    return days


def trade_path(world: World, origin_hex: int, dest_hex: int, pier: bool, waterfront: bool) -> list[int] | None:
    """The least-cost path by KM-TRADE-04 weights (hexes after the origin's, destination included)."""
    got = trade_route(world, origin_hex, dest_hex, pier, waterfront)
    return None if got is None else got[0]


def trade_route(world: World, origin_hex: int, dest_hex: int, pier: bool, waterfront: bool) -> tuple[list[int], int] | None:
    """:func:`trade_path` and its weight in half hexes (RES-KM-18: the sum of its hexes'
    ``route_weight``; whole numbers, so the search's float total is exact)."""

    def cost(h: int) -> float | None:
        w = route_weight(world, h, pier, waterfront)
        return None if w is None else float(w[0])

    # route_weight reads the hex alone (roads included): the key needs only the two flags
    got = cheapest_path(world.map, origin_hex, dest_hex, ("km-trade", pier, waterfront),
                        lambda: [cost(h) for h in range(len(world.map.hexes))], hex_cost=cost)
    if got is None:
        return None
    return got[0][1:], int(got[1])


def type_taken(km: KmWorld, kid: str, typ: str) -> bool:
    """RES-KM-24: taken from issue until the expedition fails or the route expires."""
    return any(r.kingdom == kid and r.type == typ and r.status in ("travelling", "established") for r in km.routes)


def check_trade(
    world: World, kid: str, o: TradeEdict, hooks: KmHooks = NO_HOOKS
) -> tuple[int, list[int], list[str], int]:
    """Legality of a Trade edict; returns (origin hex, path, categories, TRL halves)."""
    km = world.km_state()
    k = km.kingdoms[kid]
    if o.partner == kid or o.partner not in km.kingdoms:
        raise InvalidOrderError(f"trade partner {o.partner!r}: expected another kingdom")
    if o.type not in ROUTE_TYPES:
        raise InvalidOrderError(f"trade route type {o.type!r}: expected one of {', '.join(ROUTE_TYPES)}")
    src = settlement(k, o.origin)
    if src is None:
        raise IllegalOrderError("KM-TRADE-02", f"the origin {o.origin!r} is not a settlement of {kid}", actor=actor(kid))
    dst = settlement(km.kingdoms[o.partner], o.destination)
    if dst is None:
        raise IllegalOrderError("KM-TRADE-02", f"the destination {o.destination!r} is not a settlement of {o.partner}", actor=actor(kid))
    if type_taken(km, kid, o.type):
        raise IllegalOrderError("KM-TRADE-14", f"{kid} already has a {o.type} trade route (one per type)", actor=actor(kid))
    route_prerequisites(world, k, src.name, o.type)
    if o.investment < 5:
        raise IllegalOrderError("KM-TRADE-07", f"the first expedition needs at least 5 BP, not {o.investment}", actor=actor(kid))
    if trade_investment(k, o) < 5:
        raise IllegalOrderError(
            "KM-TRADE-07",
            f"the first expedition needs at least 5 BP and the investment is capped by the Treasury ({k.treasury} BP, RES-KM-01)",
            actor=actor(kid),
        )
    pier = src.buildings.get("pier", 0) > 0
    wf = src.buildings.get("waterfront", 0) > 0
    if o.path:
        path = list(o.path[1:] if o.path[0] == src.hex else o.path)
        n = len(world.map.hexes)
        for h in path:
            if not 0 <= h < n:
                raise InvalidOrderError(f"trade path hex {h} is not on the map")
        prev = src.hex
        for h in path:
            if h not in world.map.neighbors(prev):
                raise IllegalOrderError(
                    "RES-KM-17", f"path hex {list(world.map.coords(h))} is not next to {list(world.map.coords(prev))}", actor=actor(kid)
                )
            prev = h
        if not path or path[-1] != dst.hex:
            raise IllegalOrderError("RES-KM-17", f"the path must end at {o.destination} {list(world.map.coords(dst.hex))}", actor=actor(kid))
    else:
        # resolution: ENG-KM-09
        got = trade_path(world, src.hex, dst.hex, pier, wf)
        if got is None:
            raise IllegalOrderError(
                "KM-TRADE-03", f"no allowed path from {o.origin} to {o.destination} (plains, desert, roads{', rivers, coasts' if pier else ''}{', water' if wf else ''})",
                actor=actor(kid),
            )
        path = got
    if hooks.check_caravan is not None:
        hooks.check_caravan(world, k, src.hex, path)  # --- LINK-04 hook: a road the caravan can travel
    cats: list[str] = []
    halves = 0
    for h in path:
        w = route_weight(world, h, pier, wf)
        if w is None:
            hx = world.map.hexes[h]
            raise IllegalOrderError(
                "KM-TRADE-03",
                f"hex {list(world.map.coords(h))} ({hx.terrain}{', river' if hx.river else ''}{', coast' if hx.coast else ''}) is not allowed on a trade route from {o.origin}",
                actor=actor(kid),
            )
        halves += w[0]
        cats.append(w[1])
    return src.hex, path, cats, halves


def trade_investment(k: Kingdom, o: TradeEdict) -> int:
    """RES-KM-01: the investment asked for, capped by the Treasury at the moment of the edict (0 if it
    is not positive). KM-TRADE-07 then needs at least 5 BP of it."""
    return min(o.investment, max(0, k.treasury))


def route_prerequisites(world: World, k: Kingdom, origin: str, typ: str) -> None:
    """KM-TRADE-15…19, RES-KM-24/25: buildings (and the Food surplus) a route type needs."""
    s = settlement(k, origin)
    assert s is not None
    if typ == "food":
        if not (s.buildings.get("granary", 0) and s.buildings.get("stockyard", 0)):
            raise IllegalOrderError("KM-TRADE-16", f"a Food route needs a Granary and a Stockyard in {origin}", actor=actor(k.id))
        raw = stats(world, k).raw_consumption
        if raw >= 0:
            raise IllegalOrderError(
                "RES-KM-25", f"Food can be exported only with a surplus: raw Consumption is {raw}, not below 0", actor=actor(k.id)
            )
    elif typ == "goods":
        if not s.buildings.get("guildhall", 0):
            raise IllegalOrderError("KM-TRADE-17", f"a Goods route needs a Guildhall in {origin}", actor=actor(k.id))
    elif typ == "luxuries":
        if not s.buildings.get("luxury_store", 0):
            raise IllegalOrderError("KM-TRADE-18", f"a Luxuries route needs a Luxury Store in {origin}", actor=actor(k.id))


def type_bonus(world: World, k: Kingdom, origin: str, typ: str) -> int:
    """KM-TRADE-16…19: the route type's Economy bonus."""
    # implements: KM-TRADE-19
    if typ in ROUTE_BUILDINGS:
        return count_buildings(k, ROUTE_BUILDINGS[typ], origin) // 10
    if typ == "food":
        return (count_improvements(k, "farm") + count_improvements(k, "fishery")) // 10
    n = count_improvements(k, "quarry") + count_improvements(k, "sawmill")
    s = settlement(k, origin)
    if s is not None and s.buildings.get("foundry", 0):
        n += count_improvements(k, "mine")
    return n // 10


def resolve_trade(
    world: World, kid: str, o: TradeEdict, dice: Dice, ledger: Ledger, *, hooks: KmHooks = NO_HOOKS
) -> TradeRoute:
    """KM-TRADE-02…07 / RES-KM-17…21: trace the route, pay the investment, send the merchants. The
    three checks follow at once if they arrive in the issue turn (RES-KM-20). When caravans are enabled
    the merchants travel as a convoy under the CV rules instead (LINK-04, ``hooks.trade_caravan`` and
    ``hooks.caravan_set_out``): ``convoy_arrivals``."""
    km = world.km_state()
    k = km.kingdoms[kid]
    origin_hex, path, cats, halves = check_trade(world, kid, o, hooks)
    asked = o.investment
    invest = trade_investment(k, o)
    convoy = hooks.trade_caravan is not None  # LINK-04: with caravans, the merchants travel as one
    expedition = None
    if convoy:
        assert hooks.trade_caravan is not None
        cid = f"trade-{kid}-{km.next_id}"
        expedition = hooks.trade_caravan(world, k, cid, origin_hex, path, invest)  # --- LINK-04 hook
    trl = Fraction(halves, 2)
    rm = math.floor(trl / 10)
    lm = max(0, math.floor(size_of(k) - trl))
    days = route_days(world, path, cats, origin_hex)
    per = world.config.km.days_per_turn
    arrival = km.turn + max(0, math.ceil(days / per) - 1)
    k.treasury -= invest
    k.special_turn = km.turn
    km.stats.edicts_trade += 1
    route = TradeRoute(
        id=km.new_id(),
        kingdom=kid,
        partner=o.partner,
        origin=o.origin,
        destination=o.destination,
        type=o.type,
        path=path,
        trl_halves=halves,
        rm=rm,
        lm=lm,
        investment=invest,
        k=invest // 5,
        issue_turn=km.turn,
        arrival_turn=-1 if convoy else arrival,
        days=str(days),
    )
    if expedition is not None:
        assert hooks.caravan_set_out is not None
        hooks.caravan_set_out(world, expedition)  # --- LINK-04 hook
        route.convoy = expedition.id
        route.set_out = world.now
    km.routes.append(route)
    ledger.emit(
        SYS,
        "TradeEdictIssued",
        actor(kid),
        ("KM-GEN-01", "KM-GEN-02", "KM-TRADE-01", "KM-TRADE-02", "KM-TRADE-03", "KM-TRADE-04", "KM-TRADE-05",
         "KM-TRADE-06", "KM-TRADE-07", "KM-TRADE-15", "RES-KM-17", "RES-KM-18", "RES-KM-19", "RES-KM-20", "RES-KM-21",
         "RES-KM-24", "RES-KM-39"),
        total=invest,
        outcome=o.type,
        investment_asked=asked,
        route=route.id,
        partner=o.partner,
        origin=o.origin,
        destination=o.destination,
        path=[list(world.map.coords(h)) for h in path],
        categories=cats,
        trl=str(trl),
        rm=rm,
        lm=lm,
        days=str(days),
        arrival_turn=route.arrival_turn,
        k=route.k,
        treasury_after=k.treasury,
        convoy=route.convoy,
    )
    if expedition is not None:
        ledger.emit(
            SYS,
            "TradeCaravanSetOut",
            actor(kid),
            ("LINK-04", "RES-KM-21"),
            total=route.k,
            outcome=expedition.id,
            route=route.id,
            provisions=expedition.provisions,
            wagons=[w.kind for w in expedition.wagons],
        )
    elif arrival == km.turn:
        trade_arrival(world, route, dice, ledger)
    return route


def trade_arrivals(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-20: merchants arriving this turn make their checks at the start of the Edict phase."""
    km = world.km_state()
    for r in km.routes:
        if r.kingdom == kid and r.status == "travelling" and r.convoy is None and r.arrival_turn == km.turn and r.issue_turn < km.turn:
            trade_arrival(world, r, dice, ledger)


def trade_dc(world: World, r: TradeRoute) -> tuple[int, list[tuple[str, int]]]:
    """KM-TRADE-08: Control DC + origin Corruption + RM + LM − origin Productivity."""
    km = world.km_state()
    k = km.kingdoms[r.kingdom]
    s = settlement(k, r.origin)
    m = settlement_mods(world, k, s) if s is not None else {"corruption": 0, "productivity": 0}
    terms = [
        ("Control DC", stats(world, k).control_dc),
        (f"{r.origin} Corruption", m["corruption"]),
        ("RM", r.rm),
        ("LM", r.lm),
        (f"{r.origin} Productivity", -m["productivity"]),
    ]
    return sum(v for _, v in terms), terms


def trade_arrival(world: World, r: TradeRoute, dice: Dice, ledger: Ledger, *, k_units: int | None = None) -> str:
    """KM-TRADE-08…13, RES-KM-22/23: the Economy, Loyalty and Stability checks and the outcome band.
    ``k_units`` (LINK-04): blocks of 5 BP left after the convoy's losses; 0 → as KM-TRADE-09."""
    km = world.km_state()
    if r.kingdom not in km.kingdoms:
        return "lost"
    k = km.kingdoms[r.kingdom]
    blocks = r.k if k_units is None else k_units
    if k_units is not None and blocks <= 0:
        return trade_lost(world, r, ledger, reason="nothing left to sell", checks=False)
    dc, terms = trade_dc(world, r)
    st = stats(world, k)
    succ = 0
    for attr in ("economy", "loyalty", "stability"):
        cr, mods = kingdom_check(dice, k, attr, dc, st)
        succ += cr.success
        emit_check(
            ledger, "TradeCheckRolled", r.kingdom, ("KM-TRADE-08", "SC-KM-03", "SC-KM-04"), cr, mods,
            route=r.id, attribute=attr, dc_terms=[[n, v] for n, v in terms],
        )
    r.successes = succ
    if succ == 0:
        return trade_lost(world, r, ledger, reason="zero successes", checks=True)
    if succ == 1:
        faces = dice.roll(4, blocks) if blocks else []
        gain = sum(faces)
        k.treasury += gain
        r.status = "sold"
        km.stats.trade_sold_elsewhere += 1
        ledger.emit(
            SYS, "TradeGoodsSoldElsewhere", actor(r.kingdom), ("KM-TRADE-10", "RES-KM-22", "RES-KM-24"),
            dice=[(4, f) for f in faces], total=gain, outcome=f"+{gain} BP", route=r.id, treasury_after=k.treasury,
        )
        return "sold elsewhere"
    faces = dice.roll(4, 2 * blocks) if blocks else []
    gain = r.rm + sum(faces)
    k.treasury += gain
    r.status = "established"
    km.stats.trade_routes_established += 1
    r.arrival_turn = km.turn
    r.expiry_turn = km.turn + 12
    r.economy_bonus = 2 if succ == 3 else 1
    r.type_bonus = type_bonus(world, k, r.origin, r.type)
    if succ == 3:
        change_fame(k, 1)
    ledger.emit(
        SYS,
        "TradeRouteEstablished",
        actor(r.kingdom),
        ("KM-TRADE-11", "KM-TRADE-12", "KM-TRADE-13", "KM-TRADE-15", "KM-TRADE-16", "KM-TRADE-17", "KM-TRADE-18",
         "KM-TRADE-19", "RES-KM-22", "RES-KM-23", "RES-KM-24", "RES-KM-25"),
        dice=[(4, f) for f in faces],
        total=gain,
        outcome="great success" if succ == 3 else "established",
        route=r.id,
        type=r.type,
        partner=r.partner,
        economy_bonus=r.economy_bonus,
        type_bonus=r.type_bonus,
        fame=1 if succ == 3 else 0,
        expiry_turn=r.expiry_turn,
        treasury_after=k.treasury,
    )
    return "established"


def trade_lost(world: World, r: TradeRoute, ledger: Ledger, *, reason: str, checks: bool) -> str:
    """KM-TRADE-09: the whole expedition is lost, Fame −1, Unrest +1 (``checks``: after its checks;
    else LINK-04's loss of its caravan, without checks)."""
    km = world.km_state()
    k = km.kingdoms[r.kingdom]
    change_fame(k, -1)
    add_unrest(k, 1)
    r.status = "lost"
    km.stats.trade_expeditions_lost += 1
    ledger.emit(
        SYS,
        "TradeExpeditionLost",
        actor(r.kingdom),
        ("KM-TRADE-09", "RES-KM-24") if checks else ("KM-TRADE-09", "LINK-04"),
        outcome="lost",
        route=r.id,
        reason=reason,
        fame=-1,
        unrest_after=k.unrest,
    )
    return "lost"


