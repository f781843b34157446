"""The ``lookahead`` policy (agents/policies/lookahead.py): deterministic for a seed (twice, and in
another process), invisible to the real campaign's dice and ledger, better than a misguided
heuristic in a situation built for it; its ``policy_options`` checked like any scenario field."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agents.campaign import run_campaign
from agents.policies import Decision, known_policies
from agents.policies.lookahead import ConvoyLookahead, budget_for, net_needed, plan_kind
from agents.variants import to_toml, variant
from scenarios.loader import load_scenario_text
from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH
from sim.errors import ScenarioError
from sim.state.cv import DayPlan

ROOT = Path(__file__).resolve().parent.parent
CASES = {  # a short single-system campaign per kind, with one seat played by lookahead
    "convoy": ("caravan-crossing", "convoy:amber", 8 * HOURS_PER_DAY),
    "kingdom": ("stolen-lands", "kingdom:restov", 3 * HOURS_PER_MONTH),
}


def lookahead_run(kind: str, seed: int = 3, policy: str = "lookahead", explain: bool = True) -> Any:
    name, seat, hours = CASES[kind]
    return run_campaign(variant(name, duration_hours=hours, seats={seat: policy}), seed, collect=False, explain=explain)


def looked_ahead(res: Any, seat: str) -> list[Any]:
    return [e for e in res.ledger.events if e.kind == "DecisionMade" and e.actor == seat and "rollouts" in e.data]


def test_every_kind_knows_the_lookahead_policy() -> None:
    for kind in ("kingdom", "nation", "guild", "convoy"):
        assert "lookahead" in known_policies(kind)


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_lookahead_campaign_is_the_same_twice_and_in_another_process(kind: str) -> None:
    a, b = lookahead_run(kind), lookahead_run(kind)
    assert looked_ahead(a, CASES[kind][1]), "the seat never looked ahead: the test would prove nothing"
    assert a.ledger_sha256 == b.ledger_sha256
    name, seat, hours = CASES[kind]
    code = (
        "import json; from agents.campaign import run_campaign; from agents.variants import variant; "
        f"r = run_campaign(variant({name!r}, duration_hours={hours}, seats={{{seat!r}: 'lookahead'}}), 3, collect=False, explain=True); "
        "print(json.dumps(r.ledger_sha256))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={"PYTHONHASHSEED": "123", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == a.ledger_sha256


@pytest.mark.rule("GEN-01")
@pytest.mark.parametrize("kind", sorted(CASES))
def test_rollouts_leave_the_real_dice_and_ledger_alone(kind: str) -> None:
    res = lookahead_run(kind)
    seat = CASES[kind][1]
    looks = looked_ahead(res, seat)
    assert looks
    n = sum(ro["n"] * len(ro["candidates"]) for ro in (e.data["rollouts"] for e in looks))
    assert n > 0
    # every die the real run's rules drew is in one real event: the rollouts' dice are their own
    assert res.model.dice.draws == res.ledger.dice
    # one campaign start, one end, one kept event per ledger count: no rollout event reached it
    kinds = [e.kind for e in res.ledger.events]
    assert kinds.count("CampaignStarted") == 1 and kinds.count("CampaignEnded") == 1
    assert [e.seq for e in res.ledger.events] == list(range(res.ledger.count))
    assert all(e.t <= res.world.end for e in res.ledger.events)


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_figures_of_a_decision_looked_ahead() -> None:
    res = lookahead_run("convoy")
    e = looked_ahead(res, "convoy:amber")[0]
    ro = e.data["rollouts"]
    assert 1 <= ro["n"] <= 4 and 0 < ro["horizon_hours"] <= 10 * HOURS_PER_DAY and ro["unit"] == "points"
    assert 2 <= len(ro["candidates"]) <= 3
    assert ro["candidates"][0]["order"] == e.outcome  # the chosen one first
    assert sum(c["wins"] for c in ro["candidates"]) == ro["n"]
    assert [a["order"] for a in e.data["alternatives"]] == [c["order"] for c in ro["candidates"]]
    assert e.data["alternatives"][0]["terms"][0]["name"] == "rollouts"


# ---- a hand-built situation: a heuristic that would rather rest than travel -------------------------

class RestFirst:
    """A misguided convoy heuristic: resting scores 10, travelling 9.5 (within the gap), the rest 0."""

    name = "rest-first"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        def score(p: Any) -> float:
            if not isinstance(p, DayPlan) or p.buy or p.gift or p.assign or p.abandon or p.forage or p.double:
                return 0.0
            return {"rest": 10.0, "travel": 9.5 if not (p.night or p.extra or p.halt) else 0.0}.get(p.move, 0.0)

        ranked = sorted(range(len(legal)), key=lambda i: (-score(legal[i]), i))
        labels = [(legal[i].label() if isinstance(legal[i], DayPlan) else str(legal[i]), score(legal[i])) for i in ranked]
        return Decision(legal[ranked[0]], labels[:5], "rest first")


class RestFirstLookahead(ConvoyLookahead):
    """The lookahead policy over the misguided heuristic."""

    def __init__(self) -> None:
        super().__init__()
        self.heuristic = RestFirst()


def test_lookahead_overturns_a_clearly_worse_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from agents import policies

    monkeypatch.setitem(policies._REGISTRY, ("convoy", "rest-first-lookahead"), RestFirstLookahead)
    name, seat, _ = CASES["convoy"]
    res = run_campaign(variant(name, duration_hours=4 * HOURS_PER_DAY, seats={seat: "rest-first-lookahead"}),
                       3, collect=False, explain=True)
    first = looked_ahead(res, seat)[0]
    ro = first.data["rollouts"]
    orders = [c["order"] for c in ro["candidates"]]
    assert "rest" in orders and "travel" in orders
    assert first.outcome == "travel"  # the heuristic wanted to rest
    by = {c["order"]: c for c in ro["candidates"]}
    assert by["travel"]["mean"] > by["rest"]["mean"]
    assert by["travel"]["wins"] == ro["n"]
    assert "look-ahead" in first.data["reason"]


# ---- a convoy's look-ahead: kinds of day, the paired sign rule, convoys played alone -----------------

def test_a_kind_of_day_leaves_out_the_small_differences() -> None:
    travel = plan_kind(DayPlan())
    assert plan_kind(DayPlan(forage=True)) == travel
    assert plan_kind(DayPlan(extra=3)) == plan_kind(DayPlan(extra=6)) != travel
    assert plan_kind(DayPlan(buy="stores:4")) == plan_kind(DayPlan(buy="stores:9")) != travel
    for other in (DayPlan(move="rest"), DayPlan(halt=True), DayPlan(night=True), DayPlan(double=True),
                  DayPlan(gift="trade_goods"), DayPlan(buy="axles"), DayPlan(abandon="supply")):
        assert plan_kind(other) != travel


def test_a_convoy_candidate_must_beat_the_heuristic_on_most_dice() -> None:
    la = ConvoyLookahead()
    assert [net_needed(n) for n in (1, 2, 3, 4, 5, 6)] == [1, 1, 2, 2, 3, 3]
    # candidate 1: a far better mean from one lucky rollout, worse on three of four; candidate 2: better on
    # three, tied on one
    results: list[list[float | None]] = [[100.0, 100.0, 100.0, 100.0], [300.0, 99.0, 99.0, 99.0],
                                         [101.0, 101.0, 100.0, 102.0]]
    pick, why = la._choose(1, [100.0, 149.25, 101.0], results, 4)
    assert pick == 2 and "3 of 4" in why
    pick, why = la._choose(1, [100.0, 149.25], results[:2], 4)
    assert pick == 0 and "no other kind of day" in why  # a tie or a lone lucky rollout keeps the heuristic's
    # after two rounds, a candidate that lost both can no longer get 2 more wins than losses in 4
    assert la._still_open([[1.0, 1.0], [0.0, 0.0], [2.0, 1.0]], 4) == [0, 2]


@pytest.mark.slow
def test_a_convoy_rollout_played_alone_chooses_as_with_every_convoy(monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.policies.lookahead as L

    alone = lookahead_run("convoy", seed=2)
    assert looked_ahead(alone, "convoy:amber")
    monkeypatch.setattr(L, "solo_convoy", lambda world, decider: None)
    assert lookahead_run("convoy", seed=2).ledger_sha256 == alone.ledger_sha256


# ---- policy_options in the scenario file -------------------------------------------------------------

def with_options(policy: str, options: dict[str, Any]) -> str:
    data = msgspec.to_builtins(variant("caravan-crossing").scenario)
    data["convoys"][0]["policy"] = policy
    data["convoys"][0]["policy_options"] = options
    return to_toml(data)


def test_policy_options_reach_the_budget() -> None:
    text = with_options("lookahead", {"candidates": 2, "rollouts": 5, "horizon_days": 2, "gap": 0.5, "decisions": 3})
    loaded = load_scenario_text(text, "opts.toml")
    res = run_campaign(loaded, 1, until=1, collect=False)
    b = res.model.by_key["convoy:amber"].policy.budget
    assert (b.candidates, b.rollouts, b.horizon, b.gap, b.decisions, b.max_ms) == (2, 5, 48, 0.5, 3, 0)
    assert budget_for("convoy", res.world, None).horizon == 10 * HOURS_PER_DAY


@pytest.mark.parametrize(
    ("policy", "options", "message"),
    [
        ("heuristic", {"rollouts": 3}, r'convoys\[0\]\.policy_options: expected no policy_options unless policy = "lookahead"'),
        ("lookahead", {"rollouts": 0}, r"convoys\[0\]\.policy_options\.rollouts: expected an integer >= 1 and <= 64"),
        ("lookahead", {"candidates": 9}, r"convoys\[0\]\.policy_options\.candidates: expected an integer >= 1 and <= 8"),
        ("lookahead", {"depth": 3}, r"convoys\[0\]\.policy_options.*depth"),
    ],
)
def test_bad_policy_options_are_named(policy: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        load_scenario_text(with_options(policy, options), "opts.toml")


def test_max_ms_cuts_a_decision_after_a_whole_round_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.policies.lookahead as L

    ticks = iter(range(0, 10**9, 5))  # a clock that moves 5 s at every reading: past any max_ms at once
    monkeypatch.setattr(L.time, "perf_counter", lambda: float(next(ticks)))
    text = with_options("lookahead", {"rollouts": 6, "max_ms": 1000, "gap": 50.0})
    res = run_campaign(load_scenario_text(text, "opts.toml"), 3, until=4 * HOURS_PER_DAY, collect=False)
    looks = [e.data["rollouts"] for e in looked_ahead(res, "convoy:amber")]
    # a decision whose candidates all fell behind the heuristic's choice stops after one round anyway;
    # one with a candidate still ahead is cut there, and says so
    cut = [ro for ro in looks if ro.get("cut")]
    assert cut, "no decision had a candidate ahead after one round: the test would prove nothing"
    for ro in cut:
        assert ro["cut"] is True and ro["n"] == 1  # one whole round: every candidate played once
        assert all(c["n"] == 1 for c in ro["candidates"])


# ---- a cheaper look-ahead (issue 26 item 4): candidates dropped once behind, the hour replayed from a log --

def test_a_candidate_is_played_further_only_while_it_is_ahead_of_the_heuristics_choice() -> None:
    from agents.policies.lookahead import GuildLookahead, ahead

    results: list[list[float | None]] = [[100.0], [100.0], [90.0], [101.0]]
    assert [ahead(results, ci) for ci in range(4)] == [0.0, 0.0, -10.0, 1.0]
    la = GuildLookahead()
    # level (1) and behind (2) are dropped; ahead (3) plays on; the heuristic's choice (0) always does
    assert la._still_open(results, 2) == [0, 3]
    assert la._still_open([[5.0], [4.0], [5.0]], 2) == [0]  # nothing ahead: no second rollout
    # over two rollouts the sum counts: +30 then -20 is still ahead; a diverged rollout counts for neither
    two: list[list[float | None]] = [[100.0, 100.0], [130.0, 80.0], [None, 150.0], [120.0, 70.0]]
    assert [ahead(two, ci) for ci in (1, 2, 3)] == [10.0, 50.0, -10.0]
    assert la._still_open(two, 3) == [0, 1, 2]
    # a candidate dropped earlier (fewer rollouts than the heuristic's choice) stays dropped
    assert la._still_open([[1.0, 1.0], [5.0], [2.0, 2.0]], 3) == [0, 2]


def test_a_convoy_candidate_that_does_not_win_its_first_rollout_is_not_played_further() -> None:
    la = ConvoyLookahead()
    # first rollout: candidate 1 tied, 2 lost, 3 won (4 rollouts: 2 more wins than losses needed)
    assert la._still_open([[10.0], [10.0], [9.0], [11.0]], 4) == [0, 3]
    # then won, lost: level again, dropped; won twice: on
    assert la._still_open([[10.0, 10.0], [11.0, 9.0], [11.0, 12.0]], 4) == [0, 2]


def test_the_mean_is_compared_on_the_rollouts_every_candidate_kept_played() -> None:
    """A candidate dropped after one rollout is not chosen for a lucky first rollout that the others'
    second rollout brought down (its mean would be over fewer dice)."""
    from agents.policies.lookahead import KingdomLookahead

    seen: list[tuple[int, int]] = []

    def fake_play(cp: Any, key: str, legal: list[Any], forced: int, seed: int, until: int) -> float:
        j = sum(1 for c, _s in seen if c == forced)
        seen.append((forced, seed))
        # candidate 0 (order 0): 100 then 40; order 1: 100 (level: dropped), then would have been 200;
        # order 2: 110 then 45 (ahead after one: kept; mean 77.5 > 70)
        return {0: [100.0, 40.0], 1: [100.0, 200.0], 2: [110.0, 45.0]}[forced][j]

    la = _bound(KingdomLookahead())
    import agents.policies.lookahead as L

    orig = L.play
    L.play = fake_play  # type: ignore[assignment]
    try:
        d = la._look_ahead(_cp(), Decision("a", [("a", 3.0), ("b", 2.0), ("c", 1.0)]), ["a", "b", "c"], [0, 1, 2], 0)
    finally:
        L.play = orig  # type: ignore[assignment]
    assert [c for c, _ in seen] == [0, 1, 2, 0, 2]  # order 1 played once only
    assert d.chosen == "c"
    ro = d.rollouts
    assert ro is not None and ro["n"] == 2
    assert {c["order"]: c["n"] for c in ro["candidates"]} == {"c": 2, "a": 2, "b": 1}


def _cp() -> Any:
    from agents.policies.lookahead import Checkpoint

    return Checkpoint(0, b"", {})


def _bound(la: Any) -> Any:
    """A lookahead policy bound to a stand-in agent: its policy stream, a model whose world ends late."""
    from types import SimpleNamespace

    from agents.policies.lookahead import Budget

    stream = SimpleNamespace(rng=random.Random(5))
    world = SimpleNamespace(end=10**6)
    la.agent = SimpleNamespace(key="kingdom:x", policy_rng=stream, model=SimpleNamespace(world=world))
    la.budget = Budget(candidates=3, rollouts=2, gap=100.0, horizon=100)
    return la


@pytest.mark.slow
def test_rollouts_replay_the_hour_from_the_log_and_reach_every_decision() -> None:
    from agents.policies.lookahead import Lookahead, _Logged

    res = lookahead_run("kingdom")
    seat = CASES["kingdom"][1]
    la = res.model.by_key[seat].policy
    assert isinstance(la, Lookahead) and la.stats["looked_ahead"] > 0 and la.stats["rollouts"] > 0
    assert la.stats["diverged"] == 0  # every rollout replayed the hour up to the decision exactly
    others = [a for k, a in res.model.by_key.items() if k.startswith("kingdom:") and k != seat]
    assert others and all(type(a.policy) is _Logged and a.policy.name == "heuristic" for a in others)
    # the real campaign's record still names each faction's policy as the scenario does
    made = [e for e in res.ledger.events if e.kind == "DecisionMade" and e.actor != seat]
    assert made and {e.data["policy"] for e in made} == {"heuristic"}


def test_a_logged_heuristic_chooses_as_the_heuristic_and_logs_the_index() -> None:
    from types import SimpleNamespace

    from agents.policies import Policy
    from agents.policies.lookahead import Checkpoint, _Logged

    class Second(Policy):
        name = "heuristic"

        def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
            return Decision(legal[1], [(str(a), 0.0) for a in legal], "the second")

    cps = SimpleNamespace(current=Checkpoint(7, b"", {}), model=SimpleNamespace(env=SimpleNamespace(now=7)))
    inner = Second()
    p = _Logged(inner, "guild:a", cps)  # type: ignore[arg-type]
    d = p.decide(None, ["x", "y", "z"], random.Random(1))
    assert d.chosen == "y" and d.reason == "the second"
    assert cps.current.logs == {"guild:a": [1]}
    p.explain = False
    assert inner.explain is False and p.name == "heuristic"
    cps.current = Checkpoint(6, b"", {})  # a checkpoint of another hour: nothing logged there
    cps.model.env.now = 8
    p.decide(None, ["x", "y"], random.Random(1))
    assert cps.current.logs == {}


@pytest.mark.slow
def test_with_explanations_off_it_still_looks_ahead_and_chooses_the_same() -> None:
    on = lookahead_run("convoy")
    off = lookahead_run("convoy", explain=False)  # a campaign without --explain: compact decisions (issue 26)
    seat = CASES["convoy"][1]

    def made(res: Any) -> list[Any]:
        return [e for e in res.ledger.events if e.kind == "DecisionMade"]

    assert looked_ahead(off, seat), "no look-ahead without explanations: the heuristic's scores were lost"
    assert [(e.actor, e.outcome) for e in made(off)] == [(e.actor, e.outcome) for e in made(on)]
    assert [e.data["rollouts"] for e in looked_ahead(off, seat)] == [e.data["rollouts"] for e in looked_ahead(on, seat)]
    assert not any("alternatives" in e.data for e in made(off) if e.actor == seat)
    assert any("alternatives" in e.data for e in made(on) if e.actor == seat)
    # compact: a looked-ahead decision's score is its chosen candidate's mean, the runner-up the next candidate
    for a, b in zip(looked_ahead(on, seat), looked_ahead(off, seat), strict=True):
        alts = a.data["alternatives"]
        assert b.data["score"] == alts[0]["score"] and b.data["runner_up"] == [alts[1]["order"], alts[1]["score"]]
