"""Tests written against the survivors of a fresh mutation sample (issue 29: ``tools/mutate.py km
--seed 2``): each pins a KM rule behaviour (an outcome, a state change or a ledger field) that a
mutant of sim/rules/km/ changed without any earlier test noticing.

Expected values are worked out by hand from RULES.md (the arithmetic is in the comments); the
diplomacy tests use the ``pair`` of tests/km/test_diplomacy.py (two lawful good kingdoms of Size 2,
Fame and Infamy 0, a Helpful target: the KM-DIP-04 DC is 10 + relationships − bribes)."""

from __future__ import annotations

import pytest

from sim.config import Config, KmConfig
from sim.dice import ScriptedDice
from sim.errors import InvalidOrderError
from sim.rules import km as E
from sim.state.km import DiplomaticEdict, ExplorationEdict
from tests.km.helpers import kinds, kingdom, ledger, plains, ready, settle, sheet, world
from tests.km.test_diplomacy import pair, sign_treaty_script
from tests.km.test_examples import ROUTE, ex03_world

# ---- KM-DIP-01: the target of a Diplomatic edict ------------------------------------------------------


@pytest.mark.rule("KM-DIP-01")
def test_a_diplomatic_edict_towards_oneself_or_an_unknown_kingdom_is_malformed_even_with_magic() -> None:
    """The target is *another* kingdom: oneself or an unknown id is a malformed order, also when magic
    communication waives the representative's presence (KM-DIP-02 is then no obstacle)."""
    w, a, b = pair(config=Config(km=KmConfig(magic_communication=True)))
    with pytest.raises(InvalidOrderError, match="diplomatic edict target 'a': expected another kingdom"):
        E.check(w, "a", DiplomaticEdict("a", "embassy"))
    with pytest.raises(InvalidOrderError, match="diplomatic edict target 'zz': expected another kingdom"):
        E.check(w, "a", DiplomaticEdict("zz", "embassy"))


# ---- KM-REL-08 / RES-KM-41: the opposed checks ----------------------------------------------------------


@pytest.mark.rule("KM-REL-08", "RES-KM-41", "GEN-01")
def test_opposed_checks_are_numbered_in_the_order_of_the_skills() -> None:
    """Each OpposedCheckRolled event names its place among the five: 1 Bluff, 2 Diplomacy, 3 Knowledge
    (local), 4 Knowledge (nobility); the envoy's third win (check 4) stops the rolling."""
    w, a, b = pair()
    w.km.relation("a", "b").embassy = True
    led = ledger()
    E.resolve_special(w, "a", DiplomaticEdict("b", "treaty"), ScriptedDice(sign_treaty_script()), led)
    opp = led.of_kind("OpposedCheckRolled")
    assert [(e.data["check"], e.data["skill"]) for e in opp] == [
        (1, "Bluff"), (2, "Diplomacy"), (3, "Knowledge (local)"), (4, "Knowledge (nobility)")]
    # envoy, target, envoy, envoy: the running tallies
    assert [(e.data["envoy_wins"], e.data["target_wins"]) for e in opp] == [(1, 0), (1, 1), (2, 1), (3, 1)]


# ---- KM-REL-09: the Fame of a balanced treaty ----------------------------------------------------------


@pytest.mark.rule("KM-REL-09", "RES-KM-11")
def test_a_balanced_treaty_records_the_advantaged_kingdoms_fame_gain() -> None:
    """Balanced: the advantaged kingdom's Fame +1 (no Infamy); the AgreementSigned event says so."""
    w, a, b = pair()
    sheet(w, "a", economy=20)
    sheet(w, "b", economy=30)
    led = ledger()
    E.sign_agreement(w, "a", "b", "treaty", "a", True, ScriptedDice([]), led, via="edict")
    ev = led.of_kind("AgreementSigned")[0]
    assert (ev.data["fame"], ev.data["infamy"]) == (1, 0)
    assert (a.fame, a.infamy, b.fame) == (1, 0, 0)
    # a: 30 × 10 // 100 = 3; b: 20 × 10 // 100 = 2
    assert ev.data["bonus"] == {"a": 3, "b": 2}


# ---- LINK-05: envoys ----------------------------------------------------------------------------------


@pytest.mark.rule("LINK-05", "KM-DIP-02", "RES-KM-02")
def test_an_envoy_one_day_away_is_not_present_before_it_arrives() -> None:
    """Capitals 2 hexes apart at 2 hexes a day: the envoy arrives after 1 day (24 h), not at once."""
    hm = plains(12, 8)
    a = kingdom("a", [0, 1], treasury=30)
    b = kingdom("b", [2, 3])
    w = world(hm, [a, b])
    settle(w, "a", "Acity", 0)
    settle(w, "b", "Bcity", 2)
    ready(w, "a", "b")
    led = ledger()
    env = E.send_envoy(w, "a", "b", 720, led)
    # [0, 0] → [2, 0]: 2 steps; ceil(2 / 2) = 1 day
    assert len(env.path) - 1 == 2 and env.arrive == 720 + 24
    assert env.status == "travelling" and not E.representative_present(w, "a", "b")
    assert kinds(led) == ["EnvoySent"] and led.events[0].total == 1


# ---- KM-EXP-03 / RES-KM-12: an expedition leaves from the capital --------------------------------------


@pytest.mark.rule("KM-EXP-03", "RES-KM-12", "RES-KM-13", "SC-KM-33")
def test_a_route_that_names_the_capital_first_starts_exploring_on_day_1() -> None:
    """The explorers leave from the capital: a route written from the capital itself does not make them
    cross it. The next hex, unexplored plains, takes 1 day at 30 ft (SC-KM-33): explored on day 1."""
    hm = plains(10, 2)
    a = kingdom("a", [0], treasury=30)
    w = world(hm, [a])
    settle(w, "a", "Capital", 0)
    ready(w, "a")
    led = ledger()
    dice = ScriptedDice(["d4=2"])
    exp = E.resolve_special(w, "a", ExplorationEdict(months=1, route=[0, 1, 2]), dice, led)
    assert exp.route == [1, 2]
    assert led.of_kind("ExplorationEdictIssued")[0].data["route"] == [[1, 0], [2, 0]]
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    # day 1: [1, 0]; day 2: [2, 0]
    assert [(e.data["day"], e.data["hex"]) for e in led.of_kind("HexExplored")] == [(1, [1, 0]), (2, [2, 0])]


# ---- KM-EXP-08 / RES-KM-16: killed explorers forfeit no days, they end -----------------------------------


@pytest.mark.rule("KM-EXP-08", "RES-KM-16")
def test_killed_explorers_record_no_scattering_forfeit() -> None:
    """EX-KM-03: killed on day 3. The Stability event's days_forfeited is the scattering forfeit of
    RES-KM-16, which applies only to scattered explorers: 0 here (the expedition ends instead)."""
    w = ex03_world()
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=9", "d20=15"])
    E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    stab = led.of_kind("ExplorerStabilityCheckRolled")[0]
    assert (stab.data["result"], stab.data["days_forfeited"]) == ("killed", 0)
    # the scattered variant (EX-KM-04 a, d20 = 16): days 3–30 of month 1 are forfeited, 28 days
    w = ex03_world()
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=4", "d20=9", "d20=16"])
    E.resolve_special(w, "a", ExplorationEdict(months=2, route=ROUTE), dice, led)
    E.run_expeditions(w, "a", dice, led)
    stab = led.of_kind("ExplorerStabilityCheckRolled")[0]
    assert (stab.data["result"], stab.data["days_forfeited"]) == ("scattered", 28)
