"""A policy's words — its score terms, its reason, its checks — in one language, with the table's names.

The policies write each score term in English and French (``Term.en``/``Term.fr``) and their reason
in English; the ledger records them as written. Some name a faction by its id (``closer relations
with pitax``, ``commercial at caere won 95%``), repeat the unit (``+100 solars solars above…``) or
leave an English word in the French (``(200 pour 10 knight)``, ``treaty avec pitax``). The
ledger is the game record and stays as it is; :func:`term_words` and :func:`reason_words` say the
recorded words as a game master reads them, with the table's names (agents.chronicle_tables.names).
What they do not know stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.chronicle_tables import km as km_tables
from agents.chronicle_tables.names import TREATY, Names
from agents.chronicle_tables.orders import gw_units

Fix = tuple[re.Pattern[str], Callable[[re.Match[str], Names], str]]

_KEY = re.compile(r"\b(kingdom|nation|guild|city|convoy|domain):([a-z0-9][a-z0-9_-]*)")
_BAND = {"en": {"very_warm": "with a very warm welcome", "limited": "with a limited treaty", "failure": "in failure",
                "blunder": "in a blunder", "disaster": "in disaster"},
         "fr": {"very_warm": "sur un accueil très favorable", "limited": "sur un traité limité", "failure": "sur un échec",
                "blunder": "sur une bévue", "disaster": "sur une catastrophe"}}
_KM_KIND = {"en": {"embassy": "an embassy", "treaty": "a treaty", "alliance": "an alliance"},
            "fr": {"embassy": "ambassade", "treaty": "traité", "alliance": "alliance"}}


def _kingdom(n: Names, ident: str) -> str:
    return n.faction(ident, "kingdom")


def _nation(n: Names, ident: str) -> str:
    return n.faction(ident, "nation", "kingdom")


def _city(n: Names, ident: str) -> str:
    return n.of("city", ident)


def _treaty(kind: str, fr: bool) -> str:
    if kind not in TREATY:
        return kind
    return TREATY[kind][1] if fr else TREATY[kind][0]


def _c(p: str) -> re.Pattern[str]:
    return re.compile(p)


# words of the terms, English: (pattern, replacement with the match and the names)
_EN: list[Fix] = [
    (_c(r"^([+−][\d.]+ solars) solars "), lambda m, n: f"{m[1]} "),
    (_c(r"\((\d+) for (\d+) (\w+)\)"), lambda m, n: f"({m[1]} for {gw_units(m[3] + ':' + m[2], 'en')})"),
    (_c(r"closer relations with (\S+)"), lambda m, n: f"closer relations with {_kingdom(n, m[1])}"),
    (_c(r"^([+−][\d.]+ BP) (\S+) is hostile"), lambda m, n: f"{m[1]} {_kingdom(n, m[2])} is hostile"),
    (_c(r"a threat to (\S+) succeeds"), lambda m, n: f"a threat to {_kingdom(n, m[1])} succeeds"),
    (_c(r"\b(embassy|treaty|alliance) with (\S+) won"),
     lambda m, n: f"{_KM_KIND['en'][m[1]]} with {_kingdom(n, m[2])} won"),
    (_c(r"\bcommercial at (\S+) won"), lambda m, n: f"a commercial treaty at {_city(n, m[1])} won"),
    (_c(r"the embassy and treaty at (\S+) as"), lambda m, n: f"the embassy and treaty at {_city(n, m[1])} as"),
    (_c(r"the (\S+) mission to (\S+) for a (\w+) treaty"),
     lambda m, n: f"{_nation(n, m[1])}'s mission to {_city(n, m[2])} for a {_treaty(m[3], False)}"),
    (_c(r"the mission ends (\w+)"), lambda m, n: f"the mission ends {_BAND['en'].get(m[1], m[1])}"),
]

# words of the terms, French
_FR: list[Fix] = [
    (_c(r"^([+−][\d.]+ solars) solars "), lambda m, n: f"{m[1]} "),
    (_c(r"\((\d+) pour (\d+) (\w+)\)"), lambda m, n: f"({m[1]} pour {gw_units(m[3] + ':' + m[2], 'fr')})"),
    (_c(r"relations plus étroites avec (\S+)"), lambda m, n: f"relations plus étroites avec {_kingdom(n, m[1])}"),
    (_c(r"^([+−][\d.]+ PC) (\S+) est hostile"), lambda m, n: f"{m[1]} {_kingdom(n, m[2])} est hostile"),
    (_c(r"une menace contre (\S+) réussit"), lambda m, n: f"une menace contre {_kingdom(n, m[1])} réussit"),
    (_c(r"\b(embassy|treaty|alliance) avec (\S+) obtenu"),
     lambda m, n: f"{_KM_KIND['fr'][m[1]]} avec {_kingdom(n, m[2])} obtenu{'e' if m[1] != 'treaty' else ''}"),
    (_c(r"de revenu que (\w+) en "), lambda m, n: f"de revenu que le terrain ({km_tables._TERRAIN_FR.get(m[1], m[1])}) en "),
    (_c(r"\bcommercial à (\S+) obtenu"), lambda m, n: f"traité commercial à {_city(n, m[1])} obtenu"),
    (_c(r"l'ambassade et le traité à (\S+) tels"), lambda m, n: f"l'ambassade et le traité à {_city(n, m[1])} tels"),
    (_c(r"la mission de (\S+) à (\S+) pour un traité (commercial|d'alliance militaire|pacte d'amitié éternelle)"),
     lambda m, n: (f"la mission de {_nation(n, m[1])} à {_city(n, m[2])} pour "
                   + {"commercial": "un traité commercial", "d'alliance militaire": "une alliance militaire"}.get(
                       m[3], "un pacte d'amitié éternelle"))),
    (_c(r"la mission finit en (\w+)"), lambda m, n: f"la mission finit {_BAND['fr'].get(m[1], m[1])}"),
]


_ELISION = _c(r"\b(de|que) ([AEIOUYÉÈÊÂÎ])")


def _fix(text: str, fixes: list[Fix], names: Names) -> str:
    for pat, fn in fixes:
        text = pat.sub(lambda m, fn=fn: fn(m, names), text)  # type: ignore[misc]
    text = _KEY.sub(lambda m: names.key(m.group(0)), text)
    if names.fr:  # a name after « de » (la garnison de Épinoy): d'Épinoy
        text = _ELISION.sub(lambda m: f"{m[1][0]}'{m[2]}" if m[1] == "de" else f"qu'{m[2]}", text)
    return text


def term_words(text: str, lang: str, names: Names) -> str:
    """A score term's recorded words (its ``en`` or ``fr``) as a game master of ``lang`` reads them."""
    if lang == "fr":
        return fr_numbers(_fix(text, _FR, names))
    return _fix(text, _EN, names)


_DECIMAL = _c(r"(?<![\[\d,.])([+−-]?\d+)\.(\d+)\b")
_PERCENT = _c(r"(\d)%")


def fr_numbers(text: str) -> str:
    """Numbers as French writes them: a decimal comma (``2,5``) and a space before ``%``; a hex's
    ``[11,2]`` is left as it is."""
    return _PERCENT.sub(r"\1 %", _DECIMAL.sub(r"\1,\2", text))


# ---- a policy's reason (recorded in English) ---------------------------------------------------------
_REASON_FR: dict[str, str] = {
    "nothing to gain or lose": "rien à gagner ni à perdre", "nothing worth its cost": "rien qui vaille son coût",
    "uniform over legal orders": "au hasard parmi les ordres légaux", "steady travel": "voyage sans souci",
    "replayed": "rejoué", "candidate": "candidat", "nothing left worth ordering this season":
    "plus rien qui vaille un ordre cette saison", "strike the weakest enemy first": "frapper d'abord l'ennemi le plus faible",
    "fewest travel days, hazard risk weighed by how battered the convoy is":
    "le moins de jours de voyage, le risque de péril pesé selon l'état du convoi",
    "best score": "meilleur score", "best special score": "meilleur score d'édit spécial",
    "best improvement score": "meilleur score d'aménagement", "scripted kingdom: first alternative":
    "royaume scripté : premier choix", "look-ahead": "anticipation",
}
_REASON_PARTS_FR: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (_c(r"^emergency \(Upkeep success (\d+)%, Unrest (\d+)\): (.+)$"),
     lambda m: f"urgence (réussite d'entretien {m[1]} %, Insatisfaction {m[2]}) : {reason_words(m[3], 'fr')}"),
    (_c(r"^food short \((\d+) < (\d+)\)$"), lambda m: f"vivres comptés ({m[1]} < {m[2]})"),
    (_c(r"^unrest (\d+) vs morale (-?\d+)$"), lambda m: f"troubles {m[1]} contre moral {m[2]}"),
    (_c(r"^hp (\d+)/(\d+)$"), lambda m: f"pv {m[1]}/{m[2]}"),
    (_c(r"^no heuristic for (\w+): first alternative$"), lambda m: f"pas d'heuristique pour « {m[1]} » : premier choix"),
    (_c(r"^look-ahead over (.+) among (\d+) candidates: (.+) — (.+)$"),
     lambda m: f"anticipation sur {m[1]} parmi {m[2]} candidats : {m[3]} — {m[4]}"),
]


def reason_words(text: str, lang: str, names: Names | None = None) -> str:
    """A policy's reason (recorded in English) in ``lang``; parts joined by ``; `` are said one by one."""
    if lang != "fr":
        return text if names is None else _KEY.sub(lambda m: names.key(m.group(0)), text)
    if text in _REASON_FR:
        return _REASON_FR[text]
    for pat, fn in _REASON_PARTS_FR:
        m = pat.match(text)
        if m:
            return fn(m)
    if "; " in text:
        return " ; ".join(reason_words(p, lang, names) for p in text.split("; "))
    return text


# ---- a check the order led to --------------------------------------------------------------------------
_CHECK_WORDS = {
    # event kind → (English, French)
    "TradeCheckRolled": ("the trade check", "le test de commerce"),
    "DiplomacyCheckRolled": ("the Diplomacy check", "le test de Diplomatie"),
    "ExplorationCheckRolled": ("the exploration check", "le test d'exploration"),
    "UpkeepCheckRolled": ("the Upkeep check", "le test d'entretien"),
    "StabilityCheckRolled": ("the Stability check", "le test de Stabilité"),
    "LoyaltyCheckRolled": ("the Loyalty check", "le test de Loyauté"),
    "EconomyCheckRolled": ("the Economy check", "le test d'Économie"),
    "AttackLoyaltyCheckRolled": ("the Loyalty check of an attack", "le test de Loyauté d'une attaque"),
    "CloseEmbassyLoyaltyCheckRolled": ("the Loyalty check of a closed embassy", "le test de Loyauté d'une ambassade fermée"),
    "EnforcerLoyaltyCheckRolled": ("the enforcer's Loyalty check", "le test de Loyauté de l'exécuteur"),
    "CaravanAttackRolled": ("the caravan's attack", "l'attaque de la caravane"),
}


def _split_camel(kind: str) -> str:
    words = re.findall(r"[A-Z][a-z]*", kind)
    if words and words[-1] == "Rolled":
        words = words[:-1]
    return " ".join(w.lower() for w in words) or kind


def check_name(kind: str, lang: str) -> str:
    """A check's event kind (``TradeCheckRolled``) as words: ``the trade check`` / ``le test de commerce``."""
    got = _CHECK_WORDS.get(kind)
    if got is not None:
        return got[1 if lang == "fr" else 0]
    words = _split_camel(kind)
    return f"le test « {words} »" if lang == "fr" else f"the {words}"


def modifier_name(name: str, lang: str) -> str:
    """A check's named modifier in ``lang`` (the seeds' terms in French)."""
    return km_tables._MOD_FR.get(name, name) if lang == "fr" else name


__all__ = ["check_name", "fr_numbers", "modifier_name", "reason_words", "term_words"]
