"""Scores per faction (sim.scoring, docs/scoring.md): hand-computed values on small worlds, and the
order of obviously better and worse states. Every expected number below is worked out by hand in the
comment next to it, from the formulas of docs/scoring.md."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.config import Config
from sim.rules.cv import score_convoy
from sim.rules.gw import score_guild
from sim.rules.km import expected_tax, score_kingdom, upkeep_odds
from sim.rules.mn import score_nation
from sim.scores import reserve_value
from sim.scoring import score_all, score_of
from sim.state.cv import TICKS_PER_MILE
from sim.state.km import Leader
from sim.world import World, copy_world
from tests.cv import helpers as cvh
from tests.gw import helpers as gwh
from tests.km import helpers as kmh
from tests.mn import common as mnh

# ---- kingdoms ------------------------------------------------------------------------------------


def small_kingdom(treasury: int = 50, **kw: object) -> World:
    """Three plains hexes; a settlement (1 district) with a Smithy on hex 0, a Farm on hex 1; every
    leader in place; base Economy/Loyalty/Stability 10; Holiday none (Loyalty −1), Promotion none
    (Stability −1), Taxation normal (Economy +2, Loyalty −2).

    Sheet: Economy 10 + 2 + 1 (Smithy) = 13; Loyalty 10 − 1 − 2 = 7; Stability 10 − 1 + 1 = 10;
    Size 3; Control DC 20 + 3 + 1 district = 24; Consumption 3 − 2 (Farm) = 1."""
    k = kmh.kingdom("a", [0, 1, 2], treasury=treasury, **kw)
    w = kmh.world(kmh.plains(5, 1), [k])
    kmh.settle(w, "a", "Alpha", 0, buildings={"smithy": 1})
    k.improvements = {1: ["farm"]}
    return w


def test_expected_tax_enumerates_the_d20() -> None:
    k = kmh.kingdom("a", [0])
    # Economy 4: totals 5..24 → floor(/3) 1,2,2,2,3,3,3,4,4,4,5,5,5,6,6,6,7,7,7,8 → 90 / 20
    assert expected_tax(k, 4) == Fraction(90, 20)
    # Unrest 2: totals 3..22 → 1×3, 2×3, 3×3, 4×3, 5×3, 6×3, 7×2 = 77 → 77 / 20
    k.unrest = 2
    assert expected_tax(k, 4) == Fraction(77, 20)
    # a very negative Economy collects nothing, never less (RES-KM-48)
    assert expected_tax(k, -40) == 0


def test_no_taxes_in_anarchy_or_without_a_treasurer() -> None:
    k = kmh.kingdom("a", [0], anarchy=True)
    assert expected_tax(k, 20) == 0
    k = kmh.kingdom("a", [0])
    del k.leaders["treasurer"]
    assert expected_tax(k, 20) == 0


def test_upkeep_odds_of_the_stability_check() -> None:
    k = kmh.kingdom("a", [0])
    # Stability 10 vs DC 25: success on 15..20 (6), failure by 1–4 on 11..14 (4), by 5+ on 1..10 (10)
    assert upkeep_odds(k, 10, 25) == (Fraction(6, 20), Fraction(4, 20), Fraction(10, 20))
    # Stability 0 vs DC 30: only a natural 20 succeeds; every other face fails by 10 or more
    assert upkeep_odds(k, 0, 30) == (Fraction(1, 20), Fraction(0), Fraction(19, 20))
    # Stability 30 vs DC 21: a natural 1 still fails (SC-KM-03), by less than 5
    assert upkeep_odds(k, 30, 21) == (Fraction(19, 20), Fraction(1, 20), Fraction(0))


def test_reserve_value_counts_money_above_the_reserve_at_half() -> None:
    assert reserve_value(100, 180, 0.5) == 100
    assert reserve_value(500, 180, 0.5) == 180 + 160
    assert reserve_value(-30, 180, 0.5) == -30


def test_kingdom_score_by_hand() -> None:
    s = score_kingdom(small_kingdom(), "a")
    # taxes: Economy 13 → totals 14..33 → 4 + 5×3 + 6×3 + 7×3 + 8×3 + 9×3 + 10×3 + 11 = 150 / 20 = 7.5 a month
    # upkeep: Stability 10 vs DC 24: success 14..20 (7), fail by 1–4 10..13 (4), by 5+ 1..9 (9)
    #   expected Unrest a month 4/20 + 9/20 × 2.5 = 1.325
    assert s.terms_dict() == {
        "treasury": 50.0,  # 50 BP, below the reserve 2 × 90
        "income": 90.0,  # 12 × 7.5
        "consumption": -12.0,  # 12 × Consumption 1
        "size": 45.0,  # 3 hexes × 15
        "holdings": 4.5,  # ½ × (Smithy 6 + a plains district 1 + a plains Farm 2)
        "upkeep": -63.6,  # 12 × 1.325 × 4
        "recurring_unrest": 0.0,
        "unrest": 0.0,
        "anarchy": 0.0,
        "fame": 0.0,
        "relations": 0.0,
        "expeditions": 0.0,
        "vassals": 0.0,
    }
    assert s.total == 113.9
    assert s.metrics == {"income_year": 90.0, "treasury_years": 0.56, "upkeep_success": 0.35, "anarchy": 0}
    assert (s.key, s.kind, s.unit, s.policy) == ("kingdom:a", "kingdom", "BP", "heuristic")
    assert s.label("income", "fr") == "Revenu"


def test_kingdom_treasury_above_two_years_of_income_counts_half() -> None:
    s = score_kingdom(small_kingdom(treasury=500), "a")
    assert s.term("treasury") == 180 + (500 - 180) / 2  # reserve 2 × 90 BP
    assert s.metrics["treasury_years"] == 5.56  # 500 / 90


def test_kingdom_unrest_anarchy_and_recurring_unrest_by_hand() -> None:
    w = small_kingdom()
    k = w.km.kingdoms["a"]  # type: ignore[union-attr]
    k.unrest = 12
    del k.leaders["spymaster"]  # SC-KM-23: Economy −4, Unrest +1 each Upkeep
    k.loyalty = -20  # Loyalty 7 − 30 → negative: Unrest +1 each Upkeep (SC-KM-12)
    s = score_kingdom(w, "a")
    assert s.term("unrest") == -(12 * 4 + 2 * 10)  # 2 points above 10
    assert s.term("recurring_unrest") == -12 * 4 * 2  # one negative attribute, one vacancy
    k.anarchy = True
    s = score_kingdom(w, "a")
    assert s.term("anarchy") == -100
    assert s.term("income") == 0  # no taxes in anarchy
    # in anarchy only a natural 20 passes the Upkeep check, every failure is by 5 or more: 19/20 × 2.5
    assert s.term("upkeep") == pytest.approx(-12 * 4 * 19 / 20 * 2.5)


def test_a_kingdom_without_hexes_skips_upkeep_and_consumption() -> None:
    w = small_kingdom()
    k = w.km.kingdoms["a"]  # type: ignore[union-attr]
    k.hexes, k.settlements, k.improvements = [], [], {}
    s = score_kingdom(w, "a")
    assert (s.term("consumption"), s.term("upkeep"), s.term("size")) == (0, 0, 0)
    assert s.metrics["upkeep_success"] is None


def test_kingdom_relations_expeditions_and_vassals() -> None:
    w = small_kingdom()
    km = w.km
    assert km is not None
    km.kingdoms["b"] = kmh.kingdom("b", [3])
    km.kingdoms["v"] = kmh.kingdom("v", [4], overlord="a")
    km.relation("a", "b").embassy = True
    from sim.state.km import Agreement, Expedition

    km.relation("a", "b").treaty = Agreement("treaty")
    km.expeditions.append(Expedition(1, "a", 1, [2, 3], 1, 0, cost=7))
    s = score_kingdom(w, "a")
    assert s.term("relations") == 20  # an embassy 10 + a treaty 10
    assert s.term("expeditions") == 7
    assert s.term("vassals") == 5  # Size 1 × 5


class TestKingdomOrder:
    """Obviously better states score higher."""

    def total(self, w: World) -> float:
        return score_kingdom(w, "a").total

    def test_less_unrest_is_better(self) -> None:
        calm, restless = small_kingdom(), small_kingdom()
        restless.km.kingdoms["a"].unrest = 5  # type: ignore[union-attr]
        assert self.total(calm) > self.total(restless)

    def test_anarchy_is_worse_than_high_unrest(self) -> None:
        a, b = small_kingdom(), small_kingdom()
        a.km.kingdoms["a"].unrest = 19  # type: ignore[union-attr]
        b.km.kingdoms["a"].unrest = 20  # type: ignore[union-attr]
        b.km.kingdoms["a"].anarchy = True  # type: ignore[union-attr]
        assert self.total(a) > self.total(b)

    def test_a_surer_upkeep_check_is_better(self) -> None:
        shaky, steady = small_kingdom(), small_kingdom()
        steady.km.kingdoms["a"].stability += 6  # type: ignore[union-attr]
        assert self.total(steady) > self.total(shaky)

    def test_building_beats_hoarding_a_full_treasury(self) -> None:
        hoard, build = small_kingdom(treasury=1000), small_kingdom(treasury=1000 - 34)
        alpha = build.km.kingdoms["a"].settlements[0]  # type: ignore[union-attr]
        alpha.buildings["guildhall"] = 1  # 34 BP: Economy +2, Loyalty +2
        assert self.total(build) > self.total(hoard)

    def test_losing_the_capital_is_worse(self) -> None:
        whole, beaten = small_kingdom(), small_kingdom()
        k = beaten.km.kingdoms["a"]  # type: ignore[union-attr]
        k.hexes.remove(0)
        k.settlements.clear()
        assert self.total(whole) > self.total(beaten)

    def test_debt_is_worse_than_a_small_treasury(self) -> None:
        assert self.total(small_kingdom(treasury=5)) > self.total(small_kingdom(treasury=-5))

    def test_a_vacant_ruler_is_worse(self) -> None:
        full, vacant = small_kingdom(), small_kingdom()
        del vacant.km.kingdoms["a"].leaders["ruler"]  # type: ignore[union-attr]
        assert self.total(full) > self.total(vacant)
        vacant.km.kingdoms["a"].leaders["ruler"] = Leader("Back")  # type: ignore[union-attr]
        assert self.total(full) == self.total(vacant)


# ---- nations -------------------------------------------------------------------------------------


def small_nations(turn: int = 5, treasury: int = 200) -> World:
    mn, _cfg, _led = mnh.make_world(turn, treasury=treasury)
    return World(scenario="t", seed=1, start=0, end=10**7, now=0, systems=["mn"], config=Config(), map=kmh.plains(1, 1), mn=mn)


def test_nation_score_by_hand() -> None:
    # p1: Latium (grain, wine), no other nation produces either → 2 monopolies: 20 + 10 × (2 + 2) = 60 PO a turn
    s = score_nation(small_nations(), "p1")
    assert s.terms_dict() == {
        "treasury": 200.0,  # below the reserve 2 × 240
        "provinces": 80.0,  # 4 turns × 1 province × 20
        "resources": 160.0,  # 4 turns × 40
        "ambassadors": 0.0,
        "embassies": 0.0,
        "treaties": 0.0,
        "racial_factor": 10.0,  # RF(Latium): greeks +5, punics 0, rhodians +5
    }
    assert s.total == 450
    assert s.metrics["income_year"] == 240
    assert s.metrics["treasury_years"] == 0.83  # 200 / 240


def test_nation_embassies_treaties_and_ambassadors_by_hand() -> None:
    w = small_nations()
    mn = w.mn
    assert mn is not None
    mnh.buy(mn, "p1")  # at home
    mnh.post(mn, "p1", "massalia", kind="commercial", last_turn=7)  # 2 turns left of 4
    mnh.post(mn, "p1", "athenae", kind="pact")  # permanent
    s = score_nation(w, "p1")
    # three free ambassadors at half of 50 PO
    assert s.term("ambassadors") == 75
    # limited embassy 30 PO / 60% × 2/4 = 25; permanent 30 / 40% (very warm welcome, 20 under 60) = 75
    assert s.term("embassies") == 100
    # commercial 30 / 60% × 2/4 = 25; pact 30 / 20% = 150
    assert s.term("treaties") == 175
    # the commercial agreement imports salt (Gallia; a pact imports nothing, RES-MN-05): grain, wine,
    # salt, all monopolies → 10 × 6 = 60 PO of resources a turn
    assert s.term("resources") == 4 * 60


@pytest.mark.rule("LINK-03")
def test_a_nation_that_is_also_a_kingdom_leaves_the_treasury_to_the_kingdom() -> None:
    w = small_nations()
    alone = score_nation(w, "p1")
    assert alone.term("treasury") > 0 and alone.metrics["treasury_of"] is None
    w.systems = ["km", "mn"]
    w.km = kmh.world(kmh.plains(1, 1), [kmh.kingdom("k", [0])]).km
    w.mn.nations["p1"].kingdom = "k"  # type: ignore[union-attr]
    s = score_of(w, "nation:p1")  # the nation's own score, with the links' LINK-03 term
    assert s.term("treasury") == 0
    assert s.metrics["treasury_of"] == "kingdom:k" and s.metrics["treasury_years"] is None
    assert [t.key for t in s.terms] == [t.key for t in alone.terms]  # the same terms, in the same order
    assert score_all(w)["nation:p1"] == s


def test_an_imprisoned_ambassador_is_worth_less_than_a_free_one() -> None:
    free, jailed = small_nations(), small_nations()
    mnh.buy(free.mn, "p1")  # type: ignore[arg-type]
    mnh.buy(jailed.mn, "p1").state = "imprisoned"  # type: ignore[arg-type]
    assert score_nation(free, "p1").total > score_nation(jailed, "p1").total


# ---- guilds --------------------------------------------------------------------------------------


def small_guilds() -> World:
    w = gwh.make_world()
    gwh.put_domain(w, "d1", "a", gwh.hx(w, 1, 1), garrison={"infantry": 3})
    gwh.put_army(w, "x", "a", gwh.hx(w, 2, 2), {"militia": 4})
    w.gw.guilds["a"].pool = {"knight": 1}  # type: ignore[union-attr]
    return w


def test_guild_score_by_hand() -> None:
    s = score_guild(small_guilds(), "a")
    assert s.terms_dict() == {
        "domains": 620.0,  # 500 compensation + 4 seasons × (20 solars + 10 victuals)
        "threatened": 0.0,
        "armies": 20.0,  # 4 militia × 5
        "garrisons": 30.0,  # 3 infantry × 10
        "pool": 20.0,  # a knight
        "solars": 580.0,  # reserve 2 × 80, then (1000 − 160) / 2
        "victuals": 100.0,
        "notoriety": 70.0,  # 7 × 10
        "eliminated": 0.0,
    }
    assert s.total == 1440
    assert s.metrics == {"income_year": 80, "treasury_years": 12.5, "eliminated": 0}


def test_an_occupied_domain_and_elimination_by_hand() -> None:
    w = small_guilds()
    w.gw.domains["d1"].occupied_by = ["y"]  # type: ignore[union-attr]
    assert score_guild(w, "a").term("threatened") == -310  # half of 620
    e = score_guild(w, "e")  # no domain, no army
    # 1000 solars, no income: all above a reserve of 0 → 500; 100 victuals; notoriety 0; −500
    assert (e.term("solars"), e.term("eliminated"), e.total) == (500, -500, 100)
    assert e.metrics["treasury_years"] is None


def test_guild_order_more_domains_and_an_intact_garrison_are_better() -> None:
    one, two = small_guilds(), small_guilds()
    gwh.put_domain(two, "d2", "a", gwh.hx(two, 3, 3))
    assert score_guild(two, "a").total > score_guild(one, "a").total
    stripped = small_guilds()
    stripped.gw.domains["d1"].garrison.clear()  # type: ignore[union-attr]
    assert score_guild(one, "a").total > score_guild(stripped, "a").total


# ---- convoys -------------------------------------------------------------------------------------


def small_convoy(at: int = 5, **kw: object) -> World:
    hm = cvh.line_map(20)
    c = cvh.baseline(hm, cargo={"trade_goods": 4}, unrest=1, **kw)  # 80 HP
    c.hex = at
    c.ticks_total = at * 12 * TICKS_PER_MILE
    c.days_travelled, c.days_rested = 3, 1
    return cvh.world_of(c, hm)


def test_convoy_score_by_hand() -> None:
    s = score_convoy(small_convoy(), "amber")
    assert s.terms_dict() == {
        "journey": 26.32,  # 60 miles done, 14 hexes × 12 = 168 left: 60 / 228
        "arrival": 0.0,
        "days": -2.0,  # 4 days × 0.5
        "hit_points": 20.0,  # 80 / 80
        "cargo": 8.0,  # 4 units of trade goods × 2
        "unrest": -3.0,
        "mutiny": 0.0,  # Unrest 1 ≤ Morale 2
        "losses": 0.0,
        "starving": 0.0,
        "destroyed": 0.0,
    }
    assert s.total == 49.32
    assert s.unit == "points"


def test_arrived_and_destroyed_convoys_by_hand() -> None:
    w = small_convoy(at=19)
    c = w.cv.convoys[0]  # type: ignore[union-attr]
    c.status, c.arrived_at, c.hp = "arrived", 24 * 9 + 14, 40
    s = score_convoy(w, "amber")
    assert (s.term("journey"), s.term("arrival"), s.term("hit_points")) == (100, 50, 10)
    assert s.metrics["arrived_day"] == 10
    c.status, c.hp, c.travelers_lost, c.wagons_lost = "destroyed", 0, 2, 1
    s = score_convoy(w, "amber")
    assert (s.term("arrival"), s.term("hit_points"), s.term("destroyed"), s.term("losses")) == (0, 0, -100, -20)


def test_convoy_order() -> None:
    def total(w: World) -> float:
        return score_convoy(w, "amber").total

    near, far = small_convoy(at=3), small_convoy(at=15)
    assert total(far) > total(near)
    arrived = small_convoy(at=19)
    arrived.cv.convoys[0].status = "arrived"  # type: ignore[union-attr]
    assert total(arrived) > total(far)
    hurt = small_convoy(at=15)
    hurt.cv.convoys[0].hp = 20  # type: ignore[union-attr]
    assert total(far) > total(hurt)
    mutinous = small_convoy(at=15)
    mutinous.cv.convoys[0].unrest, mutinous.cv.convoys[0].in_mutiny = 3, True  # type: ignore[union-attr]
    assert total(far) > total(mutinous)
    gone = small_convoy(at=15)
    gone.cv.convoys[0].status = "destroyed"  # type: ignore[union-attr]
    assert total(near) > total(gone)


# ---- every faction, from the world alone ---------------------------------------------------------


def test_score_all_names_every_faction_and_reads_only_the_world() -> None:
    from agents.campaign import prepare_campaign

    model = prepare_campaign("realm", 3, keep_ledger=False, collect=False)
    model.run(2160 * 2)
    scores = score_all(model.world)
    w = model.world
    assert w.km is not None and w.mn is not None and w.gw is not None and w.cv is not None
    expected = ({f"kingdom:{k}" for k in w.km.kingdoms} | {f"nation:{n}" for n in w.mn.nations}
                | {f"guild:{g}" for g, x in w.gw.guilds.items() if x.nation is None} | {c.key for c in w.cv.convoys})
    assert set(scores) == expected and list(scores) == sorted(scores)
    fork = copy_world(w)  # a forked world (what a look-ahead policy scores) gives the same figures
    assert {k: (s.total, s.terms) for k, s in score_all(fork).items()} == {k: (s.total, s.terms) for k, s in scores.items()}
