"""A kingdom's score (docs/scoring.md), in BP: its treasury (*trésorerie*, money beyond two years of
income counting half), a year of income (*revenu*) and Consumption (*consommation*), its Size
(*taille*), what it has built (*patrimoine*), the Unrest (*Insatisfaction*) the coming year's Upkeep
is expected to add, its Unrest now, anarchy (*anarchie*), Fame (*Gloire*), its embassies, treaties and
alliances, its expeditions under way and its vassals. Expected values are exact (every face of the
d20 enumerated)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sim.rules.km.ordinary import improvement_cost
from sim.rules.km.statistics import count_improvements, linked_mines, ruler_vacant, stats, vacant
from sim.rules.km.tables import BUILDINGS, TERRAIN, km_terrain
from sim.rules.km.upkeep_phase import ruler_stand_in
from sim.scores import FactionScore, Term, reserve_value, round2, years_of
from sim.state.km import Kingdom
from sim.world import World

__all__ = ["TERM_LABELS", "UNIT", "KmWeights", "expected_tax", "kingdom_holdings_bp", "score_kingdom", "upkeep_odds"]

UNIT = "BP"
# term key → (English, French): the seeds' own words, for explanations and reports
TERM_LABELS: dict[str, tuple[str, str]] = {
    "treasury": ("Treasury", "Trésorerie"),
    "income": ("Income", "Revenu"),
    "consumption": ("Consumption", "Consommation"),
    "size": ("Size", "Taille"),
    "holdings": ("Holdings", "Patrimoine"),
    "upkeep": ("Upkeep risk", "Risque d'entretien"),
    "recurring_unrest": ("Recurring Unrest", "Insatisfaction récurrente"),
    "unrest": ("Unrest", "Insatisfaction"),
    "anarchy": ("Anarchy", "Anarchie"),
    "fame": ("Fame", "Gloire"),
    "relations": ("Embassies, treaties, alliances", "Ambassades, traités, alliances"),
    "expeditions": ("Expeditions under way", "Expéditions en cours"),
    "vassals": ("Vassals", "Vassaux"),
}


@dataclass(frozen=True)
class KmWeights:
    """BP values of a kingdom's score (docs/scoring.md explains each)."""

    months: int = 12  # the horizon of the income, Consumption and Upkeep terms
    reserve_years: float = 2.0  # treasury up to this many years of gross income counts in full…
    above_reserve: float = 0.5  # …the rest at this share
    size_bp: float = 15.0  # per hex: a year of its Consumption, its claim and its Upkeep risk
    holdings_share: float = 0.5  # of the BP cost of buildings, districts, improvements, roads
    unrest_bp: float = 4.0  # per point of Unrest (now, and expected from the coming Upkeeps)
    unrest_over_10_bp: float = 10.0  # more per point above 10 (SC-KM-07: a hex lost each Upkeep)
    anarchy_bp: float = 100.0
    fame_bp: float = 5.0
    embassy_bp: float = 10.0
    treaty_bp: float = 10.0  # on top of the embassy it needs
    alliance_bp: float = 10.0  # on top of the treaty it implies
    vassal_hex_bp: float = 5.0


def expected_tax(k: Kingdom, economy: int) -> Fraction:
    """Mean taxes of one Income phase (SC-KM-18, RES-KM-48): ``max(0, floor((d20 + Economy −
    Unrest) / 3))`` over the 20 faces; 0 in anarchy (SC-KM-07: the result counts as 0) or with the
    Treasurer's seat vacant (SC-KM-23)."""
    if k.anarchy or vacant(k, "treasurer"):
        return Fraction(0)
    return Fraction(sum(max(0, (face + economy - k.unrest) // 3) for face in range(1, 21)), 20)


def upkeep_odds(k: Kingdom, stability: int, dc: int) -> tuple[Fraction, Fraction, Fraction]:
    """(success, failure by 1–4, failure by 5 or more) of the Upkeep Stability check (SC-KM-09,
    SC-KM-03: natural 1 fails, natural 20 succeeds; in anarchy the result counts as 0)."""
    ok = small = big = 0
    for face in range(1, 21):
        total = 0 if k.anarchy else face + stability - k.unrest
        success = face == 20 or (face != 1 and total >= dc)
        if success:
            ok += 1
        elif dc - total <= 4:
            small += 1
        else:
            big += 1
    return Fraction(ok, 20), Fraction(small, 20), Fraction(big, 20)


def kingdom_holdings_bp(world: World, k: Kingdom) -> int:
    """BP spent on what stands in the kingdom: buildings (SC-KM-31), districts (SC-KM-28, the
    settlement terrain's preparation cost), terrain improvements and roads on its hexes (SC-KM-32/33)."""
    total = 0
    for s in k.settlements:
        total += sum(BUILDINGS[b].bp * n for b, n in sorted(s.buildings.items()) if b in BUILDINGS)
        row = TERRAIN.get(km_terrain(world.map.hexes[s.hex].terrain))
        prep = (row[1] or 0) if row is not None else 0
        total += prep * s.districts
    for h in sorted(k.improvements):
        for kind in k.improvements[h]:
            total += improvement_cost(world, h, kind) or 0
    for h in k.hexes:
        lvl = world.map.hexes[h].road
        if lvl in ("road", "highway"):
            total += improvement_cost(world, h, "road") or 0
        if lvl == "highway":
            total += improvement_cost(world, h, "highway") or 0
    return total


def score_kingdom(world: World, kid: str, w: KmWeights = KmWeights()) -> FactionScore:
    km = world.km
    assert km is not None, "no kingdoms in this world"
    k = km.kingdoms[kid]
    st = stats(world, k)
    n = w.months
    tax = expected_tax(k, st.economy)
    extra = (count_improvements(k, "mine") + count_improvements(k, "quarry") + count_improvements(k, "sawmill")
             + linked_mines(world, k))
    gross_year = (tax + extra) * n
    reserve = w.reserve_years * float(gross_year)
    p_ok, p_small, p_big = upkeep_odds(k, st.stability, st.control_dc)
    consumption = st.consumption
    if not k.hexes:  # SC-KM-08: a kingdom with no hex skips Upkeep (no check, no Consumption)
        p_ok, p_small, p_big = Fraction(1), Fraction(0), Fraction(0)
        consumption = 0
    expected_rise = p_small + p_big * Fraction(5, 2)  # 1d4 averages 2.5
    negatives = [a for a in ("economy", "loyalty", "stability") if getattr(st, a) < 0]
    vacancy = 0
    if k.hexes and ruler_vacant(k) and ruler_stand_in(km, k) is None:
        vacancy += 4  # SC-KM-20
    vacancy += sum(v for role, v in (("councilor", 1), ("high_priest", 1), ("spymaster", 1)) if vacant(k, role))
    debt = 2 if k.hexes and k.treasury - st.consumption < 0 else 0  # SC-KM-10
    recurring = len(negatives) + vacancy + debt
    rels = [r for r in km.relations.values() if kid in (r.a, r.b)]
    emb = sum(1 for r in rels if r.embassy)
    tre = sum(1 for r in rels if r.treaty is not None)
    ali = sum(1 for r in rels if r.alliance is not None)
    routes = [r for r in km.routes if r.kingdom == kid and r.status == "travelling"]
    explo = [e for e in km.expeditions if e.kingdom == kid and e.status == "active"]
    vassal_size = sum(len(v.hexes) for v in km.kingdoms.values() if v.overlord == kid)
    holdings = kingdom_holdings_bp(world, k)
    over = max(0, k.unrest - 10)
    terms = (
        Term("treasury", round2(reserve_value(k.treasury, reserve, w.above_reserve)),
             f"{k.treasury} BP, reserve {round2(reserve)} BP ({w.reserve_years:g} years of income)"),
        Term("income", round2(gross_year), f"{n} × (taxes {round2(tax)} + {extra} from Mines, Quarries, Sawmills) BP"),
        Term("consumption", round2(-n * consumption), f"{n} × Consumption {consumption} BP"),
        Term("size", round2(w.size_bp * st.size), f"Size {st.size} × {w.size_bp:g} BP"),
        Term("holdings", round2(w.holdings_share * holdings), f"{w.holdings_share:g} × {holdings} BP built"),
        Term("upkeep", round2(-n * w.unrest_bp * expected_rise),
             f"{n} Upkeeps × {round2(expected_rise)} Unrest expected × {w.unrest_bp:g} BP (success {round2(p_ok * 100)}%)"),
        Term("recurring_unrest", round2(-n * w.unrest_bp * recurring),
             f"{n} Upkeeps × (negative {', '.join(negatives) or 'none'}; vacancies {vacancy}; debt {debt}) × {w.unrest_bp:g} BP"),
        Term("unrest", round2(-w.unrest_bp * k.unrest - w.unrest_over_10_bp * over),
             f"Unrest {k.unrest} × {w.unrest_bp:g} BP + {over} above 10 × {w.unrest_over_10_bp:g} BP"),
        Term("anarchy", round2(-w.anarchy_bp if k.anarchy else 0.0), "in anarchy" if k.anarchy else "not in anarchy"),
        Term("fame", round2(w.fame_bp * st.fame), f"Fame {st.fame} × {w.fame_bp:g} BP"),
        Term("relations", round2(w.embassy_bp * emb + w.treaty_bp * tre + w.alliance_bp * ali),
             f"{emb} embassies, {tre} treaties, {ali} alliances"),
        Term("expeditions", round2(sum(r.investment for r in routes) + sum(e.cost for e in explo)),
             f"{len(routes)} trade expeditions, {len(explo)} explorations (BP invested)"),
        Term("vassals", round2(w.vassal_hex_bp * vassal_size), f"vassals' Size {vassal_size} × {w.vassal_hex_bp:g} BP"),
    )
    metrics: dict[str, float | int | str | None] = {
        "income_year": round2(gross_year),
        "treasury_years": years_of(k.treasury, float(gross_year)),
        "upkeep_success": round2(p_ok) if k.hexes else None,
        "anarchy": int(k.anarchy),
    }
    return FactionScore(f"kingdom:{kid}", "kingdom", k.policy, UNIT, terms, metrics, TERM_LABELS)
