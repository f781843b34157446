"""Driver of Mare Nostrum diplomacy (MN): the turn on the SimPy clock, the agents, the chronicle.

One SimPy process wakes at hour 0 of every MN turn (``model.at(hour, Phase.MN, 0)``; a turn is
``1 / mn.turns_per_year`` of a year, a season when MN runs with other systems, LINK-01) and plays
the phases of SC-MN-03 in order, nations in ascending id:

1. special-units construction — ambassadors bought;
2. missions launched, renewed, ambassadors recalled; return trips end;
3. diplomacy — arriving missions (host choices; tests with interference), then treaties between
   players in contact;
4. military phase — scenario wars, peace and invasions, pact obligations, breaks, wars declared,
   armies raised (purchase step);
5. Acclamation (*Phase d'Acclamation*), in the last turn of each year — ransoms;
6. end of turn — income, expiries, overdue pact obligations.

The process keeps nothing between wake-ups: the next turn is ``world.mn.turn + 1``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.ambassador import AmbassadorAgent, ensure_agent
from agents.nation import NationAgent
from agents.systems import SystemDriver, attach_link
from sim.calendar import Phase
from sim.events import Event
from sim.rules import diplomacy as dip
from sim.rules import links
from sim.state.mn import MnWorld

if TYPE_CHECKING:
    from agents.model import RealmModel
from agents.chronicle_tables.mn import KINDS, render  # noqa: F401  (re-exported)


class PolicyChooser:
    """Interference decisions (RES-MN-16) asked of the nations' policies."""

    def __init__(self, model: RealmModel) -> None:
        self.model = model

    def interfere(self, nation: str, ctx: dip.InterferenceContext) -> bool:
        agent: NationAgent = self.model.by_key[f"nation:{nation}"]
        o = agent.choose("interfere", legal=[dip.Interfere(False), dip.Interfere(True)], subject=ctx,
                         clauses=("MN-INT-01", "RES-MN-16"))
        return bool(getattr(o, "yes", False))

    def sign(self, nation: str, ctx: dip.InterferenceContext, d20: int) -> int:
        agent: NationAgent = self.model.by_key[f"nation:{nation}"]
        o = agent.choose("interference_sign", legal=[dip.InterferenceSign(1), dip.InterferenceSign(-1)], subject=ctx,
                         clauses=("MN-INT-01", "RES-MN-16"), d20=d20)
        return int(getattr(o, "sign", 1))


def _mn(model: RealmModel) -> MnWorld:
    mn = model.world.mn
    assert mn is not None, "the mn system is enabled but the world has no MN state"
    return mn


def turn_start(mn: MnWorld, turn: int, start: int = 0) -> int:
    return start + (turn - 1) * mn.turn_hours


def run_turn(model: RealmModel, turn: int) -> None:
    """Play MN turn ``turn`` (SC-MN-03)."""
    mn = _mn(model)
    cfg = model.world.config.mn
    led = model.ledger
    mn.turn = turn
    accl = dip.is_acclamation_turn(mn, cfg)
    led.emit("mn", "TurnBegan", "world", ("SC-MN-03", "SC-MN-08"), outcome=str(turn), turn=turn,
             year=(turn + mn.first_turn_in_year - 2) // cfg.turns_per_year + 1, acclamation=accl)
    nations: list[NationAgent] = [model.by_key[f"nation:{n}"] for n in sorted(mn.nations)]
    # --- LINK hooks: one treasury in BP for a faction that is both a kingdom and a nation (LINK-03),
    # settled after every order; armies raised become GW armies of this campaign (LINK-06)
    money = links.MnTreasuries(model.world, led) if model.world.km is not None else None
    hook = links.army_hook(model.world, led, money or links.MnTreasuries(model.world, led)) if model.world.gw is not None else None

    def settle(what: str) -> None:
        if money is not None:
            money.settle(what)

    # (1) special-units construction: ambassadors bought
    for ag in nations:
        for _ in range(4):
            o = ag.choose("buy", clauses=("RES-MN-01", "SC-MN-03"))
            if not isinstance(o, dip.BuyAmbassador):
                break
            amb = dip.resolve_buy(mn, ag.nation, o, led, cfg)
            settle("ambassador bought")
            ensure_agent(model, amb.id)

    # (2) return trips end, then missions launched, renewed, recalls
    for amb_id in list(mn.ambassadors):
        if mn.ambassadors[amb_id].state == "travelling":
            ensure_agent(model, amb_id).travel()
    for ag in nations:
        for amb in [a for a in mn.ambassadors.values() if a.nation == ag.nation and a.state in ("home", "at_post")]:
            if amb.state not in ("home", "at_post"):
                continue  # changed by an earlier order of this phase
            o = ag.choose("ambassador", subject=amb, clauses=("RES-MN-17", "MN-MIS-02"))
            if isinstance(o, dip.LaunchMission):
                dip.resolve_launch(mn, ag.nation, o, led, cfg)
                settle("mission")
            elif isinstance(o, dip.RenewTreaty):
                dip.resolve_renew(mn, ag.nation, o, led, cfg)
                settle("renewal")
            elif isinstance(o, dip.Recall):
                dip.resolve_recall(mn, ag.nation, o, led, cfg)

    # (3) diplomacy: arriving missions in ascending player id, then treaties between players in contact
    chooser = PolicyChooser(model)
    for m in dip.arriving_missions(mn):
        if m in mn.missions:
            ensure_agent(model, m.ambassador).arrive(m, chooser)
    for ag in nations:
        for partner in sorted(mn.nations):
            if partner == ag.nation or not dip.in_contact(mn, ag.nation, partner):
                continue
            o = ag.choose("propose", subject=partner, clauses=("MN-HOST-02", "RES-MN-04"))
            if isinstance(o, dip.SignTreaty):
                other: NationAgent = model.by_key[f"nation:{partner}"]
                c = other.choose("consent", legal=[dip.Consent(False), dip.Consent(True)], subject=ag.nation,
                                 clauses=("MN-HOST-02", "RES-MN-04"), kind=o.kind)
                dip.resolve_sign(mn, ag.nation, o, led, cfg, consent=bool(getattr(c, "agree", False)))

    # (4) military phase: scenario actions, obligations, breaks and wars, armies raised
    for ev in mn.script:
        if ev.turn == turn:
            dip.apply_scripted(mn, ev, led, cfg)
    for ag in nations:
        nd = model.dice.stream("mn", ag.key)
        for ob in sorted((o for o in mn.obligations if o.nation == ag.nation and o.status == "open"), key=lambda o: o.id):
            if ob.status != "open":
                continue
            o = ag.choose("obligation", subject=ob, clauses=("MN-TRE-07", "RES-MN-06"))
            if isinstance(o, dip.HonourPact):
                dip.resolve_honour(mn, ag.nation, o, led, cfg, hook=hook)
            elif isinstance(o, dip.BreakTreaty):
                dip.resolve_break(mn, ag.nation, o, nd, led, cfg)
        o = ag.choose("military", clauses=("RES-MN-17", "SC-MN-05", "SC-MN-10"))
        if isinstance(o, dip.BreakTreaty):
            dip.resolve_break(mn, ag.nation, o, nd, led, cfg)
        elif isinstance(o, dip.DeclareWar):
            dip.resolve_declare_war(mn, f"nation:{ag.nation}", o, led, cfg)
        elif isinstance(o, dip.RaiseArmy):
            dip.resolve_raise_army(mn, ag.nation, o, led, cfg, hook=hook)

    # (5) Acclamation phase: ransoms
    if accl:
        led.emit("mn", "AcclamationPhase", "world", ("SC-MN-09", "RES-MN-14"), outcome=str(turn), turn=turn)
        for ag in nations:
            for amb in [a for a in mn.ambassadors.values() if a.nation == ag.nation and a.state == "imprisoned"]:
                o = ag.choose("ransom", subject=amb, clauses=("RES-MN-14", "MN-OUT-04"))
                if isinstance(o, dip.PayRansom):
                    dip.resolve_ransom(mn, ag.nation, o, led, cfg)
                    settle("ransom")

    # (6) end of turn: income, expiries, overdue obligations
    dip.end_of_turn(mn, lambda nid: model.dice.stream("mn", f"nation:{nid}"), led, cfg)
    settle("income")


class _Driver(SystemDriver):
    name = "mn"
    phase = Phase.MN

    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        mn = _mn(model)
        for nid in sorted(mn.nations):
            NationAgent(model, nid, mn.nations[nid].policy)
        for amb_id in mn.ambassadors:
            AmbassadorAgent(model, amb_id)
        model.process(self._turns(model))

    def _turns(self, model: RealmModel) -> Any:
        mn = _mn(model)
        while True:
            turn = mn.turn + 1
            at = turn_start(mn, turn, model.world.start)
            if at >= model.world.end:
                return
            yield model.at(at, Phase.MN, 0)
            run_turn(model, turn)

    # ---- reports -------------------------------------------------------------------------------
    def summary(self, model: RealmModel) -> dict[str, int | float]:
        mn = _mn(model)
        s = mn.stats
        out: dict[str, int | float] = {"mn.turns": mn.turn, "mn.nations": len(mn.nations)}
        for f in s.__struct_fields__:
            out[f"mn.{f}"] = getattr(s, f)
        states = [a.state for a in mn.ambassadors.values()]
        for st in ("home", "travelling", "at_post", "imprisoned", "dead"):
            out[f"mn.ambassadors_{st}"] = states.count(st)
        out["mn.treaties_in_force"] = len(mn.treaties)
        for kind in ("commercial", "alliance", "pact"):
            out[f"mn.{kind}_in_force"] = sum(1 for t in mn.treaties if t.kind == kind)
        out["mn.embassies"] = len(mn.embassies)
        out["mn.wars"] = len(mn.wars)
        out["mn.treasury_total"] = sum(n.treasury for n in mn.nations.values())
        out["mn.treasury_max"] = max((n.treasury for n in mn.nations.values()), default=0)
        out["mn.treasury_min"] = min((n.treasury for n in mn.nations.values()), default=0)
        return out

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        mn = _mn(model)
        out: dict[str, dict[str, Any]] = {}
        for nid, n in mn.nations.items():
            k = f"nation:{nid}"
            out[k] = {
                "treasury": n.treasury,
                "provinces": len(n.provinces),
                "ambassadors": sum(1 for a in mn.ambassadors.values() if a.nation == nid and a.state != "dead"),
                "embassies": sum(1 for e in mn.embassies if e.nation == nid),
                "treaties": sum(1 for t in mn.treaties if dip.treaty_involves(t, k)),
                "imports": len({i.resource for i in n.imports}),
            }
        return out

    def invariants(self, model: RealmModel) -> list[str]:
        return dip.invariant_problems(_mn(model))

    def chronicle_kinds(self) -> frozenset[str]:
        return KINDS

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        return render(ev, lang, _mn(model))


DRIVER = _Driver()
