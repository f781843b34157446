"""A local pool's worker process: reads jobs from stdin, writes results to stdout, msgpack only.

Each message in is ``[seed, key, payload]`` (payload: a job's msgpack bytes); each message out is
``[seed, key, ok, value, traceback]`` where ``value`` is the result's msgpack bytes or the error
text. Nothing is pickled. Started by :func:`workers.local.run_local`; not meant to be run by hand.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback

import msgpack


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    from workers.job import preload, run_job

    preload()
    # the protocol keeps the real stdout to itself; anything the engine prints goes to stderr
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    fd = sys.stdin.fileno()
    unpacker = msgpack.Unpacker(raw=False, use_list=True)
    out.write(msgpack.packb(["ready"], use_bin_type=True))
    out.flush()
    while True:
        chunk = os.read(fd, 1 << 16)  # whatever has arrived: a job is never held back for a full buffer
        if not chunk:
            return 0  # the parent closed the pipe: the batch is over
        unpacker.feed(chunk)
        for seed, key, payload in unpacker:
            try:
                reply = [seed, key, True, run_job(payload), ""]
            except Exception as e:  # noqa: BLE001 - a bad job must never lose the batch
                reply = [seed, key, False, f"{type(e).__name__}: {e}", traceback.format_exc()]
            out.write(msgpack.packb(reply, use_bin_type=True))
            out.flush()


if __name__ == "__main__":
    sys.exit(main())
