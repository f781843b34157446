"""Policies resolve through a registry, never by importing a name from a file (issue 9, finding 2):
built-ins, installed entry points (group ``realmsim.policies``), and modules a person allows with
``--allow-policies`` / ``$REALMSIM_ALLOW_POLICIES``. Anything else is a problem naming the field."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from agents.policies import ALLOW_ENV, Policy, PolicyError, make_policy, resolve_policy
from agents.policies.convoy import HeuristicConvoyPolicy
from scenarios.loader import load_scenario_text
from sim.errors import ScenarioError

from .cv.test_scenario import BASE as CARAVAN

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = ("expected a built-in convoy policy (heuristic, lookahead, random), an installed one, or a module allowed by "
            "--allow-policies")


def caravan(policy: str) -> str:
    assert CARAVAN.count('policy = "heuristic"') == 1
    return CARAVAN.replace('policy = "heuristic"', f'policy = "{policy}"')


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(text, "t.toml")
    return [re.sub(r" \(line \d+\)$", "", p.render("t.toml")) for p in ei.value.problems]  # the line is tested apart


class Careful(Policy):
    """An outside policy (``tests.test_policy_registry:Careful``)."""

    def decide(self, obs, legal, rng):  # type: ignore[no-untyped-def]
        from agents.policies import Decision

        return Decision(legal[0], [], "the first")


class NotAPolicy:
    def decide(self, obs, legal, rng):  # type: ignore[no-untyped-def]
        raise AssertionError("never built")


class KingdomsOnly(Careful):
    kinds = ("kingdom",)


def test_built_ins_resolve_and_near_misses_get_a_did_you_mean() -> None:
    assert resolve_policy("convoy", "heuristic") is HeuristicConvoyPolicy
    assert make_policy("convoy", "random").name == "random"
    assert isinstance(make_policy("kingdom", "scripted"), Policy)
    assert problems(caravan("heuristc")) == [f't.toml: convoys[0].policy: {EXPECTED}, found "heuristc" (did you mean '
                                             f'"heuristic"?)']


@pytest.mark.parametrize("spec", ["os:fork", "sys:exit", "os:abort", "subprocess:Popen", "builtins:exec"])
def test_a_module_not_allowed_is_never_imported_and_is_a_problem_of_the_field(spec: str,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    mod = spec.partition(":")[0]
    assert problems(caravan(spec)) == [f't.toml: convoys[0].policy: {EXPECTED}, found "{spec}" (module {mod} is not '
                                       f'allowed by --allow-policies)']
    with pytest.raises(PolicyError):
        make_policy("convoy", spec)


def test_a_module_not_allowed_is_not_imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sideeffect_pkg_h9a.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_name('imported').write_text('yes')\nclass P: pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert problems(caravan("sideeffect_pkg_h9a:P"))
    assert not (tmp_path / "imported").exists()
    # allowed, it is imported, and its class that is not a policy is refused before it is built
    monkeypatch.setenv(ALLOW_ENV, "sideeffect_pkg_h9a")
    assert problems(caravan("sideeffect_pkg_h9a:P")) == [
        't.toml: convoys[0].policy: expected a class that subclasses agents.policies.Policy, found '
        '"sideeffect_pkg_h9a:P" (module sideeffect_pkg_h9a: class P, not a policy class)']
    assert (tmp_path / "imported").exists()


def test_allowed_modules_resolve_and_only_policy_classes_are_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOW_ENV, "tests.*")
    loaded = load_scenario_text(caravan("tests.test_policy_registry:Careful"), "t.toml")
    assert loaded.scenario.convoys[0].policy == "tests.test_policy_registry:Careful"
    assert isinstance(make_policy("convoy", "tests.test_policy_registry:Careful"), Careful)
    assert problems(caravan("tests.test_policy_registry:NotAPolicy")) == [
        't.toml: convoys[0].policy: expected a class that subclasses agents.policies.Policy, found '
        '"tests.test_policy_registry:NotAPolicy" (module tests.test_policy_registry: class NotAPolicy, not a policy '
        'class)']
    assert problems(caravan("tests.test_policy_registry:KingdomsOnly")) == [
        't.toml: convoys[0].policy: expected a policy that plays convoys, found '
        '"tests.test_policy_registry:KingdomsOnly" (plays kingdom only)']
    # os allowed: os.fork is a function, not a policy class, and is never called
    monkeypatch.setenv(ALLOW_ENV, "os")
    assert problems(caravan("os:fork")) == [
        't.toml: convoys[0].policy: expected a class that subclasses agents.policies.Policy, found "os:fork" '
        '(module os: a builtin_function_or_method, not a policy class)']
    # an explicit allow list wins over the environment
    assert isinstance(make_policy("convoy", "tests.test_policy_registry:Careful", allow="tests.test_policy_registry"),
                      Careful)
    with pytest.raises(PolicyError, match="not allowed"):
        make_policy("convoy", "tests.test_policy_registry:Careful", allow="other.*")


def test_an_installed_entry_point_resolves_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist = tmp_path / "careful_policies-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: careful-policies\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[realmsim.policies]\ncareful = tests.test_policy_registry:Careful\n"
        "convoy.shy = tests.test_policy_registry:Careful\nbroken = tests.test_policy_registry:NotAPolicy\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    assert resolve_policy("convoy", "careful") is Careful
    assert resolve_policy("convoy", "shy") is Careful
    load_scenario_text(caravan("careful"), "t.toml")
    with pytest.raises(PolicyError, match="shy"):
        resolve_policy("guild", "shy")  # registered for convoys only
    assert problems(caravan("broken")) == [
        't.toml: convoys[0].policy: expected a class that subclasses agents.policies.Policy, found "broken" (entry '
        'point tests.test_policy_registry:NotAPolicy: class NotAPolicy, not a policy class)']


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    e = {k: v for k, v in os.environ.items() if k != ALLOW_ENV}
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "workers.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env=e, timeout=300)


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_validate_checks_policies_as_run_does(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text(caravan("no_such_pkg.mod:Careful"), encoding="utf-8")
    r = _cli("validate", str(f))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert 'convoys[0].policy: expected a built-in convoy policy' in r.stderr and "not allowed" in r.stderr
    r = _cli("validate", str(f), "--allow-policies", "no_such_pkg.*")
    assert r.returncode == 2 and "expected an importable package.module:Class" in r.stderr, r.stderr
    f.write_text(caravan("tests.test_policy_registry:Careful"), encoding="utf-8")
    assert _cli("validate", str(f), "--allow-policies", "tests.*").returncode == 0
    assert _cli("validate", str(f), env={ALLOW_ENV: "tests.test_policy_registry"}).returncode == 0
    r = _cli("validate", str(f), "--allow-policies", "tests/evil")
    assert r.returncode == 2 and "--allow-policies 'tests/evil': expected a module name or pattern" in r.stderr
    r = _cli("run", str(f), "--json")
    assert r.returncode == 2 and "not allowed by --allow-policies" in r.stderr and "Traceback" not in r.stderr
    r = _cli("run", str(f), "--json", "--allow-policies", "tests.*")
    assert r.returncode == 0, r.stderr


def test_the_fast_path_names_exactly_the_registered_built_ins() -> None:
    from agents.policies import _BUILTIN_NAMES, KINDS, known_policies

    for kind in KINDS:
        assert set(_BUILTIN_NAMES[kind]) <= set(known_policies(kind)), kind
        for name in _BUILTIN_NAMES[kind]:
            assert isinstance(make_policy(kind, name), Policy)


def test_the_server_takes_an_outside_policy_only_of_a_module_its_command_line_allowed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from workers.server.inputs import network_problems

    raw = {"convoys": [{"id": "amber", "policy": "tests.test_policy_registry:Careful"}]}
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    (p,) = network_problems(raw)
    assert p.path == "convoys[0].policy" and "only of a module the server allows (--allow-policies)" in p.expected
    assert network_problems({"convoys": [{"policy": "os:fork"}]})
    monkeypatch.setenv(ALLOW_ENV, "tests.*")  # what realmsim serve --allow-policies 'tests.*' sets
    assert network_problems(raw) == []
    assert network_problems({"convoys": [{"policy": "os:fork"}]})  # still not os
    assert network_problems({"convoys": [{"policy": "a/b"}]})
