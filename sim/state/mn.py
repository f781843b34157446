"""World state of Mare Nostrum diplomacy (MN, RULES.md §2 and §5.2).

Everything a Mare Nostrum campaign changes lives here, as plain msgspec Structs that round-trip
through msgpack exactly (``decode_world(encode_world(w)) == w``):

* nations (*nations*, the players) with their treasury in PO (*pièces d'or*), capital and provinces;
* provinces with their people (*peuple*), resources and at most one city (*cité*) (SC-MN-01);
* cities, controlled by a nation or uncontrolled;
* the racial-factor table (*facteur racial*) RF(province, people) (RES-MN-09);
* the log of invasions and repulses, the war/peace flags between parties (SC-MN-02);
* ambassadors (*ambassadeurs*, RES-MN-01), missions under way (*missions diplomatiques*),
  embassies (*ambassades*), treaties in force (*traités*), relation cuts (RES-MN-07), pact
  obligations (RES-MN-06) and the armies raised for alliances and pacts (MN-TRE-03/07).

A *party* is written ``nation:<id>`` (a player) or ``city:<id>`` (an uncontrolled city).
Turns are numbered from 1; ``turn`` is the last turn begun (0 before the first).
"""

from __future__ import annotations

from typing import Literal

import msgspec

AmbassadorState = Literal["home", "travelling", "at_post", "imprisoned", "dead"]
TreatyKind = Literal["commercial", "alliance", "pact"]
TREATY_KINDS: tuple[TreatyKind, ...] = ("commercial", "alliance", "pact")


class People(msgspec.Struct, omit_defaults=True):
    """A people (*peuple*, *race*): Greeks, Punics…"""

    id: str
    name: str = ""
    name_fr: str = ""


class Province(msgspec.Struct, omit_defaults=True):
    """A province: one people, a set of resource types, at most one city (SC-MN-01)."""

    id: str
    people: str
    resources: list[str] = []
    region: str | None = None  # from the map (Hex.region), when the province has hexes
    city: str | None = None
    seat: int = -1  # the hex that stands for it on the map (its city's, else its first), -1: none


class Import(msgspec.Struct, frozen=True):
    """A resource type received through a commercial agreement (RES-MN-05).

    ``origin`` is the importer's home province (the imported type counts as produced there),
    ``source`` the partner province it comes from, ``treaty`` the agreement that provides it.
    """

    resource: str
    origin: str
    source: str
    treaty: int


class City(msgspec.Struct, omit_defaults=True):
    """A city (*cité*): controlled by a nation (``controller``) or uncontrolled (None)."""

    id: str
    name: str
    province: str
    controller: str | None = None
    name_fr: str = ""
    imports: list[Import] = []


class Nation(msgspec.Struct, omit_defaults=True):
    """A player (*nation*): treasury in PO, capital city, the provinces it controls (sorted)."""

    id: str
    name: str
    capital: str
    provinces: list[str]
    treasury: int = 50
    policy: str = "heuristic"
    name_fr: str = ""
    imports: list[Import] = []
    bought: int = 0  # ambassadors bought so far (numbers the next one)
    kingdom: str | None = None  # --- LINK-03: the kingdom of the same faction (one treasury, in BP)


class Ambassador(msgspec.Struct, omit_defaults=True):
    """An ambassador (*ambassadeur*, RES-MN-01): reusable, attached to the province that bought it.

    ``city`` is where he is going, posted or held; ``returns_turn`` the turn he is home again
    when travelling back; ``ransom``/``ransom_to`` his price and who receives it when imprisoned
    (``ransom_to`` None: the ransom goes to an uncontrolled city, out of the game).
    """

    id: str
    nation: str
    home_province: str
    number: int
    state: AmbassadorState = "home"
    city: str | None = None
    mission: int | None = None
    returns_turn: int | None = None
    ransom: int = 0
    ransom_to: str | None = None
    since: int = 0  # turn of his last change of state


class Mission(msgspec.Struct, omit_defaults=True):
    """A diplomatic mission under way (RES-MN-17): resolved in the diplomacy phase of ``arrival_turn``."""

    id: int
    ambassador: str
    nation: str
    home_province: str
    city: str
    treaty: TreatyKind
    gift: int
    launch_turn: int
    arrival_turn: int
    renewal_of: int | None = None  # the embassy a renewal mission renews (RES-MN-13)


class Embassy(msgspec.Struct, omit_defaults=True):
    """An installed embassy: ``last_turn`` None is permanent (MN-OUT-01), else it closes after that turn."""

    id: int
    nation: str
    ambassador: str
    city: str
    installed_turn: int
    last_turn: int | None = None


class Treaty(msgspec.Struct, omit_defaults=True):
    """A treaty in force between a nation and a party (SC-MN-02, SC-MN-04).

    ``last_turn`` None: permanent. ``via`` is the ambassador through whom it was obtained and
    ``origin`` his home province (RES-MN-09); both None for a treaty between two players.
    """

    id: int
    kind: TreatyKind
    nation: str
    partner: str  # party key
    signed_turn: int
    last_turn: int | None = None
    via: str | None = None
    origin: str | None = None
    embassy: int | None = None
    renewed_turn: int | None = None


class Invasion(msgspec.Struct, omit_defaults=True):
    """One entry of the invasion log (SC-MN-02, SC-MN-07).

    ``enemies`` are the parties at war with the attacker's party when it happened (RES-MN-11).
    ``source`` is ``scenario`` (standalone MN) or ``gw`` (LINK-07).
    """

    turn: int
    attacker: str  # province
    defender: str  # province
    repelled: bool
    attacker_party: str | None = None
    defender_party: str | None = None
    enemies: list[str] = []
    source: str = "scenario"


class War(msgspec.Struct, frozen=True):
    """Two parties at war (``a`` < ``b``) since a turn (SC-MN-02)."""

    a: str
    b: str
    since: int
    by_pact: bool = False  # relations severed by an eternal friend's intervention (MN-TRE-07)


class Cut(msgspec.Struct, frozen=True):
    """All diplomatic relations between two parties cut from ``from_turn`` through ``through_turn`` (RES-MN-07)."""

    a: str
    b: str
    from_turn: int
    through_turn: int
    years: int


class Obligation(msgspec.Struct, omit_defaults=True):
    """A nation's duty to help its eternal friend (MN-TRE-05/07, RES-MN-06)."""

    id: int
    nation: str
    pact: int
    ally: str  # party
    aggressor: str  # party
    war_turn: int
    deadline_turn: int
    status: Literal["open", "honoured", "broken", "lapsed"] = "open"


class RaisedArmy(msgspec.Struct, omit_defaults=True):
    """An army raised for a military alliance or an eternal friendship pact, recorded in the
    purchase step of the military phase (SC-MN-03 (4), SC-MN-10)."""

    id: int
    nation: str
    province: str
    turn: int
    reason: Literal["alliance", "pact"]
    treaty: int | None = None
    obligation: int | None = None
    gw_army: str | None = None  # the GW army it became, when GW is enabled (LINK-06)


class ScriptedEvent(msgspec.Struct, omit_defaults=True):
    """A scenario action applied in the military phase of ``turn`` (SC-MN-05, SC-MN-07)."""

    turn: int
    kind: Literal["war", "peace", "invasion"]
    by: str | None = None  # party (war, peace)
    on: str | None = None  # party (war, peace)
    attacker: str | None = None  # province (invasion)
    defender: str | None = None  # province (invasion)
    repelled: bool = False
    note: str = ""


class MnStats(msgspec.Struct):
    """Running counts the summary reads (kept in the world so a resumed run reports the same)."""

    ambassadors_bought: int = 0
    missions: int = 0
    renewals: int = 0
    tests: int = 0
    very_warm: int = 0
    limited: int = 0
    failures: int = 0
    blunders: int = 0
    disasters: int = 0
    host_accept: int = 0
    host_dismiss: int = 0
    host_execute: int = 0
    host_imprison: int = 0
    interferences: int = 0
    plots_discovered: int = 0
    treaties_signed: int = 0
    treaties_broken: int = 0
    treaties_expired: int = 0
    treaties_ended: int = 0
    embassies_installed: int = 0
    embassies_closed: int = 0
    ransoms_paid: int = 0
    armies_raised: int = 0
    pacts_honoured: int = 0
    pacts_broken_war: int = 0
    pacts_broken_peace: int = 0
    wars_declared: int = 0
    invasions: int = 0
    repulses: int = 0
    income_po: int = 0


class MnWorld(msgspec.Struct):
    """The Mare Nostrum part of the world (SC-MN-01, SC-MN-02)."""

    turn: int = 0
    turn_hours: int = 2160
    first_turn_in_year: int = 1  # which turn of its year turn 1 is (SC-MN-03: 1 unless the scenario says otherwise)
    peoples: dict[str, People] = {}
    provinces: dict[str, Province] = {}
    cities: dict[str, City] = {}
    nations: dict[str, Nation] = {}
    rf: dict[str, dict[str, int]] = {}  # province → people → racial factor (RES-MN-09)
    travel: dict[str, dict[str, int]] = {}  # province → province → turns (RES-MN-02), both ways
    invasions: list[Invasion] = []
    wars: list[War] = []
    ambassadors: dict[str, Ambassador] = {}
    missions: list[Mission] = []
    embassies: list[Embassy] = []
    treaties: list[Treaty] = []
    cuts: list[Cut] = []
    obligations: list[Obligation] = []
    armies: list[RaisedArmy] = []
    script: list[ScriptedEvent] = []
    next_id: int = 1  # missions, embassies, treaties, obligations, armies share one counter
    stats: MnStats = msgspec.field(default_factory=MnStats)

    def new_id(self) -> int:
        n = self.next_id
        self.next_id += 1
        return n


# ---- the orders of a turn (RES-MN-17): the system's order types (sim.rules.mn.SYSTEM.order_types) -----------------------------------------------------------------------
class Order(msgspec.Struct, frozen=True, tag_field="order", forbid_unknown_fields=True):
    """Base of the MN orders; ``order`` names the kind in an order file."""


class Pass(Order, tag="pass", frozen=True):
    """Do nothing more in this slot."""

    slot: str = ""


class BuyAmbassador(Order, tag="buy_ambassador", frozen=True):
    """Phase (1): buy an ambassador attached to ``province`` (default: the capital's)."""

    province: str | None = None


class LaunchMission(Order, tag="launch_mission", frozen=True):
    """Phase (2): send a ``home`` ambassador to ``city`` to negotiate ``treaty``, with a gift in PO."""

    ambassador: str
    city: str
    treaty: TreatyKind
    gift: int = 0


class RenewTreaty(Order, tag="renew_treaty", frozen=True):
    """Phase (2): renewal mission of an embassy expiring this turn (RES-MN-13)."""

    embassy: int
    gift: int = 0


class Recall(Order, tag="recall", frozen=True):
    """Phase (2): recall an ``at_post`` ambassador; his embassy closes (MN-EMB-01)."""

    ambassador: str


class HostChoice(Order, tag="host_choice", frozen=True):
    """Phase (3): what the host does with an ambassador arriving at one of his cities (RES-MN-04)."""

    mission: int
    choice: Literal["accept", "dismiss", "execute", "imprison"]
    ransom: int = 0


class SignTreaty(Order, tag="sign_treaty", frozen=True):
    """Phase (3): sign a treaty with a player in contact, by mutual consent (RES-MN-04)."""

    partner: str  # nation id
    kind: Literal["commercial", "pact"]


class BreakTreaty(Order, tag="break_treaty", frozen=True):
    """Phase (4): break a treaty or pact without the co-signatory's consent."""

    treaty: int


class DeclareWar(Order, tag="declare_war", frozen=True):
    """Phase (4): declare war on a party (SC-MN-05)."""

    target: str  # party key


class RaiseArmy(Order, tag="raise_army", frozen=True):
    """Phase (4), purchase step: raise an army in the province of an allied city (MN-TRE-03)."""

    treaty: int


class HonourPact(Order, tag="honour_pact", frozen=True):
    """Phase (4): honour an eternal friendship obligation (MN-TRE-07, RES-MN-06)."""

    obligation: int


class PayRansom(Order, tag="pay_ransom", frozen=True):
    """Phase (5), Acclamation: pay an imprisoned ambassador's ransom (RES-MN-14, RES-MN-04)."""

    ambassador: str


class Interfere(Order, tag="interfere", frozen=True):
    """Phase (3), during a test: interfere (roll the d20) or not (RES-MN-16)."""

    yes: bool


class InterferenceSign(Order, tag="interference_sign", frozen=True):
    """Phase (3), after the d20: add it to (+1) or subtract it from (-1) the score (MN-INT-01)."""

    sign: Literal[1, -1]


class Consent(Order, tag="consent", frozen=True):
    """Phase (3): agree to (or refuse) a treaty a player in contact proposes."""

    agree: bool


ORDER_TYPES = (
    Pass, BuyAmbassador, LaunchMission, RenewTreaty, Recall, HostChoice, SignTreaty, BreakTreaty,
    DeclareWar, RaiseArmy, HonourPact, PayRansom, Interfere, InterferenceSign, Consent,
)
