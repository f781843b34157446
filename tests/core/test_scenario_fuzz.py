"""Fuzzing the built-in scenarios (issue 9): a mutant gives a clear error or a run, never a traceback.

Mutations (bench/fuzz_scenarios.py): deleted keys and items, wrong types, 0, −1, 1e9, 2**63−1,
unicode, long strings, duplicated items, values from elsewhere, arrays nested 600 deep. The example
count is bounded (derandomized, so every run of the suite tries the same mutants); the bench script
runs thousands in child processes with a timeout.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import fuzz_scenarios as fz  # noqa: E402

DOCS = fz.builtin_docs()
WEEK = 7 * 24


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(DOCS)), seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3))
def test_a_mutant_gives_a_clear_error_or_a_run(name: str, seed: int, n: int) -> None:
    doc, done = fz.mutate(DOCS[name], random.Random(seed), n)
    res = fz.check_one(fz.to_toml(doc), WEEK)
    assert res["outcome"] in ("clear", "run", "run_error"), (name, done, res.get("detail"), res.get("where"))


def test_the_unmutated_files_run() -> None:
    for name, doc in DOCS.items():
        assert fz.check_one(fz.to_toml(doc), 24)["outcome"] == "run", name


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_extreme_values_everywhere_give_clear_errors() -> None:
    """Extreme numbers in place of each integer of each top-level table's first item: a clear error
    or a valid file each time (validate only)."""
    for name, doc in DOCS.items():
        for key, value in doc.items():
            if not (isinstance(value, list) and value and isinstance(value[0], dict)):
                continue
            for field, old in value[0].items():
                if isinstance(old, bool) or not isinstance(old, int):
                    continue
                for extreme in (2**63 - 1, 1e9):
                    mutant = {**doc, key: [{**value[0], field: extreme}, *value[1:]]}
                    res = fz.check_one(fz.to_toml(mutant), 0)
                    assert res["outcome"] in ("clear", "run"), (name, key, field, extreme, res.get("detail"))
