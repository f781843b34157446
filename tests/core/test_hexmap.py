"""The hex map: odd-r offset layout, distances, least-cost paths."""

from __future__ import annotations

import pytest

from sim.hexmap import Hex, HexMap, mark_coasts


def grid(rows: list[str]) -> HexMap:
    from sim.hexmap import TERRAIN_LETTERS

    w, h = len(rows[0]), len(rows)
    hexes = [Hex(terrain=TERRAIN_LETTERS[c]) for r in rows for c in r]
    mark_coasts(hexes, w, h)
    return HexMap(width=w, height=h, hexes=hexes)


def test_neighbours_in_odd_r_layout() -> None:
    m = grid(["PPPP"] * 4)
    # even row 2, col 1: E (2,2) NE (1,1) NW (0,1) W (0,2) SW (0,3) SE (1,3)
    got = {m.coords(n) for n in m.neighbors(m.index(1, 2))}
    assert got == {(2, 2), (1, 1), (0, 1), (0, 2), (0, 3), (1, 3)}
    # odd row 1, col 1: E (2,1) NE (2,0) NW (1,0) W (0,1) SW (1,2) SE (2,2)
    got = {m.coords(n) for n in m.neighbors(m.index(1, 1))}
    assert got == {(2, 1), (2, 0), (1, 0), (0, 1), (1, 2), (2, 2)}
    # a corner has fewer
    assert {m.coords(n) for n in m.neighbors(0)} == {(1, 0), (0, 1)}
    assert m.coords(m.neighbor(m.index(1, 1), 0)) == (2, 1)  # E


def test_distance() -> None:
    m = grid(["PPPPPP"] * 6)
    assert m.distance(m.index(0, 0), m.index(0, 0)) == 0
    assert m.distance(m.index(0, 0), m.index(5, 0)) == 5
    assert m.distance(m.index(0, 0), m.index(0, 5)) == 5
    assert m.distance(m.index(0, 0), m.index(3, 5)) == 6  # 5 rows down drifts 2 columns for free
    for a in range(len(m)):
        for b in m.neighbors(a):
            assert m.distance(a, b) == 1


def test_least_cost_path_goes_around_water_and_is_deterministic() -> None:
    m = grid(["PPPPP", "PWWWP", "PPPPP"])

    def cost(a: int, b: int) -> float | None:
        return None if m.hexes[b].is_water else 1.0

    res = m.least_cost_path(m.index(0, 1), m.index(4, 1), cost)
    assert res is not None
    path, c = res
    assert path[0] == m.index(0, 1) and path[-1] == m.index(4, 1)
    assert all(not m.hexes[i].is_water for i in path)
    assert m.path_is_connected(path)
    assert c == len(path) - 1 == 5  # over the top row: the odd row is shifted right
    assert m.least_cost_path(m.index(0, 1), m.index(4, 1), cost) == res


def test_unreachable_goal() -> None:
    m = grid(["PWP", "PWP", "PWP"])
    assert m.least_cost_path(0, 2, lambda a, b: None if m.hexes[b].is_water else 1.0) is None


def test_coasts_are_land_next_to_water() -> None:
    m = grid(["PPP", "PWP", "PPP", "PPP"])
    assert m.hexes[m.index(1, 0)].coast and not m.hexes[m.index(0, 0)].coast and not m.hexes[m.index(1, 1)].coast
    assert not m.hexes[m.index(0, 3)].coast


def test_index_outside_map_is_a_clear_error() -> None:
    with pytest.raises(IndexError, match=r"hex \[9, 0\] is outside the 3×3 map"):
        grid(["PPP"] * 3).index(9, 0)
