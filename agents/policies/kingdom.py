"""Policies of the kingdom agent (kind ``kingdom``): ``random``, ``heuristic`` and ``scripted``.

``heuristic`` plays a sensible ruler: it keeps Unrest down (Holiday/Promotion edicts and light taxes
when Unrest climbs), taxes to its means, builds toward the trade route it wants (a Guildhall for a
Goods route, a Luxury Store for Luxuries, a Granary and a Stockyard for Food), explores toward land it
can claim, seeks embassies and treaties with friendly neighbours, and subjugates a conquered kingdom
when it can hold it. Every alternative gets a score (roughly, BP-equivalent value over the next
months); the best is chosen, ties going to the first listed. Exact check odds come from the dice
(``p_check``), never from a random draw. Policies draw only from the agent's own stream ``rng``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from math import comb
from typing import Any

from agents.kingdom import KingdomObs
from agents.policies import Decision, Policy, register
from agents.policies.explain import Terms, compact_totals, explained
from sim.rules import km as K
from sim.rules import links
from sim.rules.km import label
from sim.rules.km.diplomatic import rebalanceable
from sim.rules.km.statistics import VACANCY_ATTRS, VACANCY_UNREST
from sim.state.km import (
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    ExplorationEdict,
    ImprovementOrder,
    RelationOrder,
    Settlement,
    TradeEdict,
    VassalageEdict,
)


@register("kingdom", "random")
class KingdomRandom(Policy):
    """Uniform over the legal alternatives of each decision."""

    name = "random"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not legal:
            raise ValueError("random policy: no legal order to choose from")
        return Decision(legal[rng.randrange(len(legal))], [], "uniform over legal orders")


@register("kingdom", "scripted")
class KingdomScripted(Policy):
    """A person's orders come from the scenario or an order file (``agents.kingdom``); the few
    choices they leave open (the target side's balance, KM-REL-08) take the first alternative."""

    name = "scripted"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        return Decision(legal[0], [], "scripted kingdom: first alternative")


def p_check(mod: int, dc: int, *, kingdom: bool) -> float:
    """Exact chance that 1d20 + mod ≥ dc (kingdom checks: natural 1 fails, 20 succeeds)."""
    return _p_check(mod, dc, kingdom)


@functools.lru_cache(maxsize=4096)
def _p_check(mod: int, dc: int, kingdom: bool) -> float:
    ok = 0
    for face in range(1, 21):
        win = face + mod >= dc
        if kingdom:
            win = face != 1 and (win or face == 20)
        ok += win
    return ok / 20


def friction_unrest(p: float) -> float:
    """The Unrest a subjugation is expected to cost its overlord (KM-VAS-07, RES-KM-30): a Loyalty check
    a turn at ``p``, Unrest +1d4 (2.5 on average) on each failure, until three successes in a row —
    1/p + 1/p² + 1/p³ checks on average, a share 1 − p of them failed (capped at 100)."""
    if p <= 0:
        return 100.0
    return min(2.5 * (1 - p) * (1 / p + 1 / p**2 + 1 / p**3), 100.0)


def p_at_least(p: float, n: int, need: int) -> float:
    """Chance of at least ``need`` successes in ``n`` independent tries of chance ``p``."""
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(need, n + 1))


UPKEEP_TARGET = 0.9  # the chance of a successful Upkeep Stability check the ruler keeps (issue 13)
MARGIN_BP = 600.0  # BP over a year each unit of chance below the target costs (emergency mode doubles it)


def _hx(c: _Ctx, h: int) -> str:
    return c.w.map.place(h)


def _first_best(totals: Sequence[float]) -> int:
    """The index of the best total, the first listed of equals (the rules' order of alternatives)."""
    return max(range(len(totals)), key=lambda i: (totals[i], -i))


def _reserve_value(c: _Ctx, cost: int, scale: float) -> float:
    """The ``reserve`` term of spending ``cost`` BP now (0 while the reserve stays whole)."""
    left = c.funds - cost
    if left < c.reserve:
        return scale * (-6.0 + left / max(1, c.reserve))
    return 0.0


# the kinds whose score depends on the settlement's own buildings (a trade route's building, a port's)
_PLACED_KINDS = frozenset(("guildhall", "luxury_store", "granary", "stockyard", "pier", "waterfront"))
_ROUTE_WORDS = {
    "goods": ("toward a Goods trade route", "vers une route commerciale de Marchandises"),
    "luxuries": ("toward a Luxuries trade route", "vers une route commerciale de Luxe"),
    "food": ("toward a Food trade route", "vers une route commerciale de Nourriture"),
}


def _building_bonus(c: _Ctx, o: BuildOrder) -> tuple[float, float, float]:
    """The terms of a building that depend on where it is built: toward the trade route the ruler
    wants (40 BP a first Guildhall for Goods, 30 a first Luxury Store for Luxuries, 20 a first Granary
    or Stockyard for Food), a first port building (10), building up a settlement beyond the capital (6);
    0.0 where none applies."""
    _s, have, spread = c.settlement_info(o.settlement)
    want = c.wanted_route
    kind = o.kind
    route = 0.0
    if want == "goods" and kind == "guildhall" and not have.get("guildhall"):
        route = 40.0
    elif want == "luxuries" and kind == "luxury_store" and not have.get("luxury_store"):
        route = 30.0
    elif want == "food" and kind in ("granary", "stockyard") and not have.get(kind):
        route = 20.0
    port = 10.0 if kind in ("pier", "waterfront") and not have.get(kind) else 0.0
    return route, port, 6.0 if spread else 0.0


def order_label(c: _Ctx, o: Any) -> str:
    """An alternative as a game master names it: the farm at Westwatch [4,6], not #451."""
    if type(o) is BuildOrder:  # the most frequent by far (a building slot lists every kind in every settlement)
        return label(o)
    if isinstance(o, ImprovementOrder):
        return f"{o.kind} at {_hx(c, o.hex)}"
    if isinstance(o, int) and not isinstance(o, bool) and c.slot in ("claim", "lose_hex"):
        return ("claim " if c.slot == "claim" else "give up ") + _hx(c, o)
    if isinstance(o, ExplorationEdict):
        return f"exploration {o.months} month(s), {len(o.route)} hex(es) from {_hx(c, o.route[0])}"
    return label(o)


def rank(obs: KingdomObs, legal: Sequence[Any], c: _Ctx | None = None) -> list[Terms]:
    """Every legal alternative's terms (same order as ``legal``), in BP over a year: the kingdom
    heuristic's candidate ranking (what a look-ahead policy calls). ``c``: the decision's reading of
    the kingdom, when the caller has one."""
    if c is None:
        c = _Ctx(obs)
    h = KingdomHeuristic()
    fn = getattr(h, f"score_{obs.slot}", None)
    out = []
    for a in legal:
        t = Terms("BP")
        if fn is not None:
            fn(c, a, t)
        out.append(t)
    return out


@register("kingdom", "heuristic")
class KingdomHeuristic(Policy):
    """Every score is a sum of named terms in BP over a year (the ``Terms`` of ``agents.policies.explain``)."""

    name = "heuristic"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        assert isinstance(obs, KingdomObs)
        if not hasattr(self, f"score_{obs.slot}"):
            return Decision(legal[0], [], f"no heuristic for {obs.slot}: first alternative")
        c = _Ctx(obs)
        if not self.explain and obs.slot == "building":
            # the most frequent question by far (every kind in every settlement): totals without terms
            totals = self.building_totals(c, legal)
            return compact_totals(legal, totals, _first_best(totals), label=functools.partial(order_label, c))
        terms = rank(obs, legal, c)
        totals = [t.total for t in terms]
        best = _first_best(totals)
        if not self.explain:
            return compact_totals(legal, totals, best, label=functools.partial(order_label, c))
        why = "; ".join(x.en for x in sorted(terms[best].items, key=lambda x: -abs(x.value))[:2]) or "nothing to gain or lose"
        if c.emergency:
            why = f"emergency (Upkeep success {c.p_up:.0%}, Unrest {c.k.unrest}): " + why
        return explained(legal, terms, best, label=functools.partial(order_label, c), reason=why,
                         tie_how="the first listed wins (the rules' order of alternatives)")

    # ---- ordinary edicts (SC-KM-14/15/16) ---------------------------------------------------------
    # A point of Unrest costs ``c.unrest_value`` BP, a Stability point moves the Upkeep check by 5%,
    # a point of Economy brings a third of a BP of taxes; all counted over a year (12 turns).
    def score_taxation(self, c: _Ctx, level: str, t: Terms) -> None:
        eco, loy = K.TAXATION[level]
        cur_eco, cur_loy = K.TAXATION[c.k.taxation]
        if K.count_buildings(c.k, ("waterfront",)):
            loy, cur_loy = (-((-loy) // 2) if loy < 0 else loy), (-((-cur_loy) // 2) if cur_loy < 0 else cur_loy)
        t.add("taxes", 12 * (eco - cur_eco) / 3 * c.money_w, f"taxes over a year (Economy {eco - cur_eco:+d})",
              f"d'impôts sur un an (Économie {eco - cur_eco:+d})")
        t.add("loyalty", 12 * c.loyalty_value(loy - cur_loy), f"Loyalty {loy - cur_loy:+d} over a year", f"Loyauté {loy - cur_loy:+d} sur un an")

    def score_holiday(self, c: _Ctx, level: str, t: Terms) -> None:
        loy, cons = K.HOLIDAY[level]
        cur_loy, cur_cons = K.HOLIDAY[c.k.holiday]
        if K.vacant(c.k, "councilor"):
            loy, cur_loy = min(loy, 0), min(cur_loy, 0)
        t.add("loyalty", 12 * c.loyalty_value(loy - cur_loy), f"Loyalty {loy - cur_loy:+d} over a year", f"Loyauté {loy - cur_loy:+d} sur un an")
        t.add("consumption", -12 * (cons - cur_cons) * c.money_w, "Consumption over a year", "de Consommation sur un an")

    def score_promotion(self, c: _Ctx, level: str, t: Terms) -> None:
        stab, cons = K.PROMOTION[level]
        cur_stab, cur_cons = K.PROMOTION[c.k.promotion]
        c.stability_terms(t, stab - cur_stab)
        t.add("consumption", -12 * (cons - cur_cons) * c.money_w, "Consumption over a year", "de Consommation sur un an")

    # ---- building the kingdom (SC-KM-13, 17, 28…33) -----------------------------------------------
    def _affordable(self, c: _Ctx, cost: int, t: Terms, scale: float = 1.0) -> None:
        v = _reserve_value(c, cost, scale)
        if v:
            t.add("reserve", v, f"leaves less than the reserve of {c.reserve} BP", f"laisse moins que la réserve de {c.reserve} PC")

    def score_claim(self, c: _Ctx, h: int | None, t: Terms) -> None:
        if h is None:
            return
        hx = c.w.map.hexes[h]
        tr = K.km_terrain(hx.terrain)
        pot = 0.2  # BP per turn the hex can bring once improved
        if tr in ("plains", "hills") or (tr == "desert" and (hx.river or hx.coast)):
            pot = 1.6
        if tr in ("mountains", "cavern", "hills", "desert"):
            pot = max(pot, 1.3)
        if tr in ("forest", "jungle"):
            pot = max(pot, 1.1)
        pot += 0.2 * hx.river + 0.2 * (hx.road_level >= 2)
        t.add("potential", 12 * pot, f"income the {hx.terrain} at {_hx(c, h)} can bring once improved over a year",
              f"de revenu que {hx.terrain} en {_hx(c, h)} peut rapporter une fois aménagé, sur un an")
        t.add("consumption", -12 * 1.0 - 1.2, "Consumption of one more hex over a year", "de Consommation d'un hex de plus sur un an")
        c.stability_terms(t, 0, 1)
        if c.lost_land:
            t.add("regain", 12.0, "land to regain after losing hexes", "des terres à regagner après des pertes")
        if c.k.unrest >= 2:
            t.add("unrest", -24.0, f"Unrest {c.k.unrest}: settle the people first", f"Insatisfaction {c.k.unrest} : apaiser d'abord")
        self._affordable(c, 1, t, 12)

    def score_improvement(self, c: _Ctx, o: ImprovementOrder | None, t: Terms) -> None:
        if o is None:
            return
        cost = K.improvement_cost(c.w, o.hex, o.kind) or 0
        if o.kind == "farm":
            per = 2.0 if c.st.raw_consumption > 0 else (0.5 if c.wants_food else 0.1)
            what = ("food over a year", "de nourriture sur un an")
        elif o.kind == "fishery":
            per = 1.0 if c.st.raw_consumption > 0 else 0.1
            what = ("food over a year", "de nourriture sur un an")
        elif o.kind == "mine":
            per = 1.0 + 1 / 3
            what = ("income over a year", "de revenu sur un an")
        elif o.kind in ("quarry", "sawmill"):
            per = 1.0 + c.stability_value(1)
            what = ("income and Stability over a year", "de revenu et de Stabilité sur un an")
        else:
            per = 0.15
            what = ("of use over a year", "d'usage sur un an")
        t.add("yield", per * 12, *what)
        t.add("cost", -cost * c.cost_w, f"cost ({cost} BP, weighed by the treasury)", f"de coût ({cost} PC, pesé selon le trésor)")
        t.add("holdings", 0.5 * cost, "added to the kingdom's holdings", "ajoutés au patrimoine du royaume")
        self._affordable(c, cost, t, 10)

    def score_building(self, c: _Ctx, o: BuildOrder | EmbassyBuildingOrder | None, t: Terms) -> None:
        if o is None:
            return
        embassy = isinstance(o, EmbassyBuildingOrder)
        b, shared = c.kind_terms(self, o.kind, embassy)
        t.extend(shared)
        if embassy:
            self._affordable(c, b.bp, t, 10)
            return
        assert isinstance(o, BuildOrder)
        s, _have, _spread = c.settlement_info(o.settlement)
        route, port, spread = _building_bonus(c, o)
        if route:
            t.add("route", route, *_ROUTE_WORDS[c.wanted_route])
        if port:
            t.add("port", port, "a first port building", "un premier bâtiment portuaire")
        if spread:
            assert s is not None
            t.add("spread", spread, f"builds up {s.name} beyond the capital", f"développe {s.name} au-delà de la capitale")
        self._affordable(c, b.bp, t, 10)

    def building_totals(self, c: _Ctx, legal: Sequence[Any]) -> list[float]:
        """Each building slot alternative's total, equal to the ``total`` of the terms
        :meth:`score_building` writes (the same values summed in the same order), without writing
        them. A candidate's score is its kind's shared terms, its settlement's bonuses and its
        kind's reserve term, so it is summed once per kind and set of bonuses in a decision (most
        kinds' only bonus is ``spread``, a settlement's) and kept across decisions
        (:meth:`_building_total`)."""
        memo: dict[tuple[Any, ...], float] = {}
        out: list[float] = []
        append = out.append
        place = ""  # the settlement of the last BuildOrder (the menu lists a settlement's kinds together)
        spread = False
        for o in legal:
            if o is None:
                append(0.0)
                continue
            if type(o) is BuildOrder:
                if o.settlement != place:
                    place = o.settlement
                    spread = c.settlement_info(place)[2]
                kind = o.kind
                key: tuple[Any, ...] = (kind, *_building_bonus(c, o)) if kind in _PLACED_KINDS else (kind, spread)
            elif type(o) is EmbassyBuildingOrder:
                key = (o.kind, "embassy")
            else:
                append(self._building_total(c, o))
                continue
            tot = memo.get(key)
            if tot is None:
                tot = memo[key] = self._building_total(c, o)
            append(tot)
        return out

    def _building_total(self, c: _Ctx, o: BuildOrder | EmbassyBuildingOrder) -> float:
        """The total of :meth:`score_building`'s terms for ``o``: its kind's shared terms, then its
        bonuses, then its reserve term, summed in that order (``Terms.total``). Kept by what it is
        made of (the kind's terms' key, the bonuses, the reserve term), across decisions."""
        embassy = isinstance(o, EmbassyBuildingOrder)
        kind = o.kind
        bonus = tuple([v for v in _building_bonus(c, o) if v]) if isinstance(o, BuildOrder) else ()
        reserve = _reserve_value(c, K.BUILDINGS[kind].bp, 10)
        key = (_kind_key(c, kind, embassy), bonus, reserve)
        tot = _BUILD_TOTALS.get(key)
        if tot is None:
            _b, shared = c.kind_terms(self, kind, embassy)
            values = [*shared.values, *bonus]
            if reserve:
                values.append(float(reserve))
            if len(_BUILD_TOTALS) >= 50_000:
                _BUILD_TOTALS.clear()
            tot = _BUILD_TOTALS[key] = sum(values, 0.0)
        return tot

    def building_kind_terms(self, c: _Ctx, kind: str, embassy: bool) -> tuple[Any, Terms]:
        """A building kind and the terms of the kind alone, the same for every settlement: written
        once per set of values they are made of besides the kind, keyed by those values (none of
        them is 0.0 when its term is written: Terms.add skips zeros, so -0.0 and 0.0 give the same
        terms). :meth:`_Ctx.kind_terms` keeps them for the decision."""
        key = _kind_key(c, kind, embassy)
        shared = _KIND_TERMS.get(key)
        if shared is None:
            if len(_KIND_TERMS) >= 50_000:
                _KIND_TERMS.clear()
            shared = _KIND_TERMS[key] = self._building_kind_terms(c, K.BUILDINGS[kind], embassy)
        return K.BUILDINGS[kind], shared

    def _building_kind_terms(self, c: _Ctx, b: Any, embassy: bool) -> Terms:
        t = Terms("BP")
        if embassy:
            t.add("economy", 12 * (b.economy + 2) / 3, "taxes and trade over a year", "d'impôts et de commerce sur un an")
            t.add("stability", 12 * c.stability_value(b.stability), "Upkeep chance over a year", "de chance d'entretien sur un an")
            t.add("loyalty", 12 * c.loyalty_value(b.loyalty), "Loyalty over a year", "de Loyauté sur un an")
            t.add("fame", 12 * (b.fame * 0.3 - 1.0), "Fame, less the embassy's upkeep, over a year", "de Gloire, moins l'entretien de l'ambassade, sur un an")
            t.add("cost", -b.bp * c.cost_w, f"cost ({b.bp} BP, weighed by the treasury)", f"de coût ({b.bp} PC, pesé selon le trésor)")
            return t
        t.add("economy", 12 * b.economy / 3, "taxes over a year", "d'impôts sur un an")
        t.add("stability", 12 * c.stability_value(b.stability), f"Upkeep chance over a year (Stability {b.stability:+d})",
              f"de chance d'entretien sur un an (Stabilité {b.stability:+d})")
        t.add("loyalty", 12 * c.loyalty_value(b.loyalty), "Loyalty over a year", "de Loyauté sur un an")
        t.add("fame", 12 * b.fame * 0.3, "Fame over a year", "de Gloire sur un an")
        sm = b.settlement
        t.add("settlement", 12 * (0.05 * sm.get("productivity", 0) - 0.05 * sm.get("corruption", 0) - 0.03 * sm.get("crime", 0)),
              "settlement modifiers over a year", "de modificateurs de colonie sur un an")
        t.add("cost", -b.bp * c.cost_w, f"cost ({b.bp} BP, weighed by the treasury)", f"de coût ({b.bp} PC, pesé selon le trésor)")
        t.add("holdings", 0.5 * b.bp, "added to the kingdom's holdings", "ajoutés au patrimoine du royaume")
        t.add("unrest", -b.unrest * c.unrest_value, "Unrest it brings", "d'Insatisfaction qu'il apporte")
        return t

    def score_district(self, c: _Ctx, name: str | None, t: Terms) -> None:
        """An extra district (SC-KM-28): room for 36 lots of buildings, at the preparation cost of the
        settlement's terrain and +1 Control DC (SC-KM-04)."""
        if name is None:
            return
        s = K.settlement(c.k, name)
        if s is None:
            return
        cost = K.TERRAIN[K.km_terrain(c.w.map.hexes[s.hex].terrain)][1] or 0
        t.add("room", 24.0, f"room for new buildings in {name} (36 lots)", f"de place pour de nouveaux bâtiments à {name} (36 lots)")
        t.add("cost", -cost * c.cost_w, f"cost ({cost} BP, weighed by the treasury)", f"de coût ({cost} PC, pesé selon le trésor)")
        t.add("holdings", 0.5 * cost, "added to the kingdom's holdings", "ajoutés au patrimoine du royaume")
        c.stability_terms(t, 0, 1)
        self._affordable(c, cost, t, 10)

    def score_relation(self, c: _Ctx, o: RelationOrder | None, t: Terms) -> None:
        if o is None:
            return
        if o.action == "renegotiate":
            p = p_check(c.st.loyalty - c.k.unrest, c.st.control_dc, kingdom=True)
            t.add("renegotiate", 2.0 * p - 1.5 * (1 - p), f"renegotiation succeeds {p:.0%}", f"renégociation réussie à {p:.0%}")
            return
        if o.action == "close_embassy":
            t.add("close", -2.0, "an embassy lost", "une ambassade perdue")
        else:
            t.add("break", -4.0, "a treaty broken", "un traité rompu")

    def score_envoy(self, c: _Ctx, tg: str | None, t: Terms) -> None:
        if tg is None:
            return
        km = c.km
        if km.enemies(c.kid, tg) or km.stance(tg, c.kid).attitude == "hostile":
            t.add("hostile", -1.0, f"{tg} is hostile", f"{tg} est hostile")
            return
        lvl = km.level(c.kid, tg)
        if lvl >= 3 and rebalanceable(km, c.kid, tg) is None:
            t.add("nothing", -0.5, "nothing left to gain", "plus rien à gagner")
            return
        path = links.envoy_path(c.w, c.kid, tg)
        dist = len(path) if path else 99
        t.add("relations", 1.5 + 0.3 * (3 - lvl), f"closer relations with {tg}", f"relations plus étroites avec {tg}")
        t.add("distance", -dist / 40, f"{dist} hexes to travel", f"{dist} hex à parcourir")

    def score_balance(self, c: _Ctx, choice: str, t: Terms) -> None:
        evil = c.k.alignment.endswith("E")
        good = c.k.alignment.endswith("G")
        if choice == "balanced":
            t.add("balanced", 1.0, "a balanced agreement", "un accord équilibré")
            if good:
                t.add("alignment", 0.8, "a good ruler's way", "la voie d'un souverain bon")
            return
        t.add("advantage", 1.2, "an agreement to its advantage", "un accord à son avantage")
        if evil:
            t.add("alignment", 0.8, "an evil ruler's way", "la voie d'un souverain mauvais")

    def score_lose_hex(self, c: _Ctx, h: int, t: Terms) -> None:
        cap = K.capital_hex(c.k)
        dist = c.w.map.distance(cap, h) if cap is not None else 0
        t.add("distance", dist * 0.2, f"{dist} hexes from the capital", f"à {dist} hex de la capitale")
        t.add("improvements", -2.0 * len(c.k.improvements.get(h, [])), "improvements lost", "aménagements perdus")
        t.add("road", -0.5 * (c.w.map.hexes[h].road_level >= 2), "a road lost", "une route perdue")

    # ---- the special edict (KM-GEN-02) ---------------------------------------------------------
    def score_special(self, c: _Ctx, o: Any, t: Terms) -> None:
        if o is None:
            return
        if isinstance(o, DiplomaticEdict):
            self._diplomatic(c, o, t)
        elif isinstance(o, ExplorationEdict):
            self._exploration(c, o, t)
        elif isinstance(o, TradeEdict):
            self._trade(c, o, t)
        elif isinstance(o, VassalageEdict):
            self._vassalage(c, o, t)
        else:
            t.add("unknown", -1.0, "not considered", "non envisagé")

    def _diplomatic(self, c: _Ctx, o: DiplomaticEdict, t: Terms) -> None:
        km = c.km
        tk = km.kingdoms[o.target]
        cost = 2.5 + o.bribe
        att = km.stance(o.target, c.kid).attitude
        hostile = km.enemies(c.kid, o.target) or att in ("hostile", "unfriendly")
        if o.kind == "rebalance":
            t.add("rebalance", 1.5, "a rebalanced agreement", "un accord rééquilibré")
            t.add("cost", -2.5, "the edict's cost", "de coût de l'édit")
            return
        if o.kind == "threat":
            dc = c.diplomatic_dc(o.target, True) - o.bribe
            mod = c.k.skills.get("intimidate", 0) + c.st.infamy + c.k.armies + c.st.infamy // 10
            p = p_check(mod, dc, kingdom=False)
            good = c.k.alignment.endswith("G")
            evil = c.k.alignment.endswith("E")
            t.add("threat", p * 4.0 - (1 - p) * 3.0 - 1.5, f"a threat to {o.target} succeeds {p:.0%}", f"une menace contre {o.target} réussit à {p:.0%}")
            t.add("cost", -cost, "the edict's cost and bribe", "de coût de l'édit et de pot-de-vin")
            t.add("alignment", (-3.0 if good else 0.0) + (6.0 if evil else 0.0), "the ruler's alignment", "l'alignement du souverain")
            return
        dc = c.diplomatic_dc(o.target, False) - o.bribe
        skill = o.skill if o.kind == "alliance" else "diplomacy"
        bonus = c.st.fame // 10 if skill == "diplomacy" else c.st.infamy // 10
        p = p_check(c.k.skills.get(skill, 0) + bonus, dc, kingdom=False)
        red = 1 if K.agreements_held(km, c.kid) > 0 else 0
        tst = c.stats_of(o.target)
        eco = tst.economy if tk.tracked else 7 + K.size_of(tk)
        treaty_value = 1.0 + max(0, max(0, eco) // 10 - red) * 10.0  # ten turns of the Economy bonus
        if o.kind == "embassy":
            gain, pw, fail = 2.0 + 0.5 * treaty_value, p, 1.5
        elif o.kind == "treaty":
            gain, pw, fail = treaty_value, p_at_least(p, 3, 2), 2.0
        else:
            stab = tst.stability if tk.tracked else 7 + K.size_of(tk)
            bonus = max(0, max(0, stab) // 10 - 1)
            gain, pw, fail = 1.0 + bonus * 10 * max(0.2, c.stability_value(1)), p_at_least(p, 6, 4), 2.0
        if hostile:
            gain *= 0.3
        t.add("gain", pw * gain, f"{o.kind} with {o.target} won {pw:.0%}", f"{o.kind} avec {o.target} obtenu à {pw:.0%}")
        t.add("failure", -(1 - pw) * fail, "what a failure costs", "ce que coûte un échec")
        t.add("cost", -cost, "the edict's cost and bribe", "de coût de l'édit et de pot-de-vin")

    def _exploration(self, c: _Ctx, o: ExplorationEdict, t: Terms) -> None:
        km = c.km
        speed = c.w.config.km.explorer_speed_ft
        new = [h for h in o.route if not km.explored(h)]
        days = 0
        for h in o.route:
            terr = c.w.map.hexes[h].terrain
            days += K.explore_days(speed, terr) if not km.explored(h) else 1
        per = c.w.config.km.days_per_turn
        covered = min(len(new), len(new) * o.months * per // max(1, days))
        scarce = 1.6 if len(c.claimable) < 2 else 0.6
        t.add("explored", covered * 1.3 * scarce, f"{covered} hexes explored", f"{covered} hex explorés")
        if o.months > 1 and days <= per:
            t.add("too_long", -2.0, "more months than the route needs", "plus de mois que la route n'en demande")
        t.add("cost", -2.5 * o.months, "the edict's cost", "de coût de l'édit")
        if c.k.unrest >= 5:
            t.add("unrest", -1.5, "Unrest too high to send explorers", "Insatisfaction trop forte pour envoyer des explorateurs")

    def _trade(self, c: _Ctx, o: TradeEdict, t: Terms) -> None:
        k = c.k
        s = K.settlement(k, o.origin)
        if s is None:
            t.add("no_origin", -9.0, "no such settlement", "pas de telle colonie")
            return
        pier = s.buildings.get("pier", 0) > 0
        wf = s.buildings.get("waterfront", 0) > 0
        path = list(o.path)
        if not path:
            dest = K.settlement(c.km.kingdoms[o.partner], o.destination)
            path = (K.trade_path(c.w, s.hex, dest.hex, pier, wf) or []) if dest is not None else []
        halves = sum((K.route_weight(c.w, h, pier, wf) or (0, ""))[0] for h in path)
        rm = halves // 20
        lm = max(0, (2 * K.size_of(k) - halves) // 2)
        mods = K.settlement_mods(c.w, k, s)
        dc = c.st.control_dc + mods["corruption"] + rm + lm - mods["productivity"]
        ps = [p_check(getattr(c.st, a) - k.unrest, dc, kingdom=True) for a in ("economy", "loyalty", "stability")]
        p0 = (1 - ps[0]) * (1 - ps[1]) * (1 - ps[2])
        p3 = ps[0] * ps[1] * ps[2]
        p1 = sum(ps[i] * (1 - ps[(i + 1) % 3]) * (1 - ps[(i + 2) % 3]) for i in range(3))
        p2 = 1 - p0 - p1 - p3
        blocks = o.investment // 5
        tb = K.type_bonus(c.w, k, o.origin, o.type)
        est = p2 * (rm + 5 * blocks + (1 + tb) * 12 * 0.3) + p3 * (rm + 5 * blocks + (2 + tb) * 12 * 0.3 + 1.5)
        t.add("returns", est + p1 * 2.5 * blocks, f"expected returns of the route to {o.destination}", f"de retours attendus de la route vers {o.destination}")
        t.add("failure", -p0 * 2.5, "what a failed expedition costs", "ce que coûte une expédition ratée")
        t.add("investment", -float(o.investment) * c.cost_w, "invested (weighed by the treasury)", "investis (pesés selon le trésor)")

    def _vassalage(self, c: _Ctx, o: VassalageEdict, t: Terms) -> None:
        k = c.k
        grant = o.grant if not o.grant_max else max(0, k.treasury - 3) // 4
        vassals = sum(1 for x in c.km.kingdoms.values() if x.overlord == k.id)
        if o.mode == "subjugation" and o.target is not None:
            tk = c.km.kingdoms[o.target]
            dc = c.st.control_dc + K.size_of(tk) // 5
            p = p_check(c.st.loyalty - k.unrest, dc, kingdom=True)
            t.add("subjugation", 6.0 + 1.5 * K.size_of(tk) * p, f"{o.target} subjugated ({p:.0%} a check)",
                  f"{o.target} assujetti ({p:.0%} par test)")
            unrest = friction_unrest(p)
            t.add("friction", -unrest * c.unrest_value, f"friction until equilibrium: about {unrest:.0f} Unrest",
                  f"frictions jusqu'à l'équilibre : environ {unrest:.0f} d'Insatisfaction")
            if c.subjugation_under_way:
                t.add("already", -50.0, "a subjugation is already under way", "un assujettissement est déjà en cours")
            t.add("cost", -grant * 0.3 - 2.5, "the edict's cost and grant", "de coût de l'édit et de dotation")
            return
        # a new vassal or colony: only if it can stand (its Upkeep check) and it relieves the overlord
        eco, loy, stab = K.alignment_base(k.alignment)
        if len(k.vassal_attrs) == 3:
            stab += k.vassal_attrs[2]
        leaders = {*k.vassal_leaders, "viceroy"}
        for role, _e, _l, st_pen in VACANCY_ATTRS:
            if role not in leaders:
                stab += st_pen
        moved = [x for x in k.settlements if x.hex in o.hexes]
        for x in moved:
            stab += sum(K.BUILDINGS[b].stability * n for b, n in x.buildings.items())
        dc = 20 + len(o.hexes) + sum(x.districts for x in moved)
        p_vassal = p_check(stab, dc, kingdom=True)
        unrest_roles = sum(1 for r, _n in VACANCY_UNREST if r not in leaders)
        if p_vassal < 0.5 or unrest_roles:
            t.add("cannot_stand", -5.0, f"the new realm would stand {p_vassal:.0%}", f"le nouveau royaume tiendrait à {p_vassal:.0%}")
            return
        if o.mode == "colony":
            t.add("colony", 1.0, "a colony founded", "une colonie fondée")
            t.add("cost", -grant * 0.2 - 2.5 - 4.0 * vassals, "the edict's cost, grant and vassals already held",
                  "de coût de l'édit, de dotation et de vassaux déjà tenus")
            return
        lost = len(o.hexes)
        t.add("relief", c.stability_value(0, -lost) * 2 - lost * 1.0 + (3.0 if k.unrest >= 5 else 0.0), "relief of a smaller realm",
              "soulagement d'un royaume plus petit")
        t.add("size", (K.size_of(k) - 25) * 0.5, "the realm's size", "la taille du royaume")
        t.add("cost", -grant * 0.2 - 2.5 - 4.0 * vassals, "the edict's cost, grant and vassals already held",
              "de coût de l'édit, de dotation et de vassaux déjà tenus")


# the terms of a building kind, by kind and the values they are made of: they recur from one decision to the
# next and from one kingdom to another (bounded; a long-lived process clears it when full)
_KIND_TERMS: dict[tuple[Any, ...], Terms] = {}
# a building candidate's total, by its kind's terms' key, its bonuses and its reserve term
_BUILD_TOTALS: dict[tuple[Any, ...], float] = {}


def _kind_key(c: _Ctx, kind: str, embassy: bool) -> tuple[Any, ...]:
    """Everything a building kind's shared terms are made of (:meth:`KingdomHeuristic._building_kind_terms`)."""
    b = K.BUILDINGS[kind]
    return (kind, embassy, c.stability_value(b.stability), c.loyalty_value(b.loyalty), c.cost_w, c.unrest_value)


class _Ctx:
    """What the heuristic reads once per decision (the statistics and what follows from them only
    when a score asks: envoys, relations and lost hexes do not)."""

    def __init__(self, obs: KingdomObs) -> None:
        self.w = obs.world
        km = obs.world.km
        assert km is not None
        self.km = km
        self.kid = obs.kingdom
        self.slot = obs.slot
        self.k = km.kingdoms[obs.kingdom]
        self._st = obs.sheet
        k = self.k
        budget = k.construction_budget if k.budget_turn == km.turn else 0
        self.funds = k.treasury + budget
        self.unrest_value = 3.0 + k.unrest / 1.5 + (6.0 if k.unrest >= 8 else 0.0)
        # a subjugation of its own under way (KM-VAS-07 friction), or a conquest not yet made a vassal
        self.subjugation_under_way = any(
            x.subjugation is not None and x.subjugation.overlord == k.id and not x.subjugation.finished
            for x in km.kingdoms.values()
        )
        self.subjugating = self.subjugation_under_way or any(
            x.conquered_by == k.id and x.overlord is None for x in km.kingdoms.values())
        self._claimable: list[int] | None = None
        self._wanted: str | None = None
        self._stats: dict[str, K.Stats] = {}
        self._dcs: dict[tuple[str, bool], int] = {}
        self._stab_values: dict[tuple[int, int], float] = {}
        self._loy_values: dict[int, float] = {}
        self._kind_terms: dict[tuple[str, bool], tuple[Any, Terms]] = {}
        self._settlements: dict[str, tuple[Settlement | None, dict[str, int], bool]] = {}

    @property
    def st(self) -> K.Stats:
        if self._st is None:
            self._st = K.stats(self.w, self.k)
        return self._st

    @functools.cached_property
    def reserve(self) -> int:
        return 6 + 2 * self.st.consumption

    @functools.cached_property
    def money_w(self) -> float:
        k = self.k
        w = 1.6 if k.treasury < self.reserve else (1.0 if k.treasury < 3 * self.reserve else 0.6)
        if k.treasury > 12 * self.reserve:  # a full treasury: BP matter less than a content people
            w = max(0.05, 0.6 * 12 * self.reserve / k.treasury)
        return w

    @functools.cached_property
    def p_up(self) -> float:
        return p_check(self.st.stability - self.k.unrest, self.st.control_dc, kingdom=True)

    @functools.cached_property
    def emergency(self) -> bool:
        """Emergency mode: the Upkeep check fails too often, or Unrest nears anarchy (SC-KM-07)."""
        return self.p_up < 0.75 or self.k.unrest >= 5 or self.k.anarchy

    @functools.cached_property
    def cost_w(self) -> float:
        """How much a BP spent weighs: 1 while the treasury holds up to two years of income, ½ above
        (a full treasury lowers the weight of cost, issue 13)."""
        income = max(1.0, (10.5 + self.st.economy - self.k.unrest) / 3)
        two_years = 24 * income
        # the score counts BP above two years of income at half (docs/scoring.md, the reserve rule)
        return 1.0 if self.k.treasury <= two_years else 0.5

    @functools.cached_property
    def capital(self) -> str | None:
        return self.k.capital or (self.k.settlements[0].name if self.k.settlements else None)

    @functools.cached_property
    def capital_buildings(self) -> int:
        s = K.settlement(self.k, self.capital) if self.capital else None
        return sum(s.buildings.values()) if s is not None else 0

    @functools.cached_property
    def lost_land(self) -> bool:
        """It lost its capital or every settlement, or has domains occupied by guilds (LINK-08)."""
        k = self.k
        lost_cap = k.capital is not None and K.settlement(k, k.capital) is None
        return bool(k.occupied) or lost_cap or (bool(k.hexes) and not k.settlements)

    def stability_terms(self, t: Terms, ds: int, dcdc: int = 0) -> None:
        """The terms of moving Stability by ``ds`` and the Control DC by ``dcdc``: the expected Unrest of
        the Upkeep checks over a year, and the margin to the target chance (90%), weighed double in
        an emergency. Exact odds of the d20 (natural 1 fails, 20 succeeds)."""
        mod = self.st.stability - self.k.unrest
        p = p_check(mod + ds, self.st.control_dc + dcdc, kingdom=True)
        t.add("upkeep_risk", 12 * (p - self.p_up) * 2.5 * self.unrest_value,
              f"Upkeep risk over a year (success {self.p_up:.0%} → {p:.0%})", f"de risque d'entretien sur un an (réussite {self.p_up:.0%} → {p:.0%})")
        w = MARGIN_BP * (2 if self.emergency else 1)
        margin = -w * max(0.0, UPKEEP_TARGET - p) + w * max(0.0, UPKEEP_TARGET - self.p_up)
        t.add("upkeep_margin", margin, f"margin to a {UPKEEP_TARGET:.0%} Upkeep success" + (" (emergency)" if self.emergency else ""),
              f"de marge vers {UPKEEP_TARGET:.0%} de réussite d'entretien" + (" (urgence)" if self.emergency else ""))

    def kind_terms(self, h: KingdomHeuristic, kind: str, embassy: bool) -> tuple[Any, Terms]:
        """:meth:`KingdomHeuristic.building_kind_terms`, once per kind in a decision (the building
        slot scores each kind in every settlement)."""
        got = self._kind_terms.get((kind, embassy))
        if got is None:
            got = self._kind_terms[kind, embassy] = h.building_kind_terms(self, kind, embassy)
        return got

    def settlement_info(self, name: str) -> tuple[Settlement | None, dict[str, int], bool]:
        """Settlement ``name`` of the kingdom, its buildings, and whether building there spreads the
        realm beyond its capital (a settlement other than the capital with fewer buildings), once per
        settlement in a decision."""
        got = self._settlements.get(name)
        if got is None:
            s = K.settlement(self.k, name)
            have = s.buildings if s is not None else {}
            spread = (s is not None and self.capital is not None and s.name != self.capital
                      and sum(have.values()) < self.capital_buildings)
            got = self._settlements[name] = (s, have, spread)
        return got

    def diplomatic_dc(self, target: str, threat: bool) -> int:
        """KM-DIP-04's DC against ``target`` before bribes, once per target in a decision: the
        candidates differ in their bribes, and each bribed BP lowers the DC by 1, unfloored (RES-KM-03)."""
        key = (target, threat)
        got = self._dcs.get(key)
        if got is None:
            got = self._dcs[key] = K.diplomatic_dc(self.w, self.kid, target, 0, threat=threat, st=self.st)[0]
        return got

    def stats_of(self, kid: str) -> K.Stats:
        if kid == self.kid:
            return self.st
        got = self._stats.get(kid)
        if got is None:
            got = self._stats[kid] = K.stats(self.w, self.km.kingdoms[kid])
        return got

    def stability_value(self, ds: int, dcdc: int = 0) -> float:
        """BP per turn of changing Stability by ``ds`` and the Control DC by ``dcdc``: the Upkeep
        check's chance moves, and each failure costs about 2.5 Unrest more than a success."""
        key = (ds, dcdc)
        got = self._stab_values.get(key)
        if got is None:
            mod = self.st.stability - self.k.unrest
            p = p_check(mod + ds, self.st.control_dc + dcdc, kingdom=True)
            got = self._stab_values[key] = (p - self.p_up) * 2.5 * self.unrest_value
        return got

    def loyalty_value(self, dl: int) -> float:
        """BP per turn of changing Loyalty by ``dl``: little, unless Loyalty would go negative
        (Unrest +1 a turn, SC-KM-12) or Loyalty checks are due (subjugation friction)."""
        got = self._loy_values.get(dl)
        if got is None:
            got = self._loy_values[dl] = self._loyalty_value(dl)
        return got

    def _loyalty_value(self, dl: int) -> float:
        after = self.st.loyalty + dl
        # a Loyalty point is a margin against Unrest (SC-KM-12) and helps every Loyalty check
        v = dl * (0.6 if self.subjugating else 0.25) * self.unrest_value / 3
        if after < 0 <= self.st.loyalty:
            v -= self.unrest_value
        elif self.st.loyalty < 0 <= after:
            v += self.unrest_value
        return v

    @property
    def claimable(self) -> list[int]:
        if self._claimable is None:
            owners = self.km.owners()
            out: set[int] = set()
            for h in self.k.hexes:
                for n in self.w.map.neighbors(h):
                    if n not in owners and self.km.explored(n) and not self.w.map.hexes[n].is_water:
                        out.add(n)
            self._claimable = sorted(out)
        return self._claimable

    @property
    def wanted_route(self) -> str:
        """The trade route type the ruler works toward: the first type not yet taken whose
        buildings are closest to done (Goods, then Luxuries, then Food)."""
        if self._wanted is None:
            taken = {r.type for r in self.km.routes if r.kingdom == self.kid and r.status in ("travelling", "established")}
            order = ["goods", "luxuries", "food"]
            if self.k.alignment.startswith("C"):
                order = ["luxuries", "goods", "food"]
            self._wanted = next((t for t in order if t not in taken), "goods")
        return self._wanted

    @property
    def wants_food(self) -> bool:
        return self.wanted_route == "food"
