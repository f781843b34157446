"""Find, read, validate and build scenarios.

``load_scenario("caravan-crossing")`` reads a built-in; ``load_scenario("my.toml")`` a file. Every
problem of a file is collected and raised at once as a :class:`sim.errors.ScenarioError` naming the
file, the path of each bad value, what was expected and what was found.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from scenarios.schema import Scenario
from scenarios.validate import check_against, describe
from sim.config import Config
from sim.errors import Problem, ScenarioError

DATA_DIR = Path(__file__).parent / "data"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.toml"))


def builtin_path(name: str) -> Path:
    return DATA_DIR / f"{name}.toml"


@dataclass(frozen=True)
class LoadedScenario:
    scenario: Scenario
    label: str  # what error messages call the file
    text: str  # the TOML source (what a job ships to a remote worker)
    sha256: str

    @property
    def name(self) -> str:
        return self.scenario.scenario.name


def read_source(name_or_path: str) -> tuple[str, str]:
    """(label, text) of a built-in name or a path."""
    p = Path(name_or_path)
    if name_or_path in builtin_names():
        bp = builtin_path(name_or_path)
        return f"{name_or_path} (built-in, {bp.name})", bp.read_text(encoding="utf-8")
    if p.is_file():
        try:
            return str(p), p.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise ScenarioError(str(p), [Problem("(file)", "UTF-8 text", f"undecodable bytes ({e.reason})")]) from None
        except OSError as e:
            raise ScenarioError(str(p), [Problem("(file)", "a readable file", e.strerror or str(e))]) from None
    known = ", ".join(builtin_names()) or "none"
    found = "a directory" if p.is_dir() else "no such file"
    raise ScenarioError(name_or_path, [Problem("(scenario)", f"a built-in scenario name ({known}) or a path to a .toml file", found)])


def parse_scenario(text: str, label: str) -> Scenario:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(label, [Problem("(file)", "valid TOML", str(e))]) from None
    problems = check_against(raw, Scenario)
    problems += _check_config(raw.get("config"))
    if problems:
        problems += _map_problems_alone(raw, problems)
        raise ScenarioError(label, problems)
    sc = msgspec.convert(raw, Scenario)
    from scenarios.build import semantic_problems

    problems = semantic_problems(sc)
    if problems:
        raise ScenarioError(label, problems)
    return sc


def _map_problems_alone(raw: dict[str, Any], found: list[Problem]) -> list[Problem]:
    """Check the map on its own when other tables have problems, so all are reported at once."""
    if any(p.path == "map" or p.path.startswith("map.") for p in found) or not isinstance(raw.get("map"), dict):
        return []
    from scenarios.build import build_map
    from scenarios.schema.common import MapSpec

    class _MapOnly:  # build_map reads only .map
        map = msgspec.convert(raw["map"], MapSpec)

    out: list[Problem] = []
    build_map(_MapOnly(), out)  # type: ignore[arg-type]
    return out


def _check_config(cfg: Any) -> list[Problem]:
    if not isinstance(cfg, dict):
        return []  # structural check already reported it
    return check_against(cfg, Config, "config")


# Scenarios parsed once per process (issue 12): a worker or pool process gets the same scenario text
# job after job; the parsed, validated scenario is kept, keyed by the text's digest and its label (the
# label is in its error messages). The engine never mutates a Scenario (tests/core/test_scenario_cache.py
# checks it after whole campaigns), so one object serves every job. Bounded: the oldest goes first.
_PARSED: OrderedDict[tuple[str, str], LoadedScenario] = OrderedDict()
PARSED_KEPT = 16


def load_scenario(name_or_path: str) -> LoadedScenario:
    label, text = read_source(name_or_path)
    return load_scenario_text(text, label)


def load_scenario_text(text: str, label: str = "<scenario>") -> LoadedScenario:
    digest = hashlib.sha256(text.encode()).hexdigest()
    key = (digest, label)
    hit = _PARSED.get(key)
    if hit is not None:
        _PARSED.move_to_end(key)
        return hit
    loaded = LoadedScenario(parse_scenario(text, label), label, text, digest)
    _PARSED[key] = loaded
    if len(_PARSED) > PARSED_KEPT:
        _PARSED.popitem(last=False)
    return loaded


def apply_overrides(config: Config, overrides: dict[str, Any] | None, label: str = "overrides") -> Config:
    """Config with dotted-key overrides applied (``{"cv.fatigued_penalty": 3}``), validated."""
    # implements: GEN-05
    if not overrides:
        return config
    data = msgspec.to_builtins(config)
    problems: list[Problem] = []
    for key, value in overrides.items():
        system, _, field = key.partition(".")
        if system not in data or not field:
            problems.append(Problem(key, "a config key <system>.<name> (km, mn, gw, cv, link)", describe(key)))
            continue
        data[system][field] = value
    problems += check_against(data, Config, "config")
    if problems:
        raise ScenarioError(label, problems)
    return msgspec.convert(data, Config)
