"""Every faction's score, policy and key metrics, as plain data (``run --json``, batch results).

The score and its named terms come from :mod:`sim.scoring` (a pure function of the world); the
metrics are the drivers' per-season rows (``metrics_row``, what ``SeasonSummarized`` records) plus
what the score computed on the way (income over a year, treasury in years of income…). Nothing here
reads a counter kept outside the world, so a saved and resumed campaign reports the same table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.scoring import score_all

if TYPE_CHECKING:
    from agents.model import RealmModel


def faction_table(model: RealmModel) -> dict[str, dict[str, Any]]:
    """``{actor key: {"kind", "policy", "score", "unit", "terms", "metrics"}}`` in key order."""
    rows = model.season_metrics()
    out: dict[str, dict[str, Any]] = {}
    for key, s in score_all(model.world).items():
        metrics: dict[str, Any] = dict(rows.get(key, {}))
        metrics.update(s.metrics)
        out[key] = {
            "kind": s.kind,
            "policy": s.policy,
            "score": s.total,
            "unit": s.unit,
            "terms": s.terms_dict(),
            "metrics": dict(sorted(metrics.items())),
        }
    return out
