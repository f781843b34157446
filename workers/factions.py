"""The factions a scenario or a state names, by actor key (``kind:id``), in the LINK-01 order of their
systems (``sim.registry``): what ``realmsim advise`` and ``realmsim validate --faction`` resolve a
faction against."""

from __future__ import annotations

from typing import Any

from scenarios.build import scenario_systems
from sim.errors import Problem, RealmsimError

__all__ = ["TABLES", "AdviceError", "factions_of", "resolve_faction"]

# faction kind → the scenario table of its factions
TABLES: dict[str, str] = {s.faction_kind: s.faction_table for s in scenario_systems()}


class AdviceError(RealmsimError):
    """The request cannot be advised on (unknown faction, unknown policy, no decision ahead): a
    ScenarioError-like list of problems with path / expected / found."""

    def __init__(self, label: str, problems: list[Problem]) -> None:
        self.file = label
        self.problems = problems
        lines = "\n".join(f"  {p.path}: expected {p.expected}, found {p.found}" for p in problems)
        super().__init__(f"{label}: cannot advise:\n{lines}")


def factions_of(sc: Any) -> list[str]:
    return [f"{kind}:{row.id}" for kind, table in TABLES.items() for row in getattr(sc, table, [])]


def resolve_faction(sc: Any, faction: str, label: str) -> str:
    """``kind:id`` of ``faction`` (``kind:id`` or a bare id that names one faction)."""
    known = factions_of(sc)
    if faction in known:
        return faction
    matches = [k for k in known if k.partition(":")[2] == faction]
    if len(matches) == 1:
        return matches[0]
    shown = ", ".join(known[:30]) + ("…" if len(known) > 30 else "") if known else "none: the state has no faction table"
    found = f'"{faction}"' + (f" (ambiguous: {', '.join(matches)})" if matches else "")
    raise AdviceError(label, [Problem("faction", f"a faction of the state as kind:id ({shown})", found)])
