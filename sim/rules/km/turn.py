"""The kingdom month (SC-KM-08, RES-KM-39): ``resolve_month`` plays Upkeep, Edict, Income and Event
for every kingdom, asking each kingdom's questions through a ``sim.orders.Decider``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sim.errors import IllegalOrderError, Problem, RulesError, ScenarioError
from sim.events import Ledger
from sim.orders import Decider, ScriptedDecider, plays_for, tell_joined
from sim.rules.km.exploration import run_expeditions
from sim.rules.km.hooks import NO_HOOKS, KmHooks
from sim.rules.km.income_event import event_roll, income
from sim.rules.km.legality import legal_orders, resolve_special
from sim.rules.km.ordinary import (
    abandon_hex,
    build_improvement,
    buy_district,
    claim_hex,
    construct,
    found_settlement,
    limits,
    set_edicts,
    size_milestones,
)
from sim.rules.km.relations import build_embassy, resolve_event, resolve_relation_order
from sim.rules.km.statistics import Stats, stats
from sim.rules.km.tables import SYS, actor
from sim.rules.km.trade import trade_arrivals
from sim.rules.km.upkeep_phase import default_hex_to_lose, sheet, start_turn, upkeep
from sim.state.km import (
    BuildOrder,
    DiplomaticEdict,
    EmbassyBuildingOrder,
    ExplorationEdict,
    ImprovementOrder,
    Kingdom,
    RelationOrder,
    TradeEdict,
    TurnOrders,
    VassalageEdict,
)

if TYPE_CHECKING:
    from sim.dice import Dice, DiceSource
    from sim.world import World


__all__ = [
    "CONTEXT_KEYS",
    "OnError",
    "ScriptedOrderError",
    "apply_orders",
    "begin_edict_phase",
    "build_slots",
    "edict_phase",
    "end_edict_phase",
    "event_phase",
    "given",
    "income_phase",
    "label",
    "no_edicts_in_anarchy",
    "play",
    "resolve_month",
]


# =================================================================================================
# The Edict phase (SC-KM-13, KM-GEN-02, RES-KM-39)
# =================================================================================================

OnError = Callable[[str, RulesError], None]


def no_edicts_in_anarchy(world: World, kid: str, ledger: Ledger) -> bool:
    """SC-KM-07: a kingdom in anarchy issues no edicts this turn (``NoEdictsInAnarchy``, the one place
    it is emitted, for scripted and policy kingdoms alike). Returns whether it is in anarchy."""
    if not world.km_state().kingdoms[kid].anarchy:
        return False
    ledger.emit(SYS, "NoEdictsInAnarchy", actor(kid), ("SC-KM-07",), outcome="no edicts")
    return True


def begin_edict_phase(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-20: merchants arriving this turn make their checks at the start of the Edict phase."""
    trade_arrivals(world, kid, dice, ledger)


def apply_orders(
    world: World, kid: str, o: TurnOrders, dice: Dice, ledger: Ledger, on_error: OnError, *, now: int = 0,
    hooks: KmHooks = NO_HOOKS,
) -> None:
    """Resolve one set of turn orders in SC-KM-13 order; each item that breaks a rule is passed to
    ``on_error(path, error)`` (which logs and skips it, or raises) and the rest go on."""
    km = world.km_state()
    k = km.kingdoms[kid]

    def attempt(path: str, fn: Callable[..., object], *args: object) -> None:
        try:
            fn(*args)
        except RulesError as e:
            on_error(path, e)

    for i, t in enumerate(o.recall):
        attempt(f"recall[{i}]", _envoy_hook(hooks.recall_envoy, kid), world, kid, t, ledger)
    for i, t in enumerate(o.envoys):
        attempt(f"envoys[{i}]", _envoy_hook(hooks.send_envoy, kid), world, kid, t, now, ledger)
    for i, h in enumerate(o.abandon):
        attempt(f"abandon[{i}]", abandon_hex, world, kid, h, ledger)
    for i, h in enumerate(o.claims):
        attempt(f"claims[{i}]", claim_hex, world, kid, h, ledger)
    for i, im in enumerate(o.improvements):
        attempt(f"improvements[{i}]", build_improvement, world, kid, im.hex, im.kind, ledger)
    for i, f in enumerate(o.settlements):
        attempt(f"settlements[{i}]", found_settlement, world, kid, f.hex, f.name, ledger)
    for i, d in enumerate(o.districts):
        attempt(f"districts[{i}]", buy_district, world, kid, d, ledger)
    for i, b in enumerate(o.buildings):
        attempt(f"buildings[{i}]", construct, world, kid, b.settlement, b.kind, ledger)
    for i, eb in enumerate(o.embassy_buildings):
        attempt(f"embassy_buildings[{i}]", build_embassy, world, kid, eb, ledger)
    if not no_edicts_in_anarchy(world, kid, ledger):
        attempt(
            "edicts", set_edicts, world, kid, o.holiday or k.holiday, o.promotion or k.promotion, o.taxation or k.taxation, ledger
        )
    for i, ro in enumerate(o.relations):
        attempt(f"relations[{i}]", resolve_relation_order, world, kid, ro, dice, ledger)
    if o.special is not None:
        try:
            resolve_special(world, kid, o.special, dice, ledger, now=now, hooks=hooks)
        except RulesError as e:
            on_error("special", e)


def end_edict_phase(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-42: this turn's month of each expedition, right after the special-edict step."""
    run_expeditions(world, kid, dice, ledger)


def income_phase(world: World, kid: str, o: TurnOrders | None, dice: Dice, ledger: Ledger, on_error: OnError) -> None:
    try:
        income(world, kid, dice, ledger, withdraw_bp=o.withdraw_bp if o else 0, deposit_gp=o.deposit_gp if o else 0)
    except RulesError as e:
        on_error("withdraw_bp", e)
        income(world, kid, dice, ledger)


def event_phase(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    km = world.km_state()
    event_roll(world, kid, dice, ledger)
    for ev in km.events:
        if ev.turn == km.turn and ev.kingdom == kid:
            resolve_event(world, ev, dice, ledger)
    size_milestones(world, kid, ledger)


# =================================================================================================
# The kingdom month: one function for the campaign and the tests (SC-KM-08, RES-KM-39)
# =================================================================================================


class ScriptedOrderError(ScenarioError):
    """A person's scripted order the rules refuse: a ScenarioError naming the order file (or the scenario),
    the order's path, the clause and the reason. Its ``args`` rebuild it, so it survives SimPy re-raising
    an exception from inside a process (``type(e)(*e.args)``)."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        super().__init__(file, problems)
        self._text = Exception.__str__(self)
        self.args = (file, problems)

    def __str__(self) -> str:
        return self._text


def label(o: Any) -> str:
    """A short readable name of an alternative (for the ledger's DecisionMade events)."""
    named = _LABELS.get(type(o))
    if named is not None:
        return named(o)
    if o is None:
        return "nothing"
    if isinstance(o, str):
        return o
    if isinstance(o, tuple):
        return ":".join(str(x) for x in o)
    return str(o)


def _vassalage_label(o: VassalageEdict) -> str:
    what = o.target if o.mode == "subjugation" else f"{len(o.hexes)} hex(es)"
    return f"vassalage {o.mode} {what}, viceroy {o.viceroy}"


# by exact type: a decision labels every alternative, and the build slots have dozens
_LABELS: dict[type, Callable[[Any], str]] = {
    DiplomaticEdict: lambda o: f"diplomatic {o.kind} → {o.target}" + (f" (bribe {o.bribe})" if o.bribe else ""),
    ExplorationEdict: lambda o: f"exploration {o.months} month(s), {len(o.route)} hex(es) from #{o.route[0]}",
    TradeEdict: lambda o: f"trade {o.type} {o.origin} → {o.destination} ({o.partner}), {o.investment} BP",
    VassalageEdict: _vassalage_label,
    BuildOrder: lambda o: f"build {o.kind} in {o.settlement}",
    ImprovementOrder: lambda o: f"{o.kind} on #{o.hex}",
    EmbassyBuildingOrder: lambda o: f"embassy {o.kind} in {o.settlement} ({o.host})",
    RelationOrder: lambda o: f"{o.action} {o.which} with {o.target}",
}

# what a question's context carries besides its extras (``sim.orders.Decider``)
CONTEXT_KEYS = ("clauses", "label", "sheet")


def _ask(decider: Decider, kid: str, slot: str, legal: Sequence[Any], *, clauses: Sequence[str] = (),
         sheet: Stats | None = None, **extra: Any) -> Any:
    """One question to kingdom ``kid`` among ``legal`` (asked only when there is a choice). The
    context: ``clauses``, ``label``, ``sheet`` (the kingdom's statistics, when known to be current) and
    the extras (``proposer``…)."""
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    return decider.decide(actor(kid), slot, legal, {"clauses": clauses, "label": label, "sheet": sheet, **extra})


def _rejecter(world: World, kid: str, ledger: Ledger) -> OnError:
    """A policy's order the rules refused: logged (``OrderRejected``) and skipped."""

    def rejected(path: str, err: RulesError) -> None:
        clause = err.clause if isinstance(err, IllegalOrderError) else ""
        ledger.emit(
            SYS,
            "OrderRejected",
            actor(kid),
            (clause,) if clause else (),
            outcome="skipped",
            path=path,
            reason=getattr(err, "reason", str(err)),
        )
        world.km_state().stats.orders_rejected += 1

    return rejected


def _script_error(world: World, kid: str, orders: TurnOrders) -> OnError:
    """A scripted order the rules refused: the run stops with a ScriptedOrderError naming the file."""
    source = world.km_state().orders_source.get(kid, "orders")

    def fail(path: str, err: RulesError) -> None:
        where = f"{orders.path}.{path}" if orders.path else path
        if isinstance(err, IllegalOrderError):
            raise ScriptedOrderError(source, [Problem(where, f"an order legal under {err.clause}", err.reason)]) from None
        raise ScriptedOrderError(source, [Problem(where, "a valid order", str(err))]) from None

    return fail


def _do(on_error: OnError, path: str, fn: Callable[..., object], *args: Any, **kw: Any) -> bool:
    try:
        fn(*args, **kw)
    except RulesError as e:
        on_error(path, e)
        return False
    return True


def _hex_to_lose(world: World, kid: str, decider: Decider, scripted: bool) -> Callable[[Kingdom], int]:
    """SC-KM-07: the leaders choose which hex is lost to Unrest (a scripted kingdom: the default)."""

    def choose(k: Kingdom) -> int:
        if scripted:
            return default_hex_to_lose(world, k)
        cands = legal_orders(world, kid, slot="lose_hex")
        if len(cands) == 1:
            return int(cands[0])
        return int(_ask(decider, kid, "lose_hex", cands, clauses=("SC-KM-07",)))

    return choose


def build_slots(world: World, kid: str, decider: Decider, ledger: Ledger, on_error: OnError) -> None:
    """Claims, terrain improvements, a district, buildings and embassy buildings, one decision at a
    time (SC-KM-13/17/28): each choice is resolved at once, so the next question sees its effect."""
    k = world.km_state().kingdoms[kid]
    settle, builds, imps, claims = limits(k)
    for i in range(claims):
        opts = legal_orders(world, kid, slot="claim")
        h = _ask(decider, kid, "claim", [None, *opts], clauses=("SC-KM-13", "SC-KM-17"))
        if h is None or not _do(on_error, f"claims[{i}]", claim_hex, world, kid, h, ledger):
            break
    for i in range(imps):
        imp_opts = legal_orders(world, kid, slot="improvement")
        o = _ask(decider, kid, "improvement", [None, *imp_opts], clauses=("SC-KM-32", "SC-KM-17"))
        if o is None or not _do(on_error, f"improvements[{i}]", build_improvement, world, kid, o.hex, o.kind, ledger):
            break
    # an extra district (SC-KM-28) where a settlement runs out of lots: one a turn at most
    dopts = legal_orders(world, kid, slot="district")
    if dopts:
        d = _ask(decider, kid, "district", [None, *dopts], clauses=("SC-KM-28", "SC-KM-04"))
        if d is not None:
            _do(on_error, "districts[0]", buy_district, world, kid, d, ledger)
    n = builds if builds is not None else 25
    for i in range(n + 1):  # +1: the free Mansion/Noble Villa of SC-KM-17
        build_opts = legal_orders(world, kid, slot="building")
        o = _ask(decider, kid, "building", [None, *build_opts], clauses=("SC-KM-28", "SC-KM-31", "SC-KM-17", "KM-REL-03"))
        if o is None:
            break
        if isinstance(o, EmbassyBuildingOrder):
            ok = _do(on_error, f"embassy_buildings[{i}]", build_embassy, world, kid, o, ledger)
        else:
            ok = _do(on_error, f"buildings[{i}]", construct, world, kid, o.settlement, o.kind, ledger)
        if not ok:
            break


def _envoy_hook(hook: Callable[..., object] | None, kid: str) -> Callable[..., object]:
    """An envoy sent or recalled through the links (LINK-05); a kingdom turn played without them sends none."""
    if hook is not None:
        return hook

    def refused(*_: object) -> object:
        raise IllegalOrderError("LINK-05", "no envoy travels in a kingdom turn played without the links' hooks", actor=actor(kid))

    return refused


def _policy_edicts(
    world: World, kid: str, decider: Decider, dice: Dice, ledger: Ledger, *, now: int, hooks: KmHooks,
    scripted: Callable[[str], bool],
) -> None:
    """A policy kingdom's Edict phase, one question at a time in SC-KM-13 order: an envoy (LINK-05),
    claims, improvements, buildings, the Taxation, Holiday and Promotion edicts (SC-KM-14…16), a
    relation order (KM-REL-06/10), the special edict (KM-GEN-02; a treaty or alliance asks its target
    the balance, KM-REL-08). An order the rules refuse is logged (``OrderRejected``) and skipped."""
    km = world.km_state()
    k = km.kingdoms[kid]
    rejected = _rejecter(world, kid, ledger)
    if no_edicts_in_anarchy(world, kid, ledger):
        return
    # envoys (LINK-05)
    pick = _ask(decider, kid, "envoy", [None, *legal_orders(world, kid, slot="envoy", hooks=hooks)],
                clauses=("LINK-05", "KM-DIP-02"))
    if pick is not None:
        _do(rejected, "envoys[0]", _envoy_hook(hooks.send_envoy, kid), world, kid, pick, now, ledger)
    # claims, improvements, buildings (SC-KM-13/17)
    build_slots(world, kid, decider, ledger, rejected)
    # ordinary edicts (SC-KM-14/15/16), then KM-GEN-02's special edict; nothing changes the
    # kingdom between the three choices, so they share one reading of its statistics
    sheet = stats(world, k)
    tax = _ask(decider, kid, "taxation", legal_orders(world, kid, slot="taxation"), clauses=("SC-KM-16",), sheet=sheet)
    hol = _ask(decider, kid, "holiday", legal_orders(world, kid, slot="holiday"), clauses=("SC-KM-14",), sheet=sheet)
    pro = _ask(decider, kid, "promotion", legal_orders(world, kid, slot="promotion"), clauses=("SC-KM-15",), sheet=sheet)
    set_edicts(world, kid, hol, pro, tax, ledger)
    rel = _ask(decider, kid, "relation", [None, *legal_orders(world, kid, slot="relation")],
               clauses=("KM-REL-06", "KM-REL-10", "RES-KM-39"))
    if rel is not None:
        _do(rejected, "relations[0]", resolve_relation_order, world, kid, rel, dice, ledger)
    legal = legal_orders(world, kid, slot="special", hooks=hooks)
    sp = _ask(decider, kid, "special", [None, *legal], clauses=("KM-GEN-01", "KM-GEN-02", "RES-KM-39"))
    if sp is not None:
        if isinstance(sp, DiplomaticEdict) and sp.kind in ("treaty", "alliance") and not scripted(sp.target):
            tb = _ask(decider, sp.target, "balance", legal_orders(world, sp.target, slot="balance"),
                      clauses=("KM-REL-08",), proposer=kid)
            sp = DiplomaticEdict(sp.target, sp.kind, sp.bribe, sp.skill, sp.target_skill, sp.balance, tb)
        _do(rejected, "special", resolve_special, world, kid, sp, dice, ledger, now, hooks=hooks)


def edict_phase(
    world: World, kid: str, decider: Decider, dice: Dice, ledger: Ledger, *, now: int = 0, hooks: KmHooks = NO_HOOKS,
    scripted: Callable[[str], bool] | None = None,
) -> list[TurnOrders]:
    """One kingdom's Edict phase (SC-KM-13, RES-KM-20/42): the merchants arriving, then the scripted
    orders of this turn (a kingdom that ``scripted`` says plays them; an order they refuse raises
    :class:`ScriptedOrderError`) or its policy's answers, then the expeditions' month. Returns the
    scripted orders used (their ``withdraw_bp`` is for the Income phase)."""
    km = world.km_state()
    is_scripted = scripted or _plays_script(world, decider)
    begin_edict_phase(world, kid, dice, ledger)
    used: list[TurnOrders] = []
    if is_scripted(kid):
        for o in km.scripted.get(kid, []):
            if o.turn == km.turn:
                apply_orders(world, kid, o, dice, ledger, _script_error(world, kid, o), now=now, hooks=hooks)
                used.append(o)
        if not used:
            k = km.kingdoms[kid]
            set_edicts(world, kid, k.holiday, k.promotion, k.taxation, ledger)
    else:
        _policy_edicts(world, kid, decider, dice, ledger, now=now, hooks=hooks, scripted=is_scripted)
    end_edict_phase(world, kid, dice, ledger)
    return used


def _plays_script(world: World, decider: Decider) -> Callable[[str], bool]:
    """Which kingdoms play their scripted orders: those the decider does not play (a campaign's
    decider says, ``sim.orders.plays_for``); else those whose policy is ``"scripted"``."""
    km = world.km_state()

    def scripted(kid: str) -> bool:
        played = plays_for(decider, actor(kid))
        if played is not None:
            return not played
        return kid not in km.kingdoms or km.kingdoms[kid].policy == "scripted"

    return scripted


def resolve_month(
    world: World,
    decider: Decider,
    dice: DiceSource,
    ledger: Ledger,
    *,
    turn: int | None = None,
    now: int | None = None,
    hooks: KmHooks = NO_HOOKS,
    scripted: Callable[[str], bool] | None = None,
) -> None:
    """One whole kingdom month (turn ``turn``, default the next one; at hour ``now``, default the
    world's), in SC-KM-08 order, each phase for every kingdom in ascending id before the next phase
    starts (RES-KM-39): the turn's start and sheets, Upkeep (SC-KM-09…12: the hex lost to Unrest is
    asked, ``lose_hex``), Edict (:func:`edict_phase`; after each kingdom's, the construction budgets
    granted to the kingdoms already done are spent, RES-KM-28), Income (SC-KM-18, with LINK-04's
    caravans arriving) and Event (SC-KM-19, RES-KM-35).

    Every choice is a question to ``decider`` (``decide("kingdom:<id>", slot, legal, context)``, the
    slots of :data:`SLOTS`); a kingdom that ``scripted(kid)`` says plays its scenario's orders (default:
    one the decider does not play, ``sim.orders.plays_for``, else one whose policy is ``"scripted"``)
    is asked nothing. ``dice``: a stream per kingdom (``dice.stream("km", "kingdom:<id>")``).
    ``hooks``: what the other systems add (LINK-04/08). After each kingdom's Edict phase the decider is
    told (``sim.orders.tell_joined``), so that what it brought into the world (a new vassal, an envoy,
    a caravan) can be given to a player before the next question."""
    km = world.km_state()
    is_scripted = scripted or _plays_script(world, decider)
    turn = km.turn + 1 if turn is None else turn
    now = world.now if now is None else now

    def d(kid: str) -> Dice:
        return dice.stream(SYS, actor(kid))

    start_turn(world, turn, ledger)
    ids = km.ids()
    for kid in ids:
        sheet(world, kid, ledger)
    # Upkeep (SC-KM-09…12, RES-KM-34)
    for kid in ids:
        upkeep(world, kid, d(kid), ledger, lose_hex=_hex_to_lose(world, kid, decider, is_scripted(kid)), hooks=hooks)
    # Edict (SC-KM-13…17, KM-GEN-02, special edicts)
    used: dict[str, list[TurnOrders]] = {}
    done: list[str] = []
    for kid in ids:
        if kid not in km.kingdoms:
            continue
        used[kid] = edict_phase(world, kid, decider, d(kid), ledger, now=now, hooks=hooks, scripted=is_scripted)
        done.append(kid)
        tell_joined(decider)
        for other in done:  # RES-KM-28: a budget granted after the vassal's own Edict phase
            _spend_budget(world, other, decider, d(other), ledger, is_scripted(other))
    # Income (SC-KM-18) and Event (SC-KM-19, RES-KM-35), kingdoms existing at each phase's start
    for kid in km.ids():
        orders = used.get(kid) or []
        o = orders[0] if orders else None
        on_err = _rejecter(world, kid, ledger)
        if o is not None and is_scripted(kid):
            on_err = _script_error(world, kid, o)
        if hooks.caravan_arrivals is not None:  # --- LINK-04 hook: the checks of the caravans arrived
            hooks.caravan_arrivals(world, kid, d(kid), ledger)
        income_phase(world, kid, o, d(kid), ledger, on_err)
    for kid in km.ids():
        event_phase(world, kid, d(kid), ledger)


def play(world: World, decider: Decider, dice: DiceSource, ledger: Ledger, hooks: KmHooks | None = None) -> None:
    """The kingdoms' turn in the signature every system shares (``sim.system.RuleSystem.play``): the
    next month at the world's hour (:func:`resolve_month`); ``hooks`` None: the kingdoms alone."""
    resolve_month(world, decider, dice, ledger, hooks=NO_HOOKS if hooks is None else hooks)


def given(script: Mapping[str, Sequence[Any]]) -> ScriptedDecider:
    """A decider that gives each kingdom (by actor key, ``kingdom:<id>``) its answers in the order the
    month asks its slots (:data:`SLOTS`: an envoy's target, a hex, a level, an order or ``None``…),
    and the first alternative to any question it was not given an answer for (``None``, nothing,
    where a slot may be left empty): the month of a test, a worked example or a game master's table.
    A kingdom whose policy is ``"scripted"`` plays its scenario's orders and is asked nothing."""
    return ScriptedDecider(script, default="first")


def _spend_budget(world: World, kid: str, decider: Decider, dice: Dice, ledger: Ledger, scripted: bool) -> None:
    """RES-KM-28: a vassal's construction budget granted after its own Edict phase, spent now."""
    km = world.km_state()
    k = km.kingdoms[kid]
    if k.budget_turn != km.turn or k.construction_budget <= 0 or scripted:
        return
    build_slots(world, kid, decider, ledger, _rejecter(world, kid, ledger))
