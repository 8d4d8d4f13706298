"""The effect primitives a quest adds to the day (docs/content-format.md, "Effects of the day"): a keyword in the
journal, a side-quest card, overland tokens placed, moved or removed, a named item card, a shop drawn anew.

They register on the day's registry (``DAY_EFFECTS``) like the day's own, so every card, step, side quest,
endgame day and kiosk may use them, and the loader refuses a field without behaviour.
"""
from __future__ import annotations

from engine.text import count
from typing import Any

from engine.effects import Field, Primitive, one_of, text as _text
from rulesets.tes.battle.inventory import deck as item_deck
from rulesets.tes.battle.items import gain as gain_item
from rulesets.tes.content.overland import DAY_EFFECTS
from rulesets.tes.day_state import Token
from rulesets.tes.outcomes.effects import DayUse
from rulesets.tes.overland.tokens import move_token, token as find_token
from rulesets.tes.quest.common import journal_of, keyword_name

register = DAY_EFFECTS.register


def _hex(v: Any) -> str | None:
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return None
    return "must be a hex written as [q, r]"


def _toward(v: Any) -> str | None:
    if isinstance(v, str) and (v in ("party", "compass") or v.startswith("town:")):
        return None
    return 'must be "party", "compass" or "town:<town id>"'


def _moves(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 12 else \
        "must be a whole number from 1 to 12"


class PartyEffect(Primitive):
    party = True


class Each(Primitive):
    party = False


@register
class Keyword(PartyEffect):
    type = "keyword"
    summary = "the party gains a minor keyword (written in the campaign journal each time it is gained)"
    fields = {"keyword": Field(_text, required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        j = journal_of(c)
        j.minor.append({"keyword": eff["keyword"], "session": c.state.session})
        times = sum(1 for m in j.minor if m["keyword"] == eff["keyword"])
        again = f" (gained {count(times, 'time')})" if times > 1 else ""
        c.say("keyword", f"🔑 {use.label}: the party gains the keyword {{*{keyword_name(c.pack, eff['keyword'])}*}}"
                         f"{again}; it is written in the campaign journal.", keyword=eff["keyword"])
        return 1

    def describe(self, eff: dict) -> str:
        return f"gain the keyword {eff.get('keyword')}"


@register
class SideQuestCard(PartyEffect):
    type = "side-quest"
    summary = "the party gains a side-quest card (this one, or the top of the side-quest deck)"
    fields = {"card": Field(_text)}

    def apply(self, use: DayUse, eff: dict) -> int:
        from rulesets.tes.quest import sides

        c = use.c
        card = eff.get("card")
        if card:
            deck = c.s.decks.get("side-quest")
            if deck is not None:
                for pile in (deck.pool, deck.bottom, deck.discard):
                    if card in pile:
                        pile.remove(card)
        else:
            card = sides.draw(c)
            if card is None:
                c.say("side-quest", f"{use.label}: the side-quest deck is empty.")
                return 0
        return 1 if sides.gain(c, card, use.label) else 0

    def describe(self, eff: dict) -> str:
        return "gain a side quest"


@register
class PlaceToken(PartyEffect):
    type = "place-token"
    summary = "an overland token is placed on a hex or a town of the map (an objective or an NPC)"
    fields = {"token": Field(_text, required=True), "name": Field(_text), "kind": Field(one_of("npc", "objective"),
                                                                                         default="objective"),
              "hex": Field(_hex), "town": Field(_text)}

    def problems(self, eff: dict) -> list[str]:
        if ("hex" in eff) == ("town" in eff):
            return ["names where the token goes: hex = [q, r] or town = \"<town id>\""]
        return []

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        h = eff.get("hex") or c.province.hex_of_town(eff.get("town"))
        if h is None:
            c.say("token", f"{use.label}: there is no town `{eff.get('town')}` to place the token in.")
            return 0
        c.s.tokens = [t for t in c.s.tokens if t.id != eff["token"]]
        name = eff.get("name") or eff["token"]
        c.s.tokens.append(Token(eff["token"], eff.get("kind", "objective"), name, int(h[0]), int(h[1])))
        c.say("token", f"📍 {use.label}: the {name} is placed at {h[0]},{h[1]}.", token=eff["token"])
        return 1

    def describe(self, eff: dict) -> str:
        return f"place the {eff.get('name') or eff.get('token')}"


@register
class RemoveToken(PartyEffect):
    type = "remove-token"
    summary = "an overland token leaves the map"
    fields = {"token": Field(_text, required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        tok = find_token(c, eff["token"])
        if tok is None:
            return 0
        c.s.tokens.remove(tok)
        c.say("token", f"{use.label}: the {tok.name} leaves the map.", token=tok.id)
        return 1

    def describe(self, eff: dict) -> str:
        return f"remove the token {eff.get('token')}"


@register
class MoveToken(PartyEffect):
    type = "move-token"
    summary = "an overland token moves toward the party, a town, or the direction the compass die rolls"
    fields = {"token": Field(_text, required=True), "move": Field(_moves, required=True),
              "toward": Field(_toward, default="party")}

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        tok = find_token(c, eff["token"])
        if tok is None:
            c.say("token", f"{use.label}: the token `{eff['token']}` is not on the map.")
            return 0
        return len(move_token(c, tok, int(eff["move"]), eff.get("toward", "party")))

    def describe(self, eff: dict) -> str:
        return f"move the token {eff.get('token')} {count(int(eff.get('move') or 0), 'hex')}"


@register
class GainItem(Each):
    type = "gain-item"
    summary = "the adventurer gains this item card (a quest item set aside, or taken out of its deck)"
    fields = {"item": Field(_text, required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        card = eff["item"]
        it = c.pack.items.get(card)
        if it is None:
            return 0
        holder = next((a for a in c.state.adventurers.values() if card in a.ready + a.pack), None)
        if holder is not None:
            c.say("item", f"{use.label}: {holder.name} already holds {it.name}.", item=card)
            return 0
        d = item_deck(c.state, c.pack, it.rarity, c.dice)
        for pile in (d.draw, d.discard):
            if card in pile:
                pile.remove(card)
        adv = c.adv(use.owner)
        c.say("item", f"{use.label}: {adv.name} gains {it.name}.", item=card, player=use.owner)
        gain_item(c, use.owner, card)
        return 1

    def describe(self, eff: dict) -> str:
        words = str(eff.get("item") or "").split("-")  # the card's name as its id spells it (no pack here)
        name = " ".join(w if i and w in ("of", "the", "and", "in") else w.capitalize() for i, w in enumerate(words))
        return f"gain the item {name}"


@register
class ShopRefresh(PartyEffect):
    type = "shop-refresh"
    summary = "in a town: the shop's face-up cards are discarded and as many are drawn anew"
    fields = {}

    def apply(self, use: DayUse, eff: dict) -> int:
        from rulesets.tes.battle.inventory import discard
        from rulesets.tes.outcomes.effects import top_item

        c = use.c
        visit = c.s.town
        if visit is None or not visit.shop:
            c.say("shop", f"{use.label}: there are no shop cards to draw anew.")
            return 0
        old = list(visit.shop)
        visit.shop = []
        for card in old:
            discard(c.state, c.pack, card)
        for card in old:
            fresh = top_item(c, c.pack.items[card].rarity)
            if fresh is not None:
                visit.shop.append(fresh)
        c.say("shop", f"🛒 {use.label}: the shop's cards are discarded ({', '.join(c.pack.items[i].name for i in old)}) "
                      f"and {len(visit.shop)} drawn anew: {', '.join(c.pack.items[i].name for i in visit.shop)}.",
              items=list(visit.shop))
        return len(visit.shop)

    def describe(self, eff: dict) -> str:
        return "draw the shop's cards anew"
