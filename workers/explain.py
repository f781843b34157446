"""``realmsim run --explain [FACTION]``: each decision of a campaign told for a game master.

Under every ``DecisionMade`` event (of one faction, or of all) it prints the order chosen, the best
alternatives with their scores broken into named terms, how a tie for the best score was broken, and
a look-ahead policy's rollout figures — in English or French, with hexes named as a game master
would ("Westwatch [4,6]", "the hills at [7,2]", not ``#451``).

It reads only the event's fields (agents/base.py): ``alternatives`` (``[{order, score, terms:[{name,
value, unit, en, fr}]}]``), ``tie`` and ``rollouts`` when the policy explains itself, otherwise
``scored`` (``[[order, score], …]``, best first) and ``reason``, or a compact record's ``score`` and
``runner_up`` (a campaign without ``--explain`` records no more: issue 26). It is a ledger listener, so its lines
come right after the chronicle line of the same moment.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TextIO

from agents.chronicle_tables.names import Names, names_of
from agents.chronicle_tables.orders import order_words
from agents.chronicle_tables.reasons import fr_numbers, reason_words, term_words
from sim.calendar import date_of, span_words
from sim.events import Event
from sim.hexmap import HexMap

SHOWN = 3  # alternatives shown besides the chosen one

_TERRAIN_FR = {
    "plains": "les plaines", "hills": "les collines", "forest": "la forêt", "mountains": "les montagnes",
    "desert": "le désert", "marsh": "le marais", "jungle": "la jungle", "moor": "la lande", "tundra": "la toundra",
    "water": "les eaux", "cavern": "les cavernes",
}

_WORDS = {
    "en": {
        "chose": "chose", "policy": "policy", "of": "of", "legal": "legal orders", "alternatives": "alternatives",
        "score": "score", "tie": "tie", "rollouts": "look-ahead", "won": "won {w} of {n} rollouts",
        "mean": "mean score change {m} {u}", "against": "against", "heuristic": "heuristic score {s}",
        "cut": "cut short by max_ms after {n} rollout(s) per candidate", "diverged": "{n} rollout(s) did not reach the decision",
        "only": "the only order considered", "reason": "reason", "horizon": "over {h}", "colon": ":",
        "untold": "{n} orders tied at score {s} (the policy did not say how it chose)",
    },
    "fr": {
        "chose": "a choisi", "policy": "politique", "of": "sur", "legal": "ordres légaux", "alternatives": "autres choix",
        "score": "score", "tie": "égalité", "rollouts": "anticipation", "won": "{w} parties gagnées sur {n}",
        "mean": "variation moyenne du score {m} {u}", "against": "contre", "heuristic": "score heuristique {s}",
        "cut": "écourtée par max_ms après {n} partie(s) par candidat", "diverged": "{n} partie(s) n'ont pas atteint la décision",
        "only": "le seul ordre envisagé", "reason": "raison", "horizon": "sur {h}", "colon": " :",
        "untold": "{n} ordres à égalité au score {s} (la politique n'a pas dit comment elle a choisi)",
    },
}

_UNIT_FR = {"BP": "PC", "points": "points", "solars": "solars", "PO": "PO"}
_HEX = re.compile(r"#(\d+)")


def place(m: HexMap | None, i: int, lang: str = "en") -> str:
    """A hex as a game master names it: its settlement and coordinates, or its terrain and coordinates."""
    if m is None or not 0 <= i < len(m.hexes):
        return f"#{i}"
    col, row = m.coords(i)
    h = m.hexes[i]
    if h.settlement:
        return f"{h.settlement} [{col},{row}]"
    if lang == "fr":
        return f"{_TERRAIN_FR.get(h.terrain, h.terrain)} en [{col},{row}]"
    return f"the {h.terrain} at [{col},{row}]"


def name_places(text: str, m: HexMap | None, lang: str = "en") -> str:
    """Every ``#N`` hex of an order's label replaced by :func:`place`."""
    return _HEX.sub(lambda mo: place(m, int(mo.group(1)), lang), text)


def _num(x: Any) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    return f"{v:+.1f}" if abs(v) < 1e5 else f"{v:+.3g}"


def unit_word(u: str, lang: str) -> str:
    """A score unit in ``lang`` (BP are PC in French)."""
    return _UNIT_FR.get(u, u) if lang == "fr" else u


def explain_decision(ev: Event, lang: str = "en", hexmap: HexMap | None = None, names: dict[str, str] | None = None,
                     words: Names | None = None) -> list[str]:
    """The lines that explain one ``DecisionMade`` event (without its date): orders, score terms and
    reasons in ``lang``, with the table's names (``words``: the world's names when the decision was
    made, agents.chronicle_tables.names; without them, hexes are named from ``hexmap``)."""
    w = _WORDS[lang]
    d = ev.data
    if words is None:
        words = Names(lang, hexmap)
    nms = words
    slot = _slot_of(ev)

    def order(s: Any) -> str:
        return order_words(ev.system, str(s), lang, nms, slot)

    c = w["colon"]
    who = (names or {}).get(ev.actor, ev.actor)
    policy = str(d.get("policy", "?"))
    if lang == "fr":
        policy = _POLICY_FR.get(policy, policy)
    head = f"{who} {w['chose']}{c} {order(ev.outcome)}  ({w['policy']} {policy}, {d.get('legal', '?')} {w['legal']})"
    out = [head]
    alts = d.get("alternatives") or []
    scored_rows = d.get("scored") or _compact_rows(ev)
    if alts:
        for k, a in enumerate(alts[: SHOWN + 1]):
            mark = "*" if k == 0 else "-"
            out.append(f"    {mark} {order(a.get('order', '?'))}{c} {w['score']} {_num(a.get('score'))}")
            for t in a.get("terms") or []:
                text = t.get(lang) or t.get("en") or f"{t.get('name', '?')} {_num(t.get('value'))} {unit_word(t.get('unit', ''), lang)}".rstrip()
                out.append(f"        {term_words(text, lang if t.get(lang) else 'en', nms)}")
    else:
        for k, row in enumerate(scored_rows[: SHOWN + 1]):
            label, sc = (row[0], row[1]) if isinstance(row, list | tuple) and len(row) >= 2 else (row, None)
            mark = "*" if k == 0 and str(label) == str(ev.outcome) else "-"
            out.append(f"    {mark} {order(label)}{c} {w['score']} {_num(sc)}")
    if d.get("tie"):
        tie = str(d["tie"])
        out.append(f"    {w['tie']}{c} {tie_fr(tie) if lang == 'fr' else tie}")
    else:
        tied = _tied(alts, scored_rows)
        if tied > 1:
            top = (alts[0].get("score") if alts else (scored_rows or [[None, None]])[0][1])
            out.append(f"    {w['tie']}{c} {w['untold'].format(n=tied, s=_num(top))}")
    ro = d.get("rollouts")
    if isinstance(ro, dict) and ro.get("candidates"):
        told = rollout_lines(ro, lang, order)
        out.append("    " + told[0])
        out += ["        " + x for x in told[1:]]
    if d.get("reason") and not alts:
        reason = str(d["reason"])
        out.append(f"    {w['reason']}{c} {reason_words(reason, lang, nms)}")
    return [fr_numbers(x) for x in out] if lang == "fr" else out


def _compact_rows(ev: Event) -> list[list[Any]]:
    """A compact decision's rows (issue 26: ``score`` and ``runner_up``, a campaign without
    ``--explain``) as the two first rows of a ``scored`` list: the order chosen, then the runner-up."""
    d = ev.data
    if "score" not in d:
        return []
    rows: list[list[Any]] = [[ev.outcome, d.get("score")]]
    ru = d.get("runner_up")
    if isinstance(ru, list | tuple) and len(ru) >= 2:
        rows.append([ru[0], ru[1]])
    return rows


def _slot_of(ev: Event) -> str:
    """What a kingdom's decision is about when its chosen order is a bare hex index: a claim or a hex
    given up, as its alternatives say (a holiday's ``12`` is not a hex)."""
    if ev.system != "km" or not str(ev.outcome).isdigit():
        return ""
    labels = [str(a.get("order", "")) for a in ev.data.get("alternatives") or []] + \
             [str(r[0]) for r in ev.data.get("scored") or _compact_rows(ev) if isinstance(r, list | tuple) and r]
    if any(x.startswith("claim ") for x in labels):
        return "claim"
    if any(x.startswith("give up ") for x in labels):
        return "lose_hex"
    return ""


def rollout_lines(ro: dict[str, Any], lang: str, order: Callable[[Any], str] = str) -> list[str]:
    """A look-ahead's rollout figures (``rollouts``: its candidates, each with its rollouts won and
    mean score change) in sentences: the best candidate against the others, then one line per other
    candidate, and whether the budget cut the rollouts short. ``order`` says an order in words."""
    w = _WORDS[lang]
    c = w["colon"]
    cands = ro.get("candidates") or []
    if not cands:
        return []
    unit = unit_word(str(ro.get("unit", "")), lang)
    best = cands[0]
    others = ", ".join(_num(cd.get("mean")) for cd in cands[1:])
    line = (f"{w['rollouts']} ({w['horizon'].format(h=span_words(int(ro.get('horizon_hours', 0)), lang))}){c} "
            f"{order(best.get('order'))} {w['won'].format(w=best.get('wins', 0), n=best.get('n', ro.get('n', 0)))}, "
            f"{w['mean'].format(m=_num(best.get('mean')), u=unit)}")
    if others:
        line += f" {w['against']} {others}"
    out = [line]
    for cd in cands[1:]:
        out.append(f"{order(cd.get('order'))}{c} {w['mean'].format(m=_num(cd.get('mean')), u=unit)}, "
                   f"{w['won'].format(w=cd.get('wins', 0), n=cd.get('n', 0))}")
    if ro.get("cut"):
        out.append(w["cut"].format(n=ro.get("n", 0)))
    if ro.get("diverged"):
        out.append(w["diverged"].format(n=ro["diverged"]))
    return out


_POLICY_FR = {"heuristic": "heuristique", "random": "aléatoire", "scripted": "scriptée", "lookahead": "anticipation"}
# how the policies say they broke a tie (agents/policies: ``tie_how`` and the look-ahead's words)
_TIE_HOW_FR = {
    "drawn by the policy's stream": "tiré au sort par le flux aléatoire de la politique",
    "the first listed wins (the rules' order of alternatives)": "le premier listé l'emporte (l'ordre des choix dans les règles)",
    "kept the heuristic's preferred one": "gardé le préféré de l'heuristique",
}
_TIED = re.compile(r"^(\d+) alternatives tied at (\S+); (.+)$", re.S)
_TIED_MEAN = re.compile(r"^(\d+) candidates tied at mean (\S+) ?(\S*); (.+)$", re.S)
_CHOSE = re.compile(r"^chose (.+): beat the heuristic's choice in (\d+) of (\d+) paired rollouts \(lost (\d+)\)$", re.S)


def tie_fr(text: str) -> str:
    """A policy's tie line (stored in English in the ledger) in French; words it does not know stay
    as they are."""
    def how(h: str) -> str:
        m = _CHOSE.match(h)
        if m:
            return (f"choisi {m.group(1)} : a battu le choix de l'heuristique dans {m.group(2)} parties appariées "
                    f"sur {m.group(3)} (perdu {m.group(4)})")
        return _TIE_HOW_FR.get(h, h)

    m = _TIED.match(text)
    if m:
        return f"{m.group(1)} choix à égalité au score {m.group(2)} ; {how(m.group(3))}"
    m = _TIED_MEAN.match(text)
    if m:
        unit = unit_word(m.group(3), "fr")
        return f"{m.group(1)} candidats à égalité, variation moyenne {m.group(2)}{' ' + unit if unit else ''} ; {how(m.group(4))}"
    return text


def _tied(alts: list[Any], scored: list[Any]) -> int:
    """How many alternatives share the best score (0 when unknown)."""
    scores = [a.get("score") for a in alts] if alts else [row[1] for row in scored if isinstance(row, list | tuple) and len(row) >= 2]
    if not scores or scores[0] is None:
        return 0
    return sum(1 for s in scores if s == scores[0])


class ExplainWriter:
    """A ledger listener: writes the explanation of every decision of ``faction`` (None: all)."""

    def __init__(self, out: TextIO, lang: str = "en", faction: str | None = None) -> None:
        self.out = out
        self.lang = lang
        self.faction = faction
        self.hexmap: HexMap | None = None
        self.world: Any = None
        self.names: dict[str, str] = {}

    def attach(self, model: Any) -> None:
        """Read the map and the factions' names of the campaign (before it runs); a FACTION that is
        not one of the campaign's is a usage error (exit status 2)."""
        from workers.batch import UsageError

        bad = check_faction(model.world, self.faction)
        if bad:
            raise UsageError(bad)
        self.hexmap = model.world.map
        self.world = model.world
        self.names = faction_names(model.world, self.lang)

    def __call__(self, ev: Event) -> None:
        if ev.kind != "DecisionMade" or (self.faction is not None and ev.actor != self.faction):
            return
        words = names_of(self.world, self.lang) if self.world is not None else None  # the names now (new vassals, MN's #3)
        lines = explain_decision(ev, self.lang, self.hexmap, self.names, words)
        self.out.write(f"{date_of(ev.t).format(self.lang)}  " + "\n".join(lines) + "\n")


def explain_writer(option: str | None, out: TextIO, lang: str) -> ExplainWriter | None:
    """The writer of ``run --explain [FACTION]`` (``option`` is ``"*"`` for every faction), or None."""
    if option is None:
        return None
    return ExplainWriter(out, lang, None if option == "*" else option)


def faction_names(world: Any, lang: str = "en") -> dict[str, str]:
    """Actor key → "Name (key)" for every faction the world names (its French name in French)."""
    out: dict[str, str] = {}
    for attr, kind, table in (("km", "kingdom", "kingdoms"), ("mn", "nation", "nations"), ("gw", "guild", "guilds")):
        st = getattr(world, attr, None)
        rows = getattr(st, table, None) if st is not None else None
        for ident, row in (rows or {}).items():
            fr = str(getattr(row, "name_fr", "") or "") if lang == "fr" else ""
            name = fr or str(getattr(row, "name", "") or "")
            out[f"{kind}:{ident}"] = f"{name} ({kind}:{ident})" if name and name != ident else f"{kind}:{ident}"
    cv = getattr(world, "cv", None)
    for c in getattr(cv, "convoys", None) or []:
        name = getattr(c, "name", "") or ""
        out[f"convoy:{c.id}"] = f"{name} (convoy:{c.id})" if name and name != c.id else f"convoy:{c.id}"
    return out


def check_faction(world: Any, faction: str | None) -> str | None:
    """None if ``faction`` is a faction of the world (or None); otherwise the message naming the choices."""
    if faction is None:
        return None
    keys = sorted(faction_names(world))
    if faction in keys:
        return None
    return f"--explain {faction!r}: expected a faction key of this scenario ({', '.join(keys)})"


__all__ = ["ExplainWriter", "check_faction", "explain_writer", "explain_decision", "faction_names", "name_places", "place",
           "rollout_lines"]
