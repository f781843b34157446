#!/usr/bin/env python3
"""Write or check the golden transcripts of the built-in scenarios (tests/golden/<name>.<lang>.txt)
and their ledgers as lines (tests/golden/<name>.ledger.txt: one event a line).

    .venv/bin/python tools/golden.py                 # check every scenario, print a diff of any change
    .venv/bin/python tools/golden.py --update        # rewrite every transcript (review the diff!)
    .venv/bin/python tools/golden.py --update realm  # rewrite one

A transcript is the scenario's chronicle for its default seed followed by the summary; CI replays it
(tests/test_golden.py). A change to a transcript is a change to the game's behaviour: review it.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLDEN = ROOT / "tests" / "golden"
LANGS = {"en"}  # French is checked for the scenarios listed in FRENCH
FRENCH = {"realm", "caravan-crossing"}


def header(name: str, seed: int, lang: str) -> str:
    return (
        f"# realmsim golden transcript: scenario {name}, seed {seed}, lang {lang}\n"
        f"# regenerate with: .venv/bin/python tools/golden.py --update {name}\n"
    )


def render(name: str, lang: str, ledger_lines: list[str] | None = None) -> str:
    """The transcript; with ``ledger_lines``, the campaign's events are appended there as lines
    (:func:`agents.chronicle.ledger_line`), from the same run."""
    from agents.chronicle import ledger_line, transcript
    from scenarios.loader import load_scenario
    from workers.report.names import metric_name

    loaded = load_scenario(name)
    seed = loaded.scenario.scenario.seed
    listeners = [] if ledger_lines is None else [lambda ev: ledger_lines.append(ledger_line(ev))]
    return header(name, seed, lang) + transcript(loaded, seed, lang, metric_name, listeners)


def ledger_header(name: str, seed: int) -> str:
    return (
        f"# realmsim golden ledger: scenario {name}, seed {seed}; one event a line:\n"
        f"# hour, kind, actor, dice, total vs DC, outcome, clauses (tab-separated)\n"
        f"# regenerate with: .venv/bin/python tools/golden.py --update {name}\n"
    )


def render_with_ledger(name: str, lang: str) -> tuple[str, str]:
    """(transcript, ledger-lines file) of one run."""
    from scenarios.loader import load_scenario

    lines: list[str] = []
    text = render(name, lang, lines)
    seed = load_scenario(name).scenario.scenario.seed
    return text, ledger_header(name, seed) + "\n".join(lines) + "\n"


def ledger_path_of(name: str) -> Path:
    return GOLDEN / f"{name}.ledger.txt"


def targets(names: list[str]) -> list[tuple[str, str]]:
    from scenarios.loader import builtin_names

    names = names or builtin_names()
    return [(n, lang) for n in names for lang in sorted(LANGS | ({"fr"} if n in FRENCH else set()))]


def path_of(name: str, lang: str) -> Path:
    return GOLDEN / f"{name}.{lang}.txt"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    bad = 0
    for name, lang in targets(args.names):
        text, ledger = render_with_ledger(name, lang)
        files = [(path_of(name, lang), text)] + ([(ledger_path_of(name), ledger)] if lang == "en" else [])
        for p, new in files:
            if args.update:
                p.write_text(new, encoding="utf-8")
                print(f"wrote {p.relative_to(ROOT)} ({new.count(chr(10))} lines)")
                continue
            old = p.read_text(encoding="utf-8") if p.exists() else ""
            if old != new:
                bad += 1
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), str(p), "now", n=2))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
