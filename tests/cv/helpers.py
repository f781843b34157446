"""Small hand-built caravan worlds for the CV rules tests (no scenario file, no agents)."""

from __future__ import annotations

from sim.config import Config
from sim.events import Ledger
from sim.hexmap import Hex, HexMap
from sim.rules.cv import WAGON_TYPES
from sim.state.cv import Convoy, CvWorld, Traveler, Wagon
from sim.world import World

# the worked examples' baseline: Security +4 (Mobility 1 + guard 3), Resolve +7 (Morale 2 +
# entertainer 5), AC 13 (10 + Defense 3), Morale 2
BONUSES = {"guard": {"security": 3}, "entertainer": {"resolve": 5}, "scout": {"security": 1}}


def line_map(n: int = 20, terrain: str = "plains", road: str = "road", villages: dict[int, str] | None = None,
             hex_miles: int = 12) -> HexMap:
    """A 1-row map of ``n`` hexes, all of one terrain and path type."""
    hexes = [Hex(terrain=terrain, road=road) for _ in range(n)]
    for i, name in (villages or {}).items():
        hexes[i].settlement = name
        hexes[i].settlement_kind = "village"
    return HexMap(width=n, height=1, hexes=hexes, hex_miles=hex_miles)


def travelers(drivers: int, *others: str) -> list[Traveler]:
    out = [Traveler(id=f"driver{i + 1}", job="driver", can_drive=True) for i in range(drivers)]
    counts: dict[str, int] = {}
    for job in others:
        counts[job] = counts.get(job, 0) + 1
        out.append(Traveler(id=f"{job}{counts[job]}", job=job))
    return out


def convoy(wagons: list[str], crew: list[Traveler], *, hm: HexMap, at: int = 0, dest: int | None = None,
           offense: int = 1, defense: int = 3, mobility: int = 1, morale: int = 2, hp: int | None = None,
           provisions: int = 100, unrest: int = 0, cargo: dict[str, int] | None = None, gp: int = 0,
           feats: list[str] | None = None) -> Convoy:
    ws = [Wagon(id=i, kind=k) for i, k in enumerate(wagons)]
    max_hp = sum(WAGON_TYPES[k].hp for k in wagons)
    dest = hm.width * hm.height - 1 if dest is None else dest
    c = Convoy(id="amber", name="Amber", policy="heuristic", origin=at, destination=dest, offense=offense,
               defense=defense, mobility=mobility, morale=morale, wagons=ws, travelers=crew, next_wagon_id=len(ws),
               hp=max_hp if hp is None else hp, max_hp=max_hp, unrest=unrest, provisions=provisions,
               cargo=dict(cargo or {}), gp=gp, feats=list(feats or []), hex=at,
               path=list(range(at, dest + 1)), stops=[dest])
    c.in_mutiny = c.unrest > c.morale
    c.below_quarter = 4 * c.hp <= c.max_hp
    return c


def baseline(hm: HexMap, **kw: object) -> Convoy:
    """The §7.4 baseline caravan: covered, fortune-teller's, supply, 1 horse train (80 HP, 36 mpd)."""
    return convoy(["covered", "fortune_teller", "supply", "horse_train"], travelers(4, "guard", "entertainer"),
                  hm=hm, **kw)  # type: ignore[arg-type]


def world_of(c: Convoy, hm: HexMap, *, now: int = 6, bonuses: dict[str, dict[str, int]] | None = None,
             config: Config | None = None, **cv: object) -> World:
    w = World(scenario="test", seed=1, start=0, end=24 * 60, now=now, systems=["cv"], config=config or Config(), map=hm,
              cv=CvWorld(convoys=[c], job_bonuses=BONUSES if bonuses is None else bonuses, **cv))  # type: ignore[arg-type]
    return w


def ledger_at(now: int = 6) -> Ledger:
    return Ledger(now=now)


def kinds(ledger: Ledger, *, skip: tuple[str, ...] = ()) -> list[str]:
    return [e.kind for e in ledger.events if e.kind not in skip]
