"""Ending a session (pp.48-50) and the campaign (pp.50-51).

Success: the day the guild quest is completed, its Reward Phase is played and the End of Day skipped; then
1. the epilogue is read: its major keyword is written in the journal (unless the guild assist was used this
   session: "Guild Assist" is written instead), and it names the next session: after session 1 the party
   chooses one of its guild quests (the province of session 2); after session 2 its lore leads into the
   endgame, in the same province;
2. the journal takes the XP Dial; uncompleted side quests are discarded; persistent effects (closed towns,
   tokens) are crossed out;
3. each adventurer is put away: HP chips back (full HP next session, no bonus HP), every skill die recovered
   and every fatigue and status die discarded, saved XP and the Cooldown stat kept, tenacity back to 0, the
   class sheet kept on its side but class components discarded (the party's companions); expended items, pets
   with HP chips and active enchantments discarded, the other items kept.
The endgame won is the campaign won.  Failing a step or the endgame, or a guild quest not done by the end of
day 12 (the endgame: its last day), loses the session and the campaign.
"""
from __future__ import annotations

from engine.core import strong
from rulesets.tes.battle import promotion
from rulesets.tes.battle.inventory import discard as discard_item
from rulesets.tes.outcomes.asks import close, open_ask
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.quest import guild, sides
from rulesets.tes.quest.common import content, journal_of, keyword_name
from rulesets.tes.quest.endgame import endgame_of
from rulesets.tes.quest_state import GUILD_ASSIST


def due(c: DayCtx) -> bool:
    """The session ends after today's Reward Phase (its quest or the endgame is completed)."""
    run = c.state.quests
    return run is not None and run.result == "success"


def won(c: DayCtx) -> None:
    """After the Reward Phase of the day the quest was completed: the session ends in success."""
    state, s = c.state, c.s
    run = state.quests
    j = journal_of(c)
    entry = j.current
    c.say("session-end", f"🏁 Session {state.session} ends in success: the End of Day is skipped.",
          session=state.session)
    if run.endgame:
        eg = endgame_of(c)
        _record(c, entry, "won", f"the endgame {eg.name if eg else ''} completed".strip())
        promotion.on_session_won(c)
        j.result = "won"
        words = eg.victory if eg else "The endgame is won."
        c.say("campaign-won", f"🏆 {words}" + ("" if "campaign is won" in words.lower() else " The campaign is won!"))
        _close_session(c, "campaign-won")
        return
    q = guild.quest_of(c)
    epi = q.epilogue
    c.say("epilogue", f"📖 Epilogue ({epi.code}) — {q.name}: {epi.story}", quest=q.id)
    if j.assist == state.session:
        major = GUILD_ASSIST
        c.say("keyword", f"The party used its guild assist this session: the journal's major keyword for it is "
                         f"{strong(GUILD_ASSIST)}, and the quest's keyword {keyword_name(c.pack, epi.keyword)} is not "
                         "gained.")
    else:
        major = epi.keyword
        c.say("keyword", f"🔑 The party gains the major keyword {strong(keyword_name(c.pack, epi.keyword))}; it is "
                         "written in the campaign journal.", keyword=epi.keyword)
    entry.major = major
    _record(c, entry, "won", f"{q.name} completed")
    promotion.on_session_won(c)
    _put_away(c)
    if state.session == 1:
        camp = content(c.pack)
        options = [n for n in epi.next if n.quest in camp.quests]
        j.options = [{"province": n.province, "quest": n.quest} for n in options]
        names = [f"{camp.quests[n.quest].name} ({c.pack.provinces[n.province].name}, "
                 f"{camp.guilds[camp.quests[n.quest].guild].name})" for n in options]
        c.say("next", "The epilogue names the guild quests for session 2: "
                      + "; ".join(f"{i}. {t}" for i, t in enumerate(names, 1))
                      + ". {@leader} chooses one for the journal (`/quest next`); it decides session 2's province.",
              leader=state.leader)
        _close_session(c, "quest-won")
        open_ask(c, "next-quest", [state.leader], options=names, default="1")
        return
    prov = c.province
    j.next = None
    c.say("next", f"📖 {epi.lore}")
    c.say("next", f"Session 3 is the endgame, in {prov.name}. The party leader begins it with `/day start` when the "
                  "party is ready (the difficulty may change: `/day start difficulty:`).")
    _close_session(c, "quest-won")


def choose_next(c: DayCtx, pick) -> None:
    """Session 1's epilogue: the party's choice of its next guild quest (written in the journal)."""
    from rulesets.tes.session.setup import _pick

    j = journal_of(c)
    camp = content(c.pack)
    names = [camp.quests[o["quest"]].name for o in j.options]
    n = _pick(pick, names, [o["quest"] for o in j.options])
    j.next = dict(j.options[n - 1])
    j.options = []
    close(c)
    q = camp.quests[j.next["quest"]]
    prov = c.pack.provinces[q.province]
    c.say("next", f"📕 The journal records session 2's quest: {strong(q.name)} for the "
                  f"{camp.guilds[q.guild].name}, in {prov.name}. The party leader begins it with `/day start` when "
                  "the party is ready (the difficulty may change: `/day start difficulty:`).", quest=q.id)


def lost(c: DayCtx, why: str, result: str = "campaign-lost") -> None:
    """The guild quest (or the endgame) is failed: the session and the campaign are lost (p.50)."""
    state = c.state
    j = journal_of(c)
    run = state.quests
    if run is not None:
        run.result = "failed"
    _record(c, j.current, "lost", why)
    j.result = "lost"
    eg = endgame_of(c) if run is not None and run.endgame else None
    c.say("campaign-lost", f"💀 {eg.defeat + ' ' if eg else ''}The session ends, and with it the campaign: it is "
                           f"lost ({why}). The journal keeps it (`/journal`); a new campaign begins with "
                           "`/campaign end`, then `/campaign new`.", why=why)
    _close_session(c, result)


def day_limit(c: DayCtx) -> bool:
    """The End of Day of the last day: a quest not completed by now fails; True when that ended the session."""
    run = c.state.quests
    if run is None or run.result:
        return False
    if run.endgame:
        eg = endgame_of(c)
        if eg is None or c.state.day_dial < eg.days:
            return False
        c.say("day-limit", f"⏳ The endgame's last day ({eg.days}) ends before its encounters are done.")
        lost(c, f"the endgame not completed by day {eg.days}", "day-limit")
        return True
    if not run.quest:
        return False
    from rulesets.tes.day_state import DAY_LIMIT

    if c.state.day_dial < DAY_LIMIT:
        return False
    q = guild.quest_of(c)
    c.say("session-over", f"⏳ The session reaches its {DAY_LIMIT}-day limit and ends: the guild quest {q.name} is "
                          "not completed, so it fails.")
    lost(c, f"{q.name} not completed by the end of day {DAY_LIMIT}", "day-limit")
    return True


def _record(c: DayCtx, entry, result: str, why: str) -> None:
    if entry is None:
        return
    entry.result, entry.why = result, why
    entry.xp, entry.days = c.state.xp_dial, c.state.day_dial
    gone = sides.discard_all(c)
    if gone:
        c.say("side-quest", "Uncompleted side quests are discarded: " + ", ".join(gone) + ".")
    s = c.s
    notes = [f"{c.province.towns[t].name} closed" for t in s.closed if t in c.province.towns]
    if notes:
        entry.notes = notes
        c.say("journal", "Persistent effects are crossed out in the journal: " + ", ".join(notes) + ".")


def _put_away(c: DayCtx) -> None:
    """Each adventurer stored as the rules say (p.49, step 3)."""
    state = c.state
    lines = []
    for o in c.party():
        adv = c.adv(o)
        gone: list[str] = []
        for card in list(adv.expended) + list(adv.pet_chips) + list(adv.enchants):
            if card in adv.ready or card in adv.pack or card in adv.enchants:
                for where in (adv.ready, adv.pack, adv.enchants):
                    if card in where:
                        where.remove(card)
                discard_item(state, c.pack, card)
                gone.append(c.pack.items[card].name if card in c.pack.items else card)
        if adv.holding:
            discard_item(state, c.pack, adv.holding)
            adv.holding = None
        adv.expended, adv.pet_chips, adv.enchants, adv.armed = [], {}, [], []
        adv.hp, adv.bonus_hp = adv.max_hp, 0
        adv.cooldown, adv.drained, adv.active, adv.away, adv.placed = [], [], [], [], []
        adv.tenacity = 0
        adv.race_ability_used = False
        lines.append(f"{adv.name} ({adv.hp}/{adv.max_hp} HP, {adv.saved_xp} XP kept"
                     + (f"; discards {', '.join(gone)}" if gone else "") + ")")
    if state.companions:
        lines.append("the party's companions are discarded")
        state.companions = []
    c.say("put-away", "The adventurers are put away: full HP, every die recovered, fatigue and status discarded, "
                      "tenacity back to 0; saved XP, the Cooldown stat and the class sheet kept; expended items, "
                      "pets with HP chips and active enchantments discarded. " + "; ".join(lines) + ".")


def _close_session(c: DayCtx, result: str) -> None:
    s = c.s
    s.phase, s.step, s.result = "over", "", result
    s.ask = None
    s.tokens = []
    c.state.quests = None
