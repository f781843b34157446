"""What the routers share: the settings, the store, the campaign and batch runners.

One :class:`Services` lives in the app's state (``request.app.state.svc``); routers reach it with
:func:`svc`. A new resource (say ``/v1/advise``) is a router module that takes what it needs here.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litestar import Request

from workers.options import DEFAULT_MAX_BODY
from workers.server.auth import Tokens
from workers.server.store import Store

log = logging.getLogger("realmsim.server")


@dataclass
class Settings:
    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 8000
    redis: str | None = None
    queue_prefix: str = "realmsim"
    tokens: Tokens | None = None
    allow_hosts: tuple[str, ...] = ()  # --allow-host: names the server answers to besides loopback's
    max_campaigns: int = 2
    queue_limit: int = 100
    batch_workers: int = 2
    drain_timeout: float = 30.0
    max_body: int = DEFAULT_MAX_BODY


@dataclass
class Services:
    settings: Settings
    store: Store = field(init=False)
    campaigns: Any = field(init=False)  # runner.CampaignRunner
    batches: Any = field(init=False)  # batches_runner.BatchRunner
    stopping: bool = False
    loop: asyncio.AbstractEventLoop | None = None

    async def open(self) -> None:
        self.loop = asyncio.get_running_loop()
        from workers.server.batch_runner import BatchRunner
        from workers.server.runner import CampaignRunner

        s = self.settings
        self.store = Store(s.data_dir)
        self.campaigns = CampaignRunner(self.store, max_campaigns=s.max_campaigns, queue_limit=s.queue_limit)
        self.batches = BatchRunner(self.store, redis=s.redis, prefix=s.queue_prefix, workers=s.batch_workers)
        await self.campaigns.start()
        await self.batches.start()
        log.info("realmsim.server: records in %s; %s", self.store.path,
                 f"batches on Redis workers at {self.batches.redacted}" if s.redis else "batches on a local process pool")

    def begin_stop(self) -> None:
        """SIGTERM: refuse new work, end the event streams (clients reconnect to the next server)."""
        self.stopping = True
        for feed in list(self.campaigns.feeds.values()):
            feed._notify()  # noqa: SLF001 - wake the streams so that they see ``stopping``
        for feed in list(self.batches.feeds.values()):
            feed._notify()  # noqa: SLF001

    async def close(self) -> None:
        self.begin_stop()
        await self.campaigns.drain(self.settings.drain_timeout)
        await self.batches.drain(self.settings.drain_timeout)
        self.store.close()
        log.info("realmsim.server: stopped cleanly")


def svc(request: Request[Any, Any, Any]) -> Services:
    return request.app.state.svc  # type: ignore[no-any-return]
