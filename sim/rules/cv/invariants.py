"""The invariants of the caravans: what must hold between any two rules of a day (hit points within
the wagons' pool, cargo within capacity, the mutiny flag and the route in step with the convoy…). A
broken one is an engine bug (``RealmModel.assert_invariants``, the conformance suite)."""

from __future__ import annotations

from sim.rules.cv.stats import MULT4, cargo_capacity, cargo_used, max_hp_of, traveler_capacity
from sim.world import World

__all__ = ["broken_invariants"]


def broken_invariants(w: World) -> list[str]:
    """Every invariant of the caravans the current state breaks (empty when all hold); none without
    caravans."""
    cv = w.cv
    if cv is None:
        return []
    cfg = w.config.cv
    out: list[str] = []
    ids = [c.id for c in cv.convoys]
    if ids != sorted(ids) or len(set(ids)) != len(ids):
        out.append(f"cv: convoys are not in ascending unique id order: {ids}")
    for c in cv.convoys:
        k = c.key
        if not 0 <= c.hp <= c.max_hp:
            out.append(f"{k}: hp {c.hp} outside 0..{c.max_hp}")
        if c.status != "destroyed" and c.max_hp != max_hp_of(c, cfg):
            out.append(f"{k}: max hp {c.max_hp} is not the wagons' {max_hp_of(c, cfg)} (RES-CV-23)")
        if c.unrest < 0:
            out.append(f"{k}: negative Unrest {c.unrest} (CV-UNR-02)")
        if c.provisions < 0 or any(v < 0 for v in c.cargo.values()):
            out.append(f"{k}: negative provisions or cargo")
        if c.status != "destroyed":
            if cargo_used(c) > cargo_capacity(c, cfg):
                out.append(f"{k}: cargo {cargo_used(c)} over capacity {cargo_capacity(c, cfg)} (SC-CV-09)")
            if len(c.travelers) > traveler_capacity(c, cfg):
                out.append(f"{k}: {len(c.travelers)} travelers over capacity {traveler_capacity(c, cfg)} (SC-CV-09)")
        if c.in_mutiny != (c.unrest > c.morale):
            out.append(f"{k}: mutiny flag {c.in_mutiny} but Unrest {c.unrest} vs Morale {c.morale} (RES-CV-17)")
        if c.condition not in ("none", "fatigued", "exhausted"):
            out.append(f"{k}: unknown condition {c.condition!r}")
        if c.status == "travelling" and (c.path_pos >= len(c.path) or c.path[c.path_pos] != c.hex):
            out.append(f"{k}: route out of step with the convoy's hex")
        if c.status == "arrived" and c.hex != c.destination:
            out.append(f"{k}: arrived away from its destination")
        if w.map.hexes[c.hex].terrain not in MULT4:
            out.append(f"{k}: standing on impassable {w.map.hexes[c.hex].terrain}")
    return out
