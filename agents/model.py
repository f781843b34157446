"""The Mesa model: owns the world, the SimPy environment (the one clock), the dice and the ledger."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

import mesa
import simpy
from mesa.experimental.scenarios import Scenario

from agents.clock import At, WorldEnvironment
from agents.systems import SystemDriver, get_driver
from scenarios.build import build_world
from scenarios.loader import LoadedScenario, load_scenario
from sim import registry
from sim.calendar import HOURS_PER_SEASON, priority
from sim.dice import DiceBox
from sim.errors import RealmsimError
from sim.events import Event, Ledger
from sim.world import World


def build_campaign(
    scenario: LoadedScenario | str,
    seed: int | None = None,
    *,
    overrides: dict[str, Any] | None = None,
    keep_ledger: bool = True,
    listeners: Iterable[Callable[[Event], None]] = (),
) -> tuple[World, Ledger]:
    """The campaign's initial world and its ledger, which opens with ``CampaignStarted``."""
    loaded = load_scenario(scenario) if isinstance(scenario, str) else scenario
    sc = loaded.scenario
    seed = sc.scenario.seed if seed is None else int(seed)
    world = build_world(sc, seed, overrides=overrides, label=loaded.label, files=loaded.carried)
    ledger = Ledger(keep=keep_ledger)
    for fn in listeners:
        ledger.subscribe(fn)
    ledger.emit(
        "link",
        "CampaignStarted",
        "world",
        ("LINK-01",),
        scenario=sc.scenario.name,
        seed=seed,
        systems=list(world.systems),
        end=world.end,
        overrides=dict(sorted((overrides or {}).items())),
    )
    return world, ledger


class InvariantError(RealmsimError):
    """The world broke an invariant: a bug in the engine, never a user mistake."""


SNAPSHOT_PRIORITY = 5  # before every phase of LINK-01


class RealmScenario(Scenario):
    """A campaign's parameters as Mesa 3.5 means a scenario (``model.scenario``): the realmsim scenario
    it plays (a built-in scenario's name, or a loaded scenario), the config overrides (``{"cv.x": 3}``),
    and the seed as Mesa's ``rng``. ``RealmModel(scenario=RealmScenario(rng=3, campaign="realm"))``
    is ``RealmModel("realm", seed=3)``."""

    campaign: Any = "caravan-crossing"
    overrides: Any = None


class RealmModel(mesa.Model):
    """One campaign, as a Mesa model: ``RealmModel("realm", seed=3, **overrides)`` (or
    ``RealmModel(campaign="realm", …)``, or Mesa's way, ``RealmModel(scenario=RealmScenario(rng=3,
    campaign="realm"))``); ``model.scenario`` is Mesa's scenario, a :class:`RealmScenario`.

    ``step()`` runs one season (to the next season boundary, or the campaign's end); ``running``
    turns false at the end, where the campaign's result is recorded (``CampaignEnded``), so
    ``mesa.batch_run`` and ``run_model()`` work as with any Mesa model. ``datacollector`` holds
    one row per season (the summary metrics so far, collected at every season boundary and at the
    end) and, per faction kind, each faction's season metrics (``get_agenttype_vars_dataframe``).

    The clock is SimPy's: ``env.now`` is the one source of truth; ``world.now``, ``ledger.now``
    and ``model.time`` read it (see :class:`agents.clock.WorldEnvironment`). Mesa's own event list
    and step schedule are not used.

    ``seed`` is taken as a keyword from ``**kwargs`` (not a named parameter) because
    ``mesa.batch_run`` overwrites a model's ``seed`` parameter with its ``rng`` values; ``rng``,
    when an integer and no ``seed`` is given, is the seed. Other keywords are config overrides
    (``**{"cv.stores_cost_gp": 12}``), as ``overrides=`` is. An already built world is passed as
    ``RealmModel(world, dice=..., ledger=...)`` (save files, forks, tests).

    ``caches`` is what a driver or a policy keeps for one campaign besides the world, and may lose at
    any time without changing a roll (the convoys' route cache, a look-ahead's checkpoint).
    """

    def __init__(
        self,
        campaign: Any = None,
        *,
        scenario: RealmScenario | None = None,
        rng: Any = None,
        dice: DiceBox | None = None,
        ledger: Ledger | None = None,
        collect: bool = True,
        check_invariants: bool | None = None,
        overrides: dict[str, Any] | None = None,
        keep_ledger: bool = True,
        listeners: Any = (),
        explain: bool = False,
        **kwargs: Any,
    ) -> None:
        if scenario is not None:  # Mesa's way: the parameters in a scenario
            if campaign is not None or not isinstance(scenario, RealmScenario):
                raise TypeError("RealmModel(scenario=...) takes a RealmScenario and no campaign "
                                "(or: RealmModel(campaign, seed=..., **overrides))")
            campaign = scenario.campaign
            overrides = {**(scenario.overrides or {}), **(overrides or {})}
            if isinstance(scenario.rng, int):
                rng = scenario.rng
        if campaign is None:
            raise TypeError("RealmModel needs a campaign: a scenario's name, a loaded scenario or a World")
        if isinstance(campaign, World):
            if dice is None or ledger is None or kwargs or overrides:
                raise TypeError("RealmModel(world, ...) takes dice= and ledger= and no seed or overrides")
            world = campaign
        else:
            seed = kwargs.pop("seed", None)
            if seed is None and isinstance(rng, int):
                seed = rng
            overrides = {**(overrides or {}), **kwargs}
            world, ledger = build_campaign(campaign, seed, overrides=overrides, keep_ledger=keep_ledger,
                                           listeners=listeners)
            dice = DiceBox(world.seed)
        super().__init__(scenario=RealmScenario(rng=world.seed, campaign=world.scenario if campaign is world else campaign,
                                                overrides=dict(sorted((overrides or {}).items()))))
        self.__dict__.pop("step", None)  # Mesa wraps step() in its own event list and time: ours runs a season of SimPy
        self.world = world
        self.dice = dice
        self.ledger = ledger
        self.collect = collect
        self.env = WorldEnvironment(world)
        ledger.clock = world  # the world's hour: the clock moves it before any rule runs (agents.clock)
        self.caches: dict[str, Any] = {}
        self.drivers: list[SystemDriver] = [get_driver(s) for s in world.systems]
        self.by_key: dict[str, Any] = {}
        self.ended = False
        if check_invariants is None:
            check_invariants = os.environ.get("REALMSIM_CHECK_INVARIANTS") == "1"
        self.check_invariants = check_invariants
        # False in a look-ahead rollout: its ledger is never read, so decisions are not recorded
        self.record_decisions = True
        # True: every decision is recorded with its alternatives, their named terms and reasons (run
        # --explain, advise); False: compactly, the order, its score and the runner-up (issue 26)
        self.explain = explain
        for d in self.drivers:
            d.setup(self)
        self.env.process(self._season_snapshots())
        self._rows: dict[str, dict[str, int | float]] = {}
        self._summary: dict[str, int | float] = {}
        self.datacollector = self._season_collector()
        self.running = world.now < world.end

    # ---- Mesa --------------------------------------------------------------------------------
    @property  # type: ignore[override]
    def time(self) -> float:
        """Mesa's ``model.time`` is the campaign hour (``env.now``): it cannot be set."""
        env = self.__dict__.get("env")
        return 0.0 if env is None else float(env.now)

    @time.setter
    def time(self, value: float) -> None:
        if "env" in self.__dict__:  # Mesa's __init__ sets 0.0 before the clock exists
            raise AttributeError("model.time is the SimPy clock (env.now): advance it with step() or run()")

    def step(self) -> None:
        """Run one season: up to the next season boundary (or the end, where the campaign's result
        is recorded and ``running`` turns false)."""
        if not self.running:
            return
        now = int(self.env.now)
        self.run((now // HOURS_PER_SEASON + 1) * HOURS_PER_SEASON)
        self.steps += 1
        if self.world.now >= self.world.end:
            self.conclude()
            self.running = False

    def conclude(self) -> dict[str, int | float]:
        """The summary metrics as the campaign stands; at its end, the final state is recorded in the
        ledger, once (``CampaignEnded``, with every faction's metrics and the summary), ``running``
        turns false and the last row is collected."""
        w = self.world
        summary = {"hours": w.now, **self.summary()}
        if w.now >= w.end and not self.ended:
            self.ended = True
            self.ledger.emit("link", "CampaignEnded", "world", ("LINK-01",), factions=self.season_metrics(), summary=summary)
            self.running = False
            self.collect_season()
        return summary

    def _season_collector(self) -> mesa.DataCollector:
        """The one data collector: a row per collection (the summary metrics), per faction kind each
        faction's season metrics (the ``SeasonSummarized`` rows), and the tables the systems fill
        themselves (``SystemDriver.tables``)."""
        keys = ["hours", *self.summary()]
        model_reporters = {k: (lambda m, k=k: m._summary.get(k)) for k in keys}
        rows = self.season_metrics()
        types: dict[type, dict[str, Any]] = {}
        for system in registry.systems():  # the faction agents present, kind by kind in LINK-01 order
            kind = system.faction_kind
            cls = next((type(a) for a in self.agents if getattr(a, "kind", "") == kind), None)
            if cls is None:
                continue
            names: list[str] = []
            for key, row in rows.items():
                if key.startswith(kind + ":"):
                    names += [n for n in row if n not in names]
            reporters: dict[str, Any] = {"key": lambda a: a.key}
            reporters.update({n: (lambda a, n=n: a.model._rows.get(a.key, {}).get(n)) for n in names})
            types[cls] = reporters
        tables: dict[str, list[str]] = {}
        for d in self.drivers:  # the tables a system fills itself (the caravans' days)
            tables.update(d.tables())
        return mesa.DataCollector(model_reporters=model_reporters, agenttype_reporters=types, tables=tables)

    def collect_season(self, rows: dict[str, dict[str, int | float]] | None = None) -> None:
        """Record one row of ``datacollector`` now (at a season boundary, and at the end)."""
        if not self.collect:
            return
        self._rows = self.season_metrics() if rows is None else rows
        self._summary = {"hours": int(self.env.now), **self.summary()}
        self.datacollector.collect(self)

    # ---- clock -----------------------------------------------------------------------------
    def at(self, when: int, phase: int, index: int = 0) -> At:
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
            self.env.sync()  # the run stopped at ``end``: the world stands there
        if self.check_invariants:
            self.assert_invariants()

    # ---- agents ----------------------------------------------------------------------------
    def register(self, agent: Any) -> None:
        self.by_key[agent.key] = agent

    def add_agents(self) -> None:
        """Give the factions a turn brought into the world (a new vassal, an envoy, a trade caravan)
        their agents, system by system (each driver's ``add_agents``)."""
        for d in self.drivers:
            d.add_agents(self)

    # ---- results ---------------------------------------------------------------------------
    def summary(self) -> dict[str, int | float]:
        out: dict[str, int | float] = {}
        for d in self.drivers:
            out.update(d.summary(self))
        return out

    def frames(self) -> dict[str, Any]:
        """The tables the systems keep in the one ``datacollector`` (the caravans day by day:
        ``cv.model``, ``cv.agents``), as pandas DataFrames."""
        out: dict[str, Any] = {}
        for d in self.drivers:
            out.update(d.frames(self.datacollector))
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
