"""The modifiers of the diplomacy test (MN-MOD-01…08, RES-MN-09…12, RES-MN-18)."""

from __future__ import annotations

import pytest

from sim.config import MnConfig
from sim.dice import ScriptedDice
from sim.rules import mn as dip
from tests.mn.common import buy, make_world, post


def mods_at(mn, cfg, city: str, *, home: str = "Latium", gift: int = 0, renewal_of: int | None = None) -> dict[str, int]:  # noqa: ANN001
    return {m.clause: m.value for m in dip.test_modifiers(mn, cfg, "p1", home, city, gift, renewal_of)}


@pytest.mark.rule("MN-MOD-01", "RES-MN-09")
def test_racial_factor_of_the_ambassadors_home_province_towards_the_visited_people() -> None:
    mn, cfg, led = make_world(turn=5)
    assert mods_at(mn, cfg, "massalia") == {"MN-MOD-01": 5}  # RF(Latium, greeks)
    assert mods_at(mn, cfg, "carthago") == {"MN-MOD-01": 0}  # default 0
    mn.nations["p1"].provinces.append("Numidia")
    amb = dip.resolve_buy(mn, "p1", dip.BuyAmbassador("Numidia"), led, cfg)
    assert amb.home_province == "Numidia"
    mn.rf["Numidia"] = {"greeks": -150}  # not clamped
    assert mods_at(mn, cfg, "massalia", home="Numidia") == {"MN-MOD-01": -150}
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(amb.id, "massalia", "commercial"), led, cfg)
    mn.turn = 6
    r = dip.resolve_test(mn, m, ScriptedDice(["d100=1"]), led, cfg)
    assert r.score == 151 and r.band == "blunder"  # 1 - (-150)


@pytest.mark.rule("MN-MOD-02", "RES-MN-10")
def test_invaded_within_the_year_by_the_ambassadors_province() -> None:
    mn, cfg, led = make_world(turn=6)
    dip.record_invasion(mn, led, "Latium", "Attica", False)  # a greek province, not the visited one
    dip.record_invasion(mn, led, "Latium", "Campania", False)  # a second one: still -10 once
    dip.record_invasion(mn, led, "Latium", "Africa", True)  # repelled: not an invasion for MN-MOD-02
    for turn in (6, 7, 8, 9):  # the last 4 turns including the current one
        mn.turn = turn
        assert mods_at(mn, cfg, "massalia").get("MN-MOD-02") == -10
    mn.turn = 10
    assert "MN-MOD-02" not in mods_at(mn, cfg, "massalia")
    mn.turn = 6
    assert "MN-MOD-02" not in mods_at(mn, cfg, "carthago")  # punics: only a repulse there
    assert "MN-MOD-02" not in mods_at(mn, cfg, "rhodos")  # rhodians: nobody of theirs invaded
    assert "MN-MOD-02" not in mods_at(mn, cfg, "massalia", home="Achaea")  # another province invaded them
    short = MnConfig(turns_per_year=2)  # CFG mn.turns_per_year sets the windows
    mn.turn = 8
    assert "MN-MOD-02" not in mods_at(mn, short, "massalia")
    mn.turn = 7
    assert mods_at(mn, short, "massalia")["MN-MOD-02"] == -10


@pytest.mark.rule("MN-MOD-03", "MN-MOD-04", "RES-MN-10")
@pytest.mark.parametrize(
    ("turns_ago", "expected"),
    [(0, {"MN-MOD-04": -20}), (3, {"MN-MOD-04": -20}), (4, {"MN-MOD-03": -10}), (15, {"MN-MOD-03": -10}), (16, {})],
)
def test_repulses_within_the_year_or_the_four_years_do_not_stack(turns_ago: int, expected: dict) -> None:
    mn, cfg, led = make_world(turn=20 - turns_ago)
    dip.record_invasion(mn, led, "Latium", "Sicilia", True)
    mn.turn = 20
    got = {k: v for k, v in mods_at(mn, cfg, "syracusae").items() if k in ("MN-MOD-03", "MN-MOD-04")}
    assert got == expected
    if turns_ago < 4:  # another repulse ten turns ago changes nothing: -20 alone, not -20 and -10
        mn.turn = 10
        dip.record_invasion(mn, led, "Latium", "Sicilia", True)
        mn.turn = 20
        got = {k: v for k, v in mods_at(mn, cfg, "syracusae").items() if k in ("MN-MOD-03", "MN-MOD-04")}
        assert got == {"MN-MOD-04": -20}
    assert "MN-MOD-03" not in mods_at(mn, cfg, "massalia")  # a repulse by another province


@pytest.mark.rule("MN-MOD-03", "RES-MN-10")
def test_a_repulse_older_than_four_years_counts_no_more() -> None:
    mn, cfg, led = make_world(turn=4)
    dip.record_invasion(mn, led, "Latium", "Sicilia", True)
    mn.turn = 19
    assert mods_at(mn, cfg, "syracusae").get("MN-MOD-03") == -10
    mn.turn = 20
    assert mods_at(mn, cfg, "syracusae") == {"MN-MOD-01": 5}


@pytest.mark.rule("MN-MOD-05", "RES-MN-11")
def test_the_visited_province_just_repelled_an_enemy_of_the_ambassadors_province() -> None:
    mn, cfg, led = make_world(turn=5)
    dip.resolve_declare_war(mn, "nation:p2", dip.DeclareWar("nation:p1"), led, cfg)
    dip.record_invasion(mn, led, "Achaea", "Sicilia", True)  # p2 at war with p1 when Sicilia repels it
    dip.record_invasion(mn, led, "Achaea", "Gallia", False)  # not repelled: no bonus
    assert mods_at(mn, cfg, "syracusae")["MN-MOD-05"] == 10
    assert "MN-MOD-05" not in mods_at(mn, cfg, "massalia")
    mn.turn = 9
    assert "MN-MOD-05" not in mods_at(mn, cfg, "syracusae")  # no longer "just" (one-year window)
    mn2, cfg2, led2 = make_world(turn=5)
    dip.record_invasion(mn2, led2, "Achaea", "Sicilia", True)  # repelled while at peace
    dip.resolve_declare_war(mn2, "nation:p2", dip.DeclareWar("nation:p1"), led2, cfg2)
    assert "MN-MOD-05" not in mods_at(mn2, cfg2, "syracusae")  # enemies at the time of the repulse


@pytest.mark.rule("MN-MOD-06", "RES-MN-18", "RES-MN-13")
def test_renewal_bonus_from_eight_turns_of_embassy_age() -> None:
    mn, cfg, led = make_world(turn=10)
    a, e, t = post(mn, "p1", "massalia", kind="commercial", last_turn=10, installed=3)
    assert "MN-MOD-06" not in mods_at(mn, cfg, "massalia", renewal_of=e.id)  # age 7
    mn.turn = 11
    assert mods_at(mn, cfg, "massalia", renewal_of=e.id)["MN-MOD-06"] == 20  # installed in turn 3: from turn 11
    assert "MN-MOD-06" not in mods_at(mn, cfg, "massalia")  # only a renewal


@pytest.mark.rule("MN-MOD-07", "RES-MN-12")
def test_one_point_per_po_given() -> None:
    mn, cfg, led = make_world()
    assert mods_at(mn, cfg, "carthago", gift=37)["MN-MOD-07"] == 37
    assert "MN-MOD-07" not in mods_at(mn, cfg, "carthago", gift=0)


@pytest.mark.rule("MN-MOD-08", "MN-INT-01")
def test_interference_moves_the_score_by_minus_20_to_plus_20() -> None:
    for sign, face, score in [(1, 20, 70), (-1, 20, 30), (1, 1, 51), (-1, 1, 49)]:
        mn, cfg, led = make_world(turn=5)
        mn.rf = {}
        post(mn, "p2", "massalia")
        a = buy(mn, "p1")
        m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial"), led, cfg)
        mn.turn = 6
        r = dip.resolve_test(mn, m, ScriptedDice(["d100=50", f"d20={face}"]), led, cfg,
                             dip.ScriptedInterference({"p2": "+" if sign > 0 else "-"}))
        assert r.score == score
