"""Scenario tables of the guild warfare (GW) system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

from scenarios.schema.common import Spec


class GuildSpec(Spec):
    id: str


class DomainSpec(Spec):
    id: str


def check(sc: object, m: object) -> list:
    """Semantic checks of this system's tables (references, ranges across fields). Returns Problems."""
    return []


def build(sc: object, world: object) -> None:
    """Fill this system's part of the initial world."""
