"""The PettingZoo environment's cost: decisions per second through ``agents.env`` with a random outside
agent, against the same campaign run without the environment (``replay_actions``: the same answers,
given in the campaign's own thread). The difference is the hand-off between the two threads plus the
observations (features, mask, the legal orders' labels) and the rewards (scores) at each step.

    .venv/bin/python bench/bench_env.py [--scenario caravan-crossing] [--seed 1] [--until 1y] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.env import random_episode, raw_env, replay_actions  # noqa: E402


def episode(scenario: str, seed: int, until: str | None) -> tuple[float, list[tuple[str, int]]]:
    e = raw_env(scenario, seed, until=until)
    t = time.perf_counter()
    played = random_episode(e, rng_seed=0)
    dt = time.perf_counter() - t
    e.close()
    return dt, played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="caravan-crossing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--until", default=None, help="stop early (as realmsim run --until)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    env_s: list[float] = []
    plain_s: list[float] = []
    played: list[tuple[str, int]] = []
    for _ in range(args.repeat):
        dt, played = episode(args.scenario, args.seed, args.until)
        env_s.append(dt)
        t = time.perf_counter()
        replay_actions(args.scenario, args.seed, played, until=args.until)
        plain_s.append(time.perf_counter() - t)
    n = len(played)
    best_env, best_plain = min(env_s), min(plain_s)
    print(f"{args.scenario} seed {args.seed} until {args.until or 'the end'}: {n} decisions by the outside agent")
    print(f"  through the environment: {best_env:.3f} s best of {args.repeat} ({n / best_env:,.0f} decisions/s)")
    print(f"  same answers, no env:    {best_plain:.3f} s ({n / best_plain:,.0f} decisions/s)")
    print(f"  environment overhead:    {(best_env - best_plain) / max(n, 1) * 1e3:.2f} ms per decision")


if __name__ == "__main__":
    main()
