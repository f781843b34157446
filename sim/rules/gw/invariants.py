"""The invariants of the guild world: what must hold between any two rules of a season (a unit in one
place, seals and armies that agree, the bank's deposits; none of it a clause's outcome). A broken one
is an engine bug (``RealmModel.assert_invariants``, the conformance suite)."""

from __future__ import annotations

from typing import Any

from sim.world import World

__all__ = ["broken_invariants"]


def broken_invariants(world: World) -> list[str]:
    """Every invariant of the guild world the current state breaks (empty when all hold); none
    without guild warfare."""
    gw = world.gw
    if gw is None:
        return []
    out: list[str] = []
    cfg = world.config.gw
    seen: dict[int, str] = {}

    def unit_ok(u: Any, where: str) -> None:
        if u.id in seen:
            out.append(f"unit {u.id} is both in {seen[u.id]} and {where}")
        seen[u.id] = where
        if u.damage < 0:
            out.append(f"unit {u.id} in {where} has negative damage {u.damage}")
        if u.kind not in cfg.units:
            out.append(f"unit {u.id} in {where} is of unknown type {u.kind}")

    for gid in sorted(gw.guilds):
        g = gw.guilds[gid]
        if g.solars < 0:
            out.append(f"guild {gid} has {g.solars} solars")
        if g.victuals < 0:
            out.append(f"guild {gid} has {g.victuals} victuals")
        for k, n in g.pool.items():
            if n < 0:
                out.append(f"guild {gid} has {n} {k} in its pool")
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if not a.units:
            out.append(f"army {aid} has no unit but still exists")
        if len(a.units) > a.capacity:
            out.append(f"army {aid} holds {len(a.units)} units over its capacity {a.capacity}")
        for u in a.units:
            unit_ok(u, f"army {aid}")
        for name in (*a.own_seals, *a.other_seals, *a.support_seals):
            if name not in gw.seals or gw.seals[name].army != aid:
                out.append(f"army {aid} lists seal {name}, which is not engaged in it")
        if a.occupying is not None and aid not in gw.domains[a.occupying].occupied_by:
            out.append(f"army {aid} occupies {a.occupying}, which does not list it")
    for sid in sorted(gw.seals):
        s = gw.seals[sid]
        if s.army is not None and (s.army not in gw.armies or sid not in (*gw.armies[s.army].own_seals, *gw.armies[s.army].other_seals, *gw.armies[s.army].support_seals)):
            out.append(f"seal {sid} is engaged in {s.army}, which does not hold it")
    for did in sorted(gw.domains):
        d = gw.domains[did]
        for u in d.garrison:
            unit_ok(u, f"garrison of {did}")
        for aid in d.occupied_by:
            if aid not in gw.armies or gw.armies[aid].occupying != did:
                out.append(f"domain {did} lists occupier {aid}, which does not occupy it")
        for aid in d.besieged_by:
            if aid not in gw.armies or gw.armies[aid].besieging != did:
                out.append(f"domain {did} lists besieger {aid}, which does not besiege it")
        for b in d.buildings:
            if b.sp < 0:
                out.append(f"building {b.id} of {did} has {b.sp} structure points")
    held = sum(d.amount for d in gw.bank.deposits if not d.title_returned and not d.forfeited)
    if held != gw.bank.held or gw.bank.held < 0 or gw.bank.kept < 0:
        out.append(f"the Banque de l'Hippocampe holds {gw.bank.held} solars but its pending deposits sum to {held}")
    for lt in gw.loot:
        if lt.value < 0:
            out.append(f"loot {lt.id} has value {lt.value}")
    return out
