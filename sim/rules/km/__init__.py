"""The kingdoms (KM) — Pathfinder's kingdom turn (RULES.md §5.1, SC-KM) and the four special edicts
(*édits spéciaux*, RULES.md §1, KM-GEN/DIP/REL/EXP/TRADE/VAS).

A kingdom month (*tour de royaume*, SC-KM-08) is one call of the turn function::

    resolve_month(world, decider, dice, ledger, hooks=hooks)

which plays Upkeep (*phase d'entretien*), Edict (*phase d'édit*), Income (*revenus*) and Event, each
phase for every kingdom in ascending id (RES-KM-39). Every choice the rules leave to a kingdom (an
envoy, a hex claim, an improvement, a building, the Taxation/Holiday/Promotion edicts, a relation
order, the special edict, a treaty's balance, the hex lost to Unrest) is one question to the
``sim.orders.Decider``; kingdoms with scripted orders (``TurnOrders``) play them instead. The hooks
(:class:`KmHooks`, built by ``sim.rules.links.km_hooks``) are what the other systems add: LINK-04's
merchant caravans, LINK-08's occupation Unrest.

The legality API, the same in every system: ``legal_orders(world, kingdom, slot=…)`` lists what a
kingdom may order now in one slot of its turn (default the special edict); ``check(world, kingdom,
order)`` raises :class:`IllegalOrderError` naming the clause an order breaks (or
:class:`InvalidOrderError` for an order naming nothing that exists).

Rules are plain functions of (world, kingdom id, order, dice, ledger); they mutate ``world.km`` in
place, emit one ledger event per roll, check or change, and raise ``IllegalOrderError`` for an order
that breaks a rule. Every number a resolution invented is read from ``world.config.km``.

French terms: kingdom check (*test de royaume*), Control DC (*DD de contrôle*), Unrest
(*Insatisfaction*), Treasury (*trésorerie*), BP (*PC*), Consumption (*Consommation*), Fame/Infamy
(*Gloire/Infamie*); embassy (*ambassade*), treaty (*traité*), alliance, trade route (*route
commerciale*), vassal (*vassal*).

The modules, in the order of the old ``kingdom.py`` then ``edicts.py``:

- ``hooks`` — :class:`KmHooks`;
- ``tables`` — the tables; ``statistics`` — the sheet, kingdom checks;
- ``upkeep_phase`` — the turn's start, Upkeep; ``ordinary`` — the ordinary edicts, claims, buildings;
  ``income_event`` — Income and Event;
- ``specials`` — what the special edicts share; ``diplomatic``, ``relations`` (embassy buildings,
  relation orders, scripted events), ``exploration``, ``trade``, ``vassalage``;
- ``legality`` — ``check``, ``legal_orders``, ``resolve_special``; ``envoys`` — LINK-05;
- ``turn`` — the Edict phase and ``resolve_month``.
"""

from __future__ import annotations

from sim.rules.km.diplomatic import (
    agreements_held,
    alignment_mod,
    attitude_mod,
    diplomatic_dc,
    opposed_checks,
    relationship_mod,
    representative_present,
    resolve_diplomatic,
    sign_agreement,
)
from sim.rules.km.envoys import envoy_arrived, envoy_path, recall_envoy, send_envoy
from sim.rules.km.exploration import (
    explore_days,
    explore_month,
    resolve_exploration,
    run_expeditions,
    travel_hours,
)
from sim.rules.km.hooks import NO_HOOKS, KmHooks
from sim.rules.km.income_event import event_roll, income
from sim.rules.km.legality import SLOTS, check, frontier_routes, legal_orders, resolve_special
from sim.rules.km.ordinary import (
    abandon_hex,
    build_improvement,
    buy_district,
    claim_hex,
    construct,
    found_settlement,
    improvement_cost,
    limits,
    lots_used,
    set_edicts,
    size_milestones,
)
from sim.rules.km.relations import build_embassy, check_relation_order, resolve_event, resolve_relation_order
from sim.rules.km.specials import (
    ALIGN_STEP_DC,
    ATTITUDE_DC,
    BAN_TURNS,
    DIP_KINDS,
    OPPOSED_SKILLS,
    ROUTE_BUILDINGS,
    SKILL_NAMES,
    VAS_MODES,
)
from sim.rules.km.statistics import (
    Stats,
    add_unrest,
    alignment_axes,
    alignment_base,
    alignment_steps,
    change_fame,
    change_infamy,
    control_dc,
    count_buildings,
    count_improvements,
    districts_of,
    emit_check,
    fame_of,
    farm_reduction,
    improvement_counts,
    infamy_of,
    k_surplus,
    kingdom_check,
    linked_mines,
    ruler_vacant,
    settlement,
    settlement_mods,
    shift_attitude,
    size_of,
    special_size,
    stats,
    stockyard_reach,
    vacant,
)
from sim.rules.km.tables import (
    ALIGNMENT_ADJUST,
    ATTR_NAMES,
    ATTR_NAMES_FR,
    BUILDINGS,
    FREE_HOUSES,
    GOVERNMENT_MODS,
    HOLIDAY,
    IMPROVEMENT_COST,
    IMPROVEMENT_LIMITS,
    IMPROVEMENT_TERRAIN,
    PROMOTION,
    SETTLEMENT_MODS,
    SPEED_TABLE,
    SYS,
    TAXATION,
    TERRAIN,
    BuildingType,
    actor,
    km_terrain,
)
from sim.rules.km.trade import (
    convoy_arrivals,
    resolve_trade,
    route_days,
    route_weight,
    trade_arrival,
    trade_arrivals,
    trade_dc,
    trade_investment,
    trade_path,
    type_bonus,
)
from sim.rules.km.turn import (
    CONTEXT_KEYS,
    OnError,
    ScriptedOrderError,
    apply_orders,
    begin_edict_phase,
    build_slots,
    edict_phase,
    end_edict_phase,
    event_phase,
    income_phase,
    label,
    no_edicts_in_anarchy,
    resolve_month,
)
from sim.rules.km.upkeep_phase import (
    capital_hex,
    default_hex_to_lose,
    friction_check,
    lose_claimed_hex,
    ruler_stand_in,
    sheet,
    start_turn,
    upkeep,
)
from sim.rules.km.vassalage import resolve_vassalage

__all__ = [
    "ALIGNMENT_ADJUST",
    "ALIGN_STEP_DC",
    "ATTITUDE_DC",
    "ATTR_NAMES",
    "ATTR_NAMES_FR",
    "BAN_TURNS",
    "BUILDINGS",
    "BuildingType",
    "CONTEXT_KEYS",
    "DIP_KINDS",
    "FREE_HOUSES",
    "GOVERNMENT_MODS",
    "HOLIDAY",
    "IMPROVEMENT_COST",
    "IMPROVEMENT_LIMITS",
    "IMPROVEMENT_TERRAIN",
    "KmHooks",
    "NO_HOOKS",
    "OPPOSED_SKILLS",
    "OnError",
    "PROMOTION",
    "ROUTE_BUILDINGS",
    "SETTLEMENT_MODS",
    "SKILL_NAMES",
    "SLOTS",
    "SPEED_TABLE",
    "SYS",
    "ScriptedOrderError",
    "Stats",
    "TAXATION",
    "TERRAIN",
    "VAS_MODES",
    "abandon_hex",
    "actor",
    "add_unrest",
    "agreements_held",
    "alignment_axes",
    "alignment_base",
    "alignment_mod",
    "alignment_steps",
    "apply_orders",
    "attitude_mod",
    "begin_edict_phase",
    "build_embassy",
    "build_improvement",
    "build_slots",
    "buy_district",
    "capital_hex",
    "change_fame",
    "change_infamy",
    "check",
    "check_relation_order",
    "claim_hex",
    "construct",
    "control_dc",
    "convoy_arrivals",
    "count_buildings",
    "count_improvements",
    "default_hex_to_lose",
    "diplomatic_dc",
    "districts_of",
    "edict_phase",
    "emit_check",
    "end_edict_phase",
    "envoy_arrived",
    "envoy_path",
    "event_phase",
    "event_roll",
    "explore_days",
    "explore_month",
    "fame_of",
    "farm_reduction",
    "found_settlement",
    "friction_check",
    "frontier_routes",
    "improvement_cost",
    "improvement_counts",
    "income",
    "income_phase",
    "infamy_of",
    "k_surplus",
    "kingdom_check",
    "km_terrain",
    "label",
    "legal_orders",
    "limits",
    "linked_mines",
    "lose_claimed_hex",
    "lots_used",
    "no_edicts_in_anarchy",
    "opposed_checks",
    "recall_envoy",
    "relationship_mod",
    "representative_present",
    "resolve_diplomatic",
    "resolve_event",
    "resolve_exploration",
    "resolve_month",
    "resolve_relation_order",
    "resolve_special",
    "resolve_trade",
    "resolve_vassalage",
    "route_days",
    "route_weight",
    "ruler_stand_in",
    "ruler_vacant",
    "run_expeditions",
    "send_envoy",
    "set_edicts",
    "settlement",
    "settlement_mods",
    "sheet",
    "shift_attitude",
    "sign_agreement",
    "size_milestones",
    "size_of",
    "special_size",
    "start_turn",
    "stats",
    "stockyard_reach",
    "trade_arrival",
    "trade_arrivals",
    "trade_dc",
    "trade_investment",
    "trade_path",
    "travel_hours",
    "type_bonus",
    "upkeep",
    "vacant",
]
