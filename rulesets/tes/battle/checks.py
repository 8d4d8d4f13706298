"""Who may act now, and on whom: the checks every battle step makes before it changes anything.

* ``waiting_for``: the battle waits for one player (a prevention question, a free move offered);
* ``my_turn`` / ``no_pending``: it is this adventurer's turn, and no roll or lockpick check waits;
* ``check_target``: a unit an adventurer may target in a battle form (sight, range, blind, stealth).
"""
from __future__ import annotations

from engine.core import RuleError
from engine.hexes import Hex, distance
from engine.text import count
from rulesets.tes.battle.model import Ctx, pos
from rulesets.tes.battle_state import Turn, Unit
from rulesets.tes.content import BATTLE_FORM_NAMES


def waiting_for(c: Ctx) -> str | None:
    """Why nothing else may happen now: a player must answer a question or make an offered move first."""
    b = c.b
    if b is None:
        return None
    if b.asking:
        adv = c.adv(b.asking.owner)
        return f"The battle waits for {adv.name}'s player to answer the prevention question (`/battle prevent`)."
    if b.offers:
        adv = c.adv(b.offers[0].owner)
        return (f"The battle waits for {adv.name}'s player to make the free move offered "
                "(`/move to:q,r`) or stay (`/battle stay`).")
    if b.step == "round-wait":
        return ("The whole party is down: the battle waits for the party leader to call the guild assist or let "
                "the battle end (`/quest assist`).")
    if b.choices:  # a card's choice (rulesets.tes.battle.cards)
        adv = c.adv(b.choices[0].owner)
        return (f"The battle waits for {adv.name}'s player to choose for {b.choices[0].source} "
                "(`/battle choose option:`).")
    ex = b.delve.exploring if b.delve is not None else None
    if ex is not None and ex.stage == "place":  # a delve's revealed tile (rulesets.tes.battle.delve)
        adv = c.adv(ex.owner)
        return f"The battle waits for {adv.name}'s player to choose where the new tile goes (`/explore place:`)."
    return None


def my_turn(c: Ctx, owner: str) -> Turn:
    b = c.b
    why = waiting_for(c)
    if why:
        raise RuleError(why)
    if b.step != "adventurer":
        raise RuleError("It is not an adventurer's turn right now. See `/battle status`.")
    turn = b.turn
    if turn.owner != owner:
        who = c.adv(turn.owner).name if turn.owner in c.state.adventurers else "someone else"
        raise RuleError(f"It is {who}'s turn, not yours. Wait for your turn (`/battle status` shows the order).")
    return turn


def no_pending(c: Ctx) -> None:
    if c.b.lockpick:
        raise RuleError("Finish the lockpick check first: `/lockpick` (adjust:, keep:, or stop:yes).")
    # any other action after moving onto a cache gives up the chance to pick its lock (or onto an explorable
    # hex, the chance to explore it by standing there)
    c.b.turn.cache = None
    c.b.turn.explore_here = None
    if c.b.pending:
        raise RuleError("Resolve your roll first: `/resolve` (all results in rolled order) or "
                        "`/resolve order:2,1` to choose which and in what order.")


def check_target(c: Ctx, me: Unit, target: Unit, form: str, adv) -> None:
    if target.id == me.id:
        raise RuleError("You cannot target yourself. Leave `target:` empty for dice that need no target.")
    if not c.opposing(me, target):
        raise RuleError(f"{target.name} is not an opposing unit; target an enemy.")
    a, b = pos(me), pos(target)
    if not c.sight(a, b):
        raise RuleError(f"{target.name} is out of sight (sight reaches your tile and the tiles next to it).")
    rng = c.range_to(a, b)
    if form in ("light", "heavy") and rng != 1:
        raise RuleError(f"In {BATTLE_FORM_NAMES[form]} form you can target only adjacent units; "
                        f"{target.name} is {count(rng, 'hex')} away. Move next to it first.")
    if form == "defensive":
        raise RuleError("Defensive form has no range: engage without a target (its dice protect you).")
    if form == "ranged":
        if rng is None or rng < 2 or rng > adv.stat("stamina"):
            raise RuleError(f"Ranged form reaches units 2 to {adv.stat('stamina')} hexes away (your Stamina), "
                            f"not adjacent ones; {target.name} is {count(rng, 'hex')} away.")
    if form == "magic" and (rng is None or rng > adv.stat("magicka")):
        raise RuleError(f"Magic form reaches {count(adv.stat('magicka'), 'hex')} (your Magicka); "
                        f"{target.name} is {count(rng, 'hex')} away.")
    if c.has(me, "blind"):
        adj = [u for u in c.units() if u.id != me.id and distance(pos(u), a) == 1]
        if not adj or target.id not in [u.id for u in adj] or c.hp(target) < max(c.hp(u) for u in adj):
            raise RuleError("You are blind: you may only target the strongest adjacent unit.")
    if c.has(target, "stealth"):
        start = c.b.turn.start
        sa, sb = start.get(me.id), start.get(target.id)
        if not sa or not sb or distance(Hex(*sa), Hex(*sb)) != 1:
            raise RuleError(f"{target.name} is in stealth: only units that were next to it at the start of "
                            "this turn may target it.")
