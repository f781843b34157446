"""What every request passes before routing: the Host it names, its token, where it comes from, what
it carries. A local server must not be driven by the web pages its user visits:

- **Host.** A name the server does not answer to is refused (403), whatever the request: a page of
  ``attacker.example`` whose name is made to resolve to 127.0.0.1 (DNS rebinding) reaches the server
  with ``Host: attacker.example``. The server answers to 127.0.0.1, localhost, ::1, its ``--host``
  address and the names given with ``--allow-host`` (``--allow-host '*'``, with ``--tokens`` only: any
  name; with ``--tokens`` and a wildcard ``--host`` such as 0.0.0.0 and no ``--allow-host``, any name
  too, the tokens being the protection).
- **Token** (with ``--tokens``): :func:`workers.server.auth.authenticate`.
- **Origin.** A request that may change something (POST, PUT, PATCH, DELETE) which a browser marks
  as coming from another site (``Sec-Fetch-Site`` other than ``same-origin``/``none``, or an
  ``Origin``/``Referer`` that is not this server) is refused (403). A program (curl, httpx) sends
  neither and is not concerned.

What a body may be is checked where it is read (:mod:`.bodies`): ``Content-Type: application/json``
only (415: a ``text/plain`` or form post is what a page of another site may send without asking the
browser first), within ``--max-body`` (413) and the depth and length of :mod:`.limits` (400), before
it is parsed. Refusals are JSON errors like the handlers' (:mod:`.errors`). The guard also puts right
the ``Allow`` header of the answers to OPTIONS (Litestar lists only the methods of the path's first
handler).
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from litestar.types import ASGIApp, Receive, Send

from workers.server.auth import Refusal, Scope, Tokens, authenticate, header

CHANGES = ("POST", "PUT", "PATCH", "DELETE")  # what may change something (TRACE and the like get Litestar's 405)
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def host_name(value: str) -> str:
    """``Host`` without its port, lower case, IPv6 without brackets, no final dot."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") == 1:
        value = value.partition(":")[0]
    return value.rstrip(".")


def allowed_hosts(bind: str, extra: tuple[str, ...], tokens: Tokens | None) -> frozenset[str] | None:
    """The names the server answers to; None: any (``--allow-host '*'``, or tokens on a wildcard address
    with no name given)."""
    if "*" in extra or (tokens is not None and bind in WILDCARDS and not extra):
        return None
    names = {*LOOPBACK_NAMES, *(host_name(h) for h in extra)}
    if bind not in WILDCARDS:
        names.add(host_name(bind))
    return frozenset(names)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _problem(status: int, error: str, message: str, path: str, expected: str, found: str) -> Refusal:
    return Refusal(status, {"error": error, "message": message,
                            "problems": [{"path": path, "expected": expected, "found": found}]})


def check_host(scope: Scope, hosts: frozenset[str] | None) -> Refusal | None:
    if hosts is None:
        return None
    raw = header(scope, b"host")
    name = host_name(raw) if raw is not None else None
    if name in hosts:
        return None
    known = ", ".join(sorted(hosts, key=lambda h: (not _is_ip(h), h)))
    found = "no Host header" if raw is None else repr(raw[:200])
    return _problem(403, "forbidden", f"Host {found}: this server answers only to {known} (another name may be a "
                    "page rebinding its own name to this machine; a name of yours: realmsim serve --allow-host NAME)",
                    "Host", f"one of {known}", found)


def _origin_of(value: str) -> str | None:
    parts = urlsplit(value)
    return parts.netloc.lower() if parts.scheme in ("http", "https") and parts.netloc else None


def check_origin(scope: Scope) -> Refusal | None:
    """A change that a browser says comes from another site."""
    host = (header(scope, b"host") or "").lower()
    mine = f"this server's own page (http://{host}/) or none (a program, not a browser)"
    site = header(scope, b"sec-fetch-site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        return _problem(403, "forbidden", f"a change from another site is refused (Sec-Fetch-Site: {site[:40]}): only "
                        "this server's own page or a program may make one", "Sec-Fetch-Site", "same-origin", site[:200])
    for name in ("origin", "referer"):
        value = header(scope, name.encode())
        if value is None:
            continue
        if _origin_of(value) != host:
            return _problem(403, "forbidden", f"a change from another site is refused ({name.title()}: {value[:100]})",
                            name.title(), mine, value[:200])
        return None
    return None


async def send_refusal(send: Send, r: Refusal) -> None:
    data = json.dumps(r.body).encode() if r.body else b""
    headers = [(b"content-length", str(len(data)).encode()), *r.headers]
    if r.body:
        headers.insert(0, (b"content-type", b"application/json"))
    start: Any = {"type": "http.response.start", "status": r.status, "headers": headers}
    end: Any = {"type": "http.response.body", "body": data}
    await send(start)
    await send(end)


class Guard:
    """ASGI: the checks of this module around the whole app (before routing, so that unknown paths and
    methods are guarded too)."""

    def __init__(self, app: ASGIApp, *, hosts: frozenset[str] | None, tokens: Tokens | None,
                 allow: Mapping[str, str]) -> None:
        self.app = app
        self.hosts = hosts
        self.tokens = tokens
        self.allow = allow  # path template -> its Allow header

    async def __call__(self, scope: Any, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = check_host(scope, self.hosts)
        if refusal is None and self.tokens is not None:
            refusal = authenticate(scope, self.tokens)
        if refusal is None and scope["method"] in CHANGES:
            refusal = check_origin(scope)
        if refusal is not None:
            await send_refusal(send, refusal)
            return
        if scope["method"] == "OPTIONS":
            send = self._allow_fixed(scope, send)
        await self.app(scope, receive, send)

    def _allow_fixed(self, scope: Scope, send: Send) -> Send:
        async def fixed(message: Any) -> None:
            if message["type"] == "http.response.start" and scope.get("path_template") in self.allow:
                allow = self.allow[scope["path_template"]].encode()
                message = {**message, "headers": [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
                           + [(b"allow", allow)]}
            await send(message)

        return fixed
