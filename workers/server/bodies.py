"""Request bodies decoded as the schema says: strictly.

Litestar's own ``data`` parameter converts a body loosely (msgspec's ``strict=False``: ``"3"`` and
``3.0`` pass for the integer 3, ``"true"`` for true), which the OpenAPI schema cannot say: a client
that follows the schema and one that does not would be told different things. So each handler that
takes a body declares it as the dependency ``payload`` (:func:`json_body`), decoded by msgspec into its
Struct as it is; a body of the wrong shape is a 400 listing every problem (path, expected, found), as
``realmsim validate`` lists a scenario's. :mod:`workers.server.openapi` documents the same Struct.

Before anything is parsed, the body must say ``Content-Type: application/json`` (415: a ``text/plain``
or form post is what a page of another site may send without the browser asking the server first),
stay within ``--max-body`` (413, Litestar's ``request_max_body_size``) and within the depth and length
of :mod:`.limits` (400, one linear pass over the bytes). A number with no fraction (``3.0``) is an
integer, as JSON Schema says; nothing else is converted.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Request
from litestar.di import Provide

from scenarios.validate import check_against
from sim.errors import Problem
from workers.server.errors import ApiError
from workers.server.limits import MAX_BODY_DEPTH, MAX_BODY_ITEMS, json_shape

_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$")


def problems_of(raw: bytes, typ: type[Any], error: msgspec.ValidationError) -> list[Problem]:
    """Every problem of ``raw`` against ``typ`` (msgspec stops at the first one)."""
    m = _AT.match(str(error))
    path = ((m.group("path") or "").lstrip(".") if m else "") or "(body)"
    what = m.group("what") if m else str(error)
    try:
        problems = check_against(_integral(msgspec.json.decode(raw)), typ)
    except (msgspec.DecodeError, RecursionError):
        problems = []
    if not problems:
        return [Problem(path, "a value of the documented type", what)]
    # msgspec's words for the first problem name its bound (a length, a range) where the listing may not
    if what.startswith("Expected ") and " got " not in what:
        problems = [Problem(p.path, f"{p.expected} ({what[9:]})", p.found) if p.path == path else p for p in problems]
    return problems


def _integral(value: Any) -> Any:
    """``value`` with every float that has no fraction as an int (JSON Schema's integers include 3.0)."""
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 2**63 else value
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    return value


def check_media_type(content_type: str | None, where: str) -> None:
    media = (content_type or "").partition(";")[0].strip().lower()
    if media != "application/json":
        found = f"Content-Type {content_type[:100]}" if content_type else "no Content-Type"
        raise ApiError(415, "unsupported_media_type", f"{where}: expected a JSON body (Content-Type: application/json), "
                       f"found {found}", [Problem("Content-Type", "application/json",
                                                  content_type[:200] if content_type else "nothing")])


def check_shape(raw: bytes, where: str) -> None:
    shape = json_shape(raw)
    if shape.over(MAX_BODY_DEPTH, MAX_BODY_ITEMS):
        expected = f"JSON nested at most {MAX_BODY_DEPTH} deep with at most {MAX_BODY_ITEMS:,} items"
        raise ApiError(400, "bad_request", f"{where}: the JSON body is {shape.describe()}; the server reads {expected} "
                       "(measured before parsing)", [Problem("(body)", expected, shape.describe())])


def decode(raw: bytes, typ: type[Any], where: str) -> Any:
    """``raw`` (JSON) as a ``typ``, or a 400 that says why not (``where``: the request, for the message)."""
    if not raw.strip():
        raise ApiError(400, "bad_request", f"{where}: expected a JSON body, found none",
                       [Problem("(body)", f"a JSON object ({typ.__name__})", "an empty body")])
    check_shape(raw, where)
    try:
        return msgspec.convert(_integral(msgspec.json.decode(raw)), typ)
    except msgspec.ValidationError as e:
        problems = problems_of(raw, typ, e)
        text = "; ".join(f"{p.path}: expected {p.expected}, found {p.found}" for p in problems)
        raise ApiError(400, "bad_request", f"{where}: {text}", problems) from None
    except msgspec.DecodeError as e:
        raise ApiError(400, "bad_request", f"{where}: the body is not JSON ({e})",
                       [Problem("(body)", "a JSON document of the documented shape", str(e))]) from None


def json_body(typ: type[Any]) -> Provide:
    """The dependency ``payload`` of a handler: the request's JSON body decoded strictly as ``typ``."""

    async def provide(request: Request[Any, Any, Any]) -> Any:
        where = f"{request.method} {request.url.path}"
        check_media_type(request.headers.get("content-type"), where)
        return decode(await request.body(), typ, where)

    return Provide(provide)
