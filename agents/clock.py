"""SimPy helpers: wake-ups with an explicit tie order (LINK-01).

SimPy breaks ties between events at one instant by priority, then by creation order. realmsim never
relies on creation order: every wake-up is an :class:`At` event whose priority comes from
:func:`sim.calendar.priority` (system phase, then the faction's rank in ascending id).
"""

from __future__ import annotations

import simpy
from simpy.events import Event


class At(Event):
    """An event that fires at absolute hour ``when`` with SimPy priority ``prio``."""

    __slots__ = ()

    def __init__(self, env: simpy.Environment, when: int, prio: int) -> None:
        super().__init__(env)
        if when < env.now:
            raise ValueError(f"At(when={when}) is in the past (now={env.now})")
        self._ok = True
        self._value = None
        env.schedule(self, prio, when - env.now)  # type: ignore[arg-type]
