"""Typed world state, one module per rule system. Everything round-trips through msgpack."""
