"""The campaign's plots, drawn by workers/report.py from its season summaries and kept in the store.

``report_run`` reads a ledger file and writes PNGs; the server gives it a temporary file of the
campaign's ledger (the whole of it: some plots are drawn from the convoys' days, not only from the
season summaries) and keeps the PNGs (keyed by the hour they were drawn at, so a running campaign's
plots are redrawn once it has moved on). Drawing takes
seconds of CPU, so it happens in a process of its own (``python -m workers.server.plots``: msgpack
season events in, msgpack ``{name: png}`` out), one at a time, never in the server's event loop.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgpack
import msgspec

from sim.events import Event, encode_events
from workers.server.errors import ApiError

_DRAWING: asyncio.Lock | None = None


def draw(bodies: list[bytes]) -> dict[str, bytes]:
    """{plot name: PNG bytes}: ``treasury.png``…, and ``metric-<name>.png`` for the per-metric plots."""
    from workers.report import ReportError, report_run

    events = [msgspec.json.decode(b, type=Event) for b in bodies]
    with tempfile.TemporaryDirectory(prefix="realmsim-plots-") as tmp:
        ledger = Path(tmp) / "seasons.msgpack"
        ledger.write_bytes(encode_events(events))
        out = Path(tmp) / "out"
        try:
            written = report_run(ledger, out)
        except ReportError:
            return {}
        plots = {}
        for p in written:
            if p.suffix != ".png":
                continue
            rel = p.relative_to(out)
            name = rel.name if len(rel.parts) == 1 else f"metric-{rel.name}"
            plots[name] = p.read_bytes()
        return plots


async def plots_for(s: Any, rec: dict[str, Any]) -> dict[str, bytes]:
    cid, hour = rec["id"], rec["hour"]
    found = await s.store.call(s.store.plots, cid, hour)
    if found:
        return found
    if not await s.store.call(s.store.season_events, cid):
        raise ApiError(409, "not_yet", f"campaign {cid} has no season summary yet")
    bodies = await s.store.call(s.store.ledger, cid)
    plots = await draw_elsewhere(bodies)
    if plots:
        await s.store.call(s.store.set_plots, cid, hour, plots)
    return plots


async def draw_elsewhere(bodies: list[bytes]) -> dict[str, bytes]:
    global _DRAWING
    from workers.server.runner import child_env

    _DRAWING = _DRAWING or asyncio.Lock()
    async with _DRAWING:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "workers.server.plots", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env=child_env())
        out, _ = await proc.communicate(msgpack.packb(bodies, use_bin_type=True))
    if proc.returncode != 0:
        raise ApiError(500, "server_error", f"drawing the plots failed (exit status {proc.returncode}; see the server's log)")
    return dict(msgpack.unpackb(out, raw=False))


def main() -> int:
    bodies = msgpack.unpackb(sys.stdin.buffer.read(), raw=False)
    sys.stdout.buffer.write(msgpack.packb(draw(bodies), use_bin_type=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
