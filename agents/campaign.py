"""Run a campaign from a scenario and a seed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from agents.factions import faction_table
from agents.model import RealmModel
from agents.variants import variant  # noqa: F401  (LINK: a scenario with a subset of its systems)
from scenarios.build import build_world
from scenarios.loader import LoadedScenario, load_scenario
from sim.dice import DiceBox
from sim.events import Event, Ledger
from sim.world import World


@dataclass
class CampaignResult:
    scenario: str
    seed: int
    world: World
    ledger: Ledger
    summary: dict[str, int | float]
    model: RealmModel = field(repr=False)

    @property
    def events(self) -> int:
        return self.ledger.count

    @property
    def ledger_sha256(self) -> str:
        return self.ledger.sha256()

    def factions(self) -> dict[str, dict[str, Any]]:
        """Every faction's score, policy, score terms and key metrics (docs/scoring.md)."""
        return faction_table(self.model)

    def as_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "summary": self.summary,
            "factions": self.factions(),
            "events": self.events,
            "ledger_sha256": self.ledger_sha256,
        }


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


def prepare_campaign(
    scenario: LoadedScenario | str,
    seed: int | None = None,
    *,
    overrides: dict[str, Any] | None = None,
    keep_ledger: bool = True,
    collect: bool = True,
    listeners: Iterable[Callable[[Event], None]] = (),
) -> RealmModel:
    world, ledger = build_campaign(scenario, seed, overrides=overrides, keep_ledger=keep_ledger, listeners=listeners)
    return RealmModel(world, dice=DiceBox(world.seed), ledger=ledger, collect=collect)


def run_campaign(
    scenario: LoadedScenario | str,
    seed: int | None = None,
    *,
    overrides: dict[str, Any] | None = None,
    keep_ledger: bool = True,
    collect: bool = True,
    until: int | None = None,
    listeners: Iterable[Callable[[Event], None]] = (),
) -> CampaignResult:
    model = prepare_campaign(
        scenario, seed, overrides=overrides, keep_ledger=keep_ledger, collect=collect, listeners=listeners
    )
    model.run(until)
    return finish(model)


def finish(model: RealmModel) -> CampaignResult:
    """The result of the campaign as it stands; at its end, the final state is recorded in the
    ledger (``CampaignEnded``, with every faction's metrics and the summary)."""
    w = model.world
    summary = {"hours": w.now, **model.summary()}
    if w.now >= w.end and not model.ended:
        model.ended = True
        model.ledger.emit("link", "CampaignEnded", "world", ("LINK-01",), factions=model.season_metrics(), summary=summary)
        model.running = False
        model.collect_season()
    return CampaignResult(w.scenario, w.seed, w, model.ledger, summary, model)
