"""A plain progress bar on stderr: done/total, rate, ETA. No dependency.

On a terminal it redraws one line (at most ten times a second). When the stream is not a terminal
(a log file, a pipe, a test) it writes the same line at most once a minute, so a long tournament run
into a log file says how far it is, and :meth:`Progress.close` prints one final line.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    s = max(0, int(seconds + 0.5))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _rate(per_second: float) -> str:
    """Jobs per second, or seconds per job when jobs are slow ("21.3 s/job", not "0.0 jobs/s")."""
    if 0 < per_second < 0.1:
        return f"{1 / per_second:,.1f} s/job"
    return f"{per_second:,.1f} jobs/s"


class Progress:
    WIDTH = 24
    LOG_EVERY = 60.0  # seconds between lines off a terminal

    def __init__(self, total: int, label: str = "batch", stream: TextIO | None = None, *, tty: bool | None = None,
                 clock: object = None) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self._isatty() if tty is None else tty
        self._now = clock if callable(clock) else time.monotonic
        self.start = self._now()
        self.done = 0
        self.dead = 0
        self._last_draw = -1.0
        self._last_log = self.start
        self._closed = False

    def _isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError):
            return False

    # ------------------------------------------------------------------------------------------
    def update(self, done: int, dead: int = 0, *, force: bool = False) -> None:
        self.done, self.dead = done, dead
        if self._closed:
            return
        now = self._now()
        if not self.tty:
            if now - self._last_log >= self.LOG_EVERY and done + dead < self.total:
                self._last_log = now
                self.stream.write(self.line(now) + "\n")
                self.stream.flush()
            return
        if not force and now - self._last_draw < 0.1 and done + dead < self.total:
            return
        self._last_draw = now
        self.stream.write("\r" + self.line(now) + "\x1b[K")
        self.stream.flush()

    def line(self, now: float | None = None) -> str:
        now = self._now() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        finished = self.done + self.dead
        total = max(self.total, 1)
        frac = min(finished / total, 1.0)
        fill = int(frac * self.WIDTH)
        bar = "#" * fill + "." * (self.WIDTH - fill)
        rate = finished / elapsed
        if finished >= self.total:
            eta = "done"
        elif rate > 0:
            eta = "ETA " + _clock((self.total - finished) / rate)
        else:
            eta = "ETA --:--"
        dead = f", {self.dead} dead" if self.dead else ""
        return (f"{self.label} [{bar}] {finished}/{self.total} ({frac * 100:5.1f}%{dead}) "
                f"{_rate(rate)}  {eta}")

    def close(self, message: str | None = None) -> None:
        """Finish the line (terminal) or print the one final line (not a terminal)."""
        if self._closed:
            return
        self._closed = True
        now = self._now()
        elapsed = now - self.start
        finished = self.done + self.dead
        rate = finished / elapsed if elapsed > 0 else 0.0
        final = message or (f"{self.label}: {finished}/{self.total} jobs in {_clock(elapsed)} "
                            f"({_rate(rate)}{f', {self.dead} dead' if self.dead else ''})")
        if self.tty:
            self.stream.write("\r" + self.line(now) + "\x1b[K\n")
        self.stream.write(final + "\n")
        self.stream.flush()
