"""The ASGI app: one router module per resource, mounted here.

``/v1/scenarios``, ``/v1/campaigns``, ``/v1/batches`` (the API), ``/`` and ``/campaigns/…``,
``/batches/…`` (the web page), ``/docs`` (the API reference, drawn from the OpenAPI schema at
``/docs/openapi.json``), ``/healthz``. Adding a resource is one module with a ``router`` and one line
in :data:`ROUTERS`.
"""

from __future__ import annotations

import html
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Request, get
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin, YamlRenderPlugin
from litestar.routes import HTTPRoute

from sim.version import code_version
from workers.server import (
    advise_api,
    batches_api,
    campaign_advice,
    campaign_page,
    campaigns_api,
    pages,
    scenarios_api,
)
from workers.server.errors import HANDLERS
from workers.server.guard import Guard, allowed_hosts
from workers.server.openapi import complete
from workers.server.services import Services, Settings

ROUTERS: list[Any] = [scenarios_api.router, campaigns_api.router, batches_api.router, advise_api.router, pages.router,
                      campaign_page.router, campaign_advice.router]


@get("/healthz", summary="Liveness: 200 while the server takes work, 503 while it stops", include_in_schema=False)
async def healthz(request: Request[Any, Any, Any]) -> dict[str, Any]:
    from workers.server.errors import ApiError
    from workers.server.services import svc

    s = svc(request)
    if s.stopping:
        raise ApiError(503, "unavailable", "the server is stopping")
    return {"ok": True, "code_version": code_version(), "mode": s.batches.mode,
            "campaigns": {"running": len(s.campaigns.running), "queued": s.campaigns.queued_count()}}


class ReferencePage(OpenAPIRenderPlugin):
    """``/docs``: the API reference as plain HTML from the OpenAPI schema (no script from elsewhere:
    the server may run with no Internet access)."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        from workers.server.pages import layout

        parts = [f"<p>{html.escape(openapi_schema.get('info', {}).get('description', ''))}</p>",
                 '<p>The schema: <a href="/docs/openapi.json">openapi.json</a> · <a href="/docs/openapi.yaml">openapi.yaml'
                 "</a>. Errors are JSON: <code>{\"error\", \"message\", \"problems\": [{\"path\", \"expected\", "
                 "\"found\"}]}</code>. See docs/server.md for examples.</p>"]
        for path, ops in openapi_schema.get("paths", {}).items():
            for method, op in ops.items():
                if method not in ("get", "post", "delete", "put", "patch"):
                    continue
                params = "".join(
                    f"<li><code>{html.escape(p['name'])}</code> ({html.escape(p.get('in', ''))}{', required' if p.get('required') else ''})"
                    f" {html.escape(p.get('description', '') or '')}</li>" for p in op.get("parameters", []))
                body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
                ref = body.get("$ref", "").rsplit("/", 1)[-1]
                parts.append(f'<section class="op"><h3><span class="verb {method}">{method.upper()}</span> '
                             f"<code>{html.escape(path)}</code></h3><p>{html.escape(op.get('summary', ''))}</p>"
                             + (f"<ul>{params}</ul>" if params else "")
                             + (f"<p>Body: <code>{html.escape(ref)}</code></p>" if ref else "") + "</section>")
        schemas = openapi_schema.get("components", {}).get("schemas", {})
        for name, sch in sorted(schemas.items()):
            fields = "".join(
                f"<li><code>{html.escape(k)}</code>{' (required)' if k in sch.get('required', []) else ''}: "
                f"<code>{html.escape(json.dumps(v.get('type') or v.get('anyOf') or v.get('$ref') or v.get('oneOf') or ''))[:160]}"
                f"</code> {html.escape(v.get('description', '') or '')}</li>" for k, v in sch.get("properties", {}).items())
            parts.append(f'<section class="schema"><h3 id="{html.escape(name)}">{html.escape(name)}</h3><ul>{fields}</ul></section>')
        return layout("API reference", "".join(parts), request).encode()


def create_app(settings: Settings) -> Litestar:
    services = Services(settings)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        await services.open()
        try:
            yield
        finally:
            await services.close()

    app = Litestar(
        route_handlers=[*ROUTERS, healthz],
        lifespan=[lifespan],
        state=State({"svc": services}),
        exception_handlers=HANDLERS,
        request_max_body_size=settings.max_body,
        openapi_config=OpenAPIConfig(
            title="realmsim", version=code_version(), path="/docs",
            description="Campaigns, forks and batches of realmsim over HTTP: the same scenarios, rules and ledgers as "
                        "the command line.",
            render_plugins=[ReferencePage(path="/"), JsonRenderPlugin(path="/openapi.json"),
                            YamlRenderPlugin(path="/openapi.yaml")],
        ),
        debug=False,
    )
    # the schema as the /docs plugins will serve it (built once and kept by Litestar), completed in place
    complete(app, app.plugins.get("OpenAPIPlugin").provide_openapi_schema(), tokens=settings.tokens is not None)
    allow = {r.path_format: ", ".join(sorted(r.methods)) for r in app.routes if isinstance(r, HTTPRoute)}
    # the guard sees every request before routing (Litestar's own middleware runs only once a route matched)
    app.asgi_handler = Guard(app.asgi_handler, hosts=allowed_hosts(settings.host, settings.allow_hosts, settings.tokens),
                             tokens=settings.tokens, allow=allow)
    return app
