"""Where each value of a TOML text stands: its line, by the path messages use (``convoys[1].wagons[0].kind``).

``tomllib`` keeps no positions, so this small scanner reads the (already valid) text again: table
headers ``[a.b]`` and arrays of tables ``[[a.b]]`` (numbered as tomllib numbers them, nested ones
under their parent's latest entry), ``key = value`` lines with dotted or quoted keys, and inside
values the items of arrays and the keys of inline tables, over as many lines as they span.
:func:`line_of` answers the line of a path, or of its nearest ancestor that has one.
"""

from __future__ import annotations

import re

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_STOP = re.compile(r"[\"'#\[\]{}]")


class _Scanner:
    def __init__(self, text: str, want: set[str] | None = None) -> None:
        self.want = want  # the paths worth a line and their ancestors; None: every path
        self.s = text
        self.i = 0
        self.line = 1
        self.lines: dict[str, int] = {}
        self.aot: dict[str, int] = {}  # resolved path of an array of tables → index of its latest entry

    # -- low level ---------------------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def adv(self, n: int = 1) -> None:
        for _ in range(n):
            if self.i < len(self.s):
                if self.s[self.i] == "\n":
                    self.line += 1
                self.i += 1

    def skip_ws(self, newlines: bool) -> None:
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.adv()
            elif c == "#":
                while self.i < len(self.s) and self.s[self.i] != "\n":
                    self.i += 1
            else:
                return

    def note(self, path: str) -> None:
        if path and path not in self.lines:
            self.lines[path] = self.line

    # -- keys --------------------------------------------------------------------------------
    def key(self) -> list[str]:
        parts: list[str] = []
        while True:
            self.skip_ws(False)
            c = self.peek()
            if c in "\"'":
                parts.append(self.string())
            else:
                m = _BARE.match(self.s, self.i)
                if not m:
                    return parts
                parts.append(m.group(0))
                self.i = m.end()
            self.skip_ws(False)
            if self.peek() == ".":
                self.adv()
                continue
            return parts

    def string(self) -> str:
        q = self.peek()
        if self.s.startswith(q * 3, self.i):
            self.adv(3)
            end = self.s.find(q * 3, self.i)
            end = len(self.s) if end < 0 else end
            while self.s.startswith(q, end + 3):  # up to two quotes may close the string
                end += 1
            out = self.s[self.i:end]
            self.adv(end + 3 - self.i)
            return out
        self.adv()
        start = self.i
        while self.i < len(self.s) and self.s[self.i] != q and self.s[self.i] != "\n":
            if q == '"' and self.s[self.i] == "\\":
                self.i += 1
            self.i += 1
        out = self.s[start:self.i]
        self.adv()
        return out

    # -- values ------------------------------------------------------------------------------
    def skip(self) -> None:
        """Past one value without noting anything inside it (a value no problem points into)."""
        c = self.peek()
        if c in "\"'":
            self.string()
            return
        if c not in "[{":
            while self.i < len(self.s) and self.s[self.i] not in ",]}\n#":
                self.i += 1
            return
        depth = 0
        while self.i < len(self.s):
            m = _STOP.search(self.s, self.i)
            if m is None:
                self.adv(len(self.s) - self.i)
                return
            self.line += self.s.count("\n", self.i, m.start())
            self.i = m.start()
            ch = self.s[self.i]
            if ch in "\"'":
                self.string()
            elif ch == "#":
                end = self.s.find("\n", self.i)
                self.i = len(self.s) if end < 0 else end
            else:
                depth += 1 if ch in "[{" else -1
                self.i += 1
                if depth == 0:
                    return

    def key_value(self, prefix: str) -> bool:
        """``key = value`` under ``prefix``; False (nothing read) when no key stands here."""
        k = self.key()
        if not k:
            return False
        self.skip_ws(False)
        if self.peek() == "=":
            self.adv()
        self.skip_ws(False)
        self.value(self.join(prefix, k))
        return True

    def value(self, path: str) -> None:
        if self.want is not None and path not in self.want:
            self.skip()
            return
        self.note(path)
        c = self.peek()
        if c in "\"'":
            self.string()
        elif c == "[":
            self.adv()
            n = 0
            while True:
                self.skip_ws(True)
                if self.peek() in ("]", ""):
                    self.adv()
                    return
                self.value(f"{path}[{n}]")
                n += 1
                self.skip_ws(True)
                if self.peek() == ",":
                    self.adv()
        elif c == "{":
            self.adv()
            while True:
                self.skip_ws(True)
                if self.peek() in ("}", ""):
                    self.adv()
                    return
                if not self.key_value(path):
                    self.adv()
                    continue
                self.skip_ws(True)
                if self.peek() == ",":
                    self.adv()
        else:
            while self.i < len(self.s) and self.s[self.i] not in ",]}\n#":
                self.i += 1

    @staticmethod
    def join(base: str, parts: list[str]) -> str:
        for p in parts:
            base = f"{base}.{p}" if base else p
        return base

    def resolve(self, parts: list[str]) -> str:
        """A header's dotted key with the latest index of every array of tables on its way."""
        out = ""
        for p in parts:
            out = f"{out}.{p}" if out else p
            if out in self.aot:
                out = f"{out}[{self.aot[out]}]"
        return out

    # -- document ----------------------------------------------------------------------------
    def run(self) -> dict[str, int]:
        table = ""
        while self.i < len(self.s):
            self.skip_ws(True)
            if self.i >= len(self.s):
                break
            if self.s.startswith("[[", self.i):
                self.adv(2)
                parts = self.key()
                parent = self.resolve(parts[:-1])
                full = f"{parent}.{parts[-1]}" if parent else parts[-1]
                self.aot[full] = self.aot.get(full, -1) + 1
                table = f"{full}[{self.aot[full]}]"
                self.note(full)
                self.note(table)
            elif self.peek() == "[":
                self.adv()
                table = self.resolve(self.key())
                self.note(table)
            else:
                if not self.key_value(table):
                    self.adv()
                    continue
            while self.i < len(self.s) and self.s[self.i] != "\n":  # the rest of the line (a closing bracket, a comment)
                self.i += 1
        return self.lines


def key_lines(text: str, paths: list[str] | None = None) -> dict[str, int]:
    """Path → line (1-based) of every table, key and array item of a valid TOML text (with ``paths``:
    of those paths and their ancestors only, which is faster on large arrays)."""
    want: set[str] | None = None
    if paths is not None:
        want = set[str]()
        for p in paths:
            cuts = [i for i, ch in enumerate(p) if ch in ".["] + [len(p)]
            want.update(p[:i] for i in cuts if i > 0)
    sc = _Scanner(text, want)
    try:
        return sc.run()
    except (IndexError, ValueError, RecursionError):
        return sc.lines  # what was found before the scanner lost its way


_LAST = re.compile(r"(\.[^.\[]*|\[\d+\])$")


def line_of(path: str, lines: dict[str, int]) -> int | None:
    """The line of ``path``, or of its nearest ancestor with one (a missing key: its table's line)."""
    p = path
    while p:
        n = lines.get(p)
        if n is not None:
            return n
        m = _LAST.search(p)
        if not m or m.start() == 0:
            break
        p = p[: m.start()]
    return lines.get(p) if p else None
