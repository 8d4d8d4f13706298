"""The guild quest (pp.46-47): steps read one at a time, their set-up, ongoing effects, success and failure.

* ``begin``: the quest starts: the party token goes to its starting location and step A is read.
* ``reveal``: a step is read: its story, special set-up (done at once: tokens, towns, items), objective,
  ongoing effects and rewards.  Only then does anything show its words (the state names the step reached,
  never one ahead).
* ``ongoing``: the current step's ongoing effects at New Day or at the End of Day's Activate Province Effect step.
* ``after``: the step's quest encounter has a result (the end of the Encounter Phase): success completes the
  step and reads the next (a choice may name it; otherwise the first step of the next letter; after the last
  one the epilogue waits for the session's end); a linked next step is triggered at once, the same day.
  Failure fails the quest (the session and the campaign end), unless the step lets the party retry or names
  another step.
"""
from __future__ import annotations

from engine.core import strong
from rulesets.tes.content.quests import GuildQuest, Step
from rulesets.tes.day_state import Encounter
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run as run_effects
from rulesets.tes.overland.tokens import move_token, token
from rulesets.tes.quest.common import content, journal_of, run_of

TIMING_WORDS = {"new-day": "at each New Day", "end-of-day": "at each End of Day (Activate Province Effect)"}


def quest_of(c: DayCtx) -> GuildQuest | None:
    run = c.state.quests
    if run is None or not run.quest:
        return None
    return content(c.pack).quests.get(run.quest)


def begin(c: DayCtx, quest_id: str) -> None:
    """The chosen guild quest starts: its starting location, then step A."""
    q = content(c.pack).quests[quest_id]
    guild = content(c.pack).guilds[q.guild]
    run = run_of(c)
    run.quest, run.step, run.done, run.result = q.id, None, [], ""
    entry = journal_of(c).current
    if entry is not None:
        entry.quest, entry.guild = q.id, q.guild
    prov = c.province
    town = prov.towns[q.start]
    h = prov.hex_of_town(town.id)
    c.s.party = [h[0], h[1]]
    c.say("quest", f"📜 Guild quest: {strong(q.name)} for the {guild.name} (complexity {q.complexity}). "
                   f"Starting location: {town.name} — the party token is placed there ({h[0]},{h[1]}).",
          quest=q.id, town=town.id)
    reveal(c, q.steps[0])


def reveal(c: DayCtx, step: Step) -> None:
    """Read a step: the party reaches it now (its words are shown for the first time)."""
    run = run_of(c)
    run.step, run.started, run.count = step.id, c.state.day_dial, 0
    c.say("quest-step", f"📖 Step {step.code} — {step.title}: {step.story}", step=step.id)
    if step.setup_text:
        c.say("quest-step", f"Set-up: {step.setup_text}", step=step.id)
    if step.setup:
        run_effects(c, step.setup, f"Step {step.code}")
    day = f" (recommended by day {step.recommended})" \
        if step.recommended and "recommended" not in step.objective else ""
    c.say("quest-step", f"🎯 Objective: {step.objective}{day}", step=step.id)
    for o in step.ongoing:
        c.say("quest-step", f"⏳ Ongoing, {TIMING_WORDS[o.timing]}: {o.text}", step=step.id)
    if step.rewards:
        c.say("quest-step", f"☼ Rewards: {step.rewards}", step=step.id)
    final_warning(c, step)


#: The final battle is "far above" the party when its End of Session pool is at least this many times the pool the
#: party's XP Dial would give (the rulebook sets that pool by an XP goal for the session, p.56).
FAR_ABOVE = 2


def final_warning(c: DayCtx, step: Step, *, here: bool = False) -> None:
    """Rules revision 4: before a session's final battle whose pool is far above what the party's XP Dial suggests,
    say so with the numbers, when the step is read (the party may still gather XP on its way) and when it is
    reached (``here``)."""
    from engine.core import RuleError
    from rulesets.tes.battle.pool import session_pool

    if c.state.rules < 4 or not step.final:
        return
    n = len(c.party()) or 1
    try:
        pool = session_pool(c.state.session, c.state.difficulty, n)
    except RuleError:
        return
    dial = max(1, c.state.xp_dial) * n
    if pool < FAR_ABOVE * dial:
        return
    goal = pool // n
    then = ("The battle begins now." if here else
            "The party may gather XP on its way (overland cards, side quests) before it reaches the step; the quest "
            "fails only if it is not completed by the end of day 12.")
    c.say("quest-step", f"⚠️ Step {step.code} is the session's final battle. Its enemies come from the End of Session "
                        f"pool, {pool} (an XP goal of {goal} × {c.count(n, 'adventurer')}, "
                        f"{c.state.difficulty.capitalize()}); the party's XP Dial stands at {c.state.xp_dial}, a pool "
                        f"of {dial}. The rulebook sets this battle for a party near {goal} XP: expect enemies far "
                        f"stronger than any met so far. {then}", step=step.id)


def ongoing(c: DayCtx, timing: str) -> None:
    """The current step's ongoing effects with this timing."""
    run = c.state.quests
    if run is None or not run.step or run.result:
        return
    step = content(c.pack).step(run.step)
    if step is None:
        return
    for o in step.ongoing:
        if o.timing != timing:
            continue
        label = f"Step {step.code} (ongoing)"
        if o.manual:
            c.say("manual", f"📝 {label}: {o.text} (the party applies this)", manual=True)
        elif o.token:
            tok = token(c, o.token)
            c.say("quest-ongoing", f"⏳ {label}: {o.text}", step=step.id)
            if tok is not None:
                move_token(c, tok, o.move, o.toward)
        else:
            c.say("quest-ongoing", f"⏳ {label}: {o.text}", step=step.id)
            run_effects(c, o.effects, label)


def after(c: DayCtx, enc: Encounter, step: Step) -> str:
    """The step's encounter is over: "linked" (the next step's encounter begins now), "failed" (the quest
    failed), "done" (the quest's last step: the epilogue waits for the session's end) or "" (go on)."""
    run = run_of(c)
    q = quest_of(c)
    if enc.result != "success":
        if step.fail == "retry":
            c.say("quest-retry", f"The encounter of step {step.code} is failed, but this step allows another "
                                 "try: it stays the party's step and triggers again.", step=step.id)
            return ""
        if step.fail != "quest":
            nxt = q.step(step.fail)
            c.say("quest", f"The encounter of step {step.code} is failed: the quest goes on at step {nxt.code}.",
                  step=step.id)
            run.done.append(step.id)
            reveal(c, nxt)
            return _linked(c, enc, nxt)
        run.result = "failed"
        c.say("quest-failed", f"💀 Step {step.code} is failed, and with it the guild quest {strong(q.name)}.",
              step=step.id)
        return "failed"
    run.done.append(step.id)
    choice = step.choices[enc.choice - 1] if enc.choice else None
    nxt_id = choice.next if choice is not None and choice.next else None
    nxt = None if nxt_id == "epilogue" else (q.step(nxt_id) if nxt_id else q.next_step(step))
    c.say("quest-done", f"✅ Step {step.code} of {strong(q.name)} is completed.", step=step.id)
    if nxt is None:
        run.step = None
        run.result = "success"
        c.say("quest-done", f"🏁 The guild quest {strong(q.name)} is completed: the session ends after today's "
                            "Reward Phase, with the epilogue.", quest=q.id)
        return "done"
    reveal(c, nxt)
    return _linked(c, enc, nxt)


def _linked(c: DayCtx, enc: Encounter, nxt: Step) -> str:
    if not nxt.trigger.linked:
        return ""
    run = run_of(c)
    if enc.result == "success":
        run.carry += enc.xp
    c.say("quest-linked", f"🔗 Step {nxt.code} is linked to the one before: its encounter is triggered at once, "
                          "today (the Reward Phase waits for it).", step=nxt.id)
    c.s.encounter = Encounter("quest", list(c.s.party), card=nxt.id)
    return "linked"


def trigger_matches(c: DayCtx, trig, moved: bool) -> bool:
    """Whether a step's or side quest's trigger is met where the party stands (p.34)."""
    prov, s = c.province, c.s
    here = (s.party[0], s.party[1])
    if trig.town:
        town = prov.town_at(here)
        return town is not None and town.id not in s.closed and trig.town in ("any", town.id)
    if trig.hex:
        return tuple(trig.hex) == here
    if trig.token:
        tok = token(c, trig.token)
        return tok is not None and (tok.q, tok.r) == here
    if trig.landmark:
        mark = prov.landmark(here)
        if mark is None or not moved or (trig.landmark != "any" and mark[0] != trig.landmark):
            return False
        return trig.where is None or here == extreme_landmark(prov, trig.landmark, trig.where)
    return False


def extreme_landmark(prov, kind: str, where: str) -> tuple[int, int] | None:
    """The northernmost, southernmost, easternmost or westernmost landmark of a kind (ties: the westernmost,
    then the northernmost)."""
    marks = [h for h, f in prov.features.items() if f[0] != "town" and (kind == "any" or f[0] == kind)]
    if not marks:
        return None

    def x(h):  # pointy-top: a hex's column position, in half hexes
        return 2 * h[0] + h[1]

    key = {"north": lambda h: (h[1], x(h)), "south": lambda h: (-h[1], x(h)),
           "west": lambda h: (x(h), h[1]), "east": lambda h: (-x(h), h[1])}[where]
    return min(marks, key=key)
