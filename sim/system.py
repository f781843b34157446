"""A rule system, described once: what the rest of realmsim needs to know of it (issue 28).

Each package ``sim/rules/<sys>/`` exports its ``SYSTEM``, a :class:`RuleSystem`, and ``sim.registry``
lists them in one tuple — the way OpenSpiel's games are made known by one ``register_game`` call and
python-chess's variants by one table entry. Every place that goes over the systems (the tie order of
LINK-01, a scenario's build, the model's drivers, the chronicle, the scores, the conformance suite)
reads the registry, never a list of its own, so that a new system is its package plus one line.

The descriptor holds plain functions of the world; a system has one shape:

* ``legal_orders(world, actor)`` and ``check(world, actor, order)`` — the legality API, the actor a
  faction id; an order alone says what it is (a KM slot is named by the order, ``SlotChoice``);
* ``play(world, decider, dice, ledger, hooks)`` — the system's whole turn at the world's hour (a
  kingdom month, a Mare Nostrum turn, a guild season, a caravan day), every choice one question to
  the decider, ``dice`` the run's :class:`~sim.dice.DiceSource`, ``hooks`` what the links add (built by
  ``sim.rules.links.hooks_for``; None: the system alone);
* ``given(script)`` — the decider of a test or a game master's table: each faction's answers, by actor
  key, in the order the turn asks for them;
* ``broken_invariants(world)``, ``score(world, faction)``, ``factions(world)``, ``next_turn(world)``.

The upper layers find their own parts of a system by the dotted paths the descriptor names
(``schema``, ``chronicle``, ``driver``): the engine never imports them (DESIGN.md's layers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from sim.errors import RulesError
from sim.world import World

if TYPE_CHECKING:
    from sim.dice import DiceSource
    from sim.events import Ledger
    from sim.orders import Decider

__all__ = ["RuleSystem"]


@dataclass(frozen=True)
class RuleSystem:
    """One rule system of realmsim, as the engine, the scenarios, the agents and the tests see it."""

    name: str  # "km": its ledger events' ``system``, its ``[config.<name>]`` table, ``scenario.systems``
    title: str  # "kingdoms", for people
    phase: int  # LINK-01: its rank among the systems acting at one hour (sim.calendar.Phase), lower first
    faction_kind: str  # "kingdom": the kind of its factions' actor keys (``kingdom:<id>``) and agents
    faction_table: str  # "kingdoms": the scenario table its factions are rows of
    state_type: type  # its part of the world (``world.<name>``, a msgspec Struct)
    config_type: type  # its configuration (``world.config.<name>``, RULES.md §6)
    order_types: tuple[type, ...]  # the orders a faction gives (msgspec Structs; KM's bare choices as SlotChoice)
    factions: Callable[[World], list[str]]  # its factions' ids now, ascending
    policy: Callable[[World, str], str]  # the policy that plays a faction (its scenario row's ``policy``)
    legal_orders: Callable[[World, str], list[Any]]  # what a faction may order now
    check: Callable[[World, str, Any], None]  # raises IllegalOrderError (naming the clause) or InvalidOrderError
    play: Callable[[World, Decider, DiceSource, Ledger, Any], None]  # the whole turn at the world's hour
    given: Callable[[Mapping[str, Sequence[Any]]], Decider]  # a scripted decider: answers by actor key
    broken_invariants: Callable[[World], list[str]]  # every invariant the world breaks (empty: all hold)
    score: Callable[[World, str], Any]  # a faction's score (sim.scores.FactionScore), in ``score_unit``
    score_unit: str  # "BP"
    score_terms: Mapping[str, tuple[str, str]]  # its score's terms: key → (English, French)
    summary: Callable[[World], dict[str, int | float]]  # a run's ``<name>.*`` metrics, read from the world
    metrics: Callable[[World], dict[str, dict[str, Any]]]  # each faction's metrics of a season, by actor key
    # the hour of its next turn (from the world alone, so a resumed run goes on exactly); None for a
    # system whose factions keep their own clocks (a convoy's day: its driver schedules each convoy)
    next_turn: Callable[[World], int] | None = None
    turn_index: int = 0  # its turn's rank among the events of its phase at one hour (sim.calendar.priority)
    # the upper layers' parts, by dotted module path ("": none): the scenario tables (``check``,
    # ``build``), the chronicle table (``KINDS``, ``tell(ev, lang, model)``), a driver of its own
    # (``DRIVER``; "": the generic periodic driver of agents.systems), its factions' agent class
    schema: str = ""
    chronicle: str = ""
    driver: str = ""
    agent: str = ""  # "module:Class" of its factions' agent, made as Class(model, faction, policy); "": a plain one
    # a world to try the system on (the conformance suite): a built-in scenario's name that runs this
    # system, or a function of the seed that builds one
    example: str | Callable[[int], World] = ""
    links: tuple[str, ...] = field(default=())  # LINK clauses its hooks carry (documentation)

    def state(self, world: World) -> Any:
        """The system's part of ``world`` — the one way to reach it; a world without it is a caller's
        mistake, reported as a :class:`RulesError`."""
        got = self._held(world)
        if got is None:
            raise RulesError(f"the {self.name} system is not part of this world "
                             f"(scenario {world.scenario!r} has {', '.join(world.systems) or 'none'})")
        if not isinstance(got, self.state_type):  # an extension's state as msgpack decoded it (a dict)
            got = msgspec.convert(got, self.state_type)
            world.extensions[self.name] = got
        return got

    def runs_in(self, world: World) -> bool:
        """Whether ``world`` enables this system and holds its state."""
        return world.has(self.name) and self._held(world) is not None

    def actor(self, faction: str) -> str:
        """A faction's actor key (``kingdom:restov``)."""
        return f"{self.faction_kind}:{faction}"

    def _held(self, world: World) -> Any:
        # the four systems of the World struct have a field of their name; any other is an extension
        if self.name in World.__struct_fields__:
            return getattr(world, self.name)
        return world.extensions.get(self.name)
