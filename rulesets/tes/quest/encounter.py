"""A quest encounter in the day (pp.34, 46-48): triggered first at the Overland Phase's trigger step, resolved
like an overland card in the Encounter Phase (its story, its choices, its social checks and battles: the cards
package does it), then its step, side quest or endgame day goes on.

``QUEST_TRIGGERS`` (``overland.travel``) asks ``trigger``: the endgame's encounter of the day, else the guild
quest's current step, else the first active side quest whose trigger is met.  Day 1 of a session is spent in
its starting town (p.34), so nothing triggers then, except in the endgame.

A card with ``battle_first`` fights its encounter's battle before its choices: a victory opens them, a defeat
fails the encounter.  A final step's battle uses the End of Session EP of the campaign's session (p.56).
"""
from __future__ import annotations

from engine.core import strong
from rulesets.tes.cards import resolve as cards
from rulesets.tes.day_state import Encounter
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.overland import travel
from rulesets.tes.quest import effects as _effects  # noqa: F401 - the quests' effect primitives register
from rulesets.tes.quest import endgame, guild, sides
from rulesets.tes.quest.common import card as card_of, content, quests_on


def trigger(c: DayCtx) -> Encounter | None:
    run = c.state.quests
    if run is None or not quests_on(c.state, c.pack) or run.result:
        return None
    if run.endgame:
        return endgame.trigger(c)
    if c.state.day_dial <= 1:
        return None
    moved = len(c.s.route) > 1
    step = content(c.pack).step(run.step) if run.step else None
    if step is not None and not step.trigger.linked and guild.trigger_matches(c, step.trigger, moved):
        c.say("trigger", f"📜 The party triggers the quest encounter of step {step.code}, {strong(step.title)}.",
              step=step.id)
        return Encounter("quest", list(c.s.party), card=step.id)
    return sides.trigger(c, moved)


travel.QUEST_TRIGGERS.append(trigger)


def present(c: DayCtx, enc: Encounter) -> None:
    card = card_of(c, enc.card)
    if card.kind == "endgame":
        endgame.keywords(c, card)
    if getattr(card, "final", False) and card.kind == "step":
        guild.final_warning(c, card, here=True)  # rules revision 4: the numbers again, before the battle
    cards.present(c, enc)
    if card.battle_first:
        c.say("card", f"First the battle: {c.pack.encounters[card.encounter].name}. The choices follow a victory.",
              card=card.id)


def proceed(c: DayCtx, enc: Encounter) -> bool:
    """Move the quest encounter on; True once it has a result."""
    card = card_of(c, enc.card)
    if card.battle_first and not enc.result and enc.choice is None:
        if enc.battle is None:
            if c.state.battle is None:
                cards.start_battle(c, enc, None)
            return bool(enc.result)
        last = c.state.last_battle
        if enc.battle == -1 or last is None or last.no != enc.battle or last.outcome != "victory":
            enc.result = "failed"
            c.say("card-done", f"{card.name} is failed: the battle was lost.", result="failed")
            return True
    return cards.proceed(c, enc)


def after(c: DayCtx, enc: Encounter) -> str:
    """The quest encounter has its result: "linked", "failed" (the campaign is lost), "done" or ""."""
    card = card_of(c, enc.card)
    if card.kind == "side":
        sides.after(c, enc)
        return ""
    if card.kind == "endgame":
        return endgame.after(c, enc, card)
    out = guild.after(c, enc, card)
    run = c.state.quests
    if out != "linked" and run is not None and run.carry:
        if enc.result == "success":
            enc.xp += run.carry
        else:
            c.say("xp", f"The {run.carry} XP of the step completed earlier today are lost with this failure.")
        run.carry = 0
    return out
