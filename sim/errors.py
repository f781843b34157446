"""The error hierarchy of DESIGN.md.

``RulesError`` ← ``InvalidOrderError`` / ``IllegalOrderError``; ``ScenarioError`` names the file, the
path of each bad value, what was expected and what was found, and carries every problem of a file.
"""

from __future__ import annotations

from dataclasses import dataclass


class RealmsimError(Exception):
    """Base of every error realmsim raises on purpose (never a bug)."""


class RulesError(RealmsimError):
    """An order or a state that the rules cannot resolve."""


class InvalidOrderError(RulesError):
    """An order that is malformed: unknown kind, missing or mistyped field, unknown entity."""


class IllegalOrderError(RulesError):
    """A well-formed order that breaks a rule; names the clause it breaks.

    >>> IllegalOrderError("KM-GEN-02", "a second special edict this turn", order="trade edict")
    """

    def __init__(self, clause: str, reason: str, *, order: object = None, actor: str | None = None) -> None:
        self.clause = clause
        self.reason = reason
        self.order = order
        self.actor = actor
        who = f"{actor}: " if actor else ""
        what = f" (order: {order!r})" if order is not None else ""
        super().__init__(f"{who}illegal order under {clause}: {reason}{what}")


class DiceScriptError(RealmsimError):
    """A scripted dice source was asked for a roll it does not have, or for the wrong die."""


class SaveFileError(RealmsimError):
    """A save file that cannot be resumed (damaged, or written by another code version)."""


@dataclass(frozen=True)
class Problem:
    """One problem found in a person's input file."""

    path: str  # e.g. "convoys[1].wagons[0].kind"
    expected: str
    found: str
    line: int | None = None  # the line of the file where the value stands, when known

    def render(self, file: str) -> str:
        at = f" (line {self.line})" if self.line is not None else ""
        return f"{file}: {_cut(self.path, 200)}: expected {_cut(self.expected)}, found {_cut(self.found)}{at}"


MAX_PROBLEMS_SHOWN = 50  # a ScenarioError's message lists this many problems, then "and N more"
MAX_PART = 300  # characters of a problem's expected or found text in a message


def _cut(text: str, n: int = MAX_PART) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class ScenarioError(RealmsimError):
    """A scenario (or order) file with one or more problems; ``problems`` lists them all."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.file = file
        self.problems = list(problems)
        lines = [p.render(file) for p in self.problems[:MAX_PROBLEMS_SHOWN]]
        if len(self.problems) > MAX_PROBLEMS_SHOWN:
            lines.append(f"and {len(self.problems) - MAX_PROBLEMS_SHOWN} more")
        head = f"{file}: {len(self.problems)} problem{'s' if len(self.problems) != 1 else ''}"
        super().__init__("\n".join([head, *("  " + line for line in lines)]))
