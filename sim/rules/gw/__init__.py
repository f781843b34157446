"""Guild warfare (GW) — la guerre des guildes (RULES.md §3 and the supporting core §5.3).

A season (*saison*, SC-GW-01) is one call of the turn function (RES-GW-10, ``CFG.gw.phase_order``)::

    resolve_season(world, decider, dice, ledger, hooks=hooks)

which runs ``begin_season`` (title deliveries, RES-GW-25), the hooks of the other systems
(``hooks``, built by ``sim.rules.links.gw_hooks``), every guild's orders in ascending id
(``give_orders``: the decider is asked one order at a time, RES-GW-27), then ``run_phases``:
(1) deploy … (7) end of season. Tests and worked examples pass ``given(orders)``, a scripted decider.

The legality API, the same in every system: ``legal_orders(world, guild)`` lists what a guild may
order now, given the orders it has already given this season; ``check(world, guild, order)`` raises
:class:`IllegalOrderError` naming the clause an order breaks (or :class:`InvalidOrderError` for an
unknown entity). Each ``resolve_*`` function resolves one order or one phase; a resolver handed an
order that has become illegal by the time it resolves raises ``IllegalOrderError`` too, and the phase
functions turn that into an ``OrderRejected`` event (the order is rejected whole, naming the clause,
RES-GW-27).

Rules are plain functions of the world, the dice and the ledger; every number a resolution invented
is read from ``world.config.gw``. The modules, in the order of a season:

- ``core`` — constants, queries, strength, losses, movement; ``hooks`` — :class:`GwHooks`;
- ``legality`` — ``check``, ``give_order``; ``orders`` — ``legal_orders``;
- ``deploy`` — phases (1) and (2); ``siege`` — (3); ``combat`` — (4) and (5); ``annex`` — (6);
- ``season`` — the season's beginning, (7) the end of season, ``resolve_season``.
"""

from __future__ import annotations

from sim.rules.gw import (
    annex,
    combat,
    core,
    deploy,
    hooks,
    invariants,
    legality,
    orders,
    report,
    scoring,
    season,
    siege,
    system,
)
from sim.rules.gw.annex import *  # noqa: F403
from sim.rules.gw.combat import *  # noqa: F403
from sim.rules.gw.core import *  # noqa: F403
from sim.rules.gw.deploy import *  # noqa: F403
from sim.rules.gw.hooks import *  # noqa: F403
from sim.rules.gw.invariants import *  # noqa: F403
from sim.rules.gw.legality import *  # noqa: F403
from sim.rules.gw.orders import *  # noqa: F403
from sim.rules.gw.report import *  # noqa: F403
from sim.rules.gw.scoring import *  # noqa: F403
from sim.rules.gw.season import *  # noqa: F403
from sim.rules.gw.siege import *  # noqa: F403
from sim.rules.gw.system import *  # noqa: F403

# the package's public names: each module's own
__all__: list[str] = []
__all__ += annex.__all__
__all__ += combat.__all__
__all__ += core.__all__
__all__ += deploy.__all__
__all__ += legality.__all__
__all__ += orders.__all__
__all__ += season.__all__
__all__ += siege.__all__
__all__ += invariants.__all__
__all__ += scoring.__all__
__all__ += system.__all__
__all__ += report.__all__
__all__ += hooks.__all__
