"""Importing an Elder Scrolls campaign: this game's first look at a file's state and at its pack.

The ``campaign.import`` action itself, which rebuilds the campaign by replaying the file's log and compares it
with this state by value, is the engine's (``engine/transfer.py``), installed on this ruleset's table here.
"""
from __future__ import annotations

from typing import Any

from engine.core import Dice, RuleError
from engine.text import clean_name
from engine.transfer import (  # noqa: F401 - re-exported for the command layer and tests
    MAX_STATE_JSON, PACK_ID, PLAYER_ID, check_party, install_import_action, load_claimed, rebuild,
)
from rulesets.tes.battle.inventory import _shuffle
from rulesets.tes.rules.table import TABLE
from rulesets.tes.state import SCHEMA, Campaign

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


def _fail(problem: str) -> RuleError:
    return RuleError(f"{problem} Use the file exactly as `/campaign export` made it.")


def check_state(data: Any) -> Campaign:
    """The campaign a saved state describes; ``RuleError`` naming the first problem.

    Only a first, cheap look (the shape, the names, the ids): the state is then
    rebuilt from the log and compared with this.
    """
    if not isinstance(data, dict):
        raise RuleError("The file's `state` is not a campaign (it should be a JSON object).")
    for key, types in STATE_KEYS.items():
        if key not in data:
            raise RuleError(f"The file's campaign state has no `{key}`; export the campaign again.")
        if not isinstance(data[key], types):
            raise RuleError(f"The file's campaign state has a broken `{key}`; export the campaign again.")
    camp = load_claimed(data, Campaign.from_dict, SCHEMA)
    # the same checks as the same text typed in a command
    for adv in camp.adventurers.values():
        if not isinstance(adv.name, str):
            raise RuleError("The file's campaign state has a broken adventurer name; export it again.")
        clean_name(adv.name, "adventurer")
        if not isinstance(adv.owner, str) or not PLAYER_ID.fullmatch(adv.owner):
            raise RuleError("The file's campaign state names a player by a broken id; export it again.")
    check_party(camp)
    for owner in camp.adventurers:
        if owner not in camp.members:
            raise RuleError("The file's campaign state is inconsistent: an adventurer's owner is not in the party.")
    return camp


def host_waiting(camp: Campaign) -> str | None:
    """Stacked cards (``/day stack``, ``/day start stack:``) still waiting to be drawn: the host's tool."""
    stacked = list(camp.days.stacked) if camp.days is not None else []
    return f"{len(stacked)} stacked card{'s' if len(stacked) != 1 else ''} (`/day stack`)" if stacked else None


def hide_draws(state: dict[str, Any]) -> dict[str, Any]:
    """The state as an export shows it: the item decks' draw piles and a delve's deck and tile stacks (shuffled
    once, drawn from the top) in no readable order (sorted); an import shuffles them afresh (``redraw``)."""
    out = dict(state)
    decks = out.get("item_decks")
    if isinstance(decks, dict):
        out["item_decks"] = {k: dict(v, draw=sorted(v["draw"], key=str))
                             if isinstance(v, dict) and isinstance(v.get("draw"), list) else v
                             for k, v in decks.items()}
    battle = out.get("battle")
    if isinstance(battle, dict) and isinstance(battle.get("delve"), dict):
        delve = dict(battle["delve"])
        if isinstance(delve.get("deck"), list):
            delve["deck"] = sorted(delve["deck"], key=str)
        if isinstance(delve.get("stacks"), dict):
            delve["stacks"] = {k: sorted(v, key=str) if isinstance(v, list) else v for k, v in delve["stacks"].items()}
        out["battle"] = dict(battle, delve=delve)
    return out


def redraw(camp: Campaign, dice: Dice) -> list[str]:
    """After an import drew its new seed: shuffle every deck still to be drawn in order with it (from its cards
    sorted, so the file's order decides nothing); what was shuffled, in words."""
    shuffled: list[str] = []
    for rarity in sorted(camp.item_decks):
        deck = camp.item_decks[rarity]
        if len(deck.draw) > 1:
            deck.draw = _shuffle(sorted(deck.draw), dice)
            shuffled.append(f"the {rarity} item deck")
    delve = camp.battle.delve if camp.battle is not None else None
    if delve is not None:
        if len(delve.deck) > 1:
            delve.deck = _shuffle(sorted(delve.deck), dice)
            shuffled.append("the delve deck")
        stacks = [shape for shape in sorted(delve.stacks) if len(delve.stacks[shape]) > 1]
        for shape in stacks:
            delve.stacks[shape] = _shuffle(sorted(delve.stacks[shape]), dice)
        if stacks:
            shuffled.append("the delve tile stacks")
    return shuffled


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



def comparable(claimed: dict, replayed: dict, raw) -> tuple[dict, dict]:
    """What an import compares of a file's state and its log's replay: a state saved before schema 3 kept a
    prevention question's time-out in the database, not in the state, so its replayed question's ``deadline`` is
    not compared (the imported campaign takes the replay's, which the old bot's table held)."""
    schema = raw.get("schema") if isinstance(raw, dict) else None
    if not isinstance(schema, int) or schema >= 3:
        return claimed, replayed
    mine, theirs = (claimed.get("battle") or {}).get("await"), (replayed.get("battle") or {}).get("await")
    if isinstance(mine, dict) and isinstance(theirs, dict) and "deadline" not in mine and "deadline" in theirs:
        replayed = {**replayed, "battle": {**replayed["battle"],
                                           "await": {k: v for k, v in theirs.items() if k != "deadline"}}}
    return claimed, replayed


install_import_action(TABLE, check_state, comparable)
