"""The guild agent and its policies: random (uniform over legal orders) and heuristic."""

from __future__ import annotations

import random
from collections import Counter

from agents.base import AgentDecider
from agents.guild import END, GuildView
from agents.model import RealmModel
from agents.policies import make_policy
from sim.dice import DiceBox
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import AttackArmy, AttackDomain, Deploy, Deposit, Move, Recruit, ReturnTitle, Siege
from tests.gw.helpers import hx, make_world, put_army, put_domain, start_season


def test_random_is_uniform_over_the_legal_orders_and_end():
    pol = make_policy("guild", "random")
    rng = random.Random(5)
    legal = ["a", "b", "c", END]
    got = Counter(pol.decide(None, legal, rng).chosen for _ in range(8000))
    assert set(got) == set(legal)
    assert all(1800 < n < 2200 for n in got.values())


def _model(w, policy="heuristic"):
    for g in w.gw.guilds.values():
        g.policy = policy
    return RealmModel(w, dice=DiceBox(9), ledger=Ledger())


def _orders_of(model, gid):
    start_season(model.world, model.world.now // 2160, model.ledger)
    return wf.give_orders(model.world, gid, AgentDecider(model), model.ledger)


def test_the_agent_asks_one_order_at_a_time_and_records_each_decision():
    w = make_world()
    put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 3})
    w.gw.guilds["a"].pool = {"infantry": 10}
    model = _model(w, "random")
    given = _orders_of(model, "a")
    decisions = model.ledger.of_kind("DecisionMade")
    assert len(decisions) == len(given) + 1 and decisions[-1].outcome == "end of orders"
    assert all(e.actor == "guild:a" and e.clauses == ("SC-GW-09", "RES-GW-27") for e in decisions)
    assert [e.outcome for e in decisions[:-1]] == [str(o) for o in given]
    assert w.gw.orders == given


def test_random_orders_are_reproducible_from_the_agents_stream():
    def run():
        w = make_world()
        put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 3})
        put_army(w, "Z", "a", hx(w, 3, 3), {"infantry": 4})
        w.gw.guilds["a"].pool = {"infantry": 10}
        return [str(o) for o in _orders_of(_model(w, "random"), "a")]

    assert run() == run()


def test_heuristic_raises_an_army_it_can_feed_and_not_one_it_cannot():
    # an army is raised from the pool (never by stripping the garrison) when a weaker hostile domain
    # is within reach and the coffer pays its armies for a year (issue 13: guilds keep their garrisons)
    w = make_world()
    put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 3})
    put_domain(w, "T", "c", hx(w, 12, 4), garrison={"militia": 2})
    w.gw.guilds["a"].pool = {"infantry": 20}
    given = _orders_of(_model(w), "a")
    deploys = [o for o in given if isinstance(o, Deploy)]
    assert deploys and sum(deploys[0].units.values()) == 20 and not deploys[0].requisition
    w2 = make_world()
    put_domain(w2, "HOME", "a", hx(w2, 1, 1), garrison={"militia": 3})
    put_domain(w2, "T", "c", hx(w2, 12, 4), garrison={"militia": 2})
    w2.gw.guilds["a"].pool = {"infantry": 20}
    w2.gw.guilds["a"].solars = 30  # a year of 10 units costs 40 solars: no army it cannot pay
    assert not any(isinstance(o, Deploy) for o in _orders_of(_model(w2), "a"))
    w3 = make_world()
    put_domain(w3, "HOME", "a", hx(w3, 1, 1), garrison={"militia": 3})
    w3.gw.guilds["a"].pool = {"infantry": 20}
    w3.gw.guilds["a"].solars = 5
    assert not any(isinstance(o, Deploy | Recruit) for o in _orders_of(_model(w3), "a"))
    w4 = make_world()  # no target within reach: the pool goes to the garrison
    put_domain(w4, "HOME", "a", hx(w4, 1, 1), garrison={"militia": 3})
    w4.gw.guilds["a"].pool = {"infantry": 20}
    assert not any(isinstance(o, Deploy) for o in _orders_of(_model(w4), "a"))


def test_heuristic_attacks_where_its_front_is_stronger_only():
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "Z", "a", h, {"infantry": 10})
    put_army(w, "weak", "c", h, {"infantry": 4})
    given = _orders_of(_model(w), "a")
    assert any(isinstance(o, AttackArmy) and o.target == "weak" for o in given)
    w2 = make_world()
    put_army(w2, "Z", "a", h, {"infantry": 4})
    put_army(w2, "strong", "c", h, {"infantry": 10})
    assert not any(isinstance(o, AttackArmy) for o in _orders_of(_model(w2), "a"))


def test_heuristic_besieges_a_keep_before_assaulting_it():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "K", "c", h, fort=2, garrison={"militia": 4})  # 4 × 3 = 12
    put_army(w, "Z", "a", h, {"infantry": 10})
    model = _model(w)
    given = _orders_of(model, "a")
    assert [type(o) for o in given if isinstance(o, Siege | AttackDomain)] == [Siege]
    wf.run_phases(w, model.dice.stream("gw", "loot"), model.ledger)
    assert w.gw.armies["Z"].besieging == "K"
    w.now = 2160
    model.ledger.now = 2160
    given = _orders_of(model, "a")
    # after the famine the garrison is weaker than a third of the army: the assault is ordered
    assert any(isinstance(o, AttackDomain) and o.domain == "K" for o in given)


def test_heuristic_marches_on_a_domain_it_can_take():
    w = make_world()
    put_domain(w, "T", "c", hx(w, 12, 4), fort=1, garrison={"militia": 2})
    put_army(w, "Z", "a", hx(w, 2, 4), {"infantry": 10})
    given = _orders_of(_model(w), "a")
    assert any(isinstance(o, Move) and o.to == hx(w, 12, 4) for o in given)


def test_heuristic_returns_the_title_to_recover_the_compensation():
    w = make_world()
    put_domain(w, "LOST", "b", hx(w, 3, 4))
    w.gw.bank.deposits.append(Deposit("LOST", "b", 500, 0, former_owner="a", annexed_season=0, new_owner="Bob"))
    w.gw.bank.held = 500
    model = _model(w)
    w.now = 2160  # season A + 1
    given = _orders_of(model, "a")
    assert isinstance(given[0], ReturnTitle)


def test_heuristic_view_and_scores_are_recorded():
    w = make_world()
    put_domain(w, "HOME", "a", hx(w, 1, 1), garrison={"militia": 3})
    w.gw.guilds["a"].pool = {"infantry": 10}
    start_season(w, 0, Ledger())
    pol = make_policy("guild", "heuristic")
    legal = [*wf.legal_orders(w, "a"), END]
    d = pol.decide(GuildView(w, "a"), legal, random.Random(1))
    assert d.scored and d.scored[0][1] >= d.scored[-1][1]
    assert str(d.chosen) == d.scored[0][0]
