"""The standings that close ``realmsim run``'s text summary: one table per faction kind.

Each faction's score (``sim.scoring``: a pure function of the world, docs/scoring.md) with the terms
that weigh most in it and the policy that played it, best first, in English or French, factions by
the names their tables give. ``run --json`` has the same figures under ``factions``.
"""

from __future__ import annotations

from typing import Any

from agents.chronicle_tables.names import names_of
from agents.chronicle_tables.reasons import fr_numbers

KIND_ORDER = ("kingdom", "nation", "guild", "convoy")
HEADS = {"en": {"kingdom": "Kingdoms", "nation": "Nations", "guild": "Guilds", "convoy": "Convoys"},
         "fr": {"kingdom": "Royaumes", "nation": "Nations", "guild": "Guildes", "convoy": "Convois"}}
UNITS_FR = {"BP": "PC", "PO": "PO", "solars": "solars", "points": "points"}
POLICY_FR = {"heuristic": "heuristique", "random": "aléatoire", "scripted": "scriptée", "lookahead": "anticipation"}
MAIN_TERMS = 3  # the terms shown beside a score: those that weigh most
MAX_ROWS = 12  # a kind with more factions (the trade caravans of a realm) shows its best, then a count


def _num(v: float) -> str:
    text = f"{v:+.1f}".replace("-", "−")
    return text[:-2] if text.endswith(".0") else text


def standings_lines(world: Any, lang: str = "en") -> list[str]:
    """The standings of ``world`` now: a heading, then per faction kind its factions best first, each
    with its score, its main terms and its policy."""
    from sim.scoring import score_all

    fr = lang == "fr"
    scores = score_all(world)
    if not scores:
        return []
    names = names_of(world, lang)
    out = ["", "Classement (score : ce que vaut la faction sur un an, docs/scoring.md)" if fr else
           "Standings (score: what a faction is worth over a year, docs/scoring.md)"]
    for kind in KIND_ORDER:
        rows = sorted((s for s in scores.values() if s.kind == kind), key=lambda s: (-s.total, s.key))
        if not rows:
            continue
        unit = UNITS_FR.get(rows[0].unit, rows[0].unit) if fr else rows[0].unit
        out.append(f"  {HEADS[lang][kind]} ({unit})")
        width = min(28, max(len(names.key(s.key)) for s in rows[:MAX_ROWS]))
        for rank, s in enumerate(rows[:MAX_ROWS], 1):
            main = sorted((t for t in s.terms if t.value), key=lambda t: -abs(t.value))[:MAIN_TERMS]
            terms = ", ".join(f"{s.label(t.key, lang)} {_num(t.value)}" for t in main)
            policy = POLICY_FR.get(s.policy, s.policy) if fr else s.policy
            out.append(f"    {rank:>2}. {names.key(s.key)[:width]:<{width}}  {s.total:>9.1f}  {policy:<12} {terms}")
        if len(rows) > MAX_ROWS:
            n = len(rows) - MAX_ROWS
            out.append(f"        … et {n} autre(s)" if fr else f"        … and {n} more")
    return [fr_numbers(x) for x in out] if fr else out


__all__ = ["standings_lines"]
