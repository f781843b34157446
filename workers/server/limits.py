"""How much a request may hold, checked in one cheap pass before any parser sees it.

A parser given a deep or long document does its work before anything can look at the result:
a JSON body nested 2,000 deep was a RecursionError (a 500), a TOML text of 250,000 values took
seconds of pure-Python parsing before the scenario's own limits refused it. So a JSON body and a
scenario's TOML text are first *measured*: their strings (and TOML comments) are cut out by one
regular expression that always matches where it starts (JSON's, simpler, by splitting at the
quotes), so the pass is linear in the input; what is left holds only structure, whose nesting depth (a cumulative sum over the brackets) and item
count (separators and brackets) are counted in C. Anything over a limit is refused with the limit
named, before the parser runs: about 10 ms for 2 MB (``bench/bench_limits.py``).

The counts are upper bounds that a document of the right shape stays far below: the deepest body
the API takes is 3 levels, the longest a batch of 100,000 seeds; the built-in scenarios nest 3
deep and hold under 5,000 values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BODY_DEPTH = 32  # the API's bodies nest at most 3 deep
MAX_BODY_ITEMS = 110_000  # values in one JSON body: a batch may list 100,000 seeds
MAX_TEXT_CHARS = 1024 * 1024  # a scenario or state sent as TOML text (``text``, ``state``)
MAX_TEXT_DEPTH = 32  # tables and arrays nested in that text
MAX_TEXT_ITEMS = 100_000  # its values, keys and tables (realm.toml: under 5,000)

# TOML's four kinds of strings and its comments; an unterminated one-line string stops at its line.
_TOML_SKIP = re.compile(rb'''
    """(?:[^"\\]++|\\.|"(?!""))*+(?:"""|\\?\Z)
  | \'\'\'(?:[^']++|'(?!''))*+(?:\'\'\'|\Z)
  | "(?:[^"\\\n]++|\\.)*+(?:"|(?=\n)|\\?\Z)
  | '[^'\n]*+(?:'|(?=\n)|\Z)
  | \#[^\n]*+
''', re.S | re.X)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


@dataclass(frozen=True)
class Shape:
    depth: int  # deepest nesting of arrays and objects (tables)
    items: int  # an upper bound on the number of values (and keys) it holds

    def over(self, depth: int, items: int) -> bool:
        return self.depth > depth or self.items > items

    def describe(self) -> str:
        return f"nested {self.depth:,} deep with up to {self.items:,} items"


def _depth(structure: bytes) -> int:
    brackets = structure.translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    import numpy as np

    steps = np.frombuffer(brackets, dtype=np.uint8)
    level = np.cumsum(np.where((steps == ord("[")) | (steps == ord("{")), 1, -1), dtype=np.int64)
    return max(0, int(level.max()))


def json_shape(body: bytes) -> Shape:
    """Depth and items of a JSON document, without parsing it.

    Outside its strings a JSON document has no backslash, and inside them a backslash always begins a
    two-character escape; so once ``\\\\`` and then ``\\"`` are taken out, every quote left opens or
    closes a string and the structure is what lies between the pairs (an unterminated string only
    makes the count larger, for a document msgspec will refuse anyway)."""
    unescaped = body.replace(b"\\\\", b"").replace(b'\\"', b"") if b"\\" in body else body
    bare = b"0".join(unescaped.split(b'"')[0::2])
    return Shape(_depth(bare), bare.count(b",") + bare.count(b"[") + bare.count(b"{"))


def toml_shape(text: str) -> Shape:
    """Depth and items of a TOML document, without parsing it (keys count as items)."""
    bare = _TOML_SKIP.sub(b"0", text.encode("utf-8", "surrogatepass"))
    return Shape(_depth(bare), bare.count(b",") + bare.count(b"=") + bare.count(b"[") + bare.count(b"{"))
