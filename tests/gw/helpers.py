"""Small worlds for the GW tests, built through the scenario loader (so the schema is exercised)
and completed by hand where a test needs an exact starting state."""

from __future__ import annotations

from typing import Any

from scenarios.build import build_world
from scenarios.loader import load_scenario_text
from sim.calendar import HOURS_PER_SEASON
from sim.dice import ScriptedDice
from sim.events import Ledger
from sim.rules import gw as wf
from sim.rules import links
from sim.state.gw import Army, Bonus, Building, Domain, Seal, Unit
from sim.world import World

# 14 × 6 plains with a short water wall in column 5 (rows 2-3).
# Provinces: P (cols 0-4) and P2 (cols 5-8) in region R; Q1 (cols 9-13) in region Q.
BASE = """
[scenario]
name = "gw-test"
systems = ["gw"]
duration = { years = 2 }

[map]
rows = ["PPPPPPPPPPPPPP", "PPPPPPPPPPPPPP", "PPPPPWPPPPPPPP", "PPPPPWPPPPPPPP", "PPPPPPPPPPPPPP", "PPPPPPPPPPPPPP"]
province_rows = ["pppppqqqqrrrrr", "pppppqqqqrrrrr", "pppppqqqqrrrrr", "pppppqqqqrrrrr", "pppppqqqqrrrrr", "pppppqqqqrrrrr"]
provinces = [
  { name = "P", region = "R", key = "p" },
  { name = "P2", region = "R", key = "q" },
  { name = "Q1", region = "Q", key = "r" },
]

[[guilds]]
id = "a"
leader = "Alice"
solars = 1000
victuals = 100
notoriety = 7
seals = [
  { id = "a-m1", province = "P" }, { id = "a-m2", province = "P" }, { id = "a-m3", province = "P" },
  { id = "a-m4", province = "P" }, { id = "a-p1", kind = "political", province = "P" },
]

[[guilds]]
id = "b"
leader = "Bob"
solars = 1000
victuals = 100
notoriety = 7
seals = [
  { id = "b-m1", province = "P2" }, { id = "b-m2", province = "P2" }, { id = "b-m3", province = "P2" },
  { id = "b-p1", kind = "political", province = "P2" },
]

[[guilds]]
id = "c"
leader = "Cid"
solars = 1000
victuals = 100
notoriety = 7
seals = [{ id = "c-m1", province = "Q1" }, { id = "c-m2", province = "Q1" }, { id = "c-p1", kind = "political", province = "Q1" }]

[[guilds]]
id = "e"
leader = "Eve"
solars = 1000
victuals = 100
seals = [{ id = "e-m1", province = "P" }]
"""


def make_world(extra: str = "", *, alliances: str = "", config: dict[str, Any] | None = None) -> World:
    """The BASE world plus ``extra`` TOML tables; no domain or army unless added."""
    text = (alliances + "\n" if alliances else "") + BASE + extra
    loaded = load_scenario_text(text, "gw-test.toml")
    w = build_world(loaded.scenario, 1, overrides=config)
    return w


def hx(w: World, col: int, row: int) -> int:
    return w.map.index(col, row)


def units(w: World, spec: dict[str, int] | list[tuple[str, int]], *, bonuses: dict[str, list[tuple[str, int]]] | None = None) -> list[Unit]:
    gw = w.gw_state()
    out = []
    items = spec.items() if isinstance(spec, dict) else spec
    for kind, n in items:
        for _ in range(n):
            b = [Bonus(s, v) for s, v in (bonuses or {}).get(kind, [])]
            out.append(Unit(gw.next_unit, kind, 0, b))
            gw.next_unit += 1
    return out


def put_army(
    w: World,
    aid: str,
    owner: str,
    at: int,
    spec: dict[str, int] | list[tuple[str, int]],
    *,
    seals: int | None = None,
    bonuses: dict[str, list[tuple[str, int]]] | None = None,
    deployed: int = -1,
) -> Army:
    """An army already in the field, with fresh military seals of its owner engaged in it."""
    gw = w.gw_state()
    us = units(w, spec, bonuses=bonuses)
    n = seals if seals is not None else max(1, -(-len(us) // 10))
    sids = []
    for i in range(n):
        sid = f"{aid}-s{i + 1}"
        prov = next(iter(sorted(gw.provinces)))
        gw.seals[sid] = Seal(sid, "military", owner, prov, gw.provinces[prov].region, aid)
        gw.guilds[owner].seals = sorted([*gw.guilds[owner].seals, sid])
        sids.append(sid)
    a = Army(id=aid, owner=owner, hex=at, capacity=10 * n, own_seals=sids, units=us, deployed=deployed)
    gw.armies[aid] = a
    return a


def put_domain(
    w: World,
    did: str,
    owner: str,
    at: int,
    *,
    fort: int = 0,
    garrison: dict[str, int] | list[tuple[str, int]] | None = None,
    buildings: list[tuple[str, int]] | None = None,
    consents_to: list[str] | None = None,
    works: list[str] | None = None,
    bonuses: dict[str, list[tuple[str, int]]] | None = None,
) -> Domain:
    gw = w.gw_state()
    h = w.map.hexes[at]
    g = gw.guilds[owner]
    d = Domain(
        id=did, name=did, hex=at, province=h.province or "", region=h.region or "", owner_guild=owner, owner=g.leader,
        title_holder=g.leader, fortification=fort, consents_to=sorted(consents_to or []), works=list(works or []),
    )
    d.garrison = units(w, garrison or {}, bonuses=bonuses)
    for name, sp in buildings or []:
        d.buildings.append(Building(gw.next_building, name, sp))
        gw.next_building += 1
    gw.domains[did] = d
    return d


def occupy(w: World, army: str, domain: str) -> None:
    """Put ``army`` in occupation of ``domain`` since season 0, and refresh the domains' statuses."""
    w.gw.armies[army].occupying = domain
    w.gw.armies[army].occupying_since = 0
    wf.refresh_statuses(w)


def start_season(w: World, s: int, ledger: Ledger) -> None:
    """Set the clock to hour 0 of season ``s`` and begin it."""
    w.now = s * HOURS_PER_SEASON
    ledger.now = w.now
    wf.begin_season(w, ledger)


def play(w: World, s: int, orders: list[Any], dice: Any = None, ledger: Ledger | None = None) -> Ledger:
    """A whole season ``s`` through the turn function: these orders (each guild's in the order
    given, guilds in ascending id, RES-GW-27), then every phase — with the hooks a campaign of this
    world's systems would plug in (``links.gw_hooks``: none for a GW-only world)."""
    ledger = ledger or Ledger()
    w.now = s * HOURS_PER_SEASON
    ledger.now = w.now
    wf.resolve_season(w, wf.given(orders), dice if dice is not None else ScriptedDice([]), ledger, hooks=links.gw_hooks(w))
    return ledger


def kinds(ledger: Ledger) -> list[str]:
    return [e.kind for e in ledger.events]


def counts(us: list[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in us:
        out[u.kind] = out.get(u.kind, 0) + 1
    return out
