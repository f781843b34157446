"""Policies of the guild agent (guerre des guildes).

* ``random`` — uniform over the legal orders (and "end of orders") at each choice.
* ``heuristic`` — raises armies it can feed, attacks where its front is stronger, besieges keeps
  (*donjons*) before assaulting them, keeps a reserve of solars for upkeep (its garrisons under
  siege eat victuals, which it never spends otherwise), annexes what it occupies and returns the
  property titles (*titres de propriété*) of its annexed domains to recover the compensation; it
  lends its military seals to the guilds it is allied with, and to no other (a choice of the
  policy: the rules need only the lender's consent, GW-DEP-04).

Both draw only from the agent's own stream (``rng``); the heuristic uses it to break ties.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from agents.guild import END, GuildView, order_label
from agents.policies import Decision, Policy, register
from agents.policies.explain import Terms, compact_totals, explained_totals
from sim.rules import gw as wf
from sim.state.gw import (
    Annex,
    Army,
    AttackArmy,
    AttackDomain,
    Deploy,
    Disband,
    Domain,
    DomainAction,
    GwWorld,
    LendSeals,
    Move,
    PickUpLoot,
    Recruit,
    Reinforce,
    ReturnTitle,
    Sack,
    Siege,
    TreasureHunt,
)
from sim.world import World

SHOWN = 8  # alternatives recorded per decision (best first)


@register("guild", "random")
class GuildRandom(Policy):
    """Uniform over the legal orders, "end of orders" included."""

    name = "random"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not legal:
            raise ValueError("random policy: no legal order to choose from")
        return Decision(legal[rng.randrange(len(legal))], [], "uniform over legal orders")


class _Shared:
    """What the heuristic knows about the world that the orders of a season do not change: giving
    an order changes only the season's orders, the guild's chest (an annexation's compensation) and
    its consents to lend seals, never an army, a domain, a garrison or an alliance. Kept for the
    season's orders when the rules hand a memo (``GuildView.memo``), else per decision."""

    __slots__ = ("world", "season", "defence", "strength", "names")

    def __init__(self, world: World, season: int) -> None:
        self.world = world
        self.season = season
        self.defence: dict[str, int] = {}  # domain id → defending_strength
        self.strength: dict[str, int] = {}  # army id → army_strength (armies of gw.armies only)
        self.names: dict[str, str] = {}  # domain id → _dom


class _Static:
    """What the orders of a season do not change, as seen by one guild (see :class:`_Shared`)."""

    __slots__ = ("shared", "gid", "armies", "own_domains", "targets", "threats", "danger", "hostile", "stays",
                 "hostile_armies", "deploy_targets", "scores")

    def __init__(self, shared: _Shared, gw: GwWorld, gid: str) -> None:
        self.shared = shared
        self.gid = gid
        self.armies = [gw.armies[a] for a in sorted(gw.armies) if gw.armies[a].owner == gid]
        self.own_domains = wf.owned_domains(gw, gid)
        self.targets: dict[str, tuple[int, float] | None] = {}
        self.threats: dict[str, int] = {}  # domain id → threat_to
        self.danger: int | None = None
        self.hostile: dict[str, bool] = {}
        self.stays: dict[str, tuple[str, float, str, str] | None] = {}  # army id → why it should not move
        self.hostile_armies: list[tuple[int, int]] | None = None  # (hex, strength) of the armies threat_to counts
        self.deploy_targets: dict[tuple[int, int], str | None] = {}  # (origin, strength) → _deploy_target
        # the terms of the orders whose score reads only what the orders do not change, by what it reads
        self.scores: dict[tuple[object, ...], tuple[tuple[str, float, str, str], ...]] = {}


_MEMO_KEY = "guild-policy"


def _static(world: World, gw: GwWorld, gid: str, memo: dict[str, Any] | None) -> _Static:
    """The guild's :class:`_Static`, from the memo when it holds one of this world and season."""
    if memo is None:
        return _Static(_Shared(world, gw.season), gw, gid)
    shared = memo.get(_MEMO_KEY)
    if not (isinstance(shared, _Shared) and shared.world is world and shared.season == gw.season):
        shared = memo[_MEMO_KEY] = _Shared(world, gw.season)
    key = f"{_MEMO_KEY}:{gid}"
    st = memo.get(key)
    if not (isinstance(st, _Static) and st.shared is shared):
        st = memo[key] = _Static(shared, gw, gid)
    return st


class _Situation:
    """What the heuristic needs about its guild, computed once per decision (what the orders do not
    change: once per season's orders, see :class:`_Shared`)."""

    def __init__(self, world: World, gid: str, memo: dict[str, Any] | None = None) -> None:
        gw = world.gw_state()
        self.world = world
        self.gw: GwWorld = gw
        self.gid = gid
        self.guild = gw.guilds[gid]
        cfg = world.config.gw
        self.cfg = cfg
        st = _static(world, gw, gid, memo)
        self._static = st
        self.armies = st.armies
        raising = sum(sum(o.units.values()) + sum(o.requisition.values()) for o in gw.orders if o.guild == gid and isinstance(o, Deploy))
        self.army_units = sum(len(a.units) for a in self.armies) + raising
        self.upkeep = self.army_units * cfg.army_upkeep_solars
        self.reserve = 2 * self.upkeep + 20
        # two years of the domains' solar yield: what the score counts at face value (docs/scoring.md)
        self.hoard = 2 * cfg.seasons_per_year * cfg.domain_solars * len(st.own_domains)
        pend = wf.committed(world, gid)
        self.pending = pend
        self.solars = self.guild.solars - pend.recruit_cost
        self.own_domains = st.own_domains
        self._targets = st.targets
        self._defence = st.shared.defence
        self._strength = st.shared.strength
        self._hostile = st.hostile
        self._stays = st.stays

    @property
    def danger(self) -> int:
        """How much hostile strength within reach exceeds the defence of its most exposed domain."""
        st = self._static
        if st.danger is None:
            worst = 0
            for d in self.own_domains:
                threat = threat_to(self, d)
                if threat:  # no threat: a margin of -defence at most, never above 0
                    worst = max(worst, threat - self.defence(d))
            st.danger = worst
        return st.danger

    def defence(self, d: Domain) -> int:
        """``defending_strength`` of a domain, once per season's orders (every army's targets ask it)."""
        got = self._defence.get(d.id)
        if got is None:
            got = self._defence[d.id] = wf.defending_strength(self.world, d)
        return got

    def hostile(self, guild: str) -> bool:
        got = self._hostile.get(guild)
        if got is None:
            got = self._hostile[guild] = not wf.allied(self.gw, self.gid, guild)
        return got

    def strength(self, a: Army) -> int:
        """``army_strength`` of an army of the world, once per season's orders."""
        got = self._strength.get(a.id)
        if got is None:
            got = self._strength[a.id] = wf.army_strength(self.world, a)
        return got

    def stays(self, army_id: str) -> tuple[str, float, str, str] | None:
        """Why this army should not move at all (the term every Move of it gets), once per army."""
        if army_id in self._stays:
            return self._stays[army_id]
        a = self.gw.armies[army_id]
        w = self.world
        out: tuple[str, float, str, str] | None = None
        if a.occupying is not None or a.besieging is not None:
            out = ("holds", -20.0, "it would give up a siege or an occupation", "abandonnerait un siège ou une occupation")
        else:
            here = [d for d in wf.domains_at(self.gw, a.hex) if self.hostile(d.owner_guild)]
            if here and any(wf.may_assault(w, a, d) or wf.is_keep(w, d) for d in here):
                out = ("leaves_target", -5.0, "it leaves a domain it can attack here", "quitte un domaine attaquable ici")
        self._stays[army_id] = out
        return out

    def front(self, army_id: str) -> int:
        a = self.gw.armies[army_id]
        s = self.strength(a)
        g = wf.garrison_joining(self.gw, self.gid, wf.expected_hex(self.world, a, self.pending))
        return s + (wf.garrison_strength(self.world, g) if g else 0)

    def target_for(self, army_id: str) -> tuple[int, float] | None:
        """The hex this army should march on and how attractive it is: the hostile domain it can
        beat (or besiege, for a keep) with the best value for the distance."""
        if army_id in self._targets:
            return self._targets[army_id]
        a = self.gw.armies[army_id]
        s = self.strength(a)
        best: tuple[float, int] | None = None
        for did in sorted(self.gw.domains):
            d = self.gw.domains[did]
            if not self.hostile(d.owner_guild) or not wf.reachable(self.world, a.hex, d.hex):
                continue
            if any(self.gw.armies[x].owner == self.gid for x in d.occupied_by if x in self.gw.armies):
                continue
            defence = self.defence(d)
            siege_ok = wf.is_keep(self.world, d) and len(a.units) >= len(d.garrison)
            if s <= defence and not siege_ok:
                continue
            dist = self.world.map.distance(a.hex, d.hex)
            value = 40 + 2 * len(d.buildings) + 6 * d.fortification - dist - defence / 6
            if best is None or value > best[0]:
                best = (value, d.hex)
        for d in self.own_domains:  # free an occupied domain of ours from weaker occupiers
            occ = [self.gw.armies[x] for x in d.occupied_by if x in self.gw.armies and self.hostile(self.gw.armies[x].owner)]
            if occ and s > sum(self.strength(x) for x in occ) and wf.reachable(self.world, a.hex, d.hex):
                value = 60 - self.world.map.distance(a.hex, d.hex)
                if best is None or value > best[0]:
                    best = (value, d.hex)
        for lt in self.gw.loot:
            if lt.season < self.gw.season and wf.reachable(self.world, a.hex, lt.hex):
                dist = self.world.map.distance(a.hex, lt.hex)
                value = 30 + lt.value / 50 - dist
                if best is None or value > best[0]:
                    best = (value, lt.hex)
        out = None if best is None else (best[1], best[0])
        self._targets[army_id] = out
        return out


def _dom(sit: _Situation, did: str) -> str:
    """A domain as a game master names it: ``Valbonne [4,6]``."""
    names = sit._static.shared.names
    got = names.get(did)
    if got is None:
        d = sit.gw.domains[did]
        col, row = sit.world.map.coords(d.hex)
        got = names[did] = f"{d.name} [{col},{row}]"
    return got


def threat_to(sit: _Situation, d: Domain) -> int:
    """Strength of the hostile armies within reach of a domain (10 hexes) that could attack it."""
    st = sit._static
    got = st.threats.get(d.id)
    if got is None:
        if st.hostile_armies is None:
            st.hostile_armies = [(a.hex, sit.strength(a)) for a in sit.gw.armies.values() if a.owner != sit.gid and sit.hostile(a.owner)]
        distance = sit.world.map.distance
        got = st.threats[d.id] = sum(s for h, s in st.hostile_armies if distance(h, d.hex) <= 10)
    return got


def _deploy_target(sit: _Situation, origin: int, strength: int) -> str | None:
    """The hostile domain an army of ``strength`` raised at ``origin`` could take: reachable, not
    already ours to occupy, defended by less (a keep: one it can besiege); the nearest, then by id."""
    kept = sit._static.deploy_targets
    key = (origin, strength)
    if key not in kept:
        kept[key] = _find_deploy_target(sit, origin, strength)
    return kept[key]


def _find_deploy_target(sit: _Situation, origin: int, strength: int) -> str | None:
    w, gw = sit.world, sit.gw
    best: tuple[int, str] | None = None
    for d in sit.own_domains:  # an occupied domain of ours comes first
        occ = [gw.armies[x] for x in d.occupied_by if x in gw.armies and sit.hostile(gw.armies[x].owner)]
        if occ and strength > sum(sit.strength(x) for x in occ) and wf.reachable(w, origin, d.hex):
            key = (w.map.distance(origin, d.hex) - 100, d.id)
            if best is None or key < best:
                best = key
    for did in sorted(gw.domains):
        d = gw.domains[did]
        if not sit.hostile(d.owner_guild) or not wf.reachable(w, origin, d.hex):
            continue
        if strength <= sit.defence(d) and not wf.is_keep(w, d):
            continue
        if wf.is_keep(w, d) and strength <= sit.defence(d) // 2:
            continue
        key = (w.map.distance(origin, d.hex), did)
        if best is None or key < best:
            best = key
    return None if best is None else best[1]


def _score_move(sit: _Situation, o: Move, t: Terms) -> Terms:
    w = sit.world
    stay = sit.stays(o.army)
    if stay is not None:
        t.add(*stay)
        return t
    tgt = sit.target_for(o.army)
    if tgt is None or tgt[0] != o.to:
        t.add("no_target", -2.0, "not the army's best target", "pas la meilleure cible de l'armée")
        return t
    t.add("march", 50.0, f"march on the best target, {w.map.place(o.to)}", f"marche sur la meilleure cible, {w.map.place(o.to)}")
    t.add("target_value", min(10.0, tgt[1] / 10), "value of the target for its distance", "valeur de la cible selon la distance")
    return t


def _score_return_title(sit: _Situation, o: ReturnTitle, t: Terms) -> Terms:
    t.add("compensation", 100.0, "compensation recovered with the title", "compensation récupérée avec le titre")
    return t


def _score_lend(sit: _Situation, o: LendSeals, t: Terms) -> Terms:  # lend to allies, to nobody else
    if o.lend == (not sit.hostile(o.to)):
        t.add("ally", 95.0, "seals follow the alliances", "les sceaux suivent les alliances")
    else:
        t.add("not_ally", -1.0, "seals go to allies only", "sceaux réservés aux alliés")
    return t


def _score_annex(sit: _Situation, o: Annex, t: Terms) -> Terms:
    cfg = sit.cfg
    if sit.guild.solars - cfg.annex_compensation_solars >= sit.upkeep:
        t.add("domain", 90.0, f"a domain gained, {_dom(sit, o.domain)}", f"un domaine gagné, {_dom(sit, o.domain)}")
    else:
        t.add("domain_short", 20.0, "a domain gained, but the coffer runs short", "un domaine gagné, mais le coffre s'épuise")
    return t


def _score_loot(sit: _Situation, o: TreasureHunt | PickUpLoot, t: Terms) -> Terms:
    w = sit.world
    gw = sit.gw
    # this engine gives a loot's value to the first guild that claims it (GW-LOOT-03, RES-GW-15);
    # a pick-up is listed only with an army on the hex, a treasure hunt always
    lt = next((x for x in gw.loot if x.id == o.loot), None)
    value = float(lt.value) if lt is not None else 0.0
    where = w.map.place(lt.hex) if lt is not None else "?"
    how = ("picked up", "ramassé") if isinstance(o, PickUpLoot) else ("claimed by a treasure hunt", "réclamé par une chasse au trésor")
    t.add("loot", 80.0 + min(20.0, value / 50), f"loot of {value:g} solars at {where} {how[0]}", f"butin de {value:g} solars en {where} {how[1]}")
    if isinstance(o, PickUpLoot):
        t.add("sure", 1.0, "an army on the spot", "une armée sur place")
    return t


def _score_deploy(sit: _Situation, o: Deploy, t: Terms) -> Terms:
    gw = sit.gw
    cfg = sit.cfg
    n_pool = sum(o.units.values())
    n_req = sum(o.requisition.values())
    n = n_pool + n_req
    year = (sit.army_units + n) * cfg.army_upkeep_solars * cfg.seasons_per_year
    if n < 5:
        t.add("too_few", -5.0, "too few units for an army", "trop peu d'unités pour une armée")
        return t
    if n_req:
        # a garrison stripped is a domain left open (issue 13: heuristic guilds lost theirs)
        t.add("garrison_stripped", -100.0 - 3.0 * n_req, f"{n_req} units taken from the garrison of {_dom(sit, o.domain)}",
              f"{n_req} unités retirées de la garnison de {_dom(sit, o.domain)}")
    d = gw.domains[o.domain]
    if threat_to(sit, d):
        t.add("needed_home", -20.0, f"hostile armies near {_dom(sit, o.domain)}: the units are needed at home",
              f"armées hostiles près de {_dom(sit, o.domain)} : les unités manquent chez soi")
        return t
    if sit.solars < year:
        t.add("unpaid", -5.0, f"the coffer cannot pay its armies a year ({year} solars)",
              f"le coffre ne peut payer ses armées un an ({year} solars)")
        return t
    strength = sum(cfg.units[k].cs * m for k, m in (*o.units.items(), *o.requisition.items()) if k in cfg.units)
    aim = _deploy_target(sit, d.hex, strength)
    if aim is None:
        t.add("no_target", -5.0, f"no hostile domain within reach weaker than {strength}",
              f"aucun domaine hostile à portée plus faible que {strength}")
        return t
    t.add("army", 40.0 + n / 2, f"an army of {n} units (strength {strength}) against {_dom(sit, aim)}",
          f"une armée de {n} unités (force {strength}) contre {_dom(sit, aim)}")
    t.add("seals", -len(o.seals) * 0.1, "seals engaged", "sceaux engagés")
    return t


def _kept(sit: _Situation, key: tuple[Any, ...], t: Terms, write: Callable[[Terms], object]) -> Terms:
    """The terms ``write`` adds to a fresh ``t``, kept for the season under ``key`` (which must name
    everything they read that the season's orders change): written once, then copied."""
    kept = sit._static.scores.get(key)
    if kept is not None:
        t.extend(kept)
        return t
    write(t)
    sit._static.scores[key] = tuple(t.raw)
    return t


def _score_recruit(sit: _Situation, o: Recruit, t: Terms) -> Terms:
    (kind, n), = o.units.items()
    # what the terms read that the season's orders change: the chest (an annexation pays from it), the
    # recruits committed (``solars``) and the deployments (``reserve``); the rest is the season's
    key = ("recruit", kind, n, sit.solars, sit.reserve, sit.guild.solars)
    return _kept(sit, key, t, lambda t: _score_recruit_once(sit, kind, n, t))


def _score_recruit_once(sit: _Situation, kind: str, n: int, t: Terms) -> Terms:
    cfg = sit.cfg
    cost = cfg.unit_cost_solars[kind] * n
    if sit.solars - cost < sit.reserve:
        t.add("reserve", -5.0, f"leaves less than the reserve of {sit.reserve} solars", f"laisse moins que la réserve de {sit.reserve} solars")
        return t
    if kind == "siege_engine":
        have = sit.guild.pool.get("siege_engine", 0) + sum(1 for a in sit.armies for u in a.units if u.kind == "siege_engine")
        if have < 2 * max(1, len(sit.armies)) and n == 1 and sit.armies:
            t.add("siege_engine", 44.0, "a siege engine for the armies", "un engin de siège pour les armées")
        else:
            t.add("siege_engine", -1.0, "no army needs a siege engine", "aucune armée n'a besoin d'engin de siège")
        return t
    # solars above two years of yield count half in the score; units count at their price
    spare = max(0, sit.guild.solars - sit.hoard)
    put = min(cost, spare)
    cs = cfg.units[kind].cs
    danger = sit.danger
    if put:
        t.add("spend", 0.5 * put, f"solars above two years of yield put to work ({cost} for {n} {kind})",
              f"solars au-delà de deux ans de revenu mis au travail ({cost} pour {n} {kind})")
    elif not danger:
        t.add("hoard", -1.0, "no spare solars and no threat", "ni solars en trop ni menace")
        return t
    if danger:
        t.add("strength", min(2.0 * cs * n, danger) - 0.1 * cost, f"{cs * n} combat strength against a threat of {danger}",
              f"{cs * n} de force de combat contre une menace de {danger}")
    else:
        t.add("strength", 0.2 * cs * n, f"{cs * n} combat strength for the garrisons", f"{cs * n} de force de combat pour les garnisons")
    return t


def _score_reinforce(sit: _Situation, o: Reinforce, t: Terms) -> Terms:
    n = sum(o.units.values())
    return _kept(sit, ("reinforce", o.domain, n), t, lambda t: _score_reinforce_once(sit, o, n, t))


def _score_reinforce_once(sit: _Situation, o: Reinforce, n: int, t: Terms) -> Terms:
    w = sit.world
    gw = sit.gw
    d = gw.domains[o.domain]
    threat = threat_to(sit, d)
    defence = sit.defence(d)
    t.add("garrison", (3.0 if threat else 1.0) * n, f"{n} units into the garrison of {_dom(sit, o.domain)}",
          f"{n} unités dans la garnison de {_dom(sit, o.domain)}")
    if threat:
        t.add("threat", min(40.0, 10.0 + 20.0 * threat / max(1, defence)), f"hostile armies of strength {threat} within reach",
              f"armées hostiles de force {threat} à portée")
    t.add("weakest", -defence / 20, f"its defence is already {defence}", f"sa défense est déjà de {defence}")
    if wf.is_keep(w, d):
        t.add("keep", 2.0, "a keep holds out longer", "un donjon tient plus longtemps")
    return t


def _score_disband(sit: _Situation, o: Disband, t: Terms) -> Terms:
    if sit.solars < sit.upkeep:
        t.add("unpaid", 25.0, "its upkeep cannot be paid", "son entretien ne peut être payé")
    else:
        t.add("keep_army", -5.0, "the army is paid for", "l'armée est payée")
    return t


def _score_domain_action(sit: _Situation, o: DomainAction, t: Terms) -> Terms:
    if o.action in wf.WORKS:
        t.add("works", 1.0, f"works at {_dom(sit, o.domain)}", f"travaux à {_dom(sit, o.domain)}")
    else:
        t.add("not_works", -1.0, "not worth it", "n'en vaut pas la peine")
    return t


def _score_attack_army(sit: _Situation, o: AttackArmy, t: Terms) -> Terms:
    w = sit.world
    gw = sit.gw
    ta = gw.armies[o.target]
    if not sit.hostile(ta.owner):
        t.add("friend", -50.0, "a friendly army", "une armée amie")
        return t
    mine = sit.front(o.army)
    g = wf.garrison_joining(gw, ta.owner, ta.hex)
    theirs = sit.strength(ta) + (wf.garrison_strength(w, g) if g else 0)
    if mine > theirs:
        t.add("attack", 75.0, f"attack a weaker army at {w.map.place(ta.hex)}", f"attaque une armée plus faible en {w.map.place(ta.hex)}")
        t.add("margin", min(20.0, (mine - theirs) / 2), f"strength {mine} against {theirs}", f"force {mine} contre {theirs}")
    else:
        t.add("stronger", -10.0, f"strength {mine} against {theirs}", f"force {mine} contre {theirs}")
    return t


def _score_attack_domain(sit: _Situation, o: AttackDomain, t: Terms) -> Terms:
    w = sit.world
    gw = sit.gw
    d = gw.domains[o.domain]
    if not sit.hostile(d.owner_guild):
        t.add("friend", -50.0, "a friendly domain", "un domaine ami")
        return t
    mine = sit.strength(gw.armies[o.army])
    theirs = sit.defence(d)
    # a keep is worn down by siege (famine, siege engines) until the assault is safe
    margin = 1.5 if wf.is_keep(w, d) and d.garrison else 1.0
    if mine > theirs * margin:
        t.add("assault", 78.0, f"assault {_dom(sit, o.domain)}", f"assaut sur {_dom(sit, o.domain)}")
        t.add("margin", min(15.0, (mine - theirs) / 4), f"strength {mine} against {theirs}", f"force {mine} contre {theirs}")
    else:
        t.add("too_strong", -10.0, f"strength {mine} against {theirs}", f"force {mine} contre {theirs}")
    return t


def _score_siege(sit: _Situation, o: Siege, t: Terms) -> Terms:
    w = sit.world
    gw = sit.gw
    d = gw.domains[o.domain]
    a = gw.armies[o.army]
    if not sit.hostile(d.owner_guild):
        t.add("friend", -50.0, "a friendly domain", "un domaine ami")
    elif len(a.units) < len(d.garrison):
        t.add("too_few", -5.0, "fewer units than the garrison", "moins d'unités que la garnison")
    elif wf.is_keep(w, d):
        t.add("siege_keep", 66.0, f"besiege the keep of {_dom(sit, o.domain)}", f"assiège le donjon de {_dom(sit, o.domain)}")
    elif sit.strength(a) <= sit.defence(d):
        t.add("siege", 30.0, f"besiege {_dom(sit, o.domain)}, too strong to assault", f"assiège {_dom(sit, o.domain)}, trop fort pour l'assaut")
    else:
        t.add("assault_instead", -1.0, "an assault is better", "un assaut vaut mieux")
    return t


def _score_sack(sit: _Situation, o: Sack, t: Terms) -> Terms:
    key = ("sack", o.army, o.domain)
    kept = sit._static.scores.get(key)
    if kept is not None:
        t.extend(kept)
        return t
    _score_sack_once(sit, o, t)
    sit._static.scores[key] = tuple(t.raw)
    return t


def _score_sack_once(sit: _Situation, o: Sack, t: Terms) -> Terms:
    gw = sit.gw
    cfg = sit.cfg
    d = gw.domains[o.domain]
    strength = sit.strength(gw.armies[o.army])
    razed = 0
    for b in sorted(d.buildings, key=lambda b: (-b.sp, b.id)):  # what SC-GW-13 would destroy
        if razed + b.sp > strength:
            break
        razed += b.sp
    if razed >= cfg.sack_loot_min_sp:
        t.add("sack", 35.0, f"sack {_dom(sit, o.domain)} ({razed} SP razed)", f"pille {_dom(sit, o.domain)} ({razed} PS rasés)")
    else:
        t.add("sack_poor", -1.0, "too little to raze", "trop peu à raser")
    return t


_SCORERS: dict[type, Callable[[_Situation, Any, Terms], Terms]] = {
    Move: _score_move,
    ReturnTitle: _score_return_title,
    LendSeals: _score_lend,
    Annex: _score_annex,
    TreasureHunt: _score_loot,
    PickUpLoot: _score_loot,
    Deploy: _score_deploy,
    Recruit: _score_recruit,
    Reinforce: _score_reinforce,
    Disband: _score_disband,
    DomainAction: _score_domain_action,
    AttackArmy: _score_attack_army,
    AttackDomain: _score_attack_domain,
    Siege: _score_siege,
    Sack: _score_sack,
}


def score_order(sit: _Situation, o: Any) -> Terms:
    """The terms of one legal order's score, in solars (what it adds to the guild's score,
    docs/scoring.md, or the priority the heuristic gives it): the guild's scoring callable."""
    t = Terms("solars")
    if o is END:
        return t
    fn = _SCORERS.get(type(o))  # the order types are disjoint: one scorer per type
    if fn is None:
        t.add("other", -1.0, "not considered", "non envisagé")
        return t
    return fn(sit, o, t)


def _score(sit: _Situation, o: Any) -> float:
    return score_order(sit, o).total


def rank(obs: GuildView, legal: Sequence[Any]) -> list[Terms]:
    """Every legal order's terms (same order as ``legal``): the candidate ranking a look-ahead uses."""
    sit = _Situation(obs.world, obs.guild, obs.memo)
    return [score_order(sit, o) for o in legal]


@register("guild", "heuristic")
class GuildHeuristic(Policy):
    """Scores every legal order; gives the best while it beats "end of orders"."""

    name = "heuristic"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not isinstance(obs, GuildView):
            raise TypeError("the guild heuristic needs a GuildView observation")
        terms = rank(obs, legal)
        totals = [t.total for t in terms]
        top = max(totals)
        best = [i for i, s in enumerate(totals) if s == top]
        pick = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        chosen = legal[pick]
        if not self.explain:
            return compact_totals(legal, totals, pick, label=order_label)
        if chosen is END:
            reason = "nothing left worth ordering this season"
        else:
            reason = "; ".join(x.en for x in terms[pick].items[:2])
        # what explained(legal, terms, …) does, with the totals already summed
        return explained_totals(legal, totals, terms.__getitem__, pick, label=order_label, reason=reason,
                                tie_how="drawn by the policy's stream", scored_shown=SHOWN)
