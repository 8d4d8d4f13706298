"""Side quests (pp.40 and 48): at most 4, shared by the party.

* The quest board (a town action): the adventurer draws 2 side quests and accepts 1 of them for the party, or
  neither; the cards not accepted are discarded.
* Encounters may give side-quest cards (the effect ``side-quest``).  A party that would hold a fifth discards
  one of the five (the new one by default); the leader may discard one at any time.
* An encounter side quest triggers its quest encounter (after the guild quest's, p.34) and is completed (or
  failed and discarded) by it.  A tally side quest counts successful encounters in the Reward Phase's
  track-quests step, and its rewards are gained at step 3 of the next town encounter.
* Uncompleted side quests are discarded when the session ends.
"""
from __future__ import annotations

from engine.core import RuleError, strong
from engine.text import slug
from rulesets.tes.day_state import Deck, Encounter, TownVisit
from rulesets.tes.outcomes import decks
from rulesets.tes.outcomes.asks import close, open_ask
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run as run_effects
from rulesets.tes.quest.common import content, journal_of, run_of
from rulesets.tes.quest_state import SIDE_QUESTS_MAX, Side

BOARD_DRAW = 2


def deck(c: DayCtx) -> Deck:
    return c.s.decks.setdefault("side-quest", Deck())


def draw(c: DayCtx) -> str | None:
    d = deck(c)
    if not d.size() and d.discard:
        d.pool, d.discard = list(d.discard), []
        c.say("deck", "The side-quest deck is empty: its discard pile is shuffled into a new deck.")
    return decks.draw(c.s, d, c.dice)


def name(c: DayCtx, side_id: str) -> str:
    sq = content(c.pack).side_quests.get(side_id)
    return f"{sq.name} ({sq.label})" if sq else side_id


def describe(c: DayCtx, side_id: str) -> str:
    sq = content(c.pack).side_quests[side_id]
    return f"{strong(sq.name)} ({sq.label}): {sq.story} {sq.text}"


# ---------------------------------------------------------------- gaining --
def gain(c: DayCtx, side_id: str, source: str) -> bool:
    """The party gains a side quest; with 4 already it must discard one of the five (asked)."""
    run = run_of(c)
    run.sides.append(Side(side_id))
    c.say("side-quest", f"🗒️ {source}: the party gains the side quest {describe(c, side_id)}", side=side_id)
    if len(run.sides) > SIDE_QUESTS_MAX:
        c.say("side-quest", f"The party may hold {SIDE_QUESTS_MAX} side quests: {{@leader}} discards one of the "
                            "five (`/quest discard`), the new one by default.", leader=c.state.leader)
        open_ask(c, "side-discard", [c.state.leader], options=[name(c, x.id) for x in run.sides],
                 default=str(len(run.sides)))
    return True


def board(c: DayCtx, owner: str, visit: TownVisit) -> None:
    """A quest board visit (the town action is spent by the caller): draw 2, ask which to accept."""
    cards = [x for x in (draw(c) for _ in range(BOARD_DRAW)) if x]
    if not cards:
        raise RuleError("The side-quest deck is empty: the quest board has nothing. No town action was spent.")
    run = run_of(c)
    run.offer, run.offered_to = cards, owner
    adv = c.adv(owner)
    c.say("board", f"📋 {adv.name} reads the quest board and draws {len(cards)} side "
                   f"{'quest' if len(cards) == 1 else 'quests'}:", player=owner)
    for i, card in enumerate(cards, 1):
        c.say("board", f"{i}. {describe(c, card)}", side=card)
    c.say("board", f"{adv.name} accepts one for the party, or neither (`/quest accept`); the others are "
                   "discarded.", player=owner)
    options = [name(c, x) for x in cards] + ["Neither"]
    open_ask(c, "side-quest", [owner], options=options, default=str(len(options)))


def accept(c: DayCtx, owner: str, pick) -> None:
    run = run_of(c)
    cards = list(run.offer)
    n = _number(pick, len(cards) + 1, [name(c, x) for x in cards] + ["Neither"])
    d = deck(c)
    run.offer, run.offered_to = [], ""
    close(c)
    adv = c.adv(owner)
    taken = cards[n - 1] if n <= len(cards) else None
    for card in cards:
        if card != taken:
            decks.discard(d, card)
    left = [name(c, x) for x in cards if x != taken]
    if taken is None:
        c.say("board", f"{adv.name} accepts neither side quest; both are discarded ({', '.join(left)}).",
              player=owner)
        return
    if left:
        c.say("board", f"{adv.name} accepts {name(c, taken)}; {', '.join(left)} is discarded.", player=owner)
    gain(c, taken, f"{adv.name} at the quest board")


def discard(c: DayCtx, pick, *, asked: bool) -> None:
    """Discard an active side quest (the leader, at any time; or the answer to a fifth one)."""
    run = run_of(c)
    if not run.sides:
        raise RuleError("The party has no side quest to discard.")
    n = _number(pick, len(run.sides), [name(c, x.id) for x in run.sides], ids=[x.id for x in run.sides])
    side = run.sides.pop(n - 1)
    decks.discard(deck(c), side.id)
    if asked:
        close(c)
    c.say("side-discard", f"🗑️ The party discards the side quest {name(c, side.id)}.", side=side.id)


def _number(pick, n: int, names: list[str], ids: list[str] | None = None) -> int:
    raw = str(pick if pick is not None else "").strip()
    if raw.isdecimal() and 1 <= int(raw) <= n:
        return int(raw)
    key = slug(raw)
    for i, label in enumerate(names, 1):
        if key and (key == slug(label) or key == slug(label.split(" (")[0]) or (ids and key == ids[i - 1])):
            return i
    if key in ("neither", "none", "no") and len(names) == n and names[-1] == "Neither":
        return n
    raise RuleError("Choose one of: " + ", ".join(f"{i}. {t}" for i, t in enumerate(names, 1)) + ".")


# -------------------------------------------------------------- encounters --
def trigger(c: DayCtx, moved: bool) -> Encounter | None:
    """The first active side quest whose encounter is triggered here (after the guild quest's)."""
    from rulesets.tes.quest.guild import trigger_matches

    run = c.state.quests
    if run is None:
        return None
    for side in run.sides:
        sq = content(c.pack).side_quests.get(side.id)
        if sq is None or sq.trigger.tally or side.ready:
            continue
        if trigger_matches(c, sq.trigger, moved):
            c.say("trigger", f"🗒️ The side quest {name(c, sq.id)} triggers its encounter here: a quest encounter.",
                  side=sq.id)
            return Encounter("quest", list(c.s.party), card=sq.id)
    return None


def after(c: DayCtx, enc: Encounter) -> None:
    """A side quest's encounter is over: completed, or failed; either way its card is discarded."""
    run = run_of(c)
    side = run.side(enc.card)
    if side is not None:
        run.sides.remove(side)
    decks.discard(deck(c), enc.card)
    entry = journal_of(c).current
    if enc.result == "success":
        if entry is not None:
            entry.sides_done.append(enc.card)
        c.say("side-done", f"✅ The side quest {name(c, enc.card)} is completed.", side=enc.card)
    else:
        if entry is not None:
            entry.sides_failed.append(enc.card)
        c.say("side-failed", f"The side quest {name(c, enc.card)} is failed and discarded.", side=enc.card)


# ------------------------------------------------------- tallies and towns --
def counts(enc: Encounter, kind: str, battle_won: bool) -> bool:
    if enc.result != "success":
        return False
    if kind == "any":
        return True
    if kind == "battle":
        return battle_won
    if kind == "town":
        return enc.kind in ("town", "caravan")
    if kind == "unstable":
        return enc.kind in ("card", "caravan") and enc.landmark == "unstable"
    return enc.kind == "card" and enc.deck == kind


def track(c: DayCtx, enc: Encounter | None) -> None:
    """The Reward Phase's track-quests step: tally side quests count today's encounter."""
    run = c.state.quests
    if run is None or enc is None:
        return
    last = c.state.last_battle
    won = enc.battle is not None and last is not None and last.no == enc.battle and last.outcome == "victory"
    for side in run.sides:
        sq = content(c.pack).side_quests.get(side.id)
        if sq is None or not sq.trigger.tally or side.ready or not counts(enc, sq.trigger.tally, won):
            continue
        side.count += 1
        if side.count >= sq.trigger.count:
            side.ready = True
            c.say("side-track", f"🗒️ {name(c, sq.id)}: {side.count} of {sq.trigger.count} — done. Its rewards come "
                                "at the next town encounter.", side=sq.id)
        else:
            c.say("side-track", f"🗒️ {name(c, sq.id)}: {side.count} of {sq.trigger.count}.", side=sq.id)


def complete_in_town(c: DayCtx, visit: TownVisit) -> None:
    """Step 3 of a town encounter: side quests that can be completed here give their rewards now."""
    run = c.state.quests
    if run is None:
        return
    for side in [x for x in run.sides if x.ready]:
        sq = content(c.pack).side_quests[side.id]
        run.sides.remove(side)
        decks.discard(deck(c), side.id)
        c.say("side-done", f"✅ The side quest {name(c, sq.id)} is completed here"
                           + (f": ☼ {sq.xp} XP in the Reward Phase." if sq.xp else "."), side=sq.id)
        run_effects(c, sq.effects, sq.name)
        enc = c.s.encounter
        if enc is not None and sq.xp:
            enc.xp += sq.xp
        entry = journal_of(c).current
        if entry is not None:
            entry.sides_done.append(sq.id)


def discard_all(c: DayCtx) -> list[str]:
    """The session ends: every uncompleted side quest is discarded."""
    run = c.state.quests
    if run is None or not run.sides:
        return []
    names = [name(c, x.id) for x in run.sides]
    for side in run.sides:
        decks.discard(deck(c), side.id)
    run.sides = []
    return names


def _register() -> None:
    from rulesets.tes.reward import phase
    from rulesets.tes.town import visit

    visit.TOWN_HOOKS.append(complete_in_town)
    phase.TRACK_HOOKS.append(track)


_register()
