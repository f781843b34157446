"""SimPy helpers: the campaign's one clock, and wake-ups with an explicit tie order (LINK-01).

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
    """The campaign's one clock: SimPy's present, ``env.now``, is the truth, and the world's hour follows it.

    Every wake-up of a campaign is an :class:`At` event, whose first callback (:meth:`sync`) moves
    ``world.now`` to the event's hour before the process it wakes goes on; ``RealmModel.run`` syncs
    again when a run stops. So the world (which a save file stores), the environment, the ledger (bound
    with ``ledger.clock``) and the Mesa model (``model.time``) read one hour whenever a rule runs. SimPy
    is used through its public API only: ``now``, events and their ``callbacks``.
    """

    on_clock: Callable[[int], None] | None = None  # called with the hour whenever it changes (lookahead checkpoints)
    _clock_hour: int | None = None

    def __init__(self, world: World) -> None:
        self.world = world
        super().__init__(initial_time=world.now)

    def sync(self, _event: object = None) -> None:
        """Move ``world.now`` to the clock's hour; at the first wake-up of an hour (or the stop of a run
        at a new hour), before anything of that hour is done, tell ``on_clock``."""
        now = int(self.now)
        self.world.now = now
        if self.on_clock is not None and now != self._clock_hour:
            self._clock_hour = now  # the first wake-up of the hour, before any event of it is processed
            self.on_clock(now)


class At(Event):
    """An event that fires at absolute hour ``when`` with SimPy priority ``prio``; on a
    :class:`WorldEnvironment` it moves the world to its hour first (:meth:`WorldEnvironment.sync`)."""

    __slots__ = ()

    def __init__(self, env: simpy.Environment, when: int, prio: int) -> None:
        super().__init__(env)
        if when < env.now:
            raise ValueError(f"At(when={when}) is in the past (now={env.now})")
        self._ok = True
        self._value = None
        if isinstance(env, WorldEnvironment):
            self.callbacks.append(env.sync)  # before the callback of the process that waits for it
        env.schedule(self, prio, when - env.now)  # type: ignore[arg-type]
