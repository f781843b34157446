"""Every summary metric of a campaign, defined once: what it counts, its system, and whether it is a
headline metric (a column of a batch's campaign table, :mod:`workers.tidy`).

The values are computed by the system drivers (``agents/systems/*.py``, ``summary``); their readable
names and units are in :mod:`workers.report.names` (English and French). This table says what each
one counts, in the terms of the ledger, and ``tests/workers/test_metrics.py`` recomputes each from the
ledger of a small campaign, independently of the driver. ``docs/metrics.md`` is written from it
(``python tools/metrics_doc.py``), and a test checks that the page and this table agree.

Per-faction summary metrics (``gw.solars.<guild>``…) are a faction's end values: a batch keeps them in
its faction table (``solars``, ``domains``, ``notoriety``), not as a column per guild.
"""

from __future__ import annotations

from typing import NamedTuple


class Metric(NamedTuple):
    counts: str  # what it counts, in the terms of the ledger
    headline: bool = False  # a column of the campaign table (the others are in metrics.parquet only)


PER_FACTION = ("gw.domains.", "gw.solars.", "gw.notoriety.")


def is_per_faction(key: str) -> bool:
    return key.startswith(PER_FACTION)


_H = True
METRICS: dict[str, Metric] = {
    # ---- CV: caravans (the scenario's convoys and the LINK-04 trade caravans) ------------------------
    "cv.convoys": Metric("convoys in the campaign (every `ConvoySetOut`)", _H),
    "cv.arrived": Metric("convoys that reached their destination (`ConvoyArrived`)", _H),
    "cv.destroyed": Metric("convoys destroyed (`ConvoyDestroyed`)", _H),
    "cv.stranded": Metric("convoys still on the road at the end (set out, neither arrived nor destroyed)", _H),
    "cv.mean_days_to_arrive": Metric("mean days on the road of the convoys that arrived: the days each moved "
                                     "or rested (its `days_on_road`; a day stopped on the road, blocked or "
                                     "refusing to move, is neither; 0 when none arrived)", _H),
    "cv.miles_travelled": Metric("miles every convoy travelled (sum of `ConvoyTravelled.miles`)", _H),
    "cv.hazards_met": Metric("hazards met on the road, scripted ones included: a hazard's check "
                             "(`HazardCheckRolled`) or its combat (`CombatBegan`)", _H),
    "cv.hazard_damage": Metric("HP lost to hazards, their combats included (`DamageTaken`: HP before − "
                               "after)", _H),
    "cv.combat_damage": Metric("HP lost in the combats of hazards (SC-CV-14; `DamageTaken` of a combat: HP "
                               "before − after)", _H),
    "cv.starvation_damage": Metric("HP lost to starvation (CV-REST-04, RES-CV-10; `StarvationDamageTaken`: "
                                   "HP before − after, never more than the HP left)", _H),
    "cv.mutiny_days": Metric("convoy-days begun in mutiny (RES-CV-18: counted at the start of each day's "
                             "travel slot, after its orders)", _H),
    "cv.final_unrest": Metric("Unrest of every convoy at the end, summed"),
    "cv.peak_unrest": Metric("highest Unrest any convoy reached (its starting Unrest or an "
                             "`UnrestRose.after`)", _H),
    "cv.stores_bought": Metric("units of food stores bought in settlements (`StoresBought.total`)"),
    "cv.gift_units_given": Metric("cargo units given as gifts (`GiftGiven`)"),
    "cv.gp_spent": Metric("gp spent on wages, stores, repair materials, wagons and axles (`WagesPaid`, "
                          "`StoresBought`, `RepairMaterialsBought`, `WagonBought`, `AxlesFitted`)", _H),
    "cv.wagons_lost": Metric("wagons lost (`WagonLost`)", _H),
    "cv.travelers_lost": Metric("travelers killed on the road (`TravelerKilled`); those who leave "
                                "(`TravelerLeft`: no room, unpaid) are not counted", _H),
    "cv.trade_goods_delivered": Metric("trade-goods cargo units aboard the convoys that arrived "
                                       "(`ConvoyArrived.cargo`)", _H),
    "cv.treasure_delivered": Metric("treasure cargo units aboard the convoys that arrived "
                                    "(`ConvoyArrived.cargo`)", _H),
    "cv.days_travelled": Metric("convoy-days on which a convoy moved at least an hour (`ConvoyTravelled`)"),
    "cv.days_rested": Metric("convoy-days planned as a rest or repair day (the convoy did not set out)"),
    # ---- GW: guild war -------------------------------------------------------------------------------
    "gw.seasons": Metric("guild seasons played (RES-GW-10: each resolved at one hour)"),
    "gw.deployments": Metric("armies deployed (`ArmyDeployed`)", _H),
    "gw.battles": Metric("battles fought (`BattleFought`)", _H),
    "gw.siege_seasons": Metric("domain-seasons under siege: each season a domain is besieged by at least "
                               "one army (RES-GW-20)", _H),
    "gw.assaults": Metric("assaults on a domain (`DomainAttacked`)", _H),
    "gw.assaults_won": Metric("assaults that took the domain (`DomainAttacked` won)", _H),
    "gw.occupations": Metric("domains occupied (`DomainOccupied`)", _H),
    "gw.sacks": Metric("domains sacked (`DomainSacked`)", _H),
    "gw.units_destroyed": Metric("units destroyed by the enemy in battles, assaults and siege damage (not "
                                 "the deserters)", _H),
    "gw.deserters": Metric("units lost to desertion (GW-FAM-02, `DesertionSuffered`)", _H),
    "gw.units_unpaid": Metric("units whose upkeep was not paid (`UpkeepPaid.left`)", _H),
    "gw.armies_destroyed": Metric("armies destroyed (`ArmyDestroyed`)", _H),
    "gw.domains_annexed": Metric("domains annexed (`DomainAnnexed`)", _H),
    "gw.loot_created": Metric("war loots created (`LootCreated`)"),
    "gw.loot_solars": Metric("solars of war loot created (`LootCreated.total`)", _H),
    "gw.loot_claimed_solars": Metric("solars of war loot claimed (`LootClaimed.total`)"),
    "gw.bank_kept_solars": Metric("compensation solars the bank kept when a title was not returned in time "
                                  "(GW-ANX-04, `CompensationForfeited`)"),
    "gw.armies": Metric("armies in the field at the end (deployed or raised, and not destroyed, disbanded "
                        "or dissolved)"),
    "gw.domains.*": Metric("a guild's domains at the end (its faction row: `domains`)"),
    "gw.solars.*": Metric("a guild's solars at the end (its faction row: `solars`)"),
    "gw.notoriety.*": Metric("a guild's Notoriety at the end (its faction row: `notoriety`)"),
    # ---- KM: kingdoms --------------------------------------------------------------------------------
    "km.turns": Metric("kingdom turns played (the turns of `KingdomTurnBegan`)"),
    "km.kingdoms": Metric("kingdoms at the end (new vassals and colonies included)"),
    "km.edicts_diplomatic": Metric("diplomatic edicts issued (`DiplomaticEdictIssued`)", _H),
    "km.edicts_exploration": Metric("exploration edicts issued (`ExplorationEdictIssued`)", _H),
    "km.edicts_trade": Metric("trade edicts issued (`TradeEdictIssued`)", _H),
    "km.edicts_vassalage": Metric("vassalage edicts issued (`VassalageEdictIssued`)", _H),
    "km.embassies": Metric("embassies established by a diplomatic edict or a threat (KM-REL-01/02/05)"),
    "km.treaties_signed": Metric("treaties signed (`AgreementSigned` of a treaty)", _H),
    "km.alliances_signed": Metric("alliances signed (`AgreementSigned` of an alliance)", _H),
    "km.treaty_refused": Metric("treaties refused (`AgreementRefused` of a treaty)"),
    "km.alliance_refused": Metric("alliances refused (`AgreementRefused` of an alliance)"),
    "km.wars_declared": Metric("wars declared after a threat failed by 5 or more against a hostile kingdom "
                               "(KM-REL-05)"),
    "km.hexes_explored": Metric("hexes explored (`HexExplored`)", _H),
    "km.features_found": Metric("hidden features found by explorers (KM-EXP-05: a check at or above the "
                                "feature's DC)"),
    "km.expeditions_scattered": Metric("exploration expeditions scattered by an encounter (KM-EXP-08)"),
    "km.expeditions_killed": Metric("exploration expeditions killed by an encounter (KM-EXP-08)"),
    "km.trade_routes_established": Metric("trade routes established (`TradeRouteEstablished`)", _H),
    "km.trade_sold_elsewhere": Metric("trade goods sold elsewhere (`TradeGoodsSoldElsewhere`)"),
    "km.trade_expeditions_lost": Metric("trade expeditions lost (`TradeExpeditionLost`)", _H),
    "km.vassalage_new_vassal": Metric("vassalage edicts taking a new vassal"),
    "km.vassalage_colony": Metric("vassalage edicts founding a colony"),
    "km.vassalage_subjugation": Metric("vassalage edicts of subjugation", _H),
    "km.subjugations_settled": Metric("subjugations settled: the overlord's third friction check in a row "
                                      "succeeded (KM-VAS-07)"),
    "km.hexes_claimed": Metric("hexes claimed (`HexClaimed`)", _H),
    "km.buildings_built": Metric("buildings constructed (`BuildingConstructed`)", _H),
    "km.improvements_built": Metric("terrain improvements built (`TerrainImprovementBuilt`)", _H),
    "km.hexes_lost_to_unrest": Metric("hexes lost to Unrest of 11 or more (`HexLostToUnrest`)", _H),
    "km.anarchy_turns": Metric("kingdom-turns in anarchy (an upkeep that ended with Unrest 20 or more)", _H),
    "km.orders_rejected": Metric("kingdom orders the rules refused (`OrderRejected` of a kingdom)", _H),
    "km.embassies_now": Metric("pairs of kingdoms with an embassy at the end"),
    "km.treaties_now": Metric("treaties in force at the end"),
    "km.alliances_now": Metric("alliances in force at the end"),
    "km.wars_now": Metric("pairs of kingdoms at war at the end"),
    "km.trade_routes_active": Metric("established trade routes at the end"),
    "km.vassals": Metric("kingdoms with an overlord at the end"),
    "km.treasury_total": Metric("Treasury of every kingdom at the end, summed (BP)"),
    "km.treasury_min": Metric("Treasury of the poorest kingdom at the end (BP)"),
    "km.treasury_max": Metric("Treasury of the richest kingdom at the end (BP)", _H),
    "km.unrest_max": Metric("highest kingdom Unrest at the end", _H),
    "km.size_total": Metric("hexes of every kingdom at the end, summed"),
    "km.size_max": Metric("hexes of the largest kingdom at the end", _H),
    "km.fame_max": Metric("highest Fame at the end"),
    "km.infamy_max": Metric("highest Infamy at the end"),
    # ---- MN: Mare Nostrum diplomacy ---------------------------------------------------------------
    "mn.turns": Metric("diplomacy turns played (`TurnBegan`)"),
    "mn.nations": Metric("nations in the campaign"),
    "mn.ambassadors_bought": Metric("ambassadors bought (`AmbassadorBought`)"),
    "mn.missions": Metric("missions launched (`MissionLaunched`)", _H),
    "mn.renewals": Metric("treaty renewal missions launched (`RenewalLaunched`)"),
    "mn.tests": Metric("diplomacy tests rolled (`DiplomacyTestRolled`)", _H),
    "mn.very_warm": Metric("diplomacy tests with a very warm welcome (MN-OUT-01: 20 or more below the "
                           "threshold)", _H),
    "mn.limited": Metric("diplomacy tests that gave a limited treaty (MN-OUT-02)"),
    "mn.failures": Metric("diplomacy tests failed (MN-OUT-03: at or above the threshold)", _H),
    "mn.blunders": Metric("diplomacy tests ending in a blunder (MN-OUT-04: 20 or more above the "
                          "threshold)", _H),
    "mn.disasters": Metric("diplomacy tests ending in a disaster (MN-OUT-05: the d100 showed 96–00)", _H),
    "mn.host_accept": Metric("hosts that chose to accept the ambassador of a mission (MN-HOST-01, "
                             "`HostChose`)"),
    "mn.host_dismiss": Metric("hosts that chose to send the ambassador of a mission home (MN-HOST-01, "
                              "`HostChose`)"),
    "mn.host_execute": Metric("hosts that chose to execute the ambassador of a mission (MN-HOST-01, "
                              "`HostChose`); not the disasters of MN-OUT-05", _H),
    "mn.host_imprison": Metric("hosts that chose to imprison the ambassador of a mission (MN-HOST-01, "
                               "`HostChose`); not the blunders of MN-OUT-04", _H),
    "mn.interferences": Metric("interference rolls (`InterferenceRolled`)"),
    "mn.plots_discovered": Metric("plots discovered: an interference die showing 20 (MN-INT-02)"),
    "mn.treaties_signed": Metric("treaties signed (`TreatySigned`)", _H),
    "mn.treaties_broken": Metric("treaties a nation broke (`TreatyEnded` broken): alliances and commercial "
                                 "agreements (RES-MN-17), pacts (MN-TRE-08)", _H),
    "mn.treaties_expired": Metric("limited treaties whose last turn passed (SC-MN-04)"),
    "mn.treaties_ended": Metric("treaties that ended neither broken nor expired: their embassy closed "
                                "(MN-EMB-01) or relations were severed (MN-TRE-07)"),
    "mn.embassies_installed": Metric("embassies installed (`EmbassyInstalled`)", _H),
    "mn.embassies_closed": Metric("embassies closed (`EmbassyClosed`)"),
    "mn.ransoms_paid": Metric("ransoms paid for imprisoned ambassadors (`RansomPaid`)"),
    "mn.armies_raised": Metric("armies raised (`ArmyRaised`)", _H),
    "mn.pacts_honoured": Metric("pact obligations honoured (`PactHonoured`)"),
    "mn.pacts_broken_war": Metric("pacts broken while the ally was at war (MN-TRE-08, `PactBroken`)"),
    "mn.pacts_broken_peace": Metric("pacts broken in peacetime (MN-TRE-08, `PactBroken`)"),
    "mn.wars_declared": Metric("wars declared (`WarDeclared`)", _H),
    "mn.invasions": Metric("invasions recorded (`InvasionRecorded`)", _H),
    "mn.repulses": Metric("invasions repulsed (`RepulseRecorded`)", _H),
    "mn.income_po": Metric("income collected by every nation (`IncomeCollected`, PO)", _H),
    "mn.ambassadors_home": Metric("ambassadors at home at the end"),
    "mn.ambassadors_travelling": Metric("ambassadors travelling at the end"),
    "mn.ambassadors_at_post": Metric("ambassadors at their post at the end"),
    "mn.ambassadors_imprisoned": Metric("ambassadors in prison at the end"),
    "mn.ambassadors_dead": Metric("ambassadors dead at the end"),
    "mn.treaties_in_force": Metric("treaties in force at the end"),
    "mn.commercial_in_force": Metric("commercial treaties in force at the end"),
    "mn.alliance_in_force": Metric("alliances in force at the end"),
    "mn.pact_in_force": Metric("pacts in force at the end"),
    "mn.embassies": Metric("embassies open at the end"),
    "mn.wars": Metric("wars under way at the end (declared, or begun by honouring a pact, MN-TRE-07)"),
    "mn.treasury_total": Metric("Treasury of every nation at the end, summed (PO)"),
    "mn.treasury_max": Metric("Treasury of the richest nation at the end (PO)", _H),
    "mn.treasury_min": Metric("Treasury of the poorest nation at the end (PO)"),
    # ---- LINK: where two systems meet (RULES.md §5.5) -----------------------------------------------
    "link.dual_factions": Metric("kingdoms that are also a nation (LINK-03)"),
    "link.mn_costs_bp": Metric("BP kingdoms paid for Mare Nostrum costs (LINK-03, `TreasuryConverted`)", _H),
    "link.mn_incomes_bp": Metric("BP kingdoms received from Mare Nostrum income (LINK-03, `TreasuryConverted`)", _H),
    "link.envoys": Metric("envoys sent between kingdoms (LINK-05, `EnvoySent`)"),
    "link.affiliated_guilds": Metric("guilds affiliated to a kingdom (LINK-07)"),
    "link.nation_armies": Metric("nation armies raised as guild armies (LINK-06, `NationArmyRaised`)", _H),
    "link.nation_armies_not_raised": Metric("nation armies that could not be raised (`NationArmyNotRaised`)"),
    "link.nation_army_solars": Metric("solars paid to raise nation armies (LINK-06, "
                                      "`NationArmyRaised.solars`)"),
    "link.nation_upkeep_solars": Metric("solars of nation army upkeep funded (`NationArmyUpkeepFunded`)"),
    "link.invasions": Metric("invasions guild war reported to Mare Nostrum (LINK-07, `AttackReported`)", _H),
    "link.repulses": Metric("repulses guild war reported to Mare Nostrum (LINK-07, `AttackReported`)", _H),
    "link.occupations": Metric("kingdom hexes occupied by guilds (LINK-08, `OccupationReported`)", _H),
    "link.occupation_unrest": Metric("kingdom Unrest from occupation (LINK-08, `OccupationUnrest`)"),
    "link.hexes_lost": Metric("kingdom hexes lost to guilds (LINK-08, `HexLostToGuild`)", _H),
    "link.conquests": Metric("kingdoms conquered by guilds (LINK-09, `KingdomConqueredByGuilds`)", _H),
    "link.trade_convoys": Metric("trade edicts sent as caravans (LINK-04, `TradeCaravanSetOut`)", _H),
}

HEADLINE = frozenset(k for k, m in METRICS.items() if m.headline)


def definition(key: str) -> Metric | None:
    """A metric's entry (``gw.solars.griffon`` → the ``gw.solars.*`` entry)."""
    if key in METRICS:
        return METRICS[key]
    parts = key.split(".")
    return METRICS.get(f"{parts[0]}.{parts[1]}.*") if len(parts) == 3 else None


__all__ = ["HEADLINE", "METRICS", "Metric", "definition", "is_per_faction"]
