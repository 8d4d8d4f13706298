"""Item cards in battle (rulebook pages 28-29): using, readying, stowing and dropping them.

* Weapons work through ``/engage item:`` (rulesets.tes.battle.engage); armor
  prevents damage by itself when an enemy engages you (rulesets.tes.battle.harm).
  ``/item use`` on an armor card arms its overtax for the next enemy engage.
* Potions carry the expend keyword: used, they turn sideways (``Adventurer.expended``)
  and cannot be used again until refreshed.
* Consumables are used once and discarded; enchantments leave the inventory and
  are tucked under the adventurer (``Adventurer.enchants``).
* Clothing adds a class ability: its cost in tenacity is on the card.
* Pets gain an HP chip each time they prevent damage and are discarded at their limit.
* ``draw-item`` (the Rogue's Pilfer) draws a card from the campaign's item decks; when
  the inventory is full the card waits (``Adventurer.holding``) until its owner drops one.
"""
from __future__ import annotations

from typing import Any

from engine.core import RuleError
from engine.effects import Field, Primitive, one_of
from engine.text import slug as _slug
from rulesets.tes.battle import inventory as decks
from rulesets.tes.battle.inventory import _names, clothing_cost, find, held, lose
from rulesets.tes.battle import track
from rulesets.tes.battle.effects import Use, register, run_effects
from rulesets.tes.battle.model import Ctx, find_unit
from rulesets.tes.battle.checks import my_turn

SUBTYPE_WORDS = {"weapon": "weapon", "armor": "armor", "potion": "potion", "consumable": "consumable",
                 "enchantment": "enchantment", "clothing": "clothing", "misc": "miscellaneous item", "pet": "pet"}


# ------------------------------------------------------------------ use --
def use(c: Ctx, owner: str, key: Any, target: Any = None, *, overtax: bool = False) -> None:
    """/item use: resolve one card as its subtype says (in battle only ready cards)."""
    adv = c.adv(owner)
    fighting = c.state.battle is not None
    item_id = find(c, owner, key, ("ready",) if fighting else ("ready", "pack"))
    it = c.pack.items[item_id]
    if it.subtype == "weapon":
        raise RuleError(f"{it.name} is a weapon: use it in an engage with `/engage item:{it.name}` "
                        "(add `overtax:yes` for its overtax).")
    if it.subtype == "pet":
        raise RuleError(f"{it.name} works by itself ({it.timing}) while it is in a ready slot.")
    if it.subtype == "armor":
        if not fighting:
            raise RuleError(f"{it.name} is armor: it works in battle, when an enemy engages you.")
        if it.keyword != "overtax":
            raise RuleError(f"{it.name} works by itself when an enemy engages you.")
        if item_id in adv.armed:
            raise RuleError(f"{it.name}'s overtax is already set for the next enemy engage that damages you.")
        adv.armed.append(item_id)
        c.say("item", f"{adv.name} will overtax {it.name} the next time an enemy engage deals damage to them "
                      f"(its plain ability always works): {it.overtax_text}", item=item_id)
        return
    if overtax:
        raise RuleError(f"{it.name} has no overtax ability; only weapons and armor do.")
    if item_id in adv.expended:
        raise RuleError(f"{it.name} is expended: it can be used again only once refreshed "
                        "(at an alchemy station in town).")
    if fighting:
        _use_in_battle(c, owner, item_id, target)
    else:
        _use_outside(c, owner, item_id, target)
    if it.subtype == "potion" or it.keyword == "expend":
        adv.expended.append(item_id)
        c.say("item", f"{it.name} is expended (turned sideways): it keeps its inventory space and works again "
                      "once refreshed.", item=item_id)
    elif it.subtype == "enchantment":
        getattr(adv, "ready" if item_id in adv.ready else "pack").remove(item_id)
    elif it.subtype == "consumable" or "discard" in it.text.lower():
        lose(c, owner, item_id)
        c.say("item", f"{it.name} is used up and discarded.", item=item_id)


def _use_in_battle(c: Ctx, owner: str, item_id: str, target: Any) -> None:
    adv = c.adv(owner)
    it = c.pack.items[item_id]
    me = c.unit(f"a:{owner}")
    my_turn(c, owner)
    if c.b.pending:
        raise RuleError("Resolve your roll first (`/resolve`), then use the item.")
    ally = None
    if target not in (None, ""):
        t = find_unit(c, target)
        if not t.owner or c.opposing(me, t):
            raise RuleError(f"{t.name} is not in the party: items help you or an ally. Name an adventurer.")
        ally = t.id
    u = Use(c, me, it.name, ally=ally)
    if it.subtype == "clothing":
        cost = clothing_cost(it.text)
        if adv.tenacity < cost:
            raise RuleError(f"{it.name} costs {cost} tenacity and {adv.name} has {adv.tenacity}.")
        adv.tenacity -= cost
        c.say("item", f"{adv.name} spends {cost} tenacity on {it.name} ({adv.tenacity} left).", item=item_id)
    if it.subtype == "enchantment":
        _enchant(c, owner, item_id, c.adv_of(c.unit(ally)) if ally else adv)
        return
    run_effects(u, _aimed(it.effects, ally), manual=it.manual, text=it.text)


def _enchant(c: Ctx, owner: str, item_id: str, who) -> None:
    it = c.pack.items[item_id]
    who.enchants.append(item_id)
    if it.manual or not it.effects:
        c.say("manual", f"📝 {it.name}: {it.text} (apply this yourselves)", manual=True)
    elif it.timing == "start of battle":
        c.say("item", f"{it.name} works for {who.name} at the start of each battle: {it.text}", item=item_id)
    c.say("item", f"{it.name} is tucked under {who.name}'s mat; it is no longer in the inventory.", item=item_id)


def _use_outside(c: Ctx, owner: str, item_id: str, target: Any) -> None:
    """Between battles there is no map: effects on you (or a named adventurer) apply, the rest is shown."""
    adv = c.adv(owner)
    it = c.pack.items[item_id]
    who = adv
    if target not in (None, ""):
        want = _slug(str(target))
        who = next((a for a in c.state.adventurers.values() if _slug(a.name) == want), None)
        if who is None:
            raise RuleError(f"`{target}` is not an adventurer of the party. Name one of: "
                            + ", ".join(a.name for a in c.state.adventurers.values()) + ".")
    if it.subtype == "clothing":
        raise RuleError(f"{it.name} adds a class ability, used in battle on your turn.")
    if it.subtype == "enchantment":
        _enchant(c, owner, item_id, who)
        return
    if it.manual or not it.effects:
        c.say("manual", f"📝 {it.name}: {it.text} (apply this yourselves)", manual=True)
        return
    cap = c.pack.mat.tenacity_max
    for e in it.effects:
        n = int(e.get("amount", 1)) if isinstance(e.get("amount", 1), int) else 0
        kind = e.get("type")
        if kind == "heal":
            got = max(0, min(n, who.max_hp - who.hp))
            who.hp += got
            c.say("heal", f"{it.name}: {who.name} heals {got} HP ({who.hp}/{who.max_hp}).", amount=got)
        elif kind == "tenacity":
            before = who.tenacity
            who.tenacity = min(cap, who.tenacity + n)
            c.say("tenacity", f"{it.name}: {who.name} gains {who.tenacity - before} tenacity ({who.tenacity}/{cap}).")
        elif kind == "recover":
            taken = track.recover(who, e["what"], n)
            what = e['what'].replace('-', ' ')
            c.say("recover", f"{it.name}: {who.name} recovers {c.count(len(taken), what + ' die', what + ' dice')}.")
        elif kind == "fatigue":
            track.gain_fatigue(who, e.get("kind", "light"), n, c.track_size, party=c.state.adventurers.values(),
                               supply=c.pack.supply)
            c.say("fatigue", f"{it.name}: {who.name} gains {n} "
                             f"{'overfatigue' if e.get('kind') == 'over' else 'light fatigue'}.")
        elif kind == "bonus-hp":
            c.say("note", f"{it.name}: bonus HP lasts only in battle, so it has no effect now.")
        else:
            c.say("manual", f"📝 {it.name}: {it.text} (apply this yourselves)", manual=True)
    if any(e.get("target") in ("allies-in-range", "all-in-range") for e in it.effects):
        c.say("note", f"{it.name}: between battles there is no range; allies it reaches are applied in battle only.")


def _aimed(effects, ally: str | None) -> list[dict]:
    """A card that helps "you" helps the chosen ally instead when one is named."""
    if not ally:
        return list(effects)
    out = []
    for e in effects:
        if e.get("type") in ("heal", "tenacity", "recover", "bonus-hp") and e.get("target", "self") == "self":
            e = dict(e, target="ally")
        out.append(e)
    return out


# --------------------------------------------------------- inventory ---
def ready(c: Ctx, owner: str, key: Any, swap: Any = None) -> None:
    """/item ready: a pack card to a ready slot (outside battle or while deploying)."""
    adv = c.adv(owner)
    _may_rearrange(c)
    item_id = find(c, owner, key, ("pack",))
    it = c.pack.items[item_id]
    out = None
    if swap:
        out = find(c, owner, swap, ("ready",))
    if it.subtype == "armor":
        clash = [i for i in adv.ready if i != out and c.pack.items[i].subtype == "armor"
                 and set(c.pack.items[i].traits) & set(it.traits)]
        if clash:
            raise RuleError(f"Only one armor per body area may be ready: {c.pack.items[clash[0]].name} is already "
                            f"worn there. Name it with `swap:`.")
    if len(adv.ready) >= c.pack.mat.ready_slots and out is None:
        raise RuleError(f"{adv.name}'s {c.pack.mat.ready_slots} ready slots are full ({_names(c, adv.ready)}). "
                        "Name one to move to the pack with `swap:`.")
    if out is not None:
        if c.pack.items[out].subtype == "pet":
            raise RuleError(f"{c.pack.items[out].name} is a pet: once ready it cannot go back to the pack. "
                            "Drop it with `/item drop` instead.")
        adv.ready.remove(out)
        adv.pack.append(out)
    adv.pack.remove(item_id)
    adv.ready.append(item_id)
    c.say("item", f"{adv.name} readies {it.name}" + (f" and packs {c.pack.items[out].name}" if out else "") + ".",
          item=item_id)


def stow(c: Ctx, owner: str, key: Any) -> None:
    adv = c.adv(owner)
    _may_rearrange(c)
    item_id = find(c, owner, key, ("ready",))
    it = c.pack.items[item_id]
    if it.subtype == "pet":
        raise RuleError(f"{it.name} is a pet: once in a ready slot it cannot go back to the pack.")
    adv.ready.remove(item_id)
    adv.pack.append(item_id)
    c.say("item", f"{adv.name} puts {it.name} in the pack.", item=item_id)


def _may_rearrange(c: Ctx) -> None:
    b = c.state.battle
    if b and b.round > 1:
        raise RuleError("During a battle items move between the pack and ready slots only when you are "
                        "deployed (round 1); wait for the end of the battle.")
    s = c.state.days
    if b is None and c.state.rules >= 4 and s is not None and s.phase not in ("over", "setup"):
        # p.28: between pack and ready slots when deployed for a battle or in the End of Day Phase (p.45: its
        # Adventurers Rest step), not at any moment of a session's day (before revision 4: any time)
        resting = s.phase == "end-of-day" and s.ask is not None and s.ask.kind == "rest"
        if not resting:
            raise RuleError("During a session items move between the pack and ready slots only in the End of "
                            "Day's Adventurers Rest (until the last adventurer has rested) or when you deploy "
                            "for a battle (`/battle deploy ready:`). Wait for the rest; see `/day status`.")


def drop(c: Ctx, owner: str, key: Any) -> None:
    """/item drop: discard a card (or, with a won card waiting, make room for it)."""
    adv = c.adv(owner)
    item_id = find(c, owner, key, ("ready", "pack", "holding"))
    it = c.pack.items[item_id]
    waiting = adv.holding
    if item_id == waiting:
        adv.holding = None
        decks.discard(c.state, c.pack, item_id)
        c.say("item", f"{adv.name} leaves {it.name}; it goes to the discard pile.", item=item_id)
        return
    lose(c, owner, item_id)
    c.say("item", f"{adv.name} discards {it.name}.", item=item_id)
    if waiting:
        adv.holding = None
        decks.gain_item(c, owner, waiting)


def gain(c: Ctx, owner: str, card: str) -> None:
    """A card gained: ready slot, else pack; with all spaces full it waits for the owner's choice."""
    adv = c.adv(owner)
    it = c.pack.items[card]
    if len(adv.ready) + len(adv.pack) >= c.pack.mat.inventory_max:
        if adv.holding:
            decks.discard(c.state, c.pack, adv.holding)
        adv.holding = card
        c.say("item", f"{adv.name} draws {it.name}, but all {c.pack.mat.inventory_max} inventory spaces are full. "
                      f"Choose what to give up: `/item drop item:` one of {_names(c, held(c, owner))}, "
                      f"or `/item drop item:{it.name}` to leave the new card.", item=card, choice=True)
        return
    decks.gain_item(c, owner, card)


# ---------------------------------------------------------------- hooks --


# ---------------------------------------------------------- primitive --
def _cards(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v > 0 else "must be a whole number of cards"


@register
class DrawItem(Primitive):
    type = "draw-item"
    summary = "draw item cards from the campaign's common or legendary item deck"
    fields = {"rarity": Field(one_of("common", "legendary"), default="common"),
              "amount": Field(_cards, default=1)}

    def apply(self, use: Use, eff: dict) -> int:
        owner = use.source.get("owner") if hasattr(use.source, "get") else use.source.owner
        if not owner:
            return 0
        got = 0
        for _ in range(int(eff.get("amount", 1))):
            card = decks.top_card(use.c.state, use.c.pack, eff.get("rarity", "common"), use.c.dice)
            if card is None:
                use.c.say("item", f"{use.label}: the {eff.get('rarity', 'common')} item deck is empty.")
                break
            decks.deck(use.c.state, use.c.pack, eff.get("rarity", "common"), use.c.dice).draw.remove(card)
            use.c.say("item", f"{use.label}: {use.c.adv(owner).name} draws {use.c.pack.items[card].name}.",
                      item=card)
            gain(use.c, owner, card)
            got += 1
        return got

    def describe(self, eff: dict) -> str:
        n = int(eff.get("amount", 1))
        return f"draw {n} {eff.get('rarity', 'common')} item{'s' if n != 1 else ''}"
