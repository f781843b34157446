"""Every roll and decision is an event a person can audit: it names the clauses that produced it
(each one defined in RULES.md), a roll says what came of it, a check carries its DC, total and
named modifiers, a policy's decision carries the alternatives it scored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents.campaign import run_campaign

ROOT = Path(__file__).resolve().parent.parent
KNOWN = set(re.findall(r"\*\*((?:GEN|KM|MN|GW|CV|RES|SC|LINK)-[A-Z0-9-]+)\*\* `\[", (ROOT / "docs" / "RULES.md").read_text()))


@pytest.mark.parametrize("name", ["realm", "caravan-crossing", "guild-war", "stolen-lands", "mare-nostrum"])
def test_every_event_of_a_campaign_can_be_audited(name: str) -> None:
    res = run_campaign(name, 5, collect=False)
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
            if "scored" not in e.data or "policy" not in e.data:
                problems.append(f"{where}: a decision without its policy and scored alternatives")
        if any(isinstance(v, float) and v != v for v in e.data.values()):
            problems.append(f"{where}: NaN in data")
    assert decisions > 0
    assert not problems, "\n".join(problems[:30])
