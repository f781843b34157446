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
from agents.policies.explain import Terms, compact_totals, explained_totals
from sim.rules import mn as dip
from sim.state.mn import MnWorld

WANT_AMBASSADORS = 3
MAX_AMBASSADORS = 20  # a rich nation keeps up to this many
TREATY_WORTH = {"commercial": 50.0, "alliance": 75.0, "pact": 150.0}  # docs/scoring.md
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


def _new_types(mn: MnWorld, nation: str, province: str, cache: dict[Any, Any] | None = None) -> tuple[int, int]:
    """(resource types of ``province`` the nation lacks, of which no other nation has any); ``cache``
    (one decision's) keeps the answer per province."""
    if cache is not None:
        key = ("new_types", nation, province)
        got = cache.get(key)
        if got is None:
            got = cache[key] = _new_types(mn, nation, province)
        return got  # type: ignore[no-any-return]
    have = dip.produced(mn, nation) | dip.importable(mn, nation)
    others: set[str] = set()
    for o in mn.nations:
        if o != nation:
            others |= dip.produced(mn, o) | dip.importable(mn, o)
    new = [r for r in mn.provinces[province].resources if r not in have]
    return len(new), sum(1 for r in new if r not in others)


def _provided_only_by(mn: MnWorld, nation: str, treaty_ids: set[int]) -> int:
    """How many resource types the nation would lose if these agreements ended (RES-MN-05)."""
    if not treaty_ids:
        return 0
    keep = dip.produced(mn, nation) | {i.resource for i in mn.nations[nation].imports if i.treaty not in treaty_ids}
    return len({i.resource for i in mn.nations[nation].imports if i.treaty in treaty_ids} - keep)


def _friends(mn: MnWorld, nation: str) -> set[str]:
    me = dip.nkey(nation)
    return {dip.other_side(t, me) for t in mn.treaties if dip.treaty_involves(t, me) and t.kind in ("pact", "commercial")}


def _friends_of(obs: Any, cache: dict[Any, Any]) -> set[str]:
    """:func:`_friends` of the deciding nation, once per decision (``cache``)."""
    got = cache.get("friends")
    if got is None:
        got = cache["friends"] = _friends(obs.mn, obs.nation)
    return got  # type: ignore[no-any-return]


def _pact_held(obs: Any, cache: dict[Any, Any]) -> bool:
    """Whether the deciding nation holds a pact (``dip.pact_of``), once per decision (``cache``)."""
    got = cache.get("pact_held")
    if got is None:
        got = cache["pact_held"] = dip.pact_of(obs.mn, obs.nation) is not None
    return got  # type: ignore[no-any-return]


def _treaty_value_of(rule: tuple[Any, ...], turns: int) -> float:
    """``NationHeuristic._treaty_value`` for ``turns``, from its :meth:`NationHeuristic._value_rule`."""
    mode, a, b = rule
    if mode == "commercial":
        return float(turns * a * b)
    if mode == "alliance":
        return float(turns * a)
    if mode == "constant":
        return a  # type: ignore[no-any-return]
    return float(turns * 2)


@lru_cache(maxsize=1 << 14, typed=True)
def _band_sums(threshold: int, favourable: int, worth: float, rule: tuple[Any, ...], turns_per_year: int,
               ambassador_cost: int) -> tuple[float, float, float, float]:
    """(good, standing, bad, p_good) of a mission over the bands of the d100 (see ``_mission_ev``): a
    pure function of its arguments, the same float operations in the same order."""
    good = bad = standing = 0.0
    p_good = 0.0
    for band, dur, p in _odds(threshold, favourable):
        if band == "very_warm":
            good += p * _treaty_value_of(rule, HORIZON_TURNS)
            standing += p * (75.0 + worth)
            p_good += p
        elif band == "limited":
            good += p * _treaty_value_of(rule, dur + 1)
            standing += p * min(1.0, (dur + 1) / turns_per_year) * (50.0 + worth)
            p_good += p
        elif band == "blunder":
            bad += p * -float(dip.BLUNDER_RANSOM_PO + 15)
        elif band == "disaster":
            bad += p * -float(ambassador_cost + dip.DISASTER_RF * RF_POINT_PO)
        else:
            bad += p * -5.0
    return good, standing, bad, p_good


@lru_cache(maxsize=1 << 12)
def _ev_words(kind: str, city: str, p_good: float) -> tuple[str, str, str, str]:
    """The words of a mission's ``treaty`` and ``standing`` terms (see ``_mission_ev``)."""
    return (f"{kind} at {city} won {p_good:.0%} (exact d100 odds)", f"{_KIND_FR.get(kind, kind)} à {city} obtenu à {p_good:.0%} (chances exactes du d100)",
            f"the embassy and treaty at {city} as the score counts them", f"l'ambassade et le traité à {city} tels que le score les compte")


@lru_cache(maxsize=1 << 12, typed=True)
def _interference_gain(natural: int, score: int, threshold: int, stance: int) -> float:
    """What interfering is worth in band ranks (see ``_slot_interfere``): the d20 (1…20) added or
    taken, whichever is best for a friend (``stance`` +1) or worst for a rival (−1), against the
    band without it; a pure function of its arguments."""
    band_rank = NationHeuristic._band_rank
    base = band_rank(dip.outcome_band(natural, score, threshold)[0])
    gain = 0.0
    for d in range(1, 21):
        ranks = [band_rank(dip.outcome_band(natural, score + s * d, threshold)[0]) for s in (1, -1)]
        best = max(ranks) if stance > 0 else min(ranks)
        gain += stance * (best - base) / 20
    return gain


@lru_cache(maxsize=512)
def _fee_terms(gift: int, w: float) -> Terms:
    """The ``fee`` term of a mission with ``gift`` at cost weight ``w`` (see ``_mission_ev``; shared:
    only read)."""
    t = Terms("PO")
    t.add("fee", -float(dip.MISSION_FEE_PO + gift) * w, f"fee and gift ({dip.MISSION_FEE_PO + gift} PO" + (", at half: a full treasury)" if w < 1 else ")"),
          f"de frais et cadeau ({dip.MISSION_FEE_PO + gift} PO" + (", à moitié : trésor plein)" if w < 1 else ")"))
    return t


@register("nation", "heuristic")
class NationHeuristic(Policy):
    name = "heuristic"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        terms = rank(obs, legal)
        totals = [t.total for t in terms]
        # ties are broken by the policy's stream (a draw per alternative, as ever), then the first listed
        keys = [(x, rng.random() * 1e-9, -i) for i, x in enumerate(totals)]
        pick = -max(keys)[2]  # the keys are distinct (-i): the same pick as max(range(len(legal)), key=keys.__getitem__)
        if not self.explain:
            return compact_totals(legal, totals, pick, label=lambda o: _label(obs, o))
        why = "; ".join(x.en for x in sorted(terms[pick].items, key=lambda x: -abs(x.value))[:2]) or "nothing worth its cost"
        return explained_totals(legal, totals, terms.__getitem__, pick, label=lambda o: _label(obs, o), reason=why,
                                tie_how="drawn by the policy's stream", shown=6, scored_shown=SHOWN)

    def terms(self, obs: Any, o: Any, cache: dict[Any, Any]) -> Terms:
        t = Terms("PO")
        scorer = getattr(self, f"_slot_{obs.slot}", None)
        if scorer is not None:
            scorer(obs, o, cache, t)
        return t

    # ---- (1) buy ----------------------------------------------------------------------------------
    def _slot_buy(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        if not isinstance(o, dip.BuyAmbassador):
            return
        mn, n = obs.mn, obs.mn.nations[obs.nation]
        live = sum(1 for a in mn.ambassadors.values() if a.nation == obs.nation and a.state != "dead")
        idle = any(a.nation == obs.nation and a.state == "home" for a in mn.ambassadors.values())
        # more ambassadors while the treasury can pay their missions (issue 13: no stop at 6)
        want = min(WANT_AMBASSADORS + n.treasury // 150, MAX_AMBASSADORS)
        rich = n.treasury > 2 * _income_year(obs)
        if idle and not rich:
            t.add("idle", -1.0, "an ambassador is already waiting at home", "un ambassadeur attend déjà au pays")
        elif live >= want:
            t.add("enough", -1.0, f"{live} ambassadors are enough for a treasury of {n.treasury} PO",
                  f"{live} ambassadeurs suffisent pour un trésor de {n.treasury} PO")
        elif n.treasury - obs.cfg.ambassador_cost < dip.MISSION_FEE_PO + 10:
            t.add("cannot_pay", -1.0, "no PO left for his mission", "plus de PO pour sa mission")
        else:
            t.add("missions", float(want - live), f"{want - live} more missions a turn ({live} of {want} wanted)",
                  f"{want - live} missions de plus par tour ({live} sur {want} voulus)")

    # ---- (2) ambassadors --------------------------------------------------------------------------
    def _treaty_value(self, obs: Any, city: str, kind: str, turns: int, renewing: int | None = None) -> float:
        """What a treaty of ``kind`` at ``city`` is worth over ``turns`` (``_mission_ev`` reads it as
        :meth:`_value_rule`, computed once per decision)."""
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

    def _cost_w(self, obs: Any) -> float:
        """PO above two years of income count half in the score (the reserve rule): spending them costs half."""
        n = obs.mn.nations[obs.nation]
        return 0.5 if n.treasury > 2 * _income_year(obs) else 1.0

    def _mission_ev(self, obs: Any, city: str, kind: str, gift: int, renewal_of: int | None, cache: dict[Any, Any],
                    t: Terms, treaty: int | None = None) -> None:
        mn, cfg = obs.mn, obs.cfg
        amb = obs.subject
        key = ("mods", city, renewal_of)
        if key not in cache:
            mods = dip.test_modifiers(mn, cfg, obs.nation, amb.home_province, city, 0, renewal_of)
            friends = _friends_of(obs, cache)
            rivals = [n for n in dip.posted_nations(mn, city) if n != obs.nation and dip.nkey(n) not in friends]
            cache[key] = sum(m.value for m in mods) - 10 * len(rivals)
        favourable = cache[key] + gift
        w = cache.get("cost_w")
        if w is None:
            w = cache["cost_w"] = self._cost_w(obs)
        t.extend(_fee_terms(gift, w))
        # what an embassy and its treaty add to the score (docs/scoring.md): a permanent embassy 75 PO,
        # a limited one 50 × its turns ÷ a year; the treaty 50/75/150 likewise (no second pact)
        pact_held = kind == "pact" and _pact_held(obs, cache) and treaty is None
        worth = 0.0 if pact_held else TREATY_WORTH.get(kind, 50.0)
        vkey = ("value_rule", city, kind, treaty)
        rule = cache.get(vkey)
        if rule is None:
            rule = cache[vkey] = self._value_rule(obs, city, kind, treaty, cache)
        good, standing, bad, p_good = _band_sums(dip.THRESHOLDS[kind], favourable, worth, rule, cfg.turns_per_year,
                                                 cfg.ambassador_cost)
        en, fr, en2, fr2 = _ev_words(kind, city, p_good)
        t.add("treaty", good, en, fr)
        t.add("standing", standing, en2, fr2)
        t.add("risk", bad, "blunder, disaster or failure", "bévue, désastre ou échec")

    def _value_rule(self, obs: Any, city: str, kind: str, renewing: int | None, cache: dict[Any, Any]) -> tuple[Any, ...]:
        """:meth:`_treaty_value` of (city, kind, renewing) as a rule of ``turns`` that
        :func:`_treaty_value_of` applies: its mode and the numbers it reads (the same expressions)."""
        mn, cfg = obs.mn, obs.cfg
        if kind == "commercial":
            if renewing is not None:
                return "commercial", cfg.resource_income_po, _provided_only_by(mn, obs.nation, {renewing})
            new, mono = _new_types(mn, obs.nation, mn.cities[city].province, cache)
            return "commercial", cfg.resource_income_po, (new + mono)
        if kind == "alliance":
            war = bool(dip.enemies_of(mn, dip.nkey(obs.nation)))
            return "alliance", (ALLIANCE_WAR_VALUE if war else 1), 0
        if dip.pact_of(mn, obs.nation) is not None and renewing is None:
            return "constant", -50.0, 0
        return "pact", 2, 0

    def _slot_ambassador(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        mn = obs.mn
        if isinstance(o, dip.Pass):
            return
        if isinstance(o, dip.Recall):
            t.add("recall", -10.0, "a post given up", "un poste abandonné")
            return
        if isinstance(o, dip.RenewTreaty):
            e = dip.get_embassy(mn, o.embassy)
            tr = next((x for x in mn.treaties if e is not None and x.embassy == e.id), None)
            if e is None or tr is None:
                t.add("nothing", -1.0, "nothing to renew", "rien à renouveler")
                return
            self._mission_ev(obs, e.city, tr.kind, o.gift, e.id, cache, t, tr.id)
            return
        if isinstance(o, dip.LaunchMission):
            # what the city alone decides, worked out once per city of the decision: ("ev", None) for a
            # diplomacy test (scored per kind and gift), else the terms of every candidate there
            # (``gift``: those with a gift, ``pact``/``other``: the kinds without one)
            how = cache.get(("launch", o.city))
            if how is None:
                how = cache[("launch", o.city)] = self._launch_city(obs, o.city, cache)
            if how[0] == "ev":
                self._mission_ev(obs, o.city, o.treaty, o.gift, None, cache, t)
            elif how[0] == "same":
                t.extend(how[1])
            else:
                t.extend(how[1] if o.gift else how[2] if o.treaty == "pact" else how[3])
            return
        t.add("other", -1.0, "not considered", "non envisagé")

    def _launch_city(self, obs: Any, city: str, cache: dict[Any, Any]) -> tuple[Any, ...]:
        """How the missions to ``city`` are scored (see :meth:`_slot_ambassador`): ``("same", raw)`` when
        every candidate there gets the terms ``raw``; ``("host", gift, pact, other)`` at a player's city
        at peace (the terms with a gift, for a pact, for another kind); ``("ev", None)`` otherwise."""
        mn = obs.mn
        busy = cache.get("busy")
        if busy is None:  # the same for every candidate of the decision
            busy = cache["busy"] = ({e.city for e in mn.embassies if e.nation == obs.nation}
                                    | {m.city for m in mn.missions if m.nation == obs.nation})
        t = Terms("PO")
        if city in busy:
            t.add("busy", -100.0, f"already an embassy or a mission at {city}", f"déjà une ambassade ou une mission à {city}")
            return "same", t
        c = mn.cities[city]
        if c.controller is None:
            return "ev", None
        # a player's city: the host chooses
        hostile = Terms("PO")
        hostile.add("hostile_host", -100.0, f"{c.controller} is at war with us, or a gift is wasted", f"{c.controller} est en guerre contre nous, ou le cadeau est perdu")
        if dip.at_war(mn, dip.nkey(obs.nation), dip.nkey(c.controller)):
            return "same", hostile
        new, mono = _new_types(mn, obs.nation, dip.party_home_province(mn, dip.nkey(c.controller)), cache)
        nothing = Terms("PO")
        nothing.add("nothing", -20.0, "nothing to gain from this host", "rien à gagner de cet hôte")
        if new == 0:
            return "host", hostile, nothing, nothing
        t.add("trade", 0.5 * HORIZON_TURNS * obs.cfg.resource_income_po * (new + mono) * 0.5, f"{new} new resource types if {c.controller} accepts",
              f"{new} nouveaux types de ressources si {c.controller} accepte")
        t.add("fee", -float(dip.MISSION_FEE_PO) - 20, "fee and the risk of a refusal", "de frais et risque de refus")
        return "host", hostile, nothing, t

    def _rank_ambassador(self, obs: Any, legal: Sequence[Any], cache: dict[Any, Any]) -> list[Terms]:
        """:func:`rank` of an ``ambassador`` slot: the terms of :meth:`_slot_ambassador`, the missions
        whose terms the city alone decides sharing one (unchanged) :class:`Terms`."""
        out: list[Terms] = []
        for o in legal:
            if isinstance(o, dip.LaunchMission):
                how = cache.get(("launch", o.city))
                if how is None:
                    how = cache[("launch", o.city)] = self._launch_city(obs, o.city, cache)
                if how[0] == "same":
                    out.append(how[1])
                    continue
                if how[0] == "host":
                    out.append(how[1] if o.gift else how[2] if o.treaty == "pact" else how[3])
                    continue
            t = Terms("PO")
            self._slot_ambassador(obs, o, cache, t)
            out.append(t)
        return out

    # ---- (3) hosts, proposals, consent, interference -----------------------------------------------------
    def _slot_host(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        mn = obs.mn
        m = obs.subject
        sender = dip.nkey(m.nation)
        war = dip.at_war(mn, dip.nkey(obs.nation), sender)
        new, _ = _new_types(mn, obs.nation, dip.party_home_province(mn, sender))
        if o.choice == "accept":
            if war:
                t.add("enemy", -20.0, f"{m.nation} is an enemy", f"{m.nation} est un ennemi")
            else:
                t.add("trade", 5.0 + 5.0 * new, f"{new} new resource types from {m.nation}", f"{new} nouveaux types de ressources de {m.nation}")
            return
        if o.choice == "dismiss":
            return
        if o.choice == "execute":
            t.add("execute", 3.0 if war else -40.0, "an enemy's envoy" if war else "an execution in peacetime", "l'envoyé d'un ennemi" if war else "une exécution en temps de paix")
            return
        if o.ransom <= 20:
            t.add("ransom", 0.5 * o.ransom, f"ransom of {o.ransom} PO", f"rançon de {o.ransom} PO")
        else:
            t.add("ransom", 0.25 * o.ransom, f"ransom of {o.ransom} PO (unlikely paid)", f"rançon de {o.ransom} PO (peu probable)")
        if war:
            t.add("enemy", 5.0 if o.ransom <= 20 else 0.0, "an enemy's envoy", "l'envoyé d'un ennemi")
        else:
            t.add("peace", -15.0, "imprisoning in peacetime", "emprisonner en temps de paix")

    def _slot_propose(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        if not isinstance(o, dip.SignTreaty):
            return
        mn = obs.mn
        if o.kind == "commercial":
            new, mono = _new_types(mn, obs.nation, dip.party_home_province(mn, dip.nkey(o.partner)))
            t.add("trade", float(new + mono) - 0.5, f"{new} new resource types, {mono} monopolies", f"{new} nouveaux types de ressources, {mono} monopoles")
            return
        if not dip.enemies_of(mn, dip.nkey(o.partner)):
            t.add("pact", 1.0, f"a pact with {o.partner}, at peace", f"un pacte avec {o.partner}, en paix")
        else:
            t.add("pact_war", -5.0, f"{o.partner} is at war", f"{o.partner} est en guerre")

    def _slot_consent(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        if not o.agree:
            return
        mn = obs.mn
        proposer = obs.subject
        if obs.extra.get("kind") == "pact":
            if not dip.enemies_of(mn, dip.nkey(proposer)):
                t.add("pact", 0.5, f"a pact with {proposer}, at peace", f"un pacte avec {proposer}, en paix")
            else:
                t.add("pact_war", -5.0, f"{proposer} is at war", f"{proposer} est en guerre")
            return
        # trade never lowers a nation's own income (SC-MN-06 counts types, and a monopoly shared still pays once)
        t.add("trade", 1.0, "trade never lowers income", "le commerce ne baisse jamais le revenu")

    def _stance(self, obs: Any) -> int:
        """+1 if the negotiating nation is a friend (help it), −1 otherwise (hinder it)."""
        ctx = obs.subject
        return 1 if dip.nkey(ctx.mission.nation) in _friends(obs.mn, obs.nation) else -1

    @staticmethod
    def _band_rank(band: str) -> int:
        return {"very_warm": 4, "limited": 3, "failure": 1, "blunder": 0, "disaster": 0}[band]

    def _stake(self, obs: Any) -> float:
        """What the mission under test is worth to us, in PO: the score's value of what it would sign
        (commercial 50, alliance 75, pact 150, docs/scoring.md), more when it would take a resource
        type we hold alone or join our enemy."""
        ctx = obs.subject
        m = ctx.mission
        base = {"commercial": 50.0, "alliance": 75.0, "pact": 150.0}.get(m.treaty, 50.0)
        me = dip.nkey(obs.nation)
        if dip.at_war(obs.mn, me, dip.nkey(m.nation)):
            base *= 1.5
        return base

    def _slot_interfere(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        if not o.yes:
            return
        ctx = obs.subject
        m = ctx.mission
        stance = self._stance(obs)
        gain = _interference_gain(ctx.natural, ctx.score, ctx.threshold, stance)
        mine = sum(1 for x in obs.mn.treaties if x.nation == obs.nation and x.partner == dip.ckey(m.city))
        stake = self._stake(obs)
        what = f"the {m.nation} mission to {m.city} for a {m.treaty} treaty"
        what_fr = f"la mission de {m.nation} à {m.city} pour un traité {_KIND_FR.get(m.treaty, m.treaty)}"
        verb = ("help", "aider") if stance > 0 else ("hinder", "gêner")
        t.add("band", stake * gain / 4, f"{verb[0]} {what} (worth {stake:g} PO; the d20 moves its band)",
              f"{verb[1]} {what_fr} (vaut {stake:g} PO ; le d20 change sa bande)")
        t.add("exposure", -(1 / 20) * (5.0 + 30.0 * mine), f"1 in 20 of being exposed in {what}", f"1 chance sur 20 d'être démasqué dans {what_fr}")

    def _slot_interference_sign(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        ctx = obs.subject
        d20 = obs.extra["d20"]
        band = dip.outcome_band(ctx.natural, ctx.score + o.sign * d20, ctx.threshold)[0]
        rank_ = self._band_rank(band)
        t.add("band", float(self._stance(obs) * rank_), f"the mission ends {band}", f"la mission finit en {band}")
        t.add("lean", 0.01 * o.sign * -self._stance(obs), "when equal, the safer sign", "à égalité, le signe le plus sûr")

    # ---- (4) military ---------------------------------------------------------------------------------
    def _relations_value(self, obs: Any, party: str, ts: list[Any] | None = None) -> float:
        """What the nation's treaties with a party (``ts`` when known) are worth over the horizon."""
        mn, me = obs.mn, dip.nkey(obs.nation)
        if ts is None:
            ts = [x for x in mn.treaties if dip.treaty_between(x, me, party)]
        lost = _provided_only_by(mn, obs.nation, {x.id for x in ts if x.kind == "commercial"})
        return float(HORIZON_TURNS * obs.cfg.resource_income_po * lost + 10 * sum(1 for x in ts if x.kind != "commercial"))

    def _slot_obligation(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        ob = obs.subject
        honour_cost = self._relations_value(obs, ob.aggressor)
        break_cost = dip.PACT_BREAK_WAR_RF * RF_POINT_PO + self._relations_value(obs, ob.ally)
        if isinstance(o, dip.HonourPact):
            t.add("relations", -honour_cost, f"relations with {ob.aggressor} severed", f"relations rompues avec {ob.aggressor}")
            return
        if isinstance(o, dip.BreakTreaty):
            t.add("break", -break_cost, f"racial factor and relations with {ob.ally} lost", f"facteur racial et relations avec {ob.ally} perdus")
            return
        if obs.mn.turn >= ob.deadline_turn:
            t.add("overdue", -break_cost - 1.0, "the deadline passes: a break", "le délai passe : une rupture")
        else:
            t.add("wait", -min(honour_cost, break_cost) - 0.5, "decide next turn", "décider au prochain tour")

    def _slot_military(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        mn = obs.mn
        me = dip.nkey(obs.nation)
        if isinstance(o, dip.Pass):
            return
        if isinstance(o, dip.RaiseArmy):
            if not dip.enemies_of(mn, me):
                t.add("peace", -1.0, "no war to fight", "aucune guerre à mener")
                return
            recent = any(a.treaty == o.treaty and a.turn > mn.turn - obs.cfg.turns_per_year for a in mn.armies)
            if recent:
                t.add("recent", -1.0, "an army raised under this alliance this year", "une armée déjà levée sous cette alliance cette année")
            else:
                t.add("army", 2.0, "an army in an allied province", "une armée en province alliée")
            return
        if isinstance(o, dip.DeclareWar):
            self._war_terms(obs, o.target, t, cache)
            return
        if isinstance(o, dip.BreakTreaty):
            self._break_terms(obs, o.treaty, t)
            return
        t.add("other", -50.0, "not considered", "non envisagé")

    def _war_terms(self, obs: Any, target: str, t: Terms, cache: dict[Any, Any] | None = None) -> None:
        """A war pays when the target already fights a friend of ours (a pact or alliance partner) and
        our alliances let us raise armies (MN-TRE-03); it costs the treaties and embassies with it.
        ``cache`` (one decision's) keeps what every target shares."""
        mn = obs.mn
        me = dip.nkey(obs.nation)
        shared = cache.get("war") if cache is not None else None
        if shared is None:
            mine = [x for x in mn.treaties if dip.treaty_involves(x, me)]
            friends = _friends(mn, obs.nation) | {dip.other_side(x, me) for x in mine if x.kind == "alliance"}
            by_party: dict[str, list[Any]] = {}  # my treaties by the other side
            for x in mine:
                by_party.setdefault(dip.other_side(x, me), []).append(x)
            embassies: dict[str, int] = {}  # my embassies by the party of their city
            for e in mn.embassies:
                if e.nation == obs.nation:
                    p = dip.party_of_city(mn, e.city)
                    embassies[p] = embassies.get(p, 0) + 1
            shared = (sorted(friends), sum(1 for x in mine if x.kind == "alliance"), by_party, embassies)
            if cache is not None:
                cache["war"] = shared
        friends_sorted, alliances, by_party, embassies = shared
        at_war_with_friend = [f for f in friends_sorted if dip.at_war(mn, f, target)]
        if at_war_with_friend:
            t.add("coalition", 20.0 + ALLIANCE_WAR_VALUE * alliances * 2, f"joins {', '.join(at_war_with_friend)} against {target}",
                  f"rejoint {', '.join(at_war_with_friend)} contre {target}")
        relations = self._relations_value(obs, target, by_party.get(target, []) if target != me else None)
        t.add("relations", -relations, f"treaties with {target} lost", f"traités avec {target} perdus")
        emb = embassies.get(target, 0)
        t.add("embassies", -50.0 * emb, f"{emb} embassies with {target} closed", f"{emb} ambassades chez {target} fermées")
        t.add("risk", -30.0, "invasions and imprisoned envoys ahead", "invasions et envoyés emprisonnés à venir")

    def _break_terms(self, obs: Any, treaty: int, t: Terms) -> None:
        """A break pays when the treaty drags us into wars that cost more than its penalties
        (racial factor MN-TRE-04/08, relations cut RES-MN-07) and its worth."""
        mn = obs.mn
        me = dip.nkey(obs.nation)
        tr = dip.get_treaty(mn, treaty)
        if tr is None:
            t.add("none", -50.0, "no such treaty", "pas de tel traité")
            return
        ally = dip.other_side(tr, me)
        if tr.kind == "commercial":
            lost = _provided_only_by(mn, obs.nation, {tr.id})
            t.add("trade", -float(HORIZON_TURNS * obs.cfg.resource_income_po * lost) - 50.0, f"the agreement with {ally} ({lost} resource types)",
                  f"l'accord avec {ally} ({lost} types de ressources)")
            return
        rf = dip.ALLIANCE_BREAK_RF if tr.kind == "alliance" else (dip.PACT_BREAK_WAR_RF if dip.ally_at_war(mn, ally) else dip.PACT_BREAK_PEACE_RF)
        t.add("racial_factor", -float(rf * RF_POINT_PO), f"racial factor −{rf}", f"facteur racial −{rf}")
        t.add("treaty", -(75.0 if tr.kind == "alliance" else 150.0), f"the {tr.kind} with {ally} lost", f"le traité {_KIND_FR.get(tr.kind, tr.kind)} avec {ally} perdu")
        if tr.kind == "pact":
            t.add("relations", -self._relations_value(obs, ally), f"relations with {ally} cut", f"relations avec {ally} rompues")
        # what the treaty drags us into: the wars of the partner against parties we deal with
        dragged = [w.b if w.a == ally else w.a for w in mn.wars if ally in (w.a, w.b)]
        freed = sum(self._relations_value(obs, p) for p in dragged if p != me)
        t.add("freed", freed, f"no longer drawn into {ally}'s wars", f"plus entraîné dans les guerres de {ally}")

    # ---- (5) ransom ---------------------------------------------------------------------------------
    def _slot_ransom(self, obs: Any, o: Any, cache: dict[Any, Any], t: Terms) -> None:
        if not isinstance(o, dip.PayRansom):
            return
        n = obs.mn.nations[obs.nation]
        amb = obs.subject
        if n.treasury - amb.ransom >= dip.MISSION_FEE_PO or amb.ransom <= 10:
            t.add("ambassador", 5.0, f"{amb.id} back home", f"{amb.id} de retour au pays")
        else:
            t.add("cannot_pay", -1.0, "the ransom would empty the treasury", "la rançon viderait le trésor")


_KIND_FR = {"commercial": "commercial", "alliance": "d'alliance militaire", "pact": "pacte d'amitié éternelle"}


def _income_year(obs: Any) -> float:
    """A nation's income over a year (provinces and resources, SC-MN-06), as the score counts it."""
    mn, cfg = obs.mn, obs.cfg
    prov = len(mn.nations[obs.nation].provinces)
    return float(cfg.turns_per_year * (max(1, prov) * cfg.province_income_po + cfg.resource_income_po * len(dip.produced(mn, obs.nation))))


def _label(obs: Any, o: Any) -> str:
    if isinstance(o, dip.Interfere) and o.yes:
        m = obs.subject.mission
        return f"interfere with the {m.nation} mission to {m.city} ({m.treaty})"
    return dip.order_label(o)


def rank(obs: Any, legal: Sequence[Any]) -> list[Terms]:
    """Every legal order's terms (same order as ``legal``), in PO: the nation heuristic's candidate
    ranking (what a look-ahead policy calls). The candidates of one decision share ``cache``: what
    depends only on the world and the decision is worked out once."""
    h = NationHeuristic()
    cache: dict[Any, Any] = {}
    if obs.slot == "ambassador":
        return h._rank_ambassador(obs, legal, cache)
    scorer = getattr(h, f"_slot_{obs.slot}", None)
    out = []
    for o in legal:
        t = Terms("PO")
        if scorer is not None:
            scorer(obs, o, cache, t)
        out.append(t)
    return out
