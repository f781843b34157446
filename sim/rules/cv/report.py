"""What a campaign's convoys did, read from the world alone: the ``cv.*`` summary metrics of a run
and each convoy's metrics of a season (``SeasonSummarized``, reports)."""

from __future__ import annotations

from typing import Any

from sim.state.cv import ticks_to_miles
from sim.world import World

__all__ = ["metrics", "summary"]


def summary(world: World) -> dict[str, int | float]:
    cv = world.cv
    cs = [] if cv is None else cv.convoys
    if not cs:
        return {"cv.convoys": 0}
    arrived = [c for c in cs if c.status == "arrived"]
    # days on the road, the day it set out and the day it arrived both counted (a convoy's
    # ``days_on_road``, scoring); not the campaign day of arrival, which grows with the campaign
    days = [c.days_travelled + c.days_rested for c in arrived]
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


def metrics(world: World) -> dict[str, dict[str, Any]]:
    cv = world.cv
    return {} if cv is None else {
        c.key: {"hp": c.hp, "unrest": c.unrest, "provisions": c.provisions,
                "miles": round(float(ticks_to_miles(c.ticks_total)), 2), "status": c.status}
        for c in cv.convoys
    }
