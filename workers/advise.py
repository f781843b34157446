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
import re
from fractions import Fraction
from typing import Any, Literal

import msgspec

from scenarios.loader import LoadedScenario
from sim.calendar import HOURS_PER_SEASON
from sim.errors import Problem, RealmsimError, ScenarioError
from sim.events import Event, check
from sim.odds import exact_distribution
from workers.explain import ORDERS_FR, REASON_FR, tie_fr, unit_word
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
    order: str
    score: float
    chosen: bool = False
    terms: list[TermOut] = []
    words: str = ""  # the order with hexes as [col, row] (see OrderAdvice.order_words)


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
    order: str  # the order chosen, as the ledger labels it
    order_words: str  # the same with hexes as [col, row] and the settlement there, as a game master reads a map
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
    rollouts: dict[str, Any] | None = None


class Missing(msgspec.Struct):
    path: str
    expected: str
    found: str


class Advice(msgspec.Struct):
    state: str  # the file (or "state text")
    faction: str  # kingdom:stolen
    kind: str
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
    sign = f"{total:+d}"
    named = ", ".join(f"{n} {v:+d}" for n, v in mods if v) or ("aucun" if lang == "fr" else "none")
    if lang == "fr":
        text = f"{ev.kind} : 1d{sides} {sign} contre DD {dc} ({named}) : {_fr_pct(pct)} de chances de réussite ({p})"
    else:
        text = f"{ev.kind}: 1d{sides} {sign} against DC {dc} ({named}): {pct:.1f}% chance of success ({p})"
    if natural:
        text += " ; 1 naturel échoue, 20 naturel réussit" if lang == "fr" else "; a natural 1 fails, a natural 20 succeeds"
    return CheckOdds(ev.kind, list(ev.clauses), dc, sides, mods, total, f"{p.numerator}/{p.denominator}", pct, natural, text)


def _fr_pct(pct: float) -> str:
    return f"{pct:.1f}".replace(".", ",") + " %"


# ---- words -----------------------------------------------------------------------------------------
def _term_text(t: dict[str, Any], lang: str) -> str:
    first, second = ("fr", "en") if lang == "fr" else ("en", "fr")
    return str(t.get(first) or t.get(second) or t.get("name", ""))


def _alternatives(ev: Event, lang: str) -> list[AlternativeOut]:
    """The alternatives of a DecisionMade event, the chosen one first and marked (once: two
    alternatives may print alike, such as two routes of the same length)."""
    chosen = ev.outcome
    alts = ev.data.get("alternatives") or []
    if alts:
        out = [AlternativeOut(str(a["order"]), float(a["score"]), False,
                              [TermOut(str(t["name"]), float(t["value"]), str(t.get("unit", "")), _term_text(t, lang))
                               for t in a.get("terms", [])])
               for a in alts]
    else:  # the policy did not explain itself: its scored list (best first), without terms
        out = [AlternativeOut(str(o), float(sc)) for o, sc in ev.data.get("scored") or []]
    for i, a in enumerate(out):
        if a.order == chosen:
            a.chosen = True
            return [a, *out[:i], *out[i + 1:]]
    if alts and out:  # a policy's own alternatives come chosen first, though it may print a place otherwise
        first = out[0]
        first.words, first.order, first.chosen = first.words or first.order, chosen, True
    return out


def _reason(ev: Event, alts: list[AlternativeOut], checks: list[CheckOdds], lang: str) -> str:
    chosen = ev.outcome
    mine = next((a for a in alts if a.chosen), None)
    others = [a for a in alts if not a.chosen]
    fr = lang == "fr"
    parts: list[str] = []
    legal = int(ev.data.get("legal", 0))
    if mine is not None:
        said = mine.words or chosen
        parts.append(f"« {said} » (score {mine.score:g})" if fr else f"“{said}” (score {mine.score:g})")
        if others:
            best = others[0]
            gap = mine.score - best.score
            if fr:
                parts.append(f"plutôt que « {best.words or best.order} » ({best.score:g}, {gap:+g})")
            else:
                parts.append(f"over “{best.words or best.order}” ({best.score:g}, {gap:+g})")
        terms = [t for t in mine.terms if t.value]
        if terms:
            words = "; ".join(f"{t.text or t.name} ({t.value:+g}{' ' + unit_word(t.unit, lang) if t.unit else ''})"
                              for t in terms)
            parts.append(("parce que : " if fr else "because: ") + words)
    else:
        parts.append(f"« {chosen} »" if fr else f"“{chosen}”")
        if legal:
            parts.append(f"parmi {legal} possibilités" if fr else f"among {legal} legal alternatives")
    reason = str(ev.data.get("reason") or "")
    if reason and not (mine and mine.terms):
        parts.append(("raison de la politique : " + REASON_FR.get(reason, reason)) if fr else "the policy's reason: " + reason)
    tie = str(ev.data.get("tie") or "")
    if tie:
        parts.append(("égalité : " + tie_fr(tie)) if fr else "tie: " + tie)
    if checks:
        parts.append(("tests : " if fr else "checks: ") + "; ".join(c.text for c in checks))
    return ", ".join(parts[:2]) + ("; " + "; ".join(parts[2:]) if len(parts) > 2 else "") + "."


def _summary(key: str, kind: str, orders: list[OrderAdvice], hour: int, lang: str) -> str:
    from sim.calendar import date_of

    ident = key.partition(":")[2]
    listed = "; ".join(f"{o.decision}: {o.order_words}" for o in orders)
    when = f"{date_of(hour).format(lang)} ({'saison' if lang == 'fr' else 'season'} {hour // HOURS_PER_SEASON}, " \
           f"{'heure' if lang == 'fr' else 'hour'} {hour})"
    if lang == "fr":
        return f"{KIND_FR_THE[kind]} {ident} donnerait {len(orders)} ordre(s) — {when} : {listed}."
    return f"The {kind} {ident} would give {len(orders)} order(s) at {when}: {listed}."


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


def _watch_slots(model: Any, key: str, slots: list[str]) -> None:
    """Record what each of the faction's decisions is about (a kingdom's or nation's slot), in order:
    the agent's own ``decide`` is wrapped for this run only."""
    agent = next((a for a in model.agents if getattr(a, "key", None) == key), None)
    if agent is None:
        return
    inner = agent.decide
    default = DECISION_NAMES.get(key.partition(":")[0], "decision")

    def decide(obs: Any, legal: Any, **kw: Any) -> Any:
        slot = getattr(obs, "slot", None) or (obs.get("decision") if isinstance(obs, dict) else None)
        if slot is None and "RES-CV-02" in kw.get("clauses", ()):
            slot = "route"
        slots.append(str(slot or default))
        return inner(obs, legal, **kw)

    agent.decide = decide


def _reseed_policy(model: Any, key: str, seed: int) -> None:
    """The advised faction's policy draws from the stream of ``seed``; the world (its rules' dice and
    the other factions' policies) keeps the state's own seed, so the advice varies with ``seed`` only
    through the policy's choices."""
    stream = model.dice.reseed("policy", key, seed)  # in the dice box: what a look-ahead checkpoints
    agent = next((a for a in model.agents if getattr(a, "key", None) == key), None)
    if agent is not None:
        agent.policy_rng = stream


def next_decisions(loaded: LoadedScenario, key: str, seed: int, slots: list[str] | None = None,
                   maps: list[Any] | None = None) -> tuple[int, list[Event]]:
    """Play the state forward until ``key`` has made the decisions of its next decision time; return
    that hour and the events from its first decision to the last event of that hour (``slots``: what
    each decision of the faction was about, in order)."""
    from agents.campaign import prepare_campaign

    model = prepare_campaign(loaded, loaded.scenario.scenario.seed, collect=False)
    _reseed_policy(model, key, seed)
    if maps is not None:
        maps.append(model.world.map)
    if slots is not None:
        _watch_slots(model, key, slots)
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
    kind = key.partition(":")[0]
    check_policy(kind, policy, loaded.label)
    seed = sc.scenario.seed if seed is None else int(seed)
    lang = sc.scenario.lang if lang is None else lang
    played = with_policy(loaded, key, policy)
    slots: list[str] = []
    try:
        maps: list[Any] = []
        hour, events = next_decisions(played, key, seed, slots, maps)
    except RealmsimError:
        raise
    except Exception as e:  # a state that validates but the engine cannot play: a bug, reported as the state's
        log.exception("advise: %s for %s failed", loaded.label, key)
        raise AdviceError(loaded.label, [Problem(
            "(state)", f"a state the engine can play on to {key}'s next decision",
            f"{type(e).__name__}: {e} (an engine bug: please report it with the state file)")]) from None
    slot_iter = iter(slots)  # the window starts at the faction's first decision: one slot per DecisionMade
    orders: list[OrderAdvice] = []
    current: OrderAdvice | None = None
    names = {s.at: s.name for s in sc.map.settlements}
    for ev in events:
        if ev.kind == "DecisionMade" and ev.actor == key:
            slot = next(slot_iter, "decision")
            alts = _alternatives(ev, lang)
            fr_words = ORDERS_FR.get(ev.system) if lang == "fr" else None

            def words(label: str, slot: str = slot, tr: Any = fr_words, mn: bool = ev.system == "mn") -> str:
                return _words(tr(label) if tr is not None else label, slot, maps[0], names, lang, ids=mn)

            for alt in alts:
                alt.words = words(alt.order)
            if not explain:
                alts = [a for a in alts if a.chosen] + [a for a in alts if not a.chosen][: SHOWN - 1]
            mine = next((a for a in alts if a.chosen), None)
            current = OrderAdvice(
                decision=DECISION_FR.get(slot, slot) if lang == "fr" else slot, order=ev.outcome,
                order_words=words(str(ev.outcome)), actor=ev.actor, hour=ev.t,
                clauses=list(ev.clauses), policy=str(ev.data.get("policy", policy)), legal=int(ev.data.get("legal", 0)),
                score=None if mine is None else mine.score, alternatives=alts, checks=[], reason="",
                tie=tie_fr(str(ev.data.get("tie", ""))) if lang == "fr" else str(ev.data.get("tie", "")),
                rollouts=ev.data.get("rollouts"))
            orders.append(current)
        elif current is not None and _is_check(ev) and _concerns(ev, key):
            current.checks.append(check_odds(ev, lang))
    for o, ev in zip(orders, [e for e in events if e.kind == "DecisionMade" and e.actor == key], strict=True):
        o.reason = _reason(ev, o.alternatives, o.checks, lang)
    out = Advice(loaded.label, key, kind, policy, seed, lang, hour, hour // HOURS_PER_SEASON, orders,
                 _summary(key, kind, orders, hour, lang), loaded.sha256)
    digest = hashlib.sha256(msgspec.json.encode([msgspec.to_builtins(o) for o in orders])).hexdigest()
    missing = [Missing(p.path, p.expected, p.found) for p in missing_for(loaded, key)]
    return msgspec.structs.replace(out, advice_sha256=digest, missing=missing)


def _concerns(ev: Event, key: str) -> bool:
    """A check of the faction itself, or of one of its own pieces (its armies, envoys, ambassadors)."""
    if ev.actor == key:
        return True
    ident = key.partition(":")[2]
    for k in ("owner", "guild", "kingdom", "nation", "convoy", "by", "sender"):
        if ev.data.get(k) == ident:
            return True
    return False


_HEX = re.compile(r"#(\d+)\b|\b(to|at|hex)=(\d+)\b")


def _words(label: str, slot: str, hm: Any, names: dict[Any, str], lang: str, *, ids: bool = False) -> str:
    """``label`` with map indexes written as ``[col, row]`` (and the settlement there, if any): what a
    game master finds on the table's map. A kingdom's hex claim is a bare index; with ``ids`` (Mare
    Nostrum's orders) a ``#3`` is an embassy, a mission or a treaty, never a hex."""

    def place(i: int) -> str:
        if not 0 <= i < hm.width * hm.height:
            return str(i)
        c = hm.coords(i)
        name = names.get(tuple(c))
        return f"[{c[0]}, {c[1]}]" + (f" ({name})" if name else "")

    if slot == "claim" and label.isdigit():
        return ("revendiquer la case " if lang == "fr" else "claim hex ") + place(int(label))
    if slot == "lose_hex" and label.isdigit():
        return ("perdre la case " if lang == "fr" else "lose hex ") + place(int(label))

    def sub(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            if ids:
                return m.group(0)
            return place(int(m.group(1)))
        return f"{m.group(2)}={place(int(m.group(3)))}"

    return _HEX.sub(sub, label)


# ---- text output ---------------------------------------------------------------------------------------
def render_text(a: Advice, *, explain: bool = False) -> str:
    fr = a.lang == "fr"
    lines = [a.summary, ""]
    for i, o in enumerate(a.orders, 1):
        lines.append(f"{i}. {o.decision}: {o.order_words}")
        lines.append(f"   {'raison' if fr else 'reason'}: {o.reason}")
        shown = o.alternatives if explain else o.alternatives[:4]
        if shown:
            lines.append(f"   {'alternatives notées' if fr else 'scored alternatives'} ({o.legal} {'possibles' if fr else 'legal'}):")
            for alt in shown:
                mark = "*" if alt.chosen else " "
                lines.append(f"    {mark} {alt.score:>9.3f}  {alt.words or alt.order}")
                if explain:
                    for t in alt.terms:
                        lines.append(f"                 {t.value:+.3f} {t.unit:<6} {t.text or t.name}")
        for c in o.checks:
            lines.append(f"   {'test' if fr else 'check'}: {c.text}")
        if explain and o.rollouts:
            lines.append(f"   {'simulations' if fr else 'rollouts'}: {o.rollouts}")
    if not a.orders:
        lines.append("(aucun ordre)" if fr else "(no order)")
    if a.missing:
        lines.append("")
        lines.append("L'état ne dit pas (valeurs par défaut) :" if fr else "The state leaves out (defaults used):")
        lines += [f"  {m.path}: {'attendu' if fr else 'expected'} {m.expected}, {'trouvé' if fr else 'found'} {m.found}"
                  for m in a.missing]
    lines.append("")
    lines.append(("graine" if fr else "seed") + f" {a.seed}, {'politique' if fr else 'policy'} {a.policy}, "
                 f"advice_sha256 {a.advice_sha256[:16]}")
    return "\n".join(lines)


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
