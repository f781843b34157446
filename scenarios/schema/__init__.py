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


class Scenario(Spec):
    scenario: Header
    map: MapSpec
    config: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)
    # --- CV: caravans
    convoys: list[cv.ConvoySpec] = []
    hazards: list[cv.HazardSpec] = []
    hazard_tables: list[cv.HazardTableSpec] = []
    cv_events: list[cv.EventSpec] = []
    cv_jobs: list[cv.JobSpec] = []
    # --- KM: kingdoms
    kingdoms: list[km.KingdomSpec] = []
    km_relations: list[km.KmRelationSpec] = []
    km_stances: list[km.KmStanceSpec] = []
    km_encounters: list[km.KmEncounterSpec] = []
    km_hidden_features: list[km.KmHiddenFeatureSpec] = []
    km_explored: list[Coord] = []
    km_events: list[km.KmEventSpec] = []
    # --- GW: guild warfare
    guilds: list[gw.GuildSpec] = []
    domains: list[gw.DomainSpec] = []
    armies: list[gw.ArmySpec] = []
    alliances: list[list[str]] = []
    unit_bonuses: list[gw.BonusSpec] = []
    # --- MN: Mare Nostrum
    nations: list[mn.NationSpec] = []
    cities: list[mn.CitySpec] = []
    diplomacy: mn.DiplomacySpec = msgspec.field(default_factory=mn.DiplomacySpec)
    peoples: list[mn.PeopleSpec] = []
    mn_provinces: list[mn.MnProvinceSpec] = []
    racial_factors: list[mn.RacialFactorSpec] = []
    mn_travel: list[mn.TravelSpec] = []
    mn_treaties: list[mn.MnTreatySpec] = []
    mn_events: list[mn.MnEventSpec] = []
    # --- LINK: where the systems meet (factions that are both kingdom and nation, nations' levies)
    factions: list[link.FactionSpec] = []


__all__ = ["Scenario", "Header", "Duration", "MapSpec"]
