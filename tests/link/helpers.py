"""A small world where kingdoms, nations and guilds meet (LINK), built through the scenario loader.

12 × 6 plains in four provinces: North (cols 0-5, rows 0-2) and East (cols 6-11, rows 0-2) in region
R1; South and Far below them in region R2. Kingdom ``alpha`` (North) is also the nation ``alpha``
(LINK-03); kingdom ``beta`` (East) is a kingdom only; nation ``delta`` (Far) is a nation only; the city
of Gamma (South) is free. Guild ``ga`` is affiliated with alpha, ``gb`` with beta, ``gd`` with delta,
``gi`` is independent. Alpha has a military alliance with Gamma (MN-TRE-03).
"""

from __future__ import annotations

from typing import Any

from scenarios.build import build_world
from scenarios.loader import LoadedScenario, load_scenario_text
from sim.events import Ledger
from sim.world import World

LEADERS = ('{ ruler = "R", councilor = "C", general = "G", grand_diplomat = "D", high_priest = "H", magister = "M", '
           'marshal = "Ma", spymaster = "S", treasurer = "T", warden = "W" }')

MINI = f"""
[scenario]
name = "link-mini"
systems = ["km", "mn", "gw"]
duration = {{ years = 2 }}

[map]
rows = ["PPPPPPPPPPPP", "PPPPPPPPPPPP", "PPPPPPPPPPPP", "PPPPPPPPPPPP", "PPPPPPPPPPPP", "PPPPPPPPPPPP"]
province_rows = ["nnnnnneeeeee", "nnnnnneeeeee", "nnnnnneeeeee", "ssssssffffff", "ssssssffffff", "ssssssffffff"]
provinces = [
  {{ name = "North", region = "R1", key = "n" }}, {{ name = "East", region = "R1", key = "e" }},
  {{ name = "South", region = "R2", key = "s" }}, {{ name = "Far", region = "R2", key = "f" }},
]
settlements = [
  {{ name = "Alpha", at = [1, 1], kind = "capital" }}, {{ name = "Beta", at = [8, 1], kind = "capital" }},
  {{ name = "Gamma", at = [2, 4], kind = "city" }}, {{ name = "Delta", at = [9, 4], kind = "capital" }},
]

[[kingdoms]]
id = "alpha"
alignment = "LG"
capital = "Alpha"
treasury = 30
economy = 20
loyalty = 20
stability = 20
hexes = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2]]
leaders = {LEADERS}
[[kingdoms.settlements]]
name = "Alpha"

[[kingdoms]]
id = "beta"
alignment = "CN"
capital = "Beta"
treasury = 20
economy = 20
loyalty = 20
stability = 20
hexes = [[7, 0], [8, 0], [9, 0], [7, 1], [8, 1], [9, 1], [8, 2]]
leaders = {LEADERS}
[[kingdoms.settlements]]
name = "Beta"

[[peoples]]
id = "alphans"
[[peoples]]
id = "betans"
[[peoples]]
id = "gammans"
[[peoples]]
id = "deltans"
[[mn_provinces]]
name = "North"
people = "alphans"
resources = ["grain"]
[[mn_provinces]]
name = "East"
people = "betans"
resources = ["iron"]
[[mn_provinces]]
name = "South"
people = "gammans"
resources = ["wine"]
[[mn_provinces]]
name = "Far"
people = "deltans"
resources = ["salt"]
[[cities]]
id = "alpha-city"
province = "North"
settlement = "Alpha"
[[cities]]
id = "beta-city"
province = "East"
settlement = "Beta"
[[cities]]
id = "gamma"
province = "South"
settlement = "Gamma"
[[cities]]
id = "delta-city"
province = "Far"
settlement = "Delta"
[[nations]]
id = "alpha"
capital = "alpha-city"
ambassadors = 1
[[nations]]
id = "delta"
capital = "delta-city"
treasury = 500
ambassadors = 1
[[mn_treaties]]
nation = "alpha"
partner = "gamma"
kind = "alliance"

[[factions]]
kingdom = "alpha"
nation = "alpha"
levy = {{ infantry = 4, archer = 2 }}
[[factions]]
nation = "delta"
levy = {{ archer = 2, infantry = 4 }}

[[guilds]]
id = "ga"
leader = "Ann"
solars = 1000
victuals = 100
affiliation = "alpha"
seals = [{{ id = "ga-m1", province = "North" }}, {{ id = "ga-m2", province = "North" }}, {{ id = "ga-p1", kind = "political", province = "North" }}]
[[guilds]]
id = "gb"
leader = "Ben"
solars = 1000
victuals = 100
affiliation = "beta"
seals = [{{ id = "gb-m1", province = "East" }}, {{ id = "gb-p1", kind = "political", province = "East" }}]
[[guilds]]
id = "gd"
leader = "Dan"
solars = 1000
victuals = 100
affiliation = "delta"
seals = [{{ id = "gd-m1", province = "Far" }}, {{ id = "gd-p1", kind = "political", province = "Far" }}]
[[guilds]]
id = "gi"
leader = "Ida"
solars = 1000
victuals = 100
seals = [{{ id = "gi-m1", province = "South" }}, {{ id = "gi-p1", kind = "political", province = "South" }}]

[[domains]]
id = "alpha-keep"
at = [1, 1]
owner = "ga"
[[domains]]
id = "beta-keep"
at = [8, 1]
owner = "gb"
garrison = {{ militia = 2 }}
[[domains]]
id = "beta-farm"
at = [9, 0]
owner = "gb"
garrison = {{ militia = 1 }}
[[domains]]
id = "gamma-fort"
at = [2, 4]
owner = "gi"
garrison = {{ militia = 2 }}
[[domains]]
id = "delta-hall"
at = [9, 4]
owner = "gd"
"""


def mini(replace: dict[str, str] | None = None, extra: str = "", head: str = "") -> LoadedScenario:
    """The MINI scenario, with text replaced (``{old: new}``) and tables added."""
    text = MINI
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    return load_scenario_text(head + text + extra, "link-mini.toml")


def world(replace: dict[str, str] | None = None, extra: str = "", *, overrides: dict[str, Any] | None = None) -> World:
    return build_world(mini(replace, extra).scenario, 1, overrides=overrides)


def ledger() -> Ledger:
    return Ledger(keep=True)


def kinds(led: Ledger, system: str | None = None) -> list[str]:
    return [e.kind for e in led.events if system is None or e.system == system]
