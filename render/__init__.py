"""Pictures for the bot, drawn from plain view-model dicts: adventurer mats and sheets, battle maps (and the
battle's end), dice rolls, lockpick checks and the skirmish's map and initiative.

Every entry point is a plain synchronous function returning PNG bytes; callers run it in a worker
thread (``asyncio.to_thread``).  Every picture is drawn for a phone: no text is smaller than
``render.common.min_text(width)`` (10 px once Discord shows it 400 px wide).
"""
from __future__ import annotations

from render.battlemap import render_map, render_result
from render.delve import render_delve_map, render_placements
from render.dice import render_roll
from render.duel import render_duel
from render.engage import render_engage
from render.journal import render_journal
from render.lockpick import render_lockpick
from render.mat import render_mat, render_sheet
from render.overland import render_overland
from render.skirmish import render_skirmish

__all__ = ["KINDS", "clear_caches", "render", "render_journal", "render_lockpick", "render_map", "render_mat", "render_result",
           "render_overland", "render_roll", "render_sheet", "render_skirmish"]

#: every picture kind a ruleset may request (``engine.reply.Picture.kind``)
KINDS = {"mat": render_mat, "sheet": render_sheet, "map": render_map, "result": render_result,
         "roll": render_roll, "lockpick": render_lockpick, "skirmish": render_skirmish,
         "engage": render_engage, "duel": render_duel, "overland": render_overland,
         "delvemap": render_delve_map, "placements": render_placements,
         "journal": render_journal}


def render(kind: str, view: dict) -> bytes:
    """Dispatch on ``kind`` (one of ``KINDS``) and return PNG bytes."""
    try:
        fn = KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown picture kind {kind!r}; expected one of {sorted(KINDS)}") from None
    return fn(view)


def clear_caches() -> None:
    """Forget every cached static layer and palette (the next picture of each kind is drawn cold)."""
    from render import battlemap, common, delve, mat, overland, skirmish

    battlemap.clear_cache()
    delve.clear_cache()
    mat.clear_cache()
    overland.clear_cache()
    skirmish.clear_cache()
    common.clear_palettes()
