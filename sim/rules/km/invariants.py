"""The invariants of the kingdoms: what must hold between any two rules of a month (a hex claimed
once, Unrest and Fame never below 0, agreements over embassies…). A broken one is an engine bug
(``RealmModel.assert_invariants``, the conformance suite)."""

from __future__ import annotations

from sim.world import World

__all__ = ["broken_invariants"]


def broken_invariants(world: World) -> list[str]:
    """Every invariant of the kingdoms the current state breaks (empty when all hold); none without
    kingdoms."""
    km = world.km
    if km is None:
        return []
    out: list[str] = []
    owner: dict[int, str] = {}
    for kid in km.ids():
        k = km.kingdoms[kid]
        if k.unrest < 0:
            out.append(f"{kid}: Unrest {k.unrest} < 0 (SC-KM-07)")
        if k.fame < 0 or k.infamy < 0:
            out.append(f"{kid}: Fame/Infamy below 0 (SC-KM-25)")
        for h in k.hexes:
            if h in owner:
                out.append(f"hex {h} claimed by {owner[h]} and {kid}")
            owner[h] = kid
        for s in k.settlements:
            if s.hex not in k.hexes:
                out.append(f"{kid}: settlement {s.name} outside its hexes")
        types = [r.type for r in km.routes if r.kingdom == kid and r.status in ("travelling", "established")]
        for t in set(types):
            if types.count(t) > 1:
                out.append(f"{kid}: {types.count(t)} {t} trade routes (KM-TRADE-14)")
        if k.subjugation is not None and k.overlord != k.subjugation.overlord:
            out.append(f"{kid}: subjugated by {k.subjugation.overlord} but its overlord is {k.overlord}")
    for key, r in km.relations.items():
        if (r.treaty is not None or r.alliance is not None) and not r.embassy:
            out.append(f"{key}: an agreement without an embassy (KM-REL-07)")
    return out
