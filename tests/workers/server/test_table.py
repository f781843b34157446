"""The game master's table without a browser: the map's looks, coordinates, tokens and borders
(workers/server/mapdraw.py), a hex's details and the standings (campaign_page.py), the game master's
orders in a fork (gm_orders.py), the campaign process a day at a time (campaign_child.py) and advice
from a campaign's season (campaign_advice.py)."""

from __future__ import annotations

import io
import json
import re
import zlib
from typing import Any

import msgpack
import pytest

from agents.campaign import prepare_campaign, run_campaign
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_DAY, HOURS_PER_SEASON
from sim.hexmap import HexMap
from sim.world import decode_world, encode_world
from workers.server.campaign_page import hex_details, standings_table
from workers.server.gm_orders import GameMasterOrders, decision_of
from workers.server.mapdraw import DASH, HUES, MARKS, Colours, legend, map_svg
from workers.server.mapview import snapshot, standings, static_map


def _at(name: str, hour: int, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any], Any]:
    model = prepare_campaign(name, seed, keep_ledger=False, collect=False)
    model.run(hour)
    return static_map(model.world), snapshot(model.world), model


# ---- looks ------------------------------------------------------------------------------------------
def test_thirty_factions_each_have_a_look_of_their_own() -> None:
    factions = [{"key": f"guild:g{i:02d}", "name": f"G{i}"} for i in range(30)]
    c = Colours(factions)
    looks = {(c(f["key"]), c.mark(f["key"])) for f in factions}
    assert len(looks) == 30 == len(HUES) * len(MARKS)
    assert len({c(f["key"]) for f in factions}) == 10  # ten hues…
    assert {c.dash(f["key"]) for f in factions} == {""} | {f' stroke-dasharray="{d}"' for d in DASH if d}  # …three marks
    defs = c.defs([f["key"] for f in factions])
    assert defs.count("<pattern ") == 20  # the striped and dotted ones fill with a pattern
    assert c.fill("guild:g00") == HUES[0] and c.fill("guild:g10") == "url(#fp10)" and 'id="fp10"' in defs
    assert 0 <= c.index("guild:not-listed") < 30  # a key of no list (a vassal) gets a hashed look among the thirty


def test_a_trade_convoy_wears_its_kingdoms_look_and_name() -> None:
    c = Colours([{"key": "kingdom:avalon", "name": "Avalon"}, {"key": "kingdom:dravenmark", "name": "Dravenmark"}])
    assert c.index("convoy:trade-avalon-33") == c.index("kingdom:avalon")
    assert c.fill("convoy:trade-dravenmark-4") == c.fill("kingdom:dravenmark")
    assert c.name("convoy:trade-avalon-33") == "Avalon trade 33"


# ---- the map ------------------------------------------------------------------------------------------
def test_every_hex_carries_its_index_and_its_coordinates_as_the_chronicle_writes_them() -> None:
    m, st, model = _at("caravan-crossing", 10 * HOURS_PER_DAY)
    svg = map_svg(m, st)
    hm: HexMap = model.world.map
    n = m["width"] * m["height"]
    assert len(re.findall(r'<use href="#hx" [^>]*data-h="\d+"', svg.split('<g class="terrain">')[1].split("</g>")[0])) == n
    coord_layer = svg.split('<g class="coords">')[1].split("</g>")[0]
    labels = re.findall(r">(\[\d+,\d+\])</text>", coord_layer)
    assert labels == [f"[{hm.coords(i)[0]},{hm.coords(i)[1]}]" for i in range(n)]
    plain = next(i for i, h in enumerate(hm.hexes) if not h.settlement)
    assert hm.label(plain) == labels[plain]  # the chronicle's own words for a hex


def test_convoys_on_their_way_are_tokens_named_with_their_hp_on_their_route() -> None:
    m, st, _ = _at("caravan-crossing", 10 * HOURS_PER_DAY, seed=1)
    svg = map_svg(m, st)
    moving = [c for c in st["convoys"] if c["status"] == "travelling"]
    assert moving
    for c in moving:
        tok = re.search(rf'<g class="token convoy" data-token="{re.escape(c["key"])}" data-h="(\d+)"[^>]*>.*?</g>', svg)
        assert tok and int(tok.group(1)) == c["hex"]
        assert f"{c['hp']}hp" in tok.group(0)


def test_tokens_sharing_a_hex_fan_out_each_labelled_with_its_owner_and_strength() -> None:
    m, st, _ = _at("guild-war", 2 * HOURS_PER_SEASON, seed=1)
    hexes = [a["hex"] for a in st["armies"]]
    assert hexes
    here = hexes[0]
    st["armies"] = [{**st["armies"][0], "id": f"x{i}", "owner": owner, "strength": 10 + i}
                    for i, owner in enumerate(sorted({a["owner"] for a in st["armies"]})[:3])]
    svg = map_svg(m, st)
    tokens = re.findall(r'<g class="token army" data-token="army:(x\d)" data-h="(\d+)"[^>]*><path d="M([\d.]+),([\d.]+)L'
                        r'.*?class="tlabel"[^>]*>([^<]*)</text>', svg)
    assert len(tokens) == 3 and {int(h) for _, h, _, _, _ in tokens} == {here}
    assert len({(x, y) for _, _, x, y, _ in tokens}) == 3  # three places, none on another
    c = Colours(m["factions"])
    for (ident, _, _, _, label), a in zip(sorted(tokens), st["armies"], strict=True):
        assert ident == a["id"] and label.endswith(f" {a['strength']}")
        assert label.split()[0].rstrip("…") in c.name(a["owner"])


def test_guild_war_draws_its_province_and_region_borders_and_names_its_regions() -> None:
    m, st, model = _at("guild-war", 0)
    assert set(m["regions"]["names"]) == set(model.world.gw.regions)
    assert set(m["provinces"]["names"]) == set(model.world.gw.provinces)
    svg = map_svg(m, st)
    provinces = re.search(r'class="province-borders" d="([^"]+)"', svg)
    regions = re.search(r'class="region-borders" d="([^"]+)"', svg)
    assert provinces and regions
    assert provinces.group(1).count("M") > regions.group(1).count("M") > 0  # every region border is a province border
    for name in model.world.gw.regions:
        assert f'class="region">{name}</text>' in svg
    assert "province-borders" not in map_svg(*_at("caravan-crossing", 0)[:2])  # none where the scenario has none


def test_the_legend_groups_the_factions_by_kind_with_their_looks() -> None:
    m, st, _ = _at("guild-war", 0)
    html = legend(m, st)
    groups = re.findall(r'<div class="lgroup" data-kind="(\w+)"><h4>\w+ <small>(\d+)</small>', html)
    assert groups == [("guild", str(len([f for f in m["factions"] if f["key"].startswith("guild:")])))]
    assert html.count('<svg class="sw"') == len(m["factions"])


# ---- details and standings ----------------------------------------------------------------------------------
def test_a_hex_with_a_domain_and_an_army_shows_the_garrison_and_the_armys_strength_and_units() -> None:
    m, st, model = _at("guild-war", 2 * HOURS_PER_SEASON, seed=1)
    army = st["armies"][0]
    st["domains"][0]["hex"] = army["hex"]  # a domain and an army on one hex
    dom = st["domains"][0]
    html = hex_details(m, st, army["hex"], f"army:{army['id']}")
    col, row = model.world.map.coords(army["hex"])
    assert f'<span class="coord">[{col},{row}]</span>' in html
    assert html.index(f"<b>{army['id']}</b>") < html.index(f"<b>{dom['name']}</b>")  # the token clicked first
    assert '<section class="item picked" data-token="army:' in html
    units = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in army["by_kind"].items())
    assert f"<dt>Strength</dt><dd>{army['strength']}</dd>" in html and f"<dd>{army['units']}: {units}</dd>" in html
    assert f"— strength {dom['garrison_strength']}</dd>" in html and "<dt>Garrison</dt>" in html
    assert "province " in html and "region " in html


def test_a_convoys_details_give_its_cargo_and_crew() -> None:
    m, st, model = _at("caravan-crossing", 10 * HOURS_PER_DAY, seed=1)
    c = next(c for c in st["convoys"] if c["status"] == "travelling")
    cv = next(x for x in model.world.cv.convoys if f"convoy:{x.id}" == c["key"])
    html = hex_details(m, st, c["hex"], c["key"])
    for kind, n in cv.cargo.items():
        assert f"{n} {kind.replace('_', ' ')}" in html
    jobs: dict[str, int] = {}
    for t in cv.travelers:
        jobs[t.job] = jobs.get(t.job, 0) + 1
    assert "<dt>Crew</dt>" in html and all(f"{n} {j.replace('_', ' ')}" in html for j, n in jobs.items())
    assert f"<dd>{cv.hp} / {cv.max_hp}</dd>" in html


def test_standings_per_kind_best_first_with_their_main_terms_and_policy() -> None:
    m, _, model = _at("guild-war", 4 * HOURS_PER_SEASON, seed=1)
    table = standings(model.world)
    html = standings_table(table, Colours(m["factions"]), "fr")
    rows = re.findall(r'<tr data-faction="([^"]+)"><td class=num>(\d+)</td>.*?<b>([\d,.-]+)</b>.*?<td class=terms>([^<]*)</td>'
                      r"<td>([^<]+)</td>", html)
    assert [r[0] for r in rows] == sorted(table, key=lambda k: -table[k]["score"])
    assert [int(r[1]) for r in rows] == list(range(1, len(rows) + 1))
    first = table[rows[0][0]]
    assert rows[0][4] == first["policy"]
    biggest = max(first["terms"], key=lambda t: abs(first["terms"][t]))
    from sim.scoring import term_labels

    assert rows[0][3].startswith(term_labels()["guild"][biggest][1])  # in the page's language (here French)


# ---- the game master's orders ------------------------------------------------------------------------------
def _decisions(model: Any, key: str) -> list[tuple[int, str, str]]:
    """Record the faction's decisions (hour, question, order) from now on."""
    agent, log = model.by_key[key], []
    inner = agent.decide

    def decide(obs: Any, legal: Any, *, clauses: Any = (), label: Any = str) -> Any:
        d = inner(obs, legal, clauses=clauses, label=label)
        log.append((int(model.env.now), decision_of(key.partition(":")[0], obs, clauses), str(label(d.chosen))))
        return d

    agent.decide = decide
    return log


@pytest.mark.slow
def test_the_policys_own_orders_given_by_the_game_master_leave_the_world_as_the_policy_made_it() -> None:
    key, start = "kingdom:pitax", 4 * HOURS_PER_SEASON
    mine = prepare_campaign("stolen-lands", 3, collect=False)
    mine.run(start)
    log = _decisions(mine, key)
    while not log:
        mine.env.step()
    hour = log[0][0]
    mine.run(hour + 1)
    orders = [(d, o) for h, d, o in log if h == hour]
    assert len(orders) > 5
    given = prepare_campaign("stolen-lands", 3, collect=False)
    given.run(start)
    gm = GameMasterOrders.install(given, key, hour, orders)
    given.run(hour + 1)
    assert gm.report() == {"faction": key, "hour": hour, "orders": len(orders), "given": len(orders), "not_given": []}
    assert encode_world(given.world) == encode_world(mine.world)
    made = [e for e in given.ledger.events if e.kind == "DecisionMade" and e.actor == key and e.t == hour]
    assert [(e.data["policy"], e.outcome) for e in made] == [("game master", o) for _, o in orders]


@pytest.mark.slow
def test_a_game_masters_order_that_is_not_legal_then_is_not_given_and_the_report_says_why() -> None:
    key, start = "kingdom:pitax", 4 * HOURS_PER_SEASON
    model = prepare_campaign("stolen-lands", 3, collect=False)
    model.run(start)
    probe = prepare_campaign("stolen-lands", 3, collect=False)
    probe.run(start)
    log = _decisions(probe, key)
    while not log:
        probe.env.step()
    hour = log[0][0]
    orders = [("special", "trade gold Nowhere → Atlantis, 9999 BP"), ("envoy_to_the_moon", "go")]
    gm = GameMasterOrders.install(model, key, hour, orders)
    model.run(hour + HOURS_PER_DAY)
    report = gm.report()
    assert report["given"] == 0
    assert report["not_given"] == [
        {"decision": "special", "order": orders[0][1], "why": "not among the legal orders when the question came"},
        {"decision": "envoy_to_the_moon", "order": "go", "why": "the rules asked no 'envoy_to_the_moon' question then"}]
    made = [e for e in model.ledger.events if e.kind == "DecisionMade" and e.actor == key and e.t == hour]
    assert made and all(e.data["policy"] != "game master" for e in made)  # its policy answered


# ---- the campaign process, a day at a time ----------------------------------------------------------------------
def _child(recipe: dict[str, Any]) -> list[Any]:
    from workers.server.campaign_child import run

    out = io.BytesIO()
    run({"overrides": {}, "until": None, "lang": "en", "stages": [], **recipe}, out)
    return list(msgpack.Unpacker(io.BytesIO(out.getvalue()), raw=False, strict_map_key=False))


@pytest.mark.slow
def test_a_campaign_run_a_day_at_a_time_keeps_its_ledger_and_sends_the_days_its_convoys_moved() -> None:
    msgs = _child({"scenario": {"name": "caravan-crossing"}, "seed": 1})
    assert msgs[-1][0] == "done"
    assert msgs[-1][1]["ledger_sha256"] == run_campaign("caravan-crossing", 1, keep_ledger=False, collect=False).ledger_sha256
    states = [m for m in msgs if m[0] == "state"]
    hours = [m[1] for m in states]
    assert hours == sorted(hours) and all(h % HOURS_PER_DAY == 0 for h in hours[:-1])
    days = [h for h in hours if 0 < h < 1440]
    assert len(days) >= 15  # a snapshot for most of its 60 days: the convoys move
    where = [{c["key"]: c["hex"] for c in m[3]["convoys"]} for m in states]
    assert sum(a != b for a, b in zip(where, where[1:])) >= 10
    assert "standings" in states[0][3] and "standings" in states[-1][3]  # at the start and the end


@pytest.mark.slow
def test_a_checkpoint_is_the_world_at_its_season_and_a_fork_at_a_day_keeps_the_ledger() -> None:
    msgs = _child({"scenario": {"name": "guild-war"}, "seed": 2, "until": 3 * HOURS_PER_SEASON,
                   "stages": [{"hour": 2 * HOURS_PER_SEASON + 17 * HOURS_PER_DAY, "overrides": {}, "policies": {}}]})
    checkpoints = {m[1]: m[2] for m in msgs if m[0] == "checkpoint"}
    assert sorted(checkpoints) == [0, HOURS_PER_SEASON, 2 * HOURS_PER_SEASON, 3 * HOURS_PER_SEASON]
    model = prepare_campaign("guild-war", 2, keep_ledger=False, collect=False)
    model.run(2 * HOURS_PER_SEASON)
    assert decode_world(zlib.decompress(checkpoints[2 * HOURS_PER_SEASON])) == model.world
    whole = run_campaign("guild-war", 2, keep_ledger=False, collect=False, until=3 * HOURS_PER_SEASON)
    assert msgs[-1][1]["ledger_sha256"] == whole.ledger_sha256  # the fork point changed nothing


# ---- advice at a campaign's season ------------------------------------------------------------------------------
@pytest.mark.slow
def test_advice_from_a_campaign_season_carries_its_overrides_and_gives_english_questions_in_french() -> None:
    from scenarios.loader import load_scenario_text
    from workers.advise import advise
    from workers.server.campaign_advice import given_orders, state_text

    model = prepare_campaign(load_scenario("stolen-lands"), 3, overrides={"km.explorer_speed_ft": 20}, keep_ledger=False,
                             collect=False)
    model.run(4 * HOURS_PER_SEASON)
    recipe = {"scenario": {"name": "stolen-lands"}, "overrides": {"km.explorer_speed_ft": 20},
              "stages": [{"hour": HOURS_PER_SEASON, "overrides": {"km.explorer_speed_ft": 40}},
                         {"hour": 9 * HOURS_PER_SEASON, "overrides": {"km.explorer_speed_ft": 50}}]}
    text = state_text(recipe, encode_world(model.world), 3)
    state = load_scenario_text(text, "state")
    assert state.scenario.config["km"]["explorer_speed_ft"] == 40  # the fork stage's, in force at season 4; not season 9's
    assert "# The campaign's rules overrides: km.explorer_speed_ft = 40" in text
    fr = advise(state, "kingdom:pitax", lang="fr")
    en = advise(state, "kingdom:pitax", lang="en")
    assert [o.decision for o in fr.orders] != [o.decision for o in en.orders]  # translated…
    assert [(g.decision, g.order) for g in given_orders(fr)] == [(o.decision, o.order) for o in en.orders]  # …and back
    assert json.dumps([g.decision for g in given_orders(fr)]).isascii()
