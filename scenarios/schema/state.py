"""The ``[state]`` table: a scenario file that stands at a later season (docs/state-format.md).

A *state file* is a scenario file (the same tables, validated by the same schema) with a ``[state]``
table: the world it describes is the world at the start of season ``season``, and the campaign's clock
starts there (its end stays ``scenario.duration`` after hour 0). ``realmsim state export`` writes one
from a save or a campaign; a game master may write one by hand, with only the factions and places that
matter (a *partial* state: ``realmsim validate STATE --faction ID`` says what is missing for one).
"""

from __future__ import annotations

from scenarios.schema.common import NonNeg, Spec


class StateSpec(Spec):
    season: NonNeg = 0  # the season the state stands at (0: the campaign's first); the clock starts at its first hour
    from_scenario: str = ""  # where it was exported from (information only)
    from_seed: int | None = None  # the seed of the campaign it was exported from (information only)
    code_version: str = ""  # the realmsim that exported it (information only)
    partial: bool = False  # written by hand with only some factions and places (information only)
