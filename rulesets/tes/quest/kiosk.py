"""The guild kiosk and the quest board as town features (p.40).

A guild kiosk lets an adventurer take the party's guild's own town action (its guild card); a quest board
draws 2 side quests.  Each is one personal town action.  A campaign whose pack version has no guild cards (it
began before quests) keeps refusing both as before, spending nothing.
"""
from __future__ import annotations

from engine.core import RuleError
from rulesets.tes.day_state import TownVisit
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run as run_effects
from rulesets.tes.quest import sides
from rulesets.tes.quest.common import content, quests_on
from rulesets.tes.town import features


def guild_of(c: DayCtx):
    j = c.state.journal
    return content(c.pack).guilds.get(j.guild) if j is not None and j.guild else None


def kiosk(c: DayCtx, owner: str, visit: TownVisit, town, args: dict) -> None:
    if not quests_on(c.state, c.pack):
        raise RuleError(features.LATER["kiosk"])
    g = guild_of(c)
    if g is None:
        raise RuleError("The party is contracted with no guild yet, so the kiosk has nothing for it. No town action "
                        "was spent.")
    adv = c.adv(owner)
    k = g.kiosk
    if not k.manual:
        features.nothing_to_gain(c, f"The kiosk's {k.name}", k.effects, [owner], k.text)
    features.spend(c, owner, visit)
    whose = g.name if g.name.startswith("The ") else f"the {g.name}"
    c.say("kiosk", f"🛡️ {adv.name} uses {whose}'s kiosk: {k.name}. {k.text}", player=owner)
    if k.manual:
        c.say("manual", f"📝 {k.name}: {k.text} (the party applies this)", manual=True)
        return
    run_effects(c, k.effects, k.name, owners=[owner])


def board(c: DayCtx, owner: str, visit: TownVisit, town, args: dict) -> None:
    if not quests_on(c.state, c.pack) or not content(c.pack).side_quests:
        raise RuleError(features.LATER["board"])
    deck = sides.deck(c)
    if not deck.size() and not deck.discard:
        raise RuleError("The side-quest deck is empty: the quest board has nothing. No town action was spent.")
    features.spend(c, owner, visit)
    sides.board(c, owner, visit)


features.FEATURES["kiosk"] = kiosk
features.FEATURES["board"] = board
