"""Kingdoms meeting caravans (LINK-04): a Trade edict's merchants travel as a convoy under the CV rules."""

from __future__ import annotations

import pytest

from agents.campaign import prepare_campaign
from scenarios.loader import load_scenario_text
from sim.calendar import HOURS_PER_MONTH
from sim.errors import ScenarioError
from sim.rules import links

LEADERS = ('{ ruler = "R", grand_diplomat = "G", treasurer = "T", councilor = "C", general = "G2", high_priest = "H", '
           'magister = "M", marshal = "Ma", spymaster = "S", warden = "W" }')
ROAD = ", ".join(f"[{i}, 0]" for i in range(20))

SCENARIO = f"""
[scenario]
name = "link4"
systems = ["km", "cv"]
duration = {{ months = 3 }}
#CONFIG
[map]
rows = ["PPPPPPPPPPPPPPPPPPPP", "PPPPPPPPPPPPPPPPPPPP"]
[[map.roads]]
path = [{ROAD}]
[[map.settlements]]
name = "Alpha"
at = [0, 0]
[[map.settlements]]
name = "Omega"
at = [19, 0]

[[kingdoms]]
id = "a"
alignment = "LG"
policy = "scripted"
capital = "Alpha"
treasury = 30
economy = 40
loyalty = 40
stability = 40
hexes = [[0, 0], [0, 1]]
leaders = {LEADERS}
#EXPEDITION
[[kingdoms.settlements]]
name = "Alpha"
buildings = {{ guildhall = 1 }}
[[kingdoms.orders]]
turn = 1
special = {{ edict = "trade", partner = "b", origin = "Alpha", destination = "Omega", type = "goods", investment = 10 }}

[[kingdoms]]
id = "b"
alignment = "NG"
policy = "scripted"
capital = "Omega"
treasury = 30
economy = 30
loyalty = 30
stability = 40
hexes = [[19, 0]]
leaders = {LEADERS}
[[kingdoms.settlements]]
name = "Omega"
"""


def model(config: str = "", expedition: str = ""):
    t = SCENARIO.replace("#CONFIG", config).replace("#EXPEDITION", expedition)
    return prepare_campaign(load_scenario_text(t, "link4.toml"))


@pytest.mark.rule("LINK-04", "KM-TRADE-06", "KM-TRADE-08", "RES-KM-21")
def test_the_merchants_travel_as_a_convoy_and_check_in_the_next_income_phase() -> None:
    m = model()
    m.run(1)
    w = m.world
    r = w.km.routes[0]
    c = w.cv.convoy(r.convoy)
    # a convoy at the origin's hex, k = 2 units of trade goods and provisions, pinned to the TRL path
    assert (c.hex, c.cargo, c.stops) == (0, {"trade_goods": 2}, list(range(1, 20)))
    assert c.path == list(range(0, 20)) and c.provisions > 0 and f"convoy:{c.id}" in m.by_key
    assert r.status == "travelling" and not [e for e in m.ledger.events if e.kind == "TradeCheckRolled"]
    m.run(HOURS_PER_MONTH)
    assert c.status == "arrived" and r.status == "travelling"  # arrived on day 8: no checks before the Income phase
    m.run(HOURS_PER_MONTH + 1)
    evs = [e for e in m.ledger.events if e.kind in ("TradeCaravanArrived", "TradeCheckRolled", "TaxesCollected")
           and e.actor == "kingdom:a"]
    assert [e.kind for e in evs][:5] == ["TaxesCollected", "TradeCaravanArrived", "TradeCheckRolled", "TradeCheckRolled",
                                         "TradeCheckRolled"]
    assert all(e.t == HOURS_PER_MONTH for e in evs[1:])
    # Economy, Loyalty and Stability 40 against a DC near 22: only natural 1s could fail (seeded dice)
    assert r.status == "established" and (r.arrival_turn, r.expiry_turn) == (1, 13)


@pytest.mark.rule("LINK-04", "CV-UNR-08", "KM-TRADE-09")
def test_trade_goods_lost_on_the_way_reduce_k_and_none_left_is_a_loss() -> None:
    m = model()
    m.run(1)
    w = m.world
    r = w.km.routes[0]
    c = w.cv.convoy(r.convoy)
    c.cargo["trade_goods"] = 1  # one unit lost on the way (or given to the crew)
    m.run(HOURS_PER_MONTH + 1)
    arr = [e for e in m.ledger.events if e.kind == "TradeCaravanArrived"][0]
    assert arr.total == 1
    est = [e for e in m.ledger.events if e.kind == "TradeRouteEstablished" and e.actor == "kingdom:a"]
    assert len(est) == 1 and len(est[0].dice) == 2  # 2k d4 with k = 1
    m2 = model()
    m2.run(1)
    r2 = m2.world.km.routes[0]
    m2.world.cv.convoy(r2.convoy).cargo.pop("trade_goods")
    fame = m2.world.km.kingdoms["a"].fame
    m2.run(HOURS_PER_MONTH + 1)
    assert r2.status == "lost" and m2.world.km.kingdoms["a"].fame == max(0, fame - 1)
    assert not [e for e in m2.ledger.events if e.kind == "TradeCheckRolled" and e.actor == "kingdom:a"]


@pytest.mark.rule("LINK-04")
def test_a_destroyed_or_late_caravan_loses_the_expedition_without_checks() -> None:
    from sim.dice import ScriptedDice
    from sim.rules import cv as cr

    m = model()
    m.run(1)
    w = m.world
    r = w.km.routes[0]
    c = w.cv.convoy(r.convoy)
    cr.destroy(c, m.ledger, "test", w.config.cv, ("CV-HAZ-01",))  # as a hazard would, on its first day
    w.now = m.ledger.now = HOURS_PER_MONTH
    links.caravan_arrivals(w, "a", ScriptedDice([]), m.ledger)
    lost = [e for e in m.ledger.events if e.kind == "TradeExpeditionLost"]
    assert r.status == "lost" and "destroyed" in lost[0].data["reason"] and lost[0].clauses == ("KM-TRADE-09", "LINK-04")
    m = model("[config.link]\nexpedition_max_days = 5\n")
    m.run(HOURS_PER_MONTH + 1)
    r = m.world.km.routes[0]
    lost = [e for e in m.ledger.events if e.kind == "TradeExpeditionLost"]
    assert r.status == "lost" and "more than 5 days" in lost[0].data["reason"]
    assert not [e for e in m.ledger.events if e.kind == "TradeCheckRolled" and e.actor == "kingdom:a"]


@pytest.mark.rule("LINK-04")
def test_expedition_template_and_a_route_no_caravan_can_travel() -> None:
    exp = ('expedition = { wagons = ["covered", "supply"], travelers = [{ id = "d", job = "driver", count = 2 }, '
           '{ id = "g", job = "guard" }], morale = 3 }')
    m = model(expedition=exp)
    m.run(1)
    c = m.world.cv.convoy(m.world.km.routes[0].convoy)
    assert [w.kind for w in c.wagons] == ["covered", "supply"] and [t.id for t in c.travelers] == ["d-1", "d-2", "g"]
    assert c.morale == 3
    with pytest.raises(ScenarioError, match=r"kingdoms\[0\]\.expedition\.wagons\[0\]: expected a wagon kind .*found \"cart\""):
        model(expedition='expedition = { wagons = ["cart"] }')
    # a Waterfront route across water: legal for a trade edict alone, not for a caravan
    t = SCENARIO.replace("#CONFIG", "").replace("#EXPEDITION", "")
    t = t.replace('rows = ["PPPPPPPPPPPPPPPPPPPP"', 'rows = ["PPPPPPPPPWWPPPPPPPPP"').replace(ROAD, "[0, 0], [1, 0]")
    t = t.replace("buildings = { guildhall = 1 }", "buildings = { guildhall = 1, waterfront = 1 }\nwater_border = true")
    with pytest.raises(ScenarioError, match=r"expected an order legal under LINK-04, found the merchant caravan cannot travel hex \[9, 0\] \(water\)"):
        prepare_campaign(load_scenario_text(t, "link4.toml")).run()
