"""What the live map shows, as plain data: the map itself once, then a snapshot of the factions.

The campaign process (:mod:`workers.server.campaign_child`) calls :func:`static_map` once and
:func:`snapshot` at every season boundary (and now and then between them), reading only
``model.world`` (``sim/world.py``, ``sim/state/*.py``); the server stores both as JSON and draws them
(:mod:`workers.server.svg`). Nothing here changes the world or the ledger.
"""

from __future__ import annotations

from typing import Any

from sim.calendar import HOURS_PER_SEASON, date_of
from sim.hexmap import TERRAIN_LETTERS, HexMap
from sim.world import World

LETTER_OF = {name: letter for letter, name in TERRAIN_LETTERS.items()}
FACTION_KINDS = ("kingdom", "nation", "guild", "convoy")


def factions(world: World) -> list[dict[str, str]]:
    """Every faction of the world in a fixed order (kingdoms, nations, guilds, convoys), with its name."""
    out: list[dict[str, str]] = []
    if world.km:
        out += [{"key": f"kingdom:{k}", "name": v.name} for k, v in sorted(world.km.kingdoms.items())]
    if world.mn:
        out += [{"key": f"nation:{k}", "name": v.name} for k, v in sorted(world.mn.nations.items())]
    if world.gw:
        out += [{"key": f"guild:{k}", "name": v.name} for k, v in sorted(world.gw.guilds.items())]
    if world.cv:
        out += [{"key": f"convoy:{c.id}", "name": c.name} for c in world.cv.convoys]
    return out


def static_map(world: World) -> dict[str, Any]:
    m: HexMap = world.map
    return {
        "width": m.width,
        "height": m.height,
        "terrain": "".join(LETTER_OF.get(h.terrain, "P") for h in m.hexes),
        "roads": {str(i): h.road_level for i, h in enumerate(m.hexes) if h.road_level},
        "rivers": [i for i, h in enumerate(m.hexes) if h.river],
        "settlements": [[i, h.settlement, h.settlement_kind or ""] for i, h in enumerate(m.hexes) if h.settlement],
        "factions": factions(world),
        "systems": list(world.systems),
        "end": world.end,
    }


def _envoy_hex(path: list[int], depart: int, arrive: int, now: int) -> int:
    if not path:
        return -1
    if arrive <= depart or now >= arrive:
        return path[-1]
    i = (now - depart) * (len(path) - 1) // (arrive - depart)
    return path[max(0, min(len(path) - 1, i))]


def snapshot(world: World) -> dict[str, Any]:
    """Where every faction stands now: territory, settlements, armies, convoys, cities, embassies."""
    now = world.now
    snap: dict[str, Any] = {"hour": now, "season": now // HOURS_PER_SEASON, "date": date_of(now).format("en"),
                            "kingdoms": [], "nations": [], "cities": [], "embassies": [], "domains": [],
                            "armies": [], "convoys": [], "envoys": []}
    if world.km:
        for k in sorted(world.km.kingdoms.values(), key=lambda k: k.id):
            snap["kingdoms"].append({
                "key": f"kingdom:{k.id}", "name": k.name, "hexes": list(k.hexes), "capital": k.capital,
                "settlements": [[s.hex, s.name] for s in k.settlements], "unrest": k.unrest, "treasury": k.treasury,
                "overlord": k.overlord,
            })
        for e in world.km.envoys:
            if e.status == "travelling":
                snap["envoys"].append({"kingdom": f"kingdom:{e.kingdom}", "target": e.target,
                                       "hex": _envoy_hex(e.path, e.depart, e.arrive, now)})
    if world.mn:
        mn = world.mn
        seat = {p.id: p.seat for p in mn.provinces.values()}
        for n in sorted(mn.nations.values(), key=lambda n: n.id):
            snap["nations"].append({"key": f"nation:{n.id}", "name": n.name, "capital": seat.get(n.capital, -1),
                                    "provinces": [seat.get(p, -1) for p in n.provinces], "treasury": n.treasury})
        for c in sorted(mn.cities.values(), key=lambda c: c.id):
            snap["cities"].append({"id": c.id, "name": c.name, "hex": seat.get(c.province, -1),
                                   "controller": f"nation:{c.controller}" if c.controller else None})
        city_hex = {c["id"]: c["hex"] for c in snap["cities"]}
        for emb in mn.embassies:
            if emb.last_turn is None:
                snap["embassies"].append({"nation": f"nation:{emb.nation}", "city": emb.city, "hex": city_hex.get(emb.city, -1)})
    if world.gw:
        gw = world.gw
        for d in sorted(gw.domains.values(), key=lambda d: d.id):
            snap["domains"].append({"id": d.id, "name": d.name, "hex": d.hex, "owner": f"guild:{d.owner_guild}",
                                    "occupied": bool(d.occupied_by), "besieged": bool(d.besieged_by)})
        for a in sorted(gw.armies.values(), key=lambda a: a.id):
            snap["armies"].append({"id": a.id, "owner": f"guild:{a.owner}", "hex": a.hex, "units": len(a.units)})
    if world.cv:
        for cv in world.cv.convoys:
            rest = cv.path[cv.path_pos:] if cv.status == "travelling" else []
            snap["convoys"].append({"key": f"convoy:{cv.id}", "name": cv.name, "hex": cv.hex, "status": cv.status,
                                    "unrest": cv.unrest, "path": rest[:200], "destination": cv.destination})
    return snap


def event_factions(world: World, actor: str, data: dict[str, Any]) -> list[str]:
    """The factions an event concerns: its actor when that is a faction, the owner of an army, a
    domain, an ambassador or an envoy, and any faction its data names (``guild``, ``nation``…)."""
    kind, _, ident = actor.partition(":")
    out: list[str] = [actor] if kind in FACTION_KINDS else []
    try:
        if kind == "army" and world.gw and ident in world.gw.armies:
            out.append(f"guild:{world.gw.armies[ident].owner}")
        elif kind == "domain" and world.gw and ident in world.gw.domains:
            out.append(f"guild:{world.gw.domains[ident].owner_guild}")
        elif kind == "ambassador" and world.mn and ident in world.mn.ambassadors:
            out.append(f"nation:{world.mn.ambassadors[ident].nation}")
        elif kind == "envoy" and world.km:
            for e in world.km.envoys:
                if str(e.id) == ident:
                    out.append(f"kingdom:{e.kingdom}")
                    break
    except (AttributeError, KeyError, TypeError):  # a shape this view does not know: the actor alone
        pass
    for k in FACTION_KINDS:
        v = data.get(k)
        if isinstance(v, str) and v:
            out.append(v if v.startswith(f"{k}:") else f"{k}:{v}")
    return sorted(set(out))
