"""What the caravans keep to go faster (issue 12) gives what computing afresh gives: the menus of
``legal_orders`` (a ``DayMenu`` and its groups), the convoy heuristic's scores read from a menu's
groups, the route options, step costs and hex tables kept by map content, plan labels and mile strings."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

import agents.policies.convoy as pc
import sim.rules.cv.legality as lg
import sim.rules.cv.turn as turn
from agents.campaign import prepare_campaign, run_campaign
from sim.errors import IllegalOrderError
from sim.rules import cv as cr
from sim.rules.cv.legality import DayMenu, _check_purchase, mobility
from sim.rules.cv.stats import EXTRA_HOURS_MENU, FORAGE_PER_SCOUT, PRIMARY_OF, PROVISIONS_PER_STORES
from sim.state.cv import Convoy, DayPlan, miles_str
from sim.world import World


def reference_legal_orders(world: World, cid: str) -> list[DayPlan]:
    """``legal_orders`` as it was written before its menus were kept: the plain product."""
    assert world.cv is not None
    c = world.cv.convoy(cid)
    now = world.now
    if c.status != "travelling":
        return []
    cfg = world.config.cv
    hm = world.map
    assigns = [""]
    abandons = [""]
    if cr.drivers(c, now) < len(c.wagons):
        for t in sorted(c.travelers, key=lambda t: t.id):
            if t.can_drive and t.job != "driver" and not t.unpaid and t.suspended_until <= now and now - t.job_since >= 24:
                assigns.append(f"{t.id}:driver")
                break
        if len(c.wagons) > 1:
            abandons += sorted({w.kind for w in c.wagons})
    scouts = len(cr.active(c, "scout", now))
    buys = [""] + (cr.purchase_options(world, c) if cr.in_settlement(hm, c) else [])
    g = c.gifts + 1
    cares = ["", "double"]
    if c.cargo.get("trade_goods", 0) >= g:
        cares.append("gift:trade_goods")
    if c.cargo.get("treasure", 0) >= g:
        cares.append("gift:treasure")
    cons = cr.consumption(c, now, cfg)
    repair_ok = bool(cr.active(c, "wainwright", now)) and c.hp < c.max_hp and not c.starving
    travel_moves = [("travel", False, k, False) for k in EXTRA_HOURS_MENU]
    if lg._village_ahead(hm, c):
        travel_moves.append(("travel", False, 0, True))
    travel_moves.append(("travel", True, 0, False))
    out: list[DayPlan] = []
    for assign, abandon in [(a, "") for a in assigns] + [("", ab) for ab in abandons if ab]:
        after = c
        if abandon:
            after = msgspec.msgpack.decode(msgspec.msgpack.encode(c), type=Convoy)
            after.wagons.remove([x for x in after.wagons if x.kind == abandon][-1])
        for buy in buys:
            if buy and abandon:
                try:
                    _check_purchase(cfg, after, buy, DayPlan(buy=buy, abandon=abandon))
                except IllegalOrderError:
                    continue
            ok = mobility(c, now, DayPlan(assign=assign, buy=buy, abandon=abandon), cfg)[0]
            mv = (travel_moves if ok else []) + [("rest", False, 0, False)]
            if repair_ok and (c.cargo.get("repair", 0) > 0 or buy.startswith("repair:")):
                mv.append(("repair", False, 0, False))
            bought = int(buy.split(":")[1]) * PROVISIONS_PER_STORES if buy.startswith("stores:") else 0
            for forage in [False, True] if scouts else [False]:
                pool = c.provisions + bought + (FORAGE_PER_SCOUT * scouts if forage else 0)
                for care in cares:
                    if care == "double" and (cons == 0 or pool < 2 * cons):
                        continue
                    gift = care.split(":")[1] if care.startswith("gift:") else ""
                    for move, night, extra, halt in mv:
                        out.append(DayPlan(move=move, night=night, extra=extra, halt=halt, forage=forage,
                                           double=care == "double", buy=buy, gift=gift, assign=assign, abandon=abandon))
    return out


def groups_agree(menu: DayMenu) -> None:
    """Every plan of a run shares its group's orders and has the run's movement, in order."""
    ends = [start for start, _ in menu.runs[1:]] + [len(menu)]
    assert menu.size == len(menu) == sum(len(moves) for _, moves in menu.runs)
    for (start, moves), end in zip(menu.runs, ends, strict=True):
        first = menu[start]
        assert end - start == len(moves)
        for p, mv in zip(menu[start:end], moves, strict=True):
            assert (p.move, p.night, p.extra, p.halt) == mv
            assert (p.forage, p.double, p.buy, p.gift, p.assign, p.abandon) == (
                first.forage, first.double, first.buy, first.gift, first.assign, first.abandon)


@pytest.mark.parametrize("seed", [1, 2])
def test_kept_menus_scores_and_routes_match_fresh_ones(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {"menus": 0, "decisions": 0, "routes": 0}
    kept_legal = lg.legal_orders

    def legal(world: World, cid: str) -> list[DayPlan]:
        got = kept_legal(world, cid)
        assert got == reference_legal_orders(world, cid)
        if got:
            assert isinstance(got, DayMenu)
            groups_agree(got)
            seen["menus"] += 1
        return got

    kept_routes = cr.route_options

    def routes(world: World, cid: str, cache: Any = None) -> list[Any]:
        got = kept_routes(world, cid, cache)
        assert got == kept_routes(world, cid, None)  # computed afresh, no cache
        seen["routes"] += 1
        return got

    decide = pc.HeuristicConvoyPolicy.decide

    def heuristic(self: Any, obs: Any, legal: Any, rng: random.Random) -> Any:
        if isinstance(legal, DayMenu) and obs.get("decision") == "day":
            dt = pc.DayTerms(obs)
            assert dt.totals(legal) == [pc.DayTerms(obs).total(p) for p in legal]
            state = rng.getstate()
            plain = decide(self, obs, list(legal), rng)  # no groups: every plan scored on its own
            rng.setstate(state)
            got = decide(self, obs, legal, rng)
            assert got == plain
            seen["decisions"] += 1
            return got
        return decide(self, obs, legal, rng)

    monkeypatch.setattr(turn, "legal_orders", legal)
    monkeypatch.setattr(turn, "route_options", routes)
    monkeypatch.setattr(pc.HeuristicConvoyPolicy, "decide", heuristic)
    run_campaign("caravan-crossing", seed, keep_ledger=False, collect=False)
    assert seen["menus"] > 50 and seen["decisions"] > 20 and seen["routes"] > 0


def test_a_copied_or_changed_menu_is_scored_plan_by_plan() -> None:
    obs = {"decision": "day", "hp": 80, "max_hp": 80, "unrest": 1, "morale": 2, "condition": "none", "starving": False,
           "provisions": 20, "consumption": 16, "security": 4, "resolve": 7, "village": True, "gp": 500, "gifts": 0,
           "extra_dc": 15, "days_left": 6.0, "next_village_days": 2.0, "second_village_days": 4.0, "risk_today": 0.5,
           "scouts": 1, "wainwrights": 0, "repair": 0, "margin": 0, "stores_cost": 10, "could_move": True}  # fmt: skip
    menu = DayMenu([DayPlan(), DayPlan(extra=2)])
    menu.runs = ((0, (("travel", False, 0, False), ("travel", False, 2, False))),)
    menu.size = 2
    dt = pc.DayTerms(obs)
    want = [dt.total(p) for p in menu]
    assert dt.totals(menu) == want
    menu.append(DayPlan(move="rest", forage=True))  # no longer the menu it was made as: scored plan by plan
    assert pc.DayTerms(obs).totals(menu) == [*want, pc.DayTerms(obs).total(DayPlan(move="rest", forage=True))]


def test_labels_and_mile_strings_are_the_same_when_kept() -> None:
    plans = [DayPlan(extra=3, forage=True, buy="stores:4"), DayPlan(move="rest", gift=("trade_goods", "treasure")),
             DayPlan(night=True, assign="a:driver", abandon="supply")]
    for p in plans:
        assert p.label() == p._label() == p.label()
        assert DayPlan(**msgspec.structs.asdict(p)).label() == p._label()
    assert DayPlan(buy=["stores:1", "axles"]).label() == "travel, buy stores:1 and axles"  # a list: not kept, same words
    assert [miles_str(t) for t in (0, 192, 96, 77 * 96, 1)] == ["0", "1", "1/2", "77/2", "1/192"]
    assert miles_str(96) == "1/2"


def test_convoy_lookups_and_ranks_match_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """``CvWorld.convoy`` and ``ConvoyAgent.rank`` start from where a convoy last stood: on real campaigns
    (the caravans; a realm year whose kingdoms' trade caravans join the list in id order, moving the
    convoys after them) each is what a search of the list gives."""
    from agents.convoy import ConvoyAgent
    from sim.state.cv import CvWorld

    seen = {"lookups": 0, "ranks": 0, "moved": 0}
    kept_convoy = CvWorld.convoy
    kept_rank = vars(ConvoyAgent)["rank"].fget
    assert kept_rank is not None
    last: dict[str, int] = {}

    def convoy(self: CvWorld, cid: str) -> Convoy:
        got = kept_convoy(self, cid)
        assert got is next(c for c in self.convoys if c.id == cid)
        seen["lookups"] += 1
        return got

    def rank(self: ConvoyAgent) -> int:
        got = kept_rank(self)
        cs = self.realm.world.cv_state().convoys
        assert got == next((i for i, c in enumerate(cs) if c.id == self.cid), len(cs))
        if last.setdefault(self.cid, got) != got:
            seen["moved"] += 1
            last[self.cid] = got
        seen["ranks"] += 1
        return got

    monkeypatch.setattr(CvWorld, "convoy", convoy)
    monkeypatch.setattr(ConvoyAgent, "rank", property(rank))
    run_campaign("caravan-crossing", 3, keep_ledger=False, collect=False)
    run_campaign("realm", 1, keep_ledger=False, collect=False, until=8640)
    # a caravan that joins on day 3 with the first id of all: every other convoy moves one place on
    model = prepare_campaign("caravan-crossing", 2, keep_ledger=False, collect=False)
    model.run(until=3 * 24)
    world = model.world
    first = world.cv_state().convoys[0]
    assert first.status == "travelling" and first.id > "aaa"
    cr.add_convoy(world, cr.standard_convoy("aaa", first.hex, first.destination, world.config.cv, provisions=60))
    model.add_agents()
    model.run()
    assert world.cv_state().convoy("aaa").days_travelled > 0
    assert seen["lookups"] > 1000 and seen["ranks"] > 500 and seen["moved"] > 0


def test_a_convoy_lookup_follows_the_list() -> None:
    """A convoy found once is found again where it now stands after the list changed (a convoy
    inserted before it, another world with the same id elsewhere), and a convoy gone is not found."""
    from sim.state.cv import CvWorld

    def convoy(cid: str) -> Convoy:
        return Convoy(id=cid, name=cid, policy="random", origin=0, destination=1)

    a, c = convoy("a"), convoy("c")
    w = CvWorld(convoys=[a, c])
    assert w.convoy("c") is c and w.convoy("a") is a
    b = convoy("b")
    w.convoys.insert(1, b)
    assert w.convoy("c") is c and w.convoy("b") is b and w.convoy("a") is a
    c2 = convoy("c")
    other = CvWorld(convoys=[c2])
    assert other.convoy("c") is c2 and w.convoy("c") is c and other.convoy("c") is c2
    w.convoys.remove(c)
    with pytest.raises(KeyError):
        w.convoy("c")
    w.convoys.pop(0)
    assert w.convoy("b") is b


def reference_job_bonus(c: Convoy, stat: str, now: int, bonuses: dict[str, dict[str, int]], cap: int, *,
                        scouting: bool = True) -> int:
    """``job_bonus`` as first written: every traveler asked in turn."""
    total = 0
    has_ft_wagon = None
    for t in c.travelers:
        if t.suspended_until > now or t.unpaid:
            continue
        b = bonuses.get(t.job)
        if not b:
            continue
        v = b.get(stat, 0)
        if not v:
            continue
        if t.job == "scout" and not scouting:
            continue
        if t.job == "fortune_teller":
            if has_ft_wagon is None:
                has_ft_wagon = cr.count_kind(c, "fortune_teller") > 0
            if not has_ft_wagon:
                continue
        total += v
    if not cr.feat_count(c, "expert_travelers"):
        total = min(total, cap)
    return total


def test_job_bonuses_and_consumption_match_the_plain_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """``job_bonus`` asks only the jobs that give the statistic something, ``stat_mods`` reads the primary
    statistic without a table, ``consumption`` counts the cooks without a list: on real campaigns (the
    caravans' own job bonuses, a realm year with the default ones) each gives what the plain count gives."""
    import sim.rules.cv.stats as stats

    seen = {"bonuses": 0, "given": 0, "changed": 0, "mods": 0, "consumption": 0}
    kept_bonus, kept_mods, kept_cons = stats.job_bonus, stats.stat_mods, stats.consumption
    primary = {"attack": "offense", "ac": "defense", "security": "mobility", "resolve": "morale"}

    def job_bonus(c: Convoy, stat: str, now: int, bonuses: dict[str, dict[str, int]], cap: int, *,
                  scouting: bool = True) -> int:
        got = kept_bonus(c, stat, now, bonuses, cap, scouting=scouting)
        assert got == reference_job_bonus(c, stat, now, bonuses, cap, scouting=scouting)
        for sc in (True, False):  # with the scouts scouting and foraging
            assert kept_bonus(c, stat, now, bonuses, cap, scouting=sc) == reference_job_bonus(c, stat, now, bonuses, cap,
                                                                                               scouting=sc)
        if seen["bonuses"] % 7 == 0:  # the same caravan with a traveler suspended, another unpaid
            other = msgspec.msgpack.decode(msgspec.msgpack.encode(c), type=Convoy)
            for k, t in enumerate(other.travelers):
                if k % 3 == seen["bonuses"] % 3:
                    t.suspended_until = now + 1
                elif k % 3 == (seen["bonuses"] + 1) % 3:
                    t.unpaid = True
            for cap_ in (cap, 1):
                want = reference_job_bonus(other, stat, now, bonuses, cap_, scouting=scouting)
                assert kept_bonus(other, stat, now, bonuses, cap_, scouting=scouting) == want
                seen["changed"] += want != got
        seen["bonuses"] += 1
        seen["given"] += got != 0
        return got

    def stat_mods(c: Convoy, stat: str, *a: Any, **kw: Any) -> list[tuple[str, int]]:
        got = kept_mods(c, stat, *a, **kw)
        assert (PRIMARY_OF[stat], getattr(c, primary[stat])) in got
        seen["mods"] += 1
        return got

    def consumption(c: Convoy, now: int, cfg: Any = None) -> int:
        got = kept_cons(c, now, cfg)
        base = sum([cr.WAGON_TYPES[w.kind].consumption for w in c.wagons]) + len(c.travelers)
        if c.provisions > 0:
            base -= cr.COOK_REDUCTION * len(cr.active(c, "cook", now))
        ec = cr.feat_count(c, "efficient_consumption")
        if ec:
            base = max(base - cr.EFFICIENT_CONSUMPTION * ec, min(base, len(c.wagons)))
        assert got == max(0, base)
        seen["consumption"] += 1
        return got

    monkeypatch.setattr(stats, "job_bonus", job_bonus)
    for mod in (stats, cr, turn, lg, __import__("sim.rules.cv.travel", fromlist=["x"]),
                __import__("sim.rules.cv.hazards", fromlist=["x"]), __import__("sim.rules.cv.routes", fromlist=["x"]),
                __import__("sim.rules.cv.crew", fromlist=["x"]), __import__("sim.rules.cv.rest", fromlist=["x"])):
        if getattr(mod, "stat_mods", None) is kept_mods:
            monkeypatch.setattr(mod, "stat_mods", stat_mods)
        if getattr(mod, "consumption", None) is kept_cons:
            monkeypatch.setattr(mod, "consumption", consumption)
    for seed in (1, 2, 3):
        run_campaign("caravan-crossing", seed, keep_ledger=False, collect=False)
    run_campaign("realm", 1, keep_ledger=False, collect=False, until=8640)
    assert seen["bonuses"] > 300 and seen["given"] > 100 and seen["changed"] > 10
    assert seen["mods"] > 300 and seen["consumption"] > 300
