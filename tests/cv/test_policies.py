"""Convoy policies: ``random`` is uniform over the legal orders and uses only its own stream;
``heuristic`` plans food, avoids risky forced marches, calms the crew and picks routes by risk."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from agents.policies import known_policies, make_policy
from sim.state.cv import DayPlan, RouteChoice


def obs(**kw: Any) -> dict[str, Any]:
    o: dict[str, Any] = {
        "decision": "day", "hp": 80, "max_hp": 80, "unrest": 0, "morale": 2, "condition": "none", "starving": False,
        "provisions": 200, "consumption": 16, "security": 4, "resolve": 7, "day": 3, "village": False, "gp": 500,
        "cargo": {"trade_goods": 4, "treasure": 2}, "gifts": 0, "cargo_free": 5, "extra_dc": 15, "days_left": 6.0,
        "next_village_days": 2.0, "speed": 36, "risk_today": 0.5, "scouts": 1, "wainwrights": 0, "repair": 0,
        "margin": 0, "stores_cost": 10, "could_move": True, "wagons": 4, "drivers": 4, "rested": 12,
    }  # fmt: skip
    o.update(kw)
    return o


def test_both_policies_are_registered_for_convoys() -> None:
    assert known_policies("convoy") == ["heuristic", "lookahead", "random"]
    assert make_policy("convoy", "random").name == "random"


def test_random_is_uniform_over_the_legal_orders_and_uses_its_own_stream() -> None:
    p = make_policy("convoy", "random")
    legal = [DayPlan(), DayPlan(move="rest"), DayPlan(extra=1), DayPlan(forage=True)]
    rng = random.Random(11)
    counts = Counter(p.decide(obs(), legal, rng).chosen for _ in range(4000))
    assert set(counts) == set(legal)
    assert all(900 <= n <= 1100 for n in counts.values())
    a = [p.decide(obs(), legal, random.Random(3)).chosen for _ in range(3)]
    b = [p.decide(obs(), legal, random.Random(3)).chosen for _ in range(3)]
    assert a == b  # the same stream gives the same choices


def test_heuristic_buys_stores_when_short_and_forages() -> None:
    p = make_policy("convoy", "heuristic")
    legal = [DayPlan(), DayPlan(forage=True), DayPlan(buy="stores:8"), DayPlan(forage=True, buy="stores:8")]
    d = p.decide(obs(provisions=20, village=True), legal, random.Random(1))
    assert d.chosen == DayPlan(forage=True, buy="stores:8")
    assert d.scored[0][0] == "travel, forage, buy stores:8" and len(d.scored) == 4
    assert [s for _, s in d.scored] == sorted((s for _, s in d.scored), reverse=True)
    # plenty of food: no need to spend
    d = p.decide(obs(provisions=400, village=True), [DayPlan(), DayPlan(buy="stores:8")], random.Random(1))
    assert d.chosen == DayPlan()


def test_heuristic_avoids_risky_forced_marches() -> None:
    p = make_policy("convoy", "heuristic")
    legal = [DayPlan(extra=k) for k in range(4)]
    assert p.decide(obs(security=4, extra_dc=15), legal, random.Random(1)).chosen == DayPlan()
    assert p.decide(obs(security=20, extra_dc=15), legal, random.Random(1)).chosen == DayPlan(extra=3)


def test_heuristic_calms_the_crew_before_and_during_a_mutiny() -> None:
    p = make_policy("convoy", "heuristic")
    gifts = [DayPlan(), DayPlan(gift="trade_goods"), DayPlan(gift="treasure")]
    assert p.decide(obs(unrest=0), gifts, random.Random(1)).chosen == DayPlan()  # nothing to calm
    assert p.decide(obs(unrest=3, morale=2, margin=1), gifts, random.Random(1)).chosen == DayPlan(gift="treasure")
    # in mutiny, in a village: a rest day (a calming check with +5) rather than a dragging march
    d = p.decide(obs(unrest=5, morale=2, margin=3, village=True, cargo={}), [DayPlan(), DayPlan(move="rest")], random.Random(1))
    assert d.chosen == DayPlan(move="rest")


@pytest.mark.rule("CV-UNR-04", "SC-CV-09")
def test_heuristic_waits_for_a_driver_rather_than_abandon_a_laden_wagon() -> None:
    p = make_policy("convoy", "heuristic")
    legal = [DayPlan(move="rest"), DayPlan(abandon="supply"), DayPlan(abandon="covered")]
    # (cargo units, provisions, travelers left behind, HP after, max HP after) per wagon kind
    losses = {"supply": (3, 37, 1, 35, 60), "covered": (0, 0, 0, 60, 60)}
    seen = obs(unrest=1, morale=1, resolve=2, hp=80, max_hp=100, wagons=3, drivers=2, abandon_losses=losses)
    # a suspended driver is back tomorrow: rest a day rather than leave a wagon behind
    assert p.decide({**seen, "drivers_back_hours": 24}, legal, random.Random(1)).chosen == DayPlan(move="rest")
    # no driver will come back: abandon, and the wagon whose loss leaves nothing behind
    assert p.decide({**seen, "drivers_back_hours": None}, legal, random.Random(1)).chosen == DayPlan(abandon="covered")


@pytest.mark.rule("CV-MUT-03", "RES-CV-18", "CV-UNR-04")
def test_heuristic_prices_a_mutinous_march_by_its_refusal_odds() -> None:
    from agents.policies.convoy import DayTerms

    calm = DayTerms(obs(unrest=3, morale=2, margin=1, resolve=22))  # the crew's check cannot fail
    hopeless = DayTerms(obs(unrest=6, morale=2, margin=4, resolve=-2))  # 1d20 - 2 never reaches 26 - 5
    assert calm.mutiny_cost() == pytest.approx(1.0)
    # fails always (−5 of the day's progress) and by 5 or more always (−2.5); refuses one day in two
    # and then fails the CV-UNR-04 (d) check: +0.5 Unrest, worth 6 + 2 × (7 − 2) = 16
    assert hopeless.mutiny_cost() == pytest.approx(1.0 + 7.5 + 0.5 * 16)
    p = make_policy("convoy", "heuristic")
    d = p.decide(obs(unrest=6, morale=2, margin=4, resolve=-2), [DayPlan(), DayPlan(move="rest")], random.Random(1))
    assert d.chosen == DayPlan(move="rest")


def test_heuristic_picks_routes_by_risk_when_battered() -> None:
    p = make_policy("convoy", "heuristic")
    fast = RouteChoice("fast", (0, 1, 2), 10.0, 8.0)
    safe = RouteChoice("safe", (0, 3, 2), 11.0, 0.0)
    assert p.decide(obs(decision="route"), [fast, safe], random.Random(1)).chosen == fast
    assert p.decide(obs(decision="route", hp=16), [fast, safe], random.Random(1)).chosen == safe


def test_heuristic_focuses_the_weakest_enemy() -> None:
    p = make_policy("convoy", "heuristic")
    enemies = [{"id": "a", "hp": 9}, {"id": "b", "hp": 3}, {"id": "c", "hp": 5}]
    assert p.decide(obs(decision="target", enemies=enemies), ["a", "b", "c"], random.Random(1)).chosen == "b"
