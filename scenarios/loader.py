"""Find, read, validate and build scenarios.

``load_scenario("caravan-crossing")`` reads a built-in; ``load_scenario("my.toml")`` a file. Every
problem of a file is collected and raised at once as a :class:`sim.errors.ScenarioError` naming the
file, the path of each bad value, what was expected and what was found.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import os
import re
import tomllib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import msgspec

from scenarios.build import semantic_problems
from scenarios.files import Carried, carrying, gather, texts
from scenarios.inputs import InputFileError, read_input
from scenarios.overrides import apply_overrides as apply_overrides  # where the workers and the tests take it
from scenarios.schema import Scenario
from scenarios.toml_lines import key_lines, line_of
from scenarios.validate import check_against, conformed, policy_check_token
from sim.config import Config
from sim.errors import MAX_PROBLEMS_SHOWN, Problem, ScenarioError

DATA_DIR = Path(__file__).parent / "data"


def builtin_names() -> list[str]:
    return list(_builtin_names())


@functools.cache
def _builtin_names() -> tuple[str, ...]:
    """The package's scenario files (they do not change while a process runs; a job asks thrice)."""
    return tuple(sorted(p.stem for p in DATA_DIR.glob("*.toml")))


def builtin_path(name: str) -> Path:
    return DATA_DIR / f"{name}.toml"


@dataclass(frozen=True)
class LoadedScenario:
    scenario: Scenario
    label: str  # what error messages call the file
    text: str  # the TOML source (what a job ships to a remote worker)
    sha256: str
    carried: Mapping[str, Carried] = field(default_factory=dict)  # its other files (orders files), read once

    @property
    def files(self) -> dict[str, str]:
        """``{name: text}`` of the other files it carries (what a job or a save ships with the text)."""
        return texts(self.carried)

    @property
    def name(self) -> str:
        return self.scenario.scenario.name


def read_source(name_or_path: str) -> tuple[str, str]:
    """(label, text) of a built-in name or a path."""
    p = Path(name_or_path)
    if name_or_path in builtin_names():
        bp = builtin_path(name_or_path)
        return f"{name_or_path} (built-in, {bp.name})", bp.read_text(encoding="utf-8")
    if p.is_dir() or not os.path.lexists(p):
        known = ", ".join(builtin_names()) or "none"
        found = "a directory" if p.is_dir() else "no such file"
        raise ScenarioError(name_or_path, [Problem("(scenario)", f"a built-in scenario name ({known}) or a path to a .toml file", found)])
    try:  # capped, and never blocked by a FIFO or a device (issue 30)
        return str(p), read_input(p, "scenario").decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError(str(p), [Problem("(file)", "UTF-8 text", f"undecodable bytes ({e.reason})")]) from None
    except InputFileError as e:
        raise ScenarioError(str(p), [Problem("(file)", e.expected, e.found)]) from None


def parse_scenario(text: str, label: str, files: Mapping[str, Carried] | None = None) -> Scenario:
    with carrying(files):  # its orders files are found among the texts it carries, never opened (issue 9)
        return _parse_scenario(text, label)


def _parse_scenario(text: str, label: str) -> Scenario:
    raw = _read_toml(text, label)
    structural = check_against(raw, Scenario)
    structural += _check_config(raw.get("config"))
    semantic = _semantic_of_sound_parts(raw, structural)
    problems = structural + semantic
    if problems:
        raise ScenarioError(label, with_lines(problems, text))
    return msgspec.convert(raw, Scenario)


def _read_toml(text: str, label: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ScenarioError(label, [Problem("(file)", "valid TOML with values nested a few levels deep",
                                            "values nested too deeply to read (arrays or tables inside each other)")]) from None
    except ValueError as e:  # tomllib.TOMLDecodeError, and the values it cannot represent
        raise ScenarioError(label, [Problem("(file)", "valid TOML", str(e))]) from None


def _semantic_of_sound_parts(raw: dict[str, Any], structural: list[Problem]) -> list[Problem]:
    """The semantic problems of every structurally sound part (issue 10: validation in one round).

    The semantic checks read a copy where each bad value is dropped (a field with a default) or
    replaced by a placeholder (see ``scenarios.validate.conform``); what they find at a bad value or
    at a table holding one is left out, as it may only echo that problem."""
    if not structural:
        return semantic_problems(msgspec.convert(raw, Scenario))
    try:
        sound = conformed(raw, Scenario)
        if isinstance(raw.get("config"), dict):
            sound["config"] = conformed(raw["config"], Config)
        sc = msgspec.convert(sound, Scenario)
        found = semantic_problems(sc)
    except Exception:  # noqa: BLE001 — a placeholder the checks cannot read: the structural problems stand alone
        return []
    return _outside(found, structural)


def _prefixes(path: str) -> list[str]:
    """``a.b[1].c`` → ``a``, ``a.b``, ``a.b[1]``, ``a.b[1].c``."""
    cuts = [i for i, ch in enumerate(path) if ch in ".["] + [len(path)]
    return [path[:i] for i in cuts if i > 0]


def _outside(found: list[Problem], structural: list[Problem]) -> list[Problem]:
    """``found`` less the problems at or inside a structurally bad value, or at a table holding one
    (a convoy whose Offense was bad cannot be said to break the sum of its statistics)."""
    bad: set[str] = set()
    ancestors: set[str] = set()
    for p in structural:
        bad.add(p.path)
        ancestors.update(_prefixes(p.path))
    return [q for q in found if q.path not in ancestors and not any(x in bad for x in _prefixes(q.path))]


def with_lines(problems: list[Problem], text: str) -> list[Problem]:
    """Each problem with the line where its value stands."""
    lines = key_lines(text, [p.path for p in problems])
    located = [p if p.line is not None else replace(p, line=line_of(p.path, lines)) for p in problems]
    return [_suggest(p) if i < MAX_PROBLEMS_SHOWN else p for i, p in enumerate(located)]  # suggestions for those shown


_KNOWN = re.compile(r"\(([^()]*)\)")
_QUOTED = re.compile(r'^"([^"]*)"$')


def _suggest(p: Problem) -> Problem:
    """A reference to an unknown id, with the closest known one (the ids its message lists)."""
    m = _QUOTED.match(p.found)
    if not m or "did you mean" in p.found:
        return p
    for group in reversed(_KNOWN.findall(p.expected)):
        known = [k.strip() for k in group.split(",") if k.strip()]
        if len(known) < 1 or any(" " in k and not k.startswith('"') for k in known[:3]):
            continue
        close = difflib.get_close_matches(m.group(1), [k.strip('"') for k in known], n=1)
        if close and close[0] != m.group(1):
            return replace(p, found=f'{p.found} (did you mean "{close[0]}"?)')
        return p
    return p


def _check_config(cfg: Any) -> list[Problem]:
    if not isinstance(cfg, dict):
        return []  # structural check already reported it
    return check_against(cfg, Config, "config")


# Scenarios parsed once per process (issue 12): a worker or pool process gets the same scenario text
# job after job; the parsed, validated scenario is kept, keyed by the text's digest and its label (the
# label is in its error messages). The engine never mutates a Scenario (tests/core/test_scenario_cache.py
# checks it after whole campaigns), so one object serves every job. Bounded: the oldest goes first.
_PARSED: OrderedDict[tuple[str, str, str, str], LoadedScenario] = OrderedDict()
PARSED_KEPT = 16


def load_scenario(name_or_path: str) -> LoadedScenario:
    """A built-in or a file; the files it names are read relative to it (a built-in's in the built-in
    folder), once, and carried from then on."""
    label, text = read_source(name_or_path)
    base = DATA_DIR if name_or_path in builtin_names() else Path(name_or_path).parent
    return load_scenario_text(text, label, gather(text, base))


def load_scenario_text(text: str, label: str = "<scenario>", files: Mapping[str, Carried] | None = None) -> LoadedScenario:
    """A scenario from its text and the files it carries (``files``: from :func:`scenarios.files.gather`
    or :func:`scenarios.files.from_texts`; a name it does not carry is a problem, never a path read)."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    carried = dict(files or {})
    key = (digest, label, policy_check_token(),
           hashlib.sha256(repr(sorted((n, c) for n, c in carried.items())).encode()).hexdigest() if carried else "")
    hit = _PARSED.get(key)
    if hit is not None:
        _PARSED.move_to_end(key)
        return hit
    loaded = LoadedScenario(parse_scenario(text, label, carried), label, text, digest, carried)
    _PARSED[key] = loaded
    if len(_PARSED) > PARSED_KEPT:
        _PARSED.popitem(last=False)
    return loaded
