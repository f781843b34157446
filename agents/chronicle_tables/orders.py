"""An order as a game master reads it, in English or French, with the table's names.

The ledger labels each alternative of a decision in the engine's words (``sim.rules.<sys>`` labels,
the policies' own: ``attack_domain army=griffon-2 domain=gue-cendres``, ``declare war on
nation:carthage``, ``farm on #451``, ``trade raw_materials Restov → Pitax (pitax), 5 BP``).
:func:`order_words` says each in one language, naming factions, cities, domains and buildings as the
scenario's tables name them and every hex as the map does (``Westwatch [4,6]``, ``[11,2]``: the
policies' own words, so that the engine's ``#47`` and a policy's ``[11,2]`` read alike).

What it does not know stays as it is (a scripted order, an outside policy's label). Ids without a
name in any table (armies, seals, ambassadors) stay ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.chronicle_tables import cv as cv_tables
from agents.chronicle_tables import gw as gw_tables
from agents.chronicle_tables import km as km_tables
from agents.chronicle_tables import mn as mn_tables
from agents.chronicle_tables.names import TREATY, Names
from sim.config import GwConfig
from sim.rules import cv as cr
from sim.rules import km as K

_HEX = re.compile(r"#(\d+)")
_VOWEL = re.compile(r"^[AEIOUYÉÈÊÂÎaeiouyéèêâîh]")


def de(name: str) -> str:
    """French ``de`` before a name, elided before a vowel: ``de Rome``, ``d'Avalon``."""
    return f"d'{name}" if _VOWEL.match(name) and not name.startswith(("le ", "la ", "les ", "l'")) else f"de {name}"


def _hexes(text: str, names: Names) -> str:
    """Every ``#N`` hex index as the map names the hex."""
    return _HEX.sub(lambda m: names.place(int(m.group(1))), text)


def _mn_ids(text: str, names: Names) -> str:
    """Every ``#N`` of a Mare Nostrum order (an embassy, a mission, a treaty) in words."""
    return _HEX.sub(lambda m: names.mn_thing(int(m.group(1))), text)


# ---- KM: a kingdom's orders -----------------------------------------------------------------------
_KM_LEVELS = {
    "en": {"nothing": "nothing", "none": "none", "1": "1 a year", "6": "6 a year", "12": "12 a year", "24": "24 a year",
           "balanced": "a balanced agreement", "unbalanced": "an agreement to its advantage"},
    "fr": {"balanced": "un accord équilibré", "unbalanced": "un accord à son avantage"},
}
_KM_KIND_EN = {"embassy": "embassy", "threat": "threat", "treaty": "treaty", "alliance": "alliance", "rebalance": "rebalancing"}
_KM_RELATION = {"en": {"close_embassy": "close the embassy", "renegotiate": "renegotiate", "withdraw": "withdraw"},
                "fr": {"close_embassy": "fermer l'ambassade", "renegotiate": "renégocier", "withdraw": "se retirer"}}
_BUILDING_EN = {"casters_tower": "caster's tower"}
_TRADE_TYPE = {"en": {"food": "food", "goods": "goods", "luxuries": "luxuries", "raw_materials": "raw materials"},
               "fr": {"food": "nourriture", "goods": "marchandises", "luxuries": "produits de luxe",
                      "raw_materials": "matières premières"}}


def building(kind: str, lang: str) -> str:
    """A kingdom building (SC-KM-31) by its name: ``trade shop`` / ``commerce``."""
    b = K.BUILDINGS.get(kind)
    if lang == "fr":
        return b.french if b is not None else kind
    return _BUILDING_EN.get(kind, kind.replace("_", " "))


def improvement(kind: str, lang: str) -> str:
    return km_tables.IMPROVEMENTS_FR.get(kind, kind) if lang == "fr" else kind


def _km(label: str, lang: str, names: Names, slot: str) -> str:
    fr = lang == "fr"
    kingdom = lambda k: names.faction(k, "kingdom")  # noqa: E731
    if label.isdigit() and slot in ("claim", "lose_hex"):  # a hex claimed or given up, by its index
        label = ("claim " if slot == "claim" else "give up ") + f"#{label}"
    if label in _KM_LEVELS[lang]:
        return _KM_LEVELS[lang][label]
    if fr and label in km_tables._LEVEL_FR:
        return km_tables._LEVEL_FR[label]
    if m := re.fullmatch(r"(farm|fishery|mine|quarry|sawmill|road|highway|canal) (?:on|at) (.+)", label):
        where = _hexes(m[2], names)
        return f"{improvement(m[1], lang)} {'en' if fr else 'at'} {where}"
    if m := re.fullmatch(r"claim (.+)", label):
        return f"{'revendiquer' if fr else 'claim'} {_hexes(m[1], names)}"
    if m := re.fullmatch(r"give up (.+)", label):
        return f"{'abandonner' if fr else 'give up'} {_hexes(m[1], names)}"
    if m := re.fullmatch(r"build (\w+) in (.+)", label):
        return f"construire : {building(m[1], lang)} à {m[2]}" if fr else f"build a {building(m[1], lang)} in {m[2]}"
    if m := re.fullmatch(r"embassy (\w+) in (.+) \((.+)\)", label):
        return (f"ambassade {de(kingdom(m[3]))} ({building(m[1], lang)}) à {m[2]}" if fr else
                f"{kingdom(m[3])}'s embassy ({building(m[1], lang)}) in {m[2]}")
    if m := re.fullmatch(r"diplomatic (\w+) → (.+?)(?: \(bribe (\d+)\))?", label):
        kind = km_tables._KIND_FR.get(m[1], m[1]) if fr else _KM_KIND_EN.get(m[1], m[1])
        bribe = (f" (pot-de-vin {m[3]} PC)" if fr else f" (bribe {m[3]} BP)") if m[3] else ""
        return (f"édit diplomatique : {kind} avec {kingdom(m[2])}" if fr else f"diplomatic edict: {kind} with {kingdom(m[2])}") + bribe
    if m := re.fullmatch(r"exploration (\d+) month\(s\), (\d+) hex\(es\) from (.+)", label):
        where = _hexes(m[3], names)
        return (f"exploration de {m[1]} mois, {m[2]} hexagone(s) depuis {where}" if fr else
                f"exploration of {m[1]} month(s), {m[2]} hex(es) from {where}")
    if m := re.fullmatch(r"trade (\w+) (.+) → (.+) \((.+)\), (\d+) BP", label):
        what = _TRADE_TYPE[lang].get(m[1], m[1])
        return (f"commerce de {what} {m[2]} → {m[3]} (avec {kingdom(m[4])}), {m[5]} PC" if fr else
                f"trade in {what} {m[2]} → {m[3]} (with {kingdom(m[4])}), {m[5]} BP")
    if m := re.fullmatch(r"vassalage (\w+) (.+), viceroy (.+)", label):
        mode = km_tables._MODE[lang].get(m[1], m[1])
        what = kingdom(m[2]) if m[1] == "subjugation" else m[2]
        if fr:
            return f"vassalité : {mode} {what.replace('hex(es)', 'hexagone(s)')}, vice-roi {m[3]}"
        return f"vassalage: {mode} {what}, viceroy {m[3]}"
    if m := re.fullmatch(r"(close_embassy|renegotiate|withdraw) (treaty|alliance) with (.+)", label):
        kind = km_tables._KIND_FR.get(m[2], m[2]) if fr else m[2]
        return f"{_KM_RELATION[lang][m[1]]} ({kind}) {'avec' if fr else 'with'} {kingdom(m[3])}"
    if slot in ("envoy", "relation", "target") or label in names.kinds.get("kingdom", {}):
        return kingdom(label)
    return km_tables.order_fr(label) if fr else label


# ---- MN: a nation's orders ---------------------------------------------------------------------------
_MN_WORDS = {"en": {"pass": "pass", "buy ambassador": "buy an ambassador", "interfere": "interfere", "abstain": "abstain",
                    "agree": "agree", "refuse": "refuse", "+": "for (+)", "-": "against (−)"},
             "fr": {"+": "en faveur (+)", "-": "contre (−)"}}


def _mn(label: str, lang: str, names: Names, slot: str) -> str:
    fr = lang == "fr"
    city = lambda c: names.of("city", c)  # noqa: E731

    def party(p: str) -> str:
        return names.key(p) if ":" in p else names.faction(p, "nation", "city", "kingdom")

    def treaty(kind: str) -> str:
        return TREATY[kind][1 if fr else 0] if kind in TREATY else kind

    if label in _MN_WORDS[lang]:
        return _MN_WORDS[lang][label]
    if fr and label in mn_tables._WORD_FR:  # pass, interfere, agree…
        return mn_tables._WORD_FR[label]
    if m := re.fullmatch(r"buy ambassador at (.+)", label):
        return f"acheter un ambassadeur en {m[1]}" if fr else f"buy an ambassador in {m[1]}"
    if m := re.fullmatch(r"mission (\S+) to (\S+) \((\w+), gift (\d+)\)", label):
        return (f"mission {de(m[1])} à {city(m[2])} ({treaty(m[3])}, cadeau {m[4]} PO)" if fr else
                f"mission of {m[1]} to {city(m[2])} ({treaty(m[3])}, gift {m[4]} PO)")
    if m := re.fullmatch(r"renew embassy #(\d+) \(gift (\d+)\)", label):
        what = names.mn_thing(int(m[1]), "embassy")
        return f"renouveler {what} (cadeau {m[2]} PO)" if fr else f"renew {what} (gift {m[2]} PO)"
    if m := re.fullmatch(r"recall (\S+)", label):
        return f"rappeler {m[1]}" if fr else f"recall {m[1]}"
    if m := re.fullmatch(r"(accept|dismiss|execute) #(\d+)", label):
        what = names.mn_thing(int(m[2]), "mission")
        verbs = {"accept": ("receive", "recevoir"), "dismiss": ("send back", "renvoyer"),
                 "execute": ("execute the envoy of", "exécuter l'envoyé de")}
        return f"{verbs[m[1]][1 if fr else 0]} {what}"
    if m := re.fullmatch(r"imprison #(\d+) ransom (\d+)", label):
        what = names.mn_thing(int(m[1]), "mission")
        return (f"emprisonner l'envoyé {de(what)} (rançon {m[2]} PO)" if fr else
                f"imprison the envoy of {what} (ransom {m[2]} PO)")
    if m := re.fullmatch(r"propose (\w+) to (\S+)", label):
        if fr:
            article = "une " if m[1] == "alliance" else "un "
            return f"proposer {article}{treaty(m[1])} à {party(m[2])}"
        return f"propose a {treaty(m[1])} to {party(m[2])}"
    if m := re.fullmatch(r"break treaty #(\d+)", label):
        what = names.mn_thing(int(m[1]), "treaty")
        return f"rompre {what}" if fr else f"break {what}"
    if m := re.fullmatch(r"declare war on (\S+)", label):
        return f"déclarer la guerre à {party(m[1])}" if fr else f"declare war on {party(m[1])}"
    if m := re.fullmatch(r"raise army \(alliance #(\d+)\)", label):
        what = names.mn_thing(int(m[1]), "alliance")
        return f"lever une armée ({what})" if fr else f"raise an army ({what})"
    if m := re.fullmatch(r"honour obligation #(\d+)", label):
        what = names.mn_thing(int(m[1]), "obligation")
        return f"honorer {what}" if fr else f"honour {what}"
    if m := re.fullmatch(r"pay ransom of (\S+)", label):
        return f"payer la rançon {de(m[1])}" if fr else f"pay the ransom of {m[1]}"
    if m := re.fullmatch(r"interfere with the (\S+) mission to (\S+) \((\w+)\)", label):
        who = party(m[1])
        return (f"interférer avec la mission {de(who)} à {city(m[2])} ({treaty(m[3])})" if fr else
                f"interfere with {who}'s mission to {city(m[2])} ({treaty(m[3])})")
    return mn_tables.order_fr(_mn_ids(label, names)) if fr else _mn_ids(label, names)


# ---- GW: a guild's orders (``verb key=value …``, sim.state.gw.Order.__str__) ----------------------
_GW_VERB_EN = {"recruit": "recruit", "reinforce": "reinforce the garrison", "deploy": "deploy an army",
               "lend_seals": "lend seals", "refuse_seals": "refuse to lend seals", "disband": "disband the army",
               "move": "march", "siege": "besiege", "attack_domain": "attack the domain", "attack_army": "attack the army",
               "sack": "sack", "annex": "annex", "return_title": "return the title deed", "treasure_hunt": "treasure hunt",
               "pick_up_loot": "pick up the loot", "domain_action": "domain action", "end": "end of orders"}
_GW_KEY_EN = {"support_seals": "support seals", "to": "to", "lend": "lend"}
_GW_ACTION = {"en": {"assign": "assignment", "build": "building"}, "fr": gw_tables._ACTION_FR}


def gw_units(value: str, lang: str) -> str:
    """``infantry:14,knight:4`` as ``14 × infantry, 4 × knight`` (French: the seeds' unit names)."""
    kinds = GwConfig().units
    out = []
    for item in value.split(","):
        kind, _, n = item.partition(":")
        if not n:
            out.append(item)
            continue
        word = kinds[kind].french if lang == "fr" and kind in kinds else kind.replace("_", " ")
        out.append(f"{n} × {word}")
    return ", ".join(out)


def _gw(label: str, lang: str, names: Names, slot: str) -> str:
    fr = lang == "fr"
    if label == "end of orders":  # sim.orders.END
        return "fin des ordres" if fr else "end of orders"
    verb, *pairs = label.split(" ")
    if verb == "lend_seals" and "lend=no" in pairs:
        verb, pairs = "refuse_seals", [p for p in pairs if p != "lend=no"]
    if verb not in _GW_VERB_EN:
        return gw_tables.order_fr(label) if fr else label
    words = [gw_tables._VERB_FR.get(verb, verb) if fr else _GW_VERB_EN[verb]]
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            return gw_tables.order_fr(label) if fr else label  # not an order of the grammar
        key_word = gw_tables._KEY_FR.get(key, key) if fr else _GW_KEY_EN.get(key, key)
        if key in ("units", "requisition"):
            value = gw_units(value, lang)
        elif key == "to" and value.isdigit():
            value = names.place(int(value))
        elif key == "to":  # seals lent to a guild
            value = names.faction(value, "guild", "nation", "kingdom")
        elif key == "domain":
            value = names.of("domain", value)
        elif key in ("seals", "support_seals"):
            value = value.replace(",", ", ")
        elif key == "action":
            value = _GW_ACTION[lang].get(value, value.replace("_", " "))
        elif value in ("no", "yes"):
            value = {"no": "non", "yes": "oui"}[value] if fr else value
        words.append(f"{key_word} {value}")
    return words[0] + (" — " + ", ".join(words[1:]) if len(words) > 1 else "")


# ---- CV: a convoy's day (``DayPlan.label``) and route (``RouteChoice.label``) ------------------------
_CV_MOVES_EN = {"travel": "travel", "travel by night": "travel by night", "rest": "rest", "repair": "repair the wagons",
                "halt at village": "halt at a village", "forage": "forage", "double rations": "double rations"}


def _cv_purchase_en(item: str) -> str:
    what, _, arg = item.partition(":")
    if what == "stores":
        return f"{arg} unit(s) of food stores"
    if what == "repair":
        return f"{arg} unit(s) of repair materials"
    if what == "wagon" and arg in cr.WAGON_TYPES:
        return f"a {cr.WAGON_NAMES[arg]}"
    if what == "axles":
        return "reinforced axles"
    return item


def _cv_part_en(part: str) -> str:
    if part in _CV_MOVES_EN:
        return _CV_MOVES_EN[part]
    base, plus, extra = part.rpartition(" +")
    if plus and base in ("travel", "travel by night") and extra.endswith("h"):  # a forced march
        return f"{base} {extra[:-1]} h longer"
    head, _, rest = part.partition(" ")
    if head == "buy":
        return "buy " + " and ".join(_cv_purchase_en(x) for x in rest.split(" and "))
    if head == "gift":
        return "give the crew " + " and ".join(cv_tables.CARGO["en"].get(x, x) for x in rest.split(" and "))
    if head == "assign":
        return "assign " + " and ".join(f"{who} as {cv_tables._job(job, 'en').replace('_', ' ')}" for who, _, job in
                                        (x.rpartition(":") for x in rest.split(" and ")))
    if head == "abandon" and rest.startswith("a ") and rest.endswith(" wagon"):
        kind = rest[2:-len(" wagon")]
        return f"abandon a {cr.WAGON_NAMES[kind]}" if kind in cr.WAGON_TYPES else part
    return part


_CV_GIFT_FR = {"trade_goods": "des marchandises", "treasure": "du trésor", "repair": "du matériel de réparation",
               "other": "d'autres chargements", "stores": "des réserves de nourriture", "provisions": "des provisions"}


def _cv(label: str, lang: str, names: Names, slot: str) -> str:
    if lang == "fr" and label.endswith(")") and " route (" in label:
        return cv_tables.order_fr(label)
    if lang == "fr":
        parts = label.split(", ")
        return ", ".join("offrir à l'équipage " + " et ".join(_CV_GIFT_FR.get(x, x) for x in p[len("gift "):].split(" and "))
                         if p.startswith("gift ") else cv_tables.order_fr(p) for p in parts)
    if label.endswith(")") and " route (" in label:  # fast route (23 hexes, 13.2 days, risk 19.5)
        kind, _, rest = label.partition(" route (")
        return f"the {kind} route ({rest}"
    return ", ".join(_cv_part_en(p) for p in label.split(", "))


_SYSTEMS: dict[str, Callable[[str, str, Names, str], str]] = {"km": _km, "mn": _mn, "gw": _gw, "cv": _cv}


def order_words(system: str, label: str, lang: str, names: Names, slot: str = "") -> str:
    """The order ``label`` of ``system`` in ``lang``, with the table's names (``slot``: what the
    decision is about, as the advice names it: ``claim``, ``envoy``…)."""
    fn = _SYSTEMS.get(system)
    text = str(label)
    if fn is None:
        return _hexes(text, names)
    return fn(text, lang, names, slot)


__all__ = ["building", "de", "gw_units", "improvement", "order_words"]
