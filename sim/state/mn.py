"""World state of the Mare Nostrum (MN) system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

import msgspec


class MnWorld(msgspec.Struct):
    pass
