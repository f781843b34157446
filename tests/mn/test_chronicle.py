"""Every MN chronicle line, in English and in French with the seed's terms."""

from __future__ import annotations

from agents.chronicle_tables.mn import render
from sim.dice import ScriptedDice
from sim.rules import mn as dip
from tests.mn.common import buy, make_world, post

TOLD = {
    "AmbassadorBought", "MissionLaunched", "RenewalLaunched", "DiplomacyTestRolled", "InterferenceRolled", "HostChose",
    "TreatySigned", "TreatyRenewed", "TreatyEnded", "TreatyBroken", "PactBroken", "PactObligationArose", "PactHonoured",
    "ArmyRaised", "AmbassadorExecuted", "AmbassadorImprisoned", "RansomPaid", "AmbassadorExpelled", "WarDeclared",
    "PeaceMade", "InvasionRecorded", "RepulseRecorded",
}


def _story():  # noqa: ANN202
    mn, cfg, led = make_world(turn=5, treasury=1000)
    dip.resolve_buy(mn, "p1", dip.BuyAmbassador(), led, cfg)
    post(mn, "p2", "massalia")
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "pact", 3), led, cfg)
    mn.turn = 6
    dip.resolve_test(mn, m, ScriptedDice(["d100=50", "d20=20"]), led, cfg, dip.ScriptedInterference({"p2": "+"}))  # blunder, plot
    mn.turn = 8
    dip.resolve_ransom(mn, "p1", dip.PayRansom(a.id), led, cfg)
    b = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(b.id, "carthago", "alliance"), led, cfg)
    mn.turn = 9
    dip.resolve_test(mn, m, ScriptedDice(["d100=30"]), led, cfg)  # limited
    [t] = [t for t in mn.treaties if t.kind == "alliance"]
    dip.resolve_raise_army(mn, "p1", dip.RaiseArmy(t.id), led, cfg)
    e = dip.embassy_of(mn, b.id)
    assert e is not None and e.last_turn is not None
    mn.turn = e.last_turn
    r = dip.resolve_renew(mn, "p1", dip.RenewTreaty(e.id), led, cfg)
    dip.resolve_test(mn, r, ScriptedDice(["d100=1"]), led, cfg)
    dip.resolve_break(mn, "p1", dip.BreakTreaty(t.id), ScriptedDice([]), led, cfg)
    c = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(c.id, "athenae", "commercial"), led, cfg)
    mn.turn += 1
    dip.resolve_test(mn, m, ScriptedDice(["d100=99"]), led, cfg)  # disaster
    d = buy(mn, "p2")
    m = dip.resolve_launch(mn, "p2", dip.LaunchMission(d.id, "roma", "commercial"), led, cfg)
    mn.turn += 1
    dip.resolve_host_choice(mn, "p1", dip.HostChoice(m.id, "imprison", 20), led, cfg)
    _, _, pact = post(mn, "p1", "rhodos", kind="pact")
    _, _, p2 = post(mn, "p2", "neapolis", kind="pact")
    dip.resolve_declare_war(mn, "city:syracusae", dip.DeclareWar("city:rhodos"), led, cfg)
    [ob] = mn.obligations
    dip.resolve_honour(mn, "p1", dip.HonourPact(ob.id), led, cfg)
    dip.make_peace(mn, "city:syracusae", "city:rhodos", led)
    dip.record_invasion(mn, led, "Latium", "Africa", False)
    dip.record_invasion(mn, led, "Africa", "Latium", True)
    assert p2 is not None and pact is not None
    dip.resolve_declare_war(mn, "city:carthago", dip.DeclareWar("city:neapolis"), led, cfg)
    dip.resolve_break(mn, "p2", dip.BreakTreaty(p2.id), ScriptedDice(["d4=4"]), led, cfg)  # wartime
    dip.resolve_break(mn, "p1", dip.BreakTreaty(pact.id), ScriptedDice(["d4=1"]), led, cfg)  # peacetime
    dip.end_of_turn(mn, lambda n: ScriptedDice([]), led, cfg)
    return mn, led


def test_every_told_event_has_an_english_and_a_french_line() -> None:
    mn, led = _story()
    kinds = {e.kind for e in led}
    assert TOLD <= kinds, TOLD - kinds
    lines = {"en": [], "fr": []}
    for ev in led:
        for lang in ("en", "fr"):
            s = render(ev, lang, mn)
            if ev.kind in TOLD and not (ev.kind == "ArmyRaised" and ev.outcome == "pact") and not (
                    ev.kind == "TreatyBroken" and "rf_after" not in ev.data):
                assert s, (lang, ev.kind)
            if s:
                lines[lang].append(s)
    fr = "\n".join(lines["fr"])
    for term in ("ambassadeur", "plénipotentiaire", "mission diplomatique", "Test de diplomatie", "seuil de réussite",
                 "facteur racial", "accord commercial", "alliance militaire", "pacte d'amitié éternel", "bévue", "rançon",
                 "Phase d'Acclamation", "Ingérence", "PO", "catastrophe", "complot", "ignoble trahison", "temps de paix"):
        assert term in fr, term
    en = "\n".join(lines["en"])
    for term in ("plenipotentiary", "success threshold", "racial factor", "blunder", "ransom", "Acclamation phase",
                 "Interference", "vile betrayal", "military alliance", "executed"):
        assert term in en, term


def test_a_test_line_names_threshold_modifiers_and_roll() -> None:
    mn, cfg, led = make_world(turn=5)
    a = buy(mn, "p1")
    m = dip.resolve_launch(mn, "p1", dip.LaunchMission(a.id, "massalia", "commercial", 12), led, cfg)
    mn.turn = 6
    dip.resolve_test(mn, m, ScriptedDice(["d100=31"]), led, cfg)
    ev = led.of_kind("DiplomacyTestRolled")[0]
    assert render(ev, "en", mn) == ("Diplomacy test of plenipotentiary p1-1 at Massalia (commercial agreement): success threshold 60, "
                                    "modifiers racial factor +5, gift +12; d100 = 31 → score 14: very warm welcome: treaty signed, "
                                    "permanent embassy.")
    assert render(ev, "fr", mn) == ("Test de diplomatie du plénipotentiaire p1-1 à Massalia (accord commercial) : seuil de réussite 60, "
                                    "modificateurs facteur racial +5, don +12 ; d100 = 31 → score 14 : accueil très favorable : "
                                    "traité signé, ambassade permanente.")
