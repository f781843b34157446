"""What a person reads on a plot: systems, faction kinds and metrics in English and French, with units.

Metric keys are what the engine writes (``km.treasury`` in a season table, ``cv.arrived`` in a batch
row); a plot never shows one. The French names are the seeds' terms (RULES.md, Appendix A): the
kingdom Treasury is in *PC* (points de construction), kingdom Unrest is *Insatisfaction*, caravan
Unrest is the *Niveau de Troubles*, guild money is *solars*, Mare Nostrum money is *PO*.

A key this table does not know (a metric added later) still gets a readable name, made from the key
(``cv.gift_units_given`` → "Gift units given"), in English for both languages.
"""

from __future__ import annotations

import re
from typing import NamedTuple

LANGS = ("en", "fr")


class Name(NamedTuple):
    """A metric's name and unit in each language (``unit`` empty: a count of what the name says)."""

    en: str
    fr: str
    unit_en: str = ""
    unit_fr: str = ""

    def name(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en

    def unit(self, lang: str) -> str:
        return self.unit_fr if lang == "fr" else self.unit_en


# faction kind → (system, English plural, French plural); the kind is the prefix of a faction key
KINDS: dict[str, tuple[str, str, str]] = {
    "kingdom": ("km", "Kingdoms", "Royaumes"),
    "nation": ("mn", "Nations", "Nations"),
    "guild": ("gw", "Guilds", "Guildes"),
    "convoy": ("cv", "Caravans", "Convois"),
}
SYSTEM_OF_KIND = {kind: system for kind, (system, _, _) in KINDS.items()}
# system → (English, French) for batch metrics, which belong to a system rather than a faction kind
SYSTEMS: dict[str, tuple[str, str]] = {
    "km": ("Kingdoms", "Royaumes"),
    "mn": ("Mare Nostrum nations", "Nations de Mare Nostrum"),
    "gw": ("Guilds", "Guildes"),
    "cv": ("Caravans", "Convois"),
    "link": ("Links between systems", "Liens entre systèmes"),
}

_BP = ("BP", "PC")
_PO = ("PO", "PO")
_SOL = ("solars", "solars")
_HP = ("HP", "pv")
_DAYS = ("days", "jours")
_GP = ("gp", "po")
_PTS = ("points", "points")


def _n(en: str, fr: str, unit: tuple[str, str] = ("", "")) -> Name:
    return Name(en, fr, *unit)


# The per-faction metrics of the season table (SeasonSummarized / CampaignEnded), by column name.
SEASON: dict[str, Name] = {
    # Kingdoms (KM): the monthly kingdom turn, §5.1
    "km.treasury": _n("Treasury", "Trésorerie", _BP),
    "km.size": _n("Size", "Taille", ("hexes", "hexagones")),
    "km.unrest": _n("Unrest", "Insatisfaction", _PTS),
    "km.economy": _n("Economy", "Économie", _PTS),
    "km.loyalty": _n("Loyalty", "Loyauté", _PTS),
    "km.stability": _n("Stability", "Stabilité", _PTS),
    "km.fame": _n("Fame", "Gloire", _PTS),
    "km.infamy": _n("Infamy", "Infamie", _PTS),
    "km.control_dc": _n("Control DC", "DD de contrôle"),
    "km.treaties": _n("Treaties", "Traités"),
    "km.trade_routes": _n("Trade routes", "Routes commerciales"),
    "km.occupied_pending": _n("Domains occupied in its hexes", "Domaines occupés sur ses hexagones"),
    # Nations (MN)
    "mn.treasury": _n("Treasury", "Trésor", _PO),
    "mn.provinces": _n("Provinces", "Provinces"),
    "mn.ambassadors": _n("Ambassadors", "Ambassadeurs"),
    "mn.embassies": _n("Embassies", "Ambassades"),
    "mn.treaties": _n("Treaties", "Traités"),
    "mn.imports": _n("Imported resources", "Ressources importées"),
    "mn.gw_armies": _n("Armies in the field", "Armées en campagne"),
    # Guilds (GW)
    "gw.solars": _n("Solars", "Solars", _SOL),
    "gw.victuals": _n("Victuals", "Victuailles"),
    "gw.notoriety": _n("Notoriety", "Notoriété", _PTS),
    "gw.domains": _n("Domains", "Domaines"),
    "gw.domains_occupied": _n("Domains occupied", "Domaines occupés"),
    "gw.domains_besieged": _n("Domains besieged", "Domaines assiégés"),
    "gw.armies": _n("Armies", "Armées"),
    "gw.army_units": _n("Units in armies", "Unités en armée"),
    "gw.garrison_units": _n("Units in garrison", "Unités en garnison"),
    "gw.pool_units": _n("Units in reserve", "Unités en réserve"),
    # Caravans (CV): also the columns of the per-day convoy table
    "cv.hp": _n("Hit points", "Points de vie", _HP),
    "cv.max_hp": _n("Maximum hit points", "Points de vie maximum", _HP),
    "cv.unrest": _n("Unrest", "Niveau de Troubles", _PTS),
    "cv.provisions": _n("Provisions", "Provisions", ("units", "unités")),
    "cv.miles": _n("Distance travelled", "Distance parcourue", ("miles", "milles")),
    "cv.status": _n("Status", "État"),
}

# The whole-campaign metrics of a batch row (``summary`` of a run).
SUMMARY: dict[str, Name] = {
    "hours": _n("Campaign length", "Durée de la campagne", ("hours", "heures")),
    "events": _n("Ledger events", "Événements du registre"),
    # CV
    "cv.convoys": _n("Convoys", "Convois"),
    "cv.arrived": _n("Convoys arrived", "Convois arrivés"),
    "cv.destroyed": _n("Convoys destroyed", "Convois détruits"),
    "cv.stranded": _n("Convoys still on the road", "Convois encore en route"),
    "cv.mean_days_to_arrive": _n("Mean time to arrive", "Durée moyenne du voyage", _DAYS),
    "cv.miles_travelled": _n("Distance travelled", "Distance parcourue", ("miles", "milles")),
    "cv.hazards_met": _n("Hazards met", "Dangers rencontrés"),
    "cv.hazard_damage": _n("Damage from hazards", "Dégâts des dangers", _HP),
    "cv.combat_damage": _n("Damage in combat", "Dégâts en combat", _HP),
    "cv.starvation_damage": _n("Damage from starvation", "Dégâts de la famine", _HP),
    "cv.mutiny_days": _n("Days in mutiny", "Jours de mutinerie", _DAYS),
    "cv.final_unrest": _n("Unrest at the end (all convoys)", "Niveau de Troubles final (tous convois)", _PTS),
    "cv.peak_unrest": _n("Highest Unrest", "Niveau de Troubles maximal", _PTS),
    "cv.stores_bought": _n("Food stores bought", "Réserves de nourriture achetées"),
    "cv.gift_units_given": _n("Cargo units given as gifts", "Unités de chargement offertes"),
    "cv.gp_spent": _n("Money spent", "Dépenses", _GP),
    "cv.wagons_lost": _n("Wagons lost", "Chariots perdus"),
    "cv.travelers_lost": _n("Travelers lost", "Voyageurs perdus"),
    "cv.trade_goods_delivered": _n("Trade goods delivered", "Marchandises livrées", ("cargo units", "unités")),
    "cv.treasure_delivered": _n("Treasure delivered", "Trésor livré", ("cargo units", "unités")),
    "cv.days_travelled": _n("Days on the move", "Jours de marche", _DAYS),
    "cv.days_rested": _n("Days at rest", "Jours de repos", _DAYS),
    # GW
    "gw.seasons": _n("Seasons played", "Saisons jouées"),
    "gw.deployments": _n("Army deployments", "Déploiements d'armées"),
    "gw.battles": _n("Battles", "Batailles"),
    "gw.siege_seasons": _n("Seasons of siege", "Saisons de siège"),
    "gw.assaults": _n("Assaults", "Assauts"),
    "gw.assaults_won": _n("Assaults won", "Assauts gagnés"),
    "gw.occupations": _n("Occupations", "Occupations"),
    "gw.sacks": _n("Sacks", "Sacs"),
    "gw.units_destroyed": _n("Units destroyed", "Unités détruites"),
    "gw.deserters": _n("Deserters", "Déserteurs"),
    "gw.units_unpaid": _n("Units unpaid", "Unités impayées"),
    "gw.armies_destroyed": _n("Armies destroyed", "Armées détruites"),
    "gw.domains_annexed": _n("Domains annexed", "Domaines annexés"),
    "gw.loot_created": _n("War loots", "Butins de guerre"),
    "gw.loot_solars": _n("War loot", "Butin de guerre", _SOL),
    "gw.loot_claimed_solars": _n("War loot claimed", "Butin de guerre réclamé", _SOL),
    "gw.bank_kept_solars": _n("Compensations kept by the bank", "Compensations gardées par la banque", _SOL),
    "gw.armies": _n("Armies at the end", "Armées à la fin"),
    # per guild: gw.<metric>.<guild id>
    "gw.domains.*": _n("Domains at the end", "Domaines à la fin"),
    "gw.solars.*": _n("Solars at the end", "Solars à la fin", _SOL),
    "gw.notoriety.*": _n("Notoriety at the end", "Notoriété à la fin", _PTS),
    # KM
    "km.turns": _n("Kingdom turns", "Tours de royaume"),
    "km.kingdoms": _n("Kingdoms", "Royaumes"),
    "km.edicts_diplomatic": _n("Diplomatic edicts", "Édits diplomatiques"),
    "km.edicts_exploration": _n("Exploration edicts", "Édits d'exploration"),
    "km.edicts_trade": _n("Trade edicts", "Édits commerciaux"),
    "km.edicts_vassalage": _n("Vassalage edicts", "Édits de vassalité"),
    "km.embassies": _n("Embassies established", "Ambassades établies"),
    "km.treaties_signed": _n("Treaties signed", "Traités signés"),
    "km.alliances_signed": _n("Alliances signed", "Alliances signées"),
    "km.treaty_refused": _n("Treaties refused", "Traités refusés"),
    "km.alliance_refused": _n("Alliances refused", "Alliances refusées"),
    "km.wars_declared": _n("Wars declared", "Guerres déclarées"),
    "km.hexes_explored": _n("Hexes explored", "Hexagones explorés"),
    "km.features_found": _n("Features found", "Particularités découvertes"),
    "km.expeditions_scattered": _n("Expeditions scattered", "Expéditions dispersées"),
    "km.expeditions_killed": _n("Expeditions killed", "Expéditions tuées"),
    "km.trade_routes_established": _n("Trade routes established", "Routes commerciales établies"),
    "km.trade_sold_elsewhere": _n("Trade sold elsewhere", "Marchandises vendues ailleurs"),
    "km.trade_expeditions_lost": _n("Trade expeditions lost", "Expéditions commerciales perdues"),
    "km.vassalage_new_vassal": _n("New vassals", "Nouveaux vassaux"),
    "km.vassalage_colony": _n("Colonies founded", "Colonies fondées"),
    "km.vassalage_subjugation": _n("Subjugations attempted", "Assujettissements tentés"),
    "km.subjugations_settled": _n("Subjugations settled", "Assujettissements réglés"),
    "km.hexes_claimed": _n("Hexes claimed", "Hexagones revendiqués"),
    "km.buildings_built": _n("Buildings built", "Bâtiments construits"),
    "km.improvements_built": _n("Terrain improvements built", "Aménagements construits"),
    "km.hexes_lost_to_unrest": _n("Hexes lost to Unrest", "Hexagones perdus par l'Insatisfaction"),
    "km.anarchy_turns": _n("Turns in anarchy", "Tours d'anarchie"),
    "km.orders_rejected": _n("Orders rejected", "Ordres refusés"),
    "km.embassies_now": _n("Embassies at the end", "Ambassades à la fin"),
    "km.treaties_now": _n("Treaties at the end", "Traités à la fin"),
    "km.alliances_now": _n("Alliances at the end", "Alliances à la fin"),
    "km.wars_now": _n("Wars at the end", "Guerres à la fin"),
    "km.trade_routes_active": _n("Trade routes at the end", "Routes commerciales à la fin"),
    "km.vassals": _n("Vassals at the end", "Vassaux à la fin"),
    "km.treasury_total": _n("Treasury, all kingdoms", "Trésorerie, tous royaumes", _BP),
    "km.treasury_min": _n("Treasury of the poorest kingdom", "Trésorerie du royaume le plus pauvre", _BP),
    "km.treasury_max": _n("Treasury of the richest kingdom", "Trésorerie du royaume le plus riche", _BP),
    "km.unrest_max": _n("Highest Unrest at the end", "Insatisfaction maximale à la fin", _PTS),
    "km.size_total": _n("Size, all kingdoms", "Taille, tous royaumes", ("hexes", "hexagones")),
    "km.size_max": _n("Size of the largest kingdom", "Taille du plus grand royaume", ("hexes", "hexagones")),
    "km.fame_max": _n("Highest Fame", "Gloire maximale", _PTS),
    "km.infamy_max": _n("Highest Infamy", "Infamie maximale", _PTS),
    # MN
    "mn.turns": _n("Diplomacy turns", "Tours de diplomatie"),
    "mn.nations": _n("Nations", "Nations"),
    "mn.ambassadors_bought": _n("Ambassadors bought", "Ambassadeurs achetés"),
    "mn.missions": _n("Missions", "Missions"),
    "mn.renewals": _n("Treaty renewals", "Renouvellements de traités"),
    "mn.tests": _n("Diplomacy tests", "Tests de diplomatie"),
    "mn.very_warm": _n("Very warm welcomes", "Accueils très chaleureux"),
    "mn.limited": _n("Limited treaties", "Traités limités"),
    "mn.failures": _n("Failures", "Échecs"),
    "mn.blunders": _n("Blunders", "Impairs"),
    "mn.disasters": _n("Disasters", "Désastres"),
    "mn.host_accept": _n("Hosts accepting an ambassador", "Hôtes acceptant un ambassadeur"),
    "mn.host_dismiss": _n("Ambassadors dismissed", "Ambassadeurs renvoyés"),
    "mn.host_execute": _n("Ambassadors executed", "Ambassadeurs exécutés"),
    "mn.host_imprison": _n("Ambassadors imprisoned", "Ambassadeurs emprisonnés"),
    "mn.interferences": _n("Interferences", "Ingérences"),
    "mn.plots_discovered": _n("Plots discovered", "Complots découverts"),
    "mn.treaties_signed": _n("Treaties signed", "Traités signés"),
    "mn.treaties_broken": _n("Treaties broken", "Traités rompus"),
    "mn.treaties_expired": _n("Treaties expired", "Traités expirés"),
    "mn.treaties_ended": _n("Treaties ended", "Traités terminés"),
    "mn.embassies_installed": _n("Embassies installed", "Ambassades installées"),
    "mn.embassies_closed": _n("Embassies closed", "Ambassades fermées"),
    "mn.ransoms_paid": _n("Ransoms paid", "Rançons payées"),
    "mn.armies_raised": _n("Armies raised", "Armées levées"),
    "mn.pacts_honoured": _n("Pacts honoured", "Pactes honorés"),
    "mn.pacts_broken_war": _n("Pacts broken by war", "Pactes rompus par la guerre"),
    "mn.pacts_broken_peace": _n("Pacts broken in peace", "Pactes rompus en paix"),
    "mn.wars_declared": _n("Wars declared", "Guerres déclarées"),
    "mn.invasions": _n("Invasions", "Invasions"),
    "mn.repulses": _n("Invasions repulsed", "Invasions repoussées"),
    "mn.income_po": _n("Income", "Revenus", _PO),
    "mn.ambassadors_home": _n("Ambassadors at home at the end", "Ambassadeurs au pays à la fin"),
    "mn.ambassadors_travelling": _n("Ambassadors travelling at the end", "Ambassadeurs en voyage à la fin"),
    "mn.ambassadors_at_post": _n("Ambassadors at post at the end", "Ambassadeurs en poste à la fin"),
    "mn.ambassadors_imprisoned": _n("Ambassadors imprisoned at the end", "Ambassadeurs emprisonnés à la fin"),
    "mn.ambassadors_dead": _n("Ambassadors dead", "Ambassadeurs morts"),
    "mn.treaties_in_force": _n("Treaties in force at the end", "Traités en vigueur à la fin"),
    "mn.commercial_in_force": _n("Commercial treaties at the end", "Traités commerciaux à la fin"),
    "mn.alliance_in_force": _n("Alliances at the end", "Alliances à la fin"),
    "mn.pact_in_force": _n("Pacts at the end", "Pactes à la fin"),
    "mn.embassies": _n("Embassies at the end", "Ambassades à la fin"),
    "mn.wars": _n("Wars at the end", "Guerres à la fin"),
    "mn.treasury_total": _n("Treasury, all nations", "Trésor, toutes nations", _PO),
    "mn.treasury_max": _n("Treasury of the richest nation", "Trésor de la nation la plus riche", _PO),
    "mn.treasury_min": _n("Treasury of the poorest nation", "Trésor de la nation la plus pauvre", _PO),
    # LINK
    "link.dual_factions": _n("Factions both kingdom and nation", "Factions à la fois royaume et nation"),
    "link.mn_costs_bp": _n("Mare Nostrum costs paid by kingdoms", "Coûts de Mare Nostrum payés par les royaumes", _BP),
    "link.mn_incomes_bp": _n("Mare Nostrum income of kingdoms", "Revenus de Mare Nostrum des royaumes", _BP),
    "link.envoys": _n("Envoys", "Envoyés"),
    "link.affiliated_guilds": _n("Guilds affiliated to a kingdom", "Guildes affiliées à un royaume"),
    "link.nation_armies": _n("Nation armies raised", "Armées nationales levées"),
    "link.nation_armies_not_raised": _n("Nation armies not raised", "Armées nationales non levées"),
    "link.nation_army_solars": _n("Nation armies' pay", "Solde des armées nationales", _SOL),
    "link.nation_upkeep_solars": _n("Nation armies' upkeep", "Entretien des armées nationales", _SOL),
    "link.invasions": _n("Invasions", "Invasions"),
    "link.repulses": _n("Invasions repulsed", "Invasions repoussées"),
    "link.occupations": _n("Kingdom hexes occupied", "Hexagones de royaume occupés"),
    "link.occupation_unrest": _n("Unrest from occupation", "Insatisfaction due à l'occupation", _PTS),
    "link.hexes_lost": _n("Hexes lost to war", "Hexagones perdus à la guerre"),
    "link.conquests": _n("Conquests", "Conquêtes"),
    "link.trade_convoys": _n("Trade convoys", "Convois commerciaux"),
}

# Words of the plots themselves: key → (English, French).
TEXT: dict[str, tuple[str, str]] = {
    "season": ("Season", "Saison"),
    "day": ("Day", "Jour"),
    "days": ("Days", "Jours"),
    "journey_day": ("Day of the journey", "Jour du voyage"),
    "seeds": ("Seeds", "Graines"),
    "seed": ("seed {seed}", "graine {seed}"),
    "across": ("across {n} seeds", "sur {n} graines"),
    "median": ("median", "médiane"),
    "mean": ("mean", "moyenne"),
    "band": ("10th–90th percentile", "10e–90e centile"),
    "others": ("{n} other {kind}", "{n} autres {kind}"),
    "constant": ("every {kind} stays at {v}", "chaque {kind} reste à {v}"),
    "on_road": ("Convoys on the road", "Convois en route"),
    "each_convoy": ("each convoy", "chaque convoi"),
    "median_of_road": ("median of the convoys on the road\n(days with {n} or more)",
                       "médiane des convois en route\n(jours où ils sont {n} ou plus)"),
    "arrived": ("arrived", "arrivé"),
    "destroyed": ("destroyed", "détruit"),
    "travelling": ("still travelling", "encore en route"),
    "convoy": ("Convoy", "Convoi"),
    "journeys": ("Journeys", "Voyages"),
    "days_on_road": ("Days on the road", "Jours en route"),
    "set_out_per_season": ("Journeys begun per season", "Voyages commencés par saison"),
    "distributions": ("Distributions", "Distributions"),
    "by_faction": ("{name} per {one}", "{name} par {one}"),
    "same_everywhere": ("the same in every seed: {v}", "identique pour chaque graine : {v}"),
    "same_in_all": ("Same in every seed: {v}", "Identique pour chaque graine : {v}"),
    "lines_key": ("Solid line: median; dashed line: mean.", "Trait plein : médiane ; tirets : moyenne."),
}
# one faction of a kind ("per guild"): kind → (English, French)
ONE: dict[str, tuple[str, str]] = {
    "kingdom": ("kingdom", "royaume"), "nation": ("nation", "nation"), "guild": ("guild", "guilde"),
    "convoy": ("convoy", "convoi"),
}
# the standard plots' own titles
PLOT_TITLES: dict[str, tuple[str, str]] = {
    "treasury": ("Treasury", "Trésorerie"),
    "unrest": ("Unrest", "Insatisfaction"),
    "territory": ("Territory", "Territoire"),
    "armies": ("Armies", "Armées"),
    "treaties": ("Treaties and embassies", "Traités et ambassades"),
    "caravans": ("Caravans day by day", "Convois jour par jour"),
    "journeys": ("Caravan journeys", "Voyages des convois"),
}


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"lang {lang!r}: expected one of {', '.join(LANGS)}")
    return lang


def text(key: str, lang: str, **kw: object) -> str:
    en, fr = TEXT[key]
    s = fr if lang == "fr" else en
    return s.format(**kw) if kw else s


def one(kind: str, lang: str) -> str:
    """``guild`` → "guild" / "guilde"."""
    en, fr = ONE.get(kind, (kind, kind))
    return fr if lang == "fr" else en


def _humanize(key: str) -> str:
    words = key.rsplit(".", 1)[-1].replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else key


def lookup(key: str) -> Name:
    """The name of a metric key, from the tables or made from the key."""
    if key in SEASON:
        return SEASON[key]
    if key in SUMMARY:
        return SUMMARY[key]
    per_faction = re.fullmatch(r"([a-z]+\.[a-z_]+)\.([^.]+)", key)
    if per_faction and f"{per_faction.group(1)}.*" in SUMMARY:
        base = SUMMARY[f"{per_faction.group(1)}.*"]
        who = per_faction.group(2)
        return Name(f"{base.en} — {who}", f"{base.fr} — {who}", base.unit_en, base.unit_fr)
    words = _humanize(key)
    return Name(words, words)


def metric_name(key: str, lang: str = "en") -> str:
    return lookup(key).name(lang)


def axis_label(key: str, lang: str = "en") -> str:
    """``Treasury (BP)``; a count has no unit: ``Armies``."""
    n = lookup(key)
    unit = n.unit(lang)
    return f"{n.name(lang)} ({unit})" if unit and unit.lower() != n.name(lang).lower() else n.name(lang)


def system_of(key: str) -> str:
    """``km.treasury`` → ``km``; ``hours`` → ``""``."""
    head, dot, _ = key.partition(".")
    return head if dot and head in SYSTEMS else ""


def kind_label(kind: str, lang: str = "en") -> str:
    """``Kingdoms (KM)``; an unknown kind is named as it is."""
    if kind not in KINDS:
        return kind
    system, en, fr = KINDS[kind]
    return f"{fr if lang == 'fr' else en} ({system.upper()})"


def kind_plural(kind: str, lang: str = "en") -> str:
    if kind not in KINDS:
        return kind
    _, en, fr = KINDS[kind]
    return (fr if lang == "fr" else en).lower()


def system_label(system: str, lang: str = "en") -> str:
    """``Caravans (CV)``; metrics of no system (``hours``) are the campaign's."""
    if system not in SYSTEMS:
        return "Campaign" if lang == "en" else "Campagne"
    en, fr = SYSTEMS[system]
    return f"{fr if lang == 'fr' else en} ({system.upper()})"


def panel_title(kind: str, key: str, lang: str = "en") -> str:
    """``Kingdoms (KM) — Treasury``: the system and faction kind, then the metric."""
    return f"{kind_label(kind, lang)} — {metric_name(key, lang)}"


def batch_title(key: str, lang: str = "en") -> str:
    """``Caravans (CV) — Convoys arrived``."""
    return f"{system_label(system_of(key), lang)} — {metric_name(key, lang)}"


def plot_title(name: str, lang: str = "en") -> str:
    en, fr = PLOT_TITLES.get(name, (name, name))
    return fr if lang == "fr" else en
