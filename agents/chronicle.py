"""A readable account of a campaign, built from its ledger events (English or French)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from agents.campaign import finish, prepare_campaign
from agents.systems import get_driver
from sim.calendar import date_of
from sim.events import Event
from sim.registry import names

if TYPE_CHECKING:
    from agents.model import RealmModel

_GENERIC = {
    "CampaignStarted": {
        "en": "Campaign {scenario} begins (seed {seed}; systems: {systems}).",
        "fr": "La campagne {scenario} commence (graine {seed} ; systèmes : {systems}).",
    },
}


# Kinds the chronicle deliberately does not tell (they stay in the ledger, the JSON output and the
# reports): dice and decisions behind a told line, bookkeeping, per-season snapshots. A kind the engine
# emits is either told by a template (its system's table) or listed here; tests/test_chronicle_kinds.py
# fails on any other.
SILENT: frozenset[str] = frozenset({
    "AcclamationPhase", "AmbassadorRecalled", "AmbassadorReturned", "AmbassadorSentHome", "ArmyDisbanded",
    "ArmyDissolved", "AxlesFitted", "BPWithdrawn", "CampaignEnded", "CaravanAttackRolled",
    "CargoLeftBehind", "CargoLost", "CombatCancelled", "DamageCleared", "DecisionMade", "DomainActionTaken",
    "EmbassyClosed", "EmbassyEstablished", "EmbassyInstalled", "EnemyAttackRolled", "ExtraHourCheckRolled",
    "ExtraHourDCReset", "GarrisonReinforced", "GiftLapsed", "GoldDeposited", "HazardScheduled",
    "HazardTableRolled", "ImportsChanged", "IncomeCollected", "JobChanged", "JobSuspended",
    "KingdomEventRolled", "MissionAborted", "MutinyCheckRolled", "MutinyWandered", "NoEdictsInAnarchy",
    "OccupationEnded", "OrderGiven", "ProvisionsConsumed", "ProvisionsCreated", "ProvisionsDiscarded",
    "ProvisionsForaged", "ProvisionsLost", "RepairMaterialsBought", "RouteLost", "ScenarioEventSkipped",
    "SeasonSummarized", "SiegeAbandoned", "TravelBlocked", "TravelerChosen", "TreatyProposed", "TurnBegan",
    "UnitsRecruited", "UnrestCheckRolled", "UnrestFell", "UpkeepSkipped", "WagesPaid", "WagonChosen",
    "YieldCollected",
})


def narrated_kinds() -> dict[str, frozenset[str]]:
    """``{system: kinds its chronicle table tells}`` (``link`` includes the generic kinds)."""
    out = {name: frozenset(get_driver(name).chronicle_kinds()) for name in (*names(), "link")}
    out["link"] = out["link"] | frozenset(_GENERIC)
    return out


def render(model: RealmModel, ev: Event, lang: str = "en") -> str | None:
    """The text of one event's line (no date), or None when the event is not told. Strict: a
    template that cannot render raises (tests call this; the chronicle itself calls :func:`line`)."""
    if ev.kind in _GENERIC:
        d = dict(ev.data)
        d["systems"] = ", ".join(d.get("systems", []))
        return _GENERIC[ev.kind][lang].format_map(_Missing(d))
    for drv in model.drivers:
        if drv.name == ev.system:
            return drv.chronicle(ev, lang, model)
    return None


def line(model: RealmModel, ev: Event, lang: str = "en") -> str | None:
    """One dated chronicle line. A template never stops the chronicle: an event it cannot render
    (a field it expects is missing) is told plainly, by kind and actor."""
    try:
        text = render(model, ev, lang)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        text = f"{ev.kind} ({ev.actor}{', ' + ev.outcome if ev.outcome else ''})"
    if text is None:
        return None
    return f"{date_of(ev.t).format(lang)}  {text}"


class _Missing(dict[str, Any]):
    """``str.format_map`` mapping: a field the event lacks renders as ``?`` instead of raising."""

    def __missing__(self, key: str) -> str:
        return "?"


class ChronicleWriter:
    """Subscribe to a ledger and write each tellable event as it happens."""

    def __init__(self, out: TextIO, lang: str = "en") -> None:
        self.out = out
        self.lang = lang
        self.model: RealmModel | None = None
        self.pending: list[Event] = []

    def __call__(self, ev: Event) -> None:
        if self.model is None:
            self.pending.append(ev)
            return
        self._write(ev)

    def attach(self, model: RealmModel) -> None:
        self.model = model
        for ev in self.pending:
            self._write(ev)
        self.pending.clear()

    def _write(self, ev: Event) -> None:
        assert self.model is not None
        s = line(self.model, ev, self.lang)
        if s:
            self.out.write(s + "\n")


SUMMARY_HEADING = {
    "en": "Summary of {scenario} (seed {seed}): {events} events, ledger sha256 {sha}",
    "fr": "Bilan de {scenario} (graine {seed}) : {events} évènements, sha256 du registre {sha}",
}


def summary_lines(result: Any, lang: str = "en", metric_name: Callable[[str, str], str] | None = None) -> list[str]:
    """The closing block of a chronicle: the summary metrics of a finished run. ``metric_name(key,
    lang)`` names a metric (``workers.report.names.metric_name``: the seeds' terms in French); without
    it the keys are printed as they are."""
    head = SUMMARY_HEADING[lang].format(scenario=result.scenario, seed=result.seed, events=result.events,
                                        sha=result.ledger_sha256)
    if lang == "en" or metric_name is None:
        return [head] + [f"  {k:<36} {v}" for k, v in result.summary.items()]
    return [head] + [f"  {metric_name(k, lang):<44} {v}" for k, v in result.summary.items()]


def transcript(
    scenario: Any, seed: int | None = None, lang: str = "en", metric_name: Callable[[str, str], str] | None = None,
    listeners: Any = (),
) -> str:
    """The whole readable account of a run: every chronicle line, then the summary block.

    This is what ``realmsim run`` prints and what the golden transcripts under tests/golden/ store.
    """
    buf = io.StringIO()
    writer = ChronicleWriter(buf, lang)
    model = prepare_campaign(scenario, seed, keep_ledger=False, collect=False, listeners=[writer, *listeners])
    writer.attach(model)
    model.run()
    res = finish(model)
    return buf.getvalue() + "\n" + "\n".join(summary_lines(res, lang, metric_name)) + "\n"


def ledger_line(ev: Event) -> str:
    """One event as one readable line (the golden ledger files, tests/golden/*.ledger.txt): hour,
    kind, actor, dice (``d20=12``), total against DC, outcome, clauses. A rules change shows there as
    a diff of these lines."""
    dice = " ".join(f"d{s}={f}" for s, f in ev.dice)
    total = "" if ev.total is None else (f"{ev.total} vs DC {ev.dc}" if ev.dc is not None else str(ev.total))
    return "\t".join((str(ev.t), ev.kind, ev.actor, dice, total, ev.outcome, " ".join(ev.clauses))).rstrip("\t")
