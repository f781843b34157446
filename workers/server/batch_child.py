"""A local batch of the server: ``run_local`` (workers/local.py) in a process of its own.

Started by :class:`workers.server.batch_runner.BatchRunner` in a new process group, so that
cancelling the batch stops it and its pool processes at once (one signal to the group). Reads
``[plan record, workers]`` (msgpack) on stdin; writes ``[seed, ok, result, error]`` (msgpack, the
result as the job function returned it) for every job as it finishes. Not meant to be run by hand.
"""

from __future__ import annotations

import os
import signal
import sys

import msgpack


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from workers.batch import BatchPlan
    from workers.local import run_local

    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=1 << 30)
    while True:
        chunk = os.read(sys.stdin.fileno(), 1 << 16)
        if not chunk:
            return 0
        unpacker.feed(chunk)
        for record, workers in unpacker:
            plan = BatchPlan.from_record(record, "batch from the server")
            for o in run_local(plan, int(workers)):
                out.write(msgpack.packb([o.seed, o.result is not None, o.result, o.error], use_bin_type=True))
                out.flush()
            return 0


if __name__ == "__main__":
    sys.exit(main())
