"""The mutation score of the rules, per system (issue 10; target ≥ 90% killed on ≥ 200 mutants each).

    python bench/mutation.py [--systems cv,gw,km,mn] [--mutants 200] [--seed 1] [--fresh] [--out DIR]
    python bench/mutation.py --report DIR [--systems …] [--seed S] [--fresh]   # figures of an earlier run

Runs ``tools/mutate.py`` for each system (a seeded sample of mutants of ``sim/rules``, each against
the tests that execute the mutated statement) and prints, per system: mutants, killed, equivalent,
survived (open), uncovered, the score with its 95% interval (Wilson) and the time taken, then every
survivor (to be killed by a new test or listed as equivalent with the reason). ``--out DIR`` keeps
each system's verdicts as JSON lines (``DIR/SYSTEM.jsonl``, the format of ``tools/mutate.py
--out``); ``--report DIR`` judges nothing and prints the figures of such files, after checking that
each holds the verdicts of exactly the sample named by ``--mutants``/``--seed``/``--fresh``.

The sample: seed 1 with 200 mutants is the sample of record (``tools/mutants-sample.txt``); any other
seed, or ``--fresh``, draws the 200 mutants whose ids hash lowest under the seed (issue 29: a sample
the tests were not written against says how well they pin the rules at large).

A survivor judged *equivalent* (no test could tell it from the rules: it changes no outcome, no event
and no message) is listed, with the reason, in ``tools/mutants-equivalent.txt`` (``system<TAB>id<TAB>
reason``, one a line; a mutant is equivalent whatever sample draws it). The score is printed as
killed / all and, beside it, killed / (all − equivalent), each with its 95% Wilson interval; every
survivor not listed is printed as *open*. The list is checked: an entry that names no mutant of the
current source (its statement has changed since), or one the tests now kill, is reported.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import mutate  # noqa: E402

EQUIVALENT = Path(__file__).resolve().parent.parent / "tools" / "mutants-equivalent.txt"
Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


def equivalents() -> dict[tuple[str, str], str]:
    """{(system, mutant id): reason} of tools/mutants-equivalent.txt."""
    out: dict[tuple[str, str], str] = {}
    if EQUIVALENT.exists():
        for n, line in enumerate(EQUIVALENT.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3 or not parts[2].strip():
                raise SystemExit(f"{EQUIVALENT}:{n}: expected system<TAB>mutant id<TAB>reason, found {line!r}")
            out[(parts[0].strip(), parts[1].strip())] = parts[2].strip()
    return out


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion of ``k`` successes in ``n`` trials (95% by default):
    unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not empty at p = 1 (k = n)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Figures:
    """One system's figures for one sample."""

    system: str
    mutants: int
    killed: int  # killed or timed out
    equivalent: int  # survivors listed in tools/mutants-equivalent.txt
    open: int  # survivors (uncovered included) not listed: the rules a test could pin and none does
    uncovered: int  # of the survivors, those no test executes
    seconds: float

    @property
    def score(self) -> float:
        return self.killed / self.mutants if self.mutants else 0.0

    @property
    def judged(self) -> int:
        """The mutants a test could tell from the rules: all but the equivalent ones."""
        return self.mutants - self.equivalent

    @property
    def score_eq(self) -> float:
        return self.killed / self.judged if self.judged else 1.0


def figures(system: str, verdicts: list[mutate.Verdict], eq: dict[tuple[str, str], str], seconds: float,
            pool_ids: set[str]) -> tuple[Figures, list[str], list[str]]:
    """(figures, survivor lines, problems of the equivalents list) of one system's verdicts."""
    killed = sum(v.status in ("killed", "timeout") for v in verdicts)
    uncovered = sum(v.status == "uncovered" for v in verdicts)
    status = {v.mutant.id: v.status for v in verdicts}
    problems: list[str] = []
    for (sys_, mid), _reason in sorted(eq.items()):
        if sys_ != system:
            continue
        if mid not in pool_ids:
            problems.append(f"{system} {mid}: listed as equivalent, but no mutant of the current source has this id "
                            f"(its statement changed since: judge it again or drop the line)")
        elif status.get(mid) in ("killed", "timeout"):
            problems.append(f"{system} {mid}: listed as equivalent, but the tests kill it")
    survivors: list[str] = []
    n_eq = 0
    for v in verdicts:
        if v.status in ("survived", "uncovered"):
            reason = eq.get((system, v.mutant.id))
            n_eq += reason is not None
            fate = f"equivalent: {reason}" if reason else "OPEN"
            survivors.append(f"{system}  {v.mutant.id:10} {v.status:9} {v.mutant.path}:{v.mutant.line}  {v.mutant.op}  — {fate}")
    f = Figures(system, len(verdicts), killed, n_eq, len(verdicts) - killed - n_eq, uncovered, seconds)
    return f, survivors, problems


def read_verdicts(path: Path, sample: list[mutate.Mutant]) -> tuple[list[mutate.Verdict], list[str]]:
    """The verdicts of an ``--out`` file (of ``tools/mutate.py`` or of this bench), in the sample's
    order, and what does not match the sample (a verdict of another sample, or of an older source)."""
    by_id = {m.id: m for m in sample}
    got: dict[str, mutate.Verdict] = {}
    problems: list[str] = []
    for _, record, fields in mutate.read_verdict_lines(path, "--report"):
        mid = record["id"]
        m = by_id.get(mid)
        if m is None:
            problems.append(f"{path}: {mid} is not a mutant of this sample")
            continue
        if asdict(m) != record:
            problems.append(f"{path}: {mid} was judged on another version of its statement's file (moved since?)")
        got[mid] = mutate.Verdict(m, *fields)
    missing = [m.id for m in sample if m.id not in got]
    if missing:
        problems.append(f"{path}: {len(missing)} mutant(s) of the sample have no verdict: {', '.join(missing[:8])}"
                        f"{' …' if len(missing) > 8 else ''}")
    return [got[m.id] for m in sample if m.id in got], problems


def table(rows: list[Figures]) -> str:
    head = (f"{'system':6} {'mutants':>7} {'killed':>6} {'equiv.':>6} {'open':>4} {'uncov.':>6} "
            f"{'score (95% CI)':>22} {'w/o equivalents (95% CI)':>26} {'time':>6}")
    out = [head]
    for f in rows:
        lo, hi = wilson(f.killed, f.mutants)
        lo_eq, hi_eq = wilson(f.killed, f.judged)
        out.append(f"{f.system:6} {f.mutants:7d} {f.killed:6d} {f.equivalent:6d} {f.open:4d} {f.uncovered:6d} "
                   f"{f.score:7.1%} [{lo:5.1%}, {hi:5.1%}] {f.score_eq:11.1%} [{lo_eq:5.1%}, {hi_eq:5.1%}] "
                   f"{f.seconds:5.0f}s   target ≥ 90.0% (w/o equivalents): {'met' if f.score_eq >= 0.9 else 'NOT MET'}")
    out.append("killed: killed or timed out; open: survivors (uncovered ones included) not listed as equivalent; "
               "score: killed / mutants; w/o equivalents: killed / (mutants − equivalent)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", default="cv,gw,km,mn", help="comma list among cv, gw, km, mn, link")
    ap.add_argument("--mutants", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1,
                    help="the sample's seed (default 1: with 200 mutants, the sample of record, unless --fresh)")
    ap.add_argument("--fresh", action="store_true",
                    help="a new sample drawn from the seed, not the sample of record (tools/mutants-sample.txt)")
    ap.add_argument("--out", default=None, metavar="DIR", help="keep each system's verdicts in DIR/SYSTEM.jsonl")
    ap.add_argument("--resume", default=None, metavar="DIR",
                    help="keep the kills of an earlier --out DIR and judge the rest (after new tests)")
    ap.add_argument("--report", default=None, metavar="DIR",
                    help="judge nothing: print the figures of the verdicts in DIR/SYSTEM.jsonl (of this sample)")
    a = ap.parse_args(argv)
    systems = [s.strip() for s in a.systems.split(",") if s.strip()]
    for s in systems:
        if s not in mutate.SYSTEMS:
            ap.error(f"--systems: unknown system {s!r} (expected some of {', '.join(sorted(mutate.SYSTEMS))})")
    if a.report and (a.out or a.resume):
        ap.error("--report judges nothing: it takes no --out or --resume")
    eq = equivalents()
    rows: list[Figures] = []
    survivors: list[str] = []
    problems: list[str] = []
    record = (a.seed, a.mutants) == (1, 200) and not a.fresh
    print(f"sample: {a.mutants} mutants per system, seed {a.seed}"
          f"{' (the sample of record, tools/mutants-sample.txt)' if record else ' (fresh)'}", file=sys.stderr, flush=True)
    for system in systems:
        t = time.perf_counter()
        sample = mutate.sample(system, a.mutants, a.seed, fresh=a.fresh)
        if a.report:
            verdicts, bad = read_verdicts(Path(a.report) / f"{system}.jsonl", sample)
            problems += bad
            took = sum(v.seconds for v in verdicts)
        else:
            known: dict[str, mutate.Verdict] = {}
            if a.resume and (Path(a.resume) / f"{system}.jsonl").exists():
                known = mutate.known_kills(Path(a.resume) / f"{system}.jsonl", sample)
            verdicts = list(mutate.run_mutants(system, sample, known=known))
            took = time.perf_counter() - t
            if a.out:
                Path(a.out).mkdir(parents=True, exist_ok=True)
                with open(Path(a.out) / f"{system}.jsonl", "w", encoding="utf-8") as fh:
                    for v in verdicts:
                        fh.write(mutate.verdict_line(v))
        f, surv, bad = figures(system, verdicts, eq, took, {m.id for m in mutate.pool_of(system)})
        rows.append(f)
        survivors += surv
        problems += bad
        print(f"{system}: {f.score:.1%}, {f.score_eq:.1%} without equivalents ({took:.0f} s)", file=sys.stderr, flush=True)
    print(table(rows))
    if survivors:
        print("\nsurvivors (kill with a test, or list as equivalent with the reason in tools/mutants-equivalent.txt):")
        print("\n".join(survivors))
    if problems:
        print("\nproblems:")
        print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
