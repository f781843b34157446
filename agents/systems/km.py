"""Driver of the km system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

from agents.systems import SystemDriver
from sim.calendar import Phase


class _Driver(SystemDriver):
    name = "km"
    phase = Phase.KM


DRIVER = _Driver()
