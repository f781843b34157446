"""Advice for a game master (``realmsim advise``), state files (``realmsim state export``, the
``[state]`` table) and partial states (``realmsim validate STATE --faction ID``)."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from scenarios.build import build_world
from scenarios.loader import load_scenario, load_scenario_text
from sim.calendar import HOURS_PER_SEASON
from sim.errors import ScenarioError
from sim.events import Event
from sim.rules.km import stats
from workers.advise import AdviceError, advise, check_odds
from workers.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
# each faction kind's example, from the four single-system scenarios
CASES = [
    ("kingdom-restov.state.toml", "restov", "kingdom:restov", 8),
    ("guild-griffon.state.toml", "griffon", "guild:griffon", 4),
    ("nation-rome.state.toml", "rome", "nation:rome", 12),
    ("convoy-amber.state.toml", "amber", "convoy:amber", 0),
]
# the faction's name in its table (the advice's words say it, the ids are for --json)
NAMES = {"kingdom:restov": "Restov", "guild:griffon": "Ordre du Griffon", "nation:rome": "Rome", "convoy:amber": "Amber Caravan"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_example_is_listed() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.state.toml")) == sorted(c[0] for c in CASES)


# ---- the examples validate and give advice ---------------------------------------------------------
@pytest.mark.parametrize(("file", "faction", "key", "season"), CASES)
def test_each_example_validates_for_its_faction(capsys: pytest.CaptureFixture[str], file: str, faction: str, key: str,
                                                season: int) -> None:
    code, out, err = run(capsys, "validate", str(EXAMPLES / file), "--faction", faction)
    assert code == 0, err
    assert f"season {season}" in out
    assert f"{key}: nothing missing" in out
    assert "defaulted" in out  # a partial state: the fields it leaves out are listed


@pytest.mark.parametrize(("file", "faction", "key", "season"), CASES)
def test_each_example_gives_advice_as_json(capsys: pytest.CaptureFixture[str], file: str, faction: str, key: str,
                                           season: int) -> None:
    code, out, err = run(capsys, "advise", str(EXAMPLES / file), "--faction", faction, "--json")
    assert code == 0, err
    a = json.loads(out)
    assert set(a) >= {"state", "faction", "kind", "policy", "seed", "lang", "hour", "season", "orders", "summary",
                      "state_sha256", "advice_sha256", "missing"}
    assert a["faction"] == key and a["kind"] == key.split(":")[0] and a["policy"] == "heuristic"
    assert a["season"] == season and a["hour"] >= season * HOURS_PER_SEASON
    assert a["missing"] == []
    assert a["orders"], "the faction gives at least one order"
    for o in a["orders"]:
        assert set(o) >= {"decision", "order", "actor", "hour", "clauses", "policy", "legal", "score", "alternatives",
                          "checks", "reason", "tie", "rollouts"}
        assert o["actor"] == key and o["hour"] == a["hour"] and o["clauses"]
        chosen = [alt for alt in o["alternatives"] if alt["chosen"]]
        assert len(chosen) == 1 and chosen[0]["order"] == o["order"], o
        assert o["alternatives"][0]["chosen"], "the chosen order comes first"
        assert o["legal"] >= len(o["alternatives"]) - 1
        assert o["reason"].startswith("“" + o["order_words"] + "”")
        for c in o["checks"]:
            assert 0 <= Fraction(c["chance"]) <= 1 and c["percent"] == round(float(Fraction(c["chance"])) * 100, 1)


@pytest.mark.parametrize(("file", "faction", "key", "season"), CASES)
def test_each_example_gives_advice_in_french(capsys: pytest.CaptureFixture[str], file: str, faction: str, key: str,
                                             season: int) -> None:
    code, out, err = run(capsys, "advise", str(EXAMPLES / file), "--faction", faction, "--lang", "fr")
    assert code == 0, err
    first = out.splitlines()[0]
    article = {"kingdom": "Le royaume", "guild": "La guilde", "nation": "La nation", "convoy": "La caravane"}[key.split(":")[0]]
    assert first.startswith(f"{article} {NAMES[key]} donnerait ")
    assert "raison : « " in out and "alternatives notées" in out
    assert "reason:" not in out


def test_text_advice_names_each_decision_and_its_alternatives(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advise", str(EXAMPLES / "kingdom-restov.state.toml"), "--faction", "kingdom:restov")
    assert code == 0
    assert out.startswith("The kingdom Restov would give ")
    # the Edict phase's slots in SC-KM-13 order: the envoy first, the three ordinary edicts together
    decisions = [line.split(". ", 1)[1].split(":")[0] for line in out.splitlines() if line[:1].isdigit()]
    assert decisions[0] == "envoy"
    i = decisions.index("taxation")
    assert decisions[i:i + 3] == ["taxation", "holiday", "promotion"]
    assert "scored alternatives" in out and "reason:" in out


def test_explain_shows_the_score_terms_when_the_policy_gives_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advise", str(EXAMPLES / "guild-griffon.state.toml"), "--faction", "griffon", "--json",
                       "--explain")
    assert code == 0
    a = json.loads(out)
    short = json.loads(run(capsys, "advise", str(EXAMPLES / "guild-griffon.state.toml"), "--faction", "griffon", "--json")[1])
    # --explain shows every alternative the policy recorded; without it at most 8 per decision
    assert all(len(o["alternatives"]) <= 8 for o in short["orders"])
    assert sum(len(o["alternatives"]) for o in a["orders"]) >= sum(len(o["alternatives"]) for o in short["orders"])
    assert [o["order"] for o in a["orders"]] == [o["order"] for o in short["orders"]]


# ---- determinism -----------------------------------------------------------------------------------------
def test_same_state_and_seed_give_the_same_advice() -> None:
    loaded = load_scenario(str(EXAMPLES / "guild-griffon.state.toml"))
    a = advise(loaded, "griffon", seed=5)
    b = advise(load_scenario(str(EXAMPLES / "guild-griffon.state.toml")), "griffon", seed=5)
    assert a == b
    assert a.advice_sha256 == b.advice_sha256 and len(a.advice_sha256) == 64
    assert a.seed == 5
    assert advise(loaded, "griffon").seed == 11  # the state's scenario.seed by default


@pytest.mark.parametrize(("file", "faction", "key", "season"), CASES)
def test_the_advice_is_what_the_faction_does_when_the_state_is_played(file: str, faction: str, key: str, season: int) -> None:
    """With the state's own seed, the orders advised are the decisions a plain run of the state makes."""
    from agents.campaign import prepare_campaign

    loaded = load_scenario(str(EXAMPLES / file))
    a = advise(loaded, faction)
    model = prepare_campaign(loaded, None, collect=False)
    model.run(a.hour + 1)
    made = [e.outcome for e in model.ledger.events if e.kind == "DecisionMade" and e.actor == key and e.t == a.hour]
    assert [o.order for o in a.orders] == made
    assert not [e for e in model.ledger.events if e.kind == "DecisionMade" and e.actor == key and e.t < a.hour]


def test_the_seed_moves_only_the_advised_policys_stream() -> None:
    loaded = load_scenario(str(EXAMPLES / "kingdom-restov.state.toml"))
    runs = [advise(loaded, "pitax", policy="random", seed=s) for s in range(1, 6)]
    assert len({tuple(o.order for o in r.orders) for r in runs}) > 1, "a random policy's choices follow its seed"
    # the world around it does not: the heuristic, which draws only to break ties, advises alike
    heur = [advise(loaded, "pitax", seed=s) for s in range(1, 4)]
    assert [o.order for o in heur[0].orders] == [o.order for o in heur[1].orders] == [o.order for o in heur[2].orders]
    assert [c.chance for o in heur[0].orders for c in o.checks] == [c.chance for o in heur[2].orders for c in o.checks]


def test_the_advice_does_not_depend_on_the_language_or_the_detail() -> None:
    loaded = load_scenario(str(EXAMPLES / "kingdom-restov.state.toml"))
    en = advise(loaded, "restov")
    fr = advise(loaded, "restov", lang="fr")
    full = advise(loaded, "restov", explain=True)
    assert [o.order for o in en.orders] == [o.order for o in fr.orders] == [o.order for o in full.orders]


# ---- exact odds ------------------------------------------------------------------------------------------
def _ev(system: str, dc: int, mods: list[tuple[str, int]]) -> Event:
    return Event(0, 0, system, "SomeCheckRolled", "kingdom:restov", ("SC-KM-03",), dc, tuple(mods), ((20, 7),), 0, "success")


@pytest.mark.parametrize(("system", "dc", "mods", "chance"), [
    ("km", 20, [("Diplomacy", 14)], "3/4"),  # a skill check: 1d20 + 14 >= 20 on 6..20
    ("km", 30, [("Loyalty", 3)], "1/20"),  # a kingdom check: only a natural 20 (SC-KM-03)
    ("km", 10, [("Economy", 25), ("Unrest", -2)], "19/20"),  # a kingdom check: all but a natural 1
    ("cv", 30, [("Security", 3)], "0"),  # a caravan check has no natural 20 rule (RES-CV-19)
    ("cv", 12, [("Security", 4), ("fatigued", -2)], "11/20"),  # 1d20 + 2 >= 12 on 10..20
])
def test_check_odds_are_exact(system: str, dc: int, mods: list[tuple[str, int]], chance: str) -> None:
    c = check_odds(_ev(system, dc, mods), "en")
    assert Fraction(c.chance) == Fraction(chance)
    assert c.dc == dc and c.die == 20 and c.modifier == sum(v for _, v in mods)
    assert f"against DC {dc}" in c.text
    fr = check_odds(_ev(system, dc, mods), "fr")
    assert f"contre DD {dc}" in fr.text and "de chances de réussite" in fr.text


# ---- bad input ------------------------------------------------------------------------------------------
def test_an_unknown_faction_is_named_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "advise", str(EXAMPLES / "kingdom-restov.state.toml"), "--faction", "tatzlford")
    assert code == 2
    assert "faction: expected a faction of the state as kind:id (kingdom:restov, kingdom:pitax), found \"tatzlford\"" in err
    assert "Traceback" not in err


def test_an_unknown_policy_lists_the_registered_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from agents.policies import known_policies

    code, _, err = run(capsys, "advise", str(EXAMPLES / "kingdom-restov.state.toml"), "--faction", "restov",
                       "--policy", "oracle")
    assert code == 2
    assert 'policy: expected a registered kingdom policy (' in err and 'found "oracle"' in err
    assert "heuristic" in err and "random" in err and "scripted" not in err
    if "lookahead" not in known_policies("kingdom"):
        code, _, err = run(capsys, "advise", str(EXAMPLES / "kingdom-restov.state.toml"), "--faction", "restov",
                           "--policy", "lookahead")
        assert code == 2 and 'found "lookahead"' in err and "heuristic, random" in err


def test_a_state_at_the_last_season_is_advised_and_one_past_it_is_refused() -> None:
    text = (EXAMPLES / "kingdom-restov.state.toml").read_text(encoding="utf-8")
    a = advise(load_scenario_text(text.replace("season = 8 ", "season = 39 "), "late"), "restov")
    assert a.season == 39 and a.hour == 39 * HOURS_PER_SEASON
    with pytest.raises(ScenarioError, match=r"state\.season: expected a season before the campaign's end \(season 40"):
        advise(load_scenario_text(text.replace("season = 8 ", "season = 40 "), "gone"), "restov")


# ---- partial states --------------------------------------------------------------------------------------
def test_validate_says_what_a_partial_state_lacks_for_a_faction(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = (EXAMPLES / "guild-griffon.state.toml").read_text(encoding="utf-8")
    cut = text[: text.index("[[domains]]")]  # no domain, no army, and only the guilds
    cut = cut.replace('pool = { infantry = 14, knight = 4, militia = 2, siege_engine = 2 }\n', "")
    f = tmp_path / "cut.toml"
    f.write_text(cut, encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(f), "--faction", "griffon")
    assert code == 1
    assert "1 thing(s) missing for guild:griffon" in out
    assert "domains: expected a domain owned by griffon or one of its armies in [[armies]], found neither" in out
    assert "guilds[0].pool = {}" in out  # defaulted, and said so
    a = advise(load_scenario(str(f)), "griffon")
    assert [(m.path, m.found) for m in a.missing] == [("domains", "neither")]


def test_validate_without_faction_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(EXAMPLES / "nation-rome.state.toml"))
    assert code == 0
    assert out.strip().endswith("ok — scenario 'mare-nostrum-table', systems mn")


# ---- state export ------------------------------------------------------------------------------------------
def _run_to(name: str, season: int, seed: int | None = None):  # the world of a campaign at a season
    from agents.campaign import prepare_campaign

    loaded = load_scenario(name)
    model = prepare_campaign(loaded, seed, collect=False)
    model.run(season * HOURS_PER_SEASON)
    return model.world


def test_an_exported_state_builds_the_world_it_was_taken_from(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "sl.toml"
    code, msg, err = run(capsys, "state", "export", "--scenario", "stolen-lands", "--season", "2", "--out", str(out))
    assert code == 0, err
    raw = tomllib.loads(out.read_text(encoding="utf-8"))
    assert raw["state"]["season"] == 2 and raw["state"]["from_scenario"] == "stolen-lands" and raw["state"]["from_seed"] == 7
    assert "km_events" not in raw
    loaded = load_scenario(str(out))
    w = build_world(loaded.scenario, 7)
    ran = _run_to("stolen-lands", 2)
    assert w.now == w.start == 2 * HOURS_PER_SEASON and w.end == ran.end
    assert ran.km is not None and w.km is not None
    for kid, k in ran.km.kingdoms.items():
        mine = w.km.kingdoms[kid]
        assert (mine.treasury, mine.unrest, mine.fame, mine.infamy) == (k.treasury, k.unrest, k.fame, k.infamy), kid
        # the sheet's Economy, Loyalty and Stability (the world keeps base values: RES-KM-36)
        a, b = stats(w, mine), stats(ran, k)
        assert (a.economy, a.loyalty, a.stability) == (b.economy, b.loyalty, b.stability), kid
        assert mine.hexes == k.hexes, kid
        assert [(s.name, s.hex, s.districts, s.buildings) for s in mine.settlements] == \
               [(s.name, s.hex, s.districts, s.buildings) for s in k.settlements], kid
        assert mine.improvements == k.improvements, kid
        assert (mine.holiday, mine.promotion, mine.taxation) == (k.holiday, k.promotion, k.taxation), kid
        assert {r: ld.name for r, ld in mine.leaders.items()} == {r: ld.name for r, ld in k.leaders.items()}, kid

    def relations(world):  # embassies, treaties (with their bonus as it is now), alliances, wars
        return {key: (r.embassy, None if r.treaty is None else r.treaty.bonus, None if r.alliance is None else r.alliance.bonus,
                      r.enemies)
                for key, r in world.km.relations.items() if r.embassy or r.treaty or r.alliance or r.enemies}

    assert relations(ran), "stolen-lands has embassies by season 2"
    assert relations(w) == relations(ran)
    assert {k: (st.attitude, st.present) for k, st in w.km.stances.items() if st.attitude != "indifferent" or st.present} == \
           {k: (st.attitude, st.present) for k, st in ran.km.stances.items() if st.attitude != "indifferent" or st.present}


def test_an_exported_guild_state_carries_chests_domains_and_armies(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "gw.toml"
    assert run(capsys, "state", "export", "--scenario", "guild-war", "--season", "3", "--out", str(out))[0] == 0
    w = build_world(load_scenario(str(out)).scenario, 11)
    ran = _run_to("guild-war", 3)
    assert ran.gw is not None and w.gw is not None
    for gid, g in ran.gw.guilds.items():
        assert (w.gw.guilds[gid].solars, w.gw.guilds[gid].victuals, w.gw.guilds[gid].notoriety, w.gw.guilds[gid].pool) == \
               (g.solars, g.victuals, g.notoriety, g.pool), gid
    for did, d in ran.gw.domains.items():
        mine = w.gw.domains[did]
        assert (mine.owner_guild, mine.hex, mine.fortification) == (d.owner_guild, d.hex, d.fortification), did
        assert sorted(u.kind for u in mine.garrison) == sorted(u.kind for u in d.garrison), did
    assert ran.gw.armies, "armies are in the field by season 3"
    assert sorted(w.gw.armies) == sorted(ran.gw.armies)
    for aid, a in ran.gw.armies.items():
        assert (w.gw.armies[aid].owner, w.gw.armies[aid].hex) == (a.owner, a.hex), aid
        assert sorted(u.kind for u in w.gw.armies[aid].units) == sorted(u.kind for u in a.units), aid


def test_a_save_exports_as_its_campaign_at_that_season(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "mn.save"
    assert run(capsys, "run", "mare-nostrum", "--until", "2", "--save", str(save), "--json")[0] == 0
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    assert run(capsys, "state", "export", str(save), "--out", str(a))[0] == 0
    assert run(capsys, "state", "export", "--scenario", "mare-nostrum", "--season", "2", "--out", str(b))[0] == 0
    assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8")
    ran = _run_to("mare-nostrum", 2)
    w = build_world(load_scenario(str(a)).scenario, 1)
    assert ran.mn is not None and w.mn is not None
    assert {n: x.treasury for n, x in w.mn.nations.items()} == {n: x.treasury for n, x in ran.mn.nations.items()}
    # treaties in force, and as many living ambassadors per nation
    assert sorted((t.kind, t.nation, t.partner) for t in w.mn.treaties) == \
           sorted((t.kind, t.nation, t.partner) for t in ran.mn.treaties)
    alive = lambda world, n: sum(1 for a in world.mn.ambassadors.values() if a.nation == n and a.state != "dead")  # noqa: E731
    assert {n: alive(w, n) for n in w.mn.nations} == {n: alive(ran, n) for n in ran.mn.nations}


def test_an_exported_state_runs_on_from_its_season(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "gw.toml"
    assert run(capsys, "state", "export", "--scenario", "guild-war", "--season", "4", "--out", str(out))[0] == 0
    code, text, err = run(capsys, "run", str(out), "--until", "6", "--json")
    assert code == 0, err
    assert json.loads(text)["summary"]["hours"] == 6 * HOURS_PER_SEASON


def test_state_export_refuses_bad_requests(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "state", "export", "--scenario", "guild-war", "--season", "99", "--out", str(tmp_path / "x"))
    assert code == 2 and "--season: expected a season from 0 to 19, found 99" in err
    code, _, err = run(capsys, "state", "export", "--scenario", "guild-war", "--out", str(tmp_path / "x"))
    assert code == 2 and "--scenario needs --season N" in err
    code, _, err = run(capsys, "state", "export", "--out", str(tmp_path / "x"))
    assert code == 2 and "give a save file or --scenario NAME --season N" in err
    code, _, err = run(capsys, "state", "export", str(tmp_path / "nope.save"), "--out", str(tmp_path / "x"))
    assert code == 2 and "nope.save: expected a save file, found no such file" in err
    assert not (tmp_path / "x").exists()


def test_a_state_season_past_the_end_is_a_problem_with_its_path() -> None:
    text = (EXAMPLES / "convoy-amber.state.toml").read_text(encoding="utf-8").replace("season = 0", "season = 1")
    with pytest.raises(ScenarioError) as e:
        build_world(load_scenario_text(text, "amber").scenario, 7)
    assert [(p.path, p.found) for p in e.value.problems] == [("state.season", "1")]


def test_advice_errors_carry_path_expected_found() -> None:
    with pytest.raises(AdviceError) as e:
        advise(load_scenario(str(EXAMPLES / "convoy-amber.state.toml")), "convoy:brass")
    assert [(p.path, p.found) for p in e.value.problems] == [("faction", '"convoy:brass"')]


def test_an_engine_failure_on_a_valid_state_is_reported_as_the_states_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    import workers.advise as adv

    def boom(*a: object, **k: object) -> None:
        raise KeyError("no such hex")

    monkeypatch.setattr(adv, "next_decisions", boom)
    with pytest.raises(AdviceError) as e:
        advise(load_scenario(str(EXAMPLES / "convoy-amber.state.toml")), "amber")
    [p] = e.value.problems
    assert p.path == "(state)" and p.found.startswith("KeyError: 'no such hex'")


def test_the_language_defaults_to_the_states() -> None:
    text = (EXAMPLES / "convoy-amber.state.toml").read_text(encoding="utf-8").replace('seed = 7\n', 'seed = 7\nlang = "fr"\n', 1)
    loaded = load_scenario_text(text, "amber-fr")
    assert advise(loaded, "amber").summary.startswith("La caravane Amber Caravan donnerait ")
    assert advise(loaded, "amber", lang="en").summary.startswith("The convoy Amber Caravan would give ")


def test_lookahead_advice_where_registered_and_a_clear_refusal_where_not() -> None:
    from agents.policies import known_policies

    loaded = load_scenario(str(EXAMPLES / "guild-griffon.state.toml"))
    if "lookahead" in known_policies("guild"):
        a = advise(loaded, "griffon", policy="lookahead", seed=2)
        assert a.policy == "lookahead" and a.orders
        assert any(o.rollouts for o in a.orders), "a look-ahead gives its rollout figures"
        assert advise(loaded, "griffon", policy="lookahead", seed=2) == a
    else:
        with pytest.raises(AdviceError) as e:
            advise(loaded, "griffon", policy="lookahead")
        [p] = e.value.problems
        assert p.path == "policy" and p.expected.startswith("a registered guild policy (heuristic, random")


@pytest.mark.slow  # over 0.5 s: left out of make test-fast
def test_a_linked_world_exports_and_is_advised() -> None:
    """realm (every system, LINK): the exported state loads, and a kingdom and a nation are advised."""
    from workers.state_export import export

    text = export(scenario="realm", season=2)
    loaded = load_scenario_text(text, "realm@2")
    assert loaded.scenario.state is not None and loaded.scenario.state.season == 2
    for faction in ("kingdom:avalon", "nation:tyria"):
        a = advise(loaded, faction)
        assert a.season == 2 and a.orders, faction


def test_french_advice_gives_the_orders_in_french_and_keeps_a_nations_numbers() -> None:
    a = advise(load_scenario("guild-war"), "licorne", lang="fr")
    assert a.orders[0].order_words == "recruter — unités 15 × chevalier"  # `recruit units=knight:15`
    assert a.orders[-1].order_words == "fin des ordres"
    n = advise(load_scenario("mare-nostrum"), "carthage", lang="fr")
    assert [o.decision for o in n.orders][:2] == ["achats", "ambassadeur"]
    assert n.orders[1].order_words.startswith("mission de carthage-1 à ")
    assert "cadeau" in n.orders[1].order_words and "PO)" in n.orders[1].order_words


def test_french_advice_says_the_policys_reason_and_units_in_french() -> None:
    a = advise(load_scenario("mare-nostrum"), "carthage", lang="fr")
    assert any(o.reason.endswith("raison de la politique : rien qui vaille son coût.") for o in a.orders)
    k = advise(load_scenario("stolen-lands"), "restov", lang="fr")
    said = " ".join(o.reason for o in k.orders)
    assert " PC " in said and " BP" not in said  # the kingdom's points of construction, as the seeds say
