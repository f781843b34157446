"""``realmsim validate STATE --faction ID``: what a (partial) state leaves out for one faction.

A game master may write only the factions and places that matter to the advised faction; every
other value takes the scenario schema's default. This says, for one faction:

* **missing** — what the faction cannot play without (a kingdom with no hex or settlement, a guild with
  neither seals nor units, a nation without provinces, a convoy without wagons or travellers), and
  what the others it deals with lack (a domain owned by a guild the state does not have…); these make
  ``validate`` fail;
* **defaulted** — every field of its own row the file does not write, with the default it takes (a
  treasury of 0, no leader in a role…), so the game master sees what was assumed.
"""

from __future__ import annotations

import tomllib
from typing import Any

import msgspec

from scenarios.loader import LoadedScenario
from sim.errors import Problem
from workers.factions import TABLES, resolve_faction


def _row(sc: Any, key: str) -> tuple[int, Any]:
    kind, _, ident = key.partition(":")
    for i, r in enumerate(getattr(sc, TABLES[kind])):
        if r.id == ident:
            return i, r
    raise KeyError(key)


def missing_for(loaded: LoadedScenario, key: str) -> list[Problem]:
    sc = loaded.scenario
    kind = key.partition(":")[0]
    i, r = _row(sc, key)
    path = f"{TABLES[kind]}[{i}]"
    out: list[Problem] = []
    if kind == "kingdom":
        if not r.hexes:
            out.append(Problem(f"{path}.hexes", "the kingdom's claimed hexes ([col, row] pairs)", "none"))
        if not r.settlements:
            out.append(Problem(f"{path}.settlements", "at least one settlement (a [[kingdoms.settlements]] named on the map)", "none"))
        if not r.leaders:
            out.append(Problem(f"{path}.leaders", "its leaders by role (ruler, councilor, general…; a vacant role costs, SC-KM-20…24)",
                               "none: every role vacant"))
        others = [k.id for k in sc.kingdoms if k.id != r.id]
        if not others:
            out.append(Problem("kingdoms", "another kingdom for diplomacy, trade and vassalage edicts to aim at", "none"))
    elif kind == "guild":
        if not r.seals and not r.pool:
            out.append(Problem(f"{path}.seals", "the guild's seals (sceaux) or a unit pool to deploy", "neither"))
        mine = [d.id for d in sc.domains if d.owner == r.id]
        armies = [a.id for a in sc.armies if a.owner == r.id]
        if not mine and not armies:
            out.append(Problem("domains", f"a domain owned by {r.id} or one of its armies in [[armies]]", "neither"))
        if not any(g.id != r.id for g in sc.guilds):
            out.append(Problem("guilds", "another guild to attack, annex or ally with", "none"))
    elif kind == "nation":
        if len(sc.cities) < 2:
            out.append(Problem("cities", "cities besides its capital for its ambassadors to go to ([[cities]])",
                               f"{len(sc.cities)}"))
    elif kind == "convoy":
        if not r.wagons:
            out.append(Problem(f"{path}.wagons", "the convoy's wagons", "none"))
        if not r.travelers:
            out.append(Problem(f"{path}.travelers", "its travellers (drivers, guards, cooks…)", "none"))
        if not r.provisions:
            out.append(Problem(f"{path}.provisions", "its provisions (0 means starving from the first day)", "0"))
    return out


def defaulted_for(loaded: LoadedScenario, key: str) -> list[Problem]:
    """Every field of the faction's row that the file leaves to its default."""
    raw = tomllib.loads(loaded.text)
    kind = key.partition(":")[0]
    i, r = _row(loaded.scenario, key)
    table = TABLES[kind]
    written = raw.get(table, [])[i] if i < len(raw.get(table, [])) else {}
    out: list[Problem] = []
    for f in msgspec.structs.fields(type(r)):
        if f.name in written or f.required:
            continue
        default = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
        out.append(Problem(f"{table}[{i}].{f.name}", "a value (not written: the default applies)",
                           msgspec.json.encode(msgspec.to_builtins(default)).decode()))
    return out


def report(loaded: LoadedScenario, faction: str) -> tuple[str, list[Problem], list[Problem]]:
    key = resolve_faction(loaded.scenario, faction, loaded.label)
    return key, missing_for(loaded, key), defaulted_for(loaded, key)


def cmd_validate_faction(args: Any) -> int:
    """``realmsim validate STATE --faction ID``: the file's problems (as plain validate), then what
    is missing (exit 1) and what is defaulted for the faction."""
    from scenarios.loader import load_scenario

    loaded = load_scenario(args.file)
    key, missing, defaulted = report(loaded, args.faction)
    sc = loaded.scenario
    season = sc.state.season if sc.state is not None else 0
    print(f"{loaded.label}: ok — scenario {sc.scenario.name!r}, systems {', '.join(sc.scenario.systems)}, season {season}")
    if missing:
        print(f"{loaded.label}: {len(missing)} thing(s) missing for {key}:")
        for p in missing:
            print(f"  {p.path}: expected {p.expected}, found {p.found}")
    else:
        print(f"{key}: nothing missing")
    if defaulted:
        print(f"{key}: {len(defaulted)} field(s) defaulted:")
        for p in defaulted:
            print(f"  {p.path} = {p.found}")
    return 1 if missing else 0
