"""The convoy agent (*convoi*, CV): identity and a policy; its state lives in ``world.cv``.

The agent only decides and waits. Its SimPy process waits on the one clock for each day's travel
slot (``cfg.cv.travel_start_hour``), then runs the day, ``sim.rules.cv.resolve_day`` (RES-CV-24:
scheduled events, wages, unpaid leave, the route, the day's plan, the four phases), waiting for each
hour the day asks for: the end of the travel slot, and the start of a rest that a forced march
delayed. Every wake-up goes through ``model.at(hour, Phase.CV, rank)`` (rank = the convoy's position
in ascending convoy id), so a convoy wakes about twice a day, in a fixed order among the others.

The day's questions (``day``, ``route``, ``target``) come through the campaign's ``AgentDecider``
to :meth:`ConvoyAgent.observe` and the policy. The process keeps nothing between wake-ups: the day
reads its stage from ``convoy.today.stage`` and the hour from the clock, so a run resumed from a
saved world carries on exactly.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from agents.base import AgentDecider, RealmAgent
from agents.policies.convoy import RandomConvoyPolicy
from sim.calendar import Phase
from sim.errors import RealmsimError, RulesError
from sim.rules import cv as cr
from sim.state.cv import SUSPENDED_FOREVER, Convoy, ticks_to_miles

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
        self._rank = 0  # where the convoy stood in ``world.cv.convoys`` when ``rank`` last looked (a hint)
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
        cs = cv.convoys
        i = self._rank
        if i < len(cs) and cs[i].id == self.cid:  # convoy ids are unique: where it last stood, if it still does
            return i
        for i, c in enumerate(cs):
            if c.id == self.cid:
                self._rank = i
                return i
        return len(cs)

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
        """Wait for each day's travel slot, then run the day (``sim.rules.cv.resolve_day``), waiting on
        the clock for every hour the day asks for. Nothing is kept between wake-ups: the day resumes
        from ``convoy.today.stage``."""
        m = self.realm
        w = m.world
        decider = AgentDecider(m)
        while True:
            c = self.convoy
            if c.status != "travelling":
                return
            if c.today.stage == 0:
                when = cr.next_slot_start(w, int(m.env.now))
                if when >= w.end:
                    return
                yield m.at(when, Phase.CV, self.rank)
            day = cr.resolve_day(w, self.cid, decider, m.dice.stream("cv", self.key), m.ledger, cache=self.routes,
                                 policy=self.policy_name, stages=True)
            try:
                for hour in day:
                    yield m.at(max(int(m.env.now), hour), Phase.CV, self.rank)
            except RulesError as e:
                raise ConvoyPolicyError(f"{self.key}: the {self.policy_name!r} policy chose an order the rules refuse: {e}") from None

    # ---- decisions --------------------------------------------------------------------------
    @property
    def routes(self) -> cr.RouteCache:
        return self.realm.caches["cv.routes"]  # type: ignore[no-any-return]  # the CV driver's (agents.systems.cv)

    def answer(self, decision: str, legal: Sequence[Any], context: Mapping[str, Any]) -> Any:
        """:meth:`RealmAgent.answer`; a policy that reads nothing of its observation (the built-in
        ``random``, uniform over the legal orders) is handed the question alone, not the convoy's
        whole view (which costs more than its choice)."""
        if type(self.policy) is not RandomConvoyPolicy:
            return super().answer(decision, legal, context)
        d = self.decide({"decision": decision}, legal, clauses=context.get("clauses", ()), label=context.get("label", str))
        return d.chosen

    def observe(self, decision: str, context: Mapping[str, Any]) -> dict[str, Any]:
        """What the policy sees for one question of the day (``day``, ``route`` or ``target``): the
        convoy's own state, and for the day what lies ahead, for a target the enemies standing
        (never another convoy)."""
        if decision == "day":
            return self._day_view()
        if decision == "target":
            return {"decision": "target", "enemies": context["enemies"], **self._status()}
        return {"decision": decision, **self._status()}

    def _status(self) -> dict[str, Any]:
        c = self.convoy
        w = self.realm.world
        cfg = w.config.cv
        bon = cr.bonuses_of(w.cv_state())
        return {
            "hp": c.hp, "max_hp": c.max_hp, "unrest": c.unrest, "morale": c.morale, "condition": c.condition,
            "starving": c.starving, "provisions": c.provisions, "consumption": cr.consumption(c, w.now, cfg),
            "security": cr.stat_value(c, "security", cfg, w.now, bon),
            "resolve": cr.stat_value(c, "resolve", cfg, w.now, bon),
        }  # fmt: skip

    def _day_view(self) -> dict[str, Any]:
        """What the day's policy sees: the convoy's own state and what lies ahead (no other convoy)."""
        c = self.convoy
        w = self.realm.world
        cfg = w.config.cv
        hm = w.map
        obs = {"decision": "day", **self._status()}
        # days to the next village and to the end, at full speed (the fast route's per-hex costs)
        speed = cr.speed_mpd(c, cfg)
        steps = cr.step_costs(w, "fast", 0, 0, speed, self.routes)
        next_village = second_village = 0.0
        ahead_path = c.path[c.path_pos + 1:]
        # the running sums of the steps ahead, added in order from 0.0 (sums[k]: the first k steps)
        sums = list(accumulate([steps[i] or 0.0 for i in ahead_path], initial=0.0))
        days_left = sums[-1]
        hexes = hm.hexes
        for k, i in enumerate(ahead_path):
            if hexes[i].settlement:
                if not next_village:
                    next_village = sums[k + 1]
                elif not second_village:
                    second_village = sums[k + 1]
                    break  # both found (the sums only grow): nothing further changes them
        ahead = c.next_hex
        tb = cr.table_for(w.cv_state(), hm, ahead) if ahead is not None else None
        obs.update(
            day=c.today.day, village=cr.in_settlement(hm, c), gp=c.gp, cargo=dict(c.cargo), gifts=c.gifts,
            cargo_free=cr.cargo_capacity(c, cfg) - cr.cargo_used(c), extra_dc=c.extra_dc,
            days_left=days_left, next_village_days=next_village, second_village_days=second_village,
            speed=speed,
            risk_today=cr.table_risk(tb, w.cv_state(), obs["security"], obs["resolve"], self.routes) if tb else 0.0,
            scouts=len(cr.active(c, "scout", w.now)), wainwrights=len(cr.active(c, "wainwright", w.now)),
            repair=c.cargo.get("repair", 0), margin=cr.mutiny_margin(c), stores_cost=cfg.stores_cost_gp,
            could_move=cr.can_move(c, w.now)[0], wagons=len(c.wagons), drivers=cr.drivers(c, w.now),
            rested=w.now - c.moved_until,
        )
        if obs["drivers"] < len(c.wagons) and len(c.wagons) > 1:
            # a wagon may be abandoned today (the menu offers it for want of drivers): what each kind
            # would leave behind, and whether waiting brings the drivers back
            obs["abandon_losses"] = {k: (*cr.left_behind(c, k, cfg), *_hp_without(c, k, cfg))
                                     for k in sorted({x.kind for x in c.wagons})}
            obs["drivers_back_hours"] = _drivers_back_hours(c, w.now)
        return obs


def _hp_without(c: Convoy, kind: str, cfg: Any) -> tuple[int, int]:
    """The convoy's hit points and maximum once the last wagon of ``kind`` is lost (RES-CV-23)."""
    hp = cr.wagon_hp([x for x in c.wagons if x.kind == kind][-1], cfg)
    return max(0, c.hp - hp), c.max_hp - hp


def _drivers_back_hours(c: Convoy, now: int) -> int | None:
    """Hours until enough drivers are back from a suspension to drive every wagon; None when the
    suspended ones (if any) are too few or are gone for good."""
    need = len(c.wagons) - cr.drivers(c, now)
    back = sorted(t.suspended_until for t in c.travelers
                  if t.job == "driver" and now < t.suspended_until < SUSPENDED_FOREVER)
    if need <= 0:
        return 0
    return back[need - 1] - now if len(back) >= need else None
