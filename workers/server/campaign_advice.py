"""``POST /v1/campaigns/{id}/advise``: advice at a season of a campaign, for the game master's table.

The campaign process keeps the world at every season boundary it stands at (a *checkpoint*,
:mod:`workers.server.campaign_child`). Advice at season N takes that world, writes it as a state file
(:func:`workers.state_export.export_world`, docs/state-format.md; the campaign's rules overrides in its
``[config]``), and asks :func:`workers.advise.advise` what the faction would do, in the page's language.
The answer is the advice of ``POST /v1/advise`` plus the same orders as a game master gives them to a
fork (``orders``: the English question and the ledger's label of each order, for
``POST /v1/campaigns/{id}/fork``'s ``orders``).

Advice stands at a season's start because a state file does (``state export`` writes a world at a
season boundary); a fork may start at any day (the game master's orders are then given at the
advice's hour, which comes at or after the season's start).
"""

from __future__ import annotations

import tomllib
from typing import Any

from litestar import Request, Router, post
from msgspec import Struct

from sim.calendar import HOURS_PER_SEASON, date_of
from sim.errors import Problem, ScenarioError
from workers.advise import DECISION_FR, Advice, AdviceError, advise
from workers.server.bodies import json_body
from workers.server.campaigns_api import record
from workers.server.errors import ApiError, bad_value
from workers.server.models import CampaignAdviceRequest, GivenOrder
from workers.server.services import svc

ENGLISH_DECISION = {fr: en for en, fr in DECISION_FR.items()}


class CampaignAdvice(Struct):
    """``advice`` as ``POST /v1/advise`` answers it; ``season``/``hour``/``date``: the moment of the state
    advised from; ``orders``: the advised orders as ``POST …/fork`` takes them (with ``orders_hour``:
    ``advice.hour``)."""

    advice: Advice
    season: int
    hour: int
    date: str
    orders: list[GivenOrder]


def overrides_at(recipe: dict[str, Any], hour: int) -> dict[str, Any]:
    """The rules overrides in force at ``hour`` of a campaign: its own, then its fork stages' up to then."""
    out = dict(recipe.get("overrides") or {})
    for st in sorted(recipe.get("stages") or [], key=lambda st: st["hour"]):
        if st["hour"] <= hour:
            out.update(st.get("overrides") or {})
    return out


def state_text(recipe: dict[str, Any], world_bytes: bytes, seed: int) -> str:
    """The state file of a campaign's checkpoint, with the overrides in force then in its ``[config]``."""
    from sim.world import decode_world
    from workers.server.campaign_child import load
    from workers.state_export import export_world, readable_toml

    loaded = load(recipe["scenario"])
    world = decode_world(world_bytes)
    text = export_world(world, loaded, seed=seed)
    overrides = overrides_at(recipe, world.now)
    if not overrides:
        return text
    head = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))
    raw = tomllib.loads(text)
    for key, value in sorted(overrides.items()):
        system, _, name = key.partition(".")
        raw.setdefault("config", {}).setdefault(system, {})[name] = value
    head += f"# The campaign's rules overrides: {', '.join(f'{k} = {v!r}' for k, v in sorted(overrides.items()))}\n"
    return head + readable_toml(raw)


def given_orders(a: Advice) -> list[GivenOrder]:
    """The advice's orders as a game master gives them to a fork: the question in English, the label."""
    return [GivenOrder(decision=ENGLISH_DECISION.get(o.decision, o.decision) if a.lang == "fr" else o.decision,
                       order=str(o.order)) for o in a.orders]


@post("/{campaign_id:str}/advise", status_code=200, dependencies={"payload": json_body(CampaignAdviceRequest)},
      summary="The orders a faction would give at the start of a season of this campaign (advice on its world "
              "then), with the same orders as a fork takes them")
async def advise_campaign(request: Request[Any, Any, Any], campaign_id: str, payload: CampaignAdviceRequest) -> CampaignAdvice:
    data = payload
    s = svc(request)
    rec = await record(s, campaign_id, request)
    end = rec["end_hour"] or 0
    seasons = -(-end // HOURS_PER_SEASON)
    if not 0 <= data.season < max(1, seasons):
        raise bad_value("season", f"a season of the campaign, 0..{max(0, seasons - 1)}", str(data.season))
    hour = data.season * HOURS_PER_SEASON
    world_bytes = await s.store.call(s.store.checkpoint, campaign_id, hour)
    if world_bytes is None:
        reached = (rec["hour"] or 0) // HOURS_PER_SEASON
        raise ApiError(409, "not_yet", f"campaign {campaign_id} has no world at the start of season {data.season} "
                       f"(it stands at season {reached}, {rec['status']}): advice comes from a season it has reached",
                       [Problem("season", f"a season the campaign has reached (0..{reached})", str(data.season))])
    recipe = await s.store.call(s.store.recipe, campaign_id)
    assert recipe is not None

    def work() -> CampaignAdvice:
        from scenarios.loader import load_scenario_text

        label = f"campaign {campaign_id} at season {data.season}"
        try:
            text = state_text(recipe, world_bytes, int(rec["seed"]))
            state = load_scenario_text(text, label)
        except ScenarioError as e:  # the exporter could not write this world as a state file
            raise ApiError(422, "scenario", str(e), e.problems, file=e.file) from None
        try:
            a = advise(state, data.faction, policy=data.policy, lang=data.lang or rec["lang"], explain=data.explain)
        except AdviceError as e:
            raise ApiError(422, "invalid", str(e), e.problems, file=e.file) from None
        return CampaignAdvice(advice=a, season=data.season, hour=hour, date=date_of(hour).format(a.lang),
                              orders=given_orders(a))

    return await s.store.call(work)


# its own router under /v1/campaigns (it looks campaigns up through campaigns_api, which does not import it)
router = Router("/v1/campaigns", tags=["campaigns"], route_handlers=[advise_campaign])
