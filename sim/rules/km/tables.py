"""The tables of the kingdom rules (SC-KM-17/29/31/33/34, RES-KM-…): edicts, buildings, terrain,
speeds, limits; the ledger key of a kingdom.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "ALIGNMENT_ADJUST",
    "ATTR_NAMES",
    "ATTR_NAMES_FR",
    "BUILDINGS",
    "BuildingType",
    "FREE_HOUSES",
    "GOVERNMENT_MODS",
    "HOLIDAY",
    "IMPROVEMENT_COST",
    "IMPROVEMENT_LIMITS",
    "IMPROVEMENT_TERRAIN",
    "PROMOTION",
    "SETTLEMENT_MODS",
    "SPEED_TABLE",
    "SYS",
    "TAXATION",
    "TERRAIN",
    "actor",
    "km_terrain",
]


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


