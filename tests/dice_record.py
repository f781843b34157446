"""The rules' dice of a campaign as they are drawn (GEN-01 audits): :func:`rules_dice_drawn` records the
number of faces and the face of every die a rule draws, leaving the policies' own streams out."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sim.dice import SeededDice


@contextmanager
def rules_dice_drawn() -> Iterator[list[tuple[int, int]]]:
    """Within the block, every die the rules draw is appended as ``(sides, face)`` to the list yielded, in
    the order drawn; a policy's dice (streams ``policy/…``) are not recorded."""
    drawn: list[tuple[int, int]] = []
    roll = SeededDice.roll

    def recorded(self: SeededDice, sides: int, count: int = 1) -> list[int]:
        faces = roll(self, sides, count)
        if not self.name.startswith("policy/"):
            drawn.extend((sides, f) for f in faces)
        return faces

    SeededDice.roll = recorded  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        SeededDice.roll = roll  # type: ignore[method-assign]
