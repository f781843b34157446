"""The Mesa model: owns the world, the SimPy environment (the one clock), the dice and the ledger."""

from __future__ import annotations

import os
from typing import Any

import mesa
import simpy

from agents.clock import At
from agents.systems import SystemDriver, get_driver
from sim.calendar import HOURS_PER_SEASON, Phase, priority
from sim.dice import DiceBox
from sim.errors import RealmsimError
from sim.events import Ledger
from sim.world import World


class InvariantError(RealmsimError):
    """The world broke an invariant: a bug in the engine, never a user mistake."""


SNAPSHOT_PRIORITY = 5  # before every phase of LINK-01


class RealmModel(mesa.Model):
    """One campaign. SimPy is the only clock; Mesa's scheduler is not used and ``model.time``
    mirrors ``env.now`` whenever data is collected."""

    def __init__(
        self, world: World, *, dice: DiceBox, ledger: Ledger, collect: bool = True, check_invariants: bool | None = None
    ) -> None:
        super().__init__(rng=world.seed)
        self.world = world
        self.dice = dice
        self.ledger = ledger
        self.collect = collect
        self.env = simpy.Environment(initial_time=world.now)
        self.collectors: dict[str, mesa.DataCollector] = {}
        self.drivers: list[SystemDriver] = [get_driver(s) for s in world.systems]
        self.by_key: dict[str, Any] = {}
        self.ended = False
        if check_invariants is None:
            check_invariants = os.environ.get("REALMSIM_CHECK_INVARIANTS") == "1"
        self.check_invariants = check_invariants
        ledger.now = world.now
        for d in self.drivers:
            d.setup(self)
        self.env.process(self._season_snapshots())

    # ---- clock -----------------------------------------------------------------------------
    def at(self, when: int, phase: Phase, index: int = 0) -> At:
        """An event at absolute hour ``when`` ordered by ``phase`` then ``index`` (LINK-01)."""
        ev = At(self.env, when, priority(phase, index))
        ev.callbacks.append(self._tick)
        return ev

    on_clock: Any = None  # called with the hour at every wake-up, before any process resumes (lookahead checkpoints)

    def _tick(self, ev: Any) -> None:
        now = int(self.env.now)
        self.ledger.now = now
        self.world.now = now
        if self.on_clock is not None:
            self.on_clock(now)

    def _season_snapshots(self) -> Any:
        """At hour 0 of every season, before any faction acts, record each faction's metrics
        (``SeasonSummarized``): the per-season table reports are drawn from the ledger."""
        now = int(self.env.now)
        k = -(-now // HOURS_PER_SEASON)  # next season boundary at or after now
        while k * HOURS_PER_SEASON < self.world.end:
            ev = At(self.env, k * HOURS_PER_SEASON, SNAPSHOT_PRIORITY)
            ev.callbacks.append(self._tick)
            yield ev
            if self.check_invariants:
                self.assert_invariants()
            self.ledger.emit("link", "SeasonSummarized", "world", ("LINK-01",), season=k, factions=self.season_metrics())
            k += 1

    def season_metrics(self) -> dict[str, dict[str, int | float]]:
        out: dict[str, dict[str, int | float]] = {}
        for d in self.drivers:
            for key, row in d.metrics_row(self).items():
                out.setdefault(key, {}).update(row)
        return dict(sorted(out.items()))

    def process(self, gen: Any) -> simpy.Process:
        return self.env.process(gen)

    def run(self, until: int | None = None) -> None:
        """Run up to (not including) hour ``until`` (default: the scenario's end)."""
        end = self.world.end if until is None else min(until, self.world.end)
        if end > self.env.now:
            self.env.run(until=end)
        self.world.now = int(self.env.now)
        self.ledger.now = self.world.now
        if self.check_invariants:
            self.assert_invariants()

    # ---- agents ----------------------------------------------------------------------------
    def register(self, agent: Any) -> None:
        self.by_key[agent.key] = agent

    def collect_now(self, name: str) -> None:
        if self.collect and name in self.collectors:
            self.time = float(self.env.now)
            self.collectors[name].collect(self)

    # ---- results ---------------------------------------------------------------------------
    def summary(self) -> dict[str, int | float]:
        out: dict[str, int | float] = {}
        for d in self.drivers:
            out.update(d.summary(self))
        return out

    def frames(self) -> dict[str, Any]:
        """Each collector's model and agent tables as pandas DataFrames."""
        out: dict[str, Any] = {}
        for name, dc in self.collectors.items():
            out[f"{name}.model"] = dc.get_model_vars_dataframe()
            if dc.agent_reporters:
                out[f"{name}.agents"] = dc.get_agent_vars_dataframe()
        return out

    def invariant_violations(self) -> list[str]:
        out: list[str] = []
        for d in self.drivers:
            out.extend(d.invariants(self))
        return out

    def assert_invariants(self) -> None:
        """Raise InvariantError if the world breaks any invariant (tests turn this on for every
        campaign with REALMSIM_CHECK_INVARIANTS=1: at every season boundary and when a run stops)."""
        bad = self.invariant_violations()
        if bad:
            raise InvariantError(f"{self.world.scenario} seed {self.world.seed} hour {self.world.now}: " + "; ".join(bad))
