"""World state of the kingdoms (KM) system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

import msgspec


class KmWorld(msgspec.Struct):
    pass
