"""Mare Nostrum (MN): ambassadors' movements, treaties, embassies and imports (RES-MN-02/05, MN-EMB-01)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.config import MnConfig
from sim.events import Ledger
from sim.rules.mn.lookups import (
    ckey,
    emit,
    nkey,
    party_home_province,
    party_of_city,
    split_party,
    travel_turns,
    treaty_between,
)
from sim.state.mn import Ambassador, City, Embassy, Import, MnWorld, Nation, Treaty, TreatyKind

__all__ = [
    "send_home",
    "return_if_due",
    "advance_travel",
    "refresh_imports",
    "produced",
    "importable",
    "end_treaty",
    "end_treaties_between",
    "close_embassy",
    "install_embassy",
    "sign_treaty",
]


# ---- ambassadors' movements ---------------------------------------------------------------------
def send_home(mn: MnWorld, cfg: MnConfig, ledger: Ledger, amb: Ambassador, from_province: str, clauses: Sequence[str], why: str) -> None:
    """The ambassador travels back to his home province (RES-MN-02); home at once if 0 turns."""
    turns = travel_turns(mn, cfg, from_province, amb.home_province)
    amb.mission = None
    amb.city = None
    amb.since = mn.turn
    if turns == 0:
        amb.state = "home"
        amb.returns_turn = None
    else:
        amb.state = "travelling"
        amb.returns_turn = mn.turn + turns
    emit(
        ledger, "AmbassadorSentHome", f"ambassador:{amb.id}", ("RES-MN-02", *clauses), outcome=amb.state,
        why=why, nation=amb.nation, home=amb.home_province, returns_turn=amb.returns_turn or mn.turn, travel_turns=turns,
    )


def return_if_due(mn: MnWorld, amb: Ambassador, ledger: Ledger) -> bool:
    """Phase (2): an ambassador whose return trip ends this turn is ``home`` again (RES-MN-02)."""
    if amb.state != "travelling" or amb.mission is not None or amb.returns_turn is None or amb.returns_turn > mn.turn:
        return False
    amb.state = "home"
    amb.returns_turn = None
    amb.since = mn.turn
    emit(ledger, "AmbassadorReturned", f"ambassador:{amb.id}", ("RES-MN-02", "MN-OUT-03"), outcome="home",
          nation=amb.nation, home=amb.home_province)
    return True


def advance_travel(mn: MnWorld, ledger: Ledger) -> list[Ambassador]:
    """Phase (2) for every ambassador (RES-MN-02)."""
    return [a for a in list(mn.ambassadors.values()) if return_if_due(mn, a, ledger)]


# ---- treaties, embassies, imports ---------------------------------------------------------------
def _import_side(mn: MnWorld, t: Treaty) -> tuple[str, str]:
    """(the nation's province in the agreement, the partner's province) (RES-MN-05)."""
    mine = t.origin or party_home_province(mn, nkey(t.nation))
    return mine, party_home_province(mn, t.partner)


def refresh_imports(mn: MnWorld, ledger: Ledger, clauses: Sequence[str] = ("RES-MN-05",)) -> None:
    """Recompute every importable set from the commercial agreements in force (RES-MN-05); each change
    is an ``ImportsChanged`` event."""
    want: dict[str, list[Import]] = {nkey(n): [] for n in mn.nations}
    want.update({ckey(c): [] for c in mn.cities})
    for t in sorted(mn.treaties, key=lambda t: t.id):
        if t.kind != "commercial":
            continue
        mine, theirs = _import_side(mn, t)
        for r in mn.provinces[theirs].resources:
            want[nkey(t.nation)].append(Import(r, mine, theirs, t.id))
        for r in mn.provinces[mine].resources:
            want[t.partner].append(Import(r, theirs, mine, t.id))
    for party in sorted(want):
        kind, ident = split_party(party)
        holder: Nation | City = mn.nations[ident] if kind == "nation" else mn.cities[ident]
        new = want[party]
        if new != holder.imports:
            before = sorted({i.resource for i in holder.imports})
            after = sorted({i.resource for i in new})
            holder.imports = new
            if before != after:
                emit(ledger, "ImportsChanged", party, clauses, outcome="changed",
                      added=[r for r in after if r not in before], removed=[r for r in before if r not in after],
                      importable=after)


def produced(mn: MnWorld, nation: str) -> set[str]:
    return {r for p in mn.nations[nation].provinces for r in mn.provinces[p].resources}


def importable(mn: MnWorld, nation: str) -> set[str]:
    return {i.resource for i in mn.nations[nation].imports}


def end_treaty(mn: MnWorld, ledger: Ledger, t: Treaty, reason: str, clauses: Sequence[str], *, refresh: bool = True) -> None:
    if t not in mn.treaties:
        return
    mn.treaties.remove(t)
    if reason == "expired":
        mn.stats.treaties_expired += 1
    elif reason == "broken":
        mn.stats.treaties_broken += 1
    else:
        mn.stats.treaties_ended += 1
    for ob in mn.obligations:
        if ob.pact == t.id and ob.status == "open":
            ob.status = "lapsed"
    emit(ledger, "TreatyEnded", nkey(t.nation), clauses, outcome=reason, treaty=t.id, type=t.kind, partner=t.partner,
          signed_turn=t.signed_turn)
    if refresh and t.kind == "commercial":
        refresh_imports(mn, ledger, ("RES-MN-05", *clauses))


def end_treaties_between(mn: MnWorld, ledger: Ledger, a: str, b: str, reason: str, clauses: Sequence[str]) -> list[Treaty]:
    ended = [t for t in sorted(mn.treaties, key=lambda t: t.id) if treaty_between(t, a, b)]
    for t in ended:
        end_treaty(mn, ledger, t, reason, clauses, refresh=False)
    if any(t.kind == "commercial" for t in ended):
        refresh_imports(mn, ledger, ("RES-MN-05", *clauses))
    return ended


def close_embassy(mn: MnWorld, cfg: MnConfig, ledger: Ledger, e: Embassy, reason: str, clauses: Sequence[str]) -> None:
    """Close an embassy: its ambassador travels home, and (MN-EMB-01) every treaty the nation has
    with that city's party ends at once."""
    if e not in mn.embassies:
        return
    mn.embassies.remove(e)
    mn.stats.embassies_closed += 1
    for m in [m for m in mn.missions if m.renewal_of == e.id]:
        mn.missions.remove(m)
        mn.ambassadors[m.ambassador].mission = None
        emit(ledger, "MissionAborted", f"ambassador:{m.ambassador}", clauses, outcome="embassy closed", mission=m.id, city=m.city)
    emit(ledger, "EmbassyClosed", nkey(e.nation), ("MN-EMB-01", *clauses), outcome=reason, embassy=e.id,
          city=e.city, ambassador=e.ambassador, installed_turn=e.installed_turn)
    end_treaties_between(mn, ledger, nkey(e.nation), party_of_city(mn, e.city), "embassy closed", ("MN-EMB-01", *clauses))
    amb = mn.ambassadors[e.ambassador]
    if amb.state == "at_post":
        send_home(mn, cfg, ledger, amb, mn.cities[e.city].province, ("MN-EMB-01", *clauses), reason)


def install_embassy(mn: MnWorld, ledger: Ledger, amb: Ambassador, city: str, last_turn: int | None, clauses: Sequence[str]) -> Embassy:
    e = Embassy(mn.new_id(), amb.nation, amb.id, city, mn.turn, last_turn)
    mn.embassies.append(e)
    amb.state = "at_post"
    amb.city = city
    amb.mission = None
    amb.returns_turn = None
    amb.since = mn.turn
    mn.stats.embassies_installed += 1
    emit(ledger, "EmbassyInstalled", f"ambassador:{amb.id}", clauses, outcome="permanent" if last_turn is None else "limited",
          embassy=e.id, nation=amb.nation, city=city, last_turn=last_turn)
    return e


def sign_treaty(
    mn: MnWorld, ledger: Ledger, kind: TreatyKind, nation: str, partner: str, last_turn: int | None,
    clauses: Sequence[str], *, via: Ambassador | None = None, embassy: Embassy | None = None,
) -> Treaty:
    t = Treaty(
        mn.new_id(), kind, nation, partner, mn.turn, last_turn,
        via=via.id if via else None, origin=via.home_province if via else None, embassy=embassy.id if embassy else None,
    )
    mn.treaties.append(t)
    mn.stats.treaties_signed += 1
    emit(ledger, "TreatySigned", nkey(nation), ("MN-TRE-01", *clauses), outcome="permanent" if last_turn is None else "limited",
          treaty=t.id, type=kind, partner=partner, last_turn=last_turn, via=t.via)
    if kind == "commercial":
        refresh_imports(mn, ledger, ("MN-TRE-02", "RES-MN-05"))
    return t
