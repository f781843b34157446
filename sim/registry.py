"""The rule systems of realmsim, in one tuple (issue 28).

``SYSTEMS`` lists every built-in system's descriptor (:class:`sim.system.RuleSystem`, exported as
``SYSTEM`` by its package) in LINK-01's tie order; a system from elsewhere (a plug-in, a test's toy
system) joins with one line, ``register(SYSTEM)``. Everything that goes over the systems asks here:
:func:`systems`, :func:`get`, :func:`of_kind`, :func:`enabled`.
"""

from __future__ import annotations

from sim.rules import cv, gw, km, mn
from sim.system import RuleSystem
from sim.world import World

__all__ = ["SYSTEMS", "enabled", "get", "names", "of_kind", "register", "systems", "unregister"]

# LINK-01: the order the systems act in at one hour (their ``phase``)
SYSTEMS: tuple[RuleSystem, ...] = (km.SYSTEM, mn.SYSTEM, gw.SYSTEM, cv.SYSTEM)

_registered: dict[str, RuleSystem] = {}


def register(system: RuleSystem) -> RuleSystem:
    """Make ``system`` known to realmsim (after the built-in ones, in the order of its ``phase``).
    Its name, faction kind and phase must be its own; registering the same descriptor again does
    nothing."""
    if _registered.get(system.name) is system:
        return system
    for other in systems():
        for what in ("name", "faction_kind", "phase"):
            if getattr(other, what) == getattr(system, what):
                raise ValueError(f"rule system {system.name!r}: its {what} {getattr(system, what)!r} is already "
                                 f"system {other.name!r}'s")
    _registered[system.name] = system
    return system


def unregister(name: str) -> None:
    """Forget a registered system (a test's toy system, when the test is done)."""
    _registered.pop(name, None)


def systems() -> tuple[RuleSystem, ...]:
    """Every known system, in LINK-01 order (by ``phase``)."""
    return tuple(sorted((*SYSTEMS, *_registered.values()), key=lambda s: s.phase))


def names() -> tuple[str, ...]:
    return tuple(s.name for s in systems())


def get(name: str) -> RuleSystem:
    """The system called ``name`` (KeyError naming the known ones)."""
    for s in systems():
        if s.name == name:
            return s
    raise KeyError(f"unknown rule system {name!r}: expected one of {', '.join(names())}")


def of_kind(kind: str) -> RuleSystem:
    """The system whose factions are of ``kind`` (``kingdom`` → KM; KeyError naming the known kinds)."""
    for s in systems():
        if s.faction_kind == kind:
            return s
    raise KeyError(f"unknown faction kind {kind!r}: expected one of {', '.join(s.faction_kind for s in systems())}")


def enabled(world: World) -> list[RuleSystem]:
    """The systems ``world`` enables and holds, in LINK-01 order."""
    return [s for s in systems() if s.runs_in(world)]
