"""The kingdom month as one function (SC-KM-08, RES-KM-39): ``resolve_month`` asks every choice of a
kingdom through a ``sim.orders.Decider``; the legality API (``legal_orders``, ``check``) lists and
checks each slot's orders; the package imports no other system (LINK-09)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sim.dice import DiceBox
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.orders import ScriptedDecider
from sim.rules import km as K
from sim.state.km import TAXATION_LEVELS, DiplomaticEdict, TurnOrders
from tests.km.helpers import kinds, kingdom, ledger, plains, ready, settle, world

ROOT = Path(__file__).resolve().parents[2]


def two(**kw: object):  # type: ignore[no-untyped-def]
    w = world(plains(6, 4), [kingdom("a", [0, 1, 6, 7], treasury=40, **kw), kingdom("b", [4, 5, 10, 11], treasury=40)])
    settle(w, "a", "Alder", 0)
    settle(w, "b", "Birch", 5)
    for h in (2, 8, 12, 13):  # land next to Alder's, explored and unclaimed
        w.km.hex(h).explored = True  # type: ignore[union-attr]
    return w


@pytest.mark.rule("SC-KM-08", "SC-KM-13", "RES-KM-39")
def test_the_month_asks_each_slot_of_each_kingdom_in_order_through_the_decider() -> None:
    w = two()
    decider = ScriptedDecider(default="first")
    led = ledger()
    K.resolve_month(w, decider, DiceBox(1), led)
    assert w.km.turn == 1  # type: ignore[union-attr]
    asked = [slot for actor, slot in decider.asked if actor == "kingdom:a"]
    edicts = [s for s in asked if s in ("taxation", "holiday", "promotion")]
    assert edicts == ["taxation", "holiday", "promotion"]
    assert asked.index("claim") < asked.index("taxation") < asked.index("special")
    assert {a for a, _ in decider.asked} == {"kingdom:a", "kingdom:b"}
    order = [e.actor for e in led.events if e.kind in ("UpkeepStabilityCheckRolled", "EdictsSet", "TaxesCollected")]
    assert order[:2] == ["kingdom:a", "kingdom:b"]  # every Upkeep before any Edict phase (RES-KM-39)
    assert "DecisionMade" not in kinds(led)  # a scripted decider records nothing; the campaign's agents do


@pytest.mark.rule("SC-KM-07")
def test_no_edicts_in_anarchy_is_emitted_once_for_a_policy_and_for_a_scripted_kingdom() -> None:
    w = two(unrest=30)
    k = w.km.kingdoms["a"]  # type: ignore[union-attr]
    k.anarchy = True
    led = ledger()
    K.resolve_month(w, ScriptedDecider(default="first"), DiceBox(1), led)
    assert [e.actor for e in led.of_kind("NoEdictsInAnarchy")] == ["kingdom:a"]
    w = two(unrest=30, policy="scripted")
    w.km.scripted = {"a": [TurnOrders(turn=1, taxation="light")]}  # type: ignore[union-attr]
    led = ledger()
    decider = ScriptedDecider(default="first")
    K.resolve_month(w, decider, DiceBox(1), led)
    assert [e.actor for e in led.of_kind("NoEdictsInAnarchy")] == ["kingdom:a"]
    assert not [a for a, _ in decider.asked if a == "kingdom:a"]  # a scripted kingdom is asked nothing


@pytest.mark.rule("SC-KM-13", "SC-KM-16", "SC-KM-07", "KM-GEN-02")
def test_legal_orders_lists_each_slot_and_check_refuses_what_is_not_in_it() -> None:
    w = two()
    assert K.legal_orders(w, "a", slot="taxation") == list(TAXATION_LEVELS)
    claims = K.legal_orders(w, "a", slot="claim")
    assert claims == [2, 8, 12, 13]
    K.check(w, "a", 2, slot="claim")
    with pytest.raises(IllegalOrderError, match="SC-KM-13"):
        K.check(w, "a", 3, slot="claim")  # not explored
    with pytest.raises(InvalidOrderError):
        K.legal_orders(w, "a", slot="nap")
    with pytest.raises(InvalidOrderError):
        K.check(w, "a", 2)  # a bare hex needs its slot
    assert K.legal_orders(w, "a") == []  # the special edict comes after the ordinary edicts (KM-GEN-02)
    with pytest.raises(IllegalOrderError, match="KM-GEN-02"):
        K.check(w, "a", DiplomaticEdict("b", "embassy"))
    ready(w, "a")
    w.km.kingdoms["a"].anarchy = True  # type: ignore[union-attr]
    with pytest.raises(IllegalOrderError, match="SC-KM-07"):
        K.check(w, "a", 2, slot="claim")
    with pytest.raises(IllegalOrderError, match="SC-KM-07"):
        K.check(w, "a", DiplomaticEdict("b", "embassy"))


@pytest.mark.rule("LINK-09")
def test_the_km_package_imports_no_other_system_nor_the_links() -> None:
    bad = []
    for path in sorted((ROOT / "sim" / "rules" / "km").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for n in names:
                parts = n.split(".")
                if parts[:2] == ["sim", "rules"] and len(parts) > 2 and parts[2] != "km":
                    bad.append(f"{path.name}: {n}")
    assert not bad, bad
