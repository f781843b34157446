"""The chronicle table of GW: one template per event kind it tells, in English and French
(moved out of ``agents/systems/gw.py``; the driver's ``chronicle`` looks the kind up here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.config import GwConfig
from sim.events import Event

if TYPE_CHECKING:
    from agents.model import RealmModel


def _n(d: dict[str, Any]) -> int:
    return sum(int(v) for v in d.values())


_EN_SAME_PLURAL = ("infantry", "cavalry", "militia")


def _plural(name: str, n: int, lang: str) -> str:
    if n <= 1:
        return name
    first, _, rest = name.partition(" ")
    if lang == "fr":
        if not first.endswith(("s", "x")):
            first += "s"
    elif name not in _EN_SAME_PLURAL:
        if rest:  # "siege engine" → "siege engines"
            return f"{name}s"
        first += "s"
    return f"{first} {rest}" if rest else first


def _units(d: dict[str, Any], lang: str, model: RealmModel) -> str:
    if not d:
        return "—"
    cat = model.world.config.gw.units
    names = []
    for k, n in sorted(d.items()):
        name = cat[k].french if lang == "fr" and k in cat else k.replace("_", " ")
        names.append(f"{n} {_plural(name, int(n), lang)}")
    return ", ".join(names)


def _lost(rows: list[Any]) -> int:
    return len(rows)


_FORT_FR = ["aucune fortification", "palissade", "donjon", "château", "citadelle"]


# ---- chronicle lines ------------------------------------------------------------------------------


def _guild_name(model: RealmModel, gid: str | None) -> str:
    gw = model.world.gw
    if gw is None or gid is None or gid not in gw.guilds:
        return str(gid)
    return gw.guilds[gid].name


def _dom(model: RealmModel, did: str | None) -> str:
    gw = model.world.gw
    if gw is None or did is None or did not in gw.domains:
        return str(did)
    return gw.domains[did].name


def _owner_of_army(model: RealmModel, ev: Event) -> str:
    return _guild_name(model, ev.data.get("guild"))


def _deployed(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    seals = len(d["own_seals"]) + len(d["other_seals"]) + len(d.get("support_seals", []))  # support seals are engaged seals (GW-DEP-05)
    units = {**d["handed_in"]}
    for k, n in d["requisitioned"].items():
        units[k] = units.get(k, 0) + n
    if lang == "fr":
        sw = "sceau militaire" if seals == 1 else "sceaux militaires"
        return (
            f"{_owner_of_army(model, ev)} déploie l'armée {ev.actor[5:]} à {_dom(model, d['domain'])} en engageant "
            f"{seals} {sw} (capacité {d['capacity']}) : {_units(units, lang, model)}, force {d['strength']}."
        )
    sw = "military seal" if seals == 1 else "military seals"
    return (
        f"{_owner_of_army(model, ev)} deploys army {ev.actor[5:]} at {_dom(model, d['domain'])}, engaging {seals} {sw} "
        f"(capacity {d['capacity']}): {_units(units, lang, model)}, strength {d['strength']}."
    )


def _moved(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    to = model.world.map.label(d["end"])
    if lang == "fr":
        tail = "" if ev.outcome == "arrived" else f" (en route vers {model.world.map.label(d['to'])})"
        return f"L'armée {ev.actor[5:]} ({_owner_of_army(model, ev)}) marche {ev.total} hexagones jusqu'à {to}{tail}."
    tail = "" if ev.outcome == "arrived" else f" (on its way to {model.world.map.label(d['to'])})"
    return f"Army {ev.actor[5:]} ({_owner_of_army(model, ev)}) marches {ev.total} hexes to {to}{tail}."


def _battle(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    att = ", ".join(d["attackers"])
    where = model.world.map.label(d["hex"])
    gar_a = f" + garnison de {_dom(model, d['attacker_garrison'])}" if lang == "fr" and d["attacker_garrison"] else ""
    gar_d = f" + garnison de {_dom(model, d['defender_garrison'])}" if lang == "fr" and d["defender_garrison"] else ""
    if lang != "fr":
        gar_a = f" + garrison of {_dom(model, d['attacker_garrison'])}" if d["attacker_garrison"] else ""
        gar_d = f" + garrison of {_dom(model, d['defender_garrison'])}" if d["defender_garrison"] else ""
    la, ld = _lost(d["attackers_lost"]), _lost(d["defenders_lost"])
    gone = ", ".join(d["armies_destroyed"])
    if lang == "fr":
        g = f" Armée(s) détruite(s) : {gone}." if gone else ""
        return (
            f"Bataille à {where} : front de {att}{gar_a} (force {d['attacker_strength']}) contre front de {d['target']}{gar_d} "
            f"(force {d['defender_strength']}). Pertes : {la} unité(s) contre {ld}.{g}"
        )
    g = f" Army(ies) destroyed: {gone}." if gone else ""
    return (
        f"Battle at {where}: the front of {att}{gar_a} (strength {d['attacker_strength']}) against the front of {d['target']}{gar_d} "
        f"(strength {d['defender_strength']}). Units lost: {la} against {ld}.{g}"
    )


def _attacked(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    att = ", ".join(d["attackers"])
    la, ld = _lost(d["attackers_lost"]), _lost(d["defenders_lost"])
    dom = _dom(model, d["domain"])
    lvl = d["fortification"]
    helpers = ", ".join(d["defenders"])
    if lang == "fr":
        fort = _FORT_FR[lvl] if lvl < len(_FORT_FR) else f"fortification {lvl}"
        res = "réussit : le domaine est occupé" if ev.outcome == "success" else "échoue"
        who = f"sa garnison et l'armée {helpers}" if helpers else "sa garnison"
        return (
            f"Assaut de {att} (force {d['attacker_strength']}) sur {dom} ({fort}), défendu par {who} "
            f"(force {d['defender_strength']}) : l'attaque {res}. Pertes : {la} unité(s) contre {ld}."
        )
    names = model.world.config.gw.fortification_names
    fort = names[lvl] if lvl < len(names) else f"fortification {lvl}"
    res = "succeeds: the domain is occupied" if ev.outcome == "success" else "fails"
    who = f"its garrison and army {helpers}" if helpers else "its garrison"
    return (
        f"Assault of {att} (strength {d['attacker_strength']}) on {dom} ({fort}), defended by {who} "
        f"(strength {d['defender_strength']}): the attack {res}. Units lost: {la} against {ld}."
    )


def _fed(ev: Event, lang: str, model: RealmModel) -> str | None:
    if ev.outcome == "fed":
        return None
    d = ev.data
    dom = _dom(model, ev.actor[7:])
    if lang == "fr":
        return f"Famine au siège de {dom} : {ev.total} victuailles payées sur {ev.dc} dues pour {d['units']} unités de la garnison."
    return f"Famine at the siege of {dom}: {ev.total} victuals paid of the {ev.dc} due for {d['units']} garrison units."


def _desertion(ev: Event, lang: str, model: RealmModel) -> str:
    dom = _dom(model, ev.actor[7:])
    n = len(ev.data["destroyed"])
    if lang == "fr":
        return f"Désertion à {dom} : {ev.total} points de dommage, {n} unité(s) de la garnison désertent."
    return f"Desertion at {dom}: {ev.total} damage, {n} garrison unit(s) desert."


def _siege_damage(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    dom = _dom(model, ev.actor[7:])
    a, b = len(d["destroyed"]), len(d["destroyed_besiegers"])
    if lang == "fr":
        return f"Dégâts de siège à {dom} : {ev.total} dommages sur la garnison ({a} unité(s) détruite(s)), {d['garrison_damage']} sur les assiégeants ({b})."
    return f"Siege damage at {dom}: {ev.total} on the garrison ({a} unit(s) destroyed), {d['garrison_damage']} on the besiegers ({b})."


def _besieging(ev: Event, lang: str, model: RealmModel) -> str:
    dom = _dom(model, ev.data["domain"])
    if lang == "fr":
        return f"L'armée {ev.actor[5:]} ({_owner_of_army(model, ev)}) assiège {dom} ({ev.total} unités contre {ev.dc} en garnison)."
    return f"Army {ev.actor[5:]} ({_owner_of_army(model, ev)}) besieges {dom} ({ev.total} units against {ev.dc} in the garrison)."


def _short(ev: Event, lang: str, model: RealmModel) -> str:
    dom = _dom(model, ev.data["domain"])
    if lang == "fr":
        return f"L'armée {ev.actor[5:]} termine son siège de {dom} avec moins d'unités que la garnison ({ev.total} < {ev.dc}) : elle n'assiège plus le domaine."
    return f"Army {ev.actor[5:]} ends its siege of {dom} with fewer units than the garrison ({ev.total} < {ev.dc}): it no longer besieges it."


def _occupied(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    dom = _dom(model, ev.actor[7:])
    arm = ", ".join(d["armies"])
    if lang == "fr":
        c = f" Constructions et affectations annulées : {', '.join(d['cancelled'])}." if d["cancelled"] else ""
        return f"{dom} est sous occupation ({arm}).{c}"
    c = f" Constructions and assignments cancelled: {', '.join(d['cancelled'])}." if d["cancelled"] else ""
    return f"{dom} is occupied ({arm}).{c}"


def _sacked(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    dom = _dom(model, d["domain"])
    if lang == "fr":
        return f"L'armée {ev.actor[5:]} saccage {dom} : {len(d['destroyed'])} bâtiment(s) détruit(s), {ev.total} points de structure."
    return f"Army {ev.actor[5:]} sacks {dom}: {len(d['destroyed'])} building(s) destroyed, {ev.total} structure points."


def _loot(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    where = model.world.map.label(d["hex"])
    if lang == "fr":
        src = f"{d['units']} unités détruites" if ev.outcome == "battle" else f"{d['units']} points de structure saccagés"
        return f"Un butin de guerre de {ev.total} solars apparaît à {where} ({src}, 1d6 = {ev.dice[0][1]})."
    src = f"{d['units']} units destroyed" if ev.outcome == "battle" else f"{d['units']} structure points sacked"
    return f"A war loot worth {ev.total} solars appears at {where} ({src}, 1d6 = {ev.dice[0][1]})."


def _annexed(ev: Event, lang: str, model: RealmModel) -> str:
    d = ev.data
    dom = _dom(model, d["domain"])
    g = _guild_name(model, ev.actor[6:])
    former = _guild_name(model, d["former_owner"])
    if lang == "fr":
        occ = f" Occupants restants : {', '.join(d['still_occupied_by'])}." if d["still_occupied_by"] else ""
        return (
            f"Annexion de {dom} par {g} (sceau politique {d['seal']}) : le domaine passe à {d['new_owner']} ; "
            f"{d['compensation']} solars de compensation déposés à la Banque de l'Hippocampe pour {former}.{occ}"
        )
    occ = f" Still occupied by: {', '.join(d['still_occupied_by'])}." if d["still_occupied_by"] else ""
    return (
        f"{g} annexes {dom} (political seal {d['seal']}): the domain passes to {d['new_owner']}; "
        f"{d['compensation']} solars of compensation deposited at the Banque de l'Hippocampe for {former}.{occ}"
    )


def _returned(ev: Event, lang: str, model: RealmModel) -> str:
    g = _guild_name(model, ev.actor[6:])
    dom = _dom(model, ev.data["domain"])
    if lang == "fr":
        return f"{g} rapporte le titre de propriété de {dom} et récupère {ev.total} solars de la Banque de l'Hippocampe."
    return f"{g} returns the property title of {dom} and recovers {ev.total} solars from the Banque de l'Hippocampe."


def _forfeited(ev: Event, lang: str, model: RealmModel) -> str:
    g = _guild_name(model, ev.actor[6:])
    dom = _dom(model, ev.data["domain"])
    d = ev.data
    if lang == "fr":
        return (
            f"{g} n'a pas rapporté le titre de propriété de {dom} : la Banque de l'Hippocampe garde {ev.total} solars, "
            f"notoriété {d['notoriety_before']} → {d['notoriety_after']}."
        )
    return (
        f"{g} did not return the property title of {dom}: the Banque de l'Hippocampe keeps {ev.total} solars; "
        f"notoriety {d['notoriety_before']} → {d['notoriety_after']}."
    )


def _delivered(ev: Event, lang: str, model: RealmModel) -> str:
    dom = _dom(model, ev.data["domain"])
    if lang == "fr":
        kind = "original" if ev.outcome == "original" else "de remplacement"
        return f"Le titre de propriété {kind} de {dom} est remis à {ev.data['holder']}."
    return f"The {ev.outcome} property title of {dom} is handed to {ev.data['holder']}."


def _destroyed(ev: Event, lang: str, model: RealmModel) -> str:
    if lang == "fr":
        return f"L'armée {ev.actor[5:]} ({_owner_of_army(model, ev)}) est détruite."
    return f"Army {ev.actor[5:]} ({_owner_of_army(model, ev)}) is destroyed."


def _claimed(ev: Event, lang: str, model: RealmModel) -> str:
    g = _guild_name(model, ev.actor[6:])
    where = model.world.map.label(ev.data["hex"])
    if lang == "fr":
        how = "ramasse" if ev.outcome == "pick_up_loot" else "trouve par une chasse aux trésors"
        return f"{g} {how} le butin de guerre de {where} ({ev.total} solars)."
    how = "picks up" if ev.outcome == "pick_up_loot" else "finds by a treasure hunt"
    return f"{g} {how} the war loot at {where} ({ev.total} solars)."


def _upkeep(ev: Event, lang: str, model: RealmModel) -> str | None:
    if not ev.data["left"]:
        return None
    g = _guild_name(model, ev.actor[6:])
    n = len(ev.data["left"])
    if lang == "fr":
        return f"{g} ne peut payer l'entretien de ses armées : {n} unité(s) s'en vont."
    return f"{g} cannot pay its armies' upkeep: {n} unit(s) leave."


LINES: dict[str, Any] = {
    "ArmyDeployed": _deployed,
    "ArmyMoved": _moved,
    "BattleFought": _battle,
    "DomainAttacked": _attacked,
    "GarrisonFed": _fed,
    "DesertionSuffered": _desertion,
    "SiegeDamageDealt": _siege_damage,
    "ArmyBesieging": _besieging,
    "SiegeFellShort": _short,
    "DomainOccupied": _occupied,
    "DomainSacked": _sacked,
    "LootCreated": _loot,
    "DomainAnnexed": _annexed,
    "TitleReturned": _returned,
    "CompensationForfeited": _forfeited,
    "TitleDelivered": _delivered,
    "ArmyDestroyed": _destroyed,
    "LootClaimed": _claimed,
    "UpkeepPaid": _upkeep,
}


# ---- a guild's orders as a French game master says them (``realmsim run --explain --lang fr``) ------
# (the order's own grammar, ``sim.state.gw.Order.__str__``: ``recruit units=knight:15``)
_VERB_FR = {"recruit": "recruter", "reinforce": "renforcer la garnison", "deploy": "déployer une armée",
            "lend_seals": "prêter ses sceaux", "refuse_seals": "ne pas prêter ses sceaux", "disband": "dissoudre l'armée", "move": "marcher",
            "siege": "assiéger", "attack_domain": "attaquer le domaine", "attack_army": "attaquer l'armée",
            "sack": "piller", "annex": "annexer", "return_title": "rendre le titre de propriété",
            "treasure_hunt": "chasse au trésor", "pick_up_loot": "ramasser le butin",
            "domain_action": "action de domaine", "end": "fin des ordres"}
_KEY_FR = {"domain": "domaine", "army": "armée", "to": "vers", "target": "cible", "seals": "sceaux",
           "support_seals": "sceaux en support", "units": "unités", "requisition": "réquisition", "seal": "sceau",
           "loot": "butin", "season": "saison", "action": "action", "lend": "prêt", "proxy": "procuration"}


def _units_fr(value: str) -> str:
    kinds = GwConfig().units
    out = []
    for item in value.split(","):
        kind, _, n = item.partition(":")
        out.append(f"{n} × {kinds[kind].french}" if kind in kinds and n else item)
    return ", ".join(out)


_ACTION_FR = {"assign": "affectation", "build": "construction"}


def order_fr(label: str) -> str:
    """A guild's order (``verb key=value …``) in French words; unknown verbs and keys stay as they are.
    A hex (``to=197``) is written ``#197`` for the explanation to name."""
    if label == "end of orders":  # sim.orders.END
        return "fin des ordres"
    verb, *pairs = label.split(" ")
    if verb == "lend_seals" and "lend=no" in pairs:
        verb, pairs = "refuse_seals", [p for p in pairs if p != "lend=no"]
    words = [_VERB_FR.get(verb, verb)]
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            return label  # not an order of the grammar
        if key in ("units", "requisition"):
            value = _units_fr(value)
        elif key == "to" and value.isdigit():
            words.append(f"vers #{value}")
            continue
        elif key == "action":
            value = _ACTION_FR.get(value, value.replace("_", " "))
        elif value in ("no", "yes"):
            value = {"no": "non", "yes": "oui"}[value]
        words.append(f"{_KEY_FR.get(key, key)} {value}")
    return words[0] + (" — " + ", ".join(words[1:]) if len(words) > 1 else "")

KINDS: frozenset[str] = frozenset(LINES)


def tell(ev: Event, lang: str, model: Any) -> str | None:
    """The chronicle line of a GW event (the one entry point every chronicle table has), or None."""
    fn = LINES.get(ev.kind)
    if fn is None:
        return None
    line = fn(ev, lang, model)
    return None if line is None else str(line)
