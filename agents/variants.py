"""Variants of a scenario: the same file with a subset of its systems, one policy for every faction,
some factions' policies swapped (a tournament's seats), or a shorter duration (RULES.md §5.5: "a
scenario enables any subset of KM, MN, GW and CV").

``variant(loaded, systems=["km", "gw"], policy="random", duration_hours=2160)`` returns a new
:class:`scenarios.loader.LoadedScenario` whose text is a complete scenario file (so a job can ship it
to a remote worker) and which went through the whole validator again. Tables of disabled systems stay
in the file and are ignored; references to them simply do not link (a guild affiliated with a kingdom
is independent when KM is off, LINK-03).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from scenarios.build import scenario_systems
from scenarios.loader import LoadedScenario, load_scenario, load_scenario_text
from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR, SEASONS_PER_YEAR
from sim.errors import Problem, ScenarioError

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_value(v: Any) -> str:
    """One TOML value, written inline (strings as basic strings, tables as inline tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"a TOML file cannot hold {v!r}")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise ValueError(f"a TOML file cannot hold {type(v).__name__} {v!r}")


def toml_key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def to_toml(data: dict[str, Any]) -> str:
    """A TOML document holding ``data`` (one ``key = value`` line per top-level key)."""
    return "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in data.items())


def variant(
    loaded: LoadedScenario | str,
    *,
    systems: Sequence[str] | None = None,
    policy: str | None = None,
    duration_hours: int | None = None,
    seats: Mapping[str, str] | None = None,
) -> LoadedScenario:
    """The scenario with only ``systems`` enabled (in LINK-01 order), every faction (kingdoms,
    nations, guilds, convoys) played by ``policy``, lasting ``duration_hours`` (whole days), and then
    each faction named in ``seats`` by actor key (``{"kingdom:restov": "random"}``) played by the
    policy it maps to (a tournament swaps one seat's policy this way)."""
    base = load_scenario(loaded) if isinstance(loaded, str) else loaded
    data: dict[str, Any] = msgspec.to_builtins(base.scenario)
    head = data["scenario"]
    notes: list[str] = []
    problems: list[Problem] = []
    order = [s.name for s in scenario_systems()]  # LINK-01
    tables = {s.faction_kind: s.faction_table for s in scenario_systems()}  # actor kind → scenario table
    if systems is not None:
        unknown = [s for s in systems if s not in order]
        if unknown or not systems:
            problems.append(Problem("systems", f"a non-empty subset of {', '.join(order)}", json.dumps(list(systems))))
        head["systems"] = [s for s in order if s in systems]
        notes.append("+".join(head["systems"]))
    if duration_hours is not None:
        if duration_hours <= 0 or duration_hours % HOURS_PER_DAY:
            problems.append(Problem("duration_hours", f"a positive number of whole days (a multiple of {HOURS_PER_DAY})", str(duration_hours)))
        head["duration"] = {"days": max(1, duration_hours // HOURS_PER_DAY)}
        notes.append(f"{duration_hours} h")
        _drop_scripts_after(data, max(HOURS_PER_DAY, duration_hours - duration_hours % HOURS_PER_DAY))
    if policy is not None:
        for table in tables.values():
            for row in data.get(table, []):
                row["policy"] = policy
                if table == "kingdoms":
                    row.pop("orders", None)
                    row.pop("orders_file", None)
        notes.append(f"policy {policy}")
    for key, pol in sorted((seats or {}).items()):
        kind, _, ident = key.partition(":")
        rows = [r for r in data.get(tables.get(kind, ""), []) if r.get("id") == ident]
        if not rows:
            kinds = list(tables)
            problems.append(Problem(f"seats[{json.dumps(key)}]", f"the actor key of a {', '.join(kinds[:-1])} or {kinds[-1]} of the "
                                    f"scenario ({', '.join(k + ':ID' for k in kinds)})", json.dumps(key)))
            continue
        rows[0]["policy"] = pol
        if kind == "kingdom":
            rows[0].pop("orders", None)
            rows[0].pop("orders_file", None)
        notes.append(f"{key} {pol}")
    if problems:
        raise ScenarioError(f"variant of {base.label}", problems)
    label = f"{base.label} [variant: {', '.join(notes) or 'unchanged'}]"
    return load_scenario_text(to_toml(data), label, base.carried)


def _drop_scripts_after(data: dict[str, Any], end: int) -> None:
    """A shorter campaign keeps only the scenario events and scripted orders that fall inside it."""
    months = -(-end // HOURS_PER_MONTH)
    tpy = data.get("config", {}).get("mn", {}).get("turns_per_year", SEASONS_PER_YEAR)
    mn_turns = -(-end // (HOURS_PER_YEAR // tpy)) if isinstance(tpy, int) and tpy > 0 else 0
    days = end // HOURS_PER_DAY
    data["km_events"] = [e for e in data.get("km_events", []) if e.get("turn", 1) <= months]
    data["mn_events"] = [e for e in data.get("mn_events", []) if e.get("turn", 1) <= mn_turns]
    data["cv_events"] = [e for e in data.get("cv_events", []) if e.get("day", 1) <= days]
    for k in data.get("kingdoms", []):
        if "orders" in k:
            k["orders"] = [o for o in k["orders"] if o.get("turn", 1) <= months]


__all__ = ["variant", "to_toml"]
