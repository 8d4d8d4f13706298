"""Moving a campaign onto the newest rules revision and pack version (``/campaign update``).

A campaign keeps the rules revision and the pack version it began on (rulesets/tes/state.py, RULES; and
docs/content-format.md, pack versions), so its log always replays the same way.  Between battles its leader
may move it to the newest of both: the action records the revision and the pack's content hash it moves to
(read at the edge, like ``campaign.new``), so replaying the log moves it the same way again.  It is refused
when the newer pack no longer has something the party holds (a race, a skill die, a class, an item, a
companion): then the campaign stays as it is.
"""
from __future__ import annotations

from engine.bounds import Int, Text
from engine.core import Event, RuleError
from rulesets.tes.rules.table import Handler, action
from rulesets.tes.rules.campaign import rules_revision
from rulesets.tes.state import RULES


def missing_in(state, pack) -> list[str]:
    """What the campaign holds that ``pack`` does not have, in words (empty: the pack can take it over)."""
    out: list[str] = []
    for adv in state.adventurers.values():
        if adv.race not in pack.races:
            out.append(f"{adv.name}'s race `{adv.race}`")
        if adv.class_id and adv.class_id not in pack.classes:
            out.append(f"{adv.name}'s class `{adv.class_id}`")
        for die in adv.dice.values():
            try:
                pack.die(die["type"])
            except KeyError:
                out.append(f"{adv.name}'s die `{die['type']}`")
        for item in list(adv.ready) + list(adv.pack) + list(adv.enchants) + ([adv.holding] if adv.holding else []):
            if item not in pack.items:
                out.append(f"{adv.name}'s item `{item}`")
    for comp in state.companions:
        if comp.id not in pack.companions:
            out.append(f"the companion `{comp.id}`")
    return sorted(set(out))


@action
class Update(Handler):
    type = "campaign.update"
    leader_only = True
    undoable = False
    summary = "Move the campaign to the newest rules and content pack version (leader, between battles)."
    args = {"pack_version": Text(40), "rules": Int(0, 1000)}

    def check(self, state, action, ctx):
        if state.battle:
            raise RuleError("Finish the battle first: the campaign is updated between battles.")
        version = str(action.args.get("pack_version") or "")
        if rules_revision(action.args.get("rules")) <= state.rules and version == state.pack_version:
            raise RuleError("This campaign already plays the newest rules and the newest version of its pack.")

    def apply(self, state, action, ctx):
        from rulesets.tes.content import load_pack

        version = str(action.args.get("pack_version") or state.pack_version)
        rules = max(state.rules, rules_revision(action.args.get("rules")))
        pack = load_pack(state.pack, version=version)
        lost = missing_in(state, pack)
        if lost:
            raise RuleError("The newest version of the pack no longer has " + ", ".join(lost[:5])
                            + ", so the campaign stays on its version. The bot's host can keep the pack's "
                            "old version for it.")
        before = (state.rules, state.pack_version)
        state.rules, state.pack_version = rules, version
        parts = []
        if rules != before[0]:
            parts.append(f"the rules revision {before[0]} → {rules}")
        if version != before[1]:
            parts.append(f"the {state.pack} pack's version {before[1] or 'first'} → {version}")
        return state, [Event("campaign-updated", "The campaign now plays " + " and ".join(parts)
                             + ". What changed: the bot's rules notes (\"Rules revisions\"). Saved battles "
                             "and the log are kept.", {"rules": rules, "pack_version": version})]


def update_available(state) -> bool:
    """Whether ``/campaign update`` would move this campaign (a newer rules revision or pack version)."""
    from rulesets.tes.rules.campaign import pack_version

    if state.rules < RULES:
        return True
    try:
        return bool(state.pack_version) and pack_version(state.pack) != state.pack_version
    except Exception:  # noqa: BLE001 - a pack that no longer loads offers no update
        return False
