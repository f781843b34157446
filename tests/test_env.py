"""agents/env.py: the PettingZoo environment for outside agents (issue 15 item 4)."""

from __future__ import annotations

import gc
import importlib.util
import re
import sys
import threading
import warnings
import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # the rl extra is in the dev extra: CI runs these

from agents.env import (
    DECISIONS,
    METRICS,
    EnvError,
    env,
    feature_names,
    random_episode,
    raw_env,
    replay_actions,
)

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = "caravan-crossing"  # six convoys, 60 days: a whole episode is about 140 questions


def _campaign_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "realmsim-env-campaign" and t.is_alive()]


def _random_episode(e: Any, seed: int, rng_seed: int) -> list[tuple[str, int]]:
    """Play one episode with uniformly random legal actions; the (agent, action) pairs played."""
    return random_episode(e, seed=seed, rng_seed=rng_seed)


def _seed_spaces(e: Any) -> None:
    """api_test samples its actions from the action spaces: seeded, the test plays the same game each run."""
    for i, a in enumerate(e.unwrapped.possible_agents):
        e.action_space(a).seed(100 + i)


def test_pettingzoo_api_test_passes() -> None:
    e = env(scenario=SCENARIO, seed=3)
    _seed_spaces(e)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the style advice (player_0 names, Box spaces) does not apply
        api_test(e, num_cycles=1000)
    e.close()
    assert _campaign_threads() == []


def test_pettingzoo_api_test_on_a_short_stolen_lands() -> None:
    e = env(scenario="stolen-lands", seed=3, until="1s")  # one season of four kingdoms
    assert e.unwrapped.possible_agents == ["kingdom:mivon", "kingdom:pitax", "kingdom:restov", "kingdom:tatzlford"]
    _seed_spaces(e)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=40)
    e.close()
    assert _campaign_threads() == []


@pytest.mark.parametrize(("scenario", "kind"), [("guild-war", "guild"), ("mare-nostrum", "nation")])
def test_pettingzoo_api_test_on_guilds_and_nations(scenario: str, kind: str) -> None:
    e = env(scenario=scenario, seed=3, until="2s")
    assert {a.partition(":")[0] for a in e.unwrapped.possible_agents} == {kind}
    _seed_spaces(e)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=30)
    e.close()


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env(scenario=SCENARIO, seed=3), num_cycles=500)
    gc.collect()  # seed_test closes its two environments
    assert _campaign_threads() == []


@pytest.mark.parametrize("handoff", ["greenlet", "thread"])
def test_an_episode_is_the_campaign_its_actions_script(handoff: str) -> None:
    """The hand-off changes nothing: the env's ledger is the one of a campaign run in this thread with
    the same answers, and a second env episode with the same seed and actions matches."""
    e = raw_env(SCENARIO, 5, handoff=handoff)
    played = _random_episode(e, seed=5, rng_seed=11)
    digest, count = e.model.ledger.sha256(), e.model.ledger.count
    assert e.model.world.now == e.model.world.end and e.model.ledger.events[-1].kind == "CampaignEnded"
    e.close()
    assert len(played) > 50
    replayed = replay_actions(SCENARIO, 5, played)
    assert (replayed.ledger_sha256, replayed.events) == (digest, count)

    e2 = raw_env(SCENARIO, 5, handoff=handoff)
    again = _random_episode(e2, seed=5, rng_seed=11)
    assert again == played and e2.model.ledger.sha256() == digest
    other = _random_episode(e2, seed=6, rng_seed=11)  # another seed: other rules dice
    assert e2.model.dice.root_seed == 6 and e2.model.ledger.events[0].data["seed"] == 6
    assert e2.model.ledger.sha256() != digest and other != played
    e2.close()


@pytest.mark.rule("GEN-01")
def test_one_factions_choices_shift_no_die_of_another() -> None:
    """Two episodes where only convoy:amber answers differently: every other convoy's events — dice,
    outcomes, hours — are the same, and every die drawn is in the ledger."""

    def play(amber_random: bool) -> Any:
        rng = np.random.default_rng(1)
        e = raw_env(SCENARIO, 9)
        e.reset()
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal) if agent == "convoy:amber" and amber_random else legal[0]))
        model = e.model
        e.close()
        assert model.dice.draws == model.ledger.dice
        return model.ledger

    a, b = play(False), play(True)

    def of(ledger: Any, actor: str) -> list[tuple[Any, ...]]:
        return [(ev.t, ev.kind, ev.dice, ev.total, ev.outcome) for ev in ledger.events if ev.actor == actor]

    assert of(a, "convoy:amber") != of(b, "convoy:amber")
    for other in ("convoy:brass", "convoy:cobalt", "convoy:dune", "convoy:ember", "convoy:flint"):
        assert of(a, other) == of(b, other), other


def test_controlled_factions_and_the_others_keep_their_policies() -> None:
    e = raw_env(SCENARIO, 2, controlled=["convoy:brass"])
    assert e.possible_agents == ["convoy:brass"]
    played = _random_episode(e, seed=2, rng_seed=0)
    assert {a for a, _ in played} == {"convoy:brass"}
    policies: dict[str, set[str]] = {}
    for ev in e.model.ledger.events:
        if ev.kind == "DecisionMade":
            policies.setdefault(ev.actor, set()).add(ev.data["policy"])
    e.close()
    assert policies["convoy:brass"] == {"env"}
    # the scenario's own policies (three heuristic, three random convoys) play the others
    assert policies["convoy:amber"] == {"heuristic"} and policies["convoy:cobalt"] == {"heuristic"}


def test_rewards_are_score_changes() -> None:
    from sim.scoring import score_all

    e = raw_env(SCENARIO, 4, controlled=["convoy:amber"])
    e.reset()
    start = score_all(e.model.world)["convoy:amber"].total  # the baseline: the first question
    total = 0.0
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total += reward
        e.step(None if terminated or truncated else 0)
    end = score_all(e.model.world)["convoy:amber"].total
    e.close()
    assert end != start
    assert total == pytest.approx(end - start, abs=0.011)


def test_observations_follow_the_documented_schema() -> None:
    e = raw_env(SCENARIO, 1)
    e.reset()
    agent = e.agent_selection
    obs = e.observe(agent)
    ctx = e.decision_context(agent)
    assert ctx is not None
    decision, policy_obs, legal = ctx
    assert obs["observation"].shape == (len(feature_names("convoy")),)
    assert obs["observation"].dtype == np.float32
    assert DECISIONS["convoy"][obs["decision"]] == decision == policy_obs["decision"]
    assert int(obs["action_mask"].sum()) == len(legal) == len(e.infos[agent]["legal"])
    named = dict(zip(feature_names("convoy"), obs["observation"].tolist()))
    assert named["view.max_hp"] == policy_obs["max_hp"] and named["metric.hp"] == policy_obs["hp"]
    assert named["status.travelling"] == 1.0
    # a faction not asked sees itself, with no legal order
    idle = next(a for a in e.agents if a != agent)
    io = e.observe(idle)
    assert io["decision"] == 0 and int(io["action_mask"].sum()) == 0 and e.decision_context(idle) is None
    e.close()


@pytest.mark.parametrize("scenario", ["caravan-crossing", "stolen-lands", "guild-war", "mare-nostrum"])
def test_every_metric_of_the_drivers_is_in_the_observation(scenario: str) -> None:
    """A metric a driver adds to its season rows must be added to METRICS (or it would be left out)."""
    from agents.env import _build_model

    model = _build_model(scenario, 1, {})
    for key, row in model.season_metrics().items():
        kind = key.partition(":")[0]
        numeric = {k for k, v in row.items() if isinstance(v, int | float)}
        assert numeric <= set(METRICS[kind]), (key, numeric - set(METRICS[kind]))


def test_docs_name_every_feature_and_decision() -> None:
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    for kind, names in DECISIONS.items():
        for name in feature_names(kind):
            assert f"`{name}`" in text, (kind, name)
        for d in names:
            assert f"`{d}`" in text, (kind, d)


def test_bad_arguments_and_actions_are_refused_clearly() -> None:
    with pytest.raises(EnvError, match=r"controlled=\['convoy:nobody'\].*convoy:amber"):
        raw_env(SCENARIO, 1, controlled=["convoy:nobody"])
    with pytest.raises(EnvError, match="until='soon'"):
        raw_env(SCENARIO, 1, until="soon")
    e = raw_env(SCENARIO, 1)
    e.reset()
    n = int(e.observe(e.agent_selection)["action_mask"].sum())
    with pytest.raises(EnvError, match=re.escape(f"has {n} legal order(s)")):
        e.step(n)
    e.step(0)  # the refused action changed nothing
    e.close()
    with pytest.raises(EnvError, match="handoff='fork'"):
        raw_env(SCENARIO, 1, handoff="fork")
    with pytest.raises(EnvError, match="max_actions=2"):
        raw_env(SCENARIO, 1, max_actions=2).reset()
    assert _campaign_threads() == []


def test_close_and_reset_leave_no_thread_behind() -> None:
    e = raw_env(SCENARIO, 1, handoff="thread")
    e.reset()
    e.step(0)
    assert len(_campaign_threads()) == 1
    e.reset()
    assert len(_campaign_threads()) == 1
    e.close()
    assert _campaign_threads() == []
    e.close()  # twice is fine
    dropped = raw_env(SCENARIO, 1, handoff="thread")
    dropped.reset()
    assert len(_campaign_threads()) == 1
    del dropped
    gc.collect()
    assert _campaign_threads() == []


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_close_and_reset_leave_no_campaign_suspended() -> None:
    """The default hand-off (a greenlet): close() and reset() unwind the suspended campaign."""
    e = raw_env(SCENARIO, 1)
    e.reset()
    e.step(0)
    first = e._campaign
    assert first is not None and first.alive
    e.reset()
    second = e._campaign
    assert not first.alive and second is not None and second.alive and second is not first
    e.close()
    assert not second.alive and e._campaign is None
    first_ref, second_ref = weakref.ref(first), weakref.ref(second)
    del first, second
    gc.collect()
    assert first_ref() is None  # nothing keeps an old campaign (and its world) alive
    assert e.model.ledger.count > 0  # the last campaign stays readable after close()
    del e
    gc.collect()
    assert second_ref() is None
    dropped = raw_env(SCENARIO, 1)
    dropped.reset()
    third = dropped._campaign
    assert third is not None and third.alive
    del dropped
    gc.collect()
    assert not third.alive
    assert _campaign_threads() == []


@pytest.fixture(autouse=True)
def _registry_as_it_was() -> Any:
    """The example policy registers itself ("greedy"): leave the registry as other test files expect it."""
    from agents import policies

    yield
    for key in [k for k, cls in policies._REGISTRY.items() if getattr(cls, "__module__", "") == "greedy_convoy"]:
        del policies._REGISTRY[key]


def _load_example() -> Any:
    path = ROOT / "docs" / "examples" / "greedy_convoy.py"
    spec = importlib.util.spec_from_file_location("greedy_convoy", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["greedy_convoy"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_example_policy_plugged_in_and_as_an_outside_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/examples/greedy_convoy.py: the same policy plugged into the scenario and playing through
    the environment gives the same decisions, the same dice and the same scores."""
    from agents.campaign import run_campaign

    monkeypatch.syspath_prepend(str(ROOT / "docs" / "examples"))
    monkeypatch.setenv("REALMSIM_ALLOW_POLICIES", "greedy_convoy")  # an outside policy: allowed (issue 9)
    ex = _load_example()
    text = (ROOT / "scenarios" / "data" / f"{SCENARIO}.toml").read_text(encoding="utf-8")
    text, n = re.subn(r'^policy = "(heuristic|random)"', 'policy = "greedy_convoy:GreedyConvoyPolicy"', text, flags=re.M)
    assert n == 6
    path = tmp_path / "greedy-crossing.toml"
    path.write_text(text, encoding="utf-8")
    plugged = run_campaign(str(path), 8)

    totals, ledger = ex.play_episode(8)
    assert sorted(totals) == [f"convoy:{c}" for c in ("amber", "brass", "cobalt", "dune", "ember", "flint")]

    def story(led: Any) -> list[tuple[Any, ...]]:  # all but the policy's name
        return [(ev.t, ev.kind, ev.actor, ev.dice, ev.outcome if ev.kind != "ConvoySetOut" else "")
                for ev in led.events]

    assert story(ledger) == story(plugged.ledger)
    made = [ev.data["policy"] for ev in plugged.ledger.events if ev.kind == "DecisionMade"]
    assert len(made) > 50 and set(made) == {"greedy_convoy:GreedyConvoyPolicy"}


@pytest.mark.parametrize("handoff", ["greenlet", "thread"])
def test_a_failing_campaign_raises_in_the_caller_and_stops(handoff: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception in the campaign thread (here a scenario policy's) is raised by step()/reset(); the
    thread is gone and the environment refuses to go on until reset."""
    from agents.policies import convoy as cp

    def boom(self: Any, obs: Any, legal: Any, rng: Any) -> Any:
        raise RuntimeError("the heuristic broke")

    monkeypatch.setattr(cp.HeuristicConvoyPolicy, "decide", boom)
    e = raw_env(SCENARIO, 1, controlled=["convoy:brass"], handoff=handoff)  # amber: its scenario's heuristic
    with pytest.raises(RuntimeError, match="the heuristic broke"):
        e.reset()
        for _ in e.agent_iter():
            e.step(0)
    assert _campaign_threads() == [] and e._campaign is None
    with pytest.raises(EnvError, match="ask no question"):
        e.step(0)
