"""The kingdom agent (*royaume*): identity and a policy; its state is ``world.km.kingdoms[id]``.

In the Edict phase (*phase d'édit*) it makes its decisions one slot at a time, in SC-KM-13 order:
envoys (LINK-05), hex claims, terrain improvements, buildings, then the Taxation, Holiday and
Promotion edicts (SC-KM-14…16), an optional relation order (KM-REL-06/10), and last the special
edict (*édit spécial*, KM-GEN-02). For each slot it lists the legal alternatives, asks its policy
(``RealmAgent.decide`` records the alternatives scored) and resolves the choice at once, so the next
slot sees its effect. An order the rules refuse is logged (``OrderRejected``) and skipped.

A kingdom with ``policy = "scripted"`` plays the orders of its scenario or order file instead; an
order the rules refuse stops the run with a ``ScenarioError`` naming the file, the order's path, the
clause and the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.errors import IllegalOrderError, Problem, RulesError, ScenarioError
from sim.rules import edicts as E
from sim.rules import kingdom as K
from sim.state.km import (
    HOLIDAY_LEVELS,
    PROMOTION_LEVELS,
    TAXATION_LEVELS,
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    ExplorationEdict,
    ImprovementOrder,
    Kingdom,
    RelationOrder,
    TradeEdict,
    TurnOrders,
    VassalageEdict,
)

if TYPE_CHECKING:
    from agents.model import RealmModel
    from sim.dice import Dice
    from sim.world import World


class ScriptedOrderError(ScenarioError):
    """A person's scripted order the rules refuse: a ScenarioError naming the order file (or the scenario),
    the order's path, the clause and the reason. Its ``args`` rebuild it, so it survives SimPy re-raising
    an exception from inside a process (``type(e)(*e.args)``)."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        super().__init__(file, problems)
        self._text = Exception.__str__(self)
        self.args = (file, problems)

    def __str__(self) -> str:
        return self._text


@dataclass
class KingdomObs:
    """What a kingdom's policy sees for one decision: the world (read only), its id, the slot."""

    world: World
    kingdom: str
    slot: str
    extra: dict[str, Any] = field(default_factory=dict)
    sheet: K.Stats | None = None  # the kingdom's statistics as they stand, when the agent has them

    @property
    def me(self) -> Kingdom:
        km = self.world.km
        assert km is not None
        return km.kingdoms[self.kingdom]


def label(o: Any) -> str:
    """A short readable name of an alternative (for the ledger's DecisionMade events)."""
    if o is None:
        return "nothing"
    if isinstance(o, str):
        return o
    named = _LABELS.get(type(o))
    if named is not None:
        return named(o)
    if isinstance(o, tuple):
        return ":".join(str(x) for x in o)
    return str(o)


def _vassalage_label(o: VassalageEdict) -> str:
    what = o.target if o.mode == "subjugation" else f"{len(o.hexes)} hex(es)"
    return f"vassalage {o.mode} {what}, viceroy {o.viceroy}"


# by exact type: a decision labels every alternative, and the build slots have dozens
_LABELS: dict[type, Callable[[Any], str]] = {
    DiplomaticEdict: lambda o: f"diplomatic {o.kind} → {o.target}" + (f" (bribe {o.bribe})" if o.bribe else ""),
    ExplorationEdict: lambda o: f"exploration {o.months} month(s), {len(o.route)} hex(es) from #{o.route[0]}",
    TradeEdict: lambda o: f"trade {o.type} {o.origin} → {o.destination} ({o.partner}), {o.investment} BP",
    VassalageEdict: _vassalage_label,
    BuildOrder: lambda o: f"build {o.kind} in {o.settlement}",
    ImprovementOrder: lambda o: f"{o.kind} on #{o.hex}",
    EmbassyBuildingOrder: lambda o: f"embassy {o.kind} in {o.settlement} ({o.host})",
    RelationOrder: lambda o: f"{o.action} {o.which} with {o.target}",
}


class KingdomAgent(RealmAgent):
    kind = "kingdom"
    system = "km"

    def __init__(self, model: RealmModel, kid: str, policy: str) -> None:
        super().__init__(model, f"kingdom:{kid}", policy)
        self.kid = kid
        model.register(self)

    @property
    def state(self) -> Kingdom:
        km = self.realm.world.km
        assert km is not None
        return km.kingdoms[self.kid]

    @property
    def scripted(self) -> bool:
        return self.policy_name == "scripted"

    # ---- decisions ------------------------------------------------------------------------------
    def choose(self, slot: str, legal: Sequence[Any], *, clauses: Sequence[str] = (), sheet: K.Stats | None = None,
               **extra: Any) -> Any:
        """One decision among ``legal``; recorded in the ledger when there was a choice. ``sheet``:
        the kingdom's statistics, when the caller knows them to be current."""
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        obs = KingdomObs(self.realm.world, self.kid, slot, dict(extra), sheet)
        return self.decide(obs, legal, clauses=clauses, label=label).chosen

    def _rejected(self, path: str, err: RulesError) -> None:
        """A policy's order the rules refused: logged and skipped."""
        clause = err.clause if isinstance(err, IllegalOrderError) else ""
        self.realm.ledger.emit(
            "km",
            "OrderRejected",
            self.key,
            (clause,) if clause else (),
            outcome="skipped",
            path=path,
            reason=getattr(err, "reason", str(err)),
        )
        km = self.realm.world.km
        assert km is not None
        km.bump("orders_rejected")

    def _script_error(self, orders: TurnOrders) -> Callable[[str, RulesError], None]:
        km = self.realm.world.km
        assert km is not None
        source = km.orders_source.get(self.kid, "orders")

        def fail(path: str, err: RulesError) -> None:
            where = f"{orders.path}.{path}" if orders.path else path
            if isinstance(err, IllegalOrderError):
                raise ScriptedOrderError(source, [Problem(where, f"an order legal under {err.clause}", err.reason)]) from None
            raise ScriptedOrderError(source, [Problem(where, "a valid order", str(err))]) from None

        return fail

    def _do(self, path: str, fn: Callable[..., object], *args: Any) -> bool:
        try:
            fn(*args)
        except RulesError as e:
            self._rejected(path, e)
            return False
        return True

    # ---- the Edict phase --------------------------------------------------------------------------
    def edict_phase(self, dice: Dice, now: int) -> list[TurnOrders]:
        """Play this turn's Edict phase; returns the scripted orders used (for the Income phase)."""
        w = self.realm.world
        km = w.km
        assert km is not None
        led = self.realm.ledger
        E.begin_edict_phase(w, self.kid, dice, led)
        used: list[TurnOrders] = []
        if self.scripted:
            for o in km.scripted.get(self.kid, []):
                if o.turn == km.turn:
                    E.apply_orders(w, self.kid, o, dice, led, self._script_error(o), now=now)
                    used.append(o)
            if not used:
                K.set_edicts(w, self.kid, self.state.holiday, self.state.promotion, self.state.taxation, led)
        else:
            self._policy_turn(dice, now)
        E.end_edict_phase(w, self.kid, dice, led)
        return used

    def _policy_turn(self, dice: Dice, now: int) -> None:
        w = self.realm.world
        km = w.km
        assert km is not None
        led = self.realm.ledger
        k = self.state
        if k.anarchy:
            led.emit("km", "NoEdictsInAnarchy", self.key, ("SC-KM-07",), outcome="no edicts")
            return
        # envoys (LINK-05)
        targets = [t for t in km.ids() if t != self.kid and not km.stance(self.kid, t).present
                   and not any(e.kingdom == self.kid and e.target == t and e.status == "travelling" for e in km.envoys)
                   and K.capital_hex(km.kingdoms[t]) is not None and K.capital_hex(k) is not None
                   and E.envoy_path(w, self.kid, t) is not None]
        pick = self.choose("envoy", [None, *targets], clauses=("LINK-05", "KM-DIP-02"))
        if pick is not None:
            self._do("envoys[0]", E.send_envoy, w, self.kid, pick, now, led)
        # claims, improvements, buildings (SC-KM-13/17)
        self.build_slots(dice)
        # ordinary edicts (SC-KM-14/15/16), then KM-GEN-02's special edict; nothing changes the
        # kingdom between the three choices, so they share one reading of its statistics
        sheet = K.stats(w, k)
        tax = self.choose("taxation", list(TAXATION_LEVELS), clauses=("SC-KM-16",), sheet=sheet)
        hol = self.choose("holiday", list(HOLIDAY_LEVELS), clauses=("SC-KM-14",), sheet=sheet)
        pro = self.choose("promotion", list(PROMOTION_LEVELS), clauses=("SC-KM-15",), sheet=sheet)
        K.set_edicts(w, self.kid, hol, pro, tax, led)
        rel = self.choose("relation", [None, *self.relation_options()], clauses=("KM-REL-06", "KM-REL-10", "RES-KM-39"))
        if rel is not None:
            self._do("relations[0]", E.resolve_relation_order, w, self.kid, rel, dice, led)
        legal = E.legal_specials(w, self.kid)
        sp = self.choose("special", [None, *legal], clauses=("KM-GEN-01", "KM-GEN-02", "RES-KM-39"))
        if sp is not None:
            if isinstance(sp, DiplomaticEdict) and sp.kind in ("treaty", "alliance"):
                other = self.realm.by_key.get(f"kingdom:{sp.target}")
                if isinstance(other, KingdomAgent) and not other.scripted:
                    tb = other.choose("balance", ["balanced", "unbalanced"], clauses=("KM-REL-08",), proposer=self.kid)
                    sp = DiplomaticEdict(sp.target, sp.kind, sp.bribe, sp.skill, sp.target_skill, sp.balance, tb)
            self._do("special", E.resolve_special, w, self.kid, sp, dice, led, now)

    def build_slots(self, dice: Dice) -> None:
        """Claims, terrain improvements, buildings and embassy buildings, one decision at a time."""
        w = self.realm.world
        km = w.km
        assert km is not None
        led = self.realm.ledger
        k = self.state
        settle, builds, imps, claims = K.limits(k)
        for i in range(claims):
            opts = self.claim_options()
            h = self.choose("claim", [None, *opts], clauses=("SC-KM-13", "SC-KM-17"))
            if h is None or not self._do(f"claims[{i}]", K.claim_hex, w, self.kid, h, led):
                break
        for i in range(imps):
            imp_opts = self.improvement_options()
            o = self.choose("improvement", [None, *imp_opts], clauses=("SC-KM-32", "SC-KM-17"))
            if o is None or not self._do(f"improvements[{i}]", K.build_improvement, w, self.kid, o.hex, o.kind, led):
                break
        # an extra district (SC-KM-28) where a settlement runs out of lots: one a turn at most
        dopts = self.district_options()
        if dopts:
            d = self.choose("district", [None, *dopts], clauses=("SC-KM-28", "SC-KM-04"))
            if d is not None:
                self._do("districts[0]", K.buy_district, w, self.kid, d, led)
        n = builds if builds is not None else 25
        for i in range(n + 1):  # +1: the free Mansion/Noble Villa of SC-KM-17
            build_opts = self.building_options()
            o = self.choose("building", [None, *build_opts], clauses=("SC-KM-28", "SC-KM-31", "SC-KM-17", "KM-REL-03"))
            if o is None:
                break
            if isinstance(o, EmbassyBuildingOrder):
                ok = self._do(f"embassy_buildings[{i}]", E.build_embassy, w, self.kid, o, led)
            else:
                ok = self._do(f"buildings[{i}]", K.construct, w, self.kid, o.settlement, o.kind, led)
            if not ok:
                break

    # ---- legal alternatives of each slot ------------------------------------------------------------
    def _funds(self) -> int:
        k = self.state
        km = self.realm.world.km
        assert km is not None
        budget = k.construction_budget if k.budget_turn == km.turn else 0
        return k.treasury + budget

    def claim_options(self) -> list[int]:
        w = self.realm.world
        km = w.km
        assert km is not None
        k = self.state
        if K.ruler_vacant(k) or self._funds() < 1 or not self._under_limit("claims"):
            return []
        owners = km.owners()
        out: set[int] = set()
        for h in k.hexes:
            for n in w.map.neighbors(h):
                if n not in owners and km.explored(n) and not w.map.hexes[n].is_water:
                    out.add(n)
        return sorted(out)

    def _under_limit(self, what: str) -> bool:
        k = self.state
        km = self.realm.world.km
        assert km is not None
        s, b, t, c = K.limits(k)
        cap = {"settlements": s, "buildings": b, "improvements": t, "claims": c}[what]
        used = k.built.get(what, 0) if k.builds_turn == km.turn else 0
        return cap is None or used < cap

    def improvement_options(self) -> list[ImprovementOrder]:
        w = self.realm.world
        k = self.state
        if not self._under_limit("improvements"):
            return []
        funds = self._funds()
        towns = {s.hex for s in k.settlements}
        out: list[ImprovementOrder] = []
        for h in k.hexes:
            have = k.improvements.get(h, [])
            kinds: list[str] = []
            if not have and h not in towns:
                kinds += ["farm", "fishery", "mine", "quarry", "sawmill"]
            kinds.append("road")
            for kind in kinds:
                cost = K.improvement_cost(w, h, kind)
                if cost is None or cost > funds:
                    continue
                if kind == "road" and w.map.hexes[h].road_level >= 2:
                    continue
                if kind in ("farm", "road") and K.ruler_vacant(k):
                    continue
                if kind == "farm":
                    try:
                        K._farm_allowed(w, k, h, [])
                    except RulesError:
                        continue
                out.append(ImprovementOrder(h, kind))
        return out

    def district_options(self) -> list[str]:
        """Settlements that have fewer than 6 free lots and whose district the kingdom can pay."""
        w = self.realm.world
        k = self.state
        if K.ruler_vacant(k):
            return []
        funds = self._funds()
        out = []
        for s in k.settlements:
            cost = K.TERRAIN[K.km_terrain(w.map.hexes[s.hex].terrain)][1] or 0
            if 36 * s.districts - K.lots_used(s) < 6 and cost <= funds:
                out.append(s.name)
        return out

    def building_options(self) -> list[BuildOrder | EmbassyBuildingOrder]:
        w = self.realm.world
        km = w.km
        assert km is not None
        k = self.state
        funds = self._funds()
        free = not (k.builds_turn == km.turn and k.free_house_used)
        under = self._under_limit("buildings")
        out: list[BuildOrder | EmbassyBuildingOrder] = []
        for s in k.settlements:
            free_lots = 36 * s.districts - K.lots_used(s)
            for kind in sorted(K.BUILDINGS):
                b = K.BUILDINGS[kind]
                if b.bp > funds or b.lots > free_lots:
                    continue
                if not under and not (free and kind in K.FREE_HOUSES):
                    continue
                if b.water_border and not s.water_border:
                    continue
                if kind == "waterfront" and s.buildings.get("waterfront", 0):
                    continue
                out.append(BuildOrder(s.name, kind))
        for t in km.ids():
            if t == self.kid or km.level(self.kid, t) < 1:
                continue
            if any(e.owner == self.kid and e.host == t for e in km.embassy_buildings):
                continue
            host = km.kingdoms[t]
            if not host.settlements:
                continue
            for kind in ("mansion", "noble_villa"):
                if K.BUILDINGS[kind].bp <= funds:
                    out.append(EmbassyBuildingOrder(t, host.settlements[0].name, kind))
        return out

    def relation_options(self) -> list[RelationOrder]:
        km = self.realm.world.km
        assert km is not None
        out: list[RelationOrder] = []
        for key in sorted(km.relations):
            r = km.relations[key]
            if self.kid not in (r.a, r.b):
                continue
            other = r.b if r.a == self.kid else r.a
            if other not in km.kingdoms:
                continue
            if r.embassy and r.treaty is None and r.alliance is None:
                out.append(RelationOrder("close_embassy", other))
            for which, ag in (("treaty", r.treaty), ("alliance", r.alliance)):
                if ag is None:
                    continue
                if not ag.balanced and ag.advantaged != self.kid:
                    out.append(RelationOrder("renegotiate", other, which))
                out.append(RelationOrder("withdraw", other, which))
        return out

    def choose_hex_to_lose(self, k: Kingdom) -> int:
        """SC-KM-07: the leaders choose which hex is lost to Unrest."""
        if self.scripted:
            return K.default_hex_to_lose(self.realm.world, k)
        towns = {s.hex for s in k.settlements}
        cands = [h for h in k.hexes if h not in towns] or list(k.hexes)
        if len(cands) == 1:
            return cands[0]
        h = self.choose("lose_hex", cands, clauses=("SC-KM-07",))
        return int(h)

    def spend_budget(self, dice: Dice) -> None:
        """RES-KM-28: a vassal's construction budget granted after its own Edict phase, spent now."""
        w = self.realm.world
        km = w.km
        assert km is not None
        k = self.state
        if k.budget_turn != km.turn or k.construction_budget <= 0 or self.scripted:
            return
        self.build_slots(dice)
