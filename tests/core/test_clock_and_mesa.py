"""One clock (issue 11 item 6) and RealmModel as a Mesa model (item 7): ``env.now``, ``world.now``,
``ledger.now`` and ``model.time`` are one number; ``RealmModel(campaign=..., seed=...)`` steps a
season at a time; ``mesa.batch_run`` gives the summaries ``realmsim batch`` gives."""

from __future__ import annotations

from typing import Any

import mesa
import pytest
import simpy

from agents.campaign import run_campaign
from agents.clock import WorldEnvironment
from agents.kingdom import KingdomAgent
from agents.model import RealmModel, RealmScenario
from sim.calendar import HOURS_PER_SEASON
from sim.events import Ledger
from workers.batch import scenario_ref
from workers.job import make_job, run_job_dict


def _clocks(m: RealmModel) -> tuple[Any, ...]:
    return (int(m.env.now), m.world.now, m.ledger.now, int(m.time))


def test_the_four_clocks_are_one_at_every_event_of_a_campaign() -> None:
    m = RealmModel(campaign="caravan-crossing", seed=2, collect=False)
    seen: list[tuple[Any, ...]] = []
    m.ledger.subscribe(lambda ev: seen.append((ev.t, *_clocks(m))))
    while m.running:
        m.step()
    assert len(seen) > 500
    assert all(len(set(row)) == 1 for row in seen), next(r for r in seen if len(set(r)) != 1)
    assert _clocks(m) == (1440, 1440, 1440, 1440)


def test_the_clocks_cannot_be_set_apart() -> None:
    m = RealmModel(campaign="caravan-crossing", seed=2, collect=False)
    m.step()
    with pytest.raises(ValueError, match="follows its campaign's clock"):
        m.ledger.now = m.world.now + 5
    with pytest.raises(AttributeError, match="SimPy clock"):
        m.time = 7.0
    assert len(set(_clocks(m))) == 1  # the world follows the clock: each wake-up moves it first
    free = Ledger()  # a ledger outside a campaign (rules tests) keeps its own hour
    free.now = 30
    assert free.emit("cv", "X", "world", ()).t == 30


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_step_runs_one_season_and_running_turns_false_at_the_end() -> None:
    m = RealmModel(campaign="guild-war", seed=4)
    ends = []
    while m.running:
        m.step()
        ends.append(m.world.now)
    assert ends[:2] == [HOURS_PER_SEASON, 2 * HOURS_PER_SEASON]
    assert ends[-1] == m.world.end and m.steps == len(ends)
    assert m.ended and m.ledger.events[-1].kind == "CampaignEnded"
    ref = run_campaign("guild-war", 4, collect=False)
    assert m.ledger.sha256() == ref.ledger_sha256  # stepping changes nothing in the game record
    m.step()  # a finished model does not move
    assert m.world.now == m.world.end


def test_keyword_constructor_takes_overrides_as_keywords() -> None:
    m = RealmModel(campaign="caravan-crossing", seed=5, collect=False, **{"cv.fatigued_penalty": 3})
    ref = run_campaign("caravan-crossing", 5, overrides={"cv.fatigued_penalty": 3}, until=0)
    assert m.world.config == ref.world.config and m.world.seed == 5
    assert m.ledger.events[0].data["overrides"] == {"cv.fatigued_penalty": 3}


@pytest.mark.slow
def test_the_datacollector_has_a_row_a_season_and_each_faction_kind() -> None:
    m = RealmModel(campaign="realm", seed=3)
    for _ in range(2):
        m.step()
    df = m.datacollector.get_model_vars_dataframe()
    assert list(df["hours"]) == [0, HOURS_PER_SEASON]  # one row per season boundary reached
    kingdoms = m.datacollector.get_agenttype_vars_dataframe(KingdomAgent)
    assert {"key", "treasury", "unrest"} <= set(kingdoms.columns)
    assert kingdoms["key"].str.startswith("kingdom:").all() and len(kingdoms) == 2 * 4
    first = m.ledger.of_kind("SeasonSummarized")[1].data["factions"]  # the season-1 snapshot
    row = kingdoms.loc[float(HOURS_PER_SEASON)]
    assert {r["key"]: r["treasury"] for _, r in row.iterrows()} == {k: v["treasury"] for k, v in first.items()
                                                                   if k.startswith("kingdom:")}


@pytest.mark.slow
def test_mesa_batch_run_gives_the_tables_of_realmsim_batch(tmp_path: Any) -> None:
    """mesa.batch_run's rows carry the summary metrics of the batch's metrics table and the campaign
    table's headline columns, seed by seed (the tidy tables of workers/tidy.py)."""
    import pyarrow.parquet as pq

    from workers.output import write_results

    seeds = [1, 2, 3]
    rows = mesa.batch_run(RealmModel, parameters={"campaign": "caravan-crossing", "seed": seeds},
                          number_processes=1, display_progress=False)
    ref, _ = scenario_ref("caravan-crossing")
    write_results(tmp_path / "b.parquet", [run_job_dict(make_job(ref, seed)) for seed in seeds])
    campaigns = pq.read_table(tmp_path / "b.parquet").to_pylist()
    metrics = pq.read_table(tmp_path / "b.metrics.parquet").to_pylist()
    factions = pq.read_table(tmp_path / "b.factions.parquet").to_pylist()
    for camp in campaigns:
        mine = [r for r in rows if r["seed"] == camp["seed"]]
        assert mine, f"no row for seed {camp['seed']}"
        want = {m["metric"]: m["value"] for m in metrics if m["campaign"] == camp["campaign"]}
        assert len(want) > 15 and {k: float(mine[0][k]) for k in want} == want
        headline = {k: v for k, v in camp.items() if k.startswith("cv.")}
        assert headline and {k: mine[0][k] for k in headline} == headline
        assert {r["key"] for r in mine} >= {f["faction"] for f in factions if f["campaign"] == camp["campaign"]}


def test_mesa_and_simpy_are_used_as_their_authors_mean_them() -> None:
    """Mesa's scenario holds the campaign's parameters; the drivers and policies keep what they need in
    ``model.caches``, never in attributes added to the model; one data collector; the SimPy clock is
    subclassed without overriding anything of SimPy's (issue 28 item 5)."""
    m = RealmModel(campaign="caravan-crossing", seed=2, **{"cv.fatigued_penalty": 3})
    assert isinstance(m.scenario, RealmScenario)
    assert (m.scenario.campaign, m.scenario.overrides, m.scenario.rng) == ("caravan-crossing", {"cv.fatigued_penalty": 3}, 2)
    attributes = set(vars(m))
    m.step()
    assert set(vars(m)) == attributes, set(vars(m)) ^ attributes  # nothing monkeypatched onto the model
    assert "cv.routes" in m.caches and "cv.days" in m.caches
    assert [v for v in vars(m).values() if isinstance(v, mesa.DataCollector)] == [m.datacollector]
    assert len(m.frames()["cv.model"]) == 60 and not m.frames()["cv.agents"].empty
    overridden = {n for n in vars(WorldEnvironment) if n in dir(simpy.Environment) and n not in ("__init__", "__doc__", "__module__")}
    assert overridden == set()
    mesa_way = RealmModel(scenario=RealmScenario(rng=2, campaign="caravan-crossing", overrides={"cv.fatigued_penalty": 3}))
    mesa_way.step()
    assert mesa_way.ledger.sha256() == m.ledger.sha256()


def test_a_model_needs_one_campaign() -> None:
    with pytest.raises(TypeError, match="RealmModel needs a campaign"):
        RealmModel()
    with pytest.raises(TypeError, match="takes a RealmScenario and no campaign"):
        RealmModel("guild-war", scenario=RealmScenario(rng=1, campaign="realm"))
