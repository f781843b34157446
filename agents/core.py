"""A campaign without Mesa: the world, the SimPy clock, the dice, the ledger, the drivers and agents.

:class:`CampaignModel` is everything a campaign needs to play: the drivers set up their agents and
processes, the clock runs them, the ledger records what happens. :class:`agents.model.RealmModel`
is the same campaign as a Mesa model (``mesa.batch_run``, ``step()``, the data collectors); this one
is for the paths that never read Mesa's tables — a game master's advice, a state export, a
look-ahead's rollouts — so that they do not pay Mesa's import (pandas, scipy, networkx: most of a
short command's start-up). Both play the same campaign: the same ledger, byte for byte.
"""

from __future__ import annotations

import os
from typing import Any

import simpy

from agents.clock import At, WorldEnvironment
from agents.systems import SystemDriver, get_driver
from sim.calendar import HOURS_PER_SEASON, Phase, priority
from sim.dice import DiceBox
from sim.errors import RealmsimError
from sim.events import Ledger
from sim.world import World


class InvariantError(RealmsimError):
    """The world broke an invariant: a bug in the engine, never a user mistake."""


SNAPSHOT_PRIORITY = 5  # before every phase of LINK-01


class CampaignModel:
    """One campaign from a built world: ``CampaignModel(world, dice=..., ledger=...)``.

    The clock is SimPy's: ``env.now`` is the one source of truth; ``world.now`` and ``ledger.now``
    read it (:class:`agents.clock.WorldEnvironment`). ``agents`` lists the agents the drivers made,
    ``by_key`` finds one by its ledger key. Nothing is collected (``collect`` is False): the season
    metrics are in the ledger (``SeasonSummarized``)."""

    collect = False

    def __init__(self, world: World, *, dice: DiceBox, ledger: Ledger, check_invariants: bool | None = None) -> None:
        self._start(world, dice, ledger, check_invariants)

    def _start(self, world: World, dice: DiceBox, ledger: Ledger, check_invariants: bool | None) -> None:
        """Bind the world, dice and ledger to a clock, then let each system's driver set up its
        agents and processes (the Mesa model calls it once Mesa's own set-up is done)."""
        self.world = world
        self.dice = dice
        self.ledger = ledger
        self.env = WorldEnvironment(world)
        ledger.clock = self.env
        self.collectors: dict[str, Any] = {}
        self.drivers: list[SystemDriver] = [get_driver(s) for s in world.systems]
        self.by_key: dict[str, Any] = {}
        self.ended = False
        if check_invariants is None:
            check_invariants = os.environ.get("REALMSIM_CHECK_INVARIANTS") == "1"
        self.check_invariants = check_invariants
        # False in a look-ahead rollout: its ledger is never read, so decisions are not recorded
        self.record_decisions = True
        for d in self.drivers:
            d.setup(self)  # type: ignore[arg-type]
        self.env.process(self._season_snapshots())
        self._rows: dict[str, dict[str, int | float]] = {}
        self._summary: dict[str, int | float] = {}
        self.running = world.now < world.end

    # ---- agents (what Mesa's Model does for the Mesa model) ------------------------------------
    def register_agent(self, agent: Any) -> None:
        """Called by every agent when it is made (:class:`agents.base.RealmAgent`)."""
        self.__dict__.setdefault("_agent_list", []).append(agent)

    @property
    def agents(self) -> list[Any]:
        return list(self.__dict__.get("_agent_list", ()))

    def register(self, agent: Any) -> None:
        self.by_key[agent.key] = agent

    def collect_season(self, rows: dict[str, dict[str, int | float]] | None = None) -> None:
        """Nothing to collect without Mesa (the Mesa model records a row of its table here)."""

    def collect_now(self, name: str) -> None:
        """Nothing to collect without Mesa."""

    # ---- clock -----------------------------------------------------------------------------
    def at(self, when: int, phase: Phase, index: int = 0) -> At:
        """An event at absolute hour ``when`` ordered by ``phase`` then ``index`` (LINK-01)."""
        return At(self.env, when, priority(phase, index))

    def _season_snapshots(self) -> Any:
        """At hour 0 of every season, before any faction acts, record each faction's metrics
        (``SeasonSummarized``): the per-season table reports are drawn from the ledger."""
        now = int(self.env.now)
        k = -(-now // HOURS_PER_SEASON)  # next season boundary at or after now
        while k * HOURS_PER_SEASON < self.world.end:
            yield At(self.env, k * HOURS_PER_SEASON, SNAPSHOT_PRIORITY)
            if self.check_invariants:
                self.assert_invariants()
            rows = self.season_metrics()
            self.ledger.emit("link", "SeasonSummarized", "world", ("LINK-01",), season=k, factions=rows)
            self.collect_season(rows)
            k += 1

    def season_metrics(self) -> dict[str, dict[str, int | float]]:
        out: dict[str, dict[str, int | float]] = {}
        for d in self.drivers:
            for key, row in d.metrics_row(self).items():  # type: ignore[arg-type]
                out.setdefault(key, {}).update(row)
        return dict(sorted(out.items()))

    def process(self, gen: Any) -> simpy.Process:
        return self.env.process(gen)

    def run(self, until: int | None = None) -> None:
        """Run up to (not including) hour ``until`` (default: the scenario's end)."""
        end = self.world.end if until is None else min(until, self.world.end)
        if end > self.env.now:
            self.env.run(until=end)
        if self.check_invariants:
            self.assert_invariants()

    # ---- results ---------------------------------------------------------------------------
    def summary(self) -> dict[str, int | float]:
        out: dict[str, int | float] = {}
        for d in self.drivers:
            out.update(d.summary(self))  # type: ignore[arg-type]
        return out

    def invariant_violations(self) -> list[str]:
        out: list[str] = []
        for d in self.drivers:
            out.extend(d.invariants(self))  # type: ignore[arg-type]
        return out

    def assert_invariants(self) -> None:
        """Raise InvariantError if the world breaks any invariant (tests turn this on for every
        campaign with REALMSIM_CHECK_INVARIANTS=1: at every season boundary and when a run stops)."""
        bad = self.invariant_violations()
        if bad:
            raise InvariantError(f"{self.world.scenario} seed {self.world.seed} hour {self.world.now}: " + "; ".join(bad))
