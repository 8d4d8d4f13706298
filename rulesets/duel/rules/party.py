"""Campaign-level actions of a duel campaign: open one; the shared party actions with this game's hooks; import."""
from __future__ import annotations

from engine import party
from engine.bounds import NEW_CAMPAIGN
from engine.core import Event, RuleError
from engine.text import clean_name, echo
from rulesets.duel.rules.model import SETTINGS
from rulesets.duel.rules.table import TABLE, Handler, action
from rulesets.duel.state import RULES, Duel


def _pack(pack_id: str):
    from rulesets.duel.content import ContentError, load_pack

    try:
        return load_pack(pack_id)
    except ContentError as exc:
        first = "\n".join(f"- {e}" for e in exc.errors[:5])
        raise RuleError(f"The content pack {echo(pack_id)} has problems; choose another:\n{first}") from exc
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError):
        raise RuleError(f"There is no duel content pack called {echo(pack_id)}. "
                        "Leave the pack option empty for the standard one.") from None


@action
class NewDuel(Handler):
    type = "campaign.new"
    needs_campaign = False
    undoable = False
    summary = "Open a duel campaign in this channel."
    args = dict(NEW_CAMPAIGN)

    def check(self, state, action, ctx):
        if state is not None and not state.ended:
            raise RuleError(f"This channel already has a campaign, {state.name}. Ask its leader to end it "
                            "with /campaign end first, or play in another channel.")
        clean_name(action.args.get("name") or "", "campaign", max_len=60)
        _pack(action.args.get("pack") or "duel")

    def apply(self, state, action, ctx):
        a = action.args
        pack = _pack(a.get("pack") or "duel")
        camp = Duel(channel_id=str(a["channel_id"]), guild_id=str(a["guild_id"]) if a.get("guild_id") else None,
                    name=clean_name(a.get("name"), "campaign", max_len=60), leader=action.actor,
                    members=[action.actor], seed=int(a.get("seed", 0)), pack=a.get("pack") or "duel",
                    pack_version=str(a.get("pack_version") or pack.version), rules=int(a.get("rules") or RULES),
                    settings=party.default_settings() | {k: v[2] for k, v in SETTINGS.items()})
        return camp, [Event("campaign-opened",
                            f"Duel campaign {camp.name} opened with the {pack.title} pack. {{@leader}} leads.",
                            {"leader": camp.leader})]


def _busy(state) -> str | None:
    return "A fight is going on" if state.in_fight else None


def _on_leave(state, who: str) -> list[Event]:
    ch = state.characters.pop(who, None)
    state.seats = [s for s in state.seats if s != who]
    return [Event("retired", f"{ch.name} leaves with {{@player}}.", {"player": who})] if ch else []


party.install_party_actions(TABLE, party.PartyRules(busy=_busy, on_leave=_on_leave, settings=SETTINGS))


def check_state(data):
    """A first look at a duel state in an export file (the log is then replayed and compared)."""
    from engine.transfer import check_party, load_claimed
    from rulesets.duel.state import SCHEMA

    return check_party(load_claimed(data, Duel.from_dict, SCHEMA))


def check_pack(pack_id: str) -> None:
    from rulesets.duel.content import ContentError, load_pack

    try:
        load_pack(pack_id)
    except ContentError as exc:
        raise RuleError(f"The campaign's duel pack `{pack_id}` has problems on this bot.") from exc
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError):
        raise RuleError(f"This bot has no duel pack `{pack_id}`, which the campaign uses.") from None


def export_refusal(state) -> str | None:
    """Hands and face-down cards are secret during a fight: the export file would show them."""
    if state is not None and state.in_fight:
        return ("A fight is going on, and the file would show every hand and face-down card. "
                "Export the campaign once the fight is over.")
    return None


from engine.transfer import install_import_action  # noqa: E402

install_import_action(TABLE, check_state)
