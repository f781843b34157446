"""The scenario file format (TOML). One ``Scenario`` per file.

Top-level tables: ``[scenario]`` (header), ``[map]``, ``[config.<system>]`` (overrides of RULES.md
§6), then each system's own tables (``convoys``, ``kingdoms``, ``guilds``, ``nations`` …), defined
in ``scenarios.schema.<system>``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from scenarios.schema import cv, gw, km, link, mn
from scenarios.schema.common import Coord, Duration, Header, MapSpec, Spec
from scenarios.schema.state import StateSpec


class Scenario(Spec):
    scenario: Header  # the header: name, systems, duration, seed, language
    map: MapSpec  # terrain rows, roads, rivers, settlements, provinces
    config: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)  # overrides of RULES.md §6 defaults, see the end of this page
    # --- CV: caravans
    convoys: list[cv.ConvoySpec] = []  # caravans (CV): statistics, wagons, travelers, cargo, route, policy
    hazards: list[cv.HazardSpec] = []  # hazard definitions (RES-CV-06) and caravan combats (SC-CV-14)
    hazard_tables: list[cv.HazardTableSpec] = []  # d100 tables rolled once per travel day, by terrain and path (GEN-06)
    cv_events: list[cv.EventSpec] = []  # level-ups (RES-CV-20), Unrest events (CV-UNR-07), scripted hazards
    cv_jobs: list[cv.JobSpec] = []  # circumstance bonuses of caravan jobs (SC-CV-13)
    # --- KM: kingdoms
    kingdoms: list[km.KingdomSpec] = []  # kingdoms (KM): statistics, leaders, settlements, hexes, policy
    km_relations: list[km.KmRelationSpec] = []  # embassies, treaties, alliances between kingdoms
    km_stances: list[km.KmStanceSpec] = []  # attitudes, enemies, representatives present (RES-KM-45)
    km_encounters: list[km.KmEncounterSpec] = []  # explorers' encounters (RES-KM-15)
    km_hidden_features: list[km.KmHiddenFeatureSpec] = []  # hidden features of hexes with their DCs (RES-KM-14)
    km_explored: list[Coord] = []  # hexes explored at the start
    km_progress: list[km.KmProgressSpec] = []  # hexes partly explored: the days already spent on each (RES-KM-13)
    km_events: list[km.KmEventSpec] = []  # scripted kingdom events (attacks, conquests…)
    # --- GW: guild warfare
    guilds: list[gw.GuildSpec] = []  # guilds (GW): leader, chest, notoriety, unit pool, seals, policy
    domains: list[gw.DomainSpec] = []  # domains: hex, owner, fortification, garrison, buildings
    armies: list[gw.ArmySpec] = []  # armies already in the field
    alliances: list[list[str]] = []  # groups of allied guilds (RES-GW-06)
    unit_bonuses: list[gw.BonusSpec] = []  # per-unit bonuses: sépium, magic, beliefs (RES-GW-07)
    # --- MN: Mare Nostrum
    nations: list[mn.NationSpec] = []  # Mare Nostrum nations (MN): treasury, capital, provinces, policy
    cities: list[mn.CitySpec] = []  # cities: controlled or uncontrolled, their people
    diplomacy: mn.DiplomacySpec = msgspec.field(default_factory=mn.DiplomacySpec)  # MN-wide settings (travel on the map…)
    peoples: list[mn.PeopleSpec] = []  # peoples (races) of the provinces
    mn_provinces: list[mn.MnProvinceSpec] = []  # provinces' people and resources
    racial_factors: list[mn.RacialFactorSpec] = []  # starting racial factors RF(province, people) (RES-MN-09)
    mn_travel: list[mn.TravelSpec] = []  # travel turns between provinces (RES-MN-02)
    mn_treaties: list[mn.MnTreatySpec] = []  # treaties in force at the start
    mn_events: list[mn.MnEventSpec] = []  # scripted wars, invasions and repulses (SC-MN-07)
    mn_wars: list[mn.MnWarSpec] = []  # wars under way at the start (a state file's)
    # --- LINK: where the systems meet (factions that are both kingdom and nation, nations' levies)
    factions: list[link.FactionSpec] = []  # LINK-03: a kingdom that is also a nation, levies for nation armies
    # --- a state file: the world at a later season (docs/state-format.md)
    state: StateSpec | None = None  # the season the file stands at (written by realmsim state export)


__all__ = ["Scenario", "Header", "Duration", "MapSpec"]
