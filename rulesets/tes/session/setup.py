"""Setting a session's quest up (pp.13, 15, 49 and 51), after the day's own set-up (decks, bags, dials).

* The province: session 1 plays the one the leader names; session 2 the one its quest is in (chosen from
  session 1's epilogue); session 3, the endgame, is played in session 2's province.
* Session 1: 3 guild cards are drawn (from the guilds with a quest in the province: docs/rules-notes.md) and
  the party chooses 1; its quest in the province starts, and its first step names the starting location.
* Session 2: the quest chosen at the end of session 1 starts.
* Session 3: the endgame: the Day Dial reset, its set-up, no party token on the map.

The adventurers are as the last session left them (``session.end`` put them away as the rules say).
"""
from __future__ import annotations

from engine.core import RuleError, strong
from engine.text import count
from rulesets.tes.outcomes import decks
from rulesets.tes.outcomes.asks import close, open_ask
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import run as run_effects
from rulesets.tes.quest import guild
from rulesets.tes.quest.common import content, journal_of, quests_on
from rulesets.tes.quest_state import Journal, QuestRun, SessionEntry

GUILD_DRAW = 3
SESSIONS = 3  # a campaign: three sessions, the third the endgame (p.49)


def number(state) -> int:
    """The number of the session a ``/day start`` now begins."""
    j = state.journal
    return 1 if j is None or not j.sessions else len(j.sessions) + 1


def check(state, pack, province: str | None) -> str | None:
    """Refuse a session the campaign cannot start; the province it must be played in (None: the leader's)."""
    if not quests_on(state, pack):
        return province
    j = state.journal
    if j is not None and j.result == "lost":
        last = j.sessions[-1] if j.sessions else None
        why = "its endgame failed" if last is not None and last.endgame else "its guild quest failed"
        raise RuleError(f"This campaign is lost: {why}. The party leader ends it with "
                        "`/campaign end`, and a new campaign begins with `/campaign new`. `/journal` shows it.")
    if j is not None and j.result == "won":
        raise RuleError("This campaign is won: the endgame is behind the party. `/journal` shows it; the party "
                        "leader may end it with `/campaign end`.")
    n = number(state)
    if n == 1:
        return province
    if j.options and not j.next:
        raise RuleError("First choose the next guild quest from the epilogue's options (`/quest next`).")
    if n == 2:
        forced = j.next["province"] if j.next else None
    else:
        forced = j.sessions[1].province
    prov = pack.provinces.get(forced)
    if province and prov is not None and province not in (prov.id, prov.code.lower(), prov.name.lower()):
        why = "the quest chosen at the end of session 1 is there" if n == 2 else \
            "the endgame is played in session 2's province"
        raise RuleError(f"Session {n} is played in {prov.name}: {why}. Start it with `/day start` (no province).")
    return forced


def begin(c: DayCtx) -> None:
    """After the day's set-up: the session in the journal, then its quest (or the guild draw, or the endgame)."""
    state = c.state
    if not quests_on(state, c.pack):
        return
    n = number(state)
    j = state.journal
    if j is None:
        j = state.journal = Journal()
    j.sessions.append(SessionEntry(n, c.s.province, state.difficulty, endgame=n >= SESSIONS))
    state.session = n
    state.quests = QuestRun(endgame=n >= SESSIONS)
    j.names = {o: {"adventurer": state.adventurers[o].name, "player": state.names.get(o, "")}
               for o in c.party()}
    c.say("session", f"📕 Session {n} of the campaign" + (" — the endgame." if n >= SESSIONS else "."), session=n)
    if n >= SESSIONS:
        endgame(c)
        return
    if n == 1 or not j.next:
        draw_guilds(c)
        return
    q = content(c.pack).quests[j.next["quest"]]
    if j.guild != q.guild:
        c.say("guild", f"The party takes up the {content(c.pack).guilds[q.guild].name}'s card for this quest.")
        j.guild = q.guild
    j.next = None
    guild.begin(c, q.id)


def draw_guilds(c: DayCtx) -> None:
    """Session 1: 3 guild cards drawn from those with a quest here; the party chooses one."""
    camp = content(c.pack)
    prov = c.province
    eligible = sorted(g for g in camp.guilds if camp.quest_of(g, prov.id) is not None)
    if not eligible:
        raise RuleError(f"No guild has a quest in {prov.name} in this pack: choose another province.")
    drawn = decks.pick(c.s, eligible, GUILD_DRAW, c.dice)
    c.s.stacked = [x for x in c.s.stacked if x not in camp.guilds]  # stacked guild cards serve this draw only
    run = c.state.quests
    run.offer = drawn
    left = len(camp.guilds) - len(eligible)
    tail = "Read each quest's snapshot, then {@leader} chooses one for the party (`/quest guild`)."
    before = (f"🛡️ The guild deck: {len(drawn)} guild cards are drawn"
              + (f" (of the {len(eligible)} guilds with a quest in {prov.name})" if left else "") + ". " + tail)
    if len(eligible) == 1:  # one guild only: no choice to read for (rules revision 4 words it so)
        words = f"🛡️ The guild deck: 1 guild card is drawn (the only guild with a quest in {prov.name}). " + tail
    else:
        words = (f"🛡️ The guild deck: {count(len(drawn), 'guild card')} "
                 + ("is" if len(drawn) == 1 else "are") + " drawn"
                 + (f" (of the {count(len(eligible), 'guild')} with a quest in {prov.name})" if left else "")
                 + ". " + tail)
    c.say("guilds", words, since=4, kept=before, leader=c.state.leader)
    for i, gid in enumerate(drawn, 1):
        g = camp.guilds[gid]
        q = camp.quest_of(gid, prov.id)
        start = prov.towns[q.start].name
        c.say("guild-card", f"{i}. {strong(g.name)} — {g.text} Kiosk: {g.kiosk.name} ({g.kiosk.text}) "
                            f"Quest: {strong(q.name)}, complexity {q.complexity}: {q.snapshot} Starting location: "
                            f"{start}.", guild=gid, quest=q.id)
    c.s.phase = "setup"
    open_ask(c, "guild", [c.state.leader], options=[camp.guilds[g].name for g in drawn], default="1")


def choose_guild(c: DayCtx, pick) -> None:
    run = c.state.quests
    camp = content(c.pack)
    drawn = list(run.offer)
    n = _pick(pick, [camp.guilds[g].name for g in drawn], drawn)
    gid = drawn[n - 1]
    run.offer = []
    close(c)
    j = journal_of(c)
    j.guild = gid
    others = [camp.guilds[g].name for g in drawn if g != gid]
    c.say("guild", f"🛡️ The party contracts with the {strong(camp.guilds[gid].name)}"
                   + (f"; {', '.join(others)} {'goes' if len(others) == 1 else 'go'} back to the box." if others
                      else "."), guild=gid)
    c.s.phase, c.s.step = "new-day", ""
    guild.begin(c, camp.quest_of(gid, c.s.province).id)


def endgame(c: DayCtx) -> None:
    """Session 3: the endgame's set-up (p.51)."""
    eg = content(c.pack).endgames.get(c.s.province)
    if eg is None:
        raise RuleError(f"{c.province.name} has no endgame in this pack version.")
    run = c.state.quests
    run.endgame = True
    c.say("endgame", f"{c.province.effect.emoji} The endgame: {strong(eg.name)}. {eg.text}", province=c.s.province)
    c.say("endgame", f"It lasts {count(eg.days, 'day')}, one encounter each day in order. No party token is on the map and "
                     "the party does not move; overland cards are not drawn, and the province effect is "
                     + ("resolved each End of Day." if eg.province_effect else "skipped."))
    if eg.setup:
        run_effects(c, eg.setup, eg.name)


def _pick(pick, names: list[str], ids: list[str]) -> int:
    from engine.text import slug

    raw = str(pick if pick is not None else "").strip()
    if raw.isdecimal() and 1 <= int(raw) <= len(names):
        return int(raw)
    key = slug(raw)
    for i, (label, ident) in enumerate(zip(names, ids), 1):
        if key and key in (slug(label), ident):
            return i
    raise RuleError("Choose one of: " + ", ".join(f"{i}. {t}" for i, t in enumerate(names, 1)) + ".")
