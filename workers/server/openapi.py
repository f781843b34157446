"""The OpenAPI schema made to say what the server does: every status an operation answers, with the
error body it carries, and request and answer bodies exactly as they are decoded and encoded.

Litestar draws the paths and parameters from the handlers; it documents every error as its own
``{status_code, detail}`` (the server answers ``{error, message, problems}``: :mod:`.errors`), loses
a bound of 0 (``ge=0``) and writes ``oneOf`` where a value may match two branches. So, once the app is
built, :func:`complete`:

- documents the error statuses of each operation (:data:`ERRORS`, plus those of every request: 400
  for a parameter or body of the wrong shape, 403 from :mod:`.guard`, 401 with ``--tokens``, 413 and
  415 for a body), each with the :data:`ERROR_BODY` schema; an operation missing from the table stops
  the server from starting, so a new route cannot go undocumented;
- replaces the request and answer bodies' schemas by msgspec's own (``msgspec.json.schema_components``:
  the Structs the handlers decode strictly, :mod:`.bodies`, and encode), with ``additionalProperties:
  false`` where unknown fields are refused and, where a request takes a built-in ``scenario`` or a TOML
  text, "exactly one of them" and the built-in names;
- puts back the bounds of query parameters that Litestar dropped;
- with ``--tokens``, declares the bearer token as the security of every operation.

``tests/workers/server/test_fuzz.py`` runs schemathesis with every check against a real server, so
the schema and the server cannot drift apart unnoticed.
"""

from __future__ import annotations

import typing
from typing import Any

import msgspec
from litestar import Litestar, Response
from litestar.params import KwargDefinition
from litestar.routes import HTTPRoute

REF = "#/components/schemas/{name}"

# What each operation may answer besides its success and the statuses of every request (see complete).
ERRORS: dict[str, tuple[int, ...]] = {
    "GET /v1/scenarios": (),
    "POST /v1/scenarios/validate": (422,),
    "GET /v1/campaigns": (),
    "POST /v1/campaigns": (422, 429, 503),
    "POST /v1/campaigns/{campaign_id}/fork": (404, 422, 429, 503),
    "POST /v1/campaigns/{campaign_id}/advise": (404, 409, 422),
    "GET /v1/campaigns/{campaign_id}": (404,),
    "POST /v1/campaigns/{campaign_id}/cancel": (404, 409),
    "DELETE /v1/campaigns/{campaign_id}": (404, 409),
    "GET /v1/campaigns/{campaign_id}/events": (404,),
    "GET /v1/campaigns/{campaign_id}/stream": (404,),
    "GET /v1/campaigns/{campaign_id}/seasons.csv": (404, 409),
    "GET /v1/campaigns/{campaign_id}/seasons.parquet": (404, 409),
    "GET /v1/campaigns/{campaign_id}/plots": (404, 409),
    "GET /v1/campaigns/{campaign_id}/plots/{name}": (404, 409),
    "GET /v1/campaigns/{campaign_id}/map": (404, 409),
    "GET /v1/batches": (),
    "POST /v1/batches": (422, 503),
    "GET /v1/batches/{batch_id}": (404,),
    "POST /v1/batches/{batch_id}/cancel": (404, 409),
    "DELETE /v1/batches/{batch_id}": (404,),
    "GET /v1/batches/{batch_id}/stream": (404,),
    "GET /v1/batches/{batch_id}/results.csv": (404, 409),
    "GET /v1/batches/{batch_id}/results.parquet": (404, 409),
    "GET /v1/batches/{batch_id}/report": (404, 409),
    "GET /v1/batches/{batch_id}/report/{name}": (404, 409),
    "POST /v1/advise": (422,),
}

WHEN = {
    400: "A parameter or the body of the wrong shape (every problem listed, with its path), a body that is not JSON, "
         "or JSON nested or long beyond the server's limits.",
    401: "No token, or one the server does not know (`Authorization: Bearer TOKEN`).",
    403: "A Host the server does not answer to, a change that a browser says comes from another site, or the page's "
         "sign-in cookie without the page's Origin.",
    404: "No such campaign, batch or plot (or one that belongs to another token).",
    409: "Cancelling what has ended, deleting a campaign still stopping, or a table, map, plot, result or advice "
         "asked for before there is one.",
    413: "A body over the server's --max-body.",
    415: "A body that is not `Content-Type: application/json`.",
    422: "A scenario with problems (`file`, then every problem) or a value the request may not have (an unknown "
         "scenario name, `until` past the end, an unknown rules override, a faction of another scenario...).",
    429: "--queue-limit campaigns already wait (`Retry-After`).",
    503: "The server is stopping (`Retry-After`).",
}

PROBLEM = {"type": "object", "required": ["path", "expected", "found"], "additionalProperties": False,
           "properties": {"path": {"type": "string"}, "expected": {"type": "string"}, "found": {"type": "string"}}}
ERROR_BODY = {
    "type": "object", "required": ["error", "message", "problems"], "additionalProperties": False,
    "description": "Every error: `error` (a word: bad_request, unauthorized, forbidden, not_found, conflict, not_yet, "
                   "too_large, unsupported_media_type, scenario, invalid, busy, unavailable), `message` (a sentence), "
                   "`problems` (each bad value's path, what was expected and what was found), `file` (a scenario's "
                   "label, for a scenario's problems).",
    "properties": {"error": {"type": "string"}, "message": {"type": "string"},
                   "problems": {"type": "array", "items": {"$ref": REF.format(name="ErrorProblem")}},
                   "file": {"type": "string"}},
}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "string"}}}
# request bodies that name a built-in scenario or carry TOML text: exactly one of the two
ONE_OF = {"CampaignRequest": ("scenario", "text"), "BatchRequest": ("scenario", "text"),
          "ValidateRequest": ("scenario", "text"), "AdviseRequest": ("scenario", "state")}
BUILTIN_ONLY = ("CampaignRequest", "BatchRequest", "AdviseRequest")  # validate reports an unknown name as a problem


def _handlers(app: Litestar) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            for h in route.route_handlers:
                for m in h.http_methods:
                    out[f"{m} {route.path_format}"] = h
    return out


def _answer_type(h: Any) -> Any:
    """The type a handler's JSON answer is encoded from, or None (a stream, bytes, CSV, PNG...)."""
    t = h.parsed_fn_signature.return_type.annotation
    if typing.get_origin(t) is Response or (isinstance(t, type) and issubclass(t, Response)):
        args = typing.get_args(t)
        t = args[0] if args else None
    if t is None or t in (bytes, str, type(None)) or h.media_type not in ("", "application/json"):  # "": the Response's
        return None
    return t


def complete(app: Litestar, schema: dict[str, Any], *, tokens: bool) -> None:
    """Make ``schema`` (Litestar's, as served at /docs/openapi.json) say what the server does."""
    from scenarios.loader import builtin_names

    handlers = _handlers(app)
    ops: list[tuple[str, dict[str, Any], Any]] = []
    for path, item in schema.get("paths", {}).items():
        for method, op in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                key = f"{method.upper()} {path}"
                if key not in ERRORS:
                    raise RuntimeError(f"{key}: no entry in workers.server.openapi.ERRORS (the statuses it answers)")
                ops.append((key, op, handlers[key]))
    bodies = [h.parsed_fn_signature.parameters["payload"].annotation for _, _, h in ops
              if "payload" in h.parsed_fn_signature.parameters]
    answers = [t for _, _, h in ops if (t := _answer_type(h)) is not None]
    refs, components = msgspec.json.schema_components([*bodies, *answers], ref_template=REF)
    ref_of = dict(zip([*bodies, *answers], refs, strict=True))

    for key, op, h in ops:
        body = h.parsed_fn_signature.parameters.get("payload")
        if body is not None:
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": ref_of[body.annotation]}}}
        answer = _answer_type(h)
        ok = op["responses"].get(str(h.status_code), {"description": "OK"})
        if answer is not None:
            ok["content"] = {"application/json": {"schema": ref_of[answer]}}
        elif h.status_code == 204:
            ok.pop("content", None)
        statuses = set(ERRORS[key]) | {403}
        if tokens:
            statuses.add(401)
        if body is not None:
            statuses |= {400, 413, 415}
        _bounds(op, h)
        if any(p.get("in") == "query" for p in op.get("parameters", [])):
            statuses.add(400)
        op["responses"] = {str(h.status_code): ok}
        for status in sorted(statuses):
            response: dict[str, Any] = {"description": WHEN[status],
                                        "content": {"application/json": {"schema": {"$ref": REF.format(name="ErrorBody")}}}}
            if status in (429, 503):
                response["headers"] = RETRY_AFTER
            op["responses"][str(status)] = response
        if tokens:
            op["security"] = [{"bearer": []}]

    names = builtin_names()
    for name, (one, other) in ONE_OF.items():
        comp = components.get(name)
        if comp is None:
            continue
        if name in BUILTIN_ONLY:
            comp["properties"][one] = {"anyOf": [{"enum": list(names)}, {"type": "null"}], "default": None}
        comp["oneOf"] = [{"required": [one], "properties": {one: {"type": "string"}}},
                         {"required": [other], "properties": {other: {"type": "string"}}}]
    components["ErrorBody"] = ERROR_BODY
    components["ErrorProblem"] = PROBLEM
    schema.setdefault("components", {})["schemas"] = dict(sorted(components.items()))
    if tokens:
        schema["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer", "description":
                                                              "a token whose SHA-256 digest is in the server's --tokens file"}}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``oneOf: [X, null]`` as ``X`` with ``type: [X's, "null"]``: a query string gives no JSON, so a value
    matches one branch or the other, never both (Litestar reads the word ``null`` as no value)."""
    branches = schema.get("oneOf")
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        kept = next(b for b in branches if b != {"type": "null"})
        if isinstance(kept.get("type"), str):
            rest = {k: v for k, v in schema.items() if k != "oneOf"}
            return {**kept, **rest, "type": [kept["type"], "null"]}
    return schema


def _bounds(op: dict[str, Any], h: Any) -> None:
    """The query parameters with their bounds (Litestar drops a bound of 0 and those of an optional value)."""
    fields: dict[str, KwargDefinition] = {}
    for name, f in h.parsed_fn_signature.parameters.items():
        kd = f.kwarg_definition
        if isinstance(kd, KwargDefinition):
            fields[getattr(kd, "query", None) or name] = kd
    for p in op.get("parameters", []):
        if p.get("in") != "query":
            continue
        p["schema"] = _nullable(p["schema"])
        kd = fields.get(p["name"])
        if kd is None:
            continue
        for attr, word in (("ge", "minimum"), ("le", "maximum"), ("max_length", "maxLength"), ("max_items", "maxItems")):
            value = getattr(kd, attr, None)
            if value is not None:
                p["schema"][word] = value
