"""Envoys (*représentant officiel*, LINK-05, KM-DIP-02): sent, arrived, recalled.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.paths import cheapest_path
from sim.rules.km.specials import _km
from sim.rules.km.tables import SYS, actor
from sim.rules.km.upkeep_phase import capital_hex
from sim.state.km import Envoy

if TYPE_CHECKING:
    from sim.world import World


__all__ = [
    "envoy_arrived",
    "envoy_path",
    "recall_envoy",
    "send_envoy",
]


# =================================================================================================
# Envoys (LINK-05)
# =================================================================================================


# resolution: ENG-LINK-07
def envoy_path(world: World, kid: str, target: str) -> list[int] | None:
    """LINK-05: the least-cost path (one per hex) from kid's capital to target's capital."""
    km = _km(world)
    a, b = capital_hex(km.kingdoms[kid]), capital_hex(km.kingdoms[target])
    if a is None or b is None:
        return None
    got = cheapest_path(world.map, a, b, "link-envoy", lambda: [1.0] * len(world.map.hexes), terrain_only=True)
    return None if got is None else got[0]


def send_envoy(world: World, kid: str, target: str, now: int, ledger: Ledger) -> Envoy:
    """LINK-05: an envoy leaves the capital for the target's capital at envoy_hexes_per_day."""
    km = _km(world)
    if target == kid or target not in km.kingdoms:
        raise InvalidOrderError(f"envoy target {target!r}: expected another kingdom")
    if km.stance(kid, target).present or any(
        e.kingdom == kid and e.target == target and e.status == "travelling" for e in km.envoys
    ):
        # resolution: ENG-LINK-07
        raise IllegalOrderError("LINK-05", f"{kid} already has a representative in or on the way to {target}", actor=actor(kid))
    path = envoy_path(world, kid, target)
    if path is None:
        raise IllegalOrderError("LINK-05", f"no path from {kid}'s capital to {target}'s", actor=actor(kid))
    rate = world.config.link.envoy_hexes_per_day
    days = math.ceil((len(path) - 1) / rate)
    env = Envoy(id=km.new_id(), kingdom=kid, target=target, path=path, depart=now, arrive=now + days * 24)
    km.envoys.append(env)
    ledger.emit(
        SYS,
        "EnvoySent",
        actor(kid),
        ("LINK-05", "KM-DIP-02", "RES-KM-02"),
        total=days,
        outcome=f"{days} day(s)",
        envoy=env.id,
        target=target,
        hexes=len(path) - 1,
        arrive=env.arrive,
    )
    if days == 0:
        envoy_arrived(world, env, ledger)
    return env


def envoy_arrived(world: World, env: Envoy, ledger: Ledger) -> None:
    km = _km(world)
    if env.status != "travelling":
        return
    env.status = "present"
    km.stance(env.kingdom, env.target).present = True
    ledger.emit(SYS, "EnvoyArrived", f"envoy:{env.id}", ("LINK-05", "KM-DIP-02", "RES-KM-02"), outcome="present", kingdom=env.kingdom, target=env.target)


def recall_envoy(world: World, kid: str, target: str, ledger: Ledger) -> None:
    km = _km(world)
    st = km.peek_stance(kid, target)
    travelling = [e for e in km.envoys if e.kingdom == kid and e.target == target and e.status in ("travelling", "present")]
    if (st is None or not st.present) and not travelling:
        raise IllegalOrderError("LINK-05", f"{kid} has no representative in or on the way to {target}", actor=actor(kid))
    for e in travelling:
        e.status = "recalled"
    km.stance(kid, target).present = False
    ledger.emit(SYS, "EnvoyRecalled", actor(kid), ("LINK-05", "RES-KM-02"), outcome="recalled", target=target)


