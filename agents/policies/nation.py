"""Policies of the Mare Nostrum nation agent: ``random`` and ``heuristic``.

The heuristic scores every legal order of a slot with a small expected-value model:

* buying: keep up to ``WANT_AMBASSADORS`` live ambassadors while a mission stays affordable;
* missions: the exact band odds of the d100 (``band_probabilities``) for the modifiers the test
  would see now (racial factor, invasions, repulses, gift) and the foreign embassies that may
  interfere, times what each band is worth — new resource types and monopolies for a commercial
  agreement (SC-MN-06), armies for an alliance in wartime, a pact while it has none — minus the fee
  and gift: it targets cities with good racial factors and bribes when the odds justify it;
* hosts: receive a peaceful envoy whose nation has resources to trade; imprison or execute an enemy's;
* interference: against rivals, for friends, when the d20 can change the band, weighing the 1/20
  risk of exposure; the sign is chosen after the d20 for the better band;
* pacts: honour an obligation when what the break costs (racial factor, cut relations) outweighs
  what severing relations with the aggressor costs, else break.

Policies draw only from the agent's own stream (``rng``), here only to break exact ties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from agents.policies import Decision, Policy, RandomPolicy, register
from sim.rules import diplomacy as dip
from sim.state.mn import MnWorld

WANT_AMBASSADORS = 3
HORIZON_TURNS = 12  # how far ahead a permanent treaty is valued
RF_POINT_PO = 3  # what one point of racial factor is worth, in PO
SHOWN = 12  # alternatives recorded in the ledger per decision
ALLIANCE_WAR_VALUE = 25  # PO a turn an allied province to raise armies in is worth to a nation at war


@register("nation", "random")
class NationRandom(RandomPolicy):
    """Uniform over the legal orders of each slot."""

    name = "random"


@lru_cache(maxsize=4096)
def _odds(threshold: int, favourable: int) -> tuple[tuple[str, int, float], ...]:
    return tuple((band, dur, float(p)) for (band, dur), p in sorted(dip.band_probabilities(threshold, favourable).items()))


def _new_types(mn: MnWorld, nation: str, province: str) -> tuple[int, int]:
    """(resource types of ``province`` the nation lacks, of which no other nation has any)."""
    have = dip.produced(mn, nation) | dip.importable(mn, nation)
    others: set[str] = set()
    for o in mn.nations:
        if o != nation:
            others |= dip.produced(mn, o) | dip.importable(mn, o)
    new = [r for r in mn.provinces[province].resources if r not in have]
    return len(new), sum(1 for r in new if r not in others)


def _provided_only_by(mn: MnWorld, nation: str, treaty_ids: set[int]) -> int:
    """How many resource types the nation would lose if these agreements ended (RES-MN-05)."""
    keep = dip.produced(mn, nation) | {i.resource for i in mn.nations[nation].imports if i.treaty not in treaty_ids}
    return len({i.resource for i in mn.nations[nation].imports if i.treaty in treaty_ids} - keep)


def _friends(mn: MnWorld, nation: str) -> set[str]:
    me = dip.nkey(nation)
    return {dip.other_side(t, me) for t in mn.treaties if dip.treaty_involves(t, me) and t.kind in ("pact", "commercial")}


@register("nation", "heuristic")
class NationHeuristic(Policy):
    name = "heuristic"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        scorer = getattr(self, f"_slot_{obs.slot}", None)
        cache: dict[Any, Any] = {}
        scored = []
        for i, o in enumerate(legal):
            s = float(scorer(obs, o, cache)) if scorer else 0.0
            scored.append((s, rng.random() * 1e-9, -i, o))
        scored.sort(key=lambda x: (x[0], x[1], x[2]), reverse=True)
        best = scored[0][3]
        return Decision(best, [(dip.order_label(o), round(s, 3)) for s, _, _, o in scored[:SHOWN]],
                        f"heuristic {obs.slot}: best of {len(legal)}")

    # ---- (1) buy ----------------------------------------------------------------------------------
    def _slot_buy(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        if not isinstance(o, dip.BuyAmbassador):
            return 0.0
        mn, n = obs.mn, obs.mn.nations[obs.nation]
        live = sum(1 for a in mn.ambassadors.values() if a.nation == obs.nation and a.state != "dead")
        idle = any(a.nation == obs.nation and a.state == "home" for a in mn.ambassadors.values())
        want = min(WANT_AMBASSADORS + n.treasury // 400, 2 * WANT_AMBASSADORS)
        if idle or live >= want or n.treasury - obs.cfg.ambassador_cost < dip.MISSION_FEE_PO + 10:
            return -1.0
        return float(want - live)

    # ---- (2) ambassadors --------------------------------------------------------------------------
    def _treaty_value(self, obs: Any, city: str, kind: str, turns: int, renewing: int | None = None) -> float:
        mn, cfg = obs.mn, obs.cfg
        prov = mn.cities[city].province
        if kind == "commercial":
            if renewing is not None:
                return float(turns * cfg.resource_income_po * _provided_only_by(mn, obs.nation, {renewing}))
            new, mono = _new_types(mn, obs.nation, prov)
            return float(turns * cfg.resource_income_po * (new + mono))
        if kind == "alliance":
            war = bool(dip.enemies_of(mn, dip.nkey(obs.nation)))
            return float(turns * (ALLIANCE_WAR_VALUE if war else 1))
        if dip.pact_of(mn, obs.nation) is not None and renewing is None:
            return -50.0
        return float(turns * 2)

    def _mission_ev(self, obs: Any, city: str, kind: str, gift: int, renewal_of: int | None, cache: dict[Any, Any],
                    treaty: int | None = None) -> float:
        mn, cfg = obs.mn, obs.cfg
        amb = obs.subject
        key = ("mods", city, renewal_of)
        if key not in cache:
            mods = dip.test_modifiers(mn, cfg, obs.nation, amb.home_province, city, 0, renewal_of)
            rivals = [n for n in dip.posted_nations(mn, city) if n != obs.nation and dip.nkey(n) not in _friends(mn, obs.nation)]
            cache[key] = sum(m.value for m in mods) - 10 * len(rivals)
        favourable = cache[key] + gift
        ev = -float(dip.MISSION_FEE_PO + gift)
        for band, dur, p in _odds(dip.THRESHOLDS[kind], favourable):
            if band == "very_warm":
                v = self._treaty_value(obs, city, kind, HORIZON_TURNS, treaty)
            elif band == "limited":
                v = self._treaty_value(obs, city, kind, dur + 1, treaty)
            elif band == "blunder":
                v = -float(dip.BLUNDER_RANSOM_PO + 15)
            elif band == "disaster":
                v = -float(cfg.ambassador_cost + dip.DISASTER_RF * RF_POINT_PO)
            else:
                v = -5.0
            ev += p * v
        return ev

    def _slot_ambassador(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        mn = obs.mn
        if isinstance(o, dip.Pass):
            return 0.0
        if isinstance(o, dip.Recall):
            return -10.0
        if isinstance(o, dip.RenewTreaty):
            e = dip.get_embassy(mn, o.embassy)
            t = next((t for t in mn.treaties if e is not None and t.embassy == e.id), None)
            if e is None or t is None:
                return -1.0
            return self._mission_ev(obs, e.city, t.kind, o.gift, e.id, cache, t.id)
        if isinstance(o, dip.LaunchMission):
            busy = {e.city for e in mn.embassies if e.nation == obs.nation} | {m.city for m in mn.missions if m.nation == obs.nation}
            if o.city in busy:
                return -100.0
            c = mn.cities[o.city]
            if c.controller is not None:  # a player's city: the host chooses
                if dip.at_war(mn, dip.nkey(obs.nation), dip.nkey(c.controller)) or o.gift:
                    return -100.0
                new, mono = _new_types(mn, obs.nation, dip.party_home_province(mn, dip.nkey(c.controller)))
                if o.treaty == "pact" or new == 0:
                    return -20.0
                return 0.5 * HORIZON_TURNS * obs.cfg.resource_income_po * (new + mono) * 0.5 - dip.MISSION_FEE_PO - 20
            return self._mission_ev(obs, o.city, o.treaty, o.gift, None, cache)
        return -1.0

    # ---- (3) hosts, proposals, consent, interference -----------------------------------------------------
    def _slot_host(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        mn = obs.mn
        m = obs.subject
        sender = dip.nkey(m.nation)
        war = dip.at_war(mn, dip.nkey(obs.nation), sender)
        new, _ = _new_types(mn, obs.nation, dip.party_home_province(mn, sender))
        if o.choice == "accept":
            return -20.0 if war else 5.0 + 5.0 * new
        if o.choice == "dismiss":
            return 0.0
        if o.choice == "execute":
            return 3.0 if war else -40.0
        return (0.5 * o.ransom + (5.0 if war else -15.0)) if o.ransom <= 20 else (0.25 * o.ransom - (0 if war else 15.0))

    def _slot_propose(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        if not isinstance(o, dip.SignTreaty):
            return 0.0
        mn = obs.mn
        if o.kind == "commercial":
            new, mono = _new_types(mn, obs.nation, dip.party_home_province(mn, dip.nkey(o.partner)))
            return float(new + mono) - 0.5
        return 1.0 if not dip.enemies_of(mn, dip.nkey(o.partner)) else -5.0

    def _slot_consent(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        if not o.agree:
            return 0.0
        mn = obs.mn
        proposer = obs.subject
        if obs.extra.get("kind") == "pact":
            return 0.5 if not dip.enemies_of(mn, dip.nkey(proposer)) else -5.0
        return 1.0  # trade never lowers a nation's own income (SC-MN-06 counts types, and a monopoly shared still pays once)

    def _stance(self, obs: Any) -> int:
        """+1 if the negotiating nation is a friend (help it), −1 otherwise (hinder it)."""
        ctx = obs.subject
        return 1 if dip.nkey(ctx.mission.nation) in _friends(obs.mn, obs.nation) else -1

    @staticmethod
    def _band_rank(band: str) -> int:
        return {"very_warm": 4, "limited": 3, "failure": 1, "blunder": 0, "disaster": 0}[band]

    def _slot_interfere(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        if not o.yes:
            return 0.0
        ctx = obs.subject
        stance = self._stance(obs)
        base = self._band_rank(dip.outcome_band(ctx.natural, ctx.score, ctx.threshold)[0])
        gain = 0.0
        for d in range(1, 21):
            ranks = [self._band_rank(dip.outcome_band(ctx.natural, ctx.score + s * d, ctx.threshold)[0]) for s in (1, -1)]
            best = max(ranks) if stance > 0 else min(ranks)
            gain += stance * (best - base) / 20
        mine = sum(1 for t in obs.mn.treaties if t.nation == obs.nation and t.partner == dip.ckey(ctx.mission.city))
        return 10.0 * gain - (1 / 20) * (5.0 + 30.0 * mine)

    def _slot_interference_sign(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        ctx = obs.subject
        d20 = obs.extra["d20"]
        rank = self._band_rank(dip.outcome_band(ctx.natural, ctx.score + o.sign * d20, ctx.threshold)[0])
        return float(self._stance(obs) * rank) + (0.01 * o.sign * -self._stance(obs))

    # ---- (4) military ---------------------------------------------------------------------------------
    def _relations_value(self, obs: Any, party: str) -> float:
        """What the nation's treaties with a party are worth over the horizon."""
        mn, me = obs.mn, dip.nkey(obs.nation)
        ts = [t for t in mn.treaties if dip.treaty_between(t, me, party)]
        lost = _provided_only_by(mn, obs.nation, {t.id for t in ts if t.kind == "commercial"})
        return float(HORIZON_TURNS * obs.cfg.resource_income_po * lost + 10 * sum(1 for t in ts if t.kind != "commercial"))

    def _slot_obligation(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        ob = obs.subject
        honour_cost = self._relations_value(obs, ob.aggressor)
        break_cost = dip.PACT_BREAK_WAR_RF * RF_POINT_PO + self._relations_value(obs, ob.ally)
        if isinstance(o, dip.HonourPact):
            return -honour_cost
        if isinstance(o, dip.BreakTreaty):
            return -break_cost
        return -break_cost - 1.0 if obs.mn.turn >= ob.deadline_turn else -min(honour_cost, break_cost) - 0.5

    def _slot_military(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        mn = obs.mn
        if isinstance(o, dip.Pass):
            return 0.0
        if isinstance(o, dip.RaiseArmy):
            if not dip.enemies_of(mn, dip.nkey(obs.nation)):
                return -1.0
            recent = any(a.treaty == o.treaty and a.turn > mn.turn - obs.cfg.turns_per_year for a in mn.armies)
            return -1.0 if recent else 2.0
        return -50.0  # never breaks a treaty or declares war unprovoked

    # ---- (5) ransom ---------------------------------------------------------------------------------
    def _slot_ransom(self, obs: Any, o: Any, cache: dict[Any, Any]) -> float:
        if not isinstance(o, dip.PayRansom):
            return 0.0
        n = obs.mn.nations[obs.nation]
        amb = obs.subject
        return 5.0 if n.treasury - amb.ransom >= dip.MISSION_FEE_PO or amb.ransom <= 10 else -1.0
