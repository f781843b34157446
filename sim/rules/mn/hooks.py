"""Mare Nostrum (MN): what the MN turn calls outside MN — the hooks ``sim.rules.links`` builds.

MN never imports another system or the links (LINK-09). Where a campaign combines MN with another
system, the links plug in through :class:`MnHooks`, built once by ``sim.rules.links.mn_hooks`` and
passed to :func:`sim.rules.mn.resolve_turn` by the MN driver; the default (every hook None) is MN alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sim.events import Ledger
from sim.rules.mn.military import ArmyHook
from sim.world import World

__all__ = ["NO_HOOKS", "MnHooks", "Treasury"]


class Treasury(Protocol):
    """The one treasury of a faction that is both a kingdom and a nation (LINK-03), opened for one
    turn: ``settle(what)`` turns what the nations spent or earned in PO since the last settlement into
    the kingdom's currency (the turn calls it after every order that costs or earns PO)."""

    def settle(self, what: str = "") -> None: ...


@dataclass(frozen=True)
class MnHooks:
    """The links of the MN turn (LINK-03, LINK-06); None: that link is not in this campaign.

    * ``treasury(world, ledger)`` — called at the start of every turn (after ``TurnBegan``): the
      LINK-03 treasury of the turn, settled after every order that costs or earns PO;
    * ``army(world, ledger, treasury)`` — called next, with that treasury (or None): the LINK-06
      :data:`~sim.rules.mn.military.ArmyHook` of the turn, given to every army raised in it.
    """

    treasury: Callable[[World, Ledger], Treasury] | None = None
    army: Callable[[World, Ledger, Treasury | None], ArmyHook] | None = None


NO_HOOKS = MnHooks()
