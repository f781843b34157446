"""The legality API of Mare Nostrum over a whole campaign: at every question of four years of turns of the
built-in scenario, answered at random among the legal orders, each order ``legal_orders`` offers passes
``check`` (RES-MN-17: what is offered is legal), none is offered twice, the chosen one resolves, and the MN
invariants hold at the end of every turn (RES-MN-17 treasuries; MN-TRE-06 one pact; RES-MN-01 an
ambassador at post holds an embassy and only he does)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from scenarios.build import build_world
from scenarios.loader import load_scenario
from sim.dice import DiceBox
from sim.errors import RulesError
from sim.events import Ledger
from sim.rules import mn as dip


@pytest.mark.slow  # four years of turns, every question checked: over half a second
@pytest.mark.rule("RES-MN-17", "MN-TRE-06", "RES-MN-01", "SC-MN-03")
def test_every_offered_order_is_legal_and_the_invariants_hold_each_turn() -> None:
    w = build_world(load_scenario("mare-nostrum").scenario, 3)
    mn = w.mn_state()
    rng = random.Random(5)
    asked: list[str] = []
    refused: list[str] = []

    class Random:
        def decide(self, actor: str, slot: str, legal: Sequence[Any], context: Mapping[str, Any]) -> Any:
            asked.append(slot)
            nation = actor.split(":")[1]
            for o in legal:
                try:
                    dip.check(w, nation, o)
                except RulesError as e:  # pragma: no cover - what the test looks for
                    refused.append(f"{slot}: {o!r}: {e}")
            assert len({repr(o) for o in legal}) == len(legal), f"{slot}: an order offered twice: {legal!r}"
            return rng.choice(list(legal))

    led = Ledger(keep=False)
    for turn in range(mn.turn + 1, mn.turn + 17):
        dip.resolve_turn(w, turn, Random(), DiceBox(3), led)
        assert dip.invariant_problems(mn) == [], f"turn {turn}"
    assert not refused, "\n".join(refused[:10])
    assert len(asked) > 200 and {"buy", "ambassador", "military"} <= set(asked)
