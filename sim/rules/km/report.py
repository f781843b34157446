"""What a campaign's kingdoms did, read from the world alone: the ``km.*`` summary metrics of a run
and each kingdom's metrics of a season (``SeasonSummarized``, reports)."""

from __future__ import annotations

from typing import Any

from sim.rules.km.statistics import stats
from sim.state.km import KmStats
from sim.world import World

__all__ = ["metrics", "summary"]


def summary(world: World) -> dict[str, int | float]:
    km = world.km_state()
    w = world
    out: dict[str, int | float] = {"km.turns": km.turn + 1, "km.kingdoms": len(km.kingdoms)}
    for name in KmStats.__struct_fields__:  # the kingdoms' own counters (the link_* ones are the links' report's)
        if not name.startswith("link_"):
            out[f"km.{name}"] = getattr(km.stats, name)
    rels = list(km.relations.values())
    out["km.embassies_now"] = sum(1 for r in rels if r.embassy)
    out["km.treaties_now"] = sum(1 for r in rels if r.treaty is not None)
    out["km.alliances_now"] = sum(1 for r in rels if r.alliance is not None)
    out["km.wars_now"] = sum(1 for r in rels if r.enemies)
    out["km.trade_routes_active"] = sum(1 for r in km.routes if r.status == "established")
    out["km.vassals"] = sum(1 for k in km.kingdoms.values() if k.overlord is not None)
    ks = [km.kingdoms[kid] for kid in km.ids()]
    out["km.treasury_total"] = sum(k.treasury for k in ks)
    out["km.treasury_min"] = min((k.treasury for k in ks), default=0)
    out["km.treasury_max"] = max((k.treasury for k in ks), default=0)
    out["km.unrest_max"] = max((k.unrest for k in ks), default=0)
    out["km.size_total"] = sum(len(k.hexes) for k in ks)
    out["km.size_max"] = max((len(k.hexes) for k in ks), default=0)
    out["km.fame_max"] = max((stats(w, k).fame for k in ks), default=0)
    out["km.infamy_max"] = max((stats(w, k).infamy for k in ks), default=0)
    return out


def metrics(world: World) -> dict[str, dict[str, Any]]:
    km = world.km_state()
    out: dict[str, dict[str, Any]] = {}
    for kid in km.ids():
        k = km.kingdoms[kid]
        st = stats(world, k)
        out[f"kingdom:{kid}"] = {
            "treasury": k.treasury,
            "size": st.size,
            "unrest": k.unrest,
            "economy": st.economy,
            "loyalty": st.loyalty,
            "stability": st.stability,
            "fame": st.fame,
            "infamy": st.infamy,
            "control_dc": st.control_dc,
            "treaties": sum(1 for r in km.relations.values() if kid in (r.a, r.b) and r.treaty is not None),
            "trade_routes": sum(1 for r in km.routes if r.kingdom == kid and r.status == "established"),
        }
    return out
