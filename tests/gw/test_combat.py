"""Movement (GW-MOV), combat strength and damage (GW-CMB), turn order (GW-ORD), losses (GW-LOSS)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules import gw as wf
from sim.state.gw import AttackArmy, AttackDomain, Bonus, Move, Siege
from tests.gw.helpers import counts, hx, kinds, make_world, play, put_army, put_domain, start_season, units

# ---- movement ---------------------------------------------------------------------------------------


@pytest.mark.rule("GW-MOV-01", "RES-GW-05", "SC-GW-06")
def test_unit_speeds_are_10_15_or_20_hexes_per_season():
    w = make_world()
    cat = w.config.gw.units
    assert {k: cat[k].speed for k in sorted(cat)} == {
        "archer": 15, "cavalry": 20, "infantry": 10, "knight": 15, "militia": 10, "siege_engine": 10,
    }
    cav = put_army(w, "cav", "a", hx(w, 0, 0), {"cavalry": 3})
    led = play(w, 0, [Move(guild="a", army="cav", to=hx(w, 13, 5))])
    ev = led.of_kind("ArmyMoved")[0]
    # distance 16 < 20: the cavalry arrives; 1 per hex, the path is the least-cost one
    assert ev.outcome == "arrived" and ev.total == 16 and cav.hex == hx(w, 13, 5)
    assert w.map.path_is_connected(ev.data["path"]) and ev.data["speed"] == 20


@pytest.mark.rule("GW-MOV-02", "RES-GW-05")
def test_slowest_unit_sets_the_pace_and_water_is_impassable():
    w = make_world()
    a = put_army(w, "slow", "a", hx(w, 0, 0), {"cavalry": 3, "infantry": 1})
    led = play(w, 0, [Move(guild="a", army="slow", to=hx(w, 13, 5))])
    ev = led.of_kind("ArmyMoved")[0]
    assert ev.total == 10 and ev.outcome == "under way" and ev.data["speed"] == 10
    assert w.map.distance(hx(w, 0, 0), a.hex) == 10
    assert not any(w.map.hexes[h].is_water for h in ev.data["path"])
    start_season(w, 1, Ledger())
    with pytest.raises(IllegalOrderError, match=r"RES-GW-05: hex \[5,2\] is water"):
        wf.check(w, "a", Move(guild="a", army="slow", to=hx(w, 5, 2)))
    # around the water wall: the path from [4,2] to [6,2] detours (3 steps, not 2)
    b = put_army(w, "b1", "b", hx(w, 4, 2), {"infantry": 1})
    path = wf.march_path(w, b, hx(w, 6, 2))
    assert len(path) - 1 == 3 and hx(w, 5, 2) not in path


@pytest.mark.rule("RES-GW-27")
def test_one_move_and_one_action_per_army_and_the_target_must_be_there_after_moving():
    w = make_world()
    put_domain(w, "F", "c", hx(w, 10, 2), fort=1, garrison={"militia": 1})
    put_army(w, "N", "a", hx(w, 8, 2), {"infantry": 5})
    led = Ledger()
    start_season(w, 0, led)
    with pytest.raises(IllegalOrderError, match=r"RES-GW-27: domain F is not in the army's hex \[8,2\] after movement"):
        wf.check(w, "a", Siege(guild="a", army="N", domain="F"))
    wf.give_order(w, Move(guild="a", army="N", to=hx(w, 10, 2)), led)
    with pytest.raises(IllegalOrderError, match="RES-GW-27: army N already has a Move order this season"):
        wf.check(w, "a", Move(guild="a", army="N", to=hx(w, 9, 2)))
    wf.give_order(w, Siege(guild="a", army="N", domain="F"), led)
    with pytest.raises(IllegalOrderError, match="RES-GW-27: army N already has a siege order this season"):
        wf.check(w, "a", AttackDomain(guild="a", army="N", domain="F"))


# ---- strength, bonuses, fortification ----------------------------------------------------------------


@pytest.mark.rule("GW-CMB-02", "GW-CMB-03", "RES-GW-07", "SC-GW-07")
def test_bonuses_cap_at_plus_one_but_fortification_adds_on_top():
    w = make_world()
    cfg = w.config.gw
    assert cfg.fortifications == [0, 1, 2, 3, 4] and cfg.keep_level == 2
    (u,) = units(w, {"infantry": 1}, bonuses={"infantry": [("sépium", 1), ("magie", 1), ("croyances", 2)]})
    assert wf.capped_bonus(u, cfg) == 1
    assert wf.effective_cs(u, cfg) == 3
    assert wf.effective_cs(u, cfg, fort=4) == 7  # citadel +4 is not capped
    dom = put_domain(w, "K", "c", hx(w, 10, 2), fort=3, garrison={"militia": 2}, bonuses={"militia": [("l'occulte", 1)]})
    assert wf.garrison_strength(w, dom) == 2 * (1 + 1 + 3)
    assert wf.garrison_strength(w, dom, fort=False) == 2 * 2


@pytest.mark.rule("GW-CMB-01", "RES-GW-06", "GW-ORD-02", "RES-GW-11")
def test_garrison_joins_its_owners_front_on_the_domain_hex_and_takes_damage_last():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "DC", "c", h, fort=1, garrison={"infantry": 3})
    put_army(w, "A1", "a", h, {"infantry": 10})
    put_army(w, "C1", "c", h, {"militia": 4})
    led = play(w, 0, [AttackArmy(guild="a", army="A1", target="C1")], ScriptedDice(["1d6=1"]))
    b = led.of_kind("BattleFought")[0]
    # C's front: 4 militia (4) + the garrison of its domain, 3 infantry with palisade +1 (9)
    assert (b.data["attacker_strength"], b.data["defender_strength"]) == (20, 13)
    assert b.data["defender_garrison"] == "DC"
    # 20 damage: the army first (4), then the garrison (3 × 3 = 9) — all destroyed, 7 left over
    assert "C1" not in w.gw.armies and w.gw.domains["DC"].garrison == []
    # A1 takes 13: six infantry (12) and 1 point on the seventh
    assert len(b.data["attackers_lost"]) == 6
    assert w.gw.loot[0].value == 13 * 1 * 10  # 4 + 3 + 6 destroyed on the hex


@pytest.mark.rule("GW-CMB-01", "RES-GW-06")
def test_garrison_stays_out_of_a_battle_of_other_guilds():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "DE", "e", h, fort=2, garrison={"infantry": 10})
    put_army(w, "A1", "a", h, {"infantry": 3})
    put_army(w, "C1", "c", h, {"infantry": 2})
    led = play(w, 0, [AttackArmy(guild="a", army="A1", target="C1")])
    b = led.of_kind("BattleFought")[0]
    assert (b.data["attacker_strength"], b.data["defender_strength"]) == (6, 4)
    assert b.data["attacker_garrison"] is None and b.data["defender_garrison"] is None
    assert len(w.gw.domains["DE"].garrison) == 10


@pytest.mark.rule("GW-CMB-04", "RES-GW-08")
def test_simultaneous_exchange_both_strengths_before_damage():
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "A1", "a", h, {"infantry": 4})
    put_army(w, "B1", "b", h, {"infantry": 4})
    led = play(w, 0, [AttackArmy(guild="a", army="A1", target="B1")])
    b = led.of_kind("BattleFought")[0]
    # both deal 8 even though each is wiped out by the other
    assert (b.data["attacker_strength"], b.data["defender_strength"]) == (8, 8)
    assert "A1" not in w.gw.armies and "B1" not in w.gw.armies
    assert sorted(b.data["armies_destroyed"]) == ["A1", "B1"]


@pytest.mark.rule("GW-CMB-05", "RES-GW-09", "RES-GW-08")
def test_leftover_damage_lowers_later_combats_then_clears_at_season_end():
    w = make_world(alliances='alliances = [["a", "b"]]')
    h = hx(w, 7, 4)
    put_army(w, "K", "c", h, {"knight": 1})
    put_army(w, "A1", "a", h, {"militia": 1})
    put_army(w, "B1", "b", h, {"militia": 2})
    # two separate fronts? a and b are allied: one front of 3 militia would kill the knight.
    # Attack it with A1 alone first, then see the knight's effective CS in the season's next combat.
    led = Ledger()
    start_season(w, 0, led)
    wf.give_order(w, AttackArmy(guild="a", army="A1", target="K"), led)
    for ph in ("deploy", "move", "siege", "army_combats"):
        wf.PHASE_FUNCTIONS[ph](w, ScriptedDice([]), led)
    knight = w.gw.armies["K"].units[0]
    assert knight.damage == 1 and wf.effective_cs(knight, w.config.gw) == 1  # 1 damage on a 2-CS knight
    res = wf.fight(w, [w.gw.armies["B1"]], [w.gw.armies["K"]], attacker_garrison=None, defender_garrison=None,
                   hex_=h, ledger=led, kind="BattleFought", clauses=("GW-CMB-05",), target="K")
    assert res.defender_strength == 1  # the knight fights at 1 for the rest of the season
    assert "K" not in w.gw.armies


@pytest.mark.rule("GW-CMB-05", "RES-GW-09")
def test_the_seeds_knight_example():
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "K", "c", h, {"knight": 1})
    put_army(w, "A1", "a", h, {"militia": 1})
    play(w, 0, [AttackArmy(guild="a", army="A1", target="K")])
    (knight,) = w.gw.armies["K"].units
    assert knight.damage == 0 and wf.effective_cs(knight, w.config.gw) == 2


@pytest.mark.rule("GW-LOSS-01", "GW-LOSS-02", "RES-GW-13", "SC-GW-06")
def test_loss_order_rank_then_effective_cs_then_id():
    w = make_world()
    cfg = w.config.gw
    assert [k for k in sorted(cfg.units, key=lambda k: cfg.units[k].loss_rank)] == [
        "militia", "infantry", "archer", "cavalry", "knight", "siege_engine",
    ]
    us = units(w, [("knight", 1), ("infantry", 2), ("militia", 1)], bonuses={})
    us[1].bonuses = [Bonus("sépium", 1)]  # infantry #2: effective 3, the other infantry 2
    order = wf.loss_order(us, cfg)
    assert [(u.kind, wf.effective_cs(u, cfg)) for u in order] == [("militia", 1), ("infantry", 2), ("infantry", 3), ("knight", 2)]
    # exactly the army's strength (1 + 2 + 3 + 2 = 8) destroys every unit
    lost, left = wf.apply_damage(us, 8, cfg)
    assert len(lost) == 4 and us == [] and left == 0


@pytest.mark.rule("GW-LOSS-01", "GW-LOSS-02", "RES-GW-13")
def test_less_damage_than_strength_keeps_the_army():
    w = make_world()
    us = units(w, {"militia": 2, "infantry": 2})
    lost, left = wf.apply_damage(us, 5, w.config.gw)
    assert [u.kind for u in lost] == ["militia", "militia", "infantry"] and left == 0
    assert counts(us) == {"infantry": 1} and us[0].damage == 1


@pytest.mark.rule("GW-ORD-02", "RES-GW-11", "RES-GW-06")
def test_allied_front_takes_damage_strongest_army_first():
    w = make_world(alliances='alliances = [["a", "b"]]')
    h = hx(w, 7, 4)
    put_army(w, "A1", "a", h, {"infantry": 3})  # 6
    put_army(w, "B1", "b", h, {"infantry": 4})  # 8
    put_army(w, "C1", "c", h, {"infantry": 4, "militia": 1})  # 9
    led = play(w, 0, [AttackArmy(guild="a", army="A1", target="C1"), AttackArmy(guild="b", army="B1", target="C1")])
    (b,) = led.of_kind("BattleFought")
    assert b.data["attackers"] == ["A1", "B1"] and (b.data["attacker_strength"], b.data["defender_strength"]) == (14, 9)
    # 9 damage: B1 (the stronger, 8) is destroyed first, the last point lands on A1's first infantry
    assert "B1" not in w.gw.armies and "C1" not in w.gw.armies
    a1 = w.gw.armies["A1"]
    assert led.of_kind("DamageCleared")[0].total == 1 and len(a1.units) == 3


@pytest.mark.rule("RES-GW-06", "RES-GW-12")
def test_unallied_attackers_fight_separate_combats():
    w = make_world()
    h = hx(w, 7, 4)
    put_army(w, "A1", "a", h, {"infantry": 3})  # 6
    put_army(w, "B1", "b", h, {"infantry": 4})  # 8
    put_army(w, "C1", "c", h, {"infantry": 6})  # 12
    led = play(w, 0, [AttackArmy(guild="a", army="A1", target="C1"), AttackArmy(guild="b", army="B1", target="C1")],
               ScriptedDice(["1d6=3"]))
    first, second = led.of_kind("BattleFought")
    assert first.data["attackers"] == ["B1"] and (first.data["attacker_strength"], first.data["defender_strength"]) == (8, 12)
    # C1 lost 4 infantry to B1; A1's combat sees what is left (2 infantry = 4)
    assert second.data["attackers"] == ["A1"] and (second.data["attacker_strength"], second.data["defender_strength"]) == (6, 4)
    assert "C1" not in w.gw.armies and "B1" not in w.gw.armies
    assert kinds(led).count("BattleFought") == 2
    assert counts(w.gw.armies["A1"].units) == {"infantry": 1}
    assert w.gw.loot[0].value == 12 * 3 * 10  # 4 + 4 + 2 + 2 destroyed on the hex


@pytest.mark.rule("GW-ORD-03", "RES-GW-12", "GW-ATK-03")
def test_army_combats_come_before_attacks_on_garrisons():
    w = make_world()
    h = hx(w, 10, 2)
    put_domain(w, "DC", "c", h, fort=1, garrison={"militia": 2})
    put_army(w, "A1", "a", h, {"infantry": 30})  # the strongest, attacking the domain
    put_army(w, "B1", "b", h, {"infantry": 2})
    put_army(w, "C1", "c", hx(w, 11, 2), {"infantry": 3})
    led = play(w, 0, [AttackDomain(guild="a", army="A1", domain="DC"), Move(guild="c", army="C1", to=h),
                      AttackArmy(guild="c", army="C1", target="B1")], ScriptedDice(["1d6=1"]))
    ks = [k for k in kinds(led) if k in ("BattleFought", "DomainAttacked")]
    assert ks == ["BattleFought", "DomainAttacked"]
    atk = led.of_kind("DomainAttacked")[0]
    # the garrison defends by itself and C1 (an army of the owner on the hex) joins it
    assert atk.data["defenders"] == ["C1"] and atk.data["defender_garrison"] == "DC"
