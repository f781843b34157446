"""A PettingZoo environment for outside agents (reinforcement learning, a bot written elsewhere).

Install the optional extra: ``pip install 'realmsim[rl]'`` (PettingZoo and Gymnasium).

    from agents.env import env

    e = env(scenario="caravan-crossing", seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
    e.close()

Each faction (*faction*) of the scenario is an agent, named by its ledger key: ``kingdom:restov``,
``nation:rome``, ``guild:griffon``, ``convoy:amber``. It is the agent's turn when the rules ask that
faction a question (a convoy's day plan, a kingdom's edict slot, a guild's next order, a nation's
slot…): the observation carries an ``action_mask`` over the legal orders of that question, and the
action is an index into them (``info["legal"]`` names each one). Factions left out of
``controlled=`` keep their scenario policies and play inside the campaign.

**Inversion of control.** A campaign is a SimPy run in which the rules call the factions' policies.
The environment runs the campaign in a greenlet (a coroutine with its own stack, ``handoff="greenlet"``,
the default) or in a dedicated thread (``handoff="thread"``), and installs in every controlled agent a
policy that hands the question over to the environment and waits for the answer: exactly one side
runs at any time, so a run is as deterministic as a plain campaign. ``close()`` and a new ``reset()``
stop the campaign (the waiting policy raises an exception that unwinds it) and, for a thread, join it.

**Dice.** ``seed`` (or ``reset(seed=…)``) is the campaign's root seed: the rules' dice are the
:class:`sim.dice.DiceBox` streams derived from it, one per (system, entity). The outside agent draws
no die; its choices only change what the rules then roll for, as any policy's do.

**Observation** (a ``gymnasium.spaces.Dict``, per faction kind; see :func:`feature_names` and
docs/agents.md): ``observation`` (float32 features of what the faction knows of itself: its
``SeasonSummarized`` metrics, its score and score terms, for a convoy the day view its policy sees),
``decision`` (which question is asked; 0 when none is) and ``action_mask`` (int8, 1 for each legal
order of the question, padded to ``max_actions``).

**Reward**: the change of the faction's score (:mod:`sim.scoring`, docs/scoring.md) since the
previous step. An episode ends (``terminated``) at the scenario's end, or is ``truncated`` at
``until``; a convoy that arrived or was destroyed is terminated at once (it will not be asked again).
"""

from __future__ import annotations

import functools
import queue
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as e:  # pragma: no cover - the optional extra is missing
    raise ModuleNotFoundError(
        f"agents.env needs PettingZoo and Gymnasium ({e.name} is missing): pip install 'realmsim[rl]'"
    ) from None

from agents.campaign import finish, prepare_campaign
from agents.guild import order_label as guild_label
from agents.policies import Decision
from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_SEASON, HOURS_PER_YEAR
from sim.rules.km import label
from sim.rules.mn import order_label
from sim.scoring import kinds, score_all, term_labels
from sim.state.cv import CONDITIONS, STATUSES

__all__ = ["env", "raw_env", "RealmEnv", "feature_names", "DECISIONS", "replay_actions", "random_episode", "EnvError"]

MAX_ACTIONS = 8192  # a convoy's day menu is a product (moves × scouts × crew care × purchases × job changes): 1,632 seen

# the questions each kind of faction is asked; index 0: none (not this faction's turn)
DECISIONS: dict[str, tuple[str, ...]] = {
    "kingdom": ("none", "envoy", "claim", "improvement", "building", "taxation", "holiday", "promotion",
                "relation", "special", "balance", "lose_hex"),
    "nation": ("none", "buy", "ambassador", "host", "propose", "consent", "interfere", "interference_sign",
               "obligation", "military", "ransom"),
    "guild": ("none", "order"),
    "convoy": ("none", "day", "route", "target"),
}  # fmt: skip

# the drivers' per-season metrics (SeasonSummarized) of each kind, in a fixed order
METRICS: dict[str, tuple[str, ...]] = {
    "kingdom": ("treasury", "size", "unrest", "economy", "loyalty", "stability", "fame", "infamy", "control_dc",
                "treaties", "trade_routes"),
    "nation": ("treasury", "provinces", "ambassadors", "embassies", "treaties", "imports"),
    "guild": ("solars", "victuals", "notoriety", "domains", "domains_occupied", "domains_besieged", "armies",
              "army_units", "garrison_units", "pool_units"),
    "convoy": ("hp", "unrest", "provisions", "miles"),
}  # fmt: skip

# a convoy's day view (ConvoyAgent.observe): its numeric fields, in a fixed order
CONVOY_VIEW = (
    "max_hp", "morale", "starving", "consumption", "security", "resolve", "day", "village", "gp", "gifts",
    "cargo_free", "extra_dc", "days_left", "next_village_days", "second_village_days", "speed", "risk_today",
    "scouts", "wainwrights", "repair", "margin", "stores_cost", "could_move", "wagons", "drivers", "rested",
)  # fmt: skip


class EnvError(ValueError):
    """A bad argument or action given to the environment (an outside agent's mistake)."""


class _Cancelled(BaseException):
    """Raised in the campaign when the environment is closed or reset (unwinds the run)."""


@functools.cache
def feature_names(kind: str) -> tuple[str, ...]:
    """The name of each entry of the ``observation`` vector of a faction of ``kind``."""
    if kind not in kinds():
        raise EnvError(f"unknown faction kind {kind!r}; expected one of {', '.join(kinds())}")
    names = ["progress"]
    names += [f"metric.{m}" for m in METRICS[kind]]
    names += ["score"] + [f"term.{t}" for t in term_labels()[kind]]
    if kind == "convoy":
        names += [f"status.{s}" for s in STATUSES] + [f"condition.{c}" for c in CONDITIONS]
        names += [f"view.{v}" for v in CONVOY_VIEW]
    return tuple(names)


def parse_until(until: int | str | None) -> int | None:
    """``until`` as hours: an int is hours; a string is a season number (``"3"``) or a count of days,
    months, seasons or years (``"45d"``, ``"2m"``, ``"1s"``, ``"1y"``), as ``realmsim run --until``."""
    if until is None or isinstance(until, int):
        return until
    units = {"d": HOURS_PER_DAY, "m": HOURS_PER_MONTH, "s": HOURS_PER_SEASON, "y": HOURS_PER_YEAR}
    t = str(until).strip().lower()
    unit = units.get(t[-1:])
    num = t[:-1] if unit else t
    if not num.isdigit():
        raise EnvError(f"until={until!r}: expected hours (an int), a season number (e.g. '3') or a count with "
                       "d, m, s or y (e.g. '45d')")
    return int(num) * (unit or HOURS_PER_SEASON)


# ---- the campaign side -------------------------------------------------------------------------------
def _build_model(scenario: str, seed: int | None, overrides: Mapping[str, Any]) -> Any:
    """The one place the environment builds a campaign (``RealmModel``): a scenario name or file, a seed
    (None: the scenario's), config overrides (``{"cv.fatigued_penalty": 3}``)."""
    return prepare_campaign(scenario, seed, overrides=dict(overrides) or None, collect=False)


def _labeler(kind: str) -> Callable[[Any], str]:
    """How the ledger names an alternative of this kind (the same labels as ``DecisionMade``)."""
    if kind == "kingdom":
        return label
    if kind == "nation":
        return order_label
    if kind == "guild":
        return guild_label
    return lambda o: o.label() if callable(getattr(o, "label", None)) else str(o)


def _decision_of(obs: Any) -> str:
    """Which question a policy's observation is about."""
    if isinstance(obs, dict):
        return str(obs.get("decision", "none"))
    slot = getattr(obs, "slot", None)
    return "order" if slot is None else str(slot)


class _HandOff:
    """The policy the environment installs in a controlled agent: each question goes to ``ask``."""

    name = "env"

    def __init__(self, key: str, ask: Callable[[str, Any, Sequence[Any]], int]) -> None:
        self.key = key
        self.ask = ask

    def decide(self, obs: Any, legal: Sequence[Any], rng: Any) -> Decision:
        i = self.ask(self.key, obs, legal)
        return Decision(legal[i], [], "outside agent")


def _controlled_keys(model: Any, controlled: Iterable[str] | None) -> list[str]:
    """The factions the environment plays: all factions with a score, or those named (checked)."""
    keys = sorted(score_all(model.world))
    if controlled is None:
        return keys
    want = list(dict.fromkeys(controlled))
    bad = [k for k in want if k not in keys]
    if bad:
        raise EnvError(f"controlled={bad!r}: no such faction in {model.world.scenario!r}; "
                       f"expected some of {', '.join(keys)}")
    if not want:
        raise EnvError("controlled=[]: the environment needs at least one faction to play")
    return sorted(want)


def _install(model: Any, keys: Sequence[str], ask: Callable[[str, Any, Sequence[Any]], int]) -> None:
    for key in keys:
        agent = model.by_key.get(key)
        if agent is None:
            raise EnvError(f"{key}: the campaign has no agent for this faction")
        agent.policy = _HandOff(key, ask)
        agent.policy_name = "env"


class _GreenletCampaign:
    """One campaign run in a greenlet (a coroutine with its own stack): at each controlled question it
    switches back to the environment, which switches in again with the answer. No thread, no
    scheduler: a hand-off costs about a microsecond."""

    def __init__(self, model: Any, keys: Sequence[str], until: int | None) -> None:
        import greenlet

        self.model = model
        self.until = until
        _install(model, keys, self._ask)
        self.glet = greenlet.greenlet(self._main)

    @property
    def alive(self) -> bool:
        return not self.glet.dead

    def _ask(self, key: str, obs: Any, legal: Sequence[Any]) -> int:
        parent = self.glet.parent
        assert parent is not None
        answer = parent.switch(("ask", (key, obs, list(legal))))
        if answer is None:
            raise _Cancelled()
        return int(answer)

    def _main(self) -> tuple[str, Any]:
        try:
            self.model.run(self.until)
        except _Cancelled:
            return ("cancelled", None)
        return ("done", None)

    def next(self, answer: int | None = None) -> tuple[str, Any]:
        """Start or resume the campaign (with ``answer`` to the pending question) and run it to the
        next question (``("ask", (key, obs, legal))``) or its end (``("done", None)``); an exception of
        the campaign is raised here."""
        if self.glet.dead:
            raise EnvError("the campaign is over: reset() the environment to play another")
        out: tuple[str, Any] = self.glet.switch() if not self.glet else self.glet.switch(answer)
        return out

    def stop(self) -> None:
        import greenlet

        if self.glet and not self.glet.dead:  # started and suspended at a question
            try:
                self.glet.switch(None)
            except greenlet.error:  # collected from another thread: greenlet unwinds it itself
                pass


class _ThreadCampaign:
    """One campaign run in its own thread, handing each controlled question to the environment
    through two queues (synchronous: one side runs at a time). Slower than the greenlet (each hand-off
    is two wake-ups of the operating system's scheduler), for where greenlet is not available."""

    def __init__(self, model: Any, keys: Sequence[str], until: int | None) -> None:
        self.model = model
        self.until = until
        self._to_env: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._to_sim: queue.Queue[int | None] = queue.Queue()
        _install(model, keys, self._ask)
        self.thread = threading.Thread(target=self._main, name="realmsim-env-campaign", daemon=True)
        self.started = False

    # the campaign thread
    def _ask(self, key: str, obs: Any, legal: Sequence[Any]) -> int:
        self._to_env.put(("ask", (key, obs, list(legal))))
        answer = self._to_sim.get()
        if answer is None:
            raise _Cancelled()
        return answer

    def _main(self) -> None:
        try:
            self.model.run(self.until)
        except _Cancelled:
            return
        except BaseException as e:  # handed to the environment's thread, which raises it
            self._to_env.put(("error", e))
            return
        self._to_env.put(("done", None))

    # the environment's thread
    def next(self, answer: int | None = None) -> tuple[str, Any]:
        """Start or resume the campaign (with ``answer`` to the pending question) and wait for the
        next question (``("ask", (key, obs, legal))``) or the end (``("done", None)``)."""
        if self.started and not self.thread.is_alive():
            raise EnvError("the campaign is over: reset() the environment to play another")
        if not self.started:
            self.started = True
            self.thread.start()
        else:
            self._to_sim.put(answer)
        kind, payload = self._to_env.get()
        if kind == "error":
            self.thread.join()
            raise payload
        if kind == "done":
            self.thread.join()
        return kind, payload

    @property
    def alive(self) -> bool:
        return self.thread.is_alive()

    def stop(self) -> None:
        if self.started and self.thread.is_alive():
            self._to_sim.put(None)
            self.thread.join()


def replay_actions(
    scenario: str, seed: int | None, actions: Iterable[tuple[str, int]], *, controlled: Iterable[str] | None = None,
    until: int | str | None = None, **overrides: Any,
) -> Any:
    """Run a campaign in this thread, the controlled factions answering from ``actions`` (the
    ``(agent, action)`` pairs of an episode, in order): the same campaign as the environment's, without
    it. Returns the :class:`agents.campaign.CampaignResult`."""
    model = _build_model(scenario, seed, overrides)
    keys = _controlled_keys(model, controlled)
    script = list(actions)
    pos = 0

    def ask(key: str, obs: Any, legal: Sequence[Any]) -> int:
        nonlocal pos
        if pos >= len(script):
            raise EnvError(f"replay: {key} asked a {_decision_of(obs)!r} question after the {len(script)} actions")
        who, action = script[pos]
        if who != key:
            raise EnvError(f"replay: action {pos} is {who}'s but the rules asked {key}")
        pos += 1
        return int(action)

    _install(model, keys, ask)
    model.run(parse_until(until))
    return finish(model)


# ---- the environment ---------------------------------------------------------------------------------
class RealmEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (build it with :func:`env`, or :func:`raw_env` without wrappers)."""

    metadata = {"name": "realmsim_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self, scenario: str = "caravan-crossing", seed: int | None = None, *, controlled: Iterable[str] | None = None,
        until: int | str | None = None, max_actions: int = MAX_ACTIONS, render_mode: str | None = None,
        handoff: str = "greenlet", overrides: Mapping[str, Any] | None = None, **more_overrides: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise EnvError(f"render_mode={render_mode!r}: expected None or 'ansi'")
        if max_actions < 2:
            raise EnvError(f"max_actions={max_actions}: expected at least 2")
        if handoff not in ("greenlet", "thread"):
            raise EnvError(f"handoff={handoff!r}: expected 'greenlet' or 'thread'")
        self.scenario = scenario
        self.seed = seed
        self.until = parse_until(until)
        self.max_actions = int(max_actions)
        self.render_mode = render_mode
        self.overrides = {**(overrides or {}), **more_overrides}
        self._controlled = None if controlled is None else list(controlled)
        # the factions and their spaces, from a campaign built once (not run)
        probe = _build_model(scenario, seed, self.overrides)
        self.possible_agents: list[str] = _controlled_keys(probe, self._controlled)
        self._kinds = {a: a.partition(":")[0] for a in self.possible_agents}
        self.observation_spaces = {a: self._obs_space(self._kinds[a]) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.handoff = handoff
        self._campaign: _GreenletCampaign | _ThreadCampaign | None = None
        self.model: Any = None
        self.agents: list[str] = []
        self._pending: tuple[str, str, list[Any], Any] | None = None  # (agent, decision, legal, policy's obs)
        self._scores: dict[str, float] = {}
        self._metrics: dict[str, dict[str, Any]] | None = None
        self._score_objs: dict[str, Any] = {}
        self._finalizer: weakref.finalize | None = None

    def _obs_space(self, kind: str) -> spaces.Dict:
        n = len(feature_names(kind))
        return spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape=(n,), dtype=np.float32),
            "decision": spaces.Discrete(len(DECISIONS[kind])),
            "action_mask": spaces.Box(0, 1, shape=(self.max_actions,), dtype=np.int8),
        })  # fmt: skip

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # ---- episodes -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.close()
        if seed is not None:
            self.seed = int(seed)
        self.model = _build_model(self.scenario, self.seed, self.overrides)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._scores = self._score_now()
        maker = _GreenletCampaign if self.handoff == "greenlet" else _ThreadCampaign
        self._campaign = maker(self.model, self.agents, self.until)
        # an environment dropped without close() still stops its campaign when collected
        self._finalizer = weakref.finalize(self, self._campaign.stop)
        self.agent_selection = self.agents[0]
        self._advance(None)
        # the first question's reward baseline: what happened before it is no one's doing
        for a in self.agents:
            self.rewards[a] = 0.0
            self._cumulative_rewards[a] = 0.0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._pending is None or self._pending[0] != agent:
            raise EnvError(f"{agent}: step() called when the rules ask no question of this faction")
        legal = self._pending[2]
        if action is None:
            raise EnvError(f"{agent}: expected an action index, found None")
        try:
            i = int(action)
        except (TypeError, ValueError):
            raise EnvError(f"{agent}: expected an action index (an int), found {action!r}") from None
        if not 0 <= i < len(legal):
            raise EnvError(f"{agent}: action {i} is not a legal order: the {self._pending[1]!r} question has "
                           f"{len(legal)} legal order(s), indices 0..{len(legal) - 1} (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self._advance(i)

    def _advance(self, answer: int | None) -> None:
        """Resume the campaign until the next question to a controlled faction, or its end."""
        assert self._campaign is not None
        for a in self.agents:
            self.infos[a] = {}
        try:
            kind, payload = self._campaign.next(answer)
        except BaseException:
            self.close()  # the campaign failed (its exception is raised here): nothing waits any more
            raise
        scores = self._score_now()
        for a in self.agents:
            self.rewards[a] = float(round(scores[a] - self._scores[a], 2))
        self._scores = scores
        if kind == "done":
            self._pending = None

            finish(self.model)  # CampaignEnded, at the scenario's end
            ended = self.model.world.now >= self.model.world.end
            for a in self.agents:
                self.terminations[a] = ended
                self.truncations[a] = not ended
            self._skip_agent_selection = None
            self.agent_selection = self.agents[0]
        else:
            key, obs, legal = payload
            if len(legal) > self.max_actions:
                self.close()
                raise EnvError(f"{key}: the {_decision_of(obs)!r} question has {len(legal)} legal orders, more than "
                               f"max_actions={self.max_actions}: build the environment with a larger max_actions")
            decision = _decision_of(obs)
            self._pending = (key, decision, legal, obs)
            label = _labeler(self._kinds[key])
            self.infos[key] = {"decision": decision, "legal": [label(o) for o in legal], "hour": int(self.model.world.now)}
            for a in self.agents:
                if a != key and self._out(a):
                    self.terminations[a] = True
            self.agent_selection = key
            self._deads_step_first()
        self._accumulate_rewards()

    def _out(self, agent: str) -> bool:
        """A faction the rules will never ask again (a convoy that arrived or was destroyed)."""
        if self._kinds[agent] != "convoy":
            return False
        cv = self.model.world.cv
        return cv is not None and cv.convoy(agent.partition(":")[2]).status != "travelling"

    def _score_now(self) -> dict[str, float]:
        self._metrics = None  # the world moved: observations are computed afresh
        self._score_objs = score_all(self.model.world)
        return {k: s.total for k, s in self._score_objs.items() if k in self._kinds}

    def _snapshot(self) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        """Every faction's season metrics (computed at the first observation of a pause: the world does
        not change while the campaign waits for an answer) and its score (computed for the rewards)."""
        if self._metrics is None:
            self._metrics = self.model.season_metrics()
        return self._metrics, self._score_objs

    # ---- what an agent sees ---------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        kind = self._kinds[agent]
        mask = np.zeros(self.max_actions, dtype=np.int8)
        decision = 0
        if self._pending is not None and self._pending[0] == agent:
            mask[: len(self._pending[2])] = 1
            names = DECISIONS[kind]
            decision = names.index(self._pending[1]) if self._pending[1] in names else 0
        return {"observation": self._features(agent, kind), "decision": decision, "action_mask": mask}

    def _features(self, agent: str, kind: str) -> np.ndarray:
        w = self.model.world
        vals: list[float] = [w.now / w.end if w.end else 1.0]
        rows, scores = self._snapshot()
        row = rows.get(agent, {})
        vals += [_num(row.get(m, 0)) for m in METRICS[kind]]
        s = scores.get(agent)
        terms = s.terms_dict() if s is not None else {}
        vals.append(s.total if s is not None else 0.0)
        vals += [_num(terms.get(t, 0.0)) for t in term_labels()[kind]]
        if kind == "convoy":
            c = w.cv.convoy(agent.partition(":")[2])
            vals += [float(c.status == st) for st in STATUSES] + [float(c.condition == cd) for cd in CONDITIONS]
            view = self.model.by_key[agent].observe("day", {}) if c.status == "travelling" else {}
            vals += [_num(view.get(v, 0)) for v in CONVOY_VIEW]
        return np.asarray(vals, dtype=np.float32)

    def decision_context(self, agent: str) -> tuple[str, Any, list[Any]] | None:
        """The pending question of ``agent``, as its scenario policy would see it: ``(decision, the
        policy's observation object, the legal orders)`` — for a bot that wants more than the vectors
        (read only: the world must not be changed). None when the rules ask it nothing now."""
        if self._pending is None or self._pending[0] != agent:
            return None
        return self._pending[1], self._pending[3], self._pending[2]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.model is None:
            return None
        w = self.model.world
        lines = [f"{w.scenario} seed {w.seed} hour {w.now}/{w.end}"]
        for a in self.agents:
            lines.append(f"  {a}: score {self._scores.get(a, 0.0)}" + ("  <- to play" if a == self.agent_selection else ""))
        return "\n".join(lines)

    def close(self) -> None:
        """Stop the campaign (if one is under way) and wait for it to unwind."""
        if self._finalizer is not None:
            self._finalizer()  # the campaign's stop(), once; the finalizer lets go of the campaign
            self._finalizer = None
        self._campaign = None
        self._pending = None

    def state(self) -> np.ndarray:
        raise NotImplementedError("realmsim has no global state vector: each faction sees its own")


def _num(v: Any) -> float:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int | float):
        return float(v)
    return 0.0


def random_episode(e: Any, seed: int | None = None, rng_seed: int = 0) -> list[tuple[str, int]]:
    """Play one episode of ``e`` with uniformly random legal actions (numpy's generator of
    ``rng_seed``); the (agent, action) pairs played, in order (what ``replay_actions`` replays)."""
    import numpy as np

    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    played: list[tuple[str, int]] = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        played.append((agent, a))
        e.step(a)
    return played


def raw_env(scenario: str = "caravan-crossing", seed: int | None = None, **kwargs: Any) -> RealmEnv:
    """The environment without PettingZoo's wrappers."""
    return RealmEnv(scenario, seed, **kwargs)


def env(scenario: str = "caravan-crossing", seed: int | None = None, **kwargs: Any) -> Any:
    """The environment, wrapped as PettingZoo environments are (actions checked in bounds, order of
    calls enforced). ``kwargs``: ``controlled``, ``until``, ``max_actions``, ``render_mode``, config
    overrides (``overrides={"cv.fatigued_penalty": 3}`` or ``**{"cv.fatigued_penalty": 3}``)."""
    e: Any = raw_env(scenario, seed, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
