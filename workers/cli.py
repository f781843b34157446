"""The ``realmsim`` command line.

A person's mistake (a bad scenario, an unknown name, a bad option) gets a message and exit status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sim.errors import RealmsimError

DEFAULT_SCENARIO = "caravan-crossing"


class UsageError(RealmsimError):
    """A bad command-line option value."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="realmsim", description="Simulate multi-faction tabletop campaigns.")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")

    r = sub.add_parser("run", help="run one campaign and print its chronicle and summary")
    r.add_argument("scenario", nargs="?", default=DEFAULT_SCENARIO, help=f"built-in name or path (default {DEFAULT_SCENARIO})")
    r.add_argument("--seed", type=int, default=None, help="root seed (default: the scenario's)")
    r.add_argument("--json", action="store_true", help="print one JSON object instead of the chronicle")
    r.add_argument("--ledger", metavar="FILE", help="write the event ledger (msgpack stream; .jsonl for JSON lines)")
    r.add_argument("--lang", choices=["en", "fr"], default=None, help="chronicle language (default: the scenario's)")
    r.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key, e.g. cv.fatigued_penalty=3")

    v = sub.add_parser("validate", help="check a scenario file and report every problem")
    v.add_argument("file", help="built-in name or path")

    sub.add_parser("scenarios", help="list the built-in scenarios")
    return p


def parse_overrides(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, eq, raw = item.partition("=")
        if not eq or not key:
            raise UsageError(f"--set {item!r}: expected KEY=VALUE, e.g. cv.fatigued_penalty=3")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip()] = value
    return out


def cmd_run(args: argparse.Namespace) -> int:
    from agents.campaign import finish, prepare_campaign
    from agents.chronicle import ChronicleWriter
    from scenarios.loader import load_scenario

    loaded = load_scenario(args.scenario)
    lang = args.lang or loaded.scenario.scenario.lang
    writer = None if args.json else ChronicleWriter(sys.stdout, lang)
    model = prepare_campaign(
        loaded,
        args.seed,
        overrides=parse_overrides(args.set),
        keep_ledger=bool(args.ledger),
        listeners=[writer] if writer else [],
    )
    if writer:
        writer.attach(model)
    model.run()
    res = finish(model)
    if args.ledger:
        write_ledger(Path(args.ledger), res.ledger.events)
    if args.json:
        print(json.dumps(res.as_json(), sort_keys=True))
    else:
        print()
        print(f"Summary of {res.scenario} (seed {res.seed}): {res.events} events, ledger sha256 {res.ledger_sha256}")
        for k, v in res.summary.items():
            print(f"  {k:<36} {v}")
    return 0


def write_ledger(path: Path, events: list[Any]) -> None:
    from sim.events import encode_events

    if path.suffix == ".jsonl":
        import msgspec

        with path.open("wb") as f:
            for e in events:
                f.write(msgspec.json.encode(e) + b"\n")
    else:
        path.write_bytes(encode_events(events))


def cmd_validate(args: argparse.Namespace) -> int:
    from scenarios.loader import load_scenario

    loaded = load_scenario(args.file)
    sc = loaded.scenario
    print(f"{loaded.label}: ok — scenario {sc.scenario.name!r}, systems {', '.join(sc.scenario.systems)}")
    return 0


def cmd_scenarios(args: argparse.Namespace) -> int:
    from scenarios.loader import builtin_names, load_scenario

    for name in builtin_names():
        sc = load_scenario(name).scenario.scenario
        print(f"{name:<20} {', '.join(sc.systems):<14} {sc.title}")
    return 0


COMMANDS = {"run": cmd_run, "validate": cmd_validate, "scenarios": cmd_scenarios}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.cmd:
        parser.print_help()
        return 2
    try:
        return COMMANDS[args.cmd](args)
    except RealmsimError as e:
        print(f"realmsim {args.cmd}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"realmsim {args.cmd}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
