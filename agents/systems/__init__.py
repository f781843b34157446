"""One driver per rule system: it creates that system's agents and SimPy processes on the model,
and knows how to summarise and narrate its part of a campaign.

A driver's processes must be restartable from the world alone at any season boundary (hour 0 of
a season): all state lives in ``model.world``; a process only computes its next wake-up from
``env.now`` and the world. That is what makes save and resume exact.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sim.calendar import Phase
from sim.events import Event

if TYPE_CHECKING:
    from agents.model import RealmModel


class SystemDriver:
    name: str = ""
    phase: Phase = Phase.CV

    def setup(self, model: RealmModel) -> None:
        """Create the system's agents and start its SimPy processes."""

    def summary(self, model: RealmModel) -> dict[str, int | float]:
        """Named metrics of the finished (or stopped) campaign, prefixed with the system name."""
        return {}

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        """One readable line for a ledger event worth telling, or None."""
        return None

    def chronicle_kinds(self) -> frozenset[str]:
        """The event kinds this system's chronicle table tells (agents.chronicle: every other kind
        the engine emits is listed there as silent)."""
        return frozenset()

    def invariants(self, model: RealmModel) -> list[str]:
        """Descriptions of every invariant the current world breaks (empty when all hold)."""
        return []

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        """Per-season metrics for reports: ``{faction_key: {metric: number}}``, read from the world
        only (treasury, unrest, territory, armies, treaties…)."""
        return {}


def get_driver(name: str) -> SystemDriver:
    mod = importlib.import_module(f"agents.systems.{name}")
    return mod.DRIVER


def attach_link(model: RealmModel) -> None:
    """LINK hook, called first by every system driver's ``setup``: when two systems or more are
    enabled, the LINK driver (``agents.systems.link``: the ``link.*`` metrics, the chronicle lines of
    the LINK events) joins the model's drivers, once. It is appended to ``model.drivers`` while the
    model is setting its drivers up, so its own ``setup`` runs after theirs."""
    if len(model.world.systems) < 2 or any(d.name == "link" for d in model.drivers):
        return
    model.drivers.append(get_driver("link"))
