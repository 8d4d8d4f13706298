"""Campaign-level actions of a skirmish: open one; the shared party actions with this game's hooks."""
from __future__ import annotations

from engine import party
from engine.bounds import NEW_CAMPAIGN
from engine.core import Event, RuleError
from engine.text import clean_name, echo
from rulesets.skirmish.board import MAX_WARBANDS
from rulesets.skirmish.rules.table import TABLE, Handler, action
from rulesets.skirmish.state import Skirmish, rules_revision

# this game's own settings: name -> (lowest, highest, default); the pack's values are the defaults of a new skirmish
OWN_SETTINGS = {"points": (100, 3000, 400), "rounds": (1, 12, 4)}


def _pack(pack_id: str):
    from rulesets.skirmish.content import ContentError, load_pack

    try:
        return load_pack(pack_id)
    except ContentError as exc:
        first = "\n".join(f"- {e}" for e in exc.errors[:5])
        raise RuleError(f"The content pack {echo(pack_id)} has problems; choose another:\n{first}") from exc
    except FileNotFoundError as exc:
        raise RuleError(f"There is no skirmish content pack called {echo(pack_id)}. "
                        "Leave the pack option empty for the standard one.") from exc


@action
class NewSkirmish(Handler):
    type = "campaign.new"
    needs_campaign = False
    undoable = False
    summary = "Open a skirmish campaign in this channel."
    args = dict(NEW_CAMPAIGN)

    def check(self, state, action, ctx):
        if state is not None and not state.ended:
            raise RuleError(f"This channel already has a campaign, {state.name}. Ask its leader to end it "
                            "with /campaign end first, or play in another channel.")
        clean_name(action.args.get("name") or "", "campaign", max_len=60)
        _pack(action.args.get("pack") or "skirmish")

    def apply(self, state, action, ctx):
        a = action.args
        pack = _pack(a.get("pack") or "skirmish")
        camp = Skirmish(channel_id=str(a["channel_id"]), guild_id=str(a["guild_id"]) if a.get("guild_id") else None,
                        name=clean_name(a.get("name"), "campaign", max_len=60), leader=action.actor,
                        members=[action.actor], seed=int(a.get("seed", 0)), pack=a.get("pack") or "skirmish",
                        pack_version=str(a.get("pack_version") or pack.version),
                        rules=rules_revision(a.get("rules")),  # recorded at the edge; none: the first revision
                        settings=party.default_settings() | {"points": pack.points, "rounds": pack.rounds})
        if camp.rules >= 2:
            camp.names = {}
        return camp, [Event("campaign-opened",
                            f"Skirmish {camp.name} opened with the {pack.title} pack ({pack.points} points a "
                            f"warband, {pack.rounds} battle rounds). {{@leader}} leads.", {"leader": camp.leader})]


def _busy(state) -> str | None:
    return "The battle has begun" if state.phase == "battle" else None


def _on_leave(state, who: str) -> list[Event]:
    wb = state.warbands.pop(who, None)
    if wb is None:
        return []
    for fid in wb.fighters:
        state.fighters.pop(fid, None)
    return [Event("warband-left", f"{wb.name} leaves the field with {{@player}}.", {"player": who})]


# the shared party actions (join, leave, lead, settings, end, forced dice) with this game's hooks;
# points matter while warbands muster, rounds until the last round ends
party.install_party_actions(TABLE, party.PartyRules(
    max_party=MAX_WARBANDS, busy=_busy, on_leave=_on_leave, settings=OWN_SETTINGS))


def check_state(data):
    """A first look at a skirmish state in an export file (the log is then replayed and compared)."""
    from engine.transfer import check_party, load_claimed
    from rulesets.skirmish.state import SCHEMA, Skirmish

    return check_party(load_claimed(data, Skirmish.from_dict, SCHEMA))


def check_pack(pack_id: str) -> None:
    from engine.core import RuleError
    from rulesets.skirmish.content import ContentError, load_pack

    try:
        load_pack(pack_id)
    except ContentError as exc:
        raise RuleError(f"The campaign's skirmish pack `{pack_id}` has problems on this bot.") from exc
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError):
        raise RuleError(f"This bot has no skirmish pack `{pack_id}`, which the campaign uses.") from None


from engine.transfer import install_import_action  # noqa: E402

install_import_action(TABLE, check_state)
