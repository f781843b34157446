"""Mare Nostrum (MN): Acclamation and the end of the turn (5, 6), and the whole turn (SC-MN-03)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from sim.config import MnConfig
from sim.dice import Dice, DiceSource
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.orders import Decider, ScriptedDecider
from sim.rules.mn.embassies import close_embassy, end_treaty, importable, produced, return_if_due, send_home
from sim.rules.mn.hooks import NO_HOOKS, MnHooks
from sim.rules.mn.legality import check, legal_orders
from sim.rules.mn.lookups import emit, get_treaty, in_contact, is_acclamation_turn, nkey, pay
from sim.rules.mn.military import (
    apply_scripted,
    resolve_break,
    resolve_declare_war,
    resolve_honour,
    resolve_raise_army,
)
from sim.rules.mn.missions import resolve_buy, resolve_launch, resolve_recall, resolve_renew
from sim.rules.mn.negotiation import (
    InterferenceContext,
    abort_if_cut,
    arriving_missions,
    needs_host,
    resolve_host_choice,
    resolve_sign,
    resolve_test,
)
from sim.rules.mn.orders import (
    BreakTreaty,
    BuyAmbassador,
    DeclareWar,
    HonourPact,
    HostChoice,
    LaunchMission,
    Order,
    PayRansom,
    RaiseArmy,
    Recall,
    RenewTreaty,
    SignTreaty,
    order_label,
)
from sim.state.mn import MnWorld
from sim.world import World

__all__ = [
    "resolve_ransom",
    "income_of",
    "end_of_turn",
    "given",
    "play",
    "resolve_turn",
]


# ---- Acclamation and the end of the turn ------------------------------------------------------------
def resolve_ransom(mn: MnWorld, nation: str, order: PayRansom, ledger: Ledger, cfg: MnConfig) -> None:
    """Phase (5): pay a ransom in an Acclamation phase (MN-OUT-04, RES-MN-14, RES-MN-04); he goes home."""
    amb = mn.ambassadors.get(order.ambassador)
    if amb is None or amb.nation != nation or amb.state != "imprisoned":
        raise IllegalOrderError("RES-MN-14", f"{order.ambassador!r} is not an imprisoned ambassador of {nation}", order=order,
                                actor=nkey(nation))
    if not is_acclamation_turn(mn, cfg):
        raise IllegalOrderError("RES-MN-14", f"a ransom is paid in the Acclamation phase (turn {mn.turn} has none)", order=order,
                                actor=nkey(nation))
    pay(mn, nation, amb.ransom, "RES-MN-14", "the ransom", order)
    if amb.ransom_to is not None:
        mn.nations[amb.ransom_to].treasury += amb.ransom
    mn.stats.ransoms_paid += 1
    city = amb.city or ""
    emit(ledger, "RansomPaid", nkey(nation), ("MN-OUT-04", "RES-MN-14", "SC-MN-09") + (("RES-MN-04", "MN-HOST-01") if amb.ransom_to else ()),
          total=amb.ransom, outcome="freed", ambassador=amb.id, ransom=amb.ransom, to=amb.ransom_to, city=city,
          treasury=mn.nations[nation].treasury)
    amb.ransom = 0
    amb.ransom_to = None
    send_home(mn, cfg, ledger, amb, mn.cities[city].province, ("RES-MN-14",), "ransomed")


def income_of(mn: MnWorld, cfg: MnConfig, nation: str) -> tuple[int, list[str], list[str]]:
    """SC-MN-06: (income, resource types, monopolies) of a nation now."""
    n = mn.nations[nation]
    own = produced(mn, nation) | importable(mn, nation)
    others: set[str] = set()
    for o in mn.nations:
        if o != nation:
            others |= produced(mn, o) | importable(mn, o)
    mono = sorted(r for r in own if r not in others)
    total = cfg.province_income_po * len(n.provinces) + cfg.resource_income_po * (len(own) + len(mono))
    return total, sorted(own), mono


def end_of_turn(mn: MnWorld, dice_for: Callable[[str], Dice], ledger: Ledger, cfg: MnConfig) -> None:
    """Phase (6): income (SC-MN-06), then expiring treaties and embassies end (SC-MN-04, RES-MN-13),
    then pacts whose obligation ran out are broken (RES-MN-06)."""
    for nid in sorted(mn.nations):
        amount, types, mono = income_of(mn, cfg, nid)
        mn.nations[nid].treasury += amount
        mn.stats.income_po += amount
        emit(ledger, "IncomeCollected", nkey(nid), ("SC-MN-06", "RES-MN-05"), total=amount, outcome=str(amount),
              provinces=len(mn.nations[nid].provinces), resources=types, monopolies=mono, treasury=mn.nations[nid].treasury)
    for t in sorted(mn.treaties, key=lambda t: t.id):
        if t.last_turn is not None and t.last_turn <= mn.turn and t in mn.treaties:
            end_treaty(mn, ledger, t, "expired", ("SC-MN-04", "MN-OUT-02"))
    for e in sorted(mn.embassies, key=lambda e: e.id):
        if e.last_turn is not None and e.last_turn <= mn.turn and e in mn.embassies:
            close_embassy(mn, cfg, ledger, e, "expired", ("RES-MN-13", "SC-MN-04"))
    for ob in sorted(mn.obligations, key=lambda o: o.id):
        if ob.status == "open" and ob.deadline_turn <= mn.turn:
            if get_treaty(mn, ob.pact) is None:
                ob.status = "lapsed"
                continue
            resolve_break(mn, ob.nation, BreakTreaty(ob.pact), dice_for(ob.nation), ledger, cfg, overdue=ob)
    mn.obligations = [o for o in mn.obligations if o.status == "open"]


# ---- the whole turn (SC-MN-03) ----------------------------------------------------------------------
class _AskedInterference:
    """The interference choices of a diplomacy test (RES-MN-16), asked of the nations through the turn's
    :class:`~sim.orders.Decider`."""

    def __init__(self, ask: Callable[..., Order]) -> None:
        self.ask = ask

    def interfere(self, nation: str, ctx: InterferenceContext) -> bool:
        o = self.ask(nation, "interfere", subject=ctx, clauses=("MN-INT-01", "RES-MN-16"))
        return bool(getattr(o, "yes", False))

    def sign(self, nation: str, ctx: InterferenceContext, d20: int) -> int:
        o = self.ask(nation, "interference_sign", subject=ctx, clauses=("MN-INT-01", "RES-MN-16"), d20=d20)
        return int(getattr(o, "sign", 1))


def resolve_turn(world: World, turn: int, decider: Decider, dice: DiceSource, ledger: Ledger, *,
                 hooks: MnHooks = NO_HOOKS) -> None:
    """Play MN turn ``turn`` (SC-MN-03), nations in ascending id in every phase:

    1. special-units construction — ambassadors bought;
    2. return trips end, then missions launched, renewed, ambassadors recalled;
    3. diplomacy — arriving missions (host choices; tests with interference), then treaties between
       players in contact;
    4. military phase — scenario wars, peace and invasions, pact obligations, breaks, wars declared,
       armies raised (purchase step);
    5. Acclamation (*Phase d'Acclamation*), in the last turn of each year — ransoms;
    6. end of turn — income, expiries, overdue pact obligations.

    Every choice of a nation is one question to ``decider`` (actor ``nation:<id>``, decision the slot of
    :func:`legal_orders`, context ``subject``, the slot's details, ``clauses`` and ``label``); a slot
    with one legal order is not asked. Each answer is checked (:func:`check`), then resolved. Dice:
    ``dice.stream("mn", "ambassador:<id>")`` for a diplomacy test, ``("mn", "nation:<id>")`` for a pact
    broken. ``hooks``: the links of a combined campaign (LINK-03, LINK-06), built by ``sim.rules.links``.
    """
    mn = world.mn_state()
    cfg = world.config.mn
    led = ledger
    mn.turn = turn
    accl = is_acclamation_turn(mn, cfg)
    led.emit("mn", "TurnBegan", "world", ("SC-MN-03", "SC-MN-08"), outcome=str(turn), turn=turn,
             year=(turn + mn.first_turn_in_year - 2) // cfg.turns_per_year + 1, acclamation=accl)
    nations = sorted(mn.nations)
    # --- LINK hooks: one treasury in BP for a faction that is both a kingdom and a nation (LINK-03),
    # settled after every order; armies raised become GW armies of this campaign (LINK-06)
    money = hooks.treasury(world, led) if hooks.treasury is not None else None
    hook = hooks.army(world, led, money) if hooks.army is not None else None

    def settle(what: str) -> None:
        if money is not None:
            money.settle(what)

    def ask(nation: str, slot: str, *, subject: object = None, clauses: tuple[str, ...] = (), **extra: object) -> Order:
        legal = legal_orders(world, nation, slot=slot, subject=subject)
        if len(legal) == 1:
            return legal[0]
        o = decider.decide(nkey(nation), slot, legal, {"subject": subject, **extra, "clauses": clauses, "label": order_label})
        check(world, nation, o)
        return o

    # (1) special-units construction: ambassadors bought
    for nid in nations:
        for _ in range(4):
            o = ask(nid, "buy", clauses=("RES-MN-01", "SC-MN-03"))
            if not isinstance(o, BuyAmbassador):
                break
            resolve_buy(mn, nid, o, led, cfg)
            settle("ambassador bought")

    # (2) return trips end, then missions launched, renewed, recalls
    for amb_id in list(mn.ambassadors):
        if mn.ambassadors[amb_id].state == "travelling":
            return_if_due(mn, mn.ambassadors[amb_id], led)
    for nid in nations:
        for amb in [a for a in mn.ambassadors.values() if a.nation == nid and a.state in ("home", "at_post")]:
            if amb.state not in ("home", "at_post"):
                continue  # changed by an earlier order of this phase
            o = ask(nid, "ambassador", subject=amb, clauses=("RES-MN-17", "MN-MIS-02"))
            if isinstance(o, LaunchMission):
                resolve_launch(mn, nid, o, led, cfg)
                settle("mission")
            elif isinstance(o, RenewTreaty):
                resolve_renew(mn, nid, o, led, cfg)
                settle("renewal")
            elif isinstance(o, Recall):
                resolve_recall(mn, nid, o, led, cfg)

    # (3) diplomacy: arriving missions in ascending player id (a host's choice or the diplomacy test),
    # then treaties between players in contact
    chooser = _AskedInterference(ask)
    for m in arriving_missions(mn):
        if m not in mn.missions or abort_if_cut(mn, cfg, led, m):
            continue
        host = needs_host(mn, m)
        if host is not None:
            order = ask(host, "host", subject=m, clauses=("MN-HOST-01", "RES-MN-04"), sender=m.nation)
            assert isinstance(order, HostChoice)
            resolve_host_choice(mn, host, order, led, cfg)
        else:
            resolve_test(mn, m, dice.stream("mn", f"ambassador:{m.ambassador}"), led, cfg, chooser)
    for nid in nations:
        for partner in sorted(mn.nations):
            if partner == nid or not in_contact(mn, nid, partner):
                continue
            o = ask(nid, "propose", subject=partner, clauses=("MN-HOST-02", "RES-MN-04"))
            if isinstance(o, SignTreaty):
                c = ask(partner, "consent", subject=nid, clauses=("MN-HOST-02", "RES-MN-04"), kind=o.kind)
                resolve_sign(mn, nid, o, led, cfg, consent=bool(getattr(c, "agree", False)))

    # (4) military phase: scenario actions, obligations, breaks and wars, armies raised
    for ev in mn.script:
        if ev.turn == turn:
            apply_scripted(mn, ev, led, cfg)
    for nid in nations:
        nd = dice.stream("mn", nkey(nid))
        for ob in sorted((o for o in mn.obligations if o.nation == nid and o.status == "open"), key=lambda o: o.id):
            if ob.status != "open":
                continue
            o = ask(nid, "obligation", subject=ob, clauses=("MN-TRE-07", "RES-MN-06"))
            if isinstance(o, HonourPact):
                resolve_honour(mn, nid, o, led, cfg, hook=hook)
            elif isinstance(o, BreakTreaty):
                resolve_break(mn, nid, o, nd, led, cfg)
        o = ask(nid, "military", clauses=("RES-MN-17", "SC-MN-05", "SC-MN-10"))
        if isinstance(o, BreakTreaty):
            resolve_break(mn, nid, o, nd, led, cfg)
        elif isinstance(o, DeclareWar):
            resolve_declare_war(mn, nkey(nid), o, led, cfg)
        elif isinstance(o, RaiseArmy):
            resolve_raise_army(mn, nid, o, led, cfg, hook=hook)

    # (5) Acclamation phase: ransoms
    if accl:
        led.emit("mn", "AcclamationPhase", "world", ("SC-MN-09", "RES-MN-14"), outcome=str(turn), turn=turn)
        for nid in nations:
            for amb in [a for a in mn.ambassadors.values() if a.nation == nid and a.state == "imprisoned"]:
                o = ask(nid, "ransom", subject=amb, clauses=("RES-MN-14", "MN-OUT-04"))
                if isinstance(o, PayRansom):
                    resolve_ransom(mn, nid, o, led, cfg)
                    settle("ransom")

    # (6) end of turn: income, expiries, overdue obligations
    end_of_turn(mn, lambda nid: dice.stream("mn", nkey(nid)), led, cfg)
    settle("income")


def play(world: World, decider: Decider, dice: DiceSource, ledger: Ledger, hooks: MnHooks | None = None) -> None:
    """The Mare Nostrum turn in the signature every system shares (``sim.system.RuleSystem.play``): the
    next turn (``mn.turn + 1``, :func:`resolve_turn`); ``hooks`` None: Mare Nostrum alone."""
    resolve_turn(world, world.mn_state().turn + 1, decider, dice, ledger, hooks=NO_HOOKS if hooks is None else hooks)


def given(script: Mapping[str, Sequence[Order]]) -> ScriptedDecider:
    """A decider that gives each nation (by actor key, ``nation:<id>``) its answers in the order the turn
    asks them (a slot with one legal order is not asked), and the first legal order (``Pass``, accept,
    no interference…) to any question it was not given an answer for: the turn of a test, a worked
    example or a game master's table."""
    return ScriptedDecider(script, default="first")
