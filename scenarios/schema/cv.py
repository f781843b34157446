"""Scenario tables of the caravans (CV) system.

``[[convoys]]`` (one caravan each: statistics, wagons, travelers, cargo, purse, route, policy),
``[[hazards]]`` (RES-CV-06 hazard definitions, SC-CV-14 combats), ``[[hazard_tables]]`` (the d100
tables rolled once per travel day, GEN-06), ``[[cv_events]]`` (level-ups RES-CV-20, Unrest events
CV-UNR-07, scripted hazards) and ``[[cv_jobs]]`` (the circumstance bonuses of jobs, SC-CV-13).

A convoy in a file::

    [[convoys]]
    id = "amber"
    name = "The Amber Caravan"
    policy = "heuristic"                 # random, heuristic or package.module:Class
    origin = "Westgate"                  # a settlement name or [col, row]
    destination = "Eastmarch"
    via = ["Millbrook"]                  # optional waypoints
    offense = 1
    defense = 2
    mobility = 2
    morale = 2                           # SC-CV-01: 1 + 3 extra points at level 1 (sum 7)
    feats = ["fast_caravan"]
    gp = 1500
    provisions = 120
    cargo = { trade_goods = 6, treasure = 1, repair = 2 }
    wagons = [{ kind = "covered" }, { kind = "fortune_teller" }, { kind = "supply", axles = true }]
    travelers = [{ id = "Sandru", job = "driver" }, { id = "guard", job = "guard", count = 2, wage = 10 }]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from scenarios.schema.common import Coord, MapIndex, NonNeg, PolicyOptions, Spec, duration_hours
from scenarios.validate import check_policy
from sim.config import CvConfig
from sim.dice import is_dice_expr
from sim.errors import Problem
from sim.hexmap import TERRAINS
from sim.rules import cv as cr
from sim.state import cv as st

if TYPE_CHECKING:
    from sim.world import World

Stat = Annotated[int, msgspec.Meta(ge=1, le=10)]
WagonKind = Literal["armored", "covered", "fortune_teller", "horse_train", "prisoner", "royal_carriage", "supply"]
Job = Literal[
    "cook", "scout", "wainwright", "driver", "entertainer", "guard", "guide", "hero", "passenger",
    "fortune_teller", "caster", "trader",
]  # fmt: skip
CargoKind = Literal["trade_goods", "treasure", "repair", "other"]
Place = str | Coord  # a settlement name or [col, row]
TERRAIN_NAMES = tuple(t for t in TERRAINS)
FEAT_NAMES = ("fast_caravan", "efficient_consumption", "caravan_toughness", "terrain_mastery", "extra_wagons", "expert_travelers")
POLICIES_BUILTIN = ("random", "heuristic", "lookahead")


class WagonSpec(Spec):
    kind: WagonKind
    axles: bool = False


class TravelerSpec(Spec):
    id: str
    job: Job = "passenger"
    count: Annotated[int, msgspec.Meta(ge=1)] = 1  # several alike: ids "<id>-1", "<id>-2", …
    can_drive: bool = False  # drivers can always drive
    pc: bool = False
    wage: NonNeg = 0  # gp at hiring and monthly (SC-CV-03); 0: not a hired NPC
    spells: dict[str, NonNeg] = {}  # castings per day: goodberry, create_food_and_water, heroes_feast
    caster_level: NonNeg = 0


class ConvoySpec(Spec):
    id: str
    origin: Place
    destination: Place
    name: str = ""
    policy: str = "heuristic"  # heuristic, random, an installed policy, or pkg.mod:Class allowed by --allow-policies
    policy_options: PolicyOptions | None = None  # only for policy = "lookahead"
    via: list[Place] = []
    path: list[Coord] = []  # an explicit route (optional): from origin through every waypoint to destination
    route: Literal["fast", "safe"] = "fast"
    offense: Stat = 1
    defense: Stat = 1
    mobility: Stat = 1
    morale: Stat = 1
    level: Annotated[int, msgspec.Meta(ge=1, le=20)] = 1
    feats: list[str] = []
    gp: NonNeg = 0
    provisions: NonNeg = 0
    unrest: NonNeg = 0
    cargo: dict[CargoKind, NonNeg] = {}
    wagons: list[WagonSpec] = []
    travelers: list[TravelerSpec] = []


class EffectSpec(Spec):
    kind: Literal["damage", "lose_provisions", "lose_cargo", "lose_wagon", "kill_traveler", "suspend_job", "block_travel", "unrest"]
    dice: str = ""
    amount: int = 0
    cargo: Literal["trade_goods", "treasure", "repair", "other", "stores", ""] = ""
    wagon: WagonKind | Literal[""] = ""
    job: Job | Literal[""] = ""
    days: NonNeg = 0  # suspend_job: 0 = for good


class EnemySpec(Spec):
    id: str
    ac: int
    hp: Annotated[int, msgspec.Meta(ge=1)]
    attack: int
    damage: str
    name: str = ""


class HazardSpec(Spec):
    id: str
    check: Literal["security", "resolve", "combat"]
    dc: NonNeg = 0
    name: str = ""
    name_fr: str = ""
    on_fail: list[EffectSpec] = []
    on_success: list[EffectSpec] = []
    enemies: list[EnemySpec] = []
    rounds: Annotated[int, msgspec.Meta(ge=1)] = 5


class BandSpec(Spec):
    lo: int = msgspec.field(name="from")
    hi: int = msgspec.field(name="to")
    hazard: str = ""
    hour: Annotated[int, msgspec.Meta(ge=0, le=12)] = 0  # 0: roll 1d12


class HazardTableSpec(Spec):
    id: str
    bands: list[BandSpec]
    terrains: list[str] = []
    paths: list[Literal["none", "trail", "road", "highway"]] = []
    river: bool | None = None


class EventSpec(Spec):
    day: Annotated[int, msgspec.Meta(ge=1)]  # 1-based day of the campaign
    convoy: str
    kind: Literal["level_up", "unrest", "hazard"]
    feat: str = ""
    morale: NonNeg = 0
    amount: int = 0
    hazard: str = ""
    hour: Annotated[int, msgspec.Meta(ge=0, le=12)] = 0
    note: str = ""


class JobSpec(Spec):
    job: Job
    attack: int = 0
    ac: int = 0
    security: int = 0
    resolve: int = 0


# ---- semantic checks -------------------------------------------------------------------------


def _feat_problems(feats: list[str], c: ConvoySpec, path: str, out: list[Problem], max_w: int | None = None) -> None:
    cfg = CvConfig()
    for j, f in enumerate(feats):
        name, _, arg = f.partition(":")
        if name not in FEAT_NAMES:
            out.append(Problem(f"{path}[{j}]", "a caravan feat (" + ", ".join(FEAT_NAMES) + "; terrain_mastery:<terrain>)", f'"{f}"'))
        elif name == "terrain_mastery" and arg not in TERRAIN_NAMES:
            out.append(Problem(f"{path}[{j}]", "terrain_mastery:<terrain> with a terrain (" + ", ".join(TERRAIN_NAMES) + ")", f'"{f}"'))
        elif name != "terrain_mastery" and arg:
            out.append(Problem(f"{path}[{j}]", f'"{name}" without an argument', f'"{f}"'))
    ec = sum(1 for f in feats if f == "efficient_consumption")
    if ec > 3:
        out.append(Problem(path, "Efficient Consumption at most 3 times (SC-CV-12)", f"{ec} times"))
    ct = sum(1 for f in feats if f == "caravan_toughness")
    if ct:
        if c.defense < 3:
            out.append(Problem(path, "Defense 3 or more for Caravan Toughness (SC-CV-12)", f"Defense {c.defense}"))
        lim = max_w if max_w is not None else cfg.max_wagons
        if ct > lim:
            out.append(Problem(path, f"Caravan Toughness at most {lim} times (the wagon limit, SC-CV-12)", f"{ct} times"))
    tm = [f for f in feats if f.startswith("terrain_mastery:")]
    if len(tm) != len(set(tm)):
        out.append(Problem(path, "Terrain Mastery once per terrain (SC-CV-12)", "a terrain named twice"))


def _place(mi: Any, p: Any, path: str, out: list[Problem]) -> int | None:
    if isinstance(p, str):
        i = mi.settlements.get(p)
        if i is None:
            known = ", ".join(sorted(mi.settlements)) or "none on this map"
            out.append(Problem(path, f"a settlement of the map ({known}) or [col, row]", f'"{p}"'))
        return i
    return mi.coord(tuple(p), path, out)


def _dice_ok(expr: str, path: str, out: list[Problem]) -> None:
    if not is_dice_expr(expr):
        out.append(Problem(path, "a dice expression such as 2d6+1", f'"{expr}"'))


def check(sc: Any, mi: Any) -> list[Problem]:
    """Every semantic problem of the CV tables (references, capacities, tables, dice)."""
    out: list[Problem] = []
    cfg_raw = (sc.config or {}).get("cv", {})
    try:
        cfg = msgspec.convert(cfg_raw, CvConfig)
    except msgspec.ValidationError:
        cfg = CvConfig()
    out += _config_problems(cfg)
    hm = mi.map
    # hazards
    hazard_ids: set[str] = set()
    for k, h in enumerate(sc.hazards):
        p = f"hazards[{k}]"
        if h.id in hazard_ids:
            out.append(Problem(f"{p}.id", "a hazard id used once", f'"{h.id}" again'))
        hazard_ids.add(h.id)
        if h.check == "combat":
            if not h.enemies:
                out.append(Problem(f"{p}.enemies", "at least one enemy for a combat hazard (SC-CV-14)", "an empty list"))
            seen: set[str] = set()
            for j, e in enumerate(h.enemies):
                _dice_ok(e.damage, f"{p}.enemies[{j}].damage", out)
                if e.id in seen:
                    out.append(Problem(f"{p}.enemies[{j}].id", "an enemy id used once per hazard", f'"{e.id}" again'))
                seen.add(e.id)
        else:
            if h.dc < 1:
                out.append(Problem(f"{p}.dc", "a DC of at least 1 for a Security or Resolve hazard (RES-CV-06)", str(h.dc)))
            if h.enemies:
                out.append(Problem(f"{p}.enemies", 'enemies only with check = "combat"', f"{len(h.enemies)} enemies"))
        for which in ("on_fail", "on_success"):
            for j, e in enumerate(getattr(h, which)):
                _effect_problems(e, f"{p}.{which}[{j}]", out)
    # hazard tables
    table_ids: set[str] = set()
    for k, tb in enumerate(sc.hazard_tables):
        p = f"hazard_tables[{k}]"
        if tb.id in table_ids:
            out.append(Problem(f"{p}.id", "a table id used once", f'"{tb.id}" again'))
        table_ids.add(tb.id)
        for j, t in enumerate(tb.terrains):
            if t not in cr.MULT4:
                out.append(Problem(f"{p}.terrains[{j}]", "a terrain a caravan can travel (" + ", ".join(cr.MULT4) + ")", f'"{t}"'))
        out += _band_problems(tb.bands, p, hazard_ids)
    # convoys
    convoy_ids: set[str] = set()
    for k, c in enumerate(sc.convoys):
        p = f"convoys[{k}]"
        if not c.id:
            out.append(Problem(f"{p}.id", "a non-empty id", '""'))
        if c.id in convoy_ids:
            out.append(Problem(f"{p}.id", "a convoy id used once", f'"{c.id}" again'))
        convoy_ids.add(c.id)

        check_policy("convoy", c.policy, f"{p}.policy", out)
        if c.level == 1 and c.offense + c.defense + c.mobility + c.morale != 7:
            total = c.offense + c.defense + c.mobility + c.morale
            out.append(Problem(p, "primary statistics summing to 7 at level 1 (each starts at 1, plus 3 points, SC-CV-01)",
                               f"Offense {c.offense} + Defense {c.defense} + Mobility {c.mobility} + Morale {c.morale} = {total}"))
        extra = sum(1 for f in c.feats if f == "extra_wagons")
        max_w = cfg.max_wagons + cfg.extra_wagons_per_feat * extra
        _feat_problems(c.feats, c, f"{p}.feats", out, max_w)
        if len(c.feats) > c.level:
            out.append(Problem(f"{p}.feats", f"at most {c.level} feat{'s' if c.level > 1 else ''} (one per level, SC-CV-04)",
                               f"{len(c.feats)} feats"))
        if not c.wagons:
            out.append(Problem(f"{p}.wagons", "at least one wagon", "an empty list"))
        if len(c.wagons) > max_w:
            out.append(Problem(f"{p}.wagons", f"at most {max_w} wagons (SC-CV-05)", f"{len(c.wagons)} wagons"))
        tcap = sum(cr.wagon_type(w.kind, cfg).travelers for w in c.wagons)
        ccap = sum(cr.wagon_type(w.kind, cfg).cargo for w in c.wagons)
        n_trav = sum(t.count for t in c.travelers)
        if n_trav > tcap:
            out.append(Problem(f"{p}.travelers", f"at most {tcap} travelers (the wagons' traveler capacity, SC-CV-09)", f"{n_trav} travelers"))
        used = cr.stores_units(c.provisions) + sum(c.cargo.values())
        if used > ccap:
            out.append(Problem(f"{p}.cargo", f"at most {ccap} cargo units (the wagons' cargo capacity, SC-CV-09; "
                               f"{c.provisions} provisions fill {cr.stores_units(c.provisions)})", f"{used} cargo units"))
        able = sum(t.count for t in c.travelers if t.job == "driver" or t.can_drive)
        if c.wagons and able < len(c.wagons):
            out.append(Problem(f"{p}.travelers", f"{len(c.wagons)} travelers who can drive (one driver per wagon, SC-CV-13)",
                               f"{able}"))
        names: set[str] = set()
        for j, t in enumerate(c.travelers):
            for tid in _traveler_ids(t):
                if tid in names:
                    out.append(Problem(f"{p}.travelers[{j}].id", "a traveler id used once per convoy", f'"{tid}" again'))
                names.add(tid)
            for spell in t.spells:
                if spell not in ("goodberry", "create_food_and_water", "heroes_feast"):
                    out.append(Problem(f"{p}.travelers[{j}].spells.{spell}",
                                       "a provision spell (goodberry, create_food_and_water, heroes_feast)", f'"{spell}"'))
        _route_problems(c, p, mi, hm, out)
    # scheduled events
    days = _duration_days(sc)
    for k, e in enumerate(sc.cv_events):
        p = f"cv_events[{k}]"
        if e.convoy not in convoy_ids:
            out.append(Problem(f"{p}.convoy", "the id of a convoy (" + ", ".join(sorted(convoy_ids)) + ")", f'"{e.convoy}"'))
        if days and e.day > days:
            out.append(Problem(f"{p}.day", f"a day of the campaign (1–{days})", str(e.day)))
        if e.kind == "level_up" and e.feat:
            conv = next((c for c in sc.convoys if c.id == e.convoy), None)
            if conv is not None:
                _feat_problems([e.feat], conv, f"{p}.feat", out)
        if e.kind == "hazard":
            if e.hazard not in hazard_ids:
                out.append(Problem(f"{p}.hazard", "the id of a hazard of [[hazards]]", f'"{e.hazard}"'))
        elif e.hazard:
            out.append(Problem(f"{p}.hazard", 'a hazard only with kind = "hazard"', f'"{e.hazard}"'))
    for k, j in enumerate(sc.cv_jobs):
        if sum(1 for x in sc.cv_jobs if x.job == j.job) > 1:
            out.append(Problem(f"cv_jobs[{k}].job", "each job once", f'"{j.job}" again'))
    return out


def _traveler_ids(t: TravelerSpec) -> list[str]:
    return [t.id] if t.count == 1 else [f"{t.id}-{i + 1}" for i in range(t.count)]


def _duration_days(sc: Any) -> int:

    return duration_hours(sc.scenario.duration) // 24


def _effect_problems(e: EffectSpec, p: str, out: list[Problem]) -> None:
    if e.dice:
        _dice_ok(e.dice, f"{p}.dice", out)
    if e.kind == "damage" and not e.dice:
        out.append(Problem(f"{p}.dice", "a dice expression for a damage effect (RES-CV-06)", "nothing"))
    if e.kind in ("lose_provisions", "lose_cargo") and not e.dice and e.amount <= 0:
        out.append(Problem(f"{p}.amount", "a positive amount (or dice) of units to lose", str(e.amount)))
    if e.kind == "lose_cargo" and not e.cargo:
        out.append(Problem(f"{p}.cargo", "the kind of cargo lost (trade_goods, treasure, repair, other, stores)", "nothing"))
    if e.kind == "unrest" and e.amount == 0:
        out.append(Problem(f"{p}.amount", "a non-zero change of Unrest", "0"))


def _band_problems(bands: list[BandSpec], p: str, hazard_ids: set[str]) -> list[Problem]:
    out: list[Problem] = []
    spans = []
    for j, b in enumerate(bands):
        if not (1 <= b.lo <= 100) or not (1 <= b.hi <= 100) or b.lo > b.hi:
            out.append(Problem(f"{p}.bands[{j}]", "from <= to, both within 1–100 (a d100 band)", f"from {b.lo} to {b.hi}"))
            continue
        if b.hazard and b.hazard not in hazard_ids:
            out.append(Problem(f"{p}.bands[{j}].hazard", "the id of a hazard of [[hazards]] (or \"\" for nothing)", f'"{b.hazard}"'))
        if b.hour and not b.hazard:
            out.append(Problem(f"{p}.bands[{j}].hour", "an hour only on a band with a hazard", str(b.hour)))
        spans.append((b.lo, b.hi, j))
    spans.sort()
    expect = 1
    for lo, hi, j in spans:
        if lo < expect:
            out.append(Problem(f"{p}.bands[{j}]", f"d100 bands that do not overlap (this one starts at {lo}, inside an earlier band)",
                               f"from {lo} to {hi}"))
        elif lo > expect:
            out.append(Problem(f"{p}.bands", f"d100 bands covering 1–100 without gaps (nothing covers {expect}–{lo - 1})",
                               f"a gap {expect}–{lo - 1}"))
        expect = max(expect, hi + 1)
    if spans and expect <= 100:
        out.append(Problem(f"{p}.bands", f"d100 bands covering 1–100 without gaps (nothing covers {expect}–100)", f"a gap {expect}–100"))
    if not bands:
        out.append(Problem(f"{p}.bands", "d100 bands covering 1–100", "an empty list"))
    return out


def _route_problems(c: ConvoySpec, p: str, mi: Any, hm: Any, out: list[Problem]) -> None:
    o = _place(mi, c.origin, f"{p}.origin", out)
    d = _place(mi, c.destination, f"{p}.destination", out)
    vias = [_place(mi, v, f"{p}.via[{j}]", out) for j, v in enumerate(c.via)]
    stops = [o, *vias, d]
    for j, (s, name) in enumerate(zip(stops, ["origin", *[f"via[{i}]" for i in range(len(vias))], "destination"])):
        if s is not None and not cr.passable(hm, s):
            out.append(Problem(f"{p}.{name}", "a hex a caravan can stand on (not water or cavern)",
                               f"{hm.hexes[s].terrain} at {list(hm.coords(s))}"))
            stops[j] = None
    if o is not None and d is not None and o == d and not vias:
        out.append(Problem(f"{p}.destination", "a destination other than the origin", f"{list(hm.coords(d))}"))
    if c.path:
        idx = mi.path(c.path, f"{p}.path", out)
        if idx is None:
            return
        for j, i in enumerate(idx):
            if not cr.passable(hm, i):
                out.append(Problem(f"{p}.path[{j}]", "a hex a caravan can enter (not water or cavern)",
                                   f"{hm.hexes[i].terrain} at {list(hm.coords(i))}"))
                return
        if o is not None and idx[0] != o:
            out.append(Problem(f"{p}.path[0]", f"the origin {list(hm.coords(o))}", f"{list(hm.coords(idx[0]))}"))
        if d is not None and idx[-1] != d:
            out.append(Problem(f"{p}.path[{len(idx) - 1}]", f"the destination {list(hm.coords(d))}", f"{list(hm.coords(idx[-1]))}"))
        pos = 0
        for j, v in enumerate(vias):
            if v is None:
                continue
            try:
                pos = idx.index(v, pos)
            except ValueError:
                out.append(Problem(f"{p}.path", f"a path through via[{j}] {list(hm.coords(v))}", "a path that misses it"))
        return
    if any(s is None for s in stops):
        return
    comp = _land_components(mi)
    for j, (a, b) in enumerate(zip(stops, stops[1:])):
        assert a is not None and b is not None
        if comp[a] != comp[b]:  # no land route (as cr.least_cost would find, in time linear in the map once)
            out.append(Problem(f"{p}.via[{j}]" if j < len(vias) else f"{p}.destination",
                               f"a place a caravan can reach by land from {hm.label(a)}",
                               f"{hm.label(b)} (no land route: water or caverns in the way)"))


def _land_components(mi: Any) -> list[int]:
    """The connected part of the land a caravan can travel that each hex belongs to (-1: impassable),
    computed once per map index: route checks cost one pass over the map, not a search per convoy."""
    got: list[int] | None = getattr(mi, "_cv_land_components", None)
    if got is not None:
        return got
    hm = mi.map
    nbrs = hm.neighbor_table()
    comp = [-1] * len(hm.hexes)
    ok = [cr.passable(hm, i) for i in range(len(hm.hexes))]
    label = 0
    for start in range(len(hm.hexes)):
        if not ok[start] or comp[start] >= 0:
            continue
        comp[start] = label
        todo = [start]
        while todo:
            h = todo.pop()
            for n in nbrs[h]:
                if n >= 0 and ok[n] and comp[n] < 0:
                    comp[n] = label
                    todo.append(n)
        label += 1
    mi._cv_land_components = comp
    return comp


def _config_problems(cfg: Any) -> list[Problem]:
    out: list[Problem] = []
    if cfg.mutiny_fail5_outcome not in ("1d2", "refuse", "random_direction"):
        out.append(Problem("config.cv.mutiny_fail5_outcome", 'one of "1d2", "refuse", "random_direction" (RES-CV-18)',
                           f'"{cfg.mutiny_fail5_outcome}"'))
    if cfg.gift_counter_resets not in ("never", "level_up"):
        out.append(Problem("config.cv.gift_counter_resets", 'one of "never", "level_up" (RES-CV-16)', f'"{cfg.gift_counter_resets}"'))
    if not is_dice_expr(cfg.combat_damage):
        out.append(Problem("config.cv.combat_damage", "a dice expression such as 1d6 (SC-CV-14)", f'"{cfg.combat_damage}"'))
    for key in ("travel_start_hour", "night_starts_hour", "night_ends_hour"):
        v = getattr(cfg, key)
        if not 0 <= v <= 23:
            out.append(Problem(f"config.cv.{key}", "an hour of the day 0–23", str(v)))
    for key in ("base_speed_mpd", "stores_cost_gp", "max_wagons"):
        if getattr(cfg, key) < 1:
            out.append(Problem(f"config.cv.{key}", "a positive number", str(getattr(cfg, key))))
    return out


# ---- build -------------------------------------------------------------------------------------


def build(sc: Any, world: World) -> None:
    """Fill ``world.cv`` from the scenario (after :func:`check` found no problem)."""
    cfg = world.config.cv
    hm = world.map
    mi = MapIndex(hm)
    hazards = {h.id: _hazard(h) for h in sc.hazards}
    tables = [
        st.HazardTable(id=tb.id, bands=tuple(st.Band(b.lo, b.hi, b.hazard, b.hour) for b in tb.bands),
                       terrains=tuple(tb.terrains), paths=tuple(tb.paths), river=tb.river)
        for tb in sc.hazard_tables
    ]
    events = sorted(
        (st.ScheduledEvent(day=e.day - 1, convoy=e.convoy, kind=e.kind, feat=e.feat, morale=e.morale, amount=e.amount,
                           hazard=e.hazard, hour=e.hour, note=e.note) for e in sc.cv_events),
        key=lambda e: (e.day, e.convoy),
    )
    bonuses: dict[str, dict[str, int]] = {k: dict(v) for k, v in cr.DEFAULT_JOB_BONUSES.items()}
    for j in sc.cv_jobs:
        bonuses[j.job] = {k: v for k, v in (("attack", j.attack), ("ac", j.ac), ("security", j.security),
                                             ("resolve", j.resolve)) if v}
    world.cv = st.CvWorld(convoys=[], hazards=hazards, tables=tables, events=events, job_bonuses=bonuses)
    routes = cr.shared_route_cache(world)
    sink: list[Problem] = []
    for spec in sorted(sc.convoys, key=lambda c: c.id):
        o = _place(mi, spec.origin, "", sink)
        d = _place(mi, spec.destination, "", sink)
        vias = [_place(mi, v, "", sink) for v in spec.via]
        assert o is not None and d is not None and all(v is not None for v in vias)
        c = st.Convoy(id=spec.id, name=spec.name or spec.id, policy=spec.policy, origin=o, destination=d,
                      offense=spec.offense, defense=spec.defense, mobility=spec.mobility, morale=spec.morale,
                      level=spec.level, feats=[f for f in spec.feats if f != "caravan_toughness"], gp=spec.gp,
                      provisions=spec.provisions, unrest=spec.unrest,
                      cargo={k: v for k, v in sorted(spec.cargo.items()) if v}, hex=o,
                      stops=[v for v in vias if v is not None] + [d], route_kind=spec.route)
        for w in spec.wagons:
            cr.add_wagon(c, w.kind, cfg, axles=w.axles)
        for _ in range(sum(1 for f in spec.feats if f == "caravan_toughness")):
            c.feats.append("caravan_toughness")
            wg = min(c.wagons, key=lambda x: (x.toughness, x.id))
            wg.toughness += 1
            c.max_hp += cr.TOUGHNESS_HP
            c.hp += cr.TOUGHNESS_HP
        for t in spec.travelers:
            for tid in _traveler_ids(t):
                c.travelers.append(st.Traveler(id=tid, job=t.job, can_drive=t.can_drive or t.job == "driver", pc=t.pc,
                                               wage_gp=t.wage, spells=dict(sorted(t.spells.items())),
                                               caster_level=t.caster_level))
        c.in_mutiny = c.unrest > c.morale
        c.below_quarter = 4 * c.hp <= c.max_hp
        c.unrest_peak = c.unrest
        world.cv.convoys.append(c)
        if spec.path:
            idx = mi.path(spec.path, "", sink)
            assert idx is not None
            c.path = idx
            c.route_kind = "fast"
        else:
            got = cr.plan_path(world, c, spec.route, routes)
            c.path = got[0] if got else [o]


def _hazard(h: HazardSpec) -> Any:
    def eff(e: EffectSpec) -> st.Effect:
        return st.Effect(kind=e.kind, dice=e.dice, amount=e.amount, cargo=e.cargo, wagon=e.wagon, job=e.job, days=e.days)

    return st.Hazard(id=h.id, check=h.check, dc=h.dc, on_fail=tuple(eff(e) for e in h.on_fail),
                     on_success=tuple(eff(e) for e in h.on_success),
                     enemies=tuple(st.EnemySpec(id=e.id, ac=e.ac, hp=e.hp, attack=e.attack, damage=e.damage, name=e.name)
                                   for e in h.enemies), rounds=h.rounds, name=h.name, name_fr=h.name_fr)
