"""The code version a job, a result and a save file are tied to.

``code_version()`` is the package version plus a digest of the engine's source files (``sim``,
``scenarios``, ``agents``, scenario data): two checkouts that could give different ledgers never
share a code version.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import sim

_ROOT = Path(sim.__file__).resolve().parent.parent
_PACKAGES = ("sim", "scenarios", "agents")


@lru_cache(maxsize=1)
def code_version() -> str:
    h = hashlib.sha256()
    for pkg in _PACKAGES:
        base = _ROOT / pkg
        for p in sorted(base.rglob("*")):
            if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(_ROOT)).encode())
                h.update(b"\0")
                h.update(p.read_bytes())
                h.update(b"\0")
    return f"{sim.__version__}+{h.hexdigest()[:12]}"
