"""The shortcuts of issue 12 give what the plain definitions give.

* ``legal_orders`` lists a home ambassador's missions (``_launchable``) as the brute force over every
  city, treaty kind and gift of the menu checked by ``launch_problem`` would;
* the nation heuristic's :func:`rank` (its candidates sharing one decision's work and, for missions
  the city alone decides, one :class:`Terms`) scores each candidate as a fresh, unshared scoring does;
* ``_treaty_value_of(_value_rule(...))`` is ``_treaty_value``.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.nation import NationObs
from agents.policies import nation as pol
from sim.rules import mn as dip
from sim.rules.mn.legality import _launchable
from sim.rules.mn.missions import launch_problem
from sim.state.mn import TREATY_KINDS, Cut, Mission, MnWorld, War
from tests.mn.common import buy, make_world, post, world_of


def brute_force(mn: MnWorld, cfg: Any, nation: str, amb_id: str) -> list[dip.LaunchMission]:
    out = []
    for cid in sorted(mn.cities):
        for kind in TREATY_KINDS:
            for gift in dip.GIFT_MENU:
                o = dip.LaunchMission(amb_id, cid, kind, gift)
                if launch_problem(mn, cfg, nation, o) is None:
                    out.append(o)
    return out


def worlds() -> list[tuple[str, MnWorld, Any, str]]:
    """Worlds where the conditions of a launch differ: treasury, cuts, pacts, wars, posts."""
    out = []
    for treasury in (0, 29, 30, 45, 60, 300):
        mn, cfg, _ = make_world(turn=6, treasury=treasury)
        a = buy(mn, "p1")
        out.append((f"treasury {treasury}", mn, cfg, a.id))
    mn, cfg, _ = make_world(turn=6, treasury=300)
    a = buy(mn, "p1")
    mn.cuts.append(Cut("nation:p1", "city:carthago", 3, 9, 1))
    mn.cuts.append(Cut("nation:p1", "nation:p2", 1, 2, 1))  # over: no longer cut
    out.append(("cuts", mn, cfg, a.id))
    mn, cfg, _ = make_world(turn=6, treasury=300)
    post(mn, "p1", "rhodos", kind="pact")
    post(mn, "p1", "massalia", kind="commercial", last_turn=6)
    a = buy(mn, "p1")
    mn.wars.append(War("city:carthago", "nation:p1", 4))
    out.append(("a pact held, at war", mn, cfg, a.id))
    mn, cfg, _ = make_world(turn=6, treasury=300)
    b = buy(mn, "p1")
    mn.missions.append(Mission(mn.new_id(), b.id, "p1", "Latium", "athenae", "pact", 0, 5, 7))
    b.state = "travelling"
    a = buy(mn, "p1")
    post(mn, "p2", "syracusae", kind="commercial")
    out.append(("a pact under negotiation, a rival posted", mn, cfg, a.id))
    mn, cfg, _ = make_world(turn=6, treasury=300)
    a = buy(mn, "p1")
    a.state = "travelling"
    out.append(("not home", mn, cfg, a.id))
    return out


@pytest.mark.parametrize("case", worlds(), ids=lambda c: c[0])
def test_the_missions_listed_are_those_launch_problem_allows(case: tuple[str, MnWorld, Any, str]) -> None:
    _, mn, cfg, amb_id = case
    assert _launchable(mn, "p1", amb_id) == brute_force(mn, cfg, "p1", amb_id)
    assert _launchable(mn, "p2", amb_id) == brute_force(mn, cfg, "p2", amb_id) == []  # not his ambassador


def fresh_terms(obs: NationObs, legal: list[Any]) -> list[list[tuple[str, float, str, str]]]:
    """Each candidate scored alone, with a cache of its own (nothing shared between candidates)."""
    h = pol.NationHeuristic()
    return [list(h.terms(obs, o, {}).raw) for o in legal]


@pytest.mark.parametrize("case", worlds(), ids=lambda c: c[0])
def test_rank_scores_each_mission_as_a_fresh_scoring_does(case: tuple[str, MnWorld, Any, str]) -> None:
    _, mn, cfg, amb_id = case
    amb = mn.ambassadors[amb_id]
    legal = dip.legal_orders(world_of(mn, cfg), "p1", slot="ambassador", subject=amb)
    obs = NationObs(mn, cfg, "p1", "ambassador", amb, {})
    ranked = pol.rank(obs, legal)
    assert [list(t.raw) for t in ranked] == fresh_terms(obs, legal)
    assert [t.total for t in ranked] == [sum((x[1] for x in r), 0.0) for r in fresh_terms(obs, legal)]


@pytest.mark.parametrize("case", worlds(), ids=lambda c: c[0])
def test_rank_scores_wars_as_a_fresh_scoring_does(case: tuple[str, MnWorld, Any, str]) -> None:
    _, mn, cfg, _amb = case
    post(mn, "p2", "neapolis", kind="commercial")
    post(mn, "p1", "corinthus")
    legal = dip.legal_orders(world_of(mn, cfg), "p1", slot="military")
    assert any(isinstance(o, dip.DeclareWar) for o in legal)
    obs = NationObs(mn, cfg, "p1", "military", None, {})
    assert [list(t.raw) for t in pol.rank(obs, legal)] == fresh_terms(obs, legal)


@pytest.mark.parametrize("case", worlds(), ids=lambda c: c[0])
def test_the_value_rule_gives_the_treaty_value(case: tuple[str, MnWorld, Any, str]) -> None:
    _, mn, cfg, amb_id = case
    obs = NationObs(mn, cfg, "p1", "ambassador", mn.ambassadors[amb_id], {})
    h = pol.NationHeuristic()
    renewals = [None, *(t.id for t in mn.treaties)]
    for city in sorted(mn.cities):
        for kind in TREATY_KINDS:
            for renewing in renewals:
                rule = h._value_rule(obs, city, kind, renewing, {})
                for turns in (1, 2, 3, 4, 5, pol.HORIZON_TURNS):
                    want = h._treaty_value(obs, city, kind, turns, renewing)
                    got = pol._treaty_value_of(rule, turns)
                    assert got == want and type(got) is type(want)
