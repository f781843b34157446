"""Bearer tokens, and who owns what. The server keeps only SHA-256 digests of its tokens (``--tokens
FILE``: one a line, ``#`` comments; ``realmsim serve --hash-token`` prints the digest of a token).

A line of the tokens file is ``DIGEST [NAME] [group=GROUP]``. A campaign or a batch belongs to the
token that made it: another token gets 404 for it on every route, as if it did not exist, unless both
tokens carry the same ``group=``: tokens of one group share their records (to share everything, give
every token the same group). Records made without ``--tokens`` (or before records had owners) belong
to no token and every token sees them.

A request presents ``Authorization: Bearer TOKEN``; the web page, whose EventSource cannot send
headers, presents the same token in an HttpOnly, SameSite=Strict cookie set by ``/login``. A request
that changes something (POST, DELETE) with the cookie alone must come from the server's own page
(its Origin or Referer is this server), so another site cannot make a browser act for its user.
:mod:`.guard` calls :func:`authenticate` for every request, before routing.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from workers.batch import UsageError

Scope = dict[str, Any]  # an HTTP connection's ASGI scope (Litestar's TypedDicts cover websockets too)

COOKIE = "realmsim_token"
OPEN_PATHS = ("/healthz", "/login", "/static/")
OWNER = "realmsim.owner"  # scope key: the digest of the request's token
SEES = "realmsim.sees"  # scope key: the owners whose records the request may see
_HEX = re.compile(r"^[0-9a-f]{64}$")
_GROUP = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.strip().encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Tokens(Mapping[str, str]):
    """The tokens file: each digest with its group (``""``: none, its records are its own)."""

    groups: dict[str, str]
    _sees: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        members: dict[str, list[str]] = {}
        for d, g in self.groups.items():
            if g:
                members.setdefault(g, []).append(d)
        object.__setattr__(self, "_sees", {d: tuple(sorted(members[g])) if g else (d,) for d, g in self.groups.items()})

    def __getitem__(self, digest: str) -> str:
        return self.groups[digest]

    def __iter__(self) -> Iterator[str]:
        return iter(self.groups)

    def __len__(self) -> int:
        return len(self.groups)

    def sees(self, digest: str) -> tuple[str, ...]:
        """The owners (token digests) whose campaigns and batches the token of ``digest`` may see."""
        return self._sees[digest]


def load_tokens(path: Path) -> Tokens:
    from scenarios.inputs import InputFileError, read_input

    try:
        text = read_input(path, "tokens").decode("utf-8")
    except InputFileError as e:
        raise UsageError(f"--tokens {str(path)!r}: expected {e.expected}, found {e.found}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--tokens {str(path)!r}: expected UTF-8 text (one SHA-256 hex digest a line)") from None
    out: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        digest = words[0].lower()
        if not _HEX.match(digest):
            raise UsageError(f"--tokens {str(path)!r} line {n}: expected the SHA-256 hex digest of a token "
                             f"(64 hex digits; realmsim serve --hash-token makes one), found {digest[:20]!r}")
        group = ""
        for word in words[1:]:  # a name (any words) and options key=value
            key, eq, value = word.partition("=")
            if not eq:
                continue
            if key != "group" or not _GROUP.match(value):
                raise UsageError(f"--tokens {str(path)!r} line {n}: expected group=NAME (letters, digits, . _ -; "
                                 f"at most 64) after the digest and its name, found {word[:40]!r}")
            group = value
        out[digest] = group
    if not out:
        raise UsageError(f"--tokens {str(path)!r}: no token digest in the file (one SHA-256 hex digest a line)")
    return Tokens(out)


def is_valid(token: str | None, digests: Iterable[str]) -> bool:
    return known(token, digests) is not None


def known(token: str | None, digests: Iterable[str]) -> str | None:
    """The digest of ``token`` when it is one of ``digests``, else None."""
    if not token:
        return None
    mine = hash_token(token)
    ok = False
    for d in digests:  # compare with every digest: the time taken says nothing about which matched
        ok |= hmac.compare_digest(mine, d)
    return mine if ok else None


def header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k.lower() == name:
            return v.decode("latin-1")  # type: ignore[no-any-return]
    return None


def _cookie(scope: Scope, name: str) -> str | None:
    raw = header(scope, b"cookie")
    if not raw:
        return None
    for part in raw.split(";"):
        k, _, v = part.strip().partition("=")
        if k == name:
            return v
    return None


def same_origin(scope: Scope) -> bool:
    host = header(scope, b"host")
    source = header(scope, b"origin") or header(scope, b"referer")
    return bool(host and source and urlsplit(source).netloc == host)


def sees(scope: Any) -> tuple[str, ...] | None:
    """The owners whose records this request may see; None: every record (no ``--tokens``)."""
    return scope.get(SEES)  # type: ignore[no-any-return]


def owner(scope: Any) -> str | None:
    """The owner of what this request makes: its token's digest; None without ``--tokens``."""
    return scope.get(OWNER)  # type: ignore[no-any-return]


def may_see(scope: Any, record_owner: str | None) -> bool:
    seen = sees(scope)
    return seen is None or record_owner is None or record_owner in seen


@dataclass(frozen=True)
class Refusal:
    """An answer given before any handler runs (:mod:`.guard` sends it)."""

    status: int
    body: dict[str, Any]
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)


def authenticate(scope: Scope, tokens: Tokens) -> Refusal | None:
    """Check the request's token; on success note its owner and what it sees in the scope."""
    if scope["path"].startswith(OPEN_PATHS) or scope["path"] == "/favicon.ico":
        return None
    bearer = header(scope, b"authorization")
    token = bearer[7:].strip() if bearer and bearer[:7].lower() == "bearer " else None
    via_cookie = False
    if token is None:
        token = _cookie(scope, COOKIE)
        via_cookie = token is not None
    digest = known(token, tokens)
    if digest is None:
        return _refuse(scope)
    if via_cookie and scope["method"] not in ("GET", "HEAD", "OPTIONS") and not same_origin(scope):
        return Refusal(403, {"error": "forbidden", "message": "a request with the page's cookie must come from the "
                             "server's own page (Origin or Referer)", "problems": []})
    scope[OWNER] = digest
    scope[SEES] = tokens.sees(digest)
    return None


def _refuse(scope: Scope) -> Refusal:
    path = scope["path"]
    accept = header(scope, b"accept") or ""
    if scope["method"] == "GET" and not path.startswith(("/v1/", "/docs", "/schema")) and "text/html" in accept:
        return Refusal(303, {}, [(b"location", f"/login?next={quote(path)}".encode())])
    found = "no token" if not (header(scope, b"authorization") or _cookie(scope, COOKIE)) else "a token the server does not know"
    return Refusal(401, {"error": "unauthorized", "message": "this server needs a token: Authorization: Bearer TOKEN",
                         "problems": [{"path": "Authorization", "expected": "Bearer TOKEN (a token whose digest is in "
                                       "the server's --tokens file)", "found": found}]},
                   [(b"www-authenticate", b'Bearer realm="realmsim"')])
