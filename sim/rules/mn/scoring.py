"""A nation's score (docs/scoring.md), in PO: treasury, a year of province (*provinces*) and resource
(*ressources*) income, its ambassadors (*ambassadeurs*), embassies (*ambassades*), treaties
(*traités*) and racial factors (*facteur racial*). A nation that is one faction with a kingdom keeps
one treasury, the kingdom's (LINK-03): ``sim.rules.links`` takes its treasury out of this score."""

from __future__ import annotations

from dataclasses import dataclass

from sim.rules.mn.lookups import nkey, treaty_involves
from sim.rules.mn.orders import MISSION_FEE_PO, THRESHOLDS
from sim.rules.mn.turn import income_of
from sim.scores import FactionScore, Term, reserve_value, round2, years_of
from sim.world import World

__all__ = ["TERM_LABELS", "UNIT", "MnWeights", "mission_value", "score_nation"]

UNIT = "PO"
# term key → (English, French): the seeds' own words, for explanations and reports
TERM_LABELS: dict[str, tuple[str, str]] = {
    "treasury": ("Treasury", "Trésorerie"),
    "provinces": ("Province income", "Revenu des provinces"),
    "resources": ("Resource income", "Revenu des ressources"),
    "ambassadors": ("Ambassadors", "Ambassadeurs"),
    "embassies": ("Embassies", "Ambassades"),
    "treaties": ("Treaties", "Traités"),
    "racial_factor": ("Racial factors", "Facteur racial"),
}


@dataclass(frozen=True)
class MnWeights:
    """PO values of a nation's score."""

    reserve_years: float = 2.0
    above_reserve: float = 0.5
    ambassador_share: float = 0.5  # of an ambassador's price: he is worth what his missions bring
    racial_factor_po: float = 1.0  # per point: a point of RF is worth a PO of gift on every test (MN-MOD-07)


def mission_value(threshold: int) -> float:
    """What it costs on average to obtain by a mission something the d100 test grants below
    ``threshold``: the 30 PO fee (MN-MIS-02) over the chance (MN-TEST-02), without modifiers."""
    return MISSION_FEE_PO * 100 / threshold


def score_nation(world: World, nid: str, w: MnWeights = MnWeights()) -> FactionScore:
    mn = world.mn
    assert mn is not None, "no nations in this world"
    cfg = world.config.mn
    n = mn.nations[nid]
    party = nkey(nid)
    year = cfg.turns_per_year
    income, _types, _mono = income_of(mn, cfg, nid)
    prov_income = cfg.province_income_po * len(n.provinces)
    income_year = income * year
    reserve = w.reserve_years * income_year
    treasury = Term("treasury", round2(reserve_value(n.treasury, reserve, w.above_reserve)),
                    f"{n.treasury} PO, reserve {round2(reserve)} PO ({w.reserve_years:g} years of income)")
    ambs = [a for a in mn.ambassadors.values() if a.nation == nid]
    free = [a for a in ambs if a.state in ("home", "travelling", "at_post")]
    commercial = THRESHOLDS["commercial"]
    emb_value = 0.0
    embs = [e for e in mn.embassies if e.nation == nid]
    for e in embs:
        if e.last_turn is None:  # a very warm welcome: 20 below the threshold (MN-OUT-01)
            emb_value += mission_value(commercial - 20)
        else:
            emb_value += mission_value(commercial) * min(1.0, max(0, e.last_turn - mn.turn) / year)
    tre_value = 0.0
    treaties = [t for t in mn.treaties if treaty_involves(t, party)]
    for t in treaties:
        v = mission_value(THRESHOLDS[t.kind])
        if t.last_turn is not None:
            v *= min(1.0, max(0, t.last_turn - mn.turn) / year)
        tre_value += v
    rf = sum(sum(mn.rf.get(p, {}).values()) for p in n.provinces)
    terms = (
        treasury,
        Term("provinces", round2(prov_income * year), f"{year} turns × {len(n.provinces)} provinces × {cfg.province_income_po} PO"),
        Term("resources", round2((income - prov_income) * year), f"{year} turns × {income - prov_income} PO of resources"),
        Term("ambassadors", round2(w.ambassador_share * cfg.ambassador_cost * len(free)),
             f"{len(free)} free ambassadors × {w.ambassador_share:g} × {cfg.ambassador_cost} PO"),
        Term("embassies", round2(emb_value), f"{len(embs)} embassies at a mission's cost"),
        Term("treaties", round2(tre_value), f"{len(treaties)} treaties at a mission's cost"),
        Term("racial_factor", round2(w.racial_factor_po * rf), f"Σ racial factors of its provinces {rf}"),
    )
    metrics: dict[str, float | int | str | None] = {
        "income_year": income_year,
        "treasury_years": years_of(n.treasury, income_year),
        "treasury_of": None,  # a kingdom's key when the treasury is the kingdom's (LINK-03, sim.rules.links)
        "ambassadors_imprisoned": sum(1 for a in ambs if a.state == "imprisoned"),
        "ambassadors_dead": sum(1 for a in ambs if a.state == "dead"),
    }
    return FactionScore(party, "nation", n.policy, UNIT, terms, metrics, TERM_LABELS)
