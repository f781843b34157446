"""``/v1/scenarios``: the built-in scenarios, and validating a scenario as ``realmsim validate`` does."""

from __future__ import annotations

from functools import lru_cache

from litestar import Router, get, post

from scenarios.loader import LoadedScenario, builtin_names, load_scenario
from sim.calendar import HOURS_PER_SEASON
from sim.errors import ScenarioError
from workers.server.bodies import json_body
from workers.server.errors import ApiError
from workers.server.inputs import TEXT_LABEL, scenario_from
from workers.server.models import Problem, ScenarioInfo, ValidateRequest, ValidateResult


def info(loaded: LoadedScenario) -> ScenarioInfo:
    from scenarios.build import build_world
    from workers.server.mapview import factions

    sc = loaded.scenario
    world = build_world(sc, sc.scenario.seed, label=loaded.label)

    return ScenarioInfo(name=sc.scenario.name, title=sc.scenario.title, systems=list(sc.scenario.systems),
                        seasons=-(-world.end // HOURS_PER_SEASON), factions=[f["key"] for f in factions(world)])


@lru_cache(maxsize=32)
def builtin_info(name: str) -> ScenarioInfo:
    return info(load_scenario(name))


@get("/", summary="The built-in scenarios", sync_to_thread=True)
def list_scenarios() -> list[ScenarioInfo]:
    return [builtin_info(n) for n in builtin_names()]


@post("/validate", status_code=200, sync_to_thread=True, dependencies={"payload": json_body(ValidateRequest)},
      summary="Every problem of a scenario (a built-in name or TOML text), as realmsim validate reports them")
def validate(payload: ValidateRequest) -> ValidateResult:
    data = payload
    try:
        loaded = scenario_from(data.scenario, data.text)
    except ApiError as e:
        if e.error != "scenario":
            raise
        return ValidateResult(valid=False, file=e.file or TEXT_LABEL,
                              problems=[Problem(p.path, p.expected, p.found) for p in e.problems])
    try:
        sc_info = builtin_info(data.scenario) if data.scenario else info(loaded)
    except ScenarioError as e:  # a problem only building the world shows (rare)
        return ValidateResult(valid=False, file=e.file, problems=[Problem(p.path, p.expected, p.found) for p in e.problems])
    return ValidateResult(valid=True, file=loaded.label, problems=[], scenario=sc_info)


router = Router("/v1/scenarios", route_handlers=[list_scenarios, validate], tags=["scenarios"])
