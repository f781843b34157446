"""Scores: what doing well means for a kingdom, a nation, a guild and a convoy (docs/scoring.md).

One number per faction at any moment of a campaign, computed from the world alone (never from a
counter kept outside it), so that it can be read on a world forked in the middle of a campaign — a
tournament compares factions' scores at the end, a policy that looks ahead compares them at the end of
its rollouts, an explanation cites the named terms that moved.

Each score is a sum of named terms, in the system's own money over a year:

* a kingdom (*royaume*) in BP (*PC*): its treasury (*trésorerie*, money beyond two years of income
  counting half), a year of income (*revenu*) and Consumption (*consommation*), its Size (*taille*),
  what it has built (*patrimoine*), the Unrest (*Insatisfaction*) the coming year's Upkeep is expected
  to add, its Unrest now, anarchy (*anarchie*), Fame (*Gloire*), its embassies, treaties and alliances,
  its expeditions under way and its vassals;
* a nation (*nation*) in PO: treasury, a year of province (*provinces*) and resource (*ressources*)
  income, its ambassadors (*ambassadeurs*), embassies (*ambassades*), treaties (*traités*) and racial
  factors (*facteur racial*);
* a guild (*guilde*) in solars: a year of its domains' yield (*domaines*), less what sieges and
  occupations take, its units (*armées*, *garnisons*, *réserve*), its chest (*coffre*: solars and
  *victuailles*), its notoriety (*notoriété*), and elimination;
* a convoy (*convoi*) in points (1 point = 1% of its journey): the share of the journey done
  (*trajet*), arrival (*arrivée*), days on the road (*jours de route*), hit points (*points de vie*),
  trade goods and treasure carried (*chargement*), its Unrest (*Niveau de Troubles*), mutiny
  (*mutinerie*), losses (*pertes*), starvation (*famine*) and destruction.

Each system scores its own factions (``sim.rules.<sys>.scoring``, its descriptor's ``score``); this
module scores every faction of a world through the registry (``sim.registry``), with what the links
add where systems meet (``sim.rules.links.linked_score``: LINK-03's one treasury; LINK-06's nation
guilds are no faction of their own). The vocabulary (``Term``, ``FactionScore``) is ``sim.scores``.

Weights are in small frozen dataclasses (``KmWeights``…) so a policy or a study may use others.
Expected values are exact (every face of the d20 enumerated); results are floats rounded to 2
decimals, summed in a fixed order, so a score is the same in any process.
"""

from __future__ import annotations

from sim import registry
from sim.rules import links
from sim.scores import FactionScore, Term
from sim.world import World

__all__ = ["FactionScore", "Term", "kind_of", "kinds", "score_all", "score_of", "term_labels", "units"]


def kinds() -> tuple[str, ...]:
    """Every faction kind, in LINK-01 order of their systems."""
    return tuple(s.faction_kind for s in registry.systems())


def units() -> dict[str, str]:
    """The unit of each faction kind's score (``{"kingdom": "BP", …}``)."""
    return {s.faction_kind: s.score_unit for s in registry.systems()}


def term_labels() -> dict[str, dict[str, tuple[str, str]]]:
    """Each faction kind's score terms: key → (English, French), the seeds' own words."""
    return {s.faction_kind: dict(s.score_terms) for s in registry.systems()}


def score_of(world: World, key: str) -> FactionScore:
    """The score of the faction ``key`` (``kingdom:restov``): its system's, with what the links add
    (LINK-03). KeyError for a kind no system has or a faction the world does not hold."""
    kind, _, ident = key.partition(":")
    return links.linked_score(world, registry.of_kind(kind).score(world, ident))


def score_all(world: World) -> dict[str, FactionScore]:
    """Every faction's score, keyed by actor key, in key order. A guild that stands for a nation's
    armies (LINK-06) is not a faction of its own: its units are the nation's."""
    out: dict[str, FactionScore] = {}
    for system in registry.enabled(world):
        for ident in system.factions(world):
            key = system.actor(ident)
            if links.is_own_faction(world, key):
                out[key] = links.linked_score(world, system.score(world, ident))
    return dict(sorted(out.items()))


def kind_of(key: str) -> str:
    """The faction kind of an actor key (``kingdom:restov`` → ``kingdom``)."""
    return key.split(":", 1)[0]
