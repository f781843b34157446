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
