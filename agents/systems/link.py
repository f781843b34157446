"""Driver of LINK — where the systems meet (RULES.md §5.5): the ``link.*`` metrics, the LINK invariants
and the chronicle lines of the LINK events (English and French).

It has no process of its own: the LINK clauses run inside the systems' turns, through the small hooks
that call ``sim.rules.links``. It joins a model when two systems or more are enabled
(``agents.systems.attach_link``). Everything it reports is read from the world.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.systems import SystemDriver
from sim.calendar import Phase
from sim.events import Event
from sim.rules import links

if TYPE_CHECKING:
    from agents.model import RealmModel
    from sim.world import World
from agents.chronicle_tables.link import LINES  # noqa: F401  (re-exported)


class _Driver(SystemDriver):
    name = "link"
    phase = Phase.KM

    def summary(self, model: RealmModel) -> dict[str, int | float]:
        return summary(model.world)

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        w = model.world
        out: dict[str, dict[str, Any]] = {}
        if w.km is not None:
            for kid in w.km.ids():
                out[f"kingdom:{kid}"] = {"occupied_pending": len(w.km.kingdoms[kid].occupied)}
        if w.mn is not None and w.gw is not None:
            for nid in sorted(w.mn.nations):
                out[f"nation:{nid}"] = {"gw_armies": sum(1 for a in w.gw.armies.values() if a.owner == nid)}
        return out

    def invariants(self, model: RealmModel) -> list[str]:
        return invariant_problems(model.world)

    def chronicle_kinds(self) -> frozenset[str]:
        return frozenset(LINES)

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        fn = LINES.get(ev.kind)
        return None if fn is None else fn(ev, lang, model.world)


def summary(w: World) -> dict[str, int | float]:
    """The ``link.*`` metrics of a campaign (read from the world)."""
    out: dict[str, int | float] = {}
    km, mn, gw, cv = w.km, w.mn, w.gw, w.cv
    kc = km.counts if km is not None else {}
    gs = gw.stats if gw is not None else {}
    if km is not None and mn is not None:
        out["link.dual_factions"] = sum(1 for k in km.kingdoms.values() if k.nation is not None)
        out["link.mn_costs_bp"] = kc.get("link_mn_costs_bp", 0)
        out["link.mn_incomes_bp"] = kc.get("link_mn_incomes_bp", 0)
        out["link.envoys"] = len(km.envoys)
    if gw is not None:
        out["link.affiliated_guilds"] = sum(1 for g in gw.guilds.values() if g.affiliation is not None and g.nation is None)
    if gw is not None and mn is not None:
        out["link.nation_armies"] = gs.get("link_nation_armies", 0)
        out["link.nation_armies_not_raised"] = gs.get("link_nation_armies_not_raised", 0)
        out["link.nation_army_solars"] = gs.get("link_nation_army_solars", 0)
        out["link.nation_upkeep_solars"] = gs.get("link_upkeep_solars", 0)
        out["link.invasions"] = gs.get("link_invasions", 0)
        out["link.repulses"] = gs.get("link_repulses", 0)
    if gw is not None and km is not None:
        out["link.occupations"] = kc.get("link_occupations", 0)
        out["link.occupation_unrest"] = kc.get("link_occupation_unrest", 0)
        out["link.hexes_lost"] = kc.get("link_hexes_lost", 0)
        out["link.conquests"] = kc.get("link_conquests", 0)
    if km is not None and cv is not None:
        out["link.trade_convoys"] = sum(1 for r in km.routes if r.convoy is not None)
    return out


def invariant_problems(w: World) -> list[str]:
    out: list[str] = []
    km, mn, gw = w.km, w.mn, w.gw
    if km is not None and mn is not None:
        for kid in km.ids():
            n = km.kingdoms[kid].nation
            if n is not None and (n not in mn.nations or mn.nations[n].kingdom != kid):
                out.append(f"kingdom {kid} is one faction with nation {n}, which does not say so (LINK-03)")
        for nid in sorted(mn.nations):
            k = mn.nations[nid].kingdom
            if k is not None and (k not in km.kingdoms or km.kingdoms[k].nation != nid):
                out.append(f"nation {nid} is one faction with kingdom {k}, which does not say so (LINK-03)")
    if km is not None and gw is not None:
        for kid in km.ids():
            for d in km.kingdoms[kid].occupied:
                if d not in gw.domains:
                    out.append(f"kingdom {kid} awaits Unrest for an unknown domain {d} (LINK-08)")
    if gw is not None:
        for gid in sorted(gw.guilds):
            g = gw.guilds[gid]
            if g.nation is not None and (mn is None or g.nation not in mn.nations or g.nation != gid):
                out.append(f"guild {gid} acts for nation {g.nation}, which is not a nation of this campaign (LINK-06)")
    return out


DRIVER = _Driver()

__all__ = ["DRIVER", "links", "summary"]
