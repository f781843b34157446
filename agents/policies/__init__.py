"""AI policies, chosen by name in scenario files.

A policy sees an observation and the list of legal orders, draws from its own random stream (never
the rules' dice) and returns a :class:`Decision`: the chosen order(s) and the alternatives it scored,
which the agent records in the ledger.

Where a policy named in a scenario comes from (:func:`resolve_policy`, the one function every path
uses: the validator, the agents, the server):

- a built-in of the agent's kind, registered with ``@register(kind, name)`` (``random``, ``heuristic``…);
- a policy installed as an entry point of the group ``realmsim.policies`` (``name = "pkg.mod:Class"``,
  or ``"kind.name"`` for one kind only), loaded only when a scenario names it;
- ``package.module:Class`` only when the process that runs it allows the module: ``--allow-policies
  'mypkg.*,other.mod'`` on its command line, or ``$REALMSIM_ALLOW_POLICIES``. Nothing else is ever
  imported because a file (or a job from Redis, or a request to the server) names it.

An installed or allowed class must subclass :class:`Policy` (checked before it is built); it is built
with no argument. Anything else is a :class:`PolicyError` that says what was expected and what was found.
"""

from __future__ import annotations

import abc
import difflib
import fnmatch
import importlib
import os
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from scenarios.validate import set_policy_check
from sim.registry import SYSTEMS


@dataclass(frozen=True)
class Term:
    """One named part of an alternative's score, in the faction's own units.

    ``value`` is what it adds to the score; ``en``/``fr`` say it in words for a game master
    ("+12 BP income over a year" / "+12 PC de revenu sur un an")."""

    name: str
    value: float
    unit: str = ""
    en: str = ""
    fr: str = ""


@dataclass
class Alternative:
    """An order a policy considered: its label, its score and the terms that make the score."""

    order: str
    score: float
    terms: list[Term] = field(default_factory=list)


class ScoredRows(list[list[Any]]):
    """``Decision.scored`` already as the ledger records it: ``[label, score]`` rows, the label a
    ``str`` and the score a float rounded to 4 places (:func:`agents.policies.explain.explained_totals`
    writes them so; the agent records them as they are instead of converting every row again)."""

    __slots__ = ()


@dataclass
class Decision:
    chosen: Any
    scored: list[tuple[str, float]] | ScoredRows = field(default_factory=list)  # (alternative, score), best first
    reason: str = ""
    # the explanation (optional; a policy that fills it gets it recorded in the ledger):
    alternatives: list[Alternative] = field(default_factory=list)  # chosen first, then the best others
    tie: str = ""  # how a tie for the best score was broken ("3 plans tied at 4.2; drawn by the policy's stream")
    rollouts: dict[str, Any] | None = None  # a look-ahead policy's figures (candidates, wins, mean scores)
    # the compact record of a policy that does not explain itself (``explain`` False): the chosen
    # order's score and the best other order as ``(label, score)``, both rounded to 4 places as
    # ``scored`` would give them (None: the policy keeps no scores, as ``random``)
    score: float | None = None
    runner_up: tuple[str, float] | None = None


def compact(d: Decision) -> Decision:
    """``d`` as a policy that does not explain itself gives it: the choice, its score and the
    runner-up, taken from the explanation (``alternatives``, the chosen one first) or else the scored
    list (best first, the chosen one first as the built-in heuristics write it), and a look-ahead's
    figures; ``d`` itself when it has no score to give (``random``, ``scripted``)."""
    if d.score is not None:
        return d
    if d.alternatives:
        a = d.alternatives
        score, runner = a[0].score, ((a[1].order, a[1].score) if len(a) > 1 else None)
    elif d.scored:
        r = d.scored
        score, runner = r[0][1], ((str(r[1][0]), r[1][1]) if len(r) > 1 else None)
    else:
        return d
    return Decision(d.chosen, rollouts=d.rollouts, score=round(float(score), 4),
                    runner_up=None if runner is None else (str(runner[0]), round(float(runner[1]), 4)))


class Policy(abc.ABC):
    """The base of every policy: ``decide(obs, legal, rng) -> Decision``.

    ``name`` is what the scenario called it (set when it is built); ``kinds`` the agent kinds it can
    play (empty: any). An outside policy (installed or allowed) must subclass this class."""

    name: str = ""
    kinds: tuple[str, ...] = ()
    # False: only the choice is wanted, with its score and the runner-up (a campaign without
    # ``--explain``; a look-ahead rollout, whose ledger nobody reads): the built-in heuristics then
    # skip their explanation (alternatives, terms in words, reasons) and return a compact decision
    # (``score``, ``runner_up``). The choice is the same either way. The agent sets it from its
    # model (``RealmModel.explain``) when it is built.
    explain: bool = True

    @abc.abstractmethod
    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision: ...


_REGISTRY: dict[tuple[str, str], Callable[[], Policy]] = {}

KINDS = tuple(s.faction_kind for s in SYSTEMS)  # the built-in systems' kinds: each has its agents/policies/<kind>.py
_BUILTIN_NAMES = {"kingdom": ("heuristic", "random", "scripted", "lookahead"), "nation": ("heuristic", "random", "lookahead"),
                  "guild": ("heuristic", "random", "lookahead"), "convoy": ("heuristic", "random", "lookahead")}  # tests check them
ENTRY_POINT_GROUP = "realmsim.policies"
ALLOW_ENV = "REALMSIM_ALLOW_POLICIES"
EXPECTED_HINT = "an installed one, or a module allowed by --allow-policies"
_PATTERN = re.compile(r"^[A-Za-z_*?][A-Za-z0-9_*?]*(\.[A-Za-z0-9_*?]+)*$")
_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_ATTR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class PolicyError(ValueError):
    """A policy name that does not resolve: ``expected`` and ``found`` say it as a scenario problem does."""

    def __init__(self, kind: str, spec: str, expected: str, found: str) -> None:
        self.kind, self.spec, self.expected, self.found = kind, spec, expected, found
        super().__init__(f"{kind} policy {spec!r}: expected {expected}, found {found}")


def register(kind: str, name: str) -> Callable[[type], type]:
    """Class decorator: ``@register("convoy", "heuristic")``."""

    def deco(cls: type) -> type:
        _REGISTRY[(kind, name)] = cls
        return cls

    return deco


class RandomPolicy(Policy):
    """Uniform over the legal orders (every kind of agent)."""

    name = "random"

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        if not legal:
            raise ValueError("random policy: no legal order to choose from")
        return Decision(legal[rng.randrange(len(legal))], [], "uniform over legal orders")


def known_policies(kind: str) -> list[str]:
    """The built-in (registered) policy names of an agent kind."""
    _load_builtin(kind)
    return sorted({"random", *(n for k, n in _REGISTRY if k == kind)})


def _load_builtin(kind: str) -> None:
    if kind not in KINDS:
        return  # only our own modules are ever imported by kind
    for name in (f"agents.policies.{kind}", "agents.policies.lookahead"):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise


# ---- the modules a person allows ----------------------------------------------------------------
def parse_allow(text: str | Iterable[str] | None) -> tuple[str, ...]:
    """``"mypkg.*,other.mod"`` → the module patterns; ValueError naming a pattern that is not one."""
    if text is None:
        return ()
    parts = text.split(",") if isinstance(text, str) else [p for t in text for p in str(t).split(",")]
    out: list[str] = []
    for raw in parts:
        p = raw.strip()
        if not p:
            continue
        if not _PATTERN.match(p):
            raise ValueError(f"--allow-policies {p!r}: expected a module name or pattern such as mypkg.* or "
                             "other.mod (comma-separated)")
        out.append(p)
    return tuple(dict.fromkeys(out))


def allowed_modules(allow: str | Iterable[str] | None = None) -> tuple[str, ...]:
    """The module patterns allowed in this process: ``allow`` if given, else ``$REALMSIM_ALLOW_POLICIES``
    (which ``--allow-policies`` sets for the process and the job processes it starts)."""
    if allow is not None:
        return parse_allow(allow)
    try:
        return parse_allow(os.environ.get(ALLOW_ENV, ""))
    except ValueError:
        return ()  # a malformed setting allows nothing (the command line refuses it with a message)


def module_allowed(module: str, allow: str | Iterable[str] | None = None) -> bool:
    return bool(_MODULE.match(module)) and any(fnmatch.fnmatchcase(module, p) for p in allowed_modules(allow))


# ---- resolving a name ---------------------------------------------------------------------------
def _expected(kind: str) -> str:
    names = known_policies(kind)
    return f"a built-in {kind} policy ({', '.join(names)}), {EXPECTED_HINT}"


def _entry_point(kind: str, spec: str) -> Any:
    """The entry point of the group ``realmsim.policies`` named ``kind.spec`` or ``spec`` (not loaded)."""
    eps = entry_points(group=ENTRY_POINT_GROUP)
    for name in (f"{kind}.{spec}", spec):
        found = [ep for ep in eps if ep.name == name]
        if found:
            return found[0]
    return None


def _check_class(kind: str, spec: str, obj: Any, where: str) -> type[Policy]:
    if not isinstance(obj, type) or not issubclass(obj, Policy):
        what = f"a {type(obj).__name__}" if not isinstance(obj, type) else f"class {obj.__qualname__}"
        raise PolicyError(kind, spec, "a class that subclasses agents.policies.Policy",
                          f'"{spec}" ({where}: {what}, not a policy class)')
    if obj.kinds and kind not in obj.kinds:
        raise PolicyError(kind, spec, f"a policy that plays {kind}s",
                          f'"{spec}" (plays {", ".join(obj.kinds)} only)')
    if getattr(obj, "__abstractmethods__", None):
        raise PolicyError(kind, spec, "a policy class with decide()", f'"{spec}" ({where}: an abstract class)')
    return obj


def resolve_policy(kind: str, spec: str, allow: str | Iterable[str] | None = None) -> Callable[[], Policy]:
    """The policy class (or factory) a scenario's ``spec`` names for an agent of ``kind``.

    Built-ins first, then an installed entry point, then ``package.module:Class`` when its module is
    allowed (``allow``, default: this process's ``--allow-policies``). Raises :class:`PolicyError`;
    nothing is imported that is not a built-in, installed, or allowed."""
    if not isinstance(spec, str) or not spec:
        raise PolicyError(kind, str(spec), _expected(kind), "an empty name")
    _load_builtin(kind)
    if (kind, spec) in _REGISTRY:
        return _REGISTRY[(kind, spec)]
    if spec == "random":
        return RandomPolicy
    mod, colon, attr = spec.partition(":")
    if not colon:
        ep = _entry_point(kind, spec) if _ATTR.match(spec.replace("-", "_")) else None
        if ep is None:
            found = f'"{spec}"'
            close = difflib.get_close_matches(spec, known_policies(kind), n=1)
            if close:
                found += f' (did you mean "{close[0]}"?)'
            raise PolicyError(kind, spec, _expected(kind), found)
        try:
            obj = ep.load()
        except Exception as e:  # noqa: BLE001 - an installed package that is broken: said, not raised
            raise PolicyError(kind, spec, "an installed policy that loads",
                              f'"{spec}" (entry point {ep.value}: {type(e).__name__}: {e})') from None
        return _check_class(kind, spec, obj, f"entry point {ep.value}")
    if not _MODULE.match(mod) or not _ATTR.match(attr):
        raise PolicyError(kind, spec, _expected(kind) + " as package.module:Class", f'"{spec}"')
    if not module_allowed(mod, allow):
        raise PolicyError(kind, spec, _expected(kind),
                          f'"{spec}" (module {mod} is not allowed by --allow-policies)')
    try:
        obj = getattr(importlib.import_module(mod), attr)
    except (ImportError, AttributeError) as e:
        raise PolicyError(kind, spec, "an importable package.module:Class", f'"{spec}" ({type(e).__name__}: {e})') from None
    return _check_class(kind, spec, obj, f"module {mod}")


def make_policy(kind: str, spec: str, allow: str | Iterable[str] | None = None) -> Policy:
    """Build the policy named ``spec`` for an agent of ``kind`` (see :func:`resolve_policy`); a
    :class:`PolicyError` (a ValueError) with the choices if it does not resolve."""
    p = resolve_policy(kind, spec, allow)()
    p.name = spec
    return p


def policy_problem(kind: str, spec: str) -> tuple[str, str] | None:
    """(expected, found) when ``spec`` does not resolve for ``kind`` in this process, else None (the
    scenario validator's check, installed below)."""
    if spec in _BUILTIN_NAMES.get(kind, ()):
        return None  # the built-ins every kind has: known without importing the agents (mesa), so that
        # validate and the server check a scenario fast; any other name goes through resolve_policy
    try:
        resolve_policy(kind, spec)
    except PolicyError as e:
        return e.expected, e.found
    return None


def _install_check() -> None:
    set_policy_check(policy_problem, lambda: ",".join(allowed_modules()))


_install_check()
