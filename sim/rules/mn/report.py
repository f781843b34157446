"""What a campaign's nations did, read from the world alone: the ``mn.*`` summary metrics of a run
and each nation's metrics of a season (``SeasonSummarized``, reports)."""

from __future__ import annotations

from typing import Any

from sim.rules.mn.lookups import treaty_involves
from sim.world import World

__all__ = ["metrics", "summary"]


def summary(world: World) -> dict[str, int | float]:
    mn = world.mn_state()
    s = mn.stats
    out: dict[str, int | float] = {"mn.turns": mn.turn, "mn.nations": len(mn.nations)}
    for f in s.__struct_fields__:
        out[f"mn.{f}"] = getattr(s, f)
    states = [a.state for a in mn.ambassadors.values()]
    for st in ("home", "travelling", "at_post", "imprisoned", "dead"):
        out[f"mn.ambassadors_{st}"] = states.count(st)
    out["mn.treaties_in_force"] = len(mn.treaties)
    for kind in ("commercial", "alliance", "pact"):
        out[f"mn.{kind}_in_force"] = sum(1 for t in mn.treaties if t.kind == kind)
    out["mn.embassies"] = len(mn.embassies)
    out["mn.wars"] = len(mn.wars)
    out["mn.treasury_total"] = sum(n.treasury for n in mn.nations.values())
    out["mn.treasury_max"] = max((n.treasury for n in mn.nations.values()), default=0)
    out["mn.treasury_min"] = min((n.treasury for n in mn.nations.values()), default=0)
    return out


def metrics(world: World) -> dict[str, dict[str, Any]]:
    mn = world.mn_state()
    out: dict[str, dict[str, Any]] = {}
    for nid, n in mn.nations.items():
        k = f"nation:{nid}"
        out[k] = {
            "treasury": n.treasury,
            "provinces": len(n.provinces),
            "ambassadors": sum(1 for a in mn.ambassadors.values() if a.nation == nid and a.state != "dead"),
            "embassies": sum(1 for e in mn.embassies if e.nation == nid),
            "treaties": sum(1 for t in mn.treaties if treaty_involves(t, k)),
            "imports": len({i.resource for i in n.imports}),
        }
    return out
