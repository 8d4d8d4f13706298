"""The day's driver (pp.34-46): New Day, Overland, Encounter, Reward and End of Day, in order.

``advance`` runs after every action of the day and after every battle a card started: it does everything that
needs nobody (turning the dials, drawing, rolling, applying), announces each phase, and stops at the first
question a player must answer (``Session.ask``, one prompt) or while a battle is fought.  ``Session.phase`` and
``Session.step`` say where the day is, so a restart finds it where it was.
"""
from __future__ import annotations

from engine.core import strong
from engine.hexes import Hex
from rulesets.tes.cards import resolve as cards
from rulesets.tes.day import rest
from rulesets.tes.day_state import DAY_LIMIT, PHASE_NAMES
from rulesets.tes.outcomes.asks import close, open_ask
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.handlers import DRIVER
from rulesets.tes.overland import province, travel
from rulesets.tes.overland.geo import closest_town, here
from rulesets.tes.quest import encounter as quest
from rulesets.tes.quest import guild as guild_quest
from rulesets.tes.quest import kiosk as _kiosk  # noqa: F401 - the guild kiosk and the quest board register
from rulesets.tes.reward import phase as reward
from rulesets.tes.session import assist as _assist  # noqa: F401 - the guild assist's end-of-round hook registers
from rulesets.tes.session import end as session_end
from rulesets.tes.town import visit as town


def advance(c: DayCtx) -> None:
    """Move the day on until a player must answer or a battle is fought."""
    s = c.state.days
    for _ in range(200):
        if s is None or s.phase == "over" or s.ask is not None or c.state.battle is not None:
            return
        before = (s.phase, s.step)
        STEPS[s.phase](c)
        if (s.phase, s.step) == before and s.ask is None and c.state.battle is None:
            return  # nothing moved: waiting for an answer that is not a question (should not happen)


DRIVER.append(advance)


def _phase(c: DayCtx, phase: str) -> None:
    c.s.phase, c.s.step = phase, ""


def _endgame(c: DayCtx) -> bool:
    run = c.state.quests
    return run is not None and run.endgame


def setup_phase(c: DayCtx) -> None:
    """The session's set-up waits for a choice (the guild): nothing moves until it is answered."""


# -------------------------------------------------------------- new day --
def new_day(c: DayCtx) -> None:
    s, state = c.s, c.state
    state.day_dial += 1
    s.move_today, s.extra_move = s.extra_move, 0
    s.skip_rest = False
    s.rested, s.rewarded = [], []
    s.encounter, s.town, s.proposal, s.route = None, None, None, []
    c.say("phase", f"🌅 Day {state.day_dial} — New Day Phase: the Day Dial turns to {state.day_dial}.",
          day=state.day_dial)
    if state.day_dial == 1:
        province.place_gauge(c)
    if _endgame(c):
        pass  # the endgame's New Day does not compare the dial with the day limit (p.51)
    elif state.day_dial >= DAY_LIMIT:
        kept = f"⏳ Day {state.day_dial}: no quest can go beyond day {DAY_LIMIT}; this is the last day of the session."
        run = state.quests
        quest = None
        if run is not None and run.quest and not run.result:
            from rulesets.tes.quest.common import content

            quest = content(c.pack).quests.get(run.quest)
        what = strong(quest.name) if quest is not None else "the guild quest"
        c.say("day-limit", f"⏳ Day {state.day_dial}: no quest can go beyond day {DAY_LIMIT}; this is the last day "
                           f"of the session. If {what} is not completed by the end of this day, it fails, and the "
                           "campaign is lost with it (p.34).", since=4, kept=kept)
    guild_quest.ongoing(c, "new-day")
    _phase(c, "overland")


# ------------------------------------------------------------- overland --
def overland(c: DayCtx) -> None:
    s, state = c.s, c.state
    if s.step == "":
        free, extra = travel.allowance(c)
        c.say("phase", f"🧭 Overland Phase (day {state.day_dial}).")
        if _endgame(c):
            c.say("overland", "The endgame: the party does not move; it triggers the next endgame encounter.")
            s.route = [list(s.party)]
            s.encounter = travel.trigger(c, moved=False)
            _phase(c, "encounter")
            return
        if state.day_dial == 1:
            c.say("overland", "Day 1: the party stays in its starting town and resolves a town encounter.")
            s.route = [list(s.party)]
            s.encounter = travel.trigger(c, moved=False)
            _phase(c, "encounter")
            return
        words = f"{free} {'hex' if free == 1 else 'hexes'}"
        c.say("overland", f"Today the party moves up to {words}, then up to {extra} more with fatigue movement "
                          "(1 light fatigue for each adventurer a hex). {@leader} proposes the route with "
                          "`/day route`.", leader=state.leader)
        s.step = "route"
        open_ask(c, "route", [state.leader])
        return
    if s.step == "moved":
        moved = len(s.route) > 1
        s.encounter = travel.trigger(c, moved=moved)
        _phase(c, "encounter")


def propose(c: DayCtx, path: list[Hex]) -> None:
    """The leader's route: drawn for the party, and it stands at the deadline unless a player objects."""
    from rulesets.tes.day_state import Proposal
    from rulesets.tes.overland.geo import place_name

    s = c.s
    travel.check_route(c, path)
    others = [o for o in c.party() if o != c.state.leader]
    close(c)
    if not others or not path:
        go(c, path)
        return
    s.proposal = Proposal([[h.q, h.r] for h in [here(s)] + path])
    free, _extra = travel.allowance(c)
    tired = max(0, len(path) - free)
    cost = f", {tired} of them with fatigue movement" if tired else ""
    c.say("route", f"🗺️ {{@leader}} proposes: {' → '.join(str(h) for h in [here(s)] + path)} "
                   f"({len(path)} {'hex' if len(path) == 1 else 'hexes'}{cost}), to {place_name(c.province, path[-1])}. "
                   "It stands at the deadline unless a player objects (`/day object`); `/day agree` sets out "
                   "sooner when everyone agrees.", leader=c.state.leader)
    open_ask(c, "vote", others)


def go(c: DayCtx, path: list[Hex]) -> None:
    s = c.s
    s.proposal = None
    close(c)
    travel.move(c, path)
    s.phase, s.step = "overland", "moved"


# ------------------------------------------------------------ encounter --
def encounter(c: DayCtx) -> None:
    s = c.s
    enc = s.encounter
    if s.step == "":
        c.say("phase", "🎭 Encounter Phase.")
        if enc is None or enc.kind == "none":
            c.say("encounter", "The party triggered no encounter, so it skips this phase.")
            _phase(c, "reward")
            return
        if enc.kind in ("town", "caravan"):
            s.step = "town"
            town.begin(c, enc)
            return
        if enc.kind == "card":
            s.step = "card"
            cards.present(c, enc)
            return
        if enc.kind == "quest":
            s.step = "card"
            quest.present(c, enc)
            return
        c.say("encounter", f"An encounter of kind {enc.kind} has no rules in the bot yet; it is skipped.")
        _phase(c, "reward")
        return
    if s.step == "town":
        visit = s.town
        if visit is None:
            _phase(c, "reward")
            return
        if not visit.effect_done:
            return
        acting = town.still_acting(c, visit)
        if acting:
            if s.ask is None:
                open_ask(c, "town", acting)
            return
        town.end(c, enc)
        _phase(c, "reward")
        return
    if s.step == "card":
        for _ in range(12):
            enc = s.encounter
            done = quest.proceed(c, enc) if enc.kind == "quest" else cards.proceed(c, enc)
            if not done:
                return
            if enc.defeated:
                party_defeated(c)
            if enc.kind == "quest":
                out = quest.after(c, enc)
                if out == "linked":  # the next step's encounter is triggered at once, the same day
                    quest.present(c, s.encounter)
                    continue
                if out == "failed":
                    session_end.lost(c, "a quest step failed" if not _endgame(c) else "an endgame encounter failed")
                    return
            _phase(c, "reward")
            return


def after_battle(c: DayCtx) -> None:
    """A battle a card started is over: its result feeds the card (called by the rules layer)."""
    s = c.state.days
    if s is None or s.phase != "encounter" or s.encounter is None or s.encounter.battle is None:
        return
    last = c.state.last_battle
    if last is not None and last.no == s.encounter.battle and last.outcome == "defeat":
        s.encounter.defeated = True
    c.say("encounter", f"The battle is over ({last.outcome if last else 'ended'}): back to "
                       f"{strong(cards.card_of(c, s.encounter).name)}.")
    advance(c)


def party_defeated(c: DayCtx) -> None:
    """Full party defeat (p.67): the party token goes to the closest town."""
    s = c.s
    town_id = closest_town(c.province, s, here(s))
    if town_id is None:
        c.say("defeat", "💀 The whole party is defeated, and no town is open to carry them to.")
        return
    h = c.province.hex_of_town(town_id)
    s.party = [h[0], h[1]]
    c.say("defeat", f"💀 The whole party is defeated: the encounter is failed, and the party wakes in "
                    f"{c.province.towns[town_id].name} ({Hex(*h)}), the closest town. The Reward Phase and the "
                    "Adventurers Rest follow.", town=town_id)


# --------------------------------------------------------------- reward --
def reward_phase(c: DayCtx) -> None:
    s = c.s
    if s.step == "":
        reward.gain(c, s.encounter)
        s.step = "spend"
        if reward.ask(c):
            return
    if s.step == "spend" and (s.ask is None):
        reward.finish(c, s.encounter)
        if session_end.due(c):  # the quest was completed today: the End of Day is skipped (p.48)
            session_end.won(c)
            return
        _phase(c, "end-of-day")


# ----------------------------------------------------------- end of day --
def end_of_day(c: DayCtx) -> None:
    s, state = c.s, c.state
    if s.step == "":
        c.say("phase", f"🌙 End of Day Phase (day {state.day_dial}).")
        if not _endgame(c) or _endgame_effect(c):
            province.activate(c)
        else:
            c.say("province", "The endgame skips the Activate Province Effect step (its rules do not call for it).")
            province.finish_cards(c)
        guild_quest.ongoing(c, "end-of-day")
        s.step = "rest"
        if s.skip_rest:
            c.say("rest", "The party skips the Adventurers Rest tonight: nobody heals or clears dice, and no items "
                          "are traded.")
        else:
            rest.ask(c)
            return
    if s.step == "rest" and s.ask is None:
        c.say("day-end", f"Day {state.day_dial} ends.", day=state.day_dial)
        if session_end.day_limit(c):  # a quest not done by its last day fails: the campaign is lost
            return
        if _endgame(c):
            _phase(c, "new-day")
            return
        if state.day_dial >= DAY_LIMIT:
            s.phase, s.step = "over", ""
            s.result = "day-limit"
            c.say("session-over", f"⏳ The session reaches its {DAY_LIMIT}-day limit and ends (a guild quest not "
                                  "completed by now fails). The party leader can start a new session with "
                                  "`/day start`.")
            return
        _phase(c, "new-day")


def _endgame_effect(c: DayCtx) -> bool:
    from rulesets.tes.quest.endgame import endgame_of

    eg = endgame_of(c)
    return eg is not None and eg.province_effect


STEPS = {"setup": setup_phase, "new-day": new_day, "overland": overland, "encounter": encounter,
         "reward": reward_phase, "end-of-day": end_of_day}

__all__ = ["PHASE_NAMES", "advance", "after_battle", "go", "party_defeated", "propose"]
