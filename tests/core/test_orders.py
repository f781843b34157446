"""The decider protocol (sim/orders.py) and the small shared tools of the one shape (issue 11)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import RulesError
from sim.events import Ledger, actor_key, check, split_actor
from sim.orders import END, ScriptedDecider, UnscriptedDecisionError


def test_a_scripted_decider_answers_per_actor_and_decision_in_order() -> None:
    d = ScriptedDecider({("guild:a", "order"): ["deploy", END], "guild:b": ["sack"]})
    assert d.decide("guild:a", "order", ["deploy", "sack", END], {}) == "deploy"
    assert d.decide("guild:b", "order", ["sack", END], {}) == "sack"
    assert d.decide("guild:a", "order", ["deploy", END], {}) is END
    assert d.asked == [("guild:a", "order"), ("guild:b", "order"), ("guild:a", "order")]
    d.assert_exhausted()


def test_a_question_with_no_scripted_answer_names_the_actor_and_the_decision() -> None:
    d = ScriptedDecider({("guild:a", "order"): []})
    with pytest.raises(UnscriptedDecisionError, match=r"guild:a: the rules asked for a 'consent' decision \(2 legal"):
        d.decide("guild:a", "consent", [True, False], {})


def test_defaults_take_the_first_alternative_or_end() -> None:
    assert ScriptedDecider(default="first").decide("x", "y", ["a", "b"], {}) == "a"
    assert ScriptedDecider(default="end").decide("x", "y", ["a", END], {}) is END
    assert ScriptedDecider(default="end").decide("x", "y", ["a", "b"], {}) == "a"


def test_an_answer_may_depend_on_what_the_rules_offer() -> None:
    d = ScriptedDecider({"k": [lambda legal, ctx: legal[-1]]})
    assert d.decide("k", "hex", [3, 5, 8], {"why": "unrest"}) == 8


def test_unused_answers_are_reported() -> None:
    d = ScriptedDecider({"k": ["a", "b"]})
    d.decide("k", "x", ["a"], {})
    with pytest.raises(UnscriptedDecisionError, match="never asked for"):
        d.assert_exhausted()


def test_actor_keys() -> None:
    assert actor_key("convoy", "amber") == "convoy:amber"
    assert split_actor("kingdom:brevoy") == ("kingdom", "brevoy")
    assert split_actor("world") == ("world", "")


def test_emit_check_records_the_die_the_dc_the_mods_and_the_outcome() -> None:
    led = Ledger()
    r = check(ScriptedDice(["d20=7"]), 15, [("Security", 4)])
    ev = led.emit_check("cv", "SecurityCheckRolled", "convoy:a", ("CV-HAZ-01",), r, mods=[("Security", 4)], hazard="bandits")
    assert (ev.dc, ev.mods, ev.dice, ev.total, ev.outcome) == (15, (("Security", 4),), ((20, 7),), 11, "failure")
    assert ev.data == {"hazard": "bandits"}
    r2 = check(ScriptedDice(["d12=12"]), 10, [], sides=12)
    assert led.emit_check("cv", "X", "world", (), r2, outcome="band A").dice == ((12, 12),)
    assert led.dice == 2


def test_a_scripted_dice_source_gives_its_one_script_for_every_stream() -> None:
    d = ScriptedDice(["d20=3", "d6=2"])
    assert d.stream("gw", "loot").roll(20) == [3]
    assert d.stream("cv", "convoy:a").roll(6) == [2]


def test_a_world_without_a_system_says_so() -> None:
    from scenarios.build import build_world
    from scenarios.loader import load_scenario

    w = build_world(load_scenario("caravan-crossing").scenario, 1)
    assert w.cv_state() is w.cv
    with pytest.raises(RulesError, match="the gw system is not part of this world"):
        w.gw_state()
