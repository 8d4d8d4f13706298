"""What the shared campaign commands ask of an engage game (engine.rulesets.RulesetPresenter)."""
from __future__ import annotations

from engine.packs import PackPresenter
from engine.reply import Reply
from engine.text import count
from rulesets.engage.content import PACKS


class EngagePresenter(PackPresenter):
    PACKS = PACKS

    def new_campaign_next(self) -> str:
        return ("Two players field units with /mini field (see /mini units; the first unit joins you to the game); "
                "the leader begins the battle with /mini start.")

    def join_next(self) -> str:
        return "Field your units with /mini field (see /mini units)."

    async def status(self, inv, state) -> Reply:
        from rulesets.engage.present.commands import status_reply

        return status_reply(inv, state)

    def leave_note(self, state, who: str) -> str:
        return "Your units leave the battlefield with you." if who in state.sides else ""

    def dashboard(self, inv, state):
        """The dashboard's phase and picture (engine.dashboard): the battlefield as it stands."""
        from engine.dashboard import FILENAME, Scene
        from engine.reply import Picture
        from rulesets.engage.content import pack_of
        from rulesets.engage.present.view import map_view
        from rulesets.engage.rules.core import PHASE_NAMES

        if state.phase == "muster":
            return Scene(phase="Fielding units", waiting="the leader begins the battle with /mini start")
        if state.phase == "over":
            phase = "The battle is over"
        else:
            t = state.turn
            phase = f"Turn {t.number} (round {(t.number + 1) // 2}), {PHASE_NAMES[t.phase]} phase"
            if state.pending:
                phase += ", an intercept question"
        return Scene(phase=phase, picture=Picture("engage", map_view(state, pack_of(state), inv.name_of), FILENAME),
                     shows="the battlefield")

    async def after(self, inv, outcome) -> Reply | None:
        from rulesets.engage.present.commands import battle_reply

        return await battle_reply(inv, outcome) if outcome.state.phase != "muster" else None

    async def timeout_reply(self, inv, outcome) -> Reply:
        from rulesets.engage.present.commands import battle_reply

        return await battle_reply(inv, outcome)

    async def autocomplete(self, inv, source: str, current: str) -> list[tuple[str, str]]:
        from rulesets.engage.present.commands import choices

        state = await inv.service.campaign(inv.channel_id)
        if state is not None and getattr(state, "ruleset", None) != "engage":
            return []
        return choices(inv, state, source, current)

    def help_lines(self) -> str:
        return ("/campaign new ruleset:engage, then /mini field (each of two players) and /mini start. Each turn: "
                "/mini engage (from your second turn), /mini move, /mini shoot, /mini cast, /mini next, /mini end; "
                "the other player answers /mini intercept. /mini status, /mini map and /mini units any time.")

    def settings_lines(self, state) -> list[tuple[str, str]]:
        return [("points", f"{count(state.settings.get('points'), 'point')} a side (change with /mini settings)"),
                ("rounds", f"{count(state.settings.get('rounds'), 'round')} (change with /mini settings)"),
                ("intercept_minutes", f"{count(state.settings.get('intercept_minutes'), 'minute')} to answer an intercept "
                                      "question, 0 = no time-out (change with /mini settings)")]
