"""What every Elder Scrolls command module shares: the player option, the campaign and its pack."""
from __future__ import annotations

from engine.commands import Invocation, Opt
from engine.core import RuleError

PLAYER = Opt("player", str, "Act for this player's adventurer (party leader only)", user=True)


def _pack(state):
    from rulesets.tes.content import load_pack

    return load_pack(state.pack, version=state.pack_version)


async def _state(inv: Invocation):
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
    return state
