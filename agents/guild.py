"""The guild agent (*guilde*): answers its season's orders one decision at a time.

A guild's season orders may be several (one Move and one action per army, deployments, recruits,
an annexation…). The rules' turn (``sim.rules.gw.resolve_season`` → ``give_orders``) asks the
guild repeatedly: each time its policy sees every order that is legal *given the orders already
given this season* (``sim.rules.gw.legal_orders``) plus ``END`` ("no further order"), and picks
one. So ``random`` is uniform over the legal orders at each choice, each choice is one
``DecisionMade`` event with the alternatives scored, and the whole is reproducible from the
agent's own random stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.orders import END
from sim.rules.gw import order_label
from sim.world import World

if TYPE_CHECKING:
    from agents.model import RealmModel

__all__ = ["END", "GuildAgent", "GuildView", "order_label"]


@dataclass(frozen=True)
class GuildView:
    """What a guild's policy sees: the world (public in this game) and which guild it plays.
    ``memo``: a dict the rules hand every decision of one ``give_orders`` call (the guild's orders of
    a season), where a policy may keep what giving orders does not change; None: nothing is kept."""

    world: World
    guild: str
    memo: dict[str, Any] | None = field(default=None, compare=False, repr=False)


class GuildAgent(RealmAgent):
    kind = "guild"
    system = "gw"

    def __init__(self, model: RealmModel, guild_id: str, policy: str) -> None:
        super().__init__(model, f"guild:{guild_id}", policy)
        self.guild_id = guild_id

    def observe(self, decision: str, context: Mapping[str, Any]) -> GuildView:
        return GuildView(self.realm.world, self.guild_id, context.get("memo"))
