"""Decisions recorded on demand (issue 26 item 2): a campaign without ``--explain`` records each
decision compactly — the order, its score and the runner-up — and nothing else changes.

The explained ledger is the reference: it is the ledger every campaign wrote before compact records
(``tools/digests.py --explain`` gives the digests recorded before the change). Each built-in scenario
is played twice on the same seed, explained and compact, and compared event by event: every event
but ``DecisionMade`` is the same, field for field; every decision chose the same order, at the same
hour, for the same actor, with the same clauses; a scored decision's compact record is exactly the
first two rows of the explained one's ``scored`` list (the chosen order's score; the best other
order and its score), and a decision without scores (``random``, ``scripted``) is recorded as it
always was. So the campaign, its dice and its factions' scores are the same either way.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from agents.campaign import run_campaign
from agents.variants import variant
from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH

CASES = {  # each built-in scenario, short enough for the suite; realm holds all four systems
    "caravan-crossing": 8 * HOURS_PER_DAY,
    "stolen-lands": 6 * HOURS_PER_MONTH,
    "mare-nostrum": 6 * HOURS_PER_MONTH,
    "guild-war": 12 * HOURS_PER_MONTH,
    "realm": 2 * HOURS_PER_MONTH,
}


def _campaign(name: str, hours: int, seed: int, explain: bool, policy: str | None = None) -> Any:
    v = variant(name, duration_hours=hours) if policy is None else variant(variant(name, duration_hours=hours), policy=policy)
    return run_campaign(v, seed, collect=False, explain=explain)


def _fields(ev: Any) -> dict[str, Any]:
    return msgspec.structs.asdict(ev)


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_compact_campaign_is_the_explained_one_with_shorter_decisions(name: str) -> None:
    loud = _campaign(name, CASES[name], 3, True)
    quiet = _campaign(name, CASES[name], 3, False)
    assert len(quiet.ledger.events) == len(loud.ledger.events)
    scored = 0
    for a, b in zip(loud.ledger.events, quiet.ledger.events, strict=True):
        fa, fb = _fields(a), _fields(b)
        da, db = fa.pop("data"), fb.pop("data")
        assert fa == fb, f"{name}: event {a.seq} differs outside its data"
        if a.kind != "DecisionMade":
            assert da == db, f"{name}: event {a.seq} ({a.kind}) has other data"
            continue
        assert db["policy"] == da["policy"] and db["legal"] == da["legal"]
        if "score" not in db:  # a policy without scores: recorded as ever
            assert db == da, f"{name}: unscored decision {a.seq} recorded differently"
            continue
        scored += 1
        rows = da["scored"]
        assert "alternatives" not in db and "scored" not in db and "reason" not in db
        assert db["score"] == rows[0][1], f"{name}: decision {a.seq}: score {db['score']} is not the chosen row {rows[0]}"
        if len(rows) > 1:
            assert db["runner_up"] == [rows[1][0], rows[1][1]], f"{name}: decision {a.seq}: runner-up {db['runner_up']} vs {rows[1]}"
        else:
            assert "runner_up" not in db
        # the explained record's chosen alternative is the order the event names, with that score
        assert da["alternatives"][0]["score"] == db["score"]
    assert scored >= 10, f"{name}: only {scored} scored decisions compared"
    # the faction scores that tournaments and reports read are the same
    assert quiet.summary == loud.summary


@pytest.mark.slow
def test_random_decisions_are_recorded_as_before_with_or_without_explanations() -> None:
    """Random seats have no scores to give: their records (``scored: []`` and the policy's reason)
    are the same explained or not. A world of random seats alone gives the same ledger, byte for
    byte; where the rules bring a faction in (a LINK-05 vassal plays its kind's heuristic), only that
    faction's decisions become compact."""
    loud = _campaign("caravan-crossing", 10 * HOURS_PER_DAY, 2, True, policy="random")
    quiet = _campaign("caravan-crossing", 10 * HOURS_PER_DAY, 2, False, policy="random")
    assert quiet.ledger_sha256 == loud.ledger_sha256
    loud = _campaign("stolen-lands", 3 * HOURS_PER_MONTH, 2, True, policy="random")
    quiet = _campaign("stolen-lands", 3 * HOURS_PER_MONTH, 2, False, policy="random")
    pairs = [(a, b) for a, b in zip(loud.ledger.events, quiet.ledger.events, strict=True) if a.kind == "DecisionMade"]
    rand = [(a, b) for a, b in pairs if a.data["policy"] == "random"]
    assert len(rand) >= 20
    assert all(a == b and b.data["scored"] == [] and b.data["reason"] == "uniform over legal orders" for a, b in rand)
    others = [b for a, b in pairs if a.data["policy"] != "random"]
    assert all(b.data["policy"] == "heuristic" and "score" in b.data for b in others)


def test_a_compact_record_names_the_runner_up_by_the_rules_of_the_explained_list() -> None:
    """``compact_totals`` against hand-made totals: the runner-up is the best order but the chosen
    one, the first listed of equals (as the explained list sorts them), scores rounded to 4 places."""
    from agents.policies.explain import compact_totals

    legal = ["a", "b", "c", "d"]
    d = compact_totals(legal, [1.0, 3.123456, 2.0, 3.123456], 3, label=str.upper)
    assert (d.chosen, d.score, d.runner_up) == ("d", 3.1235, ("B", 3.1235))
    d = compact_totals(legal, [5.0, 1.0, 2.0, 2.0], 0, label=str.upper)
    assert (d.chosen, d.score, d.runner_up) == ("a", 5.0, ("C", 2.0))
    d = compact_totals(legal, [float("-inf")] * 4, 0, label=str.upper)
    assert (d.score, d.runner_up) == (float("-inf"), ("B", float("-inf")))
    d = compact_totals(["only"], [0.5], 0, label=str.upper)
    assert (d.score, d.runner_up) == (0.5, None)


@pytest.mark.slow
def test_building_totals_are_the_totals_of_the_written_terms_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """The building slot's compact path (issue 26 item 1) sums each candidate's score without writing
    its terms; every total must be the very float :meth:`score_building`'s terms give, or a tie could
    break another way. Checked on every building decision of a year of ``realm``, which builds
    with every kind of bonus (a trade route's building, a first port building, a settlement beyond the
    capital) and short of its reserve."""
    from agents.policies import kingdom as KP
    from agents.policies.explain import Terms

    fast = KP.KingdomHeuristic.building_totals
    seen = {"decisions": 0, "candidates": 0, "route": 0, "port": 0, "spread": 0, "reserve": 0}

    def checked(self: Any, c: Any, legal: Any) -> list[float]:
        got = fast(self, c, legal)
        want = []
        for o in legal:
            t = Terms("BP")
            self.score_building(c, o, t)
            want.append(t.total)
            for name, *_ in t.raw:
                if name in seen:
                    seen[name] += 1
        assert got == want
        seen["decisions"] += 1
        seen["candidates"] += len(legal)
        return got

    monkeypatch.setattr(KP.KingdomHeuristic, "building_totals", checked)
    _campaign("realm", 12 * HOURS_PER_MONTH, 5, False)
    assert seen["decisions"] >= 50 and seen["candidates"] >= 1000, seen
    assert min(seen["route"], seen["port"], seen["spread"], seen["reserve"]) > 0, seen
