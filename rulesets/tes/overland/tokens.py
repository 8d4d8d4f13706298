"""NPC and objective tokens on the overland map (p.46, with Map Definitions p.58).

A token told to move goes that many hexes along the shortest route, stopping early when it reaches its
destination; with several equal routes the party would choose, and the bot takes engine.hexes' default
(the first direction in the order E, NE, NW, W, SW, SE that stays on a shortest route).  A token told to
move in a direction moves hex by hex that way and ends its move at the map's edge.  Tokens may share hexes.
"""
from __future__ import annotations

from engine.hexes import DIRECTIONS, Hex, toward as walk_toward
from rulesets.tes.content.overland import DIRECTIONS as DIRECTION_WORDS
from rulesets.tes.day_state import Token
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.overland.geo import cells, here


def token(c: DayCtx, token_id: str) -> Token | None:
    return next((t for t in c.s.tokens if t.id == token_id), None)


def move_token(c: DayCtx, tok: Token, steps: int, where: str) -> list[Hex]:
    """Move ``tok`` ``steps`` hexes toward "party", "town:<id>" or "compass" (a direction rolled); the path."""
    prov = c.province
    start = Hex(tok.q, tok.r)
    ground = cells(prov)
    if where == "compass":
        roll = c.dice.roll(6)
        name = prov.compass_faces[roll - 1]
        d = DIRECTIONS[DIRECTION_WORDS.index(name)]
        path, at = [], start
        for _ in range(steps):
            nxt = Hex(at.q + d.q, at.r + d.r)
            if nxt not in ground:
                break
            path.append(nxt)
            at = nxt
        c.say("token-roll", f"The compass die rolls {roll}: {name.upper()}.", roll=roll)
    else:
        goal = here(c.s) if where == "party" else Hex(*prov.hex_of_town(where[5:]))
        path = walk_toward(start, goal, steps, ground)
    tok.path = [[start.q, start.r]] + [[h.q, h.r] for h in path]
    if path:
        tok.q, tok.r = path[-1].q, path[-1].r
        c.say("token", f"The {tok.name} moves {len(path)} {'hex' if len(path) == 1 else 'hexes'}: "
                       + " → ".join(str(h) for h in [start] + path) + ".", token=tok.id)
    else:
        c.say("token", f"The {tok.name} has nowhere to move and stays at {start}.", token=tok.id)
    return path
