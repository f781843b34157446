"""The drivers of the rule systems: each creates its system's agents and SimPy processes on the model,
and reports its part of a campaign (summary, season metrics, chronicle, invariants).

Every system is driven from its descriptor (``sim.system.RuleSystem``, listed by ``sim.registry``):
:class:`PeriodicDriver` plays a system whose turn is played for all its factions at once (KM, MN, GW
and any registered system) — one process wakes at ``system.next_turn(world)`` and calls
``system.play`` with the campaign's decider and the links' hooks. The convoys are the one special
case (``agents.systems.cv``: a process per convoy, its day in stages); a system whose turn brings
agents that are not factions (KM's envoys, MN's ambassadors) adds them in a small subclass.

A driver's processes must be restartable from the world alone at any season boundary (hour 0 of
a season): all state lives in ``model.world``; a process only computes its next wake-up from
``env.now`` and the world. That is what makes save and resume exact.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from agents.base import AgentDecider, FactionAgent
from sim import registry
from sim.events import Event
from sim.rules import links
from sim.system import RuleSystem

if TYPE_CHECKING:
    from agents.model import RealmModel


class SystemDriver:
    name: str = ""
    phase: int = 0

    def setup(self, model: RealmModel) -> None:
        """Create the system's agents and start its SimPy processes."""

    def add_agents(self, model: RealmModel) -> None:
        """Give an agent to every entity of the system that has none (new ones after a turn, or all
        of them after a resume); the model calls it on every driver when a turn brought new factions
        (``RealmModel.add_agents``)."""

    def summary(self, model: RealmModel) -> dict[str, int | float]:
        """Named metrics of the finished (or stopped) campaign, prefixed with the system name."""
        return {}

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        """One readable line for a ledger event worth telling, or None."""
        return None

    def chronicle_kinds(self) -> frozenset[str]:
        """The event kinds this system's chronicle table tells (agents.chronicle: every other kind
        the engine emits is listed there as silent)."""
        return frozenset()

    def invariants(self, model: RealmModel) -> list[str]:
        """Descriptions of every invariant the current world breaks (empty when all hold)."""
        return []

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        """Per-season metrics for reports: ``{faction_key: {metric: number}}``, read from the world
        only (treasury, unrest, territory, armies, treaties…)."""
        return {}

    def tables(self) -> dict[str, list[str]]:
        """The tables this system fills in the model's one data collector (Mesa's ``tables``):
        ``{name: columns}``."""
        return {}

    def frames(self, datacollector: Any) -> dict[str, Any]:
        """This system's tables of the data collector as pandas DataFrames, by name (``cv.agents``)."""
        return {}


def load(path: str) -> Any:
    """The object a descriptor names by ``"module"`` or ``"module:attribute"``."""
    module, _, attr = path.partition(":")
    mod = importlib.import_module(module)
    return getattr(mod, attr) if attr else mod


class SystemDriverBase(SystemDriver):
    """What every system's driver reads from its descriptor: agents for its factions, its reports,
    its chronicle table, its invariants."""

    def __init__(self, system: RuleSystem) -> None:
        self.system = system
        self.name = system.name
        self.phase = system.phase
        self._table: Any = load(system.chronicle) if system.chronicle else None

    # ---- agents ------------------------------------------------------------------------------
    def add_agents(self, model: RealmModel) -> None:
        system, world = self.system, model.world
        for fid in system.factions(world):
            if system.actor(fid) not in model.by_key:
                self.new_agent(model, fid, system.policy(world, fid))

    def new_agent(self, model: RealmModel, faction: str, policy: str) -> Any:
        """The agent of one faction: the descriptor's agent class, or a plain :class:`FactionAgent`."""
        if not self.system.agent:
            return FactionAgent(model, self.system, faction, policy)
        agent = load(self.system.agent)(model, faction, policy)
        model.register(agent)
        return agent

    # ---- reports -----------------------------------------------------------------------------
    def summary(self, model: RealmModel) -> dict[str, int | float]:
        return self.system.summary(model.world)

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        return self.system.metrics(model.world)

    def invariants(self, model: RealmModel) -> list[str]:
        return self.system.broken_invariants(model.world)

    def chronicle_kinds(self) -> frozenset[str]:
        return frozenset(self._table.KINDS) if self._table is not None else frozenset()

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        return None if self._table is None else self._table.tell(ev, lang, model)  # type: ignore[no-any-return]


class PeriodicDriver(SystemDriverBase):
    """The driver of a system whose turn is played for all its factions at once: one SimPy process
    wakes at hour ``system.next_turn(world)`` (``model.at(hour, system.phase, system.turn_index)``,
    LINK-01) and plays the turn, ``system.play(world, decider, dice, ledger, hooks)``: the campaign's
    :class:`~agents.base.AgentDecider` (each question goes to its faction's agent; the factions a turn
    brings get theirs at once, ``RealmModel.add_agents``) and the hooks of the links
    (``sim.rules.links.hooks_for``), built once when the process starts. The process keeps nothing
    between wake-ups: the next turn comes from the world."""

    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        if not self.system.runs_in(model.world):
            return
        self.add_agents(model)
        model.process(self._turns(model))

    def _turns(self, model: RealmModel) -> Iterator[Any]:
        system, world = self.system, model.world
        assert system.next_turn is not None, f"{system.name}: a periodic system says when its next turn is"
        decider = AgentDecider(model, on_joined=model.add_agents)
        hooks = links.hooks_for(world, system.name)  # --- LINK: what the other systems add, plugged in once
        while True:
            at = system.next_turn(world)
            if at >= world.end:
                return
            yield model.at(at, system.phase, system.turn_index)
            system.play(world, decider, model.dice, model.ledger, hooks)
            self.after_turn(model)

    def after_turn(self, model: RealmModel) -> None:
        """What a turn leaves for the driver to do once it is played (nothing by default)."""

    def play_turn(self, model: RealmModel) -> None:
        """Play the system's next turn now, off the clock (tests: one turn of a prepared campaign)."""
        decider = AgentDecider(model, on_joined=model.add_agents)
        self.system.play(model.world, decider, model.dice, model.ledger, links.hooks_for(model.world, self.system.name))
        self.after_turn(model)


_DRIVERS: dict[str, SystemDriver] = {}


def get_driver(name: str) -> SystemDriver:
    """The driver of system ``name`` (or of the links, ``"link"``): the module its descriptor names,
    else the generic :class:`PeriodicDriver` of its descriptor (one per system, shared by the models of
    a process: a driver keeps nothing of a campaign)."""
    if name == "link":
        return importlib.import_module("agents.systems.link").DRIVER  # type: ignore[no-any-return]
    system = registry.get(name)
    if system.driver:
        return load(system.driver).DRIVER  # type: ignore[no-any-return]
    got = _DRIVERS.get(name)
    if got is None or getattr(got, "system", None) is not system:
        got = _DRIVERS[name] = PeriodicDriver(system)
    return got


def attach_link(model: RealmModel) -> None:
    """LINK hook, called first by every system driver's ``setup``: when two systems or more are
    enabled, the LINK driver (``agents.systems.link``: the ``link.*`` metrics, the chronicle lines of
    the LINK events) joins the model's drivers, once. It is appended to ``model.drivers`` while the
    model is setting its drivers up, so its own ``setup`` runs after theirs."""
    if len(model.world.systems) < 2 or any(d.name == "link" for d in model.drivers):
        return
    model.drivers.append(get_driver("link"))
