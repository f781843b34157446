"""Mare Nostrum (MN): the diplomacy phase (3) — hosts, the diplomacy test, interference, treaties between players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from sim.config import MnConfig
from sim.dice import Dice
from sim.errors import IllegalOrderError, InvalidOrderError
from sim.events import Ledger
from sim.rules.mn.embassies import close_embassy, install_embassy, send_home, sign_treaty
from sim.rules.mn.lookups import (
    change_rf,
    ckey,
    emit,
    get_embassy,
    get_mission,
    get_nation,
    in_contact,
    nkey,
    pact_of,
    pact_pending,
    party_of_city,
    party_of_province,
    posted_nations,
    relations_cut,
    rf,
    treaty_between,
)
from sim.rules.mn.orders import (
    BAND_CLAUSES,
    BLUNDER_MARGIN,
    BLUNDER_RANSOM_PO,
    DISASTER_FACE,
    DISASTER_RF,
    ENEMY_REPULSE_MOD,
    INTERFERENCE_DIE,
    INVADED_MOD,
    RENEWAL_MOD,
    REPULSE_1Y_MOD,
    REPULSE_4Y_MOD,
    THRESHOLDS,
    WARM_MARGIN,
    Band,
    HostChoice,
    SignTreaty,
)
from sim.state.mn import Ambassador, Embassy, Mission, MnWorld, Treaty

__all__ = [
    "arriving_missions",
    "needs_host",
    "abort_if_cut",
    "resolve_host_choice",
    "imprison",
    "Modifier",
    "test_modifiers",
    "outcome_band",
    "band_probabilities",
    "roll_test",
    "InterferenceContext",
    "InterferenceChooser",
    "NoInterference",
    "ScriptedInterference",
    "TestResult",
    "resolve_test",
    "meddler",
    "expel_meddler",
    "resolve_sign",
]


# ---- the diplomacy phase ------------------------------------------------------------------------
def arriving_missions(mn: MnWorld) -> list[Mission]:
    """Missions resolved this turn, in ascending player id (SC-MN-03 (3))."""
    def key(m: Mission) -> tuple[str, int, int]:
        return (m.nation, mn.ambassadors[m.ambassador].number, m.id)

    return sorted((m for m in mn.missions if m.arrival_turn <= mn.turn), key=key)


def needs_host(mn: MnWorld, m: Mission) -> str | None:
    """The host nation when the mission arrives at a player's city (MN-HOST-01), else None."""
    return mn.cities[m.city].controller if m.renewal_of is None else None


# resolution: ENG-MN-01
def abort_if_cut(mn: MnWorld, cfg: MnConfig, ledger: Ledger, m: Mission) -> bool:
    """A mission that arrives while relations with its target are cut goes home untried (RES-MN-07)."""
    cut = relations_cut(mn, nkey(m.nation), party_of_city(mn, m.city))
    if cut is None:
        return False
    mn.missions.remove(m)
    amb = mn.ambassadors[m.ambassador]
    emit(ledger, "MissionAborted", f"ambassador:{amb.id}", ("RES-MN-07",), outcome="relations cut", mission=m.id, city=m.city,
          through_turn=cut.through_turn)
    if m.renewal_of is not None:
        e = get_embassy(mn, m.renewal_of)
        if e is not None:
            close_embassy(mn, cfg, ledger, e, "relations cut", ("RES-MN-07",))
            return True
    send_home(mn, cfg, ledger, amb, mn.cities[m.city].province, ("RES-MN-07",), "relations cut")
    return True


def resolve_host_choice(mn: MnWorld, host: str, order: HostChoice, ledger: Ledger, cfg: MnConfig) -> None:
    """Phase (3): a player's city receives a mission (MN-HOST-01/02, RES-MN-03/04)."""
    m = get_mission(mn, order.mission)
    if m is None or m.arrival_turn > mn.turn:
        raise IllegalOrderError("RES-MN-04", f"no mission #{order.mission} arriving this turn", order=order, actor=nkey(host))
    city = mn.cities[m.city]
    if city.controller != host or m.renewal_of is not None:
        raise IllegalOrderError("MN-HOST-01", f"{host} does not control {m.city}", order=order, actor=nkey(host))
    if order.choice == "imprison" and order.ransom < 0:
        raise InvalidOrderError("a negative ransom")
    amb = mn.ambassadors[m.ambassador]
    mn.missions.remove(m)
    clauses = ("MN-HOST-01", "RES-MN-04")
    emit(ledger, "HostChose", nkey(host), ("MN-MIS-01", *clauses) + (("MN-HOST-02", "RES-MN-03") if order.choice == "accept" else ()),
          outcome=order.choice, mission=m.id, ambassador=amb.id, sender=m.nation, city=m.city, treaty=m.treaty,
          ransom=order.ransom if order.choice == "imprison" else 0)
    if order.choice == "accept":
        mn.stats.host_accept += 1
        install_embassy(mn, ledger, amb, city.id, None, ("MN-HOST-02", "RES-MN-04", "RES-MN-03"))
    elif order.choice == "dismiss":
        mn.stats.host_dismiss += 1
        send_home(mn, cfg, ledger, amb, city.province, clauses, "sent back by the host")
    elif order.choice == "execute":
        mn.stats.host_execute += 1
        amb.state = "dead"
        amb.mission = None
        amb.since = mn.turn
        emit(ledger, "AmbassadorExecuted", f"ambassador:{amb.id}", clauses, outcome="dead", by=nkey(host), city=city.id)
    else:
        mn.stats.host_imprison += 1
        imprison(mn, ledger, amb, city.id, order.ransom, host, clauses)


def imprison(mn: MnWorld, ledger: Ledger, amb: Ambassador, city: str, ransom: int, to: str | None, clauses: Sequence[str]) -> None:
    amb.state = "imprisoned"
    amb.city = city
    amb.mission = None
    amb.ransom = ransom
    amb.ransom_to = to
    amb.since = mn.turn
    emit(ledger, "AmbassadorImprisoned", f"ambassador:{amb.id}", clauses, outcome="imprisoned", city=city, ransom=ransom,
          ransom_to=to)


@dataclass(frozen=True)
class Modifier:
    """One modifier of the diplomacy test, with the sign of RULES.md (favourable positive)."""

    name: str
    clause: str
    value: int


def test_modifiers(mn: MnWorld, cfg: MnConfig, nation: str, home_province: str, city: str, gift: int,
                   renewal_of: int | None = None) -> list[Modifier]:
    """The listed modifiers of MN-MOD-01…07 for an ambassador of ``home_province`` visiting ``city`` now."""
    prov = mn.provinces[mn.cities[city].province]
    people = prov.people
    t = mn.turn
    tpy = cfg.turns_per_year
    year_from = t - tpy + 1  # RES-MN-10: the last turns_per_year turns including this one
    four_from = t - 4 * tpy + 1
    me = party_of_province(mn, home_province) or nkey(nation)
    mods = [Modifier(f"racial factor RF({home_province}, {people})", "MN-MOD-01", rf(mn, home_province, people))]
    if any(
        i.attacker == home_province and not i.repelled and year_from <= i.turn <= t and mn.provinces[i.defender].people == people
        for i in mn.invasions
    ):
        mods.append(Modifier(f"{people} province invaded within the year by {home_province}", "MN-MOD-02", INVADED_MOD))
    # implements: RES-MN-10
    repulses = [i.turn for i in mn.invasions if i.repelled and i.attacker == home_province and i.defender == prov.id and i.turn <= t]
    if any(x >= year_from for x in repulses):
        mods.append(Modifier(f"{prov.id} repelled {home_province} within the year", "MN-MOD-04", REPULSE_1Y_MOD))
    elif any(x >= four_from for x in repulses):
        mods.append(Modifier(f"{prov.id} repelled {home_province} within four years", "MN-MOD-03", REPULSE_4Y_MOD))
    # implements: RES-MN-11
    if any(i.repelled and i.defender == prov.id and year_from <= i.turn <= t and me in i.enemies for i in mn.invasions):
        mods.append(Modifier(f"{prov.id} just repelled an enemy of {home_province}", "MN-MOD-05", ENEMY_REPULSE_MOD))
    # implements: RES-MN-18
    if renewal_of is not None:
        e = get_embassy(mn, renewal_of)
        if e is not None and t - e.installed_turn >= 2 * tpy:
            mods.append(Modifier(f"renewal of an embassy installed in turn {e.installed_turn}", "MN-MOD-06", RENEWAL_MOD))
    if gift:
        mods.append(Modifier(f"gift of {gift} PO", "MN-MOD-07", gift))
    return mods


def outcome_band(natural: int, score: int, threshold: int) -> tuple[Band, int]:
    """RES-MN-15: the first band that matches, and the treaty's duration in turns for ``limited``."""
    # implements: MN-OUT-05
    if natural >= DISASTER_FACE:
        return "disaster", 0
    if score - threshold >= BLUNDER_MARGIN:
        return "blunder", 0
    if score >= threshold:
        return "failure", 0
    margin = threshold - score
    if margin >= WARM_MARGIN:
        return "very_warm", 0
    return "limited", -(-margin // 5)  # MN-OUT-02: rounded up


def band_probabilities(threshold: int, favourable: int) -> dict[tuple[Band, int], Fraction]:
    """Exact odds of each (band, duration) on the d100 alone, for a favourable modifier total."""
    out: dict[tuple[Band, int], Fraction] = {}
    for nat in range(1, 101):
        k = outcome_band(nat, nat - favourable, threshold)
        out[k] = out.get(k, Fraction(0)) + Fraction(1, 100)
    return out


def roll_test(dice: Dice, threshold: int, favourable: int, interference: Sequence[int | None] = ()) -> tuple[Band, int, int, list[int]]:
    """The bare test: d100, then one d20 per interfering nation (``sign`` +1/−1; None abstains),
    none on a natural 96–00 (RES-MN-16). Returns (band, duration, score, d20s)."""
    # implements: GEN-04
    nat = dice.roll(100)[0]
    score = nat - favourable
    d20s: list[int] = []
    if nat < DISASTER_FACE:
        for sign in interference:
            if sign is None:
                continue
            d = dice.roll(INTERFERENCE_DIE)[0]
            d20s.append(d)
            score += sign * d
    band, dur = outcome_band(nat, score, threshold)
    return band, dur, score, d20s


@dataclass
class InterferenceContext:
    """What an interfering nation knows when it decides (RES-MN-16)."""

    mission: Mission
    threshold: int
    natural: int
    score: int  # the score so far (earlier interference included)
    earlier: list[tuple[str, int, int]] = field(default_factory=list)  # (nation, d20, sign)


class InterferenceChooser(Protocol):
    def interfere(self, nation: str, ctx: InterferenceContext) -> bool: ...

    def sign(self, nation: str, ctx: InterferenceContext, d20: int) -> int: ...


class NoInterference:
    def interfere(self, nation: str, ctx: InterferenceContext) -> bool:
        return False

    def sign(self, nation: str, ctx: InterferenceContext, d20: int) -> int:  # pragma: no cover - never asked
        return 1


class ScriptedInterference:
    """Fixed choices, for tests and a game master's table: ``{"p2": "+"}``; absent nations abstain."""

    def __init__(self, signs: dict[str, str]) -> None:
        self.signs = signs

    def interfere(self, nation: str, ctx: InterferenceContext) -> bool:
        return nation in self.signs

    def sign(self, nation: str, ctx: InterferenceContext, d20: int) -> int:
        return 1 if self.signs[nation] == "+" else -1


@dataclass
class TestResult:
    band: Band
    duration: int
    natural: int
    score: int
    threshold: int
    modifiers: list[Modifier]
    interference: list[tuple[str, int, int]]  # (nation, d20, sign)
    treaty: Treaty | None = None


def resolve_test(mn: MnWorld, m: Mission, dice: Dice, ledger: Ledger, cfg: MnConfig,
                 chooser: InterferenceChooser | None = None) -> TestResult:
    """Phase (3): the diplomacy test of a mission to an uncontrolled city, or of a renewal
    (MN-TEST-01/02, MN-MOD-*, MN-OUT-*, MN-INT-*, RES-MN-08…18)."""
    chooser = chooser or NoInterference()
    if m not in mn.missions:
        raise InvalidOrderError(f"mission #{m.id} is not under way")
    city = mn.cities[m.city]
    if city.controller is not None and m.renewal_of is None:
        raise IllegalOrderError("MN-TEST-01", f"{city.id} is controlled by {city.controller}: the host chooses (MN-HOST-01)")
    amb = mn.ambassadors[m.ambassador]
    threshold = THRESHOLDS[m.treaty]
    mods = test_modifiers(mn, cfg, m.nation, m.home_province, m.city, m.gift, m.renewal_of)
    # implements: GEN-04
    favourable = sum(x.value for x in mods)
    nat = dice.roll(100)[0]
    score = nat - favourable
    inter: list[tuple[str, int, int]] = []
    if nat < DISASTER_FACE:
        for other in posted_nations(mn, m.city):
            if other == m.nation:
                continue
            ctx = InterferenceContext(m, threshold, nat, score, list(inter))
            if not chooser.interfere(other, ctx):
                continue
            d = dice.roll(INTERFERENCE_DIE)[0]
            sign = 1 if chooser.sign(other, ctx, d) > 0 else -1
            score += sign * d
            inter.append((other, d, sign))
            mn.stats.interferences += 1
            emit(ledger, "InterferenceRolled", nkey(other), ("MN-INT-01", "MN-MOD-08", "RES-MN-16") + (("MN-INT-02",) if d == 20 else ()),
                  dice=[(20, d)], total=sign * d, outcome="plot discovered" if d == 20 else ("+" if sign > 0 else "-"),
                  mission=m.id, city=m.city, against=m.nation, sign="+" if sign > 0 else "-", score_after=score,
                  ambassador=meddler(mn, other, m.city).ambassador)
    band, dur = outcome_band(nat, score, threshold)
    mn.stats.tests += 1
    score_mods = [(f"{x.name} ({x.clause})", -x.value) for x in mods] + [
        (f"interference by nation:{n} ({'+' if s > 0 else '-'}d20, MN-MOD-08)", s * d) for n, d, s in inter
    ]
    clauses = ["MN-TEST-01", "MN-TEST-02", "RES-MN-08", "RES-MN-15", *sorted({x.clause for x in mods}), *BAND_CLAUSES[band]]
    if m.renewal_of is not None:
        clauses += ["RES-MN-13", "RES-MN-18"]
    emit(ledger, "DiplomacyTestRolled", f"ambassador:{amb.id}", clauses, dc=threshold, mods=score_mods, dice=[(100, nat)],
          total=score, outcome=band, mission=m.id, nation=m.nation, city=m.city, treaty=m.treaty, natural=nat,
          modifiers=[[x.name, x.clause, x.value] for x in mods], interference=[[n, d, s] for n, d, s in inter],
          duration=dur, renewal=m.renewal_of is not None, gift=m.gift)
    result = TestResult(band, dur, nat, score, threshold, mods, inter)
    mn.missions.remove(m)
    _apply_band(mn, cfg, ledger, m, amb, result)
    for other, d, _ in inter:
        if d == 20:
            expel_meddler(mn, cfg, ledger, other, m.city)
    return result


_BAND_STAT = {"very_warm": "very_warm", "limited": "limited", "failure": "failures", "blunder": "blunders", "disaster": "disasters"}


def _apply_band(mn: MnWorld, cfg: MnConfig, ledger: Ledger, m: Mission, amb: Ambassador, r: TestResult) -> None:
    city = mn.cities[m.city]
    party = party_of_city(mn, city.id)
    clauses = BAND_CLAUSES[r.band]
    renewing = get_embassy(mn, m.renewal_of) if m.renewal_of is not None else None
    stat = _BAND_STAT[r.band]
    setattr(mn.stats, stat, getattr(mn.stats, stat) + 1)
    if r.band in ("very_warm", "limited"):
        last = None if r.band == "very_warm" else mn.turn + r.duration  # SC-MN-04
        if renewing is not None:
            renewing.last_turn = last
            t = next((t for t in mn.treaties if t.embassy == renewing.id), None)
            if t is not None:
                t.last_turn = last
                t.renewed_turn = mn.turn
                r.treaty = t
            amb.mission = None
            emit(ledger, "TreatyRenewed", nkey(m.nation), ("RES-MN-13", *clauses), outcome="permanent" if last is None else "limited",
                  treaty=t.id if t else None, embassy=renewing.id, last_turn=last, city=city.id)
            return
        e = install_embassy(mn, ledger, amb, city.id, last, (*clauses, "RES-MN-13"))
        r.treaty = sign_treaty(mn, ledger, m.treaty, m.nation, party, last, (*clauses, "SC-MN-04"), via=amb, embassy=e)
        return
    if r.band == "failure":
        send_home(mn, cfg, ledger, amb, city.province, clauses, "dismissed")
    elif r.band == "blunder":
        imprison(mn, ledger, amb, city.id, BLUNDER_RANSOM_PO, None, (*clauses, "RES-MN-14"))
    else:
        amb.state = "dead"
        amb.mission = None
        amb.city = city.id
        amb.since = mn.turn
        people = mn.provinces[city.province].people
        before, after = change_rf(mn, amb.home_province, people, -DISASTER_RF)
        emit(ledger, "AmbassadorExecuted", f"ambassador:{amb.id}", (*clauses, "RES-MN-09"), outcome="dead", by=ckey(city.id),
              city=city.id, rf_province=amb.home_province, people=people, rf_before=before, rf_after=after)
    if renewing is not None:  # a failed renewal: the embassy closes now (MN-EMB-01)
        close_embassy(mn, cfg, ledger, renewing, "renewal failed", ("RES-MN-13", *clauses))


def meddler(mn: MnWorld, nation: str, city: str) -> Embassy:
    """The embassy of ``nation`` in ``city`` whose ambassador interferes (RES-MN-16): its only one, or
    — when it has several there — the oldest (lowest id)."""
    # resolution: ENG-MN-03
    return min((e for e in mn.embassies if e.nation == nation and e.city == city), key=lambda e: e.id)


def expel_meddler(mn: MnWorld, cfg: MnConfig, ledger: Ledger, nation: str, city: str) -> None:
    """MN-INT-02 / RES-MN-16: the plot is discovered; the meddling ambassador is expelled and his
    embassy closes — which ends every treaty the nation has with that province (MN-EMB-01). The
    nation's other ambassadors in the city, if any, stay at their posts."""
    mn.stats.plots_discovered += 1
    e = meddler(mn, nation, city)
    emit(ledger, "AmbassadorExpelled", nkey(nation), ("MN-INT-02", "RES-MN-16", "MN-EMB-01"), outcome="expelled", city=city,
          ambassador=e.ambassador)
    close_embassy(mn, cfg, ledger, e, "expelled", ("MN-INT-02", "RES-MN-16"))


def sign_problem(mn: MnWorld, nation: str, partner: str, kind: str) -> tuple[str, str] | None:
    """Why two players cannot sign ``kind`` now (RES-MN-03/04, MN-TRE-06, RES-MN-07), or None."""
    if partner == nation or partner not in mn.nations:
        return "RES-MN-04", f"no other player {partner!r}"
    if kind not in ("commercial", "pact"):
        return "MN-TRE-03", "between two players only a commercial agreement or an eternal friendship pact"
    if not in_contact(mn, nation, partner):
        return "MN-MIS-03", f"{nation} and {partner} are not in contact (RES-MN-03)"
    if relations_cut(mn, nkey(nation), nkey(partner)):
        return "RES-MN-07", "relations are cut"
    # resolution: ENG-MN-06
    if any(t.kind == kind and treaty_between(t, nkey(nation), nkey(partner)) for t in mn.treaties):
        return "MN-TRE-01", f"a {kind} treaty between them is already in force"
    if kind == "pact":
        for n in (nation, partner):
            if pact_of(mn, n) is not None or pact_pending(mn, n):
                return "MN-TRE-06", f"{n} already has an eternal friendship pact (or one under negotiation)"
    return None


def resolve_sign(mn: MnWorld, nation: str, order: SignTreaty, ledger: Ledger, cfg: MnConfig, *, consent: bool = True) -> Treaty | None:
    """Phase (3): two players in contact sign a treaty by mutual consent, without a test (RES-MN-04)."""
    get_nation(mn, nation)
    why = sign_problem(mn, nation, order.partner, order.kind)
    if why:
        raise IllegalOrderError(why[0], why[1], order=order, actor=nkey(nation))
    emit(ledger, "TreatyProposed", nkey(nation), ("MN-HOST-02", "RES-MN-04", "RES-MN-03"), outcome="agreed" if consent else "refused",
          partner=order.partner, type=order.kind)
    if not consent:
        return None
    clauses = ("MN-HOST-02", "RES-MN-04", "MN-TRE-02" if order.kind == "commercial" else "MN-TRE-05")
    return sign_treaty(mn, ledger, order.kind, nation, nkey(order.partner), None, clauses)
