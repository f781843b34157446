"""Limits of every count, size and duration a scenario file (and ``[config.*]``) may hold (issue 9).

Every field has one: the entry of :data:`FIELD_LIMITS` named ``Struct.field`` when there is one, else
the default of its kind (:data:`DEFAULT`, :data:`CONFIG_DEFAULT`). ``scenarios.validate`` checks them
before anything is built, so validating a file costs time and memory in proportion to its size, not
to the numbers in it (a ``count`` of a billion is refused, never expanded). ``tools/gen_scenario_doc.py``
writes each field's limit into ``docs/scenario-format.md`` from this same table.

A limit applies to the field's value and, for a list or a table, to each of its items: ``lo``/``hi``
bound integers, ``chars`` bounds string length, ``items`` bounds the number of entries of a list or
table. The built-in scenarios stay far inside every limit; the durations keep a campaign to minutes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from sim.calendar import HOURS_PER_YEAR
from sim.errors import RealmsimError

BIG = 10**9  # money, treasuries: a billion
UNITS = 10_000  # soldiers of one type in one garrison, army, pool or levy
HEXES = 40_000  # a 200×200 map
MAP_SIDE = 200  # map rows, and letters per row
MAX_YEARS = 100  # a campaign's whole duration (years + seasons + months + days)


@dataclass(frozen=True)
class Limit:
    lo: int | None = None
    hi: int | None = None
    items: int | None = None
    chars: int | None = None

    def merged(self, other: Limit) -> Limit:
        """``self`` with the bounds ``other`` sets replacing its own."""
        return replace(self, **{k: v for k, v in other.__dict__.items() if v is not None})

    def text(self) -> str:
        """How the limit reads in the documentation."""
        parts = []
        if self.lo is not None and self.hi is not None:
            parts.append(f"{self.lo:,}–{self.hi:,}".replace(",", " "))
        if self.items is not None:
            parts.append(f"≤ {self.items:,} items".replace(",", " "))
        if self.chars is not None:
            parts.append(f"≤ {self.chars:,} chars".replace(",", " "))
        return ", ".join(parts)


DEFAULT = Limit(lo=-BIG, hi=BIG, items=1000, chars=200)  # any scenario field not named below
CONFIG_DEFAULT = Limit(lo=0, hi=10**6, items=50, chars=100)  # any [config.*] key not named below


def _lim(**kw: int) -> Limit:
    return Limit(**kw)


FIELD_LIMITS: dict[str, Limit] = {
    # header and map
    "Header.name": _lim(chars=100),
    "Header.title": _lim(chars=200),
    "Header.title_fr": _lim(chars=200),
    "Header.description": _lim(chars=4000),
    "Header.systems": _lim(items=4),
    "Header.seed": _lim(lo=0, hi=2**63 - 1),  # numpy seeds are non-negative
    "Duration.years": _lim(lo=0, hi=MAX_YEARS),
    "Duration.seasons": _lim(lo=0, hi=4 * MAX_YEARS),
    "Duration.months": _lim(lo=0, hi=12 * MAX_YEARS),
    "Duration.days": _lim(lo=0, hi=360 * MAX_YEARS),
    "MapSpec.rows": _lim(items=MAP_SIDE, chars=MAP_SIDE),
    "MapSpec.province_rows": _lim(items=MAP_SIDE, chars=MAP_SIDE),
    "MapSpec.hex_miles": _lim(lo=1, hi=1000),
    "MapSpec.roads": _lim(items=1000),
    "MapSpec.rivers": _lim(items=500),
    "MapSpec.settlements": _lim(items=2000),
    "MapSpec.provinces": _lim(items=1000),
    "RoadSpec.path": _lim(lo=-1, hi=MAP_SIDE, items=HEXES),
    "RiverSpec.path": _lim(lo=-1, hi=MAP_SIDE, items=HEXES),
    "SettlementSpec.at": _lim(lo=-1, hi=MAP_SIDE),
    "ProvinceSpec.hexes": _lim(lo=-1, hi=MAP_SIDE, items=HEXES),
    "ProvinceSpec.key": _lim(chars=1),
    # top-level tables
    "Scenario.config": _lim(items=5),
    "Scenario.convoys": _lim(items=100),
    "Scenario.hazards": _lim(items=500),
    "Scenario.hazard_tables": _lim(items=100),
    "Scenario.cv_events": _lim(items=5000),
    "Scenario.cv_jobs": _lim(items=12),
    "Scenario.kingdoms": _lim(items=50),
    "Scenario.km_relations": _lim(items=2500),
    "Scenario.km_stances": _lim(items=2500),
    "Scenario.km_encounters": _lim(items=5000),
    "Scenario.km_hidden_features": _lim(items=HEXES),
    "Scenario.km_explored": _lim(lo=-1, hi=MAP_SIDE, items=HEXES),
    "Scenario.km_events": _lim(items=5000),
    "Scenario.guilds": _lim(items=50),
    "Scenario.domains": _lim(items=2000),
    "Scenario.armies": _lim(items=1000),
    "Scenario.alliances": _lim(items=1000),
    "Scenario.unit_bonuses": _lim(items=5000),
    "Scenario.nations": _lim(items=50),
    "Scenario.cities": _lim(items=2000),
    "Scenario.peoples": _lim(items=200),
    "Scenario.mn_provinces": _lim(items=1000),
    "Scenario.racial_factors": _lim(items=20000),
    "Scenario.mn_travel": _lim(items=20000),
    "Scenario.mn_treaties": _lim(items=2500),
    "Scenario.mn_events": _lim(items=5000),
    "Scenario.factions": _lim(items=50),
    # CV
    "ConvoySpec.gp": _lim(lo=0, hi=BIG),
    "ConvoySpec.provisions": _lim(lo=0, hi=10**6),
    "ConvoySpec.unrest": _lim(lo=0, hi=1000),
    "ConvoySpec.cargo": _lim(lo=0, hi=10**6),
    "ConvoySpec.feats": _lim(items=20, chars=60),
    "ConvoySpec.wagons": _lim(items=50),
    "ConvoySpec.travelers": _lim(items=200),
    "ConvoySpec.via": _lim(lo=-1, hi=MAP_SIDE, items=100),
    "ConvoySpec.path": _lim(lo=-1, hi=MAP_SIDE, items=HEXES),
    "ConvoySpec.origin": _lim(lo=-1, hi=MAP_SIDE),
    "ConvoySpec.destination": _lim(lo=-1, hi=MAP_SIDE),
    "TravelerSpec.count": _lim(lo=1, hi=1000),
    "TravelerSpec.wage": _lim(lo=0, hi=10**6),
    "TravelerSpec.spells": _lim(lo=0, hi=100, items=3),
    "TravelerSpec.caster_level": _lim(lo=0, hi=20),
    "HazardSpec.dc": _lim(lo=0, hi=100),
    "HazardSpec.rounds": _lim(lo=1, hi=100),
    "HazardSpec.on_fail": _lim(items=20),
    "HazardSpec.on_success": _lim(items=20),
    "HazardSpec.enemies": _lim(items=100),
    "EffectSpec.amount": _lim(lo=-(10**6), hi=10**6),
    "EffectSpec.days": _lim(lo=0, hi=36500),
    "EnemySpec.ac": _lim(lo=-100, hi=100),
    "EnemySpec.hp": _lim(lo=1, hi=10**6),
    "EnemySpec.attack": _lim(lo=-100, hi=100),
    "BandSpec.from": _lim(lo=-1000, hi=1000),
    "BandSpec.to": _lim(lo=-1000, hi=1000),
    "HazardTableSpec.bands": _lim(items=100),
    "EventSpec.day": _lim(lo=1, hi=360 * MAX_YEARS),
    "EventSpec.morale": _lim(lo=0, hi=10),
    "EventSpec.amount": _lim(lo=-1000, hi=1000),
    "EventSpec.note": _lim(chars=1000),
    "JobSpec.attack": _lim(lo=-100, hi=100),
    "JobSpec.ac": _lim(lo=-100, hi=100),
    "JobSpec.security": _lim(lo=-100, hi=100),
    "JobSpec.resolve": _lim(lo=-100, hi=100),
    # KM
    "KingdomSpec.treasury": _lim(lo=-BIG, hi=BIG),
    "KingdomSpec.economy": _lim(lo=-(10**6), hi=10**6),
    "KingdomSpec.loyalty": _lim(lo=-(10**6), hi=10**6),
    "KingdomSpec.stability": _lim(lo=-(10**6), hi=10**6),
    "KingdomSpec.unrest": _lim(lo=0, hi=10**6),
    "KingdomSpec.fame": _lim(lo=0, hi=10**6),
    "KingdomSpec.infamy": _lim(lo=0, hi=10**6),
    "KingdomSpec.hexes": _lim(lo=-1, hi=MAP_SIDE, items=HEXES),
    "KingdomSpec.settlements": _lim(items=500),
    "KingdomSpec.improvements": _lim(items=HEXES),
    "KingdomSpec.leaders": _lim(items=50),
    "KingdomSpec.vassal_leaders": _lim(items=50),
    "KingdomSpec.skills": _lim(lo=-1000, hi=1000, items=50),
    "KingdomSpec.counter_skills": _lim(lo=-1000, hi=1000, items=50),
    "KingdomSpec.explorers": _lim(lo=0, hi=1000, items=50),
    "KingdomSpec.armies": _lim(lo=0, hi=1000),
    "KingdomSpec.control_dc_mod": _lim(lo=-1000, hi=1000),
    "KingdomSpec.consumption_mod": _lim(lo=-1000, hi=1000),
    "KingdomSpec.deposition_shift": _lim(lo=-1000, hi=1000),
    "KingdomSpec.orders": _lim(items=12 * MAX_YEARS),
    "KingdomSpec.orders_file": _lim(chars=1000),
    "KmSettlementSpec.districts": _lim(lo=1, hi=100),
    "KmSettlementSpec.buildings": _lim(lo=0, hi=1000, items=100),
    "KmSettlementSpec.mods": _lim(lo=-1000, hi=1000, items=50),
    "LeaderSpec.ability": _lim(lo=-1000, hi=1000),
    "VassalAttrsSpec.economy": _lim(lo=-(10**6), hi=10**6),
    "VassalAttrsSpec.loyalty": _lim(lo=-(10**6), hi=10**6),
    "VassalAttrsSpec.stability": _lim(lo=-(10**6), hi=10**6),
    "ExpeditionSpec.offense": _lim(lo=1, hi=10),
    "ExpeditionSpec.defense": _lim(lo=1, hi=10),
    "ExpeditionSpec.mobility": _lim(lo=1, hi=10),
    "ExpeditionSpec.morale": _lim(lo=1, hi=10),
    "ExpeditionSpec.wagons": _lim(items=50),
    "ExpeditionSpec.travelers": _lim(items=200),
    "ExpeditionSpec.feats": _lim(items=20),
    "ExpeditionSpec.gp": _lim(lo=0, hi=BIG),
    "ExpeditionTravelerSpec.count": _lim(lo=1, hi=1000),
    "TurnOrdersSpec.turn": _lim(lo=1, hi=12 * MAX_YEARS),
    "TurnOrdersSpec.withdraw_bp": _lim(lo=0, hi=BIG),
    "TurnOrdersSpec.deposit_gp": _lim(lo=0, hi=BIG),
    "SpecialSpec.bribe": _lim(lo=0, hi=BIG),
    "SpecialSpec.months": _lim(lo=0, hi=12 * MAX_YEARS),
    "SpecialSpec.investment": _lim(lo=0, hi=BIG),
    "SpecialSpec.grant": _lim(lo=0, hi=BIG),
    "SpecialSpec.viceroy_ability": _lim(lo=-1000, hi=1000),
    "KmRelationSpec.bonus": _lim(lo=0, hi=1000, items=20),
    "KmRelationSpec.alliance_bonus": _lim(lo=0, hi=1000, items=20),
    "KmEncounterSpec.day": _lim(lo=1, hi=360 * MAX_YEARS),
    "KmEncounterSpec.cr": _lim(lo=0, hi=100),
    "KmEncounterSpec.expedition": _lim(lo=0, hi=1000),
    "KmHiddenFeatureSpec.dc": _lim(lo=-100, hi=1000),
    "KmEventSpec.turn": _lim(lo=1, hi=12 * MAX_YEARS),
    "KmEventSpec.amount": _lim(lo=-BIG, hi=BIG),
    # GW
    "GuildSpec.solars": _lim(lo=0, hi=BIG),
    "GuildSpec.victuals": _lim(lo=0, hi=BIG),
    "GuildSpec.notoriety": _lim(lo=-(10**6), hi=10**6),
    "GuildSpec.pool": _lim(lo=0, hi=UNITS, items=20),
    "GuildSpec.seals": _lim(items=500),
    "GuildSpec.capacity_bonus": _lim(lo=-(10**4), hi=10**4),
    "DomainSpec.fortification": _lim(lo=-1000, hi=1000),
    "DomainSpec.garrison": _lim(lo=0, hi=UNITS, items=20),
    "DomainSpec.buildings": _lim(items=100),
    "BuildingSpec.sp": _lim(lo=1, hi=1000),
    "ArmySpec.units": _lim(lo=0, hi=UNITS, items=20),
    "ArmySpec.seals": _lim(items=500),
    "ArmySpec.support_seals": _lim(items=500),
    "BonusSpec.value": _lim(lo=-100, hi=100),
    # MN
    "NationSpec.treasury": _lim(lo=0, hi=BIG),
    "NationSpec.ambassadors": _lim(lo=0, hi=1000),
    "NationSpec.provinces": _lim(items=1000),
    "DiplomacySpec.hexes_per_turn": _lim(lo=1, hi=1000),
    "DiplomacySpec.first_turn_in_year": _lim(lo=1, hi=12),
    "RacialFactorSpec.value": _lim(lo=-1000, hi=1000),
    "TravelSpec.turns": _lim(lo=0, hi=1000),
    "MnTreatySpec.last_turn": _lim(lo=1, hi=12 * MAX_YEARS),
    "MnEventSpec.turn": _lim(lo=1, hi=12 * MAX_YEARS),
    "MnEventSpec.note": _lim(chars=1000),
    # LINK
    "FactionSpec.levy": _lim(lo=0, hi=UNITS, items=20),
    # [config.*] (ranges of RULES.md §6's invented numbers; `--set` checks the same)
    "KmConfig.days_per_turn": _lim(lo=1, hi=365),
    "KmConfig.explorer_speed_ft": _lim(lo=1, hi=1000),
    "KmConfig.explorer_travel_hours_per_day": _lim(lo=1, hi=24),
    "KmConfig.vassal_attitude_by_steps": _lim(items=5),
    "MnConfig.ambassador_cost": _lim(lo=0, hi=BIG),
    "MnConfig.default_travel_turns": _lim(lo=0, hi=100),
    "MnConfig.turns_per_year": _lim(lo=1, hi=12),
    "MnConfig.pact_response_turns": _lim(lo=0, hi=100),
    "MnConfig.province_income_po": _lim(lo=0, hi=BIG),
    "MnConfig.resource_income_po": _lim(lo=0, hi=BIG),
    "GwConfig.phase_order": _lim(items=20),
    "GwConfig.units": _lim(items=20),
    "GwConfig.fortifications": _lim(lo=0, hi=1000, items=20),
    "GwConfig.fortification_names": _lim(items=20),
    "GwConfig.keep_level": _lim(lo=0, hi=19),
    "GwConfig.seasons_per_year": _lim(lo=1, hi=12),
    "GwConfig.desertion_percent": _lim(lo=0, hi=100),
    "GwConfig.own_seal_percent": _lim(lo=0, hi=100),
    "GwConfig.units_per_seal": _lim(lo=1, hi=UNITS),
    "GwConfig.unit_cost_solars": _lim(lo=0, hi=10**6, items=20),
    "GwConfig.bonus_cap": _lim(lo=0, hi=100),
    "GwConfig.notoriety_penalty": _lim(lo=0, hi=100),
    "UnitType.cs": _lim(lo=0, hi=100),
    "UnitType.speed": _lim(lo=1, hi=1000),
    "UnitType.loss_rank": _lim(lo=0, hi=100),
    "CvConfig.base_speed_mpd": _lim(lo=1, hi=1000),
    "CvConfig.fast_caravan_mpd": _lim(lo=0, hi=1000),
    "CvConfig.axles_mpd": _lim(lo=0, hi=1000),
    "CvConfig.fatigued_penalty": _lim(lo=0, hi=50),
    "CvConfig.exhausted_penalty": _lim(lo=0, hi=50),
    "CvConfig.stores_cost_gp": _lim(lo=1, hi=10**6),
    "CvConfig.unrest_reduction": _lim(lo=0, hi=100),
    "CvConfig.supply_wagon_hp": _lim(lo=1, hi=10**4),
    "CvConfig.repair_hp_per_unit": _lim(lo=0, hi=10**4),
    "CvConfig.repair_units_per_wainwright_day": _lim(lo=0, hi=100),
    "CvConfig.max_wagons": _lim(lo=1, hi=50),
    "CvConfig.job_bonus_cap": _lim(lo=0, hi=100),
    "CvConfig.travel_start_hour": _lim(lo=0, hi=23),
    "CvConfig.extra_wagons_per_feat": _lim(lo=0, hi=10),
    "CvConfig.night_starts_hour": _lim(lo=0, hi=23),
    "CvConfig.night_ends_hour": _lim(lo=0, hi=23),
    "LinkConfig.gp_per_bp": _lim(lo=1, hi=10**6),
    "LinkConfig.gp_per_po": _lim(lo=1, hi=10**6),
    "LinkConfig.gp_per_solar": _lim(lo=1, hi=10**6),
    "LinkConfig.expedition_max_days": _lim(lo=1, hi=3650),
    "LinkConfig.envoy_hexes_per_day": _lim(lo=1, hi=100),
}

CONFIG_STRUCTS = {"Config", "KmConfig", "MnConfig", "GwConfig", "CvConfig", "LinkConfig", "UnitType"}


def limit_for(cls: type, field: str) -> Limit:
    """The limit of ``cls.field`` (its own entry over its kind's default)."""
    base = CONFIG_DEFAULT if cls.__name__ in CONFIG_STRUCTS else DEFAULT
    own = FIELD_LIMITS.get(f"{cls.__name__}.{field}")
    return base.merged(own) if own is not None else base


# ---- files from outside (issue 30) ------------------------------------------------------------------
# Every file a command reads from a person's disk — a scenario or state file, an orders file it names, a
# save file, a ledger, a batch table to report on — is refused unread above its size cap (``scenarios.inputs`` reads them), so that a
# file's size bounds the time and memory it can cost. The caps sit far above any real file: the largest
# built-in scenario is 35 KB, a ten-year ``realm`` ledger 43 MB and its save 45 MB (a hundred years,
# about ten times that). An environment variable sets another cap for one kind, e.g. for a longer
# campaign: ``REALMSIM_MAX_LEDGER_BYTES=4G realmsim report big.msgpack --out r``.
KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB
MAX_HOURS = MAX_YEARS * HOURS_PER_YEAR  # the longest campaign a scenario may describe, in hours (864 000)


@dataclass(frozen=True)
class FileCap:
    """The size cap of one kind of input file: its default, the variable that sets another, what it is."""

    default: int
    env: str
    what: str  # "a scenario file", as messages say it


FILE_CAPS: dict[str, FileCap] = {
    # a bigger scenario could not travel in a job anyway (workers.job.MAX_JOB_BYTES is 4 MiB)
    "scenario": FileCap(4 * MIB, "REALMSIM_MAX_SCENARIO_BYTES", "a scenario or state file"),
    "orders": FileCap(1 * MIB, "REALMSIM_MAX_ORDERS_BYTES", "an orders file"),
    "save": FileCap(1 * GIB, "REALMSIM_MAX_SAVE_BYTES", "a save file"),
    "ledger": FileCap(1 * GIB, "REALMSIM_MAX_LEDGER_BYTES", "a ledger"),
    "table": FileCap(1 * GIB, "REALMSIM_MAX_TABLE_BYTES", "a batch results table"),  # report's .csv/.parquet
    # collect --manifest: the batch's scenario (≤ 4 MiB) and its job list (≤ MAX_SEEDS seeds, a few bytes each)
    "manifest": FileCap(64 * MIB, "REALMSIM_MAX_MANIFEST_BYTES", "a batch manifest"),
    "tokens": FileCap(1 * MIB, "REALMSIM_MAX_TOKENS_BYTES", "a tokens file"),  # serve --tokens
}
_UNITS = {"": 1, "K": KIB, "M": MIB, "G": GIB, "T": 1024 * GIB}
MAX_CAP = 1024 * GIB  # no setting above a tebibyte: a typo of a few digits, not a cap


class FileCapError(RealmsimError):
    """A malformed cap in the environment (the command line says so and exits 2)."""


def parse_bytes(text: str) -> int:
    """``1048576``, ``64K``, ``64M``, ``2G``, ``1T`` (binary multiples) → bytes; ValueError otherwise."""
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = t[-1:] if t[-1:] in _UNITS and t[-1:] else ""
    digits = t[: len(t) - len(unit)].strip()
    if not digits.isdigit() or len(digits) > 16:
        raise ValueError(text)
    n = int(digits) * _UNITS[unit]
    if not 1 <= n <= MAX_CAP:
        raise ValueError(text)
    return n


def file_cap(kind: str, environ: dict[str, str] | None = None) -> int:
    """The size cap of ``kind`` (a key of :data:`FILE_CAPS`) in bytes: its variable's, else the default."""
    cap = FILE_CAPS[kind]
    raw = (os.environ if environ is None else environ).get(cap.env, "").strip()
    if not raw:
        return cap.default
    try:
        return parse_bytes(raw)
    except ValueError:
        raise FileCapError(f"${cap.env}: expected a size in bytes from 1 to 1T (e.g. 1048576, 64M, 2G), "
                           f"found {raw[:40]!r}") from None


def check_file_caps(environ: dict[str, str] | None = None) -> dict[str, int]:
    """Every kind's cap (FileCapError if a variable is malformed: a command says so before it starts)."""
    return {kind: file_cap(kind, environ) for kind in FILE_CAPS}


def size_text(n: int) -> str:
    """``1 GiB``, ``4 MiB``, ``1 500 bytes``: a cap as messages and the documentation say it."""
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size and n % size == 0:
            return f"{n // size:,} {unit}".replace(",", " ")
    return f"{n:,} bytes".replace(",", " ")
