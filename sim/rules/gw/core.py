"""GW core: constants, the hooks the other systems plug in, queries, strength (GW-CMB, RES-GW-07/08), losses (GW-LOSS, RES-GW-13), movement (GW-MOV, RES-GW-05)."""

from __future__ import annotations

from collections.abc import Iterable

from sim.calendar import HOURS_PER_YEAR
from sim.config import GwConfig
from sim.paths import cheapest_path
from sim.state.gw import Army, AttackArmy, AttackDomain, Bonus, Domain, GwWorld, Sack, Siege, Unit
from sim.world import World

__all__ = [
    "ACTION_ORDERS",
    "MAX_ORDERS",
    "OCCUPIED_ALLOWED",
    "PHASES",
    "SPELL_PLACES",
    "SYS",
    "WORKS",
    "allied",
    "apply_damage",
    "armies_at",
    "army_involves",
    "army_speed",
    "army_strength",
    "capped_bonus",
    "defending_strength",
    "domains_at",
    "effective_cs",
    "fort_bonus",
    "garrison_strength",
    "is_keep",
    "is_restricted",
    "land_components",
    "lends_seals",
    "loss_order",
    "march_path",
    "new_units",
    "owned_domains",
    "reachable",
    "refresh_statuses",
    "season_at",
    "season_hours",
    "toughness",
    "units_strength",
]


SYS = "gw"

# GW-OCC-02: what the owner of an occupied (or besieged, GW-SIEGE-02) domain may still do there.
OCCUPIED_ALLOWED: tuple[str, ...] = (
    "sortie_assault",  # Assaut de sortie
    "drug_the_vanguard",  # Droguer l'avant-garde
    "mercenary_support",  # Support de mercenaires
    "last_stand",  # Dernier retranchement
    "heroic_speech",  # Discours héroïque
    "use_consumable",  # potion, babiole, parchemin
    "use_magic_item",  # objet magique (not on a consenting domain that is occupied)
    "revolt",  # Se mettre en révolte
    "use_knowledge_stones",  # pierres de savoir
    "vote",  # voter pour un maître de fief ou lors d'une élection
    "change_title",  # changer le titre de propriétaire du domaine
    "cast_spell",  # résidents d'une paroisse / d'un lieu arcanique
)
# Works in progress (GW-OCC-01): not on the allow-list; an occupation cancels them.
WORKS: tuple[str, ...] = ("build", "assign")
SPELL_PLACES = ("parish", "arcane_place", "great_arcane_place")
ACTION_ORDERS = (Siege, AttackDomain, AttackArmy, Sack)
PHASES = ("deploy", "move", "siege", "army_combats", "domain_attacks", "annexations", "end_of_season")
MAX_ORDERS = 120  # a safety bound on one guild's orders in a season; every order kind is finite per season anyway


# =================================================================================================
# helpers
# =================================================================================================


def season_hours(cfg: GwConfig) -> int:
    """Length of a season in hours (SC-GW-01)."""
    # implements: GEN-07
    return HOURS_PER_YEAR // cfg.seasons_per_year


def season_at(world: World, hour: int) -> int:
    return hour // season_hours(world.config.gw)


def allied(gw: GwWorld, a: str, b: str) -> bool:
    """Same guild, or declared allies in the scenario (RES-GW-06: one front against one target). An
    alliance is not needed to lend seals (:func:`lends_seals`)."""
    if a == b:
        return True
    pair = sorted((a, b))
    return pair in gw.alliances


# resolution: ENG-GW-02
def lends_seals(gw: GwWorld, lender: str, borrower: str) -> bool:
    """GW-DEP-04: another guild's seals are engaged only with that guild's consent — its ``lends_to``
    (set in the scenario, changed by its LendSeals orders). No alliance is needed."""
    g = gw.guilds.get(lender)
    return lender == borrower or (g is not None and borrower in g.lends_to)


def army_involves(gw: GwWorld, army: Army, guild: str) -> bool:
    """RES-GW-26: the guild owns the army or engaged any seal (own, other, support) in it."""
    if army.owner == guild:
        return True
    return any(gw.seals[s].guild == guild for s in (*army.own_seals, *army.other_seals, *army.support_seals) if s in gw.seals)


def domains_at(gw: GwWorld, hex_: int) -> list[Domain]:
    doms = gw.domains
    return [doms[k] for k in sorted([k for k, d in doms.items() if d.hex == hex_])]


def armies_at(gw: GwWorld, hex_: int) -> list[Army]:
    armies = gw.armies
    return [armies[k] for k in sorted([k for k, a in armies.items() if a.hex == hex_])]


def is_restricted(dom: Domain) -> bool:
    """GW-OCC-02 / GW-SIEGE-02: the owner is limited to the allow-list while occupied or besieged."""
    return bool(dom.occupied_by or dom.besieged_by)


def owned_domains(gw: GwWorld, guild: str) -> list[Domain]:
    doms = gw.domains
    return [doms[k] for k in sorted([k for k, d in doms.items() if d.owner_guild == guild])]


# ---- strength (GW-CMB, RES-GW-07/08) ------------------------------------------------------------


def capped_bonus(u: Unit, cfg: GwConfig) -> int:
    """Σ non-fortification bonuses, capped at +1 (GW-CMB-03); any further bonus is lost."""
    # implements: RES-GW-07
    return min(sum(b.value for b in u.bonuses), cfg.bonus_cap)


def toughness(u: Unit, cfg: GwConfig, fort: int = 0, bonus: bool = True) -> int:
    """What the unit is worth in an action before this season's damage (RES-GW-08)."""
    return cfg.units[u.kind].cs + (capped_bonus(u, cfg) if bonus else 0) + fort


def effective_cs(u: Unit, cfg: GwConfig, fort: int = 0, bonus: bool = True) -> int:
    """Effective CS (RES-GW-08): base + capped bonus + fortification − damage taken, minimum 0."""
    # implements: SC-GW-06
    return max(0, toughness(u, cfg, fort, bonus) - u.damage)


def units_strength(units: Iterable[Unit], cfg: GwConfig, fort: int = 0, bonus: bool = True) -> int:
    """Σ ``effective_cs`` of the units (inlined: the policies ask it for every army and garrison)."""
    kinds = cfg.units
    cap = cfg.bonus_cap
    none = min(0, cap)  # the capped bonus of a unit without bonuses
    total = 0
    for u in units:
        v = kinds[u.kind].cs + fort - u.damage
        if bonus:
            bs = u.bonuses
            v += min(sum(b.value for b in bs), cap) if bs else none
        if v > 0:
            total += v
    return total


def army_strength(world: World, army: Army) -> int:
    return units_strength(army.units, world.config.gw)


def fort_bonus(world: World, dom: Domain) -> int:
    """Per-unit garrison bonus of the domain's fortification (SC-GW-07)."""
    forts = world.config.gw.fortifications
    return forts[min(dom.fortification, len(forts) - 1)]


def garrison_strength(world: World, dom: Domain, fort: bool = True) -> int:
    return units_strength(dom.garrison, world.config.gw, fort_bonus(world, dom) if fort else 0)


def defending_strength(world: World, dom: Domain) -> int:
    """Strength of the front that defends a domain against an attack (RES-GW-18)."""
    gw = world.gw_state()
    s = garrison_strength(world, dom)
    for a in armies_at(gw, dom.hex):
        if a.owner == dom.owner_guild:
            s += army_strength(world, a)
    return s


def army_speed(world: World, army: Army) -> int:
    """GW-MOV-02: the speed of its slowest unit."""
    units = world.config.gw.units
    return min((units[u.kind].speed for u in army.units), default=0)


def is_keep(world: World, dom: Domain) -> bool:
    """Keep (*donjon*) or better (SC-GW-07)."""
    return dom.fortification >= world.config.gw.keep_level


# ---- losses (GW-LOSS, RES-GW-13) --------------------------------------------------------------


def loss_order(units: list[Unit], cfg: GwConfig, fort: int = 0, bonus: bool = True) -> list[Unit]:
    """RES-GW-13: ascending loss rank, then ascending effective CS, then ascending unit id."""
    return sorted(units, key=lambda u: (cfg.units[u.kind].loss_rank, effective_cs(u, cfg, fort, bonus), u.id))


def apply_damage(units: list[Unit], dmg: int, cfg: GwConfig, fort: int = 0, bonus: bool = True) -> tuple[list[Unit], int]:
    """Apply ``dmg`` to ``units`` in loss order (RES-GW-13); destroyed units are removed from the list.

    Returns (destroyed units, damage left over after every unit is destroyed). The last, insufficient
    remainder stays on the unit it reached (GW-CMB-05, RES-GW-09)."""
    destroyed: list[Unit] = []
    if dmg <= 0:
        return destroyed, 0
    for u in loss_order(units, cfg, fort, bonus):
        if dmg <= 0:
            break
        left = effective_cs(u, cfg, fort, bonus)
        if dmg >= left:
            dmg -= left
            destroyed.append(u)
        else:
            u.damage += dmg
            dmg = 0
    if destroyed:
        gone = {id(u) for u in destroyed}
        units[:] = [u for u in units if id(u) not in gone]
    return destroyed, dmg


def unit_rows(units: Iterable[Unit]) -> list[list[int | str]]:
    return [[u.id, u.kind] for u in units]


def unit_counts(units: Iterable[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return dict(sorted(out.items()))


def new_units(world: World, guild: str, kind: str, n: int, *, army: str | None = None, domain: str | None = None) -> list[Unit]:
    """Create ``n`` units with fresh ids and the scenario bonuses that select them (RES-GW-07)."""
    gw = world.gw_state()
    bonuses = [
        Bonus(r.source, r.value)
        for r in gw.bonus_rules
        if (r.guild is None or r.guild == guild)
        and (r.kind is None or r.kind == kind)
        and (r.army is None or r.army == army)
        and (r.domain is None or r.domain == domain)
        and (r.army is None or army is not None)
        and (r.domain is None or domain is not None)
    ]
    out = []
    for _ in range(n):
        out.append(Unit(gw.next_unit, kind, 0, list(bonuses)))
        gw.next_unit += 1
    return out


# ---- movement (GW-MOV, RES-GW-05) -------------------------------------------------------------


def _entry_costs(world: World) -> list[float | None]:
    return [None if h.is_water else 1.0 for h in world.map.hexes]


def march_path(world: World, army: Army, to: int) -> list[int]:
    """The hexes the army walks this season towards ``to``: the least-cost path (1 per land hex,
    water impassable, RES-GW-05) cut at the army's speed (GW-MOV-01/02). Empty if unreachable."""
    found = cheapest_path(world.map, army.hex, to, "gw-march", lambda: _entry_costs(world), terrain_only=True)
    if found is None:
        return []
    path = found[0]
    # resolution: ENG-GW-04
    return path[: army_speed(world, army) + 1]


def reachable(world: World, a: int, b: int) -> bool:
    comp = world.gw_state().land_component
    return 0 <= a < len(comp) and 0 <= b < len(comp) and comp[a] >= 0 and comp[a] == comp[b]


def land_components(world: World) -> list[int]:
    """Connected land areas of the map (water impassable)."""
    hexes = world.map.hexes
    comp = [-1] * len(hexes)
    n = 0
    for start in range(len(hexes)):
        if comp[start] >= 0 or hexes[start].is_water:
            continue
        stack = [start]
        comp[start] = n
        while stack:
            a = stack.pop()
            for b in world.map.neighbors(a):
                if comp[b] < 0 and not hexes[b].is_water:
                    comp[b] = n
                    stack.append(b)
        n += 1
    return comp


def refresh_statuses(world: World) -> None:
    """Recompute each domain's ``occupied_by`` / ``besieged_by`` from the armies (RES-GW-20)."""
    gw = world.gw_state()
    occ: dict[str, list[str]] = {}
    sieg: dict[str, list[str]] = {}
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.occupying is not None:
            d = gw.domains.get(a.occupying)
            if d is None or d.hex != a.hex or d.owner_guild == a.owner:
                a.occupying = None
                a.occupying_since = -1
            else:
                occ.setdefault(a.occupying, []).append(aid)
        if a.besieging is not None:
            d = gw.domains.get(a.besieging)
            if d is None or d.hex != a.hex or d.owner_guild == a.owner:
                a.besieging = None
            else:
                sieg.setdefault(a.besieging, []).append(aid)
    for did, d in gw.domains.items():
        d.occupied_by = occ.get(did, [])
        d.besieged_by = sieg.get(did, [])
