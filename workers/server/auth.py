"""Bearer tokens. The server keeps only SHA-256 digests of its tokens (``--tokens FILE``: one hex
digest a line, ``#`` comments; ``realmsim serve --hash-token`` prints the digest of a token).

A request presents ``Authorization: Bearer TOKEN``; the web page, whose EventSource cannot send
headers, presents the same token in an HttpOnly, SameSite=Strict cookie set by ``/login``. A request
that changes something (POST, DELETE) with the cookie alone must come from the server's own page
(its Origin or Referer is this server), so another site cannot make a browser act for its user.
Without ``--tokens`` the server listens on loopback only and nothing is checked.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from litestar.types import ASGIApp, Receive, Send

from workers.batch import UsageError

Scope = dict[str, Any]  # an HTTP connection's ASGI scope (Litestar's TypedDicts cover websockets too)

COOKIE = "realmsim_token"
OPEN_PATHS = ("/healthz", "/login", "/static/")
_HEX = re.compile(r"^[0-9a-f]{64}$")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.strip().encode("utf-8")).hexdigest()


def load_tokens(path: Path) -> frozenset[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"--tokens {str(path)!r}: cannot read it ({e.strerror or e})") from None
    out = set()
    for n, line in enumerate(text.splitlines(), 1):
        item = line.split("#", 1)[0].strip()
        if not item:
            continue
        digest = item.split()[0].lower()
        if not _HEX.match(digest):
            raise UsageError(f"--tokens {str(path)!r} line {n}: expected the SHA-256 hex digest of a token "
                             f"(64 hex digits; realmsim serve --hash-token makes one), found {digest[:20]!r}")
        out.add(digest)
    if not out:
        raise UsageError(f"--tokens {str(path)!r}: no token digest in the file (one SHA-256 hex digest a line)")
    return frozenset(out)


def is_valid(token: str | None, digests: frozenset[str]) -> bool:
    if not token:
        return False
    mine = hash_token(token)
    ok = False
    for d in digests:  # compare with every digest: the time taken says nothing about which matched
        ok |= hmac.compare_digest(mine, d)
    return ok


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k.lower() == name:
            return v.decode("latin-1")
    return None


def _cookie(scope: Scope, name: str) -> str | None:
    raw = _header(scope, b"cookie")
    if not raw:
        return None
    for part in raw.split(";"):
        k, _, v = part.strip().partition("=")
        if k == name:
            return v
    return None


def same_origin(scope: Scope) -> bool:
    host = _header(scope, b"host")
    source = _header(scope, b"origin") or _header(scope, b"referer")
    return bool(host and source and urlsplit(source).netloc == host)


class TokenAuth:
    """ASGI middleware: every path but the login page, the health check and the static files needs a
    valid token."""

    def __init__(self, app: ASGIApp, digests: frozenset[str]) -> None:
        self.app = app
        self.digests = digests

    async def __call__(self, scope: Any, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(OPEN_PATHS) or scope["path"] == "/favicon.ico":
            await self.app(scope, receive, send)
            return
        bearer = _header(scope, b"authorization")
        token = bearer[7:].strip() if bearer and bearer[:7].lower() == "bearer " else None
        via_cookie = False
        if token is None:
            token = _cookie(scope, COOKIE)
            via_cookie = token is not None
        if not is_valid(token, self.digests):
            await self._refuse(scope, send)
            return
        if via_cookie and scope["method"] not in ("GET", "HEAD", "OPTIONS") and not same_origin(scope):
            await _json(send, 403, {"error": "forbidden", "message": "a request with the page's cookie must come from "
                                    "the server's own page (Origin or Referer)", "problems": []})
            return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Any) -> None:
        path = scope["path"]
        accept = _header(scope, b"accept") or ""
        if scope["method"] == "GET" and not path.startswith(("/v1/", "/docs", "/schema")) and "text/html" in accept:
            from urllib.parse import quote

            await send({"type": "http.response.start", "status": 303,
                        "headers": [(b"location", f"/login?next={quote(path)}".encode())]})
            await send({"type": "http.response.body", "body": b""})
            return
        await _json(send, 401, {"error": "unauthorized", "message": "this server needs a token: Authorization: "
                                "Bearer TOKEN", "problems": [{"path": "Authorization", "expected": "Bearer TOKEN "
                                "(a token whose digest is in the server's --tokens file)",
                                "found": "no token" if not (_header(scope, b"authorization") or _cookie(scope, COOKIE))
                                else "a token the server does not know"}]},
                    extra=[(b"www-authenticate", b'Bearer realm="realmsim"')])


async def _json(send: Any, status: int, body: dict[str, Any], extra: list[tuple[bytes, bytes]] | None = None) -> None:
    import json

    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            *(extra or [])]})
    await send({"type": "http.response.body", "body": data})
