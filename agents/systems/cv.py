"""Driver of the caravans (CV) system: convoy agents and their SimPy processes, the daily data
collection, summary metrics, chronicle lines (English and French) and invariants."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import mesa

from agents.convoy import ConvoyAgent, ConvoyPolicyError
from agents.systems import SystemDriverBase, attach_link
from sim.calendar import HOURS_PER_DAY, Phase
from sim.rules import cv as cr
from sim.state.cv import ticks_to_miles

if TYPE_CHECKING:
    from agents.model import RealmModel


class ConvoyCollector(mesa.DataCollector):
    """The daily table of the caravans: the model reporters, and a table (Mesa's ``tables``) with
    one row per convoy agent (not every agent of the model, which may hold kingdoms or guilds too),
    in ascending convoy id: a row a day while the convoy travels, and one last row on the day it
    arrives or is destroyed (a finished convoy does not change; recording it every day for years
    cost more than the rules themselves). ``model.frames()["cv.agents"]`` reads that table."""

    TABLE = "convoys"

    def __init__(self, *, model_reporters: dict[str, Any], agent_reporters: dict[str, Any]) -> None:
        super().__init__(model_reporters=model_reporters, tables={self.TABLE: ["Step", "AgentID", *agent_reporters]})
        self.row_reporters = agent_reporters
        self._finished: set[str] = set()

    def collect(self, model: Any) -> None:
        super().collect(model)
        for a in sorted((a for a in model.agents if getattr(a, "kind", "") == "convoy"), key=lambda a: a.cid):
            if a.convoy.status != "travelling":
                if a.cid in self._finished:
                    continue
                self._finished.add(a.cid)
            row = {"Step": model.time, "AgentID": a.unique_id}
            row.update((name, f(a)) for name, f in self.row_reporters.items())
            self.add_table_row(self.TABLE, row)

    def agents_frame(self) -> Any:
        return self.get_table_dataframe(self.TABLE).set_index(["Step", "AgentID"])


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
        model.cv_routes = cr.shared_route_cache(model.world)  # type: ignore[attr-defined]
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
        if not hasattr(model, "cv_routes"):
            model.cv_routes = cr.shared_route_cache(model.world)  # type: ignore[attr-defined]
        try:
            agent = ConvoyAgent(model, convoy_id, policy)
        except ValueError as e:  # make_policy: an unknown name or a class that cannot be imported
            raise ConvoyPolicyError(f"convoy {convoy_id!r}: {e}") from None
        if "cv" not in model.collectors:  # the first convoy: the daily table and its process
            model.collectors["cv"] = ConvoyCollector(model_reporters=dict(MODEL_REPORTERS),
                                                     agent_reporters=dict(AGENT_REPORTERS))
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
            model.collect_now("cv")
            day += 1


DRIVER = _Driver(cr.SYSTEM)
