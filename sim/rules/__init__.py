"""The rules, one module per system: ``caravan`` (CV), ``warfare`` (GW), ``kingdom`` + ``edicts`` (KM),
``diplomacy`` (MN), ``links`` (LINK). Pure functions of (state, order, dice); no clock, no I/O, no
agents, no global random. Importing this package loads neither Mesa nor Redis (a test proves it)."""
