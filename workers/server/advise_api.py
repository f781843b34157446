"""``POST /v1/advise``: the orders a faction would give now in a table's situation (docs/server.md).

The state comes as TOML text (a state file: docs/state-format.md; partial states welcome) or as a
built-in scenario name (its first season). Text from the network may name only registered policies
and no file, as for campaigns (``workers.server.inputs.scenario_from``). The answer is the same JSON
as ``realmsim advise --json``; a bad state, faction or policy is a 422 with path / expected / found.
"""

from __future__ import annotations

from typing import Annotated, Literal

from litestar import Router, post
from msgspec import Meta, Struct

from workers.advise import Advice, AdviceError, advise
from workers.server.bodies import json_body
from workers.server.errors import ApiError, bad_value
from workers.server.inputs import scenario_from
from workers.server.models import ScenarioName, ScenarioText, Seed

FactionId = Annotated[str, Meta(min_length=1, max_length=200)]
PolicyName = Annotated[str, Meta(min_length=1, max_length=100)]


class AdviseRequest(Struct, forbid_unknown_fields=True):
    """``faction``: ``kind:id`` (kingdom, guild, nation, convoy) or a bare id naming one faction;
    ``state``: a state file as TOML text, or ``scenario``: a built-in scenario name (exactly one);
    ``policy``: a registered policy (default heuristic); ``seed``: the policy's seed (default the
    state's ``scenario.seed``); ``lang``: the reasons' language (default: the state's ``scenario.lang``); ``explain``: every alternative."""

    faction: FactionId
    state: ScenarioText | None = None
    scenario: ScenarioName | None = None
    policy: PolicyName = "heuristic"
    seed: Seed | None = None
    lang: Literal["en", "fr"] | None = None
    explain: bool = False


@post("/", status_code=200, sync_to_thread=True, dependencies={"payload": json_body(AdviseRequest)},
      summary="The orders a faction would give now in a state (TOML text or a built-in name), each with its scored "
              "alternatives, the exact odds of its checks and reasons in words")
def advise_handler(payload: AdviseRequest) -> Advice:
    data = payload
    if (data.state is None) == (data.scenario is None):
        raise bad_value("state", "a state file as TOML text in \"state\" or a built-in scenario name in \"scenario\" "
                                 "(exactly one)", "both" if data.state is not None else "neither")
    loaded = scenario_from(data.scenario, data.state)
    try:
        return advise(loaded, data.faction, policy=data.policy, seed=data.seed, lang=data.lang, explain=data.explain)
    except AdviceError as e:
        raise ApiError(422, "invalid", str(e), e.problems, file=e.file) from None


router = Router("/v1/advise", route_handlers=[advise_handler], tags=["advice"])
