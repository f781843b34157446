"""The common world of RULES.md §7.2, built directly (no scenario file), and small helpers.

Player p1's home province Latium (people latins), p2's Achaea (achaeans). Uncontrolled cities and
their peoples: Massalia, Syracusae, Neapolis, Athenae (greeks), Carthago (punics), Rhodos
(rhodians); Numidia (punics) is a province without a city. RF(Latium, greeks) = +5,
RF(Latium, punics) = 0, RF(Latium, rhodians) = +5. All travel 1 turn (the default).
"""

from __future__ import annotations

from sim.config import Config, MnConfig
from sim.events import Ledger
from sim.hexmap import HexMap
from sim.rules import mn as dip
from sim.state.mn import Ambassador, City, Embassy, MnWorld, Nation, People, Province, Treaty
from sim.world import World

PROVINCES = {
    "Latium": ("latins", ["grain", "wine"], "roma"),
    "Achaea": ("achaeans", ["oil"], "corinthus"),
    "Gallia": ("greeks", ["salt"], "massalia"),
    "Sicilia": ("greeks", ["sulphur"], "syracusae"),
    "Campania": ("greeks", ["fish"], "neapolis"),
    "Africa": ("punics", ["purple"], "carthago"),
    "Attica": ("greeks", ["marble"], "athenae"),
    "Rhodus": ("rhodians", ["bronze"], "rhodos"),
    "Numidia": ("punics", ["horses"], None),
}


def make_world(turn: int = 5, *, treasury: int = 200) -> tuple[MnWorld, MnConfig, Ledger]:
    mn = MnWorld()
    for p in ("achaeans", "greeks", "latins", "punics", "rhodians"):
        mn.peoples[p] = People(p, p.capitalize())
    for name, (people, res, city) in sorted(PROVINCES.items()):
        mn.provinces[name] = Province(name, people, res, None, city)
        if city:
            mn.cities[city] = City(city, city.capitalize(), name)
    mn.cities["roma"].controller = "p1"
    mn.cities["corinthus"].controller = "p2"
    mn.nations["p1"] = Nation("p1", "P1", "roma", ["Latium"], treasury)
    mn.nations["p2"] = Nation("p2", "P2", "corinthus", ["Achaea"], treasury)
    mn.rf = {"Latium": {"greeks": 5, "punics": 0, "rhodians": 5}}
    mn.turn = turn
    return mn, MnConfig(), Ledger()


def world_of(mn: MnWorld, cfg: MnConfig | None = None) -> World:
    """A World around an MN state (what ``legal_orders``, ``check`` and ``resolve_turn`` take): MN
    alone, no map."""
    return World(scenario="mn-test", seed=1, start=0, end=10**7, now=0, systems=["mn"],
                 config=Config(mn=cfg or MnConfig()), map=HexMap(0, 0, []), mn=mn)


def buy(mn: MnWorld, nation: str) -> Ambassador:
    """An ambassador at home, bought before the example starts (costs nothing here)."""
    n = mn.nations[nation]
    n.bought += 1
    a = Ambassador(f"{nation}-{n.bought}", nation, mn.cities[n.capital].province, n.bought)
    mn.ambassadors[a.id] = a
    return a


def post(mn: MnWorld, nation: str, city: str, *, kind: str | None = None, last_turn: int | None = None,
         installed: int = 0) -> tuple[Ambassador, Embassy, Treaty | None]:
    """An ambassador at post in ``city`` with an embassy, and a treaty through him if ``kind``."""
    a = buy(mn, nation)
    a.state = "at_post"
    a.city = city
    e = Embassy(mn.new_id(), nation, a.id, city, installed, last_turn)
    mn.embassies.append(e)
    t = None
    if kind:
        partner = dip.party_of_city(mn, city)
        t = Treaty(mn.new_id(), kind, nation, partner, installed, last_turn,  # type: ignore[arg-type]
                   via=None if partner.startswith("nation:") else a.id,
                   origin=None if partner.startswith("nation:") else a.home_province, embassy=e.id)
        mn.treaties.append(t)
        dip.refresh_imports(mn, Ledger(keep=False))
    return a, e, t


def kinds(ledger: Ledger, since: int = 0) -> list[str]:
    return [e.kind for e in ledger.events[since:]]


def last(ledger: Ledger, kind: str):  # noqa: ANN201 - an Event
    evs = ledger.of_kind(kind)
    assert evs, f"no {kind} event"
    return evs[-1]
