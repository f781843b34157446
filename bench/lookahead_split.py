"""Where a lookahead seat's campaign spends its CPU: the rollouts' set-up (decoding the checkpoint,
building the model), their replay of the hour up to the decision, and their play from the candidate
to the horizon; beside the all-heuristic campaign of the same seed (docs/performance.md, "A cheaper
look-ahead").

    .venv/bin/python bench/lookahead_split.py --kind kingdom --seeds 1 --seat 0

Timers wrap ``agents.policies.lookahead.play`` (CPU time, ``time.process_time``); the choices are
those of the campaign without them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_quality import SCENARIOS, seats_of  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", choices=sorted(SCENARIOS), default="kingdom")
    ap.add_argument("--seeds", default="1", help="comma-separated seeds (default 1)")
    ap.add_argument("--seat", type=int, default=0, help="which seat of the scenario plays lookahead (default the first)")
    args = ap.parse_args(argv)

    import agents.policies.lookahead as L
    from agents.campaign import run_campaign
    from agents.variants import variant

    name = SCENARIOS[args.kind]
    seat = seats_of(name, args.kind)[args.seat]
    t: dict[str, Any] = {}
    orig_play, orig_model, orig_switch = L.play, L.new_model, L._Rollout.switch

    def new_model(*a: Any, **k: Any) -> Any:
        m = orig_model(*a, **k)
        t["model"] = time.process_time()
        return m

    def switch(self: Any) -> None:
        t["switch"] = time.process_time()
        orig_switch(self)

    def play(*a: Any, **k: Any) -> Any:
        t.pop("switch", None)
        t0 = time.process_time()
        r = orig_play(*a, **k)
        t1 = time.process_time()
        tm, ts = t.get("model", t0), t.get("switch", t1)
        for part, dt in (("setup", tm - t0), ("replay", ts - tm), ("horizon", t1 - ts)):
            t[part] = t.get(part, 0.0) + dt
        t["rollouts"] = t.get("rollouts", 0) + 1
        return r

    L.play, L.new_model, L._Rollout.switch = play, new_model, switch  # type: ignore[assignment,method-assign]
    print(f"lookahead_split: {name}, lookahead seat {seat}; CPU seconds")
    for seed in [int(s) for s in args.seeds.split(",")]:
        for part in ("setup", "replay", "horizon", "rollouts"):
            t[part] = 0
        c0 = time.process_time()
        run_campaign(variant(name, policy="heuristic"), seed, collect=False)
        heur = time.process_time() - c0
        c0 = time.process_time()
        run_campaign(variant(name, policy="heuristic", seats={seat: "lookahead"}), seed, collect=False)
        look = time.process_time() - c0
        print(f"  seed {seed}: heuristic {heur:.2f}  lookahead {look:.2f} ({look / heur:.1f}x)  rollouts {t['rollouts']}: "
              f"set-up {t['setup']:.2f}, replay {t['replay']:.2f}, horizon {t['horizon']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
