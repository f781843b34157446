"""Driver of the kingdoms (KM): the monthly kingdom turn on the SimPy clock, the agents, the chronicle.

One SimPy process wakes at hour 0 of every month (``model.at(hour, Phase.KM, TURN_INDEX)``) and calls
the rules' turn function, ``sim.rules.km.resolve_month`` (Upkeep, Edict, Income, Event in SC-KM-08
order, each phase for every kingdom in ascending id, RES-KM-39), with the campaign's
``AgentDecider`` (each kingdom's questions go to its agent's policy) and the hooks the other systems
add (``sim.rules.links.km_hooks``, built once). After each kingdom's Edict phase the driver gives
the factions it brought (a new vassal, an envoy, a trade caravan) their agents. Envoys (LINK-05)
wake once, at their arrival hour, with the same phase and a lower index, so an envoy arriving at a
month's first hour is present for that month's edicts. Kingdom turns come first at any hour shared with other systems (LINK-01:
KM, MN, GW, then convoys).

The process keeps nothing between wake-ups: the next turn is ``world.km.turn + 1``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.base import AgentDecider
from agents.chronicle_tables.km import KINDS, render  # noqa: F401  (re-exported)
from agents.envoy import ensure_envoys
from agents.kingdom import KingdomAgent
from agents.systems import SystemDriver, attach_link
from sim.calendar import HOURS_PER_MONTH, Phase
from sim.events import Event
from sim.rules import km as K
from sim.rules import links
from sim.state.km import KmWorld

if TYPE_CHECKING:
    from agents.model import RealmModel

TURN_INDEX = 100_000  # after every envoy arriving at the same hour (their index is the kingdom's rank)


def _km(model: RealmModel) -> KmWorld:
    km = model.world.km
    assert km is not None, "the km system is enabled but the world has no KM state"
    return km


def ensure_agents(model: RealmModel) -> None:
    km = _km(model)
    for kid in km.ids():
        if f"kingdom:{kid}" not in model.by_key:
            KingdomAgent(model, kid, km.kingdoms[kid].policy)


def ensure_caravans(model: RealmModel) -> None:
    """LINK-04: start the convoy agent of every trade caravan that has none (new ones, or all of them
    after a resume: the CV driver already starts those it finds in the world at setup)."""
    km = _km(model)
    cv = model.world.cv
    if cv is None or not model.world.has("cv"):
        return
    from agents.systems import get_driver

    for r in km.routes:
        if r.convoy is not None and r.status == "travelling" and f"convoy:{r.convoy}" not in model.by_key:
            c = cv.convoy(r.convoy)
            get_driver("cv").spawn(model, c.id, c.policy)  # type: ignore[attr-defined]


def run_turn(model: RealmModel, turn: int, hooks: K.KmHooks | None = None) -> None:
    """Play kingdom turn ``turn`` (0-based month) for every kingdom: the rules' ``resolve_month``."""

    def joined() -> None:  # the kingdoms, envoys and caravans an Edict phase brought get their agents
        ensure_agents(model)
        ensure_envoys(model)
        ensure_caravans(model)

    K.resolve_month(
        model.world, AgentDecider(model, on_joined=joined), model.dice, model.ledger, turn=turn, now=int(model.env.now),
        hooks=links.km_hooks(model.world) if hooks is None else hooks,
    )


class _Driver(SystemDriver):
    name = "km"
    phase = Phase.KM

    def setup(self, model: RealmModel) -> None:
        attach_link(model)  # --- LINK: the LINK driver joins when systems are combined
        ensure_agents(model)
        ensure_envoys(model)
        model.process(self._turns(model))

    def _turns(self, model: RealmModel) -> Any:
        km = _km(model)
        hooks = links.km_hooks(model.world)  # --- LINK: what the other systems add to a month, plugged in once
        while True:
            turn = km.turn + 1
            at = model.world.start + turn * HOURS_PER_MONTH
            if at >= model.world.end:
                return
            yield model.at(at, Phase.KM, TURN_INDEX)
            run_turn(model, turn, hooks)

    # ---- reports -------------------------------------------------------------------------------
    def summary(self, model: RealmModel) -> dict[str, int | float]:
        km = _km(model)
        w = model.world
        out: dict[str, int | float] = {"km.turns": km.turn + 1, "km.kingdoms": len(km.kingdoms)}
        for key in (
            "edicts_diplomatic", "edicts_exploration", "edicts_trade", "edicts_vassalage", "embassies", "treatys_signed",
            "alliances_signed", "treaty_refused", "alliance_refused", "wars_declared", "hexes_explored", "features_found",
            "expeditions_scattered", "expeditions_killed", "trade_routes_established", "trade_sold_elsewhere",
            "trade_expeditions_lost", "vassalage_new_vassal", "vassalage_colony", "vassalage_subjugation",
            "subjugations_settled", "hexes_claimed", "buildings_built", "improvements_built", "hexes_lost_to_unrest",
            "anarchy_turns", "orders_rejected",
        ):
            name = {"treatys_signed": "treaties_signed"}.get(key, key)
            out[f"km.{name}"] = km.counts.get(key, 0)
        rels = list(km.relations.values())
        out["km.embassies_now"] = sum(1 for r in rels if r.embassy)
        out["km.treaties_now"] = sum(1 for r in rels if r.treaty is not None)
        out["km.alliances_now"] = sum(1 for r in rels if r.alliance is not None)
        out["km.wars_now"] = sum(1 for r in rels if r.enemies)
        out["km.trade_routes_active"] = sum(1 for r in km.routes if r.status == "established")
        out["km.vassals"] = sum(1 for k in km.kingdoms.values() if k.overlord is not None)
        ks = [km.kingdoms[kid] for kid in km.ids()]
        out["km.treasury_total"] = sum(k.treasury for k in ks)
        out["km.treasury_min"] = min((k.treasury for k in ks), default=0)
        out["km.treasury_max"] = max((k.treasury for k in ks), default=0)
        out["km.unrest_max"] = max((k.unrest for k in ks), default=0)
        out["km.size_total"] = sum(len(k.hexes) for k in ks)
        out["km.size_max"] = max((len(k.hexes) for k in ks), default=0)
        out["km.fame_max"] = max((K.stats(w, k).fame for k in ks), default=0)
        out["km.infamy_max"] = max((K.stats(w, k).infamy for k in ks), default=0)
        return out

    def metrics_row(self, model: RealmModel) -> dict[str, dict[str, Any]]:
        km = _km(model)
        out: dict[str, dict[str, Any]] = {}
        for kid in km.ids():
            k = km.kingdoms[kid]
            st = K.stats(model.world, k)
            out[f"kingdom:{kid}"] = {
                "treasury": k.treasury,
                "size": st.size,
                "unrest": k.unrest,
                "economy": st.economy,
                "loyalty": st.loyalty,
                "stability": st.stability,
                "fame": st.fame,
                "infamy": st.infamy,
                "control_dc": st.control_dc,
                "treaties": sum(1 for r in km.relations.values() if kid in (r.a, r.b) and r.treaty is not None),
                "trade_routes": sum(1 for r in km.routes if r.kingdom == kid and r.status == "established"),
            }
        return out

    def invariants(self, model: RealmModel) -> list[str]:
        return K.broken_invariants(model.world)

    def chronicle_kinds(self) -> frozenset[str]:
        return KINDS

    def chronicle(self, ev: Event, lang: str, model: RealmModel) -> str | None:
        return render(ev, lang, _km(model))


DRIVER = _Driver()
