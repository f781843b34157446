"""GW season: its beginning, phase (7) the end of season, and the turn function ``resolve_season``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from sim.dice import Dice, DiceSource
from sim.events import Ledger
from sim.orders import END, Decider, ScriptedDecider, plays_for
from sim.rules.gw.annex import resolve_annexation_phase
from sim.rules.gw.combat import resolve_army_combats, resolve_domain_attacks
from sim.rules.gw.core import MAX_ORDERS, SYS, loss_order, refresh_statuses, season_at
from sim.rules.gw.deploy import release_army, resolve_deploy_phase, resolve_movement_phase
from sim.rules.gw.hooks import NO_HOOKS, GwHooks
from sim.rules.gw.legality import give_checked_order, give_order
from sim.rules.gw.orders import legal_after, legal_orders
from sim.rules.gw.siege import resolve_siege_phase
from sim.state.gw import AnyOrder, Deposit, Loot
from sim.world import World

__all__ = [
    "PHASE_FUNCTIONS",
    "begin_season",
    "clear_damage",
    "collect_yields",
    "create_loot",
    "give_orders",
    "given",
    "lapse_titles",
    "order_label",
    "pay_upkeep",
    "play",
    "resolve_end_of_season",
    "resolve_season",
    "run_phases",
]


# =================================================================================================
# season bookkeeping
# =================================================================================================


def begin_season(world: World, ledger: Ledger) -> int:
    """Start season ``season_at(now)``: clear the season's orders and counters; hand over the titles
    due this season (GW-ANX-05, RES-GW-25). Returns the season index."""
    gw = world.gw_state()
    s = season_at(world, world.now)
    gw.season = s
    gw.orders = []
    gw.destroyed_on = {}
    gw.sacked = []
    keep: list[Deposit] = []
    for d in gw.bank.deposits:
        if d.annexed_season >= 0 and s >= d.annexed_season + 2:
            dom = gw.domains.get(d.domain)
            if dom is not None:
                dom.title_holder = d.new_owner
            ledger.emit(
                SYS,
                "TitleDelivered",
                f"guild:{dom.owner_guild if dom else d.payer}",
                ("GW-ANX-05", "GW-ANX-06", "RES-GW-25"),
                outcome="original" if d.title_returned else "replacement",
                domain=d.domain,
                holder=d.new_owner,
                annexed_season=d.annexed_season,
            )
        else:
            keep.append(d)
    gw.bank.deposits = keep
    return s


# =================================================================================================
# phase (7): end of season
# =================================================================================================


def create_loot(world: World, dice: Dice, ledger: Ledger) -> list[Loot]:
    """GW-LOOT-02/04, RES-GW-14/16: a hex where ≥ 10 units were destroyed this season gets a loot of
    ``n × 1d6 × CFG.gw.loot_solars_per_unit_pip``; a sack that destroyed ≥ 10 SP gets one with
    ``n`` = SP. Hexes in ascending id, the battle loot before the sacks of that hex."""
    gw = world.gw_state()
    cfg = world.config.gw
    made: list[Loot] = []
    hexes = sorted(set(gw.destroyed_on) | {h for h, _ in gw.sacked})
    for h in hexes:
        sources: list[tuple[str, int, tuple[str, ...]]] = []
        n = gw.destroyed_on.get(h, 0)
        if n >= cfg.loot_min_units:
            sources.append(("battle", n, ("GW-LOOT-01", "GW-LOOT-02", "GW-LOOT-05", "RES-GW-14")))
        for sh, sp in gw.sacked:
            if sh == h and sp >= cfg.sack_loot_min_sp:
                sources.append(("sack", sp, ("GW-LOOT-04", "GW-LOOT-05", "RES-GW-14", "RES-GW-16")))
        for src, n, clauses in sources:
            pip = dice.roll(6)[0]
            value = n * pip * cfg.loot_solars_per_unit_pip
            lt = Loot(gw.next_loot, h, gw.season, value, src, n)
            gw.next_loot += 1
            gw.loot.append(lt)
            made.append(lt)
            gw.stats.loot_created += 1
            gw.stats.loot_solars += value
            ledger.emit(
                SYS, "LootCreated", "world", clauses, dice=[(6, pip)], total=value, outcome=src,
                loot=lt.id, hex=h, units=n, per_pip=cfg.loot_solars_per_unit_pip, targetable_from=gw.season + 1,
            )
    return made


def clear_damage(world: World, ledger: Ledger) -> int:
    """GW-CMB-05, RES-GW-09: leftover damage is discarded at the end of the season's phases."""
    gw = world.gw_state()
    n = 0
    for aid in sorted(gw.armies):
        for u in gw.armies[aid].units:
            if u.damage:
                u.damage = 0
                n += 1
    for did in sorted(gw.domains):
        for u in gw.domains[did].garrison:
            if u.damage:
                u.damage = 0
                n += 1
    if n:
        ledger.emit(SYS, "DamageCleared", "world", ("GW-CMB-05", "RES-GW-09"), total=n, outcome="cleared")
    return n


def lapse_titles(world: World, ledger: Ledger) -> None:
    """GW-ANX-04, RES-GW-24: at the end of A+1 an unreturned title forfeits the compensation to the
    bank and costs the former owner 2 notoriety (SC-GW-12)."""
    gw = world.gw_state()
    cfg = world.config.gw
    for d in gw.bank.deposits:
        if d.annexed_season >= 0 and d.annexed_season + 1 == gw.season and not d.title_returned and d.former_owner:
            gw.bank.held -= d.amount
            gw.bank.kept += d.amount
            d.forfeited = True
            if d.domain in gw.domains:
                gw.domains[d.domain].title_return_season = -1
            g = gw.guilds[d.former_owner]
            before = g.notoriety
            g.notoriety -= cfg.notoriety_penalty
            ledger.emit(
                SYS, "CompensationForfeited", f"guild:{g.id}", ("GW-ANX-04", "RES-GW-24", "SC-GW-10", "SC-GW-12"),
                total=d.amount, outcome="kept by the bank", domain=d.domain, notoriety_before=before, notoriety_after=g.notoriety,
            )


def collect_yields(world: World, ledger: Ledger) -> None:
    """SC-GW-14: every domain neither occupied nor besieged yields solars and victuals to its owner."""
    gw = world.gw_state()
    cfg = world.config.gw
    per: dict[str, list[str]] = {}
    for did in sorted(gw.domains):
        d = gw.domains[did]
        if not d.occupied_by and not d.besieged_by:
            per.setdefault(d.owner_guild, []).append(did)
    for gid in sorted(per):
        g = gw.guilds[gid]
        n = len(per[gid])
        g.solars += n * cfg.domain_solars
        # implements: SC-GW-11
        g.victuals += n * cfg.domain_victuals
        ledger.emit(
            SYS, "YieldCollected", f"guild:{gid}", ("SC-GW-14",), total=n * cfg.domain_solars, outcome="collected",
            domains=per[gid], solars=n * cfg.domain_solars, victuals=n * cfg.domain_victuals,
        )


def pay_upkeep(world: World, ledger: Ledger) -> None:
    """SC-GW-16: 1 solar per unit in a guild's armies; units it cannot pay for leave, lowest loss
    rank first, from the army with the most units (ties: lowest army id). They create no loot."""
    gw = world.gw_state()
    cfg = world.config.gw
    price = cfg.army_upkeep_solars
    for gid in sorted(gw.guilds):
        g = gw.guilds[gid]
        armies = [gw.armies[a] for a in sorted(gw.armies) if gw.armies[a].owner == gid]
        n = sum(len(a.units) for a in armies)
        if n == 0 or price <= 0:
            continue
        payable = min(n, max(g.solars, 0) // price)
        g.solars -= payable * price
        left: list[list[int | str]] = []
        for _ in range(n - payable):
            a = sorted(armies, key=lambda a: (-len(a.units), a.id))[0]
            u = loss_order(a.units, cfg)[0]
            a.units.remove(u)
            left.append([u.id, u.kind, a.id])
        gw.stats.units_unpaid += len(left)
        ledger.emit(
            SYS, "UpkeepPaid", f"guild:{gid}", ("SC-GW-16",), dc=n * price, total=payable * price,
            outcome="paid" if not left else f"{len(left)} units left", units=n, left=left, solars_after=g.solars,
        )
        for a in armies:
            if not a.units and a.id in gw.armies:
                release_army(world, a)
                ledger.emit(SYS, "ArmyDissolved", f"army:{a.id}", ("SC-GW-16", "SC-GW-03"), outcome="dissolved", guild=gid)


def resolve_end_of_season(world: World, dice: Dice, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """Phase (7) of RES-GW-10: war loot, leftover damage cleared, siege/occupation statuses and
    title windows updated; then yields (SC-GW-14) and upkeep (SC-GW-16)."""
    gw = world.gw_state()
    create_loot(world, dice, ledger)
    clear_damage(world, ledger)
    for aid in sorted(gw.armies):
        a = gw.armies[aid]
        if a.siege_short is not None and a.siege_short_season < gw.season:
            a.siege_short = None
            a.siege_short_season = -1
    refresh_statuses(world)
    lapse_titles(world, ledger)
    collect_yields(world, ledger)
    pay_upkeep(world, ledger)
    refresh_statuses(world)
    gw.stats.seasons += 1


PHASE_FUNCTIONS: dict[str, Callable[[World, Dice, Ledger, GwHooks], object]] = {
    "deploy": resolve_deploy_phase,
    "move": resolve_movement_phase,
    "siege": resolve_siege_phase,
    "army_combats": resolve_army_combats,
    "domain_attacks": resolve_domain_attacks,
    "annexations": resolve_annexation_phase,
    "end_of_season": resolve_end_of_season,
}


def run_phases(world: World, dice: Dice, ledger: Ledger, *, hooks: GwHooks = NO_HOOKS) -> None:
    """Run the season's phases in ``CFG.gw.phase_order`` (RES-GW-10, GW-ORD-01)."""
    for name in world.config.gw.phase_order:
        PHASE_FUNCTIONS[name](world, dice, ledger, hooks)


def resolve_season(
    world: World, decider: Decider, dice: Dice, ledger: Ledger, *,
    hooks: GwHooks = NO_HOOKS, plays: Callable[[str], bool] | None = None,
) -> None:
    """One whole guild season at the current hour (SC-GW-01, RES-GW-10): title deliveries
    (RES-GW-25), the season-start hooks (LINK-06), every guild's orders in ascending id (RES-GW-27),
    then the seven phases.

    Each guild gives its orders through :func:`give_orders` (the decider is asked
    ``decide("guild:<id>", "order", legal + [END], context)`` until it answers END; an illegal answer
    raises :class:`IllegalOrderError`). ``plays(guild)`` says which guilds are asked (default: those the
    decider plays, ``sim.orders.plays_for``; all when it does not say)."""
    gw = world.gw_state()
    begin_season(world, ledger)
    if hooks.season_begun is not None:  # --- LINK-06 hook: nations pay their armies' upkeep into their guild's chest
        hooks.season_begun(world, ledger)
    memo: dict[str, Any] = {}  # the orders of the season change no army, domain or alliance (see give_orders)
    for gid in sorted(gw.guilds):
        asked = plays(gid) if plays is not None else plays_for(decider, f"guild:{gid}")
        if asked is None or asked:
            give_orders(world, gid, decider, ledger, memo=memo)
    run_phases(world, dice, ledger, hooks=hooks)


def give_orders(world: World, guild_id: str, decider: Decider, ledger: Ledger, *, memo: dict[str, Any] | None = None) -> list[AnyOrder]:
    """One guild's orders for the season, one question at a time (RES-GW-27): the decider sees
    every order legal *given the orders already given* plus :data:`END`, until it answers ``END``
    (at most :data:`MAX_ORDERS` orders). Returns the orders given.

    ``context["memo"]`` is a dict where the guild's policy may keep what giving orders does not
    change: an order changes only the season's orders, the guild's chest (an annexation's
    compensation) and its consents to lend seals, never an army, a domain or an alliance. ``memo``:
    that dict, shared by the guilds of one season (default: a new one for this call)."""
    given: list[AnyOrder] = []
    context = {**_ORDER_CONTEXT, "memo": {} if memo is None else memo}
    menu = legal_orders(world, guild_id)
    for _ in range(MAX_ORDERS):
        legal: list[Any] = [*menu, END]
        choice = decider.decide(f"guild:{guild_id}", "order", legal, context)
        if choice is END:
            break
        if any(o is choice for o in menu):  # one of the orders just listed as legal: check accepted it
            give_checked_order(world, choice, ledger)
        else:
            give_order(world, choice, ledger)
        given.append(choice)
        menu = legal_after(world, guild_id, menu, choice)  # = legal_orders(world, guild_id), for less
    return given


def order_label(choice: object) -> str:
    """How a guild's order (or END) is printed in its ``DecisionMade`` event."""
    return str(choice)


_ORDER_CONTEXT: dict[str, Any] = {"clauses": ("SC-GW-09", "RES-GW-27"), "label": order_label}


def play(world: World, decider: Decider, dice: DiceSource, ledger: Ledger, hooks: GwHooks | None = None) -> None:
    """The guild season in the signature every system shares (``sim.system.RuleSystem.play``): the
    season at the world's hour (:func:`resolve_season`), its rolls from the ``gw``/``loot`` stream of
    ``dice``; ``hooks`` None: guild warfare alone."""
    resolve_season(world, decider, dice.stream(SYS, "loot"), ledger, hooks=NO_HOOKS if hooks is None else hooks)


def given(orders: Iterable[AnyOrder]) -> ScriptedDecider:
    """A decider that gives exactly ``orders`` (each guild its own, in this order) and then ends:
    the whole season of a test, a worked example or a game master's table."""
    script: dict[Any, list[Any]] = {}
    for o in orders:
        script.setdefault((f"guild:{o.guild}", "order"), []).append(o)
    return ScriptedDecider(script, default="end")
