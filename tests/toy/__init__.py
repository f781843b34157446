"""A toy fifth rule system, the granaries (GR), whole in this package: its state, its one order type,
its rules and its descriptor (``SYSTEM``). It joins realmsim with one line outside this package,
``sim.registry.register(SYSTEM)`` (tests/conformance/test_systems.py), and then runs in a campaign
(the generic driver), is scored, saved and resumed, and passes the conformance suite as the four
built-in systems do."""

from tests.toy.rules import SYSTEM

__all__ = ["SYSTEM"]
