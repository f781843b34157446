"""The measure of a body or a text before it is parsed (workers/server/limits.py): its depth is exact
whatever the strings hold, its item count never below the values there are."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.server.limits import json_shape, toml_shape

STRINGS = st.text(alphabet=st.sampled_from('ab[]{},:"\\\n\t/ é'), max_size=8)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | STRINGS,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(STRINGS, inner, max_size=4),
                    max_leaves=30)


def depth(v: Any) -> int:
    if isinstance(v, list):
        return 1 + max((depth(x) for x in v), default=0)
    if isinstance(v, dict):
        return 1 + max((depth(x) for x in v.values()), default=0)
    return 0


def values(v: Any) -> int:
    if isinstance(v, list):
        return len(v) + sum(values(x) for x in v)
    if isinstance(v, dict):
        return len(v) + sum(values(x) for x in v.values())
    return 0


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(doc=JSON, ascii_only=st.booleans())
def test_the_json_measure_is_the_documents_depth_whatever_its_strings_hold(doc: Any, ascii_only: bool) -> None:
    body = json.dumps(doc, ensure_ascii=ascii_only).encode()
    shape = json_shape(body)
    assert shape.depth == depth(doc)
    assert shape.items >= values(doc)


def test_escaped_quotes_and_backslashes_end_strings_where_json_does() -> None:
    assert json_shape(rb'["a\"[[", [[]]]').depth == 3
    assert json_shape(rb'["a\\", [1]]').depth == 2
    assert json_shape(rb'["\\\"[[[", 1]').depth == 1
    assert json_shape(b'[' * 2000 + b']' * 2000).depth == 2000


def test_the_toml_measure_skips_strings_and_comments() -> None:
    text = '''
[scenario]                  # a table: depth 1
name = "a [[[ name"
note = 'literal [[['
long = """
  [[[ {{{
"""
raw = \'\'\'
  ]]] [[[
\'\'\'
rows = [[1, 2], [3]]        # [[[[ in a comment
[[kingdoms]]
id = "x"
'''
    shape = toml_shape(text)
    assert shape.depth == 2
    assert shape.items >= 9


def test_an_unterminated_string_costs_no_more_than_one_pass() -> None:
    assert toml_shape('x = "' + "[" * 100_000).depth == 0
    assert json_shape(b'["' + b"\\" * 100_001).depth == 1
