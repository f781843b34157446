"""Driver of LINK — where the systems meet (RULES.md §5.5): the ``link.*`` metrics, the LINK invariants
and the chronicle lines of the LINK events (English and French).

It has no process of its own: the LINK clauses run inside the systems' turns, through the small hooks
that call ``sim.rules.links``. It joins a model when two systems or more are enabled
(``agents.systems.attach_link``). Everything it reports is read from the world.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.chronicle_tables.link import KINDS, tell
from agents.systems import SystemDriver
from sim.calendar import Phase
from sim.events import Event
from sim.rules import links

if TYPE_CHECKING:
    from agents.model import RealmModel


class _Driver(SystemDriver):
    name = "link"
    phase = Phase.KM

    def summary(self, model: RealmModel) -> dict[str, int | float]:
        return links.summary(model.world)

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        return links.metrics(model.world)

    def invariants(self, model: RealmModel) -> list[str]:
        return links.broken_invariants(model.world)

    def chronicle_kinds(self) -> frozenset[str]:
        return KINDS

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        return tell(ev, lang, model)


DRIVER = _Driver()

__all__ = ["DRIVER"]
