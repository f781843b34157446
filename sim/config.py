"""Scenario-configurable defaults (GEN-05, RULES.md §6).

Every number or choice a resolution invented is a field here, under its system; a scenario's
``[config.<system>]`` table overrides any of them. The defaults are the ones the worked examples use.
"""

from __future__ import annotations

import msgspec


def _units() -> dict[str, UnitType]:
    return {
        "militia": UnitType("milicien", 1, 10, False, 1),
        "infantry": UnitType("fantassin", 2, 10, False, 2),
        "archer": UnitType("archer", 2, 15, False, 3),
        "cavalry": UnitType("cavalier", 2, 20, False, 4),
        "knight": UnitType("chevalier", 2, 15, False, 5),
        "siege_engine": UnitType("engin de siège", 3, 10, True, 6),
    }


class UnitType(msgspec.Struct, frozen=True):
    """A row of the unit catalogue (SC-GW-06)."""

    french: str
    cs: int
    speed: int
    siege: bool
    loss_rank: int


class KmConfig(msgspec.Struct, forbid_unknown_fields=True):
    days_per_turn: int = 30
    magic_communication: bool = False
    explorer_speed_ft: int = 30
    explorer_travel_hours_per_day: int = 8
    # RES-KM-29: total alignment steps (0..4) → starting attitude of a subjugated kingdom
    vassal_attitude_by_steps: list[str] = msgspec.field(
        default_factory=lambda: ["friendly", "indifferent", "indifferent", "unfriendly", "hostile"]
    )
    events_enabled: bool = False
    settlement_size_modifiers: bool = False


class MnConfig(msgspec.Struct, forbid_unknown_fields=True):
    ambassador_cost: int = 50
    default_travel_turns: int = 1
    turns_per_year: int = 4
    pact_response_turns: int = 1
    province_income_po: int = 20
    resource_income_po: int = 10


class GwConfig(msgspec.Struct, forbid_unknown_fields=True):
    phase_order: list[str] = msgspec.field(
        default_factory=lambda: ["deploy", "move", "siege", "army_combats", "domain_attacks", "annexations", "end_of_season"]
    )
    units: dict[str, UnitType] = msgspec.field(default_factory=_units)
    # fortification level → per-unit garrison bonus; "keep or better" is level >= keep_level
    fortifications: list[int] = msgspec.field(default_factory=lambda: [0, 1, 2, 3, 4])
    fortification_names: list[str] = msgspec.field(
        default_factory=lambda: ["none", "palisade", "keep", "castle", "citadel"]
    )
    keep_level: int = 2
    seasons_per_year: int = 4
    loot_solars_per_unit_pip: int = 10
    desertion_rounding: str = "ceil"
    annex_compensation_solars: int = 500
    domain_solars: int = 20
    domain_victuals: int = 10
    unit_cost_solars: dict[str, int] = msgspec.field(
        default_factory=lambda: {"militia": 5, "infantry": 10, "archer": 12, "cavalry": 15, "knight": 20, "siege_engine": 30}
    )
    recruit_per_domain: int = 5
    army_upkeep_solars: int = 1
    units_per_seal: int = 10
    victuals_per_unit: int = 5
    desertion_percent: int = 20
    own_seal_percent: int = 50  # GW-DEP-04
    bonus_cap: int = 1  # GW-CMB-03
    loot_min_units: int = 10  # GW-LOOT-02
    sack_loot_min_sp: int = 10  # GW-LOOT-04, RES-GW-16
    notoriety_penalty: int = 2  # GW-ANX-04


class CvConfig(msgspec.Struct, forbid_unknown_fields=True):
    base_speed_mpd: int = 32
    fast_caravan_mpd: int = 4
    axles_mpd: int = 2
    axles_cost_gp: int = 100
    travel_hours_are_day: bool = True
    fatigued_penalty: int = 2
    exhausted_penalty: int = 6
    stores_cost_gp: int = 10
    unrest_reduction: int = 1
    gift_counter_resets: str = "never"
    mutiny_fail5_outcome: str = "1d2"
    supply_wagon_cost_gp: int = 300
    supply_wagon_hp: int = 20
    repair_hp_per_unit: int = 10
    repair_units_per_wainwright_day: int = 1
    combat_damage: str = "1d6"  # plus Offense (SC-CV-14)
    max_wagons: int = 5
    job_bonus_cap: int = 5
    travel_start_hour: int = 6  # the 12-hour travel slot starts at this hour of each day
    characters_survive: bool = True
    # CV additions (invented numbers, GEN-05): Extra Wagons feat (SC-CV-05), price of one cargo unit of
    # repair materials (RES-CV-23), clock hours that count as night when travel_hours_are_day is
    # false (RES-CV-03)
    extra_wagons_per_feat: int = 1
    repair_materials_cost_gp: int = 50
    night_starts_hour: int = 18
    night_ends_hour: int = 6


class LinkConfig(msgspec.Struct, forbid_unknown_fields=True):
    gp_per_bp: int = 4000
    gp_per_po: int = 1
    gp_per_solar: int = 10
    expedition_max_days: int = 120
    envoy_hexes_per_day: int = 2


class Config(msgspec.Struct, forbid_unknown_fields=True):
    km: KmConfig = msgspec.field(default_factory=KmConfig)
    mn: MnConfig = msgspec.field(default_factory=MnConfig)
    gw: GwConfig = msgspec.field(default_factory=GwConfig)
    cv: CvConfig = msgspec.field(default_factory=CvConfig)
    link: LinkConfig = msgspec.field(default_factory=LinkConfig)
