"""The research bench's parts on data written by hand (docs/research.md): the job tallies, the
statistics, the findings detectors, the sweep grid and the tournament's rotations and ratings."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest

from sim.events import Event
from workers.batch import UsageError
from workers.findings import findings, replay_command
from workers.output import write_results
from workers.signals import Signals, order_kind
from workers.stats import benjamini_hochberg, mean_ci, paired
from workers.sweep import cells, parse_grid, sweep_analysis
from workers.tournament import parse_policies, plan_tournament, ratings, win_matrix, win_share


# ---- the job's tallies ---------------------------------------------------------------------------
@pytest.mark.parametrize(("label", "kind"), [
    ("recruit units=siege_engine:1", "recruit"),
    ("travel by night, forage, buy stores:4", "travel by night"),
    ("trade food Mivon → Restov (restov), 5 BP", "trade food"),
    ("safe route (23 hexes, 13.2 days, risk 19.5)", "safe route"),
    ("112", "#"),
    ("nothing", "nothing"),
])
def test_order_kind(label: str, kind: str) -> None:
    assert order_kind(label) == kind


def ev(seq: int, t: int, kind: str, actor: str, outcome: str = "", clauses: tuple[str, ...] = (), **data: object) -> Event:
    return Event(seq, t, "km", kind, actor, clauses, outcome=outcome, data=dict(data))


def test_signals_tally_anarchy_money_idle_and_decisions() -> None:
    s = Signals()
    events = [
        ev(0, 0, "SeasonSummarized", "world", factions={"kingdom:a": {"treasury": 1}}),
        ev(1, 100, "AnarchyBegan", "kingdom:a"),
        ev(2, 500, "HexClaimed", "kingdom:a"),
        ev(3, 600, "DecisionMade", "kingdom:a", "build farm (3,4)", ("Q-1",), policy="heuristic", legal=3),
        ev(4, 600, "DecisionMade", "kingdom:a", "nothing", ("Q-1",), policy="heuristic", legal=1),  # no choice
        ev(5, 610, "DecisionMade", "kingdom:a", "112", ("Q-1",), policy="heuristic", legal=5),
        ev(6, 820, "AnarchyEnded", "kingdom:a"),
        ev(7, 1000, "AnarchyBegan", "kingdom:a"),
        ev(8, 2000, "SeasonSummarized", "world", factions={"kingdom:a": {"treasury": 2}}),
        ev(9, 4000, "SeasonSummarized", "world", factions={"kingdom:a": {"treasury": 3}}),
        ev(10, 6000, "SeasonSummarized", "world", factions={"kingdom:a": {"treasury": 2}}),
        ev(11, 8000, "SeasonSummarized", "world", factions={"kingdom:a": {"treasury": 3}}),
        ev(12, 10000, "CampaignEnded", "world", factions={"kingdom:a": {"treasury": 4}}),
    ]
    for e in events:
        s(e)
    r = s.result()
    assert r["decisions"] == {"kingdom/heuristic": {"Q-1": {"#": 1, "build farm": 1}}}
    # acts: 500 only; from its first event (100) to the end (10000): 9500 h = 13.19 months
    # anarchy: 100..820 (720 h) and 1000..end (9000 h, never ended)
    assert r["signals"] == {"kingdom:a": {"idle_months": 13.19, "anarchy_months": 13.5, "anarchy_stuck_months": 12.5,
                                          "money_rise_seasons": 2, "buildings": 0, "buildings_month_max": 0}}
    assert r["series"] == {"hour": [0, 2000, 4000, 6000, 8000, 10000], "faction": ["kingdom:a"] * 6,
                           "treasury": [1, 2, 3, 2, 3, 4]}
    assert r["invariants"] == {"count": 0, "first": ""}


def test_a_result_becomes_tidy_rows_not_columns(tmp_path: Path) -> None:
    result = {"seed": 3, "scenario": "s", "ledger_sha256": "x", "events": 1, "summary": {"hours": 8640, "cv.arrived": 1},
              "overrides": {"cv.fatigued_penalty": 4},
              "factions": {"guild:g": {"kind": "guild", "policy": "heuristic", "score": 5.0, "unit": "solars",
                                       "metrics": {"solars": 7}}},
              "decisions": {"guild/heuristic": {"SC-GW-09": {"recruit": 7}}},
              "signals": {"guild:g": {"idle_months": 2.5, "money_rise_seasons": 1}},
              "invariants": {"count": 0, "first": ""}}
    write_results(tmp_path / "r.parquet", [result])
    camp = pq.read_table(tmp_path / "r.parquet").to_pylist()
    assert camp == [{"campaign": 0, "set[cv.fatigued_penalty]": 4, "seed": 3, "scenario": "s", "ledger_sha256": "x",
                     "events": 1, "hours": 8640, "invariants": 0, "invariant_first": "", "cv.arrived": 1}]
    assert pq.read_table(tmp_path / "r.factions.parquet").to_pylist() == [
        {"campaign": 0, "seed": 3, "faction": "guild:g", "kind": "guild", "policy": "heuristic", "score": 5.0,
         "unit": "solars", "idle_months": 2.5, "money_rise_seasons": 1, "solars": 7}]
    assert pq.read_table(tmp_path / "r.decisions.parquet").to_pylist() == [
        {"campaign": 0, "seed": 3, "who": "guild/heuristic", "question": "SC-GW-09", "order": "recruit", "count": 7}]
    assert pq.read_table(tmp_path / "r.metrics.parquet").to_pylist() == [
        {"campaign": 0, "seed": 3, "metric": "cv.arrived", "value": 1.0}]


# ---- statistics ----------------------------------------------------------------------------------
@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_paired_difference_interval_and_effect_size() -> None:
    # differences 1, 2, 3: mean 2, sd 1, t(0.975, 2) = 4.302653 → half-width 4.302653 / √3 = 2.484138
    p = paired([0, 0, 0], [1, 2, 3])
    assert (p.n, p.mean, p.d) == (3, 2.0, 2.0)
    assert p.lo == pytest.approx(-0.484138, abs=1e-5) and p.hi == pytest.approx(4.484138, abs=1e-5)
    assert not p.significant
    # differences 1, 2, 1, 2: mean 1.5, sd 0.57735, t(0.975, 3) = 3.182446 → half-width 0.918693
    q = paired([0, 0, 0, 0], [1, 2, 1, 2])
    assert q.lo == pytest.approx(0.581307, abs=1e-5) and q.d == pytest.approx(2.598076, abs=1e-5)
    assert q.significant
    z = paired([5, 6], [5, 6])
    assert (z.mean, z.lo, z.hi, z.d, z.significant) == (0.0, 0.0, 0.0, 0.0, False)


def test_mean_ci() -> None:
    c = mean_ci([2, 4, 6])  # mean 4, sd 2, half-width 4.302653 × 2 / √3 = 4.968275
    assert c.mean == 4 and c.lo == pytest.approx(-0.968275, abs=1e-5) and c.hi == pytest.approx(8.968275, abs=1e-5)
    assert math.isnan(mean_ci([1]).lo)


# ---- findings ------------------------------------------------------------------------------------
def _result(seed: int, **kw: Any) -> dict[str, Any]:
    return {"seed": seed, "scenario": "demo", "ledger_sha256": "", "events": 1, "summary": {"hours": 40 * 2160},
            **kw}


def hand_results() -> list[dict[str, Any]]:
    """Four campaigns of 40 seasons (the last half: 20 snapshots)."""
    stuck, rise, idle_a, idle_b = [0, 24, 0, 12], [25, 19, 20, 3], [1.0, 2.0, 3.0, 4.0], [0.5, 0.1, 0.2, 0.1]
    inv = [(0, ""), (0, ""), (2, "hour 720: km: treasury is not a number"), (0, "")]
    build, nothing = [10, 10, 10, 1], [0, 0, 1, 0]
    out = []
    for i, seed in enumerate([1, 2, 3, 4]):
        out.append(_result(
            seed,
            factions={"kingdom:a": {"kind": "kingdom", "policy": "heuristic", "score": 1.0, "metrics": {}},
                      "convoy:b": {"kind": "convoy", "policy": "random", "score": 1.0, "metrics": {}}},
            signals={"kingdom:a": {"anarchy_stuck_months": stuck[i], "money_rise_seasons": rise[i],
                                   "idle_months": idle_a[i]}, "convoy:b": {"idle_months": idle_b[i]}},
            invariants={"count": inv[i][0], "first": inv[i][1]},
            decisions={"kingdom/heuristic": {"Q1": {"build": build[i], "nothing": nothing[i]}, "Q2": {"#": 5}},
                       "kingdom/random": {"Q1": {"build": 5, "nothing": 5}}}))
    return out


def hand_table(tmp_path: Path) -> Path:
    write_results(tmp_path / "h.parquet", hand_results())
    return tmp_path / "h.parquet"


def test_findings_on_a_hand_made_table(tmp_path: Path) -> None:
    f = findings(hand_table(tmp_path))
    got = sorted((x.kind, x.subject, x.seeds, x.count, x.total, x.replay) for x in f.items)
    assert got == sorted([
        ("invariant", "invariants", [3], 1, 4, "realmsim run demo --seed 3"),
        ("anarchy", "kingdom:a (heuristic)", [2, 4], 2, 4, "realmsim run demo --seed 2"),
        ("hoarding", "kingdom:a (heuristic)", [1, 3], 2, 4, "realmsim run demo --seed 1"),
        ("idle", "convoy:b (random)", [1], 1, 4, "realmsim run demo --seed 1"),
        ("dominant", "kingdom/heuristic|Q1|build", [1, 2, 3, 4], 4, 4, "realmsim run demo --seed 1"),
    ])
    assert f.not_checked == ["runaway growth (no seasons table)"]
    inv = next(x for x in f.items if x.kind == "invariant")
    assert "hour 720: km: treasury is not a number" in inv.detail
    md = f.markdown()
    for head in ("### Invariant violations", "### Stuck in anarchy", "### Resources piling up", "### Idle for long stretches",
                 "### Dominant orders"):
        assert head in md
    assert "In 1 of 4 campaigns (25%)" in md
    assert f.as_json()["findings"][0]["replay"].startswith("realmsim run demo --seed ")


def test_findings_thresholds_are_parameters(tmp_path: Path) -> None:
    f = findings(hand_table(tmp_path), stuck_months=30, min_share=0.6, dominant_share=0.99)
    assert sorted(x.kind for x in f.items) == ["invariant"]


def test_findings_say_what_a_table_cannot_tell(tmp_path: Path) -> None:
    old = pd.DataFrame({"seed": [1, 2], "scenario": ["demo", "demo"], "policy[kingdom:a]": ["heuristic"] * 2})
    old.to_parquet(tmp_path / "old.parquet")
    f = findings(tmp_path / "old.parquet")
    assert f.items == []
    assert any(s.startswith("invariants") for s in f.not_checked)
    assert any(s.startswith("dominant orders") for s in f.not_checked)
    assert "Not checked:" in f.markdown()


def test_runaway_growth_names_the_rule_loop_and_the_share_of_seeds(tmp_path: Path) -> None:
    def series(economy: list[int]) -> dict[str, list[Any]]:
        n = len(economy)
        return {"hour": [i * 2160 for i in range(n)] * 2, "faction": ["kingdom:a"] * n + ["kingdom:b"] * n,
                "economy": economy + [10] * n}

    results = [_result(1, series=series([20, 40, 400]), factions={}, signals={}),  # ×20: runs away
               _result(2, series=series([20, 30, 150]), factions={}, signals={}),  # ×7.5: no
               _result(3, series=series([30, 200, 2000]), factions={}, signals={})]  # ×66: the worst
    write_results(tmp_path / "g.parquet", results)
    f = findings(tmp_path / "g.parquet")
    (r,) = [x for x in f.items if x.kind == "runaway"]
    assert (r.subject, r.seeds, r.count, r.total) == ("kingdom.economy", [1, 3], 2, 3)
    assert r.replay == "realmsim run demo --seed 3"
    assert "up to 2,000 (67×, kingdom:a)" in r.detail
    for clause in ("SC-KM-31", "SC-KM-18", "RES-KM-48", "SC-KM-28", "SC-KM-17"):
        assert clause in r.detail


def sweep_table() -> pd.DataFrame:
    return pd.DataFrame({
        "seed": [1, 2, 3, 4] * 2,
        "scenario": ["demo"] * 8,
        "set[x]": [1] * 4 + [2] * 4,
        "m1": [10, 11, 12, 13, 20, 20.5, 22, 23.5],  # differences 10, 9.5, 10, 10.5: d = 10 / 0.408 = 24.5
        "m2": [5, 6, 7, 8, 5, 7, 6, 8],  # differences 0, 1, -1, 0: d = 0
    })


def test_sweep_analysis_and_lopsided_finding(tmp_path: Path) -> None:
    a = sweep_analysis(sweep_table())
    m1 = a[(a["metric"] == "m1") & ~a["baseline"]].iloc[0]
    assert m1["cell"] == "x=2" and m1["diff"] == 10 and m1["significant"]
    assert m1["cohen_d"] == pytest.approx(10 / math.sqrt(1 / 6), rel=1e-9)
    m2 = a[(a["metric"] == "m2") & ~a["baseline"]].iloc[0]
    assert m2["diff"] == 0 and not m2["significant"] and m2["diff_lo"] < 0 < m2["diff_hi"]
    base = a[a["baseline"]]
    assert list(base["cell"]) == ["x=1", "x=1"] and list(base["mean"]) == [11.5, 6.5]
    results = [_result(s, summary={"hours": 1, "m1": m1v, "m2": m2v}, overrides={"x": x})
               for s, x, m1v, m2v in zip(*(sweep_table()[c] for c in ("seed", "set[x]", "m1", "m2")))]
    for r in results:
        r["seed"], r["overrides"]["x"] = int(r["seed"]), int(r["overrides"]["x"])
    write_results(tmp_path / "s.parquet", results)
    f = findings(tmp_path / "s.parquet")
    (lop,) = [x for x in f.items if x.kind == "lopsided"]
    assert lop.subject == "m1" and lop.seeds == [4, 1, 3, 2]
    assert lop.replay == "realmsim run demo --seed 4 --set x=2"


def test_benjamini_hochberg_by_hand() -> None:
    # p = 0.01, 0.04, 0.03, 0.2 (m = 4): sorted 0.01, 0.03, 0.04, 0.2 → ×4/1, ×4/2, ×4/3, ×4/4 = 0.04, 0.06,
    # 0.0533, 0.2; running minimum from the top: 0.2, 0.0533, 0.0533, 0.04
    adj = benjamini_hochberg([0.01, 0.04, 0.03, 0.2, math.nan])
    assert adj[:4] == pytest.approx([0.04, 0.053333, 0.053333, 0.2], abs=1e-6) and math.isnan(adj[4])


def test_a_sweep_of_many_null_cells_flags_no_row_by_chance() -> None:
    # 60 cells of pure noise (every cell the same distribution): uncorrected, about 5% of rows would be
    # flagged; after Benjamini–Hochberg none is (the seeds are fixed: the same draws every run)
    import numpy as np

    rng = np.random.default_rng(7)
    rows = [{"seed": s, "scenario": "demo", "set[k]": c, "m": float(rng.normal())} for c in range(61) for s in range(12)]
    a = sweep_analysis(pd.DataFrame(rows))
    other = a[~a["baseline"]]
    assert int((other["p"] < 0.05).sum()) >= 1  # the uncorrected test would flag some
    assert not other["significant"].any()


def test_replay_command_quotes_and_carries_set_values() -> None:
    row = pd.Series({"seed": 7, "scenario": "my campaign.toml", "set[cv.mode]": "fast", "set[k]": 3.0})
    assert replay_command(row) == "realmsim run 'my campaign.toml' --seed 7 --set cv.mode=fast --set k=3"


# ---- sweep grid ----------------------------------------------------------------------------------
def test_parse_grid_and_cells() -> None:
    grid = parse_grid(["cv.fatigued_penalty=2,4", "cv.mode=fast,slow"])
    assert grid == [("cv.fatigued_penalty", [2, 4]), ("cv.mode", ["fast", "slow"])]
    assert cells(grid) == [{"cv.fatigued_penalty": 2, "cv.mode": "fast"}, {"cv.fatigued_penalty": 2, "cv.mode": "slow"},
                           {"cv.fatigued_penalty": 4, "cv.mode": "fast"}, {"cv.fatigued_penalty": 4, "cv.mode": "slow"}]


@pytest.mark.parametrize(("items", "message"), [
    ([], "at least one --set"),
    (["cv.x"], "expected KEY=V1,V2"),
    (["cv.x=1,,2"], "an empty value"),
    (["cv.x=1,1"], "listed twice"),
    (["cv.x=1", "cv.x=2"], "set twice"),
])
def test_parse_grid_refuses(items: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_grid(items)


# ---- tournament ----------------------------------------------------------------------------------
def test_rotations_give_every_seat_every_policy() -> None:
    t = plan_tournament("caravan-crossing", ["heuristic", "random"], [1])
    assert list(t.seats) == ["convoy"] and len(t.seats["convoy"]) == 6 and len(t.texts) == 2
    for seat in t.seats["convoy"]:
        assert sorted(t.policy_of(r, "convoy", seat) for r in range(2)) == ["heuristic", "random"]
        assert all(t.rotation_of("convoy", seat, t.policy_of(r, "convoy", seat)) == r for r in range(2))
    assert 'policy = "random"' in t.texts[0][1] and 'policy = "heuristic"' in t.texts[0][1]


def test_unknown_policy_names_the_known_ones() -> None:
    with pytest.raises(UsageError, match=r"unknown convoy policy 'nope' .*known: heuristic, lookahead, random, or package\.module:Class"):
        plan_tournament("caravan-crossing", ["heuristic", "nope"], [1])
    with pytest.raises(UsageError, match="two policies or more"):
        parse_policies("heuristic")
    with pytest.raises(UsageError, match="listed twice"):
        parse_policies("random,random")


def test_win_share_and_ratings() -> None:
    ms = [(1, "k:a", {"A": 3.0, "B": 1.0}), (1, "k:b", {"A": 2.0, "B": 2.0}), (2, "k:a", {"A": 0.0, "B": 5.0})]
    assert win_share(ms, "A", "B") == 0.5 and win_share(ms, "B", "A") == 0.5
    wm = win_matrix(ms, ["A", "B"])
    assert list(wm["win_share"]) == [0.5, 0.5] and (wm["ci_lo"] <= 0.5).all() and (wm["ci_hi"] >= 0.5).all()
    always = [(s, "k:a", {"A": 2.0, "B": 1.0}) for s in range(10)]
    r = ratings(always, ["A", "B"])
    assert r["A"][2] > r["B"][2] and r["A"][0] > 25 > r["B"][0]
    assert ratings(always, ["A", "B"]) == r  # the same matches, the same ratings


# ---- figures: titles naming the system, legends ----------------------------------------------------
def test_sweep_figure_names_the_system_and_has_legends() -> None:
    from workers.sweep import sweep_figure

    t = sweep_table().rename(columns={"m1": "cv.hazard_damage", "m2": "cv.arrived"})
    fig = sweep_figure(sweep_analysis(t), "cv.hazard_damage", scenario="demo")
    assert fig.get_suptitle() == "Caravans (CV) — Damage from hazards — demo"
    top, bottom = fig.axes
    assert top.get_legend() is not None and bottom.get_legend() is not None
    assert [x.get_text() for x in bottom.get_legend().get_texts()] == ["significant shift"]
    assert [x.get_text() for x in bottom.get_xticklabels()] == ["x=1\n(baseline)", "x=2"]
    assert bottom.get_ylabel() == "Δ vs baseline (HP)"


def test_tournament_figures_name_the_kind_and_have_legends() -> None:
    from workers.tournament import ratings_figure, winrates_figure

    ms = [(s, "k:a", {"A": 2.0, "B": 1.0}) for s in range(4)]
    lb = pd.DataFrame([{"policy": p, "mu": r[0], "sigma": r[1], "ordinal": r[2]} for p, r in ratings(ms, ["A", "B"]).items()])
    fig = ratings_figure(lb, "kingdom", "demo", 4)
    assert fig.get_suptitle() == "Kingdoms (KM) — ratings — demo, 4 seeds"
    assert fig.axes[0].get_legend() is not None
    w = winrates_figure(win_matrix(ms, ["A", "B"]), ["A", "B"], "guild", "demo", 4)
    assert w.get_suptitle() == "Guilds (GW) — win shares — demo, 4 seeds"
    assert [x.get_text() for x in w.axes[0].get_xticklabels()] == ["A", "B"]
