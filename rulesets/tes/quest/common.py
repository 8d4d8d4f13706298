"""What every quest module reads: whether quests are played, the campaign's content, the session's records."""
from __future__ import annotations

from engine.core import RuleError
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.quest_state import Journal, QuestRun, SessionEntry


def content(pack):
    """The pack's campaign (guild cards, keywords, side quests, guild quests, endgames), never None."""
    from rulesets.tes.content.quests import Campaign

    return pack.campaign if getattr(pack, "campaign", None) is not None else Campaign()


def quests_on(state, pack) -> bool:
    """Whether sessions of this campaign play guild quests: its pack version has guild cards.

    A campaign keeps the pack version it began on, so one begun before quests keeps playing its sessions as they
    were (its log replays exactly) until the leader moves it onto the newest with ``/campaign update``.
    """
    return bool(content(pack).guilds)


def run_of(c: DayCtx) -> QuestRun:
    """The session's quest records (made when a session with quests starts)."""
    if c.state.quests is None:
        c.state.quests = QuestRun()
    return c.state.quests


def journal_of(c: DayCtx) -> Journal:
    """The campaign journal, begun with the first session that has one."""
    j = c.state.journal
    if j is None:
        j = c.state.journal = Journal()
    if not j.sessions and c.state.days is not None:
        j.sessions.append(SessionEntry(c.state.session, c.state.days.province, c.state.difficulty))
    return j


def card(c: DayCtx, card_id: str):
    """A quest encounter's card: a guild quest step, a side quest or an endgame day."""
    found = content(c.pack).cards.get(card_id)
    if found is None:
        raise RuleError(f"This pack version no longer has the quest card `{card_id}`.")
    return found


def current_step(c: DayCtx):
    run = c.state.quests
    if run is None or not run.step:
        return None
    return content(c.pack).step(run.step)


def keyword_name(pack, keyword: str) -> str:
    kw = content(pack).keywords.get(keyword)
    return kw.name if kw is not None else keyword
