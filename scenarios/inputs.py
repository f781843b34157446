"""Files from outside, read as untrusted (issue 30): a size cap, a regular file, nothing read twice.

A scenario or state file, an orders file, a save file or a ledger comes from a person's disk and may
be anything: a directory, ``/dev/zero``, a named pipe nobody writes to, a file of gigabytes. Each is
opened here without blocking (a FIFO cannot stall the open), checked on the open descriptor (a
regular file, at most its kind's cap of :data:`scenarios.limits.FILE_CAPS`) and read through a
reader that counts: a file that grows while it is read stops at the cap too. Anything else is an
:class:`InputFileError` that names the file, what was expected and what was found, never a hang, a
traceback or a whole unbounded file in memory. Callers read in one go (:func:`read_input`, for the
formats that need the whole file: TOML, a save's checksum) or stream (:func:`open_input`, a ledger).
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

from scenarios.limits import FILE_CAPS, file_cap, size_text
from sim.errors import RealmsimError


class InputFileError(RealmsimError):
    """A file that cannot be read as input: missing, not a regular file, over its cap, unreadable."""

    def __init__(self, path: Path | str, expected: str, found: str) -> None:
        self.path, self.expected, self.found = str(path), expected, found
        super().__init__(f"{path}: expected {expected}, found {found}")


_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _cap_text(kind: str, cap: int) -> str:
    c = FILE_CAPS[kind]
    return f"{c.what} of at most {size_text(cap)} (${c.env} sets another limit)"


class _Capped(io.RawIOBase):
    """A regular file read no further than ``cap`` bytes in: a byte beyond is an :class:`InputFileError`
    (the file grew after it was checked). Seekable, as a Parquet reader needs."""

    def __init__(self, fd: int, path: Path, kind: str, cap: int) -> None:
        self._f = io.FileIO(fd, "rb", closefd=True)
        self.path, self.kind, self.cap = path, kind, cap

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._f.seek(offset, whence)

    def tell(self) -> int:
        return self._f.tell()

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        n = self._f.readinto(b) or 0
        end = self._f.tell()
        if end > self.cap:
            raise InputFileError(self.path, _cap_text(self.kind, self.cap),
                                 f"more than {end:,} bytes (it grew while it was read)".replace(",", " "))
        return n

    def close(self) -> None:
        self._f.close()
        super().close()


def open_input(path: Path | str, kind: str) -> io.BufferedReader:
    """``path`` opened for reading as a file of ``kind`` (``scenario``, ``orders``, ``save``, ``ledger``),
    after the checks of the module docstring; the reader stops at the cap."""
    p = Path(path)
    cap = file_cap(kind)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputFileError(p, f"{FILE_CAPS[kind].what}", "no such file") from None
    except OSError as e:
        raise InputFileError(p, f"{FILE_CAPS[kind].what} that can be read", e.strerror or type(e).__name__) from None
    try:
        st = os.fstat(fd)
        for is_kind, name in _NOT_REGULAR:
            if is_kind(st.st_mode):
                raise InputFileError(p, f"{FILE_CAPS[kind].what} (a regular file)", name)
        if st.st_size > cap:
            raise InputFileError(p, _cap_text(kind, cap), f"{st.st_size:,} bytes".replace(",", " "))
        os.set_blocking(fd, True)
        return io.BufferedReader(_Capped(fd, p, kind, cap), buffer_size=1 << 16)
    except BaseException:
        os.close(fd)
        raise


def check_input(path: Path | str, kind: str) -> None:
    """The checks of :func:`open_input` (a regular file under the cap of ``kind``) for a file another
    library then reads by its path (DuckDB reads a batch's tables itself)."""
    open_input(path, kind).close()


def read_input(path: Path | str, kind: str) -> bytes:
    """The whole of a file of ``kind``, at most its cap (the checks of :func:`open_input`)."""
    with open_input(path, kind) as f:
        try:
            return f.read()
        except OSError as e:
            raise InputFileError(path, f"{FILE_CAPS[kind].what} that can be read", e.strerror or type(e).__name__) from None
