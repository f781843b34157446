"""Policies of the convoy agent (kind ``convoy``).

A convoy decides three things: the day's plan (a :class:`sim.state.cv.DayPlan`, once per day), the
route in a settlement (a :class:`sim.state.cv.RouteChoice`) and, in a combat hazard, which enemy to
attack (an enemy id, SC-CV-14). The observation is a dict whose ``decision`` key says which
(``day``, ``route``, ``target``). Both policies draw only from the rng they are handed (the agent's
own stream).

* ``random`` — uniform over the legal orders.
* ``heuristic`` — scores each legal order with a sum of simple terms: progress, risk of the day's
  hazard table, the odds of a forced march's Security checks (so it avoids risky ones), food
  against the days to the next village and to the destination (buys stores and forages when
  short), repairs, and calming the crew before a mutiny (gifts, double rations, rest days in
  villages, with the odds of the CV-UNR-06 check); routes by travel time plus risk, weighted by
  how battered the convoy is. Ties are broken with the rng.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from agents.policies import Decision, Policy, RandomPolicy, register
from agents.policies.explain import Terms, compact_totals, explained, explained_totals
from sim.state.cv import DayPlan, RouteChoice

TOP_SCORED = 6
# what leaving a wagon behind costs the heuristic (its price and its role)
ABANDON_COST = {"covered": 2.0, "supply": 4.0, "fortune_teller": 3.0, "horse_train": 1.0, "prisoner": 5.0,
                "royal_carriage": 6.0, "armored": 8.0}  # how many of the best-scored alternatives a decision records


@register("convoy", "random")
class RandomConvoyPolicy(RandomPolicy):
    """Uniform over the legal orders (plans, routes, targets alike)."""

    name = "random"


def p_success(bonus: int, dc: int) -> float:
    """Chance that 1d20 + bonus >= dc (no natural 1/20 rule, RES-CV-19)."""
    return min(1.0, max(0.0, (21 + bonus - dc) / 20))


@register("convoy", "heuristic")
class HeuristicConvoyPolicy(Policy):
    name = "heuristic"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not legal:
            raise ValueError("heuristic convoy policy: no legal order to choose from")
        if isinstance(obs, dict) and obs.get("decision") not in ("route", "target"):
            # a day has many legal plans: score them as numbers, name the terms of the shown ones only
            dt = DayTerms(obs)
            totals = dt.totals(legal)
            pick = _pick_best(totals, rng)
            if not self.explain:
                return compact_totals(legal, totals, pick, label=_label)
            return explained_totals(legal, totals, lambda i: dt.terms(legal[i]), pick, label=_label,
                                    reason=dt.reason(), tie_how="drawn by the policy's stream",
                                    scored_shown=TOP_SCORED)
        terms, reason = rank_with_reason(obs, legal)
        totals = [t.total for t in terms]
        pick = _pick_best(totals, rng)
        if not self.explain:
            return compact_totals(legal, totals, pick, label=_label)
        return explained(legal, terms, pick, label=_label, reason=reason, tie_how="drawn by the policy's stream",
                         scored_shown=TOP_SCORED)

    @staticmethod
    def route_cost(obs: dict[str, Any], r: RouteChoice) -> float:
        frac = obs["hp"] / obs["max_hp"] if obs["max_hp"] else 0.0
        w = 0.08 + 0.3 * (1 - frac) + (0.15 if obs.get("starving") else 0.0)
        return r.days + w * r.risk


def _pick_best(totals: Sequence[float], rng: random.Random) -> int:
    """The best score wins; a tie is broken by the policy's own stream."""
    best = max(totals)
    if totals.count(best) == 1:  # (the scores are never NaN: == and identity agree)
        return totals.index(best)
    ties = [i for i, sc in enumerate(totals) if sc == best]
    return ties[rng.randrange(len(ties))]


def rank_with_reason(obs: Any, legal: Sequence[Any]) -> tuple[list[Terms], str]:
    kind = obs.get("decision") if isinstance(obs, dict) else None
    out = []
    if kind == "route":
        frac = obs["hp"] / obs["max_hp"] if obs["max_hp"] else 0.0
        w = 0.08 + 0.3 * (1 - frac) + (0.15 if obs.get("starving") else 0.0)
        for r in legal:
            t = Terms("points")
            days, risk = round(r.days, 2), round(r.risk, 1)
            t.add("days", -float(r.days), f"{days:g} days of travel", f"{days:g} jours de voyage")
            t.add("risk", -w * r.risk, f"hazard risk {risk:g}, weighed by the wagons' state", f"risque de péril {risk:g}, pesé selon l'état des chariots")
            out.append(t)
        return out, "fewest travel days, hazard risk weighed by how battered the convoy is"
    if kind == "target":
        by_id = {e["id"]: e for e in obs["enemies"]}
        for i in legal:
            t = Terms("points")
            if i in by_id:
                t.add("hp", -float(by_id[i]["hp"]), f"{by_id[i]['hp']} hp left to strike down", f"{by_id[i]['hp']} pv restants à abattre")
            else:
                t.add("gone", -1e9, "no such enemy", "pas de tel ennemi")
            out.append(t)
        return out, "strike the weakest enemy first"
    dt = DayTerms(obs)
    return [dt.terms(p) for p in legal], dt.reason()


def rank(obs: Any, legal: Sequence[Any]) -> list[Terms]:
    """Every legal order's terms (same order as ``legal``), in points: the convoy heuristic's
    candidate ranking (what a look-ahead policy calls)."""
    return rank_with_reason(obs, legal)[0]


def _label(a: Any) -> str:
    return a.label() if isinstance(a, DayPlan) else str(a)


class DayTerms:
    """The day-plan scoring terms for one observation (precomputed once, summed per plan)."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.o = o = obs
        cons = max(1, o["consumption"])
        self.cons = cons
        self.hp_frac = o["hp"] / o["max_hp"] if o["max_hp"] else 0.0
        # provisions wanted to get past the next village to the one after (or to the end), with a margin:
        # a caravan short of that stops at the next village to buy
        horizon = o.get("second_village_days") or o["days_left"]
        self.food_need = cons * (min(o["days_left"], horizon) + 1.5)
        self.short = o["provisions"] < self.food_need
        self.food_days = o["provisions"] / cons
        u, m = o["unrest"], o["morale"]
        # worth of one point of Unrest: a little while calm, a lot near or in mutiny
        self.unrest_w = 0.0 if u == 0 else (0.5 if u < m else (2.5 if u == m else 6.0 + 2.0 * (u - m)))
        self.risk_w = 1.0 + 2.0 * (1 - self.hp_frac)
        self._cache: dict[tuple[Any, ...], float] = {}
        self._rest: dict[tuple[Any, ...], float] = {}
        self._risk_words: tuple[str, str] | None = None
        self._calm: dict[bool, float] = {}  # calm_value by village (a truthy village counts as in one)

    def reason(self) -> str:
        o = self.o
        bits = []
        if self.short:
            bits.append(f"food short ({o['provisions']} < {self.food_need:.0f})")
        if o["unrest"] >= o["morale"]:
            bits.append(f"unrest {o['unrest']} vs morale {o['morale']}")
        if self.hp_frac < 0.5:
            bits.append(f"hp {o['hp']}/{o['max_hp']}")
        return "; ".join(bits) or "steady travel"

    def calm_value(self, village: bool) -> float:
        got = self._calm.get(village)
        if got is None:
            o = self.o
            if not o["unrest"]:
                got = 0.0
            else:
                got = p_success(o["resolve"] - o["unrest"] + (5 if village else 0), 20) * self.unrest_w
            self._calm[village] = got
        return got

    def mutiny_cost(self) -> float:
        """What setting out costs a mutinous crew (CV-MUT-03, RES-CV-18): the daily Resolve check
        against the unrest DC halves the day's speed on a failure; failed by 5 or more, the crew
        refuses to move one time in two (or drags the caravan off its road), and a refusal is a
        blocked period that risks one more point of Unrest (CV-UNR-04 (d))."""
        o = self.o
        u, m, r = o["unrest"], o["morale"], o["resolve"]
        p_ok = p_success(r, 20 + u)
        p_bad = min(1.0, max(0.0, (15 + u - r) / 20))  # 1d20 + Resolve <= DC - 5
        lost = 10.0 * ((1 - p_ok) * 0.5 + p_bad * 0.25)
        rise = p_bad * 0.5 * (1 - p_ok)
        return 1.0 + lost + rise * (6.0 + 2.0 * (u + 1 - m))

    def move(self, p: DayPlan) -> float:
        """The movement's term (memoised by the movement)."""
        key = (p.move, p.night, p.extra, p.halt)
        v = self._cache.get(key)
        return self.movement(key) if v is None else v

    def movement(self, key: tuple[str, bool, int, bool]) -> float:
        """The term of the movement ``(move, night, extra, halt)`` (memoised)."""
        v = self._cache.get(key)
        if v is not None:
            return v
        o = self.o
        move, night, extra, halt = key
        v = 0.0
        if move == "travel":
            v = 10.0 - o["risk_today"] * self.risk_w * 0.5
            if o["margin"] > 0:
                v -= self.mutiny_cost()
            if night:
                v -= 5.0
            if halt:
                v -= 2.0
                if self.short or o["unrest"] >= o["morale"] or self.hp_frac < 0.5:
                    v += 5.0
            if extra:
                pass_p = p_success(o["security"], o["extra_dc"])
                alive = 1.0
                for _k in range(extra):
                    v += alive * pass_p * 0.8
                    alive *= pass_p
                v -= (1 - alive) * 14.0 + 2.0  # exhaustion costs the next day; tomorrow starts fatigued
                if o["starving"] and o["next_village_days"] and o["next_village_days"] <= (12 + extra) / 12:
                    v += 6.0
        elif move == "rest":
            v = 1.0 if o["condition"] == "fatigued" else 0.0
            if o["starving"] or self.food_days < 1:
                v -= 6.0
            v += self.calm_value(o["village"]) if o["could_move"] else 0.0
            if o["margin"] > 0 and o["village"]:
                v += 3.0
        elif move == "repair":
            units = min(o["repair"], o["wainwrights"])
            v = units * 10 * (0.3 + (1 - self.hp_frac)) - 2.0
            if o["hp"] == 0:
                v += 20.0
        self._cache[key] = v
        return v

    def score(self, p: DayPlan) -> float:
        """Sum of independent terms: the movement, then the day's other orders (each memoised)."""
        return self.move(p) + self.orders(p)

    def orders(self, p: DayPlan) -> float:
        """The term of the day's other orders (:meth:`others`, memoised by those orders)."""
        key = (p.forage, p.double, p.gift, p.buy, p.assign, p.abandon)
        rest = self._rest.get(key)
        if rest is None:
            rest = self._rest[key] = self.others(p)
        return rest

    def totals(self, legal: Sequence[DayPlan]) -> list[float]:
        """``[self.total(p) for p in legal]``; for a menu of ``legal_orders`` (a ``DayMenu``, as it
        was made), each group's other orders are scored once and its movements read from the memo."""
        runs = getattr(legal, "runs", None)
        if runs is None or getattr(legal, "size", -1) != len(legal):
            return [self.total(p) for p in legal]
        out: list[float] = []
        by_moves: dict[int, list[float]] = {}  # the movements' terms, by run (the menu's moves are shared tuples)
        for start, moves in runs:
            r0 = self.orders(legal[start])
            mvs = by_moves.get(id(moves))
            if mvs is None:
                mvs = by_moves[id(moves)] = [self.movement(k) for k in moves]
            # what total() computes: rest = score - mv, then sum((mv, rest), 0.0), which for two finite
            # floats is their correctly rounded sum, mv + rest
            out += [((mv + rest) if rest else mv) if mv else (rest if rest else 0.0)
                    for mv in mvs for rest in ((mv + r0) - mv,)]
        return out

    def total(self, p: DayPlan) -> float:
        """The plan's score exactly as ``terms(p).total`` sums it (the movement, then the other
        orders, each skipped when 0), without building the terms' words."""
        mv = self.move(p)
        rest = self.score(p) - mv
        if mv:
            return sum((mv, rest), 0.0) if rest else mv
        return rest if rest else 0.0

    def terms(self, p: DayPlan) -> Terms:
        """The plan's score as terms: its movement, then each of the day's other orders."""
        t = Terms("points")
        mv = self.move(p)
        en, fr = _move_words(p.move, p.extra)
        if self._risk_words is None:
            r = round(self.o["risk_today"], 2)
            self._risk_words = (f" (hazard risk {r:g} today)", f" (risque de péril {r:g} aujourd'hui)")
        t.add("move", mv, en + self._risk_words[0], fr + self._risk_words[1])
        rest = (mv + self.orders(p)) - mv  # score(p) - mv
        # (a gift or purchase order, a string or a tuple, is empty exactly when its list is)
        t.add("orders", rest, *_order_words(p.forage, p.double, bool(p.gift), bool(p.buy), bool(p.assign),
                                            bool(p.abandon)))
        return t

    def others(self, p: DayPlan) -> float:
        o = self.o
        v = 0.0
        if p.forage:
            v += (2.0 * o["scouts"] * (1.2 if self.short else 0.15)) - 0.3 * o["scouts"] * (o["risk_today"] > 0)
        if p.double:
            cost = self.cons * (0.05 if not self.short else 1.0)
            v += self.calm_value(o["village"]) - cost
        if p.gift:  # (no gift: no term; a gift order, a string or a tuple, is empty exactly when its list is)
            unrest, units = o["unrest"], o["gifts"]
            for gift in p.gifts:
                cut = min(unrest, 1 if gift == "trade_goods" else 3)
                unrest -= cut
                units += 1
                v += cut * self.unrest_w - units * (3.0 if gift == "trade_goods" else 8.0)
        for buy in p.purchases if p.buy else ():
            what, _, arg = buy.partition(":")
            if what == "stores":
                n = int(arg)
                useful = min(n * 10, max(0.0, self.food_need * 1.5 - o["provisions"]))
                v += useful * 0.5 - n * o["stores_cost"] * 0.01
            elif what == "repair":
                n = int(arg)
                v += (n * 3.0 * (1 - self.hp_frac) + (4.0 if o["repair"] == 0 else 0.0)) - n * 0.5
            elif what == "wagon":
                v += self.calm_value(True) - 4.0
            elif what == "axles":
                v += self.calm_value(True) + (0.5 if o["gp"] > 1500 else -2.0)
        if p.assign:
            v += 15.0
        if p.abandon:
            v += self.abandon_value(p.abandon)
        return v

    def abandon_value(self, kind: str) -> float:
        """Leaving a wagon of ``kind`` behind for want of drivers (CV-UNR-04 (a), SC-CV-09): worth
        getting moving again when the drivers will not come back soon; it costs the wagon's role,
        the cargo, stores and travelers that no longer fit, and the Resolve check's risk of one more
        point of Unrest."""
        o = self.o
        back = o.get("drivers_back_hours", None)
        # drivers back within two days: tomorrow's march needs no wagon left behind (a day lost, at most
        # two, against the day's progress); none coming back: the only way to move again
        v = -10.0 + 2.5 * back / 24 if back is not None and back <= 48 else 12.0
        v -= ABANDON_COST.get(kind, 5.0)
        cargo, food, people, hp, max_hp = o.get("abandon_losses", {}).get(kind, (0, 0, 0, o["hp"], o["max_hp"]))
        v -= 2.0 * cargo + 4.0 * people
        if max_hp > 0:  # the wagon's hit points go with it: a battered caravan may be left at 0
            v -= 20.0 * max(0.0, self.hp_frac - hp / max_hp) + (40.0 if hp == 0 else 0.0)
        v -= 0.5 * min(food, max(0.0, self.food_need - (o["provisions"] - food))) + 0.05 * food
        u, m = o["unrest"], o["morale"]
        worth = 0.5 if u + 1 < m else (2.5 if u + 1 == m else 6.0 + 2.0 * (u + 1 - m))
        v -= (1 - p_success(o["resolve"], 20 + u)) * worth
        return v


_MOVE_WORDS = {"travel": ("travel on", "voyager"), "rest": ("rest", "se reposer"),
               "repair": ("repair the wagons", "réparer les chariots")}
_FR_BITS = {"forage": "fourrage", "double rations": "double ration", "gifts": "cadeaux", "purchases": "achats",
            "assign": "affectation", "abandon": "abandon"}


@lru_cache(maxsize=256, typed=True)
def _move_words(move: str, extra: int) -> tuple[str, str]:
    """A movement's words (English, French), before the day's hazard risk."""
    en, fr = _MOVE_WORDS.get(move, (move, move))
    if extra:
        en, fr = en + f" with {extra} extra hours", fr + f" avec {extra} heures de plus"
    return en, fr


@lru_cache(maxsize=256)
def _order_words(forage: bool, double: bool, gifts: bool, purchases: bool, assign: bool, abandon: bool) -> tuple[str, str]:
    """The words of a plan's other orders (English, French), by which of them it holds."""
    bits = [x for x, on in (("forage", forage), ("double rations", double), ("gifts", gifts), ("purchases", purchases),
                            ("assign", assign), ("abandon", abandon)) if on]
    return (("from " + ", ".join(bits) if bits else "from the day's other orders"),
            (_de(", ".join(_FR_BITS[b] for b in bits)) if bits else "des autres ordres du jour"))


def _de(words: str) -> str:
    """French "de" before ``words``, elided before a vowel (« d'achats »)."""
    return ("d'" if words[:1] in "aeiouhéèê" else "de ") + words
