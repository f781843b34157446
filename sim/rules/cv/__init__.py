"""The caravan rules (CV, seed 003 — Pathfinder *Jade Regent* caravans; RULES.md §4 and §5.4).

Pure functions of (world, convoy, order, dice, ledger): no clock, no I/O, no agents, no global
random. A convoy's day (RES-CV-24) is one call of the turn function::

    resolve_day(world, convoy_id, decider, dice, ledger)

which runs the day's scheduled events, wages, unpaid leave, replanning and the route choice, asks the
decider for the day's plan (``"day"``; a route, ``"route"``; a combat target, ``"target"``), then the
four phases:

1. :func:`resolve_slot_start` — at the start of the 12-hour travel slot: the day's orders
   (job change, purchase in a settlement, gift), then the fatigue check of RES-CV-08, the
   starvation 1d6 of RES-CV-10 and the mutiny Resolve check of RES-CV-18 (with its 1d2 and 1d6).
2. :func:`resolve_travel_slot` — the 12 slot hours: the hazard table's d100 (and d12 for the hour),
   then hour by hour the hazard met at its hour (RES-CV-06) and the distance covered (RES-CV-02/03).
3. :func:`resolve_extra_hours` — forced-march hours, each with its Security check (RES-CV-04).
4. :func:`resolve_rest` — the rest: foraged and spell-created units, consumption (RES-CV-09,
   CV-REST-03), recovery (CV-TRAV-07), repairs (RES-CV-23), then the CV-UNR-06 calming checks in
   the order wagon added, wagon upgraded, full rest day, double consumption.

The campaign's SimPy process runs the day with ``stages=True`` (a generator of the hours the day
waits for: the slot's end, a delayed rest), so a convoy wakes about twice a day; tests and worked
examples run it at once with ``given(convoy_id, plan, …)``, a scripted decider.

The legality API, the same in every system: ``legal_orders(world, convoy_id)`` lists the day plans
offered now (the policies' menu), ``check(world, convoy_id, plan)`` raises :class:`IllegalOrderError`
naming the clause a plan breaks (or :class:`InvalidOrderError` for a malformed one).

The modules, from the caravan's statistics to the whole day:

- ``stats`` — constants, wagon types, terrain multipliers, a convoy's statistics;
- ``crew`` — Unrest and mutiny, hit points, wagons, travelers and cargo;
- ``hazards`` — hazard tables, checks, effects and combats; ``routes`` — route risk, paths, the
  route choice;
- ``legality`` — ``legal_orders``, ``check``; ``orders`` — the day's orders, scheduled events, wages;
- ``travel`` — phases 1–3; ``rest`` — phase 4; ``turn`` — ``resolve_day``, new convoys (LINK-04).

Choices these modules make where RULES.md leaves room (each is an ENG-CV entry of
docs/resolutions.md, and a resolution comment names it where it is coded; the main ones):

* Distances are integer ticks of 1/192 mile (exact, see :mod:`sim.state.cv`). The terrain and the
  path type of a stretch are those of the hex being entered; a stretch is travelled hour by hour
  at the rate of the hex being entered at the start of the hour, and the miles left over when a
  hex is reached carry on toward the next hex ("hour by hour", RES-CV-02).
* Hours of rest are counted from the hour the convoy last stopped moving (``moved_until``):
  RES-CV-04's DC reset and RES-CV-08's "12 consecutive hours" read it at the start of the travel
  slot; CV-TRAV-07's recovery is granted at the start of the rest when the rest that begins then
  will reach 12 consecutive hours by the next travel slot, and the rest is fed (RES-CV-05/09). A
  forced march of k hours leaves 12 − k hours of rest: no recovery that night, and the next travel
  slot starts fatigued (RES-CV-08). One recovery step per day (one fed rest per day).
* The hazard table is rolled once per travel day, at the start of the slot, for the stretch being
  travelled (d100, then d12 for the hour unless the band fixes it); the scripted hazards of the
  scenario for that day replace the table, each met at its hour (RES-CV-24 (b)). A hazard whose
  hour comes after the convoy stopped moving (arrived, halted in a settlement, blocked) does not
  happen.
* The mutiny check (RES-CV-18) and the fatigue check (RES-CV-08) are made only on a day the convoy
  sets out to travel; the starvation 1d6 (RES-CV-10) every day.
* A wandering mutiny (RES-CV-18 outcome 2) drops the partial progress toward the route's next hex,
  goes hex by hex in the rolled direction (stopping at water, caverns or the map's edge), and the
  route is planned again from where the convoy ends the day.
* Water and cavern hexes (no row in SC-CV-11) are impassable for caravans.
* A convoy that loses its last wagon is destroyed.
"""

from __future__ import annotations

from sim.rules.cv import (
    crew,
    hazards,
    invariants,
    legality,
    orders,
    report,
    rest,
    routes,
    scoring,
    stats,
    system,
    travel,
    turn,
)
from sim.rules.cv.crew import *  # noqa: F403
from sim.rules.cv.hazards import *  # noqa: F403
from sim.rules.cv.invariants import *  # noqa: F403
from sim.rules.cv.legality import *  # noqa: F403
from sim.rules.cv.orders import *  # noqa: F403
from sim.rules.cv.report import *  # noqa: F403
from sim.rules.cv.rest import *  # noqa: F403
from sim.rules.cv.routes import *  # noqa: F403
from sim.rules.cv.scoring import *  # noqa: F403
from sim.rules.cv.stats import *  # noqa: F403
from sim.rules.cv.system import *  # noqa: F403
from sim.rules.cv.travel import *  # noqa: F403
from sim.rules.cv.turn import *  # noqa: F403

# the package's public names: each module's own
__all__: list[str] = []
__all__ += crew.__all__
__all__ += hazards.__all__
__all__ += legality.__all__
__all__ += orders.__all__
__all__ += rest.__all__
__all__ += routes.__all__
__all__ += stats.__all__
__all__ += travel.__all__
__all__ += turn.__all__
__all__ += invariants.__all__
__all__ += scoring.__all__
__all__ += system.__all__
__all__ += report.__all__
