"""The chronicle table of MN: one template per event kind it tells, in English and French
(moved out of ``agents/systems/mn.py``; the driver's ``chronicle`` looks the kind up here)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agents.chronicle_tables import Patterns, translate
from sim.events import Event
from sim.rules import mn as dip
from sim.state.mn import MnWorld

if TYPE_CHECKING:
    pass


# ---- the chronicle (English and French, with the seed's terms) ---------------------------------------
_BANDS = {
    "en": {
        "disaster": "disaster: the diplomat is executed",
        "blunder": "blunder: the diplomat is imprisoned",
        "failure": "failure: the diplomat is dismissed",
        "very_warm": "very warm welcome: treaty signed, permanent embassy",
        "limited": "treaty signed for {d} turn(s)",
    },
    "fr": {
        "disaster": "catastrophe : le diplomate est exécuté",
        "blunder": "bévue : le diplomate est emprisonné",
        "failure": "échec : le diplomate est congédié",
        "very_warm": "accueil très favorable : traité signé, ambassade permanente",
        "limited": "traité signé pour {d} tour(s)",
    },
}
_MODS = {
    "en": {"MN-MOD-01": "racial factor", "MN-MOD-02": "invasion within the year", "MN-MOD-03": "repulse within four years",
           "MN-MOD-04": "repulse within the year", "MN-MOD-05": "enemy repelled", "MN-MOD-06": "embassy renewal",
           "MN-MOD-07": "gift"},
    "fr": {"MN-MOD-01": "facteur racial", "MN-MOD-02": "invasion dans l'année", "MN-MOD-03": "invasion repoussée en quatre ans",
           "MN-MOD-04": "invasion repoussée dans l'année", "MN-MOD-05": "ennemi repoussé", "MN-MOD-06": "renouvellement d'ambassade",
           "MN-MOD-07": "don"},
}
_HOST = {
    "en": {"accept": "receives", "dismiss": "sends back", "execute": "executes", "imprison": "imprisons"},
    "fr": {"accept": "reçoit", "dismiss": "renvoie", "execute": "fait exécuter", "imprison": "emprisonne"},
}
_END = {
    "en": {"expired": "expires", "broken": "is broken", "embassy closed": "ends with the embassy (MN-EMB-01)",
           "relations severed": "ends: relations severed"},
    "fr": {"expired": "expire", "broken": "est rompu", "embassy closed": "prend fin avec l'ambassade (MN-EMB-01)",
           "relations severed": "prend fin : relations rompues"},
}


def _de(name: str) -> str:
    """French « de » with elision: « d'Athènes », « de Rome »."""
    return f"d'{name}" if name[:1].upper() in "AEIOUYÉÈÊÂÎÔ" else f"de {name}"


def _sign(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)


# the kinds render() tells (a line of the if-chain below each)
KINDS: frozenset[str] = frozenset({
    "AmbassadorBought", "AmbassadorExecuted", "AmbassadorExpelled", "AmbassadorImprisoned", "ArmyRaised",
    "DiplomacyTestRolled", "HostChose", "InterferenceRolled", "InvasionRecorded", "MissionLaunched",
    "PactBroken", "PactHonoured", "PactObligationArose", "PeaceMade", "RansomPaid", "RenewalLaunched",
    "RepulseRecorded", "TreatyBroken", "TreatyEnded", "TreatyRenewed", "TreatySigned", "WarDeclared",
})


def render(ev: Event, lang: str, mn: MnWorld) -> str | None:
    """One chronicle line for an MN event worth telling, or None."""
    fr = lang == "fr"
    d = ev.data
    tn = dip.TREATY_NAMES["fr" if fr else "en"]

    def nat(ident: str | None) -> str:
        return dip.party_name(mn, f"nation:{ident}", lang) if ident else "?"

    def party(p: str | None) -> str:
        return dip.party_name(mn, p, lang) if p else "?"

    def city(c: str | None) -> str:
        return dip.party_name(mn, f"city:{c}", lang) if c else "?"

    amb = ev.actor.partition(":")[2]
    k = ev.kind
    if k == "AmbassadorBought":
        return (f"{nat(ev.actor[7:])} achète un ambassadeur ({ev.outcome}, {d['cost']} PO)." if fr
                else f"{nat(ev.actor[7:])} buys an ambassador ({ev.outcome}, {d['cost']} PO).")
    if k == "MissionLaunched":
        gift = (f", don de {d['gift']} PO" if fr else f", gift {d['gift']} PO") if d["gift"] else ""
        return (f"{nat(d['nation'])} envoie la mission diplomatique de l'ambassadeur {amb} vers {city(d['city'])} "
                f"({tn[d['treaty']]} ; {d['fee']} PO{gift} ; arrivée au tour {d['arrival_turn']})." if fr else
                f"{nat(d['nation'])} sends ambassador {amb} on a diplomatic mission to {city(d['city'])} "
                f"({tn[d['treaty']]}; {d['fee']} PO{gift}; arrives in turn {d['arrival_turn']}).")
    if k == "RenewalLaunched":
        return (f"{nat(d['nation'])} demande le renouvellement de son ambassade à {city(d['city'])} ({d['fee']} PO)." if fr else
                f"{nat(d['nation'])} seeks to renew its embassy at {city(d['city'])} ({d['fee']} PO).")
    if k == "DiplomacyTestRolled":
        names = _MODS["fr" if fr else "en"]
        mods = ", ".join(f"{names.get(c, n)} {_sign(v)}" for n, c, v in d["modifiers"] if v or c != "MN-MOD-01")
        mods = mods or ("aucun" if fr else "none")
        inter = "".join(f", {'ingérence' if fr else 'interference'} {nat(n)} {'+' if s > 0 else '-'}{x}" for n, x, s in d["interference"])
        band = _BANDS["fr" if fr else "en"][ev.outcome].format(d=d["duration"])
        if fr:
            return (f"Test de diplomatie du plénipotentiaire {amb} à {city(d['city'])} ({tn[d['treaty']]}) : seuil de réussite "
                    f"{ev.dc}, modificateurs {mods} ; d100 = {d['natural']}{inter} → score {ev.total} : {band}.")
        return (f"Diplomacy test of plenipotentiary {amb} at {city(d['city'])} ({tn[d['treaty']]}): success threshold {ev.dc}, "
                f"modifiers {mods}; d100 = {d['natural']}{inter} → score {ev.total}: {band}.")
    if k == "InterferenceRolled":
        x = ev.dice[0][1]
        if fr:
            plot = " — le complot est découvert !" if x == 20 else ""
            return f"Ingérence {_de(nat(ev.actor[7:]))} contre {nat(d['against'])} à {city(d['city'])} : d20 = {x}, {d['sign']}{plot}"
        plot = " — the plot is discovered!" if x == 20 else ""
        return f"Interference by {nat(ev.actor[7:])} against {nat(d['against'])} at {city(d['city'])}: d20 = {x}, {d['sign']}{plot}"
    if k == "HostChose":
        verb = _HOST["fr" if fr else "en"][ev.outcome]
        extra = (f" (rançon {d['ransom']} PO)" if fr else f" (ransom {d['ransom']} PO)") if ev.outcome == "imprison" else ""
        return (f"{nat(ev.actor[7:])} {verb} l'ambassadeur {d['ambassador']} {_de(nat(d['sender']))} à {city(d['city'])}{extra}." if fr
                else f"{nat(ev.actor[7:])} {verb} the ambassador {d['ambassador']} of {nat(d['sender'])} at {city(d['city'])}{extra}.")
    if k == "TreatySigned":
        dur = ("permanent" if ev.outcome == "permanent" else f"jusqu'au tour {d['last_turn']}") if fr else \
            ("permanent" if ev.outcome == "permanent" else f"through turn {d['last_turn']}")
        return (f"{tn[d['type']].capitalize()} signé entre {nat(ev.actor[7:])} et {party(d['partner'])} ({dur})." if fr else
                f"{tn[d['type']].capitalize()} signed between {nat(ev.actor[7:])} and {party(d['partner'])} ({dur}).")
    if k == "TreatyRenewed":
        dur = ("permanent" if ev.outcome == "permanent" else f"jusqu'au tour {d['last_turn']}") if fr else \
            ("permanent" if ev.outcome == "permanent" else f"through turn {d['last_turn']}")
        return (f"{nat(ev.actor[7:])} renouvelle son ambassade à {city(d['city'])} ({dur})." if fr else
                f"{nat(ev.actor[7:])} renews its embassy at {city(d['city'])} ({dur}).")
    if k == "TreatyEnded":
        how = _END["fr" if fr else "en"].get(ev.outcome, ev.outcome)
        return (f"{tn[d['type']].capitalize()} entre {nat(ev.actor[7:])} et {party(d['partner'])} : {how}." if fr else
                f"The {tn[d['type']]} between {nat(ev.actor[7:])} and {party(d['partner'])} {how}.")
    if k == "TreatyBroken" and "rf_after" in d:
        return (f"{nat(ev.actor[7:])} rompt l'alliance militaire avec {party(d['partner'])} : facteur racial "
                f"({d['rf_province']}, {d['people']}) {d['rf_before']} → {d['rf_after']}." if fr else
                f"{nat(ev.actor[7:])} breaks the military alliance with {party(d['partner'])}: racial factor "
                f"({d['rf_province']}, {d['people']}) {d['rf_before']} → {d['rf_after']}.")
    if k == "PactBroken":
        when = ("en temps de guerre, ignoble trahison" if ev.outcome == "wartime" else "en temps de paix") if fr else \
            ("in wartime, a vile betrayal" if ev.outcome == "wartime" else "in peacetime")
        return (f"{nat(ev.actor[7:])} rompt le pacte d'amitié éternel avec {party(d['partner'])} ({when}) : facteur racial "
                f"({d['rf_province']}, {d['people']}) {d['rf_before']} → {d['rf_after']} ; relations rompues {ev.total} an(s) "
                f"(1d4 = {ev.total}), jusqu'au tour {d['cut_through_turn']}." if fr else
                f"{nat(ev.actor[7:])} breaks the eternal friendship pact with {party(d['partner'])} ({when}): racial factor "
                f"({d['rf_province']}, {d['people']}) {d['rf_before']} → {d['rf_after']}; relations cut for {ev.total} year(s) "
                f"(1d4 = {ev.total}), through turn {d['cut_through_turn']}.")
    if k == "PactObligationArose":
        return (f"{nat(ev.actor[7:])} doit secourir son ami éternel {party(d['ally'])} contre {party(d['aggressor'])} "
                f"(armée à lever en {d['province']} avant la fin du tour {d['deadline_turn']})." if fr else
                f"{nat(ev.actor[7:])} must help its eternal friend {party(d['ally'])} against {party(d['aggressor'])} "
                f"(an army to raise in {d['province']} by the end of turn {d['deadline_turn']}).")
    if k == "PactHonoured":
        return (f"{nat(ev.actor[7:])} honore le pacte d'amitié éternel : armée levée en {d['province']}, relations rompues avec "
                f"{party(d['aggressor'])}." if fr else
                f"{nat(ev.actor[7:])} honours its eternal friendship pact: army raised in {d['province']}, relations with "
                f"{party(d['aggressor'])} severed.")
    if k == "ArmyRaised" and ev.outcome == "alliance":
        return (f"{nat(ev.actor[7:])} lève une armée en {d['province']} (alliance militaire)." if fr else
                f"{nat(ev.actor[7:])} raises an army in {d['province']} (military alliance).")
    if k == "AmbassadorExecuted":
        rfp = (f" ; facteur racial ({d['rf_province']}, {d['people']}) {d['rf_before']} → {d['rf_after']}" if fr else
               f"; racial factor ({d['rf_province']}, {d['people']}) {d['rf_before']} → {d['rf_after']}") if "rf_after" in d else ""
        return (f"L'ambassadeur {amb} est exécuté à {city(d['city'])}{rfp}." if fr else
                f"Ambassador {amb} is executed at {city(d['city'])}{rfp}.")
    if k == "AmbassadorImprisoned":
        return (f"L'ambassadeur {amb} est emprisonné à {city(d['city'])} (rançon {d['ransom']} PO)." if fr else
                f"Ambassador {amb} is imprisoned at {city(d['city'])} (ransom {d['ransom']} PO).")
    if k == "RansomPaid":
        return (f"Phase d'Acclamation : {nat(ev.actor[7:])} paie la rançon de {d['ransom']} PO ; l'ambassadeur {d['ambassador']} "
                f"est libéré." if fr else
                f"Acclamation phase: {nat(ev.actor[7:])} pays a {d['ransom']} PO ransom; ambassador {d['ambassador']} is freed.")
    if k == "AmbassadorExpelled":
        return (f"{nat(ev.actor[7:])} : son ambassade à {city(d['city'])} est dissoute, l'ambassadeur expulsé." if fr else
                f"{nat(ev.actor[7:])}: its embassy at {city(d['city'])} is dissolved, the ambassador expelled.")
    if k == "WarDeclared":
        return (f"{party(ev.actor)} déclare la guerre à {party(d['target'])}." if fr else
                f"{party(ev.actor)} declares war on {party(d['target'])}.")
    if k == "PeaceMade":
        return f"Paix entre {party(ev.actor)} et {party(d['target'])}." if fr else f"Peace between {party(ev.actor)} and {party(d['target'])}."
    if k in ("InvasionRecorded", "RepulseRecorded"):
        if fr:
            what = "repousse l'invasion venue de" if k == "RepulseRecorded" else "est envahie par"
            return f"{d['defender']} {what} {d['attacker']}."
        what = "repels the invasion from" if k == "RepulseRecorded" else "is invaded from"
        return f"{d['defender']} {what} {d['attacker']}."
    return None


# ---- a nation's orders as a French game master says them (``realmsim run --explain --lang fr``) -----
_TREATY_FR = {"commercial": "accord commercial", "alliance": "alliance militaire", "pact": "pacte d'amitié éternel"}
_WORD_FR = {"pass": "passer", "buy ambassador": "acheter un ambassadeur", "interfere": "interférer",
            "abstain": "s'abstenir", "agree": "accepter", "refuse": "refuser"}
_MN_PATTERNS: Patterns = [
    (re.compile(r"^buy ambassador at (.+)$"), lambda m: f"acheter un ambassadeur en {m[1]}"),
    (re.compile(r"^mission (\S+) to (\S+) \((\w+), gift (\d+)\)$"),
     lambda m: f"mission {m[1]} vers {m[2]} ({_TREATY_FR.get(m[3], m[3])}, cadeau {m[4]} PO)"),
    (re.compile(r"^renew embassy (#\d+) \(gift (\d+)\)$"), lambda m: f"renouveler l'ambassade {m[1]} (cadeau {m[2]} PO)"),
    (re.compile(r"^recall (\S+)$"), lambda m: f"rappeler {m[1]}"),
    (re.compile(r"^accept (#\d+)$"), lambda m: f"recevoir la mission {m[1]}"),
    (re.compile(r"^dismiss (#\d+)$"), lambda m: f"renvoyer la mission {m[1]}"),
    (re.compile(r"^imprison (#\d+) ransom (\d+)$"), lambda m: f"emprisonner l'envoyé de la mission {m[1]} (rançon {m[2]} PO)"),
    (re.compile(r"^execute (#\d+)$"), lambda m: f"exécuter l'envoyé de la mission {m[1]}"),
    (re.compile(r"^propose (\w+) to (\S+)$"),
     lambda m: f"proposer {'une' if m[1] == 'alliance' else 'un'} {_TREATY_FR.get(m[1], m[1])} à {m[2]}"),
    (re.compile(r"^break treaty (#\d+)$"), lambda m: f"rompre le traité {m[1]}"),
    (re.compile(r"^declare war on (\S+)$"), lambda m: f"déclarer la guerre à {m[1]}"),
    (re.compile(r"^raise army \(alliance (#\d+)\)$"), lambda m: f"lever une armée (alliance {m[1]})"),
    (re.compile(r"^honour obligation (#\d+)$"), lambda m: f"honorer l'obligation {m[1]}"),
    (re.compile(r"^pay ransom of (\S+)$"), lambda m: f"payer la rançon de {m[1]}"),
    (re.compile(r"^interfere with the (\S+) mission to (\S+) \((\w+)\)$"),
     lambda m: f"interférer avec la mission de {m[1]} vers {m[2]} ({_TREATY_FR.get(m[3], m[3])})"),
]


def order_fr(label: str) -> str:
    """A nation's order label (``sim.rules.mn.order_label``, the heuristic's ``_label``) in French;
    what it does not know stays as it is."""
    return translate(label, _WORD_FR, _MN_PATTERNS)


def tell(ev: Event, lang: str, model: Any) -> str | None:
    """The chronicle line of an MN event (the one entry point every chronicle table has), or None."""
    return render(ev, lang, model.world.mn_state())
