"""The conformance suite: every registered rule system is checked the same way (issue 28), in the
spirit of OpenSpiel's ``random_sim_test``. A system gets it by registering (``sim.registry``): the
four built-in systems, and the toy fifth one of ``tests/toy`` that the line below registers.

For each system, on its example world (``RuleSystem.example``): every legal order passes ``check``;
random playouts keep the invariants; a save at any season (or, for a campaign shorter than two seasons,
at a day boundary) resumes to the same ledger digest; ``given()`` replays a played turn exactly; every
faction's score is a finite number.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import pytest

from agents.model import RealmModel
from scenarios.build import build_world
from scenarios.loader import load_scenario
from sim import registry
from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON
from sim.dice import DiceBox
from sim.events import Ledger, decode_events, encode_events
from sim.rules import links
from sim.scoring import score_all
from sim.system import RuleSystem
from sim.world import World, copy_world, decode_world, encode_world
from tests import toy

registry.register(toy.SYSTEM)  # the toy fifth system joins realmsim: its one line outside its package

SYSTEMS = registry.systems()
TURNS = {"km": 4, "mn": 3, "gw": 3, "cv": 5}  # turns of a playout (default 6): a few of each system's


def test_the_toy_system_is_registered_through_its_descriptor() -> None:
    assert registry.get("gr") is toy.SYSTEM and [s.name for s in SYSTEMS] == ["km", "mn", "gw", "cv", "gr"]


def example(system: RuleSystem, seed: int) -> World:
    """The system's example world: a built-in scenario's, or the one its descriptor builds."""
    if callable(system.example):
        return system.example(seed)
    loaded = load_scenario(system.example)
    return build_world(loaded.scenario, seed, label=loaded.label, files=loaded.carried)


class RandomDecider:
    """Answers every question uniformly over the legal alternatives, from its own seeded stream, and
    records each faction's answers in order (what ``given`` is built from)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.answers: dict[str, list[Any]] = defaultdict(list)
        self.asked = 0

    def decide(self, actor: str, decision: str, legal: Sequence[Any], context: Mapping[str, Any]) -> Any:
        assert legal, f"{actor} was asked a {decision!r} question with no legal answer"
        choice = legal[self.rng.randrange(len(legal))]
        self.answers[actor].append(choice)
        self.asked += 1
        return choice


def play_turn(system: RuleSystem, world: World, decider: Any, dice: DiceBox, ledger: Ledger) -> None:
    """The system's next turn, at its hour, as the clock of a campaign would start it."""
    if system.next_turn is not None:
        world.now = max(world.now, system.next_turn(world))
        ledger.now = world.now
    system.play(world, decider, dice, ledger, links.hooks_for(world, system.name))


def playout(system: RuleSystem, seed: int) -> tuple[World, Ledger, RandomDecider]:
    world, ledger, decider = example(system, seed), Ledger(), RandomDecider(seed)
    dice = DiceBox(seed)
    for _ in range(TURNS.get(system.name, 6)):
        play_turn(system, world, decider, dice, ledger)
        assert system.broken_invariants(world) == [], (system.name, world.now)
    return world, ledger, decider


params = pytest.mark.parametrize("system", SYSTEMS, ids=[s.name for s in SYSTEMS])


@pytest.mark.slow  # every legal order of every faction, three times: about 0.5 s for the kingdoms
@params
def test_every_legal_order_passes_check_and_is_of_the_systems_order_types(system: RuleSystem) -> None:
    world, ledger, decider = example(system, 1), Ledger(), RandomDecider(1)
    dice = DiceBox(1)
    checked = 0
    for turn in range(3):
        for faction in system.factions(world):
            for order in system.legal_orders(world, faction):
                assert isinstance(order, system.order_types), (system.name, faction, order)
                system.check(world, faction, order)  # raises IllegalOrderError if the order is not legal
                checked += 1
        if turn < 2:
            play_turn(system, world, decider, dice, ledger)
    assert checked > 0, f"{system.name}: no legal order to check"


@pytest.mark.slow  # a few turns of every system, twice: over 0.5 s
@params
def test_random_playouts_keep_the_invariants(system: RuleSystem) -> None:
    for seed in (1, 2):
        world, ledger, decider = playout(system, seed)  # the invariants are checked after every turn
        assert decider.asked > 0 and ledger.count > 0, f"{system.name}: the playout asked and did nothing"
        assert any(e.system == system.name for e in ledger.events)


@pytest.mark.slow  # a few turns of every system: over 0.5 s
@params
def test_given_replays_a_played_turn(system: RuleSystem) -> None:
    world, _, _ = playout(system, 3)  # a world some turns in
    before = copy_world(world)
    played, ledger, decider = world, Ledger(now=world.now), RandomDecider(4)
    play_turn(system, played, decider, DiceBox(5), ledger)
    replayed, again = before, Ledger(now=before.now)
    script = system.given(dict(decider.answers))
    play_turn(system, replayed, script, DiceBox(5), again)
    assert decider.asked > 0, f"{system.name}: the turn asked nothing to replay"
    assert encode_world(replayed) == encode_world(played)
    assert (again.count, again.sha256()) == (ledger.count, ledger.sha256())
    exhausted = getattr(script, "assert_exhausted", None)
    if exhausted is not None:
        exhausted()  # every answer given was asked for


@params
def test_every_factions_score_is_a_finite_number(system: RuleSystem) -> None:
    world, _, _ = playout(system, 6)
    factions = system.factions(world)
    assert factions, f"{system.name}: no faction to score"
    for faction in factions:
        s = system.score(world, faction)
        assert s.key == system.actor(faction) and s.unit == system.score_unit
        assert math.isfinite(s.total) and all(math.isfinite(t.value) for t in s.terms), s
        assert {t.key for t in s.terms} <= set(system.score_terms), s
    assert all(math.isfinite(s.total) for s in score_all(world).values())


def _model(world: World, dice: DiceBox, ledger: Ledger) -> RealmModel:
    return RealmModel(world, dice=dice, ledger=ledger, collect=False, check_invariants=True)


def save_points(world: World) -> tuple[int, list[int]]:
    """(the hour a run stops at, the hours it is saved at): each season boundary of the first three
    seasons; in a campaign shorter than two seasons, two day boundaries."""
    horizon = min(world.end, 3 * HOURS_PER_SEASON)
    seasons = [k * HOURS_PER_SEASON for k in range(1, 3) if k * HOURS_PER_SEASON < horizon]
    if seasons:
        return horizon, seasons
    return horizon, [(horizon * k // 3) // HOURS_PER_DAY * HOURS_PER_DAY for k in (1, 2)]


@pytest.mark.slow  # three campaigns of a few seasons for every system
@params
def test_a_save_at_any_season_resumes_to_the_same_digest(system: RuleSystem) -> None:
    seed = 7
    whole = _model(example(system, seed), DiceBox(seed), Ledger())
    horizon, points = save_points(whole.world)
    whole.run(horizon)
    assert whole.ledger.count > 0 and whole.world.now == horizon
    for hour in points:
        first = _model(example(system, seed), DiceBox(seed), Ledger())
        first.run(hour)
        assert first.world.now == hour
        saved = msgspec.msgpack.encode({"world": encode_world(first.world), "dice": first.dice.getstate(),
                                        "ledger": encode_events(first.ledger.events)})
        data = msgspec.msgpack.decode(saved)
        dice = DiceBox(seed)
        dice.setstate(data["dice"])
        ledger = Ledger()
        ledger.restore(decode_events(data["ledger"]))
        resumed = _model(decode_world(data["world"]), dice, ledger)
        resumed.run(horizon)
        assert (resumed.ledger.count, resumed.ledger.sha256()) == (whole.ledger.count, whole.ledger.sha256()), (system.name, hour)


def test_a_registered_system_runs_in_a_campaign_of_its_own() -> None:
    """The toy system in a campaign: the generic driver plays its months, its villages' agents answer
    (DecisionMade), the model reports its summary and its season metrics."""
    world = toy.rules.valley(3, years=1)
    model = _model(world, DiceBox(3), Ledger())
    model.run()
    kinds = [e.kind for e in model.ledger.events if e.system == "gr"]
    assert kinds.count("MonthBegan") == 12 and kinds.count("DecisionMade") == 36
    assert model.summary()["gr.months"] == 12
    assert set(model.season_metrics()) == {"village:ash", "village:birch", "village:cedar"}
    assert set(score_all(model.world)) == {"village:ash", "village:birch", "village:cedar"}
