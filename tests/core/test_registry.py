"""The registry of the rule systems (sim.registry, issue 28): one tuple in LINK-01 order, one line to
register another system, and clear messages for a name, a kind or a phase taken twice."""

from __future__ import annotations

import dataclasses

import pytest

from sim import registry
from sim.errors import RulesError
from tests import toy
from tests.toy.rules import valley


@pytest.mark.rule("LINK-01")
def test_the_built_in_systems_act_in_link_01_order() -> None:
    assert [s.name for s in registry.SYSTEMS] == ["km", "mn", "gw", "cv"]
    assert [s.phase for s in registry.SYSTEMS] == [1, 2, 3, 4]
    assert [s.faction_kind for s in registry.SYSTEMS] == ["kingdom", "nation", "guild", "convoy"]


def test_a_system_taken_twice_is_refused_naming_what_clashes() -> None:
    km = registry.get("km")
    with pytest.raises(ValueError, match="rule system 'km': its name 'km' is already system 'km''s"):
        registry.register(dataclasses.replace(km, phase=9, faction_kind="duke"))
    with pytest.raises(ValueError, match="rule system 'xx': its faction_kind 'kingdom' is already system 'km''s"):
        registry.register(dataclasses.replace(km, name="xx", phase=9))
    with pytest.raises(ValueError, match="rule system 'xx': its phase 4 is already system 'cv''s"):
        registry.register(dataclasses.replace(km, name="xx", faction_kind="duke", phase=4))
    assert "xx" not in registry.names()


def test_an_unknown_system_or_kind_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="unknown rule system 'zz': expected one of km, mn, gw, cv"):
        registry.get("zz")
    with pytest.raises(KeyError, match="unknown faction kind 'duke': expected one of kingdom, nation, guild, convoy"):
        registry.of_kind("duke")


def test_registering_adds_a_system_after_the_others_and_unregistering_forgets_it() -> None:
    was = "gr" in registry.names()
    registry.unregister("gr")
    try:
        assert "gr" not in registry.names()
        assert registry.register(toy.SYSTEM) is toy.SYSTEM
        assert registry.register(toy.SYSTEM) is toy.SYSTEM  # the same descriptor again: nothing happens
        assert registry.names()[-1] == "gr" and registry.of_kind("village") is toy.SYSTEM
        w = valley(1)
        assert [s.name for s in registry.enabled(w)] == ["gr"]
    finally:
        if not was:
            registry.unregister("gr")


def test_a_systems_state_is_reached_through_its_descriptor_or_refused() -> None:
    w = valley(1)
    assert toy.SYSTEM.state(w) is w.extensions["gr"]
    with pytest.raises(RulesError, match="the km system is not part of this world \\(scenario 'granary-valley' has gr\\)"):
        registry.get("km").state(w)
