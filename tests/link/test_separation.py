"""LINK-09: nothing else links — a convoy is not a GW army, an explorer party is not a convoy, and KM
Unrest is not CV Unrest."""

from __future__ import annotations

import pytest

from scenarios.build import build_world
from scenarios.loader import load_scenario
from sim.dice import DiceBox
from sim.rules import cv as C
from sim.rules import gw as wf
from sim.rules import km as E
from sim.rules import km as K
from sim.rules import links
from sim.state.gw import AttackArmy
from sim.state.km import ExplorationEdict, TradeEdict
from sim.world import World
from tests.gw.helpers import play, put_army
from tests.link.helpers import ledger

pytestmark = [pytest.mark.rule("LINK-09"), pytest.mark.slow]  # full realm campaigns


def _realm() -> World:
    return build_world(load_scenario("realm").scenario, 3)


def _ready(w: World, kid: str, turn: int) -> None:
    assert w.km is not None
    w.km.turn = turn
    w.km.kingdoms[kid].edicts_turn = turn


@pytest.mark.rule("LINK-04")
def test_an_explorer_party_is_not_a_convoy_but_a_trade_expedition_is() -> None:
    w = _realm()
    assert w.km is not None and w.cv is not None
    before = [c.id for c in w.cv.convoys]
    dice = DiceBox(3).stream("km", "kingdom:avalon")
    led = ledger()
    _ready(w, "avalon", 0)
    route = E.frontier_routes(w, "avalon")[0]
    E.resolve_special(w, "avalon", ExplorationEdict(months=1, route=route), dice, led)
    assert len(w.km.expeditions) == 1 and [c.id for c in w.cv.convoys] == before  # explorers travel as KM explorers
    _ready(w, "avalon", 1)
    hooks = links.km_hooks(w)  # LINK-04: the caravan part of a Trade edict
    trade = next(o for o in E.legal_orders(w, "avalon", hooks=hooks) if isinstance(o, TradeEdict))
    r = E.resolve_special(w, "avalon", trade, dice, led, hooks=hooks)
    assert r.convoy is not None and [c.id for c in w.cv.convoys] == [*before, r.convoy]  # type: ignore[attr-defined]


def test_a_convoy_is_not_a_gw_army() -> None:
    w = _realm()
    assert w.gw is not None and w.cv is not None
    convoy = w.cv.convoys[0]
    assert not {c.id for c in w.cv.convoys} & set(w.gw.armies)
    put_army(w, "raiders", "red-hand", convoy.hex, {"cavalry": 5})
    w.gw.season = 0
    orders = wf.legal_orders(w, "red-hand")
    assert not [o for o in orders if isinstance(o, AttackArmy)]  # nothing to attack on its hex: a convoy is no army
    hp, cargo = convoy.hp, dict(convoy.cargo)
    led = play(w, 1, [])
    assert not [e for e in led.events if convoy.id in str(e.data)]
    assert (convoy.hp, convoy.cargo) == (hp, cargo)
    assert not {c.id for c in w.cv.convoys} & set(w.gw.armies)


def test_kingdom_unrest_is_not_caravan_unrest() -> None:
    w = _realm()
    assert w.km is not None and w.cv is not None
    dice = DiceBox(3).stream("km", "kingdom:dravenmark")
    led = ledger()
    _ready(w, "dravenmark", 0)
    hooks = links.km_hooks(w)
    trade = next(o for o in E.legal_orders(w, "dravenmark", hooks=hooks) if isinstance(o, TradeEdict))
    route = E.resolve_special(w, "dravenmark", trade, dice, led, hooks=hooks)
    convoy = w.cv.convoy(route.convoy)  # type: ignore[attr-defined]
    k = w.km.kingdoms["dravenmark"]
    assert (k.unrest, convoy.unrest) == (0, 0)
    C.set_unrest(convoy, 4, led, ("CV-UNR-07",), "a quarrel among the merchants")
    assert (k.unrest, convoy.unrest) == (0, 4)
    K.add_unrest(k, 3)
    assert (k.unrest, convoy.unrest) == (3, 4)
    assert w.km.kingdoms["avalon"].unrest == 0
