"""Driver of the caravans (CV) system: convoy agents and their SimPy processes, the daily data
collection, summary metrics, chronicle lines (English and French) and invariants."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import mesa

from agents.systems import SystemDriver, attach_link
from sim.calendar import HOURS_PER_DAY, Phase
from sim.events import Event
from sim.rules import caravan as cr
from sim.state.cv import ticks_to_miles

if TYPE_CHECKING:
    from agents.model import RealmModel


class ConvoyCollector(mesa.DataCollector):
    """The daily table of the caravans: the model reporters, and a table (Mesa's ``tables``) with
    one row per convoy agent (not every agent of the model, which may hold kingdoms or guilds too),
    in ascending convoy id: a row a day while the convoy travels, and one last row on the day it
    arrives or is destroyed (a finished convoy does not change; recording it every day for years
    cost more than the rules themselves). ``model.frames()["cv.agents"]`` reads that table."""

    TABLE = "convoys"

    def __init__(self, *, model_reporters: dict[str, Any], agent_reporters: dict[str, Any]) -> None:
        super().__init__(model_reporters=model_reporters, tables={self.TABLE: ["Step", "AgentID", *agent_reporters]})
        self.row_reporters = agent_reporters
        self._finished: set[str] = set()

    def collect(self, model: Any) -> None:
        super().collect(model)
        for a in sorted((a for a in model.agents if getattr(a, "kind", "") == "convoy"), key=lambda a: a.cid):
            if a.convoy.status != "travelling":
                if a.cid in self._finished:
                    continue
                self._finished.add(a.cid)
            row = {"Step": model.time, "AgentID": a.unique_id}
            row.update((name, f(a)) for name, f in self.row_reporters.items())
            self.add_table_row(self.TABLE, row)

    def agents_frame(self) -> Any:
        return self.get_table_dataframe(self.TABLE).set_index(["Step", "AgentID"])


AGENT_REPORTERS = {
    "convoy": lambda a: a.cid,
    "hp": lambda a: a.convoy.hp,
    "max_hp": lambda a: a.convoy.max_hp,
    "unrest": lambda a: a.convoy.unrest,
    "morale": lambda a: a.convoy.morale,
    "provisions": lambda a: a.convoy.provisions,
    "miles": lambda a: float(ticks_to_miles(a.convoy.ticks_total)),
    "status": lambda a: a.convoy.status,
    "condition": lambda a: a.convoy.condition,
    "starving": lambda a: a.convoy.starving,
    "mutiny": lambda a: a.convoy.in_mutiny,
    "hex": lambda a: a.convoy.hex,
    "gp": lambda a: a.convoy.gp,
    "wagons": lambda a: len(a.convoy.wagons),
    "travelers": lambda a: len(a.convoy.travelers),
}


def _convoys(m: Any) -> list[Any]:
    cv = m.world.cv
    return [] if cv is None else cv.convoys


MODEL_REPORTERS = {
    "day": lambda m: int(m.env.now) // HOURS_PER_DAY,
    "travelling": lambda m: sum(1 for c in _convoys(m) if c.status == "travelling"),
    "arrived": lambda m: sum(1 for c in _convoys(m) if c.status == "arrived"),
    "destroyed": lambda m: sum(1 for c in _convoys(m) if c.status == "destroyed"),
    "in_mutiny": lambda m: sum(1 for c in _convoys(m) if c.in_mutiny and c.status == "travelling"),
    "starving": lambda m: sum(1 for c in _convoys(m) if c.starving and c.status == "travelling"),
    "total_unrest": lambda m: sum(c.unrest for c in _convoys(m)),
    "total_provisions": lambda m: sum(c.provisions for c in _convoys(m)),
}


class _Driver(SystemDriver):
    name = "cv"
    phase = Phase.CV

    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        cv = model.world.cv
        model.cv_routes = cr.shared_route_cache(model.world)  # type: ignore[attr-defined]
        if cv is None or not cv.convoys:
            return  # no convoy yet: no agent, no process, no table
        for c in cv.convoys:
            self.spawn(model, c.id, c.policy)

    def spawn(self, model: RealmModel, convoy_id: str, policy: str) -> Any:
        """Create the agent of a convoy already in ``world.cv`` and start its process (also used for
        convoys created during a campaign, e.g. a kingdom's trade expedition, LINK-04)."""
        from agents.convoy import ConvoyAgent, ConvoyPolicyError

        if not hasattr(model, "cv_routes"):
            model.cv_routes = cr.shared_route_cache(model.world)  # type: ignore[attr-defined]
        try:
            agent = ConvoyAgent(model, convoy_id, policy)
        except ValueError as e:  # make_policy: an unknown name or a class that cannot be imported
            raise ConvoyPolicyError(f"convoy {convoy_id!r}: {e}") from None
        if "cv" not in model.collectors:  # the first convoy: the daily table and its process
            model.collectors["cv"] = ConvoyCollector(model_reporters=dict(MODEL_REPORTERS),
                                                     agent_reporters=dict(AGENT_REPORTERS))
            if model.collect:
                model.process(self._collect(model))
        model.process(agent.run())
        return agent

    def _collect(self, model: RealmModel) -> Generator[Any, Any, None]:
        """Once per day, at the last hour of the day, after the convoys (rank past the last one)."""
        day = int(model.env.now) // HOURS_PER_DAY
        while True:
            when = day * HOURS_PER_DAY + HOURS_PER_DAY - 1
            if when >= model.world.end:
                return
            yield model.at(when, Phase.CV, 1_000)
            model.collect_now("cv")
            day += 1

    # ---- results -------------------------------------------------------------------------------
    def summary(self, model: RealmModel) -> dict[str, int | float]:
        cv = model.world.cv
        cs = [] if cv is None else cv.convoys
        if not cs:
            return {"cv.convoys": 0}
        arrived = [c for c in cs if c.status == "arrived"]
        days = [c.arrived_at / HOURS_PER_DAY for c in arrived]
        return {
            "cv.convoys": len(cs),
            "cv.arrived": len(arrived),
            "cv.destroyed": sum(1 for c in cs if c.status == "destroyed"),
            "cv.stranded": sum(1 for c in cs if c.status == "travelling"),
            "cv.mean_days_to_arrive": round(sum(days) / len(days), 2) if days else 0.0,
            "cv.miles_travelled": round(float(sum(ticks_to_miles(c.ticks_total) for c in cs)), 2),
            "cv.hazards_met": sum(c.hazards_met for c in cs),
            "cv.hazard_damage": sum(c.hazard_damage for c in cs),
            "cv.combat_damage": sum(c.combat_damage for c in cs),
            "cv.starvation_damage": sum(c.starvation_damage for c in cs),
            "cv.mutiny_days": sum(c.mutiny_days for c in cs),
            "cv.final_unrest": sum(c.unrest for c in cs),
            "cv.peak_unrest": max(c.unrest_peak for c in cs),
            "cv.stores_bought": sum(c.stores_bought for c in cs),
            "cv.gift_units_given": sum(c.gifts_units for c in cs),
            "cv.gp_spent": sum(c.gp_spent for c in cs),
            "cv.wagons_lost": sum(c.wagons_lost for c in cs),
            "cv.travelers_lost": sum(c.travelers_lost for c in cs),
            "cv.trade_goods_delivered": sum(c.cargo.get("trade_goods", 0) for c in arrived),
            "cv.treasure_delivered": sum(c.cargo.get("treasure", 0) for c in arrived),
            "cv.days_travelled": sum(c.days_travelled for c in cs),
            "cv.days_rested": sum(c.days_rested for c in cs),
        }

    def metrics_row(self, model: RealmModel) -> dict[str, Any]:
        cv = model.world.cv
        return {} if cv is None else {
            c.key: {"hp": c.hp, "unrest": c.unrest, "provisions": c.provisions,
                    "miles": round(float(ticks_to_miles(c.ticks_total)), 2), "status": c.status}
            for c in cv.convoys
        }

    def invariants(self, model: RealmModel) -> list[str]:
        w = model.world
        cv = w.cv
        if cv is None:
            return []
        cfg = w.config.cv
        out: list[str] = []
        ids = [c.id for c in cv.convoys]
        if ids != sorted(ids) or len(set(ids)) != len(ids):
            out.append(f"cv: convoys are not in ascending unique id order: {ids}")
        for c in cv.convoys:
            k = c.key
            if not 0 <= c.hp <= c.max_hp:
                out.append(f"{k}: hp {c.hp} outside 0..{c.max_hp}")
            if c.status != "destroyed" and c.max_hp != cr.max_hp_of(c, cfg):
                out.append(f"{k}: max hp {c.max_hp} is not the wagons' {cr.max_hp_of(c, cfg)} (RES-CV-23)")
            if c.unrest < 0:
                out.append(f"{k}: negative Unrest {c.unrest} (CV-UNR-02)")
            if c.provisions < 0 or any(v < 0 for v in c.cargo.values()):
                out.append(f"{k}: negative provisions or cargo")
            if c.status != "destroyed":
                if cr.cargo_used(c) > cr.cargo_capacity(c, cfg):
                    out.append(f"{k}: cargo {cr.cargo_used(c)} over capacity {cr.cargo_capacity(c, cfg)} (SC-CV-09)")
                if len(c.travelers) > cr.traveler_capacity(c, cfg):
                    out.append(f"{k}: {len(c.travelers)} travelers over capacity {cr.traveler_capacity(c, cfg)} (SC-CV-09)")
            if c.in_mutiny != (c.unrest > c.morale):
                out.append(f"{k}: mutiny flag {c.in_mutiny} but Unrest {c.unrest} vs Morale {c.morale} (RES-CV-17)")
            if c.condition not in ("none", "fatigued", "exhausted"):
                out.append(f"{k}: unknown condition {c.condition!r}")
            if c.status == "travelling" and (c.path_pos >= len(c.path) or c.path[c.path_pos] != c.hex):
                out.append(f"{k}: route out of step with the convoy's hex")
            if c.status == "arrived" and c.hex != c.destination:
                out.append(f"{k}: arrived away from its destination")
            if w.map.hexes[c.hex].terrain not in cr.MULT4:
                out.append(f"{k}: standing on impassable {w.map.hexes[c.hex].terrain}")
        return out

    # ---- chronicle -----------------------------------------------------------------------------
    def chronicle_kinds(self) -> frozenset[str]:
        return frozenset(_LINES)

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        fn = _LINES.get(ev.kind)
        if fn is None:
            return None
        cv = model.world.cv
        if cv is None:
            return None
        cid = ev.actor.partition(":")[2]
        try:
            c = cv.convoy(cid)
        except KeyError:
            return None
        return fn(ev, lang, c, model)


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
    from fractions import Fraction

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


def _simple(en: str, fr: str) -> Any:
    """A line from the event alone (never the live state: a chronicle may be written after the run)."""

    def f(ev: Event, lang: str, c: Any, m: Any) -> str:
        d = {"name": c.name, "total": ev.total, "outcome": ev.outcome, **ev.data}
        if "job" in d:
            d["job"] = _job(d["job"], lang)
        return (fr if lang == "fr" else en).format(**d)

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


_LINES: dict[str, Any] = {
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
    "StarvationBegan": _simple("{name} has run out of provisions and is starving.",
                               "{name} n'a plus de provisions : le convoi est affamé."),
    "StarvationEnded": _simple("{name} eats its fill again.", "{name} peut de nouveau se nourrir à sa faim."),
    "MutinyBegan": _simple("Mutiny in {name}! Unrest {unrest} exceeds Morale {morale} (−{margin} to AC, attacks and checks).",
                           "Mutinerie dans {name} ! Niveau de Troubles {unrest} contre Moral {morale} (−{margin} à la CA et aux jets)."),
    "MutinyEnded": _simple("The mutiny in {name} is over (Unrest {unrest}, Morale {morale}).",
                           "La mutinerie de {name} prend fin (Niveau de Troubles {unrest}, Moral {morale})."),
    "MutinyRefusedToMove": _simple("The crew of {name} refuses to move today.",
                                   "L'équipage de {name} refuse d'avancer aujourd'hui."),
    "TravelerKilled": _simple("{traveler} ({job}) of {name} is killed.", "{traveler} ({job}), de {name}, est tué."),
    "WagesUnpaid": _simple("{name} cannot pay {traveler}, who stops working and will leave.",
                           "{name} ne peut payer {traveler}, qui cesse de travailler et partira."),
    "WagonBought": lambda ev, lang, c, m: (
        f"{c.name} achète un {_wagon(ev.outcome, lang)} ({ev.total} po)." if lang == "fr"
        else f"{c.name} buys a {_wagon(ev.outcome, lang)} ({ev.total} gp)."),
    "ConvoyRepaired": _simple("{name} is repaired: {hp}/{max_hp} HP.", "{name} est réparé : {hp}/{max_hp} pv."),
    "ConvoyImmobilized": _simple("{name} is at 0 HP and cannot move until repaired.",
                                 "{name} est à 0 pv et ne peut plus avancer avant d'être réparé."),
    "LevelGained": _simple("{name} reaches level {total} (feat: {outcome}).", "{name} passe au niveau {total} (don : {outcome})."),
    "UnrestEventHappened": _simple("An event troubles {name}: {outcome}.", "Un évènement trouble {name} : {outcome}."),
}


DRIVER = _Driver()
