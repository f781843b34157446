"""Driver of Mare Nostrum diplomacy (MN): the turn on the SimPy clock, the agents, the chronicle.

One SimPy process wakes at hour 0 of every MN turn (``model.at(hour, Phase.MN, 0)``; a turn is
``1 / mn.turns_per_year`` of a year, a season when MN runs with other systems, LINK-01) and plays it
with :func:`sim.rules.mn.resolve_turn` — the phases of SC-MN-03, nations in ascending id — passing the
agents' decider (each nation question goes to its ``NationAgent``'s policy) and the links' hooks
(``sim.rules.links.mn_hooks``: one treasury for a kingdom that is also a nation, LINK-03; armies
raised become GW armies, LINK-06), built once. Ambassadors bought in a turn get their agent after it.

The process keeps nothing between wake-ups: the next turn is ``world.mn.turn + 1``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.ambassador import AmbassadorAgent, ensure_agent
from agents.base import AgentDecider
from agents.nation import NationAgent
from agents.systems import SystemDriver, attach_link
from sim.calendar import Phase
from sim.events import Event
from sim.rules import links
from sim.rules import mn as M
from sim.state.mn import MnWorld

if TYPE_CHECKING:
    from agents.model import RealmModel
from agents.chronicle_tables.mn import KINDS, render  # noqa: F401  (re-exported)


def _mn(model: RealmModel) -> MnWorld:
    mn = model.world.mn
    assert mn is not None, "the mn system is enabled but the world has no MN state"
    return mn


def turn_start(mn: MnWorld, turn: int, start: int = 0) -> int:
    return start + (turn - 1) * mn.turn_hours


def ensure_agents(model: RealmModel) -> None:
    """An agent for every ambassador (bought in the turn just played, or when a run resumes), in the
    order they were bought."""
    for amb_id in _mn(model).ambassadors:
        ensure_agent(model, amb_id)


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
        decider = AgentDecider(model)
        hooks = links.mn_hooks(model.world)  # --- LINK-03, LINK-06 when MN runs with KM or GW
        while True:
            turn = mn.turn + 1
            at = turn_start(mn, turn, model.world.start)
            if at >= model.world.end:
                return
            yield model.at(at, Phase.MN, 0)
            M.resolve_turn(model.world, turn, decider, model.dice, model.ledger, hooks=hooks)
            ensure_agents(model)

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
                "treaties": sum(1 for t in mn.treaties if M.treaty_involves(t, k)),
                "imports": len({i.resource for i in n.imports}),
            }
        return out

    def invariants(self, model: RealmModel) -> list[str]:
        return M.broken_invariants(model.world)

    def chronicle_kinds(self) -> frozenset[str]:
        return KINDS

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        return render(ev, lang, _mn(model))


DRIVER = _Driver()
