"""Moving the party token (p.34): base movement, fatigue movement, and the encounter the hex triggers.

* Base movement is the province's, or what its gauge shows (the province effect), plus any extra hexes a card
  gave for today.  After it, the party may go on with fatigue movement: for each extra hex every adventurer
  who is not defeated gains 1 light fatigue (overfatigue when no light die is left), never more extra hexes
  than the base movement, and the party must stop while any adventurer's cooldown track is full.
* The hex the party ends on triggers, in this order, a quest encounter (``QUEST_TRIGGERS``: the quests fill
  it), a town encounter (a town's hex, or staying in one), or an overland encounter (a landmark the party
  moved into today): peaceful and conflict landmarks draw from their decks; an unstable landmark rolls the
  unstable die, whose caravan face is a town encounter with the province's traveling caravan.
"""
from __future__ import annotations

from typing import Callable

from engine.core import RuleError
from engine.hexes import Hex, path_is_legal
from engine.text import a_or_an, count
from rulesets.tes.battle import track
from rulesets.tes.day_state import Deck, Encounter
from rulesets.tes.outcomes import decks
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.overland.geo import enterable, here, place_name

#: the unstable die (docs/rules-notes.md): faces 1-2 conflict, 3-4 a traveling caravan, 5-6 peaceful
UNSTABLE_FACES = {1: "conflict", 2: "conflict", 3: "caravan", 4: "caravan", 5: "peaceful", 6: "peaceful"}

#: Quest encounters come first (p.34): each function may return the encounter a quest triggers now.
QUEST_TRIGGERS: list[Callable[[DayCtx], Encounter | None]] = []


def base_movement(c: DayCtx) -> int:
    """The party's base overland movement: the province's, or what its gauge shows."""
    prov = c.province
    step = prov.effect.step(c.s.gauge) if c.s.gauge else None
    return step.movement if step is not None else prov.movement


def allowance(c: DayCtx) -> tuple[int, int]:
    """(hexes without fatigue, most hexes of fatigue movement) for today."""
    base = base_movement(c)
    return base + c.s.move_today, base


def check_route(c: DayCtx, path: list[Hex]) -> None:
    """Refuse a route the party cannot take (nothing is changed)."""
    prov, s = c.province, c.s
    free, extra = allowance(c)
    open_ = enterable(prov, s)
    shut = {tuple(prov.hex_of_town(t)): prov.towns[t].name for t in s.closed}
    for h in path:
        if (h.q, h.r) in shut:
            raise RuleError(f"{shut[(h.q, h.r)]} is closed: the party cannot enter its hex {h}.")
    ok, why = path_is_legal(here(s), path, open_, max_steps=free + extra)
    if not ok:
        if "allowed" in why:
            why = (f"That route is {count(len(path), 'hex')} long; today the party moves {free} "
                   f"{'hex' if free == 1 else 'hexes'} and at most {extra} more with fatigue movement.")
        raise RuleError(why)


def move(c: DayCtx, path: list[Hex]) -> None:
    """Move the party token along ``path``, with fatigue movement past its base movement."""
    s = c.s
    check_route(c, path)
    free, _extra = allowance(c)
    start = here(s)
    s.route = [[start.q, start.r]]
    for i, h in enumerate(path, 1):
        if i > free:
            full = [c.adv(o).name for o in c.standing() if len(c.adv(o).cooldown) >= c.track_size]
            if full:
                raise RuleError(f"The party must stop after {count(i - 1, 'hex')}: {', '.join(full)}'s cooldown track "
                                "is full, so no more fatigue movement.")
            notes: list[str] = []
            for o in c.standing():
                track.gain_fatigue(c.adv(o), "light", 1, c.track_size, notes, party=c.state.adventurers.values(),
                                   supply=c.pack.supply)
            extra = f" ({'; '.join(dict.fromkeys(notes))})" if notes else ""
            down = [c.adv(o).name for o in c.party() if o not in c.standing()]
            who = "each adventurer gains" if not down else (
                "each standing adventurer gains" if len(down) < len(c.party()) else "nobody standing gains")
            fell = (f"; {' and '.join(down)} {'is' if len(down) == 1 else 'are'} defeated and "
                    f"{'gains' if len(down) == 1 else 'gain'} none") if down else ""
            kept = f"Fatigue movement to {h}: each adventurer gains 1 light fatigue{extra}."
            c.say("fatigue-move", f"Fatigue movement to {h}: {who} 1 light fatigue{extra}{fell}.", since=4,
                  kept=kept, hex=[h.q, h.r])
        s.party = [h.q, h.r]
        s.route.append([h.q, h.r])
    if path:
        c.say("move", f"🧭 The party moves {len(path)} {'hex' if len(path) == 1 else 'hexes'}: "
                      + " → ".join(str(x) for x in [start] + path) + f", to {place_name(c.province, path[-1])}.",
              path=[list(x) for x in s.route])
    else:
        c.say("move", f"🧭 The party stays at {place_name(c.province, start)}.")


def trigger(c: DayCtx, moved: bool) -> Encounter:
    """The encounter the party's hex triggers (p.34), in priority order; draws its card."""
    for hook in QUEST_TRIGGERS:
        found = hook(c)
        if found is not None:
            return found
    prov, s = c.province, c.s
    h = here(s)
    spot = [h.q, h.r]
    town = prov.town_at((h.q, h.r))
    if town is not None and town.id not in s.closed:
        c.say("trigger", f"🏰 The party is in {town.name}: a town encounter.", town=town.id)
        return Encounter("town", spot, town=town.id)
    mark = prov.landmark((h.q, h.r))
    if mark is None or not moved:
        why = "" if mark is None else " (a landmark triggers only when the party moves into it)"
        c.say("trigger", f"Nothing happens at {place_name(prov, h)}{why}.", since=4,
              kept=f"Nothing happens at {place_name(prov, h)}{why}: the Encounter Phase is skipped.")
        return Encounter("none", spot)
    kind = mark[0]
    enc = Encounter("card", spot, landmark=kind)
    deck_type = kind
    if kind == "unstable":
        roll = c.dice.roll(6)
        face = UNSTABLE_FACES[roll]
        enc.unstable_face = face
        c.say("unstable", f"⚡ The party stops at {place_name(prov, h)} and rolls the unstable die: {roll}, "
                          f"{'a traveling caravan' if face == 'caravan' else face}.", roll=roll, face=face)
        if face == "caravan":
            caravan = prov.caravan
            enc.kind = "caravan"
            enc.town = caravan.id if caravan else None
            c.say("trigger", f"🐂 A traveling caravan: {caravan.name if caravan else 'none'} — a town encounter.")
            return enc
        deck_type = face
    card = draw_card(c, deck_type)
    if card is None:
        c.say("trigger", f"The {deck_type} deck is empty: nothing happens.")
        return Encounter("none", spot, landmark=kind)
    enc.card, enc.deck = card, deck_type
    oc = c.pack.overland_cards[card]
    if deck_type == "peaceful":
        s.effect_card, s.effect_drawn = card, False  # set aside for the End of Day's province effect
    if kind != "unstable":
        c.say("trigger", f"{'🕊️' if kind == 'peaceful' else '⚔️'} The party stops at {place_name(prov, h)} and "
                         f"draws {a_or_an(deck_type + ' card')}: {{*{oc.name}*}} ({oc.label}).", card=card)
    else:
        c.say("trigger", f"The party draws {a_or_an(deck_type + ' card')}: {{*{oc.name}*}} ({oc.label}).", card=card)
    return enc


def draw_card(c: DayCtx, deck_type: str) -> str | None:
    """The top card of an overland deck; an empty deck shuffles its discards back in first."""
    s = c.s
    deck = s.decks.setdefault(deck_type, Deck())
    if not deck.size() and deck.discard:
        deck.pool, deck.discard = list(deck.discard), []
        c.say("deck", f"The {deck_type} deck is empty: its discard pile is shuffled into a new deck.")
    return decks.draw(s, deck, c.dice)
