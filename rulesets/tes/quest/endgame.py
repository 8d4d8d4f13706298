"""The endgame's encounters (p.51): one a day, in order, each labelled with its day.

Before a day's encounter the party compares its keywords with the encounter's keyword section and resolves the
effects of those it holds.  Succeeding at the last encounter wins the campaign; failing any of them, or
reaching the end of the endgame's last day without completing it, loses it (the session package ends it).
"""
from __future__ import annotations

from engine.core import strong
from rulesets.tes.content.quests import Endgame, EndgameDay
from rulesets.tes.day_state import Encounter
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run as run_effects
from rulesets.tes.quest.common import content, journal_of, keyword_name, run_of


def endgame_of(c: DayCtx) -> Endgame | None:
    return content(c.pack).endgames.get(c.s.province)


def trigger(c: DayCtx) -> Encounter | None:
    eg = endgame_of(c)
    day = eg.on_day(c.state.day_dial) if eg is not None else None
    if day is None:
        c.say("trigger", f"The endgame has no encounter for day {c.state.day_dial}.")
        return None
    c.say("trigger", f"⚔️ Endgame, day {day.day}: the party triggers the next encounter, {strong(day.title)}.",
          card=day.id)
    return Encounter("quest", list(c.s.party), card=day.id)


def keywords(c: DayCtx, day: EndgameDay) -> None:
    """The day's keyword section: the effects of each keyword the party holds, before the encounter."""
    held = journal_of(c).keywords()
    for rule in day.keywords:
        if rule.keyword not in held:
            continue
        name = keyword_name(c.pack, rule.keyword)
        label = f"Keyword {name}"
        words = rule.text[len(name) + 2:] if rule.text.startswith(f"{name}: ") else rule.text  # not the name twice
        c.say("endgame-keyword", f"🔑 {label}: {words}", keyword=rule.keyword)
        if rule.manual:
            c.say("manual", f"📝 {label}: {words} (the party applies this)", manual=True)
        else:
            run_effects(c, rule.effects, label)
    missing = [keyword_name(c.pack, r.keyword) for r in day.keywords if r.keyword not in held]
    if missing:
        c.say("endgame-keyword", "Keywords the party does not hold change nothing today: " + ", ".join(missing) + ".")


def after(c: DayCtx, enc: Encounter, day: EndgameDay) -> str:
    """"done" (the last encounter: the campaign is won after the Reward Phase), "failed" or ""."""
    run = run_of(c)
    if enc.result != "success":
        run.result = "failed"
        c.say("endgame-failed", f"💀 The party fails the endgame's day {day.day} encounter, {strong(day.title)}.",
              card=day.id)
        return "failed"
    run.day = day.day
    eg = endgame_of(c)
    if day.final or (eg is not None and day.day >= max(d.day for d in eg.encounters)):
        run.result = "success"
        c.say("endgame-done", f"🏁 The endgame's last encounter is completed: after today's Reward Phase the "
                              "campaign ends.", card=day.id)
        return "done"
    c.say("endgame-done", f"✅ The endgame's day {day.day} encounter is completed.", card=day.id)
    return ""
