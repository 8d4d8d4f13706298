"""The Adventurers Rest, taken by the leader between battles.

Campaigns on rules revisions 1 and 2 only (rules revision 3 rests in the End of Day Phase:
rulesets.tes.day.rest); the action stays so their logs replay as they played.

The rulebook rests the party in the End of Day Phase (p.45): by difficulty,
each adventurer removes dice from the cooldown track and heals (Apprentice 2
and 2 HP; Adept and Expert 1 and 1 HP). Until the campaign day is in the bot,
the party leader calls this step between battles, so a defeated adventurer
(0 HP) is never stuck: it is logged like every action. The dice removed are
the leftmost on the track (the ones that would come back first). Expert's
"discard an item to rest" is not applied yet (docs/rules-notes.md).
"""
from __future__ import annotations

from engine.core import Event, RuleError
from engine.text import count
from rulesets.tes.rules.table import Handler, action

REST = {"apprentice": (2, 2), "adept": (1, 1), "expert": (1, 1)}  # difficulty -> (cooldown dice removed, HP healed)


@action
class Rest(Handler):
    type = "party.rest"
    leader_only = True
    args: dict = {}
    summary = "Adventurers Rest between battles: heal and clear the cooldown track by difficulty (leader)."

    def check(self, state, action, ctx):
        if state.rules >= 3:  # rules revision 3: the rest is the End of Day's (rulesets.tes.day.rest)
            raise RuleError("The Adventurers Rest is part of the End of Day now: during a session's End of Day "
                            "Phase each player rests with /adventurer rest. Start a session with /day start.")
        if state.battle:
            raise RuleError("The party can't rest in the middle of a battle; rest once it is over.")
        if not state.adventurers:
            raise RuleError("Nobody has an adventurer yet: there is nobody to rest.")

    def apply(self, state, action, ctx):
        dice, hp = REST.get(state.difficulty, (1, 1))
        events = []
        for owner, adv in state.adventurers.items():
            removed = adv.cooldown[:dice]
            adv.cooldown = adv.cooldown[dice:]
            healed = max(0, min(hp, adv.max_hp - adv.hp))
            adv.hp += healed
            bits = [f"heals {healed} HP ({adv.hp}/{adv.max_hp})"]
            if removed:
                bits.append(f"clears {len(removed)} from the cooldown track")
            events.append(Event("rest", f"{adv.name} rests: " + ", ".join(bits) + ".",
                                {"player": owner, "healed": healed, "cleared": len(removed)}))
        events.insert(0, Event("rest", f"The party takes the Adventurers Rest ({state.difficulty.title()}: "
                                       f"{hp} HP and {count(dice, 'cooldown die', 'cooldown dice')} each).", {"difficulty": state.difficulty}))
        return state, events
