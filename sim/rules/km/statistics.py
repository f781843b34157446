"""A kingdom's statistics (SC-KM-01…06, SC-KM-20…31): the sheet, settlements, vacancies, Fame and
Infamy, attitudes; the kingdom check (*test de royaume*, SC-KM-03).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sim.events import CheckResult, Ledger, check
from sim.hexmap import ROAD_LEVEL
from sim.paths import hex_values
from sim.rules.km.tables import (
    ALIGNMENT_ADJUST,
    ATTR_NAMES,
    BUILDINGS,
    GOVERNMENT_MODS,
    HOLIDAY,
    PROMOTION,
    SETTLEMENT_MODS,
    SYS,
    TAXATION,
    actor,
)
from sim.state.km import ATTITUDES, Kingdom, KmWorld, Settlement

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "Stats",
    "add_unrest",
    "alignment_axes",
    "alignment_base",
    "alignment_steps",
    "building_lines",
    "change_fame",
    "change_infamy",
    "control_dc",
    "count_buildings",
    "count_improvements",
    "districts_of",
    "emit_check",
    "fame_of",
    "farm_reduction",
    "improvement_counts",
    "infamy_of",
    "k_surplus",
    "kingdom_check",
    "linked_mines",
    "ruler_vacant",
    "settlement",
    "settlement_mods",
    "shift_attitude",
    "size_of",
    "special_size",
    "stats",
    "stockyard_reach",
    "vacant",
]


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
    """RES-KM-38: Σ buildings + government (+ scenario extras, + SC-KM-30 size modifiers when on).
    Each call gets its own dict."""
    # implements: SC-KM-29
    return dict(_settlement_mods(tuple(s.buildings.items()), tuple(s.mods.items()), s.districts, k.government,
                                 world.config.km.settlement_size_modifiers))


@lru_cache(maxsize=4096)
def _settlement_mods(buildings: tuple[tuple[str, int], ...], extras: tuple[tuple[str, int], ...], districts: int,
                     government: str, size_modifiers: bool) -> dict[str, int]:
    """:func:`settlement_mods` from everything it reads, kept by those values: the key is built from
    the settlement at each call, so no change of it can leave a stale answer (do not change the dict)."""
    out = dict.fromkeys(SETTLEMENT_MODS, 0)
    for kind, n in buildings:  # (whole numbers: the order of the sums does not matter)
        for m, v in BUILDINGS[kind].settlement.items():
            out[m] += v * n
    for m, v in GOVERNMENT_MODS.get(government, {}).items():
        out[m] += v
    for m, v in extras:
        out[m] = out.get(m, 0) + v
    if size_modifiers:
        lots = sum(BUILDINGS[b].lots * n for b, n in buildings)
        if lots <= 1:
            size_mod = -4
        elif lots <= 8:
            size_mod = -2
        elif lots <= 20:
            size_mod = 0
        elif lots <= 40:
            size_mod = 1
        else:
            size_mod = districts
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
    get = out.get
    for imps in k.improvements.values():
        if len(imps) == 1:  # most hexes hold one improvement
            kind = imps[0]
            out[kind] = get(kind, 0) + 1
        else:
            for kind in dict.fromkeys(imps):  # a hex counts once for each kind it holds
                out[kind] = get(kind, 0) + 1
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


def _road_flags(world: World) -> tuple[list[int], list[int]]:
    """Per hex, 1 where a Road or Highway runs (else 0), and 1 where a Highway does: Size counts of
    SC-KM-32's Road and Highway lines are sums over the kingdom's hexes. Kept until a road changes."""
    hexes = world.map.hexes
    road, highway = ROAD_LEVEL["road"], ROAD_LEVEL["highway"]
    return (hex_values(world.map, "on-road", lambda i: int(ROAD_LEVEL[hexes[i].road] >= road)),
            hex_values(world.map, "on-highway", lambda i: int(ROAD_LEVEL[hexes[i].road] >= highway)))


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


# each building's kingdom lines (SC-KM-31): Economy, Loyalty, Stability, Fame
_LINES = {kind: (b.economy, b.loyalty, b.stability, b.fame) for kind, b in BUILDINGS.items()}


def building_lines(buildings: dict[str, int]) -> tuple[int, int, int, int]:
    """The kingdom lines of a settlement's buildings (kind → count), summed: Economy, Loyalty,
    Stability, Fame (SC-KM-31)."""
    return _building_lines(tuple(buildings.items()))


@lru_cache(maxsize=4096)
def _building_lines(buildings: tuple[tuple[str, int], ...]) -> tuple[int, int, int, int]:
    """:func:`building_lines` kept by the buildings' counts (the key is built at each call: a
    building added or lost gives a new key)."""
    be = bl = bs = bf = 0
    for kind, n in buildings:
        ec, lo, st_, f = _LINES[kind]
        be += ec * n
        bl += lo * n
        bs += st_ * n
        bf += f * n
    return be, bl, bs, bf


def stats(world: World, k: Kingdom, *, audit: bool = False) -> Stats:
    """Economy, Loyalty, Stability, Control DC, Consumption, Fame and Infamy as they stand now."""
    km = world.km
    assert km is not None
    parts: dict[str, list[tuple[str, int]]] = {"economy": [], "loyalty": [], "stability": [], "consumption": []}
    tot = dict.fromkeys(parts, 0)

    def add(attr: str, name: str, v: int) -> None:
        if v:
            tot[attr] += v
            if audit:
                parts[attr].append((name, v))

    add("economy", "base", k.economy)
    add("loyalty", "base", k.loyalty)
    add("stability", "base", k.stability)
    # buildings (SC-KM-28/31, kingdom lines)
    be = bl = bs = bf = 0
    for s in k.settlements:
        ec, lo, st_, f = building_lines(s.buildings)
        be += ec
        bl += lo
        bs += st_
        bf += f
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
    on_road, on_highway = _road_flags(world)
    roads = sum(map(on_road.__getitem__, k.hexes))
    highways = sum(map(on_highway.__getitem__, k.hexes))
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
    leaders = k.leaders
    for role, eco, loy, stab in VACANCY_ATTRS:  # none is the ruler (``vacant``: not among the leaders)
        if role not in leaders:
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
    kid = k.id
    for r in [r for r in km.routes if r.kingdom == kid]:
        if r.status == "established" and r.arrival_turn <= turn < r.expiry_turn:
            add("economy", f"{r.type} trade route", r.economy_bonus)
            if r.type != "food" or k_surplus(k, turn):
                add("economy", f"{r.type} route type bonus", r.type_bonus)
    # Consumption (RES-KM-32)
    size = size_of(k)
    add("consumption", "Size", size)
    add("consumption", "other", k.consumption_mod)
    # SC-KM-32 Farm: −2 each (``held`` counts the hexes with a Farm), −3 in a Stockyard's reach (farm_reduction)
    imps_at = k.improvements.get
    farms = 2 * held.get("farm", 0) + sum([1 for h in stockyard_reach(world, k) if "farm" in imps_at(h, ())])
    add("consumption", "Farms", -farms)
    add("consumption", "Fisheries", -held.get("fishery", 0))
    # implements: SC-KM-06, RES-KM-32
    raw = tot["consumption"]
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
        economy=tot["economy"],
        loyalty=tot["loyalty"],
        stability=tot["stability"],
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


VACANCY_ATTRS = (
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
VACANCY_UNREST = (("councilor", 1), ("high_priest", 1), ("spymaster", 1))


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


