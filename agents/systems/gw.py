"""Driver of the gw system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

from agents.systems import SystemDriver
from sim.calendar import Phase


class _Driver(SystemDriver):
    name = "gw"
    phase = Phase.GW


DRIVER = _Driver()
