"""World state of the guild warfare (GW) system — guerre des guildes (RULES.md §3, §5.3).

Everything is plain msgspec data and round-trips through msgpack. Maps keyed by id are iterated in
sorted key order by the rules (never in insertion or hash order).

* ``Guild`` (*guilde*, SC-GW-02): leader (*chef*), chest (*coffre*: solars and victuals,
  *victuailles*), notoriety (*notoriété*), unit pool, affiliation (a kingdom or nation id, LINK-03).
* ``Seal`` (*sceau militaire* / *sceau politique*, SC-GW-03): affiliation province and region.
* ``Domain`` (*domaine*, SC-GW-05): hex, province, region, owner (a guild leader), title holder
  (*titre de propriété*), fortification level (*palissade*, *donjon*, …), garrison (*garnison*),
  buildings with structure points (*points de structure*), occupying and besieging armies
  (*sous occupation*, *assiégé*), ownership freeze, works in progress (constructions, *affectations*).
* ``Army`` (*armée*, SC-GW-08): owner guild, engaged seals (own, other, support), capacity, units
  with per-unit damage and bonuses, hex, status flags.
* ``Bank`` — the Banque de l'Hippocampe (SC-GW-10): compensation deposits.
* ``Loot`` — war loot (*butin de guerre*, GW-LOOT) lying on a hex.

The orders of SC-GW-09 (plus Recruit, SC-GW-15, and the domain actions of GW-OCC-02) are data
too, tagged structs: a person's order file is validated like a scenario, and the season's orders
are part of the world (``GwWorld.orders``) while the season resolves.
"""

from __future__ import annotations

from typing import Literal

import msgspec

# ---- units -------------------------------------------------------------------------------------


class Bonus(msgspec.Struct, array_like=True, frozen=True):
    """A per-unit combat-strength bonus (RES-GW-07): sépium, magie, l'occulte, croyances…"""

    source: str
    value: int


class Unit(msgspec.Struct, omit_defaults=True):
    """One military unit (*unité*). ``damage`` is the damage taken this season (RES-GW-09)."""

    id: int
    kind: str
    damage: int = 0
    bonuses: list[Bonus] = []


# ---- guilds and seals ----------------------------------------------------------------------------


class Seal(msgspec.Struct, omit_defaults=True):
    """A seal (*sceau*, SC-GW-03). ``army`` is the army it is engaged in (None: free)."""

    id: str
    kind: Literal["military", "political"]
    guild: str
    province: str
    region: str
    army: str | None = None


class Guild(msgspec.Struct, omit_defaults=True):
    """A guild (*guilde*, SC-GW-02)."""

    id: str
    name: str
    leader: str
    solars: int = 0
    victuals: int = 0
    notoriety: int = 0
    pool: dict[str, int] = {}  # unit kind → count (the guild's unit pool)
    seals: list[str] = []  # ids of the seals it owns, sorted
    affiliation: str | None = None  # a kingdom or nation id (LINK-03); None: independent
    capacity_bonus: int = 0  # RES-GW-03 capacity modifier of each army it deploys
    policy: str = "heuristic"
    # guilds it agrees to lend its military seals to (GW-DEP-04: another guild's seals are engaged
    # only with that guild's consent): set by the scenario, changed by its LendSeals orders
    lends_to: list[str] = []
    # --- LINK-06: set on the guild a nation acts as (its id is the nation's); ``levy``: the units the
    # nation buys for each army it raises (empty: one seal's capacity of infantry)
    nation: str | None = None
    levy: dict[str, int] = {}


# ---- map ----------------------------------------------------------------------------------------


class Province(msgspec.Struct):
    name: str
    region: str
    hexes: list[int]


# ---- domains ------------------------------------------------------------------------------------


class Building(msgspec.Struct):
    id: int
    name: str
    sp: int  # structure points (points de structure)


class Domain(msgspec.Struct, omit_defaults=True):
    """A domain (*domaine*, SC-GW-05)."""

    id: str
    name: str
    hex: int
    province: str
    region: str
    owner_guild: str  # the guild whose leader owns it
    owner: str  # that guild's leader (the owner of record, GW-ANX-03)
    title_holder: str | None = None  # who holds the property title; "bank" while it is returned
    fortification: int = 0
    garrison: list[Unit] = []
    buildings: list[Building] = []
    occupied_by: list[str] = []  # army ids, sorted
    besieged_by: list[str] = []  # army ids holding besieging status (RES-GW-20), sorted
    frozen_until: int = -1  # season index up to which its owner cannot change (RES-GW-25)
    title_return_season: int = -1  # the one season its former owner may return the title (RES-GW-24)
    annexed_from: str | None = None  # the guild it was last annexed from (GW-ANX-04's former owner)…
    annexed_season: int = -1  # …in this season (A of RES-GW-24/25)
    consents_to: list[str] = []  # guilds holding a proxy (procuration) from its owner (GW-DEP-03)
    works: list[str] = []  # constructions and assignments (affectations) in progress (GW-OCC-01)
    places: list[str] = []  # "parish" (paroisse), "arcane_place", "great_arcane_place" (GW-OCC-02)


# ---- armies -------------------------------------------------------------------------------------


class Army(msgspec.Struct, omit_defaults=True):
    """An army (*armée*, SC-GW-08)."""

    id: str
    owner: str  # guild id
    hex: int
    capacity: int
    own_seals: list[str] = []
    other_seals: list[str] = []
    support_seals: list[str] = []
    units: list[Unit] = []
    deployed: int = -1  # season index of its deployment (orders from the next season, RES-GW-27)
    besieging: str | None = None  # domain it holds besieging status for (RES-GW-20)
    siege_short: str | None = None  # GW-SIEGE-03: completed a siege short of units…
    siege_short_season: int = -1  # …in this season, so it may attack in the next one only
    occupying: str | None = None  # domain it occupies (GW-ATK-04)
    occupying_since: int = -1  # season of the successful attack


# ---- bank, titles, loot ----------------------------------------------------------------------


class Deposit(msgspec.Struct, omit_defaults=True):
    """A compensation deposit at the Banque de l'Hippocampe (RES-GW-23/24)."""

    domain: str
    payer: str  # guild that paid it
    amount: int
    season: int  # when it was paid
    former_owner: str | None = None  # guild that may recover it by returning the title
    annexed_season: int = -1  # A of RES-GW-25; -1 while the order is pending
    title_returned: bool = False
    forfeited: bool = False  # not returned in time: the bank kept it
    new_owner: str | None = None  # leader who receives the title in A+2


class Bank(msgspec.Struct, omit_defaults=True):
    """The Banque de l'Hippocampe (SC-GW-10)."""

    held: int = 0  # solars held for pending compensations
    kept: int = 0  # forfeited compensations the bank kept (GW-ANX-04)
    deposits: list[Deposit] = []


class Loot(msgspec.Struct, omit_defaults=True):
    """A war loot (*butin de guerre*, RES-GW-15): can be targeted from the season after ``season``."""

    id: int
    hex: int
    season: int
    value: int
    source: str = "battle"  # "battle" or "sack"
    units: int = 0  # units destroyed (battle) or structure points destroyed (sack)


class BonusRule(msgspec.Struct, omit_defaults=True):
    """A scenario bonus (RES-GW-07): ``value`` from ``source`` for every unit matching the selector."""

    source: str
    value: int
    guild: str | None = None
    kind: str | None = None
    army: str | None = None
    domain: str | None = None


# ---- orders (SC-GW-09, SC-GW-15, GW-OCC-02) -----------------------------------------------------


_EMPTY: tuple[object, ...] = (None, [], {}, False)  # field values an order's text leaves out (never changed)
_LAYOUTS: dict[type, tuple[str, tuple[str, ...]]] = {}  # order type → its tag and the fields its text shows


class Order(msgspec.Struct, tag_field="order", kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """An order of one guild for the current season (RES-GW-27)."""

    guild: str

    def __str__(self) -> str:
        layout = _LAYOUTS.get(type(self))
        if layout is None:
            layout = _LAYOUTS[type(self)] = (str(self.__struct_config__.tag), tuple(f for f in self.__struct_fields__ if f != "guild"))
        parts = [layout[0]]
        for f in layout[1]:
            v = getattr(self, f)
            if not v and v in _EMPTY:  # None, [], {}, False (and 0): left out
                continue
            if isinstance(v, dict):
                v = ",".join([f"{k}:{n}" for k, n in sorted(v.items())])
            elif isinstance(v, list):
                v = ",".join([str(x) for x in v])
            parts.append(f"{f}={v}")
        return " ".join(parts)


class Deploy(Order, tag="deploy"):
    """Deploy an army (*Déployer une armée*, GW-DEP): seals engaged, units handed in from the pool
    and/or requisitioned from the domain's garrison; ``proxy``: a procuration is handed in.
    ``support_seals`` are seals engaged in support of the army (*sceaux engagés en support*, GW-ANX-07):
    engaged seals like the others for GW-DEP-04/05, recorded apart (SC-GW-08)."""

    domain: str
    seals: list[str]
    support_seals: list[str] = []
    units: dict[str, int] = {}
    requisition: dict[str, int] = {}
    proxy: bool = False


class LendSeals(Order, tag="lend_seals"):
    """The guild agrees (``lend``) or stops agreeing to lend its military seals to guild ``to``
    (GW-DEP-04): its consent counts for the orders given and resolved after this one. Seals already
    engaged stay engaged (SC-GW-03)."""

    to: str
    lend: bool = True

    def __str__(self) -> str:
        return f"lend_seals to={self.to}" if self.lend else f"lend_seals to={self.to} lend=no"


class Recruit(Order, tag="recruit"):
    """Buy units of the catalogue into the guild's pool (SC-GW-15)."""

    units: dict[str, int]


class Reinforce(Order, tag="reinforce"):
    """Reinforce the garrison (*renforcer la garnison*): pool units into one of its domains."""

    domain: str
    units: dict[str, int]


class Disband(Order, tag="disband"):
    army: str


class Move(Order, tag="move"):
    """Move an army towards hex ``to`` (it goes as far as its speed allows this season)."""

    army: str
    to: int


class Siege(Order, tag="siege"):
    army: str
    domain: str


class AttackDomain(Order, tag="attack_domain"):
    """*Attaquer un domaine* (GW-ATK)."""

    army: str
    domain: str


class AttackArmy(Order, tag="attack_army"):
    army: str
    target: str


class Sack(Order, tag="sack"):
    """*Saccager* (SC-GW-13)."""

    army: str
    domain: str


class Annex(Order, tag="annex"):
    """Request the annexation (*annexion*) of a domain with one political seal (GW-ANX)."""

    domain: str
    seal: str


class ReturnTitle(Order, tag="return_title"):
    """The former owner brings back the property title (*titre de propriété*, GW-ANX-04)."""

    domain: str


class TreasureHunt(Order, tag="treasure_hunt"):
    """*Chasse aux trésors* on a named loot (GW-LOOT-03)."""

    loot: int
    season: int


class PickUpLoot(Order, tag="pick_up_loot"):
    """Pick up a named loot with an army standing on its hex (GW-LOOT-03)."""

    loot: int
    season: int


class DomainAction(Order, tag="domain_action"):
    """An action concerning one of the guild's domains: the GW-OCC-02 allow-list (effects outside
    this spec) or a work (``build`` a new building, ``assign`` an assignment) that occupation
    cancels (GW-OCC-01). ``target``: the target domain of a magic item."""

    domain: str
    action: str
    target: str | None = None


AnyOrder = (
    Deploy
    | LendSeals
    | Recruit
    | Reinforce
    | Disband
    | Move
    | Siege
    | AttackDomain
    | AttackArmy
    | Sack
    | Annex
    | ReturnTitle
    | TreasureHunt
    | PickUpLoot
    | DomainAction
)


# ---- the world --------------------------------------------------------------------------------


class GwStats(msgspec.Struct, omit_defaults=True):
    """What the guilds did so far, counted as it happens (the ``gw.*`` summary metrics read it); the
    ``link_*`` counters are what the links did through guild warfare (LINK-06 nations' armies, LINK-07
    invasions and repulses)."""

    seasons: int = 0
    deployments: int = 0
    battles: int = 0
    siege_seasons: int = 0
    assaults: int = 0
    assaults_won: int = 0
    occupations: int = 0
    sacks: int = 0
    units_destroyed: int = 0
    deserters: int = 0
    units_unpaid: int = 0
    armies_destroyed: int = 0
    annexations: int = 0
    loot_created: int = 0
    loot_solars: int = 0
    loot_claimed_solars: int = 0
    units_recruited: int = 0
    orders_rejected: int = 0
    link_nation_armies: int = 0
    link_nation_armies_not_raised: int = 0
    link_nation_army_solars: int = 0
    link_upkeep_solars: int = 0
    link_invasions: int = 0
    link_repulses: int = 0


class GwWorld(msgspec.Struct, omit_defaults=True):
    """The guild world."""

    guilds: dict[str, Guild] = {}
    seals: dict[str, Seal] = {}
    domains: dict[str, Domain] = {}
    armies: dict[str, Army] = {}
    provinces: dict[str, Province] = {}
    regions: dict[str, list[str]] = {}  # region → its provinces, sorted
    land_component: list[int] = []  # per hex: its connected land area (-1: water), for reachability
    alliances: list[list[str]] = []  # sorted pairs of allied guilds (RES-GW-06)
    bonus_rules: list[BonusRule] = []
    bank: Bank = msgspec.field(default_factory=Bank)
    loot: list[Loot] = []
    season: int = -1  # index of the season being (or last) resolved
    orders: list[AnyOrder] = []  # the orders given this season, in the order given
    destroyed_on: dict[int, int] = {}  # hex → units destroyed there this season (RES-GW-14)
    sacked: list[list[int]] = []  # this season's sacks: [hex, structure points destroyed]
    stats: GwStats = msgspec.field(default_factory=GwStats)  # campaign counters (summary metrics)
    next_unit: int = 1
    next_army: int = 1
    next_loot: int = 1
    next_building: int = 1

