"""The legality of a day's plan (RES-CV-24): what a convoy can do (``legal_orders``) and whether a plan
breaks a rule (``check``)."""

from __future__ import annotations

from typing import Any

import msgspec

from sim.config import CvConfig
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.hexmap import HexMap
from sim.rules.cv.orders import resolve_purchase
from sim.rules.cv.stats import (
    EXTRA_HOURS_MENU,
    FORAGE_PER_SCOUT,
    JOBS,
    MAX_EXTRA_HOURS,
    PROVISIONS_PER_STORES,
    WAGON_NAMES,
    WAGON_TYPES,
    active,
    cargo_capacity,
    cargo_used,
    consumption,
    drivers,
    in_settlement,
    max_wagons,
    stores_units,
    traveler_capacity,
    wagon_hp,
    wagon_type,
)
from sim.state.cv import Convoy, DayPlan
from sim.world import World

__all__ = [
    "DayMenu",
    "can_move",
    "can_move_ignoring_drivers",
    "check",
    "legal_orders",
    "mobility",
    "purchase_options",
]


# ---- legal orders ---------------------------------------------------------------------------


def can_move(c: Convoy, now: int) -> tuple[bool, str, str]:
    """(able, clause, reason) — whether the convoy can set out at all today."""
    if c.status != "travelling":
        return False, "RES-CV-24", f"the convoy has {c.status}"
    if c.hp <= 0:
        return False, "SC-CV-10", "a caravan at 0 hit points cannot move until repaired"
    if c.condition == "exhausted":
        return False, "CV-TRAV-06", "an exhausted caravan cannot move"
    if drivers(c, now) < len(c.wagons):
        return False, "SC-CV-13", f"{len(c.wagons)} wagons need {len(c.wagons)} drivers; {drivers(c, now)} assigned"
    if c.next_hex is None:
        return False, "RES-CV-24", "no route ahead"
    return True, "", ""


def mobility(c: Convoy, now: int, plan: DayPlan | None = None, cfg: CvConfig | None = None) -> tuple[bool, str, str]:
    """:func:`can_move` once the plan's wagon abandoned, job change and wagon purchases are made."""
    bought = 0 if plan is None else sum(1 for b in plan.purchases if b.startswith("wagon:"))
    if plan is None or not (plan.assignments or plan.abandon or bought):
        return can_move(c, now)
    base = can_move_ignoring_drivers(c)
    if not base[0]:
        return base
    cfg = cfg or CvConfig()
    n_drivers = drivers(c, now)
    n_wagons = len(c.wagons)
    if plan.abandon:
        ws = [x for x in c.wagons if x.kind == plan.abandon]
        if not ws:
            return False, "RES-CV-24", f"no {plan.abandon} wagon to abandon"
        w = ws[-1]
        n_wagons -= 1
        if c.hp - wagon_hp(w, cfg) <= 0:
            return False, "SC-CV-10", "abandoning that wagon leaves the caravan at 0 hit points"
        overflow = len(c.travelers) - (traveler_capacity(c, cfg) - wagon_type(w.kind, cfg).travelers)
        non_drivers = sum(1 for t in c.travelers if t.job != "driver")
        n_drivers -= max(0, overflow - non_drivers)
    for assign in plan.assignments:
        tid, _, job = assign.partition(":")
        t = next((x for x in c.travelers if x.id == tid), None)
        if t is not None and t.suspended_until <= now:
            if job == "driver" and t.job != "driver":
                n_drivers += 1
            elif job != "driver" and t.job == "driver":
                n_drivers -= 1
    n_wagons += bought
    if n_drivers < n_wagons:
        return False, "SC-CV-13", f"{n_wagons} wagons need {n_wagons} drivers; {n_drivers} assigned"
    return True, "", ""


def can_move_ignoring_drivers(c: Convoy) -> tuple[bool, str, str]:
    if c.status != "travelling":
        return False, "RES-CV-24", f"the convoy has {c.status}"
    if c.hp <= 0:
        return False, "SC-CV-10", "a caravan at 0 hit points cannot move until repaired"
    if c.condition == "exhausted":
        return False, "CV-TRAV-06", "an exhausted caravan cannot move"
    if c.next_hex is None:
        return False, "RES-CV-24", "no route ahead"
    return True, "", ""


def _village_ahead(hm: HexMap, c: Convoy, reach: int = 4) -> bool:
    end = min(len(c.path), c.path_pos + 1 + reach)
    for i in c.path[c.path_pos + 1 : end]:
        if hm.hexes[i].settlement and i != c.destination:
            return True
    return False


def purchase_options(world: World, c: Convoy) -> list[str]:
    """What a convoy stationed in a settlement may buy today (RES-CV-11, SC-CV-05/06, RES-CV-01/23)."""
    cfg = world.config.cv
    out: list[str] = []
    free = cargo_capacity(c, cfg) - cargo_used(c)
    # food stores: fill the free cargo space, within the purse (ceil((p + 10n)/10) = ceil(p/10) + n)
    n = min(free, c.gp // cfg.stores_cost_gp if cfg.stores_cost_gp else free)
    if n >= 1:
        out.append(f"stores:{n}")
    wainwrights = len(active(c, "wainwright", world.now))
    if wainwrights and free >= 1 and c.gp >= cfg.repair_materials_cost_gp:
        k = min(free, 2 * wainwrights, c.gp // cfg.repair_materials_cost_gp)
        out.append(f"repair:{k}")
    if len(c.wagons) < max_wagons(c, cfg):
        for kind in sorted(WAGON_TYPES):
            if wagon_type(kind, cfg).cost <= c.gp:
                out.append(f"wagon:{kind}")
    if any(not w.axles for w in c.wagons) and c.gp >= cfg.axles_cost_gp:
        out.append("axles")
    return out


class DayMenu(list[DayPlan]):
    """The list :func:`legal_orders` returns: a plain list of plans, in the menu's order, that also
    says how it was made (``runs``): for each group of plans that differ only in their movement
    (the same scouts' task, crew care, purchase, job change and abandoned wagon), the index of its
    first plan and the movements ``(move, night, extra, halt)`` of its plans, in order. A policy may
    read it to score each group's other orders once (only while the list is as it was made: check
    ``len``)."""

    __slots__ = ("runs", "size")

    runs: tuple[tuple[int, tuple[tuple[str, bool, int, bool], ...]], ...]
    size: int


_MOVE_REST = ("rest", False, 0, False)
_MOVE_REPAIR = ("repair", False, 0, False)
_TRAVEL = tuple(("travel", False, k, False) for k in EXTRA_HOURS_MENU)
_NIGHT = ("travel", True, 0, False)
_HALT = ("travel", False, 0, True)
# the movements a group may offer: (could move, a village ahead, repairs offered) -> moves
_MOVES: dict[tuple[bool, bool, bool], tuple[tuple[str, bool, int, bool], ...]] = {
    (ok, ahead, rep): ((*_TRAVEL, *((_HALT,) if ahead else ()), _NIGHT) if ok else ()) + (_MOVE_REST,)
    + ((_MOVE_REPAIR,) if rep else ())
    for ok in (False, True) for ahead in (False, True) for rep in (False, True)
}
# menus already made, by their groups (the plans are frozen: a menu is shared, its list is not)
_MENUS: dict[tuple[Any, ...], tuple[tuple[DayPlan, ...], tuple[tuple[int, tuple[tuple[str, bool, int, bool], ...]], ...]]] = {}
_MAX_MENUS = 1024
# the plans of one group, by the group (menus share them)
_GROUPS: dict[tuple[str, str, str, bool, str, tuple[bool, bool, bool]], tuple[DayPlan, ...]] = {}


def legal_orders(world: World, cid: str) -> list[DayPlan]:
    """The whole-day plans offered to a convoy now (at the start of its travel slot, RES-CV-24).

    The list is the product of: the movement (travel 12 h by day with a forced march of 0, 1, 2, 3,
    4, 6, 9 or 12 extra hours, by day halting at the next settlement, by night; rest; a repair day),
    the scouts' task (forage or scout), one crew-care action (none, double rations, a gift of trade
    goods or treasure), one purchase when stationed in a settlement, and one job change (only offered
    when the wagons lack drivers). Purchases offer one amount (fill the cargo space). This is the
    policies' menu, not a rule: :func:`check` accepts any amount and any forced march the rules
    allow, and several purchases, gifts and job changes a day, with double rations or without.

    The list is a :class:`DayMenu` (a list that also names its groups of plans)."""
    c = world.cv_state().convoy(cid)
    now = world.now
    if c.status != "travelling":
        return []
    cfg = world.config.cv
    hm = world.map
    assigns = [""]
    abandons = [""]
    if drivers(c, now) < len(c.wagons):
        for t in sorted(c.travelers, key=lambda t: t.id):
            if t.can_drive and t.job != "driver" and not t.unpaid and t.suspended_until <= now and now - t.job_since >= 24:
                assigns.append(f"{t.id}:driver")
                break
        if len(c.wagons) > 1:
            abandons += sorted({w.kind for w in c.wagons})
    scouts = len(active(c, "scout", now))
    village = in_settlement(hm, c)
    buys = [""] + (purchase_options(world, c) if village else [])
    g = c.gifts + 1
    cares = ["", "double"]
    if c.cargo.get("trade_goods", 0) >= g:
        cares.append("gift:trade_goods")
    if c.cargo.get("treasure", 0) >= g:
        cares.append("gift:treasure")
    cons = consumption(c, now, cfg)
    repair_ok = (bool(active(c, "wainwright", now)) and c.hp < c.max_hp and not c.starving)
    has_repair = c.cargo.get("repair", 0) > 0
    ahead = _village_ahead(hm, c)
    forages = (False, True) if scouts else (False,)
    # whether the convoy can set out as it stands: mobility() of a plan without a job change, an
    # abandoned wagon or a wagon bought (each such group below) is exactly can_move()
    plain_ok: bool | None = None
    # the menu's groups of plans, each (assign, abandon, buy, forage, care, its movements' key)
    groups: list[tuple[str, str, str, bool, str, tuple[bool, bool, bool]]] = []
    combos = [(a, "") for a in assigns] + [("", ab) for ab in abandons if ab]
    for assign, abandon in combos:
        after = c
        if abandon:  # the wagon is abandoned before the day's purchase (ENG-CV-13): offer what is still legal
            after = msgspec.msgpack.decode(msgspec.msgpack.encode(c), type=Convoy)
            after.wagons.remove([x for x in after.wagons if x.kind == abandon][-1])
        for buy in buys:
            if buy and abandon:
                try:
                    _check_purchase(cfg, after, buy, DayPlan(buy=buy, abandon=abandon))
                except IllegalOrderError:
                    continue
            if assign or abandon or buy.startswith("wagon:"):
                ok = mobility(c, now, DayPlan(assign=assign, buy=buy, abandon=abandon), cfg)[0]
            else:
                if plain_ok is None:
                    plain_ok = can_move(c, now)[0]
                ok = plain_ok
            mkey = (ok, ahead, repair_ok and (has_repair or buy.startswith("repair:")))
            bought = int(buy.split(":")[1]) * PROVISIONS_PER_STORES if buy.startswith("stores:") else 0
            for forage in forages:
                pool = c.provisions + bought + (FORAGE_PER_SCOUT * scouts if forage else 0)
                for care in cares:
                    if care == "double" and (cons == 0 or pool < 2 * cons):
                        continue
                    groups.append((assign, abandon, buy, forage, care, mkey))
    key = tuple(groups)
    menu = _MENUS.get(key)
    if menu is None:
        menu = _make_menu(groups)
        if len(_MENUS) >= _MAX_MENUS:
            _MENUS.clear()
        _MENUS[key] = menu
    out = DayMenu(menu[0])
    out.runs = menu[1]
    out.size = len(menu[0])
    return out


def _make_menu(groups: list[tuple[str, str, str, bool, str, tuple[bool, bool, bool]]]
               ) -> tuple[tuple[DayPlan, ...], tuple[tuple[int, tuple[tuple[str, bool, int, bool], ...]], ...]]:
    """The plans of the menu's groups, in order, and the runs of :class:`DayMenu`."""
    plans: list[DayPlan] = []
    runs: list[tuple[int, tuple[tuple[str, bool, int, bool], ...]]] = []
    for group in groups:
        made = _GROUPS.get(group)
        if made is None:
            assign, abandon, buy, forage, care, mkey = group
            gift = care.split(":")[1] if care.startswith("gift:") else ""
            double = care == "double"
            made = tuple(DayPlan(move=move, night=night, extra=extra, halt=halt, forage=forage, double=double, buy=buy,
                                 gift=gift, assign=assign, abandon=abandon) for move, night, extra, halt in _MOVES[mkey])
            if len(_GROUPS) >= 4 * _MAX_MENUS:
                _GROUPS.clear()
            _GROUPS[group] = made
        runs.append((len(plans), _MOVES[group[5]]))
        plans += made
    return tuple(plans), tuple(runs)


def check(world: World, cid: str, plan: DayPlan) -> None:
    """Raise IllegalOrderError (with its clause) or InvalidOrderError if ``plan``, as convoy ``cid``'s
    plan for the day starting now, breaks a rule."""
    check_day_plan(world, world.cv_state().convoy(cid), plan)


def check_day_plan(world: World, c: Convoy, plan: DayPlan) -> None:
    """:func:`check` for a convoy already in hand (also made by ``resolve_slot_start``)."""
    cfg = world.config.cv
    now = world.now
    hm = world.map
    if plan.move not in ("travel", "rest", "repair"):
        raise InvalidOrderError(f"{c.key}: unknown move {plan.move!r} (expected travel, rest or repair)")
    if plan.extra < 0:
        raise InvalidOrderError(f"{c.key}: extra hours must be 0 or more, not {plan.extra}")
    if plan.extra > MAX_EXTRA_HOURS:
        raise IllegalOrderError("RES-CV-24", f"{plan.extra} extra hours do not fit in the day: a forced march ends before the "
                                f"next day's travel slot ({MAX_EXTRA_HOURS} extra hours at most)", order=plan.label(), actor=c.key)
    if c.status != "travelling":
        raise IllegalOrderError("RES-CV-24", f"the convoy has {c.status}", order=plan.label(), actor=c.key)
    changed: set[str] = set()
    for assign in plan.assignments:  # SC-CV-03: each traveler may change jobs once 24 hours have passed
        tid, _, job = assign.partition(":")
        t = next((x for x in c.travelers if x.id == tid), None)
        if t is None or job not in JOBS:
            raise InvalidOrderError(f"{c.key}: cannot read job change {assign!r} (traveler:job)")
        if now - t.job_since < 24 or tid in changed:
            raise IllegalOrderError("SC-CV-03", f"{tid} changed jobs less than 24 hours ago", order=plan.label(), actor=c.key)
        if job == "driver" and not t.can_drive:
            raise IllegalOrderError("SC-CV-07", f"{tid} cannot drive", order=plan.label(), actor=c.key)
        changed.add(tid)
    if plan.abandon:
        if not any(w.kind == plan.abandon for w in c.wagons):
            raise InvalidOrderError(f"{c.key}: no {plan.abandon!r} wagon to abandon")
        if len(c.wagons) == 1:
            # resolution: ENG-CV-09
            raise IllegalOrderError("RES-CV-24", "a caravan does not abandon its last wagon", order=plan.label(), actor=c.key)
    purchases = plan.purchases
    if purchases:
        if not in_settlement(hm, c):
            raise IllegalOrderError("RES-CV-11", "purchases are made in a settlement", order=plan.label(), actor=c.key)
        # RES-CV-15: a day may hold several purchases, made in order: each is checked on the caravan as
        # the earlier ones leave it (a copy: nothing is bought here)
        copy = len(purchases) > 1 or bool(plan.abandon)
        sim = msgspec.msgpack.decode(msgspec.msgpack.encode(c), type=Convoy) if copy else c
        if plan.abandon:
            # the abandoned wagon is gone before the day's purchases (ENG-CV-13): axles are not fitted to it
            sim.wagons.remove([x for x in sim.wagons if x.kind == plan.abandon][-1])
        scratch = Ledger(keep=False)
        for i, buy in enumerate(purchases):
            _check_purchase(cfg, sim, buy, plan)
            if i + 1 < len(purchases):
                resolve_purchase(world, sim, buy, scratch)
    # gifts (CV-UNR-08, "at any time", RES-CV-24): any number, each one more cargo unit than the last
    # (RES-CV-16), alongside double rations or anything else
    gifts = plan.gifts
    given = dict(c.cargo) if gifts else c.cargo
    counter = c.gifts
    for gift in gifts:
        if gift not in ("trade_goods", "treasure"):
            raise InvalidOrderError(f"{c.key}: a gift is trade_goods or treasure, not {gift!r}")
        need = 1 + counter
        if given.get(gift, 0) < need:
            raise IllegalOrderError("RES-CV-16", f"the next gift costs {need} cargo units of {gift}; "
                                    f"the caravan carries {given.get(gift, 0)}", order=plan.label(), actor=c.key)
        given[gift] = given.get(gift, 0) - need
        counter += 1
    if plan.forage and not active(c, "scout", now):
        raise IllegalOrderError("CV-PROV-02", "no scout to forage", order=plan.label(), actor=c.key)
    if plan.move == "repair":
        if not active(c, "wainwright", now):
            raise IllegalOrderError("RES-CV-23", "repairs need a wainwright", order=plan.label(), actor=c.key)
        if c.starving:
            raise IllegalOrderError("CV-REST-04", "a starving caravan cannot be repaired", order=plan.label(), actor=c.key)
        if c.cargo.get("repair", 0) == 0 and not any(b.startswith("repair:") for b in purchases):
            raise IllegalOrderError("RES-CV-23", "repairs need repair materials", order=plan.label(), actor=c.key)
    if plan.move == "travel":
        ok, clause, reason = mobility(c, now, plan, cfg)
        if not ok:
            raise IllegalOrderError(clause, reason, order=plan.label(), actor=c.key)


def _check_purchase(cfg: CvConfig, c: Convoy, buy: str, plan: DayPlan) -> None:
    """One purchase of the day's plan, against the caravan as it stands (RES-CV-11, SC-CV-05/06/09,
    RES-CV-01/23)."""
    what, _, arg = buy.partition(":")
    if what == "stores":
        n = _int(arg, buy, c)
        if n * cfg.stores_cost_gp > c.gp:
            raise IllegalOrderError("RES-CV-11", f"{n} stores cost {n * cfg.stores_cost_gp} gp; the purse holds {c.gp}",
                                    order=plan.label(), actor=c.key)
        if stores_units(c.provisions + n * PROVISIONS_PER_STORES) + sum(c.cargo.values()) > cargo_capacity(c, cfg):
            raise IllegalOrderError("SC-CV-09", "the stores would exceed the cargo capacity", order=plan.label(), actor=c.key)
    elif what == "repair":
        n = _int(arg, buy, c)
        if n * cfg.repair_materials_cost_gp > c.gp:
            raise IllegalOrderError("RES-CV-23", "not enough gold for the repair materials", order=plan.label(), actor=c.key)
        if cargo_used(c) + n > cargo_capacity(c, cfg):
            raise IllegalOrderError("SC-CV-09", "the repair materials would exceed the cargo capacity",
                                    order=plan.label(), actor=c.key)
    elif what == "wagon":
        if arg not in WAGON_TYPES:
            raise InvalidOrderError(f"{c.key}: unknown wagon kind {arg!r}")
        if len(c.wagons) >= max_wagons(c, cfg):
            raise IllegalOrderError("SC-CV-05", f"a caravan holds at most {max_wagons(c, cfg)} wagons",
                                    order=plan.label(), actor=c.key)
        if wagon_type(arg, cfg).cost > c.gp:
            raise IllegalOrderError("SC-CV-05", f"not enough gold for the {WAGON_NAMES[arg]} ({wagon_type(arg, cfg).cost} gp; "
                                    f"the purse holds {c.gp})", order=plan.label(), actor=c.key)
    elif what == "axles":
        if all(w.axles for w in c.wagons):
            raise IllegalOrderError("RES-CV-01", "every wagon already has improved axles", order=plan.label(), actor=c.key)
        if cfg.axles_cost_gp > c.gp:
            raise IllegalOrderError("RES-CV-01", "not enough gold for improved axles", order=plan.label(), actor=c.key)
    else:
        raise InvalidOrderError(f"{c.key}: unknown purchase {buy!r}")


def _int(arg: str, buy: str, c: Convoy) -> int:
    try:
        n = int(arg)
    except ValueError:
        raise InvalidOrderError(f"{c.key}: purchase {buy!r} needs a whole number of units") from None
    if n < 1:
        raise InvalidOrderError(f"{c.key}: purchase {buy!r} needs at least one unit")
    return n
