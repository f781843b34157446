"""Driver of the guild warfare (GW) system — la guerre des guildes.

One SimPy process for the whole system wakes at hour 0 of every season (``Phase.GW``, after KM and
MN and before the convoys, LINK-01) and calls the rules' turn function, ``sim.rules.gw.resolve_season``:
title deliveries, every guild's orders in ascending id (each guild agent answers one order at a
time, through the campaign's ``AgentDecider``), then the phases of RES-GW-10 in order. The hooks of
the other systems (``sim.rules.links.gw_hooks``) are built when the process starts. The process
keeps no state: it computes the next season from the clock and ``world.gw.season``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from agents.base import AgentDecider
from agents.guild import GuildAgent
from agents.systems import SystemDriver, attach_link
from sim.calendar import Phase
from sim.events import Event
from sim.rules import gw as wf
from sim.rules import links

if TYPE_CHECKING:
    from agents.model import RealmModel
from agents.chronicle_tables.gw import LINES  # noqa: F401  (re-exported)


class _Driver(SystemDriver):
    name = "gw"
    phase = Phase.GW

    # ---- processes ----------------------------------------------------------------------------
    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        gw = model.world.gw
        if gw is None:
            return
        for gid in sorted(gw.guilds):
            model.register(GuildAgent(model, gid, gw.guilds[gid].policy))
        model.process(self._seasons(model))

    def _seasons(self, model: RealmModel) -> Iterator[Any]:
        world = model.world
        assert world.gw is not None
        hooks = links.gw_hooks(world)  # --- LINK: what the other systems add to a season, plugged in once
        decider = AgentDecider(model)
        length = wf.season_hours(world.config.gw)
        now = int(model.env.now)
        k = max(-(-now // length), world.gw.season + 1)
        while k * length < world.end:
            yield model.at(k * length, Phase.GW, 0)
            wf.resolve_season(world, decider, model.dice.stream("gw", "loot"), model.ledger,
                              hooks=hooks)
            k += 1

    # ---- reports ------------------------------------------------------------------------------
    def summary(self, model: RealmModel) -> dict[str, int | float]:
        gw = model.world.gw
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

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        gw = model.world.gw
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

    def invariants(self, model: RealmModel) -> list[str]:
        return wf.broken_invariants(model.world)

    # ---- chronicle ----------------------------------------------------------------------------
    def chronicle_kinds(self) -> frozenset[str]:
        return frozenset(LINES)

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        fn = LINES.get(ev.kind)
        if fn is None:
            return None
        return fn(ev, lang, model)


DRIVER = _Driver()
