"""What the four special edicts (*édits spéciaux*, KM-GEN) share: DCs, skills, kinds and lookups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.errors import InvalidOrderError
from sim.state.km import Kingdom, KmWorld

if TYPE_CHECKING:
    pass


__all__ = [
    "ALIGN_STEP_DC",
    "ATTITUDE_DC",
    "BAN_TURNS",
    "DIP_KINDS",
    "OPPOSED_SKILLS",
    "ROUTE_BUILDINGS",
    "SKILL_NAMES",
    "VAS_MODES",
]


BAN_TURNS = 12  # "no new attempt for 1 year" (RES-KM-40): one year of monthly turns
ATTITUDE_DC = {"helpful": 0, "friendly": 5, "indifferent": 10, "unfriendly": 15, "hostile": 20}  # KM-DIP-11
ALIGN_STEP_DC = (0, 5, 15)  # KM-DIP-07
OPPOSED_SKILLS = ("bluff", "diplomacy", "knowledge_local", "knowledge_nobility", "sense_motive")  # KM-REL-08
SKILL_NAMES = {
    "bluff": "Bluff",
    "diplomacy": "Diplomacy",
    "intimidate": "Intimidate",
    "knowledge_local": "Knowledge (local)",
    "knowledge_nobility": "Knowledge (nobility)",
    "sense_motive": "Sense Motive",
}
DIP_KINDS = ("embassy", "threat", "treaty", "alliance", "rebalance")
VAS_MODES = ("new_vassal", "colony", "subjugation")
ROUTE_BUILDINGS = {  # KM-TRADE-17/18: buildings counted for the type bonus (origin settlement)
    "goods": ("guildhall", "smithy", "shop", "trade_shop", "tannery"),
    "luxuries": ("alchemist", "casters_tower", "exotic_artisan", "herbalist", "luxury_store", "magic_shop"),
}


def kingdom_of(km: KmWorld, kid: str, what: str = "kingdom") -> Kingdom:
    k = km.kingdoms.get(kid)
    if k is None:
        raise InvalidOrderError(f"unknown {what} {kid!r}; known: {', '.join(km.ids())}")
    return k


