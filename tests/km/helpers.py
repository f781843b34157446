"""Builders for KM tests: small maps, kingdoms with exact sheets, a world, a ledger."""

from __future__ import annotations

from sim.config import Config
from sim.events import Ledger
from sim.hexmap import TERRAIN_LETTERS, Hex, HexMap, mark_coasts
from sim.rules import km as K
from sim.state.km import ROLES, Kingdom, KmWorld, Leader, Settlement
from sim.world import World

ALL_LEADERS = {r: Leader(r.title()) for r in ROLES if r not in ("viceroy", "consort", "heir")}


def grid(rows: list[str]) -> HexMap:
    w = len(rows[0])
    hexes = [Hex(TERRAIN_LETTERS[c]) for r in rows for c in r]
    hm = HexMap(w, len(rows), hexes)
    mark_coasts(hexes, w, len(rows))
    return hm


def plains(w: int, h: int) -> HexMap:
    return grid(["P" * w] * h)


def kingdom(kid: str, hexes: list[int], **kw: object) -> Kingdom:
    """A kingdom with every leader in place (no vacancy), edicts at their defaults (Holiday none,
    Promotion none, Taxation normal) and base attributes 10."""
    kw.setdefault("leaders", dict(ALL_LEADERS))
    kw.setdefault("alignment", "LG")
    for attr in ("economy", "loyalty", "stability"):  # base values keeping every attribute positive
        kw.setdefault(attr, 10)
    return Kingdom(id=kid, name=kid.title(), hexes=sorted(hexes), **kw)  # type: ignore[arg-type]


def world(hm: HexMap, kingdoms: list[Kingdom], *, config: Config | None = None, turn: int = 0) -> World:
    km = KmWorld()
    for k in kingdoms:
        km.kingdoms[k.id] = k
        for h in k.hexes:
            km.hex(h).explored = True
    km.kingdoms = dict(sorted(km.kingdoms.items()))
    km.turn = turn
    return World(
        scenario="test", seed=1, start=0, end=10**7, now=turn * 720, systems=["km"], config=config or Config(), map=hm, km=km
    )


def settle(w: World, kid: str, name: str, h: int, **kw: object) -> Settlement:
    k = w.km.kingdoms[kid]  # type: ignore[union-attr]
    s = Settlement(name=name, hex=h, **kw)  # type: ignore[arg-type]
    k.settlements.append(s)
    w.map.hexes[h].settlement = name
    if k.capital is None:
        k.capital = name
    return s


def sheet(w: World, kid: str, *, economy: int | None = None, loyalty: int | None = None, stability: int | None = None) -> None:
    """Set the kingdom's base so that its current Economy/Loyalty/Stability read as given (test setup)."""
    k = w.km.kingdoms[kid]  # type: ignore[union-attr]
    st = K.stats(w, k)
    if economy is not None:
        k.economy += economy - st.economy
    if loyalty is not None:
        k.loyalty += loyalty - st.loyalty
    if stability is not None:
        k.stability += stability - st.stability


def ready(w: World, *kids: str) -> None:
    """This turn's ordinary edicts are set (KM-GEN-02), as the Edict phase does before a special edict."""
    for kid in kids:
        w.km.kingdoms[kid].edicts_turn = w.km.turn  # type: ignore[union-attr]


def ledger() -> Ledger:
    return Ledger(keep=True)


def kinds(led: Ledger) -> list[str]:
    return [e.kind for e in led.events]
