"""Campaign-level actions: open a campaign of this game; the shared party actions with this game's hooks."""
from __future__ import annotations

from engine import party
from engine.bounds import NEW_CAMPAIGN
from engine.core import Event, RuleError
from rulesets.tes.rules.table import TABLE, Handler, action
from rulesets.tes.state import DIFFICULTIES, RULES, Campaign, unrecorded_rules
from engine.text import clean_name, slug

MAX_PARTY = party.MAX_PARTY
DEFAULT_SETTINGS = party.default_settings()
# minutes a player in prevention ask mode has to answer (0 = no time-out); default 60
OWN_SETTINGS = {"prevent_timeout_minutes": (0, 7 * 24 * 60, 60)}
SETTING_LIMITS = {k: v[:2] for k, v in (party.BASE_SETTINGS | OWN_SETTINGS).items()}


def _difficulty(value) -> str:
    d = slug(value or "adept")
    if d not in DIFFICULTIES:
        raise RuleError(f"Difficulty must be one of: {', '.join(x.title() for x in DIFFICULTIES)} (you gave {value!r}).")
    return d


@action
class NewCampaign(Handler):
    type = "campaign.new"
    needs_campaign = False
    undoable = False
    summary = "Open a campaign in this channel."
    args = dict(NEW_CAMPAIGN)

    def check(self, state, action, ctx):
        if state is not None and not state.ended:
            raise RuleError(
                f"This channel already has a campaign, {state.name}. "
                "Use /campaign status to see it, or ask its leader to /campaign end it first."
            )
        clean_name(action.args.get("name") or "", "campaign", max_len=60)
        _difficulty(action.args.get("difficulty"))
        pack_id = action.args.get("pack") or "starter"
        from rulesets.tes.content import ContentError, load_pack

        try:
            load_pack(pack_id)
        except ContentError as exc:
            first = "\n".join(f"- {e}" for e in exc.errors[:5])
            raise RuleError(f"The content pack `{pack_id}` has problems:\n{first}") from exc
        except FileNotFoundError as exc:
            raise RuleError(
                f"There is no content pack called `{pack_id}`. Leave the option empty for the starter pack."
            ) from exc

    def apply(self, state, action, ctx):
        a = action.args
        camp = Campaign(
            channel_id=str(a["channel_id"]),
            guild_id=str(a["guild_id"]) if a.get("guild_id") else None,
            name=clean_name(a.get("name"), "campaign", max_len=60),
            pack=a.get("pack") or "starter",
            difficulty=_difficulty(a.get("difficulty")),
            leader=action.actor,
            members=[action.actor],
            seed=int(a.get("seed", 0)),
            settings=dict(DEFAULT_SETTINGS),
            pack_version=str(a.get("pack_version") or ""),  # recorded at the edge; "" = the pack's unversioned copy
            # recorded at the edge; a log from before revisions were recorded: read from its pack version
            rules=rules_revision(a["rules"]) if a.get("rules") else unrecorded_rules(a.get("pack_version") or ""),
        )
        return camp, [
            Event(
                "campaign-opened",
                f"Campaign {camp.name} opened on {camp.difficulty.title()} with the {camp.pack} pack. "
                "{@leader} leads the party.",
                {"leader": camp.leader, "name": camp.name, "pack": camp.pack},
            )
        ]


def rules_revision(value) -> int:
    """The rules revision an action's argument names (none or a broken one: 1, the first)."""
    try:
        n = int(value or 1)
    except (TypeError, ValueError):
        return 1
    return max(1, min(RULES, n))


def pack_version(pack_id: str) -> str:
    """The content hash of an installed pack (the command layer records it in campaign.new)."""
    from rulesets.tes.content import load_pack

    return load_pack(pack_id).content_hash


def _busy(state) -> str | None:
    return "The party is in a battle" if state.battle else None


def _on_leave(state, who: str) -> list[Event]:
    s = state.days
    if s is not None and s.ask is not None and who in s.ask.owners:  # the day waits for them: nobody would answer
        raise RuleError("The day is waiting for {@player} to answer its question (see /day status). Answer it "
                        "first (the party leader may answer for them), then leave.", player=who)
    adv = state.adventurers.pop(who, None)
    return [Event("retired", f"{adv.name} retires from the party.", {"player": who})] if adv else []


def _on_end(state) -> None:
    state.battle = None


party.install_party_actions(TABLE, party.PartyRules(
    max_party=MAX_PARTY, busy=_busy, on_leave=_on_leave, on_end=_on_end, settings=OWN_SETTINGS))
