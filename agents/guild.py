"""The guild agent (*guilde*): gives its season's orders one decision at a time.

A guild's season orders may be several (one Move and one action per army, deployments, recruits,
an annexation…). The agent asks its policy repeatedly: each time the policy sees every order that is
legal *given the orders already given this season* (``sim.rules.warfare.legal_orders``) plus
``END`` ("no further order"), and picks one. So ``random`` is uniform over the legal orders at each
choice, each choice is one ``DecisionMade`` event with the alternatives scored, and the whole is
reproducible from the agent's own random stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agents.base import RealmAgent
from sim.rules import warfare as wf
from sim.state.gw import AnyOrder
from sim.world import World

if TYPE_CHECKING:
    from agents.model import RealmModel

END = "end of orders"
MAX_DECISIONS = 120  # a safety bound; every order kind is finite per season anyway


@dataclass(frozen=True)
class GuildView:
    """What a guild's policy sees: the world (public in this game) and which guild it plays."""

    world: World
    guild: str


def order_label(choice: Any) -> str:
    return END if choice == END else str(choice)


class GuildAgent(RealmAgent):
    kind = "guild"
    system = "gw"

    def __init__(self, model: RealmModel, guild_id: str, policy: str) -> None:
        super().__init__(model, f"guild:{guild_id}", policy)
        self.guild_id = guild_id

    def give_orders(self) -> list[AnyOrder]:
        """Decide and give this season's orders (RES-GW-27)."""
        world = self.realm.world
        ledger = self.realm.ledger
        given: list[AnyOrder] = []
        view = GuildView(world, self.guild_id)
        for _ in range(MAX_DECISIONS):
            legal: list[Any] = list(wf.legal_orders(world, self.guild_id))
            legal.append(END)
            d = self.decide(view, legal, clauses=("SC-GW-09", "RES-GW-27"), label=order_label)
            if d.chosen == END:
                break
            wf.give_order(world, d.chosen, ledger)
            given.append(d.chosen)
        return given
