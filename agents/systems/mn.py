"""Driver of Mare Nostrum diplomacy (MN): the turn on the SimPy clock, the agents, the chronicle.

One SimPy process wakes at hour 0 of every MN turn (``model.at(hour, Phase.MN, 0)``; a turn is
``1 / mn.turns_per_year`` of a year, a season when MN runs with other systems, LINK-01) and plays
the phases of SC-MN-03 in order, nations in ascending id:

1. special-units construction — ambassadors bought;
2. missions launched, renewed, ambassadors recalled; return trips end;
3. diplomacy — arriving missions (host choices; tests with interference), then treaties between
   players in contact;
4. military phase — scenario wars, peace and invasions, pact obligations, breaks, wars declared,
   armies raised (purchase step);
5. Acclamation (*Phase d'Acclamation*), in the last turn of each year — ransoms;
6. end of turn — income, expiries, overdue pact obligations.

The process keeps nothing between wake-ups: the next turn is ``world.mn.turn + 1``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.ambassador import AmbassadorAgent, ensure_agent
from agents.nation import NationAgent
from agents.systems import SystemDriver, attach_link
from sim.calendar import Phase
from sim.events import Event
from sim.rules import diplomacy as dip
from sim.rules import links
from sim.state.mn import MnWorld

if TYPE_CHECKING:
    from agents.model import RealmModel


class PolicyChooser:
    """Interference decisions (RES-MN-16) asked of the nations' policies."""

    def __init__(self, model: RealmModel) -> None:
        self.model = model

    def interfere(self, nation: str, ctx: dip.InterferenceContext) -> bool:
        agent: NationAgent = self.model.by_key[f"nation:{nation}"]
        o = agent.choose("interfere", legal=[dip.Interfere(False), dip.Interfere(True)], subject=ctx,
                         clauses=("MN-INT-01", "RES-MN-16"))
        return bool(getattr(o, "yes", False))

    def sign(self, nation: str, ctx: dip.InterferenceContext, d20: int) -> int:
        agent: NationAgent = self.model.by_key[f"nation:{nation}"]
        o = agent.choose("interference_sign", legal=[dip.InterferenceSign(1), dip.InterferenceSign(-1)], subject=ctx,
                         clauses=("MN-INT-01", "RES-MN-16"), d20=d20)
        return int(getattr(o, "sign", 1))


def _mn(model: RealmModel) -> MnWorld:
    mn = model.world.mn
    assert mn is not None, "the mn system is enabled but the world has no MN state"
    return mn


def turn_start(mn: MnWorld, turn: int, start: int = 0) -> int:
    return start + (turn - 1) * mn.turn_hours


def run_turn(model: RealmModel, turn: int) -> None:
    """Play MN turn ``turn`` (SC-MN-03)."""
    mn = _mn(model)
    cfg = model.world.config.mn
    led = model.ledger
    mn.turn = turn
    accl = dip.is_acclamation_turn(mn, cfg)
    led.emit("mn", "TurnBegan", "world", ("SC-MN-03", "SC-MN-08"), outcome=str(turn), turn=turn,
             year=(turn + mn.first_turn_in_year - 2) // cfg.turns_per_year + 1, acclamation=accl)
    nations: list[NationAgent] = [model.by_key[f"nation:{n}"] for n in sorted(mn.nations)]
    # --- LINK hooks: one treasury in BP for a faction that is both a kingdom and a nation (LINK-03),
    # settled after every order; armies raised become GW armies of this campaign (LINK-06)
    money = links.MnTreasuries(model.world, led) if model.world.km is not None else None
    hook = links.army_hook(model.world, led, money or links.MnTreasuries(model.world, led)) if model.world.gw is not None else None

    def settle(what: str) -> None:
        if money is not None:
            money.settle(what)

    # (1) special-units construction: ambassadors bought
    for ag in nations:
        for _ in range(4):
            o = ag.choose("buy", clauses=("RES-MN-01", "SC-MN-03"))
            if not isinstance(o, dip.BuyAmbassador):
                break
            amb = dip.resolve_buy(mn, ag.nation, o, led, cfg)
            settle("ambassador bought")
            ensure_agent(model, amb.id)

    # (2) return trips end, then missions launched, renewed, recalls
    for amb_id in list(mn.ambassadors):
        if mn.ambassadors[amb_id].state == "travelling":
            ensure_agent(model, amb_id).travel()
    for ag in nations:
        for amb in [a for a in mn.ambassadors.values() if a.nation == ag.nation and a.state in ("home", "at_post")]:
            if amb.state not in ("home", "at_post"):
                continue  # changed by an earlier order of this phase
            o = ag.choose("ambassador", subject=amb, clauses=("RES-MN-17", "MN-MIS-02"))
            if isinstance(o, dip.LaunchMission):
                dip.resolve_launch(mn, ag.nation, o, led, cfg)
                settle("mission")
            elif isinstance(o, dip.RenewTreaty):
                dip.resolve_renew(mn, ag.nation, o, led, cfg)
                settle("renewal")
            elif isinstance(o, dip.Recall):
                dip.resolve_recall(mn, ag.nation, o, led, cfg)

    # (3) diplomacy: arriving missions in ascending player id, then treaties between players in contact
    chooser = PolicyChooser(model)
    for m in dip.arriving_missions(mn):
        if m in mn.missions:
            ensure_agent(model, m.ambassador).arrive(m, chooser)
    for ag in nations:
        for partner in sorted(mn.nations):
            if partner == ag.nation or not dip.in_contact(mn, ag.nation, partner):
                continue
            o = ag.choose("propose", subject=partner, clauses=("MN-HOST-02", "RES-MN-04"))
            if isinstance(o, dip.SignTreaty):
                other: NationAgent = model.by_key[f"nation:{partner}"]
                c = other.choose("consent", legal=[dip.Consent(False), dip.Consent(True)], subject=ag.nation,
                                 clauses=("MN-HOST-02", "RES-MN-04"), kind=o.kind)
                dip.resolve_sign(mn, ag.nation, o, led, cfg, consent=bool(getattr(c, "agree", False)))

    # (4) military phase: scenario actions, obligations, breaks and wars, armies raised
    for ev in mn.script:
        if ev.turn == turn:
            dip.apply_scripted(mn, ev, led, cfg)
    for ag in nations:
        nd = model.dice.stream("mn", ag.key)
        for ob in sorted((o for o in mn.obligations if o.nation == ag.nation and o.status == "open"), key=lambda o: o.id):
            if ob.status != "open":
                continue
            o = ag.choose("obligation", subject=ob, clauses=("MN-TRE-07", "RES-MN-06"))
            if isinstance(o, dip.HonourPact):
                dip.resolve_honour(mn, ag.nation, o, led, cfg, hook=hook)
            elif isinstance(o, dip.BreakTreaty):
                dip.resolve_break(mn, ag.nation, o, nd, led, cfg)
        o = ag.choose("military", clauses=("RES-MN-17", "SC-MN-05", "SC-MN-10"))
        if isinstance(o, dip.BreakTreaty):
            dip.resolve_break(mn, ag.nation, o, nd, led, cfg)
        elif isinstance(o, dip.DeclareWar):
            dip.resolve_declare_war(mn, f"nation:{ag.nation}", o, led, cfg)
        elif isinstance(o, dip.RaiseArmy):
            dip.resolve_raise_army(mn, ag.nation, o, led, cfg, hook=hook)

    # (5) Acclamation phase: ransoms
    if accl:
        led.emit("mn", "AcclamationPhase", "world", ("SC-MN-09", "RES-MN-14"), outcome=str(turn), turn=turn)
        for ag in nations:
            for amb in [a for a in mn.ambassadors.values() if a.nation == ag.nation and a.state == "imprisoned"]:
                o = ag.choose("ransom", subject=amb, clauses=("RES-MN-14", "MN-OUT-04"))
                if isinstance(o, dip.PayRansom):
                    dip.resolve_ransom(mn, ag.nation, o, led, cfg)
                    settle("ransom")

    # (6) end of turn: income, expiries, overdue obligations
    dip.end_of_turn(mn, lambda nid: model.dice.stream("mn", f"nation:{nid}"), led, cfg)
    settle("income")


class _Driver(SystemDriver):
    name = "mn"
    phase = Phase.MN

    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        mn = _mn(model)
        for nid in sorted(mn.nations):
            NationAgent(model, nid, mn.nations[nid].policy)
        for amb_id in mn.ambassadors:
            AmbassadorAgent(model, amb_id)
        model.process(self._turns(model))

    def _turns(self, model: RealmModel) -> Any:
        mn = _mn(model)
        while True:
            turn = mn.turn + 1
            at = turn_start(mn, turn, model.world.start)
            if at >= model.world.end:
                return
            yield model.at(at, Phase.MN, 0)
            run_turn(model, turn)

    # ---- reports -------------------------------------------------------------------------------
    def summary(self, model: RealmModel) -> dict[str, int | float]:
        mn = _mn(model)
        s = mn.stats
        out: dict[str, int | float] = {"mn.turns": mn.turn, "mn.nations": len(mn.nations)}
        for f in s.__struct_fields__:
            out[f"mn.{f}"] = getattr(s, f)
        states = [a.state for a in mn.ambassadors.values()]
        for st in ("home", "travelling", "at_post", "imprisoned", "dead"):
            out[f"mn.ambassadors_{st}"] = states.count(st)
        out["mn.treaties_in_force"] = len(mn.treaties)
        for kind in ("commercial", "alliance", "pact"):
            out[f"mn.{kind}_in_force"] = sum(1 for t in mn.treaties if t.kind == kind)
        out["mn.embassies"] = len(mn.embassies)
        out["mn.wars"] = len(mn.wars)
        out["mn.treasury_total"] = sum(n.treasury for n in mn.nations.values())
        out["mn.treasury_max"] = max((n.treasury for n in mn.nations.values()), default=0)
        out["mn.treasury_min"] = min((n.treasury for n in mn.nations.values()), default=0)
        return out

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        mn = _mn(model)
        out: dict[str, dict[str, Any]] = {}
        for nid, n in mn.nations.items():
            k = f"nation:{nid}"
            out[k] = {
                "treasury": n.treasury,
                "provinces": len(n.provinces),
                "ambassadors": sum(1 for a in mn.ambassadors.values() if a.nation == nid and a.state != "dead"),
                "embassies": sum(1 for e in mn.embassies if e.nation == nid),
                "treaties": sum(1 for t in mn.treaties if dip.treaty_involves(t, k)),
                "imports": len({i.resource for i in n.imports}),
            }
        return out

    def invariants(self, model: RealmModel) -> list[str]:
        return dip.invariant_problems(_mn(model))

    def chronicle_kinds(self) -> frozenset[str]:
        return KINDS

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        return render(ev, lang, _mn(model))


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


DRIVER = _Driver()
