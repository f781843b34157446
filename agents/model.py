"""The Mesa model: a campaign (:class:`agents.core.CampaignModel`) with Mesa's interface and tables."""

from __future__ import annotations

from typing import Any

import mesa

from agents.core import SNAPSHOT_PRIORITY, CampaignModel, InvariantError
from sim.calendar import HOURS_PER_SEASON
from sim.dice import DiceBox
from sim.events import Ledger
from sim.world import World

__all__ = ["InvariantError", "RealmModel", "SNAPSHOT_PRIORITY"]


class RealmModel(CampaignModel, mesa.Model):
    """One campaign, as a Mesa model: ``RealmModel(scenario="realm", seed=3, **overrides)``.

    ``step()`` runs one season (to the next season boundary, or the campaign's end); ``running``
    turns false at the end, where the campaign's result is recorded (``CampaignEnded``), so
    ``mesa.batch_run`` and ``run_model()`` work as with any Mesa model. ``datacollector`` holds
    one row per season (the summary metrics so far, collected at every season boundary and at the
    end) and, per faction kind, each faction's season metrics (``get_agenttype_vars_dataframe``).

    The clock is SimPy's: ``env.now`` is the one source of truth; ``world.now``, ``ledger.now``
    and ``model.time`` read it (see :class:`agents.clock.WorldEnvironment`). Mesa's own event list
    and step schedule are not used. The campaign itself is :class:`agents.core.CampaignModel`'s
    (the paths that read no Mesa table play it without Mesa).

    ``seed`` is taken as a keyword from ``**kwargs`` (not a named parameter) because
    ``mesa.batch_run`` overwrites a model's ``seed`` parameter with its ``rng`` values; ``rng``,
    when an integer and no ``seed`` is given, is the seed. Other keywords are config overrides
    (``**{"cv.stores_cost_gp": 12}``), as ``overrides=`` is. An already built world is passed as
    ``RealmModel(world, dice=..., ledger=...)`` (save files, forks, tests).
    """

    # the agents are Mesa's (``model.agents`` is an AgentSet, per type for the data collectors)
    agents = mesa.Model.agents  # type: ignore[assignment]
    register_agent = mesa.Model.register_agent  # type: ignore[assignment]

    def __init__(
        self,
        scenario: Any,
        *,
        rng: Any = None,
        dice: DiceBox | None = None,
        ledger: Ledger | None = None,
        collect: bool = True,
        check_invariants: bool | None = None,
        overrides: dict[str, Any] | None = None,
        keep_ledger: bool = True,
        listeners: Any = (),
        **kwargs: Any,
    ) -> None:
        if isinstance(scenario, World):
            if dice is None or ledger is None or kwargs or overrides:
                raise TypeError("RealmModel(world, ...) takes dice= and ledger= and no seed or overrides")
            world = scenario
        else:
            from agents.campaign import build_campaign

            seed = kwargs.pop("seed", None)
            if seed is None and isinstance(rng, int):
                seed = rng
            world, ledger = build_campaign(scenario, seed, overrides={**(overrides or {}), **kwargs},
                                           keep_ledger=keep_ledger, listeners=listeners)
            dice = DiceBox(world.seed)
        mesa.Model.__init__(self, rng=world.seed)
        self.__dict__.pop("step", None)  # Mesa wraps step() in its own event list and time: ours runs a season of SimPy
        self.collect = collect
        self._start(world, dice, ledger, check_invariants)
        self.datacollector = self._season_collector()

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
            from agents.campaign import finish

            finish(self)
            self.running = False

    def _season_collector(self) -> mesa.DataCollector:
        """One row per collection: the summary metrics; per faction kind, each faction's season
        metrics (the ``SeasonSummarized`` rows)."""
        from agents.convoy import ConvoyAgent
        from agents.guild import GuildAgent
        from agents.kingdom import KingdomAgent
        from agents.nation import NationAgent

        keys = ["hours", *self.summary()]
        model_reporters = {k: (lambda m, k=k: m._summary.get(k)) for k in keys}
        rows = self.season_metrics()
        types: dict[type, dict[str, Any]] = {}
        for cls in (KingdomAgent, NationAgent, GuildAgent, ConvoyAgent):
            names: list[str] = []
            for key, row in rows.items():
                if key.startswith(cls.kind + ":"):
                    names += [n for n in row if n not in names]
            if any(isinstance(a, cls) for a in self.agents) or names:
                reporters: dict[str, Any] = {"key": lambda a: a.key}
                reporters.update({n: (lambda a, n=n: a.model._rows.get(a.key, {}).get(n)) for n in names})
                types[cls] = reporters
        return mesa.DataCollector(model_reporters=model_reporters, agenttype_reporters=types)

    def collect_season(self, rows: dict[str, dict[str, int | float]] | None = None) -> None:
        """Record one row of ``datacollector`` now (at a season boundary, and at the end)."""
        if not self.collect:
            return
        self._rows = self.season_metrics() if rows is None else rows
        self._summary = {"hours": int(self.env.now), **self.summary()}
        self.datacollector.collect(self)

    def collect_now(self, name: str) -> None:
        if self.collect and name in self.collectors:
            self.collectors[name].collect(self)

    def frames(self) -> dict[str, Any]:
        """Each collector's model and agent tables as pandas DataFrames."""
        out: dict[str, Any] = {}
        for name, dc in self.collectors.items():
            out[f"{name}.model"] = dc.get_model_vars_dataframe()
            if hasattr(dc, "agents_frame"):
                out[f"{name}.agents"] = dc.agents_frame()
        return out
