"""The whole world of one campaign: plain typed data that round-trips through msgpack exactly.

``decode_world(encode_world(w)) == w`` for every world the engine can reach (a test checks it).
Agents hold identity and a policy; everything that changes lives here.
"""

from __future__ import annotations

from typing import Any

import msgspec

from sim.config import Config
from sim.errors import RulesError
from sim.hexmap import HexMap
from sim.state.cv import CvWorld
from sim.state.gw import GwWorld
from sim.state.km import KmWorld
from sim.state.mn import MnWorld


class World(msgspec.Struct):
    scenario: str  # the scenario's name
    seed: int
    start: int  # campaign hour the run starts at (0)
    end: int  # campaign hour the run stops at
    now: int
    systems: list[str]  # enabled systems, in LINK-01 order (sim.registry)
    config: Config
    map: HexMap
    cv: CvWorld | None = None
    km: KmWorld | None = None
    gw: GwWorld | None = None
    mn: MnWorld | None = None
    # a faction's ``policy_options`` from its scenario row, by actor key (the lookahead policy's budgets)
    policy_options: dict[str, dict[str, int | float]] = {}
    # the state of each system registered besides the four above (``sim.registry.register``), by its
    # name; read it through its descriptor, ``SYSTEM.state(world)``
    extensions: dict[str, Any] = {}

    def has(self, system: str) -> bool:
        return system in self.systems

    # Typed access to a system's state: the rules of a system only run in a world that has it, so a
    # missing state is an engine bug or a caller's mistake, reported as such rather than as None.
    def cv_state(self) -> CvWorld:
        if self.cv is None:
            raise RulesError(_missing("cv", self))
        return self.cv

    def km_state(self) -> KmWorld:
        if self.km is None:
            raise RulesError(_missing("km", self))
        return self.km

    def gw_state(self) -> GwWorld:
        if self.gw is None:
            raise RulesError(_missing("gw", self))
        return self.gw

    def mn_state(self) -> MnWorld:
        if self.mn is None:
            raise RulesError(_missing("mn", self))
        return self.mn


def _missing(system: str, world: World) -> str:
    return f"the {system} system is not part of this world (scenario {world.scenario!r} has {', '.join(world.systems) or 'none'})"


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(World)


def encode_world(world: World) -> bytes:
    return _enc.encode(world)


def decode_world(data: bytes) -> World:
    return _dec.decode(data)


def copy_world(world: World) -> World:
    """A deep, independent copy (a policy that looks ahead forks the world this way)."""
    return _dec.decode(_enc.encode(world))
