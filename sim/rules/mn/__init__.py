"""Mare Nostrum diplomacy (MN, RULES.md §2 and §5.2): missions, hosts, the d100 test, treaties,
embassies, interference, pacts and their obligations — one package, its submodules along the phases:

* ``orders`` — the numbers of the seed and the labels of the orders of a turn (RES-MN-17, the order
  types in ``sim.state.mn``);
* ``lookups`` — parties, calendar, lookups of the MN state;
* ``embassies`` — ambassadors' movements, treaties, embassies, imports;
* ``missions`` — buying and sending ambassadors, phases (1) and (2);
* ``negotiation`` — the diplomacy phase (3): hosts, the test, interference, treaties between players;
* ``military`` — the military phase (4): wars, breaks, armies, pacts;
* ``hooks`` — :class:`MnHooks`, what the turn calls outside MN (built by ``sim.rules.links``);
* ``turn`` — Acclamation and the end of the turn (5, 6), and :func:`resolve_turn`, the whole turn;
* ``legality`` — :func:`legal_orders` and :func:`check`, what a nation may do now.

The API every system shares: ``legal_orders(world, nation, *, slot=..., subject=...)``,
``check(world, nation, order)`` (raises ``IllegalOrderError``) and ``resolve_turn(world, turn,
decider, dice, ledger, *, hooks=...)``, which asks every nation question of a turn (slot orders,
host choices, interference and its sign, consent) through a ``sim.orders.Decider``.

Every other function is a plain rule: it takes the MN state (mutated in place), the order, a
``Dice``, the ``Ledger`` and ``MnConfig``; the current turn is ``mn.turn``. No clock, no agents.
The choices a resolution needs in the middle (interference and its sign, RES-MN-16) come through a
small chooser object (the turn's asks the decider).

French terms: ambassadeur (ambassador), plénipotentiaire (plenipotentiary), mission diplomatique
(diplomatic mission), test de diplomatie (diplomacy test), seuil de réussite (success threshold),
facteur racial (racial factor), accord commercial (commercial agreement), alliance militaire
(military alliance), pacte d'amitié éternel (eternal friendship pact), bévue (blunder), rançon
(ransom), Phase d'Acclamation (Acclamation phase), ingérence (interference), PO (gold pieces).

Seams for the integration with guild warfare (LINK-06/07): :func:`raise_army` is the one place
an army is raised for a nation (its ``hook``, LINK-06, comes from :class:`MnHooks`),
:func:`record_invasion` the one place an invasion or a repulse enters the log.

Sign convention of the test (RES-MN-08): ``score = d100 − Σ favourable modifiers ± interference``.
In the ``DiplomacyTestRolled`` event the ``mods`` are the effects on the score (so that
``total = die + Σ mods`` as for every check of the ledger): a racial factor of +5 appears as
``-5``; ``data["modifiers"]`` lists them with the signs of RULES.md (favourable positive).
"""

from __future__ import annotations

from sim.rules.mn import (
    embassies,
    hooks,
    invariants,
    legality,
    lookups,
    military,
    missions,
    negotiation,
    orders,
    report,
    scoring,
    system,
    turn,
)
from sim.rules.mn.embassies import *  # noqa: F403
from sim.rules.mn.hooks import *  # noqa: F403
from sim.rules.mn.invariants import *  # noqa: F403
from sim.rules.mn.legality import *  # noqa: F403
from sim.rules.mn.lookups import *  # noqa: F403
from sim.rules.mn.military import *  # noqa: F403
from sim.rules.mn.missions import *  # noqa: F403
from sim.rules.mn.negotiation import *  # noqa: F403
from sim.rules.mn.orders import *  # noqa: F403
from sim.rules.mn.report import *  # noqa: F403
from sim.rules.mn.scoring import *  # noqa: F403
from sim.rules.mn.system import *  # noqa: F403
from sim.rules.mn.turn import *  # noqa: F403

# the package's public names: each module's own
__all__: list[str] = []
__all__ += embassies.__all__
__all__ += hooks.__all__
__all__ += legality.__all__
__all__ += lookups.__all__
__all__ += military.__all__
__all__ += missions.__all__
__all__ += negotiation.__all__
__all__ += orders.__all__
__all__ += turn.__all__
__all__ += invariants.__all__
__all__ += scoring.__all__
__all__ += system.__all__
__all__ += report.__all__
