"""``realmsim serve``: the options, the checks made before anything listens, and uvicorn.

Everything a person can get wrong (a port in use, a non-loopback host without tokens, an unreadable
tokens file, a Redis that cannot be reached, a data directory another server holds) is said in one
line and exit status 2 (3 for Redis), before the server starts. SIGTERM or Ctrl-C: the event streams
end (their clients reconnect later), running campaigns get ``--drain-timeout`` seconds to finish,
the rest stay queued for the next start; exit status 0.
"""

from __future__ import annotations

import argparse
import getpass
import ipaddress
import logging
import re
import socket
import sys
from pathlib import Path
from typing import Any

from workers.batch import ServiceError, UsageError, check_seconds, state_dir

log = logging.getLogger("realmsim.server")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from workers.options import DEFAULT_MAX_BODY, DEFAULT_PREFIX, default_workers

    cpus = default_workers()
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; another one needs --tokens)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one and prints it)")
    p.add_argument("--redis", default=None, metavar="URL", help="run batches on the Redis workers at URL (as realmsim batch --redis)")
    p.add_argument("--queue", default=DEFAULT_PREFIX, metavar="PREFIX", help=f"Redis key prefix (default {DEFAULT_PREFIX})")
    p.add_argument("--data-dir", default=None, metavar="DIR",
                   help="where the records live (default $REALMSIM_STATE_DIR/server, else ~/.local/state/realmsim/server)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a name the server answers to besides 127.0.0.1, localhost, ::1 and --host (repeatable; requests "
                        "naming another Host get 403; '*': any, with --tokens only)")
    p.add_argument("--tokens", default=None, metavar="FILE", help="require a bearer token: FILE holds their SHA-256 digests")
    p.add_argument("--hash-token", action="store_true", help="read a token on stdin, print its digest for --tokens, exit")
    p.add_argument("--max-campaigns", type=int, default=cpus, metavar="N", help=f"campaigns run at once (default {cpus})")
    p.add_argument("--queue-limit", type=int, default=100, metavar="N", help="campaigns that may wait (default 100)")
    p.add_argument("--batch-workers", type=int, default=cpus, metavar="N", help=f"local pool size for batches (default {cpus})")
    p.add_argument("--drain-timeout", type=float, default=30.0, metavar="S",
                   help="on SIGTERM, how long running campaigns may go on (default 30 s)")
    p.add_argument("--max-body", type=int, default=DEFAULT_MAX_BODY, metavar="BYTES",
                   help=f"largest request body (default {DEFAULT_MAX_BODY})")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"], help="default info")
    from workers.options import add_allow_policies

    add_allow_policies(p)  # text from the network may name an outside policy only of a module allowed here


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # the connections accepted from it inherit this: without it a small answer written in two parts
    # waits for the client's delayed ACK (40 ms a request)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


_HOST_NAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\.?$")


def check_allow_host(name: str, tokens: bool) -> str:
    """``--allow-host``: a host name or an IP address (brackets optional for IPv6), or ``*`` with tokens."""
    if name == "*":
        if not tokens:
            raise UsageError("--allow-host '*': any Host only with --tokens (without tokens the Host check is what "
                             "keeps a web page from driving the server through a name of its own)")
        return name
    bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        pass
    if not _HOST_NAME.match(name):
        raise UsageError(f"--allow-host {name!r}: expected a host name (such as realmsim.lan) or an IP address, without "
                         "scheme or port")
    return name.lower().rstrip(".")


def hash_token_command() -> int:
    from workers.server.auth import hash_token

    token = getpass.getpass("token: ") if sys.stdin.isatty() else sys.stdin.readline()
    if not token.strip():
        raise UsageError("--hash-token: expected a token on stdin, found nothing")
    print(hash_token(token))
    return 0


def settings_from(args: argparse.Namespace) -> Any:
    from workers.server.auth import load_tokens
    from workers.server.services import Settings

    for name in ("max_campaigns", "batch_workers", "queue_limit", "max_body"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} {getattr(args, name)}: expected an integer >= 1")
    check_seconds("--drain-timeout", args.drain_timeout, zero=True)
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: expected 0..65535")
    tokens = load_tokens(Path(args.tokens)) if args.tokens else None
    if tokens is None and not is_loopback(args.host):
        raise UsageError(f"--host {args.host}: without --tokens the server listens on loopback only (127.0.0.1, ::1, "
                         "localhost); give --tokens FILE to listen on another address")
    allow_hosts = tuple(check_allow_host(h, tokens is not None) for h in args.allow_host)
    if args.redis:
        from workers.queue import connect

        connect(args.redis).close()
    data_dir = Path(args.data_dir) if args.data_dir else state_dir() / "server"
    return Settings(data_dir=data_dir, host=args.host, port=args.port, redis=args.redis, queue_prefix=args.queue,
                    tokens=tokens, allow_hosts=allow_hosts, max_campaigns=args.max_campaigns, queue_limit=args.queue_limit,
                    batch_workers=args.batch_workers, drain_timeout=args.drain_timeout, max_body=args.max_body)


def serve(args: argparse.Namespace) -> int:
    if args.hash_token:
        return hash_token_command()
    import uvicorn

    from workers.server.app import create_app
    from workers.server.store import DataDirBusyError, Store

    settings = settings_from(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    try:  # is the data directory usable, and ours alone?
        Store(settings.data_dir).close()
    except DataDirBusyError as e:
        raise UsageError(f"--data-dir: {e}") from None
    except OSError as e:
        raise UsageError(f"--data-dir {str(settings.data_dir)!r}: {e.strerror or e}") from None
    sock = _listen(settings.host, settings.port)
    host, port = sock.getsockname()[:2]
    app = create_app(settings)
    services = app.state.svc
    if settings.tokens is None:
        print("realmsim serve: no --tokens: anyone on this machine may use the server, so it listens on loopback only",
              file=sys.stderr)
    from workers.server.guard import allowed_hosts

    names = allowed_hosts(settings.host, settings.allow_hosts, settings.tokens)
    if names is not None:
        print(f"realmsim serve: requests must name Host {', '.join(sorted(names))} (another name: --allow-host NAME)",
              file=sys.stderr)
    print(f"realmsim serve: listening on http://{'[' + host + ']' if ':' in host else host}:{port} (records in "
          f"{settings.data_dir}; batches on {'Redis workers' if settings.redis else 'a local pool'}; API reference at /docs)",
          file=sys.stderr, flush=True)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            loop = services.loop
            if loop is not None:
                loop.call_soon_threadsafe(services.begin_stop)
            super().handle_exit(sig, frame)
            # uvicorn raises the signal again once it has stopped (dying by it); a drained server
            # has stopped cleanly and exits with status 0 instead
            captured = getattr(self, "_captured_signals", None)
            if isinstance(captured, list):
                captured.clear()

    config = uvicorn.Config(app, log_level=args.log_level, access_log=args.log_level == "debug", lifespan="on",
                            timeout_graceful_shutdown=5, log_config=None)
    server = Server(config)
    try:
        server.run(sockets=[sock])  # uvloop and httptools when installed (they are: pyproject.toml)
    finally:
        sock.close()
    if not server.started:
        raise ServiceError("the server did not start (see the lines above)", exit_code=1)
    return 0
