"""World state of the guild warfare (GW) system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

import msgspec


class GwWorld(msgspec.Struct):
    pass
