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
        "gw.seasons": st.get("seasons", 0),
        "gw.deployments": st.get("deployments", 0),
        "gw.battles": st.get("battles", 0),
        "gw.siege_seasons": st.get("siege_seasons", 0),
        "gw.assaults": st.get("assaults", 0),
        "gw.assaults_won": st.get("assaults_won", 0),
        "gw.occupations": st.get("occupations", 0),
        "gw.sacks": st.get("sacks", 0),
        "gw.units_destroyed": st.get("units_destroyed", 0),
        "gw.deserters": st.get("deserters", 0),
        "gw.units_unpaid": st.get("units_unpaid", 0),
        "gw.armies_destroyed": st.get("armies_destroyed", 0),
        "gw.domains_annexed": st.get("annexations", 0),
        "gw.loot_created": st.get("loot_created", 0),
        "gw.loot_solars": st.get("loot_solars", 0),
        "gw.loot_claimed_solars": st.get("loot_claimed_solars", 0),
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
