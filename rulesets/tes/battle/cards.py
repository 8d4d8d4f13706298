"""Effect primitives delve cards need (rulebook pp.76-80): draining a die, and a choice between two effects.

* ``drain``: an adventurer drains skill dice (a Combat die, or any skill die): the die leaves the mat until the
  battle's cleanup, as a D-code die does.  Taken from the attribute rows first (the player keeps the rest
  rolling), else from the cooldown track.
* ``either``: each adventurer it reaches chooses one of its options ("drain a Combat die or gain bane").  An option
  that cannot be carried out (no Combat die to drain) is not offered; with one option left it applies at once and
  says why.  Otherwise the choice waits for its player (``Battle.choices``, one prompt at a time, in turn order,
  with the card's default at the deadline); ``rulesets.tes.battle.delve.choose`` answers it.  An ``either`` stands
  last in its list of effects: what follows it does not wait for the answer.
"""
from __future__ import annotations

from typing import Any

from engine.effects import Field, Primitive, amount, one_of, show
from engine.text import a_or_an, count
from rulesets.tes.battle import track
from rulesets.tes.battle.effects import REGISTRY, Use, _to, amount_of, register, run_effects, units_for
from rulesets.tes.battle.model import Ctx, prevent_timeout_minutes
from rulesets.tes.battle_state import Choice
from rulesets.tes.content.schema import TARGETS

DRAIN_WHAT = {"combat": "Combat", "any": "skill"}


def drainable(c: Ctx, owner: str, what: str) -> list[str]:
    """The adventurer's dice that ``drain`` may take, in the order it takes them: dice in the attribute rows
    first, then dice in the cooldown track (never dice in active slots, on a unit or in a hex)."""
    adv = c.adv(owner)

    def fits(die_id: str) -> bool:
        d = adv.dice.get(die_id) or {}
        return what == "any" or d.get("line") == what

    rows = [d for d in adv.available_dice() if fits(d)]
    in_track = [e["die"] for e in adv.cooldown if "die" in e and fits(e["die"]) and e["die"] not in rows]
    return rows + in_track


def drain_dice(c: Ctx, owner: str, what: str, n: int, label: str) -> int:
    adv = c.adv(owner)
    took = drainable(c, owner, what)[:n]
    for die in took:
        adv.cooldown = [e for e in adv.cooldown if e.get("die") != die]
        if die not in adv.drained:
            adv.drained.append(die)
    if took:
        names = ", ".join(track.die_label(c.pack, adv, d) for d in took)
        word = a_or_an(names)  # "a Combat", "an ..."
        what = f"{word} die" if len(took) == 1 else f"{count(len(took), 'die')} ({names})"
        c.say("drain", f"{label}: {adv.name} drains {what} (off the mat until the battle ends).",
              unit=f"a:{owner}", amount=len(took))
    else:
        word = DRAIN_WHAT.get(what, what)
        c.say("drain", f"{label}: {adv.name} has no {word} die left to drain.",
              unit=f"a:{owner}", amount=0)
    return len(took)


@register
class Drain(Primitive):
    type = "drain"
    summary = "drain skill dice (what = combat or any): they leave the mat until the battle ends"
    fields = {"amount": Field(amount, default=1), "what": Field(one_of(*DRAIN_WHAT), default="combat"),
              "target": Field(one_of(*TARGETS), default="self")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        done = 0
        for u in units_for(use, eff.get("target", "self")):
            if u.get("owner"):
                done += drain_dice(use.c, u["owner"], eff.get("what", "combat"), n, use.label)
        return done

    def describe(self, eff: dict) -> str:
        n = eff.get("amount", 1)
        what = DRAIN_WHAT.get(eff.get("what", "combat"), "skill")
        dice = "die" if n == 1 else "dice"
        who = _to(eff, "self")
        return f"{who} drain{'' if who == 'you' else 's'} {n} {what} {dice}"


def possible(c: Ctx, owner: str, effects: list[dict]) -> bool:
    """Whether an option can be carried out: every drain in it finds its dice (a drain of "value" dice: one)."""
    for eff in effects:
        n = eff.get("amount", 1)
        if eff.get("type") == "drain" and len(drainable(c, owner, eff.get("what", "combat"))) < (
                n if isinstance(n, int) else 1):
            return False
    return True


def _options(v: Any) -> str | None:
    if not isinstance(v, list) or len(v) < 2:
        return f"must list at least 2 options, each {{ label = \"...\", effects = [...] }}, got {show(v)}"
    for i, o in enumerate(v, 1):
        if not isinstance(o, dict) or set(o) - {"label", "effects"} or not isinstance(o.get("label"), str) \
                or not o["label"].strip() or not isinstance(o.get("effects"), list) or not o["effects"]:
            return f"option {i} must be {{ label = \"...\", effects = [...] }}"
        for j, eff in enumerate(o["effects"], 1):
            if isinstance(eff, dict) and eff.get("type") == "either":
                return f"option {i} effect {j}: a choice cannot hold another choice"
            _full, problems = REGISTRY.validate(eff)
            if problems:
                return f"option {i} effect {j} {problems[0]}"
    return None


def _read_options(v: list) -> list[dict]:
    return [{"label": o["label"].strip(), "effects": [REGISTRY.validate(e)[0] for e in o["effects"]]} for o in v]


def _default(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else "must be an option number from 1"


@register
class Either(Primitive):
    type = "either"
    summary = "each adventurer it reaches chooses one of its options (asked in turn; default at the deadline)"
    fields = {"options": Field(_options, required=True, read=_read_options),
              "target": Field(one_of(*TARGETS), default="self"), "default": Field(_default, default=1)}

    def problems(self, eff: dict) -> list[str]:
        n = len(eff.get("options") or [])
        if int(eff.get("default", 1)) > n:
            return [f"default must be one of the option numbers 1 to {n}"]
        return []

    def apply(self, use: Use, eff: dict) -> int:
        c = use.c
        b = c.b
        n = 0
        for u in units_for(use, eff.get("target", "self")):
            owner = u.get("owner")
            if not owner:
                continue
            adv = c.adv(owner)
            options = [o for o in eff["options"]]
            can = [o for o in options if possible(c, owner, o["effects"])]
            if not can:
                c.say("choice", f"{use.label}: {adv.name} can do none of it ("
                      + " or ".join(o["label"].lower() for o in options) + "), so nothing happens.", unit=u.id)
                continue
            if len(can) == 1:
                left_out = [o["label"].lower() for o in options if o not in can]
                c.say("choice", f"{use.label}: {adv.name} cannot {' or '.join(left_out)}, so: {can[0]['label']}.",
                      unit=u.id)
                run_effects(Use(c, u, use.label, tile=use.tile), can[0]["effects"])
                n += 1
                continue
            default = int(eff.get("default", 1))
            default = can.index(options[default - 1]) + 1 if options[default - 1] in can else 1
            b.asks += 1
            minutes = prevent_timeout_minutes(c.state)
            b.choices.append(Choice(id=b.asks, owner=owner, source=use.label, options=[dict(o) for o in can],
                                    default=default, tile=use.tile,
                                    deadline=c.now + minutes * 60 if minutes > 0 and c.now else None))
            c.say("choice", f"❓ {use.label}: {{@player}} chooses for {adv.name}: " + "; ".join(
                f"{i}. {o['label']}" for i, o in enumerate(can, 1)) + " (`/battle choose option:`).",
                unit=u.id, player=owner)
            n += 1
        return n

    def describe(self, eff: dict) -> str:
        who = _to(eff, "self")
        return f"{who} choose{'' if who == 'you' else 's'}: " + " or ".join(o["label"].lower() for o in eff["options"])


__all__ = ["Drain", "Either", "drainable", "drain_dice", "possible"]
