"""Every summary metric of workers/metrics.py recounted from a campaign's ledger, independently of the
system drivers that compute it (issue 25 item 3; tests/workers/test_metrics.py runs them).

A recount reads the ledger's events (their kinds, fields, dice) and, for what a campaign starts with, the
scenario file itself (parsed here with ``tomllib``: the initial world and the ledger are the game
record, DESIGN.md). It never calls the rules, the drivers' ``summary`` or the ``summary`` that
``CampaignEnded`` carries. Three kinds of metric:

* **counters** — events of a kind, or a field of them, summed (``mn.tests``: ``DiplomacyTestRolled``);
  where the rules say what an outcome is, the recount applies the rule to the event's dice and DC
  rather than read the outcome back (``mn.very_warm`` from the d100, the score and the threshold,
  RES-MN-15);
* **what exists at the end** — replayed from the scenario's start and the events that create and end
  each thing (``mn.treaties_in_force``: the scenario's treaties, ``TreatySigned``, ``TreatyEnded``);
* **a faction's end values** (a treasury, a Size, Fame, a guild's solars) — read from the faction record
  the ledger ends with (``CampaignEnded.factions``, one row per faction) and aggregated here (sum,
  min, max): rebuilding a treasury from every income and cost would be writing the rules twice.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sim.calendar import HOURS_PER_DAY
from sim.events import Event

Number = int | float


class NotEnded(LookupError):
    """A recount that needs the faction record of ``CampaignEnded``, on a campaign stopped before it."""


@dataclass
class Ledger:
    """A campaign's events indexed by kind, with its scenario file (the initial world)."""

    events: list[Event]
    scenario: dict[str, Any]
    by_kind: dict[str, list[Event]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for e in self.events:
            self.by_kind.setdefault(e.kind, []).append(e)

    @classmethod
    def of(cls, events: Iterable[Event], scenario_text: str) -> Ledger:
        """The events of a campaign of the scenario whose file is ``scenario_text``."""
        return cls(list(events), tomllib.loads(scenario_text))

    def kind(self, *kinds: str) -> list[Event]:
        if len(kinds) == 1:
            return self.by_kind.get(kinds[0], [])
        return sorted((e for k in kinds for e in self.by_kind.get(k, [])), key=lambda e: e.seq)

    def end_factions(self, kind: str) -> dict[str, dict[str, Any]]:
        """The faction rows of ``CampaignEnded`` (LINK-01) of one kind: ``{id: row}``; a campaign stopped
        before its end (``--until``) has none: :class:`NotEnded`."""
        ended = self.kind("CampaignEnded")
        if not ended:
            raise NotEnded("the campaign stopped before its end: no CampaignEnded")
        (ended,) = ended
        return {k.partition(":")[2]: v for k, v in ended.data["factions"].items() if k.partition(":")[0] == kind}


Recount = Callable[[Ledger], Number]


def count(*kinds: str, system: str | None = None, where: Callable[[Event], bool] | None = None) -> Recount:
    """How many events of these kinds (of a system; that pass ``where``)."""

    def f(lg: Ledger) -> Number:
        return sum(1 for e in lg.kind(*kinds) if (system is None or e.system == system) and (where is None or where(e)))

    return f


def total(kind: str, get: Callable[[Event], Number] = lambda e: e.total or 0,
          where: Callable[[Event], bool] | None = None) -> Recount:
    """A field of the events of a kind, summed (``total`` by default)."""

    def f(lg: Ledger) -> Number:
        return sum(get(e) for e in lg.kind(kind) if where is None or where(e))

    return f


def outcome(*values: str) -> Callable[[Event], bool]:
    return lambda e: e.outcome in values


def data_is(key: str, *values: Any) -> Callable[[Event], bool]:
    return lambda e: e.data.get(key) in values


# ==== CV: caravans ===================================================================================
@dataclass
class Journey:
    set_out: int = -1
    end: int = -1
    status: str = "travelling"
    unrest: int = 0
    peak: int = 0
    cargo: dict[str, int] = field(default_factory=dict)


def journeys(lg: Ledger) -> dict[str, Journey]:
    """Each convoy's journey from its events: when it set out, how it ended, its Unrest (from the
    scenario's, then each ``UnrestRose``/``UnrestFell``)."""
    out: dict[str, Journey] = {}
    for c in lg.scenario.get("convoys", []):
        u = int(c.get("unrest", 0))
        out[f"convoy:{c['id']}"] = Journey(unrest=u, peak=u)
    for e in lg.kind("ConvoySetOut", "ConvoyArrived", "ConvoyDestroyed", "UnrestRose", "UnrestFell"):
        if e.system != "cv":
            continue
        j = out.setdefault(e.actor, Journey())
        if e.kind == "ConvoySetOut":
            j.set_out = e.t
        elif e.kind == "ConvoyArrived":
            j.status, j.end, j.cargo = "arrived", e.t, dict(e.data["cargo"])
        elif e.kind == "ConvoyDestroyed":
            j.status, j.end = "destroyed", e.t
        else:
            j.unrest = int(e.data["after"])
            j.peak = max(j.peak, j.unrest)
    return out


def _mean_days(lg: Ledger) -> Number:
    """The mean, over the convoys that arrived, of the days each moved or rested (its ``days_on_road``):
    a day it was stopped on the road (blocked, refusing to move) is neither."""
    moved = Counter(a for a, _ in _moved(lg))
    rested = Counter(e.actor for e in _rest_days(lg))
    days = [moved[a] + rested[a] for a, j in journeys(lg).items() if j.status == "arrived"]
    return round(sum(days) / len(days), 2) if days else 0.0


def _miles(lg: Ledger) -> Number:
    return round(float(sum(Fraction(str(e.data["miles"])) for e in lg.kind("ConvoyTravelled"))), 2)


def _hp_lost(kind: str, where: Callable[[Event], bool] | None = None) -> Recount:
    """HP lost: before − after of each damage event (damage beyond the HP left is not lost)."""
    return total(kind, lambda e: int(e.data["before"]) - int(e.data["after"]), where)


def _day_plans(lg: Ledger) -> list[Event]:
    """The day's plan of each convoy (RES-CV-24: one decision a day at the start of its travel slot)."""
    return [e for e in lg.kind("DecisionMade") if e.system == "cv" and e.clauses == ("RES-CV-24",)]


def _rest_days(lg: Ledger) -> list[Event]:
    """The plans of the days a convoy did not set out to travel (a rest or repair day), unless it was
    destroyed at the start of that day's slot, before the slot's hours."""
    gone = {(e.actor, e.t) for e in lg.kind("ConvoyDestroyed")}
    return [e for e in _day_plans(lg) if not e.outcome.startswith("travel") and (e.actor, e.t) not in gone]


def _moved(lg: Ledger) -> set[tuple[str, int]]:
    """(convoy, day) of each day a convoy moved at least an hour (``ConvoyTravelled``)."""
    return {(e.actor, e.t // HOURS_PER_DAY) for e in lg.kind("ConvoyTravelled") if int(e.total or 0) > 0}


def _mutiny_days(lg: Ledger) -> Number:
    """Days a convoy started its travel slot in mutiny (RES-CV-18): from ``MutinyBegan`` to
    ``MutinyEnded``, counted at each day's plan, after the orders given with it (a gift that calms the
    crew ends the mutiny first) and unless the day's starvation destroyed the convoy."""
    out = 0
    state: dict[str, bool] = {}
    plan_at: dict[str, int] = {}  # convoy → hour of its last plan, still to be counted
    gone = {(e.actor, e.t) for e in lg.kind("ConvoyDestroyed")}

    def settle(actor: str) -> None:
        nonlocal out
        t = plan_at.pop(actor, None)
        if t is not None and state.get(actor, False) and (actor, t) not in gone:
            out += 1

    for e in lg.kind("DecisionMade", "MutinyBegan", "MutinyEnded", "StarvationDamageTaken", "MutinyCheckRolled",
                     "HazardTableRolled", "ConvoyTravelled"):
        if e.system != "cv":
            continue
        if e.kind == "DecisionMade":
            if e.clauses == ("RES-CV-24",):
                settle(e.actor)
                plan_at[e.actor] = e.t
        elif e.kind in ("MutinyBegan", "MutinyEnded"):
            if plan_at.get(e.actor) != e.t:
                settle(e.actor)
            state[e.actor] = e.kind == "MutinyBegan"
        else:  # the day's slot has begun: its orders are given
            settle(e.actor)
    for actor in list(plan_at):
        settle(actor)
    return out


_PURCHASES = {  # what each purchase event says it cost (SC-CV-03, SC-CV-05, CV-PROV-01, RES-CV-01, RES-CV-23)
    "StoresBought": lambda e: int(e.data["gp"]),
    "RepairMaterialsBought": lambda e: int(e.data["gp"]),
    "WagonBought": lambda e: int(e.total or 0),
    "AxlesFitted": lambda e: int(e.total or 0),
    "WagesPaid": lambda e: int(e.total or 0),
}


def _gp_spent(lg: Ledger) -> Number:
    return sum(cost(e) for kind, cost in _PURCHASES.items() for e in lg.kind(kind))


def _delivered(cargo: str) -> Recount:
    return lambda lg: sum(int(j.cargo.get(cargo, 0)) for j in journeys(lg).values() if j.status == "arrived")


CV: dict[str, Recount] = {
    "cv.convoys": count("ConvoySetOut"),
    "cv.arrived": count("ConvoyArrived"),
    "cv.destroyed": count("ConvoyDestroyed"),
    "cv.stranded": lambda lg: sum(1 for j in journeys(lg).values() if j.status == "travelling"),
    "cv.mean_days_to_arrive": _mean_days,
    "cv.miles_travelled": _miles,
    # a hazard is met when its check is rolled or its combat begins (CV-HAZ-02, CV-HAZ-04)
    "cv.hazards_met": count("HazardCheckRolled", "CombatBegan"),
    "cv.hazard_damage": _hp_lost("DamageTaken"),
    "cv.combat_damage": _hp_lost("DamageTaken", outcome("combat")),
    "cv.starvation_damage": _hp_lost("StarvationDamageTaken"),
    "cv.mutiny_days": _mutiny_days,
    "cv.final_unrest": lambda lg: sum(j.unrest for j in journeys(lg).values()),
    "cv.peak_unrest": lambda lg: max((j.peak for j in journeys(lg).values()), default=0),
    "cv.stores_bought": total("StoresBought"),
    "cv.gift_units_given": total("GiftGiven"),
    "cv.gp_spent": _gp_spent,
    "cv.wagons_lost": count("WagonLost"),
    "cv.travelers_lost": count("TravelerKilled"),
    "cv.trade_goods_delivered": _delivered("trade_goods"),
    "cv.treasure_delivered": _delivered("treasure"),
    "cv.days_travelled": lambda lg: len(_moved(lg)),
    "cv.days_rested": lambda lg: len(_rest_days(lg)),
}


# ==== GW: guild war ==================================================================================
def _units_destroyed(lg: Ledger) -> Number:
    """Units lost in battles and assaults (both fronts) and to siege damage (both sides); deserters
    are not destroyed by the enemy (GW-FAM-02)."""
    n = sum(len(e.data["attackers_lost"]) + len(e.data["defenders_lost"]) for e in lg.kind("BattleFought", "DomainAttacked"))
    return n + sum(len(e.data["destroyed"]) + len(e.data["destroyed_besiegers"]) for e in lg.kind("SiegeDamageDealt"))


def _siege_seasons(lg: Ledger) -> Number:
    """Domain-seasons under siege (RES-GW-20): each domain at each hour a siege was resolved there — a
    besieger's status (``ArmyBesieging``/``SiegeFellShort``), the siege damage or the famine."""
    seen = {(e.data["domain"], e.t) for e in lg.kind("ArmyBesieging", "SiegeFellShort")}
    seen |= {(e.actor.partition(":")[2], e.t) for e in lg.kind("SiegeDamageDealt", "GarrisonFed")}
    return len(seen)


def _armies(lg: Ledger) -> Number:
    """Armies in the field at the end: the scenario's, then deployed or raised (LINK-06) ones, less
    the destroyed, disbanded and dissolved."""
    alive = {f"army:{a['id']}" for a in lg.scenario.get("armies", [])}
    for e in lg.kind("ArmyDeployed", "NationArmyRaised", "ArmyDestroyed", "ArmyDisbanded", "ArmyDissolved"):
        if e.kind == "ArmyDeployed":
            alive.add(e.actor)
        elif e.kind == "NationArmyRaised":
            alive.add(f"army:{e.data['army']}")
        else:
            alive.discard(e.actor)
    return len(alive)


def guild_domains(lg: Ledger) -> dict[str, int]:
    """Each guild's domains at the end: the scenario's owners, then each annexation (GW-ANX-01)."""
    owner = {d["id"]: d.get("owner", "") for d in lg.scenario.get("domains", [])}
    for e in lg.kind("DomainAnnexed"):
        owner[e.data["domain"]] = e.actor.partition(":")[2]
    got = Counter(o for o in owner.values() if o)
    return {g: got.get(g, 0) for g in lg.end_factions("guild")}


def _bank_kept(lg: Ledger) -> Number:
    return sum(int(e.total or 0) for e in lg.kind("CompensationForfeited"))


GW: dict[str, Recount] = {
    # a guild season is resolved at one hour (RES-GW-10), in which every guild is asked for its orders
    "gw.seasons": lambda lg: len({e.t for e in lg.kind("DecisionMade", "OrderGiven") if e.system == "gw"}),
    "gw.deployments": count("ArmyDeployed"),
    "gw.battles": count("BattleFought"),
    "gw.siege_seasons": _siege_seasons,
    "gw.assaults": count("DomainAttacked"),
    "gw.assaults_won": count("DomainAttacked", where=outcome("success")),
    "gw.occupations": count("DomainOccupied"),
    "gw.sacks": count("DomainSacked"),
    "gw.units_destroyed": _units_destroyed,
    "gw.deserters": total("DesertionSuffered", lambda e: len(e.data["destroyed"])),
    "gw.units_unpaid": total("UpkeepPaid", lambda e: len(e.data["left"])),
    "gw.armies_destroyed": count("ArmyDestroyed"),
    "gw.domains_annexed": count("DomainAnnexed"),
    "gw.loot_created": count("LootCreated"),
    "gw.loot_solars": total("LootCreated"),
    "gw.loot_claimed_solars": total("LootClaimed"),
    "gw.bank_kept_solars": _bank_kept,
    "gw.armies": _armies,
}
# per guild (``gw.solars.<guild>``…): {guild: value}
GW_PER_GUILD: dict[str, Callable[[Ledger], dict[str, Number]]] = {
    "gw.domains.*": guild_domains,
    "gw.solars.*": lambda lg: {g: r["solars"] for g, r in lg.end_factions("guild").items()},
    "gw.notoriety.*": lambda lg: {g: r["notoriety"] for g, r in lg.end_factions("guild").items()},
}


# ==== KM: kingdoms ===================================================================================
def _vassalage(mode: str) -> Recount:
    return count("VassalageEdictIssued", where=outcome(mode))


def _anarchy_turns(lg: Ledger) -> Number:
    """Kingdom-turns whose Upkeep ended in anarchy (SC-KM-07: Unrest 20 or more): the Upkeep is the
    kingdom's ``UpkeepStabilityCheckRolled``; ``AnarchyBegan``/``AnarchyEnded`` at its end say which."""
    n = 0
    anarchy: dict[str, bool] = {}
    pending: set[str] = set()  # kingdoms whose Upkeep has begun and not yet been counted
    for e in lg.kind("UpkeepStabilityCheckRolled", "AnarchyBegan", "AnarchyEnded", "KingdomTurnBegan"):
        k = e.actor
        if e.kind == "UpkeepStabilityCheckRolled":
            pending.add(k)
        elif e.kind in ("AnarchyBegan", "AnarchyEnded"):
            anarchy[k] = e.kind == "AnarchyBegan"
        elif k in pending:  # the next turn begins: the last Upkeep is over
            pending.discard(k)
            n += anarchy.get(k, False)
    return n + sum(anarchy.get(k, False) for k in pending)


@dataclass
class Relation:
    embassy: bool = False
    treaty: bool = False
    alliance: bool = False
    enemies: bool = False


def relations(lg: Ledger) -> dict[frozenset[str], Relation]:
    """The relations between kingdoms at the end (KM-REL): the scenario's, then each event that opens
    or ends an embassy, a treaty, an alliance or a war."""
    rels: dict[frozenset[str], Relation] = {}

    def rel(a: str, b: str) -> Relation:
        return rels.setdefault(frozenset((a.removeprefix("kingdom:"), b)), Relation())

    for r in lg.scenario.get("km_relations", []):
        x = rel(*r["between"])
        level = r.get("relation", "none")
        x.embassy = level != "none"
        x.treaty = level in ("treaty", "alliance")
        x.alliance = level == "alliance"
        x.enemies = bool(r.get("enemies", False))
    for e in lg.kind("DiplomacyCheckRolled", "IntimidateCheckRolled", "AgreementSigned", "EmbassyEstablished",
                     "CloseEmbassyLoyaltyCheckRolled", "WithdrawalLoyaltyCheckRolled", "AttackLoyaltyCheckRolled",
                     "KingdomAttacked", "PeaceMade", "VassalageEdictIssued"):
        if e.system != "km":
            continue
        d = e.data
        if e.kind == "VassalageEdictIssued":
            if e.outcome == "subjugation" and d.get("embassy"):
                rel(e.actor, d["target"]).embassy = True
            continue
        x = rel(e.actor, d["target"])
        result = d.get("result", "")
        if result == "embassy established" or e.kind == "EmbassyEstablished":
            x.embassy = True
        elif result == "war declared" or e.kind == "KingdomAttacked":
            x.enemies = True
        elif e.kind == "AgreementSigned":
            x.embassy = True
            if e.outcome.endswith("treaty"):
                x.treaty = True
            else:
                x.alliance = True
        elif result == "embassy closed":
            x.embassy = False
        elif result.startswith("withdrew from the "):
            x.alliance = False
            if result.endswith("treaty"):
                x.treaty = False
        elif e.kind == "AttackLoyaltyCheckRolled":
            x.enemies = True
            if d.get("relations_ended"):
                x.embassy = x.treaty = x.alliance = False
        elif e.kind == "PeaceMade":
            x.enemies = False
    return rels


def _routes_active(lg: Ledger) -> Number:
    """Trade routes established and not yet expired or lost (KM-TRADE-11/13, RES-KM-23)."""
    live: set[Any] = set()
    for e in lg.kind("TradeRouteEstablished", "TradeRouteExpired", "TradeExpeditionLost", "TradeGoodsSoldElsewhere"):
        if e.kind == "TradeRouteEstablished":
            live.add(e.data["route"])
        else:
            live.discard(e.data["route"])
    return len(live)


def _vassals(lg: Ledger) -> Number:
    """Kingdoms with an overlord: the scenario's, then every vassalage edict's vassal (KM-VAS)."""
    v = {k["id"] for k in lg.scenario.get("kingdoms", []) if k.get("overlord")}
    for e in lg.kind("VassalageEdictIssued"):
        v.add(e.data["target"] if e.outcome == "subjugation" else e.data["vassal"])
    return len(v)


def _end(kind: str, key: str, how: Callable[[list[Number]], Number]) -> Recount:
    return lambda lg: how([r[key] for r in lg.end_factions(kind).values()])


def _features_found(lg: Ledger) -> Number:
    """Hidden features a Knowledge or Survival check met or beat the DC of (KM-EXP-05, RES-KM-14)."""
    return sum(sum(1 for _, dc in e.data["dcs"] if int(e.total or 0) >= dc) for e in lg.kind("HiddenFeatureCheckRolled"))


def _expeditions(result: str) -> Recount:
    """Expeditions scattered or killed: the Stability check of KM-EXP-08, or the encounter the PCs resolved."""
    return lambda lg: sum(1 for e in lg.kind("ExplorerStabilityCheckRolled") if e.data["result"] == result) + \
        sum(1 for e in lg.kind("EncounterResolvedByPCs") if e.outcome == result)


KM: dict[str, Recount] = {
    "km.turns": lambda lg: 1 + max((int(e.data["turn"]) for e in lg.kind("KingdomTurnBegan")), default=-1),
    "km.kingdoms": lambda lg: len(lg.scenario.get("kingdoms", [])) + sum(
        1 for e in lg.kind("VassalageEdictIssued") if e.outcome in ("new_vassal", "colony")),
    "km.edicts_diplomatic": count("DiplomaticEdictIssued"),
    "km.edicts_exploration": count("ExplorationEdictIssued"),
    "km.edicts_trade": count("TradeEdictIssued"),
    "km.edicts_vassalage": count("VassalageEdictIssued"),
    "km.embassies": count("DiplomacyCheckRolled", "IntimidateCheckRolled", where=data_is("result", "embassy established")),
    "km.treaties_signed": count("AgreementSigned", where=lambda e: e.outcome.endswith(" treaty")),
    "km.alliances_signed": count("AgreementSigned", where=lambda e: e.outcome.endswith(" alliance")),
    "km.treaty_refused": count("AgreementRefused", where=outcome("no treaty")),
    "km.alliance_refused": count("AgreementRefused", where=outcome("no alliance")),
    "km.wars_declared": count("IntimidateCheckRolled", where=data_is("result", "war declared")),
    "km.hexes_explored": count("HexExplored"),
    "km.features_found": _features_found,
    "km.expeditions_scattered": _expeditions("scattered"),
    "km.expeditions_killed": _expeditions("killed"),
    "km.trade_routes_established": count("TradeRouteEstablished"),
    "km.trade_sold_elsewhere": count("TradeGoodsSoldElsewhere"),
    "km.trade_expeditions_lost": count("TradeExpeditionLost"),
    "km.vassalage_new_vassal": _vassalage("new_vassal"),
    "km.vassalage_colony": _vassalage("colony"),
    "km.vassalage_subjugation": _vassalage("subjugation"),
    "km.subjugations_settled": count("SubjugationFrictionCheckRolled", where=data_is("equilibrium", True)),
    "km.hexes_claimed": count("HexClaimed"),
    "km.buildings_built": count("BuildingConstructed"),
    "km.improvements_built": count("TerrainImprovementBuilt"),
    "km.hexes_lost_to_unrest": count("HexLostToUnrest"),
    "km.anarchy_turns": _anarchy_turns,
    "km.orders_rejected": count("OrderRejected", system="km"),
    "km.embassies_now": lambda lg: sum(1 for r in relations(lg).values() if r.embassy),
    "km.treaties_now": lambda lg: sum(1 for r in relations(lg).values() if r.treaty),
    "km.alliances_now": lambda lg: sum(1 for r in relations(lg).values() if r.alliance),
    "km.wars_now": lambda lg: sum(1 for r in relations(lg).values() if r.enemies),
    "km.trade_routes_active": _routes_active,
    "km.vassals": _vassals,
    "km.treasury_total": _end("kingdom", "treasury", sum),
    "km.treasury_min": _end("kingdom", "treasury", min),
    "km.treasury_max": _end("kingdom", "treasury", max),
    "km.unrest_max": _end("kingdom", "unrest", max),
    "km.size_total": _end("kingdom", "size", sum),
    "km.size_max": _end("kingdom", "size", max),
    "km.fame_max": _end("kingdom", "fame", max),
    "km.infamy_max": _end("kingdom", "infamy", max),
}


# ==== MN: Mare Nostrum ===============================================================================
def band(e: Event) -> str:
    """The band of a diplomacy test by RES-MN-15, from its d100, its score and its threshold: a natural
    96–00 is a disaster (MN-OUT-05); 20 or more above the threshold a blunder (MN-OUT-04); at or above
    it a failure (MN-OUT-03); 20 or more below it a very warm welcome (MN-OUT-01); else limited (MN-OUT-02)."""
    ((sides, natural),) = e.dice
    assert sides == 100
    score, threshold = int(e.total or 0), int(e.dc or 0)
    if natural >= 96:
        return "disaster"
    if score - threshold >= 20:
        return "blunder"
    if score >= threshold:
        return "failure"
    return "very_warm" if threshold - score >= 20 else "limited"


def _band(name: str) -> Recount:
    return lambda lg: sum(1 for e in lg.kind("DiplomacyTestRolled") if band(e) == name)


def _scenario_treaties(lg: Ledger) -> list[dict[str, Any]]:
    return list(lg.scenario.get("mn_treaties", []))


def treaties(lg: Ledger) -> Counter[str]:
    """Treaties in force at the end by type: the scenario's, then ``TreatySigned`` and ``TreatyEnded``."""
    live: dict[Any, str] = {("scenario", i): t["kind"] for i, t in enumerate(_scenario_treaties(lg))}
    ids: dict[Any, Any] = {}
    for e in lg.kind("TreatySigned", "TreatyEnded"):
        tid = e.data["treaty"]
        if e.kind == "TreatySigned":
            live[tid] = e.data["type"]
        else:
            if tid not in live:  # a treaty of the scenario (its id is the world's): the first of its type and nation
                key = next((k for k, t in live.items() if isinstance(k, tuple) and t == e.data["type"]
                            and _scenario_treaties(lg)[k[1]]["nation"] == e.actor.partition(":")[2]), None)
                ids[tid] = key
                tid = key
            live.pop(tid, None)
    return Counter(live.values())


def _embassies_open(lg: Ledger) -> Number:
    """The scenario's treaties each come with an embassy (SC-MN-02); then installed and closed ones."""
    return len(_scenario_treaties(lg)) + len(lg.kind("EmbassyInstalled")) - len(lg.kind("EmbassyClosed"))


def ambassadors(lg: Ledger) -> Counter[str]:
    """Each ambassador's state at the end (RES-MN-02): the scenario's ambassadors (``ambassadors`` at
    home per nation, ``N-1`` …; then one at post per treaty in force at the start), the bought ones
    (at home), then every event that moves, posts, imprisons or kills one."""
    state: dict[str, str] = {}
    made: Counter[str] = Counter()
    for n in lg.scenario.get("nations", []):
        for _ in range(int(n.get("ambassadors", 0))):
            made[n["id"]] += 1
            state[f"{n['id']}-{made[n['id']]}"] = "home"
    for t in _scenario_treaties(lg):
        made[t["nation"]] += 1
        state[f"{t['nation']}-{made[t['nation']]}"] = "at_post"
    moves = {"MissionLaunched": "travelling", "EmbassyInstalled": "at_post", "AmbassadorReturned": "home",
             "AmbassadorImprisoned": "imprisoned", "AmbassadorExecuted": "dead"}
    for e in lg.kind("AmbassadorBought", "AmbassadorSentHome", *moves):
        if e.kind == "AmbassadorBought":
            state[e.outcome] = "home"
        elif e.kind == "AmbassadorSentHome":
            state[e.actor.partition(":")[2]] = e.outcome  # home at once, or travelling home
        else:
            state[e.actor.partition(":")[2]] = moves[e.kind]
    return Counter(state.values())


def wars(lg: Ledger) -> int:
    """Wars under way at the end (SC-MN-05): declared, or begun by honouring a pact against the aggressor
    (MN-TRE-07); ended by peace (SC-MN-02)."""
    on: set[frozenset[str]] = set()
    for e in lg.kind("WarDeclared", "PactHonoured", "PeaceMade"):
        if e.system != "mn":
            continue
        if e.kind == "WarDeclared":
            on.add(frozenset((e.actor, e.data["target"])))
        elif e.kind == "PactHonoured":
            on.add(frozenset((e.actor, e.data["aggressor"])))
        else:
            on.discard(frozenset((e.actor, e.data["target"])))
    return len(on)


def _host(choice: str) -> Recount:
    """A host's choice for a mission that reached one of its cities (MN-HOST-01, RES-MN-04); not the
    executions and imprisonments of a disaster or a blunder (MN-OUT-04/05), which no host chose."""
    return count("HostChose", where=outcome(choice))


MN: dict[str, Recount] = {
    "mn.turns": count("TurnBegan", system="mn"),
    "mn.nations": lambda lg: len(lg.scenario.get("nations", [])),
    "mn.ambassadors_bought": count("AmbassadorBought"),
    "mn.missions": count("MissionLaunched"),
    "mn.renewals": count("RenewalLaunched"),
    "mn.tests": count("DiplomacyTestRolled"),
    "mn.very_warm": _band("very_warm"),
    "mn.limited": _band("limited"),
    "mn.failures": _band("failure"),
    "mn.blunders": _band("blunder"),
    "mn.disasters": _band("disaster"),
    "mn.host_accept": _host("accept"),
    "mn.host_dismiss": _host("dismiss"),
    "mn.host_execute": _host("execute"),
    "mn.host_imprison": _host("imprison"),
    "mn.interferences": count("InterferenceRolled"),
    # MN-INT-02: an interference die showing 20 discovers the plot
    "mn.plots_discovered": count("InterferenceRolled", where=lambda e: e.dice == ((20, 20),)),
    "mn.treaties_signed": count("TreatySigned"),
    # RES-MN-17, MN-TRE-04/08: a nation broke it (a pact broken at war or in peace, an alliance, a
    # commercial agreement); expired: a limited treaty's last turn passed (SC-MN-04); ended: any other
    # way (its embassy closed, MN-EMB-01; relations severed, MN-TRE-07)
    "mn.treaties_broken": count("TreatyEnded", where=outcome("broken")),
    "mn.treaties_expired": count("TreatyEnded", where=outcome("expired")),
    "mn.treaties_ended": count("TreatyEnded", where=lambda e: e.outcome not in ("broken", "expired")),
    "mn.embassies_installed": count("EmbassyInstalled"),
    "mn.embassies_closed": count("EmbassyClosed"),
    "mn.ransoms_paid": count("RansomPaid"),
    "mn.armies_raised": count("ArmyRaised"),
    "mn.pacts_honoured": count("PactHonoured"),
    "mn.pacts_broken_war": count("PactBroken", where=outcome("wartime")),
    "mn.pacts_broken_peace": count("PactBroken", where=outcome("peacetime")),
    "mn.wars_declared": count("WarDeclared", system="mn"),
    "mn.invasions": count("InvasionRecorded"),
    "mn.repulses": count("RepulseRecorded"),
    "mn.income_po": total("IncomeCollected"),
    "mn.ambassadors_home": lambda lg: ambassadors(lg)["home"],
    "mn.ambassadors_travelling": lambda lg: ambassadors(lg)["travelling"],
    "mn.ambassadors_at_post": lambda lg: ambassadors(lg)["at_post"],
    "mn.ambassadors_imprisoned": lambda lg: ambassadors(lg)["imprisoned"],
    "mn.ambassadors_dead": lambda lg: ambassadors(lg)["dead"],
    "mn.treaties_in_force": lambda lg: sum(treaties(lg).values()),
    "mn.commercial_in_force": lambda lg: treaties(lg)["commercial"],
    "mn.alliance_in_force": lambda lg: treaties(lg)["alliance"],
    "mn.pact_in_force": lambda lg: treaties(lg)["pact"],
    "mn.embassies": _embassies_open,
    "mn.wars": wars,
    "mn.treasury_total": _end("nation", "treasury", sum),
    "mn.treasury_max": _end("nation", "treasury", max),
    "mn.treasury_min": _end("nation", "treasury", min),
}


# ==== LINK: where two systems meet (RULES.md §5.5) ====================================================
def _dual_factions(lg: Ledger) -> Number:
    """LINK-03: the scenario's factions that name both a kingdom and a nation of the campaign."""
    kingdoms = {k["id"] for k in lg.scenario.get("kingdoms", [])}
    nations = {n["id"] for n in lg.scenario.get("nations", [])}
    return sum(1 for f in lg.scenario.get("factions", []) if f.get("kingdom") in kingdoms and f.get("nation") in nations)


def _affiliated(lg: Ledger) -> Number:
    """LINK-03/07: the scenario's guilds affiliated to a kingdom or a nation of the campaign (directly or
    through a faction); the guild a nation acts as (LINK-06) is not one of them."""
    names = {k["id"] for k in lg.scenario.get("kingdoms", [])} | {n["id"] for n in lg.scenario.get("nations", [])}
    for f in lg.scenario.get("factions", []):
        names |= {x for x in (f.get("kingdom"), f.get("nation")) if x}
    return sum(1 for g in lg.scenario.get("guilds", []) if g.get("affiliation") in names)


LINK: dict[str, Recount] = {
    "link.dual_factions": _dual_factions,
    "link.mn_costs_bp": total("TreasuryConverted", lambda e: int(e.data["bp"]), outcome("cost")),
    "link.mn_incomes_bp": total("TreasuryConverted", lambda e: int(e.data["bp"]), outcome("income")),
    "link.envoys": count("EnvoySent"),
    "link.affiliated_guilds": _affiliated,
    "link.nation_armies": count("NationArmyRaised"),
    "link.nation_armies_not_raised": count("NationArmyNotRaised"),
    "link.nation_army_solars": total("NationArmyRaised", lambda e: int(e.data["solars"])),
    "link.nation_upkeep_solars": total("NationArmyUpkeepFunded", lambda e: int(e.data["solars"])),
    "link.invasions": count("AttackReported", where=outcome("invasion")),
    "link.repulses": count("AttackReported", where=outcome("repulse")),
    "link.occupations": count("OccupationReported"),
    "link.occupation_unrest": total("OccupationUnrest"),
    "link.hexes_lost": count("HexLostToGuild"),
    "link.conquests": count("KingdomConqueredByGuilds"),
    "link.trade_convoys": count("TradeCaravanSetOut"),
}

RECOUNT: dict[str, Recount] = {**CV, **GW, **KM, **MN, **LINK}

__all__ = ["GW_PER_GUILD", "RECOUNT", "Ledger", "NotEnded", "band", "journeys"]
