"""Driver of the cv system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

from agents.systems import SystemDriver
from sim.calendar import Phase


class _Driver(SystemDriver):
    name = "cv"
    phase = Phase.CV


DRIVER = _Driver()
