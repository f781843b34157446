"""Every roll and decision is an event a person can audit: it names the clauses that produced it
(each one defined in RULES.md), a roll says what came of it, a check carries its DC, total and
named modifiers, a policy's decision carries the alternatives it scored — and every die the rules
drew is in exactly one event (GEN-01): the dice sources count their draws, the ledger counts the dice
its events carry, and the two counts are equal for every built-in campaign and for random-policy
campaigns of every system."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents.campaign import run_campaign
from agents.variants import variant
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_DAY
from sim.dice import DiceBox, ScriptedDice, SeededDice
from sim.events import Ledger

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`

ROOT = Path(__file__).resolve().parent.parent
KNOWN = set(re.findall(r"\*\*((?:GEN|KM|MN|GW|CV|RES|SC|LINK)-[A-Z0-9-]+)\*\* `\[", (ROOT / "docs" / "RULES.md").read_text()))


@pytest.mark.rule("GEN-01")
@pytest.mark.parametrize("name", ["realm", "caravan-crossing", "guild-war", "stolen-lands", "mare-nostrum"])
def test_every_event_of_a_campaign_can_be_audited(name: str) -> None:
    res = run_campaign(name, 5, collect=False)
    drawn = res.model.dice.draws
    assert drawn > 0
    assert res.ledger.dice == drawn, f"{name}: the rules drew {drawn} dice but the ledger records {res.ledger.dice}"
    problems: list[str] = []
    decisions = 0
    for e in res.ledger.events:
        where = f"{name} #{e.seq} {e.kind}"
        if not e.clauses:
            problems.append(f"{where}: no clause ID")
        problems += [f"{where}: clause {c} is not in RULES.md" for c in e.clauses if c not in KNOWN]
        if e.dice and not e.outcome:
            problems.append(f"{where}: dice {e.dice} but no outcome")
        if e.dc is not None and e.dice and (e.total is None or not e.outcome):
            problems.append(f"{where}: a check against DC {e.dc} without its total or outcome")
        if e.dc is not None and e.dice and e.total is not None and not e.mods and e.total != sum(f for _, f in e.dice):
            problems.append(f"{where}: total {e.total} is not the dice {e.dice} and no modifier is named")
        if e.kind == "DecisionMade":
            decisions += 1
            # explained (scored alternatives) or compact (issue 26: the chosen order's score, the runner-up)
            if "policy" not in e.data or ("scored" not in e.data and "score" not in e.data):
                problems.append(f"{where}: a decision without its policy and its score or scored alternatives")
            elif "score" in e.data and int(e.data.get("legal", 0)) > 1 and "runner_up" not in e.data:
                problems.append(f"{where}: a compact decision among {e.data['legal']} orders without its runner-up")
        if any(isinstance(v, float) and v != v for v in e.data.values()):
            problems.append(f"{where}: NaN in data")
    assert decisions > 0
    assert not problems, "\n".join(problems[:30])


@pytest.mark.rule("GEN-01")
@pytest.mark.parametrize("systems", [["km"], ["mn"], ["gw"], ["cv"], ["km", "mn", "gw", "cv"]], ids="+".join)
@pytest.mark.parametrize("seed", [3, 17])
def test_every_die_of_a_random_policy_campaign_is_in_one_event(systems: list[str], seed: int) -> None:
    """Random policies try orders a heuristic never would (a bribe the Treasury cannot pay, a wagon
    bought and abandoned…): whatever they choose, no die escapes the ledger."""
    sc = variant(load_scenario("realm"), systems=systems, policy="random", duration_hours=720 * HOURS_PER_DAY)
    res = run_campaign(sc, seed, keep_ledger=False, collect=False)
    drawn = res.model.dice.draws
    assert drawn > 0
    assert res.ledger.dice == drawn, f"{'+'.join(systems)} seed {seed}: {drawn} dice drawn, {res.ledger.dice} in the ledger"


def test_dice_sources_count_their_draws_and_the_ledger_counts_the_dice_of_its_events() -> None:
    box = DiceBox(1)
    box.stream("cv", "convoy:a").roll(20)
    box.stream("km", "kingdom:k").roll(4, 3)
    box.stream("policy", "convoy:a").roll(6, 10)  # a policy's stream draws no rules dice
    assert box.draws == 4
    s = SeededDice(2)
    s.roll(6, 2)
    copy = SeededDice(0)
    copy.setstate(s.getstate())  # a saved stream keeps its count
    assert copy.draws == 2 and copy.roll(6) == s.roll(6)
    scripted = ScriptedDice(["d20=3", "2d6=1,2"])
    scripted.roll(20)
    scripted.roll(6, 2)
    assert scripted.draws == 3
    led = Ledger(keep=False)
    led.emit("cv", "Rolled", "convoy:a", ("GEN-01",), dice=[(20, 3)], outcome="x")
    led.emit("cv", "Rolled", "convoy:a", ("GEN-01",), dice=[(6, 1), (6, 2)], outcome="x")
    led.emit("cv", "Noted", "convoy:a", ("GEN-01",))
    assert led.dice == 3
    kept = Ledger()
    kept.emit("cv", "Rolled", "convoy:a", ("GEN-01",), dice=[(20, 3)], outcome="x")
    again = Ledger()
    again.restore(kept.events)
    assert again.dice == 1
