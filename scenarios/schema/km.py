"""Scenario tables of the kingdoms (KM) system (RULES.md §1, §5.1, RES-KM-45).

Tables of a scenario file (``kingdoms`` is required when KM is enabled)::

    [[kingdoms]]            id, name, alignment, policy ("random", "heuristic", "scripted" or
                            package.module:Class), government, capital (a settlement name), treasury,
                            economy/loyalty/stability (the kingdom sheet at the start, everything
                            included), unrest, fame/infamy (base scores, RES-KM-37), hexes (claimed,
                            [col, row]), edicts, leaders (role → name or {name, ability, serving_in,
                            neglects}), skills / counter_skills (envoy's and answering leader's),
                            explorers, armies, overlord, conquered_by, sponsor, tracked, enforcer,
                            control_dc_mod, consumption_mod, deposition_shift, milestone_choice,
                            vassal_policy, granary (BP of food stored, SC-KM-31), anarchy (SC-KM-07),
                            orders (scripted turns) or orders_file
    [[kingdoms.settlements]] name (a map settlement in its hexes), districts, buildings, water_border, mods
    [[kingdoms.improvements]] at, kind (farm, fishery, mine, quarry, sawmill)
    [[km_relations]]        between = [a, b], relation (none/embassy/treaty/alliance), balanced,
                            advantaged, bonus ({id: n}), enemies
    [[km_stances]]          kingdom, towards, attitude, representative
    [[km_encounters]]       day, cr, hostile, at, kingdom, expedition, outcome, name (RES-KM-15)
    [[km_hidden_features]]  at, name, dc (15–30, RES-KM-14), found_by (the kingdom that found it)
    km_explored             [[col, row], …] explored at the start (claimed hexes always are)
    [[km_progress]]         at, days: a hex partly explored, the days already spent on it (RES-KM-13)
    [[km_events]]           turn, kind (attack, station_army, aid_refused, unrest, conquest, peace),
                            kingdom, target, amount, requested, end_relations

Scripted orders (a kingdom with ``policy = "scripted"``): ``[[kingdoms.orders]]`` tables or an
``orders_file`` (TOML with ``[[orders]]``; a path relative to the scenario file, inside its folder: read
when the scenario is loaded and carried with it, in a job or a save), one table per turn (``turn = 1``
is the first month).
"""

from __future__ import annotations

import tomllib
from typing import TYPE_CHECKING, Literal

import msgspec

from scenarios.files import carried, name_problem
from scenarios.schema.common import Coord, MapIndex, NonNeg, PolicyOptions, Positive, Spec, duration_hours
from scenarios.validate import check_against, check_policy
from sim.calendar import HOURS_PER_MONTH
from sim.errors import Problem, ScenarioError
from sim.rules.km import BUILDINGS, IMPROVEMENT_TERRAIN, SETTLEMENT_MODS, km_terrain, stats
from sim.state.km import (
    ALIGNMENTS,
    ATTITUDES,
    EXPLORER_SKILLS,
    HOLIDAY_LEVELS,
    ROLES,
    SKILLS,
    Agreement,
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    Encounter,
    ExpeditionTemplate,
    ExplorationEdict,
    FoundOrder,
    HiddenFeature,
    ImprovementOrder,
    Kingdom,
    KmWorld,
    Leader,
    RelationOrder,
    ScriptedEvent,
    Settlement,
    SpecialEdict,
    TradeEdict,
    TurnOrders,
    VassalageEdict,
)

if TYPE_CHECKING:
    from scenarios.schema import Scenario
    from sim.world import World

Alignment = Literal["LG", "NG", "CG", "LN", "N", "CN", "LE", "NE", "CE"]
Attitude = Literal["hostile", "unfriendly", "indifferent", "friendly", "helpful"]
Government = Literal["autocracy", "magocracy", "oligarchy", "overlord", "republic", "secret_syndicate", "theocracy"]
Holiday = Literal["none", "1", "6", "12", "24"]
Promotion = Literal["none", "token", "standard", "aggressive", "expansionist"]
Taxation = Literal["none", "light", "normal", "heavy", "overwhelming"]
Improvement = Literal["farm", "fishery", "mine", "quarry", "sawmill"]
ImprovementOrRoad = Literal["farm", "fishery", "mine", "quarry", "sawmill", "road", "highway"]
RouteType = Literal["food", "goods", "luxuries", "raw_materials"]
Skill = Literal["diplomacy", "intimidate"]
Balance = Literal["balanced", "unbalanced"]


class LeaderSpec(Spec):
    name: str
    ability: int = 0  # a Viceroy's Intelligence or Wisdom modifier (SC-KM-24)
    serving_in: str = ""  # a Consort/Heir present in a vassal (KM-VAS-08)
    neglects: bool = False  # a Viceroy who neglects the duties (KM-VAS-08)


class EdictsSpec(Spec):
    holiday: Holiday = "none"
    promotion: Promotion = "none"
    taxation: Taxation = "normal"


class VassalAttrsSpec(Spec):
    """Leadership bonuses, pre-summed (RES-KM-36), of the vassals a kingdom creates (RES-KM-43)."""

    economy: int = 0
    loyalty: int = 0
    stability: int = 0


class KmSettlementSpec(Spec):
    name: str
    districts: Positive = 1
    buildings: dict[str, NonNeg] = {}
    water_border: bool | None = None  # default: the hex has a river or a coast
    mods: dict[str, int] = {}


class KmImprovementSpec(Spec):
    at: Coord
    kind: Improvement


class SpecialSpec(Spec):
    """One special edict in an order: ``edict`` says which; the other fields are its inputs (RES-KM-39)."""

    edict: Literal["diplomatic", "exploration", "trade", "vassalage"]
    # diplomatic
    target: str = ""
    kind: str = ""
    bribe: NonNeg = 0
    skill: Skill = "diplomacy"
    target_skill: Skill = "diplomacy"
    balance: Balance = "balanced"
    target_balance: Balance = "balanced"
    # exploration
    months: NonNeg = 0
    route: list[Coord] = []
    pcs: bool = False
    # trade
    partner: str = ""
    origin: str = ""
    destination: str = ""
    type: RouteType | None = None
    investment: NonNeg = 0
    path: list[Coord] = []
    # vassalage
    mode: Literal["new_vassal", "colony", "subjugation"] | None = None
    viceroy: str = ""
    hexes: list[Coord] = []
    grant: NonNeg = 0
    grant_max: bool = False
    relation: Literal["none", "embassy", "treaty", "alliance"] = "none"
    new_id: str = ""
    name: str = ""
    alignment: Alignment | None = None
    policy: str = ""  # the new vassal's policy (default: vassal_policy)
    viceroy_ability: int = 0


class ImprovementOrderSpec(Spec):
    at: Coord
    kind: ImprovementOrRoad


class FoundSpec(Spec):
    at: Coord
    name: str


class BuildSpec(Spec):
    settlement: str
    kind: str


class EmbassyBuildingSpec(Spec):
    host: str
    settlement: str
    kind: Literal["mansion", "noble_villa"]


class RelationOrderSpec(Spec):
    action: Literal["close_embassy", "renegotiate", "withdraw"]
    target: str
    which: Literal["treaty", "alliance"] = "treaty"
    skill: Skill = "diplomacy"
    target_skill: Skill = "diplomacy"
    balance: Balance = "balanced"
    target_balance: Balance = "balanced"


class TurnOrdersSpec(Spec):
    turn: Positive
    holiday: Holiday | None = None
    promotion: Promotion | None = None
    taxation: Taxation | None = None
    envoys: list[str] = []
    recall: list[str] = []
    claims: list[Coord] = []
    abandon: list[Coord] = []
    improvements: list[ImprovementOrderSpec] = []
    settlements: list[FoundSpec] = []
    districts: list[str] = []
    buildings: list[BuildSpec] = []
    embassy_buildings: list[EmbassyBuildingSpec] = []
    relations: list[RelationOrderSpec] = []
    special: SpecialSpec | None = None
    withdraw_bp: NonNeg = 0
    deposit_gp: NonNeg = 0


class OrderFileSpec(Spec):
    """An order file: ``kingdom = "id"`` (optional, checked) and ``[[orders]]`` tables."""

    orders: list[TurnOrdersSpec] = []
    kingdom: str = ""


class ExpeditionTravelerSpec(Spec):
    id: str
    job: str = "passenger"
    count: Positive = 1


class ExpeditionSpec(Spec):
    """LINK-04: the caravan of this kingdom's Trade edicts when caravans (CV) are enabled; by default the
    standard caravan of SC-CV-07 (its wagon kinds, jobs and policy are checked by the LINK tables,
    ``scenarios.schema.link``)."""

    offense: Positive = 1
    defense: Positive = 2
    mobility: Positive = 2
    morale: Positive = 2
    wagons: list[str] = []
    travelers: list[ExpeditionTravelerSpec] = []
    feats: list[str] = []
    gp: NonNeg = 0
    policy: str = "heuristic"  # a convoy policy: heuristic, random, an installed policy, or pkg.mod:Class allowed by --allow-policies


class KingdomSpec(Spec):
    id: str
    alignment: Alignment
    name: str = ""
    name_fr: str = ""
    policy: str = "heuristic"  # scripted, heuristic, random, an installed policy, or pkg.mod:Class allowed by --allow-policies
    policy_options: PolicyOptions | None = None  # only for policy = "lookahead"
    government: Government = "autocracy"
    capital: str = ""
    treasury: int = 0
    economy: int = 0
    loyalty: int = 0
    stability: int = 0
    unrest: NonNeg = 0
    fame: NonNeg = 0
    infamy: NonNeg = 0
    hexes: list[Coord] = []
    settlements: list[KmSettlementSpec] = []
    improvements: list[KmImprovementSpec] = []
    edicts: EdictsSpec = msgspec.field(default_factory=EdictsSpec)
    leaders: dict[str, str | LeaderSpec] = {}
    skills: dict[str, int] = {}
    counter_skills: dict[str, int] = {}
    explorers: dict[str, int] = {}
    armies: NonNeg = 0
    overlord: str = ""
    conquered_by: str = ""
    sponsor: str = ""
    tracked: bool = True
    enforcer: bool = False
    control_dc_mod: int = 0
    consumption_mod: int = 0
    deposition_shift: int = 0
    milestone_choice: Literal["fame", "infamy"] = "fame"
    granary: NonNeg = 0  # BP of surplus food stored by its Granaries (SC-KM-31; a state file writes it)
    anarchy: bool = False  # in anarchy (SC-KM-07; a state file writes it)
    vassal_policy: str = "heuristic"  # policy of the vassals it creates, as policy
    vassal_leaders: dict[str, str | LeaderSpec] = {}
    vassal_attrs: VassalAttrsSpec | None = None
    expedition: ExpeditionSpec | None = None
    orders: list[TurnOrdersSpec] = []
    orders_file: str = ""  # TOML [[orders]]; a path relative to this file, inside its folder


class KmRelationSpec(Spec):
    between: list[str]
    relation: Literal["none", "embassy", "treaty", "alliance"] = "none"
    balanced: bool = True
    advantaged: str = ""
    bonus: dict[str, NonNeg] | None = None
    alliance_bonus: dict[str, NonNeg] | None = None
    enemies: bool = False


class KmStanceSpec(Spec):
    kingdom: str
    towards: str
    attitude: Attitude = "indifferent"
    representative: bool = False


class KmEncounterSpec(Spec):
    day: Positive
    cr: NonNeg
    hostile: bool = True
    at: Coord | None = None
    kingdom: str = ""
    expedition: NonNeg = 0
    outcome: Literal["none", "scattered", "killed"] = "none"
    name: str = ""


class KmHiddenFeatureSpec(Spec):
    at: Coord
    name: str
    dc: int
    found_by: str = ""  # the kingdom that found it (a state file writes it); empty: still hidden


class KmProgressSpec(Spec):
    at: Coord
    days: Positive  # days of exploration already spent on the hex (RES-KM-13)


class KmEventSpec(Spec):
    turn: Positive
    kind: Literal["attack", "station_army", "aid_refused", "unrest", "conquest", "peace"]
    kingdom: str
    target: str = ""
    amount: int = 0
    requested: bool = False
    end_relations: bool = False


# ---- checks ------------------------------------------------------------------------------------

SPEEDS = (15, 20, 30, 40, 50)


def _cfg(sc: Scenario, system: str) -> dict[str, object]:
    raw = sc.config.get(system, {}) if isinstance(sc.config, dict) else {}
    return raw if isinstance(raw, dict) else {}


def total_turns(sc: Scenario) -> int:
    return max(0, -(-duration_hours(sc.scenario.duration) // HOURS_PER_MONTH))


def read_orders_file(name: str) -> tuple[str, OrderFileSpec]:
    """(label, parsed spec) of an order file the scenario carries (read next to the scenario file when
    it was loaded; never opened here, scenarios/files.py); ScenarioError naming the file for a problem."""
    label, text = carried(name)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(label, [Problem("(file)", "valid TOML", str(e))]) from None
    except RecursionError:
        raise ScenarioError(label, [Problem("(file)", "TOML of a reasonable depth", "nesting too deep to read")]) from None
    probs = check_against(raw, OrderFileSpec)
    if probs:
        raise ScenarioError(label, probs)
    return label, msgspec.convert(raw, OrderFileSpec)


def check(sc: Scenario, m: MapIndex) -> list[Problem]:
    """Semantic checks of the KM tables: every reference, every cross-field rule."""
    out: list[Problem] = []
    hm = m.map
    kc = _cfg(sc, "km")
    speed = kc.get("explorer_speed_ft", 30)
    if isinstance(speed, int) and speed not in SPEEDS:
        out.append(Problem("config.km.explorer_speed_ft", f"one of the SC-KM-34 speeds {', '.join(map(str, SPEEDS))}", f"{speed}"))
    for key in ("days_per_turn", "explorer_travel_hours_per_day"):
        v = kc.get(key)
        if isinstance(v, int) and v < 1:
            out.append(Problem(f"config.km.{key}", "an integer >= 1", f"{v}"))
    table = kc.get("vassal_attitude_by_steps")
    if isinstance(table, list):
        if len(table) != 5:
            out.append(Problem("config.km.vassal_attitude_by_steps", "5 attitudes (alignment steps 0 to 4, RES-KM-29)", f"{len(table)}"))
        for i, a in enumerate(table):
            if a not in ATTITUDES:
                out.append(Problem(f"config.km.vassal_attitude_by_steps[{i}]", "one of " + ", ".join(ATTITUDES), f'"{a}"'))
    lc = _cfg(sc, "link")
    v = lc.get("envoy_hexes_per_day")
    if isinstance(v, int) and v < 1:
        out.append(Problem("config.link.envoy_hexes_per_day", "an integer >= 1", f"{v}"))

    if not sc.kingdoms:
        out.append(Problem("kingdoms", "at least one kingdom (KM is enabled)", "none"))
    ids: dict[str, int] = {}
    for i, k in enumerate(sc.kingdoms):
        if not k.id or not k.id.replace("-", "").replace("_", "").isalnum():
            out.append(Problem(f"kingdoms[{i}].id", "an id of letters, digits, - and _", f'"{k.id}"'))
        if k.id in ids:
            out.append(Problem(f"kingdoms[{i}].id", "a kingdom id used once", f'"{k.id}" again'))
        ids[k.id] = i
    owner: dict[int, str] = {}
    settlements = m.settlements
    turns = total_turns(sc)
    for i, k in enumerate(sc.kingdoms):
        p = f"kingdoms[{i}]"

        for f, val in (("policy", k.policy), ("vassal_policy", k.vassal_policy)):
            check_policy("kingdom", val, f"{p}.{f}", out)
        for f, ref in (("overlord", k.overlord), ("conquered_by", k.conquered_by), ("sponsor", k.sponsor)):
            if ref and (ref not in ids or ref == k.id):
                out.append(Problem(f"{p}.{f}", "the id of another kingdom (" + ", ".join(x for x in ids if x != k.id) + ")", f'"{ref}"'))
        if k.overlord and "viceroy" not in k.leaders:
            out.append(Problem(f"{p}.leaders", "a viceroy for a vassal (KM-VAS-01)", "none"))
        mine: set[int] = set()
        for j, c in enumerate(k.hexes):
            h = m.coord(c, f"{p}.hexes[{j}]", out)
            if h is None:
                continue
            if hm.hexes[h].is_water:
                out.append(Problem(f"{p}.hexes[{j}]", "a land hex", f"water at {list(c)}"))
            if h in owner:
                out.append(Problem(f"{p}.hexes[{j}]", "a hex no other kingdom claims", f"{list(c)} claimed by {owner[h]}"))
            owner[h] = k.id
            mine.add(h)
        names = set()
        for j, s in enumerate(k.settlements):
            sp = f"{p}.settlements[{j}]"
            names.add(s.name)
            at = settlements.get(s.name)
            if at is None:
                out.append(Problem(f"{sp}.name", "a settlement of map.settlements", f'"{s.name}"'))
            elif at not in mine:
                out.append(Problem(f"{sp}.name", f"a settlement in the kingdom's hexes (add {list(hm.coords(at))} to {p}.hexes)", f'"{s.name}"'))
            lots = 0
            for b, n in s.buildings.items():
                if b not in BUILDINGS:
                    out.append(Problem(f"{sp}.buildings.{b}", "a building of SC-KM-31 (" + ", ".join(sorted(BUILDINGS)) + ")", f'"{b}"'))
                else:
                    lots += BUILDINGS[b].lots * n
            if lots > 36 * s.districts:
                out.append(Problem(f"{sp}.buildings", f"at most {36 * s.districts} lots ({s.districts} district(s) of 36)", f"{lots} lots"))
            for md in s.mods:
                if md not in SETTLEMENT_MODS:
                    out.append(Problem(f"{sp}.mods.{md}", "one of " + ", ".join(SETTLEMENT_MODS), f'"{md}"'))
        if k.capital and k.capital not in names:
            out.append(Problem(f"{p}.capital", "the name of one of the kingdom's settlements", f'"{k.capital}"'))
        for j, im in enumerate(k.improvements):
            h = m.coord(im.at, f"{p}.improvements[{j}].at", out)
            if h is None:
                continue
            if h not in mine:
                out.append(Problem(f"{p}.improvements[{j}].at", "a hex the kingdom claims", f"{list(im.at)}"))
                continue
            hx = hm.hexes[h]
            t = km_terrain(hx.terrain)
            ok = (hx.coast or hx.river or t == "marsh") if im.kind == "fishery" else t in IMPROVEMENT_TERRAIN[im.kind]
            if not ok:
                out.append(Problem(f"{p}.improvements[{j}].kind", f"an improvement allowed on {hx.terrain} (SC-KM-32)", f'"{im.kind}"'))
        for role in k.vassal_leaders:
            if role not in ROLES or role == "viceroy":
                out.append(Problem(f"{p}.vassal_leaders.{role}", "a role other than viceroy (" + ", ".join(ROLES[:-1]) + ")", f'"{role}"'))
        for role, ld in k.leaders.items():
            if role not in ROLES:
                out.append(Problem(f"{p}.leaders.{role}", "a role (" + ", ".join(ROLES) + ")", f'"{role}"'))
            if isinstance(ld, LeaderSpec) and ld.serving_in and ld.serving_in not in ids:
                out.append(Problem(f"{p}.leaders.{role}.serving_in", "a kingdom id", f'"{ld.serving_in}"'))
        for f, tab, allowed in (("skills", k.skills, SKILLS), ("counter_skills", k.counter_skills, SKILLS), ("explorers", k.explorers, EXPLORER_SKILLS)):
            for sk in tab:
                if sk not in allowed:
                    out.append(Problem(f"{p}.{f}.{sk}", "one of " + ", ".join(allowed), f'"{sk}"'))
        if (k.orders or k.orders_file) and k.policy != "scripted":
            out.append(Problem(f"{p}.policy", '"scripted" (the kingdom has scripted orders)', f'"{k.policy}"'))
        if k.orders and k.orders_file:
            out.append(Problem(f"{p}.orders_file", "either orders or an orders_file, not both", f'"{k.orders_file}"'))
        for j, o in enumerate(k.orders):
            _check_orders(o, f"{p}.orders[{j}]", m, ids, turns, out)

        bad_name = name_problem(k.orders_file) if k.orders_file else None
        if bad_name:
            out.append(Problem(f"{p}.orders_file", *bad_name))
        elif k.orders_file:
            try:
                label, spec = read_orders_file(k.orders_file)
            except ScenarioError as err:
                for pr in err.problems:
                    out.append(Problem(f"{p}.orders_file ({err.file}): {pr.path}", pr.expected, pr.found))
            else:
                if spec.kingdom and spec.kingdom != k.id:
                    out.append(Problem(f"{p}.orders_file ({label}): kingdom", f'"{k.id}"', f'"{spec.kingdom}"'))
                sub: list[Problem] = []
                for j, o in enumerate(spec.orders):
                    _check_orders(o, f"orders[{j}]", m, ids, turns, sub)
                for pr in sub:
                    out.append(Problem(f"{p}.orders_file ({label}): {pr.path}", pr.expected, pr.found))

    seen_pairs: set[tuple[str, str]] = set()
    for i, r in enumerate(sc.km_relations):
        p = f"km_relations[{i}]"
        if len(r.between) != 2 or r.between[0] == r.between[1]:
            out.append(Problem(f"{p}.between", "two different kingdom ids", f"{r.between}"))
            continue
        for j, x in enumerate(r.between):
            if x not in ids:
                out.append(Problem(f"{p}.between[{j}]", "a kingdom id (" + ", ".join(ids) + ")", f'"{x}"'))
        pair = (min(r.between), max(r.between))
        if pair in seen_pairs:
            out.append(Problem(f"{p}.between", "each pair of kingdoms once", f"{r.between} again"))
        seen_pairs.add(pair)
        if r.advantaged and r.advantaged not in r.between:
            out.append(Problem(f"{p}.advantaged", f"one of {r.between}", f'"{r.advantaged}"'))
        if not r.balanced and not r.advantaged and r.relation in ("treaty", "alliance"):
            out.append(Problem(f"{p}.advantaged", "the advantaged kingdom of an unbalanced agreement (KM-REL-09)", "nothing"))
        for f, bon in (("bonus", r.bonus), ("alliance_bonus", r.alliance_bonus)):
            for x in bon or {}:
                if x not in r.between:
                    out.append(Problem(f"{p}.{f}.{x}", f"one of {r.between}", f'"{x}"'))
    for i, stn in enumerate(sc.km_stances):
        p = f"km_stances[{i}]"
        for f, x in (("kingdom", stn.kingdom), ("towards", stn.towards)):
            if x not in ids:
                out.append(Problem(f"{p}.{f}", "a kingdom id (" + ", ".join(ids) + ")", f'"{x}"'))
        if stn.kingdom == stn.towards:
            out.append(Problem(f"{p}.towards", "another kingdom", f'"{stn.towards}"'))
    for i, enc in enumerate(sc.km_encounters):
        p = f"km_encounters[{i}]"
        if enc.at is not None:
            m.coord(enc.at, f"{p}.at", out)
        if enc.kingdom and enc.kingdom not in ids:
            out.append(Problem(f"{p}.kingdom", "a kingdom id (" + ", ".join(ids) + ")", f'"{enc.kingdom}"'))
    for i, hf in enumerate(sc.km_hidden_features):
        p = f"km_hidden_features[{i}]"
        m.coord(hf.at, f"{p}.at", out)
        if not 15 <= hf.dc <= 30:
            out.append(Problem(f"{p}.dc", "a DC from 15 to 30 (RES-KM-14)", f"{hf.dc}"))
        if hf.found_by and hf.found_by not in ids:
            out.append(Problem(f"{p}.found_by", "a kingdom id (" + ", ".join(ids) + ") or nothing", f'"{hf.found_by}"'))
    for i, c in enumerate(sc.km_explored):
        m.coord(c, f"km_explored[{i}]", out)
    for i, part in enumerate(sc.km_progress):
        m.coord(part.at, f"km_progress[{i}].at", out)
    for i, ev in enumerate(sc.km_events):
        p = f"km_events[{i}]"
        if ev.kingdom not in ids:
            out.append(Problem(f"{p}.kingdom", "a kingdom id (" + ", ".join(ids) + ")", f'"{ev.kingdom}"'))
        if ev.kind in ("attack", "station_army", "conquest", "peace"):
            if ev.target not in ids or ev.target == ev.kingdom:
                out.append(Problem(f"{p}.target", "the id of another kingdom", f'"{ev.target}"'))
    return out


def _check_orders(o: TurnOrdersSpec, p: str, m: MapIndex, ids: dict[str, int], turns: int, out: list[Problem]) -> None:
    if o.turn > turns:
        out.append(Problem(f"{p}.turn", f"a turn of the campaign, 1..{turns}", f"{o.turn}"))
    for f in ("claims", "abandon"):
        for j, c in enumerate(getattr(o, f)):
            m.coord(c, f"{p}.{f}[{j}]", out)
    for j, im in enumerate(o.improvements):
        m.coord(im.at, f"{p}.improvements[{j}].at", out)
    for j, fd in enumerate(o.settlements):
        m.coord(fd.at, f"{p}.settlements[{j}].at", out)
    for f in ("envoys", "recall"):
        for j, x in enumerate(getattr(o, f)):
            if x not in ids:
                out.append(Problem(f"{p}.{f}[{j}]", "a kingdom id (" + ", ".join(ids) + ")", f'"{x}"'))
    sp = o.special
    if sp is None:
        return
    q = f"{p}.special"
    if sp.edict == "diplomatic":
        if sp.target not in ids:
            out.append(Problem(f"{q}.target", "a kingdom id (" + ", ".join(ids) + ")", f'"{sp.target}"'))
        if sp.kind not in ("embassy", "threat", "treaty", "alliance", "rebalance"):
            out.append(Problem(f"{q}.kind", 'one of "embassy", "threat", "treaty", "alliance", "rebalance"', f'"{sp.kind}"'))
    elif sp.edict == "exploration":
        if sp.months < 1:
            out.append(Problem(f"{q}.months", "1 or more whole months (KM-EXP-02)", f"{sp.months}"))
        if not sp.route:
            out.append(Problem(f"{q}.route", "a list of hexes [col, row] (RES-KM-12)", "an empty list"))
        m.path(sp.route, f"{q}.route", out)
    elif sp.edict == "trade":
        if sp.partner not in ids:
            out.append(Problem(f"{q}.partner", "a kingdom id (" + ", ".join(ids) + ")", f'"{sp.partner}"'))
        for f in ("origin", "destination"):
            if getattr(sp, f) not in m.settlements:
                out.append(Problem(f"{q}.{f}", "a settlement of map.settlements", f'"{getattr(sp, f)}"'))
        if sp.type is None:
            out.append(Problem(f"{q}.type", 'one of "food", "goods", "luxuries", "raw_materials"', "nothing"))
        if sp.path:
            m.path(sp.path, f"{q}.path", out)
    else:
        if sp.mode is None:
            out.append(Problem(f"{q}.mode", 'one of "new_vassal", "colony", "subjugation"', "nothing"))
        if not sp.viceroy:
            out.append(Problem(f"{q}.viceroy", "the Viceroy's name (KM-VAS-01)", "nothing"))
        if sp.mode == "subjugation" and sp.target not in ids:
            out.append(Problem(f"{q}.target", "a kingdom id (" + ", ".join(ids) + ")", f'"{sp.target}"'))
        for j, c in enumerate(sp.hexes):
            m.coord(c, f"{q}.hexes[{j}]", out)
        if sp.policy:
            check_policy("kingdom", sp.policy, f"{q}.policy", out)


# ---- building the world ------------------------------------------------------------------------


def _idx(world: World, c: Coord) -> int:
    return world.map.index(c[0], c[1])


def to_special(world: World, sp: SpecialSpec) -> SpecialEdict:
    """The engine order of a scenario/order-file special edict (coordinates → hex indices)."""
    if sp.edict == "diplomatic":
        return DiplomaticEdict(
            sp.target, sp.kind, bribe=sp.bribe, skill=sp.skill, target_skill=sp.target_skill, balance=sp.balance,
            target_balance=sp.target_balance,
        )
    if sp.edict == "exploration":
        return ExplorationEdict(months=sp.months, route=[_idx(world, c) for c in sp.route], pcs=sp.pcs)
    if sp.edict == "trade":
        return TradeEdict(
            sp.partner, sp.origin, sp.destination, sp.type or "goods", sp.investment, path=[_idx(world, c) for c in sp.path]
        )
    return VassalageEdict(
        mode=sp.mode or "new_vassal",
        viceroy=sp.viceroy,
        hexes=[_idx(world, c) for c in sp.hexes],
        target=sp.target or None,
        grant=sp.grant,
        grant_max=sp.grant_max,
        relation=sp.relation,
        balance=sp.balance,
        new_id=sp.new_id,
        name=sp.name,
        alignment=sp.alignment or "",
        policy=sp.policy,
        viceroy_ability=sp.viceroy_ability,
    )


def to_turn_orders(world: World, o: TurnOrdersSpec, path: str) -> TurnOrders:
    return TurnOrders(
        turn=o.turn - 1,
        holiday=o.holiday,
        promotion=o.promotion,
        taxation=o.taxation,
        envoys=list(o.envoys),
        recall=list(o.recall),
        claims=[_idx(world, c) for c in o.claims],
        abandon=[_idx(world, c) for c in o.abandon],
        improvements=[ImprovementOrder(_idx(world, i.at), i.kind) for i in o.improvements],
        settlements=[FoundOrder(_idx(world, f.at), f.name) for f in o.settlements],
        districts=list(o.districts),
        buildings=[BuildOrder(b.settlement, b.kind) for b in o.buildings],
        embassy_buildings=[EmbassyBuildingOrder(e.host, e.settlement, e.kind) for e in o.embassy_buildings],
        relations=[
            RelationOrder(r.action, r.target, r.which, r.skill, r.target_skill, r.balance, r.target_balance) for r in o.relations
        ],
        special=None if o.special is None else to_special(world, o.special),
        withdraw_bp=o.withdraw_bp,
        deposit_gp=o.deposit_gp,
        path=path,
    )


def build(sc: Scenario, world: World) -> None:
    """Fill ``world.km`` from the scenario (SC-KM-01/02, RES-KM-45)."""
    hm = world.map
    km = KmWorld()
    world.km = km
    settlements = hm.settlements()
    def leaders_of(spec: dict[str, str | LeaderSpec]) -> dict[str, Leader]:
        out: dict[str, Leader] = {}
        for role in sorted(spec):
            ld = spec[role]
            if isinstance(ld, str):
                out[role] = Leader(ld)
            else:
                out[role] = Leader(ld.name, serving_in=ld.serving_in or None, neglects=ld.neglects, ability=ld.ability)
        return out

    for k in sorted(sc.kingdoms, key=lambda k: k.id):
        leaders = leaders_of(k.leaders)
        setts = []
        for s in k.settlements:
            h = settlements[s.name]
            water = s.water_border if s.water_border is not None else (hm.hexes[h].river or hm.hexes[h].coast)
            setts.append(Settlement(s.name, h, s.districts, dict(sorted(s.buildings.items())), water, dict(sorted(s.mods.items()))))
        imps: dict[int, list[str]] = {}
        for im in k.improvements:
            h = _idx(world, im.at)
            imps[h] = sorted({*imps.get(h, []), im.kind})
        hexes = sorted({_idx(world, c) for c in k.hexes})
        kg = Kingdom(
            id=k.id,
            name=k.name or k.id,
            name_fr=k.name_fr,
            alignment=k.alignment,
            policy=k.policy,
            government=k.government,
            capital=k.capital or (setts[0].name if setts else None),
            treasury=k.treasury,
            economy=k.economy,
            loyalty=k.loyalty,
            stability=k.stability,
            unrest=k.unrest,
            fame=k.fame,
            infamy=k.infamy,
            hexes=hexes,
            settlements=setts,
            improvements=dict(sorted(imps.items())),
            leaders=leaders,
            holiday=k.edicts.holiday,
            promotion=k.edicts.promotion,
            taxation=k.edicts.taxation,
            skills=dict(sorted(k.skills.items())),
            counter_skills=dict(sorted(k.counter_skills.items())),
            explorers=dict(sorted(k.explorers.items())),
            armies=k.armies,
            overlord=k.overlord or None,
            conquered_by=k.conquered_by or None,
            tracked=k.tracked,
            enforcer=k.enforcer,
            control_dc_mod=k.control_dc_mod,
            consumption_mod=k.consumption_mod,
            deposition_shift=k.deposition_shift,
            milestone_choice=k.milestone_choice,
            granary=k.granary,
            anarchy=k.anarchy,
            sponsor=k.sponsor or None,
            vassal_policy=k.vassal_policy,
            vassal_leaders=leaders_of(k.vassal_leaders),
            vassal_attrs=[] if k.vassal_attrs is None else [k.vassal_attrs.economy, k.vassal_attrs.loyalty, k.vassal_attrs.stability],
            milestones=[m for m in (11, 26, 51, 101, 201) if len(hexes) >= m],
            expedition=None if k.expedition is None else ExpeditionTemplate(
                offense=k.expedition.offense, defense=k.expedition.defense, mobility=k.expedition.mobility,
                morale=k.expedition.morale, wagons=list(k.expedition.wagons),
                travelers=[[t.id if t.count == 1 else f"{t.id}-{n}", t.job] for t in k.expedition.travelers
                           for n in range(1, t.count + 1)],
                feats=list(k.expedition.feats), gp=k.expedition.gp, policy=k.expedition.policy),
        )
        km.kingdoms[k.id] = kg
        for h in hexes:
            km.hex(h).explored = True
    for c in sc.km_explored:
        km.hex(_idx(world, c)).explored = True
    for part in sc.km_progress:
        km.hex(_idx(world, part.at)).progress = part.days
    for f in sc.km_hidden_features:
        km.hex(_idx(world, f.at)).features.append(HiddenFeature(f.name, f.dc, f.found_by or None))
    km.hexes = dict(sorted(km.hexes.items()))
    # relations (RES-KM-45), sponsors (KM-REL-04), stances (RES-KM-07, RES-KM-02)
    for kid in km.ids():
        sp = km.kingdoms[kid].sponsor
        if sp:
            km.relation(kid, sp).embassy = True
    for r in sc.km_relations:
        a, b = r.between
        rel = km.relation(a, b)
        rel.enemies = r.enemies
        if r.relation != "none":
            rel.embassy = True
        for kind in ("treaty", "alliance"):
            if r.relation == kind or (kind == "treaty" and r.relation == "alliance"):
                given: dict[str, int] | None = r.bonus if kind == "treaty" else r.alliance_bonus
                attr = "economy" if kind == "treaty" else "stability"
                adv = r.advantaged or a
                if given is None:
                    vals = {x: getattr(stats(world, km.kingdoms[x]), attr) for x in (a, b)}
                    if r.balanced:
                        given = {a: max(0, vals[b]) * 10 // 100, b: max(0, vals[a]) * 10 // 100}
                    else:
                        dis = b if adv == a else a
                        given = {adv: max(0, vals[dis]) * 15 // 100, dis: max(0, vals[adv]) * 5 // 100}
                ag = Agreement(kind=kind, balanced=r.balanced, advantaged=adv, bonus=dict(sorted(given.items())),
                               reduction={a: 0, b: 0}, signed_turn=-1)
                if kind == "treaty":
                    rel.treaty = ag
                else:
                    rel.alliance = ag
    km.relations = dict(sorted(km.relations.items()))
    for stn in sc.km_stances:
        stance = km.stance(stn.kingdom, stn.towards)
        stance.attitude = stn.attitude
        stance.present = stn.representative
    km.stances = dict(sorted(km.stances.items()))
    # the scenario's attributes are the kingdom sheet: keep as base what the engine does not add itself
    for kid in km.ids():
        kg = km.kingdoms[kid]
        st = stats(world, kg)
        kg.economy -= st.economy - kg.economy
        kg.loyalty -= st.loyalty - kg.loyalty
        kg.stability -= st.stability - kg.stability
    km.encounters = [
        Encounter(e.day, e.cr, e.hostile, -1 if e.at is None else _idx(world, e.at), e.kingdom or None, e.expedition, e.outcome, e.name)
        for e in sorted(sc.km_encounters, key=lambda e: e.day)
    ]
    km.events = [
        ScriptedEvent(e.turn - 1, e.kind, e.kingdom, e.target or None, e.amount, e.requested, e.end_relations)
        for e in sorted(sc.km_events, key=lambda e: (e.turn, e.kingdom))
    ]
    for k in sc.kingdoms:
        if k.policy != "scripted":
            continue
        if k.orders_file:
            label, spec = read_orders_file(k.orders_file)
            km.orders_source[k.id] = label
            km.scripted[k.id] = [to_turn_orders(world, o, f"orders[{j}]") for j, o in enumerate(spec.orders)]
        else:
            i = next(j for j, x in enumerate(sc.kingdoms) if x.id == k.id)
            km.orders_source[k.id] = f'scenario "{sc.scenario.name}"'
            km.scripted[k.id] = [to_turn_orders(world, o, f"kingdoms[{i}].orders[{j}]") for j, o in enumerate(k.orders)]
    km.orders_source = dict(sorted(km.orders_source.items()))
    km.scripted = dict(sorted(km.scripted.items()))


__all__ = ["KingdomSpec", "check", "build", "ALIGNMENTS", "HOLIDAY_LEVELS"]
