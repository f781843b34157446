"""Driver of the caravans (CV) system: convoy agents and their SimPy processes, the daily data
collection, summary metrics, chronicle lines (English and French) and invariants."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import mesa

from agents.systems import SystemDriver, attach_link
from sim.calendar import HOURS_PER_DAY, Phase
from sim.events import Event
from sim.rules import cv as cr
from sim.state.cv import ticks_to_miles

if TYPE_CHECKING:
    from agents.model import RealmModel
from agents.chronicle_tables.cv import LINES  # noqa: F401  (re-exported)


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


class _Driver(SystemDriver):
    name = "cv"
    phase = Phase.CV

    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        cv = model.world.cv
        model.cv_routes = cr.shared_route_cache(model.world)  # type: ignore[attr-defined]
        if cv is None or not cv.convoys:
            return  # no convoy yet: no agent, no process, no table
        for c in cv.convoys:
            self.spawn(model, c.id, c.policy)

    def spawn(self, model: RealmModel, convoy_id: str, policy: str) -> Any:
        """Create the agent of a convoy already in ``world.cv`` and start its process (also used for
        convoys created during a campaign, e.g. a kingdom's trade expedition, LINK-04)."""
        from agents.convoy import ConvoyAgent, ConvoyPolicyError

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

    # ---- results -------------------------------------------------------------------------------
    def summary(self, model: RealmModel) -> dict[str, int | float]:
        cv = model.world.cv
        cs = [] if cv is None else cv.convoys
        if not cs:
            return {"cv.convoys": 0}
        arrived = [c for c in cs if c.status == "arrived"]
        days = [c.arrived_at / HOURS_PER_DAY for c in arrived]
        return {
            "cv.convoys": len(cs),
            "cv.arrived": len(arrived),
            "cv.destroyed": sum(1 for c in cs if c.status == "destroyed"),
            "cv.stranded": sum(1 for c in cs if c.status == "travelling"),
            "cv.mean_days_to_arrive": round(sum(days) / len(days), 2) if days else 0.0,
            "cv.miles_travelled": round(float(sum(ticks_to_miles(c.ticks_total) for c in cs)), 2),
            "cv.hazards_met": sum(c.hazards_met for c in cs),
            "cv.hazard_damage": sum(c.hazard_damage for c in cs),
            "cv.combat_damage": sum(c.combat_damage for c in cs),
            "cv.starvation_damage": sum(c.starvation_damage for c in cs),
            "cv.mutiny_days": sum(c.mutiny_days for c in cs),
            "cv.final_unrest": sum(c.unrest for c in cs),
            "cv.peak_unrest": max(c.unrest_peak for c in cs),
            "cv.stores_bought": sum(c.stores_bought for c in cs),
            "cv.gift_units_given": sum(c.gifts_units for c in cs),
            "cv.gp_spent": sum(c.gp_spent for c in cs),
            "cv.wagons_lost": sum(c.wagons_lost for c in cs),
            "cv.travelers_lost": sum(c.travelers_lost for c in cs),
            "cv.trade_goods_delivered": sum(c.cargo.get("trade_goods", 0) for c in arrived),
            "cv.treasure_delivered": sum(c.cargo.get("treasure", 0) for c in arrived),
            "cv.days_travelled": sum(c.days_travelled for c in cs),
            "cv.days_rested": sum(c.days_rested for c in cs),
        }

    def metrics_row(self, model: RealmModel) -> dict[str, Any]:
        cv = model.world.cv
        return {} if cv is None else {
            c.key: {"hp": c.hp, "unrest": c.unrest, "provisions": c.provisions,
                    "miles": round(float(ticks_to_miles(c.ticks_total)), 2), "status": c.status}
            for c in cv.convoys
        }

    def invariants(self, model: RealmModel) -> list[str]:
        return cr.broken_invariants(model.world)

    # ---- chronicle -----------------------------------------------------------------------------
    def chronicle_kinds(self) -> frozenset[str]:
        return frozenset(LINES)

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        fn = LINES.get(ev.kind)
        if fn is None:
            return None
        cv = model.world.cv
        if cv is None:
            return None
        cid = ev.actor.partition(":")[2]
        try:
            c = cv.convoy(cid)
        except KeyError:
            return None
        return fn(ev, lang, c, model)


DRIVER = _Driver()
