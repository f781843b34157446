"""World state of the caravans (CV) system. Placeholder: the system's issue fills it in."""

from __future__ import annotations

import msgspec


class CvWorld(msgspec.Struct):
    pass
