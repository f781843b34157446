"""The guild heuristic's memo (issue 12): what it keeps for a season's orders (``GuildView.memo``,
handed by ``resolve_season``/``give_orders``) must score every legal order exactly as a fresh look
at the world does."""

from __future__ import annotations

from typing import Any

import pytest

from agents.campaign import finish, prepare_campaign
from agents.guild import GuildView
from agents.policies import guild as policy


@pytest.mark.parametrize("seed", [1, 2])
def test_the_memo_scores_every_order_as_a_fresh_look_does(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    original = policy.rank
    seen = {"with_memo": 0, "memos": set()}

    def checked(obs: GuildView, legal: Any) -> Any:
        kept = original(obs, legal)
        fresh = original(GuildView(obs.world, obs.guild), legal)
        assert [t.raw for t in kept] == [t.raw for t in fresh]
        assert [t.total for t in kept] == [t.total for t in fresh]
        if obs.memo is not None:
            seen["with_memo"] += 1
            seen["memos"].add(id(obs.memo))
        return kept

    monkeypatch.setattr(policy, "rank", checked)
    model = prepare_campaign("guild-war", seed, keep_ledger=False, collect=False)
    model.run()
    finish(model)
    assert seen["with_memo"] > 100  # every decision of the campaign had the season's memo
    assert len(seen["memos"]) > 10  # one per season


def test_a_memo_of_another_season_or_world_is_not_used() -> None:
    from sim.state.gw import Recruit
    from tests.gw.helpers import hx, make_world, put_domain

    w = make_world()
    put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 3})
    w.gw.guilds["a"].solars = 500
    memo: dict[str, Any] = {}
    legal = [Recruit(guild="a", units={"infantry": 1})]
    first = [t.raw for t in policy.rank(GuildView(w, "a", memo), legal)]
    kept = memo[policy._MEMO_KEY]
    w.gw.season += 1
    assert [t.raw for t in policy.rank(GuildView(w, "a", memo), legal)] == first
    assert memo[policy._MEMO_KEY] is not kept  # a new season: a new memo entry
    other = make_world()
    put_domain(other, "HOME", "a", hx(other, 1, 1), garrison={"militia": 3})
    policy.rank(GuildView(other, "a", memo), legal)
    assert memo[policy._MEMO_KEY].world is other


def test_the_recruits_kept_terms_follow_the_chest_and_the_armies_being_raised() -> None:
    """A Recruit's terms are kept by what the season's orders change in them: the chest (an Annex pays
    its compensation from it when given), the recruits committed and the units being deployed (the
    reserve for upkeep). Each change here changes the terms; the memo must follow it."""
    from sim.state.gw import Deploy, Recruit
    from tests.gw.helpers import hx, make_world, put_domain

    w = make_world()
    put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 3})
    gw = w.gw_state()
    cfg = w.config.gw
    gw.guilds["a"].solars = 600  # above two years of yield (160): solars to spend
    legal = [Recruit(guild="a", units={k: n}) for k in sorted(cfg.unit_cost_solars) for n in (1, 5)]
    memo: dict[str, Any] = {}

    def same() -> list[Any]:
        kept = [t.raw for t in policy.rank(GuildView(w, "a", memo), legal)]
        assert kept == [t.raw for t in policy.rank(GuildView(w, "a"), legal)]
        return kept

    seen = [same()]
    gw.guilds["a"].solars -= cfg.annex_compensation_solars  # an annexation given: nothing left to spend
    seen.append(same())
    gw.orders.append(Recruit(guild="a", units={"militia": 5}))  # recruits committed: less in the chest
    seen.append(same())
    gw.orders.append(Deploy(guild="a", domain="HOME", seals=["a-m1"], units={"militia": 40}))  # a reserve of 100 solars
    seen.append(same())
    assert all(a != b for a, b in zip(seen, seen[1:], strict=False))
