"""Exploration edicts (KM-EXP, RES-KM-12…16, RES-KM-42)."""

from __future__ import annotations

import pytest

from sim.config import Config, KmConfig
from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import km as E
from sim.rules import km as K
from sim.state.km import Encounter, ExplorationEdict, HiddenFeature
from tests.km.helpers import grid, kinds, kingdom, ledger, ready, settle, world


def explorer_world(rows: list[str], *, config: Config | None = None, **kw: object):
    hm = grid(rows)
    a = kingdom("a", [0], treasury=30, explorers={"knowledge_geography": 2, "survival": 4, "stealth": 3}, **kw)
    w = world(hm, [a], config=config)
    settle(w, "a", "Cap", 0)
    ready(w, "a")
    return w, a


@pytest.mark.rule("KM-EXP-01", "KM-EXP-02", "RES-KM-12", "KM-EXP-03")
def test_explorers_paid_in_advance_map_hexes_that_can_then_be_claimed() -> None:
    w, a = explorer_world(["PPPPPP", "PPPPPP"])
    led = ledger()
    dice = ScriptedDice(["d4=2", "d4=3", "d4=1"])  # one 1d4 per contracted month, paid at once
    exp = E.resolve_special(w, "a", ExplorationEdict(months=3, route=[1, 2]), dice, led)
    assert exp.cost == 6 and a.treasury == 24
    assert [f for _, f in led.of_kind("ExplorationEdictIssued")[0].dice] == [2, 3, 1]
    E.run_expeditions(w, "a", ScriptedDice([]), led)
    assert w.km.explored(1) and w.km.explored(2)
    assert exp.status == "active"  # the contract runs three months; the explorers return when it ends
    for _ in range(2):
        w.km.turn += 1
        E.run_expeditions(w, "a", ScriptedDice([]), led)
    assert exp.status == "finished" and kinds(led)[-1] == "ExplorersReturned"
    K.claim_hex(w, "a", 1, led)  # explored: now claimable (SC-KM-13)
    assert 1 in a.hexes


@pytest.mark.rule("KM-EXP-02", "KM-EXP-03", "RES-KM-12")
def test_route_starts_at_or_next_to_the_capital_and_is_connected() -> None:
    w, a = explorer_world(["PPPPPP", "PPPPPP"])
    with pytest.raises(IllegalOrderError, match=r"RES-KM-12.*must start at or next to the capital \[0, 0\], not at \[3, 0\]"):
        E.check(w, "a", ExplorationEdict(months=1, route=[3]))
    with pytest.raises(IllegalOrderError, match=r"RES-KM-12.*route hex 1 \[4, 0\] is not next to \[1, 0\]"):
        E.check(w, "a", ExplorationEdict(months=1, route=[1, 4]))
    E.check(w, "a", ExplorationEdict(months=1, route=[0, 1]))  # starting at the capital is fine
    a.settlements, a.capital = [], None
    with pytest.raises(IllegalOrderError, match="KM-EXP-03.*no capital"):
        E.check(w, "a", ExplorationEdict(months=1, route=[1]))


@pytest.mark.rule("KM-EXP-04", "RES-KM-13", "SC-KM-33", "SC-KM-34")
def test_travel_hours_accumulate_over_explored_hexes_and_round_up() -> None:
    # capital [0,0]; route: explored plains [1,0] (5 h), explored plains [2,0] (5 h), explored forest [3,0] (8 h),
    # then unexplored hills [4,0] (1 day at 30 ft): 18 h of travel = days 1–3, hills explored on day 4
    w, a = explorer_world(["PPPFHP", "PPPPPP"])
    for h in (1, 2, 3):
        w.km.hex(h).explored = True
    led = ledger()
    dice = ScriptedDice(["d4=1"])
    E.resolve_special(w, "a", ExplorationEdict(months=1, route=[1, 2, 3, 4]), dice, led)
    E.run_expeditions(w, "a", dice, led)
    assert [(e.data["hex"], e.data["day"]) for e in led.of_kind("HexExplored")] == [([4, 0], 4)]


@pytest.mark.rule("KM-EXP-04", "RES-KM-13")
def test_partial_progress_is_kept_for_a_later_expedition() -> None:
    # a 3-day month: forest [1,0] 2 days, mountains [2,0] 3 days → 1 day of progress left in the mountains
    w, a = explorer_world(["PFMP", "PPPP"], config=Config(km=KmConfig(days_per_turn=3)))
    led = ledger()
    exp = E.resolve_special(w, "a", ExplorationEdict(months=1, route=[1, 2]), ScriptedDice(["d4=1"]), led)
    E.run_expeditions(w, "a", ScriptedDice([]), led)
    assert w.km.explored(1) and not w.km.explored(2) and w.km.hex(2).progress == 1
    assert exp.status == "finished"
    w.km.turn += 1
    ready(w, "a")
    led2 = ledger()
    E.resolve_special(w, "a", ExplorationEdict(months=1, route=[1, 2]), ScriptedDice(["d4=1"]), led2)
    E.run_expeditions(w, "a", ScriptedDice([]), led2)
    # day 1 crosses the explored forest (8 h); days 2–3 finish the mountains (2 more days)
    assert [(e.data["hex"], e.data["day"]) for e in led2.of_kind("HexExplored")] == [([2, 0], 3)]


@pytest.mark.rule("RES-KM-13", "SC-KM-33", "SC-KM-34")
def test_exploration_days_by_terrain_and_speed() -> None:
    # 30 ft: SC-KM-33 as printed (Marsh 3 days); other speeds: SC-KM-34 with Cavern as Mountain, Jungle as
    # Marsh, Water 2 days (OQ-KM-09)
    assert [E.explore_days(30, t) for t in ("plains", "hills", "forest", "desert", "marsh", "jungle", "mountains", "cavern", "water")] \
        == [1, 1, 2, 2, 3, 2, 3, 3, 2]
    assert [E.explore_days(20, t) for t in ("jungle", "cavern", "water", "moor", "tundra")] == [3, 4, 2, 3, 3]
    assert [E.explore_days(50, t) for t in ("water", "cavern")] == [2, 1]


@pytest.mark.rule("KM-EXP-05", "RES-KM-14")
def test_hidden_features_first_roll_finds_all_no_survival_roll() -> None:
    w, a = explorer_world(["PFPP", "PPPP"])
    w.km.hex(1).features = [HiddenFeature("cave", 15), HiddenFeature("lair", 16)]
    led = ledger()
    dice = ScriptedDice(["d4=1", "d20=14"])  # day 2: Knowledge 14 + 2 = 16 finds both; no Survival roll
    E.resolve_special(w, "a", ExplorationEdict(months=1, route=[1]), dice, led)
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    ev = led.of_kind("HiddenFeatureCheckRolled")
    assert [(e.mods[0][0], e.total, e.outcome) for e in ev] == [("Knowledge (geography)", 16, "found cave, lair")]


@pytest.mark.rule("KM-EXP-06", "KM-EXP-07", "RES-KM-15")
def test_encounters_stealth_success_non_hostile_hex_specific_and_pcs() -> None:
    w, a = explorer_world(["PPPPPP", "PPPPPP"])
    km = w.km
    km.encounters = [
        Encounter(day=1, cr=2, hostile=True),  # Stealth DC 14: 11 + 3 = 14 → nothing happens
        Encounter(day=2, cr=9, hostile=False),  # not hostile: met, no roll
        Encounter(day=3, cr=9, hex=5),  # only if the explorers are in [5, 0] that day: they are not
    ]
    led = ledger()
    dice = ScriptedDice(["d4=1", "d20=11"])
    E.resolve_special(w, "a", ExplorationEdict(months=1, route=[1, 2, 3, 4]), dice, led)
    E.run_expeditions(w, "a", dice, led)
    dice.assert_exhausted()
    st = led.of_kind("ExplorerStealthCheckRolled")[0]
    assert (st.dc, st.total, st.outcome) == (14, 14, "success")
    assert [e.data["day"] for e in led.of_kind("EncounterMet")] == [2]
    assert len(led.of_kind("HexExplored")) == 4
    # with the PCs along, hostile encounters are resolved outside the engine: the scenario states the result
    w.km.turn += 1
    ready(w, "a")
    km.encounters = [Encounter(day=1, cr=12, hostile=True, outcome="scattered")]
    led2 = ledger()
    exp = E.resolve_special(w, "a", ExplorationEdict(months=1, route=[6], pcs=True), ScriptedDice(["d4=1"]), led2)
    E.run_expeditions(w, "a", ScriptedDice([]), led2)
    assert kinds(led2)[1:] == ["EncounterResolvedByPCs", "ExplorersReturned"]
    assert exp.scattered_month == 1 and not led2.of_kind("ExplorerStealthCheckRolled")


@pytest.mark.rule("RES-KM-42", "RES-KM-16")
def test_month_m_runs_in_turn_t_plus_m_minus_1_in_the_edict_phase() -> None:
    from sim.state.km import TurnOrders

    w, a = explorer_world(["PPPPPPPP", "PPPPPPPP"], config=Config(km=KmConfig(days_per_turn=2)))
    led = ledger()
    o = TurnOrders(special=ExplorationEdict(months=2, route=[1, 2, 3, 4]))

    def fail(p, e):
        raise e

    E.apply_orders(w, "a", o, ScriptedDice(["d4=1", "d4=1"]), led, fail)
    E.end_edict_phase(w, "a", ScriptedDice([]), led)
    assert [e.data["day"] for e in led.of_kind("HexExplored")] == [1, 2]  # month 1 right after the edict
    w.km.turn += 1
    E.end_edict_phase(w, "a", ScriptedDice([]), led)
    assert [e.data["day"] for e in led.of_kind("HexExplored")] == [1, 2, 3, 4]  # month 2 in the next turn
    w.km.turn += 1
    n = led.count
    E.end_edict_phase(w, "a", ScriptedDice([]), led)
    assert led.count == n  # the contract is over
