"""Pictures for the bot: adventurer mats, battle maps and dice rolls, drawn from plain view-model dicts.

Every entry point is a plain synchronous function returning PNG bytes; callers run it in a worker
thread (``asyncio.to_thread``).
"""
from __future__ import annotations

from render.battlemap import render_map
from render.delve import render_delve_map, render_placements
from render.dice import render_roll
from render.mat import render_mat
from render.skirmish import render_skirmish

__all__ = ["render", "render_map", "render_mat", "render_roll"]

_KINDS = {"mat": render_mat, "map": render_map, "roll": render_roll, "skirmish": render_skirmish,
          "delvemap": render_delve_map, "placements": render_placements}


def render(kind: str, view: dict) -> bytes:
    """Dispatch on ``kind`` ("mat", "map" or "roll") and return PNG bytes."""
    try:
        fn = _KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown picture kind {kind!r}; expected one of {sorted(_KINDS)}") from None
    return fn(view)
