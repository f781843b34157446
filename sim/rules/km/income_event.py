"""The Income phase (*revenus*, SC-KM-18, RES-KM-48) and the Event phase (SC-KM-19, RES-KM-35).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.rules.km.statistics import count_improvements, kingdom_check, linked_mines, stats, vacant
from sim.rules.km.tables import SYS, actor

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "event_roll",
    "income",
]


# ---- Income (SC-KM-18, RES-KM-48) --------------------------------------------------------------


def income(world: World, kid: str, dice: Dice, ledger: Ledger, *, withdraw_bp: int = 0, deposit_gp: int = 0) -> None:
    km = world.km
    assert km is not None
    k = km.kingdoms[kid]
    if withdraw_bp:
        if withdraw_bp < 0 or withdraw_bp > max(0, k.treasury):
            raise IllegalOrderError("SC-KM-18", f"cannot withdraw {withdraw_bp} BP from a Treasury of {k.treasury} BP", actor=actor(kid))
        k.treasury -= withdraw_bp
        k.unrest += withdraw_bp
        ledger.emit(
            SYS,
            "BPWithdrawn",
            actor(kid),
            ("SC-KM-18",),
            total=withdraw_bp,
            outcome=f"{withdraw_bp * 2000} gp",
            unrest_after=k.unrest,
            treasury_after=k.treasury,
        )
    if deposit_gp:
        bp = deposit_gp // 4000
        k.treasury += bp
        ledger.emit(SYS, "GoldDeposited", actor(kid), ("SC-KM-18",), total=bp, outcome=f"+{bp} BP", gp=deposit_gp)
    if vacant(k, "treasurer"):
        ledger.emit(SYS, "TaxesNotCollected", actor(kid), ("SC-KM-23", "SC-KM-18"), outcome="Treasurer vacant")
        return
    st = stats(world, k)
    r, mods = kingdom_check(dice, k, "economy", 0, st)
    tax = max(0, r.total // 3)
    extra = count_improvements(k, "mine") + count_improvements(k, "quarry") + count_improvements(k, "sawmill")
    extra += linked_mines(world, k)
    k.treasury += tax + extra
    ledger.emit(
        SYS,
        "TaxesCollected",
        actor(kid),
        ("SC-KM-18", "RES-KM-48", "SC-KM-32", "SC-KM-03"),
        mods=mods,
        dice=[(20, r.natural)],
        total=r.total,
        outcome=f"+{tax + extra} BP",
        tax=tax,
        improvements=extra,
        treasury_after=k.treasury,
    )


# ---- Event (SC-KM-19, RES-KM-35) --------------------------------------------------------------


def event_roll(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """SC-KM-19: when random events are on, 25% chance of an event, 75% after a turn without one.
    The engine has no event table (RES-KM-35): the event is recorded for the game master."""
    km = world.km
    assert km is not None
    if not world.config.km.events_enabled:
        return
    k = km.kingdoms[kid]
    chance = 75 if k.no_event_last_turn else 25
    d = dice.roll(100)[0]
    happened = d <= chance
    k.no_event_last_turn = not happened
    ledger.emit(
        SYS,
        "KingdomEventRolled",
        actor(kid),
        ("SC-KM-19", "RES-KM-35"),
        dc=chance,
        dice=[(100, d)],
        total=d,
        outcome="event" if happened else "no event",
    )
