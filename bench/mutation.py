"""The mutation score of the rules, per system (issue 10; target ≥ 90% killed on ≥ 200 mutants each).

    python bench/mutation.py [--systems cv,gw,km,mn] [--mutants 200] [--seed 1] [--out DIR]

Runs ``tools/mutate.py`` for each system (a seeded sample of mutants of ``sim/rules``, each against
the tests that execute the mutated statement) and prints, per system: mutants, killed, survived,
uncovered, the score and the time taken, then every survivor (to be killed by a new test or listed as
equivalent with the reason). ``--out DIR`` keeps each system's verdicts as JSON lines.

A survivor judged *equivalent* (no test could tell it from the rules: it changes no outcome, no event
and no message) is listed, with the reason, in ``tools/mutants-equivalent.txt`` (``system<TAB>id<TAB>
reason``, one a line); the score is printed as killed / all and, beside it, killed / (all − equivalent),
and every survivor not listed there is printed as *open*. The list is checked against the sample: an
entry that names a mutant the sample does not have, or one the tests now kill, is reported.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import mutate  # noqa: E402

EQUIVALENT = Path(__file__).resolve().parent.parent / "tools" / "mutants-equivalent.txt"


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", default="cv,gw,km,mn", help="comma list among cv, gw, km, mn, link")
    ap.add_argument("--mutants", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fresh", action="store_true",
                    help="a new sample drawn from the seed, not the sample of record (tools/mutants-sample.txt)")
    ap.add_argument("--out", default=None, metavar="DIR")
    ap.add_argument("--resume", default=None, metavar="DIR",
                    help="keep the kills of an earlier --out DIR and judge the rest (after new tests)")
    a = ap.parse_args()
    eq = equivalents()
    rows = []
    survivors: list[str] = []
    problems: list[str] = []
    for system in a.systems.split(","):
        t = time.perf_counter()
        sample = mutate.sample(system, a.mutants, a.seed, fresh=a.fresh)
        known: dict[str, mutate.Verdict] = {}
        if a.resume and (Path(a.resume) / f"{system}.jsonl").exists():
            known = mutate.known_kills(Path(a.resume) / f"{system}.jsonl", sample)
        verdicts = list(mutate.run_mutants(system, sample, known=known))
        took = time.perf_counter() - t
        c = {s: sum(v.status == s for v in verdicts) for s in ("killed", "timeout", "survived", "uncovered")}
        ids = {v.mutant.id: v for v in verdicts}
        n_eq = 0
        for (sys_, mid), _reason in eq.items():
            if sys_ != system:
                continue
            if mid not in ids:
                problems.append(f"{system} {mid}: listed as equivalent, not in the sample")
            elif ids[mid].status in ("killed", "timeout"):
                problems.append(f"{system} {mid}: listed as equivalent, but the tests kill it")
            else:
                n_eq += 1
        killed = c["killed"] + c["timeout"]
        rows.append((system, len(verdicts), killed, c["survived"], c["uncovered"], mutate.score(verdicts),
                     n_eq, killed / (len(verdicts) - n_eq) if len(verdicts) > n_eq else 1.0, took))
        for v in verdicts:
            if v.status in ("survived", "uncovered"):
                reason = eq.get((system, v.mutant.id))
                fate = f"equivalent: {reason}" if reason else "OPEN"
                survivors.append(f"{system}  {v.mutant.id:14} {v.status:9} {v.mutant.path}:{v.mutant.line}  {v.mutant.op}  — {fate}")
        if a.out:
            Path(a.out).mkdir(parents=True, exist_ok=True)
            with open(Path(a.out) / f"{system}.jsonl", "w", encoding="utf-8") as fh:
                for v in verdicts:
                    fh.write(mutate.verdict_line(v))
        print(f"{system}: {rows[-1][5]:.1%} ({took:.0f} s)", file=sys.stderr, flush=True)
    print(f"{'system':6} {'mutants':>7} {'killed':>6} {'survived':>8} {'uncovered':>9} {'score':>6} "
          f"{'equivalent':>10} {'w/o eq.':>7} {'time':>7}")
    for s, n, k, sv, u, sc, n_eq, sc_eq, took in rows:
        print(f"{s:6} {n:7d} {k:6d} {sv:8d} {u:9d} {sc:6.1%} {n_eq:10d} {sc_eq:7.1%} {took:6.0f}s   "
              f"target ≥ 90.0% killed: {'met' if sc >= 0.9 else 'NOT MET'}")
    if survivors:
        print("\nsurvivors (kill with a test, or list as equivalent with the reason in tools/mutants-equivalent.txt):")
        print("\n".join(survivors))
    if problems:
        print("\ntools/mutants-equivalent.txt:")
        print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
