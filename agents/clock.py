"""SimPy helpers: wake-ups with an explicit tie order (LINK-01).

SimPy breaks ties between events at one instant by priority, then by creation order. realmsim never
relies on creation order: every wake-up is an :class:`At` event whose priority comes from
:func:`sim.calendar.priority` (system phase, then the faction's rank in ascending id).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import simpy
from simpy.events import Event

if TYPE_CHECKING:
    from sim.world import World


class WorldEnvironment(simpy.Environment):
    """The campaign's one clock: a SimPy environment whose present *is* ``world.now``.

    SimPy keeps its present in ``_now``; here that attribute reads and writes ``world.now``, so the
    world (which a save file stores), the environment, the ledger (bound with ``ledger.clock``) and
    the Mesa model (``model.time``) cannot disagree: there is one number, not four kept in step.
    """

    on_clock: Callable[[int], None] | None = None  # called with the hour whenever it changes (lookahead checkpoints)
    _clock_hour: int | None = None

    def __init__(self, world: World) -> None:
        self.world = world
        super().__init__(initial_time=world.now)

    @property  # type: ignore[override]
    def _now(self) -> int:
        return self.world.now

    @_now.setter
    def _now(self, value: float) -> None:
        now = int(value)
        self.world.now = now
        if self.on_clock is not None and now != self._clock_hour:
            self._clock_hour = now  # the first wake-up of the hour, before any event of it is processed
            self.on_clock(now)


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
