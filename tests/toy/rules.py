"""Granaries (GR): a toy fifth rule system, whole in this package, to show what adding a system takes
(docs/architecture.md, "Adding a rule system"). Its four clauses:

* **GR-01** A village's turn is a month: it begins at hour 0 of each month, after the four systems of
  realmsim at that hour (LINK-01), villages in ascending id.
* **GR-02** Each village sows some of the grain it holds: ``Sow(village, bushels)`` with
  ``0 ≤ bushels ≤ grain`` and at most ``config.most_sown`` bushels; any other order is illegal.
* **GR-03** Then it harvests: one d6, and ``bushels × d6 // 2`` bushels are added to its grain
  (rounded down, GEN-02).
* **GR-04** Then it eats ``config.eaten`` bushels, or what it holds if less: grain never goes below 0.

The rules are plain functions of the world, the dice and the ledger, as in ``sim/rules/<sys>/``; every
roll and decision is an event of the ledger (system ``gr``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from sim.calendar import HOURS_PER_MONTH, HOURS_PER_YEAR
from sim.config import Config
from sim.dice import DiceSource
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.hexmap import Hex, HexMap
from sim.orders import Decider, ScriptedDecider
from sim.scores import FactionScore, Term, round2
from sim.system import RuleSystem
from sim.world import World

__all__ = [
    "SYS", "SYSTEM", "GrConfig", "GrWorld", "Sow", "Village", "broken_invariants", "check", "given", "legal_orders",
    "metrics", "next_turn", "play", "score_village", "summary", "valley",
]

SYS = "gr"


class GrConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    most_sown: int = 5  # GR-02
    eaten: int = 1  # GR-04


class Village(msgspec.Struct, omit_defaults=True):
    id: str
    grain: int
    policy: str = "random"
    harvested: int = 0  # bushels harvested since the start (the village's counter, read by reports)


class GrWorld(msgspec.Struct, omit_defaults=True):
    """The granaries' part of the world: its villages and the month last played (-1: none yet)."""

    villages: dict[str, Village] = {}
    turn: int = -1
    config: GrConfig = GrConfig()


class Sow(msgspec.Struct, frozen=True, tag="sow"):
    """GR-02: the bushels a village sows this month."""

    village: str
    bushels: int


def state(world: World) -> GrWorld:
    """The granaries' part of ``world`` (through the descriptor, the one way to reach it)."""
    got: GrWorld = SYSTEM.state(world)
    return got


# ---- legality (GR-02) ------------------------------------------------------------------------------


def legal_orders(world: World, village: str) -> list[Sow]:
    """Every order village ``village`` may give now (GR-02)."""
    gr = state(world)
    v = _village(gr, village)
    return [Sow(village, b) for b in range(min(v.grain, gr.config.most_sown) + 1)]


def check(world: World, village: str, order: Any) -> None:
    """Raise :class:`IllegalOrderError` (GR-02) unless ``village`` may give ``order`` now."""
    gr = state(world)
    v = _village(gr, village)
    if not isinstance(order, Sow):
        raise InvalidOrderError(f"not an order of the granaries: {order!r}")
    if order.village != village:
        raise IllegalOrderError("GR-02", f"this order is village {order.village!r}'s", order=order, actor=f"village:{village}")
    if not 0 <= order.bushels <= min(v.grain, gr.config.most_sown):
        raise IllegalOrderError("GR-02", f"{order.bushels} bushels: a village sows 0 to {min(v.grain, gr.config.most_sown)} "
                                f"(its {v.grain} bushels, at most {gr.config.most_sown})", order=order, actor=f"village:{village}")


def _village(gr: GrWorld, village: str) -> Village:
    v = gr.villages.get(village)
    if v is None:
        raise InvalidOrderError(f"no village {village!r}: expected one of {', '.join(sorted(gr.villages))}")
    return v


# ---- the turn (GR-01…04) ---------------------------------------------------------------------------


def next_turn(world: World) -> int:
    """GR-01: hour 0 of the month after the last one played."""
    return world.start + (state(world).turn + 1) * HOURS_PER_MONTH


def play(world: World, decider: Decider, dice: DiceSource, ledger: Ledger, hooks: None = None) -> None:
    """One month of every village (GR-01): the order asked and checked (GR-02), the harvest (GR-03),
    the grain eaten (GR-04)."""
    gr = state(world)
    gr.turn += 1
    ledger.emit(SYS, "MonthBegan", "world", ("GR-01",), outcome=str(gr.turn), turn=gr.turn)
    for vid in sorted(gr.villages):
        v = gr.villages[vid]
        key = f"village:{vid}"
        order = decider.decide(key, "sow", legal_orders(world, vid), {"clauses": ("GR-02",)})
        check(world, vid, order)
        (d6,) = dice.stream(SYS, key).roll(6)
        crop = order.bushels * d6 // 2
        v.grain += crop - order.bushels
        v.harvested += crop
        ledger.emit(SYS, "GrainHarvested", key, ("GR-02", "GR-03", "GEN-02"), dice=[(6, d6)], total=crop,
                    outcome=f"+{crop} bushels", sown=order.bushels, grain=v.grain)
        eaten = min(v.grain, gr.config.eaten)
        v.grain -= eaten
        ledger.emit(SYS, "GrainEaten", key, ("GR-04",), total=eaten, outcome=f"-{eaten} bushels", grain=v.grain)


def given(script: Mapping[str, Sequence[Any]]) -> ScriptedDecider:
    """Each village's orders by actor key (``village:<id>``), one a month; sowing nothing otherwise."""
    return ScriptedDecider(script, default="first")


# ---- what holds, what it is worth, what it reports -------------------------------------------------


def broken_invariants(world: World) -> list[str]:
    gr = state(world)
    return [f"village {v.id} holds {v.grain} bushels (GR-04)" for v in gr.villages.values() if v.grain < 0]


LABELS = {"grain": ("Grain", "Grain")}


def score_village(world: World, village: str) -> FactionScore:
    """A village's score: the bushels it holds."""
    v = _village(state(world), village)
    return FactionScore(f"village:{village}", "village", v.policy, "bushels",
                        (Term("grain", round2(v.grain), f"{v.grain} bushels"),), {}, LABELS)


def summary(world: World) -> dict[str, int | float]:
    gr = state(world)
    return {"gr.months": gr.turn + 1, "gr.grain": sum(v.grain for v in gr.villages.values()),
            "gr.harvested": sum(v.harvested for v in gr.villages.values())}


def metrics(world: World) -> dict[str, dict[str, Any]]:
    return {f"village:{vid}": {"grain": v.grain} for vid, v in sorted(state(world).villages.items())}


def valley(seed: int, *, years: int = 2) -> World:
    """A world of three villages on a one-hex map, running the granaries alone for ``years`` years."""
    hexmap = HexMap(width=1, height=1, hexes=[Hex(terrain="plains")])
    villages = {vid: Village(vid, grain) for vid, grain in (("ash", 6), ("birch", 3), ("cedar", 0))}
    return World(scenario="granary-valley", seed=seed, start=0, end=years * HOURS_PER_YEAR, now=0, systems=[SYS],
                 config=Config(), map=hexmap, extensions={SYS: GrWorld(villages=villages)})


# ---- the descriptor: what realmsim needs to know of the granaries ----------------------------------

SYSTEM = RuleSystem(
    name=SYS,
    title="granaries",
    phase=5,  # GR-01: after the four systems of realmsim (sim.calendar.Phase: KM 1 … CV 4)
    faction_kind="village",
    faction_table="villages",
    state_type=GrWorld,
    config_type=GrConfig,
    order_types=(Sow,),
    factions=lambda world: sorted(state(world).villages),
    policy=lambda world, vid: state(world).villages[vid].policy,
    legal_orders=legal_orders,
    check=check,
    play=play,
    given=given,
    broken_invariants=broken_invariants,
    score=score_village,
    score_unit="bushels",
    score_terms=LABELS,
    summary=summary,
    metrics=metrics,
    next_turn=next_turn,
    example=valley,
)
