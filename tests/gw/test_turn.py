"""The GW season as one turn function (issue 11): ``resolve_season`` asks each guild for its orders
through a Decider, ``check`` is the one legality check, and the hooks of the other systems are
plugged in by ``sim.rules.links.gw_hooks`` (RES-GW-10, RES-GW-27, SC-GW-09, LINK-09)."""

from __future__ import annotations

import pytest

from sim.dice import ScriptedDice
from sim.errors import IllegalOrderError
from sim.events import Ledger
from sim.orders import END, ScriptedDecider
from sim.rules import gw as wf
from sim.rules import links
from sim.state.gw import Recruit
from tests.gw.helpers import make_world, put_domain


@pytest.mark.rule("RES-GW-27", "SC-GW-09")
def test_check_refuses_an_order_of_another_guild_and_accepts_every_legal_order() -> None:
    w = make_world()
    w.gw.guilds["a"].pool = {"militia": 3}
    with pytest.raises(IllegalOrderError) as e:
        wf.check(w, "b", Recruit(guild="a", units={"militia": 1}))
    assert e.value.clause == "RES-GW-27" and "guild 'a'" in e.value.reason and "guild 'b'" in e.value.reason
    legal = wf.legal_orders(w, "a")
    assert legal
    for o in legal:
        wf.check(w, "a", o)  # raises if the menu offered an order the rules refuse


@pytest.mark.rule("RES-GW-27", "RES-GW-10")
def test_the_season_asks_each_guild_in_ascending_id_until_it_ends() -> None:
    w = make_world()
    put_domain(w, "D", "b", 3, garrison={"militia": 2})
    order = Recruit(guild="b", units={"militia": 1})
    decider = ScriptedDecider({("guild:b", "order"): [order]}, default="end")
    seen: dict[str, list[object]] = {}
    inner = decider.decide

    def recording(actor, decision, legal, context):  # noqa: ANN001, ANN202
        seen.setdefault(actor, []).append(list(legal))
        assert decision == "order" and legal[-1] is END and context["clauses"] == ("SC-GW-09", "RES-GW-27")
        return inner(actor, decision, legal, context)

    decider.decide = recording  # type: ignore[method-assign]
    led = Ledger()
    wf.resolve_season(w, decider, ScriptedDice([]), led)
    assert decider.asked == [("guild:a", "order"), ("guild:b", "order"), ("guild:b", "order"),
                             ("guild:c", "order"), ("guild:e", "order")]
    assert [e.actor for e in led.of_kind("OrderGiven")] == ["guild:b"]
    # the second question to b was asked with the Recruit already counted (RES-GW-27)
    assert seen["guild:b"][0] != seen["guild:b"][1]


@pytest.mark.rule("RES-GW-27")
def test_the_season_asks_only_the_guilds_it_is_told_play() -> None:
    w = make_world()
    decider = ScriptedDecider(default="end")
    wf.resolve_season(w, decider, ScriptedDice([]), Ledger(), plays=lambda gid: gid in ("c", "a"))
    assert decider.asked == [("guild:a", "order"), ("guild:c", "order")]


@pytest.mark.rule("RES-GW-27", "SC-GW-15")
def test_an_illegal_answer_raises_naming_its_clause() -> None:
    w = make_world()  # guild a has no domain: SC-GW-15 allows it 5 recruits per unoccupied domain, so none
    bad = Recruit(guild="a", units={"knight": 10_000})
    with pytest.raises(IllegalOrderError) as e:
        wf.resolve_season(w, wf.given([bad]), ScriptedDice([]), Ledger())
    assert e.value.clause == "SC-GW-15"


@pytest.mark.rule("LINK-09", "LINK-06", "LINK-07", "LINK-08")
def test_a_guild_world_alone_gets_no_hooks() -> None:
    hooks = links.gw_hooks(make_world())
    assert hooks == wf.NO_HOOKS
