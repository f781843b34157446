"""Driver of the caravans (CV) system: convoy agents and their SimPy processes, and the caravans' days
in the model's one data collector (its summary, metrics, chronicle and invariants come from the
descriptor, ``sim.rules.cv.SYSTEM``).

The days are two tables of ``model.datacollector`` (Mesa's ``tables``), filled at the last hour of
each day once the first convoy set out: ``convoy_days``, a row a day of the model reporters below, and
``convoys``, a row per convoy agent in ascending convoy id — a row a day while the convoy travels and
one last row on the day it arrives or is destroyed (a finished convoy does not change; recording it
every day for years cost more than the rules themselves). ``model.frames()`` reads them as
``cv.model`` and ``cv.agents``."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from agents.convoy import ConvoyAgent, ConvoyPolicyError
from agents.systems import SystemDriverBase, attach_link
from sim.calendar import HOURS_PER_DAY, Phase
from sim.rules import cv as cr
from sim.state.cv import ticks_to_miles

if TYPE_CHECKING:
    from agents.model import RealmModel


ROUTES = "cv.routes"  # model.caches: the route cache the convoys share (it only saves time)
DAYS = "cv.days"  # model.caches: the convoys whose last day is collected (the days are collected once set)
DAY_TABLE, CONVOY_TABLE = "convoy_days", "convoys"

AGENT_REPORTERS = {
    "convoy": lambda a: a.cid,
    "hp": lambda a: a.convoy.hp,
    "max_hp": lambda a: a.convoy.max_hp,
    "unrest": lambda a: a.convoy.unrest,
    "morale": lambda a: a.convoy.morale,
    "provisions": lambda a: a.convoy.provisions,
    "miles": lambda a: float(ticks_to_miles(a.convoy.ticks_total)),
    "status": lambda a: a.convoy.status,
    "condition": lambda a: a.convoy.condition,
    "starving": lambda a: a.convoy.starving,
    "mutiny": lambda a: a.convoy.in_mutiny,
    "hex": lambda a: a.convoy.hex,
    "gp": lambda a: a.convoy.gp,
    "wagons": lambda a: len(a.convoy.wagons),
    "travelers": lambda a: len(a.convoy.travelers),
}


def _convoys(m: Any) -> list[Any]:
    cv = m.world.cv
    return [] if cv is None else cv.convoys


MODEL_REPORTERS = {
    "day": lambda m: int(m.env.now) // HOURS_PER_DAY,
    "travelling": lambda m: sum(1 for c in _convoys(m) if c.status == "travelling"),
    "arrived": lambda m: sum(1 for c in _convoys(m) if c.status == "arrived"),
    "destroyed": lambda m: sum(1 for c in _convoys(m) if c.status == "destroyed"),
    "in_mutiny": lambda m: sum(1 for c in _convoys(m) if c.in_mutiny and c.status == "travelling"),
    "starving": lambda m: sum(1 for c in _convoys(m) if c.starving and c.status == "travelling"),
    "total_unrest": lambda m: sum(c.unrest for c in _convoys(m)),
    "total_provisions": lambda m: sum(c.provisions for c in _convoys(m)),
}


class _Driver(SystemDriverBase):
    """The one special case among the drivers: a convoy keeps its own clock, so each convoy has its
    process (``ConvoyAgent.run``: its day in stages, ``sim.rules.cv.resolve_day``), started with its
    agent; the daily table (``ConvoyCollector``) comes with the first convoy."""

    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        cv = model.world.cv
        model.caches[ROUTES] = cr.shared_route_cache(model.world)
        if cv is None or not cv.convoys:
            return  # no convoy yet: no agent, no process, no table
        for c in cv.convoys:
            self.spawn(model, c.id, c.policy)

    def add_agents(self, model: RealmModel) -> None:
        """The convoys a turn brought (a kingdom's trade caravan, LINK-04) get their agent and process."""
        cv = model.world.cv
        for c in [] if cv is None else cv.convoys:
            if c.key not in model.by_key:
                self.spawn(model, c.id, c.policy)

    def spawn(self, model: RealmModel, convoy_id: str, policy: str) -> Any:
        """Create the agent of a convoy already in ``world.cv`` and start its process (also used for
        convoys created during a campaign, e.g. a kingdom's trade expedition, LINK-04)."""
        if ROUTES not in model.caches:  # (a digest of the whole map: not made again for every convoy)
            model.caches[ROUTES] = cr.shared_route_cache(model.world)
        try:
            agent = ConvoyAgent(model, convoy_id, policy)
        except ValueError as e:  # make_policy: an unknown name or a class that cannot be imported
            raise ConvoyPolicyError(f"convoy {convoy_id!r}: {e}") from None
        if DAYS not in model.caches:  # the first convoy: the days are collected from now on
            model.caches[DAYS] = set()  # the convoys whose last row is written
            if model.collect:
                model.process(self._collect(model))
        model.process(agent.run())
        return agent

    def _collect(self, model: RealmModel) -> Generator[Any, Any, None]:
        """Once per day, at the last hour of the day, after the convoys (rank past the last one)."""
        day = int(model.env.now) // HOURS_PER_DAY
        while True:
            when = day * HOURS_PER_DAY + HOURS_PER_DAY - 1
            if when >= model.world.end:
                return
            yield model.at(when, Phase.CV, 1_000)
            self.collect_day(model)
            day += 1

    def collect_day(self, model: RealmModel) -> None:
        """The day's rows of the two tables (the module's docstring)."""
        dc = model.datacollector
        dc.add_table_row(DAY_TABLE, {name: f(model) for name, f in MODEL_REPORTERS.items()})
        finished: set[str] = model.caches[DAYS]
        for a in sorted((a for a in model.agents if getattr(a, "kind", "") == "convoy"), key=lambda a: a.cid):
            if a.convoy.status != "travelling":
                if a.cid in finished:
                    continue
                finished.add(a.cid)
            row = {"Step": model.time, "AgentID": a.unique_id}
            row.update((name, f(a)) for name, f in AGENT_REPORTERS.items())
            dc.add_table_row(CONVOY_TABLE, row)

    # ---- the data collector's tables ------------------------------------------------------------
    def tables(self) -> dict[str, list[str]]:
        return {DAY_TABLE: list(MODEL_REPORTERS), CONVOY_TABLE: ["Step", "AgentID", *AGENT_REPORTERS]}

    def frames(self, datacollector: Any) -> dict[str, Any]:
        if not datacollector.tables.get(DAY_TABLE, {}).get("day"):
            return {}  # no convoy set out (or no collection): no table
        return {"cv.model": datacollector.get_table_dataframe(DAY_TABLE),
                "cv.agents": datacollector.get_table_dataframe(CONVOY_TABLE).set_index(["Step", "AgentID"])}


DRIVER = _Driver(cr.SYSTEM)
