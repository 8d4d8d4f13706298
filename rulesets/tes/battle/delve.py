"""Delve battles (rulebook pp.74-80): a map that grows tile by tile as the party explores.

Setup (p.74): only the entrance tile is on the map; no caches, no enemies.  The delve deck (the general cards
and the encounter's province cards, special cards left out) and the tile stacks (one per shape) are shuffled
with the battle's dice.  ``Battle.delve`` keeps them (rulesets.tes.battle_state.Delve).

Exploring a hex (p.77): during their own turn an adventurer may explore the explorable hex they moved into (or
began their turn in), or take the explore action once per turn on an explorable hex in sight within their
Stamina (never in a turn with a move action; companions never explore).  An exploration then:

1. draws the top delve card and the top tile of its shape.  No tile of that shape left: the card is turned
   facedown and counts as a skyshard gained; the exploration ends.
2. works out where the tile can connect (rulesets.tes.battle.delve_map).  Nowhere: the card is discarded, the
   tile goes under its stack and the hex stays explorable (an adventurer who moved into it must move out and back
   in to explore it again that turn).  The card's When Revealed effect is *not* resolved then (p.76): this is how
   the order of p.76 and p.77 is read (docs/rules-notes.md).
3. resolves the card's When Revealed effect against the adventurer who explored (a choice waits for its player).
4. connects the tile: with several legal placements the party chooses (a prompt with a picture of each, the
   placement that keeps the most hexes explorable at the deadline); ``model.place_tile`` adds it.
5. places the card's caches (legendary first) on the tile's cache hexes farthest from the explored hex first,
   then deploys enemies by the card's challenge scale for the party size within the tile's enemy pool, farthest
   enemy hexes first (pp.77-78), and resolves a When Revealed effect that waits for the tile to be populated.
6. keeps the card beside its tile if it has skyshards, a trap or an environment; else discards it.

Entering a tile's hexes (``moves.STOP`` / ``moves.ENTERED``, registered here): an active trap stops the move and
its lockpick check (``lockpick.begin``, kind "trap") comes before anything else the hex does (p.80); skyshards
are gained with the numbered effect matching the party's total (p.78); an "enter" environment works.
"""
from __future__ import annotations

from typing import Any

from engine.core import RuleError, strong
from engine.hexes import Hex
from engine.text import a_or_an, count
from rulesets.tes import args as args_
from rulesets.tes.battle import checks, lockpick, moves, pool
from rulesets.tes.battle.delve_map import best, explorable, farthest_first, placements
from rulesets.tes.battle.effects import Use, run_effects
from rulesets.tes.battle.inventory import _shuffle
from rulesets.tes.battle.model import (Ctx, adv_uid, on_map, place_tile, pos, prevent_timeout_minutes,
                                       short_label)
from rulesets.tes.battle_state import CardSpot, Delve, Exploration, LockpickCheck, Unit


# ----------------------------------------------------------------- setup --
def build_deck(pack, province: str | None, dice) -> list[str]:
    """A delve deck: the general cards and the province's cards (its special cards set aside), shuffled.
    (A campaign's session builds its own deck from the same cards; a stand-alone delve uses this one.)"""
    cards = sorted(k for k, cd in pack.delve_cards.items()
                   if not cd.special and (cd.province is None or (province and cd.province == province)))
    return _shuffle(cards, dice)


def build_stacks(pack, dice) -> dict[str, list[str]]:
    """The delve tiles by shape, each stack shuffled facedown."""
    stacks: dict[str, list[str]] = {}
    for tid in sorted(pack.tiles):
        t = pack.tiles[tid]
        if t.kind == "delve":
            stacks.setdefault(str(t.shape), []).append(tid)
    return {k: _shuffle(v, dice) for k, v in sorted(stacks.items(), key=lambda kv: int(kv[0]))}


def setup(c: Ctx, enc, ep: int | None, province: str | None = None) -> None:
    """Delve Setup (p.74): the entrance tile only, no caches and no enemies; the deck and the tile stacks.
    ``province``: the session's province, when the day starts the delve (else the encounter's own)."""
    b = c.b
    where = province or enc.province
    d = Delve(required=int(enc.skyshards or 3), province=where)
    d.deck = build_deck(c.pack, where, c.dice)
    d.stacks = build_stacks(c.pack, c.dice)
    if ep is not None:
        d.more["ep"] = int(ep)  # the leader's enemy pool for each tile (/battle start ep:)
    b.delve = d
    b.caches = {}  # cache chips come with the delve cards
    province = f" and {where}" if where else ""
    c.say("setup", f"🔦 A delve: only the entrance tile is on the map. The delve deck holds "
                   f"{count(len(d.deck), 'card')} (general{province}); tiles wait in their stacks. Gain "
                   f"{count(d.required, 'skyshard')} to explore it fully. No caches or enemies yet: they come with "
                   "each tile explored.")


def tile_pool(c: Ctx) -> int:
    """The enemy pool for one revealed tile (p.74): calculated afresh for each tile (XP dial × adventurers),
    unless the leader gave the battle a pool of its own."""
    d = c.b.delve
    if d is not None and "ep" in d.more:
        return int(d.more["ep"])
    return pool.enemy_pool(c.state.xp_dial, len(c.b.order))


# ------------------------------------------------------------- exploring --
def note_explorable(c: Ctx, u: Unit, left: int, why: str) -> None:
    """The adventurer occupies an explorable hex during their turn: they may explore it now (``/explore``)."""
    turn = c.b.turn
    here = pos(u)
    if c.b.delve is None or turn.unit != u.id or here is None or here not in explorable(c):
        return
    turn.explore_here = [here.q, here.r]
    turn.explore_left = int(left)
    c.say("explore-here", f"🔦 {u.name} {why} explorable hex {here}: explore it now with `/explore` "
                          "(it is not an action), or do something else and leave it.", unit=u.id)


def explore(c: Ctx, owner: str, at: Any = None) -> None:
    """``/explore`` (``at``: the hex; without it the hex the adventurer stands on)."""
    b = c.b
    turn = checks.my_turn(c, owner)
    here_flag, left = turn.explore_here, int(turn.explore_left or 0)
    checks.no_pending(c)
    d = b.delve
    if d is None:
        raise RuleError("Only a delve has hexes to explore; this battle's map is set.")
    if d.exploring is not None:
        raise RuleError("An exploration is already waiting: choose where its tile goes (`/explore place:`).")
    u = c.unit(adv_uid(owner))
    adv = c.adv(owner)
    here = pos(u)
    target = here if at is None else Hex(*args_.one_hex(at, "Give the hex to explore with `at:`, e.g. `at:3,0`."))
    open_ = explorable(c)
    if target not in open_:
        if d.drawn >= d.required:
            raise RuleError("Every skyshard of this delve has been drawn: it is fully explored, and no hex is "
                            "explorable any more.")
        where = ", ".join(str(h) for h in open_) or "none"
        if at is None:
            raise RuleError(f"{adv.name} does not stand on an explorable hex. Explorable hexes: {where} "
                            "(`/explore at:q,r` from a distance up to your Stamina).")
        raise RuleError(f"Hex {target} is not explorable. Explorable hexes: {where}.")
    if here_flag == [target.q, target.r] and target == here:
        action = False
    else:
        if turn.explored:
            raise RuleError("You already took the explore action this turn (once per turn).")
        if turn.moves:
            raise RuleError("You took a move action this turn, so you cannot take the explore action "
                            "(exploring a hex you move into is still allowed: `/explore` right after the move).")
        if not c.sight(here, target):
            raise RuleError(f"Hex {target} is out of sight (sight reaches your tile and the tiles next to it).")
        dist = c.range_to(here, target)
        stamina = adv.stat("stamina")
        if dist is None or dist > stamina:
            far = count(dist, "hex") if dist is not None else "too many hexes"
            raise RuleError(f"Hex {target} is {far} away; the explore action reaches as far as your Stamina "
                            f"({stamina}).")
        turn.explored = True
        action = True
        left = 0
    turn.acted = True
    turn.explore_here = None
    how = "takes the explore action on" if action else "explores"
    start_exploration(c, owner, target, how, left, action)


def _top_card(d: Delve, dice) -> str | None:
    if not d.deck and d.discard:
        d.deck, d.discard = _shuffle(d.discard, dice), []
    return d.deck.pop(0) if d.deck else None


def start_exploration(c: Ctx, owner: str, target: Hex, how: str, left: int, action: bool) -> None:
    b, d = c.b, c.b.delve
    u = c.unit(adv_uid(owner))
    card_id = _top_card(d, c.dice)
    if card_id is None:
        c.say("explore", f"🔦 {u.name} {how} hex {target}, but the delve deck is empty: nothing is revealed.",
              unit=u.id)
        return _resume_move(c, owner, left)
    card = c.pack.delve_cards[card_id]
    c.say("explore", f"🔦 {u.name} {how} hex {target} and draws {strong(card.name)} ({card.code}): "
                     f"{a_or_an(str(card.shape) + '-hex')} tile.", unit=u.id, card=card_id, hex=[target.q, target.r])
    stack = d.stacks.get(str(card.shape)) or []
    if not stack:
        d.facedown.append(card_id)
        d.drawn += 1
        got = _gain(d, 1)
        c.say("skyshard", f"💎 No {card.shape}-hex tile is left, so {card.name} is turned facedown and counts as a "
                          f"skyshard: {d.gained}/{d.required} skyshards" + ("" if got else " (no more are needed)")
                          + ". The hex stays explorable.", unit=u.id, gained=d.gained)
        b.turn.explore_here = None  # to explore it again by standing in it, move out and back in
        _fully_drawn(c)
        return _resume_move(c, owner, left)
    tile_id = stack[0]
    options = placements(c, tile_id, target)
    if not options:
        stack.append(stack.pop(0))
        d.discard.append(card_id)
        c.say("explore", f"🧱 {c.pack.tiles[tile_id].name} cannot be connected at hex {target} without covering "
                         "another tile: the card is discarded unresolved and the tile goes under its stack. The hex "
                         "stays explorable (to explore it again by standing in it, move out and back in).",
              unit=u.id)
        b.turn.explore_here = None
        return _resume_move(c, owner, left)
    stack.pop(0)
    d.explorations += 1
    d.exploring = Exploration(owner=owner, hex=[target.q, target.r], card=card_id, tile=tile_id,
                              options=[p.spot() for p in options], default=best(options), left=left, action=action)
    if card.revealed and not card.after_populate:
        c.say("revealed", f"📜 {card.name}, when revealed: {card.revealed.text}", unit=u.id)
        run_effects(Use(c, u, card.name, tile=tile_id), card.revealed.effects, manual=card.revealed.manual,
                    text=card.revealed.text)
    proceed(c)


def proceed(c: Ctx) -> None:
    """Carry an exploration on once nothing waits for a player (its card's choices answered)."""
    d = c.b.delve if c.b else None
    ex = d.exploring if d else None
    if ex is None or c.b.choices or ex.stage != "revealed":
        return
    if len(ex.options) == 1:
        place(c, 1, why="the only way it connects")
        return
    ex.stage = "place"
    minutes = prevent_timeout_minutes(c.state)
    ex.deadline = c.now + minutes * 60 if minutes > 0 and c.now else None
    tile = c.pack.tiles[ex.tile]
    c.say("place", f"📐 {{@player}}: choose where {tile.name} connects to hex {Hex(*ex.hex)}: "
                   f"{len(ex.options)} placements, numbered on the pictures (`/explore place:N`, or the menu). "
                   f"Placement {ex.default} keeps the most hexes explorable.", player=ex.owner, tile=ex.tile)


def choose_place(c: Ctx, owner: str, pick: Any, *, timeout: bool = False) -> None:
    d = c.b.delve
    ex = d.exploring if d else None
    if ex is None or ex.stage != "place":
        raise RuleError("No tile is waiting to be placed. Explore a hex first (`/explore`).")
    if owner != ex.owner and owner != c.state.leader:
        raise RuleError(f"{c.adv(ex.owner).name}'s player (or the party leader) chooses where the tile goes.")
    n = ex.default if pick is None else args_.numbers(pick, "Give the placement's number, e.g. `place:2`.")
    if isinstance(n, list):
        if len(n) != 1:
            raise RuleError(f"Choose one placement, 1 to {len(ex.options)}.")
        n = n[0]
    if not 1 <= int(n) <= len(ex.options):
        raise RuleError(f"There are {len(ex.options)} placements; choose one from 1 to {len(ex.options)}.")
    place(c, int(n), why="no choice came in time: the one that keeps the most hexes explorable" if timeout
          else "as the party chose")


def place(c: Ctx, n: int, why: str) -> None:
    """Connect the exploration's tile by placement ``n``, then place caches, deploy enemies, keep the card."""
    b, d = c.b, c.b.delve
    ex = d.exploring
    q, r, rot = ex.options[n - 1]
    card = c.pack.delve_cards[ex.card]
    tile = c.pack.tiles[ex.tile]
    place_tile(c, ex.tile, (q, r), rot)
    d.numbers[ex.tile] = len(d.numbers) + 1
    at = Hex(*ex.hex)
    u = c.unit(adv_uid(ex.owner))
    c.say("tile", f"🧱 {tile.name} (tile {d.numbers[ex.tile]}) connects to hex {at}: placement {n} of "
                  f"{len(ex.options)} ({why}).", unit=u.id, tile=ex.tile, placement=n)
    _place_caches(c, card, ex.tile, at)
    _deploy(c, card, ex.tile, at)
    if card.revealed and card.after_populate:
        c.say("revealed", f"📜 {card.name}, when revealed: {card.revealed.text}", unit=u.id)
        run_effects(Use(c, u, card.name, tile=ex.tile), card.revealed.effects, manual=card.revealed.manual,
                    text=card.revealed.text)
    if card.kept:
        d.cards[ex.tile] = CardSpot(card=card.id, tile=ex.tile, trap=card.trap is not None, shards=card.skyshards,
                                    environment=card.environment is not None)
        d.drawn += card.skyshards
        kept = []
        if card.skyshards:
            kept.append(f"{card.skyshards} skyshard{'s' if card.skyshards > 1 else ''} (gained by moving onto it)")
        if card.trap:
            kept.append(f"the trap {card.trap.name} ({_code(card.trap)})")
        if card.environment:
            kept.append(f"an environment: {card.environment.text.rstrip('.')}")
        c.say("card", f"🂠 {card.name} stays beside tile {d.numbers[ex.tile]}: " + "; ".join(kept) + ".",
              tile=ex.tile, card=card.id)
    else:
        d.discard.append(card.id)
    d.exploring = None
    _fully_drawn(c)
    _resume_move(c, ex.owner, ex.left)


def _code(trap) -> str:
    return f"{lockpick.code_text(trap.code, trap.keys)}, {trap.attempts} attempt{'s' if trap.attempts != 1 else ''}"


def _resume_move(c: Ctx, owner: str, left: int) -> None:
    turn = c.b.turn
    if left > 0 and turn.owner == owner:
        turn.free_move = int(turn.free_move) + left
        c.say("move", f"The exploration interrupted the move: {c.adv(owner).name} may still move "
                      f"{count(left, 'hex')} of it (`/move ... free:yes`).", unit=adv_uid(owner), amount=left)


def _gain(d: Delve, n: int) -> int:
    """Skyshards gained, up to the delve's requirement (extra ones are ignored); how many counted."""
    before = d.gained
    d.gained = min(d.required, d.gained + n)
    return d.gained - before


def _fully_drawn(c: Ctx) -> None:
    d = c.b.delve
    if d.drawn >= d.required and not d.more.get("full"):
        d.more["full"] = True
        c.say("delve", f"🗺️ Every skyshard of the delve has been drawn ({d.required}): no hex is explorable any "
                       "more.")
    elif d.drawn < d.required and not explorable(c) and not d.more.get("closed"):
        d.more["closed"] = True  # every door is explored or shut in: the rest of the skyshards cannot be found
        c.say("delve", "🗺️ No hex of the delve is explorable any more (every door hex is explored or closed in): "
                       f"only {d.drawn} of its {d.required} skyshards can be found. Gain those, or the party leader "
                       "retreats with `/battle retreat`.")


def _place_caches(c: Ctx, card, tile_id: str, at: Hex) -> None:
    want = ["legendary"] * card.caches.get("legendary", 0) + ["common"] * card.caches.get("common", 0)
    if not want:
        return
    m = c.map
    spots = [h for h in farthest_first(m, at, [h for h in m.cache_spots if m.tile_of.get(h) == tile_id])]
    left = lockpick.caches_left(c)
    placed, lost = [], 0
    for kind in want:
        if not spots:
            lost += 1
            continue
        if len(left) >= c.pack.supply.cache_chips:
            lost += 1
            continue
        h = spots.pop(0)
        left[f"{h.q},{h.r}"] = kind
        placed.append(f"a {kind} cache in hex {h}")
    words = "; ".join(placed) if placed else "no cache"
    if lost:
        words += f" ({lost} more on the card find no cache hex or chip)"
    c.say("caches", f"📦 {card.name}: {words}.", tile=tile_id)


def _deploy(c: Ctx, card, tile_id: str, at: Hex) -> None:
    b = c.b
    n_adv = max(1, min(4, len(b.order)))
    row = list(card.scale.get(n_adv, ()))
    if not row:
        c.say("enemies", f"👹 {card.name}: no enemies for {count(n_adv, 'adventurer')}.",
              tile=tile_id)
        return
    m = c.map
    taken = c.occupied()
    spots = [h for h in farthest_first(m, at, [h for h in m.enemy_spots if m.tile_of.get(h) == tile_id])
             if h not in taken]
    ep = tile_pool(c)
    start_ep = ep
    out: list[str] = []
    why = ""
    for printed in row:
        if not spots:
            why = "no enemy hex is left on the tile"
            break
        level = pool.highest_level(ep, printed)
        if level is None:
            why = "the tile's enemy pool is spent"
            break
        eid = None
        for lv in [x for x in pool.LEVELS_DESC if x <= level]:  # an empty bag: the next level down
            got = pool.draw(c.pack, [lv], c.dice, taken=pool.chips_out(c.pack, b), province=b.delve.province)
            if got:
                eid = got[0]
                break
        if eid is None:
            why = "the bags hold no chip that fits"
            break
        e = c.pack.enemies[eid]
        ep -= e.level
        h = spots.pop(0)
        no = 1 + sum(1 for x in b.units.values() if x.id.startswith("e"))
        uid = f"e{no}"
        b.units[uid] = Unit(id=uid, side="enemy", name=e.name, short=f"{short_label(e.name)}{no}", enemy=eid,
                            level=e.level, q=h.q, r=h.r, hp=e.health, max_hp=e.health, quest=e.quest_unit, slot=no)
        out.append(f"{e.name} (level {e.level}, up to {printed}) in hex {h}")
    if out:
        text = f"👹 {card.name} (enemy pool {start_ep}, scale {', '.join(map(str, row))}): " + "; ".join(out)
        rest = len(row) - len(out)
        if rest and why:
            text += f"; no more: {why}"
        c.say("enemies", text + ".", tile=tile_id)
    else:
        c.say("enemies", f"👹 {card.name}: no enemy is deployed ({why}).", tile=tile_id)


# ----------------------------------------------------- entering the tiles --
def card_beside(c: Ctx, tile: str | None):
    d = c.b.delve if c.b else None
    spot = d.cards.get(tile or "") if d else None
    return (spot, c.pack.delve_cards[spot.card]) if spot else (None, None)


def _own_turn(c: Ctx, u: Unit) -> bool:
    return c.b.step == "adventurer" and c.b.turn.unit == u.id and u.side == "adventurer"


def _stop(c: Ctx, u: Unit, h: Hex) -> bool:
    """An adventurer entering a hex of a tile with an active trap, during their own turn, stops there."""
    if c.b.delve is None or not _own_turn(c, u):
        return False
    spot, _card = card_beside(c, c.map.tile_of.get(h))
    return bool(spot and spot.trap)


def _entered(c: Ctx, u: Unit, start: Hex, path: list, stopped: bool, left: int) -> None:
    """What the hexes of a move did: tiles entered (environments), skyshards gained, the trap that stopped it,
    and the explorable hex it ended in."""
    if c.b.delve is None or u.side != "adventurer":
        return
    tile_of = c.map.tile_of
    prev = tile_of.get(start)
    walked = path[:-1] if stopped else path
    for h in walked:
        t = tile_of.get(h)
        if t != prev:
            _enter_tile(c, u, t)
        prev = t
        if not on_map(u):
            return
    if stopped:
        h = path[-1]
        spot, card = card_beside(c, tile_of.get(h))
        lp = LockpickCheck(owner=u.owner, hex=[h.q, h.r], kind="trap", ref=spot.tile, deck="", item="",
                           code=list(card.trap.code), keys=list(card.trap.keys), attempts=card.trap.attempts,
                           move_left=left)
        lp.more["entered_from"] = prev  # the tile the adventurer came from (to tell if they entered a new tile)
        lockpick.begin(c, lp, f"{u.name} enters tile {c.b.delve.numbers.get(spot.tile, '?')} and triggers the "
                              f"trap {strong(card.trap.name)} ({_on_words(card.trap)}): a lockpick check comes "
                              "before anything else the hex does.")
        return
    if _own_turn(c, u):
        note_explorable(c, u, left, "moves into")


def _on_words(trap) -> str:
    return f"its effect works if the check {'fails' if trap.on == 'fail' else 'succeeds'}"


def _enter_tile(c: Ctx, u: Unit, tile: str | None) -> None:
    spot, card = card_beside(c, tile)
    if spot is None:
        return
    if spot.environment and card.timing == "enter" and _own_turn(c, u):
        c.say("environment", f"🌫️ {card.name}: {card.environment.text}", unit=u.id, tile=tile)
        run_effects(Use(c, u, card.name, tile=tile), card.environment.effects, manual=card.environment.manual,
                    text=card.environment.text)
    if spot.shards > 0 and on_map(u):
        gain_skyshards(c, u, spot, card)


def gain_skyshards(c: Ctx, u: Unit, spot: CardSpot, card) -> None:
    """An adventurer moves onto a tile with skyshards (p.78): the party gains them, and the card's numbered effect
    for the party's new total works on that adventurer."""
    d = c.b.delve
    n = spot.shards
    spot.shards = 0
    got = _gain(d, n)
    extra = n - got
    c.say("skyshard", f"💎 {u.name} gains the skyshard{'s' if n > 1 else ''} of {card.name}: {d.gained}/"
                      f"{d.required} skyshards" + (f" ({extra} more than needed, ignored)" if extra else "") + ".",
          unit=u.id, gained=d.gained, tile=spot.tile)
    effect = card.skyshard.get(d.gained)
    if effect is not None:
        label = f"{card.name} (skyshard {d.gained})"
        c.say("skyshard-effect", f"{label}: {effect.text}", unit=u.id)
        run_effects(Use(c, u, label, tile=spot.tile), effect.effects, manual=effect.manual, text=effect.text)
    _drop_spent(c, spot)


def _drop_spent(c: Ctx, spot: CardSpot) -> None:
    """A card with nothing left in play goes to the discard pile (a gained skyshard card stays with the party's
    tally: it is kept, marked gained)."""
    d = c.b.delve
    if not spot.trap and not spot.environment and not spot.shards:
        card = c.pack.delve_cards[spot.card]
        if not card.skyshards:
            d.cards.pop(spot.tile, None)
            d.discard.append(spot.card)


def trap_ended(c: Ctx, lp: LockpickCheck, success: bool) -> None:
    """A trap's check is over (``lockpick.ENDINGS["trap"]``): its effect if the result is the one the card names,
    the trap goes inactive, then what else the hex does, and the rest of the move."""
    d = c.b.delve
    spot, card = card_beside(c, lp.ref)
    u = c.unit(adv_uid(lp.owner))
    trap = card.trap
    c.say("lockpick-end", f"{'🔓' if success else '🔒'} {u.name} {'disarms' if success else 'fails to disarm'} the "
                          f"trap {strong(trap.name)}.", unit=u.id, success=success)
    if spot is not None:
        spot.trap = False
    if (trap.on == "fail") != success:
        c.say("trap", f"🪤 {trap.name}: {trap.part.text}", unit=u.id, tile=lp.ref)
        run_effects(Use(c, u, trap.name, tile=lp.ref), trap.part.effects, manual=trap.part.manual,
                    text=trap.part.text)
    else:
        c.say("trap", f"{trap.name} is inactive now; its effect does not work.", unit=u.id)
    if spot is not None:
        _drop_spent(c, spot)
    if not on_map(u) or d is None:
        return
    h = Hex(*lp.hex)
    if lp.more.get("entered_from") != lp.ref:
        _enter_tile(c, u, lp.ref)
    if not on_map(u):
        return
    left = int(lp.move_left or 0)
    if left > 0 and c.b.turn.owner == lp.owner:
        c.b.turn.free_move = int(c.b.turn.free_move) + left
        c.say("move", f"The trap interrupted the move: {u.name} may still move {count(left, 'hex')} of it "
                      "(`/move ... free:yes`).", unit=u.id, amount=left)
    lockpick.note_cache(c, u, 0, 0)
    if pos(u) == h:
        note_explorable(c, u, 0, "stands in")


# -------------------------------------------------------- turns and rounds --
def _environment(c: Ctx, u: Unit, timing: str) -> None:
    spot, card = card_beside(c, c.map.tile_of.get(pos(u)) if pos(u) else None)
    if spot is None or not spot.environment or card.timing != timing:
        return
    c.say("environment", f"🌫️ {card.name}: {card.environment.text}", unit=u.id, tile=spot.tile)
    run_effects(Use(c, u, card.name, tile=spot.tile), card.environment.effects, manual=card.environment.manual,
                text=card.environment.text)


def start_of_turn(c: Ctx, owner: str) -> None:
    """An adventurer's turn starts: the tile's environment, and an explorable hex they may explore."""
    if c.b.delve is None:
        return
    u = c.unit(adv_uid(owner))
    _environment(c, u, "start of your turn")
    if on_map(u):
        note_explorable(c, u, 0, "starts the turn in")


def end_of_turn(c: Ctx, owner: str) -> None:
    if c.b.delve is None:
        return
    u = c.unit(adv_uid(owner))
    if on_map(u):
        _environment(c, u, "end of your turn")


def start_of_round(c: Ctx) -> None:
    """Environments that work at the start of each round, on the units of their tiles."""
    d = c.b.delve
    if d is None:
        return
    tile_of = c.map.tile_of
    for tile, spot in list(d.cards.items()):
        card = c.pack.delve_cards[spot.card]
        if not spot.environment or card.timing != "start of round":
            continue
        here = [u for u in c.units() if tile_of.get(pos(u)) == tile]
        if not here:
            continue
        c.say("environment", f"🌫️ {card.name}: {card.environment.text}", tile=tile)
        run_effects(Use(c, here[0], card.name, tile=tile), card.environment.effects, manual=card.environment.manual,
                    text=card.environment.text)


# ---------------------------------------------------------------- choices --
def choose(c: Ctx, owner: str, pick: Any, *, timeout: bool = False) -> None:
    """Answer the card choice waiting first (``pick``: an option number; None: its default)."""
    b = c.b
    ch = b.choices[0] if b.choices else None
    if ch is None:
        raise RuleError("No choice is waiting for an answer.")
    if owner != ch.owner and owner != c.state.leader:
        raise RuleError(f"{c.adv(ch.owner).name}'s player (or the party leader) answers this choice.")
    n = ch.default if pick is None else pick
    if isinstance(n, list):
        n = n[0] if len(n) == 1 else 0
    n = int(n)
    if not 1 <= n <= len(ch.options):
        raise RuleError(f"Choose an option from 1 to {len(ch.options)}: " + "; ".join(
            f"{i}. {o['label']}" for i, o in enumerate(ch.options, 1)) + ".")
    b.choices.pop(0)
    o = ch.options[n - 1]
    u = c.unit(adv_uid(ch.owner))
    c.say("chose", f"{'⏰ No answer came in time: ' if timeout else ''}{c.adv(ch.owner).name} "
                   f"{'takes the default' if timeout else 'chooses'}: {o['label']} ({ch.source}).", unit=u.id)
    run_effects(Use(c, u, ch.source, tile=ch.tile), o["effects"])
    proceed(c)


# ------------------------------------------------------------ the battle end --
def summary(b, outcome: str) -> dict[str, Any]:
    """What a delve adds to the battle's summary: the skyshards gained and, with the Uncover objective, the XP
    they are worth in the Reward Phase (one each, up to the requirement; none after a full party defeat)."""
    d = b.delve
    if d is None:
        return {}
    out: dict[str, Any] = {"skyshards": d.gained}
    if b.objective == "uncover":
        out["skyshard_xp"] = 0 if outcome == "defeat" else min(d.gained, d.required)
    return out


moves.STOP.append(_stop)
moves.ENTERED.append(_entered)
lockpick.ENDINGS["trap"] = trap_ended

__all__ = ["build_deck", "build_stacks", "setup", "explore", "choose", "choose_place", "place", "proceed",
           "start_of_turn", "end_of_turn", "start_of_round", "summary", "gain_skyshards", "trap_ended",
           "explorable", "note_explorable", "tile_pool"]
