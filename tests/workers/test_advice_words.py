"""The advice as a game master reads it (issue 27, item 4): each alternative once, one language per
answer, factions, places and buildings named as the scenario's tables name them (the ids are for
``--json``), a look-ahead's rollouts in sentences — for every faction kind, in English and French."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents.chronicle_tables.names import names_of
from scenarios.build import build_world
from scenarios.loader import LoadedScenario, builtin_names, load_scenario
from workers.advise import Advice, advise, factions_of, render_text
from workers.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
CASES = [("kingdom-restov.state.toml", "restov"), ("kingdom-restov.state.toml", "pitax"), ("guild-griffon.state.toml", "griffon"),
         ("nation-rome.state.toml", "rome"), ("convoy-amber.state.toml", "amber")]

# words that give the other language away (whole words, in the advice's sentences)
ENGLISH = re.compile(r"\b(the|with|and|over a year|because|nothing|knight|infantry|cavalry|militia|treaty|emergency|gift|"
                     r"travel|rest|hexes|BP|won|for)\b")
FRENCH = re.compile(r"\b(avec|pour|unités|sur un an|plutôt|parce que|rien|chevalier|fantassin|traité|cadeau|voyager|PC|vers)\b")


def _ids(loaded: LoadedScenario) -> list[str]:
    """The ids of the rows the tables name otherwise (``restov`` → ``Restov``, ``gue-cendres``…)."""
    nm = names_of(build_world(loaded.scenario, loaded.scenario.scenario.seed), "en")
    return sorted({i for rows in nm.kinds.values() for i, name in rows.items() if name != i})


def engine_words(text: str, ids: list[str]) -> list[str]:
    """What a game master should not have to read: actor keys, engine ids, ``key=value`` pairs, ids
    of named rows, a hex index, and a word said twice in a row (``solars solars``)."""
    bad = re.findall(r"\b(?:kingdom|nation|guild|city|convoy|domain):[a-z0-9-]+", text)
    bad += re.findall(r"\b[a-z]+_[a-z_]+\b", text)  # trade_shop, raw_materials, attack_domain
    bad += re.findall(r"\b[a-z_]+=\S+", text)
    bad += re.findall(r"(?<!\w)#\d+", text)
    bad += [m.group(0) for m in re.finditer(r"\b(\w+) \1\b", text)]
    for i in ids:
        bad += re.findall(rf"(?<![\w:-]){re.escape(i)}(?![\w-])", text)
    return bad


def _text(a: Advice) -> str:
    """The advice's words, without its last line (the seed, the policy and the digest)."""
    return render_text(a, explain=True).rsplit("\n", 1)[0]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("file", "faction"), CASES)
def test_no_two_alternatives_of_a_decision_read_alike(file: str, faction: str, lang: str) -> None:
    a = advise(load_scenario(str(EXAMPLES / file)), faction, lang=lang, explain=True)
    for o in a.orders:
        said = [re.sub(r"\s", "", alt.words) for alt in o.alternatives]  # `[11, 2]` and `[11,2]` are one hex
        assert len(said) == len(set(said)), (o.decision, [alt.words for alt in o.alternatives])
        assert [alt.words for alt in o.alternatives if alt.chosen] == [o.order_words]
        assert not re.search(r"\[\d+, \d+\]", o.order_words + " ".join(said)), "a hex is written [col,row], as the map does"
        assert sum(alt.alike for alt in o.alternatives) <= max(o.legal, 1)


def test_two_routes_from_one_hex_are_shown_once_with_their_count() -> None:
    """Restov's special edict: two exploration routes from [11,2] that the policy labels alike."""
    a = advise(load_scenario(str(EXAMPLES / "kingdom-restov.state.toml")), "restov", explain=True)
    special = next(o for o in a.orders if o.decision == "special")
    assert special.order == "exploration 1 month(s), 5 hex(es) from #47"  # the ledger's label, for a program
    chosen = special.alternatives[0]
    assert chosen.chosen and chosen.words == "exploration of 1 month(s), 5 hex(es) from [11,2]" and chosen.alike == 2
    assert "(and 1 other order that reads the same)" in render_text(a)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("file", "faction"), CASES)
def test_the_advice_names_factions_places_and_buildings_as_the_tables_do(file: str, faction: str, lang: str) -> None:
    loaded = load_scenario(str(EXAMPLES / file))
    a = advise(loaded, faction, lang=lang, explain=True)
    assert engine_words(_text(a), _ids(loaded)) == []
    assert a.name != a.faction.split(":")[1] and a.summary.split(" ")[2:2 + len(a.name.split())] == a.name.split()


@pytest.mark.parametrize(("file", "faction"), CASES)
def test_one_language_per_answer(file: str, faction: str) -> None:
    loaded = load_scenario(str(EXAMPLES / file))
    fr = _text(advise(loaded, faction, lang="fr", explain=True))
    en = _text(advise(loaded, faction, lang="en", explain=True))
    assert ENGLISH.findall(fr) == []
    assert FRENCH.findall(en) == []


def test_a_guild_recruiting_reads_in_french_units_and_says_its_unit_once() -> None:
    """« +100 solars solars … (200 pour 10 knight) » was the ledger's words, said as they were."""
    a = advise(load_scenario(str(EXAMPLES / "guild-griffon.state.toml")), "griffon", lang="fr")
    recruit = a.orders[0]
    assert recruit.order_words == "recruter — unités 10 × chevalier"
    assert "+100 solars au-delà de deux ans de revenu mis au travail (200 pour 10 × chevalier)" in recruit.reason
    en = advise(load_scenario(str(EXAMPLES / "guild-griffon.state.toml")), "griffon", lang="en").orders[0]
    assert "+100 solars above two years of yield put to work (200 for 10 × knight)" in en.reason


def test_the_json_keeps_the_ledgers_labels_next_to_the_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", str(EXAMPLES / "nation-rome.state.toml"), "--faction", "rome", "--json", "--explain"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert a["faction"] == "nation:rome" and a["name"] == "Rome"
    military = a["orders"][-1]
    war = next(alt for alt in military["alternatives"] if alt["order"] == "declare war on nation:carthage")
    assert war["words"] == "declare war on Carthage"


def test_a_lookaheads_rollouts_are_told_in_sentences() -> None:
    loaded = load_scenario(str(EXAMPLES / "convoy-amber.state.toml"))
    for lang, won in (("en", r"won \d+ of \d+ rollouts"), ("fr", r"\d+ parties gagnées sur \d+")):
        a = advise(loaded, "amber", policy="lookahead", lang=lang, explain=True)  # type: ignore[arg-type]
        text = render_text(a, explain=True)
        assert any(o.rollouts for o in a.orders), "the look-ahead gives its figures"
        assert "{" not in text and "'candidates'" not in text
        assert re.search(won, text)
        assert all(o.rollouts_text for o in a.orders if o.rollouts)


def test_run_explain_names_the_kingdoms_and_speaks_french(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "stolen-lands", "--until", "1d", "--explain", "kingdom:restov", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    told = [x for x in out.splitlines() if x.startswith("    ")]  # the explanations' lines
    assert any("relations plus étroites avec Pitax" in x for x in told)
    assert not [x for x in told if re.search(r"\bpitax\b|\bplains\b|\d\.\d", x)]


@pytest.mark.slow  # every faction of every built-in scenario, twice: a few seconds
@pytest.mark.parametrize("name", builtin_names())
def test_every_faction_of_every_built_in_scenario_is_advised_in_words(name: str) -> None:
    loaded = load_scenario(name)
    ids = _ids(loaded)
    for key in factions_of(loaded.scenario):
        for lang in ("en", "fr"):
            text = _text(advise(loaded, key, lang=lang, explain=True))  # type: ignore[arg-type]
            assert engine_words(text, ids) == [], (key, lang)
            assert (ENGLISH if lang == "fr" else FRENCH).findall(re.sub(r"\b[A-Z][\w'-]*( [A-Z][\w'-]*| of| the)*", "", text)) \
                == [], (key, lang)
