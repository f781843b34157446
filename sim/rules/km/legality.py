"""The legality of the kingdom's orders: ``check`` (raises ``IllegalOrderError`` naming the clause)
and ``legal_orders`` (what a kingdom may order now, slot by slot: what the policies choose from);
``resolve_special`` checks a special edict, then resolves it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sim.errors import IllegalOrderError, InvalidOrderError, RulesError
from sim.events import Ledger
from sim.rules.km.diplomatic import (
    check_diplomatic,
    rebalanceable,
    representative_present,
    resolve_diplomatic,
)
from sim.rules.km.exploration import check_exploration, resolve_exploration
from sim.rules.km.hooks import NO_HOOKS, KmHooks
from sim.rules.km.ordinary import farm_allowed, improvement_cost, limits, lots_used
from sim.rules.km.relations import check_relation_order
from sim.rules.km.specials import kingdom_of
from sim.rules.km.statistics import ruler_vacant, vacant
from sim.rules.km.tables import BUILDINGS, FREE_HOUSES, TERRAIN, actor, km_terrain
from sim.rules.km.trade import (
    check_trade,
    resolve_trade,
    route_prerequisites,
    trade_route,
    type_taken,
)
from sim.rules.km.upkeep_phase import capital_hex
from sim.rules.km.vassalage import check_vassalage, resolve_vassalage
from sim.state.km import (
    HOLIDAY_LEVELS,
    PROMOTION_LEVELS,
    ROUTE_TYPES,
    TAXATION_LEVELS,
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    ExplorationEdict,
    ImprovementOrder,
    Kingdom,
    RelationOrder,
    SlotChoice,
    SpecialEdict,
    TradeEdict,
    VassalageEdict,
)

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "SLOTS",
    "check",
    "frontier_routes",
    "legal_orders",
    "resolve_special",
]


# =================================================================================================
# Special edicts: legality, resolution, candidates
# =================================================================================================


def _check_special(world: World, kid: str, o: SpecialEdict, hooks: KmHooks = NO_HOOKS) -> None:
    """Raise IllegalOrderError (naming the clause) if ``kid`` may not issue ``o`` now."""
    # implements: KM-DIP-01
    km = world.km_state()
    k = kingdom_of(km, kid)
    if k.anarchy:
        raise IllegalOrderError("SC-KM-07", "the kingdom is in anarchy (Unrest 20) and can take no actions", actor=actor(kid))
    if k.special_turn == km.turn:
        raise IllegalOrderError("KM-GEN-02", "a kingdom may issue at most one special edict per turn", order=type(o).__name__, actor=actor(kid))
    if k.edicts_turn != km.turn:
        raise IllegalOrderError(
            "KM-GEN-02", "a special edict comes only after the Holiday, Improvement, Promotion and Taxation edicts of the turn",
            actor=actor(kid),
        )
    if isinstance(o, DiplomaticEdict):
        check_diplomatic(world, kid, o)
    elif isinstance(o, ExplorationEdict):
        check_exploration(world, kid, o)
    elif isinstance(o, TradeEdict):
        check_trade(world, kid, o, hooks)
    elif isinstance(o, VassalageEdict):
        check_vassalage(world, kid, o)
    else:
        raise InvalidOrderError(f"not a special edict: {o!r}")


def resolve_special(
    world: World, kid: str, o: SpecialEdict, dice: Dice, ledger: Ledger, now: int = 0, *, hooks: KmHooks = NO_HOOKS
) -> object:
    """Check a special edict (:func:`check`), then resolve it (KM-GEN-01/02)."""
    _check_special(world, kid, o, hooks)
    if isinstance(o, DiplomaticEdict):
        return resolve_diplomatic(world, kid, o, dice, ledger)
    if isinstance(o, ExplorationEdict):
        return resolve_exploration(world, kid, o, dice, ledger)
    if isinstance(o, TradeEdict):
        return resolve_trade(world, kid, o, dice, ledger, hooks=hooks)
    return resolve_vassalage(world, kid, o, dice, ledger, now=now)


def _is_legal(world: World, kid: str, o: SpecialEdict, hooks: KmHooks = NO_HOOKS) -> bool:
    try:
        _check_special(world, kid, o, hooks)
    except RulesError:
        return False
    return True


def frontier_routes(world: World, kid: str, *, limit: int = 3, length: int = 4) -> list[list[int]]:
    """Candidate exploration routes: from the capital towards the nearest unexplored hexes, then on
    through unexplored neighbours (breadth-first, ties by hex index)."""
    km = world.km_state()
    k = km.kingdoms[kid]
    cap = capital_hex(k)
    if cap is None:
        return []
    nb = world.map.neighbor_table().__getitem__
    states = km.hexes  # (km.explored, read here without a call per hex: the search reads many)
    prev: dict[int, int] = {cap: -1}
    queue = [cap]
    targets: list[int] = []
    qi = 0
    while qi < len(queue) and len(targets) < limit:
        a = queue[qi]
        qi += 1
        for b in nb(a):
            if b in prev:
                continue
            prev[b] = a
            hs = states.get(b)
            if hs is None or not hs.explored:
                targets.append(b)
                if len(targets) >= limit:
                    break
            else:
                queue.append(b)
    out: list[list[int]] = []
    for t in targets:
        path = [t]
        while prev[path[-1]] != cap and prev[path[-1]] != -1:
            path.append(prev[path[-1]])
        path.reverse()
        seen = set(path)
        cur = t
        extra = 0
        while extra < length - 1:
            nxt = [b for b in nb(cur) if b not in seen and not km.explored(b)]
            if not nxt:
                break
            cur = nxt[0]
            seen.add(cur)
            path.append(cur)
            extra += 1
        out.append(path)
    return out


def _legal_specials(world: World, kid: str, hooks: KmHooks = NO_HOOKS) -> list[SpecialEdict]:
    """Candidate legal special edicts for ``kid`` now (each passes :func:`check`)."""
    km = world.km_state()
    k = km.kingdoms[kid]
    if k.anarchy or k.special_turn == km.turn or k.edicts_turn != km.turn:
        return []
    out: list[SpecialEdict] = []
    others = [x for x in km.ids() if x != kid]
    spare = max(0, k.treasury - 4)
    # diplomatic
    if not vacant(k, "grand_diplomat"):
        for t in others:
            if not representative_present(world, kid, t):
                continue
            lvl = km.level(kid, t)
            kinds = {0: ["embassy", "threat"], 1: ["treaty"], 2: ["alliance"]}.get(lvl, [])
            if rebalanceable(km, kid, t) is not None:
                kinds.append("rebalance")
            for kind in kinds:
                skill = "intimidate" if k.skills.get("intimidate", 0) > k.skills.get("diplomacy", 0) else "diplomacy"
                for bribe in sorted({0, min(spare, 5), min(spare, 10)}):
                    out.append(DiplomaticEdict(t, kind, bribe=bribe, skill=skill if kind == "alliance" else "diplomacy"))
    # exploration
    if not vacant(k, "grand_diplomat"):
        for route in frontier_routes(world, kid):
            for months in (1, 2):
                out.append(ExplorationEdict(months=months, route=route))
    # trade (each origin–destination path is traced once per call)
    paths: dict[tuple[int, int, bool, bool], tuple[list[int], int] | None] = {}

    def traced(a: int, b: int, pier: bool, wf: bool) -> tuple[list[int], int] | None:
        key = (a, b, pier, wf)
        if key not in paths:
            paths[key] = trade_route(world, a, b, pier, wf)
        return paths[key]

    invest = sorted({5, 10} & set(range(5, max(0, k.treasury) + 1)))
    for typ in ROUTE_TYPES if invest else ():
        if type_taken(km, kid, typ):
            continue
        origins = []
        for s in k.settlements:
            try:
                route_prerequisites(world, k, s.name, typ)
            except RulesError:
                continue
            origins.append(s)
        for t in others if origins else ():
            best: tuple[int, str, str, list[int]] | None = None
            for s in origins:
                pier = s.buildings.get("pier", 0) > 0
                wf = s.buildings.get("waterfront", 0) > 0
                for d in km.kingdoms[t].settlements:
                    got = traced(s.hex, d.hex, pier, wf)
                    if got is not None and (best is None or got[1] < best[0]):
                        best = (got[1], s.name, d.name, got[0])
            if best is None:
                continue
            for inv in invest:
                out.append(TradeEdict(t, best[1], best[2], typ, inv, path=list(best[3])))
    # vassalage
    small = min(10, spare // 4)
    for t in others:
        tk = km.kingdoms[t]
        if tk.conquered_by == kid and tk.overlord is None:
            for grant in sorted({0, small}):
                out.append(VassalageEdict("subjugation", viceroy=f"Viceroy of {tk.name}", target=t, grant=grant, relation="embassy"))
    cap = capital_hex(k)
    for s in k.settlements:
        if s.hex == cap:
            continue
        ceded = [s.hex] + [h for h in world.map.neighbors(s.hex) if h in k.hexes and h != cap and not any(x.hex == h for x in k.settlements)]
        if len(k.hexes) - len(ceded) >= 3:
            out.append(
                VassalageEdict("new_vassal", viceroy=f"Viceroy of {s.name}", hexes=sorted(ceded), grant=small, relation="treaty",
                               name=f"March of {s.name}")
            )
    # a colony on explored, unclaimed land next to the kingdom (KM-VAS-01)
    owners = km.owners()
    free = sorted({n for h in k.hexes for n in world.map.neighbors(h)
                   if n not in owners and km.explored(n) and not world.map.hexes[n].is_water})
    if free:
        seed = free[0]
        group = [seed] + [n for n in world.map.neighbors(seed) if n in free][:2]
        c, r = world.map.coords(seed)
        out.append(VassalageEdict("colony", viceroy=f"Viceroy of {k.name}'s colony", hexes=sorted(group), grant=small,
                                  relation="embassy", name=f"{k.name} colony [{c},{r}]"))
    return [o for o in out if _is_legal(world, kid, o, hooks)]




# =================================================================================================
# The ordinary slots of the Edict phase: what a kingdom may order now (SC-KM-13…17, LINK-05, KM-REL)
# =================================================================================================


def _funds(world: World, k: Kingdom) -> int:
    km = world.km_state()
    budget = k.construction_budget if k.budget_turn == km.turn else 0
    return k.treasury + budget


def _under_limit(world: World, k: Kingdom, what: str) -> bool:
    km = world.km_state()
    s, b, t, c = limits(k)
    cap = {"settlements": s, "buildings": b, "improvements": t, "claims": c}[what]
    used = k.built.get(what, 0) if k.builds_turn == km.turn else 0
    return cap is None or used < cap


def _envoy_options(world: World, kid: str, hooks: KmHooks) -> list[str]:
    """LINK-05: the kingdoms an envoy may leave for (none there or on the way, a path between capitals,
    ``hooks.envoy_path``); none without the links."""
    km = world.km_state()
    k = km.kingdoms[kid]
    path = hooks.envoy_path
    if path is None:
        return []
    return [t for t in km.ids() if t != kid and not km.stance(kid, t).present
            and not any(e.kingdom == kid and e.target == t and e.status == "travelling" for e in km.envoys)
            and capital_hex(km.kingdoms[t]) is not None and capital_hex(k) is not None
            and path(world, kid, t) is not None]


def _claim_options(world: World, kid: str) -> list[int]:
    km = world.km_state()
    k = km.kingdoms[kid]
    if ruler_vacant(k) or _funds(world, k) < 1 or not _under_limit(world, k, "claims"):
        return []
    owners = km.owners()
    out: set[int] = set()
    for h in k.hexes:
        for n in world.map.neighbors(h):
            if n not in owners and km.explored(n) and not world.map.hexes[n].is_water:
                out.add(n)
    return sorted(out)


def _improvement_options(world: World, kid: str) -> list[ImprovementOrder]:
    k = world.km_state().kingdoms[kid]
    if not _under_limit(world, k, "improvements"):
        return []
    funds = _funds(world, k)
    towns = {s.hex for s in k.settlements}
    out: list[ImprovementOrder] = []
    for h in k.hexes:
        have = k.improvements.get(h, [])
        kinds: list[str] = []
        if not have and h not in towns:
            kinds += ["farm", "fishery", "mine", "quarry", "sawmill"]
        kinds.append("road")
        for kind in kinds:
            cost = improvement_cost(world, h, kind)
            if cost is None or cost > funds:
                continue
            if kind == "road" and world.map.hexes[h].road_level >= 2:
                continue
            if kind in ("farm", "road") and ruler_vacant(k):
                continue
            if kind == "farm":
                try:
                    farm_allowed(world, k, h, [])
                except RulesError:
                    continue
            out.append(ImprovementOrder(h, kind))
    return out


def _district_options(world: World, kid: str) -> list[str]:
    """Settlements that have fewer than 6 free lots and whose district the kingdom can pay."""
    k = world.km_state().kingdoms[kid]
    if ruler_vacant(k):
        return []
    funds = _funds(world, k)
    out = []
    for s in k.settlements:
        cost = TERRAIN[km_terrain(world.map.hexes[s.hex].terrain)][1] or 0
        if 36 * s.districts - lots_used(s) < 6 and cost <= funds:
            out.append(s.name)
    return out


_BUILDING_KINDS = tuple(sorted(BUILDINGS))  # the order a building slot lists them in


def _building_options(world: World, kid: str) -> list[BuildOrder | EmbassyBuildingOrder]:
    km = world.km_state()
    k = km.kingdoms[kid]
    funds = _funds(world, k)
    free = not (k.builds_turn == km.turn and k.free_house_used)
    under = _under_limit(world, k, "buildings")
    out: list[BuildOrder | EmbassyBuildingOrder] = []
    for s in k.settlements:
        free_lots = 36 * s.districts - lots_used(s)
        for kind in _BUILDING_KINDS:
            b = BUILDINGS[kind]
            if b.bp > funds or b.lots > free_lots:
                continue
            if not under and not (free and kind in FREE_HOUSES):
                continue
            if b.water_border and not s.water_border:
                continue
            if kind == "waterfront" and s.buildings.get("waterfront", 0):
                continue
            out.append(BuildOrder(s.name, kind))
    for t in km.ids():
        if t == kid or km.level(kid, t) < 1:
            continue
        if any(e.owner == kid and e.host == t for e in km.embassy_buildings):
            continue
        host = km.kingdoms[t]
        if not host.settlements:
            continue
        for kind in ("mansion", "noble_villa"):
            if BUILDINGS[kind].bp <= funds:
                out.append(EmbassyBuildingOrder(t, host.settlements[0].name, kind))
    return out


def _relation_options(world: World, kid: str) -> list[RelationOrder]:
    km = world.km_state()
    out: list[RelationOrder] = []
    for key in sorted(km.relations):
        r = km.relations[key]
        if kid not in (r.a, r.b):
            continue
        other = r.b if r.a == kid else r.a
        if other not in km.kingdoms:
            continue
        if r.embassy and r.treaty is None and r.alliance is None:
            out.append(RelationOrder("close_embassy", other))
        for which, ag in (("treaty", r.treaty), ("alliance", r.alliance)):
            if ag is None:
                continue
            if not ag.balanced and ag.advantaged != kid:
                out.append(RelationOrder("renegotiate", other, which))
            out.append(RelationOrder("withdraw", other, which))
    return out


def _lose_hex_options(world: World, kid: str) -> list[int]:
    """SC-KM-07: the hexes the leaders may lose to Unrest (not a settlement's, unless only those are left)."""
    k = world.km_state().kingdoms[kid]
    towns = {s.hex for s in k.settlements}
    return [h for h in k.hexes if h not in towns] or list(k.hexes)


# =================================================================================================
# The legality API: legal_orders and check
# =================================================================================================

# each slot of a kingdom's turn, in the order it is asked, with the clause an order outside it breaks
SLOTS: dict[str, str] = {
    "envoy": "LINK-05",
    "claim": "SC-KM-13",
    "improvement": "SC-KM-32",
    "district": "SC-KM-28",
    "building": "SC-KM-31",
    "taxation": "SC-KM-16",
    "holiday": "SC-KM-14",
    "promotion": "SC-KM-15",
    "relation": "KM-REL-06",
    "special": "KM-GEN-02",
    "balance": "KM-REL-08",
    "lose_hex": "SC-KM-07",
}


def legal_orders(world: World, kid: str, *, slot: str | None = "special", hooks: KmHooks = NO_HOOKS) -> list[Any]:
    """What kingdom ``kid`` may order now in one slot of its turn (``SLOTS``; default the special edict):
    envoy targets, hexes to claim, terrain improvements, settlements for a district, buildings (and
    embassy buildings), the Taxation/Holiday/Promotion levels, relation orders, special edicts, a
    treaty's balance, the hex to lose to Unrest. "Nothing" (``None``) is not in the list: the turn
    offers it where a slot may be left empty. ``hooks``: the other systems' part of legality (LINK-04).

    ``slot=None``: every slot's orders at once, in ``SLOTS`` order, each bare value (a hex, a level, a
    name) as a :class:`~sim.state.km.SlotChoice` naming its slot — the form of the one legality API of
    every system (``sim.system.RuleSystem.legal_orders``), where an order alone says what it is."""
    km = world.km_state()
    kingdom_of(km, kid)
    if slot is None:  # in anarchy only the slots SC-KM-07 leaves (see check)
        slots = ("balance", "lose_hex") if km.kingdoms[kid].anarchy else tuple(SLOTS)
        return [o if isinstance(o, _TYPED) else SlotChoice(s, o)
                for s in slots for o in legal_orders(world, kid, slot=s, hooks=hooks)]
    if slot == "special":
        return list(_legal_specials(world, kid, hooks))
    if slot == "envoy":
        return _envoy_options(world, kid, hooks)
    if slot in _OPTIONS:
        return list(_OPTIONS[slot](world, kid))
    if slot in _LEVELS:
        return list(_LEVELS[slot])
    if slot == "balance":
        return ["balanced", "unbalanced"]
    raise InvalidOrderError(f"slot {slot!r}: expected one of {', '.join(SLOTS)}")


_OPTIONS: dict[str, Callable[[World, str], Sequence[Any]]] = {
    "claim": _claim_options,
    "improvement": _improvement_options,
    "district": _district_options,
    "building": _building_options,
    "relation": _relation_options,
    "lose_hex": _lose_hex_options,
}
_LEVELS: dict[str, tuple[str, ...]] = {"taxation": TAXATION_LEVELS, "holiday": HOLIDAY_LEVELS, "promotion": PROMOTION_LEVELS}
# the orders whose type says their slot (a special edict, a relation order, a building…)
_TYPED = (DiplomaticEdict, ExplorationEdict, TradeEdict, VassalageEdict, RelationOrder, ImprovementOrder, BuildOrder,
          EmbassyBuildingOrder)
_SLOT_OF: dict[type, str] = {
    ImprovementOrder: "improvement",
    BuildOrder: "building",
    EmbassyBuildingOrder: "building",
    RelationOrder: "relation",
}


def check(world: World, kid: str, order: Any, *, slot: str | None = None, hooks: KmHooks = NO_HOOKS) -> None:
    """Raise :class:`IllegalOrderError` (naming the clause) if kingdom ``kid`` may not give ``order``
    now, or :class:`InvalidOrderError` for an order naming nothing that exists. A special edict and a
    relation order are checked clause by clause; a bare hex, name or level needs its ``slot``
    (``claim``, ``district``, ``taxation``…), given as ``slot=`` or with the value in a
    :class:`~sim.state.km.SlotChoice`, and is checked against :func:`legal_orders`."""
    km = world.km_state()
    kingdom_of(km, kid)
    if isinstance(order, SlotChoice):
        order, slot = order.value, order.slot
    if isinstance(order, DiplomaticEdict | ExplorationEdict | TradeEdict | VassalageEdict):
        _check_special(world, kid, order, hooks)
        return
    if isinstance(order, RelationOrder):
        check_relation_order(world, kid, order)
        return
    slot = slot or _SLOT_OF.get(type(order))
    if slot is None or slot not in SLOTS:
        raise InvalidOrderError(f"{order!r}: not a kingdom order (a slot is needed: one of {', '.join(SLOTS)})")
    if slot not in ("balance", "lose_hex") and km.kingdoms[kid].anarchy:
        raise IllegalOrderError("SC-KM-07", "the kingdom is in anarchy (Unrest 20) and can take no actions", actor=actor(kid))
    if order not in legal_orders(world, kid, slot=slot, hooks=hooks):
        raise IllegalOrderError(SLOTS[slot], f"{order!r} is not a legal {slot} order for {kid} now", actor=actor(kid))
