"""Moving a campaign between channels (or bots): the ``campaign.import`` action.

An export file (see ``commands/transfer.py``) holds the campaign's state and its
full action log.  Importing it opens the campaign in a channel that has none,
as one action whose arguments carry the whole state, so the new channel's log
replays like any other: ``replay`` re-runs ``campaign.import`` and gets the same
state back, dice seed and stream position included.

The earlier log is not re-applied (its actions name the old channel); the
import entry keeps it in ``args["history"]`` so nothing is lost and a later
export carries it on.  ``/campaign log`` shows the import as one entry that
summarises what came before.

This module is pure: no files, no Discord.  The command layer parses and checks
the file (JSON shape, format version, that the log replays to the state) before
it asks for this action; the checks here are the ones the state itself must pass.
"""
from __future__ import annotations

from typing import Any

from kernel.core import Event, RuleError
from rulesets.tes.rules import Handler, action
from rulesets.tes.state import SCHEMA, Campaign
from kernel.text import clean_name

STATE_KEYS: dict[str, tuple[type, ...]] = {
    "channel_id": (str,),
    "name": (str,),
    "pack": (str,),
    "difficulty": (str,),
    "leader": (str,),
    "members": (list,),
    "adventurers": (dict,),
    "settings": (dict,),
}


def check_state(data: Any) -> Campaign:
    """The campaign a saved state describes; ``RuleError`` naming the first problem."""
    if not isinstance(data, dict):
        raise RuleError("The file's `state` is not a campaign (it should be a JSON object).")
    for key, types in STATE_KEYS.items():
        if key not in data:
            raise RuleError(f"The file's campaign state has no `{key}`; export the campaign again.")
        if not isinstance(data[key], types):
            raise RuleError(f"The file's campaign state has a broken `{key}`; export the campaign again.")
    try:
        version = int(data.get("schema", 1))
    except (TypeError, ValueError):
        raise RuleError("The file's campaign state has a broken `schema` number; export the campaign again.") from None
    if version > SCHEMA:
        raise RuleError(
            f"This campaign was saved by a newer Hexpost (state schema {version}; this bot knows up to {SCHEMA}). "
            "Ask the bot's host to update it, then import again."
        )
    if version < 1:
        raise RuleError(f"The file's campaign state has schema {version}, which no Hexpost ever wrote.")
    try:
        camp = Campaign.from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RuleError(f"The file's campaign state can't be read ({type(exc).__name__}); export it again.") from None
    clean_name(camp.name, "campaign", max_len=60)
    if camp.leader not in camp.members:
        raise RuleError("The file's campaign state is inconsistent: its leader is not in the party.")
    for owner in camp.adventurers:
        if owner not in camp.members:
            raise RuleError("The file's campaign state is inconsistent: an adventurer's owner is not in the party.")
    if camp.ended:
        raise RuleError("That campaign has ended; only a running campaign can be imported.")
    return camp


def check_pack(pack_id: str) -> None:
    from rulesets.tes.content import ContentError, load_pack

    try:
        load_pack(pack_id)
    except ContentError as exc:
        first = "\n".join(f"- {e}" for e in exc.errors[:5])
        raise RuleError(f"The campaign's content pack `{pack_id}` has problems on this bot:\n{first}") from None
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError):
        raise RuleError(
            f"This bot has no content pack `{pack_id}`, which the campaign uses. "
            "The bot's host adds it by putting its folder in `content/`; then import again."
        ) from None


@action
class Import(Handler):
    type = "campaign.import"
    needs_campaign = False
    undoable = False
    summary = "Open a campaign from an export file (its leader, in a channel with no campaign)."

    def check(self, state, action, ctx):
        if state is not None and not state.ended:
            raise RuleError(
                f"This channel already has a campaign, **{state.name}**. Import into a channel without one "
                "(or ask its leader to `/campaign end` it first)."
            )
        camp = check_state(action.args.get("state"))
        if action.actor != camp.leader:
            raise RuleError(
                f"Only the campaign's party leader (<@{camp.leader}>) can import it. "
                "Ask them to run `/campaign import` with the file."
            )
        check_pack(camp.pack)
        if not action.args.get("channel_id"):
            raise RuleError("The import names no channel to open the campaign in.")

    def apply(self, state, action, ctx):
        a = action.args
        camp = Campaign.from_dict(a["state"])
        old_channel = camp.channel_id
        camp.channel_id = str(a["channel_id"])
        camp.guild_id = str(a["guild_id"]) if a.get("guild_id") else None
        # The campaign's own dice continue where they stopped (``execute`` stores ctx.dice's position).
        ctx.dice.seed = camp.seed
        ctx.dice.counter = camp.dice_counter
        ctx.dice.forced[:] = list(camp.forced)
        history = a.get("history") or []
        source = a.get("source") or {}
        if history:
            first, last = history[0].get("seq"), history[-1].get("seq")
            earlier = f"{len(history)} earlier actions (#{first}–#{last}) are kept with this entry"
        else:
            earlier = "the file carried no earlier actions"
        exported = f", exported {source['exported_at']}" if source.get("exported_at") else ""
        text = (f"Campaign **{camp.name}** imported from channel {old_channel}{exported}; {earlier}. "
                f"<@{camp.leader}> leads the party.")
        return camp, [Event("campaign-imported", text,
                            {"from_channel": old_channel, "earlier_actions": len(history),
                             "leader": camp.leader})]
