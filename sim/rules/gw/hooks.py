"""What the other systems add to a guild season, plugged in when the campaign is built.

Guild warfare never imports another system or the links (LINK-09): ``sim.rules.links.gw_hooks`` builds
a :class:`GwHooks` and the campaign passes it to ``resolve_season`` (and from there to the phases
that need it). A hook left ``None`` is not there: guild warfare runs alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.events import Ledger
from sim.state.gw import Army, Domain
from sim.world import World

__all__ = ["NO_HOOKS", "GwHooks"]


@dataclass(frozen=True)
class GwHooks:
    """What the other systems add to a guild season, plugged in when the campaign is built
    (``sim.rules.links.gw_hooks``); a hook left ``None`` is not there (GW alone)."""

    season_begun: Callable[[World, Ledger], None] | None = None  # LINK-06: nations fund their armies
    occupation_watch: Callable[[World, Domain], Any] | None = None  # LINK-08: before an occupation
    domain_occupied: Callable[[World, Domain, Any, Ledger], None] | None = None  # LINK-08: after it
    attackers_of: Callable[[World, list[Army]], Any] | None = None  # LINK-07: before an attack on a domain
    attack_reported: Callable[[World, Domain, Any, str, Ledger], None] | None = None  # LINK-07: after it
    domain_annexed: Callable[[World, Domain, str, Ledger], None] | None = None  # LINK-08


NO_HOOKS = GwHooks()
