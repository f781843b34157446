"""The API's request and answer bodies: msgspec Structs, from which Litestar writes the OpenAPI schema."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from workers.server.limits import MAX_TEXT_CHARS

# No ``description`` in these Meta: a described type is wrapped (msgspec.inspect.Metadata), which the
# every-problem checker (scenarios.validate.check_against) does not look into. Fields are described
# in each Struct's docstring instead.
Seed = Annotated[int, Meta(ge=0, le=2**63 - 1)]
Scalar = int | float | str | bool
Overrides = dict[str, Scalar]
Until = int | str
ScenarioName = Annotated[str, Meta(max_length=100)]
ScenarioText = Annotated[str, Meta(max_length=MAX_TEXT_CHARS)]  # workers.server.limits

class Problem(Struct):
    path: str
    expected: str
    found: str


class ErrorBody(Struct):
    error: str
    message: str
    problems: list[Problem]
    file: str | None = None


class ScenarioInfo(Struct):
    name: str
    title: str
    systems: list[str]
    seasons: int
    factions: list[str]


class ValidateRequest(Struct, forbid_unknown_fields=True):
    """``scenario``: a built-in name (GET /v1/scenarios), or ``text``: a whole scenario file (TOML)."""

    scenario: ScenarioName | None = None
    text: ScenarioText | None = None


class ValidateResult(Struct):
    valid: bool
    file: str
    problems: list[Problem]
    scenario: ScenarioInfo | None = None


class CampaignRequest(Struct, forbid_unknown_fields=True):
    """``scenario`` (a built-in name) or ``text`` (TOML; only registered policies, no files); ``seed``
    (default: the scenario's); ``overrides`` of rules defaults (``{"cv.fatigued_penalty": 3}``, RULES.md
    §6); ``until``: stop at the start of season N (an integer) or after a count (``45d``, ``2m``, ``1y``);
    ``lang`` of the chronicle (default: the scenario's); ``explain``: record every decision with the
    alternatives it scored, their terms and reasons (as ``run --explain``; default: compactly, the
    order, its score and the runner-up), for this campaign and its forks."""

    scenario: ScenarioName | None = None
    text: ScenarioText | None = None
    seed: Seed | None = None
    overrides: Overrides = {}
    until: Until | None = None
    lang: Literal["en", "fr"] | None = None
    explain: bool = False


class GivenOrder(Struct, forbid_unknown_fields=True):
    """A game master's order: the question it answers (``decision``: a kingdom's slot such as ``claim``,
    ``building`` or ``special``, a guild's ``orders``, a convoy's ``day``, a nation's ``buy`` or
    ``ambassador``, as advice names them in English) and the order as the ledger labels it (``order``)."""

    decision: Annotated[str, Meta(min_length=1, max_length=100)]
    order: Annotated[str, Meta(min_length=1, max_length=500)]


class ForkRequest(Struct, forbid_unknown_fields=True):
    """Fork at day ``day`` (0 to 89, default 0: its first) of ``season`` (0-based): the new campaign is this one up to there, then goes on with
    ``overrides``, and/or ``policy`` for ``faction`` (a key such as ``kingdom:avalon``; a registered
    policy of its kind), and/or the game master's ``orders`` for ``faction`` at ``orders_hour`` (the hour
    of the decisions they answer, as advice gives it; default: the fork point): the faction gives them
    when the rules ask, then its policy plays on. ``until`` as for a campaign."""

    season: Annotated[int, Meta(ge=0, le=10**6)]
    day: Annotated[int, Meta(ge=0, le=89)] = 0
    overrides: Overrides = {}
    faction: Annotated[str, Meta(max_length=200)] | None = None
    policy: Annotated[str, Meta(max_length=100)] | None = None
    orders: Annotated[list[GivenOrder], Meta(max_length=200)] = []
    orders_hour: Annotated[int, Meta(ge=0, le=2**40)] | None = None
    until: Until | None = None


class CampaignAdviceRequest(Struct, forbid_unknown_fields=True):
    """Advice at the start of ``season`` of this campaign: the orders ``faction`` (``kind:id`` or a bare
    id) would give then, from the campaign's world at that season as a state file; ``policy`` a
    registered one of its kind (default heuristic); ``lang`` of the reasons (default: the campaign's);
    ``explain``: every alternative."""

    faction: Annotated[str, Meta(min_length=1, max_length=200)]
    season: Annotated[int, Meta(ge=0, le=10**6)]
    policy: Annotated[str, Meta(min_length=1, max_length=100)] = "heuristic"
    lang: Literal["en", "fr"] | None = None
    explain: bool = False


class Progress(Struct):
    hour: int
    end: int
    season: int
    seasons: int
    fraction: float
    events: int
    queue_position: int | None = None


class FactionResult(Struct):
    faction: str
    kind: str
    metrics: dict[str, Any]


class ForkOf(Struct):
    id: str
    season: int
    hour: int | None = None  # the fork point (a day of ``season``); None: a fork recorded before forks had days


class Campaign(Struct):
    id: str
    status: Literal["queued", "running", "finished", "stopped", "failed", "cancelled"]
    scenario: str
    title: str
    seed: int
    lang: str
    created: float
    progress: Progress
    factions: list[FactionResult]
    links: dict[str, str]
    started: float | None = None
    finished: float | None = None
    until_hour: int | None = None
    summary: dict[str, Any] | None = None
    ledger_sha256: str | None = None
    error: str | None = None
    note: str | None = None
    fork_of: ForkOf | None = None


class CampaignList(Struct):
    campaigns: list[Campaign]


class LedgerEvent(Struct):
    """A ledger event (sim/events.py) with its chronicle line and the factions it concerns."""

    seq: int
    t: int
    system: str
    kind: str
    actor: str
    clauses: list[str]
    factions: list[str]
    dc: int | None = None
    mods: list[tuple[str, int]] = []
    dice: list[tuple[int, int]] = []
    total: int | None = None
    outcome: str = ""
    data: dict[str, Any] = {}
    chronicle: str | None = None


class EventPage(Struct):
    events: list[LedgerEvent]
    next_after: int | None


class MapState(Struct):
    hour: int
    season: int
    date: str
    kingdoms: list[dict[str, Any]]
    nations: list[dict[str, Any]]
    cities: list[dict[str, Any]]
    embassies: list[dict[str, Any]]
    domains: list[dict[str, Any]]
    armies: list[dict[str, Any]]
    convoys: list[dict[str, Any]]
    envoys: list[dict[str, Any]]
    since: int | None = None  # the hour the world was last seen to change, when before ``hour``


class MapView(Struct):
    """``map``: width, height, terrain letters (one per hex, row by row, odd-r offset layout), roads,
    rivers, settlements, factions; ``state``: where the factions stand at one moment."""

    map: dict[str, Any]
    state: MapState


class BatchRequest(Struct, forbid_unknown_fields=True):
    """``seeds``: ``"1..100"``, ``"1..10,15"`` or a list; ``scenario`` or ``text`` and ``overrides`` as for
    a campaign."""

    seeds: Annotated[str, Meta(max_length=10_000)] | list[Annotated[int, Meta(ge=0, le=2**63 - 1)]]
    scenario: ScenarioName | None = None
    text: ScenarioText | None = None
    overrides: Overrides = {}


class Failure(Struct):
    seed: int
    error: str


class Batch(Struct):
    id: str
    status: Literal["queued", "running", "finished", "incomplete", "cancelled", "failed"]
    mode: Literal["local", "redis"]
    scenario: str
    total: int
    done: int
    dead: int
    created: float
    links: dict[str, str]
    failures: list[Failure]
    started: float | None = None
    finished: float | None = None
    error: str | None = None


class BatchFinding(Struct):
    """One finding of a batch (docs/research.md, "Findings"): what, in how many campaigns, and how to
    replay one."""

    kind: str
    title: str
    detail: str
    seeds: list[int]
    replay: str
    count: int
    total: int
    share: float
    subject: str = ""


class BatchReport(Struct):
    """The overview of an ended batch: the figures of ``realmsim report`` (PNG, under ``links``), its
    findings and the command that makes the same report from the batch's table."""

    id: str
    campaigns: int
    command: str
    figures: list[str]
    links: dict[str, str]
    findings: list[BatchFinding]
    not_checked: list[str]


class BatchList(Struct):
    batches: list[Batch]


class Created(Struct):
    id: str
    status: str
    url: str


def encode(obj: Any) -> bytes:
    return msgspec.json.encode(obj)
