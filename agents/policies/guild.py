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
from collections.abc import Sequence
from typing import Any

from agents.guild import END, GuildView
from agents.policies import Decision, Policy, register
from sim.rules import warfare as wf
from sim.state.gw import (
    Annex,
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


class _Situation:
    """What the heuristic needs about its guild, computed once per decision."""

    def __init__(self, world: World, gid: str) -> None:
        gw = wf.gw_of(world)
        self.world = world
        self.gw: GwWorld = gw
        self.gid = gid
        self.guild = gw.guilds[gid]
        cfg = world.config.gw
        self.cfg = cfg
        self.armies = [gw.armies[a] for a in sorted(gw.armies) if gw.armies[a].owner == gid]
        raising = sum(sum(o.units.values()) + sum(o.requisition.values()) for o in gw.orders if o.guild == gid and isinstance(o, Deploy))
        self.army_units = sum(len(a.units) for a in self.armies) + raising
        self.upkeep = self.army_units * cfg.army_upkeep_solars
        self.reserve = 2 * self.upkeep + 20
        pend = wf.committed(world, gid)
        self.pending = pend
        self.pool = sum(max(0, n - pend.pool.get(k, 0)) for k, n in self.guild.pool.items())
        self.free_seals = [
            s for s in self.guild.seals if s in gw.seals and gw.seals[s].kind == "military" and gw.seals[s].army is None and s not in pend.seals
        ]
        self.solars = self.guild.solars - pend.recruit_cost
        self.own_domains = wf.owned_domains(gw, gid)
        self._targets: dict[str, tuple[int, float] | None] = {}
        self._defence: dict[str, int] = {}

    def defence(self, d: Domain) -> int:
        """``defending_strength`` of a domain, once per decision (every army's targets ask it)."""
        got = self._defence.get(d.id)
        if got is None:
            got = self._defence[d.id] = wf.defending_strength(self.world, d)
        return got

    def hostile(self, guild: str) -> bool:
        return not wf.allied(self.gw, self.gid, guild)

    def front(self, army_id: str) -> int:
        a = self.gw.armies[army_id]
        s = wf.army_strength(self.world, a)
        g = wf.garrison_joining(self.gw, self.gid, wf.expected_hex(self.world, a, self.pending))
        return s + (wf.garrison_strength(self.world, g) if g else 0)

    def target_for(self, army_id: str) -> tuple[int, float] | None:
        """The hex this army should march on and how attractive it is: the hostile domain it can
        beat (or besiege, for a keep) with the best value for the distance."""
        if army_id in self._targets:
            return self._targets[army_id]
        a = self.gw.armies[army_id]
        s = wf.army_strength(self.world, a)
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
        for lt in self.gw.loot:
            if lt.season < self.gw.season and wf.reachable(self.world, a.hex, lt.hex):
                dist = self.world.map.distance(a.hex, lt.hex)
                value = 30 + lt.value / 50 - dist
                if best is None or value > best[0]:
                    best = (value, lt.hex)
        out = None if best is None else (best[1], best[0])
        self._targets[army_id] = out
        return out


def _score(sit: _Situation, o: Any) -> float:
    w = sit.world
    gw = sit.gw
    cfg = sit.cfg
    if o == END:
        return 0.0
    # Moves first: most alternatives are (one per army and reachable hex); the types are disjoint
    if isinstance(o, Move):
        a = gw.armies[o.army]
        if a.occupying is not None or a.besieging is not None:
            return -20.0
        here = [d for d in wf.domains_at(gw, a.hex) if sit.hostile(d.owner_guild)]
        if here and any(wf.may_assault(w, a, d) or wf.is_keep(w, d) for d in here):
            return -5.0
        tgt = sit.target_for(o.army)
        if tgt is None or tgt[0] != o.to:
            return -2.0
        return 50.0 + min(10.0, tgt[1] / 10)
    if isinstance(o, ReturnTitle):
        return 100.0
    if isinstance(o, LendSeals):  # lend to allies, to nobody else
        return 95.0 if o.lend == wf.allied(gw, sit.gid, o.to) else -1.0
    if isinstance(o, Annex):
        return 90.0 if sit.guild.solars - cfg.annex_compensation_solars >= sit.upkeep else 20.0
    if isinstance(o, PickUpLoot):
        return 85.0
    if isinstance(o, TreasureHunt):
        return -1.0  # its outcome is the game team's (SC-GW-09); the heuristic sends armies to pick loot up
    if isinstance(o, Deploy):
        n = sum(o.units.values()) + sum(o.requisition.values())
        feed = (sit.army_units + n) * cfg.army_upkeep_solars * 2
        if sit.solars < feed or n < 5:
            return -5.0
        keep_home = sum(o.requisition.values()) * 0.5  # prefer leaving garrisons in place
        return 70.0 + n / 2 - keep_home - len(o.seals) * 0.1
    if isinstance(o, Recruit):
        (kind, n), = o.units.items()
        cost = cfg.unit_cost_solars[kind] * n
        room = cfg.units_per_seal * len(sit.free_seals) - sit.pool
        if sit.solars - cost < sit.reserve + 40:
            return -5.0
        if kind == "siege_engine":
            have = sit.guild.pool.get("siege_engine", 0) + sum(1 for a in sit.armies for u in a.units if u.kind == "siege_engine")
            return 44.0 + n / 10 if have < 2 * max(1, len(sit.armies) + len(sit.free_seals)) and n == 1 else -1.0
        if room <= 0:
            return -1.0
        ratio = cfg.units[kind].cs / max(1, cfg.unit_cost_solars[kind])
        return 40.0 + min(n, room) / 2 + ratio * 10
    if isinstance(o, Reinforce):
        d = gw.domains[o.domain]
        threat = any(
            a.owner != sit.gid and sit.hostile(a.owner) and w.map.distance(a.hex, d.hex) <= 10 for a in gw.armies.values()
        )
        if not threat or sit.free_seals and sit.pool < 10:
            return -1.0
        return 45.0 + sum(o.units.values()) / 5 + (5 if wf.is_keep(w, d) else 0)
    if isinstance(o, Disband):
        return 25.0 if sit.solars < sit.upkeep else -5.0
    if isinstance(o, DomainAction):
        return 1.0 if o.action in wf.WORKS else -1.0
    if isinstance(o, AttackArmy):
        t = gw.armies[o.target]
        if not sit.hostile(t.owner):
            return -50.0
        mine = sit.front(o.army)
        g = wf.garrison_joining(gw, t.owner, t.hex)
        theirs = wf.army_strength(w, t) + (wf.garrison_strength(w, g) if g else 0)
        return 75.0 + min(20.0, (mine - theirs) / 2) if mine > theirs else -10.0
    if isinstance(o, AttackDomain):
        d = gw.domains[o.domain]
        if not sit.hostile(d.owner_guild):
            return -50.0
        mine = wf.army_strength(w, gw.armies[o.army])
        theirs = sit.defence(d)
        # a keep is worn down by siege (famine, siege engines) until the assault is safe
        margin = 1.5 if wf.is_keep(w, d) and d.garrison else 1.0
        return 78.0 + min(15.0, (mine - theirs) / 4) if mine > theirs * margin else -10.0
    if isinstance(o, Siege):
        d = gw.domains[o.domain]
        a = gw.armies[o.army]
        if not sit.hostile(d.owner_guild):
            return -50.0
        if len(a.units) < len(d.garrison):
            return -5.0
        if wf.is_keep(w, d):
            return 66.0
        return 30.0 if wf.army_strength(w, a) <= sit.defence(d) else -1.0
    if isinstance(o, Sack):
        d = gw.domains[o.domain]
        strength = wf.army_strength(w, gw.armies[o.army])
        razed = 0
        for b in sorted(d.buildings, key=lambda b: (-b.sp, b.id)):  # what SC-GW-13 would destroy
            if razed + b.sp > strength:
                break
            razed += b.sp
        return 35.0 if razed >= cfg.sack_loot_min_sp else -1.0
    return -1.0


@register("guild", "heuristic")
class GuildHeuristic(Policy):
    """Scores every legal order; gives the best while it beats "end of orders"."""

    name = "heuristic"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not isinstance(obs, GuildView):
            raise TypeError("the guild heuristic needs a GuildView observation")
        sit = _Situation(obs.world, obs.guild)
        scored = [(o, _score(sit, o)) for o in legal]
        top = max(s for _, s in scored)
        best = [o for o, s in scored if s == top]
        chosen = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        shown = sorted(scored, key=lambda t: -t[1])[:SHOWN]
        labels = [(END if o == END else str(o), s) for o, s in shown]
        return Decision(chosen, labels, "best score" if chosen != END else "nothing worth ordering")
