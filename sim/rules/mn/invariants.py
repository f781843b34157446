"""The invariants of Mare Nostrum: what must hold between any two rules of a turn (treasuries never
below 0, one pact per nation, embassies held by ambassadors at their post…). A broken one is an engine
bug (``RealmModel.assert_invariants``, the conformance suite)."""

from __future__ import annotations

from sim.rules.mn.lookups import nkey, relations_cut, split_party, treaty_involves
from sim.state.mn import MnWorld
from sim.world import World

__all__ = ["broken_invariants", "invariant_problems"]


def broken_invariants(world: World) -> list[str]:
    """Every invariant of Mare Nostrum the current state breaks (empty when all hold); none without
    Mare Nostrum."""
    return [] if world.mn is None else invariant_problems(world.mn)


def invariant_problems(mn: MnWorld) -> list[str]:
    """Descriptions of every MN invariant the state breaks."""
    out = []
    for n in mn.nations.values():
        if n.treasury < 0:
            out.append(f"nation {n.id} treasury {n.treasury} < 0 (RES-MN-17)")
        pacts = [t for t in mn.treaties if t.kind == "pact" and treaty_involves(t, nkey(n.id))]
        if len(pacts) > 1:
            out.append(f"nation {n.id} has {len(pacts)} eternal friendship pacts (MN-TRE-06)")
    posted = {e.ambassador for e in mn.embassies}
    for a in mn.ambassadors.values():
        if a.state == "at_post" and a.id not in posted:
            out.append(f"ambassador {a.id} at_post without an embassy")
        if a.state != "at_post" and a.id in posted:
            out.append(f"ambassador {a.id} is {a.state} but holds an embassy")
        if a.state == "imprisoned" and a.city is None:
            out.append(f"ambassador {a.id} imprisoned nowhere")
    for t in mn.treaties:
        if t.kind == "alliance" and split_party(t.partner)[0] != "city":
            out.append(f"alliance #{t.id} with a player (MN-TRE-03)")
        cut = relations_cut(mn, nkey(t.nation), t.partner)
        if cut is not None and t.signed_turn >= cut.from_turn:
            out.append(f"treaty #{t.id} signed while relations were cut (RES-MN-07)")
    return out
