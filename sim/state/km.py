"""World state of the kingdoms (KM) system: kingdoms, their settlements and relations, special edicts
in progress (expeditions, trade routes, envoys, subjugations), per-hex exploration state.

Everything here is plain msgspec data and round-trips through msgpack exactly (SC-KM-01, RES-KM-45).
French terms (the seed's) in parentheses: kingdom (*royaume*), Treasury (*trésorerie*, in BP = *PC*),
Unrest (*Insatisfaction*), Fame/Infamy (*Gloire/Infamie*), settlement (*communauté*), embassy
(*ambassade*), treaty (*traité*), alliance (*alliance*), trade route (*route commerciale*), Viceroy
(*vice-roi*).

Conventions:

* Hexes are map indices (``row * width + col``); the scenario files use ``[col, row]``.
* Turns are 0-based month numbers (``sim.calendar.month_index``); files say ``turn = 1`` for the first.
* Economy, Loyalty and Stability are stored as *base* values (leadership and everything the scenario
  pre-summed, RES-KM-36); the engine adds what it simulates (buildings, improvements, edicts,
  vacancies, agreements, trade routes) when it reads them (``sim.rules.km.stats``).
* Fame and Infamy are stored as *base* scores; the settlement-derived parts are added when read
  (RES-KM-37).
* Relations between two kingdoms are stored once per unordered pair (``"a|b"`` with a < b); what one
  kingdom feels about another (attitude, representative present, bans) per ordered pair (``"a>b"``).
"""

from __future__ import annotations

import msgspec

# KM-DIP-11: worst to best
ATTITUDES = ("hostile", "unfriendly", "indifferent", "friendly", "helpful")
ALIGNMENTS = ("LG", "NG", "CG", "LN", "N", "CN", "LE", "NE", "CE")
ROLES = (
    "ruler",
    "consort",
    "heir",
    "councilor",
    "general",
    "grand_diplomat",
    "high_priest",
    "magister",
    "marshal",
    "royal_enforcer",
    "spymaster",
    "treasurer",
    "warden",
    "viceroy",
)
GOVERNMENTS = ("autocracy", "magocracy", "oligarchy", "overlord", "republic", "secret_syndicate", "theocracy")
ROUTE_TYPES = ("food", "goods", "luxuries", "raw_materials")
HOLIDAY_LEVELS = ("none", "1", "6", "12", "24")
PROMOTION_LEVELS = ("none", "token", "standard", "aggressive", "expansionist")
TAXATION_LEVELS = ("none", "light", "normal", "heavy", "overwhelming")
IMPROVEMENTS = ("farm", "fishery", "mine", "quarry", "sawmill")
SKILLS = ("diplomacy", "intimidate", "bluff", "knowledge_local", "knowledge_nobility", "sense_motive")
EXPLORER_SKILLS = ("knowledge_geography", "survival", "stealth")


class Leader(msgspec.Struct, omit_defaults=True):
    """A leader in a role (SC-KM-20…24). A role with no Leader is vacant.

    ``serving_in``: a Consort or Heir of an overlord present in one of its vassals (KM-VAS-08);
    ``neglects``: a Viceroy who neglects the duties (KM-VAS-08); ``ability``: the Viceroy's
    Intelligence or Wisdom modifier (SC-KM-24, half of it goes to the vassal's Economy)."""

    name: str
    serving_in: str | None = None
    neglects: bool = False
    ability: int = 0


class Settlement(msgspec.Struct, omit_defaults=True):
    """A settlement (*communauté*): districts, buildings (kind → count) and extra modifiers."""

    name: str
    hex: int
    districts: int = 1
    buildings: dict[str, int] = {}
    water_border: bool = False
    mods: dict[str, int] = {}  # scenario-given settlement modifiers on top of buildings/government


class Subjugation(msgspec.Struct, omit_defaults=True):
    """KM-VAS-07 friction between an overlord and the kingdom it subjugated (RES-KM-30)."""

    overlord: str
    dc_increase: int
    streak: int = 0
    finished: bool = False
    since_turn: int = 0


class ExpeditionTemplate(msgspec.Struct, omit_defaults=True):
    """LINK-04: the caravan a Trade edict sends when caravans (CV) are enabled. Defaults: the standard
    caravan of SC-CV-07 (a covered wagon, a fortune-teller's wagon and a supply wagon; three drivers,
    a scout, a cook and a guard; Offense 1, Defense 2, Mobility 2, Morale 2). ``travelers`` lists
    ``[id, job]`` pairs (drivers can drive)."""

    offense: int = 1
    defense: int = 2
    mobility: int = 2
    morale: int = 2
    wagons: list[str] = []
    travelers: list[list[str]] = []
    feats: list[str] = []
    gp: int = 0
    policy: str = "heuristic"


class Kingdom(msgspec.Struct, omit_defaults=True):
    """One kingdom (*royaume*): SC-KM-01 plus what the special edicts add (RES-KM-45)."""

    id: str
    name: str
    alignment: str
    policy: str = "heuristic"
    name_fr: str = ""
    government: str = "autocracy"
    capital: str | None = None  # settlement name
    treasury: int = 0
    economy: int = 0  # base values (see module doc)
    loyalty: int = 0
    stability: int = 0
    unrest: int = 0
    fame: int = 0  # base Fame / Infamy (RES-KM-37)
    infamy: int = 0
    hexes: list[int] = []  # claimed hexes, ascending
    settlements: list[Settlement] = []
    improvements: dict[int, list[str]] = {}  # hex → terrain improvements (farm, mine…)
    leaders: dict[str, Leader] = {}
    holiday: str = "none"
    promotion: str = "none"
    taxation: str = "normal"
    skills: dict[str, int] = {}  # envoy's Diplomacy, Intimidate and KM-REL-08 skills
    counter_skills: dict[str, int] = {}  # the leader who answers other kingdoms' envoys
    explorers: dict[str, int] = {}  # best Knowledge (geography), best Survival, worst Stealth
    armies: int = 0
    overlord: str | None = None
    subjugation: Subjugation | None = None
    conquered_by: str | None = None  # LINK-08 / scenario: who may subjugate it
    # --- LINK: the nation of the same faction (LINK-03), and the domains in its hexes occupied by
    # unaffiliated guilds since its last Upkeep (LINK-08: +1 Unrest each at that Upkeep)
    nation: str | None = None
    occupied: list[str] = []
    tracked: bool = True  # False: an NPC kingdom whose Economy is not tracked (KM-REL-09)
    enforcer: bool = False  # RES-KM-34: the Royal Enforcer option of SC-KM-12
    control_dc_mod: int = 0  # SC-KM-04 special modifiers
    consumption_mod: int = 0  # RES-KM-32 other increases (+) / reductions (−)
    deposition_shift: int = 0  # RES-KM-29, used when this kingdom is subjugated
    milestones: list[int] = []  # SC-KM-27 Size thresholds already rewarded
    milestone_choice: str = "fame"  # SC-KM-27: ruler's choice, "fame" or "infamy"
    sponsor: str | None = None  # KM-REL-04
    vassal_policy: str = "heuristic"  # policy given to vassals it creates (RES-KM-27)
    vassal_leaders: dict[str, Leader] = {}  # leaders given to vassals it creates besides the Viceroy (RES-KM-43)
    vassal_attrs: list[int] = []  # their pre-summed leadership Economy, Loyalty, Stability (RES-KM-36)
    expedition: ExpeditionTemplate | None = None  # LINK-04 (None: the standard caravan)
    anarchy: bool = False  # SC-KM-07
    granary: int = 0  # BP of surplus food stored by Granaries (SC-KM-31)
    construction_budget: int = 0  # RES-KM-28, usable in the current turn only
    budget_turn: int = -1
    edicts_turn: int = -1  # the turn its Holiday/Improvement/Promotion/Taxation edicts were last set
    special_turn: int = -1  # the turn of its last special edict (KM-GEN-02)
    builds_turn: int = -1  # SC-KM-17 counters belong to this turn
    built: dict[str, int] = {}  # SC-KM-17 counters of builds_turn: buildings, settlements, improvements, claims
    free_house_used: bool = False  # SC-KM-17: the first Mansion/Noble Villa of the turn is free of the limit
    acted_for: str | None = None  # RES-KM-31: the kingdom a Consort/Heir negated the vacancy for this turn
    founded_turn: int = 0
    no_event_last_turn: bool = True  # SC-KM-19
    surplus_turn: int = -1  # the last turn whose Upkeep step 2 found a negative raw Consumption (RES-KM-25)
    expeditions_sent: int = 0


class Agreement(msgspec.Struct, omit_defaults=True):
    """A treaty or an alliance (KM-REL-07…13): balance, advantaged side and fixed bonuses (RES-KM-11).

    ``bonus`` maps a kingdom id to its fixed bonus (Economy for a treaty, Stability for an alliance),
    already reduced by ``reduction`` (RES-KM-46)."""

    kind: str  # "treaty" | "alliance"
    balanced: bool = True
    advantaged: str | None = None
    bonus: dict[str, int] = {}
    reduction: dict[str, int] = {}
    signed_turn: int = 0


class Relation(msgspec.Struct, omit_defaults=True):
    """What two kingdoms share (stored once, ``a`` < ``b``)."""

    a: str
    b: str
    embassy: bool = False
    treaty: Agreement | None = None
    alliance: Agreement | None = None
    enemies: bool = False  # at war (KM-DIP-09 "enemy", KM-REL-05)

    @property
    def level(self) -> int:
        """0 none, 1 embassy, 2 treaty, 3 alliance (an alliance implies a treaty…, RES-KM-06)."""
        if self.alliance is not None:
            return 3
        if self.treaty is not None:
            return 2
        return 1 if self.embassy else 0


class Stance(msgspec.Struct, omit_defaults=True):
    """What kingdom ``a`` has towards ``b``: attitude, its representative in b, bans (RES-KM-45)."""

    attitude: str = "indifferent"
    present: bool = False  # a's representative is present in b (RES-KM-02)
    bans: dict[str, int] = {}  # edict kind → first turn a new attempt is allowed (RES-KM-40)


class EmbassyBuilding(msgspec.Struct):
    """KM-REL-03: a Mansion or Noble Villa owned by ``owner`` in ``host``'s settlement."""

    owner: str
    host: str
    settlement: str
    kind: str


class HiddenFeature(msgspec.Struct, omit_defaults=True):
    name: str
    dc: int
    found_by: str | None = None


class HexState(msgspec.Struct, omit_defaults=True):
    """Per map hex: explored flag, partial exploration progress, hidden features (RES-KM-45)."""

    explored: bool = False
    progress: int = 0  # days of exploration already done (kept for a later expedition, RES-KM-13)
    features: list[HiddenFeature] = []


class Encounter(msgspec.Struct, omit_defaults=True):
    """A scripted encounter (RES-KM-15): on expedition day ``day`` (1-based), in ``hex`` (-1: any),
    of ``kingdom``'s expeditions (None: any) — ``expedition`` counts that kingdom's expeditions
    from 1 (0: every one). ``outcome`` is the result the scenario states when the PCs accompany."""

    day: int
    cr: int
    hostile: bool = True
    hex: int = -1
    kingdom: str | None = None
    expedition: int = 0
    outcome: str = "none"  # "none" | "scattered" | "killed" (PC-accompanied expeditions only)
    name: str = ""


class Expedition(msgspec.Struct, omit_defaults=True):
    """An Exploration edict's explorers (KM-EXP, RES-KM-13/16/42)."""

    id: int
    kingdom: str
    number: int  # this kingdom's n-th expedition (for Encounter.expedition)
    route: list[int]
    months: int
    issue_turn: int
    cost: int
    pos: int = 0  # index in route of the hex being travelled through or explored
    travel_done: int = 0  # hours already spent crossing route[pos] (an explored hex)
    day: int = 0  # last expedition day simulated
    status: str = "active"  # active | finished | killed
    scattered_month: int = 0  # the contract month forfeited by scattering (0: none)
    knowledge: int = 0
    survival: int = 0
    stealth: int = 0
    speed: int = 30
    pcs: bool = False
    explored: list[int] = []
    found: list[str] = []


class TradeRoute(msgspec.Struct, omit_defaults=True):
    """A Trade edict's expedition and, if established, its route (KM-TRADE, RES-KM-17…25)."""

    id: int
    kingdom: str
    partner: str
    origin: str
    destination: str
    type: str
    path: list[int]
    trl_halves: int  # TRL × 2 (TRL is a multiple of ½, RES-KM-18)
    rm: int
    lm: int
    investment: int
    k: int
    issue_turn: int
    arrival_turn: int
    days: str  # exact travel days, e.g. "19/2"
    status: str = "travelling"  # travelling | established | lost | sold | expired
    successes: int = -1
    economy_bonus: int = 0  # KM-TRADE-11/12 (+1/+2)
    type_bonus: int = 0  # KM-TRADE-16…19
    expiry_turn: int = -1  # first turn without the bonus (RES-KM-23)
    convoy: str | None = None  # LINK-04: the convoy carrying it, when CV is enabled
    set_out: int = -1  # LINK-04: the hour its convoy set out


class Envoy(msgspec.Struct, omit_defaults=True):
    """A kingdom's representative travelling to, or present in, another kingdom (LINK-05)."""

    id: int
    kingdom: str
    target: str
    path: list[int]
    depart: int  # hour
    arrive: int  # hour
    status: str = "travelling"  # travelling | present | recalled


class ScriptedEvent(msgspec.Struct, omit_defaults=True):
    """A scenario event resolved in a turn's Event phase (RES-KM-35, KM-REL-06/10/12, LINK-08).

    kinds: ``attack`` (kingdom attacks target), ``station_army`` (kingdom, an ally, stations an army in
    target's territory; ``requested``: target was attacked and asked for help), ``aid_refused``
    (kingdom failed to send aid: Infamy +1d4), ``unrest`` (kingdom's Unrest += amount), ``conquest``
    (target is conquered by kingdom), ``peace`` (the pair is no longer at war)."""

    turn: int
    kind: str
    kingdom: str
    target: str | None = None
    amount: int = 0
    requested: bool = False
    end_relations: bool = False


# ---- orders -------------------------------------------------------------------------------------
# Tagged msgspec Structs (hexes as map indices). The scenario/order-file forms (``[col, row]``) live in
# scenarios.schema.km and convert to these.


class DiplomaticEdict(msgspec.Struct, tag_field="edict", tag="diplomatic", omit_defaults=True):
    """KM-DIP / KM-REL (RES-KM-39): kind is embassy, threat, treaty, alliance or rebalance.

    ``skill``/``target_skill``: "diplomacy" or "intimidate" in the opposed checks (KM-REL-08) and, for
    ``skill``, in an alliance's six checks (KM-REL-11); ``balance``/``target_balance``: what each side
    chooses if it wins the advantage (KM-REL-08)."""

    target: str
    kind: str
    bribe: int = 0
    skill: str = "diplomacy"
    target_skill: str = "diplomacy"
    balance: str = "balanced"
    target_balance: str = "balanced"


class ExplorationEdict(msgspec.Struct, tag_field="edict", tag="exploration", omit_defaults=True):
    """KM-EXP (RES-KM-12): contracted months and route (hexes, starting at or next to the capital)."""

    months: int
    route: list[int]
    pcs: bool = False  # the PCs accompany the explorers (RES-KM-15)


class TradeEdict(msgspec.Struct, tag_field="edict", tag="trade", omit_defaults=True):
    """KM-TRADE (RES-KM-17/21): partner, origin and destination settlements, type, investment, path
    (hexes after the origin's; empty: the least-cost path by KM-TRADE-04 weights)."""

    partner: str
    origin: str
    destination: str
    type: str
    investment: int
    path: list[int] = []


class VassalageEdict(msgspec.Struct, tag_field="edict", tag="vassalage", omit_defaults=True):
    """KM-VAS (RES-KM-26/27/43): mode new_vassal, colony or subjugation.

    ``grant_max``: grant the largest amount allowed (floor(Treasury/4) after the 1d4, RES-KM-26);
    ``relation``: none, embassy, treaty or alliance created at once (KM-VAS-04/05, subjugation: none
    or embassy); ``new_id``/``name``/``alignment``/``policy``: the new vassal's record (RES-KM-43)."""

    mode: str
    viceroy: str
    hexes: list[int] = []
    target: str | None = None
    grant: int = 0
    grant_max: bool = False
    relation: str = "none"
    balance: str = "balanced"
    new_id: str = ""
    name: str = ""
    alignment: str = ""
    policy: str = ""
    viceroy_ability: int = 0


SpecialEdict = DiplomaticEdict | ExplorationEdict | TradeEdict | VassalageEdict


class RelationOrder(msgspec.Struct, omit_defaults=True):
    """Closing an embassy (KM-REL-06), renegotiating or withdrawing from a treaty/alliance (KM-REL-10),
    resolved in the Edict phase just before the special edict (RES-KM-39)."""

    action: str  # close_embassy | renegotiate | withdraw
    target: str
    which: str = "treaty"  # treaty | alliance
    skill: str = "diplomacy"
    target_skill: str = "diplomacy"
    balance: str = "balanced"
    target_balance: str = "balanced"


class KmStats(msgspec.Struct, omit_defaults=True):
    """What the kingdoms did so far, counted as it happens (the ``km.*`` summary metrics read it, from
    the world, never from counters kept outside it); the ``link_*`` counters are what the links did to
    the kingdoms (LINK-03's conversions, LINK-08's occupations, hexes lost and conquests)."""

    edicts_diplomatic: int = 0
    edicts_exploration: int = 0
    edicts_trade: int = 0
    edicts_vassalage: int = 0
    embassies: int = 0
    treaties_signed: int = 0
    alliances_signed: int = 0
    treaty_refused: int = 0
    alliance_refused: int = 0
    wars_declared: int = 0
    hexes_explored: int = 0
    features_found: int = 0
    expeditions_scattered: int = 0
    expeditions_killed: int = 0
    trade_routes_established: int = 0
    trade_sold_elsewhere: int = 0
    trade_expeditions_lost: int = 0
    vassalage_new_vassal: int = 0
    vassalage_colony: int = 0
    vassalage_subjugation: int = 0
    subjugations_settled: int = 0
    hexes_claimed: int = 0
    buildings_built: int = 0
    improvements_built: int = 0
    hexes_lost_to_unrest: int = 0
    anarchy_turns: int = 0
    orders_rejected: int = 0
    link_mn_costs_bp: int = 0
    link_mn_incomes_bp: int = 0
    link_occupations: int = 0
    link_occupation_unrest: int = 0
    link_hexes_lost: int = 0
    link_conquests: int = 0


class SlotChoice(msgspec.Struct, frozen=True):
    """An answer to one slot of a kingdom's turn that is a bare value (``SLOTS`` of
    ``sim.rules.km.legality``: a hex to claim, a settlement for a district, a Taxation level, an
    envoy's target…), named with its slot so that the order alone says what it is (the legality API
    without a slot: ``legal_orders(world, kingdom, slot=None)``, ``check(world, kingdom, order)``). The
    turn itself asks each slot as its own decision, with the bare values."""

    slot: str
    value: int | str


class BuildOrder(msgspec.Struct, omit_defaults=True):
    settlement: str
    kind: str


class ImprovementOrder(msgspec.Struct, omit_defaults=True):
    hex: int
    kind: str


class FoundOrder(msgspec.Struct, omit_defaults=True):
    hex: int
    name: str


class EmbassyBuildingOrder(msgspec.Struct, omit_defaults=True):
    host: str
    settlement: str
    kind: str  # mansion | noble_villa


class TurnOrders(msgspec.Struct, omit_defaults=True):
    """Everything a kingdom decides in one turn, in SC-KM-13 order; the special edict comes last.

    ``path`` says where a scripted order came from (``kingdoms[1].orders[0]``) for error messages."""

    turn: int = -1  # 0-based turn; -1 for a policy's orders
    holiday: str | None = None
    promotion: str | None = None
    taxation: str | None = None
    envoys: list[str] = []
    recall: list[str] = []
    claims: list[int] = []
    abandon: list[int] = []
    improvements: list[ImprovementOrder] = []
    settlements: list[FoundOrder] = []
    districts: list[str] = []
    buildings: list[BuildOrder] = []
    embassy_buildings: list[EmbassyBuildingOrder] = []
    relations: list[RelationOrder] = []
    special: SpecialEdict | None = None
    withdraw_bp: int = 0
    deposit_gp: int = 0
    path: str = ""


class KmWorld(msgspec.Struct, omit_defaults=True):
    kingdoms: dict[str, Kingdom] = {}
    relations: dict[str, Relation] = {}  # "a|b", a < b
    stances: dict[str, Stance] = {}  # "a>b"
    hexes: dict[int, HexState] = {}  # only hexes with explored/progress/features
    encounters: list[Encounter] = []
    expeditions: list[Expedition] = []
    routes: list[TradeRoute] = []
    envoys: list[Envoy] = []
    embassy_buildings: list[EmbassyBuilding] = []
    events: list[ScriptedEvent] = []
    scripted: dict[str, list[TurnOrders]] = {}  # kingdom id → its scripted orders (policy "scripted")
    orders_source: dict[str, str] = {}  # kingdom id → where its scripted orders come from (file label)
    turn: int = -1  # the last turn started
    next_id: int = 1
    stats: KmStats = msgspec.field(default_factory=KmStats)  # what happened so far (the summary metrics)

    # ---- small accessors (no rules here) ------------------------------------------------------
    def ids(self) -> list[str]:
        return sorted(self.kingdoms)

    def new_id(self) -> int:
        n = self.next_id
        self.next_id += 1
        return n

    def relation(self, a: str, b: str) -> Relation:
        x, y = (a, b) if a < b else (b, a)
        key = f"{x}|{y}"
        r = self.relations.get(key)
        if r is None:
            r = Relation(x, y)
            self.relations[key] = r
        return r

    def peek_relation(self, a: str, b: str) -> Relation | None:
        x, y = (a, b) if a < b else (b, a)
        return self.relations.get(f"{x}|{y}")

    def level(self, a: str, b: str) -> int:
        r = self.peek_relation(a, b)
        return 0 if r is None else r.level

    def enemies(self, a: str, b: str) -> bool:
        r = self.peek_relation(a, b)
        return r is not None and r.enemies

    def stance(self, a: str, b: str) -> Stance:
        key = f"{a}>{b}"
        s = self.stances.get(key)
        if s is None:
            s = Stance()
            self.stances[key] = s
        return s

    def peek_stance(self, a: str, b: str) -> Stance | None:
        return self.stances.get(f"{a}>{b}")

    def hex(self, i: int) -> HexState:
        h = self.hexes.get(i)
        if h is None:
            h = HexState()
            self.hexes[i] = h
        return h

    def explored(self, i: int) -> bool:
        h = self.hexes.get(i)
        return h is not None and h.explored

    def owners(self) -> dict[int, str]:
        """Every claimed hex → the kingdom claiming it."""
        return {h: kid for kid in sorted(self.kingdoms) for h in self.kingdoms[kid].hexes}

    def owner_of(self, i: int) -> str | None:
        for kid in sorted(self.kingdoms):
            if i in self.kingdoms[kid].hexes:
                return kid
        return None
