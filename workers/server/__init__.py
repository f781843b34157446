"""The realmsim server (``realmsim serve``): campaigns, forks and batches over HTTP, a live web page.

Layout: :mod:`.serve` (the command), :mod:`.app` (the ASGI app and its routers), one router module per
resource (:mod:`.scenarios_api`, :mod:`.campaigns_api`, :mod:`.batches_api`, :mod:`.pages`), the
runners that keep campaigns and batches out of the event loop (:mod:`.runner` with
:mod:`.campaign_child`, :mod:`.batch_runner` with :mod:`.batch_child`), the records
(:mod:`.store`), the tokens and who owns what (:mod:`.auth`), what every request passes before
routing (:mod:`.guard`: Host, token, origin), request bodies decoded strictly (:mod:`.bodies`) after
being measured (:mod:`.limits`), what a network request may ask (:mod:`.inputs`), the OpenAPI schema
made to say what the server does (:mod:`.openapi`). See docs/server.md.
"""
