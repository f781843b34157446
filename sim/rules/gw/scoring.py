"""A guild's score (docs/scoring.md), in solars: a year of its domains' yield (*domaines*), less what
sieges and occupations take, its units (*armées*, *garnisons*, *réserve*), its chest (*coffre*:
solars and *victuailles*), its notoriety (*notoriété*), and elimination."""

from __future__ import annotations

from dataclasses import dataclass

from sim.scores import FactionScore, Term, reserve_value, round2, years_of
from sim.world import World

__all__ = ["TERM_LABELS", "UNIT", "GwWeights", "score_guild"]

UNIT = "solars"
# term key → (English, French): the seeds' own words, for explanations and reports
TERM_LABELS: dict[str, tuple[str, str]] = {
    "domains": ("Domains", "Domaines"),
    "threatened": ("Domains besieged or occupied", "Domaines assiégés ou occupés"),
    "armies": ("Units in armies", "Unités des armées"),
    "garrisons": ("Garrisons", "Garnisons"),
    "pool": ("Units in the pool", "Unités en réserve"),
    "solars": ("Solars", "Coffre (solars)"),
    "victuals": ("Victuals", "Victuailles"),
    "notoriety": ("Notoriety", "Notoriété"),
    "eliminated": ("Eliminated", "Éliminée"),
}


@dataclass(frozen=True)
class GwWeights:
    """Solar values of a guild's score."""

    reserve_years: float = 2.0
    above_reserve: float = 0.5
    victual_solars: float = 1.0  # victuals have no price in the rules (SC-GW-11): counted at par
    occupied_share: float = 0.5  # of a domain's value at risk while it is occupied (it may be annexed)…
    besieged_share: float = 0.25  # …or besieged (it yields nothing, SC-GW-14, and may be assaulted)
    notoriety_solars: float = 10.0
    eliminated_solars: float = 500.0


def score_guild(world: World, gid: str, w: GwWeights = GwWeights()) -> FactionScore:
    gw = world.gw
    assert gw is not None, "no guilds in this world"
    cfg = world.config.gw
    g = gw.guilds[gid]
    doms = [gw.domains[d] for d in sorted(gw.domains) if gw.domains[d].owner_guild == gid]
    armies = [gw.armies[a] for a in sorted(gw.armies) if gw.armies[a].owner == gid]
    year = cfg.seasons_per_year
    dom_year = year * (cfg.domain_solars + cfg.domain_victuals * w.victual_solars)
    dom_value = cfg.annex_compensation_solars + dom_year  # what taking one costs (GW-ANX-02) + a year of yield
    solars_year = year * cfg.domain_solars * len(doms)
    occupied = sum(1 for d in doms if d.occupied_by)
    besieged = sum(1 for d in doms if d.besieged_by and not d.occupied_by)
    cost = cfg.unit_cost_solars

    def worth(kinds: list[str]) -> int:
        return sum(cost.get(u, 0) for u in kinds)

    in_armies = worth([u.kind for a in armies for u in a.units])
    in_garrisons = worth([u.kind for d in doms for u in d.garrison])
    in_pool = sum(cost.get(u, 0) * n for u, n in sorted(g.pool.items()))
    reserve = w.reserve_years * solars_year
    eliminated = not doms and not armies
    terms = (
        Term("domains", round2(dom_value * len(doms)),
             f"{len(doms)} domains × ({cfg.annex_compensation_solars} compensation + {round2(dom_year)} a year of yield)"),
        Term("threatened", round2(-dom_value * (w.occupied_share * occupied + w.besieged_share * besieged)),
             f"{occupied} occupied × {w.occupied_share:g}, {besieged} besieged × {w.besieged_share:g} of a domain"),
        Term("armies", float(in_armies), f"{sum(len(a.units) for a in armies)} units in {len(armies)} armies at recruit price"),
        Term("garrisons", float(in_garrisons), f"{sum(len(d.garrison) for d in doms)} units in garrisons at recruit price"),
        Term("pool", float(in_pool), f"{sum(g.pool.values())} units in the pool at recruit price"),
        Term("solars", round2(reserve_value(g.solars, reserve, w.above_reserve)),
             f"{g.solars} solars, reserve {round2(reserve)} ({w.reserve_years:g} years of yield)"),
        Term("victuals", round2(w.victual_solars * g.victuals), f"{g.victuals} victuals"),
        Term("notoriety", round2(w.notoriety_solars * g.notoriety), f"notoriety {g.notoriety}"),
        Term("eliminated", round2(-w.eliminated_solars if eliminated else 0.0),
             "no domain and no army" if eliminated else "holds a domain or an army"),
    )
    metrics: dict[str, float | int | str | None] = {
        "income_year": solars_year,
        "treasury_years": years_of(g.solars, solars_year),
        "eliminated": int(eliminated),
    }
    return FactionScore(f"guild:{gid}", "guild", g.policy, UNIT, terms, metrics, TERM_LABELS)
