"""Interference by foreign embassies (MN-INT-01/02, RES-MN-16)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.rules import mn as dip
from sim.state.mn import Nation
from tests.mn.common import buy, make_world, post


class Recorder:
    """Interferes with fixed signs and remembers what each nation knew when it decided."""

    def __init__(self, signs: dict[str, int]) -> None:
        self.signs = signs
        self.seen: list[tuple[str, int, int, list]] = []

    def interfere(self, nation: str, ctx: dip.InterferenceContext) -> bool:
        self.seen.append((nation, ctx.natural, ctx.score, list(ctx.earlier)))
        return nation in self.signs

    def sign(self, nation: str, ctx: dip.InterferenceContext, d20: int) -> int:
        return self.signs[nation]


def _three_nations():  # noqa: ANN202
    mn, cfg, led = make_world(turn=5)
    mn.cities["thebae"] = mn.cities["athenae"].__class__("thebae", "Thebae", "Boeotia", "p3")
    mn.provinces["Boeotia"] = mn.provinces["Achaea"].__class__("Boeotia", "greeks", ["wheat"], None, "thebae")
    mn.nations["p3"] = Nation("p3", "P3", "thebae", ["Boeotia"], 200)
    mn.rf = {}
    return mn, cfg, led


@pytest.mark.rule("RES-MN-16", "MN-INT-01", "MN-MOD-08")
def test_each_foreign_embassy_may_interfere_once_in_ascending_id_knowing_the_die() -> None:
    mn, cfg, led = _three_nations()
    post(mn, "p3", "massalia")
    post(mn, "p2", "massalia")
    post(mn, "p2", "massalia")  # two ambassadors of p2 there: p2 still interferes once
    post(mn, "p1", "massalia")  # the negotiating nation's own embassy never interferes in its test
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    rec = Recorder({"p2": 1, "p3": -1})
    dice = ScriptedDice(["d100=40", "d20=9", "d20=4"])
    r = dip.resolve_test(mn, m, dice, led, cfg, rec)
    dice.assert_exhausted()
    assert [s[0] for s in rec.seen] == ["p2", "p3"]
    assert rec.seen[0][1:] == (40, 40, [])
    assert rec.seen[1][1:] == (40, 49, [("p2", 9, 1)])  # p3 knows the d100 and p2's interference
    assert r.score == 45 and r.interference == [("p2", 9, 1), ("p3", 4, -1)]
    assert [e.actor for e in led.of_kind("InterferenceRolled")] == ["nation:p2", "nation:p3"]


@pytest.mark.rule("RES-MN-16", "MN-INT-01")
def test_a_nation_may_abstain_and_no_die_is_drawn() -> None:
    mn, cfg, led = _three_nations()
    post(mn, "p2", "massalia")
    post(mn, "p3", "massalia")
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    dice = ScriptedDice(["d100=40", "d20=3"])
    r = dip.resolve_test(mn, m, dice, led, cfg, Recorder({"p3": 1}))
    dice.assert_exhausted()
    assert r.score == 43 and r.interference == [("p3", 3, 1)]


@pytest.mark.rule("MN-INT-02", "RES-MN-16", "MN-EMB-01")
def test_a_20_applies_and_expels_the_meddling_ambassador_whose_embassy_closes() -> None:
    """MN-INT-02 / RES-MN-16: the meddling ambassador is expelled and his embassy closes, which ends
    every treaty his nation has with that province (MN-EMB-01); its other ambassador in the city
    stays at his post (the old engine closed all of the nation's embassies there)."""
    mn, cfg, led = _three_nations()
    b1, e1, t1 = post(mn, "p2", "massalia", kind="commercial")
    b2, e2, t2 = post(mn, "p2", "massalia", kind="alliance")
    _, e_other, t_other = post(mn, "p2", "neapolis", kind="commercial")
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=25", "d20=20"]), led, cfg, Recorder({"p2": -1}))
    assert (r.band, r.score) == ("very_warm", 5)  # the -20 still applies: 25 - 20 = 5
    assert a.state == "at_post"
    assert led.of_kind("InterferenceRolled")[0].data["ambassador"] == b1.id  # the oldest embassy's
    assert led.of_kind("AmbassadorExpelled")[0].data["ambassador"] == b1.id
    assert e1 not in mn.embassies and b1.state == "travelling"
    assert e2 in mn.embassies and b2.state == "at_post"  # his colleague stays
    assert t1 not in mn.treaties and t2 not in mn.treaties  # MN-EMB-01: every treaty with the province ends
    assert e_other in mn.embassies and t_other in mn.treaties  # elsewhere untouched
    assert mn.stats.plots_discovered == 1


@pytest.mark.rule("RES-MN-16", "MN-HOST-01")
def test_no_interference_at_a_players_city() -> None:
    mn, cfg, led = _three_nations()
    post(mn, "p3", "corinthus")
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "corinthus", "commercial"), led, cfg)
    mn.turn = 6
    rec = Recorder({"p3": 1})
    dip.resolve_host_choice(mn, "p2", dip.HostChoice(m.id, "accept"), led, cfg)
    assert rec.seen == [] and not led.of_kind("InterferenceRolled")
