"""Helpers for the delve and dungeon tests: a delve started with its deck and tile stacks in a known order."""
from __future__ import annotations

from battle_helpers import ctx, party, run

from rulesets.tes.battle import pool
from rulesets.tes.battle.delve_map import explorable, placements
from rulesets.tes.content import load_pack

PACK = load_pack("starter")


def delve(encounter: str = "brinehollow-caves", *, first: str = "S", xp: int = 2, hexes=None, **args):
    """Shannon (S) and Ryan (R) start a delve; the entrance's door hexes are 1,0 (top) and 1,1 (bottom)."""
    s = party()
    s.xp_dial = xp
    a = {"encounter": encounter, "first": first} | args
    if hexes:
        a["hexes"] = hexes
    s, ev = run(s, "battle.start", "S", a)
    return s, ev


def on_top(s, *cards: str) -> None:
    """Put these delve cards on top of the deck, in this order."""
    d = s.battle.delve
    for c in cards:
        if c in d.deck:
            d.deck.remove(c)
        if c in d.discard:
            d.discard.remove(c)
    d.deck[:0] = list(cards)


def tiles_first(s, shape: int, *tiles: str) -> None:
    stack = s.battle.delve.stacks[str(shape)]
    for t in tiles:
        stack.remove(t)
    stack[:0] = list(tiles)


def chip_roll(s, enemy: str) -> int:
    """The forced die value that draws ``enemy``'s chip from its bag now (the bag sorted by chip id)."""
    e = PACK.enemies[enemy]
    b = s.battle
    province = b.delve.province if b.delve else None
    taken = pool.chips_out(PACK, b)
    bag = sorted({x.chip for x in PACK.enemies.values() if not x.quest_unit and x.level == e.level
                  and (x.province is None or x.province == province) and x.chip not in taken})
    return bag.index(e.chip) + 1


def open_hexes(s):
    return explorable(ctx(s))


def options(s, tile, at):
    return placements(ctx(s), tile, at)


def place_where(s, pred) -> int:
    """The number of the first offered placement whose hexes satisfy ``pred`` (a set of (q, r))."""
    from engine.hexes import Hex

    ex = s.battle.delve.exploring
    tile = PACK.tiles[ex.tile]
    from rulesets.tes.battle.delve_map import tile_hexes

    for i, (q, r, rot) in enumerate(ex.options, 1):
        hexes = {(h.q, h.r) for h in tile_hexes(tile, Hex(q, r), rot)["hexes"]}
        if pred(hexes, tile_hexes(tile, Hex(q, r), rot)):
            return i
    raise AssertionError("no placement fits")


def grown_delve(tiles: int = 8, seed: int = 1, xp: int = 4):
    """A delve grown to ``tiles`` delve tiles or more by exploring its explorable hexes in turn (every choice
    takes its first option, every tile its suggested placement), with Shannon moved onto the newest door hex."""
    from engine.core import Dice
    from rulesets.tes.battle import delve as dv
    from rulesets.tes.battle.model import Ctx

    s = party()
    s.xp_dial = xp
    s.seed = seed
    s, _ = run(s, "battle.start", "S", {"encounter": "brinehollow-caves", "hexes": {"S": "1,0", "R": "1,1"}})
    b = s.battle
    b.delve.required = 9
    c = Ctx(s, PACK, Dice(seed=seed))
    for i in range(60):
        if len(b.delve.numbers) >= tiles:
            break
        open_ = dv.explorable(c)
        if not open_:
            break
        at = open_[i % len(open_)]
        u = c.unit("a:S")
        if c.occupant(at) is None:
            u.q, u.r = at.q, at.r
        dv.start_exploration(c, "S", at, "explores", 0, False)
        while b.choices:
            dv.choose(c, b.choices[0].owner, 1)
        if b.delve.exploring is not None:
            dv.choose_place(c, "S", None)
    b.log = b.log[-6:]
    return s
