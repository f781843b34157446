"""The convoy agent (*convoi*, CV): identity and a policy; its state lives in ``world.cv``.

Its SimPy process runs the caravan day of RES-CV-24 on the one clock, waking only through
``model.at(hour, Phase.CV, rank)`` (rank = the convoy's position in ascending convoy id):

* at the start of the 12-hour travel slot (``cfg.cv.travel_start_hour``): the scenario's events
  for the day (level-ups, Unrest events, scripted hazards), wages (at hiring, then every 30 days),
  unpaid NPCs leaving in a settlement, the route choice in a settlement, the day's plan (one policy
  decision), then the slot-start checks and the 12 travel hours in one call;
* at the end of the slot: the extra hours of a forced march (one call) — and the rest, unless the
  forced march moved it later;
* at the start of the rest when extra hours were travelled.

So a convoy wakes about twice a day. The process keeps nothing between wake-ups: it reads the next
phase from ``convoy.today.stage`` and the hour from the clock, so a run resumed from a saved world
carries on exactly.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.calendar import HOURS_PER_DAY, Phase
from sim.errors import RealmsimError, RulesError
from sim.rules import caravan as cr
from sim.state.cv import Convoy, DayPlan, RouteChoice, ticks_to_miles

if TYPE_CHECKING:
    from agents.model import RealmModel


class ConvoyPolicyError(RealmsimError):
    """A convoy's policy cannot be built, or chose an order the rules refuse (a plug-in policy's
    bug, never a rules roll). One message argument, so that SimPy can re-raise it out of a process."""


class ConvoyAgent(RealmAgent):
    kind = "convoy"
    system = "cv"

    def __init__(self, model: RealmModel, convoy_id: str, policy: str) -> None:
        super().__init__(model, f"convoy:{convoy_id}", policy)
        self.cid = convoy_id
        model.register(self)

    # ---- world views ----------------------------------------------------------------------
    @property
    def convoy(self) -> Convoy:
        cv = self.realm.world.cv
        assert cv is not None
        return cv.convoy(self.cid)

    @property
    def rank(self) -> int:
        cv = self.realm.world.cv
        assert cv is not None
        for i, c in enumerate(cv.convoys):
            if c.id == self.cid:
                return i
        return len(cv.convoys)

    # reporters (DataCollector)
    @property
    def hp(self) -> int:
        return self.convoy.hp

    @property
    def unrest(self) -> int:
        return self.convoy.unrest

    @property
    def provisions(self) -> int:
        return self.convoy.provisions

    @property
    def miles(self) -> float:
        return float(ticks_to_miles(self.convoy.ticks_total))

    @property
    def status(self) -> str:
        return self.convoy.status

    # ---- the process ------------------------------------------------------------------------
    def run(self) -> Generator[Any, Any, None]:
        m = self.realm
        w = m.world
        start_h = w.config.cv.travel_start_hour
        while True:
            c = self.convoy
            if c.status != "travelling":
                return
            t = c.today
            now = int(m.env.now)
            if t.stage == 0:
                day = max(0, -(-(now - start_h) // HOURS_PER_DAY))
                when = day * HOURS_PER_DAY + start_h
                if when >= w.end:
                    return
                yield m.at(when, Phase.CV, self.rank)
                self.start_day(day)
            elif t.stage == 1:
                yield m.at(max(now, t.slot_start + cr.SLOT_HOURS), Phase.CV, self.rank)
                self.end_of_slot()
            else:
                yield m.at(max(now, t.stop_hour), Phase.CV, self.rank)
                self.rest()

    def start_day(self, day: int) -> None:
        m = self.realm
        w = m.world
        cv = w.cv
        assert cv is not None
        c = self.convoy
        dice = m.dice.stream("cv", self.key)
        now = w.now
        first = c.today.day < 0
        cr.new_day(c, day, now)
        for ev in cv.events:
            if ev.day == day and ev.convoy == self.cid:
                cr.resolve_scheduled(w, c, ev, dice, m.ledger)
            elif ev.day > day:
                break
        if first:  # the first day of its journey (day 0, or the day a convoy was added)
            _depart(self)
            c.hired_at = now
            cr.resolve_wages(w, c, m.ledger, "hiring")
        elif now - c.hired_at >= 30 * HOURS_PER_DAY:  # SC-CV-03: monthly wages
            c.hired_at += 30 * HOURS_PER_DAY
            cr.resolve_wages(w, c, m.ledger, "monthly")
        cr.unpaid_leave(w, c, m.ledger)
        if c.next_hex is None and c.stops:
            cr.replan(w, c, m.ledger, self.routes)
        if (cr.in_settlement(w.map, c) or first) and c.route_checked != c.hex:
            c.route_checked = c.hex
            self.choose_route()
        legal = cr.legal_orders(w, self.cid)
        plan: DayPlan = self.decide(self.observe(legal), legal, clauses=("RES-CV-24",), label=_label).chosen
        try:
            cr.resolve_slot_start(w, self.cid, plan, dice, m.ledger)
        except RulesError as e:
            raise ConvoyPolicyError(f"{self.key}: the {self.policy_name!r} policy chose an order the rules refuse: {e}") from None
        if c.status != "travelling":
            return
        cr.resolve_travel_slot(w, self.cid, dice, m.ledger, choose_target=self.choose_target, cache=self.routes)
        if c.status == "travelling":
            c.today.stage = 1

    def end_of_slot(self) -> None:
        m = self.realm
        c = self.convoy
        dice = m.dice.stream("cv", self.key)
        if cr.extra_hours_due(c):
            cr.resolve_extra_hours(m.world, self.cid, dice, m.ledger)
            if c.status != "travelling":
                return
            if c.today.stop_hour > m.world.now:
                c.today.stage = 2
                return
        c.today.stop_hour = max(c.today.stop_hour, m.world.now)
        self.rest()

    def rest(self) -> None:
        m = self.realm
        c = self.convoy
        cr.resolve_rest(m.world, self.cid, m.dice.stream("cv", self.key), m.ledger)
        c.today.stage = 0

    # ---- decisions --------------------------------------------------------------------------
    @property
    def routes(self) -> cr.RouteCache:
        return self.realm.cv_routes  # type: ignore[attr-defined,no-any-return]

    def choose_route(self) -> None:
        w = self.realm.world
        opts = cr.route_options(w, self.cid, self.routes)
        if not opts:
            return
        c = self.convoy
        current = tuple(c.path[c.path_pos:])
        if len(opts) == 1:
            if opts[0].path != current:
                cr.resolve_route(w, self.cid, opts[0], self.realm.ledger)
            return
        obs = {"decision": "route", **self._status()}
        choice: RouteChoice = self.decide(obs, opts, clauses=("RES-CV-02", "RES-CV-24")).chosen
        if choice.path != current or choice.kind != c.route_kind:
            try:
                cr.resolve_route(w, self.cid, choice, self.realm.ledger)
            except RulesError as e:
                raise ConvoyPolicyError(f"{self.key}: the {self.policy_name!r} policy chose a route the rules refuse: {e}") from None

    def choose_target(self, enemies: list[dict[str, Any]]) -> str:
        ids = [e["id"] for e in enemies]
        if len(ids) == 1:
            return str(ids[0])
        obs = {"decision": "target", "enemies": enemies, **self._status()}
        return str(self.decide(obs, ids, clauses=("SC-CV-14",)).chosen)

    def _status(self) -> dict[str, Any]:
        c = self.convoy
        w = self.realm.world
        cfg = w.config.cv
        assert w.cv is not None
        bon = cr.bonuses_of(w.cv)
        return {
            "hp": c.hp, "max_hp": c.max_hp, "unrest": c.unrest, "morale": c.morale, "condition": c.condition,
            "starving": c.starving, "provisions": c.provisions, "consumption": cr.consumption(c, w.now, cfg),
            "security": cr.stat_value(c, "security", cfg, w.now, bon),
            "resolve": cr.stat_value(c, "resolve", cfg, w.now, bon),
        }  # fmt: skip

    # the caravan day asks one question, with its legal plans, not the (decision, context) pair of the
    # turn functions' Decider (agents.base.RealmAgent.observe): CV's turn is not a turn function yet (issue 11 item 1)
    def observe(self, legal: list[DayPlan]) -> dict[str, Any]:  # type: ignore[override]
        """What the day's policy sees: the convoy's own state and what lies ahead (no other convoy)."""
        c = self.convoy
        w = self.realm.world
        cfg = w.config.cv
        hm = w.map
        assert w.cv is not None
        obs = {"decision": "day", **self._status()}
        # days to the next village and to the end, at full speed (the fast route's per-hex costs)
        steps = cr.step_costs(w, "fast", 0, 0, cr.speed_mpd(c, cfg), self.routes)
        days_left = next_village = second_village = 0.0
        for i in c.path[c.path_pos + 1:]:
            days_left += steps[i] or 0.0
            if hm.hexes[i].settlement:
                if not next_village:
                    next_village = days_left
                elif not second_village:
                    second_village = days_left
        ahead = c.next_hex
        tb = cr.table_for(w.cv, hm, ahead) if ahead is not None else None
        obs.update(
            day=c.today.day, village=cr.in_settlement(hm, c), gp=c.gp, cargo=dict(c.cargo), gifts=c.gifts,
            cargo_free=cr.cargo_capacity(c, cfg) - cr.cargo_used(c), extra_dc=c.extra_dc,
            days_left=days_left, next_village_days=next_village, second_village_days=second_village,
            speed=cr.speed_mpd(c, cfg),
            risk_today=cr.table_risk(tb, w.cv, obs["security"], obs["resolve"], self.routes) if tb else 0.0,
            scouts=len(cr.active(c, "scout", w.now)), wainwrights=len(cr.active(c, "wainwright", w.now)),
            repair=c.cargo.get("repair", 0), margin=cr.mutiny_margin(c), stores_cost=cfg.stores_cost_gp,
            could_move=cr.can_move(c, w.now)[0], wagons=len(c.wagons), drivers=cr.drivers(c, w.now),
            rested=w.now - c.moved_until,
        )
        return obs


def _label(plan: DayPlan) -> str:
    return plan.label()


def _depart(agent: ConvoyAgent) -> None:
    c = agent.convoy
    w = agent.realm.world
    agent.realm.ledger.emit(
        "cv", "ConvoySetOut", agent.key, ("RES-CV-24",), outcome=agent.policy_name,
        origin=w.map.label(c.origin), destination=w.map.label(c.destination), wagons=[x.kind for x in c.wagons],
        travelers=len(c.travelers), hp=c.hp, provisions=c.provisions, gp=c.gp,
        speed=cr.speed_mpd(c, w.config.cv), consumption=cr.consumption(c, w.now, w.config.cv),
    )  # fmt: skip
