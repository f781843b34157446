"""The four special edicts (*édits spéciaux*, RULES.md §1, KM-GEN/DIP/REL/EXP/TRADE/VAS) and the
Edict phase that carries them (SC-KM-13, RES-KM-39).

* Diplomatic (*édit diplomatique*): embassy (*ambassade*), threat, treaty (*traité*), alliance
  (*alliance*), rebalance; plus closing an embassy, renegotiating or withdrawing (KM-REL-06/10).
* Exploration (*édit d'exploration*): explorers travel and explore day by day (RES-KM-13/14/42).
* Trade (*édit commercial*): the trade route (*route commerciale*), its three checks on arrival.
* Vassalage (*édit de vassalité*): new vassal, colony, subjugation with its friction checks.

``check_special`` says whether an order is legal (``IllegalOrderError`` naming the clause) before
any die is drawn; ``resolve_special`` checks and resolves it. ``legal_specials`` lists candidate
legal special edicts for a kingdom now (what the AI chooses from).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

import msgspec

from sim.errors import IllegalOrderError, InvalidOrderError, RulesError
from sim.events import CheckResult, Ledger, check
from sim.hexmap import ROAD_LEVEL
from sim.paths import cheapest_path
from sim.rules.kingdom import (
    ATTITUDES,
    BUILDINGS,
    SPEED_TABLE,
    SYS,
    TERRAIN,
    Stats,
    _pay,
    abandon_hex,
    actor,
    add_unrest,
    alignment_base,
    alignment_steps,
    build_improvement,
    buy_district,
    capital_hex,
    change_fame,
    change_infamy,
    claim_hex,
    construct,
    count_buildings,
    count_improvements,
    emit_check,
    found_settlement,
    friction_check,
    income,
    kingdom_check,
    km_terrain,
    set_edicts,
    settlement,
    settlement_mods,
    shift_attitude,
    size_milestones,
    size_of,
    special_size,
    stats,
    vacant,
)
from sim.state.km import (
    ALIGNMENTS,
    ROUTE_TYPES,
    Agreement,
    DiplomaticEdict,
    EmbassyBuilding,
    EmbassyBuildingOrder,
    Encounter,
    Envoy,
    Expedition,
    ExplorationEdict,
    Kingdom,
    KmWorld,
    Leader,
    RelationOrder,
    ScriptedEvent,
    SpecialEdict,
    Subjugation,
    TradeEdict,
    TradeRoute,
    TurnOrders,
    VassalageEdict,
)

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.state.cv import Convoy
    from sim.world import World

BAN_TURNS = 12  # "no new attempt for 1 year" (RES-KM-40): one year of monthly turns
ATTITUDE_DC = {"helpful": 0, "friendly": 5, "indifferent": 10, "unfriendly": 15, "hostile": 20}  # KM-DIP-11
ALIGN_STEP_DC = (0, 5, 15)  # KM-DIP-07
OPPOSED_SKILLS = ("bluff", "diplomacy", "knowledge_local", "knowledge_nobility", "sense_motive")  # KM-REL-08
SKILL_NAMES = {
    "bluff": "Bluff",
    "diplomacy": "Diplomacy",
    "intimidate": "Intimidate",
    "knowledge_local": "Knowledge (local)",
    "knowledge_nobility": "Knowledge (nobility)",
    "sense_motive": "Sense Motive",
}
DIP_KINDS = ("embassy", "threat", "treaty", "alliance", "rebalance")
VAS_MODES = ("new_vassal", "colony", "subjugation")
ROUTE_BUILDINGS = {  # KM-TRADE-17/18: buildings counted for the type bonus (origin settlement)
    "goods": ("guildhall", "smithy", "shop", "trade_shop", "tannery"),
    "luxuries": ("alchemist", "casters_tower", "exotic_artisan", "herbalist", "luxury_store", "magic_shop"),
}


def _km(world: World) -> KmWorld:
    km = world.km
    assert km is not None
    return km


def _kingdom(km: KmWorld, kid: str, what: str = "kingdom") -> Kingdom:
    k = km.kingdoms.get(kid)
    if k is None:
        raise InvalidOrderError(f"unknown {what} {kid!r}; known: {', '.join(km.ids())}")
    return k


# =================================================================================================
# Diplomatic edicts (KM-DIP, KM-REL)
# =================================================================================================


def attitude_mod(attitude: str) -> int:
    """KM-DIP-10/11: +5 per step below Helpful."""
    return ATTITUDE_DC[attitude]


def alignment_mod(a: str, b: str) -> int:
    """KM-DIP-06/07, RES-KM-05: per axis 0 / +5 / +15, summed."""
    lc, ge = alignment_steps(a, b)
    return ALIGN_STEP_DC[lc] + ALIGN_STEP_DC[ge]


def relationship_mod(km: KmWorld, me: str, target: str) -> tuple[int, list[list[object]]]:
    """KM-DIP-08/09, RES-KM-06: one row (or none) per third kingdom, first match in table order."""
    total = 0
    rows: list[list[object]] = []
    for x in km.ids():
        if x in (me, target):
            continue
        lm, lt = km.level(me, x), km.level(target, x)
        enemy = km.enemies(target, x)
        v: int | None = None
        if lm >= 3 and lt >= 3:
            v, why = -8, "both allied with"
        elif lm >= 2 and lt >= 3:
            v, why = -4, "treaty with the target's ally"
        elif lm >= 2 and lt >= 2:
            v, why = -2, "both have a treaty with"
        elif enemy and lm >= 3:
            v, why = 10, "alliance with the target's enemy"
        elif enemy and lm >= 2:
            v, why = 5, "treaty with the target's enemy"
        elif enemy and lm >= 1:
            v, why = 2, "embassy with the target's enemy"
        if v is not None:
            total += v
            rows.append([x, why, v])
    return total, rows


def diplomatic_dc(
    world: World, kid: str, target: str, bribe: int, *, threat: bool = False, st: Stats | None = None
) -> tuple[int, list[tuple[str, int]], list[list[object]]]:
    """KM-DIP-04 (RES-KM-03): the DC with each named term; a threat (KM-REL-05) drops Fame and Infamy.
    ``st``: the kingdom's current statistics, when the caller has them."""
    km = _km(world)
    k, t = km.kingdoms[kid], km.kingdoms[target]
    st = st or stats(world, k)
    rel, rows = relationship_mod(km, kid, target)
    att = km.stance(target, kid).attitude
    terms: list[tuple[str, int]] = [("base", 10)]
    if not threat:
        terms.append(("own Infamy", st.infamy))
    terms += [
        ("target special size", special_size(t)),
        ("own special size", special_size(k)),
        ("alignment difference", alignment_mod(k.alignment, t.alignment)),
        ("relationships", rel),
        (f"attitude ({att})", attitude_mod(att)),
    ]
    if not threat:
        terms.append(("own Fame", -st.fame))
    terms.append(("bribes", -bribe))
    return sum(v for _, v in terms), terms, rows


def _skill_mods(world: World, k: Kingdom, skill: str, *, counter: bool = False) -> list[tuple[str, int]]:
    """A skill roll's modifiers: the leader's skill, plus (RES-KM-47) the Fame bonus on Diplomacy or
    the Infamy bonus on Intimidate."""
    # implements: SC-KM-35
    table = k.counter_skills if counter else k.skills
    mods = [(SKILL_NAMES[skill], table.get(skill, 0))]
    if skill == "diplomacy":
        mods.append(("Fame bonus", stats(world, k).fame // 10))
    elif skill == "intimidate":
        mods.append(("Infamy bonus", stats(world, k).infamy // 10))
    return mods


def _ban_turn(km: KmWorld, kid: str, target: str, kind: str) -> int | None:
    st = km.peek_stance(kid, target)
    if st is None:
        return None
    until = st.bans.get(kind)
    return until if until is not None and until > km.turn else None


def _set_ban(km: KmWorld, kid: str, target: str, kind: str) -> int:
    until = km.turn + BAN_TURNS
    km.stance(kid, target).bans[kind] = until
    km.stance(kid, target).bans = dict(sorted(km.stance(kid, target).bans.items()))
    return until


def representative_present(world: World, kid: str, target: str) -> bool:
    """KM-DIP-02 / RES-KM-02 / LINK-05: a representative present, or the magic-communication waiver."""
    if world.config.km.magic_communication:
        return True
    st = _km(world).peek_stance(kid, target)
    return st is not None and st.present


def _check_diplomatic(world: World, kid: str, o: DiplomaticEdict) -> None:
    km = _km(world)
    k = km.kingdoms[kid]
    if o.target == kid or o.target not in km.kingdoms:
        raise InvalidOrderError(f"diplomatic edict target {o.target!r}: expected another kingdom ({', '.join(x for x in km.ids() if x != kid)})")
    if o.kind not in DIP_KINDS:
        raise InvalidOrderError(f"diplomatic edict kind {o.kind!r}: expected one of {', '.join(DIP_KINDS)}")
    for name, v in (("skill", o.skill), ("target_skill", o.target_skill)):
        if v not in ("diplomacy", "intimidate"):
            raise InvalidOrderError(f"{name} {v!r}: expected diplomacy or intimidate")
    for name, v in (("balance", o.balance), ("target_balance", o.target_balance)):
        if v not in ("balanced", "unbalanced"):
            raise InvalidOrderError(f"{name} {v!r}: expected balanced or unbalanced")
    if vacant(k, "grand_diplomat"):
        raise IllegalOrderError("KM-GEN-03", "the Grand Diplomat's seat is vacant: no Diplomatic edicts", actor=actor(kid))
    if not representative_present(world, kid, o.target):
        raise IllegalOrderError(
            "KM-DIP-02",
            f"no representative of {kid} is present in {o.target} (send an envoy first; magic communication is off)",
            actor=actor(kid),
        )
    if o.bribe < 0:
        raise InvalidOrderError(f"bribe {o.bribe}: expected 0 or more BP")
    lvl = km.level(kid, o.target)
    ban_clause = {"embassy": "KM-REL-01", "threat": "KM-REL-05", "treaty": "KM-REL-07", "alliance": "KM-REL-11"}
    if o.kind in ban_clause:
        until = _ban_turn(km, kid, o.target, o.kind)
        if until is not None:
            raise IllegalOrderError(
                ban_clause[o.kind],
                f"a failed {o.kind} attempt bars another towards {o.target} until turn {until + 1} (RES-KM-40)",
                actor=actor(kid),
            )
    if o.kind in ("embassy", "threat") and lvl >= 1:
        raise IllegalOrderError("KM-REL-01", f"{kid} already has an embassy agreement with {o.target}", actor=actor(kid))
    if o.kind == "treaty":
        if lvl < 1:
            raise IllegalOrderError("KM-REL-07", f"a treaty needs an embassy agreement with {o.target} first", actor=actor(kid))
        if lvl >= 2:
            raise IllegalOrderError("KM-REL-07", f"{kid} already has a treaty with {o.target}", actor=actor(kid))
    if o.kind == "alliance":
        rel = km.peek_relation(kid, o.target)
        if rel is None or rel.treaty is None:
            raise IllegalOrderError("KM-REL-11", f"an alliance needs a treaty with {o.target} first", actor=actor(kid))
        if rel.alliance is not None:
            raise IllegalOrderError("KM-REL-11", f"{kid} already has an alliance with {o.target}", actor=actor(kid))
    if o.kind == "rebalance" and _rebalanceable(km, kid, o.target) is None:
        raise IllegalOrderError(
            "KM-REL-09", f"{kid} has no unbalanced treaty or alliance in its favour with {o.target}", actor=actor(kid)
        )


def _rebalanceable(km: KmWorld, kid: str, target: str) -> Agreement | None:
    rel = km.peek_relation(kid, target)
    if rel is None:
        return None
    for ag in (rel.treaty, rel.alliance):
        if ag is not None and not ag.balanced and ag.advantaged == kid:
            return ag
    return None


def resolve_diplomatic(world: World, kid: str, o: DiplomaticEdict, dice: Dice, ledger: Ledger) -> str:
    """KM-DIP-03/04 and the KM-REL outcome of one Diplomatic edict. Returns the outcome word."""
    km = _km(world)
    k = km.kingdoms[kid]
    # RES-KM-01: the 1d4 first (KM-DIP-03) and paid; the bribes are then capped by the Treasury after
    # that payment (0 if it is not positive). The edict itself is never refused for lack of BP.
    cost = dice.roll(4)[0]
    k.treasury -= cost
    asked = o.bribe
    bribe = min(asked, max(0, k.treasury))
    k.treasury -= bribe
    if bribe != asked:
        o = msgspec.structs.replace(o, bribe=bribe)
    k.special_turn = km.turn
    km.bump("edicts_diplomatic")
    ledger.emit(
        SYS,
        "DiplomaticEdictIssued",
        actor(kid),
        ("KM-GEN-01", "KM-GEN-02", "KM-DIP-01", "KM-DIP-02", "KM-DIP-03", "RES-KM-01", "RES-KM-02", "RES-KM-39"),
        dice=[(4, cost)],
        total=cost + bribe,
        outcome=o.kind,
        target=o.target,
        cost=cost,
        bribe=bribe,
        bribe_asked=asked,
        treasury_after=k.treasury,
    )
    if o.kind == "embassy":
        return _embassy(world, kid, o, dice, ledger)
    if o.kind == "threat":
        return _threat(world, kid, o, dice, ledger)
    if o.kind == "treaty":
        return _agreement_attempt(world, kid, o, "treaty", dice, ledger)
    if o.kind == "alliance":
        return _agreement_attempt(world, kid, o, "alliance", dice, ledger)
    return _rebalance(world, kid, o, ledger)


def _dip_check(
    world: World, kid: str, target: str, bribe: int, skill: str, dice: Dice
) -> tuple[CheckResult, list[tuple[str, int]], list[tuple[str, int]], list[list[object]]]:
    k = _km(world).kingdoms[kid]
    dc, terms, rows = diplomatic_dc(world, kid, target, bribe)
    mods = _skill_mods(world, k, skill)
    r = check(dice, dc, mods)  # a skill check: no natural 1/20 rule (RES-KM-04)
    return r, mods, terms, rows


def _embassy(world: World, kid: str, o: DiplomaticEdict, dice: Dice, ledger: Ledger) -> str:
    """KM-REL-01/02."""
    km = _km(world)
    k = km.kingdoms[kid]
    r, mods, terms, rows = _dip_check(world, kid, o.target, o.bribe, "diplomacy", dice)
    changes: dict[str, object] = {}
    if r.success:
        km.relation(kid, o.target).embassy = True
        km.bump("embassies")
        if r.margin >= 5:
            changes["attitude"] = list(shift_attitude(km, o.target, kid, 1))
            change_fame(k, 1)
            changes["fame"] = 1
        outcome = "embassy established"
    else:
        changes["ban_until"] = _set_ban(km, kid, o.target, "embassy")
        if r.failed_by >= 5:
            change_fame(k, -1)
            changes["fame"] = -1
            changes["attitude"] = list(shift_attitude(km, o.target, kid, -1))
        outcome = "embassy rejected"
    ledger.emit(
        SYS,
        "DiplomacyCheckRolled",
        actor(kid),
        ("KM-DIP-04", "KM-DIP-05", "KM-DIP-06", "KM-DIP-07", "KM-DIP-08", "KM-DIP-09", "KM-DIP-10", "KM-DIP-11",
         "RES-KM-03", "RES-KM-04", "RES-KM-05", "RES-KM-06", "RES-KM-47", "KM-REL-01", "KM-REL-02", "RES-KM-40"),
        dc=r.dc,
        mods=mods,
        dice=[(20, r.natural)],
        total=r.total,
        outcome="success" if r.success else "failure",
        target=o.target,
        attempt="embassy",
        dc_terms=[[n, v] for n, v in terms],
        relationships=rows,
        margin=r.margin,
        result=outcome,
        **changes,
    )
    return outcome


def _threat(world: World, kid: str, o: DiplomaticEdict, dice: Dice, ledger: Ledger) -> str:
    """KM-REL-05, RES-KM-09."""
    km = _km(world)
    k = km.kingdoms[kid]
    dc, terms, rows = diplomatic_dc(world, kid, o.target, o.bribe, threat=True)
    st = stats(world, k)
    mods = [
        ("Intimidate", k.skills.get("intimidate", 0)),
        ("own Infamy", st.infamy),
        ("active armies", k.armies),
        ("Infamy bonus", st.infamy // 10),
    ]
    r = check(dice, dc, mods)
    changes: dict[str, object] = {}
    if r.success:
        km.relation(kid, o.target).embassy = True
        km.bump("embassies")
        inf = 1
        outcome = "embassy established"
    else:
        changes["ban_until"] = _set_ban(km, kid, o.target, "threat")
        if r.failed_by >= 5:
            inf = 3
            changes["attitude"] = list(shift_attitude(km, o.target, kid, -2))
        else:
            inf = 2
            changes["attitude"] = list(shift_attitude(km, o.target, kid, -1))
        outcome = "threat rejected"
        if r.failed_by >= 5 and km.stance(o.target, kid).attitude == "hostile":
            km.relation(kid, o.target).enemies = True
            km.bump("wars_declared")
            outcome = "war declared"
    change_infamy(k, inf)
    ledger.emit(
        SYS,
        "IntimidateCheckRolled",
        actor(kid),
        ("KM-REL-05", "RES-KM-09", "KM-DIP-04", "RES-KM-47", "RES-KM-40"),
        dc=dc,
        mods=mods,
        dice=[(20, r.natural)],
        total=r.total,
        outcome="success" if r.success else "failure",
        target=o.target,
        attempt="threat",
        dc_terms=[[n, v] for n, v in terms],
        relationships=rows,
        margin=r.margin,
        infamy=inf,
        result=outcome,
        **changes,
    )
    return outcome


def _agreement_attempt(world: World, kid: str, o: DiplomaticEdict, kind: str, dice: Dice, ledger: Ledger) -> str:
    """KM-REL-07 (treaty: 3 checks, 2 to succeed) and KM-REL-11 (alliance: 6 checks, 4 to succeed),
    RES-KM-10: attitude shifts after each check and the DC is recomputed; stop once decided."""
    km = _km(world)
    k = km.kingdoms[kid]
    n, need = (3, 2) if kind == "treaty" else (6, 4)
    skill = "diplomacy" if kind == "treaty" else o.skill
    clause = "KM-REL-07" if kind == "treaty" else "KM-REL-11"
    succ = fail = 0
    i = 0
    while succ < need and fail <= n - need:
        i += 1
        dc, terms, rows = diplomatic_dc(world, kid, o.target, o.bribe)
        mods = _skill_mods(world, k, skill)
        r = check(dice, dc, mods)
        shift = None
        if r.margin >= 5:
            shift = list(shift_attitude(km, o.target, kid, 1))
        elif r.failed_by >= 5:
            shift = list(shift_attitude(km, o.target, kid, -1))
        if r.success:
            succ += 1
        else:
            fail += 1
        ledger.emit(
            SYS,
            "DiplomacyCheckRolled" if skill == "diplomacy" else "IntimidateCheckRolled",
            actor(kid),
            (clause, "RES-KM-10", "KM-DIP-04", "RES-KM-04", "RES-KM-47"),
            dc=dc,
            mods=mods,
            dice=[(20, r.natural)],
            total=r.total,
            outcome="success" if r.success else "failure",
            target=o.target,
            attempt=kind,
            check=i,
            of=n,
            dc_terms=[[nm, v] for nm, v in terms],
            relationships=rows,
            margin=r.margin,
            attitude=shift,
        )
    if succ < need:
        change_fame(k, -1)
        km.bump(f"{kind}_refused")
        until = _set_ban(km, kid, o.target, kind)
        ledger.emit(
            SYS,
            "AgreementRefused",
            actor(kid),
            (clause, "RES-KM-40"),
            outcome=f"no {kind}",
            target=o.target,
            successes=succ,
            failures=fail,
            fame=-1,
            ban_until=until,
        )
        return f"{kind} refused"
    skills = OPPOSED_SKILLS if kind == "treaty" else ("diplomacy", "diplomacy", "diplomacy")
    winner = opposed_checks(world, kid, o.target, skills, o.skill, o.target_skill, dice, ledger, kind)
    adv = kid if winner == "envoy" else o.target
    balance = o.balance if winner == "envoy" else o.target_balance
    sign_agreement(world, kid, o.target, kind, adv, balance == "balanced", dice, ledger, via="edict")
    t = km.kingdoms[o.target]
    if o.bribe and t.subjugation is not None and t.subjugation.overlord == kid:
        # KM-VAS-05 / RES-KM-28: the subjugated vassal invests half the bribes this turn
        t.construction_budget = o.bribe // 2
        t.budget_turn = km.turn
        ledger.emit(
            SYS,
            "VassalConstructionBudgetGranted",
            actor(o.target),
            ("KM-VAS-05", "RES-KM-28"),
            total=o.bribe // 2,
            outcome=f"{o.bribe // 2} BP to build this turn",
            overlord=kid,
        )
    return f"{kind} signed"


def opposed_checks(
    world: World,
    kid: str,
    target: str,
    skills: tuple[str, ...],
    envoy_use: str,
    target_use: str,
    dice: Dice,
    ledger: Ledger,
    kind: str,
) -> str:
    """KM-REL-08 / RES-KM-41: one skill at a time, envoy first; ties rerolled; stop at a majority.
    Returns "envoy" or "target"."""
    km = _km(world)
    k, t = km.kingdoms[kid], km.kingdoms[target]
    need = len(skills) // 2 + 1
    wins = {"envoy": 0, "target": 0}
    for i, skill in enumerate(skills):
        es = envoy_use if skill == "diplomacy" else skill
        ts = target_use if skill == "diplomacy" else skill
        emods = _skill_mods(world, k, es)
        tmods = _skill_mods(world, t, ts, counter=True)
        rolls: list[tuple[int, int]] = []
        totals: list[list[int]] = []
        while True:
            e = dice.roll(20)[0]
            tt = dice.roll(20)[0]
            rolls += [(20, e), (20, tt)]
            et = e + sum(v for _, v in emods)
            tot = tt + sum(v for _, v in tmods)
            totals.append([et, tot])
            if et != tot:
                break
        w = "envoy" if et > tot else "target"
        wins[w] += 1
        ledger.emit(
            SYS,
            "OpposedCheckRolled",
            actor(kid),
            ("KM-REL-08", "RES-KM-41", "RES-KM-47") if kind == "treaty" else ("KM-REL-11", "KM-REL-08", "RES-KM-41", "RES-KM-47"),
            mods=[*(("envoy " + n, v) for n, v in emods), *(("target " + n, v) for n, v in tmods)],
            dice=rolls,
            total=et,
            outcome=f"{w} wins",
            target=target,
            skill=SKILL_NAMES[es],
            target_skill=SKILL_NAMES[ts],
            check=i + 1,
            totals=totals,
            envoy_wins=wins["envoy"],
            target_wins=wins["target"],
        )
        if wins[w] >= need:
            return w
    return "envoy" if wins["envoy"] > wins["target"] else "target"


def agreements_held(km: KmWorld, kid: str) -> int:
    """RES-KM-46: each treaty and each alliance a kingdom holds is one agreement."""
    n = 0
    for key in km.relations:
        r = km.relations[key]
        if kid in (r.a, r.b):
            n += (r.treaty is not None) + (r.alliance is not None)
    return n


def sign_agreement(
    world: World, a: str, b: str, kind: str, adv: str, balanced: bool, dice: Dice, ledger: Ledger, *, via: str
) -> Agreement:
    """KM-REL-09/11, RES-KM-11/44/46: sign a treaty (Economy) or alliance (Stability) with fixed bonuses."""
    km = _km(world)
    attr = "economy" if kind == "treaty" else "stability"
    vals: dict[str, int] = {}
    rolled: list[tuple[int, int]] = []
    for side in (a, b):
        ks = km.kingdoms[side]
        if ks.tracked:
            vals[side] = getattr(stats(world, ks), attr)
        else:
            d = dice.roll(6, 2)
            rolled += [(6, d[0]), (6, d[1])]
            vals[side] = sum(d) + size_of(ks)
    dis = b if adv == a else a
    red = {side: (1 if agreements_held(km, side) > 0 else 0) for side in (a, b)}
    if balanced:
        pct = {a: vals[b] * 10 // 100, b: vals[a] * 10 // 100}
    else:
        pct = {adv: max(0, vals[dis]) * 15 // 100, dis: max(0, vals[adv]) * 5 // 100}
    pct = {s: max(0, v) for s, v in pct.items()}
    bonus = {s: max(0, pct[s] - red[s]) for s in sorted(pct)}
    ag = Agreement(
        kind=kind,
        balanced=balanced,
        advantaged=adv,
        bonus=bonus,
        reduction={s: red[s] for s in sorted(red)},
        signed_turn=km.turn,
    )
    rel = km.relation(a, b)
    rel.embassy = True
    km.bump(f"{kind}s_signed")
    if kind == "treaty":
        rel.treaty = ag
    else:
        rel.alliance = ag
    if balanced:
        change_fame(km.kingdoms[adv], 1)
    else:
        change_infamy(km.kingdoms[adv], 1)
    ledger.emit(
        SYS,
        "AgreementSigned",
        actor(a),
        ("KM-REL-09", "RES-KM-11", "RES-KM-46", "KM-REL-13", *(("KM-REL-11",) if kind == "alliance" else ())),
        dice=rolled,
        outcome=f"{'balanced' if balanced else 'unbalanced'} {kind}",
        target=b,
        attribute=attr,
        advantaged=adv,
        partner_values={s: vals[s] for s in sorted(vals)},
        bonus=dict(bonus),
        reduction=dict(ag.reduction),
        fame=1 if balanced else 0,
        infamy=0 if balanced else 1,
        via=via,
    )
    return ag


# resolution: ENG-KM-05
def _rebalance(world: World, kid: str, o: DiplomaticEdict, ledger: Ledger) -> str:
    """KM-REL-09: convert an unbalanced treaty (else alliance) in your favour to balanced, no check.
    The bonuses become 10% of the partner's current value, less the stored reduction (RES-KM-46)."""
    km = _km(world)
    ag = _rebalanceable(km, kid, o.target)
    assert ag is not None
    attr = "economy" if ag.kind == "treaty" else "stability"
    vals = {s: getattr(stats(world, km.kingdoms[s]), attr) for s in (kid, o.target)}
    ag.balanced = True
    ag.bonus = {
        s: max(0, max(0, vals[o.target if s == kid else kid]) * 10 // 100 - ag.reduction.get(s, 0))
        for s in sorted((kid, o.target))
    }
    change_fame(km.kingdoms[kid], 1)
    ledger.emit(
        SYS,
        "AgreementRebalanced",
        actor(kid),
        ("KM-REL-09", "RES-KM-39", "RES-KM-46"),
        outcome=f"balanced {ag.kind}",
        target=o.target,
        bonus=dict(ag.bonus),
        fame=1,
    )
    return f"{ag.kind} rebalanced"


# ---- embassy building, closing, renegotiating, withdrawing (KM-REL-03/06/10) ---------------------


def build_embassy(world: World, kid: str, o: EmbassyBuildingOrder, ledger: Ledger) -> None:
    """KM-REL-03 / RES-KM-08: a Mansion or Noble Villa in a partner's settlement, not counted against
    the building limit."""
    km = _km(world)
    k = km.kingdoms[kid]
    if o.host not in km.kingdoms or o.host == kid:
        raise InvalidOrderError(f"embassy building host {o.host!r}: expected another kingdom")
    if o.kind not in ("mansion", "noble_villa"):
        raise IllegalOrderError("KM-REL-03", f"an embassy building is a Mansion or a Noble Villa, not {o.kind!r}", actor=actor(kid))
    if km.level(kid, o.host) < 1:
        raise IllegalOrderError("KM-REL-03", f"{kid} has no embassy agreement with {o.host}", actor=actor(kid))
    if settlement(km.kingdoms[o.host], o.settlement) is None:
        raise IllegalOrderError("KM-REL-03", f"{o.host} has no settlement named {o.settlement!r}", actor=actor(kid))
    if any(e.owner == kid and e.host == o.host for e in km.embassy_buildings):
        raise IllegalOrderError("KM-REL-03", f"{kid} already has an embassy building in {o.host}", actor=actor(kid))
    _pay(k, BUILDINGS[o.kind].bp, km.turn, f"an embassy {o.kind} in {o.settlement}", "RES-KM-08")
    km.embassy_buildings.append(EmbassyBuilding(kid, o.host, o.settlement, o.kind))
    ledger.emit(
        SYS,
        "EmbassyBuildingBought",
        actor(kid),
        ("KM-REL-03", "RES-KM-08", "SC-KM-31"),
        total=BUILDINGS[o.kind].bp,
        outcome=o.kind,
        host=o.host,
        settlement=o.settlement,
        treasury_after=k.treasury,
    )


def check_relation_order(world: World, kid: str, o: RelationOrder) -> None:
    km = _km(world)
    if o.target not in km.kingdoms or o.target == kid:
        raise InvalidOrderError(f"relation order target {o.target!r}: expected another kingdom")
    rel = km.peek_relation(kid, o.target)
    if o.action == "close_embassy":
        if rel is None or not rel.embassy:
            raise IllegalOrderError("KM-REL-06", f"{kid} has no embassy with {o.target} to close", actor=actor(kid))
        # resolution: ENG-KM-04
        if rel.treaty is not None or rel.alliance is not None:
            raise IllegalOrderError("KM-REL-07", f"the embassy with {o.target} carries a treaty; withdraw from it first", actor=actor(kid))
    elif o.action in ("renegotiate", "withdraw"):
        if o.which not in ("treaty", "alliance"):
            raise InvalidOrderError(f"which {o.which!r}: expected treaty or alliance")
        ag = None if rel is None else (rel.treaty if o.which == "treaty" else rel.alliance)
        if ag is None:
            raise IllegalOrderError("KM-REL-10", f"{kid} has no {o.which} with {o.target}", actor=actor(kid))
    else:
        raise InvalidOrderError(f"relation order action {o.action!r}: expected close_embassy, renegotiate or withdraw")


def resolve_relation_order(world: World, kid: str, o: RelationOrder, dice: Dice, ledger: Ledger) -> str:
    """KM-REL-06 (close an embassy) and KM-REL-10 (renegotiate / withdraw): a Loyalty check, then any
    dice it triggers (RES-KM-39)."""
    check_relation_order(world, kid, o)
    km = _km(world)
    k = km.kingdoms[kid]
    st = stats(world, k)
    r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
    rel = km.relation(kid, o.target)
    if o.action == "close_embassy":
        if r.success:
            rel.embassy = False
            out = "embassy closed"
        else:
            out = "embassy kept"
        emit_check(ledger, "CloseEmbassyLoyaltyCheckRolled", kid, ("KM-REL-06", "SC-KM-03"), r, mods, target=o.target, result=out)
        return out
    if o.action == "withdraw":
        n = 1 if r.success else 2
        add_unrest(k, n)
        # resolution: ENG-KM-04
        if o.which == "treaty":
            rel.treaty = None
            rel.alliance = None
        else:
            rel.alliance = None
        out = f"withdrew from the {o.which}"
        emit_check(
            ledger, "WithdrawalLoyaltyCheckRolled", kid, ("KM-REL-10", "SC-KM-03"), r, mods,
            target=o.target, result=out, unrest=n, unrest_after=k.unrest,
        )
        return out
    # resolution: ENG-KM-05
    # renegotiate
    if not r.success:
        add_unrest(k, 1)
        emit_check(
            ledger, "RenegotiationLoyaltyCheckRolled", kid, ("KM-REL-10", "SC-KM-03"), r, mods,
            target=o.target, result="unchanged", unrest=1, unrest_after=k.unrest,
        )
        return "renegotiation failed"
    emit_check(ledger, "RenegotiationLoyaltyCheckRolled", kid, ("KM-REL-10", "SC-KM-03"), r, mods, target=o.target, result="new opposed checks")
    skills = OPPOSED_SKILLS if o.which == "treaty" else ("diplomacy", "diplomacy", "diplomacy")
    old = rel.treaty if o.which == "treaty" else rel.alliance
    assert old is not None
    winner = opposed_checks(world, kid, o.target, skills, o.skill, o.target_skill, dice, ledger, o.which)
    adv = kid if winner == "envoy" else o.target
    balanced = (o.balance if winner == "envoy" else o.target_balance) == "balanced"
    attr = "economy" if o.which == "treaty" else "stability"
    vals = {s: getattr(stats(world, km.kingdoms[s]), attr) for s in (kid, o.target)}
    dis = o.target if adv == kid else kid
    if balanced:
        pct = {kid: max(0, vals[o.target]) * 10 // 100, o.target: max(0, vals[kid]) * 10 // 100}
    else:
        pct = {adv: max(0, vals[dis]) * 15 // 100, dis: max(0, vals[adv]) * 5 // 100}
    old.balanced = balanced
    old.advantaged = adv
    old.bonus = {s: max(0, pct[s] - old.reduction.get(s, 0)) for s in sorted(pct)}
    if balanced:
        change_fame(km.kingdoms[adv], 1)
    else:
        change_infamy(km.kingdoms[adv], 1)
    ledger.emit(
        SYS,
        "AgreementRenegotiated",
        actor(kid),
        ("KM-REL-10", "KM-REL-09", "RES-KM-11", "RES-KM-46"),
        outcome=f"{'balanced' if balanced else 'unbalanced'} {o.which}",
        target=o.target,
        advantaged=adv,
        bonus=dict(old.bonus),
    )
    return "renegotiated"


# ---- scripted events (KM-REL-06/10/12, LINK-08, RES-KM-35) --------------------------------------


def resolve_event(world: World, ev: ScriptedEvent, dice: Dice, ledger: Ledger) -> None:
    km = _km(world)
    if ev.kingdom not in km.kingdoms or (ev.target is not None and ev.target not in km.kingdoms):
        ledger.emit(SYS, "ScenarioEventSkipped", actor(ev.kingdom), ("RES-KM-35",), outcome="kingdom gone", event=ev.kind)
        return
    k = km.kingdoms[ev.kingdom]
    if ev.kind == "unrest":
        add_unrest(k, ev.amount)
        ledger.emit(SYS, "ScenarioUnrest", actor(k.id), ("RES-KM-35", "SC-KM-07"), total=ev.amount, outcome=f"Unrest {k.unrest}")
        return
    if ev.kind == "aid_refused":
        d = dice.roll(4)[0]
        change_infamy(k, d)
        ledger.emit(SYS, "AidRefused", actor(k.id), ("KM-REL-12",), dice=[(4, d)], total=d, outcome=f"Infamy +{d}", target=ev.target)
        return
    assert ev.target is not None
    t = km.kingdoms[ev.target]
    rel = km.relation(k.id, t.id)
    if ev.kind == "conquest":
        t.conquered_by = k.id
        ledger.emit(SYS, "KingdomConquered", actor(k.id), ("LINK-08", "KM-VAS-01"), outcome="conquered", target=t.id)
        return
    if ev.kind == "peace":
        rel.enemies = False
        ledger.emit(SYS, "PeaceMade", actor(k.id), ("KM-DIP-09",), outcome="peace", target=t.id)
        return
    if ev.kind == "station_army":
        # KM-REL-12: the host (target) pays a Loyalty check or Unrest +1d2, unless it asked for help
        if ev.requested:
            ledger.emit(SYS, "AlliedArmyStationed", actor(t.id), ("KM-REL-12",), outcome="requested: no cost", ally=k.id)
            return
        st = stats(world, t)
        r, mods = kingdom_check(dice, t, "loyalty", st.control_dc, st)
        rolled = [(20, r.natural)]
        d = 0
        if not r.success:
            d = dice.roll(2)[0]
            rolled.append((2, d))
            add_unrest(t, d)
        ledger.emit(
            SYS, "AlliedArmyStationed", actor(t.id), ("KM-REL-12", "SC-KM-03"), dc=r.dc, mods=mods, dice=rolled,
            total=r.total, outcome="success" if r.success else "failure", ally=k.id, unrest=d, unrest_after=t.unrest,
        )
        return
    if ev.kind == "attack":
        lvl = rel.level
        rel.enemies = True
        if lvl == 0:
            ledger.emit(SYS, "KingdomAttacked", actor(k.id), ("KM-DIP-09",), outcome="war", target=t.id)
            return
        st = stats(world, k)
        r, mods = kingdom_check(dice, k, "loyalty", st.control_dc, st)
        rolled = [(20, r.natural)]
        if lvl == 1:  # KM-REL-06
            inf, unr = 1, (0 if r.success else 1)
            clause = "KM-REL-06"
        else:
            if lvl == 2:  # KM-REL-10: success +1d2 each, failure +1d4 each
                sides = 2 if r.success else 4
                count = 1
            else:  # KM-REL-12: success +1d4 each, failure +2d4 each
                sides = 4
                count = 1 if r.success else 2
            fi = dice.roll(sides, count)
            fu = dice.roll(sides, count)
            rolled += [(sides, f) for f in fi] + [(sides, f) for f in fu]
            inf, unr = sum(fi), sum(fu)
            clause = "KM-REL-10" if lvl == 2 else "KM-REL-12"
        change_infamy(k, inf)
        add_unrest(k, unr)
        ended = False
        if ev.end_relations and lvl == 3:
            rel.alliance = None
            rel.treaty = None
            rel.embassy = False
            ended = True
        ledger.emit(
            SYS, "AttackLoyaltyCheckRolled", actor(k.id), (clause, "SC-KM-03", "RES-KM-39"), dc=r.dc, mods=mods,
            dice=rolled, total=r.total, outcome="success" if r.success else "failure", target=t.id,
            infamy=inf, unrest=unr, relations_ended=ended,
        )
        return
    raise InvalidOrderError(f"unknown scenario event kind {ev.kind!r}")


# =================================================================================================
# Exploration edicts (KM-EXP)
# =================================================================================================


def explore_days(speed: int, terrain: str) -> int:
    """RES-KM-13: days to explore a hex: SC-KM-33 at 30 ft, SC-KM-34 at other speeds (Cavern as
    Mountain, Jungle as Marsh, Water always 2 days)."""
    t = km_terrain(terrain)
    if speed == 30:
        return TERRAIN[t][0]
    if t == "water":
        return 2
    row = SPEED_TABLE[speed]
    if t in ("plains", "hills"):
        return row[2]
    if t in ("desert", "forest", "marsh", "jungle"):
        return row[3]
    return row[4]


def travel_hours(speed: int, terrain: str) -> int:
    """SC-KM-34: hours to cross one hex at ``speed`` (plain or other terrain)."""
    row = SPEED_TABLE[speed]
    return row[0] if km_terrain(terrain) == "plains" else row[1]


def _check_exploration(world: World, kid: str, o: ExplorationEdict) -> None:
    km = _km(world)
    k = km.kingdoms[kid]
    if vacant(k, "grand_diplomat"):
        raise IllegalOrderError("KM-GEN-03", "the Grand Diplomat's seat is vacant: no Exploration edicts", actor=actor(kid))
    if o.months < 1:
        raise InvalidOrderError(f"months {o.months}: expected 1 or more whole months (KM-EXP-02)")
    if not o.route:
        raise IllegalOrderError("KM-EXP-02", "an expedition needs a route of at least one hex", actor=actor(kid))
    n = len(world.map.hexes)
    for h in o.route:
        if not 0 <= h < n:
            raise InvalidOrderError(f"route hex {h} is not on the map")
    cap = capital_hex(k)
    if cap is None or not k.settlements:
        raise IllegalOrderError("KM-EXP-03", f"{kid} has no capital for the explorers to leave from", actor=actor(kid))
    first = o.route[0]
    if first != cap and first not in world.map.neighbors(cap):
        raise IllegalOrderError(
            "RES-KM-12",
            f"the route must start at or next to the capital {list(world.map.coords(cap))}, not at {list(world.map.coords(first))}",
            actor=actor(kid),
        )
    for i, (a, b) in enumerate(zip(o.route, o.route[1:])):
        # resolution: ENG-KM-10
        if b not in world.map.neighbors(a):
            raise IllegalOrderError(
                "RES-KM-12", f"route hex {i + 1} {list(world.map.coords(b))} is not next to {list(world.map.coords(a))}", actor=actor(kid)
            )


def resolve_exploration(world: World, kid: str, o: ExplorationEdict, dice: Dice, ledger: Ledger) -> Expedition:
    """KM-EXP-02 / RES-KM-12: roll 1d4 per month, pay in advance, set the expedition out."""
    km = _km(world)
    k = km.kingdoms[kid]
    faces = dice.roll(4, o.months)
    cost = sum(faces)
    k.treasury -= cost
    k.special_turn = km.turn
    km.bump("edicts_exploration")
    k.expeditions_sent += 1
    cap = capital_hex(k)
    route = list(o.route[1:] if o.route[0] == cap else o.route)
    exp = Expedition(
        id=km.new_id(),
        kingdom=kid,
        number=k.expeditions_sent,
        route=route,
        months=o.months,
        issue_turn=km.turn,
        cost=cost,
        knowledge=k.explorers.get("knowledge_geography", 0),
        survival=k.explorers.get("survival", 0),
        stealth=k.explorers.get("stealth", 0),
        speed=world.config.km.explorer_speed_ft,
        pcs=o.pcs,
    )
    km.expeditions.append(exp)
    ledger.emit(
        SYS,
        "ExplorationEdictIssued",
        actor(kid),
        ("KM-GEN-01", "KM-GEN-02", "KM-EXP-01", "KM-EXP-02", "KM-EXP-03", "RES-KM-12", "RES-KM-01", "RES-KM-39"),
        dice=[(4, f) for f in faces],
        total=cost,
        outcome=f"{o.months} month(s)",
        expedition=exp.id,
        route=[list(world.map.coords(h)) for h in route],
        treasury_after=k.treasury,
        pcs=o.pcs,
    )
    return exp


def run_expeditions(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-42: simulate this turn's contract month of each active expedition (ascending id)."""
    km = _km(world)
    for exp in km.expeditions:
        if exp.kingdom != kid or exp.status != "active":
            continue
        m = km.turn - exp.issue_turn + 1
        if 1 <= m <= exp.months:
            explore_month(world, exp, m, dice, ledger)


def explore_month(world: World, exp: Expedition, m: int, dice: Dice, ledger: Ledger) -> None:
    """Contract month ``m`` of an expedition, day by day (RES-KM-13/14/15/16/42)."""
    km = _km(world)
    cfg = world.config.km
    per = cfg.days_per_turn
    encs = [
        e
        for e in km.encounters
        if (e.kingdom is None or e.kingdom == exp.kingdom) and (e.expedition in (0, exp.number))
        and (m - 1) * per < e.day <= m * per
    ]
    for day in range((m - 1) * per + 1, m * per + 1):
        exp.day = day
        here = exp.route[min(exp.pos, len(exp.route) - 1)]
        stop = False
        for e in encs:
            if e.day == day and e.hex in (-1, here):
                res = _encounter(world, exp, e, m, here, dice, ledger)
                if res != "safe":
                    stop = True
                    break
        if stop:
            break
        _expedition_day(world, exp, day, dice, ledger)
    if exp.status == "active" and m == exp.months:
        exp.status = "finished"
        ledger.emit(
            SYS,
            "ExplorersReturned",
            actor(exp.kingdom),
            ("KM-EXP-03", "RES-KM-13"),
            outcome="contract ended",
            expedition=exp.id,
            explored=[list(world.map.coords(h)) for h in exp.explored],
            found=list(exp.found),
            unused_route=len(exp.route) - exp.pos,
        )


def _encounter(world: World, exp: Expedition, e: Encounter, m: int, here: int, dice: Dice, ledger: Ledger) -> str:
    """KM-EXP-06/07/08, RES-KM-15/16: "safe", "scattered" or "killed"."""
    km = _km(world)
    k = km.kingdoms[exp.kingdom]
    where = list(world.map.coords(here))
    if exp.pcs:
        res = {"none": "safe", "scattered": "scattered", "killed": "killed"}.get(e.outcome, "safe")
        ledger.emit(
            SYS, "EncounterResolvedByPCs", actor(exp.kingdom), ("KM-EXP-06", "RES-KM-15"), outcome=res,
            expedition=exp.id, day=e.day, cr=e.cr, hex=where, name=e.name,
        )
        if res == "scattered":
            exp.scattered_month = m
            km.bump("expeditions_scattered")
        elif res == "killed":
            exp.status = "killed"
            km.bump("expeditions_killed")
        return res
    if not e.hostile:
        ledger.emit(
            SYS, "EncounterMet", actor(exp.kingdom), ("KM-EXP-06", "RES-KM-15"), outcome="not hostile",
            expedition=exp.id, day=e.day, cr=e.cr, hex=where, name=e.name,
        )
        return "safe"
    dc = 10 + 2 * e.cr
    r = check(dice, dc, [("Stealth (least stealthy)", exp.stealth)])
    ledger.emit(
        SYS, "ExplorerStealthCheckRolled", actor(exp.kingdom), ("KM-EXP-07", "RES-KM-15"), dc=dc,
        mods=[("Stealth (least stealthy)", exp.stealth)], dice=[(20, r.natural)], total=r.total,
        outcome="success" if r.success else "failure", expedition=exp.id, day=e.day, cr=e.cr, hex=where, name=e.name,
    )
    if r.success:
        return "safe"
    st = stats(world, k)
    sr, mods = kingdom_check(dice, k, "stability", st.control_dc + 2 * e.cr, st)
    if sr.success:
        exp.scattered_month = m
        res = "scattered"
    else:
        exp.status = "killed"
        add_unrest(k, 1)
        res = "killed"
    km.bump(f"expeditions_{res}")
    emit_check(
        ledger, "ExplorerStabilityCheckRolled", exp.kingdom, ("KM-EXP-08", "RES-KM-16", "SC-KM-03", "SC-KM-04"), sr, mods,
        expedition=exp.id, day=e.day, cr=e.cr, result=res, unrest_after=k.unrest,
        days_forfeited=(m * world.config.km.days_per_turn - e.day + 1) if res == "scattered" else 0,
    )
    return res


def _expedition_day(world: World, exp: Expedition, day: int, dice: Dice, ledger: Ledger) -> None:
    """One day of travel (through explored hexes, up to the daily travel hours) or of exploration."""
    km = _km(world)
    if exp.pos >= len(exp.route):
        return
    hexes = world.map.hexes
    h = exp.route[exp.pos]
    if km.explored(h):
        avail = world.config.km.explorer_travel_hours_per_day
        while exp.pos < len(exp.route) and km.explored(exp.route[exp.pos]) and avail > 0:
            cur = exp.route[exp.pos]
            need = travel_hours(exp.speed, hexes[cur].terrain) - exp.travel_done
            take = min(avail, need)
            avail -= take
            exp.travel_done += take
            if exp.travel_done >= travel_hours(exp.speed, hexes[cur].terrain):
                exp.pos += 1
                exp.travel_done = 0
        return  # a final partial day is rounded up (RES-KM-13)
    hs = km.hex(h)
    hs.progress += 1
    need = explore_days(exp.speed, hexes[h].terrain)
    rolled: list[tuple[int, int]] = []
    found: list[str] = []
    if hs.progress >= 2:
        for skill, bonus in (("Knowledge (geography)", exp.knowledge), ("Survival", exp.survival)):
            hidden = [f for f in hs.features if f.found_by is None]
            if not hidden:
                break
            d = dice.roll(20)[0]
            rolled.append((20, d))
            tot = d + bonus
            got = [f for f in hidden if tot >= f.dc]
            for f in got:
                km.bump("features_found")
                f.found_by = exp.kingdom
                found.append(f.name)
                exp.found.append(f.name)
            ledger.emit(
                SYS, "HiddenFeatureCheckRolled", actor(exp.kingdom), ("KM-EXP-05", "RES-KM-14"),
                dc=min(f.dc for f in hidden), mods=[(skill, bonus)], dice=[(20, d)], total=tot,
                outcome=("found " + ", ".join(f.name for f in got)) if got else "nothing found",
                expedition=exp.id, day=day, hex=list(world.map.coords(h)), dcs=[[f.name, f.dc] for f in hidden],
            )
    if hs.progress >= need:
        hs.explored = True
        hs.progress = 0
        km.bump("hexes_explored")
        exp.explored.append(h)
        exp.pos += 1
        ledger.emit(
            SYS, "HexExplored", actor(exp.kingdom), ("KM-EXP-04", "KM-EXP-05", "RES-KM-13", "RES-KM-42", "SC-KM-33", "SC-KM-34"),
            total=need, outcome="explored", expedition=exp.id, day=day, hex=list(world.map.coords(h)),
            terrain=hexes[h].terrain, found=found,
        )


# =================================================================================================
# Trade edicts (KM-TRADE)
# =================================================================================================


def route_weight(world: World, h: int, pier: bool, waterfront: bool) -> tuple[int, str] | None:
    """RES-KM-18: (weight in half hexes, category) of one route hex, or None if not allowed."""
    hx = world.map.hexes[h]
    lvl = hx.road_level
    if lvl >= ROAD_LEVEL["highway"]:
        return 1, "highway"
    if lvl >= ROAD_LEVEL["road"]:
        return 2, "road"
    if pier and hx.river:
        return 2, "river"
    if waterfront and hx.is_water:
        return 1, "water"
    if pier and hx.coast:
        return 2, "coastal"
    t = km_terrain(hx.terrain)
    if t == "plains":
        return 4, "plains"
    if t == "desert":
        return 4, "desert"
    return None


def route_days(world: World, path: list[int], cats: list[str], start: int) -> Fraction:
    """KM-TRADE-06 / RES-KM-20: Σ 1/rate over the path (road, upstream river, plains, desert,
    highway 1 hex/day; coast 2; water and downstream river 4)."""
    days = Fraction(0)
    prev = start
    for h, cat in zip(path, cats):
        if cat == "water":
            days += Fraction(1, 4)
        elif cat == "coastal":
            days += Fraction(1, 2)
        elif cat == "river":
            downstream = world.map.hexes[prev].river_to == h
            days += Fraction(1, 4) if downstream else Fraction(1)
        else:
            days += 1
        prev = h
    return days


def trade_path(world: World, origin_hex: int, dest_hex: int, pier: bool, waterfront: bool) -> list[int] | None:
    """The least-cost path by KM-TRADE-04 weights (hexes after the origin's, destination included)."""

    def cost(h: int) -> float | None:
        w = route_weight(world, h, pier, waterfront)
        return None if w is None else float(w[0])

    # route_weight reads the hex alone (roads included): the key needs only the two flags
    got = cheapest_path(world.map, origin_hex, dest_hex, ("km-trade", pier, waterfront),
                        lambda: [cost(h) for h in range(len(world.map.hexes))], hex_cost=cost)
    if got is None:
        return None
    return got[0][1:]


def _type_taken(km: KmWorld, kid: str, typ: str) -> bool:
    """RES-KM-24: taken from issue until the expedition fails or the route expires."""
    return any(r.kingdom == kid and r.type == typ and r.status in ("travelling", "established") for r in km.routes)


def _check_trade(world: World, kid: str, o: TradeEdict) -> tuple[int, list[int], list[str], int]:
    """Legality of a Trade edict; returns (origin hex, path, categories, TRL halves)."""
    km = _km(world)
    k = km.kingdoms[kid]
    if o.partner == kid or o.partner not in km.kingdoms:
        raise InvalidOrderError(f"trade partner {o.partner!r}: expected another kingdom")
    if o.type not in ROUTE_TYPES:
        raise InvalidOrderError(f"trade route type {o.type!r}: expected one of {', '.join(ROUTE_TYPES)}")
    src = settlement(k, o.origin)
    if src is None:
        raise IllegalOrderError("KM-TRADE-02", f"the origin {o.origin!r} is not a settlement of {kid}", actor=actor(kid))
    dst = settlement(km.kingdoms[o.partner], o.destination)
    if dst is None:
        raise IllegalOrderError("KM-TRADE-02", f"the destination {o.destination!r} is not a settlement of {o.partner}", actor=actor(kid))
    if _type_taken(km, kid, o.type):
        raise IllegalOrderError("KM-TRADE-14", f"{kid} already has a {o.type} trade route (one per type)", actor=actor(kid))
    _route_prerequisites(world, k, src.name, o.type)
    if o.investment < 5:
        raise IllegalOrderError("KM-TRADE-07", f"the first expedition needs at least 5 BP, not {o.investment}", actor=actor(kid))
    if trade_investment(k, o) < 5:
        raise IllegalOrderError(
            "KM-TRADE-07",
            f"the first expedition needs at least 5 BP and the investment is capped by the Treasury ({k.treasury} BP, RES-KM-01)",
            actor=actor(kid),
        )
    pier = src.buildings.get("pier", 0) > 0
    wf = src.buildings.get("waterfront", 0) > 0
    if o.path:
        path = list(o.path[1:] if o.path[0] == src.hex else o.path)
        n = len(world.map.hexes)
        for h in path:
            if not 0 <= h < n:
                raise InvalidOrderError(f"trade path hex {h} is not on the map")
        prev = src.hex
        for h in path:
            if h not in world.map.neighbors(prev):
                raise IllegalOrderError(
                    "RES-KM-17", f"path hex {list(world.map.coords(h))} is not next to {list(world.map.coords(prev))}", actor=actor(kid)
                )
            prev = h
        if not path or path[-1] != dst.hex:
            raise IllegalOrderError("RES-KM-17", f"the path must end at {o.destination} {list(world.map.coords(dst.hex))}", actor=actor(kid))
    else:
        # resolution: ENG-KM-09
        got = trade_path(world, src.hex, dst.hex, pier, wf)
        if got is None:
            raise IllegalOrderError(
                "KM-TRADE-03", f"no allowed path from {o.origin} to {o.destination} (plains, desert, roads{', rivers, coasts' if pier else ''}{', water' if wf else ''})",
                actor=actor(kid),
            )
        path = got
    if world.has("cv") and world.cv is not None:
        _check_convoy(world, k, src.hex, path)
    cats: list[str] = []
    halves = 0
    for h in path:
        w = route_weight(world, h, pier, wf)
        if w is None:
            hx = world.map.hexes[h]
            raise IllegalOrderError(
                "KM-TRADE-03",
                f"hex {list(world.map.coords(h))} ({hx.terrain}{', river' if hx.river else ''}{', coast' if hx.coast else ''}) is not allowed on a trade route from {o.origin}",
                actor=actor(kid),
            )
        halves += w[0]
        cats.append(w[1])
    return src.hex, path, cats, halves


def trade_investment(k: Kingdom, o: TradeEdict) -> int:
    """RES-KM-01: the investment asked for, capped by the Treasury at the moment of the edict (0 if it
    is not positive). KM-TRADE-07 then needs at least 5 BP of it."""
    return min(o.investment, max(0, k.treasury))


def _expedition_convoy(world: World, k: Kingdom, cid: str, origin: int, path: list[int], blocks: int) -> Convoy:
    """LINK-04: the convoy a Trade edict sends (the kingdom's template, default SC-CV-07's standard
    caravan), carrying ``blocks`` cargo units of trade goods and provisions for the route, its stops
    pinned to the trade route's hexes so that it follows the path used for TRL."""
    from sim.rules import caravan as cr
    from sim.state.cv import Traveler

    cfg = world.config.cv
    t = k.expedition
    c = cr.standard_convoy(cid, origin, path[-1], cfg, name=f"{k.name} trade expedition", policy=t.policy if t else "heuristic",
                           cargo={"trade_goods": blocks} if blocks else {}, gp=t.gp if t else 0)
    if t is not None:
        c.offense, c.defense, c.mobility, c.morale = t.offense, t.defense, t.mobility, t.morale
        c.feats = list(t.feats)
        if t.wagons:
            c.wagons, c.next_wagon_id, c.hp, c.max_hp = [], 0, 0, 0
            for kind in t.wagons:
                cr.add_wagon(c, kind, cfg)
        if t.travelers:
            c.travelers = [Traveler(id=tid, job=job, can_drive=job == "driver") for tid, job in t.travelers]
    c.stops = list(path)
    days = cr.route_days(world, c, [origin, *path])
    room = max(0, cr.cargo_capacity(c, cfg) - blocks) * 10
    # resolution: ENG-CV-25
    c.provisions = min(room, cr.consumption(c, world.now, cfg) * (math.ceil(days) + 2))
    return c


def _check_convoy(world: World, k: Kingdom, origin: int, path: list[int]) -> None:
    """LINK-04: the trade route must be a road a caravan can travel, and the caravan must carry the goods."""
    from sim.rules import caravan as cr

    for h in path:
        if not cr.passable(world.map, h):
            raise IllegalOrderError(
                "LINK-04", f"the merchant caravan cannot travel hex {list(world.map.coords(h))} ({world.map.hexes[h].terrain})",
                actor=actor(k.id),
            )


def _route_prerequisites(world: World, k: Kingdom, origin: str, typ: str) -> None:
    """KM-TRADE-15…19, RES-KM-24/25: buildings (and the Food surplus) a route type needs."""
    s = settlement(k, origin)
    assert s is not None
    if typ == "food":
        if not (s.buildings.get("granary", 0) and s.buildings.get("stockyard", 0)):
            raise IllegalOrderError("KM-TRADE-16", f"a Food route needs a Granary and a Stockyard in {origin}", actor=actor(k.id))
        raw = stats(world, k).raw_consumption
        if raw >= 0:
            raise IllegalOrderError(
                "RES-KM-25", f"Food can be exported only with a surplus: raw Consumption is {raw}, not below 0", actor=actor(k.id)
            )
    elif typ == "goods":
        if not s.buildings.get("guildhall", 0):
            raise IllegalOrderError("KM-TRADE-17", f"a Goods route needs a Guildhall in {origin}", actor=actor(k.id))
    elif typ == "luxuries":
        if not s.buildings.get("luxury_store", 0):
            raise IllegalOrderError("KM-TRADE-18", f"a Luxuries route needs a Luxury Store in {origin}", actor=actor(k.id))


def type_bonus(world: World, k: Kingdom, origin: str, typ: str) -> int:
    """KM-TRADE-16…19: the route type's Economy bonus."""
    # implements: KM-TRADE-19
    if typ in ROUTE_BUILDINGS:
        return count_buildings(k, ROUTE_BUILDINGS[typ], origin) // 10
    if typ == "food":
        return (count_improvements(k, "farm") + count_improvements(k, "fishery")) // 10
    n = count_improvements(k, "quarry") + count_improvements(k, "sawmill")
    s = settlement(k, origin)
    if s is not None and s.buildings.get("foundry", 0):
        n += count_improvements(k, "mine")
    return n // 10


def resolve_trade(world: World, kid: str, o: TradeEdict, dice: Dice, ledger: Ledger) -> TradeRoute:
    """KM-TRADE-02…07 / RES-KM-17…21: trace the route, pay the investment, send the merchants. The
    three checks follow at once if they arrive in the issue turn (RES-KM-20). When caravans are enabled
    the merchants travel as a convoy under the CV rules instead (LINK-04): ``convoy_arrivals``."""
    km = _km(world)
    k = km.kingdoms[kid]
    origin_hex, path, cats, halves = _check_trade(world, kid, o)
    asked = o.investment
    invest = trade_investment(k, o)
    convoy = world.has("cv") and world.cv is not None
    expedition = None
    if convoy:
        from sim.rules import caravan as cr

        cid = f"trade-{kid}-{km.next_id}"
        expedition = _expedition_convoy(world, k, cid, origin_hex, path, invest // 5)
        # resolution: ENG-CV-25
        if expedition.cargo.get("trade_goods", 0) > cr.cargo_capacity(expedition, world.config.cv):
            raise IllegalOrderError(
                "LINK-04", f"the merchant caravan carries {cr.cargo_capacity(expedition, world.config.cv)} cargo units, "
                f"not the {invest // 5} units of trade goods of {invest} BP", actor=actor(kid),
            )
    trl = Fraction(halves, 2)
    rm = math.floor(trl / 10)
    lm = max(0, math.floor(size_of(k) - trl))
    days = route_days(world, path, cats, origin_hex)
    per = world.config.km.days_per_turn
    arrival = km.turn + max(0, math.ceil(days / per) - 1)
    k.treasury -= invest
    k.special_turn = km.turn
    km.bump("edicts_trade")
    route = TradeRoute(
        id=km.new_id(),
        kingdom=kid,
        partner=o.partner,
        origin=o.origin,
        destination=o.destination,
        type=o.type,
        path=path,
        trl_halves=halves,
        rm=rm,
        lm=lm,
        investment=invest,
        k=invest // 5,
        issue_turn=km.turn,
        arrival_turn=-1 if convoy else arrival,
        days=str(days),
    )
    if expedition is not None:
        from sim.rules import caravan as cr

        cr.add_convoy(world, expedition)
        route.convoy = expedition.id
        route.set_out = world.now
    km.routes.append(route)
    ledger.emit(
        SYS,
        "TradeEdictIssued",
        actor(kid),
        ("KM-GEN-01", "KM-GEN-02", "KM-TRADE-01", "KM-TRADE-02", "KM-TRADE-03", "KM-TRADE-04", "KM-TRADE-05",
         "KM-TRADE-06", "KM-TRADE-07", "KM-TRADE-15", "RES-KM-17", "RES-KM-18", "RES-KM-19", "RES-KM-20", "RES-KM-21",
         "RES-KM-24", "RES-KM-39"),
        total=invest,
        outcome=o.type,
        investment_asked=asked,
        route=route.id,
        partner=o.partner,
        origin=o.origin,
        destination=o.destination,
        path=[list(world.map.coords(h)) for h in path],
        categories=cats,
        trl=str(trl),
        rm=rm,
        lm=lm,
        days=str(days),
        arrival_turn=route.arrival_turn,
        k=route.k,
        treasury_after=k.treasury,
        convoy=route.convoy,
    )
    if expedition is not None:
        ledger.emit(
            SYS,
            "TradeCaravanSetOut",
            actor(kid),
            ("LINK-04", "RES-KM-21"),
            total=route.k,
            outcome=expedition.id,
            route=route.id,
            provisions=expedition.provisions,
            wagons=[w.kind for w in expedition.wagons],
        )
    elif arrival == km.turn:
        trade_arrival(world, route, dice, ledger)
    return route


def convoy_arrivals(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """LINK-04, in the KM Income phase: the checks of a trade caravan that reached its destination
    (``k`` reduced by the trade goods it lost or gave away on the way), or the loss of one that was
    destroyed or has not arrived after ``link.expedition_max_days`` days."""
    km = _km(world)
    cv = world.cv
    if cv is None:
        return
    limit = world.config.link.expedition_max_days * 24
    for r in km.routes:
        if r.kingdom != kid or r.status != "travelling" or r.convoy is None:
            continue
        try:
            c = cv.convoy(r.convoy)
        except KeyError:
            _trade_lost(world, r, ledger, reason="the caravan is gone", checks=False)
            continue
        if c.status == "arrived" and c.arrived_at - r.set_out > limit:
            _trade_lost(world, r, ledger, reason=f"the caravan {c.id} arrived after more than {limit // 24} days", checks=False)
        elif c.status == "arrived" and c.arrived_at <= world.now:
            left = min(r.k, c.cargo.get("trade_goods", 0))
            ledger.emit(
                SYS, "TradeCaravanArrived", actor(kid), ("LINK-04",), total=left, outcome=f"{left} of {r.k} unit(s) of trade goods",
                route=r.id, convoy=c.id, arrived=c.arrived_at,
            )
            trade_arrival(world, r, dice, ledger, k_units=left)
        elif c.status == "destroyed":
            _trade_lost(world, r, ledger, reason=f"the caravan {c.id} was destroyed", checks=False)
        elif world.now - r.set_out >= limit:
            _trade_lost(world, r, ledger, reason=f"the caravan {c.id} has not arrived after {limit // 24} days", checks=False)


def trade_arrivals(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-20: merchants arriving this turn make their checks at the start of the Edict phase."""
    km = _km(world)
    for r in km.routes:
        if r.kingdom == kid and r.status == "travelling" and r.convoy is None and r.arrival_turn == km.turn and r.issue_turn < km.turn:
            trade_arrival(world, r, dice, ledger)


def trade_dc(world: World, r: TradeRoute) -> tuple[int, list[tuple[str, int]]]:
    """KM-TRADE-08: Control DC + origin Corruption + RM + LM − origin Productivity."""
    km = _km(world)
    k = km.kingdoms[r.kingdom]
    s = settlement(k, r.origin)
    m = settlement_mods(world, k, s) if s is not None else {"corruption": 0, "productivity": 0}
    terms = [
        ("Control DC", stats(world, k).control_dc),
        (f"{r.origin} Corruption", m["corruption"]),
        ("RM", r.rm),
        ("LM", r.lm),
        (f"{r.origin} Productivity", -m["productivity"]),
    ]
    return sum(v for _, v in terms), terms


def trade_arrival(world: World, r: TradeRoute, dice: Dice, ledger: Ledger, *, k_units: int | None = None) -> str:
    """KM-TRADE-08…13, RES-KM-22/23: the Economy, Loyalty and Stability checks and the outcome band.
    ``k_units`` (LINK-04): blocks of 5 BP left after the convoy's losses; 0 → as KM-TRADE-09."""
    km = _km(world)
    if r.kingdom not in km.kingdoms:
        return "lost"
    k = km.kingdoms[r.kingdom]
    blocks = r.k if k_units is None else k_units
    if k_units is not None and blocks <= 0:
        return _trade_lost(world, r, ledger, reason="nothing left to sell", checks=False)
    dc, terms = trade_dc(world, r)
    st = stats(world, k)
    succ = 0
    for attr in ("economy", "loyalty", "stability"):
        cr, mods = kingdom_check(dice, k, attr, dc, st)
        succ += cr.success
        emit_check(
            ledger, "TradeCheckRolled", r.kingdom, ("KM-TRADE-08", "SC-KM-03", "SC-KM-04"), cr, mods,
            route=r.id, attribute=attr, dc_terms=[[n, v] for n, v in terms],
        )
    r.successes = succ
    if succ == 0:
        return _trade_lost(world, r, ledger, reason="zero successes", checks=True)
    if succ == 1:
        faces = dice.roll(4, blocks) if blocks else []
        gain = sum(faces)
        k.treasury += gain
        r.status = "sold"
        km.bump("trade_sold_elsewhere")
        ledger.emit(
            SYS, "TradeGoodsSoldElsewhere", actor(r.kingdom), ("KM-TRADE-10", "RES-KM-22", "RES-KM-24"),
            dice=[(4, f) for f in faces], total=gain, outcome=f"+{gain} BP", route=r.id, treasury_after=k.treasury,
        )
        return "sold elsewhere"
    faces = dice.roll(4, 2 * blocks) if blocks else []
    gain = r.rm + sum(faces)
    k.treasury += gain
    r.status = "established"
    km.bump("trade_routes_established")
    r.arrival_turn = km.turn
    r.expiry_turn = km.turn + 12
    r.economy_bonus = 2 if succ == 3 else 1
    r.type_bonus = type_bonus(world, k, r.origin, r.type)
    if succ == 3:
        change_fame(k, 1)
    ledger.emit(
        SYS,
        "TradeRouteEstablished",
        actor(r.kingdom),
        ("KM-TRADE-11", "KM-TRADE-12", "KM-TRADE-13", "KM-TRADE-15", "KM-TRADE-16", "KM-TRADE-17", "KM-TRADE-18",
         "KM-TRADE-19", "RES-KM-22", "RES-KM-23", "RES-KM-24", "RES-KM-25"),
        dice=[(4, f) for f in faces],
        total=gain,
        outcome="great success" if succ == 3 else "established",
        route=r.id,
        type=r.type,
        partner=r.partner,
        economy_bonus=r.economy_bonus,
        type_bonus=r.type_bonus,
        fame=1 if succ == 3 else 0,
        expiry_turn=r.expiry_turn,
        treasury_after=k.treasury,
    )
    return "established"


def _trade_lost(world: World, r: TradeRoute, ledger: Ledger, *, reason: str, checks: bool) -> str:
    """KM-TRADE-09: the whole expedition is lost, Fame −1, Unrest +1."""
    km = _km(world)
    k = km.kingdoms[r.kingdom]
    change_fame(k, -1)
    add_unrest(k, 1)
    r.status = "lost"
    km.bump("trade_expeditions_lost")
    ledger.emit(
        SYS,
        "TradeExpeditionLost",
        actor(r.kingdom),
        ("KM-TRADE-09", "RES-KM-24") if checks else ("KM-TRADE-09", "LINK-04"),
        outcome="lost",
        route=r.id,
        reason=reason,
        fame=-1,
        unrest_after=k.unrest,
    )
    return "lost"


# =================================================================================================
# Vassalage edicts (KM-VAS)
# =================================================================================================


def _check_vassalage(world: World, kid: str, o: VassalageEdict) -> None:
    km = _km(world)
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
    km = _km(world)
    k = km.kingdoms[kid]
    # RES-KM-01/26: the 1d4 is rolled and paid first; the grant is then capped by a quarter of the
    # Treasury after that payment (0 if it is not positive). The edict is never refused for lack of BP.
    cost = dice.roll(4)[0]
    top = max(0, k.treasury - cost) // 4
    grant = top if o.grant_max else min(o.grant, top)
    k.treasury -= cost + grant
    k.special_turn = km.turn
    km.bump("edicts_vassalage")
    km.bump(f"vassalage_{o.mode}")
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


# =================================================================================================
# Special edicts: legality, resolution, candidates
# =================================================================================================


def check_special(world: World, kid: str, o: SpecialEdict) -> None:
    """Raise IllegalOrderError (naming the clause) if ``kid`` may not issue ``o`` now."""
    # implements: KM-DIP-01
    km = _km(world)
    k = _kingdom(km, kid)
    if k.anarchy:
        raise IllegalOrderError("SC-KM-07", "the kingdom is in anarchy (Unrest 20) and can take no actions", actor=actor(kid))
    if k.special_turn == km.turn:
        raise IllegalOrderError("KM-GEN-02", "a kingdom may issue at most one special edict per turn", order=type(o).__name__, actor=actor(kid))
    if k.edicts_turn != km.turn:
        raise IllegalOrderError(
            "KM-GEN-02", "a special edict comes only after the Holiday, Improvement, Promotion and Taxation edicts of the turn",
            actor=actor(kid),
        )
    if isinstance(o, DiplomaticEdict):
        _check_diplomatic(world, kid, o)
    elif isinstance(o, ExplorationEdict):
        _check_exploration(world, kid, o)
    elif isinstance(o, TradeEdict):
        _check_trade(world, kid, o)
    elif isinstance(o, VassalageEdict):
        _check_vassalage(world, kid, o)
    else:
        raise InvalidOrderError(f"not a special edict: {o!r}")


def resolve_special(world: World, kid: str, o: SpecialEdict, dice: Dice, ledger: Ledger, now: int = 0) -> object:
    check_special(world, kid, o)
    if isinstance(o, DiplomaticEdict):
        return resolve_diplomatic(world, kid, o, dice, ledger)
    if isinstance(o, ExplorationEdict):
        return resolve_exploration(world, kid, o, dice, ledger)
    if isinstance(o, TradeEdict):
        return resolve_trade(world, kid, o, dice, ledger)
    return resolve_vassalage(world, kid, o, dice, ledger, now=now)


def is_legal(world: World, kid: str, o: SpecialEdict) -> bool:
    try:
        check_special(world, kid, o)
    except RulesError:
        return False
    return True


def frontier_routes(world: World, kid: str, *, limit: int = 3, length: int = 4) -> list[list[int]]:
    """Candidate exploration routes: from the capital towards the nearest unexplored hexes, then on
    through unexplored neighbours (breadth-first, ties by hex index)."""
    km = _km(world)
    k = km.kingdoms[kid]
    cap = capital_hex(k)
    if cap is None:
        return []
    nb = world.map.neighbors
    prev: dict[int, int] = {cap: -1}
    queue = [cap]
    targets: list[int] = []
    qi = 0
    while qi < len(queue) and len(targets) < limit:
        a = queue[qi]
        qi += 1
        for b in nb(a):
            if b in prev:
                continue
            prev[b] = a
            if not km.explored(b):
                targets.append(b)
                if len(targets) >= limit:
                    break
            else:
                queue.append(b)
    out: list[list[int]] = []
    for t in targets:
        path = [t]
        while prev[path[-1]] != cap and prev[path[-1]] != -1:
            path.append(prev[path[-1]])
        path.reverse()
        seen = set(path)
        cur = t
        extra = 0
        while extra < length - 1:
            nxt = [b for b in nb(cur) if b not in seen and not km.explored(b)]
            if not nxt:
                break
            cur = nxt[0]
            seen.add(cur)
            path.append(cur)
            extra += 1
        out.append(path)
    return out


def legal_specials(world: World, kid: str) -> list[SpecialEdict]:
    """Candidate legal special edicts for ``kid`` now (each passes ``check_special``)."""
    km = _km(world)
    k = km.kingdoms[kid]
    if k.anarchy or k.special_turn == km.turn or k.edicts_turn != km.turn:
        return []
    out: list[SpecialEdict] = []
    others = [x for x in km.ids() if x != kid]
    spare = max(0, k.treasury - 4)
    # diplomatic
    if not vacant(k, "grand_diplomat"):
        for t in others:
            if not representative_present(world, kid, t):
                continue
            lvl = km.level(kid, t)
            kinds = {0: ["embassy", "threat"], 1: ["treaty"], 2: ["alliance"]}.get(lvl, [])
            if _rebalanceable(km, kid, t) is not None:
                kinds.append("rebalance")
            for kind in kinds:
                skill = "intimidate" if k.skills.get("intimidate", 0) > k.skills.get("diplomacy", 0) else "diplomacy"
                for bribe in sorted({0, min(spare, 5), min(spare, 10)}):
                    out.append(DiplomaticEdict(t, kind, bribe=bribe, skill=skill if kind == "alliance" else "diplomacy"))
    # exploration
    if not vacant(k, "grand_diplomat"):
        for route in frontier_routes(world, kid):
            for months in (1, 2):
                out.append(ExplorationEdict(months=months, route=route))
    # trade (each origin–destination path is traced once per call)
    paths: dict[tuple[int, int, bool, bool], tuple[list[int], int] | None] = {}

    def traced(a: int, b: int, pier: bool, wf: bool) -> tuple[list[int], int] | None:
        key = (a, b, pier, wf)
        if key not in paths:
            p = trade_path(world, a, b, pier, wf)
            paths[key] = None if p is None else (p, sum((route_weight(world, h, pier, wf) or (0, ""))[0] for h in p))
        return paths[key]

    invest = sorted({5, 10} & set(range(5, max(0, k.treasury) + 1)))
    for typ in ROUTE_TYPES if invest else ():
        if _type_taken(km, kid, typ):
            continue
        origins = []
        for s in k.settlements:
            try:
                _route_prerequisites(world, k, s.name, typ)
            except RulesError:
                continue
            origins.append(s)
        for t in others if origins else ():
            best: tuple[int, str, str, list[int]] | None = None
            for s in origins:
                pier = s.buildings.get("pier", 0) > 0
                wf = s.buildings.get("waterfront", 0) > 0
                for d in km.kingdoms[t].settlements:
                    got = traced(s.hex, d.hex, pier, wf)
                    if got is not None and (best is None or got[1] < best[0]):
                        best = (got[1], s.name, d.name, got[0])
            if best is None:
                continue
            for inv in invest:
                out.append(TradeEdict(t, best[1], best[2], typ, inv, path=list(best[3])))
    # vassalage
    small = min(10, spare // 4)
    for t in others:
        tk = km.kingdoms[t]
        if tk.conquered_by == kid and tk.overlord is None:
            for grant in sorted({0, small}):
                out.append(VassalageEdict("subjugation", viceroy=f"Viceroy of {tk.name}", target=t, grant=grant, relation="embassy"))
    cap = capital_hex(k)
    for s in k.settlements:
        if s.hex == cap:
            continue
        ceded = [s.hex] + [h for h in world.map.neighbors(s.hex) if h in k.hexes and h != cap and not any(x.hex == h for x in k.settlements)]
        if len(k.hexes) - len(ceded) >= 3:
            out.append(
                VassalageEdict("new_vassal", viceroy=f"Viceroy of {s.name}", hexes=sorted(ceded), grant=small, relation="treaty",
                               name=f"March of {s.name}")
            )
    # a colony on explored, unclaimed land next to the kingdom (KM-VAS-01)
    owners = km.owners()
    free = sorted({n for h in k.hexes for n in world.map.neighbors(h)
                   if n not in owners and km.explored(n) and not world.map.hexes[n].is_water})
    if free:
        seed = free[0]
        group = [seed] + [n for n in world.map.neighbors(seed) if n in free][:2]
        c, r = world.map.coords(seed)
        out.append(VassalageEdict("colony", viceroy=f"Viceroy of {k.name}'s colony", hexes=sorted(group), grant=small,
                                  relation="embassy", name=f"{k.name} colony [{c},{r}]"))
    return [o for o in out if is_legal(world, kid, o)]


# =================================================================================================
# Envoys (LINK-05)
# =================================================================================================


# resolution: ENG-LINK-07
def envoy_path(world: World, kid: str, target: str) -> list[int] | None:
    """LINK-05: the least-cost path (one per hex) from kid's capital to target's capital."""
    km = _km(world)
    a, b = capital_hex(km.kingdoms[kid]), capital_hex(km.kingdoms[target])
    if a is None or b is None:
        return None
    got = cheapest_path(world.map, a, b, "link-envoy", lambda: [1.0] * len(world.map.hexes), terrain_only=True)
    return None if got is None else got[0]


def send_envoy(world: World, kid: str, target: str, now: int, ledger: Ledger) -> Envoy:
    """LINK-05: an envoy leaves the capital for the target's capital at envoy_hexes_per_day."""
    km = _km(world)
    if target == kid or target not in km.kingdoms:
        raise InvalidOrderError(f"envoy target {target!r}: expected another kingdom")
    if km.stance(kid, target).present or any(
        e.kingdom == kid and e.target == target and e.status == "travelling" for e in km.envoys
    ):
        # resolution: ENG-LINK-07
        raise IllegalOrderError("LINK-05", f"{kid} already has a representative in or on the way to {target}", actor=actor(kid))
    path = envoy_path(world, kid, target)
    if path is None:
        raise IllegalOrderError("LINK-05", f"no path from {kid}'s capital to {target}'s", actor=actor(kid))
    rate = world.config.link.envoy_hexes_per_day
    days = math.ceil((len(path) - 1) / rate)
    env = Envoy(id=km.new_id(), kingdom=kid, target=target, path=path, depart=now, arrive=now + days * 24)
    km.envoys.append(env)
    ledger.emit(
        SYS,
        "EnvoySent",
        actor(kid),
        ("LINK-05", "KM-DIP-02", "RES-KM-02"),
        total=days,
        outcome=f"{days} day(s)",
        envoy=env.id,
        target=target,
        hexes=len(path) - 1,
        arrive=env.arrive,
    )
    if days == 0:
        envoy_arrived(world, env, ledger)
    return env


def envoy_arrived(world: World, env: Envoy, ledger: Ledger) -> None:
    km = _km(world)
    if env.status != "travelling":
        return
    env.status = "present"
    km.stance(env.kingdom, env.target).present = True
    ledger.emit(SYS, "EnvoyArrived", f"envoy:{env.id}", ("LINK-05", "KM-DIP-02", "RES-KM-02"), outcome="present", kingdom=env.kingdom, target=env.target)


def recall_envoy(world: World, kid: str, target: str, ledger: Ledger) -> None:
    km = _km(world)
    st = km.peek_stance(kid, target)
    travelling = [e for e in km.envoys if e.kingdom == kid and e.target == target and e.status in ("travelling", "present")]
    if (st is None or not st.present) and not travelling:
        raise IllegalOrderError("LINK-05", f"{kid} has no representative in or on the way to {target}", actor=actor(kid))
    for e in travelling:
        e.status = "recalled"
    km.stance(kid, target).present = False
    ledger.emit(SYS, "EnvoyRecalled", actor(kid), ("LINK-05", "RES-KM-02"), outcome="recalled", target=target)


# =================================================================================================
# The Edict phase (SC-KM-13, KM-GEN-02, RES-KM-39)
# =================================================================================================

OnError = Callable[[str, RulesError], None]


def begin_edict_phase(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-20: merchants arriving this turn make their checks at the start of the Edict phase."""
    trade_arrivals(world, kid, dice, ledger)


def apply_orders(world: World, kid: str, o: TurnOrders, dice: Dice, ledger: Ledger, on_error: OnError, *, now: int = 0) -> None:
    """Resolve one set of turn orders in SC-KM-13 order; each item that breaks a rule is passed to
    ``on_error(path, error)`` (which logs and skips it, or raises) and the rest go on."""
    km = _km(world)
    k = km.kingdoms[kid]

    def attempt(path: str, fn: Callable[..., object], *args: object) -> None:
        try:
            fn(*args)
        except RulesError as e:
            on_error(path, e)

    for i, t in enumerate(o.recall):
        attempt(f"recall[{i}]", recall_envoy, world, kid, t, ledger)
    for i, t in enumerate(o.envoys):
        attempt(f"envoys[{i}]", send_envoy, world, kid, t, now, ledger)
    for i, h in enumerate(o.abandon):
        attempt(f"abandon[{i}]", abandon_hex, world, kid, h, ledger)
    for i, h in enumerate(o.claims):
        attempt(f"claims[{i}]", claim_hex, world, kid, h, ledger)
    for i, im in enumerate(o.improvements):
        attempt(f"improvements[{i}]", build_improvement, world, kid, im.hex, im.kind, ledger)
    for i, f in enumerate(o.settlements):
        attempt(f"settlements[{i}]", found_settlement, world, kid, f.hex, f.name, ledger)
    for i, d in enumerate(o.districts):
        attempt(f"districts[{i}]", buy_district, world, kid, d, ledger)
    for i, b in enumerate(o.buildings):
        attempt(f"buildings[{i}]", construct, world, kid, b.settlement, b.kind, ledger)
    for i, eb in enumerate(o.embassy_buildings):
        attempt(f"embassy_buildings[{i}]", build_embassy, world, kid, eb, ledger)
    if k.anarchy:
        ledger.emit(SYS, "NoEdictsInAnarchy", actor(kid), ("SC-KM-07",), outcome="no edicts")
    else:
        attempt(
            "edicts", set_edicts, world, kid, o.holiday or k.holiday, o.promotion or k.promotion, o.taxation or k.taxation, ledger
        )
    for i, ro in enumerate(o.relations):
        attempt(f"relations[{i}]", resolve_relation_order, world, kid, ro, dice, ledger)
    if o.special is not None:
        try:
            resolve_special(world, kid, o.special, dice, ledger, now=now)
        except RulesError as e:
            on_error("special", e)


def end_edict_phase(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    """RES-KM-42: this turn's month of each expedition, right after the special-edict step."""
    run_expeditions(world, kid, dice, ledger)


def income_phase(world: World, kid: str, o: TurnOrders | None, dice: Dice, ledger: Ledger, on_error: OnError) -> None:
    try:
        income(world, kid, dice, ledger, withdraw_bp=o.withdraw_bp if o else 0, deposit_gp=o.deposit_gp if o else 0)
    except RulesError as e:
        on_error("withdraw_bp", e)
        income(world, kid, dice, ledger)


def event_phase(world: World, kid: str, dice: Dice, ledger: Ledger) -> None:
    from sim.rules.kingdom import event_roll

    km = _km(world)
    event_roll(world, kid, dice, ledger)
    for ev in km.events:
        if ev.turn == km.turn and ev.kingdom == kid:
            resolve_event(world, ev, dice, ledger)
    size_milestones(world, kid, ledger)
