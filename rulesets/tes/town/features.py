"""Town features (p.40): what one town action does.  Every action is personal (taken when the adventurer wants)
unless the town's square is a group action; an adventurer may use the same feature with both actions, except the
town square (once per visit).  A feature the town does not have is refused, and so is an action that would do
nothing (the action is not spent).  From rules revision 4 that holds for the inn (an adventurer with nothing to
heal or recover), a town square or a kiosk whose effects would give nothing, and a group action: each adventurer
puts one of their own town actions into it (p.39), so it is refused while one of them has none left, and an
adventurer the group waits for keeps their last action for it.
"""
from __future__ import annotations

import copy

from engine.core import RuleError
from engine.text import count, slug
from rulesets.tes.battle.items import gain
from rulesets.tes.content.overland import FEATURE_NAMES
from rulesets.tes.day_state import TownVisit
from rulesets.tes.outcomes import mat
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run
from rulesets.tes.town.visit import town_def

#: Town features whose rules live above the town (the quests fill it: "kiosk", "board"), by feature.
FEATURES: dict = {}

LATER = {
    "kiosk": "The guild kiosk offers your guild's own town action, and guilds come with guild quests, which are "
             "not in the bot yet (docs/rules-notes.md). No town action was spent.",
    "board": "The quest board offers side quests, which are not in the bot yet (docs/rules-notes.md). No town "
             "action was spent.",
}


def act(c: DayCtx, owner: str, feature: str, args: dict) -> None:
    visit: TownVisit = c.s.town
    town = town_def(c, visit)
    adv = c.adv(owner)
    f = slug(feature or "")
    f = {"alchemy-station": "alchemy", "guild-kiosk": "kiosk", "town-square": "square", "quest-board": "board",
         "square": "square"}.get(f, f)
    if f not in FEATURE_NAMES:
        raise RuleError(f"`{feature}` is not a town feature. {town.name} has: "
                        + ", ".join(FEATURE_NAMES[x] for x in town.features) + ".")
    if f not in town.features:
        raise RuleError(f"{town.name} has no {FEATURE_NAMES[f].lower()} (it is faded out). It has: "
                        + ", ".join(FEATURE_NAMES[x] for x in town.features) + ".")
    if owner in visit.done or visit.actions.get(owner, 0) <= 0:
        raise RuleError(f"{adv.name} has no town actions left in {town.name}.")
    if c.state.rules >= 4 and f != "square":
        _keeps_for_group(c, owner, visit, town)
    if f in FEATURES:
        FEATURES[f](c, owner, visit, town, args)
        return
    if f in LATER:
        raise RuleError(LATER[f])
    {"shop": _shop, "trainer": _trainer, "inn": _inn, "alchemy": _alchemy, "square": _square}[f](
        c, owner, visit, town, args)


def spend(c: DayCtx, owner: str, visit: TownVisit) -> None:
    visit.actions[owner] -= 1


#: the effect types a dry run can try on a copy of the campaign (they roll nothing and draw no card)
DRY_RUN = ("heal", "tenacity", "recover", "lose-tenacity")


def gains_nothing(c: DayCtx, effects, owners: list[str]) -> bool:
    """Whether ``effects`` would change nothing for ``owners`` (rules revision 4): tried on a copy of the
    campaign, for effects that roll no die and draw no card; any other effect counts as a gain."""
    if c.state.rules < 4 or not effects or any(e.get("type") not in DRY_RUN for e in effects):
        return False
    trial = DayCtx(copy.deepcopy(c.state), c.pack, None, now=c.now)
    return run(trial, effects, "", owners=owners) == 0


def nothing_to_gain(c: DayCtx, what: str, effects, owners: list[str], text: str) -> None:
    """Refuse a town action whose effects would give nothing (rules revision 4); no town action is spent."""
    if gains_nothing(c, effects, owners):
        who = " and ".join(c.adv(o).name for o in owners) if len(owners) <= 2 else "the party"
        raise RuleError(f"{what} would give {who} nothing now ({text}). No town action was spent: choose "
                        "another feature, or `/town done`.")


def _keeps_for_group(c: DayCtx, owner: str, visit: TownVisit, town) -> None:
    """Rules revision 4: an adventurer a started group action waits for keeps their last town action for it."""
    sq = town.square
    if sq is None or not sq.group or not visit.group or owner in visit.group:
        return
    if visit.actions.get(owner, 0) <= 1:
        waiting = ", ".join(c.adv(o).name for o in visit.group)
        raise RuleError(f"{sq.name} is a group action: {waiting} put a town action into it and it waits for "
                        f"{c.adv(owner).name}'s last town action. Put it in with `/town visit feature:square`, "
                        "or give up the group action with `/town done` (the actions put into it are given back).")


def _shop(c, owner, visit, town, args) -> None:
    adv = c.adv(owner)
    want = [w for w in _list(args.get("item"))]
    if not visit.shop:
        raise RuleError("The shop has no cards left. No town action was spent.")
    if not want:
        raise RuleError(f"Name the card to take with `item:` ({town.shop_takes} per shop action): "
                        + ", ".join(c.pack.items[i].name for i in visit.shop) + ".")
    if len(want) > town.shop_takes:
        raise RuleError(f"A shop action at {town.name} takes {town.shop_takes} "
                        f"{'card' if town.shop_takes == 1 else 'cards'}.")
    if len(want) < town.shop_takes and len(visit.shop) >= town.shop_takes:
        raise RuleError(f"A shop action at {town.name} takes {count(town.shop_takes, 'card')}: name them all, "
                        "comma separated (the shop's rule).")
    picked = []
    for w in want:
        key = slug(w)
        hit = next((i for i in visit.shop if i not in picked and (i == key or slug(c.pack.items[i].name) == key)),
                   None)
        if hit is None:
            raise RuleError(f"The shop has no `{w}`. On offer: "
                            + ", ".join(c.pack.items[i].name for i in visit.shop) + ".")
        picked.append(hit)
    spend(c, owner, visit)
    for card in picked:
        visit.shop.remove(card)
        c.say("shop", f"🛒 {adv.name} takes {c.pack.items[card].name} from the shop.", player=owner, item=card)
        gain(c, owner, card)


def _trainer(c, owner, visit, town, args) -> None:
    adv = c.adv(owner)
    line = slug(args.get("line") or "")
    offered = list(visit.trainer)
    magicka = adv.find_slot("stat", "magicka") is None
    if not line:
        names = [c.pack.lines[t].name for t in offered] + (["Magicka (the stat)"] if magicka else [])
        raise RuleError("Name the skill line to train with `line:`: " + (", ".join(names) or "none on offer") + ".")
    if line == "magicka":
        if not magicka:
            raise RuleError(f"{adv.name} already has the Magicka stat.")
        token = "magicka"
    else:
        token = next((t for t in offered if t == line or slug(c.pack.lines[t].name) == line), None)
        if token is None:
            raise RuleError(f"The trainer does not offer `{args.get('line')}`. On offer: "
                            + ", ".join(c.pack.lines[t].name for t in offered) + ".")
        if token in adv.lines():
            raise RuleError(f"{adv.name} has already trained {c.pack.lines[token].name}; an adventurer has at most "
                            "one token of a skill line.")
    slots = mat.open_slots(adv)
    if not slots:
        raise RuleError(f"{adv.name} has no open circular slot: untrain a skill line in the Reward Phase first. "
                        "No town action was spent.")
    where = slots[0]
    if args.get("slot"):
        where = _slot(args["slot"], len(adv.rows))
        if where not in slots:
            raise RuleError(f"Slot {mat.slot_label(*where)} is taken. Open slots: "
                            + ", ".join(mat.slot_label(*s) for s in slots) + ".")
    spend(c, owner, visit)
    mat.add_line(adv, token, where)
    if token != "magicka":
        visit.trainer.remove(token)
    name = "the Magicka stat" if token == "magicka" else c.pack.lines[token].name
    c.say("trainer", f"🎓 {adv.name} trains {name} (slot {mat.slot_label(*where)}).", player=owner, line=token)


def _slot(text, rows: int) -> tuple[int, str]:
    import re

    m = re.fullmatch(r"\s*(\d)\s*([LRlr])\s*", str(text))
    if not m or not 1 <= int(m.group(1)) <= rows:
        raise RuleError(f"`slot:` is a row (1-{rows}) and a side, like 4R.")
    return int(m.group(1)) - 1, m.group(2).upper()


def _inn(c, owner, visit, town, args) -> None:
    adv = c.adv(owner)
    if c.state.rules >= 4 and adv.hp >= adv.max_hp and not adv.cooldown and not adv.drained:
        raise RuleError(f"{adv.name} is at full HP ({adv.hp}/{adv.max_hp}) with an empty cooldown track and no "
                        "drained dice: the inn would give nothing. No town action was spent: choose another "
                        "feature, or `/town done`.")
    spend(c, owner, visit)
    healed = adv.max_hp - adv.hp
    adv.hp = adv.max_hp
    dice = sum(1 for e in adv.cooldown if "die" in e) + len(adv.drained)
    tired = sum(1 for e in adv.cooldown if "fatigue" in e)
    status = sum(1 for e in adv.cooldown if "status" in e)
    adv.cooldown, adv.drained = [], []
    c.say("inn", f"🛏️ {adv.name} rests at the inn: heals {healed} HP ({adv.hp}/{adv.max_hp}), discards "
                 f"{tired} fatigue and {status} status dice, and recovers {dice} skill dice.", player=owner)


def _alchemy(c, owner, visit, town, args) -> None:
    adv = c.adv(owner)
    potions = [i for i in adv.expended if i in adv.ready + adv.pack]
    if not potions:
        raise RuleError(f"{adv.name} has no expended potion to refresh. No town action was spent.")
    pick = potions[0]
    if args.get("item"):
        key = slug(args["item"])
        pick = next((i for i in potions if i == key or slug(c.pack.items[i].name) == key), None)
        if pick is None:
            raise RuleError("Expended potions: " + ", ".join(c.pack.items[i].name for i in potions) + ".")
    spend(c, owner, visit)
    adv.expended.remove(pick)
    c.say("alchemy", f"⚗️ {adv.name} refreshes {c.pack.items[pick].name} at the alchemy station.", player=owner,
          item=pick)


def _square(c, owner, visit, town, args) -> None:
    adv = c.adv(owner)
    sq = town.square
    if sq.group:
        if owner in visit.group:
            raise RuleError(f"{adv.name} has already put an action into {sq.name}.")
        if c.state.rules >= 4:
            cannot = [c.adv(o).name for o in c.party() if o != owner and o not in visit.group
                      and (o in visit.done or visit.actions.get(o, 0) <= 0)]
            if cannot:
                raise RuleError(f"{sq.name} is a group action: every adventurer puts one of their own town actions "
                                f"into it (p.39), and {', '.join(cannot)} has none left. No town action was spent.")
            if not sq.manual:
                nothing_to_gain(c, sq.name, sq.effects, c.party(), sq.text)
        spend(c, owner, visit)
        visit.group.append(owner)
        waiting = [c.adv(o).name for o in c.party() if o not in visit.group]
        c.say("square", f"🏛️ {adv.name} puts a town action into {sq.name} (a group action)"
                        + (f"; waiting for {', '.join(waiting)}." if waiting else "."), player=owner)
        if not waiting:
            _square_effect(c, sq, c.party())
        return
    if owner in visit.square:
        raise RuleError(f"{adv.name} has already visited {sq.name}: the town square is once per visit.")
    if not sq.manual:
        nothing_to_gain(c, sq.name, sq.effects, [owner], sq.text)
    spend(c, owner, visit)
    visit.square.append(owner)
    c.say("square", f"🏛️ {adv.name} visits {sq.name}.", player=owner)
    _square_effect(c, sq, [owner])


def _square_effect(c, sq, owners) -> None:
    if sq.manual:
        c.say("manual", f"📝 {sq.name}: {sq.text} (the party applies this)", manual=True)
        return
    run(c, sq.effects, sq.name, owners=owners)


def done(c: DayCtx, owner: str) -> None:
    visit = c.s.town
    adv = c.adv(owner)
    if owner in visit.done or visit.actions.get(owner, 0) <= 0:
        raise RuleError(f"{adv.name} has no town actions left to give up.")
    left = visit.actions[owner]
    visit.done.append(owner)
    c.say("town-done", f"{adv.name} is done in town ({left} town {'action' if left == 1 else 'actions'} unused).",
          player=owner)
    sq = town_def(c, visit).square
    if c.state.rules >= 4 and sq is not None and sq.group and visit.group and owner not in visit.group:
        back = list(visit.group)
        for o in back:
            visit.actions[o] = visit.actions.get(o, 0) + 1
        visit.group = []
        c.say("square", f"🏛️ {sq.name} cannot be done without {adv.name}: "
                        + " and ".join(c.adv(o).name for o in back) + (" gets" if len(back) == 1 else " get")
                        + " back the town action put into it.",
              players=back)


def _list(v) -> list[str]:
    if v is None:
        return []
    if isinstance(v, (list, tuple)):
        return [str(x).strip() for x in v if str(x).strip()]
    return [p.strip() for p in str(v).split(",") if p.strip()]
