"""The chronicle's templates, one module per system: ``LINES`` (``{kind: render function}``) or
``render`` and ``KINDS``, and for the simplest lines, tables ``{kind: {"en": template, "fr": template}}``
(:mod:`agents.chronicle`). Out of the drivers, so that a driver is its agents, processes and metrics."""
