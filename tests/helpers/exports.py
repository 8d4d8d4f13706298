"""Export files for the import tests: real campaigns played through the rules in memory, and hostile ones.

``play`` runs actions through the ruleset exactly as the service does (without a
database) and records the log entries an export holds; ``export_bytes`` wraps a
log and its state as ``/campaign export`` does.
"""
from __future__ import annotations

import json
from typing import Any

from commands.transfer import FORMAT, FORMAT_VERSION, encode_export
from engine import rulesets
from engine.actions import dice_for
from engine.core import Action, RuleError
from rulesets.tes.state import SCHEMA

LEAD, SIL, THIRD = "1001", "1002", "1003"
T0 = 1_700_000_000.0


class Played:
    def __init__(self) -> None:
        self.state: Any = None
        self.log: list[dict[str, Any]] = []
        self.refused = 0
        self.why: dict[str, int] = {}
        self.limit: int | None = None

    def do(self, action: Action) -> bool:
        if self.limit is not None and len(self.log) >= self.limit:
            return False
        game = rulesets.for_action({"ruleset": self.state.ruleset} if self.state is not None else None, action)
        try:
            applied = game.execute(self.state, action, dice_for(self.state), T0 + len(self.log))
        except RuleError as exc:
            self.refused += 1
            key = f"{action.type}: {exc.message[:60]}"
            self.why[key] = self.why.get(key, 0) + 1
            return False
        self.log.append({
            "seq": len(self.log) + 1, "at": T0 + len(self.log), "actor": action.actor, "on_behalf": action.on_behalf,
            "type": action.type, "action": action.to_dict(), "dice": applied.dice,
            "events": [e.to_dict() for e in applied.events], "undoable": applied.undoable, "undone_by": None,
        })
        self.state = applied.state
        return True


def opened(channel: str = "100", seed: int = 4242) -> Played:
    p = Played()
    assert p.do(Action("campaign.new", LEAD, {"name": "Long Road", "channel_id": channel, "guild_id": "1",
                                              "seed": seed, "difficulty": "adept"}))
    assert p.do(Action("adventurer.create", LEAD, {"name": "Vilya", "race": "dark-elf", "line": "destruction-staff"}))
    assert p.do(Action("campaign.join", SIL))
    assert p.do(Action("adventurer.create", SIL, {"name": "Sil", "race": "argonian", "line": "one-hand-and-shield"}))
    return p


def long_campaign(actions: int, *, seed: int = 4242) -> Played:
    """A campaign of ``actions`` log entries: battle after battle (enemy turns, dice, events), as players play."""
    from rulesets.tes.rules import whose_move

    p = opened(seed=seed)
    p.limit = actions
    heroes = {LEAD: ("Vilya", "dark-elf", "destruction-staff"), SIL: ("Sil", "argonian", "one-hand-and-shield")}
    generation = 0
    while len(p.log) < actions:
        s = p.state
        if s.battle is None:
            chosen = any(ids and p.do(Action("battle.class", owner, {"klass": ids[0]}))
                         for owner, ids in list((s.settings.get("class_rewards") or {}).items()))
            if chosen:
                continue
            if len(p.log) % 7 == 0:
                p.do(Action("campaign.settings", LEAD, {"reminder_hours": len(p.log) % 300}))
                continue
            if s.settings.get("class_rewards") or not p.do(Action("battle.start", LEAD, {"encounter": "jailbreak"})):
                generation += 1  # someone can't fight: the party retires and new adventurers take over
                for owner, (name, race, line) in heroes.items():
                    p.do(Action("adventurer.retire", owner, {"confirm": True}))
                    p.do(Action("adventurer.create", owner, {"name": f"{name} {generation}", "race": race,
                                                             "line": line}))
            continue
        turn = whose_move(s)
        if turn is None or not p.do(Action("battle.endturn", turn[0])):
            p.do(Action("campaign.settings", LEAD, {"reminder_hours": len(p.log) % 300}))
    p.limit = None
    return p


def doc_of(log: list[dict[str, Any]], state: dict[str, Any], exported_by: str = LEAD) -> dict[str, Any]:
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "schema": SCHEMA,
        "exported_at": "2026-01-01T12:00:00Z", "exported_by": exported_by,
        "campaign": {"name": state.get("name"), "channel_id": state.get("channel_id"), "guild_id": "1",
                     "pack": state.get("pack"), "version": len(log), "actions": len(log)},
        "state": state, "log": log,
    }


def export_bytes(played: Played) -> bytes:
    return encode_export(doc_of(played.log, played.state.to_dict()))[0]


def raw(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, separators=(",", ":")).encode()
