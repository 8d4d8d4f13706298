"""Campaign-level actions of an engage game: open one; the shared party actions with this game's hooks; import."""
from __future__ import annotations

from engine import party
from engine.bounds import NEW_CAMPAIGN
from engine.core import Event, RuleError
from engine.text import clean_name, echo
from rulesets.engage.rules.engage import DEFAULT_INTERCEPT_MINUTES
from rulesets.engage.rules.table import TABLE, Handler, action
from rulesets.engage.state import RULES, Game

# this game's own settings: name -> (lowest, highest, default); the pack's values are the defaults of a new game
OWN_SETTINGS = {"points": (10, 1000, 50), "rounds": (1, 20, 6),
                "intercept_minutes": (0, 24 * 60, DEFAULT_INTERCEPT_MINUTES)}


def _pack(pack_id: str):
    from rulesets.engage.content import ContentError, load_pack

    try:
        return load_pack(pack_id)
    except ContentError as exc:
        first = "\n".join(f"- {e}" for e in exc.errors[:5])
        raise RuleError(f"The content pack {echo(pack_id)} has problems; choose another:\n{first}") from exc
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError) as exc:
        raise RuleError(f"There is no engage content pack called {echo(pack_id)}. "
                        "Leave the pack option empty for the standard one.") from exc


@action
class NewGame(Handler):
    type = "campaign.new"
    needs_campaign = False
    undoable = False
    summary = "Open an engage game in this channel."
    args = dict(NEW_CAMPAIGN)

    def check(self, state, action, ctx):
        if state is not None and not state.ended:
            raise RuleError(f"This channel already has a campaign, {state.name}. Ask its leader to end it "
                            "with /campaign end first, or play in another channel.")
        clean_name(action.args.get("name") or "", "campaign", max_len=60)
        _pack(action.args.get("pack") or "engage")

    def apply(self, state, action, ctx):
        a = action.args
        pack = _pack(a.get("pack") or "engage")
        game = Game(channel_id=str(a["channel_id"]), guild_id=str(a["guild_id"]) if a.get("guild_id") else None,
                    name=clean_name(a.get("name"), "campaign", max_len=60), leader=action.actor,
                    members=[action.actor], seed=int(a.get("seed", 0)), pack=a.get("pack") or "engage",
                    pack_version=str(a.get("pack_version") or pack.version), rules=int(a.get("rules") or RULES),
                    settings=party.default_settings() | {"points": pack.points, "rounds": pack.rounds,
                                                          "intercept_minutes": DEFAULT_INTERCEPT_MINUTES})
        return game, [Event("campaign-opened",
                            f"Engage game {game.name} opened on {pack.map.name} ({pack.title} pack: {pack.points} "
                            f"points a side, {pack.rounds} rounds). {{@leader}} leads.", {"leader": game.leader})]


def _busy(state) -> str | None:
    return "The battle has begun" if state.phase == "battle" else None


def _on_leave(state, who: str) -> list[Event]:
    side = state.sides.pop(who, None)
    if side is None:
        return []
    for uid in side.units:
        state.units.pop(uid, None)
    return [Event("side-left", "{@player}'s units leave the battlefield with them.", {"player": who})]


party.install_party_actions(TABLE, party.PartyRules(busy=_busy, on_leave=_on_leave, settings=OWN_SETTINGS))


def check_state(data):
    """A first look at an engage state in an export file (the log is then replayed and compared)."""
    from engine.transfer import check_party, load_claimed
    from rulesets.engage.state import SCHEMA

    return check_party(load_claimed(data, Game.from_dict, SCHEMA))


def check_pack(pack_id: str) -> None:
    from rulesets.engage.content import ContentError, load_pack

    try:
        load_pack(pack_id)
    except ContentError as exc:
        raise RuleError(f"The game's engage pack `{pack_id}` has problems on this bot.") from exc
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError):
        raise RuleError(f"This bot has no engage pack `{pack_id}`, which the game uses.") from None


from engine.transfer import install_import_action  # noqa: E402

install_import_action(TABLE, check_state)
