"""Vassalage edicts (*édit de vassalité*, KM-VAS): new vassal, colony, subjugation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules.km.diplomatic import sign_agreement
from sim.rules.km.specials import VAS_MODES
from sim.rules.km.statistics import alignment_base, alignment_steps, size_of
from sim.rules.km.tables import SYS, actor
from sim.rules.km.upkeep_phase import friction_check
from sim.state.km import ALIGNMENTS, ATTITUDES, Kingdom, Leader, Subjugation, VassalageEdict

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "resolve_vassalage",
]


# =================================================================================================
# Vassalage edicts (KM-VAS)
# =================================================================================================


def check_vassalage(world: World, kid: str, o: VassalageEdict) -> None:
    km = world.km_state()
    if o.mode not in VAS_MODES:
        raise InvalidOrderError(f"vassalage mode {o.mode!r}: expected one of {', '.join(VAS_MODES)}")
    if not o.viceroy.strip():
        raise IllegalOrderError("KM-VAS-01", "a Vassalage edict must name a Viceroy", actor=actor(kid))
    if o.grant < 0:
        raise InvalidOrderError(f"grant {o.grant}: expected 0 or more BP")
    if o.balance not in ("balanced", "unbalanced"):
        raise InvalidOrderError(f"balance {o.balance!r}: expected balanced or unbalanced")
    if o.mode == "subjugation":
        if o.target is None or o.target not in km.kingdoms or o.target == kid:
            raise InvalidOrderError(f"subjugation target {o.target!r}: expected another kingdom")
        t = km.kingdoms[o.target]
        if t.conquered_by != kid:
            raise IllegalOrderError("KM-VAS-01", f"{o.target} has not been conquered by {kid} (LINK-08)", actor=actor(kid))
        if t.overlord is not None:
            raise IllegalOrderError("KM-VAS-01", f"{o.target} is already the vassal of {t.overlord}", actor=actor(kid))
        if o.relation not in ("none", "embassy"):
            raise IllegalOrderError(
                "KM-VAS-05", "a subjugation may create an embassy at once; a treaty or alliance follows the normal procedure", actor=actor(kid)
            )
        return
    if o.relation not in ("none", "embassy", "treaty", "alliance"):
        raise InvalidOrderError(f"relation {o.relation!r}: expected none, embassy, treaty or alliance")
    if not o.hexes:
        raise IllegalOrderError("RES-KM-43", "a new vassal or colony needs at least one hex", actor=actor(kid))
    if o.alignment and o.alignment not in ALIGNMENTS:
        raise InvalidOrderError(f"alignment {o.alignment!r}: expected one of {', '.join(ALIGNMENTS)}")
    if o.new_id and o.new_id in km.kingdoms:
        raise InvalidOrderError(f"kingdom id {o.new_id!r} is already used")
    seen: set[int] = set()
    for h in o.hexes:
        if not 0 <= h < len(world.map.hexes):
            raise InvalidOrderError(f"hex {h} is not on the map")
        where = list(world.map.coords(h))
        if h in seen:
            raise InvalidOrderError(f"hex {where} is named twice")
        seen.add(h)
        if world.map.hexes[h].is_water:
            raise IllegalOrderError("RES-KM-43", f"hex {where} is water", actor=actor(kid))
        owner = km.owner_of(h)
        if owner is not None and owner != kid:
            raise IllegalOrderError("KM-VAS-01", f"hex {where} belongs to {owner}", actor=actor(kid))
        if owner is None and not km.explored(h):
            raise IllegalOrderError("KM-VAS-01", f"unclaimed hex {where} has not been explored", actor=actor(kid))
        if o.mode == "colony" and owner is not None:
            raise IllegalOrderError("KM-VAS-01", f"a colony is founded on unclaimed land; hex {where} is claimed", actor=actor(kid))


def resolve_vassalage(world: World, kid: str, o: VassalageEdict, dice: Dice, ledger: Ledger, *, now: int = 0) -> str:
    """KM-VAS-01…07, RES-KM-26…30/43/44. Returns the vassal's id."""
    km = world.km_state()
    k = km.kingdoms[kid]
    # RES-KM-01/26: the 1d4 is rolled and paid first; the grant is then capped by a quarter of the
    # Treasury after that payment (0 if it is not positive). The edict is never refused for lack of BP.
    cost = dice.roll(4)[0]
    top = max(0, k.treasury - cost) // 4
    grant = top if o.grant_max else min(o.grant, top)
    k.treasury -= cost + grant
    k.special_turn = km.turn
    km.stats.edicts_vassalage += 1
    if o.mode == "new_vassal":
        km.stats.vassalage_new_vassal += 1
    elif o.mode == "colony":
        km.stats.vassalage_colony += 1
    else:
        km.stats.vassalage_subjugation += 1
    if o.mode == "subjugation":
        assert o.target is not None
        t = km.kingdoms[o.target]
        t.treasury += grant
        t.overlord = kid
        t.leaders["viceroy"] = Leader(o.viceroy, ability=o.viceroy_ability)
        t.leaders = dict(sorted(t.leaders.items()))
        steps = sum(alignment_steps(k.alignment, t.alignment))
        table = world.config.km.vassal_attitude_by_steps
        base = table[steps]
        idx = min(len(ATTITUDES) - 1, max(0, ATTITUDES.index(base) + t.deposition_shift))
        km.stance(t.id, kid).attitude = ATTITUDES[idx]
        t.subjugation = Subjugation(overlord=kid, dc_increase=size_of(t) // 5, since_turn=km.turn)
        if o.relation == "embassy":
            km.relation(kid, t.id).embassy = True
        ledger.emit(
            SYS,
            "VassalageEdictIssued",
            actor(kid),
            ("KM-GEN-01", "KM-GEN-02", "KM-VAS-01", "KM-VAS-02", "KM-VAS-03", "KM-VAS-05", "KM-VAS-06", "RES-KM-26",
             "RES-KM-29", "RES-KM-30", "RES-KM-43", "RES-KM-39"),
            dice=[(4, cost)],
            total=cost + grant,
            outcome="subjugation",
            target=t.id,
            viceroy=o.viceroy,
            cost=cost,
            grant=grant,
            grant_asked="max" if o.grant_max else o.grant,
            alignment_steps=steps,
            attitude=ATTITUDES[idx],
            deposition_shift=t.deposition_shift,
            friction_dc_increase=t.subjugation.dc_increase,
            embassy=o.relation == "embassy",
            treasury_after=k.treasury,
            vassal_treasury=t.treasury,
        )
        friction_check(world, kid, t.id, dice, ledger)  # KM-VAS-07: in the turn of the edict
        return t.id
    # new vassal or colony (RES-KM-27/43)
    n = 1
    while f"{kid}-{o.mode.replace('_', '-')}-{n}" in km.kingdoms:
        n += 1
    vid = o.new_id or f"{kid}-{o.mode.replace('_', '-')}-{n}"
    al = o.alignment or k.alignment
    eco, loy, stab = alignment_base(al)
    if len(k.vassal_attrs) == 3:  # RES-KM-36: the scenario's pre-summed leadership of its vassals
        eco, loy, stab = eco + k.vassal_attrs[0], loy + k.vassal_attrs[1], stab + k.vassal_attrs[2]
    hexes = sorted(o.hexes)
    moved = [s for s in k.settlements if s.hex in hexes]
    for s in moved:
        k.settlements.remove(s)
    if k.capital is not None and any(s.name == k.capital for s in moved):  # the capital was ceded
        k.capital = k.settlements[0].name if k.settlements else None
    imps = {h: k.improvements.pop(h) for h in hexes if h in k.improvements}
    for h in hexes:
        if h in k.hexes:
            k.hexes.remove(h)
        km.hex(h).explored = True
    v = Kingdom(
        id=vid,
        name=o.name or f"{k.name} ({o.viceroy})",
        alignment=al,
        policy=o.policy or k.vassal_policy,
        government=k.government,
        capital=moved[0].name if moved else None,
        treasury=grant,
        economy=eco,
        loyalty=loy,
        stability=stab,
        fame=1,
        infamy=0,
        hexes=hexes,
        settlements=moved,
        improvements=dict(sorted(imps.items())),
        leaders=dict(sorted({**k.vassal_leaders, "viceroy": Leader(o.viceroy, ability=o.viceroy_ability)}.items())),
        overlord=kid,
        founded_turn=km.turn,
        vassal_policy=k.vassal_policy,
        edicts_turn=km.turn,
        special_turn=km.turn,  # founded this turn: its first turn is the next one
    )
    km.kingdoms[vid] = v
    km.kingdoms = dict(sorted(km.kingdoms.items()))
    km.stance(vid, kid).attitude = "indifferent"
    ledger.emit(
        SYS,
        "VassalageEdictIssued",
        actor(kid),
        ("KM-GEN-01", "KM-GEN-02", "KM-VAS-01", "KM-VAS-02", "KM-VAS-03", "RES-KM-26", "RES-KM-27", "RES-KM-43",
         "SC-KM-02", "SC-KM-24", "SC-KM-25", "RES-KM-39"),
        dice=[(4, cost)],
        total=cost + grant,
        outcome=o.mode,
        vassal=vid,
        viceroy=o.viceroy,
        cost=cost,
        grant=grant,
        grant_asked="max" if o.grant_max else o.grant,
        hexes=[list(world.map.coords(h)) for h in hexes],
        settlements=[s.name for s in moved],
        size_after=len(k.hexes),
        treasury_after=k.treasury,
    )
    if o.relation == "embassy":
        km.relation(kid, vid).embassy = True
        ledger.emit(SYS, "EmbassyEstablished", actor(kid), ("KM-VAS-04", "RES-KM-43"), outcome="embassy", target=vid, via="vassalage")
    elif o.relation in ("treaty", "alliance"):
        # implements: KM-VAS-04, RES-KM-44
        sign_agreement(world, kid, vid, o.relation, kid, o.balance == "balanced", dice, ledger, via="vassalage")
    return vid


