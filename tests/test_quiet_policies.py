"""A policy asked only for its choice (``Policy.explain = False``, what a look-ahead rollout asks)
chooses exactly what it chooses when it explains itself, and draws the same from its stream."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest

from agents.campaign import run_campaign
from agents.policies import Decision, make_policy
from agents.variants import variant
from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH

CASES = {  # a short single-system campaign per kind
    "convoy": ("caravan-crossing", 6 * HOURS_PER_DAY),
    "kingdom": ("stolen-lands", 4 * HOURS_PER_MONTH),
    "nation": ("mare-nostrum", 6 * HOURS_PER_MONTH),
    "guild": ("guild-war", 12 * HOURS_PER_MONTH),
}


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_quiet_heuristic_chooses_what_the_explaining_one_chooses(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = type(make_policy(kind, "heuristic"))
    original = cls.decide
    seen: list[tuple[str, str, int, int]] = []

    def both(self: Any, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not self.explain:
            return original(self, obs, legal, rng)
        twin = copy.copy(self)
        twin.explain = False
        rng_twin = random.Random()
        rng_twin.setstate(rng.getstate())
        quiet = original(twin, obs, legal, rng_twin)
        loud = original(self, obs, legal, rng)
        assert quiet.chosen is loud.chosen, f"{kind}: quiet chose {quiet.chosen!r}, explaining chose {loud.chosen!r}"
        assert rng_twin.getstate() == rng.getstate(), f"{kind}: the quiet policy drew differently from its stream"
        assert quiet.alternatives == [] and quiet.scored == [] and loud.scored
        # the compact record (issue 26): the chosen order's score and the runner-up, as the explained list has them
        assert quiet.score == loud.scored[0][1], f"{kind}: quiet score {quiet.score} vs {loud.scored[0]}"
        assert quiet.runner_up == (tuple(loud.scored[1]) if len(loud.scored) > 1 else None)
        seen.append((kind, str(loud.chosen), len(legal), len(loud.alternatives)))
        return loud

    monkeypatch.setattr(cls, "decide", both)
    name, hours = CASES[kind]
    run_campaign(variant(name, duration_hours=hours), 2, collect=False, keep_ledger=False, explain=True)
    assert len(seen) >= 20, f"{kind}: only {len(seen)} decisions compared"
    assert any(n > 2 for _, _, n, _ in seen), f"{kind}: no decision with a real choice was compared"
