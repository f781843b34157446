"""Command-line options and defaults shared by several commands, in a module that imports nothing heavy.

``realmsim --help`` and ``realmsim validate`` build every subcommand's options; keeping the defaults
here (not in the Redis client or the HTTP server's modules) keeps redis, litestar and uvicorn out of
their start (issue 12: a fast start).
"""

from __future__ import annotations

import argparse
import os

DEFAULT_PREFIX = "realmsim"  # Redis key prefix
URL_ENV = "REALMSIM_REDIS_URL"
DEFAULT_MAX_BODY = 2 * 1024 * 1024  # the HTTP server's request size limit


def default_workers() -> int:
    """Worker processes by default: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def add_redis_arguments(p: argparse.ArgumentParser, *, env_default: bool = False, required: bool = True) -> None:
    """``--redis URL`` and ``--redis-ca FILE`` (``env_default``: the URL may come from $REALMSIM_REDIS_URL,
    which keeps a password off the command line)."""
    hint = f" (default ${URL_ENV})" if env_default else ""
    p.add_argument("--redis", default=None, required=required and not env_default, metavar="URL",
                   help=f"Redis URL: redis://[USER:PASSWORD@]HOST:PORT/DB, rediss://… for TLS{hint}")
    p.add_argument("--redis-ca", default=None, metavar="FILE",
                   help="rediss://: the CA certificate (PEM) to check the server's certificate with "
                        "(default: the system's)")


ALLOW_HELP = ("allow scenarios to name policies (package.module:Class) from these modules: a comma list of "
              "module names or patterns, e.g. 'mypkg.*,other.mod' (also $REALMSIM_ALLOW_POLICIES); without it "
              "only built-in and installed (entry point realmsim.policies) policies resolve")


def add_allow_policies(p: argparse.ArgumentParser) -> None:
    """``--allow-policies MODULES`` (issue 9: nothing a file names is imported unless the person allows it)."""
    p.add_argument("--allow-policies", default=None, metavar="MODULES", help=ALLOW_HELP)


def apply_allow_policies(args: argparse.Namespace) -> None:
    """Make ``--allow-policies`` this process's setting, and its job processes' (they inherit
    ``$REALMSIM_ALLOW_POLICIES``); a malformed pattern, on the command line or in the environment, is a
    usage error (exit 2)."""
    from agents.policies import ALLOW_ENV, parse_allow
    from workers.batch import UsageError

    given = getattr(args, "allow_policies", None)
    try:
        env = parse_allow(os.environ.get(ALLOW_ENV, ""))
    except ValueError as e:
        raise UsageError(f"${ALLOW_ENV}: {str(e).removeprefix('--allow-policies ')}") from None
    if given is None:
        return
    try:
        mine = parse_allow(given)
    except ValueError as e:
        raise UsageError(str(e)) from None
    os.environ[ALLOW_ENV] = ",".join(dict.fromkeys([*env, *mine]))


def parse_until(text: str | None) -> int | None:
    """``3`` → the start of season 3; ``45d``, ``2m``, ``1y`` → that many days, months, years in."""
    from sim.calendar import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_SEASON, HOURS_PER_YEAR
    from workers.batch import UsageError

    if text is None:
        return None
    units = {"d": HOURS_PER_DAY, "m": HOURS_PER_MONTH, "s": HOURS_PER_SEASON, "y": HOURS_PER_YEAR}
    t = text.strip().lower()
    unit = units.get(t[-1:], None)
    num = t[:-1] if unit else t
    if not num.isdigit():
        raise UsageError(f"--until {text!r}: expected a season number (e.g. 3) or a count with d, m, s or y (e.g. 45d)")
    return int(num) * (unit or HOURS_PER_SEASON)
