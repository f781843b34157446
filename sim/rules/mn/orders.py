"""Mare Nostrum (MN): the numbers of the seed and the orders of a turn (RES-MN-17)."""

from __future__ import annotations

from typing import Literal

import msgspec

from sim.state.mn import TreatyKind

__all__ = [
    "SYS",
    "MISSION_FEE_PO",
    "THRESHOLDS",
    "WARM_MARGIN",
    "BLUNDER_MARGIN",
    "BLUNDER_RANSOM_PO",
    "DISASTER_FACE",
    "DISASTER_RF",
    "ALLIANCE_BREAK_RF",
    "PACT_BREAK_WAR_RF",
    "PACT_BREAK_PEACE_RF",
    "INVADED_MOD",
    "REPULSE_4Y_MOD",
    "REPULSE_1Y_MOD",
    "ENEMY_REPULSE_MOD",
    "RENEWAL_MOD",
    "INTERFERENCE_DIE",
    "Band",
    "BANDS",
    "BAND_CLAUSES",
    "TREATY_NAMES",
    "GIFT_MENU",
    "RANSOM_MENU",
    "Order",
    "Pass",
    "BuyAmbassador",
    "LaunchMission",
    "RenewTreaty",
    "Recall",
    "HostChoice",
    "SignTreaty",
    "BreakTreaty",
    "DeclareWar",
    "RaiseArmy",
    "HonourPact",
    "PayRansom",
    "Interfere",
    "InterferenceSign",
    "Consent",
    "ORDER_TYPES",
    "order_label",
]

SYS = "mn"

# ---- numbers of the seed (not configurable: they are the rules) ---------------------------------
MISSION_FEE_PO = 30  # MN-MIS-02
THRESHOLDS: dict[str, int] = {"commercial": 60, "alliance": 40, "pact": 20}  # MN-TEST-02
WARM_MARGIN = 20  # MN-OUT-01
BLUNDER_MARGIN = 20  # MN-OUT-04
BLUNDER_RANSOM_PO = 10  # MN-OUT-04
DISASTER_FACE = 96  # MN-OUT-05 (96–00)
DISASTER_RF = 10  # MN-OUT-05
ALLIANCE_BREAK_RF = 5  # MN-TRE-04
PACT_BREAK_WAR_RF = 20  # MN-TRE-08
PACT_BREAK_PEACE_RF = 15  # MN-TRE-08
INVADED_MOD = -10  # MN-MOD-02
REPULSE_4Y_MOD = -10  # MN-MOD-03
REPULSE_1Y_MOD = -20  # MN-MOD-04
ENEMY_REPULSE_MOD = 10  # MN-MOD-05
RENEWAL_MOD = 20  # MN-MOD-06
INTERFERENCE_DIE = 20  # MN-INT-01

Band = Literal["disaster", "blunder", "failure", "very_warm", "limited"]
BANDS: tuple[Band, ...] = ("disaster", "blunder", "failure", "very_warm", "limited")
BAND_CLAUSES: dict[str, tuple[str, ...]] = {
    "disaster": ("MN-OUT-05",),
    "blunder": ("MN-OUT-04",),
    "failure": ("MN-OUT-03",),
    "very_warm": ("MN-OUT-01",),
    "limited": ("MN-OUT-02",),
}
TREATY_NAMES = {
    "en": {"commercial": "commercial agreement", "alliance": "military alliance", "pact": "eternal friendship pact"},
    "fr": {"commercial": "accord commercial", "alliance": "alliance militaire", "pact": "pacte d'amitié éternel"},
}

# the gifts (MN-MOD-07) and ransoms (MN-HOST-01) that legal_orders offers; resolvers take any amount
GIFT_MENU = (0, 5, 10, 15, 20, 30, 40)
RANSOM_MENU = (10, 20, 40)


# ---- orders (RES-MN-17) -----------------------------------------------------------------------
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


def order_label(o: object) -> str:
    """A short readable label of an order (what the ledger's decisions show)."""
    if isinstance(o, Pass):
        return "pass"
    if isinstance(o, BuyAmbassador):
        return f"buy ambassador at {o.province}" if o.province else "buy ambassador"
    if isinstance(o, LaunchMission):
        return f"mission {o.ambassador} to {o.city} ({o.treaty}, gift {o.gift})"
    if isinstance(o, RenewTreaty):
        return f"renew embassy #{o.embassy} (gift {o.gift})"
    if isinstance(o, Recall):
        return f"recall {o.ambassador}"
    if isinstance(o, HostChoice):
        return f"{o.choice} #{o.mission}" + (f" ransom {o.ransom}" if o.choice == "imprison" else "")
    if isinstance(o, SignTreaty):
        return f"propose {o.kind} to {o.partner}"
    if isinstance(o, BreakTreaty):
        return f"break treaty #{o.treaty}"
    if isinstance(o, DeclareWar):
        return f"declare war on {o.target}"
    if isinstance(o, RaiseArmy):
        return f"raise army (alliance #{o.treaty})"
    if isinstance(o, HonourPact):
        return f"honour obligation #{o.obligation}"
    if isinstance(o, PayRansom):
        return f"pay ransom of {o.ambassador}"
    if isinstance(o, Interfere):
        return "interfere" if o.yes else "abstain"
    if isinstance(o, InterferenceSign):
        return "+" if o.sign > 0 else "-"
    if isinstance(o, Consent):
        return "agree" if o.agree else "refuse"
    return str(o)
