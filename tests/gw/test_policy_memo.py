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
