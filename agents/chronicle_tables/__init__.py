"""The chronicle's templates, one module per system: ``LINES`` (``{kind: render function}``) or
``render`` and ``KINDS``, and for the simplest lines, tables ``{kind: {"en": template, "fr": template}}``
(:mod:`agents.chronicle`). Out of the drivers, so that a driver is its agents, processes and metrics."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

Patterns = Sequence[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]


def translate(label: str, words: Mapping[str, str], patterns: Patterns) -> str:
    """An order label in French: a whole-label word, else the first pattern that matches; what
    neither knows stays as it is (each system's ``order_fr``)."""
    if label in words:
        return words[label]
    for pat, fr in patterns:
        m = pat.match(label)
        if m:
            return fr(m)
    return label
