"""What the other systems add to the kingdom rules, plugged in when the campaign is built.

The kingdom rules never import another system or the links (LINK-09): ``sim.rules.links.km_hooks``
builds a :class:`KmHooks` and the campaign passes it to ``resolve_month`` (and from there to the
rules that need it). A hook left ``None`` is not there: the kingdoms run alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.events import Ledger
    from sim.state.cv import Convoy
    from sim.state.km import Kingdom
    from sim.world import World

__all__ = ["NO_HOOKS", "KmHooks"]


@dataclass(frozen=True)
class KmHooks:
    """The hooks of the kingdom rules (each optional)."""

    # LINK-08, in the Upkeep phase: +1 Unrest per domain of the kingdom's hexes occupied by guilds
    occupation_unrest: Callable[[World, str, Ledger], object] | None = None
    # LINK-04, legality of a Trade edict when caravans run: the caravan can travel the route
    # (``(world, kingdom, origin hex, path)``, raises ``IllegalOrderError``)
    check_caravan: Callable[[World, Kingdom, int, list[int]], None] | None = None
    # LINK-04: the merchant caravan of a Trade edict (``(world, kingdom, convoy id, origin hex, path,
    # investment in BP)``), not yet in the world; raises ``IllegalOrderError`` if it cannot carry the goods
    trade_caravan: Callable[[World, Kingdom, str, int, list[int], int], Convoy] | None = None
    # LINK-04: the caravan sets out (joins the world's convoys)
    caravan_set_out: Callable[[World, Convoy], None] | None = None


NO_HOOKS = KmHooks()
