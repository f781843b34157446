"""LINK-07 (war feeds diplomacy) and LINK-08 (war feeds kingdoms): guild assaults become Mare Nostrum
invasions and repulses; occupations cost kingdoms Unrest, annexations cost them hexes, and a capital
annexed by another kingdom's guilds is a conquest."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.rules import km as E
from sim.rules import km as K
from sim.rules import links
from sim.rules import mn as dip
from sim.state.gw import Annex, AttackDomain
from sim.state.km import VassalageEdict
from sim.state.mn import Invasion
from sim.world import World
from tests.gw.helpers import play, put_army, put_domain
from tests.link.helpers import ledger, world


def _hex(w: World, col: int, row: int) -> int:
    return w.map.index(col, row)


def _assault(w: World, guild: str, domain: str, units: dict[str, int], *, season: int = 0, aid: str = "host"):  # noqa: ANN202
    assert w.gw is not None
    put_army(w, aid, guild, w.gw.domains[domain].hex, units)
    return play(w, season, [AttackDomain(guild=guild, army=aid, domain=domain)])


def _mods(w: World, nation: str, city: str) -> dict[str, int]:
    assert w.mn is not None
    home = w.mn.cities[w.mn.nations[nation].capital].province
    return {m.clause: m.value for m in dip.test_modifiers(w.mn, w.config.mn, nation, home, city, 0)}


# ---- LINK-07 ------------------------------------------------------------------------------------------


@pytest.mark.rule("LINK-07", "MN-MOD-02", "RES-MN-10", "SC-MN-07", "GW-ATK-04")
def test_a_successful_assault_is_an_invasion_by_the_affiliated_nation() -> None:
    w = world()
    assert w.mn is not None
    w.mn.turn = 1
    led = _assault(w, "ga", "gamma-fort", {"infantry": 3})  # strength 6 against 2 militia
    assert led.of_kind("DomainAttacked")[0].outcome == "success"
    assert w.mn.invasions == [Invasion(1, "North", "South", False, "nation:alpha", "city:gamma", [], "gw")]
    rep = led.of_kind("AttackReported")[0]
    assert (rep.system, rep.actor, rep.outcome, rep.data["nation"], rep.data["attacker"], rep.data["defender"]) == (
        "link", "guild:ga", "invasion", "alpha", "North", "South")
    rec = led.of_kind("InvasionRecorded")[0]
    assert rec.system == "mn" and "LINK-07" in rec.clauses and rec.data["source"] == "gw"
    # an ambassador of Alpha's capital province visiting Gamma now tests at −10 (MN-MOD-02) …
    assert _mods(w, "alpha", "gamma")["MN-MOD-02"] == -10
    # … for a year (turns 1-4), not after
    w.mn.turn = 5
    assert "MN-MOD-02" not in _mods(w, "alpha", "gamma")


@pytest.mark.rule("LINK-07", "MN-MOD-03", "MN-MOD-04", "RES-MN-10")
def test_a_failed_assault_is_a_repulse() -> None:
    w = world()
    assert w.mn is not None
    w.mn.turn = 2
    led = _assault(w, "gd", "gamma-fort", {"militia": 1})  # strength 1 against 2
    assert led.of_kind("DomainAttacked")[0].outcome == "failure"
    assert w.mn.invasions == [Invasion(2, "Far", "South", True, "nation:delta", "city:gamma", [], "gw")]
    assert led.of_kind("AttackReported")[0].outcome == "repulse" and led.of_kind("RepulseRecorded")
    assert _mods(w, "delta", "gamma") == {"MN-MOD-01": 0, "MN-MOD-04": -20}  # within the year
    w.mn.turn = 6
    assert _mods(w, "delta", "gamma") == {"MN-MOD-01": 0, "MN-MOD-03": -10}  # within four years
    w.mn.turn = 18
    assert _mods(w, "delta", "gamma") == {"MN-MOD-01": 0}


@pytest.mark.rule("LINK-07", "LINK-06")
def test_the_army_of_a_nation_acting_as_a_guild_invades_for_it() -> None:
    w = world()
    assert w.mn is not None
    w.mn.turn = 1
    _assault(w, "delta", "gamma-fort", {"infantry": 3})
    assert [(i.attacker, i.defender, i.repelled) for i in w.mn.invasions] == [("Far", "South", False)]


@pytest.mark.rule("LINK-07", "LINK-09")
def test_guilds_of_no_nation_invade_nothing_nor_does_a_nation_in_its_own_province() -> None:
    w = world()
    assert w.mn is not None and w.gw is not None
    w.mn.turn = 1
    led = _assault(w, "gi", "delta-hall", {"infantry": 3})  # independent
    led2 = _assault(w, "gb", "gamma-fort", {"infantry": 3}, season=1, aid="host2")  # beta is a kingdom only
    assert w.mn.invasions == [] and not led.of_kind("AttackReported") and not led2.of_kind("AttackReported")
    put_domain(w, "rebel-tower", "gi", _hex(w, 4, 1))  # in North, Alpha's own province
    led3 = _assault(w, "ga", "rebel-tower", {"infantry": 3}, season=2, aid="host3")
    assert led3.of_kind("AttackReported")[0].outcome == "own province" and w.mn.invasions == []


# ---- LINK-08 ------------------------------------------------------------------------------------------


@pytest.mark.rule("LINK-08", "GW-ATK-04", "SC-KM-09", "RES-KM-34")
def test_an_occupation_by_an_unaffiliated_guild_costs_unrest_at_the_next_upkeep() -> None:
    w = world()
    assert w.km is not None
    beta = w.km.kingdoms["beta"]
    led = _assault(w, "ga", "beta-farm", {"infantry": 2})  # [9, 0] is Beta's
    rep = led.of_kind("OccupationReported")[0]
    assert (rep.actor, rep.data["domain"], rep.data["guilds"], rep.clauses) == ("kingdom:beta", "beta-farm", ["ga"], ("LINK-08", "GW-ATK-04"))
    assert beta.occupied == ["beta-farm"] and beta.unrest == 0  # not yet: at its next Upkeep
    led2 = ledger()
    w.km.turn = 0
    K.upkeep(w, "beta", ScriptedDice([(20, 20)]), led2, hooks=links.km_hooks(w))  # a natural 20: Unrest stays 0 (Treasury +1)
    assert [e.kind for e in led2.events] == ["UpkeepStabilityCheckRolled", "ConsumptionPaid", "OccupationUnrest"]
    ev = led2.events[-1]
    assert (ev.system, ev.total, ev.data["unrest_before"], ev.data["unrest_after"]) == ("link", 1, 0, 1)
    assert beta.unrest == 1 and beta.occupied == []
    K.upkeep(w, "beta", ScriptedDice([(20, 20)]), ledger(), hooks=links.km_hooks(w))  # once only
    assert beta.unrest == 0


@pytest.mark.rule("LINK-08")
def test_no_unrest_when_the_occupier_is_affiliated_or_the_domain_already_occupied() -> None:
    w = world()
    assert w.km is not None and w.gw is not None
    put_domain(w, "squat", "gi", _hex(w, 7, 0), garrison={"militia": 1})  # an independent domain in Beta's hex
    led = _assault(w, "gb", "squat", {"infantry": 2})  # Beta's own guild takes it back
    assert led.of_kind("DomainOccupied") and not led.of_kind("OccupationReported")
    assert w.km.kingdoms["beta"].occupied == []
    _assault(w, "ga", "beta-farm", {"infantry": 2}, aid="host2")
    put_army(w, "host3", "gd", w.gw.domains["beta-farm"].hex, {"infantry": 2})
    led3 = play(w, 1, [AttackDomain(guild="gd", army="host3", domain="beta-farm")])  # joins an occupied domain
    assert led3.of_kind("DomainOccupied") and not led3.of_kind("OccupationReported")
    assert w.km.kingdoms["beta"].occupied == ["beta-farm"]


@pytest.mark.rule("LINK-08", "GW-ANX-01", "GW-ANX-03", "SC-KM-01")
def test_an_annexation_by_an_unaffiliated_guild_costs_the_hex() -> None:
    w = world()
    assert w.km is not None
    beta = w.km.kingdoms["beta"]
    _assault(w, "ga", "beta-farm", {"infantry": 2})
    led = play(w, 1, [Annex(guild="ga", domain="beta-farm", seal="ga-p1")])
    assert led.of_kind("DomainAnnexed")
    ev = led.of_kind("HexLostToGuild")[0]
    assert (ev.actor, ev.data["hex"], ev.data["size_after"], ev.data["guild"]) == ("kingdom:beta", [9, 0], 6, "ga")
    assert _hex(w, 9, 0) not in beta.hexes and len(beta.hexes) == 6 and beta.conquered_by is None
    assert w.km.stats.link_hexes_lost == 1


@pytest.mark.rule("LINK-08", "KM-VAS-01", "KM-VAS-07")
def test_a_capital_annexed_by_another_kingdoms_guild_is_a_conquest() -> None:
    w = world()
    assert w.km is not None
    beta = w.km.kingdoms["beta"]
    _assault(w, "ga", "beta-keep", {"infantry": 3})
    w.km.turn = 3  # a kingdom turn with Alpha's ordinary edicts set (KM-GEN-02)
    w.km.kingdoms["alpha"].edicts_turn = 3
    subjugate = VassalageEdict("subjugation", viceroy="Vic", target="beta")
    with pytest.raises(IllegalOrderError, match=r"KM-VAS-01: beta has not been conquered by alpha \(LINK-08\)"):
        E.check(w, "alpha", subjugate)  # occupied is not yet conquered
    led = play(w, 1, [Annex(guild="ga", domain="beta-keep", seal="ga-p1")])
    conq = led.of_kind("KingdomConqueredByGuilds")[0]
    assert (conq.actor, conq.data["target"], conq.clauses) == ("kingdom:alpha", "beta", ("LINK-08", "KM-VAS-01"))
    assert beta.conquered_by == "alpha"
    assert [e.kind for e in led.events if e.system == "link"] == ["HexLostToGuild", "KingdomConqueredByGuilds"]
    assert beta.capital is None and _hex(w, 8, 1) not in beta.hexes  # the capital's hex went with its domain
    # the conqueror may now subjugate it with a Vassalage edict
    E.check(w, "alpha", subjugate)  # legal now
    w2 = world()
    assert w2.km is not None
    _assault(w2, "gi", "beta-keep", {"infantry": 3})
    led2 = play(w2, 1, [Annex(guild="gi", domain="beta-keep", seal="gi-p1")])
    assert led2.of_kind("HexLostToGuild") and not led2.of_kind("KingdomConqueredByGuilds")
    assert w2.km.kingdoms["beta"].conquered_by is None  # an independent guild conquers for nobody
