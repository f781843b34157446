"""How the table names things, in English or French: factions, cities, domains, hexes, and Mare
Nostrum's numbered embassies, missions and treaties.

The engine labels an order with ids (``declare war on nation:carthage``, ``attack_domain army=griffon-2
domain=gue-cendres``, ``farm on #451``); a game master reads the names the scenario's tables give
(``Carthage``, ``Gué-des-Cendres``, ``Westwatch [4,6]``). :func:`names_of` reads them from a world;
the order words of each system (``order_words`` in this package's modules) and the advice use them.
Ids without a name (armies, seals, ambassadors: the tables name them by id) stay as they are.
"""

from __future__ import annotations

from typing import Any

from sim.hexmap import HexMap

# a faction's kind in an actor key, and the tables whose rows have names
KEY_KINDS = ("kingdom", "nation", "guild", "convoy", "city", "domain")


class Names:
    """Names by kind and id (``of("city", "caere")`` → ``Caere``), hexes as the map names them
    (:meth:`place`), and Mare Nostrum's numbered things (:meth:`mn_thing`)."""

    def __init__(self, lang: str = "en", hexmap: HexMap | None = None,
                 kinds: dict[str, dict[str, str]] | None = None, mn: Any = None) -> None:
        self.lang = lang
        self.hexmap = hexmap
        self.kinds = kinds or {}
        self.mn = mn

    @property
    def fr(self) -> bool:
        return self.lang == "fr"

    def of(self, kind: str, ident: str) -> str:
        """The name of ``kind``'s row ``ident`` (the id itself when the table has no such name)."""
        return self.kinds.get(kind, {}).get(ident, ident)

    def key(self, key: str) -> str:
        """An actor or party key (``nation:carthage``, ``city:caere``) as its name."""
        kind, sep, ident = key.partition(":")
        return self.of(kind, ident) if sep and kind in self.kinds else key

    def faction(self, ident: str, *kinds: str) -> str:
        """A bare id that names a faction of one of ``kinds`` (the first that has it)."""
        for kind in kinds:
            name = self.kinds.get(kind, {}).get(ident)
            if name is not None:
                return name
        return ident

    def place(self, i: int) -> str:
        """A hex as the map names it: ``Westwatch [4,6]`` (its settlement, region or province), else
        ``[4,6]`` — the policies' own words for a hex (``HexMap.place``)."""
        hm = self.hexmap
        if hm is None or not 0 <= i < len(hm.hexes):
            return f"#{i}"
        return hm.place(i)

    def mn_thing(self, n: int, kind: str = "") -> str:
        """A Mare Nostrum embassy, mission, treaty or obligation (they share one numbering) in words:
        ``the embassy at Caere``, ``Rome's mission to Caere``, ``the commercial treaty with Caere``
        (one the world no longer holds: ``kind`` and its number, ``the embassy #3``)."""
        fr = self.fr
        unknown = f"#{n}" if not kind else (f"{_KIND_FR.get(kind, kind)} n° {n}" if fr else f"the {kind} #{n}")
        mn = self.mn
        if mn is None:
            return unknown
        for e in mn.embassies:
            if e.id == n:
                return f"l'ambassade à {self.of('city', e.city)}" if fr else f"the embassy at {self.of('city', e.city)}"
        for m in mn.missions:
            if m.id == n:
                who, city = self.of("nation", m.nation), self.of("city", m.city)
                return f"la mission de {who} à {city}" if fr else f"{who}'s mission to {city}"
        for t in mn.treaties:
            if t.id == n:
                en, fr_word, article = TREATY.get(t.kind, (t.kind, t.kind, "le "))
                return f"{article}{fr_word} avec {self.key(t.partner)}" if fr else f"the {en} with {self.key(t.partner)}"
        for o in getattr(mn, "obligations", ()):
            if getattr(o, "id", None) == n:
                return f"l'obligation n° {n}" if fr else f"the obligation #{n}"
        return unknown


_KIND_FR = {"embassy": "l'ambassade", "mission": "la mission", "treaty": "le traité", "alliance": "l'alliance",
            "obligation": "l'obligation"}


# a Mare Nostrum treaty's kind: (English, French, the French article)
TREATY = {"commercial": ("commercial treaty", "traité commercial", "le "), "alliance": ("military alliance", "alliance militaire", "l'"),
          "pact": ("eternal friendship pact", "pacte d'amitié éternelle", "le ")}


def names_of(world: Any, lang: str = "en") -> Names:
    """Every name the world's tables give (French names where a row has one, in French)."""
    fr = lang == "fr"
    kinds: dict[str, dict[str, str]] = {k: {} for k in KEY_KINDS}

    def name(row: Any) -> str:
        french = str(getattr(row, "name_fr", "") or "") if fr else ""
        return french or str(getattr(row, "name", "") or "") or str(row.id)

    km = getattr(world, "km", None)
    for kid, k in (getattr(km, "kingdoms", None) or {}).items():
        kinds["kingdom"][kid] = name(k)
    mn = getattr(world, "mn", None)
    if mn is not None:
        for nid, n in mn.nations.items():
            kinds["nation"][nid] = name(n)
        for cid, c in mn.cities.items():
            kinds["city"][cid] = name(c)
    gw = getattr(world, "gw", None)
    if gw is not None:
        for gid, g in gw.guilds.items():
            kinds["guild"][gid] = name(g)
        for did, d in gw.domains.items():
            kinds["domain"][did] = name(d)
    cv = getattr(world, "cv", None)
    for c in getattr(cv, "convoys", None) or []:
        kinds["convoy"][c.id] = name(c)
    return Names(lang, getattr(world, "map", None), kinds, mn)


__all__ = ["KEY_KINDS", "Names", "TREATY", "names_of"]
