"""What the shared campaign commands ask of a skirmish (engine.rulesets.RulesetPresenter)."""
from __future__ import annotations

from engine.packs import PackPresenter
from engine.reply import Reply
from rulesets.skirmish.content import PACKS


class SkirmishPresenter(PackPresenter):
    PACKS = PACKS

    def new_campaign_next(self) -> str:
        return ("Each player picks a warband with /skirmish warband (see /skirmish fighters), recruits with "
                "/skirmish recruit and deploys with /skirmish deploy; /skirmish bot fields the bot's warband. "
                "The leader begins the battle with /skirmish start.")

    def join_next(self) -> str:
        return "Pick your warband with /skirmish warband."

    async def status(self, inv, state) -> Reply:
        from rulesets.skirmish.present.commands import status_reply

        return status_reply(inv, state)

    def leave_note(self, state, who: str) -> str:
        wb = state.warbands.get(who)
        return f"{wb.name} leaves the field with you." if wb else ""

    character = "warband"  # what a member plays, in words

    def members_by_name(self, state) -> dict[str, str]:
        """Warbands' names -> their players (`player:"Thorn Watch"` at the local table)."""
        return {wb.name: owner for owner, wb in state.warbands.items()}

    def dashboard(self, inv, state):
        """The dashboard's phase and picture (engine.dashboard): the battlefield as it stands."""
        from engine.dashboard import FILENAME, Scene
        from engine.reply import Picture
        from rulesets.skirmish.content import pack_of
        from rulesets.skirmish.present.view import map_view

        if state.phase == "muster":
            phase, waiting = "Mustering warbands", "the leader begins the battle with /skirmish start"
        elif state.phase == "over":
            phase, waiting = "The battle is over", "a rematch starts with /skirmish rematch"
        else:
            fight = state.fight
            turn = ""
            if fight is not None and fight.active is not None:
                f = state.fighters.get(fight.active.fighter)
                turn = f", {f.name} activating" if f is not None else ""
            phase, waiting = f"Battle round {fight.round if fight else 1}{turn}", ""
        picture = Picture("skirmish", map_view(state, pack_of(state), inv.name_of), FILENAME) \
            if state.warbands else None
        return Scene(phase=phase, picture=picture, waiting=waiting, shows="the battlefield")

    async def after(self, inv, outcome) -> Reply | None:
        from rulesets.skirmish.present.commands import battle_reply

        return battle_reply(inv, outcome) if outcome.state.fight is not None else None

    async def autocomplete(self, inv, source: str, current: str) -> list[tuple[str, str]]:
        from rulesets.skirmish.present.commands import choices

        state = await inv.service.campaign(inv.channel_id)
        if state is not None and getattr(state, "ruleset", None) != "skirmish":
            return []
        return choices(inv, state, source, current)

    def help_lines(self) -> str:
        return ("/campaign new ruleset:skirmish, then /skirmish warband, /skirmish recruit, /skirmish deploy "
                "(or /skirmish bot), /skirmish start. In battle: /skirmish activate, then move, attack, retreat, "
                "wait, channel, ability, end. /skirmish status and /skirmish map any time.")

    def settings_hint(self) -> str:
        """Where a skirmish is made harder or easier (it has no difficulty levels)."""
        return ("A skirmish is set by the points each warband may spend and the number of battle rounds: the "
                "leader changes them with /skirmish settings.")

    def settings_lines(self, state) -> list[tuple[str, str]]:
        return [("points", f"{state.settings.get('points')} points a warband (change with /skirmish settings)"),
                ("rounds", f"{state.settings.get('rounds')} battle rounds (change with /skirmish settings)")]
