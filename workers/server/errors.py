"""Every error the API answers is JSON, with the problems as the command line reports them.

``{"error": "scenario", "message": "...", "file": "...", "problems": [{"path", "expected", "found"}]}``

A bad request is a 4xx: a malformed body or parameter 400, a bad scenario or value 422, an unknown
id 404, no or a wrong token 401, a Host or a site refused 403 (:mod:`.guard`), a body too large 413,
a body that is not JSON 415, a full queue 429; 503 while the server stops. workers/server/openapi.py
documents each operation's.
Anything else (a bug) is a 500 whose body says so without a traceback; the traceback goes to the log.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR

from sim.errors import Problem, RealmsimError, ScenarioError

log = logging.getLogger("realmsim.server")


class ApiError(Exception):
    def __init__(self, status: int, error: str, message: str, problems: list[Problem] | None = None,
                 file: str | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.problems = problems or []
        self.file = file
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.error, "message": self.message,
                               "problems": [{"path": p.path, "expected": p.expected, "found": p.found} for p in self.problems]}
        if self.file is not None:
            out["file"] = self.file
        return out


def not_found(what: str, ident: str) -> ApiError:
    return ApiError(404, "not_found", f"no {what} {ident!r}", [Problem(f"{what}_id", f"the id of a {what} of this server", repr(ident))])


def not_cancellable(what: str, ident: str, status: str) -> ApiError:
    return ApiError(409, "conflict", f"{what} {ident} is {status}; only a queued or running one can be cancelled")


def bad_value(path: str, expected: str, found: str, status: int = 422, error: str = "invalid") -> ApiError:
    return ApiError(status, error, f"{path}: expected {expected}, found {found}", [Problem(path, expected, found)])


def scenario_error(e: ScenarioError) -> ApiError:
    return ApiError(422, "scenario", str(e), e.problems, file=e.file)


def _respond(e: ApiError) -> Response[Any]:
    return Response(e.body(), status_code=e.status, headers=e.headers)


def on_api_error(request: Request[Any, Any, Any], exc: ApiError) -> Response[Any]:
    return _respond(exc)


def on_realmsim_error(request: Request[Any, Any, Any], exc: RealmsimError) -> Response[Any]:
    if isinstance(exc, ScenarioError):
        return _respond(scenario_error(exc))
    return _respond(ApiError(422, "invalid", str(exc)))


_EXPECTED = re.compile(r"Expected `(?P<exp>[^`]*)`, got `(?P<got>[^`]*)`")


def on_http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    if isinstance(exc, ValidationException):  # a query or path parameter (bodies: workers.server.bodies)
        problems: list[Problem] = []
        for item in exc.extra if isinstance(exc.extra, list) else []:
            if not isinstance(item, dict):
                continue
            msg = str(item.get("message", ""))
            m = _EXPECTED.search(msg)
            key = str(item.get("key") or item.get("source") or "(request)")
            if m:
                problems.append(Problem(key, m.group("exp"), m.group("got")))
            else:
                problems.append(Problem(key, "a valid value", msg))
        if not problems:
            problems = [Problem("(request)", "a valid request", exc.detail)]
        text = "; ".join(f"{p.path}: expected {p.expected}, found {p.found}" for p in problems)
        return _respond(ApiError(400, "bad_request", f"{request.method} {request.url.path}: {text}", problems))
    names = {401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed", 413: "too_large",
             415: "unsupported_media_type", 429: "busy", 503: "unavailable"}
    error = names.get(status, "bad_request" if status < 500 else "server_error")
    detail = exc.detail or error
    problems = []
    if status == 400:
        problems = [Problem("(body)", "a JSON document of the documented shape", detail)]
    elif status == 413:
        limit = getattr(getattr(request.app.state, "svc", None), "settings", None)
        limit_bytes = getattr(limit, "max_body", None)
        expected = f"a body of at most {limit_bytes:,} bytes" if isinstance(limit_bytes, int) else "a smaller body"
        detail = f"{request.method} {request.url.path}: the body is over the server's limit ({expected}; realmsim " \
                 "serve --max-body)"
        problems = [Problem("(body)", expected, "a larger body")]
    return _respond(ApiError(status, error, detail, problems, headers=dict(exc.headers or {})))


def on_crash(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.exception("realmsim.server: %s %s failed", request.method, request.url.path, exc_info=exc)
    return Response({"error": "server_error", "message": "the server failed on this request (a bug: see its log)",
                     "problems": []}, status_code=HTTP_500_INTERNAL_SERVER_ERROR)


HANDLERS: dict[Any, Any] = {
    ApiError: on_api_error,
    RealmsimError: on_realmsim_error,
    HTTPException: on_http_error,
    Exception: on_crash,
}
