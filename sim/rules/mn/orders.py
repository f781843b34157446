"""Mare Nostrum (MN): the numbers of the seed, and how an order of a turn (RES-MN-17) is printed; the
order types are in ``sim.state.mn`` with the rest of the system's typed data (re-exported here)."""

from __future__ import annotations

from typing import Literal

from sim.state.mn import (
    ORDER_TYPES,
    BreakTreaty,
    BuyAmbassador,
    Consent,
    DeclareWar,
    HonourPact,
    HostChoice,
    Interfere,
    InterferenceSign,
    LaunchMission,
    Order,
    Pass,
    PayRansom,
    RaiseArmy,
    Recall,
    RenewTreaty,
    SignTreaty,
)

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
