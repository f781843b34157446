"""Run a campaign from a scenario and a seed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from agents.factions import faction_table
from agents.model import RealmModel, build_campaign
from agents.variants import variant  # noqa: F401  (LINK: a scenario with a subset of its systems)
from scenarios.loader import LoadedScenario
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


def prepare_campaign(
    scenario: LoadedScenario | str,
    seed: int | None = None,
    *,
    overrides: dict[str, Any] | None = None,
    keep_ledger: bool = True,
    collect: bool = True,
    listeners: Iterable[Callable[[Event], None]] = (),
    explain: bool = False,
) -> RealmModel:
    """The campaign ready to run; ``explain`` records every decision with its alternatives, their
    named terms and reasons (``run --explain``, ``advise``) instead of compactly (``RealmModel``)."""
    world, ledger = build_campaign(scenario, seed, overrides=overrides, keep_ledger=keep_ledger, listeners=listeners)
    return RealmModel(world, dice=DiceBox(world.seed), ledger=ledger, collect=collect, explain=explain)


def run_campaign(
    scenario: LoadedScenario | str,
    seed: int | None = None,
    *,
    overrides: dict[str, Any] | None = None,
    keep_ledger: bool = True,
    collect: bool = True,
    until: int | None = None,
    listeners: Iterable[Callable[[Event], None]] = (),
    explain: bool = False,
) -> CampaignResult:
    model = prepare_campaign(
        scenario, seed, overrides=overrides, keep_ledger=keep_ledger, collect=collect, listeners=listeners,
        explain=explain,
    )
    model.run(until)
    return finish(model)


def finish(model: RealmModel) -> CampaignResult:
    """The result of the campaign as it stands; at its end, the final state is recorded in the
    ledger (``CampaignEnded``, with every faction's metrics and the summary)."""
    w = model.world
    summary = model.conclude()
    return CampaignResult(w.scenario, w.seed, w, model.ledger, summary, model)
