"""``realmsim tournament SCENARIO --policies heuristic,random,pkg:Class --seeds 1..N --out DIR``:
every policy plays every seat of each faction kind over the same seeds (docs/research.md).

**Seat rotation.** With k policies, the tournament plays k variants of the scenario (rotations): in
rotation r, the i-th faction of each kind (in the scenario file's order) is played by policy
``(i + r) mod k``. Over the k rotations every seat is played once by every policy, on every seed —
common random numbers: the rules' dice of a seed are the same in every rotation, so what differs is
who plays.

**A match** is one seat on one seed: the k scores that seat got under the k policies
(:mod:`sim.scoring`, in the faction's own unit). The policies are ranked by that score (equal
scores tie) and the ranking is one match of the openskill Plackett-Luce model (matches fed in seed,
then seat order: the same ratings every time). The leaderboard per faction kind gives each policy's
``mu``, ``sigma`` and ``ordinal`` (mu − 3·sigma, the conservative rating it is sorted by), its mean
and median score and its share of pairwise wins.

**Win rates.** For two policies, the share of matches the first scores higher (a tie counts a
half), with a 95% interval from the percentile bootstrap over seeds (whole seeds resampled, as the
seats of a seed are not independent; 2000 draws from a fixed seed).

Output under ``--out``: ``results.parquet`` (every campaign: one row per rotation and seed, with a
``rotation`` column) and its companion tables (``results.factions.parquet``…, :mod:`workers.tidy`), ``scenarios/rotation-R.toml`` (the variants, to replay a row), per kind
``leaderboard.csv``/``.parquet``, ``winrates.csv``/``.parquet``, ``scores.csv``/``.parquet``,
``tournament.md`` (the tables), ``tournament.json``, the plots ``ratings_KIND.png``,
``winrates_KIND.png``, ``scores_KIND.png``, and ``findings.md``/``.json``.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workers.batch import UsageError

SYSTEM_OF_KIND = {"kingdom": "km", "nation": "mn", "guild": "gw", "convoy": "cv"}
TABLE_OF_KIND = {"kingdom": "kingdoms", "nation": "nations", "guild": "guilds", "convoy": "convoys"}


@dataclass
class Tournament:
    """The plan: the scenario, the policies, the seats of each kind and the seeds."""

    scenario: str
    name: str
    policies: list[str]
    seats: dict[str, list[str]]  # kind -> actor keys, in the file's order
    seeds: list[int]
    texts: list[tuple[str, str]] = field(default_factory=list)  # per rotation: (label, TOML)

    def policy_of(self, rotation: int, kind: str, seat: str) -> str:
        i = self.seats[kind].index(seat)
        return self.policies[(i + rotation) % len(self.policies)]

    def rotation_of(self, kind: str, seat: str, policy: str) -> int:
        i = self.seats[kind].index(seat)
        return (self.policies.index(policy) - i) % len(self.policies)


def parse_policies(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in names):
        raise UsageError(f"--policies {text!r}: expected a comma list of policy names, e.g. heuristic,random")
    if len(set(names)) != len(names):
        raise UsageError(f"--policies {text!r}: a policy is listed twice")
    if len(names) < 2:
        raise UsageError(f"--policies {text!r}: a tournament needs two policies or more")
    return names


def plan_tournament(scenario: str, policies: list[str], seeds: list[int]) -> Tournament:
    """Check the policies against every faction kind of the scenario and build the rotations."""
    from agents.policies import known_policies
    from agents.variants import variant
    from scenarios.loader import load_scenario

    loaded = load_scenario(scenario)
    sc = loaded.scenario
    systems = set(sc.scenario.systems)
    seats: dict[str, list[str]] = {}
    for kind, table in TABLE_OF_KIND.items():
        if SYSTEM_OF_KIND[kind] in systems:
            rows = getattr(sc, table)
            if rows:
                seats[kind] = [f"{kind}:{r.id}" for r in rows]
    if not seats:
        raise UsageError(f"tournament: {loaded.label} has no faction a policy plays (kingdoms, nations, guilds, convoys)")
    for kind in seats:
        known = known_policies(kind)
        for p in policies:
            if ":" not in p and p not in known:
                raise UsageError(f"--policies: unknown {kind} policy {p!r} ({loaded.label} has {kind}s); known: "
                                 f"{', '.join(known)}, or package.module:Class")
    t = Tournament(scenario, loaded.name, policies, seats, seeds)
    for r in range(len(policies)):
        mapping = {seat: t.policy_of(r, kind, seat) for kind, ks in seats.items() for seat in ks}
        v = variant(loaded, seats=mapping)
        t.texts.append((f"{Path(loaded.label).name} [tournament rotation {r}]", v.text))
    return t


# ---- the command -------------------------------------------------------------------------------
def add_arguments(p: Any) -> None:
    from workers.multi import add_run_arguments

    p.add_argument("scenario", help="built-in name or path to a .toml file")
    p.add_argument("--policies", required=True, metavar="P1,P2,…",
                   help="policies to play: registered names (heuristic, random, …) or package.module:Class")
    p.add_argument("--seeds", required=True, metavar="SEEDS", help="A..B (inclusive), N, or a comma list: 1..100,200")
    p.add_argument("--out", required=True, metavar="DIR", help="directory for the results, tables and plots")
    p.add_argument("--lang", choices=["en", "fr"], default="en", help="language of the plots and tables (default en)")
    add_run_arguments(p)


def cmd_tournament(args: Any) -> int:
    import time

    from workers.batch import BatchPlan, parse_seeds
    from workers.multi import MultiOptions, run_plans

    seeds = parse_seeds(args.seeds)
    policies = parse_policies(args.policies)
    opts = MultiOptions.from_args(args)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out!r}: is a file; expected a directory")
    t = plan_tournament(args.scenario, policies, seeds)
    plans = [BatchPlan.make({"label": label, "text": text}, seeds, name=t.name) for label, text in t.texts]
    print(f"tournament {t.name}: {len(policies)} policies x {sum(len(s) for s in t.seats.values())} seats "
          f"({', '.join(f'{len(v)} {k}' for k, v in t.seats.items())}): {len(plans)} rotation(s) x {len(seeds)} "
          f"seed(s) = {len(plans) * len(seeds)} campaigns", file=sys.stderr)
    t0 = time.perf_counter()
    results = run_plans(plans, opts, label=f"tournament {t.name}")
    elapsed = time.perf_counter() - t0
    command = " ".join(shlex.quote(a) for a in ["realmsim", "tournament", args.scenario, "--policies", args.policies,
                                                  "--seeds", args.seeds])
    written = write_tournament(t, results, out, lang=args.lang, command=command)
    print(f"{len(written)} files under {out} ({elapsed:.0f} s); the leaderboard: {out / 'tournament.md'}", file=sys.stderr)
    return 0


# ---- the analysis ------------------------------------------------------------------------------
def scores_table(t: Tournament, results: list[list[dict[str, Any]]]) -> Any:
    """One row per kind, seat, seed and policy: the seat's final score (and its unit)."""
    import pandas as pd

    rows = []
    for r, rs in enumerate(results):
        for res in rs:
            for kind, seats in t.seats.items():
                for seat in seats:
                    f = (res.get("factions") or {}).get(seat)
                    if not f or f.get("score") is None:
                        continue
                    rows.append({"kind": kind, "seat": seat, "seed": int(res["seed"]), "policy": t.policy_of(r, kind, seat),
                                 "rotation": r, "score": float(f["score"]), "unit": f.get("unit", "")})
    return pd.DataFrame(rows, columns=["kind", "seat", "seed", "policy", "rotation", "score", "unit"])


def matches(scores: Any, kind: str, policies: list[str]) -> list[tuple[int, str, dict[str, float]]]:
    """(seed, seat, {policy: score}) for every seat and seed where every policy has a score."""
    out = []
    mine = scores[scores["kind"] == kind]
    for (seed, seat), g in mine.groupby(["seed", "seat"], sort=True):
        sc = dict(zip(g["policy"], g["score"]))
        if all(p in sc for p in policies):
            out.append((int(seed), str(seat), {p: float(sc[p]) for p in policies}))
    return out


def ratings(ms: list[tuple[int, str, dict[str, float]]], policies: list[str]) -> dict[str, tuple[float, float, float]]:
    """openskill Plackett-Luce ratings: policy -> (mu, sigma, ordinal)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {p: model.rating(name=p) for p in policies}
    for _seed, _seat, sc in ms:
        distinct = sorted({sc[p] for p in policies}, reverse=True)
        ranks: list[float] = [float(distinct.index(sc[p]) + 1) for p in policies]
        teams = [[rating[p]] for p in policies]
        new = model.rate(teams, ranks=ranks)
        for p, team in zip(policies, new):
            rating[p] = team[0]
    return {p: (float(r.mu), float(r.sigma), float(r.ordinal())) for p, r in rating.items()}


def win_share(ms: list[tuple[int, str, dict[str, float]]], a: str, b: str) -> float:
    if not ms:
        return math.nan
    wins = sum(1.0 if sc[a] > sc[b] else 0.5 if sc[a] == sc[b] else 0.0 for _s, _seat, sc in ms)
    return wins / len(ms)


def win_matrix(ms: list[tuple[int, str, dict[str, float]]], policies: list[str]) -> Any:
    """One row per ordered pair of policies: wins share of the first and its bootstrap 95% CI over seeds."""
    import pandas as pd

    from workers.stats import bootstrap_seeds

    by_seed: dict[int, list[tuple[int, str, dict[str, float]]]] = {}
    for m in ms:
        by_seed.setdefault(m[0], []).append(m)
    seeds = sorted(by_seed)
    rows = []
    for a in policies:
        for b in policies:
            if a == b:
                continue
            share = win_share(ms, a, b)
            def stat(ss: list[int], a: str = a, b: str = b) -> float:
                return win_share([m for s in ss for m in by_seed[s]], a, b)

            lo, hi = bootstrap_seeds(seeds, stat)
            rows.append({"policy": a, "opponent": b, "matches": len(ms), "win_share": share, "ci_lo": lo, "ci_hi": hi})
    return pd.DataFrame(rows, columns=["policy", "opponent", "matches", "win_share", "ci_lo", "ci_hi"])


def leaderboard(scores: Any, kind: str, policies: list[str]) -> tuple[Any, Any]:
    """(leaderboard, win matrix) of one faction kind."""
    import pandas as pd

    ms = matches(scores, kind, policies)
    rt = ratings(ms, policies)
    wm = win_matrix(ms, policies)
    mine = scores[scores["kind"] == kind]
    rows = []
    for p in policies:
        s = mine[mine["policy"] == p]["score"]
        vs = wm[wm["policy"] == p]["win_share"]
        rows.append({"kind": kind, "policy": p, "mu": rt[p][0], "sigma": rt[p][1], "ordinal": rt[p][2],
                     "matches": len(ms), "mean_score": float(s.mean()) if len(s) else math.nan,
                     "median_score": float(s.median()) if len(s) else math.nan,
                     "win_share": float(vs.mean()) if len(vs) else math.nan})
    lb = pd.DataFrame(rows).sort_values(["ordinal", "policy"], ascending=[False, True], kind="stable")
    lb.insert(0, "rank", range(1, len(lb) + 1))
    return lb.reset_index(drop=True), wm.assign(kind=kind)


def score_distribution(scores: Any) -> Any:
    """count, mean, sd and quantiles of the scores per kind and policy."""
    g = scores.groupby(["kind", "policy"], sort=True)["score"]
    d = g.describe(percentiles=[0.05, 0.25, 0.5, 0.75, 0.95]).reset_index()
    d["count"] = d["count"].astype("int64")
    d["unit"] = [scores[scores["kind"] == k]["unit"].iloc[0] for k in d["kind"]]
    return d


# ---- writing -----------------------------------------------------------------------------------
def _fmt(x: float, nd: int = 2) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def markdown(t: Tournament, boards: dict[str, Any], wins: dict[str, Any], dist: Any, *, command: str = "",
             lang: str = "en") -> str:
    from workers.report.names import kind_label

    lines = [f"# Tournament on {t.name}: {', '.join(t.policies)}", ""]
    if command:
        lines += ["```sh", command, "```", ""]
    lines += [f"{len(t.seeds)} seeds ({_seed_text(t.seeds)}), {len(t.policies)} seat rotations: every policy plays every "
              f"seat of each faction kind on every seed. A match is one seat on one seed, its policies ranked by "
              f"the seat's final score (docs/scoring.md); ratings are openskill Plackett-Luce (ordinal = mu − 3·sigma); "
              f"win shares count a tie as a half, with a 95% percentile bootstrap interval over seeds.", ""]
    for kind, lb in boards.items():
        unit = dist[dist["kind"] == kind]["unit"].iloc[0] if (dist["kind"] == kind).any() else ""
        lines += [f"## {kind_label(kind, lang)} — {len(t.seats[kind])} seats, {int(lb['matches'].iloc[0])} matches", "",
                  f"| rank | policy | ordinal | mu | sigma | mean score ({unit}) | median score | share of pairwise wins |",
                  "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for _, r in lb.iterrows():
            lines.append(f"| {r['rank']} | `{r['policy']}` | {_fmt(r['ordinal'])} | {_fmt(r['mu'])} | {_fmt(r['sigma'])} | "
                         f"{_fmt(r['mean_score'], 1)} | {_fmt(r['median_score'], 1)} | {_fmt(r['win_share'])} |")
        lines += ["", "Win share of the row against the column [95% CI]:", "",
                  "| | " + " | ".join(f"`{p}`" for p in t.policies) + " |",
                  "| --- |" + " --- |" * len(t.policies)]
        w = wins[kind]
        for a in t.policies:
            cells = []
            for b in t.policies:
                if a == b:
                    cells.append("—")
                    continue
                r = w[(w["policy"] == a) & (w["opponent"] == b)].iloc[0]
                cells.append(f"{_fmt(r['win_share'])} [{_fmt(r['ci_lo'])}, {_fmt(r['ci_hi'])}]")
            lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
        lines += ["", f"Scores ({unit}):", "", "| policy | n | mean | sd | 5% | median | 95% |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for _, r in dist[dist["kind"] == kind].iterrows():
            lines.append(f"| `{r['policy']}` | {r['count']} | {_fmt(r['mean'], 1)} | {_fmt(r['std'], 1)} | {_fmt(r['5%'], 1)} | "
                         f"{_fmt(r['50%'], 1)} | {_fmt(r['95%'], 1)} |")
        lines.append("")
    return "\n".join(lines)


def _seed_text(seeds: list[int]) -> str:
    if seeds and seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"{seeds[0]}..{seeds[-1]}"
    return ",".join(map(str, seeds[:10])) + ("…" if len(seeds) > 10 else "")


def ratings_figure(lb: Any, kind: str, scenario: str, n_seeds: int, lang: str = "en") -> Any:
    import numpy as np

    from workers.report.draw import legend_outside, new_figure, palette
    from workers.report.names import kind_label

    fig, (ax,) = new_figure(1, panel_height=0.9 + 0.5 * len(lb), width=9.0)
    y = np.arange(len(lb))[::-1]
    colours = palette(len(lb))
    for i, (_, r) in enumerate(lb.iterrows()):
        ax.errorbar([r["mu"]], [y[i]], xerr=[[3 * r["sigma"]], [3 * r["sigma"]]], fmt="o", color=colours[i], capsize=4,
                    label=f"{r['policy']}: mu ± 3σ")
        ax.plot([r["ordinal"]], [y[i]], marker="|", ms=14, color="black")
    ax.plot([], [], marker="|", ms=10, color="black", ls="none", label="ordinal (mu − 3σ)")
    ax.set_yticks(y, list(lb["policy"]))
    ax.set_xlabel("openskill rating (Plackett-Luce)" if lang == "en" else "classement openskill (Plackett-Luce)")
    ax.grid(axis="x", alpha=0.3)
    legend_outside(ax)
    what = "ratings" if lang == "en" else "classement"
    fig.suptitle(f"{kind_label(kind, lang)} — {what} — {scenario}, {n_seeds} seeds", fontsize=12, fontweight="bold")
    return fig


def winrates_figure(wm: Any, policies: list[str], kind: str, scenario: str, n_seeds: int, lang: str = "en") -> Any:
    import numpy as np

    from workers.report.draw import new_figure
    from workers.report.names import kind_label

    k = len(policies)
    fig, (ax,) = new_figure(1, panel_height=1.2 + 0.8 * k, width=3.5 + 1.8 * k)
    m = np.full((k, k), np.nan)
    for _, r in wm.iterrows():
        m[policies.index(r["policy"]), policies.index(r["opponent"])] = r["win_share"]
    mesh = ax.pcolormesh(np.arange(k + 1) - 0.5, np.arange(k + 1) - 0.5, np.ma.masked_invalid(m), cmap="RdBu",
                         vmin=0, vmax=1, edgecolors="white", linewidth=1)
    for _, r in wm.iterrows():
        i, j = policies.index(r["policy"]), policies.index(r["opponent"])
        ax.text(j, i, f"{r['win_share']:.2f}\n[{r['ci_lo']:.2f}, {r['ci_hi']:.2f}]", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k), policies)
    ax.set_yticks(range(k), policies)
    ax.set_ylim(k - 0.5, -0.5)
    ax.set_xlabel("opponent" if lang == "en" else "adversaire")
    ax.set_ylabel("policy" if lang == "en" else "politique")
    bar = fig.colorbar(mesh, ax=ax, pad=0.02)
    bar.set_label("win share of the row (ties ½), 95% CI" if lang == "en" else "part de victoires de la ligne, IC 95 %")
    what = "win shares" if lang == "en" else "parts de victoires"
    fig.suptitle(f"{kind_label(kind, lang)} — {what} — {scenario}, {n_seeds} seeds", fontsize=12, fontweight="bold")
    return fig


def scores_figure(scores: Any, policies: list[str], kind: str, scenario: str, n_seeds: int, lang: str = "en") -> Any:
    import numpy as np

    from workers.report.draw import legend_outside, new_figure, palette
    from workers.report.names import kind_label

    mine = scores[scores["kind"] == kind]
    unit = mine["unit"].iloc[0] if len(mine) else ""
    seats = list(dict.fromkeys(mine["seat"]))
    fig, (ax,) = new_figure(1, panel_height=0.9 + 0.45 * len(seats) * len(policies) + 0.3, width=10.0)
    colours = palette(len(policies))
    rng = np.random.default_rng(0)
    ticks, labels = [], []
    pos = 0.0
    for seat in seats:
        for j, p in enumerate(policies):
            v = mine[(mine["seat"] == seat) & (mine["policy"] == p)]["score"].to_numpy(dtype=float)
            if len(v):
                ax.boxplot([v], positions=[pos], orientation="horizontal", widths=0.6, showfliers=False,
                           medianprops={"color": "black", "lw": 1.5})
                ax.scatter(v, pos + rng.uniform(-0.18, 0.18, len(v)), s=9, color=colours[j], alpha=0.7, zorder=3,
                           label=p if seat == seats[0] else None)
            pos += 1
        ticks.append(pos - (len(policies) + 1) / 2)
        labels.append(seat.split(":", 1)[1])
        pos += 0.6
    ax.set_yticks(ticks, labels)
    ax.set_ylim(pos - 0.6, -1)
    ax.set_xlabel(f"final score ({unit})" if lang == "en" else f"score final ({unit})")
    ax.grid(axis="x", alpha=0.3)
    legend_outside(ax, title="policy" if lang == "en" else "politique")
    what = "scores by seat and policy" if lang == "en" else "scores par siège et politique"
    fig.suptitle(f"{kind_label(kind, lang)} — {what} — {scenario}, {n_seeds} seeds", fontsize=12, fontweight="bold")
    return fig


def write_tournament(t: Tournament, results: list[list[dict[str, Any]]], out: Path, *, lang: str = "en",
                     command: str = "") -> list[Path]:
    import pandas as pd

    from workers.findings import findings, write_findings
    from workers.report.draw import png_bytes

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    sc_dir = out / "scenarios"
    sc_dir.mkdir(exist_ok=True)
    for r, (_label, text) in enumerate(t.texts):
        p = sc_dir / f"rotation-{r}.toml"
        p.write_text(text, encoding="utf-8")
        written.append(p)
    from workers.output import write_results
    from workers.tidy import written_paths

    flat = [res for rs in results for res in rs]
    write_results(out / "results.parquet", flat, extra=[{"rotation": r} for r, rs in enumerate(results) for _ in rs])
    written += written_paths(out / "results.parquet")
    scores = scores_table(t, results)
    boards, wins = {}, {}
    for kind in t.seats:
        boards[kind], wins[kind] = leaderboard(scores, kind, t.policies)
    dist = score_distribution(scores)
    tables = {"leaderboard": pd.concat(boards.values(), ignore_index=True),
              "winrates": pd.concat(wins.values(), ignore_index=True), "scores": dist}
    for stem, df in tables.items():
        df.to_csv(out / f"{stem}.csv", index=False)
        df.to_parquet(out / f"{stem}.parquet", index=False)
        written += [out / f"{stem}.csv", out / f"{stem}.parquet"]
    md = markdown(t, boards, wins, dist, command=command, lang=lang)
    (out / "tournament.md").write_text(md, encoding="utf-8")
    js = {"scenario": t.name, "policies": t.policies, "seeds": t.seeds, "command": command,
          "seats": t.seats, "leaderboard": {k: v.to_dict(orient="records") for k, v in boards.items()},
          "winrates": {k: v.to_dict(orient="records") for k, v in wins.items()}}
    (out / "tournament.json").write_text(json.dumps(js, indent=1, sort_keys=True, default=float) + "\n", encoding="utf-8")
    written += [out / "tournament.md", out / "tournament.json"]
    n = len(t.seeds)
    for kind in t.seats:
        figs = {f"ratings_{kind}": ratings_figure(boards[kind], kind, t.name, n, lang),
                f"winrates_{kind}": winrates_figure(wins[kind], t.policies, kind, t.name, n, lang),
                f"scores_{kind}": scores_figure(scores, t.policies, kind, t.name, n, lang)}
        for name, fig in figs.items():
            (out / f"{name}.png").write_bytes(png_bytes(fig))
            written.append(out / f"{name}.png")

    def replay(row: Any) -> str:
        return f"realmsim run {shlex.quote(str(sc_dir / f'rotation-{int(row['rotation'])}.toml'))} --seed {int(row['seed'])}"

    written += write_findings(findings(out / "results.parquet", source=f"tournament of {t.name}", replay=replay), out)
    return written


__all__ = ["Tournament", "cmd_tournament", "leaderboard", "parse_policies", "plan_tournament", "ratings", "scores_table",
           "win_matrix", "write_tournament"]
