"""A fork server for the local pool's job processes (``python -m workers.forkserver FD``): it imports the
engine once (:func:`workers.job.preload`, about a second of CPU, most of it Mesa's own imports) and
forks a job process per request, ready for its first job in a few milliseconds instead of a fresh
interpreter's second (issue 26, item 3; docs/performance.md).

The parent (:class:`ForkServer`) talks to it over a Unix socket, msgpack only, one request at a time:

- ``["fork"]`` with two file descriptors passed along (SCM_RIGHTS): the read end of the job process's
  stdin and the write end of its stdout. The server forks; the child starts a session of its own, takes
  them as its stdin and stdout and runs :func:`workers.local_child.main` — the same job process as a
  fresh ``python -m workers.local_child``, speaking the same protocol. Answer: ``["pid", pid]``.
- ``["warm", payload]``: read the scenario of that job (msgpack bytes) now, so that every job process
  forked after it finds it parsed. Answer: ``["warm"]``.
- ``["poll", pid]``: ``["status", code]``, the child's exit code as :class:`subprocess.Popen` gives it
  (negative: killed by that signal), or ``None`` while it runs. The server reaps a child only when asked
  (as ``Popen.poll`` does), so a pid the parent holds is never reused under it.

The server dies with its parent (PR_SET_PDEATHSIG) and each job process with the server, so killing the
parent still leaves no job behind. A server that cannot start or that is gone is not an error: the pool
starts fresh interpreters as before (:class:`workers.child.JobProcess`). Nothing is pickled.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import msgpack

_ROOT = Path(__file__).resolve().parent.parent


def child_env() -> dict[str, str]:
    """The environment of a job process (and of the fork server): this one, the project on PYTHONPATH,
    one thread for NumPy's OpenBLAS and none for pyarrow's jemalloc (:func:`one_thread_env`)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return one_thread_env(env)


def one_thread_env[E: MutableMapping[str, str]](env: E) -> E:
    """``env`` for a process that imports the engine (and may then fork): one thread, so that a fork
    copies no lock another thread holds, and no CPU spent by idle threads. NumPy's OpenBLAS starts a
    thread pool at import, whose threads spin for a while (0.1-0.2 s of CPU a process), and pyarrow's
    jemalloc (pandas imports pyarrow) a background thread; a job process computes on one core anyway.
    A value the user has set is kept."""
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("JE_ARROW_MALLOC_CONF", "background_thread:false")
    return env


class Forked:
    """A job process forked by the server: what :class:`workers.child.JobProcess` uses of a Popen."""

    def __init__(self, server: ForkServer, pid: int) -> None:
        self.server = server
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.status(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.0005
        while True:
            code = self.poll()
            if code is not None:
                return code
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(f"job process {self.pid}", timeout or 0.0)
            time.sleep(delay)
            delay = min(2 * delay, 0.05)

    def kill(self) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class ForkServer:
    """The parent's side: starts the server and asks it for job processes (thread-safe)."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            env = child_env()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "workers.forkserver", str(theirs.fileno())],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env,
            )
        finally:
            theirs.close()
        self.sock = ours
        self.lock = threading.Lock()
        self.unpacker = msgpack.Unpacker(raw=False, use_list=True)
        self.gone = False

    def _ask(self, msg: list[Any], fds: list[int] | None = None) -> list[Any]:
        """Send one request, return its answer; OSError when the server is gone."""
        with self.lock:
            if self.gone:
                raise OSError("the fork server is gone")
            try:
                data = msgpack.packb(msg, use_bin_type=True)
                if fds:
                    socket.send_fds(self.sock, [data], fds)
                else:
                    self.sock.sendall(data)
                while True:
                    for reply in self.unpacker:
                        return list(reply)
                    chunk = self.sock.recv(1 << 16)
                    if not chunk:
                        raise OSError("the fork server is gone")
                    self.unpacker.feed(chunk)
            except OSError:
                self.gone = True
                raise

    def spawn(self) -> tuple[Forked, int, int]:
        """A new job process: (its handle, the write end of its stdin, the read end of its stdout).
        Raises OSError when the server cannot fork one."""
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        try:
            reply = self._ask(["fork"], [in_r, out_w])
        except BaseException:
            for fd in (in_w, out_r):
                os.close(fd)
            raise
        finally:
            os.close(in_r)
            os.close(out_w)
        if reply[0] != "pid" or not isinstance(reply[1], int):
            os.close(in_w)
            os.close(out_r)
            raise OSError(f"the fork server could not fork: {reply[1]}")
        return Forked(self, reply[1]), in_w, out_r

    def warm(self, payload: bytes) -> None:
        """Have the server read the scenario of a job (``payload``: its msgpack bytes) before it forks, so
        that each job process finds it parsed (:func:`workers.job.job_scenario` keeps it). A scenario that
        does not load is left to the job to report."""
        try:
            self._ask(["warm", payload])
        except OSError:
            pass

    def status(self, pid: int) -> int | None:
        try:
            reply = self._ask(["poll", pid])
        except OSError:
            return -signal.SIGKILL  # its server is gone: it died with it (PR_SET_PDEATHSIG)
        return reply[1] if isinstance(reply[1], int) else None

    def close(self) -> None:
        """Stop the server (its job processes should be closed first: they die with it)."""
        with self.lock:
            self.gone = True
            self.sock.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start() -> ForkServer | None:
    """A fork server, or None when one cannot start here (the pool then starts fresh interpreters)."""
    if not hasattr(os, "fork") or not hasattr(socket, "send_fds"):
        return None
    try:
        return ForkServer()
    except OSError:
        return None


def _child(sock: socket.socket, fds: list[int]) -> None:
    """In the forked job process: never returns."""
    code = 70
    try:
        sock.close()
        os.setsid()  # a session of its own, as JobProcess's Popen(start_new_session=True): killpg reaches what it starts
        os.dup2(fds[0], 0)
        os.dup2(fds[1], 1)
        for fd in fds:
            os.close(fd)
        from workers.local_child import main

        code = main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001 - the job process could not run: say why on stderr
        traceback.print_exc()
    finally:
        for f in (sys.stdout, sys.stderr):
            try:
                f.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def serve(fd: int) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    from workers.local_child import die_with_parent

    die_with_parent()
    from workers.job import decode, job_scenario, preload

    preload()  # (an engine that does not import is said by each job process's own preload)
    sock = socket.socket(fileno=fd)
    unpacker = msgpack.Unpacker(raw=False, use_list=True)

    def answer(msg: list[Any]) -> None:
        sock.sendall(msgpack.packb(msg, use_bin_type=True))

    while True:
        data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 2)
        if not data:
            return 0
        unpacker.feed(data)
        for req in unpacker:
            if req == ["fork"] and len(fds) == 2:
                try:
                    pid = os.fork()
                except OSError as e:
                    answer(["error", str(e)])
                else:
                    if pid == 0:
                        _child(sock, fds)
                    answer(["pid", pid])
                for f in fds:
                    os.close(f)
                fds = []
            elif len(req) == 2 and req[0] == "warm" and isinstance(req[1], bytes):
                try:
                    job_scenario(decode(req[1]).get("scenario") or {})
                except Exception:  # noqa: BLE001 - the job itself will say what is wrong with it
                    pass
                answer(["warm"])
            elif len(req) == 2 and req[0] == "poll" and isinstance(req[1], int):
                try:
                    got, status = os.waitpid(req[1], os.WNOHANG)
                except ChildProcessError:
                    answer(["status", -signal.SIGKILL])  # not ours (any more): never expected
                    continue
                answer(["status", os.waitstatus_to_exitcode(status) if got else None])
            else:
                answer(["error", f"unknown request {str(req)[:80]}"])


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1])))
