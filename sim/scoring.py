"""Scores: what doing well means for a kingdom, a nation, a guild and a convoy (docs/scoring.md).

One number per faction at any moment of a campaign, computed from the world alone (never from a
counter kept outside it), so that it can be read on a world forked in the middle of a campaign — a
tournament compares factions' scores at the end, a policy that looks ahead compares them at the end of
its rollouts, an explanation cites the named terms that moved.

Each score is a sum of named terms, in the system's own money over a year:

* a kingdom (*royaume*) in BP (*PC*): its treasury (*trésorerie*, money beyond two years of income
  counting half), a year of income (*revenu*) and Consumption (*consommation*), its Size (*taille*),
  what it has built (*patrimoine*), the Unrest (*Insatisfaction*) the coming year's Upkeep is expected
  to add, its Unrest now, anarchy (*anarchie*), Fame (*Gloire*), its embassies, treaties and alliances,
  its expeditions under way and its vassals;
* a nation (*nation*) in PO: treasury, a year of province (*provinces*) and resource (*ressources*)
  income, its ambassadors (*ambassadeurs*), embassies (*ambassades*), treaties (*traités*) and racial
  factors (*facteur racial*);
* a guild (*guilde*) in solars: a year of its domains' yield (*domaines*), less what sieges and
  occupations take, its units (*armées*, *garnisons*, *réserve*), its chest (*coffre*: solars and
  *victuailles*), its notoriety (*notoriété*), and elimination;
* a convoy (*convoi*) in points (1 point = 1% of its journey): the share of the journey done
  (*trajet*), arrival (*arrivée*), days on the road (*jours de route*), hit points (*points de vie*),
  trade goods and treasure carried (*chargement*), its Unrest (*Niveau de Troubles*), mutiny
  (*mutinerie*), losses (*pertes*), starvation (*famine*) and destruction.

Weights are in small frozen dataclasses (``KmWeights``…) so a policy or a study may use others.
Expected values are exact (every face of the d20 enumerated); results are floats rounded to 2
decimals, summed in a fixed order, so a score is the same in any process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from sim.calendar import HOURS_PER_DAY
from sim.rules import km as K
from sim.rules import mn as dip
from sim.state.cv import Convoy, ticks_to_miles
from sim.state.km import Kingdom
from sim.world import World

# ---- what a score is made of -------------------------------------------------------------------

UNITS = {"kingdom": "BP", "nation": "PO", "guild": "solars", "convoy": "points"}
KINDS = ("kingdom", "nation", "guild", "convoy")

# term key → (English, French): the seeds' own words, for explanations and reports
TERM_LABELS: dict[str, dict[str, tuple[str, str]]] = {
    "kingdom": {
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
    },
    "nation": {
        "treasury": ("Treasury", "Trésorerie"),
        "provinces": ("Province income", "Revenu des provinces"),
        "resources": ("Resource income", "Revenu des ressources"),
        "ambassadors": ("Ambassadors", "Ambassadeurs"),
        "embassies": ("Embassies", "Ambassades"),
        "treaties": ("Treaties", "Traités"),
        "racial_factor": ("Racial factors", "Facteur racial"),
    },
    "guild": {
        "domains": ("Domains", "Domaines"),
        "threatened": ("Domains besieged or occupied", "Domaines assiégés ou occupés"),
        "armies": ("Units in armies", "Unités des armées"),
        "garrisons": ("Garrisons", "Garnisons"),
        "pool": ("Units in the pool", "Unités en réserve"),
        "solars": ("Solars", "Coffre (solars)"),
        "victuals": ("Victuals", "Victuailles"),
        "notoriety": ("Notoriety", "Notoriété"),
        "eliminated": ("Eliminated", "Éliminée"),
    },
    "convoy": {
        "journey": ("Journey done", "Trajet accompli"),
        "arrival": ("Arrival", "Arrivée"),
        "days": ("Days on the road", "Jours de route"),
        "hit_points": ("Hit points", "Points de vie"),
        "cargo": ("Trade goods and treasure", "Chargement (marchandises, trésor)"),
        "unrest": ("Unrest", "Niveau de Troubles"),
        "mutiny": ("Mutiny", "Mutinerie"),
        "losses": ("Travelers and wagons lost", "Pertes (voyageurs, chariots)"),
        "starving": ("Starvation", "Famine"),
        "destroyed": ("Destroyed", "Convoi détruit"),
    },
}


@dataclass(frozen=True, slots=True)
class Term:
    """One named part of a score: its key (``TERM_LABELS``), its value in the score's unit, and
    what it was computed from (for a person: ``"Size 12 × 15 BP"``)."""

    key: str
    value: float
    basis: str = ""


@dataclass(frozen=True)
class FactionScore:
    """A faction's score: the sum of its terms, in ``unit``; ``metrics`` are the quantities a report
    or a tournament reads next to it (income over a year, treasury in years of income…)."""

    key: str  # actor key, "kingdom:restov"
    kind: str  # kingdom | nation | guild | convoy
    policy: str
    unit: str
    terms: tuple[Term, ...]
    metrics: dict[str, float | int | str | None] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return round(sum(t.value for t in self.terms), 2)

    def term(self, key: str) -> float:
        """The value of one term (0 if the score has no such term)."""
        return next((t.value for t in self.terms if t.key == key), 0.0)

    def terms_dict(self) -> dict[str, float]:
        return {t.key: t.value for t in self.terms}

    def label(self, key: str, lang: str = "en") -> str:
        en, fr = TERM_LABELS[self.kind][key]
        return fr if lang == "fr" else en


def _r(x: float | Fraction) -> float:
    return round(float(x), 2) + 0.0  # + 0.0: never a negative zero


def reserve_value(money: int, reserve: float, share: float) -> float:
    """Money up to ``reserve`` at face value, the part above it at ``share`` of its value; debt at face
    value. Money a faction hoards beyond what it can use soon is worth less than what it builds."""
    if money <= reserve:
        return float(money)
    return reserve + (money - reserve) * share


def _years(money: int, per_year: float) -> float | None:
    return None if per_year <= 0 else round(money / per_year, 2)


# ---- kingdoms (KM, RULES.md §1 and §5.1) ---------------------------------------------------------


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
    if k.anarchy or K.vacant(k, "treasurer"):
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
        total += sum(K.BUILDINGS[b].bp * n for b, n in sorted(s.buildings.items()) if b in K.BUILDINGS)
        row = K.TERRAIN.get(K.km_terrain(world.map.hexes[s.hex].terrain))
        prep = (row[1] or 0) if row is not None else 0
        total += prep * s.districts
    for h in sorted(k.improvements):
        for kind in k.improvements[h]:
            total += K.improvement_cost(world, h, kind) or 0
    for h in k.hexes:
        lvl = world.map.hexes[h].road
        if lvl in ("road", "highway"):
            total += K.improvement_cost(world, h, "road") or 0
        if lvl == "highway":
            total += K.improvement_cost(world, h, "highway") or 0
    return total


def score_kingdom(world: World, kid: str, w: KmWeights = KmWeights()) -> FactionScore:
    km = world.km
    assert km is not None, "no kingdoms in this world"
    k = km.kingdoms[kid]
    st = K.stats(world, k)
    n = w.months
    tax = expected_tax(k, st.economy)
    extra = (K.count_improvements(k, "mine") + K.count_improvements(k, "quarry") + K.count_improvements(k, "sawmill")
             + K.linked_mines(world, k))
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
    if k.hexes and K.ruler_vacant(k) and K.ruler_stand_in(km, k) is None:
        vacancy += 4  # SC-KM-20
    vacancy += sum(v for role, v in (("councilor", 1), ("high_priest", 1), ("spymaster", 1)) if K.vacant(k, role))
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
        Term("treasury", _r(reserve_value(k.treasury, reserve, w.above_reserve)),
             f"{k.treasury} BP, reserve {_r(reserve)} BP ({w.reserve_years:g} years of income)"),
        Term("income", _r(gross_year), f"{n} × (taxes {_r(tax)} + {extra} from Mines, Quarries, Sawmills) BP"),
        Term("consumption", _r(-n * consumption), f"{n} × Consumption {consumption} BP"),
        Term("size", _r(w.size_bp * st.size), f"Size {st.size} × {w.size_bp:g} BP"),
        Term("holdings", _r(w.holdings_share * holdings), f"{w.holdings_share:g} × {holdings} BP built"),
        Term("upkeep", _r(-n * w.unrest_bp * expected_rise),
             f"{n} Upkeeps × {_r(expected_rise)} Unrest expected × {w.unrest_bp:g} BP (success {_r(p_ok * 100)}%)"),
        Term("recurring_unrest", _r(-n * w.unrest_bp * recurring),
             f"{n} Upkeeps × (negative {', '.join(negatives) or 'none'}; vacancies {vacancy}; debt {debt}) × {w.unrest_bp:g} BP"),
        Term("unrest", _r(-w.unrest_bp * k.unrest - w.unrest_over_10_bp * over),
             f"Unrest {k.unrest} × {w.unrest_bp:g} BP + {over} above 10 × {w.unrest_over_10_bp:g} BP"),
        Term("anarchy", _r(-w.anarchy_bp if k.anarchy else 0.0), "in anarchy" if k.anarchy else "not in anarchy"),
        Term("fame", _r(w.fame_bp * st.fame), f"Fame {st.fame} × {w.fame_bp:g} BP"),
        Term("relations", _r(w.embassy_bp * emb + w.treaty_bp * tre + w.alliance_bp * ali),
             f"{emb} embassies, {tre} treaties, {ali} alliances"),
        Term("expeditions", _r(sum(r.investment for r in routes) + sum(e.cost for e in explo)),
             f"{len(routes)} trade expeditions, {len(explo)} explorations (BP invested)"),
        Term("vassals", _r(w.vassal_hex_bp * vassal_size), f"vassals' Size {vassal_size} × {w.vassal_hex_bp:g} BP"),
    )
    metrics: dict[str, float | int | str | None] = {
        "income_year": _r(gross_year),
        "treasury_years": _years(k.treasury, float(gross_year)),
        "upkeep_success": _r(p_ok) if k.hexes else None,
        "anarchy": int(k.anarchy),
    }
    return FactionScore(f"kingdom:{kid}", "kingdom", k.policy, UNITS["kingdom"], terms, metrics)


# ---- nations (MN, RULES.md §2 and §5.2) ----------------------------------------------------------


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
    return dip.MISSION_FEE_PO * 100 / threshold


def score_nation(world: World, nid: str, w: MnWeights = MnWeights()) -> FactionScore:
    mn = world.mn
    assert mn is not None, "no nations in this world"
    cfg = world.config.mn
    n = mn.nations[nid]
    party = dip.nkey(nid)
    year = cfg.turns_per_year
    income, _types, _mono = dip.income_of(mn, cfg, nid)
    prov_income = cfg.province_income_po * len(n.provinces)
    income_year = income * year
    dual = n.kingdom is not None and world.has("km") and world.km is not None and n.kingdom in world.km.kingdoms
    if dual:  # LINK-03: one treasury, the kingdom's, in BP; it counts in the kingdom's score
        treasury = Term("treasury", 0.0, f"one treasury with kingdom:{n.kingdom} (LINK-03)")
    else:
        reserve = w.reserve_years * income_year
        treasury = Term("treasury", _r(reserve_value(n.treasury, reserve, w.above_reserve)),
                        f"{n.treasury} PO, reserve {_r(reserve)} PO ({w.reserve_years:g} years of income)")
    ambs = [a for a in mn.ambassadors.values() if a.nation == nid]
    free = [a for a in ambs if a.state in ("home", "travelling", "at_post")]
    commercial = dip.THRESHOLDS["commercial"]
    emb_value = 0.0
    embs = [e for e in mn.embassies if e.nation == nid]
    for e in embs:
        if e.last_turn is None:  # a very warm welcome: 20 below the threshold (MN-OUT-01)
            emb_value += mission_value(commercial - 20)
        else:
            emb_value += mission_value(commercial) * min(1.0, max(0, e.last_turn - mn.turn) / year)
    tre_value = 0.0
    treaties = [t for t in mn.treaties if dip.treaty_involves(t, party)]
    for t in treaties:
        v = mission_value(dip.THRESHOLDS[t.kind])
        if t.last_turn is not None:
            v *= min(1.0, max(0, t.last_turn - mn.turn) / year)
        tre_value += v
    rf = sum(sum(mn.rf.get(p, {}).values()) for p in n.provinces)
    terms = (
        treasury,
        Term("provinces", _r(prov_income * year), f"{year} turns × {len(n.provinces)} provinces × {cfg.province_income_po} PO"),
        Term("resources", _r((income - prov_income) * year), f"{year} turns × {income - prov_income} PO of resources"),
        Term("ambassadors", _r(w.ambassador_share * cfg.ambassador_cost * len(free)),
             f"{len(free)} free ambassadors × {w.ambassador_share:g} × {cfg.ambassador_cost} PO"),
        Term("embassies", _r(emb_value), f"{len(embs)} embassies at a mission's cost"),
        Term("treaties", _r(tre_value), f"{len(treaties)} treaties at a mission's cost"),
        Term("racial_factor", _r(w.racial_factor_po * rf), f"Σ racial factors of its provinces {rf}"),
    )
    metrics: dict[str, float | int | str | None] = {
        "income_year": income_year,
        "treasury_years": None if dual else _years(n.treasury, income_year),
        "treasury_of": f"kingdom:{n.kingdom}" if dual else None,
        "ambassadors_imprisoned": sum(1 for a in ambs if a.state == "imprisoned"),
        "ambassadors_dead": sum(1 for a in ambs if a.state == "dead"),
    }
    return FactionScore(party, "nation", n.policy, UNITS["nation"], terms, metrics)


# ---- guilds (GW, RULES.md §3 and §5.3) -----------------------------------------------------------


@dataclass(frozen=True)
class GwWeights:
    """Solar values of a guild's score."""

    reserve_years: float = 2.0
    above_reserve: float = 0.5
    victual_solars: float = 1.0  # victuals have no price in the rules (SC-GW-11): counted at par
    occupied_share: float = 0.5  # of a domain's value at risk while it is occupied (it may be annexed)…
    besieged_share: float = 0.25  # …or besieged (it yields nothing, SC-GW-14, and may be assaulted)
    notoriety_solars: float = 10.0
    eliminated_solars: float = 500.0


def score_guild(world: World, gid: str, w: GwWeights = GwWeights()) -> FactionScore:
    gw = world.gw
    assert gw is not None, "no guilds in this world"
    cfg = world.config.gw
    g = gw.guilds[gid]
    doms = [gw.domains[d] for d in sorted(gw.domains) if gw.domains[d].owner_guild == gid]
    armies = [gw.armies[a] for a in sorted(gw.armies) if gw.armies[a].owner == gid]
    year = cfg.seasons_per_year
    dom_year = year * (cfg.domain_solars + cfg.domain_victuals * w.victual_solars)
    dom_value = cfg.annex_compensation_solars + dom_year  # what taking one costs (GW-ANX-02) + a year of yield
    solars_year = year * cfg.domain_solars * len(doms)
    occupied = sum(1 for d in doms if d.occupied_by)
    besieged = sum(1 for d in doms if d.besieged_by and not d.occupied_by)
    cost = cfg.unit_cost_solars

    def worth(kinds: list[str]) -> int:
        return sum(cost.get(u, 0) for u in kinds)

    in_armies = worth([u.kind for a in armies for u in a.units])
    in_garrisons = worth([u.kind for d in doms for u in d.garrison])
    in_pool = sum(cost.get(u, 0) * n for u, n in sorted(g.pool.items()))
    reserve = w.reserve_years * solars_year
    eliminated = not doms and not armies
    terms = (
        Term("domains", _r(dom_value * len(doms)),
             f"{len(doms)} domains × ({cfg.annex_compensation_solars} compensation + {_r(dom_year)} a year of yield)"),
        Term("threatened", _r(-dom_value * (w.occupied_share * occupied + w.besieged_share * besieged)),
             f"{occupied} occupied × {w.occupied_share:g}, {besieged} besieged × {w.besieged_share:g} of a domain"),
        Term("armies", float(in_armies), f"{sum(len(a.units) for a in armies)} units in {len(armies)} armies at recruit price"),
        Term("garrisons", float(in_garrisons), f"{sum(len(d.garrison) for d in doms)} units in garrisons at recruit price"),
        Term("pool", float(in_pool), f"{sum(g.pool.values())} units in the pool at recruit price"),
        Term("solars", _r(reserve_value(g.solars, reserve, w.above_reserve)),
             f"{g.solars} solars, reserve {_r(reserve)} ({w.reserve_years:g} years of yield)"),
        Term("victuals", _r(w.victual_solars * g.victuals), f"{g.victuals} victuals"),
        Term("notoriety", _r(w.notoriety_solars * g.notoriety), f"notoriety {g.notoriety}"),
        Term("eliminated", _r(-w.eliminated_solars if eliminated else 0.0),
             "no domain and no army" if eliminated else "holds a domain or an army"),
    )
    metrics: dict[str, float | int | str | None] = {
        "income_year": solars_year,
        "treasury_years": _years(g.solars, solars_year),
        "eliminated": int(eliminated),
    }
    return FactionScore(f"guild:{gid}", "guild", g.policy, UNITS["guild"], terms, metrics)


# ---- convoys (CV, RULES.md §4 and §5.4) ----------------------------------------------------------


@dataclass(frozen=True)
class CvWeights:
    """Point values of a convoy's score (100 points: the whole journey)."""

    journey: float = 100.0
    arrival: float = 50.0
    per_day: float = 0.5
    hit_points: float = 20.0  # for a full HP pool
    cargo_unit: float = 2.0
    unrest: float = 3.0
    mutiny: float = 10.0
    traveler_lost: float = 5.0
    wagon_lost: float = 10.0
    starving: float = 10.0
    destroyed: float = 100.0


def remaining_miles(world: World, c: Convoy) -> int:
    """Hexes still to cross as the crow flies, through the waypoints left, in miles."""
    if c.status == "arrived":
        return 0
    hm = world.map
    here, hexes = c.hex, 0
    for stop in c.stops or [c.destination]:
        hexes += hm.distance(here, stop)
        here = stop
    return hexes * hm.hex_miles


def journey_share(world: World, c: Convoy) -> float:
    """Share of the journey done: miles travelled over miles travelled plus miles left."""
    if c.status == "arrived":
        return 1.0
    done = float(ticks_to_miles(c.ticks_total))
    left = remaining_miles(world, c)
    return 0.0 if done + left <= 0 else done / (done + left)


def score_convoy(world: World, cid: str, w: CvWeights = CvWeights()) -> FactionScore:
    cv = world.cv
    assert cv is not None, "no convoys in this world"
    c = cv.convoy(cid)
    share = journey_share(world, c)
    arrived = c.status == "arrived"
    destroyed = c.status == "destroyed"
    days = c.days_travelled + c.days_rested
    hp = 0.0 if destroyed or c.max_hp <= 0 else c.hp / c.max_hp
    goods = c.cargo.get("trade_goods", 0) + c.cargo.get("treasure", 0)
    terms = (
        Term("journey", _r(w.journey * share), f"{_r(share * 100)}% of the way"),
        Term("arrival", _r(w.arrival if arrived else 0.0),
             f"arrived on day {c.arrived_at // HOURS_PER_DAY + 1}" if arrived else "not arrived"),
        Term("days", _r(-w.per_day * days), f"{days} days on the road"),
        Term("hit_points", _r(w.hit_points * hp), f"{c.hp}/{c.max_hp} HP"),
        Term("cargo", _r(w.cargo_unit * goods), f"{goods} cargo units of trade goods and treasure"),
        Term("unrest", _r(-w.unrest * c.unrest), f"Unrest {c.unrest}"),
        Term("mutiny", _r(-w.mutiny if c.in_mutiny else 0.0), "in mutiny" if c.in_mutiny else "no mutiny"),
        Term("losses", _r(-w.traveler_lost * c.travelers_lost - w.wagon_lost * c.wagons_lost),
             f"{c.travelers_lost} travelers, {c.wagons_lost} wagons lost"),
        Term("starving", _r(-w.starving if c.starving else 0.0), "starving" if c.starving else "fed"),
        Term("destroyed", _r(-w.destroyed if destroyed else 0.0), "destroyed" if destroyed else "standing"),
    )
    metrics: dict[str, float | int | str | None] = {
        "journey": _r(share),
        "days_on_road": days,
        "arrived_day": (c.arrived_at // HOURS_PER_DAY + 1) if arrived else None,
    }
    return FactionScore(c.key, "convoy", c.policy, UNITS["convoy"], terms, metrics)


# ---- every faction -------------------------------------------------------------------------------


def score_all(world: World) -> dict[str, FactionScore]:
    """Every faction's score, keyed by actor key, in key order. A guild that stands for a nation's
    armies (LINK-06) is not a faction of its own: its units are the nation's."""
    out: dict[str, FactionScore] = {}
    if world.has("km") and world.km is not None:
        for kid in world.km.ids():
            s = score_kingdom(world, kid)
            out[s.key] = s
    if world.has("mn") and world.mn is not None:
        for nid in sorted(world.mn.nations):
            s = score_nation(world, nid)
            out[s.key] = s
    if world.has("gw") and world.gw is not None:
        for gid in sorted(world.gw.guilds):
            if world.gw.guilds[gid].nation is None:
                s = score_guild(world, gid)
                out[s.key] = s
    if world.has("cv") and world.cv is not None:
        for c in world.cv.convoys:
            s = score_convoy(world, c.id)
            out[s.key] = s
    return dict(sorted(out.items()))


def kind_of(key: str) -> str:
    """The faction kind of an actor key (``kingdom:restov`` → ``kingdom``)."""
    return key.split(":", 1)[0]


__all__ = [
    "CvWeights", "FactionScore", "GwWeights", "KINDS", "KmWeights", "MnWeights", "TERM_LABELS", "Term", "UNITS",
    "expected_tax", "journey_share", "kind_of", "kingdom_holdings_bp", "mission_value", "remaining_miles",
    "reserve_value", "score_all", "score_convoy", "score_guild", "score_kingdom", "score_nation", "upkeep_odds",
]
