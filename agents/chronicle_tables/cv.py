"""The chronicle table of CV: one template per event kind it tells, in English and French
(moved out of ``agents/systems/cv.py``; the driver's ``chronicle`` looks the kind up here)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sim.calendar import HOURS_PER_DAY
from sim.events import Event
from sim.rules import cv as cr

if TYPE_CHECKING:
    pass


def _hz_name(model: Any, hid: str, lang: str) -> str:
    h = model.world.cv.hazards.get(hid)
    if h is None:
        return hid
    return (h.name_fr or h.name or hid) if lang == "fr" else (h.name or hid)


CARGO = {
    "en": {"trade_goods": "trade goods", "treasure": "treasure", "repair": "repair materials", "other": "other cargo",
           "stores": "food stores", "provisions": "provisions"},
    "fr": {"trade_goods": "marchandises", "treasure": "Trésor", "repair": "matériel de réparation", "other": "autres",
           "stores": "réserves de nourriture", "provisions": "provisions"},
}
JOBS = {
    "en": {"fortune_teller": "fortune-teller", "caster": "spellcaster"},
    "fr": {"cook": "cuisinier", "scout": "éclaireur", "wainwright": "charron", "driver": "conducteur",
           "entertainer": "saltimbanque", "guard": "garde", "guide": "guide", "hero": "héros", "passenger": "passager",
           "fortune_teller": "diseuse de bonne aventure", "caster": "lanceur de sorts", "trader": "marchand"},
}
TRIGGERS = {  # CV-UNR-04 (a)–(d)
    "en": {"(a)": "a wagon lost", "(b)": "a traveler killed", "(c)": "hit points at 25% or less",
           "(d)": "kept from moving by an adverse event"},
    "fr": {"(a)": "un chariot perdu", "(b)": "un voyageur tué", "(c)": "pv réduits à 25 % ou moins",
           "(d)": "immobilisé par un évènement contraire"},
}
POLICY_FR = {"heuristic": "heuristique", "random": "aléatoire", "scripted": "scriptée"}  # the seeds' terms
ACTIONS_FR = {"full rest day": "une journée complète de repos", "double consumption": "des rations doubles",
              "wagon added": "l'ajout d'un chariot", "wagon upgraded": "l'amélioration d'un chariot"}


def _job(job: str, lang: str) -> str:
    return JOBS[lang].get(job, job)


def _miles(text: str) -> str:
    """An exact mile count (``"627/4"``) as a readable decimal (``156.75``)."""
    v = Fraction(text)
    return str(int(v)) if v.denominator == 1 else f"{float(v):.2f}".rstrip("0")


def _plural(n: int, en: str) -> str:
    return f"{n} {en}" if n == 1 else f"{n} {en}s"


def _wagon(kind: str, lang: str) -> str:
    return cr.WAGON_TYPES[kind].french if lang == "fr" else cr.WAGON_NAMES[kind]


def _l_setout(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    if lang == "fr":
        return (f"Le convoi {c.name} quitte {d['origin']} pour {d['destination']} ({len(d['wagons'])} chariots, "
                f"{d['travelers']} voyageurs, {d['hp']} pv, {d['provisions']} unités de provisions, "
                f"vitesse {d['speed']} miles/jour, politique {POLICY_FR.get(ev.outcome, ev.outcome)}).")
    return (f"The {c.name} sets out from {d['origin']} for {d['destination']} ({len(d['wagons'])} wagons, "
            f"{d['travelers']} travelers, {d['hp']} HP, {d['provisions']} provisions, {d['speed']} miles/day, "
            f"{ev.outcome} policy).")


def _l_route(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    via = ", ".join(d["via"][1:-1]) if len(d["via"]) > 2 else ""
    if lang == "fr":
        k = {"fast": "la route la plus rapide", "safe": "la route la plus sûre"}.get(ev.outcome, ev.outcome)
        return f"{c.name} prend {k} ({d['hexes']} hexagones, ~{d['days']} jours{', par ' + via if via else ''})."
    k = {"fast": "the fastest route", "safe": "the safest route"}.get(ev.outcome, ev.outcome)
    return f"{c.name} takes {k} ({d['hexes']} hexes, ~{d['days']} days{', via ' + via if via else ''})."


def _l_hazard(ev: Event, lang: str, c: Any, m: Any) -> str:
    name = _hz_name(m, ev.data["hazard"], lang)
    ok = ev.outcome == "success"
    if lang == "fr":
        jet = "jet de Sécurité" if ev.data["check"] == "security" else "jet de Détermination"
        return f"{c.name} affronte un danger : {name} — {jet} {ev.total} contre DD {ev.dc} : {'réussi' if ok else 'raté'}."
    chk = "Security" if ev.data["check"] == "security" else "Resolve"
    return f"{c.name} meets a hazard: {name} — {chk} check {ev.total} vs DC {ev.dc}: {'success' if ok else 'failure'}."


def _l_combat_began(ev: Event, lang: str, c: Any, m: Any) -> str:
    n = len(ev.data["enemies"])
    if lang == "fr":
        return f"{c.name} est attaqué : {_hz_name(m, ev.outcome, lang)} ({n} ennemi{'s' if n > 1 else ''})."
    return f"{c.name} is attacked: {_hz_name(m, ev.outcome, lang)} ({_plural(n, 'enemy').replace('enemys', 'enemies')})."


def _l_combat(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    name = _hz_name(m, d["hazard"], lang)
    won = ev.outcome == "victory"
    if lang == "fr":
        res = "les assaillants sont vaincus" if won else "les assaillants tiennent bon"
        return f"Combat de convoi contre {name} : {res} ({d['hp']}/{d['max_hp']} pv)."
    res = "the attackers are beaten" if won else "the attackers hold on"
    return f"Caravan combat against {name}: {res} ({d['hp']}/{d['max_hp']} HP left)."


def _l_damage(ev: Event, lang: str, c: Any, m: Any) -> str | None:
    if ev.outcome == "combat":
        return None
    src = _hz_name(m, ev.outcome, lang)
    d = ev.data
    if lang == "fr":
        return f"{c.name} subit {ev.total} points de dégâts ({src}) : {d['after']}/{d['max_hp']} pv."
    return f"{c.name} takes {ev.total} damage ({src}): {d['after']}/{d['max_hp']} HP."


def _l_starve_dmg(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    if lang == "fr":
        return f"{c.name} manque de provisions et subit {ev.total} points de dégâts : {d['after']}/{d['max_hp']} pv."
    return f"{c.name} is starving and takes {ev.total} damage: {d['after']}/{d['max_hp']} HP."


class _Missing(dict[str, Any]):
    """A field the event lacks renders as ``?``: a template never stops the chronicle."""

    def __missing__(self, key: str) -> str:
        return "?"


def _simple(en: str, fr: str) -> Any:
    """A line from the event alone (never the live state: a chronicle may be written after the run)."""

    def f(ev: Event, lang: str, c: Any, m: Any) -> str:
        d = {"name": c.name, "total": ev.total, "outcome": ev.outcome, **ev.data}
        if "job" in d:
            d["job"] = _job(d["job"], lang)
        return (fr if lang == "fr" else en).format_map(_Missing(d))

    return f


def _l_arrived(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    day = d["hour"] // HOURS_PER_DAY + 1
    goods = d["cargo"].get("trade_goods", 0)
    tres = d["cargo"].get("treasure", 0)
    if lang == "fr":
        return (f"{c.name} arrive à {d['at']} au jour {day} après {_miles(d['miles'])} miles : {d['hp']}/{d['max_hp']} pv, "
                f"{goods} unité(s) de marchandises, {tres} de Trésor, Niveau de Troubles {d['unrest']}.")
    return (f"The {c.name} reaches {d['at']} on day {day} after {_miles(d['miles'])} miles: {d['hp']}/{d['max_hp']} HP, "
            f"{_plural(goods, 'unit')} of trade goods, {tres} of treasure, Unrest {d['unrest']}.")


def _l_destroyed(ev: Event, lang: str, c: Any, m: Any) -> str:
    cause = ev.data.get("cause", "")
    surv = ev.data.get("characters_survive")
    if lang == "fr":
        why = {"starvation": "faute de provisions", "no wagon left": "sans plus aucun chariot"}.get(cause, cause)
        return f"Le convoi {c.name} est détruit {why} ; {'les voyageurs survivent' if surv else 'nul ne survit'}."
    why = {"starvation": "starved", "no wagon left": "no wagon left"}.get(cause, cause)
    return f"The {c.name} is destroyed ({why}); {'its travelers survive' if surv else 'no one survives'}."


def _l_condition(ev: Event, lang: str, c: Any, m: Any) -> str | None:
    if ev.outcome != "exhausted":
        return None
    if lang == "fr":
        return f"{c.name} est épuisé (−6 à tous les jets, ne peut plus avancer)."
    return f"{c.name} is exhausted (−6 on all rolls, cannot move)."


def _l_travelled(ev: Event, lang: str, c: Any, m: Any) -> str | None:
    if ev.data.get("extra") or not ev.data.get("wander"):
        return None
    d = ev.data
    if lang == "fr":
        return f"L'équipage mutiné entraîne {c.name} hors de sa route : {_miles(d['miles'])} miles jusqu'à {d['at']}."
    return f"The mutinous crew drags {c.name} off its route: {_miles(d['miles'])} miles to {d['at']}."


def _l_gift(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    after = max(0, d["unrest_before"] - d["reduction"])
    if lang == "fr":
        return (f"{c.name} offre {ev.total} unité(s) de chargement de {CARGO['fr'][ev.outcome]} à l'équipage "
                f"(don n° {d['counter']}) : Niveau de Troubles {d['unrest_before']} → {after}.")
    return (f"{c.name} gives the crew {_plural(ev.total or 0, 'cargo unit')} of {CARGO['en'][ev.outcome]} "
            f"(gift #{d['counter']}): Unrest {d['unrest_before']} → {after}.")


def _l_calm(ev: Event, lang: str, c: Any, m: Any) -> str | None:
    if ev.outcome != "success":
        return None
    a = ev.data["action"]
    if lang == "fr":
        return (f"{c.name} apaise l'équipage grâce à {ACTIONS_FR.get(a, a)}{' au village' if ev.data['village'] else ''} "
                f"(jet de Détermination {ev.total}).")
    return f"{c.name} calms the crew with a {a}{' in the village' if ev.data['village'] else ''} (Resolve {ev.total})."


def _l_unrest_rose(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    cause, ref = d.get("cause", ""), d.get("ref", "")
    if cause == "check":
        why = TRIGGERS[lang].get(ref, ref)
        why = f"jet de Détermination raté : {why}" if lang == "fr" else f"failed Resolve check: {why}"
    elif cause == "hazard":
        why = _hz_name(m, ref, lang)
    else:
        why = ref or ev.outcome
    if lang == "fr":
        return f"Le Niveau de Troubles de {c.name} monte à {d['after']} ({why})."
    return f"Unrest in {c.name} rises to {d['after']} ({why})."


def _l_left(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    # an unpaid traveler's event names no job (SC-CV-03): the line then names the traveler alone
    who = f"{d.get('traveler', '?')} ({_job(d['job'], lang)})" if "job" in d else str(d.get("traveler", "?"))
    if lang == "fr":
        why = {"unpaid": "faute de solde", "no room": "faute de place"}.get(ev.outcome, ev.outcome)
        return f"{who} quitte {c.name} ({why})."
    why = {"unpaid": "unpaid", "no room": "no room left"}.get(ev.outcome, ev.outcome)
    return f"{who} leaves {c.name} ({why})."


def _l_wagon_lost(ev: Event, lang: str, c: Any, m: Any) -> str:
    d = ev.data
    if lang == "fr":
        why = "abandonné" if ev.outcome == "abandoned" else _hz_name(m, ev.outcome, lang)
        return f"{c.name} perd un {_wagon(d['wagon_kind'], lang)} ({why}) : {d['hp_after']}/{d['max_hp']} pv."
    why = "abandoned" if ev.outcome == "abandoned" else _hz_name(m, ev.outcome, lang)
    return f"{c.name} loses a {_wagon(d['wagon_kind'], lang)} ({why}): {d['hp_after']}/{d['max_hp']} HP."


def _l_stores(ev: Event, lang: str, c: Any, m: Any) -> str:
    n = ev.total or 0
    if lang == "fr":
        return f"{c.name} achète {n} unité(s) de réserves de nourriture ({ev.data['gp']} po)."
    return f"{c.name} buys {_plural(n, 'unit')} of food stores ({ev.data['gp']} gp)."


TEMPLATES: dict[str, dict[str, str]] = {  # the lines told from the event alone: {kind: {"en": …, "fr": …}}
    "StarvationBegan": {
        "en": "{name} has run out of provisions and is starving.",
        "fr": "{name} n'a plus de provisions : le convoi est affamé.",
    },
    "StarvationEnded": {
        "en": "{name} eats its fill again.",
        "fr": "{name} peut de nouveau se nourrir à sa faim.",
    },
    "MutinyBegan": {
        "en": "Mutiny in {name}! Unrest {unrest} exceeds Morale {morale} (−{margin} to AC, attacks and checks).",
        "fr": "Mutinerie dans {name} ! Niveau de Troubles {unrest} contre Moral {morale} (−{margin} à la CA et aux jets).",
    },
    "MutinyEnded": {
        "en": "The mutiny in {name} is over (Unrest {unrest}, Morale {morale}).",
        "fr": "La mutinerie de {name} prend fin (Niveau de Troubles {unrest}, Moral {morale}).",
    },
    "MutinyRefusedToMove": {
        "en": "The crew of {name} refuses to move today.",
        "fr": "L'équipage de {name} refuse d'avancer aujourd'hui.",
    },
    "TravelerKilled": {
        "en": "{traveler} ({job}) of {name} is killed.",
        "fr": "{traveler} ({job}), de {name}, est tué.",
    },
    "WagesUnpaid": {
        "en": "{name} cannot pay {traveler}, who stops working and will leave.",
        "fr": "{name} ne peut payer {traveler}, qui cesse de travailler et partira.",
    },
    "ConvoyRepaired": {
        "en": "{name} is repaired: {hp}/{max_hp} HP.",
        "fr": "{name} est réparé : {hp}/{max_hp} pv.",
    },
    "ConvoyImmobilized": {
        "en": "{name} is at 0 HP and cannot move until repaired.",
        "fr": "{name} est à 0 pv et ne peut plus avancer avant d'être réparé.",
    },
    "LevelGained": {
        "en": "{name} reaches level {total} (feat: {outcome}).",
        "fr": "{name} passe au niveau {total} (don : {outcome}).",
    },
    "UnrestEventHappened": {
        "en": "An event troubles {name}: {outcome}.",
        "fr": "Un évènement trouble {name} : {outcome}.",
    },
}


LINES: dict[str, Any] = {
    "ConvoySetOut": _l_setout,
    "RouteChosen": _l_route,
    "HazardCheckRolled": _l_hazard,
    "CombatBegan": _l_combat_began,
    "CombatEnded": _l_combat,
    "DamageTaken": _l_damage,
    "StarvationDamageTaken": _l_starve_dmg,
    "ConvoyArrived": _l_arrived,
    "ConvoyDestroyed": _l_destroyed,
    "ConditionChanged": _l_condition,
    "ConvoyTravelled": _l_travelled,
    "GiftGiven": _l_gift,
    "CalmingCheckRolled": _l_calm,
    "UnrestRose": _l_unrest_rose,
    "TravelerLeft": _l_left,
    "WagonLost": _l_wagon_lost,
    "StoresBought": _l_stores,
    "WagonBought": lambda ev, lang, c, m: (
        f"{c.name} achète un {_wagon(ev.outcome, lang)} ({ev.total} po)." if lang == "fr"
        else f"{c.name} buys a {_wagon(ev.outcome, lang)} ({ev.total} gp)."),
}
LINES.update({kind: _simple(t["en"], t["fr"]) for kind, t in TEMPLATES.items()})


# ---- a convoy's orders as a French game master says them (``realmsim run --explain --lang fr``) ----
_MOVES_FR = {"travel": "voyager", "travel by night": "voyager de nuit", "rest": "se reposer",
             "repair": "réparer les chariots", "halt at village": "halte au village", "forage": "fourrager",
             "double rations": "rations doubles"}
_ROUTE_FR = {"fast": "la route rapide", "safe": "la route sûre"}


def _purchase_fr(item: str) -> str:
    what, _, arg = item.partition(":")
    if what == "stores":
        return f"{arg} unité(s) de réserves de nourriture"
    if what == "repair":
        return f"{arg} unité(s) de matériel de réparation"
    if what == "wagon" and arg in cr.WAGON_TYPES:
        return f"un {_wagon(arg, 'fr')}"
    if what == "axles":
        return "des essieux renforcés"
    return item


def _order_part_fr(part: str) -> str:
    if part in _MOVES_FR:
        return _MOVES_FR[part]
    base, plus, extra = part.rpartition(" +")
    if plus and base in ("travel", "travel by night") and extra.endswith("h"):  # a forced march: travel +3h
        return f"{_MOVES_FR[base]} +{extra[:-1]} h"
    head, _, rest = part.partition(" ")
    if head == "buy":
        return "acheter " + " et ".join(_purchase_fr(x) for x in rest.split(" and "))
    if head == "gift":
        return "offrir " + " et ".join(CARGO["fr"].get(x, x) for x in rest.split(" and "))
    if head == "assign":
        return "affecter " + " et ".join(f"{who} comme {_job(job, 'fr')}" for who, _, job in
                                         (x.rpartition(":") for x in rest.split(" and ")))
    if head == "abandon" and rest.startswith("a ") and rest.endswith(" wagon"):
        kind = rest[2:-len(" wagon")]
        return f"abandonner un {_wagon(kind, 'fr')}" if kind in cr.WAGON_TYPES else part
    return part


def order_fr(label: str) -> str:
    """A convoy's order label (``DayPlan.label``, ``RouteChoice.label``) in French; what it does not
    know stays as it is (an enemy's id, a scripted order)."""
    if label.endswith(")") and " route (" in label:  # fast route (23 hexes, 13.2 days, risk 19.5)
        kind, _, rest = label.partition(" route (")
        hexes, days, risk = (x.strip() for x in rest[:-1].split(","))
        return (f"{_ROUTE_FR.get(kind, kind)} ({hexes.replace('hexes', 'hexagones')}, "
                f"{days.replace('days', 'jours')}, {risk.replace('risk', 'risque')})")
    return ", ".join(_order_part_fr(p) for p in label.split(", "))

KINDS: frozenset[str] = frozenset(LINES)


def tell(ev: Event, lang: str, model: Any) -> str | None:
    """The chronicle line of a CV event, told of its convoy (the one entry point every chronicle table
    has), or None (a kind not told, or a convoy the world no longer holds)."""
    fn = LINES.get(ev.kind)
    cv = model.world.cv
    if fn is None or cv is None:
        return None
    try:
        c = cv.convoy(ev.actor.partition(":")[2])
    except KeyError:
        return None
    line = fn(ev, lang, c, model)
    return None if line is None else str(line)
