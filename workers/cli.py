"""The ``realmsim`` command line.

A person's mistake (a bad scenario, an unknown name, a bad option) gets a message and exit status 2,
never a traceback. Exit statuses: 0 done; 1 a batch that did not complete (results missing or
dead-lettered); 2 bad input (scenario, --seeds, --out, a malformed --redis URL, an unknown batch);
3 Redis cannot be reached; 130 interrupted. Batch commands: see docs/workers.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from sim.errors import RealmsimError
from workers.batch import UsageError, check_seconds
from workers.options import parse_until as parse_until  # where the commands and the server take it

DEFAULT_SCENARIO = "realm"

__all__ = ["UsageError", "main"]


def _parser(cmd: str | None = "*") -> argparse.ArgumentParser:
    """The whole command line; ``cmd``: the command asked for (``"*"`` every one). The options of
    ``worker`` and ``serve`` are added only when that command is asked for: their modules import
    redis and the HTTP server, which ``--help``, ``run`` and ``validate`` do without (a fast start)."""
    p = argparse.ArgumentParser(prog="realmsim", description="Simulate multi-faction tabletop campaigns.")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")

    r = sub.add_parser("run", help="run one campaign and print its chronicle and summary")
    r.add_argument("scenario", nargs="?", default=DEFAULT_SCENARIO, help=f"built-in name or path (default {DEFAULT_SCENARIO})")
    r.add_argument("--seed", type=_seed, default=None, help="root seed (default: the scenario's)")
    r.add_argument("--json", action="store_true", help="print one JSON object instead of the chronicle")
    r.add_argument("--ledger", metavar="FILE", help="write the event ledger (msgpack stream; .jsonl for JSON lines)")
    r.add_argument("--lang", choices=["en", "fr"], default=None, help="chronicle language (default: the scenario's)")
    r.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key, e.g. cv.fatigued_penalty=3")
    r.add_argument("--until", metavar="WHEN", default=None,
                   help="stop at the start of season N (or after Nd days, Nm months, Ny years) instead of the end")
    r.add_argument("--save", metavar="FILE", default=None, help="save the whole campaign where it stops (resume it later)")
    r.add_argument("--explain", nargs="?", const="*", default=None, metavar="FACTION",
                   help="under each decision, the order chosen, its alternatives and their score terms (of FACTION, e.g. kingdom:restov; default all)")

    rs = sub.add_parser("resume", help="continue a campaign saved with run --save")
    rs.add_argument("file", help="the save file")
    rs.add_argument("--json", action="store_true", help="print one JSON object instead of the chronicle")
    rs.add_argument("--ledger", metavar="FILE", help="write the whole ledger (msgpack stream; .jsonl for JSON lines)")
    rs.add_argument("--lang", choices=["en", "fr"], default=None, help="chronicle language (default: the scenario's)")
    rs.add_argument("--until", metavar="WHEN", default=None, help="stop again at WHEN (as for run) instead of the end")
    rs.add_argument("--save", metavar="FILE", default=None, help="save again where it stops")
    rs.add_argument("--explain", nargs="?", const="*", default=None, metavar="FACTION",
                    help="under each decision from here on, the order chosen, its alternatives and their score terms (as for run)")

    rp = sub.add_parser("report", help="tables and plots of a run (ledger or save file) or of a batch (.csv/.parquet)")
    rp.add_argument("input", metavar="RUN_OR_BATCH", nargs="+",
                    help="a ledger from run --ledger, a save file, or a batch results file; two batch files: compare them")
    rp.add_argument("--out", required=True, metavar="DIR", help="directory for the tables and PNG plots")
    rp.add_argument("--lang", choices=["en", "fr"], default="en", help="language of the plots (default en)")

    v = sub.add_parser("validate", help="check a scenario file and report every problem")
    v.add_argument("file", help="built-in name or path")
    v.add_argument("--faction", default=None, metavar="ID", help="also say what a (partial) state lacks for this faction")

    sub.add_parser("scenarios", help="list the built-in scenarios")

    b = sub.add_parser("batch", help="run one scenario over many seeds; write one row per seed")
    _scenario_seeds(b)
    b.add_argument("--out", required=True, metavar="FILE", help="results file, .csv or .parquet")
    b.add_argument("--detail", action="store_true",
                   help="also write FILE's .convoys table: one row per campaign and convoy (trade caravans included)")
    b.add_argument("--workers", type=int, default=None, metavar="N",
                   help="local pool size (default: the CPU count); with --redis, local workers to start (default 0)")
    _redis_options(b, required=False)
    _queue_options(b)
    _size_option(b)
    b.add_argument("--timeout", type=float, default=None, metavar="S", help="with --redis: give up after S seconds")
    b.add_argument("--partial", action="store_true", help="write the file even when some results are missing")
    b.add_argument("--job-timeout", type=float, default=None, metavar="S",
                   help="kill a job that runs longer than S seconds (default: each job's own limit from its length, "
                        "10 s + 20 s per year of campaign; with --redis, for the workers started here)")
    _resubmit_after(b)
    b.add_argument("--min-idle", type=float, default=30.0, metavar="S", help="started workers: stale-job idle time")
    b.add_argument("--max-deliveries", type=int, default=3, metavar="N",
                   help="started workers: dead-letter a job after it failed N times")
    b.add_argument("--max-deaths", type=int, default=None, metavar="N",
                   help="started workers: dead-letter a job after its workers died more than N times (default 10)")

    s = sub.add_parser("submit", help="submit a batch to Redis; print its batch id")
    _scenario_seeds(s)
    _redis_options(s)
    _queue_options(s)
    _size_option(s)
    s.add_argument("--manifest", default=None, metavar="FILE",
                   help="where to write the batch manifest (default $REALMSIM_STATE_DIR/batches/BATCH.msgpack)")

    w = sub.add_parser("worker", help="work jobs from Redis until stopped (SIGTERM) or, with --burst, drained")
    if cmd in ("*", "worker"):
        from workers.worker import add_arguments

        add_arguments(w)

    c = sub.add_parser("collect", help="wait for every result of a batch and write the results file")
    c.add_argument("batch", help="the batch id printed by submit")
    _redis_options(c)
    c.add_argument("--out", required=True, metavar="FILE", help="results file, .csv or .parquet")
    c.add_argument("--detail", action="store_true", help="also write FILE's .convoys table (one row per convoy)")
    _queue_options(c)
    c.add_argument("--timeout", type=float, default=None, metavar="S", help="give up after S seconds (exit 1)")
    c.add_argument("--resubmit", action="store_true", help="submit again every job of the batch that has no result")
    c.add_argument("--resubmit-dead", action="store_true",
                   help="submit again the batch's dead-lettered jobs (with fresh failure and death counts)")
    _resubmit_after(c)
    c.add_argument("--manifest", default=None, metavar="FILE",
                   help="the batch manifest to use when Redis lost the batch (default: the one submit wrote)")
    c.add_argument("--partial", action="store_true", help="write the file even when some results are missing")
    sw = sub.add_parser("sweep", help="a grid of config values over the same seeds; one results file (docs/research.md)")
    if cmd in ("*", "sweep"):  # each command's own options are read only when it runs (a short command starts fast)
        from workers.sweep import add_arguments as sweep_arguments

        sweep_arguments(sw)
    tn = sub.add_parser("tournament", help="policies against each other on every seat, ratings and win rates (docs/research.md)")
    if cmd in ("*", "tournament"):
        from workers.tournament import add_arguments as tournament_arguments

        tournament_arguments(tn)
    sv = sub.add_parser("serve", help="the HTTP server: API, live web page, campaigns and batches (docs/server.md)")
    if cmd in ("*", "serve"):
        from workers.server.serve import add_arguments as serve_arguments

        serve_arguments(sv)
    ad = sub.add_parser("advise", help="the orders a faction would give now in a state, with reasons and odds")
    if cmd in ("*", "advise"):
        from workers.advise import add_arguments as advise_arguments

        advise_arguments(ad)
    st = sub.add_parser("state", help="state files: export the world at a season (docs/state-format.md)")
    if cmd in ("*", "state"):
        from workers.state_export import add_arguments as state_arguments

        state_arguments(st)
    from workers.options import add_allow_policies  # issue 9 (worker and serve add theirs)

    for sp in (r, rs, v, b, s, ad, st):
        add_allow_policies(sp)
    return p


def _scenario_seeds(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="built-in name or path to a .toml file")
    p.add_argument("--seeds", required=True, metavar="SEEDS", help="A..B (inclusive), N, or a comma list: 1..100,200")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")


def _redis_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    from workers.options import add_redis_arguments

    add_redis_arguments(p, required=required)


def _queue_options(p: argparse.ArgumentParser) -> None:
    from workers.options import DEFAULT_PREFIX

    p.add_argument("--queue", default=DEFAULT_PREFIX, metavar="PREFIX", help=f"Redis key prefix (default {DEFAULT_PREFIX})")


def _resubmit_after(p: argparse.ArgumentParser) -> None:
    p.add_argument("--resubmit-after", default="60", metavar="SECONDS",
                   help="queue again a job that has had no entry, no result and no dead mark for this long (deleted, "
                        "or lost by Redis), then after twice as long each time; 0 or never: do not (default 60)")


def resubmit_after(text: str) -> float | None:
    """``--resubmit-after``: seconds (> 0), or ``0`` / ``never`` for never (None)."""
    if text.strip().lower() == "never":
        return None
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--resubmit-after {text!r}: expected a number of seconds, or never") from None
    return None if value == 0 else check_seconds("--resubmit-after", value)


def _size_option(p: argparse.ArgumentParser) -> None:
    from workers.job import MAX_JOB_BYTES

    p.add_argument("--max-job-bytes", type=int, default=MAX_JOB_BYTES, metavar="N",
                   help=f"refuse a batch whose jobs are above N bytes each (default {MAX_JOB_BYTES}; workers "
                        f"dead-letter larger ones unread)")


def _seed(text: str) -> int:
    """A root seed: an integer from 0 to 2**63 - 1 (the dice's generator takes no negative seed)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 2**63 - 1, found {text!r}") from None
    if not 0 <= v < 2**63:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 2**63 - 1, found {v}")
    return v


def parse_overrides(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, eq, raw = item.partition("=")
        if not eq or not key:
            raise UsageError(f"--set {item!r}: expected KEY=VALUE, e.g. cv.fatigued_penalty=3")
        if key.strip() in out:
            raise UsageError(f"--set {item!r}: {key.strip()} is set twice (give each key once)")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip()] = value
    return out


def _metric_names(lang: str) -> Any:
    """The metrics' names in ``lang`` (French: the seeds' terms); English prints the keys. Imported
    only then: the report package loads matplotlib, which a plain run never needs."""
    if lang == "en":
        return None
    from workers.report.names import metric_name

    return metric_name


def _narrate(args: argparse.Namespace, model: Any, lang: str, *, save_label: str, save_text: str,
             overrides: dict[str, Any] | None, save_files: dict[str, str] | None = None) -> int:
    from agents.campaign import finish
    from agents.chronicle import summary_lines
    from agents.savefile import save
    from sim.calendar import date_of

    until = parse_until(args.until)
    if until is not None and until <= model.world.now:
        raise UsageError(f"--until {args.until!r} is not after the campaign's present (hour {model.world.now})")
    model.run(until)
    res = finish(model)
    stopped_early = model.world.now < model.world.end
    if args.save:
        save(model, Path(args.save), scenario_label=save_label, scenario_text=save_text, overrides=overrides,
             files=save_files)
    if args.ledger:
        write_ledger(Path(args.ledger), res.ledger.events)
    if args.json:
        out = res.as_json()
        if stopped_early:
            out["stopped_at_hour"] = model.world.now
        print(json.dumps(out, sort_keys=True))
    else:
        print()
        if stopped_early:
            print(f"Stopped at {date_of(model.world.now).format(lang)} (hour {model.world.now} of {model.world.end})." if lang != "fr"
                  else f"Arrêt le {date_of(model.world.now).format(lang)} (heure {model.world.now} sur {model.world.end}).")
        print("\n".join(summary_lines(res, lang, _metric_names(lang))))
        from workers.standings import standings_lines

        print("\n".join(standings_lines(model.world, lang)))
        if args.save:
            print(f"Saved to {args.save}; continue with: realmsim resume {args.save}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from agents.campaign import prepare_campaign
    from agents.chronicle import ChronicleWriter
    from scenarios.loader import load_scenario
    from workers.explain import explain_writer

    loaded = load_scenario(args.scenario)
    lang = args.lang or loaded.scenario.scenario.lang
    overrides = parse_overrides(args.set)
    parse_until(args.until)  # a bad value is refused before the campaign runs
    writer = None if args.json else ChronicleWriter(sys.stdout, lang)
    explainer = explain_writer(args.explain, sys.stdout, lang)
    model = prepare_campaign(
        loaded,
        args.seed,
        overrides=overrides,
        keep_ledger=bool(args.ledger or args.save),
        collect=False,  # Mesa's tables are for the Python API; what run prints and saves is the ledger's
        listeners=[w for w in (writer, explainer) if w],
        explain=explainer is not None,  # decisions are explained only when asked (issue 26)
    )
    if writer:
        writer.attach(model)
    if explainer:
        explainer.attach(model)
    return _narrate(args, model, lang, save_label=loaded.label, save_text=loaded.text, overrides=overrides,
                   save_files=loaded.files)


def cmd_resume(args: argparse.Namespace) -> int:
    from agents.chronicle import ChronicleWriter
    from agents.savefile import restore
    from workers.explain import explain_writer

    parse_until(args.until)
    model, meta = restore(Path(args.file), collect=False, explain=args.explain is not None)
    loaded = meta["scenario"]
    lang = args.lang or loaded.scenario.scenario.lang
    writer = None
    if not args.json:
        writer = ChronicleWriter(sys.stdout, lang)
        writer.attach(model)
        model.ledger.subscribe(writer)
    explainer = explain_writer(args.explain, sys.stdout, lang)
    if explainer:
        explainer.attach(model)
        model.ledger.subscribe(explainer)
    return _narrate(args, model, lang, save_label=loaded.label, save_text=loaded.text, overrides=meta["overrides"],
                   save_files=loaded.files)


def cmd_report(args: argparse.Namespace) -> int:
    import shlex

    from workers.research import report_inputs

    command = " ".join(shlex.quote(a) for a in ["realmsim", "report", *args.input, "--out", args.out,
                                                  *(["--lang", args.lang] if args.lang != "en" else [])])
    written = report_inputs([Path(p) for p in args.input], Path(args.out), lang=args.lang, command=command)
    for p in written:
        print(p)
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

    if args.faction:
        from workers.partial import cmd_validate_faction

        return cmd_validate_faction(args)

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


def _say(msg: str) -> None:
    """A line on stderr (over the progress bar's line, on a terminal)."""
    clear = "\r\x1b[K" if sys.stderr.isatty() else ""
    print(clear + msg, file=sys.stderr, flush=True)


def _plan(args: argparse.Namespace) -> Any:
    """Everything checked before anything runs or is submitted: seeds, overrides, scenario."""
    from workers.batch import BatchPlan, parse_seeds, scenario_ref

    seeds = parse_seeds(args.seeds)
    overrides = parse_overrides(args.set)
    ref, name = scenario_ref(args.scenario, overrides)
    return BatchPlan.make(ref, seeds, name=name, overrides=overrides)


def _finish(args: argparse.Namespace, out: Path, results: Any, complete: bool, message: str) -> int:
    """Write the tables (``results``: the results, or a :class:`workers.tidy.ResultsWriter` fed as they
    came) when the batch is complete or ``--partial`` is given."""
    from workers.batch import ServiceError
    from workers.output import write_results
    from workers.tidy import ResultsWriter

    if complete or args.partial:
        if isinstance(results, ResultsWriter):
            n = results.close()
        else:
            n = write_results(out, results, detail=getattr(args, "detail", False))
        _say(f"wrote {n} row{'s' if n != 1 else ''} to {out}" + ("" if complete else " (incomplete: --partial)"))
    if not complete:
        raise ServiceError(message + ("" if args.partial else f"\n  {out} was not written (use --partial to write "
                                                                  f"the rows there are)"))
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from workers.output import check_out_path
    from workers.progress import Progress

    out = check_out_path(args.out)
    if args.workers is not None and args.workers < (0 if args.redis else 1):
        raise UsageError(f"--workers {args.workers}: expected an integer >= {0 if args.redis else 1}")
    if args.timeout is not None:
        check_seconds("--timeout", args.timeout)
    if args.job_timeout is not None:
        check_seconds("--job-timeout", args.job_timeout)
    check_seconds("--min-idle", args.min_idle)
    resubmit_after(args.resubmit_after)
    if args.redis_ca and not args.redis:
        raise UsageError("--redis-ca: only with --redis")
    plan = _plan(args)
    progress = Progress(len(plan), label=f"batch {plan.name}")
    if args.redis:
        return _batch_redis(args, plan, out, progress)
    from workers.child import DEFAULT_JOB_TIMEOUT
    from workers.local import default_workers, run_local
    from workers.tidy import ResultsWriter

    writer = ResultsWriter(out, detail=args.detail)  # each result becomes table rows as it comes (bounded memory)
    dead = []
    n = args.workers or default_workers()
    for o in run_local(plan, n, on_progress=progress.update, job_timeout=args.job_timeout or DEFAULT_JOB_TIMEOUT):
        if o.result is not None:
            writer.add(o.result)
        else:
            dead.append(o)
    progress.close()
    message = ""
    if dead:
        dead.sort(key=lambda o: o.seed)
        message = f"batch {plan.id} is incomplete: {writer.n} of {len(plan)} results, {len(dead)} failed"
        for o in dead[:5]:
            message += f"\n  failed seed {o.seed}: {o.error}"
    return _finish(args, out, writer, not dead, message)


def _batch_redis(args: argparse.Namespace, plan: Any, out: Path, progress: Any) -> int:
    """``batch --redis``: submit the plan to Redis and, with ``--workers N``, work it here — N Redis
    workers in this process's threads, each with its own job process (a job never runs in the process
    that holds the queue) — as ``realmsim worker`` processes elsewhere may too."""
    import threading
    import time

    from workers import forkserver
    from workers.child import DEFAULT_JOB_TIMEOUT, JobRunner

    # the fork server starts first: it imports the engine (once for all the job processes, each a fork of
    # it) while this process imports the Redis client, connects and submits (the fixed cost of every
    # batch --redis, issue 12)
    timeout = args.job_timeout or DEFAULT_JOB_TIMEOUT
    server = forkserver.start() if args.workers else None
    runners = [JobRunner(timeout, server) for _ in range(args.workers or 0)]
    workers: list[Any] = []
    threads: list[threading.Thread] = []
    try:
        from workers.queue import RedisQueue, incomplete_message, redact, wait_batch
        from workers.worker import Worker

        q = RedisQueue(args.redis, prefix=args.queue, ca=args.redis_ca, max_job_bytes=args.max_job_bytes)
        q.check_size(plan)
        if server is not None and len(plan):
            server.warm(next(plan.jobs())[2])  # its scenario read once, before the forks
        for i, r in enumerate(runners):
            kw: dict[str, Any] = {} if args.max_deaths is None else {"max_deaths": args.max_deaths}
            workers.append(Worker(args.redis, prefix=args.queue, name=f"{plan.id}-w{i}", min_idle=args.min_idle,
                                  max_deliveries=args.max_deliveries, job_timeout=timeout,
                                  max_job_bytes=args.max_job_bytes, ca=args.redis_ca, runner=r, **kw))
        added = q.submit(plan)
        for w in workers:
            threads.append(threading.Thread(target=w.run, name=f"realmsim-{w.name}", daemon=True))
            threads[-1].start()
        if not workers:
            _say(f"batch {plan.id}: {len(plan)} job(s) submitted to {redact(args.redis)}; waiting for workers "
                 f"(none started here: --workers N starts some)")
        if added < len(plan):
            _say(f"batch {plan.id}: {len(plan) - added} of {len(plan)} job(s) already had a result in Redis")
        st = wait_batch(q, plan, timeout=args.timeout, on_progress=progress.update, say=_say,
                        resubmit_after=resubmit_after(args.resubmit_after))
    finally:
        for w in workers:
            w.stop()  # each kills the job in hand and puts it back with what it read and did not start
        deadline = time.monotonic() + 30.0  # as long as a worker process is given after SIGTERM
        for w, t in zip(workers, threads):
            t.join(timeout=max(0.0, deadline - time.monotonic()))
            if t.is_alive():  # a job still running: killed with its process (its entry is claimed again later)
                w.runner.close(grace=0)
                t.join(timeout=5.0)
        for r in runners[len(workers):]:  # made but never handed to a worker (Redis refused us)
            r.close(grace=0)
        if server is not None:
            server.close()
    progress.close()
    return _finish(args, out, list(st.results.values()), st.complete,
                   incomplete_message(st, timeout=args.timeout))


def cmd_submit(args: argparse.Namespace) -> int:
    from workers.batch import write_manifest
    from workers.queue import RedisQueue, SubmitError

    plan = _plan(args)
    q = RedisQueue(args.redis, prefix=args.queue, ca=args.redis_ca, max_job_bytes=args.max_job_bytes)
    q.check_size(plan)
    path = write_manifest(plan, Path(args.manifest) if args.manifest else None)
    try:
        added = q.submit(plan)
    except SubmitError as e:
        print(plan.id, flush=True)  # either way: the message says whether anything of it is left
        if e.removed:
            path.unlink(missing_ok=True)
        raise
    print(plan.id, flush=True)
    _say(f"submitted batch {plan.id}: {len(plan)} job(s) of {plan.name}, {added} queued, "
         f"{len(plan) - added} already had a result; manifest {path}")
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    from workers.worker import serve

    return serve(args)


def cmd_collect(args: argparse.Namespace) -> int:
    from workers.batch import check_batch_id
    from workers.output import check_out_path
    from workers.progress import Progress
    from workers.queue import RedisQueue, find_plan, incomplete_message, wait_batch

    batch_id = check_batch_id(args.batch)
    out = check_out_path(args.out)
    if args.timeout is not None:
        check_seconds("--timeout", args.timeout)
    after = resubmit_after(args.resubmit_after)
    q = RedisQueue(args.redis, prefix=args.queue, ca=args.redis_ca)
    plan, lost = find_plan(q, batch_id, Path(args.manifest) if args.manifest else None)
    if lost:
        _say(f"Redis does not know batch {batch_id} (restarted without its data?); restoring it from its manifest")
    progress = Progress(len(plan), label=f"collect {batch_id}")
    st = wait_batch(q, plan, timeout=args.timeout, resubmit=args.resubmit, resubmit_dead=args.resubmit_dead,
                    resubmit_after=after, on_progress=progress.update, say=_say)
    progress.close()
    return _finish(args, out, list(st.results.values()), st.complete, incomplete_message(st, timeout=args.timeout))


def cmd_serve(args: argparse.Namespace) -> int:
    from workers.server.serve import serve

    return serve(args)


COMMANDS = {
    "run": cmd_run,
    "resume": cmd_resume,
    "report": cmd_report,
    "validate": cmd_validate,
    "scenarios": cmd_scenarios,
    "batch": cmd_batch,
    "submit": cmd_submit,
    "worker": cmd_worker,
    "collect": cmd_collect,
    "serve": cmd_serve,
    "advise": lambda args: __import__("workers.advise", fromlist=["cmd_advise"]).cmd_advise(args),
    "state": lambda args: __import__("workers.state_export", fromlist=["cmd_state"]).cmd_state(args),
    "sweep": lambda a: __import__("workers.sweep").sweep.cmd_sweep(a),
    "tournament": lambda a: __import__("workers.tournament").tournament.cmd_tournament(a),
}


def _command_of(argv: list[str]) -> str | None:
    """The command word of a command line (its first word that is not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    # NumPy (which Mesa imports) starts an OpenBLAS thread per core at import, and it spins for a while:
    # 0.1-0.2 s of CPU on another core for every command, none of which does linear algebra; one thread,
    # unless the user says otherwise (inherited by the job processes; docs/performance.md)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = _parser(_command_of(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not args.cmd:
        parser.print_help()
        return 2
    try:
        from scenarios.limits import check_file_caps
        from workers.options import apply_allow_policies

        apply_allow_policies(args)
        check_file_caps()  # a malformed $REALMSIM_MAX_*_BYTES is a usage error, whichever file is read
        return COMMANDS[args.cmd](args)
    except RealmsimError as e:
        print(f"realmsim {args.cmd}: {e}", file=sys.stderr)
        return int(getattr(e, "exit_code", 2))
    except KeyboardInterrupt:
        print(f"realmsim {args.cmd}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (realmsim run | head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:
        if type(e).__module__.split(".")[0] != "redis":
            raise
        # Redis failed in the middle of a command (it went away, ran out of memory…)
        msg = str(e).split("caused error: ", 1)[-1]
        print(f"realmsim {args.cmd}: Redis error: {type(e).__name__}: {msg}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
