"""A town encounter from its beginning to its end (p.38).

1. The town effect, if it triggers at the start of the encounter (a choice is the party leader's; an effect
   marked ``once`` is resolved only once a session).
2. The shop's common and legendary cards and the trainer's skill line tokens are revealed (a token of a faded
   constellation is set aside and another drawn; the set-aside tokens go back to the bag afterwards).
3. Side quests that can be completed in a town (``TOWN_HOOKS``: the quests fill it).
4. Each adventurer takes up to 2 town actions (``rulesets.tes.town.features``); the visit ends when every
   adventurer has used them or is done.  Shop cards nobody took are discarded and trainer tokens go back.
"""
from __future__ import annotations

from typing import Callable

from engine.core import RuleError
from rulesets.tes.battle.inventory import discard as discard_item
from rulesets.tes.day_state import Encounter, TownVisit
from rulesets.tes.outcomes import decks
from rulesets.tes.outcomes.asks import close, open_ask
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run, top_item

ACTIONS = 2  # town actions per adventurer (p.39)

#: Step 3 of a town encounter: side quests completed in town (the quests fill it).
TOWN_HOOKS: list[Callable[[DayCtx, TownVisit], None]] = []


def town_def(c: DayCtx, visit: TownVisit):
    prov = c.province
    if visit.caravan:
        return prov.caravan
    return prov.towns[visit.town]


def begin(c: DayCtx, enc: Encounter) -> None:
    """Steps 1-3: the effect (or its question), the reveal, the side-quest slot; then step 4 opens."""
    caravan = enc.kind == "caravan"
    prov = c.province
    town = prov.caravan if caravan else prov.towns[enc.town]
    visit = c.s.town = TownVisit(town.id, caravan)
    c.say("town", f"🏰 Town encounter: {town.name}. {town.text}", town=town.id)
    eff = town.effect
    if eff is not None and not (eff.once and town.id in c.s.once):
        c.say("town-effect", f"Town effect — {eff.name}: {eff.text}", town=town.id)
        if eff.once:
            c.s.once.append(town.id)
        if eff.choices:
            open_ask(c, "town-effect", [c.state.leader], options=[t for t, _e in eff.choices])
            return
        if eff.manual:
            c.say("manual", f"📝 {eff.name}: {eff.text} (the party applies this)", manual=True)
        else:
            run(c, eff.effects, eff.name)
    visit.effect_done = True
    reveal(c, visit)


def effect_choice(c: DayCtx, pick) -> None:
    visit = c.s.town
    town = town_def(c, visit)
    options = town.effect.choices
    try:
        n = int(pick)
    except (TypeError, ValueError):
        n = 0
    if not 1 <= n <= len(options):
        raise RuleError("Choose one of: " + ", ".join(f"{i}. {t}" for i, (t, _e) in enumerate(options, 1)) + ".")
    title, effects = options[n - 1]
    close(c)
    c.say("town-effect", f"The party chooses: {title}.")
    run(c, effects, f"{town.effect.name}: {title}")
    visit.effect_done = True
    reveal(c, visit)


def reveal(c: DayCtx, visit: TownVisit) -> None:
    town = town_def(c, visit)
    if "shop" in town.features:
        for rarity, n in (("common", town.shop_common), ("legendary", town.shop_legendary)):
            for _ in range(n):
                card = top_item(c, rarity)
                if card is None:
                    c.say("shop", f"The {rarity} item deck is empty.")
                    break
                visit.shop.append(card)
        names = ", ".join(c.pack.items[i].name for i in visit.shop) or "nothing"
        note = f" {town.shop_note}" if town.shop_note else ""
        c.say("shop", f"🛒 The shop reveals {len(visit.shop)} {'card' if len(visit.shop) == 1 else 'cards'}: "
                      f"{names}.{note}", items=list(visit.shop))
    if "trainer" in town.features:
        set_aside: list[str] = []
        while len(visit.trainer) < town.trainer_lines:
            token = decks.draw_token(c.s, c.dice)
            if token is None:
                c.say("trainer", "The trainer bag is empty.")
                break
            line = c.pack.lines.get(token)
            if line is not None and line.constellation in town.faded:
                set_aside.append(token)
                c.say("trainer", f"{line.name} ({line.constellation}) is a faded constellation here: it is set "
                                 "aside and another token is drawn.")
                continue
            visit.trainer.append(token)
        c.s.trainer_bag.extend(set_aside)
        names = ", ".join(c.pack.lines[t].name for t in visit.trainer if t in c.pack.lines) or "none"
        c.say("trainer", f"🎓 The trainer offers: {names}.", lines=list(visit.trainer))
    for hook in TOWN_HOOKS:
        hook(c, visit)
    visit.actions = {o: ACTIONS for o in c.party()}
    features = ", ".join(f for f in town.features)
    c.say("town-actions", f"Each adventurer has {ACTIONS} town actions ({features}). Choose with `/town visit` "
                          "or the buttons; `/town done` ends yours.")
    open_ask(c, "town", c.party())


def still_acting(c: DayCtx, visit: TownVisit) -> list[str]:
    return [o for o in c.party() if visit.actions.get(o, 0) > 0 and o not in visit.done]


def end(c: DayCtx, enc: Encounter) -> None:
    """The visit is over: unbought cards discarded, trainer tokens back in the bag."""
    visit = c.s.town
    town = town_def(c, visit)
    for card in visit.shop:
        discard_item(c.state, c.pack, card)
    if visit.shop:
        c.say("shop", "The shop's remaining cards are discarded: "
                      + ", ".join(c.pack.items[i].name for i in visit.shop) + ".")
    c.s.trainer_bag.extend(visit.trainer)
    visit.shop, visit.trainer = [], []
    close(c)
    c.s.town = None
    enc.result = "success"
    c.say("town-end", f"The town encounter at {town.name} is over.")
