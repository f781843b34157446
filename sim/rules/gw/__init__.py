"""Guild warfare (GW) — la guerre des guildes (RULES.md §3 and the supporting core §5.3).

A season (*saison*, SC-GW-01) is one call of the turn function (RES-GW-10, ``CFG.gw.phase_order``)::

    resolve_season(world, decider, dice, ledger, hooks=hooks)

which runs ``begin_season`` (title deliveries, RES-GW-25), the hooks of the other systems
(``hooks``, built by ``sim.rules.links.gw_hooks``), every guild's orders in ascending id
(``give_orders``: the decider is asked one order at a time, RES-GW-27), then ``run_phases``:
(1) deploy … (7) end of season. Tests and worked examples pass ``given(orders)``, a scripted decider.

The legality API, the same in every system: ``legal_orders(world, guild)`` lists what a guild may
order now, given the orders it has already given this season; ``check(world, guild, order)`` raises
:class:`IllegalOrderError` naming the clause an order breaks (or :class:`InvalidOrderError` for an
unknown entity). Each ``resolve_*`` function resolves one order or one phase; a resolver handed an
order that has become illegal by the time it resolves raises ``IllegalOrderError`` too, and the phase
functions turn that into an ``OrderRejected`` event (the order is rejected whole, naming the clause,
RES-GW-27).

Rules are plain functions of the world, the dice and the ledger; every number a resolution invented
is read from ``world.config.gw``. The modules, in the order of a season:

- ``core`` — constants, the hooks type, queries, strength, losses, movement;
- ``legality`` — ``check``, ``give_order``; ``orders`` — ``legal_orders``;
- ``deploy`` — phases (1) and (2); ``siege`` — (3); ``combat`` — (4) and (5); ``annex`` — (6);
- ``season`` — the season's beginning, (7) the end of season, ``resolve_season``.
"""

from __future__ import annotations

from sim.rules.gw.annex import (
    annex_domain,
    resolve_annexation_phase,
    resolve_annexations,
    resolve_loot_claim,
    resolve_return_title,
)
from sim.rules.gw.combat import (
    CombatResult,
    fight,
    front_breakdown,
    garrison_joining,
    occupy,
    resolve_army_combats,
    resolve_attack,
    resolve_domain_attacks,
    resolve_sack,
)
from sim.rules.gw.core import (
    ACTION_ORDERS,
    MAX_ORDERS,
    NO_HOOKS,
    OCCUPIED_ALLOWED,
    PHASES,
    SPELL_PLACES,
    SYS,
    WORKS,
    GwHooks,
    allied,
    apply_damage,
    armies_at,
    army_involves,
    army_speed,
    army_strength,
    capped_bonus,
    defending_strength,
    domains_at,
    effective_cs,
    fort_bonus,
    garrison_strength,
    gw_of,
    is_keep,
    is_restricted,
    land_components,
    lends_seals,
    loss_order,
    march_path,
    new_units,
    owned_domains,
    reachable,
    refresh_statuses,
    season_at,
    season_hours,
    toughness,
    units_strength,
)
from sim.rules.gw.deploy import (
    drop_idle_sieges,
    resolve_deploy,
    resolve_deploy_phase,
    resolve_disband,
    resolve_domain_action,
    resolve_move,
    resolve_movement_phase,
    resolve_recruit,
    resolve_reinforce,
)
from sim.rules.gw.legality import (
    check,
    committed,
    expected_hex,
    give_order,
    may_assault,
)
from sim.rules.gw.orders import (
    legal_orders,
)
from sim.rules.gw.season import (
    PHASE_FUNCTIONS,
    begin_season,
    clear_damage,
    collect_yields,
    create_loot,
    give_orders,
    given,
    lapse_titles,
    order_label,
    pay_upkeep,
    resolve_end_of_season,
    resolve_season,
    run_phases,
)
from sim.rules.gw.siege import (
    resolve_famine,
    resolve_siege,
    resolve_siege_damage,
    resolve_siege_phase,
)

__all__ = [
    "ACTION_ORDERS",
    "CombatResult",
    "GwHooks",
    "MAX_ORDERS",
    "NO_HOOKS",
    "OCCUPIED_ALLOWED",
    "PHASES",
    "PHASE_FUNCTIONS",
    "SPELL_PLACES",
    "SYS",
    "WORKS",
    "allied",
    "annex_domain",
    "apply_damage",
    "armies_at",
    "army_involves",
    "army_speed",
    "army_strength",
    "begin_season",
    "capped_bonus",
    "check",
    "clear_damage",
    "collect_yields",
    "committed",
    "create_loot",
    "defending_strength",
    "domains_at",
    "drop_idle_sieges",
    "effective_cs",
    "expected_hex",
    "fight",
    "fort_bonus",
    "front_breakdown",
    "garrison_joining",
    "garrison_strength",
    "give_order",
    "give_orders",
    "given",
    "gw_of",
    "is_keep",
    "is_restricted",
    "land_components",
    "lapse_titles",
    "legal_orders",
    "lends_seals",
    "loss_order",
    "march_path",
    "may_assault",
    "new_units",
    "occupy",
    "order_label",
    "owned_domains",
    "pay_upkeep",
    "reachable",
    "refresh_statuses",
    "resolve_annexation_phase",
    "resolve_annexations",
    "resolve_army_combats",
    "resolve_attack",
    "resolve_deploy",
    "resolve_deploy_phase",
    "resolve_disband",
    "resolve_domain_action",
    "resolve_domain_attacks",
    "resolve_end_of_season",
    "resolve_famine",
    "resolve_loot_claim",
    "resolve_move",
    "resolve_movement_phase",
    "resolve_recruit",
    "resolve_reinforce",
    "resolve_return_title",
    "resolve_sack",
    "resolve_season",
    "resolve_siege",
    "resolve_siege_damage",
    "resolve_siege_phase",
    "run_phases",
    "season_at",
    "season_hours",
    "toughness",
    "units_strength",
]
