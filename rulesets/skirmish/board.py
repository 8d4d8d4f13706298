"""The battlefield: a rectangle of pointy-top hexes, one hex = one inch, and its deployment zones.

Row ``r`` runs from 0 (top) to ``height - 1``; in each row the column
``c = q + r // 2`` runs from 0 (west) to ``width - 1``, so the field is a
rectangle on the picture while hexes keep the engine's axial ``q,r`` labels.
"""
from __future__ import annotations

from functools import lru_cache

from engine.hexes import Hex

ZONE_NAMES = ("the west edge", "the east edge", "the north edge", "the south edge")
MAX_WARBANDS = len(ZONE_NAMES)
ZONE_DEPTH = 2  # hexes deep


def column(h: Hex) -> int:
    return h.q + h.r // 2


@lru_cache(maxsize=16)
def field_hexes(width: int, height: int) -> frozenset[Hex]:
    return frozenset(Hex(c - r // 2, r) for r in range(height) for c in range(width))


@lru_cache(maxsize=64)
def zone(side: int, width: int, height: int) -> frozenset[Hex]:
    """Deployment zone ``side``: 0 west, 1 east (two columns each), 2 north, 3 south (two rows, between them)."""
    out = set()
    for h in field_hexes(width, height):
        c = column(h)
        if side == 0 and c < ZONE_DEPTH or side == 1 and c >= width - ZONE_DEPTH or side == 2 and h.r < ZONE_DEPTH and ZONE_DEPTH + 1 <= c < width - ZONE_DEPTH - 1 or side == 3 and h.r >= height - ZONE_DEPTH and ZONE_DEPTH + 1 <= c < width - ZONE_DEPTH - 1:
            out.add(h)
    return frozenset(out)
