"""Config overrides (GEN-05): dotted keys (``{"cv.fatigued_penalty": 3}``) applied to a scenario's config
and validated like its ``[config.<system>]`` tables."""

from __future__ import annotations

from typing import Any

import msgspec

from scenarios.validate import check_against, describe
from sim.config import Config
from sim.errors import Problem, ScenarioError

__all__ = ["apply_overrides"]


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
            problems.append(Problem(key, f"a config key <system>.<name> ({', '.join(Config.__struct_fields__)})", describe(key)))
            continue
        data[system][field] = value
    problems += check_against(data, Config, "config")
    if problems:
        raise ScenarioError(label, problems)
    return msgspec.convert(data, Config)
