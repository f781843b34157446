"""The chronicle table of LINK: one template per event kind it tells, in English and French
(moved out of ``agents/systems/link.py``; the driver's ``chronicle`` looks the kind up here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.events import Event

if TYPE_CHECKING:
    from sim.world import World


# ---- chronicle ------------------------------------------------------------------------------------


def _kingdom(w: World, kid: str | None, lang: str) -> str:
    if w.km is None or kid is None or kid not in w.km.kingdoms:
        return str(kid)
    k = w.km.kingdoms[kid]
    return (k.name_fr or k.name) if lang == "fr" else k.name


def _nation(w: World, nid: str | None, lang: str) -> str:
    if w.mn is None or nid is None or nid not in w.mn.nations:
        return str(nid)
    n = w.mn.nations[nid]
    return (n.name_fr or n.name) if lang == "fr" else n.name


def _guild(w: World, gid: str | None) -> str:
    if w.gw is None or gid is None or gid not in w.gw.guilds:
        return str(gid)
    return w.gw.guilds[gid].name


def _domain(w: World, did: str | None) -> str:
    if w.gw is None or did is None or did not in w.gw.domains:
        return str(did)
    return w.gw.domains[did].name


def _de(name: str) -> str:
    """French « de » with elision: « d'Avalon », « de Dravenmark »."""
    return f"d'{name}" if name[:1].upper() in "AEIOUYÉÈÊÂÎÔ" else f"de {name}"


_SAME_PLURAL = ("infantry", "cavalry", "militia")


def _plural(name: str, n: int, lang: str) -> str:
    if n <= 1:
        return name
    first, _, rest = name.partition(" ")
    if lang == "fr":
        first = first if first.endswith(("s", "x")) else first + "s"
        return f"{first} {rest}" if rest else first
    if name in _SAME_PLURAL:
        return name
    return f"{name}s"


def _units(d: dict[str, int], lang: str, w: World) -> str:
    cat = w.config.gw.units
    parts = []
    for k, n in sorted(d.items()):
        name = cat[k].french if lang == "fr" and k in cat else k.replace("_", " ")
        parts.append(f"{n} {_plural(name, n, lang)}")
    return ", ".join(parts)


_CUR = {"en": {"bp": "BP", "po": "PO", "solar": "solars"}, "fr": {"bp": "PC", "po": "PO", "solar": "solars"}}


def _converted(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    who = _kingdom(w, ev.actor.partition(":")[2], lang)
    what = d.get("what") or ""
    if lang == "fr":
        sens = "recette" if ev.outcome == "income" else "dépense"
        quoi = {"income": "revenu", "mission": "mission diplomatique", "ambassador bought": "ambassadeur",
                "renewal": "renouvellement", "ransom": "rançon"}.get(what, what)
        return (f"Trésorerie {_de(who)} : {sens} de Mare Nostrum ({quoi}) de {d['po']} PO → {'+' if ev.outcome == 'income' else '−'}"
                f"{d['bp']} PC (trésorerie {d['treasury_after']} PC).")
    sense = "income" if ev.outcome == "income" else "cost"
    return (f"Treasury of {who}: Mare Nostrum {sense} ({what}) of {d['po']} PO → {'+' if ev.outcome == 'income' else '−'}"
            f"{d['bp']} BP (treasury {d['treasury_after']} BP).")


def _raised(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    who = _nation(w, ev.actor.partition(":")[2], lang)
    cur = _CUR["fr" if lang == "fr" else "en"][d["currency"]]
    if lang == "fr":
        why = "alliance militaire" if d["reason"] == "alliance" else "pacte d'amitié éternel"
        return (f"{who} lève l'armée {d['army']} ({why}) à {_domain(w, d['domain'])} (province {_de(d['province'])}), sous son sceau militaire "
                f"{d['seal']} : {_units(d['units'], lang, w)}, {d['solars']} solars = {d['price']} {cur}.")
    why = "military alliance" if d["reason"] == "alliance" else "eternal friendship pact"
    return (f"{who} raises army {d['army']} ({why}) at {_domain(w, d['domain'])} in {d['province']}, under its military seal "
            f"{d['seal']}: {_units(d['units'], lang, w)}, {d['solars']} solars = {d['price']} {cur}.")


def _not_raised(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    who = _nation(w, ev.actor.partition(":")[2], lang)
    if lang == "fr":
        return f"{who} ne peut lever d'armée dans la province {_de(d['province'])} : {d['why']}."
    return f"{who} cannot raise an army in {d['province']}: {d['why']}."


def _funded(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    who = _nation(w, ev.actor.partition(":")[2], lang)
    cur = _CUR["fr" if lang == "fr" else "en"][d["currency"]]
    if lang == "fr":
        short = "" if ev.outcome == "funded" else " (insuffisant)"
        return f"{who} paie l'entretien de ses armées : {d['solars']} solars pour {d['units']} unités, {d['price']} {cur}{short}."
    short = "" if ev.outcome == "funded" else " (short)"
    return f"{who} pays its armies' upkeep: {d['solars']} solars for {d['units']} units, {d['price']} {cur}{short}."


def _attack(ev: Event, lang: str, w: World) -> str | None:
    d = ev.data
    if ev.outcome == "own province":
        return None
    gid = ev.actor.partition(":")[2]
    nat = _nation(w, d["nation"], lang)
    dom = _domain(w, d["domain"])
    own_army = w.gw is not None and gid in w.gw.guilds and w.gw.guilds[gid].nation is not None  # LINK-06
    if lang == "fr":
        g = f"l'armée {_de(nat)}" if own_army else f"{_guild(w, gid)} ({nat})"
        if ev.outcome == "invasion":
            return f"L'assaut de {g} sur {dom} compte comme une invasion de la province {_de(d['defender'])} par celle {_de(d['attacker'])}."
        return f"L'assaut repoussé de {g} sur {dom} compte comme une invasion venue {_de(d['attacker'])}, repoussée par la province {_de(d['defender'])}."
    g = f"the army of {nat}" if own_army else f"{_guild(w, gid)} ({nat})"
    if ev.outcome == "invasion":
        return f"The assault of {g} on {dom} counts as an invasion of {d['defender']} from {d['attacker']}."
    return f"The failed assault of {g} on {dom} counts as {d['defender']} repelling an invasion from {d['attacker']}."


def _occupied(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    k = _kingdom(w, ev.actor.partition(":")[2], lang)
    gs = ", ".join(_guild(w, g) for g in d["guilds"])
    if lang == "fr":
        return f"{_domain(w, d['domain'])}, sur les terres {_de(k)}, est occupé par {gs} : Insatisfaction +1 à la prochaine phase d'entretien."
    return f"{_domain(w, d['domain'])}, in the lands of {k}, is occupied by {gs}: Unrest +1 at the next Upkeep."


def _unrest(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    k = _kingdom(w, ev.actor.partition(":")[2], lang)
    if lang == "fr":
        return f"Phase d'entretien {_de(k)} : domaines occupés, Insatisfaction {d['unrest_before']} → {d['unrest_after']}."
    return f"Upkeep of {k}: occupied domains, Unrest {d['unrest_before']} → {d['unrest_after']}."


def _hex_lost(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    k = _kingdom(w, ev.actor.partition(":")[2], lang)
    where = f"[{d['hex'][0]}, {d['hex'][1]}]"
    if lang == "fr":
        return f"{k} perd l'hexagone {where} ({_domain(w, d['domain'])} annexé par {_guild(w, d['guild'])}) : taille {d['size_after']}."
    return f"{k} loses hex {where} ({_domain(w, d['domain'])} annexed by {_guild(w, d['guild'])}): Size {d['size_after']}."


def _conquered(ev: Event, lang: str, w: World) -> str:
    d = ev.data
    k = _kingdom(w, ev.actor.partition(":")[2], lang)
    t = _kingdom(w, d["target"], lang)
    if lang == "fr":
        return f"{k} conquiert {t} : sa capitale est annexée par {_guild(w, d['guild'])} (il peut l'assujettir par un édit de vassalité)."
    return f"{k} conquers {t}: its capital is annexed by {_guild(w, d['guild'])} (it may subjugate it with a Vassalage edict)."


LINES: dict[str, Any] = {
    "TreasuryConverted": _converted,
    "NationArmyRaised": _raised,
    "NationArmyNotRaised": _not_raised,
    "NationArmyUpkeepFunded": _funded,
    "AttackReported": _attack,
    "OccupationReported": _occupied,
    "OccupationUnrest": _unrest,
    "HexLostToGuild": _hex_lost,
    "KingdomConqueredByGuilds": _conquered,
}

KINDS: frozenset[str] = frozenset(LINES)


def tell(ev: Event, lang: str, model: Any) -> str | None:
    """The chronicle line of a LINK event (the one entry point every chronicle table has), or None."""
    fn = LINES.get(ev.kind)
    if fn is None:
        return None
    line = fn(ev, lang, model.world)
    return None if line is None else str(line)
