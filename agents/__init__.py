"""Mesa agents on the SimPy clock: the model, the agents of each system, the AI policies and the
campaign runner."""
