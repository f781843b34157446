"""Turning what a request says into what the engine runs, refusing what a network client may not ask.

A scenario comes as a built-in name (only built-in names resolve: a name is never a path) or as TOML
text. Text from the network may name only registered or installed policies (``package.module:Class``
only of a module the server's own command line allowed with ``--allow-policies``; anything else would
import code) and no file (``orders_file`` would read the server's disk): both are refused here, before
the scenario loader sees the text; the loader then resolves every policy name through
``agents.policies.resolve_policy``, as for any scenario.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from scenarios.loader import LoadedScenario, apply_overrides, builtin_names, load_scenario, load_scenario_text
from scenarios.validate import describe
from sim.calendar import HOURS_PER_SEASON
from sim.errors import Problem, ScenarioError
from workers.server.errors import ApiError, bad_value, scenario_error
from workers.server.limits import MAX_TEXT_DEPTH, MAX_TEXT_ITEMS, toml_shape

TEXT_LABEL = "scenario text"
MAX_SEEDS_PER_BATCH = 100_000
_LONG_NUMBER = re.compile(r"\d{20,}")


def registered_policies() -> list[str]:
    from agents.policies import known_policies

    return sorted({n for kind in ("kingdom", "nation", "guild", "convoy") for n in known_policies(kind)})


def _network_policy_ok(v: str) -> bool:
    """A bare name is left to the loader (built-in or installed, per kind); ``module:Class`` only of a
    module the server's command line allowed."""
    from agents.policies import module_allowed

    mod, colon, _ = v.partition(":")
    if not colon:
        return "/" not in v and "\\" not in v
    return module_allowed(mod)


def network_problems(raw: Any, path: str = "") -> list[Problem]:
    """What a scenario from the network may not say: outside policies, files."""
    out: list[Problem] = []
    allowed = None
    if isinstance(raw, dict):
        for k, v in raw.items():
            p = f"{path}.{k}" if path else str(k)
            key = str(k)
            if key.endswith("policy") and isinstance(v, str) and v:
                if not _network_policy_ok(v):
                    allowed = allowed or registered_policies()
                    out.append(Problem(p, f"a registered policy ({', '.join(allowed)}); a scenario sent to the "
                                          "server may name package.module:Class only of a module the server "
                                          "allows (--allow-policies)", describe(v)))
            elif key.endswith("_file") or key == "file":
                out.append(Problem(p, "inline data (a scenario sent to the server may not name a file of the "
                                      "server's disk)", describe(v)))
            else:
                out += network_problems(v, p)
    elif isinstance(raw, list):
        for i, v in enumerate(raw):
            out += network_problems(v, f"{path}[{i}]")
    return out


def _defused(raw: Any, bad: set[str], path: str = "") -> Any:
    """The document without the values :func:`network_problems` refused (a refused policy becomes
    ``random``, a file name goes), as TOML text, for the loader to find the other problems."""
    from agents.variants import to_toml

    def walk(v: Any, p: str) -> Any:
        if isinstance(v, dict):
            out = {}
            for k, x in v.items():
                kp = f"{p}.{k}" if p else str(k)
                if kp in bad:
                    if str(k).endswith("policy"):
                        out[k] = "random"
                    continue
                out[k] = walk(x, kp)
            return out
        if isinstance(v, list):
            return [walk(x, f"{p}[{i}]") for i, x in enumerate(v)]
        return v

    return to_toml(walk(raw, path))


def scenario_from(name: str | None, text: str | None, *, field: str = "scenario") -> LoadedScenario:
    """The scenario a request names: a built-in ``name`` or TOML ``text`` (exactly one)."""
    if (name is None) == (text is None):
        raise bad_value(field, f"a built-in scenario name ({', '.join(builtin_names())}) in \"{field}\" or TOML "
                               "in \"text\" (exactly one)", "both" if name is not None else "neither")
    try:
        if name is not None:
            if name not in builtin_names():
                raise ScenarioError(name, [Problem("(scenario)", f"a built-in scenario name ({', '.join(builtin_names())})",
                                                   describe(name))])
            return load_scenario(name)
        assert text is not None
        shape = toml_shape(text)  # before the parser, which would take seconds over a long one
        if shape.over(MAX_TEXT_DEPTH, MAX_TEXT_ITEMS):
            raise ScenarioError(TEXT_LABEL, [Problem("(file)", f"TOML nested at most {MAX_TEXT_DEPTH} deep with at most "
                                                               f"{MAX_TEXT_ITEMS:,} values, keys and tables (a scenario "
                                                               "sent to the server)", shape.describe())])
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ScenarioError(TEXT_LABEL, [Problem("(file)", "valid TOML", str(e))]) from None
        except RecursionError:
            raise ScenarioError(TEXT_LABEL, [Problem("(file)", "TOML of a reasonable depth",
                                                     "arrays or tables nested too deep to read")]) from None
        problems = network_problems(raw)
        if problems:  # say what else is wrong too, from a copy without what may not be loaded
            try:
                load_scenario_text(_defused(raw, {p.path for p in problems}), TEXT_LABEL)
            except ScenarioError as e:
                problems += [p for p in e.problems if p.path not in {q.path for q in problems}]
            raise ScenarioError(TEXT_LABEL, problems)
        return load_scenario_text(text, TEXT_LABEL)
    except ScenarioError as e:
        raise scenario_error(e) from None


def scenario_ref(loaded: LoadedScenario, name: str | None) -> dict[str, str]:
    """What a job or a recipe carries: a built-in by name, text as text."""
    return {"name": name} if name is not None else {"label": TEXT_LABEL, "text": loaded.text}


def check_overrides(loaded: LoadedScenario, overrides: dict[str, Any], field: str = "overrides") -> dict[str, Any]:
    if not overrides:
        return {}
    import msgspec

    from sim.config import Config

    try:
        apply_overrides(msgspec.convert(loaded.scenario.config, Config), overrides, field)
    except ScenarioError as e:
        raise ApiError(422, "invalid", str(e), [Problem(f"{field}.{p.path}" if not p.path.startswith(field) else p.path,
                                                        p.expected, p.found) for p in e.problems]) from None
    return dict(sorted(overrides.items()))


def duration_hours(loaded: LoadedScenario, seed: int | None, overrides: dict[str, Any]) -> int:
    """The campaign's last hour, from the world it builds (the scenario's duration)."""
    from scenarios.build import build_world

    sc = loaded.scenario
    world = build_world(sc, sc.scenario.seed if seed is None else seed, overrides=overrides or None, label=loaded.label)
    return world.end


def until_hour(until: int | str | None, end: int, after: int = 0, field: str = "until") -> int | None:
    """``until``: a season number (the campaign stops at its start) or a count with d, m, s or y."""
    if until is None:
        return None
    from workers.batch import UsageError
    from workers.options import parse_until

    if isinstance(until, int):
        if until < 0:
            raise bad_value(field, "a season number >= 1 or a count such as 45d, 2m, 1y", describe(until))
        hour = until * HOURS_PER_SEASON
    else:
        try:
            parsed = parse_until(until)
        except UsageError:
            raise bad_value(field, "a season number (e.g. 3) or a count with d, m, s or y (e.g. 45d)", describe(until)) from None
        assert parsed is not None
        hour = parsed
    if hour <= after or hour > end:
        raise bad_value(field, f"a time after hour {after} and at most the campaign's end (hour {end}, season "
                               f"{end // HOURS_PER_SEASON})", f"{describe(until)} (hour {hour})")
    return hour


def seeds_from(seeds: str | list[int]) -> list[int]:
    from workers.batch import UsageError, parse_seeds

    if isinstance(seeds, list):
        bad = [s for s in seeds if isinstance(s, bool) or not isinstance(s, int) or s < 0 or s > 2**63 - 1]
        if bad or not seeds:
            raise bad_value("seeds", "a non-empty list of integers >= 0 or a range such as \"1..100\"",
                            describe(bad[0]) if bad else "an empty list")
        out = sorted(set(seeds))
    else:
        long = _LONG_NUMBER.search(seeds)
        if long:  # int() of thousands of digits is refused by Python itself (and no seed is that large)
            raise bad_value("seeds", "seeds of at most 19 digits (0..9223372036854775807)",
                            f"a number of {len(long.group()):,} digits")
        count = 0
        for part in seeds.split(","):
            a, dots, b = part.strip().partition("..")
            if dots and a.strip().isdigit() and b.strip().isdigit():
                count += max(0, int(b) - int(a) + 1)
            else:
                count += 1
        if count > MAX_SEEDS_PER_BATCH:
            raise bad_value("seeds", f"at most {MAX_SEEDS_PER_BATCH:,} seeds in one batch", f"{describe(seeds)} ({count:,} seeds)")
        try:
            out = parse_seeds(seeds)
        except UsageError as e:
            raise bad_value("seeds", "A..B with 0 <= A <= B, a seed N, or a comma list such as 1..10,15",
                            f"{describe(seeds)} ({str(e).split(': ', 1)[-1].split(' (expected')[0]})") from None
    if len(out) > MAX_SEEDS_PER_BATCH:
        raise bad_value("seeds", f"at most {MAX_SEEDS_PER_BATCH:,} seeds in one batch", f"{len(out):,} seeds")
    return out


def fork_policies(loaded: LoadedScenario, faction: str | None, policy: str | None,
                  orders: bool = False) -> dict[str, str]:
    """``{faction: policy}`` for a fork, checked against the scenario's factions and the registry
    (``orders``: the fork gives the faction the game master's orders, so a faction without a policy is
    fine)."""
    if faction is None and policy is None and not orders:
        return {}
    if faction is None:
        raise bad_value("faction", "the faction the game master's orders are for" if orders and policy is None
                        else "a faction and a policy together (or neither)", "nothing")
    if policy is None and not orders:
        raise bad_value("policy", "a faction and a policy together (or neither), or the game master's orders "
                                  "for the faction", "nothing")
    from agents.policies import known_policies

    kind = faction.partition(":")[0]
    tables = {"kingdom": "kingdoms", "nation": "nations", "guild": "guilds", "convoy": "convoys"}
    sc = loaded.scenario
    known = [f"{k}:{row.id}" for k, t in tables.items() for row in getattr(sc, t, [])]
    if kind not in tables or faction not in known:
        raise bad_value("faction", f"a faction of the scenario ({', '.join(known[:20])}{'…' if len(known) > 20 else ''})",
                        describe(faction))
    if policy is None:
        return {}
    allowed = [p for p in known_policies(kind) if p != "scripted"]
    if policy not in allowed:
        raise bad_value("policy", f"a registered {kind} policy ({', '.join(allowed)})", describe(policy))
    return {faction: policy}
