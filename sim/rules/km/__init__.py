"""The kingdoms (KM) — Pathfinder's kingdom turn (RULES.md §5.1, SC-KM) and the four special edicts
(*édits spéciaux*, RULES.md §1, KM-GEN/DIP/REL/EXP/TRADE/VAS).

A kingdom month (*tour de royaume*, SC-KM-08) is one call of the turn function::

    resolve_month(world, decider, dice, ledger, hooks=hooks)

which plays Upkeep (*phase d'entretien*), Edict (*phase d'édit*), Income (*revenus*) and Event, each
phase for every kingdom in ascending id (RES-KM-39). Every choice the rules leave to a kingdom (an
envoy, a hex claim, an improvement, a building, the Taxation/Holiday/Promotion edicts, a relation
order, the special edict, a treaty's balance, the hex lost to Unrest) is one question to the
``sim.orders.Decider``; kingdoms with scripted orders (``TurnOrders``) play them instead. The hooks
(:class:`KmHooks`, built by ``sim.rules.links.km_hooks``) are what the other systems add: LINK-04's
merchant caravans, LINK-08's occupation Unrest.

The legality API, the same in every system: ``legal_orders(world, kingdom, slot=…)`` lists what a
kingdom may order now in one slot of its turn (default the special edict); ``check(world, kingdom,
order)`` raises :class:`IllegalOrderError` naming the clause an order breaks (or
:class:`InvalidOrderError` for an order naming nothing that exists).

Rules are plain functions of (world, kingdom id, order, dice, ledger); they mutate ``world.km`` in
place, emit one ledger event per roll, check or change, and raise ``IllegalOrderError`` for an order
that breaks a rule. Every number a resolution invented is read from ``world.config.km``.

French terms: kingdom check (*test de royaume*), Control DC (*DD de contrôle*), Unrest
(*Insatisfaction*), Treasury (*trésorerie*), BP (*PC*), Consumption (*Consommation*), Fame/Infamy
(*Gloire/Infamie*); embassy (*ambassade*), treaty (*traité*), alliance, trade route (*route
commerciale*), vassal (*vassal*).

The modules, in the order of the old ``kingdom.py`` then ``edicts.py``:

- ``hooks`` — :class:`KmHooks`;
- ``tables`` — the tables; ``statistics`` — the sheet, kingdom checks;
- ``upkeep_phase`` — the turn's start, Upkeep; ``ordinary`` — the ordinary edicts, claims, buildings;
  ``income_event`` — Income and Event;
- ``specials`` — what the special edicts share; ``diplomatic``, ``relations`` (embassy buildings,
  relation orders, scripted events), ``exploration``, ``trade``, ``vassalage``;
- ``legality`` — ``check``, ``legal_orders``, ``resolve_special``;
- ``turn`` — the Edict phase and ``resolve_month``.
"""

from __future__ import annotations

from sim.rules.km import (
    diplomatic,
    exploration,
    hooks,
    income_event,
    invariants,
    legality,
    ordinary,
    relations,
    report,
    scoring,
    specials,
    statistics,
    system,
    tables,
    trade,
    turn,
    upkeep_phase,
    vassalage,
)
from sim.rules.km.diplomatic import *  # noqa: F403
from sim.rules.km.exploration import *  # noqa: F403
from sim.rules.km.hooks import *  # noqa: F403
from sim.rules.km.income_event import *  # noqa: F403
from sim.rules.km.invariants import *  # noqa: F403
from sim.rules.km.legality import *  # noqa: F403
from sim.rules.km.ordinary import *  # noqa: F403
from sim.rules.km.relations import *  # noqa: F403
from sim.rules.km.report import *  # noqa: F403
from sim.rules.km.scoring import *  # noqa: F403
from sim.rules.km.specials import *  # noqa: F403
from sim.rules.km.statistics import *  # noqa: F403
from sim.rules.km.system import *  # noqa: F403
from sim.rules.km.tables import *  # noqa: F403
from sim.rules.km.trade import *  # noqa: F403
from sim.rules.km.turn import *  # noqa: F403
from sim.rules.km.upkeep_phase import *  # noqa: F403
from sim.rules.km.vassalage import *  # noqa: F403

# the package's public names: each module's own
__all__: list[str] = []
__all__ += diplomatic.__all__
__all__ += exploration.__all__
__all__ += hooks.__all__
__all__ += income_event.__all__
__all__ += legality.__all__
__all__ += ordinary.__all__
__all__ += relations.__all__
__all__ += specials.__all__
__all__ += statistics.__all__
__all__ += tables.__all__
__all__ += trade.__all__
__all__ += turn.__all__
__all__ += upkeep_phase.__all__
__all__ += vassalage.__all__
__all__ += invariants.__all__
__all__ += scoring.__all__
__all__ += system.__all__
__all__ += report.__all__
