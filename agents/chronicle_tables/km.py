"""The chronicle table of KM: one template per event kind it tells, in English and French
(moved out of ``agents/systems/km.py``; the driver's ``chronicle`` looks the kind up here)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agents.chronicle_tables import Patterns, translate
from sim.events import Event
from sim.rules import km as K
from sim.state.km import KmWorld

if TYPE_CHECKING:
    pass



# ---- the chronicle (English and French, with the seed's terms) -----------------------------------

_MOD_FR = {
    "Economy": "Économie",
    "Loyalty": "Loyauté",
    "Stability": "Stabilité",
    "Unrest": "Insatisfaction",
    "Diplomacy": "Diplomatie",
    "Intimidate": "Intimidation",
    "Bluff": "Bluff",
    "Sense Motive": "Psychologie",
    "Knowledge (local)": "Connaissances (folklore local)",
    "Knowledge (nobility)": "Connaissances (noblesse)",
    "Knowledge (geography)": "Connaissances (géographie)",
    "Survival": "Survie",
    "Stealth (least stealthy)": "Discrétion (le moins discret)",
    "Fame bonus": "bonus de Gloire",
    "Infamy bonus": "bonus d'Infamie",
    "own Infamy": "Infamie du royaume",
    "active armies": "armées actives",
}
_TERM_FR = {
    "base": "base",
    "own Infamy": "Infamie du royaume",
    "target special size": "taille spéciale de la cible",
    "own special size": "taille spéciale du royaume",
    "alignment difference": "différence d'alignement",
    "relationships": "relations",
    "own Fame": "Gloire du royaume",
    "bribes": "pots-de-vin",
    "Control DC": "DD de contrôle",
    "RM": "MR",
    "LM": "ML",
}
_RESULT_FR = {
    "embassy established": "ambassade établie",
    "embassy rejected": "ambassade refusée",
    "threat rejected": "menace repoussée",
    "war declared": "guerre déclarée",
    "embassy closed": "ambassade fermée",
    "embassy kept": "ambassade maintenue",
    "unchanged": "inchangé",
    "new opposed checks": "nouveaux tests opposés",
}
_TERRAIN_FR = {
    "plains": "plaines", "hills": "collines", "forest": "forêt", "mountains": "montagnes", "desert": "désert",
    "marsh": "marais", "jungle": "jungle", "moor": "lande", "tundra": "toundra", "water": "eau", "cavern": "caverne",
}
_ATT_FR = {"hostile": "hostile", "unfriendly": "inamical", "indifferent": "indifférent", "friendly": "amical", "helpful": "serviable"}
_TYPE = {
    "en": {"food": "Food", "goods": "Goods", "luxuries": "Luxuries", "raw_materials": "Raw materials"},
    "fr": {"food": "Nourriture", "goods": "Marchandises", "luxuries": "Produits de luxe", "raw_materials": "Matières premières"},
}
_ATTR_FR = {"economy": "Économie", "loyalty": "Loyauté", "stability": "Stabilité"}
_KIND_FR = {"embassy": "ambassade", "threat": "menace", "treaty": "traité", "alliance": "alliance", "rebalance": "rééquilibrage"}
_MODE = {
    "en": {"new_vassal": "a new vassal", "colony": "a colony", "subjugation": "subjugation"},
    "fr": {"new_vassal": "un nouveau vassal", "colony": "une colonie affiliée", "subjugation": "assujettissement"},
}


def _name(km: KmWorld, kid: str | None, lang: str) -> str:
    if kid is None:
        return "?"
    k = km.kingdoms.get(kid)
    if k is None:
        return kid
    return (k.name_fr or k.name) if lang == "fr" else k.name


def _term(name: str, fr: bool) -> str:
    """A DC term's name; in French the seed's terms (attitude names too)."""
    if not fr:
        return name
    if name.startswith("attitude ("):
        att = name[len("attitude ("):-1]
        return f"attitude ({_ATT_FR.get(att, att)})"
    if name.endswith(" Corruption"):
        return name.replace(" Corruption", " : Corruption")
    if name.endswith(" Productivity"):
        return name.replace(" Productivity", " : Productivité")
    return _TERM_FR.get(name, name)


def _check_text(ev: Event, lang: str) -> str:
    """``d20 = 12 + Stability 40 − Unrest 3 = 49 vs DC 45: success``."""
    fr = lang == "fr"
    d20 = next((f for s, f in ev.dice if s == 20), None)
    parts = [f"d20 = {d20}" if d20 is not None else "d20 = ?"]
    for n, v in ev.mods:
        if v == 0 and n not in ("Economy", "Loyalty", "Stability"):
            continue
        nm = _MOD_FR.get(n, n) if fr else n
        parts.append(f"{'+' if v >= 0 else '−'} {nm} {abs(v)}")
    res = {"success": "réussite", "failure": "échec"}.get(ev.outcome, ev.outcome) if fr else ev.outcome
    dc = "DD" if fr else "DC"
    vs = "contre" if fr else "vs"
    return f"{' '.join(parts)} = {ev.total} {vs} {dc} {ev.dc} : {res}" if fr else f"{' '.join(parts)} = {ev.total} {vs} {dc} {ev.dc}: {res}"



# terrain improvements (SC-KM-32) in the French of the seed and of Pathfinder's French edition
IMPROVEMENTS_FR = {"farm": "ferme", "fishery": "pêcherie", "mine": "mine", "quarry": "carrière", "sawmill": "scierie",
                   "road": "route", "highway": "grand-route", "canal": "canal"}

# the kinds render() tells (a line of the if-chain below each)
KINDS: frozenset[str] = frozenset({
    "AgreementRebalanced", "AgreementRefused", "AgreementRenegotiated", "AgreementSigned", "AidRefused",
    "AlliedArmyStationed", "AnarchyBegan", "AnarchyEnded", "AttackLoyaltyCheckRolled",
    "BuildingConstructed", "CloseEmbassyLoyaltyCheckRolled", "ConsumptionPaid", "DiplomacyCheckRolled",
    "DiplomaticEdictIssued", "DistrictAdded", "EdictsSet", "EmbassyBuildingBought", "EncounterMet",
    "EncounterResolvedByPCs", "EnforcerLoyaltyCheckRolled", "EnvoyArrived", "EnvoyRecalled", "EnvoySent",
    "ExplorationEdictIssued", "ExplorerStabilityCheckRolled", "ExplorerStealthCheckRolled",
    "ExplorersReturned", "HexAbandoned", "HexClaimed", "HexExplored", "HexLostToUnrest",
    "HiddenFeatureCheckRolled", "IntimidateCheckRolled", "KingdomAttacked", "KingdomConquered",
    "KingdomTurnBegan", "OpposedCheckRolled", "OrderRejected", "PeaceMade",
    "RenegotiationLoyaltyCheckRolled", "ScenarioUnrest", "SettlementFounded", "SizeMilestoneReached",
    "StandInRulerLoyaltyCheckRolled", "SubjugationFrictionCheckRolled", "TaxesCollected",
    "TaxesNotCollected", "TerrainImprovementBuilt", "TradeCaravanArrived", "TradeCaravanSetOut",
    "TradeCheckRolled", "TradeEdictIssued", "TradeExpeditionLost", "TradeGoodsSoldElsewhere",
    "TradeRouteEstablished", "TradeRouteExpired", "UnrestFromNegativeAttributes",
    "UpkeepStabilityCheckRolled", "VacancyUnrestRose", "VassalConstructionBudgetGranted",
    "VassalageEdictIssued", "WithdrawalLoyaltyCheckRolled",
})


def render(ev: Event, lang: str, km: KmWorld) -> str | None:  # noqa: C901 - one line per event kind
    fr = lang == "fr"
    d = ev.data
    kid = ev.actor.partition(":")[2] if ev.actor.startswith("kingdom:") else None
    me = _name(km, kid, lang)
    k = ev.kind

    def nm(x: str | None) -> str:
        return _name(km, x, lang)

    if k == "KingdomTurnBegan":
        if d["turn"] % 12:
            return None
        if fr:
            return (f"{me} : taille {d['size']}, trésorerie {d['treasury']} PC, Économie {d['economy']}, Loyauté {d['loyalty']}, "
                    f"Stabilité {d['stability']}, Insatisfaction {d['unrest']}, DD de contrôle {d['control_dc']}, "
                    f"Consommation {d['consumption']}, Gloire {d['fame']}, Infamie {d['infamy']}.")
        return (f"{me}: Size {d['size']}, Treasury {d['treasury']} BP, Economy {d['economy']}, Loyalty {d['loyalty']}, "
                f"Stability {d['stability']}, Unrest {d['unrest']}, Control DC {d['control_dc']}, Consumption {d['consumption']}, "
                f"Fame {d['fame']}, Infamy {d['infamy']}.")
    if k == "UpkeepStabilityCheckRolled":
        extra = ""
        if len(ev.dice) > 1:
            extra = f" (1d4 = {ev.dice[1][1]})"
        gain = (" ; trésorerie +1 PC" if fr else "; Treasury +1 BP") if d.get("treasury_gain") else ""
        if fr:
            return (f"{me}, phase d'entretien — test de Stabilité : {_check_text(ev, lang)}{extra} ; Insatisfaction "
                    f"{d['unrest_before']} → {d['unrest_after']}{gain}.")
        return (f"{me}, Upkeep — Stability check: {_check_text(ev, lang)}{extra}; Unrest {d['unrest_before']} → "
                f"{d['unrest_after']}{gain}.")
    if k == "ConsumptionPaid":
        if ev.outcome != "in debt":
            return None
        return (f"{me} paie sa Consommation de {ev.total} PC et s'endette (trésorerie {d['treasury_after']} PC) : Insatisfaction +2."
                if fr else f"{me} pays {ev.total} BP of Consumption and falls into debt (Treasury {d['treasury_after']} BP): Unrest +2.")
    if k == "TaxesCollected":
        return (f"{me}, revenus — test d'Économie : d20 = {ev.dice[0][1]} → {ev.total} ; impôts {d['tax']} PC "
                f"+ {d['improvements']} PC d'aménagements ; trésorerie {d['treasury_after']} PC." if fr else
                f"{me}, Income — Economy check: d20 = {ev.dice[0][1]} → {ev.total}; taxes {d['tax']} BP + {d['improvements']} BP "
                f"from improvements; Treasury {d['treasury_after']} BP.")
    if k == "TaxesNotCollected":
        return f"{me} : pas de Trésorier, aucun impôt n'est perçu." if fr else f"{me}: no Treasurer, no taxes collected."
    if k == "UnrestFromNegativeAttributes":
        return (f"{me} : attributs négatifs, Insatisfaction +{ev.total} ({d['unrest_after']})." if fr else
                f"{me}: negative attributes, Unrest +{ev.total} ({d['unrest_after']}).")
    if k == "VacancyUnrestRose":
        return (f"{me} : fonction inoccupée ({d['role']}), Insatisfaction +{ev.total} ({d['unrest_after']})." if fr else
                f"{me}: vacant role ({d['role']}), Unrest +{ev.total} ({d['unrest_after']}).")
    if k in ("StandInRulerLoyaltyCheckRolled", "EnforcerLoyaltyCheckRolled"):
        who = d.get("stand_in", "exécuteur royal" if fr else "Royal Enforcer")
        return (f"{me} — test de Loyauté ({who}) : {_check_text(ev, lang)}." if fr else
                f"{me} — Loyalty check ({who}): {_check_text(ev, lang)}.")
    if k == "SubjugationFrictionCheckRolled":
        extra = f" ; 1d4 = {ev.dice[1][1]}, Insatisfaction {d['unrest_after']}" if fr and len(ev.dice) > 1 else (
            f"; 1d4 = {ev.dice[1][1]}, Unrest {d['unrest_after']}" if len(ev.dice) > 1 else "")
        eq = (" — équilibre pacifique atteint" if fr else " — peaceful equilibrium reached") if d["equilibrium"] else ""
        return (f"{me}, frictions avec {nm(d['subject'])} assujetti — test de Loyauté : {_check_text(ev, lang)}{extra} "
                f"(série {d['streak']}){eq}." if fr else
                f"{me}, friction with subjugated {nm(d['subject'])} — Loyalty check: {_check_text(ev, lang)}{extra} "
                f"(streak {d['streak']}){eq}.")
    if k == "HexLostToUnrest":
        return (f"{me} perd l'hexagone {d['hex']} (Insatisfaction {d['unrest']} ; taille {d['size_after']})." if fr else
                f"{me} loses hex {d['hex']} to Unrest {d['unrest']} (Size {d['size_after']}).")
    if k in ("AnarchyBegan", "AnarchyEnded"):
        if fr:
            return f"{me} sombre dans l'anarchie (Insatisfaction {d['unrest']})." if k == "AnarchyBegan" else f"{me} sort de l'anarchie."
        return f"{me} falls into anarchy (Unrest {d['unrest']})." if k == "AnarchyBegan" else f"{me} emerges from anarchy."
    if k == "EdictsSet":
        if ev.outcome != "changed":
            return None
        return (f"{me} fixe ses édits : jours fériés {d['holiday']}, publicitaire {d['promotion']}, taxation {d['taxation']}." if fr
                else f"{me} sets its edicts: Holiday {d['holiday']}, Promotion {d['promotion']}, Taxation {d['taxation']}.")
    if k == "HexClaimed":
        return (f"{me} annexe l'hexagone {d['hex']} ({_TERRAIN_FR.get(d['terrain'], d['terrain'])}) pour 1 PC ; taille {d['size_after']}." if fr else
                f"{me} claims hex {d['hex']} ({d['terrain']}) for 1 BP; Size {d['size_after']}.")
    if k == "HexAbandoned":
        return (f"{me} abandonne l'hexagone {d['hex']} : Insatisfaction +{ev.total}." if fr else
                f"{me} abandons hex {d['hex']}: Unrest +{ev.total}.")
    if k == "TerrainImprovementBuilt":
        return (f"{me} aménage l'hexagone {d['hex']} : {IMPROVEMENTS_FR.get(ev.outcome, ev.outcome)} ({ev.total} PC)." if fr else
                f"{me} builds a {ev.outcome} on hex {d['hex']} ({ev.total} BP).")
    if k == "SettlementFounded":
        return f"{me} fonde la communauté de {ev.outcome} ({ev.total} PC)." if fr else f"{me} founds the settlement of {ev.outcome} ({ev.total} BP)."
    if k == "DistrictAdded":
        return f"{me} ajoute un quartier à {ev.outcome} ({ev.total} PC)." if fr else f"{me} adds a district to {ev.outcome} ({ev.total} BP)."
    if k == "BuildingConstructed":
        b = K.BUILDINGS.get(ev.outcome)
        bname = b.french if (fr and b) else ev.outcome.replace("_", " ")
        return (f"{me} construit : {bname} à {d['settlement']} ({ev.total} PC ; trésorerie {d['treasury_after']} PC)." if fr else
                f"{me} builds a {bname} in {d['settlement']} ({ev.total} BP; Treasury {d['treasury_after']} BP).")
    if k == "EmbassyBuildingBought":
        b = K.BUILDINGS[ev.outcome]
        return (f"{me} achète son ambassade ({b.french}) à {d['settlement']} chez {nm(d['host'])} ({ev.total} PC)." if fr else
                f"{me} buys its embassy ({ev.outcome.replace('_', ' ')}) in {d['settlement']}, {nm(d['host'])} ({ev.total} BP).")
    if k == "SizeMilestoneReached":
        what = ("Gloire" if "fame" in ev.outcome else "Infamie") if fr else ("Fame" if "fame" in ev.outcome else "Infamy")
        return f"{me} atteint la taille {d['size']} : {what} +1." if fr else f"{me} reaches Size {d['size']}: {what} +1."
    if k == "EnvoySent":
        return (f"{me} envoie un ambassadeur vers {nm(d['target'])} ({d['hexes']} hexagones, {ev.total} jour(s))." if fr else
                f"{me} sends an envoy to {nm(d['target'])} ({d['hexes']} hexes, {ev.total} day(s)).")
    if k == "EnvoyArrived":
        return (f"L'ambassadeur de {nm(d['kingdom'])} arrive à la capitale de {nm(d['target'])} : représentant officiel présent." if fr
                else f"The envoy of {nm(d['kingdom'])} reaches the capital of {nm(d['target'])}: an official representative is present.")
    if k == "EnvoyRecalled":
        return f"{me} rappelle son ambassadeur de {nm(d['target'])}." if fr else f"{me} recalls its envoy from {nm(d['target'])}."
    if k == "DiplomaticEdictIssued":
        kind = _KIND_FR.get(ev.outcome, ev.outcome) if fr else ev.outcome
        bribe = (f", pots-de-vin {d['bribe']} PC" if fr else f", bribes {d['bribe']} BP") if d["bribe"] else ""
        return (f"{me} promulgue un édit spécial : édit diplomatique ({kind}) envers {nm(d['target'])} — coût 1d4 = {d['cost']} PC"
                f"{bribe} ; trésorerie {d['treasury_after']} PC." if fr else
                f"{me} issues a special edict: Diplomatic edict ({kind}) towards {nm(d['target'])} — cost 1d4 = {d['cost']} BP{bribe}; "
                f"Treasury {d['treasury_after']} BP.")
    if k in ("DiplomacyCheckRolled", "IntimidateCheckRolled"):
        skill = ("Diplomatie" if k == "DiplomacyCheckRolled" else "Intimidation") if fr else (
            "Diplomacy" if k == "DiplomacyCheckRolled" else "Intimidate")
        att = d.get("attempt", "")
        attn = _KIND_FR.get(att, att) if fr else att
        n = f" {d['check']}/{d['of']}" if "check" in d else ""
        terms = ", ".join(f"{_term(t, fr)} {'+' if v >= 0 else ''}{v}" for t, v in d.get("dc_terms", []))
        tail = ""
        if d.get("attitude"):
            a0, a1 = d["attitude"]
            tail = (f" ; attitude de {nm(d['target'])} : {_ATT_FR[a0]} → {_ATT_FR[a1]}" if fr else
                    f"; {nm(d['target'])}'s attitude {a0} → {a1}")
        if d.get("result"):
            tail += f" → {_RESULT_FR.get(d['result'], d['result']) if fr else d['result']}"
        dcw = "DD" if fr else "DC"
        return (f"{me}, {attn} avec {nm(d['target'])} — test de {skill}{n} : {_check_text(ev, lang)} ({dcw} = {terms}){tail}." if fr else
                f"{me}, {attn} with {nm(d['target'])} — {skill} check{n}: {_check_text(ev, lang)} ({dcw} = {terms}){tail}.")
    if k == "OpposedCheckRolled":
        ours, theirs = d["totals"][-1]
        who = me if ev.outcome == "envoy wins" else nm(d["target"])
        return (f"Test opposé ({_MOD_FR.get(d['skill'], d['skill'])} contre {_MOD_FR.get(d['target_skill'], d['target_skill'])}) : {me} {ours}, {nm(d['target'])} {theirs} → avantage {who} "
                f"({d['envoy_wins']}–{d['target_wins']})." if fr else
                f"Opposed check ({d['skill']} vs {d['target_skill']}): {me} {ours}, {nm(d['target'])} {theirs} → {who} "
                f"({d['envoy_wins']}–{d['target_wins']}).")
    if k == "AgreementSigned":
        kind = ev.outcome.split()[-1]
        bal = ev.outcome.split()[0]
        bonus = ", ".join(f"{nm(x)} +{v}" for x, v in d["bonus"].items())
        attr = ("Économie" if d["attribute"] == "economy" else "Stabilité") if fr else d["attribute"].capitalize()
        if fr:
            return (f"{_KIND_FR[kind].capitalize()} {'équilibré' if bal == 'balanced' else 'déséquilibré'} signé entre {me} et "
                    f"{nm(d['target'])} (avantage {nm(d['advantaged'])}) : {attr} {bonus}.")
        return f"A {bal} {kind} is signed between {me} and {nm(d['target'])} (advantage {nm(d['advantaged'])}): {attr} {bonus}."
    if k == "AgreementRefused":
        kind = ev.outcome.split()[-1]
        return (f"{nm(d['target'])} refuse le {_KIND_FR[kind]} : Gloire −1 pour {me}, nouvelle tentative au tour {d['ban_until'] + 1}."
                if fr else f"{nm(d['target'])} refuses the {kind}: {me}'s Fame −1; no new attempt before turn {d['ban_until'] + 1}.")
    if k == "AgreementRebalanced":
        return (f"{me} rééquilibre son {_KIND_FR[ev.outcome.split()[-1]]} avec {nm(d['target'])} : Gloire +1." if fr else
                f"{me} makes its {ev.outcome.split()[-1]} with {nm(d['target'])} balanced: Fame +1.")
    if k == "AgreementRenegotiated":
        return (f"{me} renégocie avec {nm(d['target'])} : {ev.outcome}." if fr else f"{me} renegotiates with {nm(d['target'])}: {ev.outcome}.")
    if k in ("CloseEmbassyLoyaltyCheckRolled", "WithdrawalLoyaltyCheckRolled", "RenegotiationLoyaltyCheckRolled", "AttackLoyaltyCheckRolled"):
        acts = {"CloseEmbassyLoyaltyCheckRolled": ("fermer l'ambassade", "closing the embassy"),
                "WithdrawalLoyaltyCheckRolled": ("se retirer du traité", "withdrawing from the agreement"),
                "RenegotiationLoyaltyCheckRolled": ("renégocier", "renegotiating"),
                "AttackLoyaltyCheckRolled": ("attaquer", "attacking")}[k]
        return (f"{me}, {acts[0]} ({nm(d['target'])}) — test de Loyauté : {_check_text(ev, lang)}." if fr else
                f"{me}, {acts[1]} ({nm(d['target'])}) — Loyalty check: {_check_text(ev, lang)}.")
    if k == "ExplorationEdictIssued":
        faces = ", ".join(str(f) for _, f in ev.dice)
        return (f"{me} promulgue un édit spécial : édit d'exploration, {ev.outcome.replace('month(s)', 'mois')} — {len(d['route'])} "
                f"hexagone(s) ; coût {ev.total} PC ({faces}) ; trésorerie {d['treasury_after']} PC." if fr else
                f"{me} issues a special edict: Exploration edict, {ev.outcome} — {len(d['route'])} hex(es); cost {ev.total} BP "
                f"({faces}); Treasury {d['treasury_after']} BP.")
    if k == "HexExplored":
        found = (f" ; découverte : {', '.join(d['found'])}" if fr else f"; found: {', '.join(d['found'])}") if d["found"] else ""
        return (f"Les explorateurs de {me} cartographient l'hexagone {d['hex']} ({_TERRAIN_FR.get(d['terrain'], d['terrain'])}, "
                f"jour {d['day']}){found}." if fr else
                f"{me}'s explorers map hex {d['hex']} ({d['terrain']}, day {d['day']}){found}.")
    if k == "HiddenFeatureCheckRolled":
        skill = _MOD_FR.get(ev.mods[0][0], ev.mods[0][0]) if fr else ev.mods[0][0]
        return (f"Les explorateurs de {me} cherchent ({skill}) : d20 = {ev.dice[0][1]} → {ev.total} ; {ev.outcome}." if fr else
                f"{me}'s explorers search ({skill}): d20 = {ev.dice[0][1]} → {ev.total}; {ev.outcome}.")
    if k in ("ExplorerStealthCheckRolled", "ExplorerStabilityCheckRolled"):
        what = ("test de Discrétion" if fr else "Stealth check") if k == "ExplorerStealthCheckRolled" else (
            "test de Stabilité" if fr else "Stability check")
        res = ""
        if k == "ExplorerStabilityCheckRolled":
            res = {"scattered": " — dispersés", "killed": " — tués, Insatisfaction +1"}[d["result"]] if fr else \
                {"scattered": " — scattered", "killed": " — killed, Unrest +1"}[d["result"]]
        enc = d.get("name") or (f"FP {d['cr']}" if fr else f"CR {d['cr']}")
        return (f"Les explorateurs de {me} font une rencontre hostile ({enc}, jour {d['day']}) — {what} : {_check_text(ev, lang)}{res}." if fr
                else f"{me}'s explorers meet a hostile encounter ({enc}, day {d['day']}) — {what}: {_check_text(ev, lang)}{res}.")
    if k in ("EncounterMet", "EncounterResolvedByPCs"):
        return (f"Les explorateurs de {me} : rencontre (jour {d['day']}) — {ev.outcome}." if fr else
                f"{me}'s explorers: encounter (day {d['day']}) — {ev.outcome}.")
    if k == "ExplorersReturned":
        return (f"Les explorateurs de {me} rentrent à la capitale : {len(d['explored'])} hexagone(s) cartographié(s)." if fr else
                f"{me}'s explorers return to the capital: {len(d['explored'])} hex(es) mapped.")
    if k == "TradeEdictIssued":
        t = _TYPE["fr" if fr else "en"][ev.outcome]
        return (f"{me} promulgue un édit spécial : édit commercial ({t}) de {d['origin']} vers {d['destination']} ({nm(d['partner'])}) — "
                f"investissement {ev.total} PC, LRC {d['trl']}, MR {d['rm']}, ML {d['lm']}, {d['days']} jour(s) de voyage." if fr else
                f"{me} issues a special edict: Trade edict ({t}) from {d['origin']} to {d['destination']} ({nm(d['partner'])}) — "
                f"investment {ev.total} BP, TRL {d['trl']}, RM {d['rm']}, LM {d['lm']}, {d['days']} day(s) of travel.")
    if k == "TradeCaravanSetOut":
        return (f"La caravane marchande de {me} ({ev.outcome}) part avec {ev.total} unité(s) de marchandises et {d['provisions']} "
                f"rations." if fr else
                f"{me}'s merchant caravan ({ev.outcome}) sets out with {ev.total} cargo unit(s) of trade goods and "
                f"{d['provisions']} provisions.")
    if k == "TradeCaravanArrived":
        return (f"La caravane marchande de {me} est arrivée : {ev.total} unité(s) de marchandises à vendre." if fr else
                f"{me}'s merchant caravan has arrived: {ev.total} unit(s) of trade goods to sell.")
    if k == "TradeCheckRolled":
        attr = _ATTR_FR[d["attribute"]] if fr else d["attribute"].capitalize()
        terms = ", ".join(f"{_term(t, fr)} {'+' if v >= 0 else ''}{v}" for t, v in d.get("dc_terms", []))
        dcw = "DD" if fr else "DC"
        if fr:
            de = "d'" if attr[0] in "ÉE" else "de "
            return f"{me}, route commerciale — test {de}{attr} : {_check_text(ev, lang)} ({dcw} = {terms})."
        return f"{me}, trade route — {attr} check: {_check_text(ev, lang)} ({dcw} = {terms})."
    if k == "TradeExpeditionLost":
        why = d.get("reason", "")
        if fr:
            why = {"zero successes": "aucun test réussi", "nothing left to sell": "plus rien à vendre"}.get(why, why)
        return (f"L'expédition commerciale de {me} est perdue ({why}) : Gloire −1, Insatisfaction +1." if fr else
                f"{me}'s trade expedition is lost ({why}): Fame −1, Unrest +1.")
    if k == "TradeGoodsSoldElsewhere":
        return (f"L'expédition de {me} vend ses marchandises ailleurs : +{ev.total} PC (trésorerie {d['treasury_after']} PC)." if fr else
                f"{me}'s expedition sells its goods elsewhere: +{ev.total} BP (Treasury {d['treasury_after']} BP).")
    if k == "TradeRouteEstablished":
        t = _TYPE["fr" if fr else "en"][d["type"]]
        great = (" (franc succès, Gloire +1)" if fr else " (great success, Fame +1)") if ev.outcome == "great success" else ""
        return (f"{me} établit une route commerciale ({t}) avec {nm(d['partner'])}{great} : Économie +{d['economy_bonus']} "
                f"+{d['type_bonus']} pendant un an, trésorerie +{ev.total} PC." if fr else
                f"{me} establishes a {t} trade route with {nm(d['partner'])}{great}: Economy +{d['economy_bonus']} "
                f"+{d['type_bonus']} for a year, Treasury +{ev.total} BP.")
    if k == "TradeRouteExpired":
        t = _TYPE["fr" if fr else "en"][d["type"]]
        return f"La route commerciale ({t}) de {me} arrive à son terme." if fr else f"{me}'s {t} trade route expires."
    if k == "VassalageEdictIssued":
        mode = _MODE["fr" if fr else "en"][ev.outcome]
        who = nm(d.get("target") or d.get("vassal"))
        return (f"{me} promulgue un édit spécial : édit de vassalité ({mode}) — {who}, vice-roi {d['viceroy']} ; coût 1d4 = "
                f"{d['cost']} PC, octroi {d['grant']} PC ; trésorerie {d['treasury_after']} PC." if fr else
                f"{me} issues a special edict: Vassalage edict ({mode}) — {who}, Viceroy {d['viceroy']}; cost 1d4 = {d['cost']} BP, "
                f"grant {d['grant']} BP; Treasury {d['treasury_after']} BP.")
    if k == "VassalConstructionBudgetGranted":
        return (f"{me} investit {ev.total} PC dans ses constructions ce tour-ci." if fr else f"{me} invests {ev.total} BP in construction this turn.")
    if k == "OrderRejected":
        return (f"{me} : ordre refusé ({d['path']}) — {d['reason']}." if fr else f"{me}: order refused ({d['path']}) — {d['reason']}.")
    if k in ("AidRefused", "KingdomConquered", "PeaceMade", "KingdomAttacked", "AlliedArmyStationed", "ScenarioUnrest"):
        target = nm(d.get("target") or d.get("ally"))
        texts = {
            "AidRefused": (f"{me} refuse l'aide demandée : Infamie +{ev.total}.", f"{me} fails to send the aid asked of it: Infamy +{ev.total}."),
            "KingdomConquered": (f"{me} conquiert {target}.", f"{me} conquers {target}."),
            "PeaceMade": (f"Paix entre {me} et {target}.", f"Peace between {me} and {target}."),
            "KingdomAttacked": (f"{me} attaque {target}.", f"{me} attacks {target}."),
            "AlliedArmyStationed": (f"Une armée alliée ({target}) stationne chez {me} : {ev.outcome}.",
                                    f"An allied army ({target}) is stationed in {me}: {ev.outcome}."),
            "ScenarioUnrest": (f"{me} : Insatisfaction +{ev.total}.", f"{me}: Unrest +{ev.total}."),
        }
        return texts[k][0 if fr else 1]
    return None


# ---- a kingdom's orders as a French game master says them (``realmsim run --explain --lang fr``) ---
_LEVEL_FR = {"nothing": "rien", "none": "aucun", "light": "légère", "normal": "normale", "heavy": "lourde",
             "overwhelming": "écrasante", "token": "symbolique", "standard": "standard", "aggressive": "agressive",
             "expansionist": "expansionniste", "1": "1 par an", "6": "6 par an", "12": "12 par an", "24": "24 par an"}
_RELATION_FR = {"close_embassy": "fermer l'ambassade", "renegotiate": "renégocier", "withdraw": "se retirer"}
_ORDER_PATTERNS: Patterns = [
    (re.compile(r"^(farm|fishery|mine|quarry|sawmill|road|highway|canal) (?:on|at) (.+)$"),
     lambda m: f"{IMPROVEMENTS_FR[m[1]]} {'sur' if m[2].startswith('#') else 'en'} {m[2]}"),
    (re.compile(r"^claim (.+)$"), lambda m: f"revendiquer {m[1]}"),
    (re.compile(r"^give up (.+)$"), lambda m: f"abandonner {m[1]}"),
    (re.compile(r"^build (\w+) in (.+)$"),
     lambda m: f"construire : {K.BUILDINGS[m[1]].french if m[1] in K.BUILDINGS else m[1]} à {m[2]}"),
    (re.compile(r"^embassy (\w+) in (.+) \((.+)\)$"),
     lambda m: f"ambassade ({K.BUILDINGS[m[1]].french if m[1] in K.BUILDINGS else m[1]}) à {m[2]} ({m[3]})"),
    (re.compile(r"^diplomatic (\w+) → (.+?)(?: \(bribe (\d+)\))?$"),
     lambda m: f"édit diplomatique : {_KIND_FR.get(m[1], m[1])} → {m[2]}" + (f" (pot-de-vin {m[3]} PC)" if m[3] else "")),
    (re.compile(r"^exploration (\d+) month\(s\), (\d+) hex\(es\) from (.+)$"),
     lambda m: f"exploration de {m[1]} mois, {m[2]} hexagone(s) depuis {m[3]}"),
    (re.compile(r"^trade (\w+) (.+) → (.+) \((.+)\), (\d+) BP$"),
     lambda m: f"commerce ({_TYPE['fr'].get(m[1], m[1]).lower()}) {m[2]} → {m[3]} ({m[4]}), {m[5]} PC"),
    (re.compile(r"^vassalage (\w+) (.+), viceroy (.+)$"),
     lambda m: f"vassalité : {_MODE['fr'].get(m[1], m[1])} {m[2].replace('hex(es)', 'hexagone(s)')}, vice-roi {m[3]}"),
    (re.compile(r"^(close_embassy|renegotiate|withdraw) (treaty|alliance) with (.+)$"),
     lambda m: f"{_RELATION_FR[m[1]]} ({_KIND_FR.get(m[2], m[2])}) avec {m[3]}"),
]


def order_fr(label: str) -> str:
    """A kingdom's order label (``sim.rules.km.turn.label``, the heuristic's ``order_label``) in French;
    what it does not know (a kingdom's id as a target, a scripted order) stays as it is."""
    return translate(label, _LEVEL_FR, _ORDER_PATTERNS)


def tell(ev: Event, lang: str, model: Any) -> str | None:
    """The chronicle line of a KM event (the one entry point every chronicle table has), or None."""
    return render(ev, lang, model.world.km_state())
