"""The session's question during a battle: after a full party defeat, call the guild assist or let the battle end
(one prompt with the leader as its owner, a default and a deadline).  Its other questions (the guild, the next
guild quest) are the day's questions (``Session.ask``), shown by the day's prompt."""
from __future__ import annotations

from engine.prompts import Option, Prompt


def open_prompt(state) -> Prompt | None:
    run = state.quests if state is not None else None
    if run is None or run.assist != "asked" or state.battle is None:
        return None
    return Prompt(id=f"g{run.serial}-assist", kind="quest-assist", owner=state.leader, action="quest.assist",
                  options=(Option("yes", "Call the guild assist", "once a campaign"),
                           Option("no", "Let the battle end", "the encounter is failed")),
                  default="no", pick=1, deadline=run.assist_deadline, timeout_action="quest.assist-timeout",
                  data={"default_words": "the guild assist is not called and the battle ends"})
