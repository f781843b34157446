"""The other files of a scenario (orders files): read once, next to the scenario, then carried.

A scenario may name other files (``orders_file`` of a scripted kingdom). On the command line such a
name is a path relative to the scenario file, inside its folder: an absolute path or one whose ``..``
leaves the folder is a problem of the field, and nothing is opened. The texts are read when the
scenario is loaded (:func:`gather`) and travel with it from then on — in a job, in a save file — so a
worker, the server or a resumed campaign never opens a path: it finds each name among the texts the
scenario carries (:func:`carried`), or reports that the file was not carried.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from scenarios.inputs import InputFileError, read_input
from scenarios.limits import FILE_CAPS
from sim.errors import Problem, ScenarioError

MAX_FILE_BYTES = FILE_CAPS["orders"].default  # an orders file above this is refused unread (scenarios.limits)


@dataclass(frozen=True)
class Carried:
    """One named file: its label in messages and its text, or why it could not be read."""

    label: str
    text: str | None
    expected: str = ""
    found: str = ""


_CARRIED: ContextVar[Mapping[str, Carried] | None] = ContextVar("scenario_files", default=None)


def name_problem(name: str) -> tuple[str, str] | None:
    """(expected, found) when ``name`` is not a path relative to the scenario's folder and inside it."""
    expected = "a path relative to the scenario file, inside its folder (e.g. orders/alpha.toml)"
    if not isinstance(name, str) or not name.strip():
        return expected, "an empty name"
    if "\x00" in name:
        return expected, "a name with a NUL character"
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute() or name.startswith(("~", "\\")) \
            or PureWindowsPath(name).drive:
        return expected, f'"{name[:80]}" (an absolute path)'
    depth = 0
    for part in PurePosixPath(name.replace("\\", "/")).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            return expected, f'"{name[:80]}" (it leaves the scenario\'s folder)'
    return None


def file_names(raw: Any) -> list[str]:
    """The other files a decoded scenario names (``kingdoms[*].orders_file``), in order, once each."""
    out: list[str] = []
    kingdoms = raw.get("kingdoms") if isinstance(raw, dict) else None
    for k in kingdoms if isinstance(kingdoms, list) else []:
        name = k.get("orders_file") if isinstance(k, dict) else None
        if isinstance(name, str) and name and name not in out:
            out.append(name)
    return out


def gather(text: str, base: Path) -> dict[str, Carried]:
    """Read the files a scenario's ``text`` names, relative to ``base`` (the scenario file's folder).
    A name that is not a safe relative path is not opened (the validator reports it at its field)."""
    if "orders_file" not in text:
        return {}  # names no other file (a scenario loaded again costs no second TOML parse)
    try:
        raw = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return {}  # the validator reports it
    out: dict[str, Carried] = {}
    root = base.resolve()
    for name in file_names(raw):
        if name_problem(name) is not None:
            continue
        p = base / name
        try:
            inside = p.resolve().is_relative_to(root)
        except (OSError, RuntimeError):
            inside = False
        if not inside:  # a link out of the folder
            out[name] = Carried(str(p), None, "a file inside the scenario's folder", "a path that leads out of it")
            continue
        try:  # capped, and never blocked by a FIFO or a device (scenarios.inputs)
            out[name] = Carried(str(p), read_input(p, "orders").decode("utf-8"))
        except UnicodeDecodeError as e:
            out[name] = Carried(str(p), None, "UTF-8 text", f"undecodable bytes ({e.reason})")
        except InputFileError as e:
            out[name] = Carried(str(p), None, e.expected, e.found)
    return out


def texts(files: Mapping[str, Carried]) -> dict[str, str]:
    """The texts a job or a save carries: ``{name: text}`` of the files that could be read."""
    return {n: c.text for n, c in sorted(files.items()) if c.text is not None}


def from_texts(files: Mapping[str, Any] | None) -> dict[str, Carried]:
    """The carried files of a job, a save or a request (``{name: text}``, untrusted: checked here)."""
    if files is None:
        return {}
    if not isinstance(files, Mapping):
        raise ScenarioError("(files)", [Problem("(files)", "a table of file names to texts", type(files).__name__)])
    bad = [Problem(f"(files).{str(n)[:80]}", "a file name and its text", type(t).__name__)
           for n, t in files.items() if not isinstance(n, str) or not isinstance(t, str)]
    if bad:
        raise ScenarioError("(files)", bad)
    return {n: Carried(n, t) for n, t in files.items()}


@contextmanager
def carrying(files: Mapping[str, Carried] | None) -> Iterator[None]:
    """While validating or building a scenario: the files it carries."""
    token = _CARRIED.set(files or {})
    try:
        yield
    finally:
        _CARRIED.reset(token)


def carried(name: str) -> tuple[str, str]:
    """(label, text) of a file the scenario being loaded carries; ScenarioError when it is not carried
    or could not be read. Never opens a path."""
    problem = name_problem(name)
    if problem is not None:
        raise ScenarioError(name[:80], [Problem("(file)", *problem)])
    files = _CARRIED.get() or {}
    c = files.get(name)
    if c is None:
        raise ScenarioError(name, [Problem("(file)", "a file carried with the scenario (read next to the scenario "
                                                     "file when it is loaded; a job carries its text)",
                                           "not carried")])
    if c.text is None:
        raise ScenarioError(c.label, [Problem("(file)", c.expected, c.found)])
    return c.label, c.text
