"""Every summary metric defined once (workers/metrics.py, docs/metrics.md) and recounted from the ledger
of small campaigns, independently of the system driver that computes it (issue 25 item 3).

The recounts are in :mod:`tests.workers.ledger_recount`: they read events (and the scenario file for
what a campaign starts with), never the world, the rules, or the summary that ``CampaignEnded``
carries. A metric is checked on every campaign below whose summary reports it; each metric is checked
on at least one campaign where it is not 0 (a 0 = 0 check alone proves little), which is why some
campaigns play with random policies or an outside policy: the heuristic ones never host, declare a
war by threat, found a colony or give an order the rules refuse."""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from agents.campaign import run_campaign
from scenarios.loader import load_scenario_text, read_source
from sim.calendar import HOURS_PER_DAY
from tests.workers.ledger_recount import GW_PER_GUILD, RECOUNT, Ledger, NotEnded, journeys
from workers.metrics import METRICS, definition
from workers.report.names import SUMMARY

ROOT = Path(__file__).resolve().parents[2]


def _builtin(name: str, seed: int, until: int | None = None) -> Callable[[], tuple[str, int, int | None]]:
    def make() -> tuple[str, int, int | None]:
        return read_source(name)[1], seed, until
    return make


def _random(name: str, seed: int, **subs: str) -> Callable[[], tuple[str, int, int | None]]:
    """A built-in scenario whose factions that name a policy play the random one (and other substitutions
    of its text: every one must apply)."""
    def make() -> tuple[str, int, int | None]:
        text = re.sub(r'^policy = "\w+"', 'policy = "random"', read_source(name)[1], flags=re.M)
        for a, b in subs.items():
            assert a in text, a
            text = text.replace(a, b)
        return text, seed, None
    return make


def _wrong_way() -> tuple[str, int, int | None]:
    """tests/km/test_scenario.py's six-month kingdom campaign whose kingdom ``a`` always orders its
    explorers out from a hex it may not (RES-KM-12): six orders refused."""
    from tests.km.test_scenario import text

    return text().replace('name = "Alphania"', 'name = "Alphania"\npolicy = "tests.km.test_scenario:WrongWayExplorer"'), 1, None


CAMPAIGNS: dict[str, Callable[[], tuple[str, int, int | None]]] = {
    "caravan-crossing 1": _builtin("caravan-crossing", 1),
    "caravan-crossing 1, its first 5 days": _builtin("caravan-crossing", 1, 5 * HOURS_PER_DAY),  # convoys on the road
    "guild-war 1": _builtin("guild-war", 1),
    "guild-war 7, random guilds": _random("guild-war", 7),  # a title not returned: the bank keeps it
    "mare-nostrum 1": _builtin("mare-nostrum", 1),
    "mare-nostrum 2, random nations": _random("mare-nostrum", 2, **{  # hosts' choices, a pact broken in peace
        "[[nations]]\n": '[[nations]]\npolicy = "random"\n'}),
    "stolen-lands 1": _builtin("stolen-lands", 1),
    "stolen-lands 1, random kingdoms, 2 years": _random("stolen-lands", 1, **{
        "duration = { years = 10 }": "duration = { years = 2 }"}),  # colonies, wars declared by threat
    "km-mini, an explorer sent the wrong way": _wrong_way,
    "realm 1": _builtin("realm", 1),
}


@cache
def campaign(label: str) -> tuple[Ledger, dict[str, Any]]:
    text, seed, until = CAMPAIGNS[label]()
    old = os.environ.get("REALMSIM_ALLOW_POLICIES")
    os.environ["REALMSIM_ALLOW_POLICIES"] = "tests.km.*"  # the wrong-way explorer is an outside policy (issue 9)
    try:
        res = run_campaign(load_scenario_text(text, f"{label}.toml"), seed, collect=False, until=until)
    finally:
        if old is None:
            del os.environ["REALMSIM_ALLOW_POLICIES"]
        else:
            os.environ["REALMSIM_ALLOW_POLICIES"] = old
    return Ledger.of(res.ledger.events, text), dict(res.summary)


def _checked(metric: str) -> list[tuple[str, Any, Any]]:
    """(campaign, summary value, recount) of every campaign that reports ``metric`` (every guild's for a
    per-guild metric) and whose ledger says enough to recount it."""
    out = []
    per_guild = GW_PER_GUILD.get(metric)
    for label in CAMPAIGNS:
        lg, summary = campaign(label)
        try:
            if per_guild is not None:
                prefix = metric[:-1]
                got = per_guild(lg) if any(k.startswith(prefix) for k in summary) else {}
                out += [(f"{label}, {k}", v, got.get(k[len(prefix):])) for k, v in summary.items() if k.startswith(prefix)]
            elif metric in summary:
                out.append((label, summary[metric], RECOUNT[metric](lg)))
        except NotEnded:
            continue  # a campaign stopped before its end has no faction record to read end values from
    return out


def test_every_metric_has_its_recount() -> None:
    """A metric added to workers/metrics.py without a recount from the ledger fails here."""
    recounted = set(RECOUNT) | set(GW_PER_GUILD)
    assert sorted(set(METRICS) - recounted) == [], "metrics with no recount in tests/workers/ledger_recount.py"
    assert sorted(recounted - set(METRICS)) == [], "recounts of metrics workers/metrics.py does not define"


@pytest.mark.slow
@pytest.mark.parametrize("metric", sorted(METRICS))
def test_a_summary_metric_is_what_the_ledger_says(metric: str) -> None:
    checked = _checked(metric)
    assert checked, f"{metric}: no campaign of CAMPAIGNS reports it"
    wrong = [(label, value, got) for label, value, got in checked if got != pytest.approx(value)]
    assert wrong == [], f"{metric}: (campaign, summary, recount from the ledger)"


@pytest.mark.slow
def test_every_metric_is_checked_where_it_is_not_zero() -> None:
    never = [m for m in METRICS if not any(value for _, value, _ in _checked(m))]
    assert never == [], "metrics whose every check is 0 = 0: add a campaign to CAMPAIGNS where they happen"


# ---- the five metrics whose first recounts disagreed with them (the recounts were wrong) ----------------
@pytest.mark.slow
@pytest.mark.rule("CV-REST-04", "RES-CV-10")
def test_starvation_damage_is_the_hp_lost_not_the_dice_rolled() -> None:
    """HP never go below 0 (RES-CV-10): the 1d6 that destroys a starving convoy counts only the HP it had
    left. caravan-crossing seed 1: two convoys starve to death, the dice show 194, 192 HP were lost."""
    lg, summary = campaign("caravan-crossing 1")
    hits = lg.kind("StarvationDamageTaken")
    rolled = sum(int(e.total or 0) for e in hits)
    lost = sum(e.data["before"] - e.data["after"] for e in hits)
    assert any(int(e.total or 0) > e.data["before"] for e in hits)  # a roll larger than the HP left
    assert lost < rolled
    assert summary["cv.starvation_damage"] == lost


@pytest.mark.slow
@pytest.mark.rule("MN-HOST-01", "RES-MN-04", "MN-OUT-04", "MN-OUT-05")
def test_a_host_choice_is_not_a_disaster_or_a_blunder() -> None:
    """``mn.host_execute``/``mn.host_imprison`` count what a host chose for a mission reaching one of its
    cities (``HostChose``); an ambassador executed in a disaster (MN-OUT-05) or imprisoned after a blunder
    (MN-OUT-04) was no host's choice. realm seed 1: 32 ambassadors imprisoned, 11 of them by a host."""
    lg, summary = campaign("realm 1")
    jailed = lg.kind("AmbassadorImprisoned")
    by_host = [e for e in jailed if "MN-HOST-01" in e.clauses]
    assert len(by_host) < len(jailed) and lg.kind("AmbassadorExecuted")
    assert summary["mn.host_imprison"] == len(by_host) == sum(e.outcome == "imprison" for e in lg.kind("HostChose"))
    assert summary["mn.host_execute"] == sum(e.outcome == "execute" for e in lg.kind("HostChose"))


@pytest.mark.slow
@pytest.mark.rule("MN-TRE-08", "RES-MN-17", "MN-EMB-01")
def test_a_pact_broken_is_a_treaty_broken_and_not_a_treaty_ended() -> None:
    """A pact broken when its ally goes to war (MN-TRE-08) ends with ``PactBroken``, not ``TreatyBroken``
    (an alliance or a commercial agreement, RES-MN-17): it is one of ``mn.treaties_broken``;
    ``mn.treaties_ended`` counts only the treaties that ended otherwise (an embassy closed, MN-EMB-01)."""
    lg, summary = campaign("mare-nostrum 1")
    ends = lg.kind("TreatyEnded")
    assert lg.kind("PactBroken") and not lg.kind("TreatyBroken")
    broken = [e for e in ends if e.outcome == "broken"]
    assert summary["mn.treaties_broken"] == len(broken) == len(lg.kind("PactBroken"))
    assert summary["mn.treaties_ended"] == len(ends) - len(broken) - summary["mn.treaties_expired"]
    assert summary["mn.treaties_ended"] < len(ends)


@pytest.mark.slow
def test_mean_days_to_arrive_is_days_on_the_road_not_the_day_of_arrival() -> None:
    """cv.mean_days_to_arrive was the mean campaign day of arrival (1,987.8 days in realm): it grew with
    the campaign. It is the days each convoy that arrived spent on the road (realm seed 1: 149 convoys
    arrived over ten years, each within a few weeks of setting out)."""
    lg, summary = campaign("realm 1")
    arrived = [j for j in journeys(lg).values() if j.status == "arrived"]
    arrival_day = sum(j.end / HOURS_PER_DAY for j in arrived) / len(arrived)
    calendar = [j.end // HOURS_PER_DAY - j.set_out // HOURS_PER_DAY + 1 for j in arrived]
    assert arrival_day > 1000
    assert 1 <= summary["cv.mean_days_to_arrive"] <= sum(calendar) / len(calendar)  # days on the road


def test_every_summary_metric_has_a_definition_a_name_and_a_unit_word() -> None:
    for key in METRICS:
        assert key in SUMMARY, f"{key}: no readable name in workers/report/names.py"
    for key in SUMMARY:
        if key not in ("hours", "events"):
            assert definition(key) is not None, f"{key}: not defined in workers/metrics.py"


@pytest.mark.slow
def test_every_metric_a_campaign_reports_is_defined() -> None:
    missing = {label: [k for k in campaign(label)[1] if k != "hours" and definition(k) is None] for label in CAMPAIGNS}
    assert {k: v for k, v in missing.items() if v} == {}


def test_the_metrics_page_is_written_from_the_table() -> None:
    spec = importlib.util.spec_from_file_location("metrics_doc", ROOT / "tools" / "metrics_doc.py")
    assert spec is not None and spec.loader is not None
    doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(doc)
    page = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")
    assert page == doc.page(), "docs/metrics.md is out of date: run python tools/metrics_doc.py"
    for key, m in METRICS.items():
        assert f"| `{key}` |" in page and m.counts in page


def test_a_recount_reads_events_not_the_summary_they_end_with() -> None:
    """The recounts may not read the summary the ledger ends with (it is what they check)."""
    src = (ROOT / "tests" / "workers" / "ledger_recount.py").read_text(encoding="utf-8")
    assert '"summary"' not in src and "'summary'" not in src
    assert not re.search(r"^\s*(from|import) (agents|sim\.rules|workers)\b", src, flags=re.M)

