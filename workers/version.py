"""The code version jobs and results are tied to (defined in :mod:`sim.version`)."""

from sim.version import code_version

__all__ = ["code_version"]
