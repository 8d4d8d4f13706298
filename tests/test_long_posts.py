"""A long post of every game is split at a line's end into messages Discord takes, and no word is lost
(the battle and the day posts of The Elder Scrolls already did; skirmish and engage posts clipped and cut
mid-line)."""
from __future__ import annotations

import pytest

import rulesets
from engine.rulesets import named
from engine.core import Action, Event
from engine.reply import MAX_CONTENT, MORE
from engine.service import Outcome

rulesets.load_all()


def long_events(n: int = 60) -> list[Event]:
    return [Event("note", f"Line {i:02d}: the fighter steps over the broken wall and looks around the ruined "
                          f"yard, counting the ones still standing.", {}) for i in range(n)]


def every_line_whole(reply, n: int) -> None:
    parts = [reply.content, *(f.content for f in reply.followups)]
    assert len(parts) > 1
    for part in parts:
        assert len(part) <= MAX_CONTENT
        assert "…" not in part  # nothing clipped
    text = "\n".join(parts)
    for i in range(n):  # every line is in one piece in exactly one message
        line = (f"Line {i:02d}: the fighter steps over the broken wall and looks around the ruined yard, "
                "counting the ones still standing.")
        assert sum(line in p for p in parts) == 1, (i, text[-400:])
    for part in parts[:-1]:
        assert MORE in part


def _state(game: str):
    ruleset = named(game)
    from engine.actions import dice_for

    new = Action("campaign.new", "lena", {"name": "Long", "ruleset": game, "channel_id": "100", "guild_id": "g",
                                          "seed": 1, "rules": ruleset.rules, "pack": game})
    return ruleset.execute(None, new, dice_for(None), 0.0).state


@pytest.mark.parametrize("game", ["skirmish", "engage"])
async def test_a_long_post_of_skirmish_and_engage_is_split_between_lines_and_loses_nothing(table, game):
    state = _state(game)
    out = Outcome(state, long_events(), 7, Action("x", "lena", {}), [], 1)
    inv = table.invocation("lena", "100", "g", "lena")
    if game == "skirmish":
        from rulesets.skirmish.present.commands import battle_reply, plain_reply

        battle = battle_reply(inv, out)
    else:
        from rulesets.engage.present.commands import battle_reply, plain_reply

        battle = await battle_reply(inv, out)
    every_line_whole(battle, 60)
    every_line_whole(plain_reply(out), 60)
