"""What the live map shows, as plain data: the map itself once, then a snapshot of the factions.

The campaign process (:mod:`workers.server.campaign_child`) calls :func:`static_map` once and
:func:`snapshot` at every day boundary (a day whose snapshot is the previous one's is not sent again),
with the factions' standings (:func:`standings`) at every season boundary and at the end, reading only
``model.world`` (``sim/world.py``, ``sim/state/*.py``); the server stores them as JSON and draws them
(:mod:`workers.server.svg`). A snapshot carries what a game master asks of a hex or a token: owners,
garrisons, armies' strength and units, convoys' cargo and crew. Nothing here changes the world or the
ledger.
"""

from __future__ import annotations

from typing import Any

from sim.calendar import HOURS_PER_SEASON, date_of
from sim.hexmap import TERRAIN_LETTERS, HexMap
from sim.world import World

SNAPSHOT_CLOCK = ("hour", "season", "date")  # what changes every day even when nothing else does

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


def _areas(names: list[str | None]) -> dict[str, Any]:
    """Hexes by area (a province or a region): ``{"names": [...], "of": [index per hex, -1: none]}``."""
    known = sorted({n for n in names if n})
    index = {n: i for i, n in enumerate(known)}
    return {"names": known, "of": [index[n] if n else -1 for n in names]}


def static_map(world: World) -> dict[str, Any]:
    m: HexMap = world.map
    out = {
        "width": m.width,
        "height": m.height,
        "terrain": "".join(LETTER_OF.get(h.terrain, "P") for h in m.hexes),
        "roads": {str(i): h.road_level for i, h in enumerate(m.hexes) if h.road_level},
        "rivers": [i for i, h in enumerate(m.hexes) if h.river],
        "settlements": [[i, h.settlement, h.settlement_kind or ""] for i, h in enumerate(m.hexes) if h.settlement],
        "factions": factions(world),
        "systems": list(world.systems),
        "end": world.end,
        "start": world.start,
    }
    if any(h.province for h in m.hexes):  # guild war's provinces and regions (map.provinces)
        out["provinces"] = _areas([h.province for h in m.hexes])
    if any(h.region for h in m.hexes):
        out["regions"] = _areas([h.region for h in m.hexes])
    return out


def _by_kind(units: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return dict(sorted(out.items()))


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


def _convoy_owner(world: World, cid: str) -> str | None:
    """The kingdom whose trade edict sent a convoy (``trade-<kingdom>-<n>``, LINK-02), if any."""
    if not world.km or not cid.startswith("trade-"):
        return None
    rest = cid[len("trade-"):]
    owners = [k for k in world.km.kingdoms if rest.startswith(k + "-")]
    return f"kingdom:{max(owners, key=len)}" if owners else None


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
                "overlord": k.overlord, "policy": k.policy, "fame": k.fame, "armies": k.armies,
                "anarchy": k.anarchy, "districts": {s.name: s.districts for s in k.settlements},
                "buildings": {s.name: sum(s.buildings.values()) for s in k.settlements},
            })
        for e in world.km.envoys:
            if e.status == "travelling":
                snap["envoys"].append({"kingdom": f"kingdom:{e.kingdom}", "target": e.target,
                                       "hex": _envoy_hex(e.path, e.depart, e.arrive, now)})
    if world.mn:
        mn = world.mn
        seat = {p.id: p.seat for p in mn.provinces.values()}
        for n in sorted(mn.nations.values(), key=lambda n: n.id):
            ambassadors = _count(a.state for a in mn.ambassadors.values() if a.nation == n.id)
            snap["nations"].append({"key": f"nation:{n.id}", "name": n.name, "capital": seat.get(n.capital, -1),
                                    "provinces": [seat.get(p, -1) for p in n.provinces], "treasury": n.treasury,
                                    "province_names": list(n.provinces), "policy": n.policy, "ambassadors": ambassadors})
        for c in sorted(mn.cities.values(), key=lambda c: c.id):
            snap["cities"].append({"id": c.id, "name": c.name, "hex": seat.get(c.province, -1),
                                   "controller": f"nation:{c.controller}" if c.controller else None})
        city_hex = {c["id"]: c["hex"] for c in snap["cities"]}
        for emb in mn.embassies:
            if emb.last_turn is None:
                snap["embassies"].append({"nation": f"nation:{emb.nation}", "city": emb.city, "hex": city_hex.get(emb.city, -1)})
    if world.gw:
        from sim.rules.gw.core import army_strength, garrison_strength

        gw = world.gw
        for d in sorted(gw.domains.values(), key=lambda d: d.id):
            snap["domains"].append({"id": d.id, "name": d.name, "hex": d.hex, "owner": f"guild:{d.owner_guild}",
                                    "occupied": bool(d.occupied_by), "besieged": bool(d.besieged_by),
                                    "occupied_by": list(d.occupied_by), "besieged_by": list(d.besieged_by),
                                    "province": d.province, "region": d.region, "fortification": d.fortification,
                                    "garrison": _by_kind(d.garrison), "garrison_strength": garrison_strength(world, d),
                                    "buildings": len(d.buildings)})
        for a in sorted(gw.armies.values(), key=lambda a: a.id):
            snap["armies"].append({"id": a.id, "owner": f"guild:{a.owner}", "hex": a.hex, "units": len(a.units),
                                   "strength": army_strength(world, a), "by_kind": _by_kind(a.units),
                                   "capacity": a.capacity, "seals": len(a.own_seals) + len(a.other_seals),
                                   "besieging": a.besieging, "occupying": a.occupying})
    if world.cv:
        for cv in world.cv.convoys:
            row = {"key": f"convoy:{cv.id}", "name": cv.name, "hex": cv.hex, "status": cv.status,
                   "destination": cv.destination, "owner": _convoy_owner(world, cv.id)}
            if cv.status != "travelling":  # arrived or lost: off the map, its sheet no longer moves
                snap["convoys"].append(row)
                continue
            rest = cv.path[cv.path_pos:]
            snap["convoys"].append({**row, "unrest": cv.unrest, "path": rest[:200], "hp": cv.hp, "max_hp": cv.max_hp,
                                    "provisions": cv.provisions, "gp": cv.gp, "morale": cv.morale,
                                    "cargo": dict(sorted(cv.cargo.items())), "wagons": _count(w.kind for w in cv.wagons),
                                    "crew": _count(t.job for t in cv.travelers), "policy": cv.policy})
    return snap


def standings(world: World) -> dict[str, dict[str, Any]]:
    """Every faction's score (``sim.scoring``, docs/scoring.md): kind, policy, total, unit and terms."""
    from sim.scoring import score_all

    return {key: {"kind": s.kind, "policy": s.policy, "score": s.total, "unit": s.unit, "terms": s.terms_dict()}
            for key, s in score_all(world).items()}


def same_moment(a: dict[str, Any], b: dict[str, Any] | None) -> bool:
    """Whether two snapshots show the same world (the clock aside)."""
    if b is None:
        return False
    return all(a[k] == b.get(k) for k in a if k not in SNAPSHOT_CLOCK) and set(a) == set(b)


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
