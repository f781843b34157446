"""Diplomatic edicts (*édit diplomatique*, KM-DIP, KM-REL): embassy, threat, treaty, alliance,
rebalance; opposed checks and agreements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import CheckResult, Ledger, check
from sim.rules.km.specials import (
    ALIGN_STEP_DC,
    ATTITUDE_DC,
    BAN_TURNS,
    DIP_KINDS,
    OPPOSED_SKILLS,
    SKILL_NAMES,
)
from sim.rules.km.statistics import (
    Stats,
    alignment_steps,
    change_fame,
    change_infamy,
    shift_attitude,
    size_of,
    special_size,
    stats,
    vacant,
)
from sim.rules.km.tables import SYS, actor
from sim.state.km import Agreement, DiplomaticEdict, Kingdom, KmWorld

if TYPE_CHECKING:
    from sim.dice import Dice
    from sim.world import World


__all__ = [
    "agreements_held",
    "alignment_mod",
    "attitude_mod",
    "diplomatic_dc",
    "opposed_checks",
    "relationship_mod",
    "representative_present",
    "resolve_diplomatic",
    "sign_agreement",
]


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
    km = world.km_state()
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
    st = world.km_state().peek_stance(kid, target)
    return st is not None and st.present


def check_diplomatic(world: World, kid: str, o: DiplomaticEdict) -> None:
    km = world.km_state()
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
    if o.kind == "rebalance" and rebalanceable(km, kid, o.target) is None:
        raise IllegalOrderError(
            "KM-REL-09", f"{kid} has no unbalanced treaty or alliance in its favour with {o.target}", actor=actor(kid)
        )


def rebalanceable(km: KmWorld, kid: str, target: str) -> Agreement | None:
    rel = km.peek_relation(kid, target)
    if rel is None:
        return None
    for ag in (rel.treaty, rel.alliance):
        if ag is not None and not ag.balanced and ag.advantaged == kid:
            return ag
    return None


def resolve_diplomatic(world: World, kid: str, o: DiplomaticEdict, dice: Dice, ledger: Ledger) -> str:
    """KM-DIP-03/04 and the KM-REL outcome of one Diplomatic edict. Returns the outcome word."""
    km = world.km_state()
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
    km.stats.edicts_diplomatic += 1
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
    k = world.km_state().kingdoms[kid]
    dc, terms, rows = diplomatic_dc(world, kid, target, bribe)
    mods = _skill_mods(world, k, skill)
    r = check(dice, dc, mods)  # a skill check: no natural 1/20 rule (RES-KM-04)
    return r, mods, terms, rows


def _embassy(world: World, kid: str, o: DiplomaticEdict, dice: Dice, ledger: Ledger) -> str:
    """KM-REL-01/02."""
    km = world.km_state()
    k = km.kingdoms[kid]
    r, mods, terms, rows = _dip_check(world, kid, o.target, o.bribe, "diplomacy", dice)
    changes: dict[str, object] = {}
    if r.success:
        km.relation(kid, o.target).embassy = True
        km.stats.embassies += 1
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
    km = world.km_state()
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
        km.stats.embassies += 1
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
            km.stats.wars_declared += 1
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
    km = world.km_state()
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
        if kind == "treaty":
            km.stats.treaty_refused += 1
        else:
            km.stats.alliance_refused += 1
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
    km = world.km_state()
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
    km = world.km_state()
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
    if kind == "treaty":
        km.stats.treaties_signed += 1
    else:
        km.stats.alliances_signed += 1
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
    km = world.km_state()
    ag = rebalanceable(km, kid, o.target)
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


