"""What the other systems add to the kingdom rules, plugged in when the campaign is built.

The kingdom rules never import another system or the links (LINK-09): ``sim.rules.links.km_hooks``
builds a :class:`KmHooks` and the campaign passes it to ``resolve_month`` (and from there to the
rules that need it). A hook left ``None`` is not there: the kingdoms run alone (the links leave the
LINK-04 hooks None unless the caravans run).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.events import Ledger
    from sim.state.km import Kingdom
    from sim.world import World

__all__ = ["NO_HOOKS", "Caravan", "KmHooks"]


class Caravan(Protocol):
    """What the kingdom rules read of the merchant caravan the links make for a Trade edict (LINK-04):
    its id (the trade route's ``convoy``), and for the ledger its provisions and wagons."""

    @property
    def id(self) -> str: ...

    @property
    def provisions(self) -> int: ...

    @property
    def wagons(self) -> Sequence[Any]: ...


@dataclass(frozen=True)
class KmHooks:
    """The hooks of the kingdom rules (each optional)."""

    # LINK-08, in the Upkeep phase: +1 Unrest per domain of the kingdom's hexes occupied by guilds
    occupation_unrest: Callable[[World, str, Ledger], object] | None = None
    # LINK-05, in the Edict phase: the path an envoy would travel from a kingdom's capital to another's
    # (``(world, kingdom, target)``, None: there is none), an envoy sent (``(world, kingdom, target,
    # hour, ledger)``) or recalled (``(world, kingdom, target, ledger)``); they raise IllegalOrderError
    envoy_path: Callable[[World, str, str], list[int] | None] | None = None
    send_envoy: Callable[[World, str, str, int, Ledger], object] | None = None
    recall_envoy: Callable[[World, str, str, Ledger], object] | None = None
    # LINK-04, legality of a Trade edict when caravans run: the caravan can travel the route
    # (``(world, kingdom, origin hex, path)``, raises ``IllegalOrderError``)
    check_caravan: Callable[[World, Kingdom, int, list[int]], None] | None = None
    # LINK-04: the merchant caravan of a Trade edict (``(world, kingdom, convoy id, origin hex, path,
    # investment in BP)``), not yet in the world; raises ``IllegalOrderError`` if it cannot carry the goods
    trade_caravan: Callable[[World, Kingdom, str, int, list[int], int], Caravan] | None = None
    # LINK-04: the caravan sets out (joins the world's convoys)
    caravan_set_out: Callable[[World, Any], None] | None = None
    # LINK-04, in the Income phase: the checks of the kingdom's caravans that reached their destination,
    # or the loss of those destroyed or too long on the way (``(world, kingdom, dice, ledger)``)
    caravan_arrivals: Callable[[World, str, Dice, Ledger], None] | None = None


NO_HOOKS = KmHooks()
