"""The ``lookahead`` policy (every kind of faction): the heuristic's best few orders, each played
forward on forks of the world, chosen by the deciding faction's mean score (docs/DESIGN.md §AI,
docs/scoring.md).

At a decision it asks the kind's ``heuristic`` for its scores. When the heuristic's best ``K``
alternatives (``candidates``) lie within ``gap`` score points of its best, each of them is played
forward over ``horizon`` hours (three months for a kingdom, a year for a nation or a guild), up to
``rollouts`` times, and the one with the best mean score of the deciding faction at the horizon
(:mod:`sim.scoring`) is chosen; otherwise the heuristic's choice stands. The rollouts go round by
round (every candidate still in play once per round, on the same dice): after each round a candidate
plays on only while it is ahead of the heuristic's choice on the dice so far (:func:`ahead`), so
where no candidate is ahead after the first rollout the heuristic's choice stands at once (issue 26
item 4: most look-aheads end there). A convoy (:class:`ConvoyLookahead`) plays candidates of different
kinds of day ten days ahead, and one of them replaces the heuristic's choice only when it scores
more on most of the same dice (docs/policies.md).

How a rollout forks the world exactly at the decision: processes of the engine can restart from the
world alone at any hour before anything of that hour has run (``agents.systems``). So while a
campaign has a lookahead faction, its model keeps a *checkpoint* at the first wake-up of every hour
(the encoded world and every dice stream's state) and, during that hour, the index of every order its
lookahead and heuristic factions chose (:class:`_Logged` logs a heuristic's choices; it changes
nothing else). A rollout decodes the checkpoint into a new model (its own dice box, its own ledger
that is never kept), replays the hour up to the decision — the same dice, the same orders, taken from
the log instead of asking the heuristics again (so their tie-breaking draws on their policy streams
are not repeated either: after the candidate those streams go on from the checkpoint's state, the
same for every candidate) — plays the candidate, then switches every rules
stream to the rollout's own seed and lets the heuristic play every faction up to the horizon (a
convoy's rollout in a world of convoys alone plays that convoy alone: :func:`solo_convoy`). Nothing
of a rollout reaches the real world, ledger or dice. (A fork in the middle of an hour is not
possible: the engine's processes are generators, which cannot be copied; the replay from the log is
what is left of the hour's cost.)

Common random numbers: rollout ``j`` of every candidate uses the same seed, derived from one 63-bit
number drawn from the agent's policy stream (never the rules' dice); a rollout is a pure function of
the checkpoint, the candidate and that seed, so the choice is the same in any process for a given
scenario and seed. ``max_ms`` (off by default) is the one exception: it stops a decision's rollouts
after the first whole round that ends past it, and the ledger says so (``cut``); a cut decision may
differ between machines (docs/scenario-format.md).

Explanations: the policy's own heuristic always explains itself (its scores name the candidates);
where ``explain`` is off for the look-ahead (a campaign without ``--explain``), its decisions are
compact (``agents.policies.compact``: the choice, its score — a looked-ahead candidate's mean score
change — and the runner-up) with the look-ahead's figures (``Decision.rollouts``), the choice being
the same either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from agents.model import RealmModel
from agents.policies import Alternative, Decision, Policy, Term, compact, make_policy, register
from agents.policies.convoy import DayTerms, HeuristicConvoyPolicy
from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR, span_words
from sim.dice import DiceBox, derive_seed
from sim.events import Ledger
from sim.rules.km import label
from sim.rules.mn import order_label
from sim.scoring import score_of, units
from sim.state.cv import DayPlan
from sim.world import World, decode_world, encode_world

if TYPE_CHECKING:
    import random

    from agents.model import RealmModel

NAME = "lookahead"
UNSCORED = -1000.0  # the score of a faction that no longer exists at a rollout's horizon

# per kind: candidates K, rollouts N, gap (heuristic score points), horizon (hours), decisions looked
# ahead per hour (the rest of the hour's decisions are the heuristic's)
DEFAULTS: dict[str, dict[str, Any]] = {
    "kingdom": {"candidates": 2, "rollouts": 2, "gap": 3.0, "horizon": 3 * HOURS_PER_MONTH, "decisions": 1},
    # a nation: a year of MN turns (a mission launched now arrives and is tested within it; one turn
    # ahead saw only its fee and the ambassador's price, and lost to the heuristic in 0.28 of pairs)
    "nation": {"candidates": 3, "rollouts": 2, "gap": 20.0, "horizon": HOURS_PER_YEAR, "decisions": 1},
    # a guild: a year of GW seasons (a siege, an annexation or a garrison pays off over seasons: on
    # guild-war seeds 1-20 one season ahead won 0.565 of 100 pairs, two 0.63, a year 0.715)
    "guild": {"candidates": 3, "rollouts": 2, "gap": 5.0, "horizon": HOURS_PER_YEAR, "decisions": 1},
    # a convoy: its heuristic's choice and its best plans of 2 other kinds of day within 8 points, 4 rollouts
    # each to 10 days ahead (ConvoyLookahead: a candidate must beat the heuristic's choice on most dice)
    "convoy": {"candidates": 3, "rollouts": 4, "gap": 8.0, "horizon": 10 * HOURS_PER_DAY, "decisions": 1},
}
# the decisions worth a look-ahead (by the observation's slot; None: every decision of the kind):
# a kingdom's claims, buildings, taxes and special edict shape its next year; its other choices are
# small or follow from these
SLOTS: dict[str, frozenset[str] | None] = {
    "kingdom": frozenset({"claim", "building", "taxation", "special"}),
    "nation": None,
    "guild": None,
    "convoy": frozenset({"day", "route"}),  # not a combat's target
}


@dataclass(frozen=True)
class Budget:
    """How much one decision may look ahead (a faction's ``policy_options``, or its kind's defaults)."""

    candidates: int
    rollouts: int
    gap: float
    horizon: int  # hours
    decisions: int = 1  # decisions looked ahead per hour
    max_ms: int = 0  # 0: no time guard (deterministic)


def budget_for(kind: str, world: World, options: dict[str, Any] | None) -> Budget:
    d = DEFAULTS[kind]
    o = {k: v for k, v in (options or {}).items() if v is not None}
    horizon = d["horizon"]
    if o.get("horizon_days"):
        horizon = int(o["horizon_days"]) * HOURS_PER_DAY
    gap = o.get("gap")
    return Budget(
        candidates=int(o.get("candidates", d["candidates"])),
        rollouts=int(o.get("rollouts", d["rollouts"])),
        gap=float(d["gap"] if gap is None else gap),
        horizon=int(horizon),
        decisions=int(o.get("decisions", d["decisions"])),
        max_ms=int(o.get("max_ms", 0)),
    )


# ---- small accessors (kept here so a rename in the agent or the model stays a one-line change) -----

def policy_rng(agent: Any) -> random.Random:
    """The agent's policy stream (``RealmAgent.policy_rng``, a ``SeededDice``), as a ``random.Random``."""
    stream = agent.policy_rng
    return stream.rng  # type: ignore[no-any-return]


def new_model(world: World, dice: DiceBox, ledger: Ledger) -> RealmModel:
    return RealmModel(world, dice=dice, ledger=ledger, collect=False, check_invariants=False)


def faction_score(world: World, key: str) -> float:
    """The score (``sim.scoring``) of the faction ``key`` in ``world``; :data:`UNSCORED` if it is gone."""
    try:
        return float(score_of(world, key).total)
    except (KeyError, AttributeError, StopIteration, ValueError):
        return UNSCORED


def labeler(kind: str) -> Callable[[Any], str]:
    """How the kind's heuristic names an order in ``Decision.scored``."""
    if kind == "kingdom":
        return label
    if kind == "nation":
        return order_label
    if kind == "convoy":
        return lambda a: a.label() if isinstance(a, DayPlan) else str(a)
    return str


def slot_of(obs: Any) -> str:
    """The kind of decision an observation is for (a kingdom's or nation's slot, a convoy's decision)."""
    if isinstance(obs, dict):
        return str(obs.get("decision") or "day")
    return str(getattr(obs, "slot", "") or "orders")


def index_of(legal: Sequence[Any], chosen: Any) -> int:
    for i, a in enumerate(legal):
        if a is chosen:
            return i
    return list(legal).index(chosen)


# ---- checkpoints --------------------------------------------------------------------------------

@dataclass
class Checkpoint:
    """The world and every dice stream at the first wake-up of ``hour``, and the orders (indices into
    the legal alternatives) each lookahead faction chose since."""

    hour: int
    world: bytes
    dice: dict[str, list[object]]
    logs: dict[str, list[int]] = field(default_factory=dict)
    looked: dict[str, int] = field(default_factory=dict)  # decisions looked ahead this hour, per faction


class Checkpointer:
    """Keeps a model's current checkpoint (one per model that has a lookahead faction)."""

    def __init__(self, model: RealmModel) -> None:
        self.model = model
        self.current: Checkpoint | None = None
        self.taken = 0

    def on_clock(self, now: int) -> None:
        cp = self.current
        if cp is None or cp.hour != now:
            m = self.model
            self.current = Checkpoint(now, encode_world(m.world), m.dice.getstate())
            self.taken += 1
            for agent in m.by_key.values():  # (a faction brought into the world since: a vassal, an envoy)
                pol = getattr(agent, "policy", None)
                if isinstance(agent, RealmAgent) and isinstance(pol, Policy) and type(pol) is not _Logged and pol.name == "heuristic":
                    agent.policy = _Logged(pol, agent.key, self)

    def at(self, now: int) -> Checkpoint | None:
        cp = self.current
        return cp if cp is not None and cp.hour == now else None


class _Logged(Policy):
    """A heuristic faction's policy while a campaign has a lookahead faction: the heuristic's choice,
    logged (its index among the legal orders) in the hour's checkpoint, so that a rollout replays the
    hour up to the decision from the log instead of asking the heuristic again (the rules still
    resolve every order; only the choosing is skipped). Nothing else changes: the same choice, the
    same policy stream, the same record."""

    def __init__(self, inner: Policy, key: str, cps: Checkpointer) -> None:
        self.inner = inner
        self.key = key
        self.cps = cps

    @property  # type: ignore[override]
    def name(self) -> str:
        return self.inner.name

    @name.setter
    def name(self, value: str) -> None:
        self.inner.name = value

    @property  # type: ignore[override]
    def explain(self) -> bool:
        return self.inner.explain

    @explain.setter
    def explain(self, value: bool) -> None:
        self.inner.explain = value

    def __getattr__(self, attr: str) -> Any:  # anything else the agent or a tool reads of its policy
        if attr == "inner":  # (not set yet: a copy being built)
            raise AttributeError(attr)
        return getattr(self.inner, attr)

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        d = self.inner.decide(obs, legal, rng)
        cp = self.cps.current
        if cp is not None and cp.hour == int(self.cps.model.env.now):
            cp.logs.setdefault(self.key, []).append(index_of(legal, d.chosen))
        return d


CHECKPOINTER = "lookahead.checkpointer"  # model.caches: the model's Checkpointer


def checkpointer(model: RealmModel) -> Checkpointer:
    cp = model.caches.get(CHECKPOINTER)
    if cp is None:
        cp = model.caches[CHECKPOINTER] = Checkpointer(model)
        model.env.on_clock = cp.on_clock
    return cp  # type: ignore[no-any-return]


# ---- rollouts -----------------------------------------------------------------------------------

class RolloutDice(DiceBox):
    """A rollout's dice: the checkpoint's streams until the candidate is played, then every rules
    stream reseeded from the rollout's seed (so each candidate meets the same dice, stream by stream)."""

    def switch(self, root: int) -> None:
        self.root_seed = int(root)
        for key, s in self._streams.items():
            system, _, entity = key.partition("/")
            if system != "policy":
                s.rng.seed(derive_seed(self.root_seed, system, entity))


class _NoHash:
    def update(self, data: bytes) -> None:
        pass


@dataclass
class _Rollout:
    """One play of one candidate: who decides, what was legal, which order to play, the seed."""

    decider: str
    legal: list[Any]
    forced: int
    seed: int
    logs: dict[str, list[int]]
    dice: RolloutDice
    switched: bool = False
    diverged: bool = False

    def switch(self) -> None:
        self.switched = True
        self.dice.switch(self.seed)


class _Seat(Policy):
    """A faction's policy inside a rollout: the real orders of the hour up to the decision, the
    candidate at the decision, then the heuristic (a scripted kingdom keeps its script)."""

    def __init__(self, key: str, kind: str, own: Policy, ro: _Rollout) -> None:
        self.key = key
        self.name = getattr(own, "name", "")
        self.own = own
        self.ro = ro
        self.after: Policy = own
        if self.name != "scripted":
            try:
                self.after = make_policy(kind, "heuristic")
            except ValueError:
                self.after = own
        for p in (own, getattr(own, "heuristic", None), self.after):  # (a lookahead seat plays its heuristic here)
            if isinstance(p, Policy):
                p.explain = False  # the rollout wants choices, not explanations

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        ro = self.ro
        if not ro.switched:
            log = ro.logs.get(self.key)
            if log:
                i = log.pop(0)
                if i < len(legal):
                    return Decision(legal[i], [], "replayed")
                ro.diverged = True
            elif self.key == ro.decider:
                if list(legal) == ro.legal:
                    ro.switch()
                    return Decision(legal[ro.forced], [], "candidate")
                ro.diverged = True
            elif log is not None:
                ro.diverged = True  # a lookahead faction asked more than it was in the real hour
            else:
                return self.own.decide(obs, legal, rng)
        return self.after.decide(obs, legal, rng)


def in_rollout(model: Any) -> bool:
    return isinstance(getattr(model, "dice", None), RolloutDice)


def solo_convoy(world: World, decider: str) -> None:
    """In a world of convoys alone (the CV system only), a convoy's rollout plays that convoy alone:
    convoys there share nothing (each has its own dice stream, purse, stores and road; no rule reads
    another convoy), so the others' days would cost time and change nothing of the decider's."""
    kind, _, ident = decider.partition(":")
    cv = world.cv
    if kind == "convoy" and cv is not None and list(world.systems) == ["cv"]:
        cv.convoys = [c for c in cv.convoys if c.id == ident]


def solo_checkpoint(cp: Checkpoint, decider: str) -> Checkpoint:
    """The checkpoint a convoy's rollouts start from where they play it alone (:func:`solo_convoy`):
    its world without the other convoys, encoded once per decision rather than decoded whole by every
    rollout (the same world as decoding the whole one and leaving the others out). Otherwise ``cp``."""
    if not decider.startswith("convoy:"):
        return cp
    world = decode_world(cp.world)
    if list(world.systems) != ["cv"]:
        return cp
    solo_convoy(world, decider)
    return Checkpoint(cp.hour, encode_world(world), cp.dice, cp.logs, cp.looked)


def play(cp: Checkpoint, decider: str, legal: list[Any], forced: int, seed: int, until: int) -> float | None:
    """One rollout: the deciding faction's score at ``until``, or None if the replay did not reach
    the decision (it always does unless a restart from the world is not exact: a bug, counted)."""
    world = decode_world(cp.world)
    solo_convoy(world, decider)
    dice = RolloutDice(world.seed)
    dice.setstate(cp.dice)
    ledger = Ledger(keep=False, now=world.now)
    ledger._hash = _NoHash()  # type: ignore[assignment]  # a rollout's events are never read
    ro = _Rollout(decider, legal, forced, seed, {k: list(v) for k, v in cp.logs.items()}, dice)
    ro.logs.setdefault(decider, [])
    model = new_model(world, dice, ledger)
    model.record_decisions = False  # only the choices matter here: nothing of a rollout is recorded
    for agent in list(model.by_key.values()):
        if isinstance(agent, RealmAgent):
            agent.policy = _Seat(agent.key, agent.kind, agent.policy, ro)
    model.run(until)
    if not ro.switched or ro.diverged:
        return None
    return faction_score(model.world, decider)


# ---- the policy ---------------------------------------------------------------------------------

class Lookahead(Policy):
    """``lookahead`` for one kind of faction (one subclass registered per kind)."""

    name = NAME
    kind = ""

    def __init__(self) -> None:
        self.heuristic: Policy = make_policy(self.kind, "heuristic")
        self.heuristic.explain = True  # its scores name the candidates, even where explanations are off
        self.agent: Any = None
        self.budget: Budget | None = None
        self.cps: Checkpointer | None = None
        self.stats = {"decisions": 0, "looked_ahead": 0, "rollouts": 0, "diverged": 0, "cut": 0}

    def bind(self, agent: Any) -> None:
        """Called by the agent once it is built: the model to fork, the budget of its scenario row."""
        self.agent = agent
        model = agent.model
        self.budget = budget_for(self.kind, model.world, model.world.policy_options.get(agent.key))
        if not in_rollout(model):  # inside a rollout a lookahead faction plays the heuristic
            self.cps = checkpointer(model)

    def decide(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Decision:
        h = self.heuristic.decide(obs, legal, rng)
        if self.agent is None or self.cps is None or self.budget is None or len(legal) < 2:
            return h
        model = self.agent.model
        now = int(model.env.now)
        cp = self.cps.at(now)
        self.stats["decisions"] += 1
        chosen = index_of(legal, h.chosen)
        key = self.agent.key
        wanted = SLOTS[self.kind] is None or slot_of(obs) in SLOTS[self.kind]  # type: ignore[operator]
        cands = [chosen]
        if cp is not None and wanted and cp.looked.get(key, 0) < self.budget.decisions:
            cands = self._candidates(h, legal, chosen, obs)
        d = h
        if len(cands) >= 2 and cp is not None:
            cp.looked[key] = cp.looked.get(key, 0) + 1
            d = self._look_ahead(cp, h, legal, cands, now)
        if cp is not None:
            cp.logs.setdefault(self.agent.key, []).append(index_of(legal, d.chosen))
        if not self.explain:  # the compact record: the choice, its score and the runner-up, and a look-ahead's figures
            return compact(d)
        return d

    def _candidates(self, h: Decision, legal: Sequence[Any], chosen: int, obs: Any = None) -> list[int]:
        assert self.budget is not None
        b = self.budget
        if not h.scored or b.candidates < 2:
            return [chosen]
        name = labeler(self.kind)
        first: dict[str, int] = {}
        for i, a in enumerate(legal):
            first.setdefault(name(a), i)
        best = max(float(sc) for _, sc in h.scored)
        out = [chosen]
        for lab, sc in h.scored:
            if len(out) >= b.candidates:
                break
            if best - float(sc) > b.gap:
                break
            j = first.get(str(lab))
            if j is not None and j not in out:
                out.append(j)
        return out

    def _look_ahead(self, cp: Checkpoint, h: Decision, legal: Sequence[Any], cands: list[int], now: int) -> Decision:
        assert self.budget is not None
        b = self.budget
        agent = self.agent
        key = agent.key
        model = agent.model
        root = policy_rng(agent).getrandbits(63)
        until = max(now + 1, min(now + b.horizon, model.world.end))
        seeds = [derive_seed(root, "rollout", str(j)) for j in range(b.rollouts)]
        results: list[list[float | None]] = [[] for _ in cands]
        t0 = time.perf_counter()
        cut = False
        legal_l = list(legal)
        cp = solo_checkpoint(cp, key)
        alive = list(range(len(cands)))
        for j, seed in enumerate(seeds):
            for ci in alive:
                results[ci].append(play(cp, key, legal_l, cands[ci], seed, until))
            alive = self._still_open(results, len(seeds))
            if len(alive) < 2:
                break
            if b.max_ms and (time.perf_counter() - t0) * 1000 > b.max_ms and j + 1 < len(seeds):
                cut = True
                break
        n = len(results[0])
        self.stats["looked_ahead"] += 1
        self.stats["rollouts"] += sum(len(r) for r in results)
        self.stats["cut"] += cut
        diverged = sum(1 for r in results for x in r if x is None)
        self.stats["diverged"] += diverged
        base = faction_score(model.world, key)
        wins = [0] * len(cands)
        for j in range(n):
            row = [(r[j], ci) for ci, r in enumerate(results) if j < len(r) and r[j] is not None]
            if row:
                top = max(x for x, _ in row)  # type: ignore[type-var]
                wins[next(ci for x, ci in row if x == top)] += 1
        means: list[float | None] = []
        for r in results:
            ok = [x for x in r if x is not None]
            means.append(round(sum(ok) / len(ok) - base, 2) if ok else None)
        # a candidate dropped on the way (behind the heuristic's choice) is not compared on fewer dice
        valid = [ci for ci, m in enumerate(means) if m is not None and len(results[ci]) == n]
        if not valid:
            return h
        top_mean = max(means[ci] for ci in valid)  # type: ignore[type-var]
        tied = [ci for ci in valid if means[ci] == top_mean]
        pick, why = self._choose(tied[0], means, results, len(seeds))  # ties: the heuristic's order (its best first)
        name = labeler(self.kind)
        hscore = {str(lab): float(sc) for lab, sc in h.scored}
        unit = _unit(self.kind)
        cand_rows = []
        alts: list[Alternative] = []
        for ci in [pick, *[c for c in range(len(cands)) if c != pick]]:
            lab = name(legal[cands[ci]])
            m = means[ci]
            cand_rows.append({"order": lab, "mean": m, "wins": wins[ci], "n": len(results[ci]), "heuristic": hscore.get(lab)})
            terms = [Term("rollouts", m if m is not None else 0.0, unit,
                          f"mean score change {_signed(m)} {unit} after {span_words(until - now)} ({wins[ci]} of {len(results[ci])} rollouts won)",
                          f"variation moyenne du score {_signed(m)} {_unit_fr(unit)} après {span_words(until - now, "fr")} ({wins[ci]} parties gagnées sur {len(results[ci])})")]
            old = next((a for a in h.alternatives if a.order == lab), None)
            if old is not None:
                terms += old.terms
            alts.append(Alternative(lab, m if m is not None else UNSCORED, terms))
        figures: dict[str, Any] = {
            "candidates": cand_rows, "n": n, "horizon_hours": until - now, "seed": root, "unit": unit,
            "base": base,
        }
        if cut:
            figures["cut"] = True
        if diverged:
            figures["diverged"] = diverged
        level = [ci for ci in valid if means[ci] == means[pick]]  # the chosen one and those level with it
        if len(level) > 1:
            tie = (f"{len(level)} candidates tied at mean {_signed(means[pick])} {unit}; "
                   + (f"chose {name(legal[cands[pick]])}: {why}" if why else "kept the heuristic's preferred one"))
        else:
            tie = h.tie
        label = name(legal[cands[pick]])
        reason = (f"look-ahead: {label} had the best mean score over {n} rollout(s) of {span_words(until - now)} "
                  f"among the heuristic's {len(cands)} best")
        if why:
            reason = f"look-ahead over {span_words(until - now)} among {len(cands)} candidates: {label} — {why}"
        return Decision(legal[cands[pick]], [(str(lab), float(sc)) for lab, sc in h.scored], reason, alts, tie, figures)


    def _still_open(self, results: list[list[float | None]], rounds: int) -> list[int]:
        """The candidates still worth playing after a round: candidate 0, the heuristic's choice,
        always; another only while it is ahead of it on the same dice (:func:`ahead`: its score
        summed over the rollouts so far more than the heuristic choice's). Where no candidate is
        ahead after the first rollout, the heuristic's choice stands without a second one."""
        n = len(results[0])
        return [0, *(ci for ci in range(1, len(results)) if len(results[ci]) == n and ahead(results, ci) > 0)]

    def _choose(self, best_mean: int, means: list[float | None], results: list[list[float | None]],
                rounds: int) -> tuple[int, str]:
        """The candidate to play and why (empty: the default words), given ``best_mean``, the
        candidate with the best mean (the heuristic's preferred one on a tie); candidate 0 is the
        heuristic's choice. By default the best mean wins."""
        return best_mean, ""


def _unit(kind: str) -> str:
    return units().get(kind, "")


def _unit_fr(unit: str) -> str:
    return {"BP": "PC", "points": "points"}.get(unit, unit)


def _signed(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.1f}"


@register("kingdom", NAME)
class KingdomLookahead(Lookahead):
    kind = "kingdom"
    kinds = ("kingdom",)


@register("nation", NAME)
class NationLookahead(Lookahead):
    kind = "nation"
    kinds = ("nation",)


@register("guild", NAME)
class GuildLookahead(Lookahead):
    kind = "guild"
    kinds = ("guild",)


def ahead(results: list[list[float | None]], ci: int) -> float:
    """How far candidate ``ci`` is ahead of candidate 0 (the heuristic's choice): the sum, over the
    rollouts both played on the same dice, of its score less candidate 0's (a diverged rollout, None,
    counts for neither)."""
    return sum(x - y for x, y in zip(results[ci], results[0], strict=False) if x is not None and y is not None)


def plan_kind(p: Any) -> tuple[Any, ...]:
    """What kind of day a convoy's plan is: its movement (travel by day, by night, with a forced march,
    halting at the next settlement; rest; repair), crew care, kinds of purchase, job change and
    abandoned wagon — not the small differences (forage or scout, how many forced-march hours, how
    many stores). A route or a target is a kind of its own."""
    if not isinstance(p, DayPlan):
        return (str(p),)
    buys = tuple(b.partition(":")[0] if b.startswith(("stores", "repair")) else b for b in p.purchases)
    return (p.move, p.night, p.extra > 0, p.halt, p.double, p.gifts, buys, bool(p.assign), p.abandon)


def paired(results: list[list[float | None]], ci: int) -> tuple[int, int]:
    """(won, lost): the rollouts in which candidate ``ci`` scored more, and less, than candidate 0
    (the heuristic's choice) on the same dice."""
    won = lost = 0
    for x, y in zip(results[ci], results[0], strict=False):
        if x is not None and y is not None:
            won += x > y
            lost += x < y
    return won, lost


def net_needed(rollouts: int) -> int:
    """How many more rollouts a convoy's candidate must win than lose against the heuristic's choice
    to be played instead: half the rollouts (rounded up), at least one."""
    return max(1, (rollouts + 1) // 2)


@register("convoy", NAME)
class ConvoyLookahead(Lookahead):
    """``lookahead`` for a convoy. Its day plans come by the hundred and the heuristic's best few are
    near-copies of each other (forage or scout, one more forced-march hour), whose rollouts differ by
    the dice alone; so the candidates are the heuristic's choice and its best plan of each other
    *kind* of day (:func:`plan_kind`) within ``gap`` points, played to ``horizon`` (ten days: most of
    a journey, so that arrival, HP, cargo and Unrest show). A candidate is played instead of the
    heuristic's choice only when, on the same dice, it scores more in at least :func:`net_needed`
    more rollouts than it scores less (a paired sign test: a one-off disaster in one rollout does not
    carry the decision, and a tie keeps the heuristic's choice); a candidate that can no longer get
    there, or has not won more rollouts than it lost so far (a tie or a loss in the first drops it),
    is not played further."""

    kind = "convoy"
    kinds = ("convoy",)

    def _candidates(self, h: Decision, legal: Sequence[Any], chosen: int, obs: Any = None) -> list[int]:
        assert self.budget is not None
        b = self.budget
        if b.candidates < 2:
            return [chosen]

        if slot_of(obs) == "day" and isinstance(self.heuristic, HeuristicConvoyPolicy) and isinstance(obs, dict):
            totals = DayTerms(obs).totals(legal)  # every plan's score (the decision shows the best few)
            scored = [(i, totals[i]) for i in sorted(range(len(legal)), key=lambda i: (-totals[i], i))]
        else:
            name = labeler(self.kind)
            first: dict[str, int] = {}
            for i, a in enumerate(legal):
                first.setdefault(name(a), i)
            scored = [(first[str(lab)], float(sc)) for lab, sc in h.scored if str(lab) in first]
        if not scored:
            return [chosen]
        best = max(sc for _, sc in scored)
        seen = {plan_kind(legal[chosen])}
        out = [chosen]
        for i, sc in scored:
            if len(out) >= b.candidates or best - sc > b.gap:
                break
            k = plan_kind(legal[i])
            if k not in seen:
                seen.add(k)
                out.append(i)
        return out

    def _still_open(self, results: list[list[float | None]], rounds: int) -> list[int]:
        left = rounds - len(results[0])
        need = net_needed(rounds)
        out = [0]
        for ci in range(1, len(results)):
            if len(results[ci]) == len(results[0]):  # (not dropped already)
                won, lost = paired(results, ci)
                if won > lost and won - lost + left >= need:  # ahead so far, and can still get there
                    out.append(ci)
        return out

    def _choose(self, best_mean: int, means: list[float | None], results: list[list[float | None]],
                rounds: int) -> tuple[int, str]:
        need = net_needed(rounds)
        pick, top = 0, 0.0
        for ci in range(1, len(results)):
            won, lost = paired(results, ci)
            share = (won - lost) / max(1, len(results[ci]))
            if won - lost >= need and share > top:
                pick, top = ci, share
        if pick == 0:
            return 0, (f"no other kind of day beat the heuristic's choice in {need} more paired rollout(s) "
                       f"than it lost")
        won, lost = paired(results, pick)
        return pick, f"beat the heuristic's choice in {won} of {len(results[pick])} paired rollouts (lost {lost})"


__all__ = ["Budget", "Checkpointer", "Lookahead", "RolloutDice", "budget_for", "faction_score", "play"]
