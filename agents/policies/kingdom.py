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
from typing import Any

from agents.kingdom import KingdomObs, label
from agents.policies import Decision, Policy, register
from sim.rules import edicts as E
from sim.rules import kingdom as K
from sim.state.km import (
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    ExplorationEdict,
    ImprovementOrder,
    RelationOrder,
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
    ok = 0
    for face in range(1, 21):
        win = face + mod >= dc
        if kingdom:
            win = face != 1 and (win or face == 20)
        ok += win
    return ok / 20


def p_at_least(p: float, n: int, need: int) -> float:
    """Chance of at least ``need`` successes in ``n`` independent tries of chance ``p``."""
    from math import comb

    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(need, n + 1))


@register("kingdom", "heuristic")
class KingdomHeuristic(Policy):
    name = "heuristic"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        assert isinstance(obs, KingdomObs)
        ctx = _Ctx(obs)
        fn = getattr(self, f"score_{obs.slot}", None)
        if fn is None:
            return Decision(legal[0], [], f"no heuristic for {obs.slot}: first alternative")
        scores = [float(fn(ctx, a)) for a in legal]
        best = max(range(len(legal)), key=lambda i: (scores[i], -i))
        order = sorted(range(len(legal)), key=lambda i: (-scores[i], i))
        scored = [(label(legal[i]), round(scores[i], 4)) for i in order]
        return Decision(legal[best], scored, f"best {obs.slot} score")

    # ---- ordinary edicts (SC-KM-14/15/16) ---------------------------------------------------------
    # Values are BP per turn: a point of Unrest costs ``c.unrest_value`` BP, a Stability point moves
    # the Upkeep check by 5%, a point of Economy brings a third of a BP of taxes.
    def score_taxation(self, c: _Ctx, level: str) -> float:
        eco, loy = K.TAXATION[level]
        cur_eco, cur_loy = K.TAXATION[c.k.taxation]
        if K.count_buildings(c.k, ("waterfront",)):
            loy, cur_loy = (-((-loy) // 2) if loy < 0 else loy), (-((-cur_loy) // 2) if cur_loy < 0 else cur_loy)
        return (eco - cur_eco) / 3 * c.money_w + c.loyalty_value(loy - cur_loy)

    def score_holiday(self, c: _Ctx, level: str) -> float:
        loy, cons = K.HOLIDAY[level]
        cur_loy, cur_cons = K.HOLIDAY[c.k.holiday]
        if K.vacant(c.k, "councilor"):
            loy, cur_loy = min(loy, 0), min(cur_loy, 0)
        return c.loyalty_value(loy - cur_loy) - (cons - cur_cons) * c.money_w

    def score_promotion(self, c: _Ctx, level: str) -> float:
        stab, cons = K.PROMOTION[level]
        cur_stab, cur_cons = K.PROMOTION[c.k.promotion]
        return c.stability_value(stab - cur_stab) - (cons - cur_cons) * c.money_w

    # ---- building the kingdom (SC-KM-13, 17, 28…33) -----------------------------------------------
    def _affordable(self, c: _Ctx, cost: int) -> float:
        left = c.funds - cost
        return 0.0 if left >= c.reserve else -6.0 + left / max(1, c.reserve)

    def score_claim(self, c: _Ctx, h: int | None) -> float:
        if h is None:
            return 0.0
        hx = c.w.map.hexes[h]
        t = K.km_terrain(hx.terrain)
        pot = 0.2  # BP per turn the hex can bring once improved
        if t in ("plains", "hills") or (t == "desert" and (hx.river or hx.coast)):
            pot = 1.6
        if t in ("mountains", "cavern", "hills", "desert"):
            pot = max(pot, 1.3)
        if t in ("forest", "jungle"):
            pot = max(pot, 1.1)
        pot += 0.2 * hx.river + 0.2 * (hx.road_level >= 2)
        after = p_check(c.st.stability - c.k.unrest, c.st.control_dc + 1, kingdom=True)
        s = pot - 1.0 + c.stability_value(0, 1) - 0.1
        if after < 0.75:
            s -= (0.75 - after) * 20
        if c.k.unrest >= 2:
            s -= 2.0
        return s + self._affordable(c, 1)

    def score_improvement(self, c: _Ctx, o: ImprovementOrder | None) -> float:
        if o is None:
            return 0.0
        cost = K.improvement_cost(c.w, o.hex, o.kind) or 0
        if o.kind == "farm":
            per = 2.0 if c.st.raw_consumption > 0 else (0.5 if c.wants_food else 0.1)
        elif o.kind == "fishery":
            per = 1.0 if c.st.raw_consumption > 0 else 0.1
        elif o.kind == "mine":
            per = 1.0 + 1 / 3
        elif o.kind in ("quarry", "sawmill"):
            per = 1.0 + c.stability_value(1)
        else:
            per = 0.15
        return (per * 12 - cost) / 10 + self._affordable(c, cost)

    def score_building(self, c: _Ctx, o: BuildOrder | EmbassyBuildingOrder | None) -> float:
        if o is None:
            return 0.0
        if isinstance(o, EmbassyBuildingOrder):
            b = K.BUILDINGS[o.kind]
            per = (b.economy + 2) / 3 + c.stability_value(b.stability) + c.loyalty_value(b.loyalty) + b.fame * 0.3 - 1.0
            return (per * 12 - b.bp) / 10 + self._affordable(c, b.bp)
        b = K.BUILDINGS[o.kind]
        per = b.economy / 3 + c.stability_value(b.stability) + c.loyalty_value(b.loyalty) + b.fame * 0.3
        sm = b.settlement
        per += 0.05 * sm.get("productivity", 0) - 0.05 * sm.get("corruption", 0) - 0.03 * sm.get("crime", 0)
        v = per * 12 - b.bp - b.unrest * c.unrest_value
        s = K.settlement(c.k, o.settlement)
        have = s.buildings if s is not None else {}
        want = c.wanted_route
        if want == "goods" and o.kind == "guildhall" and not have.get("guildhall"):
            v += 40.0
        if want == "luxuries" and o.kind == "luxury_store" and not have.get("luxury_store"):
            v += 30.0
        if want == "food" and o.kind in ("granary", "stockyard") and not have.get(o.kind):
            v += 20.0
        if o.kind in ("pier", "waterfront") and not have.get(o.kind):
            v += 10.0
        return v / 10 + self._affordable(c, b.bp)

    def score_relation(self, c: _Ctx, o: RelationOrder | None) -> float:
        if o is None:
            return 0.0
        if o.action == "renegotiate":
            p = p_check(c.st.loyalty - c.k.unrest, c.st.control_dc, kingdom=True)
            return 2.0 * p - 1.5 * (1 - p)
        return -2.0 if o.action == "close_embassy" else -4.0

    def score_envoy(self, c: _Ctx, t: str | None) -> float:
        if t is None:
            return 0.0
        km = c.km
        if km.enemies(c.kid, t) or km.stance(t, c.kid).attitude == "hostile":
            return -1.0
        lvl = km.level(c.kid, t)
        if lvl >= 3 and E._rebalanceable(km, c.kid, t) is None:
            return -0.5
        path = E.envoy_path(c.w, c.kid, t)
        dist = len(path) if path else 99
        return 1.5 - dist / 40 + 0.3 * (3 - lvl)

    def score_balance(self, c: _Ctx, choice: str) -> float:
        evil = c.k.alignment.endswith("E")
        good = c.k.alignment.endswith("G")
        if choice == "balanced":
            return 1.0 + (0.8 if good else 0.0)
        return 1.2 + (0.8 if evil else 0.0)

    def score_lose_hex(self, c: _Ctx, h: int) -> float:
        cap = K.capital_hex(c.k)
        dist = c.w.map.distance(cap, h) if cap is not None else 0
        return dist * 0.2 - 2.0 * len(c.k.improvements.get(h, [])) - 0.5 * (c.w.map.hexes[h].road_level >= 2)

    # ---- the special edict (KM-GEN-02) ---------------------------------------------------------
    def score_special(self, c: _Ctx, o: Any) -> float:
        if o is None:
            return 0.0
        if isinstance(o, DiplomaticEdict):
            return self._diplomatic(c, o)
        if isinstance(o, ExplorationEdict):
            return self._exploration(c, o)
        if isinstance(o, TradeEdict):
            return self._trade(c, o)
        if isinstance(o, VassalageEdict):
            return self._vassalage(c, o)
        return -1.0

    def _diplomatic(self, c: _Ctx, o: DiplomaticEdict) -> float:
        km = c.km
        t = km.kingdoms[o.target]
        cost = 2.5 + o.bribe
        att = km.stance(o.target, c.kid).attitude
        hostile = km.enemies(c.kid, o.target) or att in ("hostile", "unfriendly")
        if o.kind == "rebalance":
            return 1.5 - 2.5
        if o.kind == "threat":
            dc = c.diplomatic_dc(o.target, True) - o.bribe
            mod = c.k.skills.get("intimidate", 0) + c.st.infamy + c.k.armies + c.st.infamy // 10
            p = p_check(mod, dc, kingdom=False)
            good = c.k.alignment.endswith("G")
            evil = c.k.alignment.endswith("E")
            return p * 4.0 - (1 - p) * 3.0 - 1.5 - cost - (3.0 if good else 0.0) + (6.0 if evil else 0.0)
        dc = c.diplomatic_dc(o.target, False) - o.bribe
        skill = o.skill if o.kind == "alliance" else "diplomacy"
        bonus = c.st.fame // 10 if skill == "diplomacy" else c.st.infamy // 10
        p = p_check(c.k.skills.get(skill, 0) + bonus, dc, kingdom=False)
        red = 1 if E.agreements_held(km, c.kid) > 0 else 0
        tst = c.stats_of(o.target)
        eco = tst.economy if t.tracked else 7 + K.size_of(t)
        treaty_value = 1.0 + max(0, max(0, eco) // 10 - red) * 10.0  # ten turns of the Economy bonus
        if o.kind == "embassy":
            gain, pw, fail = 2.0 + 0.5 * treaty_value, p, 1.5
        elif o.kind == "treaty":
            gain, pw, fail = treaty_value, p_at_least(p, 3, 2), 2.0
        else:
            stab = tst.stability if t.tracked else 7 + K.size_of(t)
            bonus = max(0, max(0, stab) // 10 - 1)
            gain, pw, fail = 1.0 + bonus * 10 * max(0.2, c.stability_value(1)), p_at_least(p, 6, 4), 2.0
        if hostile:
            gain *= 0.3
        return pw * gain - (1 - pw) * fail - cost

    def _exploration(self, c: _Ctx, o: ExplorationEdict) -> float:
        km = c.km
        speed = c.w.config.km.explorer_speed_ft
        new = [h for h in o.route if not km.explored(h)]
        days = 0
        for h in o.route:
            terr = c.w.map.hexes[h].terrain
            days += E.explore_days(speed, terr) if not km.explored(h) else 1
        per = c.w.config.km.days_per_turn
        covered = min(len(new), len(new) * o.months * per // max(1, days))
        scarce = 1.6 if len(c.claimable) < 2 else 0.6
        value = covered * 1.3 * scarce
        if o.months > 1 and days <= per:
            value -= 2.0
        return value - 2.5 * o.months - (1.5 if c.k.unrest >= 5 else 0.0)

    def _trade(self, c: _Ctx, o: TradeEdict) -> float:
        k = c.k
        s = K.settlement(k, o.origin)
        if s is None:
            return -9.0
        pier = s.buildings.get("pier", 0) > 0
        wf = s.buildings.get("waterfront", 0) > 0
        path = list(o.path)
        if not path:
            dest = K.settlement(c.km.kingdoms[o.partner], o.destination)
            path = (E.trade_path(c.w, s.hex, dest.hex, pier, wf) or []) if dest is not None else []
        halves = sum((E.route_weight(c.w, h, pier, wf) or (0, ""))[0] for h in path)
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
        tb = E.type_bonus(c.w, k, o.origin, o.type)
        est = p2 * (rm + 5 * blocks + (1 + tb) * 12 * 0.3) + p3 * (rm + 5 * blocks + (2 + tb) * 12 * 0.3 + 1.5)
        return est + p1 * 2.5 * blocks - p0 * 2.5 - o.investment

    def _vassalage(self, c: _Ctx, o: VassalageEdict) -> float:
        k = c.k
        grant = o.grant if not o.grant_max else max(0, k.treasury - 3) // 4
        vassals = sum(1 for x in c.km.kingdoms.values() if x.overlord == k.id)
        if o.mode == "subjugation" and o.target is not None:
            t = c.km.kingdoms[o.target]
            dc = c.st.control_dc + K.size_of(t) // 5
            p = p_check(c.st.loyalty - k.unrest, dc, kingdom=True)
            return 6.0 + 1.5 * K.size_of(t) * p - 2.5 * (1 - p) * 3 - grant * 0.3 - 2.5
        # a new vassal or colony: only if it can stand (its Upkeep check) and it relieves the overlord
        eco, loy, stab = K.alignment_base(k.alignment)
        if len(k.vassal_attrs) == 3:
            stab += k.vassal_attrs[2]
        leaders = {*k.vassal_leaders, "viceroy"}
        for role, _e, _l, st_pen in K._VACANCY_ATTRS:
            if role not in leaders:
                stab += st_pen
        moved = [x for x in k.settlements if x.hex in o.hexes]
        for x in moved:
            stab += sum(K.BUILDINGS[b].stability * n for b, n in x.buildings.items())
        dc = 20 + len(o.hexes) + sum(x.districts for x in moved)
        p_vassal = p_check(stab, dc, kingdom=True)
        unrest_roles = sum(1 for r, _n in K._VACANCY_UNREST if r not in leaders)
        if p_vassal < 0.5 or unrest_roles:
            return -5.0
        if o.mode == "colony":
            return 1.0 - grant * 0.2 - 2.5 - 4.0 * vassals
        lost = len(o.hexes)
        relief = c.stability_value(0, -lost) * 2 - lost * 1.0 + (3.0 if k.unrest >= 5 else 0.0)
        return relief + (K.size_of(k) - 25) * 0.5 - grant * 0.2 - 2.5 - 4.0 * vassals


class _Ctx:
    """What the heuristic reads once per decision (the statistics and what follows from them only
    when a score asks: envoys, relations and lost hexes do not)."""

    def __init__(self, obs: KingdomObs) -> None:
        self.w = obs.world
        km = obs.world.km
        assert km is not None
        self.km = km
        self.kid = obs.kingdom
        self.k = km.kingdoms[obs.kingdom]
        self._st = obs.sheet
        k = self.k
        budget = k.construction_budget if k.budget_turn == km.turn else 0
        self.funds = k.treasury + budget
        self.unrest_value = 3.0 + k.unrest / 1.5 + (6.0 if k.unrest >= 8 else 0.0)
        self.subjugating = any(
            (x.subjugation is not None and x.subjugation.overlord == k.id and not x.subjugation.finished)
            or (x.conquered_by == k.id and x.overlord is None)
            for x in km.kingdoms.values()
        )
        self._claimable: list[int] | None = None
        self._wanted: str | None = None
        self._stats: dict[str, K.Stats] = {}
        self._dcs: dict[tuple[str, bool], int] = {}

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

    def diplomatic_dc(self, target: str, threat: bool) -> int:
        """KM-DIP-04's DC against ``target`` before bribes, once per target in a decision: the
        candidates differ in their bribes, and each bribed BP lowers the DC by 1, unfloored (RES-KM-03)."""
        key = (target, threat)
        got = self._dcs.get(key)
        if got is None:
            got = self._dcs[key] = E.diplomatic_dc(self.w, self.kid, target, 0, threat=threat, st=self.st)[0]
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
        mod = self.st.stability - self.k.unrest
        p = p_check(mod + ds, self.st.control_dc + dcdc, kingdom=True)
        return (p - self.p_up) * 2.5 * self.unrest_value

    def loyalty_value(self, dl: int) -> float:
        """BP per turn of changing Loyalty by ``dl``: little, unless Loyalty would go negative
        (Unrest +1 a turn, SC-KM-12) or Loyalty checks are due (subjugation friction)."""
        after = self.st.loyalty + dl
        v = dl * (0.6 if self.subjugating else 0.05) * self.unrest_value / 3
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
