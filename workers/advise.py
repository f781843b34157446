"""Advice for a game master: the orders one faction would give now, in a table's situation.

``advise(loaded, "kingdom:stolen")`` builds the world of a state file (a scenario file, possibly
partial, possibly with a ``[state]`` table saying which season it stands at: docs/state-format.md),
plays the campaign forward with the faction's policy (``heuristic`` unless told) until that faction
has given the orders of its next decision time (a kingdom's Edict phase, a guild's season orders, a
nation's turn, a convoy's day), and reports each decision: the order chosen, the alternatives the
policy scored with their named score terms, how a tie was broken, a look-ahead's figures, the exact
odds of every check the order led to (``sim.odds``, by enumerating the die: never the rolled result),
and the reasons in words, in English or French.

Determinism: the advice is a function of the state and the seed alone. The advised faction's policy
draws from its own stream, seeded by ``seed`` (the state's ``scenario.seed`` unless told); the world
around it (the rules' dice while the campaign plays on to the decision time — a kingdom's Upkeep
comes before its Edict phase — and the other factions' policies) draws from the state's own
``scenario.seed``, whatever ``seed`` is. A check's result is never part of the advice: its exact
odds are.
"""

from __future__ import annotations

import hashlib
import logging
from fractions import Fraction
from typing import Any, Literal

import msgspec

from agents.chronicle_tables.names import Names, names_of
from agents.chronicle_tables.orders import order_words
from agents.chronicle_tables.reasons import check_name, fr_numbers, modifier_name, reason_words, term_words
from scenarios.loader import LoadedScenario
from sim.calendar import HOURS_PER_SEASON
from sim.errors import Problem, RealmsimError, ScenarioError
from sim.events import Event, check
from sim.odds import exact_distribution
from workers.explain import rollout_lines, tie_fr, unit_word
from workers.factions import TABLES as TABLES
from workers.factions import AdviceError as AdviceError
from workers.factions import factions_of as factions_of
from workers.factions import resolve_faction as resolve_faction
from workers.partial import missing_for

log = logging.getLogger("realmsim.advise")
KIND_FR = {"kingdom": "royaume", "guild": "guilde", "nation": "nation", "convoy": "caravane"}
KIND_FR_THE = {"kingdom": "Le royaume", "guild": "La guilde", "nation": "La nation", "convoy": "La caravane"}
KM_ATTRIBUTES = {"Economy", "Loyalty", "Stability"}
MAX_SEASONS_AHEAD = 8  # a faction that has not decided within two years of the state: said so
MAX_ENUMERATED = 100_000  # sim.odds enumeration bound per check (a check draws one die)
SHOWN = 8  # alternatives shown per decision without --explain


# ---- the answer (the same structs for `advise --json` and POST /v1/advise) --------------------------
class TermOut(msgspec.Struct):
    name: str
    value: float
    unit: str = ""
    text: str = ""  # in the asked language (falls back to the other, then to the name)


class AlternativeOut(msgspec.Struct):
    order: str  # as the ledger labels it (the policy's label)
    score: float
    chosen: bool = False
    terms: list[TermOut] = []
    words: str = ""  # the order in the asked language, with the table's names (see OrderAdvice.order_words)
    alike: int = 1  # how many of the orders scored read alike (two routes from one hex): shown once


class CheckOdds(msgspec.Struct):
    """A check the order led to: DC, named modifiers and the exact chance of success over the die."""

    kind: str
    clauses: list[str]
    dc: int
    die: int
    modifiers: list[tuple[str, int]]
    modifier: int  # their sum
    chance: str  # exact, as a fraction "11/20"
    percent: float
    natural_rules: bool  # a natural 1 fails and a natural 20 succeeds (kingdom checks, SC-KM-03)
    text: str = ""


class OrderAdvice(msgspec.Struct):
    decision: str  # what is decided: a kingdom's slot (envoy, claim, taxation…), a nation's slot, "orders", "day"…
    order: str  # the order chosen, as the ledger labels it (engine ids: for programs)
    order_words: str  # the same in the asked language, factions, places and hexes named as the table names them
    actor: str
    hour: int
    clauses: list[str]
    policy: str
    legal: int  # how many alternatives were legal
    score: float | None  # the chosen order's score, when the policy scored it
    alternatives: list[AlternativeOut]  # chosen first, then the best others
    checks: list[CheckOdds]
    reason: str  # in words, in the asked language
    tie: str = ""
    rollouts: dict[str, Any] | None = None  # a look-ahead's figures, as the policy recorded them
    rollouts_text: list[str] = []  # the same in sentences, in the asked language


class Missing(msgspec.Struct):
    path: str
    expected: str
    found: str


class Advice(msgspec.Struct):
    state: str  # the file (or "state text")
    faction: str  # kingdom:stolen
    kind: str
    name: str  # the faction's name in its table (in the asked language)
    policy: str
    seed: int
    lang: str
    hour: int  # when the orders are given
    season: int
    orders: list[OrderAdvice]
    summary: str  # one paragraph in words
    state_sha256: str
    advice_sha256: str = ""  # of the orders (same state + seed → same digest)
    missing: list[Missing] = []  # what a partial state lacks for this faction (realmsim validate --faction)


# ---- finding the faction ---------------------------------------------------------------------------
def check_policy(kind: str, policy: str, label: str) -> None:
    from agents.policies import known_policies

    allowed = [p for p in known_policies(kind) if p != "scripted"]
    if policy not in allowed:
        raise AdviceError(label, [Problem("policy", f"a registered {kind} policy ({', '.join(allowed)})", f'"{policy}"')])


def with_policy(loaded: LoadedScenario, key: str, policy: str) -> LoadedScenario:
    """The state with the advised faction played by ``policy`` (the others keep theirs)."""
    kind, _, ident = key.partition(":")
    sc = loaded.scenario
    table = TABLES[kind]
    rows = [msgspec.structs.replace(r, policy=policy) if r.id == ident else r for r in getattr(sc, table)]
    return LoadedScenario(msgspec.structs.replace(sc, **{table: rows}), loaded.label, loaded.text, loaded.sha256)


# ---- odds ------------------------------------------------------------------------------------------
def _is_check(ev: Event) -> bool:
    return ev.dc is not None and len(ev.dice) == 1 and ev.kind != "DecisionMade"


def check_odds(ev: Event, lang: str) -> CheckOdds:
    """The exact chance that the check of ``ev`` succeeds, over every face of its die (sim.odds)."""
    assert ev.dc is not None
    sides = ev.dice[0][0]
    mods = [(str(n), int(v)) for n, v in ev.mods]
    natural = ev.system == "km" and any(n in KM_ATTRIBUTES for n, _ in mods)
    anarchy = any(n.startswith("anarchy") for n, _ in mods)
    dc = ev.dc

    def roll(d: Any) -> bool:
        if anarchy:  # SC-KM-07: the result counts as 0; a natural 20 still succeeds, a natural 1 fails
            nat = d.roll(sides)[0]
            return bool(nat == sides or (nat != 1 and 0 >= dc))
        return check(d, dc, mods, sides=sides, natural_1_fails=natural, natural_20_succeeds=natural).success

    dist = exact_distribution(roll, limit=MAX_ENUMERATED)
    p = dist.get(True, Fraction(0))
    total = sum(v for _, v in mods)
    pct = round(float(p) * 100, 1)
    sign = _signed(total)
    named = ", ".join(f"{modifier_name(n, lang)} {_signed(v)}" for n, v in mods if v) or ("aucun" if lang == "fr" else "none")
    what = check_name(ev.kind, lang)
    if lang == "fr":
        text = f"{what} : 1d{sides} {sign} contre DD {dc} ({named}) : {_fr_pct(pct)} de chances de réussite ({p})"
    else:
        text = f"{what}: 1d{sides} {sign} against DC {dc} ({named}): {pct:.1f}% chance of success ({p})"
    if natural:
        text += " ; 1 naturel échoue, 20 naturel réussit" if lang == "fr" else "; a natural 1 fails, a natural 20 succeeds"
    return CheckOdds(ev.kind, list(ev.clauses), dc, sides, mods, total, f"{p.numerator}/{p.denominator}", pct, natural, text)


def _signed(v: float) -> str:
    """``+3``, ``−2`` (a true minus sign, as the score terms write it)."""
    return f"{v:+g}".replace("-", "−")


def _fr_pct(pct: float) -> str:
    return f"{pct:.1f}".replace(".", ",") + " %"


# ---- words -----------------------------------------------------------------------------------------
def _term_text(t: dict[str, Any], lang: str, names: Names) -> str:
    first, second = ("fr", "en") if lang == "fr" else ("en", "fr")
    text = t.get(first) or t.get(second)
    if not text:
        return str(t.get("name", ""))
    return term_words(str(text), lang if t.get(first) else second, names)


def _alternatives(ev: Event, lang: str, words: Any, names: Names) -> list[AlternativeOut]:
    """The alternatives of a DecisionMade event in words, the chosen one first and marked, each once:
    the engine labels the chosen order (``from #47``) and the policy its alternatives (``from
    [11,2]``), so they are matched by their words; orders that read alike (two routes from one hex)
    are shown once, with how many read so (``alike``)."""
    alts = ev.data.get("alternatives") or []
    if alts:
        out = [AlternativeOut(str(a["order"]), float(a["score"]), False,
                              [TermOut(str(t["name"]), float(t["value"]), str(t.get("unit", "")), _term_text(t, lang, names))
                               for t in a.get("terms", [])])
               for a in alts]
    else:  # the policy did not explain itself: its scored list (best first), without terms
        out = [AlternativeOut(str(o), float(sc)) for o, sc in ev.data.get("scored") or []]
    for a in out:
        a.words = words(a.order)
    said = words(str(ev.outcome))
    i = next((k for k, a in enumerate(out) if a.order == ev.outcome), None)
    if i is None:
        i = next((k for k, a in enumerate(out) if a.words == said), None)
    if i is None and alts and out:  # a policy's own alternatives come chosen first
        i = 0
    if i is not None:  # the chosen one, labelled as the ledger's outcome (what a program matches)
        out[i].chosen, out[i].order = True, str(ev.outcome)
        out = [out[i], *out[:i], *out[i + 1:]]
    kept: dict[str, AlternativeOut] = {}
    for a in out:
        seen = kept.get(a.words)
        if seen is None:
            kept[a.words] = a
        else:
            seen.alike += 1
    return list(kept.values())


def _value(t: TermOut, lang: str) -> str:
    """A term as said in a reason: its words (which open with its value and unit), or its name and value."""
    if t.text and t.text[:1] in "+−-":
        return t.text
    return f"{t.text or t.name} ({_signed(t.value)}{' ' + unit_word(t.unit, lang) if t.unit else ''})"


def _reason(ev: Event, alts: list[AlternativeOut], checks: list[CheckOdds], lang: str, said: str, names: Names) -> str:
    mine = next((a for a in alts if a.chosen), None)
    others = [a for a in alts if not a.chosen]
    fr = lang == "fr"
    q = (lambda x: f"« {x} »") if fr else (lambda x: f"“{x}”")  # noqa: E731
    parts: list[str] = []
    legal = int(ev.data.get("legal", 0))
    if mine is not None:
        head = f"{q(said)} (score {mine.score:g})"
        if others:
            best = others[0]
            gap = mine.score - best.score
            head += f", {'plutôt que' if fr else 'over'} {q(best.words or best.order)} ({best.score:g}, {_signed(round(gap, 4))})"
        parts.append(head)
        terms = [t for t in mine.terms if t.value]
        if terms:
            parts.append(("parce que : " if fr else "because: ") + (" ; " if fr else "; ").join(_value(t, lang) for t in terms))
    else:
        parts.append(q(said) + (f", parmi {legal} possibilités" if fr else f", among {legal} legal alternatives") * bool(legal))
    reason = str(ev.data.get("reason") or "")
    if reason and not (mine and mine.terms):
        parts.append(("raison de la politique : " if fr else "the policy's reason: ") + reason_words(reason, lang, names))
    tie = str(ev.data.get("tie") or "")
    if tie:
        parts.append(("égalité : " + tie_fr(tie)) if fr else "tie: " + tie)
    if checks:
        parts.append(("tests : " if fr else "checks: ") + (" ; " if fr else "; ").join(c.text for c in checks))
    text = (" ; " if fr else "; ").join(parts) + "."
    return fr_numbers(text) if fr else text


def _summary(name: str, kind: str, orders: list[OrderAdvice], hour: int, lang: str) -> str:
    from sim.calendar import date_of

    listed = (" ; " if lang == "fr" else "; ").join(f"{o.decision}{' :' if lang == 'fr' else ':'} {o.order_words}" for o in orders)
    n = len(orders)
    if lang == "fr":
        when = f"{date_of(hour).format(lang)} (saison {hour // HOURS_PER_SEASON}, heure {hour})"
        return f"{KIND_FR_THE[kind]} {name} donnerait {n} ordre{'s' if n > 1 else ''} — {when} : {listed}."
    when = f"{date_of(hour).format(lang)} (season {hour // HOURS_PER_SEASON}, hour {hour})"
    return f"The {kind} {name} would give {n} order{'s' if n != 1 else ''} at {when}: {listed}."


# ---- playing forward to the faction's next decisions -------------------------------------------------
DECISION_NAMES = {"guild": "orders", "convoy": "day"}
DECISION_FR = {"envoy": "envoyé", "claim": "revendication de case", "improvement": "aménagement", "building": "construction",
               "taxation": "imposition", "holiday": "fêtes", "promotion": "promotion", "relation": "relation",
               "special": "édit spécial", "balance": "équilibre", "lose_hex": "case perdue", "orders": "ordres",
               "day": "journée", "route": "itinéraire", "target": "cible",
               # a nation's slots (sim.rules.mn.legality)
               "buy": "achats", "ambassador": "ambassadeur", "host": "accueil d'un envoyé", "interfere": "interférence",
               "interference_sign": "sens de l'interférence", "consent": "consentement", "propose": "proposition",
               "obligation": "obligation", "military": "phase militaire", "ransom": "rançon"}


class Asked(msgspec.Struct):
    """One decision of the advised faction, as it was asked: what it is about, and the world's names
    at that moment (a Mare Nostrum ``#3`` may be gone once the order is carried out)."""

    slot: str
    names: Any


def _watch_slots(model: Any, key: str, asked: list[Asked], lang: str) -> None:
    """Record what each of the faction's decisions is about (a kingdom's or nation's slot) and the
    names of the world then, in order: the agent's own ``decide`` is wrapped for this run only."""
    agent = model.by_key.get(key)
    if agent is None:
        return
    inner = agent.decide
    default = DECISION_NAMES.get(key.partition(":")[0], "decision")

    def decide(obs: Any, legal: Any, **kw: Any) -> Any:
        slot = getattr(obs, "slot", None) or (obs.get("decision") if isinstance(obs, dict) else None)
        if slot is None and "RES-CV-02" in kw.get("clauses", ()):
            slot = "route"
        asked.append(Asked(str(slot or default), names_of(model.world, lang)))
        return inner(obs, legal, **kw)

    agent.decide = decide


def _reseed_policy(model: Any, key: str, seed: int) -> None:
    """The advised faction's policy draws from the stream of ``seed``; the world (its rules' dice and
    the other factions' policies) keeps the state's own seed, so the advice varies with ``seed`` only
    through the policy's choices."""
    stream = model.dice.reseed("policy", key, seed)  # in the dice box: what a look-ahead checkpoints
    agent = model.by_key.get(key)
    if agent is not None:
        agent.policy_rng = stream


def next_decisions(loaded: LoadedScenario, key: str, seed: int, asked: list[Asked] | None = None,
                   lang: str = "en") -> tuple[int, list[Event]]:
    """Play the state forward until ``key`` has made the decisions of its next decision time; return
    that hour and the events from its first decision to the last event of that hour (``asked``: what
    each decision of the faction was about, and the names then, in order)."""
    from agents.campaign import prepare_campaign

    model = prepare_campaign(loaded, loaded.scenario.scenario.seed, collect=False, explain=True)
    _reseed_policy(model, key, seed)
    if asked is not None:
        _watch_slots(model, key, asked, lang)
    env = model.env
    world = model.world
    horizon = min(world.end, int(env.now) + MAX_SEASONS_AHEAD * HOURS_PER_SEASON)
    ledger = model.ledger
    found: list[Event] = []

    def watch(ev: Event) -> None:
        if not found and ev.kind == "DecisionMade" and ev.actor == key:
            found.append(ev)

    ledger.subscribe(watch)
    while True:
        nxt = env.peek()
        if nxt >= horizon or (found and nxt > found[0].t):
            break
        env.step()
    if not found:
        raise AdviceError(loaded.label, [Problem(
            "faction", f"a faction that gives orders before hour {horizon} (the campaign ends at hour {world.end})",
            f"{key}: no decision by then (is it still in play? a convoy that has arrived or a faction "
            "that has lost everything gives no order)")])
    first = found[0]
    return first.t, [ev for ev in ledger.events if ev.seq >= first.seq and ev.t == first.t]


def advise(loaded: LoadedScenario, faction: str, *, policy: str = "heuristic", seed: int | None = None,
           lang: Literal["en", "fr"] | None = None, explain: bool = False) -> Advice:
    """The orders ``faction`` would give now in the state ``loaded`` (see the module's doc)."""
    sc = loaded.scenario
    key = resolve_faction(sc, faction, loaded.label)
    kind, _, ident = key.partition(":")
    check_policy(kind, policy, loaded.label)
    seed = sc.scenario.seed if seed is None else int(seed)
    lang = sc.scenario.lang if lang is None else lang
    played = with_policy(loaded, key, policy)
    asked: list[Asked] = []
    try:
        hour, events = next_decisions(played, key, seed, asked, lang)
    except RealmsimError:
        raise
    except Exception as e:  # a state that validates but the engine cannot play: a bug, reported as the state's
        log.exception("advise: %s for %s failed", loaded.label, key)
        raise AdviceError(loaded.label, [Problem(
            "(state)", f"a state the engine can play on to {key}'s next decision",
            f"{type(e).__name__}: {e} (an engine bug: please report it with the state file)")]) from None
    asked_iter = iter(asked)  # the window starts at the faction's first decision: one per DecisionMade
    orders: list[OrderAdvice] = []
    decided: list[tuple[OrderAdvice, Event, str, Names]] = []
    current: OrderAdvice | None = None
    names = asked[0].names if asked else Names(lang)
    for ev in events:
        if ev.kind == "DecisionMade" and ev.actor == key:
            a = next(asked_iter, None)
            slot, names = (a.slot, a.names) if a is not None else ("decision", names)

            def words(label: str, slot: str = slot, system: str = ev.system, names: Names = names) -> str:
                return order_words(system, label, lang, names, slot)

            alts = _alternatives(ev, lang, words, names)
            if not explain:
                alts = [a for a in alts if a.chosen] + [a for a in alts if not a.chosen][: SHOWN - 1]
            mine = next((a for a in alts if a.chosen), None)
            said = mine.words if mine is not None else words(str(ev.outcome))
            tie = str(ev.data.get("tie", ""))
            rollouts = ev.data.get("rollouts")
            current = OrderAdvice(
                decision=DECISION_FR.get(slot, slot) if lang == "fr" else slot, order=ev.outcome,
                order_words=said, actor=ev.actor, hour=ev.t,
                clauses=list(ev.clauses), policy=str(ev.data.get("policy", policy)), legal=int(ev.data.get("legal", 0)),
                score=None if mine is None else mine.score, alternatives=alts, checks=[], reason="",
                tie=fr_numbers(tie_fr(tie)) if lang == "fr" else tie, rollouts=rollouts,
                rollouts_text=_rollouts_text(rollouts, lang, words))
            orders.append(current)
            decided.append((current, ev, said, names))
        elif current is not None and _is_check(ev) and _concerns(ev, key):
            current.checks.append(check_odds(ev, lang))
    for o, ev, said, nm in decided:
        o.reason = _reason(ev, o.alternatives, o.checks, lang, said, nm)
    name = (asked[0].names if asked else Names(lang)).of(kind, ident)
    out = Advice(loaded.label, key, kind, name, policy, seed, lang, hour, hour // HOURS_PER_SEASON, orders,
                 _summary(name, kind, orders, hour, lang), loaded.sha256)
    digest = hashlib.sha256(msgspec.json.encode([msgspec.to_builtins(o) for o in orders])).hexdigest()
    missing = [Missing(p.path, p.expected, p.found) for p in missing_for(loaded, key)]
    return msgspec.structs.replace(out, advice_sha256=digest, missing=missing)


def _rollouts_text(rollouts: Any, lang: str, words: Any) -> list[str]:
    """A look-ahead's figures in sentences (``workers.explain.rollout_lines``), in ``lang``."""
    if not isinstance(rollouts, dict):
        return []
    lines = rollout_lines(rollouts, lang, words)
    return [fr_numbers(x) for x in lines] if lang == "fr" else lines


def _concerns(ev: Event, key: str) -> bool:
    """A check of the faction itself, or of one of its own pieces (its armies, envoys, ambassadors)."""
    if ev.actor == key:
        return True
    ident = key.partition(":")[2]
    for k in ("owner", "guild", "kingdom", "nation", "convoy", "by", "sender"):
        if ev.data.get(k) == ident:
            return True
    return False


# ---- text output ---------------------------------------------------------------------------------------
_POLICY_FR = {"heuristic": "heuristique", "random": "aléatoire", "lookahead": "anticipation"}


def render_text(a: Advice, *, explain: bool = False) -> str:
    """The advice as a game master reads it: words and names only (the ids are in ``--json``)."""
    fr = a.lang == "fr"
    colon = " :" if fr else ":"
    lines = [a.summary, ""]
    for i, o in enumerate(a.orders, 1):
        lines.append(f"{i}. {o.decision}{colon} {o.order_words}")
        lines.append(f"   {'raison' if fr else 'reason'}{colon} {o.reason}")
        shown = o.alternatives if explain else o.alternatives[:4]
        if shown:
            legal = f"{o.legal} {'ordres possibles' if fr else 'legal orders'}"
            lines.append(f"   {'alternatives notées' if fr else 'scored alternatives'} ({legal}){colon}")
            for alt in shown:
                mark = "*" if alt.chosen else " "
                alike = ""
                if alt.alike > 1:
                    n = alt.alike - 1
                    alike = (f"  (et {n} autre{'s' if n > 1 else ''} ordre{'s' if n > 1 else ''} qui se lisent de même)" if fr
                             else f"  (and {n} other order{'s' if n > 1 else ''} that read{'' if n > 1 else 's'} the same)")
                lines.append(f"    {mark} {_score(alt.score, fr):>9}  {alt.words or alt.order}{alike}")
                if explain:
                    for t in alt.terms:
                        lines.append(f"                 {_value(t, a.lang)}")
        for c in o.checks:
            lines.append(f"   {'test' if fr else 'check'}{colon} {c.text}")
        if explain and o.rollouts_text:  # the look-ahead's figures, in sentences
            lines.append(f"   {o.rollouts_text[0]}")
            lines += [f"     {x}" for x in o.rollouts_text[1:]]
    if not a.orders:
        lines.append("(aucun ordre)" if fr else "(no order)")
    if a.missing:
        lines.append("")
        lines.append("L'état ne dit pas (valeurs par défaut) :" if fr else "The state leaves out (defaults used):")
        lines += [f"  {m.path}{colon} {'attendu' if fr else 'expected'} {m.expected}, {'trouvé' if fr else 'found'} {m.found}"
                  for m in a.missing]
    lines.append("")
    policy = _POLICY_FR.get(a.policy, a.policy) if fr else a.policy
    lines.append(("graine" if fr else "seed") + f" {a.seed}, {'politique' if fr else 'policy'} {policy}, "
                 f"advice_sha256 {a.advice_sha256[:16]}")
    return "\n".join(lines)


def _score(v: float, fr: bool) -> str:
    text = f"{v:.3f}"
    return text.replace(".", ",") if fr else text


def load_state(path: str) -> LoadedScenario:
    """A state file (or a built-in scenario name) from the command line."""
    from scenarios.loader import load_scenario

    return load_scenario(path)


__all__ = ["Advice", "AdviceError", "advise", "load_state", "render_text", "ScenarioError"]


def add_arguments(p: Any) -> None:
    p.add_argument("state", help="a state file (docs/state-format.md), or any scenario: built-in name or path")
    p.add_argument("--faction", required=True, metavar="ID", help="the faction to advise: kingdom:ID, guild:ID, nation:ID, "
                                                                   "convoy:ID (or a bare ID naming one faction)")
    p.add_argument("--policy", default="heuristic", metavar="NAME", help="the policy that decides (default heuristic; "
                                                                          "lookahead where registered)")
    p.add_argument("--seed", type=int, default=None, help="the policy's seed (default: the state's scenario.seed)")
    p.add_argument("--explain", action="store_true", help="every alternative with its score terms, and a look-ahead's figures")
    p.add_argument("--lang", choices=["en", "fr"], default=None, help="language of the reasons (default: the state's)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the same as POST /v1/advise answers)")


def cmd_advise(args: Any) -> int:
    import sys

    loaded = load_state(args.state)
    a = advise(loaded, args.faction, policy=args.policy, seed=args.seed, lang=args.lang, explain=args.explain)
    if args.json:
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(a), indent=2).decode() + "\n")
    else:
        print(render_text(a, explain=args.explain))
    return 0
