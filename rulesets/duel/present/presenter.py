"""What the shared campaign commands ask of a duel campaign (engine.rulesets.RulesetPresenter)."""
from __future__ import annotations

from engine.packs import PackPresenter
from engine.reply import Reply
from engine.text import count
from rulesets.duel.content import PACKS


class DuelPresenter(PackPresenter):
    PACKS = PACKS

    def new_campaign_next(self) -> str:
        return ("Each player makes a character with /duel character hero: name: (see /duel heroes). Then call a "
                "fight with /duel fight monster: (see /duel bestiary) or challenge a player with /duel fight rival:.")

    def join_next(self) -> str:
        return "Make your character with /duel character (see /duel heroes)."

    async def status(self, inv, state) -> Reply:
        from rulesets.duel.present.commands import status_reply

        return status_reply(inv, state)

    def leave_note(self, state, who: str) -> str:
        ch = state.characters.get(who)
        return f"{ch.name} leaves with you." if ch else ""

    def dashboard(self, inv, state):
        """The dashboard's phase and picture (engine.dashboard): the fight as it stands."""
        from engine.dashboard import FILENAME, Scene
        from rulesets.duel.present.replies import pictures

        fight = state.fight
        if fight is None:
            return Scene(phase="Between fights", waiting="a fight is called with /duel fight")
        steps = {"join": "joining", "place": "placing cards", "reveal": "revealing cards",
                 "resolve": "resolving actions", "over": "over"}
        phase = f"Fight {fight.no}" + (f", round {fight.round}" if fight.round else "") + \
            f": {steps.get(fight.step, fight.step)}"
        pics = pictures(inv, state, fresh=True)
        picture = pics[0] if pics else None
        if picture is not None:
            picture.filename = FILENAME
        return Scene(phase=phase, picture=picture, shows="the fight")

    async def after(self, inv, outcome) -> Reply | None:
        from rulesets.duel.present.replies import fight_reply

        return fight_reply(inv, outcome, fresh=True) if outcome.state.fight is not None else None

    async def timeout_reply(self, inv, outcome) -> Reply:
        from rulesets.duel.present.buttons import after_timeout

        return await after_timeout(inv, outcome)

    async def autocomplete(self, inv, source: str, current: str) -> list[tuple[str, str]]:
        from rulesets.duel.present.commands import choices

        state = await inv.service.campaign(inv.channel_id)
        if state is not None and getattr(state, "ruleset", None) != "duel":
            return []
        return choices(inv, state, source, current)

    def help_lines(self) -> str:
        return ("/campaign new ruleset:duel, then /duel character (see /duel heroes). /duel fight monster: or rival: "
                "calls a fight where your character stands (/duel travel zone: moves it; runner: names a player who "
                "rolls the monster's dice with /duel roll); answer with the buttons (or /duel join, /duel place, "
                "/duel declare, /duel reroll). /duel hand shows your cards privately; /duel status any time.")

    def settings_lines(self, state) -> list[tuple[str, str]]:
        return [("ask_minutes", f"{count(state.settings.get('ask_minutes'), 'minute')} to answer a join, declare or Fame "
                                "question (change with /duel settings)"),
                ("place_hours", f"{count(state.settings.get('place_hours'), 'hour')} to place cards (change with /duel "
                                "settings)")]
