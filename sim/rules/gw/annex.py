"""GW phase (6): annexations, titles, loot orders."""

from __future__ import annotations

from sim.dice import Dice
from sim.errors import IllegalOrderError, RulesError
from sim.events import Ledger
from sim.rules.gw.combat import strongest
from sim.rules.gw.core import SYS, army_involves, refresh_statuses
from sim.rules.gw.deploy import attempt, orders_of, reject
from sim.rules.gw.hooks import NO_HOOKS, GwHooks
from sim.rules.gw.legality import check_order_stage, fail, get_loot, return_deposit
from sim.state.gw import Annex, Deposit, Domain, PickUpLoot, ReturnTitle, TreasureHunt
from sim.world import World

__all__ = [
    "annex_domain",
    "resolve_annexation_phase",
    "resolve_annexations",
    "resolve_loot_claim",
    "resolve_return_title",
]


# =================================================================================================
# phase (6): annexations, titles, loot orders
# =================================================================================================


def _strongest_occupier(world: World, dom: Domain, guild: str) -> tuple[int, str] | None:
    gw = world.gw_state()
    occ = [gw.armies[a] for a in dom.occupied_by if a in gw.armies and army_involves(gw, gw.armies[a], guild)]
    if not occ:
        return None
    return strongest(world, occ)


def _refund(world: World, order: Annex, ledger: Ledger, reason: RulesError) -> None:
    gw = world.gw_state()
    for d in list(gw.bank.deposits):
        if d.domain == order.domain and d.payer == order.guild and d.annexed_season < 0 and d.season == gw.season:
            gw.bank.deposits.remove(d)
            gw.bank.held -= d.amount
            gw.guilds[order.guild].solars += d.amount
            break
    reject(ledger, order, reason)


def resolve_annexations(world: World, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """GW-ANX-01…07, RES-GW-23…28, per domain in ascending id."""
    gw = world.gw_state()
    by_dom: dict[str, list[Annex]] = {}
    for o in orders_of(gw, Annex):
        assert isinstance(o, Annex)
        by_dom.setdefault(o.domain, []).append(o)
    for did in sorted(by_dom):
        valid: list[tuple[int, str, Annex]] = []
        for o in by_dom[did]:
            try:
                check_order_stage(world, o, stage="resolve")
            except RulesError as e:
                _refund(world, o, ledger, e)
                continue
            best = _strongest_occupier(world, gw.domains[did], o.guild)
            assert best is not None
            valid.append((-best[0], best[1], o))
        if not valid:
            continue
        valid.sort(key=lambda t: (t[0], t[1]))
        _, _, winner = valid[0]
        for _, _, o in valid[1:]:
            _refund(world, o, ledger, IllegalOrderError("RES-GW-28", f"guild {winner.guild}'s occupying army is stronger; its annexation proceeds"))
        annex_domain(world, winner, ledger, hooks)


def annex_domain(world: World, order: Annex, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """Resolve one annexation (GW-ANX-03/05/06/07, RES-GW-25/26)."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    dom = gw.domains[order.domain]
    seal = gw.seals[order.seal]
    new_guild = gw.guilds[seal.guild]
    former = dom.owner_guild
    dep = None
    for d in gw.bank.deposits:
        if d.domain == order.domain and d.payer == order.guild and d.annexed_season < 0:
            dep = d
            break
    if dep is None:  # resolved directly (tests): take the deposit now
        amount = world.config.gw.annex_compensation_solars
        if new_guild.solars < amount:
            raise fail("RES-GW-23", f"the compensation of {amount} solars cannot be paid: the chest holds {new_guild.solars}", order)
        new_guild.solars -= amount
        gw.bank.held += amount
        dep = Deposit(order.domain, order.guild, amount, gw.season)
        gw.bank.deposits.append(dep)
    dep.former_owner = former
    dep.annexed_season = gw.season
    dep.new_owner = new_guild.leader
    dom.owner_guild = new_guild.id
    dom.owner = new_guild.leader
    dom.frozen_until = gw.season + 2
    dom.title_return_season = gw.season + 1
    dom.annexed_from = former
    dom.annexed_season = gw.season
    dom.consents_to = []
    stopped = []
    for aid in list(dom.occupied_by):
        a = gw.armies.get(aid)
        if a is not None and army_involves(gw, a, order.guild):
            a.occupying = None
            a.occupying_since = -1
            stopped.append(aid)
    dom.occupied_by = [a for a in dom.occupied_by if a not in stopped]
    refresh_statuses(world)
    gw.stats.annexations += 1
    ledger.emit(
        SYS, "DomainAnnexed", f"guild:{order.guild}", ("GW-ANX-01", "GW-ANX-03", "GW-ANX-06", "GW-ANX-07", "RES-GW-25", "RES-GW-26", "RES-GW-28"),
        outcome="annexed", domain=dom.id, former_owner=former, new_owner=dom.owner, seal=order.seal, compensation=dep.amount,
        frozen_until=dom.frozen_until, stopped_occupying=stopped, still_occupied_by=list(dom.occupied_by), title_holder=dom.title_holder,
    )
    if hooks.domain_annexed is not None:  # --- LINK-08 hook: the claiming kingdom loses the hex; a capital's loss is a conquest
        hooks.domain_annexed(world, dom, former, ledger)


def resolve_return_title(world: World, order: ReturnTitle, ledger: Ledger) -> None:
    """GW-ANX-04, RES-GW-24: the former owner returns the title during A+1 and recovers the deposit."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    dep = return_deposit(gw, order.guild, order.domain)
    assert dep is not None
    guild = gw.guilds[order.guild]
    guild.solars += dep.amount
    gw.bank.held -= dep.amount
    dep.title_returned = True
    gw.domains[order.domain].title_holder = "bank"
    gw.domains[order.domain].title_return_season = -1
    ledger.emit(
        SYS, "TitleReturned", f"guild:{order.guild}", ("GW-ANX-04", "RES-GW-24", "SC-GW-10"), total=dep.amount,
        outcome="compensation recovered", domain=order.domain, solars_after=guild.solars,
    )


# resolution: ENG-GW-06
def resolve_loot_claim(world: World, order: TreasureHunt | PickUpLoot, ledger: Ledger) -> int:
    """Treasure hunt / pick up a named loot (GW-LOOT-03, RES-GW-15). The seed leaves their
    resolution to the game's team; this engine gives the loot's value to the first guild that
    claims it (a pick-up needs an army of the guild on the loot's hex)."""
    check_order_stage(world, order, stage="resolve")
    gw = world.gw_state()
    lt = get_loot(gw, order)
    gw.loot = [x for x in gw.loot if x.id != lt.id]
    guild = gw.guilds[order.guild]
    guild.solars += lt.value
    gw.stats.loot_claimed_solars += lt.value
    ledger.emit(
        SYS, "LootClaimed", f"guild:{order.guild}", ("GW-LOOT-03", "RES-GW-15", "GW-LOOT-05"), total=lt.value,
        outcome=str(order.__struct_config__.tag), loot=lt.id, hex=lt.hex, created=lt.season,
    )
    return lt.value


def resolve_annexation_phase(world: World, dice: Dice, ledger: Ledger, hooks: GwHooks = NO_HOOKS) -> None:
    """Phase (6): annexations, then title returns, then treasure hunts and pick-ups (RES-GW-27)."""
    gw = world.gw_state()
    resolve_annexations(world, ledger, hooks)
    for o in orders_of(gw, ReturnTitle):
        attempt(world, ledger, o, resolve_return_title)
    for o in orders_of(gw, TreasureHunt, PickUpLoot):
        attempt(world, ledger, o, resolve_loot_claim)
