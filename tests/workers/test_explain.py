"""``realmsim run --explain [FACTION]`` (workers/explain.py): each decision told for a game master, in
English and French, from what the policy recorded — its alternatives and their score terms when it
explains itself, its scored list and reason otherwise — with hexes named, ties and rollouts shown."""

from __future__ import annotations

import re

import pytest

from agents.campaign import run_campaign
from agents.variants import variant
from sim.calendar import HOURS_PER_DAY
from sim.events import Event
from workers.cli import main
from workers.explain import explain_decision, place


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_one_convoy_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", "caravan-crossing", "--until", "2d", "--explain", "convoy:amber", "--lang", "en")
    assert code == 0
    heads = [x for x in out.splitlines() if " chose: " in x]
    assert heads and all("Amber Caravan (convoy:amber) chose: " in x for x in heads)
    assert re.search(r"\(policy heuristic, \d+ legal orders\)", heads[0])
    block = out.split(heads[0], 1)[1].splitlines()[1:6]
    assert block[0].startswith("    * ") and ": score " in block[0]  # the chosen order first
    assert any(x.startswith("    - ") for x in block)
    assert block[1].startswith("        ") and " points " in block[1]  # the chosen order's named terms
    assert not any(x.startswith("    reason: ") for x in out.splitlines())  # the terms say more than the reason
    assert "Brass Wagons" not in "".join(heads)  # another convoy's decisions are left out


def test_explain_every_faction_in_french_names_hexes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", "stolen-lands", "--until", "1m", "--explain", "--lang", "fr")
    assert code == 0
    heads = [x for x in out.splitlines() if " a choisi : " in x]
    assert {h.split(" a choisi")[0].split("  ", 1)[1] for h in heads} >= {"Restov (kingdom:restov)", "Pitax (kingdom:pitax)"}
    assert "(politique heuristique," in heads[0] and "ordres légaux)" in heads[0]
    assert not [x for x in out.splitlines() if re.search(r"#\d+", x)]  # no bare hex index left
    claims = [x for x in out.splitlines() if " a choisi : " in x and re.search(r"en \[\d+,\d+\]", x)]
    assert claims, "a claim or an improvement names its hex by terrain and coordinates"


def test_an_unknown_faction_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", "stolen-lands", "--until", "1m", "--explain", "kingdom:nowhere")
    assert code == 2
    assert "--explain 'kingdom:nowhere': expected a faction key of this scenario (kingdom:mivon, kingdom:pitax" in err


def _decision(**data: object) -> Event:
    base = {"policy": "heuristic", "legal": 3, "scored": [["farm on #3", 4.5], ["road on #3", 4.5], ["nothing", 0.0]],
            "reason": "best improvement score"}
    base.update(data)
    return Event(1, 0, "km", "DecisionMade", "kingdom:restov", ("SC-KM-32",), None, (), (), None, "farm on #3", base)


def test_alternatives_with_terms_and_a_tie_are_told() -> None:
    ev = _decision(
        alternatives=[
            {"order": "farm on #3", "score": 4.5, "terms": [
                {"name": "income", "value": 12.0, "unit": "BP", "en": "+12 BP income over a year", "fr": "+12 PC de revenu sur un an"},
                {"name": "cost", "value": -2.0, "unit": "BP", "en": "-2 BP cost", "fr": "-2 PC de coût"}]},
            {"order": "road on #3", "score": 4.5, "terms": []},
        ],
        tie="2 plans tied at 4.5; drawn by the policy's stream",
    )
    en = explain_decision(ev, "en", None, {"kingdom:restov": "Restov (kingdom:restov)"})
    # without a map, a hex is its index (a campaign's explanation names it: Westwatch [4,6], [11,2])
    assert en[0] == "Restov (kingdom:restov) chose: farm at #3  (policy heuristic, 3 legal orders)"
    assert en[1:5] == ["    * farm at #3: score +4.5", "        +12 BP income over a year", "        -2 BP cost",
                       "    - road at #3: score +4.5"]
    assert en[5] == "    tie: 2 plans tied at 4.5; drawn by the policy's stream"
    assert not any(x.startswith("    reason") for x in en)  # the terms say more than the reason
    fr = explain_decision(ev, "fr")
    assert "        +12 PC de revenu sur un an" in fr and fr[0].startswith("kingdom:restov a choisi : ")


def test_without_alternatives_it_falls_back_on_the_scored_list_and_flags_an_untold_tie() -> None:
    en = explain_decision(_decision(), "en")
    assert en[1:4] == ["    * farm at #3: score +4.5", "    - road at #3: score +4.5", "    - nothing: score +0.0"]
    assert en[4] == "    tie: 2 orders tied at score +4.5 (the policy did not say how it chose)"
    assert en[5] == "    reason: best improvement score"


def test_rollout_figures_are_told() -> None:
    ro = {"candidates": [{"order": "travel", "mean": 3.1, "wins": 14, "n": 20, "heuristic": 9.5},
                         {"order": "rest", "mean": 1.2, "wins": 6, "n": 20, "heuristic": 10.0}],
          "n": 20, "horizon_hours": 3 * HOURS_PER_DAY, "unit": "points", "seed": 1, "base": 50.0}
    ev = Event(1, 0, "cv", "DecisionMade", "convoy:amber", ("RES-CV-24",), None, (), (), None, "travel",
               {"policy": "lookahead", "legal": 9, "scored": [["rest", 10.0], ["travel", 9.5]], "reason": "look-ahead", "rollouts": ro})
    en = explain_decision(ev, "en")
    assert "    look-ahead (over 3 days): travel won 14 of 20 rollouts, mean score change +3.1 points against +1.2" in en
    assert "        rest: mean score change +1.2 points, won 6 of 20 rollouts" in en
    fr = explain_decision(ev, "fr")
    assert "    anticipation (sur 3 jours) : voyager 14 parties gagnées sur 20, variation moyenne du score +3,1 points contre +1,2" in fr
    assert fr[-1] == "    raison : anticipation"  # the policy's reason in French too


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_lookahead_run_explains_its_rollouts() -> None:
    res = run_campaign(variant("caravan-crossing", duration_hours=8 * HOURS_PER_DAY, seats={"convoy:amber": "lookahead"}), 3,
                       collect=False, explain=True)
    ev = next(e for e in res.ledger.events if e.kind == "DecisionMade" and "rollouts" in e.data)
    text = "\n".join(explain_decision(ev, "en", res.world.map))
    ro = ev.data["rollouts"]
    # the convoy default horizon is ten days, cut short by the campaign's end (8 days from hour 0)
    assert ro["horizon_hours"] == min(10 * HOURS_PER_DAY, 8 * HOURS_PER_DAY - ev.t)
    d, h = divmod(ro["horizon_hours"], HOURS_PER_DAY)
    span = f"{d} days" + (f" {h} hours" if h else "")
    assert re.search(rf"look-ahead \(over {span}\): .+ won \d of {ro['n']} rollouts, mean score change [+-]\d+\.\d points against", text)
    assert f"after {span} (" in text and "rollouts won)" in text  # the chosen alternative's rollout term, same horizon
    assert "did not say how it chose" not in text  # a tie of means is told with the rule that broke it


def test_place_names_a_settlement_or_a_terrain() -> None:
    res = run_campaign(variant("stolen-lands", duration_hours=HOURS_PER_DAY), 1, collect=False)
    m = res.world.map
    town = next(i for i, h in enumerate(m.hexes) if h.settlement)
    col, row = m.coords(town)
    assert place(m, town) == f"{m.hexes[town].settlement} [{col},{row}]"
    wild = next(i for i, h in enumerate(m.hexes) if not h.settlement and h.terrain == "hills")
    col, row = m.coords(wild)
    assert place(m, wild) == f"the hills at [{col},{row}]"
    assert place(m, wild, "fr") == f"les collines en [{col},{row}]"


def test_tie_lines_and_policy_names_read_in_french() -> None:
    from agents.policies.explain import tie_words
    from workers.explain import tie_fr

    assert tie_fr(tie_words(2, 8.6815, "drawn by the policy's stream")) == (
        "2 choix à égalité au score 8.6815 ; tiré au sort par le flux aléatoire de la politique")
    assert tie_fr("3 alternatives tied at 2; the first listed wins (the rules' order of alternatives)") == (
        "3 choix à égalité au score 2 ; le premier listé l'emporte (l'ordre des choix dans les règles)")
    assert tie_fr("2 candidates tied at mean +3.1 BP; kept the heuristic's preferred one") == (
        "2 candidats à égalité, variation moyenne +3.1 PC ; gardé le préféré de l'heuristique")
    assert tie_fr("2 candidates tied at mean -0.5 points; chose rest: beat the heuristic's choice in 3 of 4 paired "
                  "rollouts (lost 1)") == ("2 candidats à égalité, variation moyenne -0.5 points ; choisi rest : a battu "
                                           "le choix de l'heuristique dans 3 parties appariées sur 4 (perdu 1)")
    assert tie_fr("something else entirely") == "something else entirely"  # unknown words stay as they are


def test_a_french_explanation_names_the_policy_and_the_tie_in_french() -> None:
    from sim.events import Event
    from workers.explain import explain_decision

    ev = Event(seq=1, t=0, system="cv", kind="DecisionMade", actor="convoy:a", clauses=(), outcome="travel",
               data={"policy": "heuristic", "legal": 4, "tie": "2 alternatives tied at 1; drawn by the policy's stream",
                     "alternatives": [{"order": "travel", "score": 1, "terms": []}, {"order": "rest", "score": 1, "terms": []}]})
    lines = explain_decision(ev, "fr")
    assert "(politique heuristique, 4 ordres légaux)" in lines[0]
    assert lines[-1] == "    égalité : 2 choix à égalité au score 1 ; tiré au sort par le flux aléatoire de la politique"
    assert "(policy heuristic, 4 legal orders)" in explain_decision(ev, "en")[0]


def test_a_convoys_orders_read_in_french() -> None:
    from agents.chronicle_tables.cv import order_fr
    from sim.state.cv import DayPlan, RouteChoice

    assert order_fr(DayPlan(forage=True, buy="stores:4").label()) == (
        "voyager, fourrager, acheter 4 unité(s) de réserves de nourriture")
    assert order_fr(DayPlan(night=True, extra=3, halt=True, double=True).label()) == (
        "voyager de nuit +3 h, halte au village, rations doubles")
    assert order_fr(DayPlan(move="rest", gift=("trade_goods", "treasure")).label()) == "se reposer, offrir marchandises et Trésor"
    assert order_fr(DayPlan(assign="Koya:driver", abandon="supply").label()) == (
        "voyager, affecter Koya comme conducteur, abandonner un chariot de ravitaillement")
    assert order_fr(DayPlan(move="repair", buy=("repair:2", "axles")).label()) == (
        "réparer les chariots, acheter 2 unité(s) de matériel de réparation et des essieux renforcés")
    assert order_fr(str(RouteChoice("safe", (0, 1, 2), 13.24, 19.46))) == "la route sûre (2 hexagones, 13.2 jours, risque 19.5)"
    assert order_fr("h2") == "h2"  # an enemy's id stays as it is


def test_a_kingdoms_orders_read_in_french() -> None:
    from agents.chronicle_tables.km import order_fr
    from sim.rules.km.turn import label
    from sim.state.km import BuildOrder, DiplomaticEdict, ImprovementOrder

    assert order_fr(label(None)) == "rien" and order_fr("heavy") == "lourde" and order_fr("12") == "12 par an"
    assert order_fr(label(ImprovementOrder(kind="farm", hex=377))) == "ferme sur #377"  # the hex is named next
    assert order_fr("sawmill at Westwatch [4,6]") == "scierie en Westwatch [4,6]"
    assert order_fr("claim [9,3]") == "revendiquer [9,3]" and order_fr("give up [9,3]") == "abandonner [9,3]"
    assert order_fr(label(BuildOrder(kind="guildhall", settlement="Varnhold"))) == "construire : maison de la guilde à Varnhold"
    assert order_fr(label(DiplomaticEdict(kind="treaty", target="pitax", bribe=10))) == (
        "édit diplomatique : traité → pitax (pot-de-vin 10 PC)")
    assert order_fr("pitax") == "pitax"  # a kingdom's id stays as it is


def test_a_nations_numbered_embassy_or_treaty_is_not_taken_for_a_hex() -> None:
    from tests.cv.helpers import line_map

    hm = line_map(10)  # a real map: hexes #2 and #3 exist and have names
    assert place(hm, 3) != "#3"
    ev = Event(seq=1, t=0, system="mn", kind="DecisionMade", actor="nation:carthage", clauses=(), outcome="renew embassy #3 (gift 40)",
               data={"policy": "heuristic", "legal": 2, "scored": [["renew embassy #3 (gift 40)", 209.4], ["break treaty #2", -5.0]]})
    lines = explain_decision(ev, "en", hm)
    assert "chose: renew the embassy #3 (gift 40 PO)" in lines[0]  # a world that no longer has it: its number
    assert lines[2] == "    - break the treaty #2: score -5.0"


def test_a_guilds_and_a_nations_orders_read_in_french() -> None:
    from agents.chronicle_tables.gw import order_fr as gw_fr
    from agents.chronicle_tables.mn import order_fr as mn_fr
    from sim.rules.mn.orders import DeclareWar, HostChoice, LaunchMission, Pass, RenewTreaty, order_label
    from sim.state.gw import LendSeals, Move, Recruit

    assert gw_fr(str(Recruit(guild="licorne", units={"knight": 15}))) == "recruter — unités 15 × chevalier"
    assert gw_fr(str(Move(guild="licorne", army="licorne-4", to=197))) == "marcher — armée licorne-4, vers #197"
    assert gw_fr(str(LendSeals(guild="licorne", to="hippocampe", lend=False))) == "ne pas prêter ses sceaux — vers hippocampe"
    assert gw_fr("end of orders") == "fin des ordres" and gw_fr("something odd") == "something odd"
    assert gw_fr("domain_action domain=dorval action=assign") == "action de domaine — domaine dorval, action affectation"
    assert mn_fr(order_label(Pass())) == "passer"
    assert mn_fr(order_label(LaunchMission("athens-1", "caere", "commercial", 20))) == (
        "mission athens-1 vers caere (accord commercial, cadeau 20 PO)")
    assert mn_fr(order_label(RenewTreaty(3, 40))) == "renouveler l'ambassade #3 (cadeau 40 PO)"
    assert mn_fr(order_label(HostChoice(5, "imprison", 20))) == "emprisonner l'envoyé de la mission #5 (rançon 20 PO)"
    assert mn_fr(order_label(DeclareWar("nation:carthage"))) == "déclarer la guerre à nation:carthage"


def test_a_compact_decision_is_told_with_its_score_and_runner_up() -> None:
    """A campaign without --explain records the order, its score and the runner-up (issue 26): told
    as the chosen order and the best other one, with the tie they make."""
    ev = Event(1, 0, "km", "DecisionMade", "kingdom:restov", ("SC-KM-32",), None, (), (), None, "farm on #3",
               {"policy": "heuristic", "legal": 3, "score": 4.5, "runner_up": ["road on #3", 4.5]})
    en = explain_decision(ev, "en")
    assert en[1:3] == ["    * farm at #3: score +4.5", "    - road at #3: score +4.5"]
    assert en[3] == "    tie: 2 orders tied at score +4.5 (the policy did not say how it chose)"
    assert len(en) == 4


@pytest.mark.slow  # two short campaigns through the command line
def test_resume_explain_tells_the_decisions_from_the_save_on(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # noqa: ANN001
    save = str(tmp_path / "s.save")
    code, out, _ = run(capsys, "run", "stolen-lands", "--until", "1m", "--save", save, "--lang", "en")
    assert code == 0 and " chose: " not in out
    code, out, _ = run(capsys, "resume", save, "--until", "2m", "--explain", "kingdom:restov", "--lang", "en")
    assert code == 0
    heads = [x for x in out.splitlines() if " chose: " in x]
    assert heads and all("(kingdom:restov) chose: " in x for x in heads)
    assert all(x.startswith("Y1 spring M2") for x in heads)  # the decisions after the save, not before
    assert re.search(r"^        [+−]\d", out, re.M)  # the chosen orders' named terms, as run --explain gives them
    code, out, _ = run(capsys, "resume", save, "--until", "2m", "--lang", "en")
    assert code == 0 and " chose: " not in out
