"""What a campaign's guilds did, read from the world alone: the ``gw.*`` summary metrics of a run
and each guild's metrics of a season (``SeasonSummarized``, reports)."""

from __future__ import annotations

from typing import Any

from sim.world import World

__all__ = ["metrics", "summary"]


def summary(world: World) -> dict[str, int | float]:
    gw = world.gw
    if gw is None:
        return {}
    st = gw.stats
    out: dict[str, int | float] = {
        "gw.seasons": st.seasons,
        "gw.deployments": st.deployments,
        "gw.battles": st.battles,
        "gw.siege_seasons": st.siege_seasons,
        "gw.assaults": st.assaults,
        "gw.assaults_won": st.assaults_won,
        "gw.occupations": st.occupations,
        "gw.sacks": st.sacks,
        "gw.units_destroyed": st.units_destroyed,
        "gw.deserters": st.deserters,
        "gw.units_unpaid": st.units_unpaid,
        "gw.armies_destroyed": st.armies_destroyed,
        "gw.domains_annexed": st.annexations,
        "gw.loot_created": st.loot_created,
        "gw.loot_solars": st.loot_solars,
        "gw.loot_claimed_solars": st.loot_claimed_solars,
        "gw.bank_kept_solars": gw.bank.kept,
        "gw.armies": len(gw.armies),
    }
    for gid in sorted(gw.guilds):
        g = gw.guilds[gid]
        out[f"gw.domains.{gid}"] = sum(1 for d in gw.domains.values() if d.owner_guild == gid)
        out[f"gw.solars.{gid}"] = g.solars
        out[f"gw.notoriety.{gid}"] = g.notoriety
    return out


def metrics(world: World) -> dict[str, dict[str, Any]]:
    gw = world.gw
    if gw is None:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for gid in sorted(gw.guilds):
        g = gw.guilds[gid]
        doms = [d for d in gw.domains.values() if d.owner_guild == gid]
        armies = [a for a in gw.armies.values() if a.owner == gid]
        out[f"guild:{gid}"] = {
            "solars": g.solars,
            "victuals": g.victuals,
            "notoriety": g.notoriety,
            "domains": len(doms),
            "domains_occupied": sum(1 for d in doms if d.occupied_by),
            "domains_besieged": sum(1 for d in doms if d.besieged_by),
            "armies": len(armies),
            "army_units": sum(len(a.units) for a in armies),
            "garrison_units": sum(len(d.garrison) for d in doms),
            "pool_units": sum(g.pool.values()),
        }
    return out
