"""LINK — where the four systems meet (RULES.md §5.5, LINK-01…09).

Every system runs alone; when two or more are enabled in one scenario these functions join them, and
nothing else crosses between systems (LINK-09). They are plain functions of the world (mutated in
place), the ledger and, for LINK-06, the nations' money. Each is called from one small, marked hook
in a system's rules or driver:

* LINK-01 one calendar, one tie order — ``sim.calendar``/``model.at``; the seasonal turns are checked
  by ``scenarios.schema.link``.
* LINK-02 currencies — :func:`convert`, the one conversion used wherever value crosses systems.
* LINK-03 factions — a faction is a kingdom, a nation or both (:func:`faction_of`); a guild is
  affiliated with one of them or independent (:func:`affiliation_of`); a faction that is both keeps
  one treasury, the kingdom's, in BP: :class:`MnTreasuries` converts the Mare Nostrum costs and
  incomes (the MN turn settles after every order; :func:`mn_hooks`).
* LINK-04 trade caravans — :func:`trade_caravan`, :func:`check_trade_caravan`, :func:`caravan_set_out`,
  :func:`caravan_arrivals` (the KM hooks of a Trade edict and of the Income phase, :func:`km_hooks`).
* LINK-05 envoys — :func:`send_envoy`, :func:`recall_envoy`, :func:`envoy_path` (KM hooks of the Edict
  phase), :func:`envoy_arrived` (``agents.envoy`` wakes the envoy at its arrival).
* LINK-06 armies for nations — :func:`raise_nation_army` (the MN ``raise_army`` hook, :func:`mn_hooks`) deploys a GW
  army of the nation acting as a guild; :func:`fund_nation_armies` pays its upkeep each season.
* LINK-07 war feeds diplomacy — :func:`report_attack` (GW hook ``attack_reported``, in
  ``gw.resolve_attack``).
* LINK-08 war feeds kingdoms — :func:`domain_occupied`, :func:`domain_annexed` (GW hooks in
  ``gw.occupy``/``annex_domain``) and :func:`occupation_unrest` (KM hook in ``km.upkeep``).

Currency names (LINK-02): ``bp`` build points (*points de construction*, KM), ``po`` gold pieces
(*pièces d'or*, MN), ``solar`` solars (GW), ``gp`` gold pieces of the caravans (CV). Other terms of the
seeds: invasion / repulse (*invasion*, *invasion repoussée*), occupation (*sous occupation*),
annexation (*annexion*), military seal (*sceau militaire*), Unrest (*Insatisfaction*), Upkeep phase
(*phase d'entretien*), conquest and subjugation (*assujettir*, KM-VAS).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sim.config import LinkConfig
from sim.dice import Dice
from sim.errors import IllegalOrderError, InvalidOrderError, RulesError
from sim.events import Ledger
from sim.paths import cheapest_path
from sim.rules import cv as cr
from sim.rules import gw as wf
from sim.rules import km as K
from sim.rules import mn as dip
from sim.scores import FactionScore, Term
from sim.state.cv import Convoy, Traveler
from sim.state.gw import Army, Deploy, Domain, Guild, Seal
from sim.state.km import Envoy, Kingdom
from sim.state.mn import RaisedArmy
from sim.world import World

SYS = "link"
CURRENCIES = ("bp", "po", "solar", "gp")


# =================================================================================================
# LINK-02: currencies
# =================================================================================================


def gp_rate(cfg: LinkConfig, currency: str) -> int:
    """Gold pieces (gp) worth one unit of ``currency`` (LINK-02)."""
    if currency == "bp":
        return cfg.gp_per_bp
    if currency == "po":
        return cfg.gp_per_po
    if currency == "solar":
        return cfg.gp_per_solar
    if currency == "gp":
        return 1
    raise ValueError(f"unknown currency {currency!r}: expected one of {', '.join(CURRENCIES)}")


def convert(amount: int, src: str, dst: str, cfg: LinkConfig) -> int:
    """LINK-02: ``amount`` of ``src`` expressed in ``dst``, through gp, rounded down (GEN-02).

    At the default rates 8,000 gp are 2 BP, and 3,999 PO are 0 BP: small amounts round down to nothing.
    """
    return amount * gp_rate(cfg, src) // gp_rate(cfg, dst)


# =================================================================================================
# LINK-03: factions and affiliations
# =================================================================================================


def nation_of_kingdom(world: World, kid: str) -> str | None:
    """The nation of a kingdom's faction (LINK-03), when KM and MN are both enabled."""
    km, mn = world.km, world.mn
    if km is None or mn is None or kid not in km.kingdoms:
        return None
    n = km.kingdoms[kid].nation
    return n if n is not None and n in mn.nations else None


def kingdom_of_nation(world: World, nid: str) -> str | None:
    """The kingdom of a nation's faction (LINK-03), when KM and MN are both enabled."""
    km, mn = world.km, world.mn
    if km is None or mn is None or nid not in mn.nations:
        return None
    k = mn.nations[nid].kingdom
    return k if k is not None and k in km.kingdoms else None


def faction_of(world: World, ident: str | None) -> tuple[str | None, str | None]:
    """(kingdom, nation) of the faction a kingdom or nation id belongs to (LINK-03)."""
    if not ident:
        return None, None
    k = ident if world.km is not None and ident in world.km.kingdoms else None
    n = ident if world.mn is not None and ident in world.mn.nations else None
    if k is not None and n is None:
        n = nation_of_kingdom(world, k)
    elif n is not None and k is None:
        k = kingdom_of_nation(world, n)
    return k, n


def affiliation_of(world: World, gid: str) -> tuple[str | None, str | None]:
    """(kingdom, nation) a guild is affiliated with; (None, None): independent (LINK-03)."""
    # implements: LINK-09
    gw = world.gw
    if gw is None or gid not in gw.guilds:
        return None, None
    return faction_of(world, gw.guilds[gid].affiliation)


def affiliated_with_kingdom(world: World, gid: str, kid: str) -> bool:
    return affiliation_of(world, gid)[0] == kid


def is_dual(world: World, nid: str) -> bool:
    """A faction that is both a kingdom and a nation (LINK-03)."""
    return kingdom_of_nation(world, nid) is not None


# =================================================================================================
# LINK-03: one treasury in BP for a faction that is both
# =================================================================================================


class MnTreasuries:
    """The Mare Nostrum money of the factions that are both a kingdom and a nation (LINK-03).

    Their one treasury is the kingdom's, in BP. During a Mare Nostrum turn the nation's ``treasury``
    (PO) shows what that BP treasury is worth (LINK-02; nothing while the kingdom is in debt, MN
    treasuries never go below 0); after each order the driver calls :meth:`settle`, which turns the
    change into a cost or an income converted to BP (rounded down, each on its own) and shows the
    new value again. :meth:`pay` charges a LINK-06 purchase directly in the faction's currency.
    """

    def __init__(self, world: World, ledger: Ledger) -> None:
        self.world = world
        self.ledger = ledger
        mn = world.mn
        self.shown: dict[str, int] = {}
        if mn is None:
            return
        for nid in sorted(mn.nations):
            if is_dual(world, nid):
                self._show(nid)

    def _show(self, nid: str) -> None:
        assert self.world.mn is not None and self.world.km is not None
        k = self.world.km.kingdoms[kingdom_of_nation(self.world, nid) or ""]
        po = convert(max(0, k.treasury), "bp", "po", self.world.config.link)
        self.world.mn.nations[nid].treasury = po
        self.shown[nid] = po

    def settle(self, what: str = "") -> None:
        """Convert what each dual faction's nation spent or earned in PO since the last settlement."""
        mn, km = self.world.mn, self.world.km
        if mn is None or km is None:
            return
        cfg = self.world.config.link
        for nid in sorted(self.shown):
            n = mn.nations[nid]
            delta = n.treasury - self.shown[nid]
            if delta == 0:
                continue
            kid = kingdom_of_nation(self.world, nid) or ""
            k = km.kingdoms[kid]
            before = k.treasury
            bp = convert(abs(delta), "po", "bp", cfg)
            k.treasury += bp if delta > 0 else -bp
            if delta > 0:
                km.stats.link_mn_incomes_bp += bp
            else:
                km.stats.link_mn_costs_bp += bp
            self.ledger.emit(
                SYS, "TreasuryConverted", f"kingdom:{kid}", ("LINK-03", "LINK-02"), total=bp if delta > 0 else -bp,
                outcome="income" if delta > 0 else "cost", nation=nid, po=abs(delta), bp=bp, what=what,
                gp_per_po=cfg.gp_per_po, gp_per_bp=cfg.gp_per_bp, treasury_before=before, treasury_after=k.treasury,
            )
            self._show(nid)

    def funds(self, nid: str) -> tuple[int, str]:
        """What the nation can spend now, and in which currency (BP for a faction that is both)."""
        mn = self.world.mn
        assert mn is not None
        if nid in self.shown:
            assert self.world.km is not None
            return max(0, self.world.km.kingdoms[kingdom_of_nation(self.world, nid) or ""].treasury), "bp"
        return mn.nations[nid].treasury, "po"

    def pay(self, nid: str, amount: int, currency: str) -> None:
        """Take ``amount`` (already in the nation's currency, see :meth:`funds`) from its treasury."""
        mn = self.world.mn
        assert mn is not None
        if currency == "bp":
            assert self.world.km is not None
            self.world.km.kingdoms[kingdom_of_nation(self.world, nid) or ""].treasury -= amount
            self._show(nid)
        else:
            mn.nations[nid].treasury -= amount

    def receive(self, nid: str, amount: int, currency: str) -> None:
        mn = self.world.mn
        assert mn is not None
        if currency == "bp":
            assert self.world.km is not None
            self.world.km.kingdoms[kingdom_of_nation(self.world, nid) or ""].treasury += amount
            self._show(nid)
        else:
            mn.nations[nid].treasury += amount


# =================================================================================================
# LINK-04: a Trade edict's merchants travel as a caravan (KM + CV)
# =================================================================================================


def _expedition_convoy(world: World, k: Kingdom, cid: str, origin: int, path: list[int], blocks: int) -> Convoy:
    """LINK-04: the convoy a Trade edict sends (the kingdom's template, default SC-CV-07's standard
    caravan), carrying ``blocks`` cargo units of trade goods and provisions for the route, its stops
    pinned to the trade route's hexes so that it follows the path used for TRL."""
    cfg = world.config.cv
    t = k.expedition
    c = cr.standard_convoy(cid, origin, path[-1], cfg, name=f"{k.name} trade expedition", policy=t.policy if t else "heuristic",
                           cargo={"trade_goods": blocks} if blocks else {}, gp=t.gp if t else 0)
    if t is not None:
        c.offense, c.defense, c.mobility, c.morale = t.offense, t.defense, t.mobility, t.morale
        c.feats = list(t.feats)
        if t.wagons:
            c.wagons, c.next_wagon_id, c.hp, c.max_hp = [], 0, 0, 0
            for kind in t.wagons:
                cr.add_wagon(c, kind, cfg)
        if t.travelers:
            c.travelers = [Traveler(id=tid, job=job, can_drive=job == "driver") for tid, job in t.travelers]
    c.stops = list(path)
    days = cr.route_days(world, c, [origin, *path])
    room = max(0, cr.cargo_capacity(c, cfg) - blocks) * 10
    # resolution: ENG-CV-25
    c.provisions = min(room, cr.consumption(c, world.now, cfg) * (math.ceil(days) + 2))
    return c


def check_trade_caravan(world: World, k: Kingdom, origin: int, path: list[int]) -> None:
    """LINK-04: the trade route must be a road a caravan can travel (KM hook ``check_caravan``)."""
    for h in path:
        if not cr.passable(world.map, h):
            raise IllegalOrderError(
                "LINK-04", f"the merchant caravan cannot travel hex {list(world.map.coords(h))} ({world.map.hexes[h].terrain})",
                actor=f"kingdom:{k.id}",
            )


def trade_caravan(world: World, k: Kingdom, cid: str, origin: int, path: list[int], invest: int) -> Convoy:
    """LINK-04: the caravan of a Trade edict investing ``invest`` BP (one cargo unit of trade goods per
    5 BP), not yet in the world (KM hook ``trade_caravan``); the caravan must carry the goods."""
    expedition = _expedition_convoy(world, k, cid, origin, path, invest // 5)
    # resolution: ENG-CV-25
    if expedition.cargo.get("trade_goods", 0) > cr.cargo_capacity(expedition, world.config.cv):
        raise IllegalOrderError(
            "LINK-04", f"the merchant caravan carries {cr.cargo_capacity(expedition, world.config.cv)} cargo units, "
            f"not the {invest // 5} units of trade goods of {invest} BP", actor=f"kingdom:{k.id}",
        )
    return expedition


def caravan_set_out(world: World, c: Convoy) -> None:
    """LINK-04: the trade caravan joins the world's convoys (KM hook ``caravan_set_out``)."""
    cr.add_convoy(world, c)


def caravan_arrivals(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """LINK-04, in the KM Income phase (KM hook ``caravan_arrivals``): the checks of a trade caravan
    that reached its destination (``k`` reduced by the trade goods it lost or gave away on the way), or
    the loss of one that was destroyed or has not arrived after ``link.expedition_max_days`` days. The
    events are the kingdom's (system ``km``): what they change is its trade route."""
    km = world.km_state()
    cv = world.cv
    if cv is None:
        return
    limit = world.config.link.expedition_max_days * 24
    for r in km.routes:
        if r.kingdom != kid or r.status != "travelling" or r.convoy is None:
            continue
        try:
            c = cv.convoy(r.convoy)
        except KeyError:
            K.trade_lost(world, r, ledger, reason="the caravan is gone", checks=False)
            continue
        if c.status == "arrived" and c.arrived_at - r.set_out > limit:
            K.trade_lost(world, r, ledger, reason=f"the caravan {c.id} arrived after more than {limit // 24} days", checks=False)
        elif c.status == "arrived" and c.arrived_at <= world.now:
            left = min(r.k, c.cargo.get("trade_goods", 0))
            ledger.emit(
                K.SYS, "TradeCaravanArrived", K.actor(kid), ("LINK-04",), total=left,
                outcome=f"{left} of {r.k} unit(s) of trade goods", route=r.id, convoy=c.id, arrived=c.arrived_at,
            )
            K.trade_arrival(world, r, dice, ledger, k_units=left)
        elif c.status == "destroyed":
            K.trade_lost(world, r, ledger, reason=f"the caravan {c.id} was destroyed", checks=False)
        elif world.now - r.set_out >= limit:
            K.trade_lost(world, r, ledger, reason=f"the caravan {c.id} has not arrived after {limit // 24} days", checks=False)


# =================================================================================================
# LINK-05: kingdom-to-kingdom diplomacy is carried by an envoy who travels on the map (KM)
# =================================================================================================


# resolution: ENG-LINK-07
def envoy_path(world: World, kid: str, target: str) -> list[int] | None:
    """LINK-05: the least-cost path (one per hex) from kid's capital to target's capital (KM hook
    ``envoy_path``)."""
    km = world.km_state()
    a, b = K.capital_hex(km.kingdoms[kid]), K.capital_hex(km.kingdoms[target])
    if a is None or b is None:
        return None
    got = cheapest_path(world.map, a, b, "link-envoy", lambda: [1.0] * len(world.map.hexes), terrain_only=True)
    return None if got is None else got[0]


def send_envoy(world: World, kid: str, target: str, now: int, ledger: Ledger) -> Envoy:
    """LINK-05: an envoy leaves the capital for the target's capital at envoy_hexes_per_day (KM hook
    ``send_envoy``). Its events are the kingdom's (system ``km``): the envoy is the representative
    KM-DIP-02 asks for."""
    km = world.km_state()
    if target == kid or target not in km.kingdoms:
        raise InvalidOrderError(f"envoy target {target!r}: expected another kingdom")
    if km.stance(kid, target).present or any(
        e.kingdom == kid and e.target == target and e.status == "travelling" for e in km.envoys
    ):
        # resolution: ENG-LINK-07
        raise IllegalOrderError("LINK-05", f"{kid} already has a representative in or on the way to {target}", actor=K.actor(kid))
    path = envoy_path(world, kid, target)
    if path is None:
        raise IllegalOrderError("LINK-05", f"no path from {kid}'s capital to {target}'s", actor=K.actor(kid))
    rate = world.config.link.envoy_hexes_per_day
    days = math.ceil((len(path) - 1) / rate)
    env = Envoy(id=km.new_id(), kingdom=kid, target=target, path=path, depart=now, arrive=now + days * 24)
    km.envoys.append(env)
    ledger.emit(
        K.SYS,
        "EnvoySent",
        K.actor(kid),
        ("LINK-05", "KM-DIP-02", "RES-KM-02"),
        total=days,
        outcome=f"{days} day(s)",
        envoy=env.id,
        target=target,
        hexes=len(path) - 1,
        arrive=env.arrive,
    )
    if days == 0:
        envoy_arrived(world, env, ledger)
    return env


def envoy_arrived(world: World, env: Envoy, ledger: Ledger) -> None:
    """LINK-05: the envoy is present in the target kingdom from its arrival (``agents.envoy`` wakes it)."""
    km = world.km_state()
    if env.status != "travelling":
        return
    env.status = "present"
    km.stance(env.kingdom, env.target).present = True
    ledger.emit(K.SYS, "EnvoyArrived", f"envoy:{env.id}", ("LINK-05", "KM-DIP-02", "RES-KM-02"), outcome="present",
                kingdom=env.kingdom, target=env.target)


def recall_envoy(world: World, kid: str, target: str, ledger: Ledger) -> None:
    """LINK-05: the envoy present in, or on the way to, the target kingdom is recalled (KM hook
    ``recall_envoy``)."""
    km = world.km_state()
    st = km.peek_stance(kid, target)
    travelling = [e for e in km.envoys if e.kingdom == kid and e.target == target and e.status in ("travelling", "present")]
    if (st is None or not st.present) and not travelling:
        raise IllegalOrderError("LINK-05", f"{kid} has no representative in or on the way to {target}", actor=K.actor(kid))
    for e in travelling:
        e.status = "recalled"
    km.stance(kid, target).present = False
    ledger.emit(K.SYS, "EnvoyRecalled", K.actor(kid), ("LINK-05", "RES-KM-02"), outcome="recalled", target=target)


# =================================================================================================
# LINK-06: armies for nations (MN + GW)
# =================================================================================================


def nation_guild(world: World, nid: str) -> Guild | None:
    """The guild a nation acts as in guild warfare (LINK-06), if GW is enabled."""
    gw = world.gw
    if gw is None:
        return None
    g = gw.guilds.get(nid)
    return g if g is not None and g.nation == nid else None


def seal_id(nid: str, province: str) -> str:
    return f"{nid}@{province}"


def entitled_provinces(world: World, nid: str) -> list[str]:
    """Provinces a nation holds a military seal for: those it controls or is allied with (a military
    alliance, MN-TRE-03), that lie on the guild-warfare map (LINK-06)."""
    mn, gw = world.mn, world.gw
    if mn is None or gw is None:
        return []
    provs = set(mn.nations[nid].provinces)
    for t in mn.treaties:
        if t.kind == "alliance" and t.nation == nid and t.partner.startswith("city:"):
            city = mn.cities.get(t.partner[5:])
            if city is not None:
                provs.add(city.province)
    return sorted(p for p in provs if p in gw.provinces)


def refresh_nation_seals(world: World, nid: str) -> list[str]:
    """LINK-06: one military seal per entitled province, affiliated to that province's region. Seals
    no longer justified are withdrawn once free; an engaged one stays until its army is gone
    (SC-GW-03). Returns the nation-guild's seals."""
    gw = world.gw
    g = nation_guild(world, nid)
    if gw is None or g is None:
        return []
    want = {seal_id(nid, p): p for p in entitled_provinces(world, nid)}
    for sid, prov in sorted(want.items()):
        if sid not in gw.seals:
            gw.seals[sid] = Seal(sid, "military", g.id, prov, gw.provinces[prov].region)
    keep = []
    for sid in g.seals:
        s = gw.seals.get(sid)
        if s is None:
            continue
        if sid in want or s.army is not None:
            keep.append(sid)
        else:
            del gw.seals[sid]
    g.seals = sorted(set(keep) | set(want))
    return g.seals


# resolution: ENG-LINK-02
def province_domain(world: World, province: str) -> Domain | None:
    """The domain of a province where a nation's army is raised (LINK-06): the one on the province's
    city hex if there is one, else the province's domain of lowest id."""
    gw, mn = world.gw, world.mn
    if gw is None:
        return None
    doms = [gw.domains[d] for d in sorted(gw.domains) if gw.domains[d].province == province]
    if not doms:
        return None
    if mn is not None and province in mn.provinces and mn.provinces[province].seat >= 0:
        seat = mn.provinces[province].seat
        for d in doms:
            if d.hex == seat:
                return d
    return doms[0]


# resolution: ENG-LINK-03
def levy_of(world: World, g: Guild) -> dict[str, int]:
    """The units a nation buys for an army it raises: its scenario levy, else one seal's capacity of
    infantry (LINK-06, SC-GW-15)."""
    if g.levy:
        return dict(sorted(g.levy.items()))
    return {"infantry": world.config.gw.units_per_seal}


def _not_raised(world: World, ledger: Ledger, raised: RaisedArmy, why: str, **data: Any) -> None:
    assert world.gw is not None
    world.gw.stats.link_nation_armies_not_raised += 1
    ledger.emit(SYS, "NationArmyNotRaised", f"nation:{raised.nation}", ("LINK-06", "MN-TRE-03" if raised.reason == "alliance" else "MN-TRE-07"),
                outcome="not raised", why=why, province=raised.province, mn_army=raised.id, reason=raised.reason, **data)


def raise_nation_army(world: World, ledger: Ledger, money: MnTreasuries, raised: RaisedArmy) -> str | None:
    """LINK-06: the army a nation raises for MN-TRE-03/MN-TRE-07 becomes a GW army (GW-DEP) deployed on
    the named province's domain by the nation acting as a guild, engaging its seal of that province.
    Its units are bought at SC-GW-15 prices converted through LINK-02 (as many of the levy, in order,
    as the treasury can pay). Returns the GW army's id, or None (with the reason in the ledger)."""
    gw = world.gw
    g = nation_guild(world, raised.nation)
    if gw is None or g is None:
        return None
    nid = raised.nation
    prov = raised.province
    refresh_nation_seals(world, nid)
    sid = seal_id(nid, prov)
    if prov not in gw.provinces:
        _not_raised(world, ledger, raised, f"province {prov} is not on the guild-warfare map")
        return None
    if sid not in gw.seals:
        _not_raised(world, ledger, raised, f"it holds no military seal of {prov} (a province it neither controls nor is allied with)")
        return None
    if gw.seals[sid].army is not None:
        _not_raised(world, ledger, raised, f"its military seal of {prov} is engaged in army {gw.seals[sid].army}", seal=sid)
        return None
    dom = province_domain(world, prov)
    if dom is None:
        _not_raised(world, ledger, raised, f"province {prov} has no domain", seal=sid)
        return None
    if wf.is_restricted(dom):
        _not_raised(world, ledger, raised, f"domain {dom.id} is {'occupied' if dom.occupied_by else 'besieged'} (GW-OCC-02)",
                    seal=sid, domain=dom.id)
        return None
    cfg = world.config
    costs = cfg.gw.unit_cost_solars
    funds, cur = money.funds(nid)
    bought: dict[str, int] = {}
    solars = 0
    room = cfg.gw.units_per_seal + g.capacity_bonus
    for kind, n in levy_of(world, g).items():
        for _ in range(n):
            if room <= 0 or convert(solars + costs.get(kind, 0), "solar", cur, cfg.link) > funds:
                break
            solars += costs.get(kind, 0)
            bought[kind] = bought.get(kind, 0) + 1
            room -= 1
    if not bought:
        _not_raised(world, ledger, raised, f"the treasury ({funds} {cur.upper()}) cannot pay one unit", seal=sid, domain=dom.id)
        return None
    price = convert(solars, "solar", cur, cfg.link)
    proxy = dom.owner_guild != g.id
    if proxy and g.id not in dom.consents_to:
        # resolution: ENG-LINK-02
        dom.consents_to = sorted([*dom.consents_to, g.id])  # the named province's domain consents (LINK-06)
    for kind, n in bought.items():
        g.pool[kind] = g.pool.get(kind, 0) + n
    order = Deploy(guild=g.id, domain=dom.id, seals=[sid], units=dict(sorted(bought.items())), proxy=proxy)
    try:
        army = wf.resolve_deploy(world, order, ledger)
    except RulesError as e:  # pragma: no cover - every condition was checked above
        for kind, n in bought.items():
            g.pool[kind] -= n
        g.pool = {k: n for k, n in g.pool.items() if n > 0}
        _not_raised(world, ledger, raised, str(e), seal=sid, domain=dom.id)
        return None
    money.pay(nid, price, cur)
    army.deployed = wf.season_at(world, world.now)  # orders from the next season (RES-GW-27)
    gw.stats.link_nation_armies += 1
    gw.stats.link_nation_army_solars += solars
    ledger.emit(
        SYS, "NationArmyRaised", f"nation:{nid}", ("LINK-06", "LINK-02", "SC-GW-15", "GW-DEP-03",
                                                   "MN-TRE-03" if raised.reason == "alliance" else "MN-TRE-07"),
        total=price, outcome=army.id, army=army.id, mn_army=raised.id, reason=raised.reason, province=prov, domain=dom.id,
        seal=sid, units=dict(sorted(bought.items())), solars=solars, price=price, currency=cur,
    )
    return army.id


def army_hook(world: World, ledger: Ledger, money: MnTreasuries) -> Callable[[Any, RaisedArmy], str | None]:
    """The LINK-06 hook handed to ``mn.raise_army`` by the MN turn of one model (:func:`mn_hooks`)."""

    def hook(mn: Any, raised: RaisedArmy) -> str | None:
        return raise_nation_army(world, ledger, money, raised)

    return hook


# resolution: ENG-LINK-04
def fund_nation_armies(world: World, ledger: Ledger) -> None:
    """LINK-06 with MN-TRE-03 ("raising and upkeep costs are paid by him"): at the start of each
    season the nation pays into its guild's chest the SC-GW-16 upkeep its armies will owe, converted
    through LINK-02 (what it cannot pay, SC-GW-16 makes leave)."""
    gw, mn = world.gw, world.mn
    if gw is None or mn is None:
        return
    cfg = world.config
    money = MnTreasuries(world, ledger)
    for nid in sorted(mn.nations):
        g = nation_guild(world, nid)
        if g is None:
            continue
        units = sum(len(a.units) for a in gw.armies.values() if a.owner == g.id)
        due = units * cfg.gw.army_upkeep_solars
        need = max(0, due - g.solars)
        if need == 0:
            continue
        funds, cur = money.funds(nid)
        price = convert(need, "solar", cur, cfg.link)
        if price > funds:  # what it can pay: whole solars, at their converted price
            need = min(need, convert(funds, cur, "solar", cfg.link))
            price = convert(need, "solar", cur, cfg.link)
        money.pay(nid, price, cur)
        g.solars += need
        gw.stats.link_upkeep_solars += need
        ledger.emit(SYS, "NationArmyUpkeepFunded", f"nation:{nid}", ("LINK-06", "LINK-02", "MN-TRE-03", "SC-GW-16"), total=price,
                    outcome="funded" if g.solars >= due else "short", units=units, due=due, solars=need, price=price, currency=cur,
                    chest=g.solars)


# =================================================================================================
# LINK-07: war feeds diplomacy (GW + MN)
# =================================================================================================


@dataclass(frozen=True)
class Attacker:
    """What LINK-07 needs of an attacking army, taken before the combat (it may not survive it)."""

    army: str
    guild: str


def attackers_of(world: World, armies: list[Army]) -> list[Attacker]:
    return [Attacker(a.id, a.owner) for a in armies]


# resolution: ENG-LINK-05
def attacking_province(world: World, nid: str) -> str:
    """The province an invasion by a nation is recorded from: its capital's province, as for a player
    in RES-MN-09 (the home province of the ambassadors it buys by default, RES-MN-01)."""
    mn = world.mn
    assert mn is not None
    return mn.cities[mn.nations[nid].capital].province


def report_attack(world: World, dom: Domain, attackers: list[Attacker], outcome: str, ledger: Ledger) -> None:
    """LINK-07: a successful Attack a domain (GW-ATK) on a domain in a province records an invasion of
    that province by each attacking army's affiliated nation; a failed one a repulse. These are the
    invasions and repulses MN-MOD-02…05 count (SC-MN-07)."""
    mn = world.mn
    if mn is None or dom.province not in mn.provinces:
        return
    repelled = outcome != "success"
    seen: set[str] = set()
    for att in attackers:
        nid = affiliation_of(world, att.guild)[1]
        if nid is None or nid in seen:
            continue
        seen.add(nid)
        src = attacking_province(world, nid)
        defender_party = dip.party_of_province(mn, dom.province)
        # resolution: ENG-LINK-05
        own = defender_party == dip.nkey(nid) or src == dom.province
        ledger.emit(SYS, "AttackReported", f"guild:{att.guild}", ("LINK-07", "GW-ATK-04", "SC-MN-07"),
                    outcome="own province" if own else ("repulse" if repelled else "invasion"), nation=nid, army=att.army,
                    domain=dom.id, attacker=src, defender=dom.province, defender_party=defender_party)
        if own:
            continue
        assert world.gw is not None
        if repelled:
            world.gw.stats.link_repulses += 1
        else:
            world.gw.stats.link_invasions += 1
        dip.record_invasion(mn, ledger, src, dom.province, repelled, source="gw", clauses=("LINK-07", "MN-MOD-02", "MN-MOD-03", "MN-MOD-04"))


# =================================================================================================
# LINK-08: war feeds kingdoms (GW + KM)
# =================================================================================================


def claimant(world: World, hex_: int) -> str | None:
    km = world.km
    return None if km is None else km.owner_of(hex_)


def hostile_occupiers(world: World, dom: Domain, kid: str) -> list[str]:
    """Guilds occupying ``dom`` that are not affiliated with kingdom ``kid`` (ascending id)."""
    gw = world.gw
    assert gw is not None
    owners = {gw.armies[a].owner for a in dom.occupied_by if a in gw.armies}
    return sorted(g for g in owners if not affiliated_with_kingdom(world, g, kid))


def occupation_watch(world: World, dom: Domain) -> tuple[str, list[str]] | None:
    """Before an occupation: the claiming kingdom and the unaffiliated guilds already occupying."""
    kid = claimant(world, dom.hex)
    if kid is None:
        return None
    return kid, hostile_occupiers(world, dom, kid)


def domain_occupied(world: World, dom: Domain, before: tuple[str, list[str]] | None, ledger: Ledger) -> None:
    """LINK-08: a domain in a hex a kingdom claims that becomes occupied by a guild not affiliated
    with that kingdom adds 1 Unrest to the kingdom at its next Upkeep."""
    if before is None:
        return
    kid, earlier = before
    now = hostile_occupiers(world, dom, kid)
    if earlier or not now:
        return
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    k.occupied = [*k.occupied, dom.id]
    km.stats.link_occupations += 1
    ledger.emit(SYS, "OccupationReported", f"kingdom:{kid}", ("LINK-08", "GW-ATK-04"), outcome="Unrest +1 at the next Upkeep",
                domain=dom.id, hex=list(world.map.coords(dom.hex)), guilds=now, pending=len(k.occupied))


def occupation_unrest(world: World, kid: str, ledger: Ledger) -> int:
    """LINK-08, in the kingdom's Upkeep: +1 Unrest per domain occupied since the last Upkeep."""
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    if not k.occupied:
        return 0
    n = len(k.occupied)
    before = k.unrest
    k.unrest += n
    km.stats.link_occupation_unrest += n
    ledger.emit(SYS, "OccupationUnrest", f"kingdom:{kid}", ("LINK-08", "SC-KM-07"), total=n, outcome=f"+{n} Unrest",
                domains=list(k.occupied), unrest_before=before, unrest_after=k.unrest)
    k.occupied = []
    return n


def domain_annexed(world: World, dom: Domain, former: str, ledger: Ledger) -> None:
    """LINK-08: a domain annexed by a guild not affiliated with the kingdom claiming its hex costs the
    kingdom that hex (Size −1); a kingdom whose capital's domain has been annexed by guilds affiliated
    with another kingdom is conquered by it (it may then subjugate it, KM-VAS)."""
    km, gw = world.km, world.gw
    if km is None or gw is None:
        return
    kid = km.owner_of(dom.hex)
    if kid is None:
        return
    guild = dom.owner_guild
    if affiliated_with_kingdom(world, guild, kid):
        return
    k = km.kingdoms[kid]
    was_capital = K.capital_hex(k) == dom.hex and k.capital is not None
    conqueror: str | None = None
    if was_capital:
        cands = {affiliation_of(world, d.owner_guild)[0] for d in wf.domains_at(gw, dom.hex)}
        # resolution: ENG-LINK-06
        if len(cands) == 1:
            (c,) = cands
            if c is not None and c != kid:
                conqueror = c
    K.lose_claimed_hex(world, k, dom.hex)
    km.stats.link_hexes_lost += 1
    ledger.emit(SYS, "HexLostToGuild", f"kingdom:{kid}", ("LINK-08",), outcome="hex lost", domain=dom.id, guild=guild,
                former_owner=former, hex=list(world.map.coords(dom.hex)), size_after=len(k.hexes), capital=k.capital)
    if conqueror is not None and k.conquered_by != conqueror and k.overlord is None:
        k.conquered_by = conqueror
        km.stats.link_conquests += 1
        ledger.emit(SYS, "KingdomConqueredByGuilds", f"kingdom:{conqueror}", ("LINK-08", "KM-VAS-01"), outcome="conquered",
                    target=kid, domain=dom.id, guild=guild)


# =================================================================================================
# LINK-03 and LINK-06 in the scores (docs/scoring.md)
# =================================================================================================


def linked_score(world: World, score: FactionScore) -> FactionScore:
    """LINK-03 in a score: a nation that is one faction with a kingdom keeps one treasury, the
    kingdom's, in BP; it counts in the kingdom's score, not in the nation's (its treasury term is 0 and
    its ``treasury_of`` metric names the kingdom). Any other score is left as it is."""
    if score.kind != "nation" or world.mn is None:
        return score
    n = world.mn.nations.get(score.key.partition(":")[2])
    if n is None or n.kingdom is None or not world.has("km") or world.km is None or n.kingdom not in world.km.kingdoms:
        return score
    one = Term("treasury", 0.0, f"one treasury with kingdom:{n.kingdom} (LINK-03)")
    return replace(score, terms=tuple(one if t.key == "treasury" else t for t in score.terms),
                   metrics={**score.metrics, "treasury_years": None, "treasury_of": f"kingdom:{n.kingdom}"})


def is_own_faction(world: World, key: str) -> bool:
    """LINK-06: a guild that stands for a nation's armies is not a faction of its own (its units are the
    nation's); every other faction is."""
    kind, _, ident = key.partition(":")
    if kind != "guild" or world.gw is None or ident not in world.gw.guilds:
        return True
    return world.gw.guilds[ident].nation is None


# =================================================================================================
# What the links did, and what must hold between the systems (the LINK driver's reports)
# =================================================================================================


def metrics(w: World) -> dict[str, dict[str, Any]]:
    """The LINK part of each faction's season metrics (occupations awaiting Unrest, nations' armies)."""
    out: dict[str, dict[str, Any]] = {}
    if w.km is not None:
        for kid in w.km.ids():
            out[f"kingdom:{kid}"] = {"occupied_pending": len(w.km.kingdoms[kid].occupied)}
    if w.mn is not None and w.gw is not None:
        for nid in sorted(w.mn.nations):
            out[f"nation:{nid}"] = {"gw_armies": sum(1 for a in w.gw.armies.values() if a.owner == nid)}
    return out


def summary(w: World) -> dict[str, int | float]:
    """The ``link.*`` metrics of a campaign, read from the world (the LINK driver's summary)."""
    out: dict[str, int | float] = {}
    km, mn, gw, cv = w.km, w.mn, w.gw, w.cv
    if km is not None and mn is not None:
        out["link.dual_factions"] = sum(1 for k in km.kingdoms.values() if k.nation is not None)
        out["link.mn_costs_bp"] = km.stats.link_mn_costs_bp
        out["link.mn_incomes_bp"] = km.stats.link_mn_incomes_bp
        out["link.envoys"] = len(km.envoys)
    if gw is not None:
        out["link.affiliated_guilds"] = sum(1 for g in gw.guilds.values() if g.affiliation is not None and g.nation is None)
    if gw is not None and mn is not None:
        out["link.nation_armies"] = gw.stats.link_nation_armies
        out["link.nation_armies_not_raised"] = gw.stats.link_nation_armies_not_raised
        out["link.nation_army_solars"] = gw.stats.link_nation_army_solars
        out["link.nation_upkeep_solars"] = gw.stats.link_upkeep_solars
        out["link.invasions"] = gw.stats.link_invasions
        out["link.repulses"] = gw.stats.link_repulses
    if gw is not None and km is not None:
        out["link.occupations"] = km.stats.link_occupations
        out["link.occupation_unrest"] = km.stats.link_occupation_unrest
        out["link.hexes_lost"] = km.stats.link_hexes_lost
        out["link.conquests"] = km.stats.link_conquests
    if km is not None and cv is not None:
        out["link.trade_convoys"] = sum(1 for r in km.routes if r.convoy is not None)
    return out


def broken_invariants(w: World) -> list[str]:
    """Every LINK invariant the world breaks: the two halves of a faction agree (LINK-03), an
    occupation awaits a known domain (LINK-08), a nation guild stands for a nation (LINK-06)."""
    out: list[str] = []
    km, mn, gw = w.km, w.mn, w.gw
    if km is not None and mn is not None:
        for kid in km.ids():
            n = km.kingdoms[kid].nation
            if n is not None and (n not in mn.nations or mn.nations[n].kingdom != kid):
                out.append(f"kingdom {kid} is one faction with nation {n}, which does not say so (LINK-03)")
        for nid in sorted(mn.nations):
            k = mn.nations[nid].kingdom
            if k is not None and (k not in km.kingdoms or km.kingdoms[k].nation != nid):
                out.append(f"nation {nid} is one faction with kingdom {k}, which does not say so (LINK-03)")
    if km is not None and gw is not None:
        for kid in km.ids():
            for d in km.kingdoms[kid].occupied:
                if d not in gw.domains:
                    out.append(f"kingdom {kid} awaits Unrest for an unknown domain {d} (LINK-08)")
    if gw is not None:
        for gid in sorted(gw.guilds):
            g = gw.guilds[gid]
            if g.nation is not None and (mn is None or g.nation not in mn.nations or g.nation != gid):
                out.append(f"guild {gid} acts for nation {g.nation}, which is not a nation of this campaign (LINK-06)")
    return out


# ---- the hooks the systems' turns are built with (LINK-09: the systems never import this module) ----


def gw_hooks(world: World) -> wf.GwHooks:
    """What the other systems of ``world`` add to a guild season (``sim.rules.gw.resolve_season``):
    LINK-06 when Mare Nostrum runs too (nations fund their armies; attacks reported, LINK-07), LINK-08
    when kingdoms do (occupations and annexations of claimed hexes)."""
    mn, km = world.mn is not None, world.km is not None
    return wf.GwHooks(
        season_begun=fund_nation_armies if mn else None,
        occupation_watch=occupation_watch if km else None,
        domain_occupied=domain_occupied if km else None,
        attackers_of=attackers_of if mn else None,
        attack_reported=report_attack if mn else None,
        domain_annexed=domain_annexed if km else None,
    )


def mn_hooks(world: World) -> dip.MnHooks:
    """What the other systems of ``world`` add to a Mare Nostrum turn (``sim.rules.mn.resolve_turn``):
    LINK-03 when kingdoms run too (a faction that is both keeps one treasury, :class:`MnTreasuries`,
    opened each turn), LINK-06 when guild warfare does (armies raised become GW armies, :func:`army_hook`)."""
    return dip.MnHooks(
        treasury=MnTreasuries if world.km is not None else None,
        army=_mn_army_hook if world.gw is not None else None,
    )


def _mn_army_hook(world: World, ledger: Ledger, money: dip.Treasury | None) -> dip.ArmyHook:
    """LINK-06 for one MN turn: the turn's LINK-03 treasury, or one of its own (MN without kingdoms)."""
    return army_hook(world, ledger, money if isinstance(money, MnTreasuries) else MnTreasuries(world, ledger))


def km_hooks(world: World) -> K.KmHooks:
    """What the links add to a kingdom month (``sim.rules.km.resolve_month``): LINK-05's envoys (always:
    they carry the diplomacy between kingdoms), LINK-08's occupation Unrest in the Upkeep phase,
    LINK-04's merchant caravans when caravans run."""
    caravans = world.has("cv") and world.cv is not None
    return K.KmHooks(
        occupation_unrest=occupation_unrest,
        envoy_path=envoy_path,
        send_envoy=send_envoy,
        recall_envoy=recall_envoy,
        check_caravan=check_trade_caravan if caravans else None,
        trade_caravan=trade_caravan if caravans else None,
        caravan_set_out=caravan_set_out if caravans else None,
        caravan_arrivals=caravan_arrivals if world.cv is not None else None,
    )


_HOOKS: dict[str, Callable[[World], Any]] = {"km": km_hooks, "mn": mn_hooks, "gw": gw_hooks}


def hooks_for(world: World, system: str) -> Any:
    """What the other systems of ``world`` add to ``system``'s turn (the ``hooks`` of its ``play``):
    :func:`km_hooks`, :func:`mn_hooks`, :func:`gw_hooks`; None for a system the links do not touch (the
    convoys, a registered system)."""
    build = _HOOKS.get(system)
    return None if build is None else build(world)
