"""Paths computed once (sim.paths): every kept answer is the answer of the plain Dijkstra
(``HexMap.least_cost_path``) — the same path, cost and ties — on random maps and question
sequences; a road built through ``HexMap.set_road`` is seen; the caches are keyed by content,
bounded, and forget a map that is freed. (A whole campaign checked answer by answer:
tests/link/test_realm_paths.py.)"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import paths
from sim.hexmap import TERRAIN_LETTERS, Hex, HexMap, mark_coasts
from sim.rules import km as E
from sim.rules.gw import core as gw_core
from tests.km.helpers import kingdom, world

# costs with ties everywhere: equal integers, and decimals whose float sums depend on their order
# (0.1 + 0.2 != 0.3), so a path that is cheapest in reals may lose by a rounding
COSTS = st.sampled_from([None, 1.0, 1.0, 1.0, 2.0, 0.1, 0.2, 0.3, 0.7])


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    paths.clear()
    yield
    paths.clear()


def open_map(w: int, h: int) -> HexMap:
    return HexMap(width=w, height=h, hexes=[Hex(terrain="plains") for _ in range(w * h)])


def grid(rows: list[str]) -> HexMap:
    hexes = [Hex(terrain=TERRAIN_LETTERS[c]) for r in rows for c in r]
    mark_coasts(hexes, len(rows[0]), len(rows))
    return HexMap(width=len(rows[0]), height=len(rows), hexes=hexes)


def reference(hm: HexMap, costs: list[float | None], a: int, b: int) -> tuple[list[int], float] | None:
    return hm.least_cost_path(a, b, lambda x, y: costs[y])


def test_ties_go_to_the_lower_hex_index() -> None:
    # 3×3, odd row shifted right: from [0,0] to [2,2] three 3-step paths cost the same —
    # 0 1 4 8 (E, SE, SE), 0 3 4 8 and 0 3 7 8; each hex's predecessor is its lowest-index
    # cheapest neighbour, so 8 comes from 4 (not 7) and 4 from 1 (not 3)
    hm = open_map(3, 3)
    table = paths.CostTable([1.0] * 9)
    assert table.path(hm.neighbor_table(), 0, 8) == ([0, 1, 4, 8], 3.0)
    # hex 1 dearer: through 3, and 8 still comes from 4
    table = paths.CostTable([1.0, 2.0] + [1.0] * 7)
    assert table.path(hm.neighbor_table(), 0, 8) == ([0, 3, 4, 8], 3.0)
    # the reference search agrees on both
    assert reference(hm, [1.0] * 9, 0, 8) == ([0, 1, 4, 8], 3.0)


def test_a_float_sum_decides_between_paths_equal_in_reals() -> None:
    # two 2-step routes from 0 to 4 on a 3×2 map: via 1 (0.1 then 0.2) and via 3 (0.2 then 0.1)
    # enter different hexes; both are 0.3 in reals and 0.30000000000000004 in floats, so the tie
    # goes to the lower index; a third hex at 0.3 flat wins outright where it is one step away
    hm = open_map(3, 2)
    costs: list[float | None] = [0.0, 0.1, None, 0.2, 0.2, 0.3]
    got = paths.CostTable(costs).path(hm.neighbor_table(), 0, 4)
    assert got == reference(hm, costs, 0, 4)
    assert got is not None and got[0] == [0, 1, 4] and got[1] == 0.1 + 0.2


def test_a_later_settled_predecessor_with_a_lower_index_takes_a_rounded_tie() -> None:
    # 2×3 map: 0 1 / 2 3 / 4 5. Into 4 (cost 0.2) from 2 (reached for 1.0) or from 5 (reached
    # 0→1→3→5 for 0.2 + 0.7 + 0.1 = 0.9999999999999999): 5 is settled first, but both sums round
    # to 1.2, so the tie goes to the lower index: 4 comes from 2
    hm = open_map(2, 3)
    costs: list[float | None] = [0.7, 0.2, 1.0, 0.7, 0.2, 0.1]
    assert paths.CostTable(costs).path(hm.neighbor_table(), 0, 4) == ([0, 2, 4], 1.2)
    assert reference(hm, costs, 0, 4) == ([0, 2, 4], 1.2)


def test_an_unreachable_goal_and_the_start_itself() -> None:
    hm = grid(["PWP", "PWP", "PWP"])
    costs = [None if h.is_water else 1.0 for h in hm.hexes]
    table = paths.CostTable(costs)
    assert table.path(hm.neighbor_table(), 0, 2) is None
    assert table.path(hm.neighbor_table(), 0, 2) is None  # asked again: the finished search says so
    assert table.path(hm.neighbor_table(), 0, 6) == reference(hm, costs, 0, 6)
    assert table.path(hm.neighbor_table(), 4, 4) == ([4], 0.0)


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_kept_searches_answer_any_sequence_of_questions_like_fresh_ones(data: st.DataObject) -> None:
    w, h = data.draw(st.integers(1, 8)), data.draw(st.integers(1, 8))
    n = w * h
    costs = data.draw(st.lists(COSTS, min_size=n, max_size=n))
    hm = open_map(w, h)
    table = paths.CostTable(costs)
    hexes = st.integers(0, n - 1)
    for a, b in data.draw(st.lists(st.tuples(hexes, hexes), min_size=1, max_size=15)):
        want = reference(hm, costs, a, b)
        assert table.path(hm.neighbor_table(), a, b) == want
        assert paths.search_once(hm.neighbor_table(), costs, a, b) == want


LETTERS = st.sampled_from("PPPDDHFWWS")


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_trade_and_march_paths_follow_the_roads_built_between_questions(data: st.DataObject) -> None:
    w, h = data.draw(st.integers(2, 7)), data.draw(st.integers(1, 6))
    n = w * h
    hm = grid(["".join(data.draw(st.lists(LETTERS, min_size=w, max_size=w))) for _ in range(h)])
    for i in data.draw(st.lists(st.integers(0, n - 1), max_size=4)):
        hm.hexes[i].river = True
    wd = world(hm, [kingdom("a", [0])])
    hexes = st.integers(0, n - 1)
    steps = st.one_of(
        st.tuples(st.just("trade"), hexes, hexes, st.booleans(), st.booleans()),
        st.tuples(st.just("march"), hexes, hexes),
        st.tuples(st.just("road"), hexes, st.sampled_from(["none", "road", "highway"])),
    )
    for step in data.draw(st.lists(steps, min_size=1, max_size=20)):
        if step[0] == "road":
            hm.set_road(step[1], step[2])
        elif step[0] == "trade":
            _, a, b, pier, wf_ = step

            def trade_cost(x: int, y: int, pier: bool = pier, wf_: bool = wf_) -> float | None:
                got = E.route_weight(wd, y, pier, wf_)
                return None if got is None else float(got[0])

            ref = hm.least_cost_path(a, b, trade_cost)
            assert E.trade_path(wd, a, b, pier, wf_) == (None if ref is None else ref[0][1:])
        else:
            _, a, b = step
            ref = hm.least_cost_path(a, b, lambda x, y: None if hm.hexes[y].is_water else 1.0)
            got = paths.cheapest_path(hm, a, b, "gw-march", lambda: gw_core._entry_costs(wd), terrain_only=True)
            assert got == ref


def test_a_built_road_changes_the_trade_path_and_keeps_the_terrain_tables() -> None:
    # plains cost 4 half-hexes, a road 2: a road on the lower row makes it the cheaper way round
    hm = grid(["PPPPP", "PPPPP"])
    wd = world(hm, [kingdom("a", [0])])
    before = E.trade_path(wd, 0, 4, False, False)
    assert before == [1, 2, 3, 4]
    march = paths.cheapest_path(hm, 0, 4, "gw-march", lambda: gw_core._entry_costs(wd), terrain_only=True)
    for i in (5, 6, 7, 8, 9):
        hm.set_road(i, "road")
    entry = paths._entry(hm)
    assert "gw-march" in entry.terrain_tables and not entry.road_tables
    assert E.trade_path(wd, 0, 4, False, False) == [5, 6, 7, 8, 4]
    assert paths.cheapest_path(hm, 0, 4, "gw-march", lambda: gw_core._entry_costs(wd), terrain_only=True) == march


def test_a_road_that_changes_no_cost_keeps_the_table_and_its_searches() -> None:
    # with a Pier, a river hex already weighs 2 half-hexes on a trade route, as a road does
    # (RES-KM-18): the patched table is the old one, kept searches and all; without a Pier the
    # same road makes that hex cheaper, and that table is patched into a new one
    hm = grid(["PPPPP", "PPPPP"])
    hm.hexes[2].river = True
    wd = world(hm, [kingdom("a", [0])])
    E.trade_path(wd, 0, 4, True, False)
    E.trade_path(wd, 0, 4, False, False)
    with_pier = paths._entry(hm).road_tables[("km-trade", True, False)]
    without = paths._entry(hm).road_tables[("km-trade", False, False)]
    hm.set_road(2, "road")
    E.trade_path(wd, 0, 4, True, False)
    E.trade_path(wd, 0, 4, False, False)
    assert paths._entry(hm).road_tables[("km-trade", True, False)] is with_pier and 0 in with_pier.searches
    patched = paths._entry(hm).road_tables[("km-trade", False, False)]
    assert patched is not without and patched.costs[2] == 2.0 and without.costs[2] == 4.0
    assert patched.costs[:2] + patched.costs[3:] == without.costs[:2] + without.costs[3:]


def test_hex_values_recompute_only_the_hexes_whose_road_changed() -> None:
    hm = grid(["PPPP", "PPPP"])
    asked: list[int] = []

    def speed(i: int) -> int:
        asked.append(i)
        return 2 if hm.hexes[i].road == "road" else 1

    assert paths.hex_values(hm, "speed", speed) == [1] * 8 and asked == list(range(8))
    asked.clear()
    assert paths.hex_values(hm, "speed", speed) == [1] * 8 and asked == []
    hm.set_road(5, "road")
    hm.set_road(6, "road")
    assert paths.hex_values(hm, "speed", speed) == [1, 1, 1, 1, 1, 2, 2, 1] and sorted(asked) == [5, 6]


def test_a_bad_road_kind_is_refused() -> None:
    with pytest.raises(ValueError, match=r"road kind 'motorway': expected one of none, trail, road, highway"):
        open_map(2, 1).set_road(0, "motorway")


def test_maps_with_the_same_content_share_tables_and_different_ones_do_not() -> None:
    a, b, c = grid(["PPPP", "PPPP"]), grid(["PPPP", "PPPP"]), grid(["PPPP", "PWPP"])

    def ones(hm: HexMap) -> list[float | None]:
        return [None if h.is_water else 1.0 for h in hm.hexes]

    for hm in (a, b, c):
        paths.cheapest_path(hm, 0, 7, "land", lambda hm=hm: ones(hm))  # type: ignore[misc]
    ta, tb, tc = (paths._entry(hm).road_tables["land"] for hm in (a, b, c))
    assert ta is tb and ta is not tc
    b.set_road(3, "road")  # b's content changes: it gets a table of its own
    paths.cheapest_path(b, 0, 7, "land", lambda: ones(b))
    assert paths._entry(b).road_tables["land"] is not ta


def test_the_caches_are_bounded_and_forget_freed_maps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "MAX_TABLES", 3)
    monkeypatch.setattr(paths, "MAX_SEARCHES", 4)
    hm = open_map(6, 6)
    for k in range(10):
        paths.cheapest_path(hm, 0, 35, ("k", k), lambda: [1.0] * 36)
    assert len(paths._TABLES) == 3
    table = paths._entry(hm).road_tables[("k", 9)]
    for start in range(10):
        table.path(hm.neighbor_table(), start, 35)
    assert sorted(table.searches) == [6, 7, 8, 9]  # the oldest starts went first
    # past MAX_KEPT_HEXES, every kept search is dropped (and answers stay the same)
    monkeypatch.setattr(paths, "MAX_KEPT_HEXES", 36 * 5)
    paths._drop_searches()
    for start in range(5):
        table.path(hm.neighbor_table(), start, 35)
    assert sorted(table.searches) == [1, 2, 3, 4]  # five begun, four kept: the table's own bound
    assert table.path(hm.neighbor_table(), 5, 35) == open_map(6, 6).least_cost_path(5, 35, lambda a, b: 1.0)
    assert sorted(table.searches) == [5]  # the sixth would pass the process's bound: all dropped first
    maps = [open_map(3, 3) for _ in range(5)]
    for m in maps:
        paths.cheapest_path(m, 0, 8, "x", lambda: [1.0] * 9)
    gc.collect()  # maps freed by earlier tests go first, so only these five are counted
    alive = len(paths._MAPS)
    del maps, m
    gc.collect()
    assert len(paths._MAPS) == alive - 5


def test_check_mode_catches_a_road_built_behind_the_caches_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "CHECK", True)
    hm = grid(["PPPPP", "PPPPP"])
    wd = world(hm, [kingdom("a", [0])])
    E.trade_path(wd, 0, 4, False, False)
    hm.hexes[6].road = "road"  # not through set_road
    with pytest.raises(AssertionError, match="stale .*km-trade.* cost table"):
        E.trade_path(wd, 0, 4, False, False)
