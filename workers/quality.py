"""How well the AI plays, read from campaign ledgers: acts and idle stretches, anarchy and its causes,
and the confidence intervals a tournament reports (``bench/ai_quality.py``, docs/scoring.md).

Scores come from the world (:mod:`sim.scoring`); what a faction *did* comes from the ledger — the
events that resolve its own orders. A faction is idle while none of them happens.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sim.calendar import HOURS_PER_MONTH
from sim.events import Event

# Events that resolve a faction's own order: each one is an act of the faction it names (its actor,
# or for a mission the nation in its data). Edicts count when they change (EdictsSet "changed"), a
# convoy's travel when it covers ground, a war when a nation declares it (not a scenario event).
ACT_EVENTS: dict[str, frozenset[str]] = {
    "kingdom": frozenset({
        "HexClaimed", "HexAbandoned", "TerrainImprovementBuilt", "SettlementFounded", "DistrictAdded",
        "BuildingConstructed", "EmbassyBuildingBought", "DiplomaticEdictIssued", "ExplorationEdictIssued",
        "TradeEdictIssued", "VassalageEdictIssued", "EnvoySent", "EnvoyRecalled", "BPWithdrawn", "GoldDeposited",
        "CloseEmbassyLoyaltyCheckRolled", "WithdrawalLoyaltyCheckRolled", "RenegotiationLoyaltyCheckRolled",
        "VassalConstructionBudgetGranted", "EdictsSet",
    }),
    "nation": frozenset({
        "AmbassadorBought", "MissionLaunched", "RenewalLaunched", "AmbassadorRecalled", "HostChose", "InterferenceRolled",
        "TreatyProposed", "TreatyBroken", "ArmyRaised", "PactHonoured", "RansomPaid", "WarDeclared",
    }),
    "guild": frozenset({"OrderGiven"}),
    "convoy": frozenset({"ConvoyTravelled"}),
}
_ALL_ACTS = frozenset().union(*ACT_EVENTS.values())


def is_act(ev: Event) -> bool:
    if ev.kind not in _ALL_ACTS:
        return False
    if ev.kind == "EdictsSet":
        return ev.outcome == "changed"
    if ev.kind == "ConvoyTravelled":
        return str(ev.data.get("miles", "0")) != "0"
    if ev.kind == "WarDeclared":
        return ev.data.get("source") != "scenario"
    return True


@dataclass
class Activity:
    """One faction's acts: when it first appears in the ledger, the hours of its acts, and when its
    part of the campaign ends (the campaign's end; a convoy's arrival or destruction)."""

    key: str
    start: int
    end: int
    acts: list[int] = field(default_factory=list)

    @property
    def longest_idle(self) -> int:
        """The longest stretch, in hours, between two acts (or the start and the first act, or the
        last act and the end) with no act at all."""
        marks = [self.start, *sorted(a for a in self.acts if self.start <= a <= self.end), self.end]
        return max((b - a for a, b in zip(marks, marks[1:])), default=0)


def activity(events: Iterable[Event]) -> dict[str, Activity]:
    """Every faction's acts (``kingdom:``, ``nation:``, ``guild:``, ``convoy:`` actors) in a ledger."""
    out: dict[str, Activity] = {}
    ambassador_nation: dict[str, str] = {}
    end = 0
    for ev in events:
        end = max(end, ev.t)
        key = ev.actor
        if ev.kind == "AmbassadorBought":
            ambassador_nation[f"ambassador:{ev.outcome}"] = ev.actor
        if ev.kind in ("MissionLaunched", "RenewalLaunched") and "nation" in ev.data:
            ambassador_nation[ev.actor] = f"nation:{ev.data['nation']}"
        if key.startswith("ambassador:"):
            key = ambassador_nation.get(key, key)
        kind = key.split(":", 1)[0]
        if kind not in ACT_EVENTS:
            continue
        a = out.get(key)
        if a is None:
            a = out[key] = Activity(key, ev.t, -1)
        if kind == "convoy" and ev.kind in ("ConvoyArrived", "ConvoyDestroyed"):
            a.end = ev.t
        if ev.kind in ACT_EVENTS[kind] and is_act(ev):
            a.acts.append(ev.t)
    for a in out.values():
        if a.end < 0:
            a.end = end
    return dict(sorted(out.items()))


# ---- anarchy and its causes ----------------------------------------------------------------------

GUILD_CAUSES = frozenset({"HexLostToGuild", "OccupationUnrest"})
EVENT_CAUSES = frozenset({"ScenarioUnrest", "KingdomAttacked", "AlliedArmyStationed", "KingdomConquered"})


@dataclass(frozen=True)
class AnarchyEnd:
    """A kingdom that ends the campaign in anarchy (SC-KM-07): when it began, and what lay behind it:
    ``guilds`` (a hex lost to guilds or its conquest by them before, or an occupation's Unrest in the
    window before), ``war or event`` (a war or a scenario event in the window before), else
    ``own play`` (Upkeep failures with nothing from outside behind them)."""

    kingdom: str
    onset: int  # hour
    cause: str
    detail: str = ""


def anarchy_endings(events: Iterable[Event], *, window_months: int = 12) -> list[AnarchyEnd]:
    """Every kingdom in anarchy at the end of the ledger, with the cause of its last fall."""
    window = window_months * HOURS_PER_MONTH
    onset: dict[str, int] = {}
    lasting: dict[str, list[tuple[int, str]]] = {}  # a hex lost to guilds, a conquest: counts at any time before
    recent: dict[str, list[tuple[int, str, str]]] = {}  # (hour, cause, what) that count inside the window
    for ev in events:
        if ev.kind == "AnarchyBegan":
            onset[ev.actor] = ev.t
        elif ev.kind == "AnarchyEnded":
            onset.pop(ev.actor, None)
        elif ev.kind == "KingdomConqueredByGuilds":
            lasting.setdefault(f"kingdom:{ev.data.get('target')}", []).append((ev.t, "conquered by guilds"))
        elif ev.kind == "HexLostToGuild":
            lasting.setdefault(ev.actor, []).append((ev.t, f"hex lost to {ev.data.get('guild')}"))
        elif ev.kind == "OccupationUnrest":
            recent.setdefault(ev.actor, []).append((ev.t, "guilds", "occupation Unrest"))
        elif ev.kind in EVENT_CAUSES:
            recent.setdefault(ev.actor, []).append((ev.t, "war or event", ev.kind))
            target = ev.data.get("target")
            if target:
                recent.setdefault(f"kingdom:{target}", []).append((ev.t, "war or event", ev.kind))
        elif ev.kind in ("DiplomacyCheckRolled", "IntimidateCheckRolled") and ev.data.get("result") == "war declared":
            for who in (ev.actor, f"kingdom:{ev.data.get('target')}"):
                recent.setdefault(who, []).append((ev.t, "war or event", "war declared"))
    out: list[AnarchyEnd] = []
    for kid, t in sorted(onset.items()):
        before = [what for h, what in lasting.get(kid, []) if h <= t]
        near = [(c, what) for h, c, what in recent.get(kid, []) if t - window <= h <= t]
        if before or any(c == "guilds" for c, _ in near):
            what = before + [w for c, w in near if c == "guilds"]
            out.append(AnarchyEnd(kid, t, "guilds", ", ".join(sorted(set(what)))))
        elif near:
            out.append(AnarchyEnd(kid, t, "war or event", ", ".join(sorted({w for _, w in near}))))
        else:
            out.append(AnarchyEnd(kid, t, "own play"))
    return out


# ---- statistics ----------------------------------------------------------------------------------

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may count ties as halves)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def median(values: Sequence[float]) -> float:
    xs = sorted(values)
    if not xs:
        return math.nan
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def bootstrap_median(values: Sequence[float], *, reps: int = 2000, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the median (a fixed seed: the same figures every run)."""
    xs = list(values)
    if not xs:
        return (math.nan, math.nan)
    rng = random.Random(seed)
    meds = sorted(median([xs[rng.randrange(len(xs))] for _ in xs]) for _ in range(reps))
    lo = meds[int((1 - level) / 2 * reps)]
    hi = meds[min(reps - 1, int((1 + level) / 2 * reps))]
    return (lo, hi)


def paired_wins(a: Sequence[float], b: Sequence[float]) -> float:
    """How many pairs ``a[i]`` wins over ``b[i]``, a tie counting a half."""
    return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x, y in zip(a, b, strict=True))
