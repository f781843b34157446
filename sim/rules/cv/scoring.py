"""A convoy's score (docs/scoring.md), in points (1 point = 1% of its journey): the share of the
journey done (*trajet*), arrival (*arrivée*), days on the road (*jours de route*), hit points (*points
de vie*), trade goods and treasure carried (*chargement*), its Unrest (*Niveau de Troubles*), mutiny
(*mutinerie*), losses (*pertes*), starvation (*famine*) and destruction."""

from __future__ import annotations

from dataclasses import dataclass

from sim.calendar import HOURS_PER_DAY
from sim.scores import FactionScore, Term, round2
from sim.state.cv import Convoy, ticks_to_miles
from sim.world import World

__all__ = ["TERM_LABELS", "UNIT", "CvWeights", "journey_share", "remaining_miles", "score_convoy"]

UNIT = "points"
# term key → (English, French): the seeds' own words, for explanations and reports
TERM_LABELS: dict[str, tuple[str, str]] = {
    "journey": ("Journey done", "Trajet accompli"),
    "arrival": ("Arrival", "Arrivée"),
    "days": ("Days on the road", "Jours de route"),
    "hit_points": ("Hit points", "Points de vie"),
    "cargo": ("Trade goods and treasure", "Chargement (marchandises, trésor)"),
    "unrest": ("Unrest", "Niveau de Troubles"),
    "mutiny": ("Mutiny", "Mutinerie"),
    "losses": ("Travelers and wagons lost", "Pertes (voyageurs, chariots)"),
    "starving": ("Starvation", "Famine"),
    "destroyed": ("Destroyed", "Convoi détruit"),
}


@dataclass(frozen=True)
class CvWeights:
    """Point values of a convoy's score (100 points: the whole journey)."""

    journey: float = 100.0
    arrival: float = 50.0
    per_day: float = 0.5
    hit_points: float = 20.0  # for a full HP pool
    cargo_unit: float = 2.0
    unrest: float = 3.0
    mutiny: float = 10.0
    traveler_lost: float = 5.0
    wagon_lost: float = 10.0
    starving: float = 10.0
    destroyed: float = 100.0


def remaining_miles(world: World, c: Convoy) -> int:
    """Hexes still to cross as the crow flies, through the waypoints left, in miles."""
    if c.status == "arrived":
        return 0
    hm = world.map
    here, hexes = c.hex, 0
    for stop in c.stops or [c.destination]:
        hexes += hm.distance(here, stop)
        here = stop
    return hexes * hm.hex_miles


def journey_share(world: World, c: Convoy) -> float:
    """Share of the journey done: miles travelled over miles travelled plus miles left."""
    if c.status == "arrived":
        return 1.0
    done = float(ticks_to_miles(c.ticks_total))
    left = remaining_miles(world, c)
    return 0.0 if done + left <= 0 else done / (done + left)


def score_convoy(world: World, cid: str, w: CvWeights = CvWeights()) -> FactionScore:
    cv = world.cv
    assert cv is not None, "no convoys in this world"
    c = cv.convoy(cid)
    share = journey_share(world, c)
    arrived = c.status == "arrived"
    destroyed = c.status == "destroyed"
    days = c.days_travelled + c.days_rested
    hp = 0.0 if destroyed or c.max_hp <= 0 else c.hp / c.max_hp
    goods = c.cargo.get("trade_goods", 0) + c.cargo.get("treasure", 0)
    terms = (
        Term("journey", round2(w.journey * share), f"{round2(share * 100)}% of the way"),
        Term("arrival", round2(w.arrival if arrived else 0.0),
             f"arrived on day {c.arrived_at // HOURS_PER_DAY + 1}" if arrived else "not arrived"),
        Term("days", round2(-w.per_day * days), f"{days} days on the road"),
        Term("hit_points", round2(w.hit_points * hp), f"{c.hp}/{c.max_hp} HP"),
        Term("cargo", round2(w.cargo_unit * goods), f"{goods} cargo units of trade goods and treasure"),
        Term("unrest", round2(-w.unrest * c.unrest), f"Unrest {c.unrest}"),
        Term("mutiny", round2(-w.mutiny if c.in_mutiny else 0.0), "in mutiny" if c.in_mutiny else "no mutiny"),
        Term("losses", round2(-w.traveler_lost * c.travelers_lost - w.wagon_lost * c.wagons_lost),
             f"{c.travelers_lost} travelers, {c.wagons_lost} wagons lost"),
        Term("starving", round2(-w.starving if c.starving else 0.0), "starving" if c.starving else "fed"),
        Term("destroyed", round2(-w.destroyed if destroyed else 0.0), "destroyed" if destroyed else "standing"),
    )
    metrics: dict[str, float | int | str | None] = {
        "journey": round2(share),
        "days_on_road": days,
        "arrived_day": (c.arrived_at // HOURS_PER_DAY + 1) if arrived else None,
    }
    return FactionScore(c.key, "convoy", c.policy, UNIT, terms, metrics, TERM_LABELS)
