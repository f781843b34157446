"""The MN turn on the SimPy clock: phase order, tie order, Acclamation, determinism, save/resume,
the chronicle in English and French, the summary, the policies."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.campaign import finish, prepare_campaign, run_campaign
from agents.savefile import resume, save
from scenarios.loader import load_scenario, load_scenario_text
from sim.calendar import Phase
from sim.rules import mn as dip
from sim.world import decode_world, encode_world
from tests.mn.test_scenario import SMALL

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`

ROOT = Path(__file__).resolve().parents[2]

PHASE_OF = {
    "TurnBegan": 0, "AmbassadorBought": 1, "AmbassadorReturned": 2, "MissionLaunched": 2, "RenewalLaunched": 2,
    "AmbassadorRecalled": 2, "HostChose": 3, "DiplomacyTestRolled": 3, "InterferenceRolled": 3, "TreatyProposed": 3,
    "WarDeclared": 4, "PeaceMade": 4, "InvasionRecorded": 4, "RepulseRecorded": 4, "PactHonoured": 4, "ArmyRaised": 4,
    "PactObligationArose": 4, "AcclamationPhase": 5, "RansomPaid": 5, "IncomeCollected": 6,
}


@pytest.fixture(scope="module")
def mare() -> object:
    return run_campaign("mare-nostrum", 1)


@pytest.mark.rule("SC-MN-03", "RES-MN-17", "SC-MN-10", "SC-MN-08")
def test_every_turn_plays_its_phases_in_order(mare) -> None:  # noqa: ANN001
    turns: dict[int, list[int]] = {}
    current = 0
    for ev in mare.ledger:
        if ev.system != "mn":
            continue
        if ev.kind == "TurnBegan":
            current = ev.data["turn"]
        if ev.kind in PHASE_OF:
            turns.setdefault(current, []).append(PHASE_OF[ev.kind])
    assert sorted(turns) == list(range(1, 41))  # ten years of four turns
    for t, phases in turns.items():
        assert phases == sorted(phases), f"turn {t}: phases out of order {phases}"
        assert phases[0] == 0 and phases[-1] == 6
    seen = {k for k in PHASE_OF if mare.ledger.of_kind(k)}
    assert {"AmbassadorBought", "MissionLaunched", "DiplomacyTestRolled", "InterferenceRolled", "WarDeclared",
            "PactObligationArose", "ArmyRaised", "AcclamationPhase", "IncomeCollected"} <= seen
    assert mare.summary["mn.turns"] == 40


@pytest.mark.rule("SC-MN-03", "SC-MN-09")
def test_turns_begin_each_season_and_acclamation_ends_each_year(mare) -> None:  # noqa: ANN001
    began = mare.ledger.of_kind("TurnBegan")
    assert [e.t for e in began] == [k * 2160 for k in range(40)]
    assert [e.data["turn"] for e in mare.ledger.of_kind("AcclamationPhase")] == list(range(4, 41, 4))
    text = SMALL.replace("hexes_per_turn = 2", "hexes_per_turn = 2\nfirst_turn_in_year = 3")
    res = run_campaign(load_scenario_text(text, "small"), 1)
    assert [e.data["turn"] for e in res.ledger.of_kind("AcclamationPhase")] == [2]  # turn 1 is the 3rd of its year


def test_mn_wakes_after_km_and_before_gw_at_the_same_hour() -> None:
    model = prepare_campaign(load_scenario_text(SMALL, "small"), 1)
    marks: dict[str, int] = {}
    for name, phase in (("km", Phase.KM), ("gw", Phase.GW)):
        ev = model.at(2160, phase, 0)
        ev.callbacks.append(lambda _e, n=name: marks.setdefault(n, model.ledger.count))
    model.run(2161)
    [turn2] = [e for e in model.ledger.of_kind("TurnBegan") if e.data["turn"] == 2]
    assert turn2.t == 2160 and marks["km"] <= turn2.seq < marks["gw"]


def test_same_seed_same_ledger_and_the_world_round_trips(mare) -> None:  # noqa: ANN001
    again = run_campaign("mare-nostrum", 1)
    assert again.ledger_sha256 == mare.ledger_sha256
    assert decode_world(encode_world(mare.world)) == mare.world
    other = run_campaign("mare-nostrum", 2)
    assert other.ledger_sha256 != mare.ledger_sha256
    assert mare.model.invariant_violations() == []


def test_ledger_does_not_depend_on_hash_seed() -> None:
    out = []
    for h in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=h)
        r = subprocess.run([sys.executable, "-m", "workers.cli", "run", "mare-nostrum", "--seed", "3", "--json"],
                           cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        out.append(json.loads(r.stdout)["ledger_sha256"])
    assert out[0] == out[1]


def test_save_at_a_season_and_resume_ends_exactly_the_same(tmp_path: Path) -> None:
    loaded = load_scenario("mare-nostrum")
    straight = run_campaign(loaded, 4)
    model = prepare_campaign(loaded, 4)
    model.run(13 * 2160)
    save(model, tmp_path / "s.save", scenario_label=loaded.label, scenario_text=loaded.text, overrides=None)
    resumed = resume(tmp_path / "s.save")
    assert resumed.ledger_sha256 == straight.ledger_sha256
    assert resumed.summary == straight.summary


def test_summary_metrics_are_prefixed_and_read_from_the_world(mare) -> None:  # noqa: ANN001
    s = mare.summary
    mn_keys = [k for k in s if k != "hours"]
    assert mn_keys and all(k.startswith("mn.") for k in mn_keys)
    w = mare.world.mn
    assert s["mn.treaties_in_force"] == len(w.treaties) and s["mn.embassies"] == len(w.embassies)
    assert s["mn.treasury_total"] == sum(n.treasury for n in w.nations.values())
    assert s["mn.tests"] == len(mare.ledger.of_kind("DiplomacyTestRolled"))
    assert s["mn.missions"] == len(mare.ledger.of_kind("MissionLaunched"))
    row = mare.model.season_metrics()
    assert set(row) >= {"nation:athens", "nation:carthage", "nation:egypt", "nation:macedon", "nation:rome"}


def test_decisions_are_recorded_with_the_alternatives_scored(mare) -> None:  # noqa: ANN001
    decisions = [e for e in mare.ledger.of_kind("DecisionMade") if e.system == "mn"]
    assert decisions and all(e.data["policy"] == "heuristic" for e in decisions)
    launches = [e for e in decisions if e.outcome.startswith("mission ")]
    # compact records (no --explain: issue 26): the mission's score and the best other order
    assert launches and all(e.data["legal"] > 1 and e.data["runner_up"][0] != e.outcome for e in launches)
    assert all(e.data["score"] >= e.data["runner_up"][1] for e in launches)


def test_the_random_policy_plays_ten_years_without_breaking_a_rule() -> None:
    text = (ROOT / "scenarios" / "data" / "mare-nostrum.toml").read_text(encoding="utf-8")
    text = text.replace("ambassadors = 1\n", 'ambassadors = 1\npolicy = "random"\n')
    res = run_campaign(load_scenario_text(text, "random"), 5)
    assert res.summary["mn.turns"] == 40
    assert res.model.invariant_violations() == []
    assert res.summary["mn.missions"] > 0 and res.summary["mn.wars_declared"] > 4
    assert res.summary["mn.treasury_min"] >= 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_realmsim_run_prints_the_chronicle(lang: str) -> None:
    r = subprocess.run([sys.executable, "-m", "workers.cli", "run", "mare-nostrum", "--lang", lang], cwd=ROOT,
                       capture_output=True, text=True, check=True)
    out = r.stdout
    if lang == "fr":
        for term in ("Test de diplomatie du plénipotentiaire", "seuil de réussite", "facteur racial", "accord commercial",
                     "pacte d'amitié éternel", "mission diplomatique", "ambassadeur", "Ingérence", " PO", "déclare la guerre"):
            assert term in out, term
    else:
        for term in ("Diplomacy test of plenipotentiary", "success threshold", "commercial agreement", "eternal friendship pact",
                     "Interference by", "declares war on", "mn.tests"):
            assert term in out, term


def test_the_army_seam_calls_the_link_hook() -> None:
    """LINK-06: the turn hands every army it raises to the army hook of its ``MnHooks`` (in a campaign
    built by ``sim.rules.links.mn_hooks``); without hooks MN runs alone."""
    from sim.dice import ScriptedDice
    from sim.orders import ScriptedDecider
    from tests.mn.common import make_world, post, world_of

    mn, cfg, led = make_world(turn=4)
    _, _, t = post(mn, "p1", "massalia", kind="alliance")
    assert t is not None
    calls, opened = [], []

    def hook(w, army):  # noqa: ANN001, ANN202
        calls.append((army.nation, army.province, army.reason))
        return "gw-army-7"

    def army_hook(world, ledger, money):  # noqa: ANN001, ANN202
        opened.append(money)
        return hook

    decider = ScriptedDecider({("nation:p1", "military"): [dip.RaiseArmy(t.id)]}, default="first")
    dip.resolve_turn(world_of(mn, cfg), 5, decider, ScriptedDice(), led, hooks=dip.MnHooks(army=army_hook))
    assert opened == [None]  # no LINK-03 treasury in this world
    assert calls == [("p1", "Gallia", "alliance")] and mn.armies[-1].gw_army == "gw-army-7"
    assert dip.raise_army(mn, led, "p1", "Latium", "pact").gw_army is None


def test_the_treasury_hook_is_opened_each_turn_and_settled_after_each_cost_and_income() -> None:
    """LINK-03: the turn opens the treasury of its hooks once, then settles it after every order that
    costs or earns PO (here an ambassador bought, then the income)."""
    from sim.dice import ScriptedDice
    from sim.orders import ScriptedDecider
    from tests.mn.common import make_world, world_of

    mn, cfg, led = make_world(turn=4)
    settled: list[str] = []

    class Books:
        def settle(self, what: str = "") -> None:
            settled.append(what)

    decider = ScriptedDecider({("nation:p1", "buy"): [lambda legal, ctx: legal[1]]}, default="first")
    dip.resolve_turn(world_of(mn, cfg), 5, decider, ScriptedDice(), led, hooks=dip.MnHooks(treasury=lambda w, led: Books()))
    decider.assert_exhausted()
    assert settled == ["ambassador bought", "income"]
    assert [a.id for a in mn.ambassadors.values()] == ["p1-1"]


def test_the_turn_checks_every_answer() -> None:
    """An answer the rules did not offer is refused with the clause it breaks (``check``)."""
    from sim.dice import ScriptedDice
    from sim.errors import IllegalOrderError
    from sim.orders import ScriptedDecider
    from tests.mn.common import make_world, world_of

    mn, cfg, led = make_world(turn=4)
    decider = ScriptedDecider({("nation:p1", "military"): [dip.DeclareWar("nation:p1")]}, default="first")
    with pytest.raises(IllegalOrderError, match="SC-MN-05.*cannot declare war on itself"):
        dip.resolve_turn(world_of(mn, cfg), 5, decider, ScriptedDice(), led)


def test_finish_reports_the_same_summary_as_the_run(mare) -> None:  # noqa: ANN001
    assert finish(mare.model).summary == mare.summary
