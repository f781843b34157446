"""The rules, one module per system: ``cv`` (CV, a package), ``warfare`` (GW), ``km`` (KM, a package),
``mn`` (MN, a package), ``links`` (LINK). Pure functions of (state, order, dice); no clock, no I/O, no
agents, no global random. Importing this package loads neither Mesa nor Redis (a test proves it)."""
