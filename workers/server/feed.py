"""Live feeds for server-sent events: what a running campaign or batch has produced so far, and a
way to wait for more.

A campaign's :class:`LedgerFeed` keeps every event of the current run as a ready-made SSE frame, so
a hundred clients following one campaign cost one encoding per event; a client that connects late
starts from frame 0 (or from ``Last-Event-ID``) and then waits for the next ones. When the run ends
the feed gets its end frame and is dropped by the runner; clients still reading it finish from it,
and later ones read the stored ledger.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


def sse(event: str, data: bytes | str, ident: int | str | None = None) -> bytes:
    body = data.encode() if isinstance(data, str) else data
    head = f"id: {ident}\nevent: {event}\n" if ident is not None else f"event: {event}\n"
    return head.encode() + b"data: " + body.replace(b"\n", b"\ndata: ") + b"\n\n"


KEEPALIVE = b": keep-alive\n\n"


class _Waitable:
    def __init__(self) -> None:
        self._wake = asyncio.Event()

    def _notify(self) -> None:
        self._wake.set()
        self._wake = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self._wake.wait(), timeout)
        except TimeoutError:
            pass


class LedgerFeed(_Waitable):
    def __init__(self) -> None:
        super().__init__()
        self.frames: list[bytes] = []
        self.tell: list[bool] = []  # the frame has a chronicle line or is a season summary
        self.end: bytes | None = None

    @property
    def done(self) -> bool:
        return self.end is not None

    def extend(self, frames: list[bytes], tell: list[bool]) -> None:
        self.frames.extend(frames)
        self.tell.extend(tell)
        self._notify()

    def finish(self, end: dict[str, Any]) -> None:
        self.end = sse("end", json.dumps(end))
        self._notify()


class ProgressFeed(_Waitable):
    """A batch's progress: the latest counts, and a wake-up whenever they change."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self.state = dict(state)
        self.version = 0
        self.done = False

    def update(self, **state: Any) -> None:
        self.state.update(state)
        self.version += 1
        self._notify()

    def finish(self, **state: Any) -> None:
        self.done = True
        self.update(**state)
