"""The minimal kingdom turn (RULES.md §5.1, SC-KM): statistics, kingdom checks, Upkeep, the ordinary
part of the Edict phase, Income and Event.

French terms: kingdom check (*test de royaume*), Control DC (*DD de contrôle*), Upkeep phase (*phase
d'entretien*), Edict phase (*phase d'édit*), Income (*revenus*), Unrest (*Insatisfaction*), Treasury
(*trésorerie*), BP (*PC*), Consumption (*Consommation*), Fame/Infamy (*Gloire/Infamie*).

Rules are plain functions of (world, kingdom id, order, dice, ledger); they mutate ``world.km`` in
place, emit one ledger event per roll, check or change, and raise ``IllegalOrderError`` for an order
that breaks a rule. Every number a resolution invented is read from ``world.config.km``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import CheckResult, Ledger, check
from sim.hexmap import ROAD_LEVEL
from sim.state.km import (
    ATTITUDES,
    HOLIDAY_LEVELS,
    PROMOTION_LEVELS,
    TAXATION_LEVELS,
    Kingdom,
    KmWorld,
    Settlement,
)

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World

SYS = "km"

# ---- tables --------------------------------------------------------------------------------------

# SC-KM-02: alignment adjustments (Economy, Loyalty, Stability)
ALIGNMENT_ADJUST = {
    "L": (2, 0, 0),
    "C": (0, 2, 0),
    "G": (0, 2, 0),
    "E": (2, 0, 0),
    "N": (0, 0, 2),
}

# SC-KM-14/15/16: level → (attribute modifier, Consumption)
HOLIDAY = {"none": (-1, 0), "1": (1, 1), "6": (2, 2), "12": (3, 4), "24": (4, 8)}
PROMOTION = {"none": (-1, 0), "token": (1, 1), "standard": (2, 2), "aggressive": (3, 4), "expansionist": (4, 8)}
# taxation level → (Economy, Loyalty)
TAXATION = {"none": (0, 1), "light": (1, -1), "normal": (2, -2), "heavy": (3, -4), "overwhelming": (4, -8)}

# SC-KM-17: Size up to → (new settlements, new buildings (None: no limit), terrain improvements, hex claims)
IMPROVEMENT_LIMITS: tuple[tuple[int, int, int | None, int, int], ...] = (
    (10, 1, 1, 2, 1),
    (25, 1, 2, 3, 2),
    (50, 1, 5, 5, 3),
    (100, 2, 10, 7, 4),
    (200, 3, 20, 9, 8),
    (10**9, 4, None, 12, 12),
)
FREE_HOUSES = ("mansion", "noble_villa", "house", "tenement")


@dataclass(frozen=True)
class BuildingType:
    """A row of SC-KM-31. ``kingdom``: ongoing Economy/Loyalty/Stability/Fame; ``unrest``: once on
    completion; ``settlement``: settlement modifiers."""

    french: str
    bp: int
    lots: int
    economy: int = 0
    loyalty: int = 0
    stability: int = 0
    fame: int = 0
    unrest: int = 0
    settlement: dict[str, int] = field(default_factory=dict)
    water_border: bool = False
    route: str = ""  # the trade-route type it counts for


BUILDINGS: dict[str, BuildingType] = {
    "alchemist": BuildingType("alchimiste", 18, 1, economy=1, route="luxuries"),
    "black_market": BuildingType(
        "marché noir", 50, 1, economy=2, stability=1, unrest=1, settlement={"corruption": 2, "crime": 2}
    ),
    "casters_tower": BuildingType("tour du mage", 30, 1, economy=1, loyalty=1, route="luxuries"),
    "exotic_artisan": BuildingType("artisan exotique", 10, 1, economy=1, stability=1, route="luxuries"),
    "foundry": BuildingType(
        "fonderie", 16, 2, economy=1, stability=1, unrest=1, settlement={"productivity": 1}, water_border=True
    ),
    "granary": BuildingType("grange", 12, 1, loyalty=1, stability=1),
    "guildhall": BuildingType(
        "maison de la guilde", 34, 2, economy=2, loyalty=2, settlement={"law": 1, "productivity": 2}, route="goods"
    ),
    "herbalist": BuildingType("herboriste", 10, 1, loyalty=1, stability=1, route="luxuries"),
    "luxury_store": BuildingType("boutique de luxe", 28, 1, economy=1, route="luxuries"),
    "magic_shop": BuildingType("boutique de magie", 68, 1, economy=1, route="luxuries"),
    "mansion": BuildingType("manoir", 10, 1, stability=1, settlement={"law": 1, "society": 1}),
    "mill": BuildingType("moulin", 6, 1, economy=1, stability=1, settlement={"productivity": 1}, water_border=True),
    "noble_villa": BuildingType(
        "villa noble", 24, 2, economy=1, loyalty=1, stability=1, fame=1, settlement={"society": 1}
    ),
    "pier": BuildingType("quai", 16, 1, economy=1, stability=1, settlement={"crime": 1}, water_border=True),
    "shop": BuildingType("boutique", 8, 1, economy=1, settlement={"productivity": 1}, route="goods"),
    "smithy": BuildingType("forge", 6, 1, economy=1, stability=1, route="goods"),
    "stockyard": BuildingType("enclos à bétail", 20, 4, economy=1, stability=-1, settlement={"productivity": 1}),
    "tannery": BuildingType("tannerie", 6, 1, economy=1, stability=1, settlement={"society": -1}, route="goods"),
    "tavern": BuildingType("taverne", 12, 1, economy=1, loyalty=1, settlement={"corruption": 1}),
    "trade_shop": BuildingType(
        "commerce", 10, 1, economy=1, stability=1, settlement={"productivity": 1}, route="goods"
    ),
    "waterfront": BuildingType(
        "front de mer", 90, 4, economy=4, settlement={"productivity": 2}, water_border=True
    ),
}
SETTLEMENT_MODS = ("corruption", "crime", "law", "lore", "productivity", "society")

# SC-KM-29: government → settlement modifiers
GOVERNMENT_MODS: dict[str, dict[str, int]] = {
    "autocracy": {},
    "magocracy": {"lore": 2, "productivity": -1, "society": -1},
    "oligarchy": {"corruption": 1, "law": -1, "lore": -1, "society": 1},
    "overlord": {"corruption": 1, "crime": -1, "law": 1, "society": -1},
    "republic": {"crime": -1, "law": -1, "productivity": 1, "society": 1},
    "secret_syndicate": {"corruption": 1, "crime": 1, "law": -3, "productivity": 1},
    "theocracy": {"corruption": -1, "law": 1, "lore": 1, "society": -1},
}

# SC-KM-33: terrain → (exploration days at 30 ft, preparation BP, Farm BP or None, Road BP); Water: 2 days
TERRAIN: dict[str, tuple[int, int | None, int | None, int | None]] = {
    "cavern": (3, 8, None, 4),
    "desert": (2, 4, 8, 4),
    "forest": (2, 4, None, 2),
    "hills": (1, 2, 4, 3),
    "jungle": (2, 12, None, 4),
    "marsh": (3, 8, None, 4),
    "mountains": (3, 12, None, 4),
    "plains": (1, 1, 2, 1),
    "water": (2, None, None, None),
}
# SC-KM-34: speed → (travel h plain, travel h other, explore d plain/hill, d desert/forest/marsh, d mountain)
SPEED_TABLE: dict[int, tuple[int, int, int, int, int]] = {
    15: (11, 16, 3, 4, 5),
    20: (8, 12, 2, 3, 4),
    30: (5, 8, 1, 2, 3),
    40: (4, 6, 1, 1, 2),
    50: (3, 5, 1, 1, 1),
}
# SC-KM-32: terrain improvement → (BP or None (by terrain), allowed KM terrains)
IMPROVEMENT_COST = {"fishery": 4, "mine": 6, "quarry": 6, "sawmill": 3}
IMPROVEMENT_TERRAIN = {
    "farm": ("desert", "hills", "plains"),
    "mine": ("cavern", "desert", "hills", "mountains"),
    "quarry": ("cavern", "hills", "mountains"),
    "sawmill": ("forest", "jungle"),
}

# the map has moor and tundra, which the kingdom tables do not list: the Core Rulebook counts moors as
# marsh terrain and tundra as desert terrain (S5), so they use those rows.
# resolution: ENG-KM-01
_KM_TERRAIN = {"moor": "marsh", "tundra": "desert"}


def km_terrain(terrain: str) -> str:
    return _KM_TERRAIN.get(terrain, terrain)


ATTR_NAMES = {"economy": "Economy", "loyalty": "Loyalty", "stability": "Stability"}
ATTR_NAMES_FR = {"economy": "Économie", "loyalty": "Loyauté", "stability": "Stabilité"}


def actor(kid: str) -> str:
    return f"kingdom:{kid}"


# ---- statistics --------------------------------------------------------------------------------


@dataclass
class Stats:
    """A kingdom's current numbers (what a kingdom sheet shows)."""

    economy: int
    loyalty: int
    stability: int
    size: int
    districts: int
    control_dc: int
    raw_consumption: int
    consumption: int
    fame: int
    infamy: int
    parts: dict[str, list[tuple[str, int]]] = field(default_factory=dict)


def size_of(k: Kingdom) -> int:
    return len(k.hexes)


def districts_of(k: Kingdom) -> int:
    return sum(s.districts for s in k.settlements)


def control_dc(k: Kingdom) -> int:
    """SC-KM-04: 20 + Size + districts (+ special modifiers)."""
    return 20 + size_of(k) + districts_of(k) + k.control_dc_mod


def special_size(k: Kingdom) -> int:
    """KM-DIP-05: Size / 5, rounded down (GEN-02, OQ-KM-08)."""
    # implements: GEN-02
    return size_of(k) // 5


def alignment_axes(al: str) -> tuple[int, int]:
    """RES-KM-05: positions 0..2 on law–chaos and good–evil (true Neutral is "N")."""
    if al == "N":
        return 1, 1
    lc = {"L": 0, "N": 1, "C": 2}[al[0]]
    ge = {"G": 0, "N": 1, "E": 2}[al[1]]
    return lc, ge


def alignment_steps(a: str, b: str) -> tuple[int, int]:
    (la, ga), (lb, gb) = alignment_axes(a), alignment_axes(b)
    return abs(la - lb), abs(ga - gb)


def alignment_base(al: str) -> tuple[int, int, int]:
    """SC-KM-02: Economy, Loyalty, Stability adjustments of an alignment (Neutral twice for "N")."""
    eco = loy = stab = 0
    letters = ("N", "N") if al == "N" else (al[0], al[1])
    for ch in letters:
        e, lo, s = ALIGNMENT_ADJUST[ch]
        eco, loy, stab = eco + e, loy + lo, stab + s
    return eco, loy, stab


def settlement_mods(world: World, k: Kingdom, s: Settlement) -> dict[str, int]:
    """RES-KM-38: Σ buildings + government (+ scenario extras, + SC-KM-30 size modifiers when on)."""
    # implements: SC-KM-29
    out = dict.fromkeys(SETTLEMENT_MODS, 0)
    for kind in sorted(s.buildings):
        n = s.buildings[kind]
        for m, v in BUILDINGS[kind].settlement.items():
            out[m] += v * n
    for m, v in GOVERNMENT_MODS.get(k.government, {}).items():
        out[m] += v
    for m, v in s.mods.items():
        out[m] = out.get(m, 0) + v
    if world.config.km.settlement_size_modifiers:
        lots = sum(BUILDINGS[b].lots * n for b, n in s.buildings.items())
        if lots <= 1:
            size_mod = -4
        elif lots <= 8:
            size_mod = -2
        elif lots <= 20:
            size_mod = 0
        elif lots <= 40:
            size_mod = 1
        else:
            size_mod = s.districts
        for m in SETTLEMENT_MODS:
            out[m] += size_mod
    return out


def settlement(k: Kingdom, name: str) -> Settlement | None:
    for s in k.settlements:
        if s.name == name:
            return s
    return None


def ruler_vacant(k: Kingdom) -> bool:
    """SC-KM-20; for a vassal, KM-VAS-08/SC-KM-24: no Viceroy, or one who neglects the duties."""
    if k.overlord is not None:
        v = k.leaders.get("viceroy")
        return v is None or v.neglects
    return "ruler" not in k.leaders


def vacant(k: Kingdom, role: str) -> bool:
    if role == "ruler":
        return ruler_vacant(k)
    return role not in k.leaders


def count_buildings(k: Kingdom, kinds: tuple[str, ...] | set[str], settlement_name: str | None = None) -> int:
    n = 0
    for s in k.settlements:
        if settlement_name is None or s.name == settlement_name:
            n += sum(s.buildings.get(b, 0) for b in kinds)
    return n


def count_improvements(k: Kingdom, kind: str) -> int:
    return sum(1 for imps in k.improvements.values() if kind in imps)


def improvement_counts(k: Kingdom) -> dict[str, int]:
    """``count_improvements`` of every kind at once: how many hexes hold each improvement."""
    out: dict[str, int] = {}
    for imps in k.improvements.values():
        for kind in imps if len(imps) < 2 else set(imps):
            out[kind] = out.get(kind, 0) + 1
    return out


# resolution: ENG-KM-07
def linked_mines(world: World, k: Kingdom) -> int:
    """SC-KM-31 Foundry: one Mine per Foundry linked by river or Road gives +1 Economy and +1 BP."""
    foundries = count_buildings(k, ("foundry",))
    if not foundries:
        return 0
    mines = 0
    for h in sorted(k.improvements):
        if "mine" in k.improvements[h]:
            hx = world.map.hexes[h]
            if hx.river or hx.road_level >= ROAD_LEVEL["road"]:
                mines += 1
    return min(foundries, mines)


def stockyard_reach(world: World, k: Kingdom) -> set[int]:
    """The hexes in or next to a settlement of ``k`` with a Stockyard (SC-KM-31)."""
    out: set[int] = set()
    for s in k.settlements:
        if s.buildings.get("stockyard", 0):
            out.add(s.hex)
            out.update(world.map.neighbors(s.hex))
    return out


def farm_reduction(world: World, k: Kingdom, h: int, reach: set[int] | None = None) -> int:
    """SC-KM-32 Farm: Consumption −2, −3 in or next to a settlement with a Stockyard (SC-KM-31).
    ``reach``: ``stockyard_reach(world, k)``, when the caller asks for many farms."""
    return 3 if h in (stockyard_reach(world, k) if reach is None else reach) else 2


def stats(world: World, k: Kingdom, *, audit: bool = False) -> Stats:
    """Economy, Loyalty, Stability, Control DC, Consumption, Fame and Infamy as they stand now."""
    km = world.km
    assert km is not None
    parts: dict[str, list[tuple[str, int]]] = {"economy": [], "loyalty": [], "stability": [], "consumption": []}

    def add(attr: str, name: str, v: int) -> None:
        if v:
            parts[attr].append((name, v))

    add("economy", "base", k.economy)
    add("loyalty", "base", k.loyalty)
    add("stability", "base", k.stability)
    # buildings (SC-KM-28/31, kingdom lines)
    be = bl = bs = bf = 0
    for s in k.settlements:
        for kind, n in s.buildings.items():
            b = BUILDINGS[kind]
            be += b.economy * n
            bl += b.loyalty * n
            bs += b.stability * n
            bf += b.fame * n
    add("economy", "buildings", be)
    add("loyalty", "buildings", bl)
    add("stability", "buildings", bs)
    # embassy buildings owned abroad (KM-REL-03)
    emb = [e for e in km.embassy_buildings if e.owner == k.id]
    soc_extra = 0
    for e in emb:
        b = BUILDINGS[e.kind]
        add("economy", f"embassy building in {e.host}", b.economy + 2)
        add("loyalty", f"embassy building in {e.host}", b.loyalty)
        add("stability", f"embassy building in {e.host}", b.stability)
        bf += b.fame
        soc_extra += 2
        add("consumption", f"embassy building in {e.host}", 1)
    # terrain improvements (SC-KM-32)
    held = improvement_counts(k)
    mines = held.get("mine", 0)
    quarries = held.get("quarry", 0)
    sawmills = held.get("sawmill", 0)
    add("economy", "Mines", mines)
    add("stability", "Quarries and Sawmills", quarries + sawmills)
    roads = highways = 0
    hexes = world.map.hexes
    road, highway = ROAD_LEVEL["road"], ROAD_LEVEL["highway"]
    for h in k.hexes:
        lvl = ROAD_LEVEL[hexes[h].road]
        if lvl >= road:
            roads += 1
            if lvl >= highway:
                highways += 1
    add("economy", "Roads", roads // 4 + highways // 4)
    add("stability", "Roads", roads // 8 + highways // 8)
    add("economy", "Foundry-linked Mines", linked_mines(world, k))
    # edicts (SC-KM-14/15/16)
    # implements: SC-KM-14, SC-KM-15, SC-KM-16
    hol_loy, hol_cons = HOLIDAY[k.holiday]
    if vacant(k, "councilor") and hol_loy > 0:
        hol_loy = 0  # SC-KM-23: no Holiday benefit
    add("loyalty", f"Holiday edict ({k.holiday})", hol_loy)
    add("consumption", f"Holiday edict ({k.holiday})", hol_cons)
    pro_stab, pro_cons = PROMOTION[k.promotion]
    add("stability", f"Promotion edict ({k.promotion})", pro_stab)
    add("consumption", f"Promotion edict ({k.promotion})", pro_cons)
    tax_eco, tax_loy = TAXATION[k.taxation]
    if tax_loy < 0 and count_buildings(k, ("waterfront",)):
        tax_loy = -((-tax_loy) // 2)  # SC-KM-31 Waterfront halves the Taxation Loyalty penalty
    add("economy", f"Taxation edict ({k.taxation})", tax_eco)
    add("loyalty", f"Taxation edict ({k.taxation})", tax_loy)
    # vacancies (SC-KM-21/23)
    for role, eco, loy, stab in _VACANCY_ATTRS:
        if vacant(k, role):
            add("economy", f"{role} vacant", eco)
            add("loyalty", f"{role} vacant", loy)
            add("stability", f"{role} vacant", stab)
    # Viceroy (SC-KM-24)
    if k.overlord is not None and "viceroy" in k.leaders and not k.leaders["viceroy"].neglects:
        # implements: RES-KM-36
        add("economy", "Viceroy", k.leaders["viceroy"].ability // 2)
    # agreements (KM-REL-09/11, RES-KM-11/46)
    for rel in _relations_of(km, k.id):
        other = rel.b if rel.a == k.id else rel.a
        if rel.treaty is not None:
            add("economy", f"treaty with {other}", rel.treaty.bonus.get(k.id, 0))
        if rel.alliance is not None:
            add("stability", f"alliance with {other}", rel.alliance.bonus.get(k.id, 0))
    # trade routes (KM-TRADE-11/12/16…19, RES-KM-23/25)
    turn = km.turn
    for r in km.routes:
        if r.kingdom == k.id and r.status == "established" and r.arrival_turn <= turn < r.expiry_turn:
            add("economy", f"{r.type} trade route", r.economy_bonus)
            if r.type != "food" or k_surplus(k, turn):
                add("economy", f"{r.type} route type bonus", r.type_bonus)
    # Consumption (RES-KM-32)
    size = size_of(k)
    add("consumption", "Size", size)
    add("consumption", "other", k.consumption_mod)
    farms = 0
    reach = stockyard_reach(world, k)
    for h, imps in k.improvements.items():
        if "farm" in imps:
            farms += farm_reduction(world, k, h, reach)
    add("consumption", "Farms", -farms)
    add("consumption", "Fisheries", -held.get("fishery", 0))
    # implements: SC-KM-06, RES-KM-32
    raw = sum(v for _, v in parts["consumption"])
    # Fame and Infamy (SC-KM-26, RES-KM-37)
    lore_soc = soc_extra
    corr_crime = 0
    for s in k.settlements:
        m = settlement_mods(world, k, s)
        lore_soc += m["lore"] + m["society"]
        corr_crime += m["corruption"] + m["crime"]
    # implements: SC-KM-26, RES-KM-37
    fame = max(0, k.fame + bf + max(0, lore_soc) // 10)
    infamy = max(0, k.infamy + max(0, corr_crime) // 10)
    districts = districts_of(k)
    st = Stats(
        economy=sum(v for _, v in parts["economy"]),
        loyalty=sum(v for _, v in parts["loyalty"]),
        stability=sum(v for _, v in parts["stability"]),
        size=size,
        districts=districts,
        control_dc=20 + size + districts + k.control_dc_mod,
        raw_consumption=raw,
        consumption=max(0, raw),
        fame=fame,
        infamy=infamy,
    )
    if audit:
        st.parts = parts
    return st


_VACANCY_ATTRS = (
    ("grand_diplomat", 0, 0, -2),
    ("councilor", 0, -2, 0),
    ("general", 0, -4, 0),
    ("high_priest", 0, -2, -2),
    ("magister", -4, 0, 0),
    ("marshal", -4, 0, 0),
    ("spymaster", -4, 0, 0),
    ("treasurer", -4, 0, 0),
    ("warden", 0, -2, -2),
)
_VACANCY_UNREST = (("councilor", 1), ("high_priest", 1), ("spymaster", 1))


def k_surplus(k: Kingdom, turn: int) -> bool:
    """RES-KM-25: this turn's Upkeep step 2 found a negative raw Consumption."""
    return k.surplus_turn == turn


def _relations_of(km: KmWorld, kid: str) -> list[Any]:
    return [r for r in km.relations.values() if r.a == kid or r.b == kid]


def fame_of(world: World, k: Kingdom) -> int:
    return stats(world, k).fame


def infamy_of(world: World, k: Kingdom) -> int:
    return stats(world, k).infamy


def change_fame(k: Kingdom, delta: int) -> None:
    """SC-KM-25: the score never goes below 0 (the base part is clamped)."""
    k.fame = max(0, k.fame + delta)


def change_infamy(k: Kingdom, delta: int) -> None:
    k.infamy = max(0, k.infamy + delta)


def add_unrest(k: Kingdom, delta: int) -> int:
    """SC-KM-07: Unrest never goes below 0. Returns the new value."""
    k.unrest = max(0, k.unrest + delta)
    return k.unrest


def shift_attitude(km: KmWorld, a: str, b: str, steps: int) -> tuple[str, str]:
    """RES-KM-07: move a's attitude towards b along the ladder, stopping at its ends."""
    st = km.stance(a, b)
    before = st.attitude
    i = min(len(ATTITUDES) - 1, max(0, ATTITUDES.index(before) + steps))
    st.attitude = ATTITUDES[i]
    return before, st.attitude


# ---- kingdom checks ----------------------------------------------------------------------------


def kingdom_check(
    dice: Dice,
    k: Kingdom,
    attr: str,
    dc: int,
    st: Stats,
    extra: list[tuple[str, int]] | None = None,
) -> tuple[CheckResult, list[tuple[str, int]]]:
    """SC-KM-03: 1d20 + attribute − Unrest (+ other modifiers); natural 1 fails, natural 20 succeeds.
    In anarchy (SC-KM-07) the result counts as 0."""
    mods: list[tuple[str, int]] = [(ATTR_NAMES[attr], getattr(st, attr))]
    if k.unrest:
        mods.append(("Unrest", -k.unrest))
    if extra:
        mods.extend(extra)
    if k.anarchy:
        nat = dice.roll(20)[0]
        ok = nat == 20 or (nat != 1 and 0 >= dc)
        return CheckResult(nat, 0, dc, ok), [*mods, ("anarchy: result counts as 0", 0)]
    r = check(dice, dc, mods, natural_1_fails=True, natural_20_succeeds=True)
    return r, mods


def emit_check(
    ledger: Ledger,
    kind: str,
    kid: str,
    clauses: tuple[str, ...],
    r: CheckResult,
    mods: list[tuple[str, int]],
    **data: Any,
) -> None:
    ledger.emit(
        SYS,
        kind,
        actor(kid),
        clauses,
        dc=r.dc,
        mods=mods,
        dice=[(20, r.natural)],
        total=r.total,
        outcome="success" if r.success else "failure",
        **data,
    )


# ---- turn start --------------------------------------------------------------------------------


def start_turn(world: World, turn: int, ledger: Ledger) -> None:
    """Turn bookkeeping before Upkeep: expire trade routes (RES-KM-23), reset per-turn counters."""
    km = world.km
    assert km is not None
    km.turn = turn
    for r in km.routes:
        if r.status == "established" and r.expiry_turn <= turn:
            r.status = "expired"
            ledger.emit(
                SYS,
                "TradeRouteExpired",
                actor(r.kingdom),
                ("KM-TRADE-13", "RES-KM-23", "RES-KM-24"),
                outcome="expired",
                route=r.id,
                type=r.type,
                partner=r.partner,
            )
    for kid in km.ids():
        k = km.kingdoms[kid]
        k.acted_for = None
        if k.budget_turn != turn:
            k.construction_budget = 0


def sheet(world: World, kid: str, ledger: Ledger) -> None:
    """One event with the kingdom's numbers at the start of its turn (for audit and reports)."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    st = stats(world, k)
    ledger.emit(
        SYS,
        "KingdomTurnBegan",
        actor(kid),
        ("SC-KM-01", "SC-KM-08"),
        turn=km.turn,
        size=st.size,
        treasury=k.treasury,
        economy=st.economy,
        loyalty=st.loyalty,
        stability=st.stability,
        unrest=k.unrest,
        control_dc=st.control_dc,
        consumption=st.consumption,
        fame=st.fame,
        infamy=st.infamy,
    )


# ---- Upkeep (SC-KM-09…12, RES-KM-34) -----------------------------------------------------------


def upkeep(world: World, kid: str, dice: Dice, ledger: Ledger, *, lose_hex: Any = None) -> None:
    """The Upkeep phase of one kingdom, in the order of RES-KM-34."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    turn = km.turn
    if not k.hexes:
        ledger.emit(SYS, "UpkeepSkipped", actor(kid), ("SC-KM-08",), outcome="no hexes")
        return
    st = stats(world, k)
    # step 1: Stability check (SC-KM-09)
    r, mods = kingdom_check(dice, k, "stability", st.control_dc, st)
    before = k.unrest
    rolled: list[tuple[int, int]] = [(20, r.natural)]
    treasury_gain = 0
    if r.success:
        if k.unrest > 0:
            k.unrest -= 1
        else:
            k.treasury += 1
            treasury_gain = 1
    elif r.failed_by <= 4:
        k.unrest += 1
    else:
        d = dice.roll(4)[0]
        rolled.append((4, d))
        k.unrest += d
    ledger.emit(
        SYS,
        "UpkeepStabilityCheckRolled",
        actor(kid),
        ("SC-KM-09", "SC-KM-03", "SC-KM-04"),
        dc=r.dc,
        mods=mods,
        dice=rolled,
        total=r.total,
        outcome="success" if r.success else ("failure" if r.failed_by <= 4 else "failure by 5 or more"),
        unrest_before=before,
        unrest_after=k.unrest,
        treasury_gain=treasury_gain,
    )
    # step 2: Consumption (SC-KM-10, RES-KM-32, SC-KM-31 Granary)
    raw = st.raw_consumption
    cons = st.consumption
    granaries = count_buildings(k, ("granary",))
    stored = 0
    if raw < 0:
        k.surplus_turn = turn
        if granaries:
            # resolution: ENG-KM-06
            stored = min(5 * granaries - k.granary, -raw)
            stored = max(0, stored)
            k.granary += stored
    from_store = 0
    if cons > k.treasury and k.granary > 0:
        from_store = min(k.granary, cons - max(0, k.treasury))
        k.granary -= from_store
    t_before = k.treasury
    k.treasury -= cons - from_store
    debt = k.treasury < 0
    if debt:
        k.unrest += 2
    ledger.emit(
        SYS,
        "ConsumptionPaid",
        actor(kid),
        ("SC-KM-10", "SC-KM-06", "RES-KM-32", "SC-KM-05"),
        total=cons,
        outcome="in debt" if debt else "paid",
        raw_consumption=raw,
        from_granary=from_store,
        stored_in_granary=stored,
        treasury_before=t_before,
        treasury_after=k.treasury,
        unrest_after=k.unrest,
    )
    # step 3 (SC-KM-11) is not simulated (RES-KM-33)
    # step 4: negative attributes (SC-KM-12)
    st = stats(world, k)
    neg = [a for a in ("economy", "loyalty", "stability") if getattr(st, a) < 0]
    if neg:
        k.unrest += len(neg)
        ledger.emit(
            SYS,
            "UnrestFromNegativeAttributes",
            actor(kid),
            ("SC-KM-12",),
            total=len(neg),
            outcome=f"+{len(neg)} Unrest",
            attributes=neg,
            unrest_after=k.unrest,
        )
    if k.enforcer and "royal_enforcer" in k.leaders and k.unrest > 0:
        k.unrest -= 1
        r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
        if not r.success:
            k.loyalty -= 1
        emit_check(
            ledger,
            "EnforcerLoyaltyCheckRolled",
            kid,
            ("SC-KM-12", "RES-KM-34"),
            r,
            mods,
            unrest_after=k.unrest,
            loyalty_change=0 if r.success else -1,
        )
    # vacancies (SC-KM-20…23, KM-VAS-08, RES-KM-31)
    _vacancy_upkeep(world, k, dice, ledger)
    if k.occupied:  # --- LINK-08 hook: +1 Unrest per domain of its hexes occupied by unaffiliated guilds
        from sim.rules.links import occupation_unrest

        occupation_unrest(world, kid, ledger)
    # subjugation friction (KM-VAS-07), for the kingdoms this one subjugates
    for sid in km.ids():
        sub = km.kingdoms[sid].subjugation
        if sub is not None and sub.overlord == kid and not sub.finished and sub.since_turn < turn:
            friction_check(world, kid, sid, dice, ledger)
    # Unrest ≥ 11 and 20 (SC-KM-07)
    if k.unrest >= 11 and k.hexes:
        h = lose_hex(k) if lose_hex is not None else default_hex_to_lose(world, k)
        lose_claimed_hex(world, k, h)
        km.bump("hexes_lost_to_unrest")
        ledger.emit(
            SYS,
            "HexLostToUnrest",
            actor(kid),
            ("SC-KM-07", "SC-KM-12"),
            outcome="hex lost",
            hex=list(world.map.coords(h)),
            unrest=k.unrest,
            size_after=len(k.hexes),
        )
    was = k.anarchy
    k.anarchy = k.unrest >= 20
    if k.anarchy:
        km.bump("anarchy_turns")
    if k.anarchy != was:
        ledger.emit(
            SYS,
            "AnarchyBegan" if k.anarchy else "AnarchyEnded",
            actor(kid),
            ("SC-KM-07",),
            outcome="anarchy" if k.anarchy else "order restored",
            unrest=k.unrest,
        )


def _vacancy_upkeep(world: World, k: Kingdom, dice: Dice, ledger: Ledger) -> None:
    km = world.km
    assert km is not None
    if ruler_vacant(k):
        stand_in = ruler_stand_in(km, k)
        if stand_in is not None:
            owner, role = stand_in
            km.kingdoms[owner].acted_for = k.id
            st = stats(world, k)
            r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
            if not r.success:
                k.unrest += 1
            emit_check(
                ledger,
                "StandInRulerLoyaltyCheckRolled",
                k.id,
                ("SC-KM-22", "KM-VAS-08", "RES-KM-31"),
                r,
                mods,
                stand_in=f"{owner}:{role}",
                unrest_after=k.unrest,
            )
        else:
            k.unrest += 4
            ledger.emit(
                SYS,
                "VacancyUnrestRose",
                actor(k.id),
                ("SC-KM-20", "SC-KM-24", "KM-VAS-08") if k.overlord else ("SC-KM-20",),
                total=4,
                outcome="+4 Unrest",
                role="viceroy" if k.overlord else "ruler",
                unrest_after=k.unrest,
            )
    for role, n in _VACANCY_UNREST:
        if vacant(k, role):
            k.unrest += n
            ledger.emit(
                SYS,
                "VacancyUnrestRose",
                actor(k.id),
                ("SC-KM-23",),
                total=n,
                outcome=f"+{n} Unrest",
                role=role,
                unrest_after=k.unrest,
            )


# resolution: ENG-KM-03
def ruler_stand_in(km: KmWorld, k: Kingdom) -> tuple[str, str] | None:
    """SC-KM-22 / KM-VAS-08 / RES-KM-31: a Consort or Heir who can act as Ruler for ``k`` this turn.

    A kingdom's own Consort/Heir acts for it unless serving in a vassal; an overlord's Consort/Heir
    whose ``serving_in`` names ``k`` acts for the vassal. Each may negate the penalty in one kingdom
    per turn (``acted_for``)."""
    for role in ("consort", "heir"):
        ldr = k.leaders.get(role)
        if ldr is not None and ldr.serving_in in (None, k.id) and k.acted_for is None:
            return (k.id, role)
    if k.overlord is not None and k.overlord in km.kingdoms:
        ov = km.kingdoms[k.overlord]
        for role in ("consort", "heir"):
            ldr = ov.leaders.get(role)
            if ldr is not None and ldr.serving_in == k.id and ov.acted_for is None:
                return (ov.id, role)
    return None


def friction_check(world: World, overlord: str, subject: str, dice: Dice, ledger: Ledger) -> None:
    """KM-VAS-07 / RES-KM-30: the overlord's Loyalty check at Control DC + the subject's Size / 5."""
    km = world.km
    assert km is not None
    ov = km.kingdoms[overlord]
    sub = km.kingdoms[subject].subjugation
    assert sub is not None
    st = stats(world, ov)
    dc = st.control_dc + sub.dc_increase
    r, mods = kingdom_check(dice, ov, "loyalty", dc, st)
    rolled = [(20, r.natural)]
    if r.success:
        sub.streak += 1
    else:
        sub.streak = 0
        d = dice.roll(4)[0]
        rolled.append((4, d))
        ov.unrest += d
    if sub.streak >= 3:
        sub.finished = True
        km.bump("subjugations_settled")
    ledger.emit(
        SYS,
        "SubjugationFrictionCheckRolled",
        actor(overlord),
        ("KM-VAS-07", "RES-KM-30", "SC-KM-03"),
        dc=dc,
        mods=mods,
        dice=rolled,
        total=r.total,
        outcome="success" if r.success else "failure",
        subject=subject,
        streak=sub.streak,
        equilibrium=sub.finished,
        unrest_after=ov.unrest,
    )


# resolution: ENG-KM-02
def default_hex_to_lose(world: World, k: Kingdom) -> int:
    """SC-KM-07 "leaders' choice": the claimed hex without a settlement farthest from the capital
    (ties: highest index); a settlement hex only when no other is left."""
    cap = capital_hex(k)
    towns = {s.hex for s in k.settlements}
    cands = [h for h in k.hexes if h not in towns] or list(k.hexes)
    if cap is None:
        return max(cands)
    return max(cands, key=lambda h: (world.map.distance(cap, h), h))


def capital_hex(k: Kingdom) -> int | None:
    if k.capital is not None:
        s = settlement(k, k.capital)
        if s is not None:
            return s.hex
    if k.settlements:
        return k.settlements[0].hex
    return k.hexes[0] if k.hexes else None


def lose_claimed_hex(world: World, k: Kingdom, h: int) -> None:
    k.hexes.remove(h)
    k.improvements.pop(h, None)
    for s in list(k.settlements):
        if s.hex == h:
            k.settlements.remove(s)
            if k.capital == s.name:
                k.capital = k.settlements[0].name if k.settlements else None


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


def _pay(k: Kingdom, cost: int, turn: int, what: str, clause: str = "SC-KM-13") -> int:
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
    _pay(k, 1, turn, f"claiming hex {where}")
    _count(k, turn, "claims")
    k.hexes.append(h)
    k.hexes.sort()
    km.bump("hexes_claimed")
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
            _farm_allowed(world, k, h, where)
    _limit(k, turn, "improvements")
    _pay(k, cost, turn, f"a {kind} on {where}", "SC-KM-32")
    _count(k, turn, "improvements")
    if kind == "road":
        world.map.set_road(h, "road")
    elif kind == "highway":
        world.map.set_road(h, "highway")
    else:
        k.improvements[h] = sorted([*imps, kind])
    km.bump("improvements_built")
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


def _farm_allowed(world: World, k: Kingdom, h: int, where: list[int]) -> None:
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
    _pay(k, cost, turn, f"founding {name}")
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
    _pay(k, cost, km.turn, f"a district for {name}", "SC-KM-28")
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
    _pay(k, b.bp, turn, f"a {kind} in {name}", "SC-KM-31")
    _counters(k, turn)
    if free:
        k.free_house_used = True
    else:
        _count(k, turn, "buildings")
    s.buildings[kind] = s.buildings.get(kind, 0) + 1
    s.buildings = dict(sorted(s.buildings.items()))
    km.bump("buildings_built")
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


# ---- Income (SC-KM-18, RES-KM-48) --------------------------------------------------------------


def income(world: World, kid: str, dice: Dice, ledger: Ledger, *, withdraw_bp: int = 0, deposit_gp: int = 0) -> None:
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    if withdraw_bp:
        if withdraw_bp < 0 or withdraw_bp > max(0, k.treasury):
            raise IllegalOrderError("SC-KM-18", f"cannot withdraw {withdraw_bp} BP from a Treasury of {k.treasury} BP", actor=actor(kid))
        k.treasury -= withdraw_bp
        k.unrest += withdraw_bp
        ledger.emit(
            SYS,
            "BPWithdrawn",
            actor(kid),
            ("SC-KM-18",),
            total=withdraw_bp,
            outcome=f"{withdraw_bp * 2000} gp",
            unrest_after=k.unrest,
            treasury_after=k.treasury,
        )
    if deposit_gp:
        bp = deposit_gp // 4000
        k.treasury += bp
        ledger.emit(SYS, "GoldDeposited", actor(kid), ("SC-KM-18",), total=bp, outcome=f"+{bp} BP", gp=deposit_gp)
    if vacant(k, "treasurer"):
        ledger.emit(SYS, "TaxesNotCollected", actor(kid), ("SC-KM-23", "SC-KM-18"), outcome="Treasurer vacant")
        return
    st = stats(world, k)
    r, mods = kingdom_check(dice, k, "economy", 0, st)
    tax = max(0, r.total // 3)
    extra = count_improvements(k, "mine") + count_improvements(k, "quarry") + count_improvements(k, "sawmill")
    extra += linked_mines(world, k)
    k.treasury += tax + extra
    ledger.emit(
        SYS,
        "TaxesCollected",
        actor(kid),
        ("SC-KM-18", "RES-KM-48", "SC-KM-32", "SC-KM-03"),
        mods=mods,
        dice=[(20, r.natural)],
        total=r.total,
        outcome=f"+{tax + extra} BP",
        tax=tax,
        improvements=extra,
        treasury_after=k.treasury,
    )


# ---- Event (SC-KM-19, RES-KM-35) --------------------------------------------------------------


def event_roll(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """SC-KM-19: when random events are on, 25% chance of an event, 75% after a turn without one.
    The engine has no event table (RES-KM-35): the event is recorded for the game master."""
    km = world.km
    assert km is not None
    if not world.config.km.events_enabled:
        return
    k = km.kingdoms[kid]
    chance = 75 if k.no_event_last_turn else 25
    d = dice.roll(100)[0]
    happened = d <= chance
    k.no_event_last_turn = not happened
    ledger.emit(
        SYS,
        "KingdomEventRolled",
        actor(kid),
        ("SC-KM-19", "RES-KM-35"),
        dc=chance,
        dice=[(100, d)],
        total=d,
        outcome="event" if happened else "no event",
    )
