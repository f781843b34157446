"""realmsim's engine: world state, dice, the event ledger, calendar, hex map and the rules.

Nothing in ``sim`` imports Mesa, Redis or the ``agents``/``workers`` packages (a test proves it).
"""

__version__ = "0.1.0"
