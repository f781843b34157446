#!/usr/bin/env python3
"""Write the documented examples from the real commands, so that they cannot drift.

    .venv/bin/python tools/doc_examples.py           # rewrite every example that changed
    .venv/bin/python tools/doc_examples.py --check   # exit 1 (and say where) if one is stale

Two kinds of example:

* a marked block of a Markdown file (``README.md``, ``docs/*.md``)::

      <!-- example: realmsim advise docs/examples/nation-rome.state.toml --faction rome | head 12 -->
      ```console
      $ realmsim advise docs/examples/nation-rome.state.toml --faction rome
      …what the command printed…
      ```
      <!-- /example -->

  The block between the two comments is the command run from the repository's root and what it
  printed to standard output. After the command, ``| head N`` keeps the first N lines and ``| tail
  N`` the last N (a line ``…`` says some were left out), and ``| pick PATH …`` keeps those values of a JSON answer
  (``orders.0.reason``), shown as the ``jq`` command that picks them.
* ``docs/examples/<name>.advice.txt`` and ``<name>.advice.fr.txt``: the whole advice of each
  example state's faction (the faction its opening comment names: ``Advice: realmsim advise …``),
  in English and in French.

``tests/test_doc_examples.py`` fails when a file differs from what this writes.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MARKED = re.compile(r"(<!-- example: (?P<cmd>.+?) -->\n)(?P<body>.*?)(<!-- /example -->)", re.S)
ADVICE = re.compile(r"Advice: (realmsim advise \S+ --faction \S+)")


def run(command: str) -> str:
    """What ``realmsim ARGS`` prints to standard output, run in this process from the repository root."""
    from workers.cli import main

    args = shlex.split(command)
    if not args or args[0] != "realmsim":
        raise SystemExit(f"doc_examples: {command!r}: expected a realmsim command")
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            code = main(args[1:])
    finally:
        os.chdir(here)
    if code != 0:
        raise SystemExit(f"doc_examples: {command!r} exited with status {code}")
    return out.getvalue()


def _path(doc: Any, path: str) -> Any:
    for part in path.split("."):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def _jq(path: str) -> str:
    return "." + "".join(f"[{p}]" if p.isdigit() else (f".{p}" if i else p) for i, p in enumerate(path.split(".")))


def block(spec: str) -> str:
    """The console block of one marked example: ``$ command`` then what it printed."""
    command, *stages = [s.strip() for s in spec.split(" | ")]
    text = run(command)
    shown = command
    for stage in stages:
        verb, *args = stage.split()
        if verb == "head" and len(args) == 1 and args[0].isdigit():
            lines = text.splitlines()
            n = int(args[0])
            text = "\n".join(lines[:n] + (["…"] if len(lines) > n else [])) + "\n"
        elif verb == "tail" and len(args) == 1 and args[0].isdigit():
            lines = text.splitlines()
            n = int(args[0])
            text = "\n".join((["…"] if len(lines) > n else []) + lines[-n:]) + "\n"
        elif verb == "pick" and args:
            doc = json.loads(text)
            picked = {p: _path(doc, p) for p in args}
            text = json.dumps(picked, indent=2, ensure_ascii=False) + "\n"
            shown += " | jq '{" + ", ".join(f'"{p}": {_jq(p)}' for p in args) + "}'"
        else:
            raise SystemExit(f"doc_examples: {stage!r}: expected `head N`, `tail N` or `pick PATH …`")
    return f"```console\n$ {shown}\n{text}```\n"


def render_markdown(text: str) -> str:
    return MARKED.sub(lambda m: m.group(1) + block(m.group("cmd")) + m.group(4), text)


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def advice_files() -> dict[Path, str]:
    """``docs/examples/<name>.advice[.fr].txt`` → its text, for each example state."""
    out: dict[Path, str] = {}
    for state in sorted((ROOT / "docs" / "examples").glob("*.state.toml")):
        m = ADVICE.search(state.read_text(encoding="utf-8"))
        if m is None:
            raise SystemExit(f"doc_examples: {state}: expected an opening comment naming its advice (Advice: realmsim advise …)")
        stem = state.name.removesuffix(".state.toml")
        for suffix, extra in ((".advice.txt", ""), (".advice.fr.txt", " --lang fr")):
            command = m.group(1) + extra
            out[state.with_name(stem + suffix)] = f"$ {command}\n" + run(command)
    return out


def expected() -> dict[Path, str]:
    """Every generated file as it should read now."""
    out = {p: render_markdown(p.read_text(encoding="utf-8")) for p in markdown_files()}
    out.update(advice_files())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if an example is stale")
    args = ap.parse_args()
    now = expected()
    stale = [p for p, text in now.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for p in stale:
            print(f"stale: {p.relative_to(ROOT)}")
        return 1 if stale else 0
    for p, text in now.items():
        if p in stale:
            p.write_text(text, encoding="utf-8")
            print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
