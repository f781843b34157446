"""Statistics of the research bench (docs/research.md): means with t intervals, paired differences
with their interval and effect size, bootstrap over seeds.

Every interval is a 95% interval. A mean's and a paired difference's come from Student's t with
n − 1 degrees of freedom; the effect size of a paired difference is Cohen's d on the differences
(d_z = mean ÷ standard deviation of the differences). A sweep tests many metrics and cells at once:
:func:`benjamini_hochberg` adjusts their p-values for the false discovery rate. Nothing is sampled except in
:func:`bootstrap_seeds`, which draws from a fixed seed: the same figures every run.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

LEVEL = 0.95


def t_quantile(df: int, level: float = LEVEL) -> float:
    """The two-sided Student t quantile (``scipy.stats.t``)."""
    from scipy.stats import t

    return float(t.ppf((1 + level) / 2, df))


@dataclass(frozen=True)
class MeanCI:
    n: int
    mean: float
    lo: float
    hi: float
    sd: float


def mean_ci(values: Sequence[float]) -> MeanCI:
    """The mean and its 95% t interval (a point when n = 1 or every value is the same)."""
    xs = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    n = len(xs)
    if n == 0:
        return MeanCI(0, math.nan, math.nan, math.nan, math.nan)
    m = sum(xs) / n
    if n == 1:
        return MeanCI(1, m, math.nan, math.nan, math.nan)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = t_quantile(n - 1) * sd / math.sqrt(n)
    return MeanCI(n, m, m - half, m + half, sd)


@dataclass(frozen=True)
class Paired:
    """A paired difference (other − baseline, seed by seed): its mean, 95% t interval, Cohen's d on
    the differences, and whether the interval leaves 0 out (a significant shift)."""

    n: int
    mean: float
    lo: float
    hi: float
    d: float

    @property
    def significant(self) -> bool:
        return self.n >= 2 and not math.isnan(self.lo) and (self.lo > 0 or self.hi < 0)


def paired(baseline: Sequence[float], other: Sequence[float]) -> Paired:
    """Paired difference ``other[i] - baseline[i]`` over the pairs where both are numbers."""
    diffs = [float(b) - float(a) for a, b in zip(baseline, other, strict=True)
             if a is not None and b is not None and not math.isnan(float(a)) and not math.isnan(float(b))]
    c = mean_ci(diffs)
    if c.n < 2:
        return Paired(c.n, c.mean, math.nan, math.nan, math.nan)
    if c.sd == 0:
        d = 0.0 if c.mean == 0 else math.copysign(math.inf, c.mean)
    else:
        d = c.mean / c.sd
    return Paired(c.n, c.mean, c.lo, c.hi, d)


def paired_p(p: Paired) -> float:
    """Two-sided p-value of a paired t test (H0: the mean difference is 0); 1 when every difference is 0,
    0 when every difference is the same non-zero number."""
    if p.n < 2 or math.isnan(p.d):
        return math.nan
    if math.isinf(p.d):
        return 0.0
    from scipy.stats import t

    stat = p.d * math.sqrt(p.n)  # mean / (sd / sqrt n)
    return float(2 * t.sf(abs(stat), p.n - 1))


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (the false discovery rate over the family given; NaN stays
    NaN and is not counted): a row is a discovery at level q when its adjusted p is below q."""
    idx = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    m = len(idx)
    out = [math.nan] * len(pvalues)
    if not m:
        return out
    order = sorted(idx, key=lambda i: pvalues[i])
    running = 1.0
    for rank in range(m, 0, -1):  # from the largest p down: the running minimum of p × m / rank
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        out[i] = min(1.0, running)
    return out


def bootstrap_seeds(seeds: Sequence[int], stat: Callable[[list[int]], float], *, reps: int = 2000, seed: int = 0,
                    level: float = LEVEL) -> tuple[float, float]:
    """Percentile bootstrap interval of ``stat(seeds)`` resampling whole seeds (a seed's games stay
    together: the cluster bootstrap); a fixed random seed."""
    ss = list(seeds)
    if not ss:
        return (math.nan, math.nan)
    rng = random.Random(seed)
    vals = sorted(stat([ss[rng.randrange(len(ss))] for _ in ss]) for _ in range(reps))
    vals = [v for v in vals if not math.isnan(v)]
    if not vals:
        return (math.nan, math.nan)
    lo = vals[int((1 - level) / 2 * len(vals))]
    hi = vals[min(len(vals) - 1, int((1 + level) / 2 * len(vals)))]
    return (lo, hi)


__all__ = ["LEVEL", "MeanCI", "Paired", "benjamini_hochberg", "bootstrap_seeds", "mean_ci", "paired", "paired_p",
           "t_quantile"]
