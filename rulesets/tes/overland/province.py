"""The province effect (pp.34 and 45): its gauge placed at the start of day 1, and its activation at the End of
Day by the icons of the current peaceful card, read left to right.

The current peaceful card is the one the party drew in the Overland Phase; without one, a peaceful card is
drawn now for its icons and then cycled to the bottom of its deck.  A card resolved in the Encounter Phase is
discarded.
"""
from __future__ import annotations

from rulesets.tes.outcomes import decks
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run
from rulesets.tes.overland.geo import here
from rulesets.tes.overland.tokens import move_token, token
from rulesets.tes.overland.travel import draw_card


def place_gauge(c: DayCtx) -> None:
    """Day 1's New Day: the gauge token goes on the effect's starting step."""
    eff = c.province.effect
    step = eff.step(eff.start)
    if step is None:
        return
    c.s.gauge = step.id
    c.say("gauge", f"{eff.emoji} {eff.name}: the token is placed on {step.name} on the {eff.gauge} gauge. {step.text}",
          gauge=step.id)


def activate(c: DayCtx) -> None:
    """End of Day step 1: the province effect, by the current peaceful card's icons."""
    s, prov = c.s, c.province
    eff = prov.effect
    card_id = s.effect_card
    if card_id is None:
        card_id = draw_card(c, "peaceful")
        s.effect_card, s.effect_drawn = card_id, True
        if card_id is None:
            c.say("province", f"{eff.name}: the peaceful deck is empty, so nothing changes.")
            return
        card = c.pack.overland_cards[card_id]
        c.say("province", f"{eff.name}: no peaceful card was drawn today, so one is drawn for its icons: "
                          f"{{*{card.name}*}} ({card.label}).", card=card_id)
    card = c.pack.overland_cards[card_id]
    if not card.icons:
        c.say("province", f"{eff.name}: {card.name} shows no icon. {eff.no_icon}", card=card_id)
    for icon in card.icons:
        act = eff.icons.get(icon)
        icon_name = c.pack.overland_icons[icon].name if icon in c.pack.overland_icons else icon
        if act is None:
            c.say("province", f"{eff.name}: {card.name} shows {icon_name}, which does nothing in {prov.name}.",
                  icon=icon)
            continue
        if act.set is not None:
            step = eff.step(act.set)
            before = eff.step(s.gauge)
            s.gauge = step.id
            moved = "stays on" if before is step else "moves to"
            c.say("province", f"{eff.emoji} {eff.name}: {card.name} shows {icon_name}. The {eff.gauge} gauge {moved} "
                              f"{step.name}. {step.text}", icon=icon, gauge=step.id)
            continue
        tok = token(c, act.token)
        c.say("province", f"{eff.name}: {card.name} shows {icon_name}. {act.text}", icon=icon)
        if tok is None:
            continue
        move_token(c, tok, act.move, act.toward)
        if (tok.q, tok.r) == tuple(here(s)) and act.reach:
            c.say("province", f"The {tok.name} reaches the party.")
            run(c, act.reach, f"The {tok.name}")
    # discard the card the party resolved; cycle the one drawn only for its icons
    finish_cards(c)


def finish_cards(c: DayCtx) -> None:
    s = c.s
    enc = s.encounter
    resolved = enc.card if enc is not None and enc.card else None
    if resolved is not None:
        decks.discard(s.decks.setdefault(enc.deck or "peaceful", _deck()), resolved)
    if s.effect_card and s.effect_drawn:
        decks.cycle(s.decks.setdefault("peaceful", _deck()), s.effect_card)
        c.say("province", f"{c.pack.overland_cards[s.effect_card].name} goes back to the bottom of the peaceful deck.")
    elif s.effect_card and s.effect_card != resolved:
        decks.discard(s.decks.setdefault("peaceful", _deck()), s.effect_card)
    s.effect_card, s.effect_drawn = None, False


def _deck():
    from rulesets.tes.day_state import Deck

    return Deck()
